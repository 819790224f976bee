//! `Z3Solver.check` of the JS API: a query given as data (variables, assertions in SMT-LIB2
//! term syntax, or a raw script), the shape of one case of the conformance corpus, and its
//! answer as data. The solver it runs on is the host's.

use std::collections::BTreeMap;

use heaplab_smt::{parse_sort, parse_term, Answer, Query, SolverError, Term, Value, Var};
use serde::{Deserialize, Serialize};

/// Input of `check`: the shape of one case of the conformance corpus.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckInput {
    /// Variable name to sort (`Int`, `Bool`, `Ref`).
    #[serde(default)]
    vars: BTreeMap<String, String>,
    /// Assertions in SMT-LIB2 term syntax over `vars`.
    #[serde(default)]
    assert: Vec<String>,
    /// A whole hand-written script, sent as is instead of `assert`.
    #[serde(default)]
    raw: Option<String>,
    /// Variables to report; default: all of `vars`.
    #[serde(default)]
    want: Option<Vec<String>>,
    #[serde(default)]
    timeout_ms: Option<u32>,
}

/// Result of `check`, as a plain JS object.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckOutput {
    status: &'static str,
    /// Variable name to number or boolean (numbers beyond 2^53 as strings).
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<BTreeMap<String, ModelValue>>,
    /// Whether the model satisfies every assertion under the Rust evaluator.
    #[serde(skip_serializing_if = "Option::is_none")]
    rechecked: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ModelValue {
    Bool(bool),
    Number(f64),
    Big(String),
}

impl From<Value> for ModelValue {
    fn from(v: Value) -> ModelValue {
        const SAFE: i64 = 1 << 53;
        match v {
            Value::Bool(b) => ModelValue::Bool(b),
            Value::Int(i) if (-SAFE..=SAFE).contains(&i) => ModelValue::Number(i as f64),
            Value::Int(i) => ModelValue::Big(i.to_string()),
        }
    }
}

/// A parsed `check` request: either a term query or a raw script.
pub enum CheckRequest {
    Terms(Query),
    Raw(String, Vec<Var>),
}

impl CheckRequest {
    /// Reads a `check` input: its variables, assertions (or raw script) and wanted variables.
    pub fn parse(input: CheckInput) -> Result<CheckRequest, SolverError> {
        let vars: Vec<Var> = input
            .vars
            .iter()
            .map(|(name, sort)| Ok(Var::new(name.clone(), parse_sort(sort)?)))
            .collect::<Result<_, SolverError>>()?;
        let want = match &input.want {
            None => vars.clone(),
            Some(names) => names
                .iter()
                .map(|n| {
                    vars.iter().find(|v| &v.name == n).cloned().ok_or_else(|| {
                        SolverError::Malformed(format!("want: unknown variable {n}"))
                    })
                })
                .collect::<Result<_, _>>()?,
        };
        if let Some(raw) = input.raw {
            return Ok(CheckRequest::Raw(raw, want));
        }
        let assertions: Vec<Term> =
            input.assert.iter().map(|a| parse_term(a, &vars)).collect::<Result<_, _>>()?;
        let mut query = Query::new(assertions).want(want);
        if let Some(ms) = input.timeout_ms {
            query = query.timeout_ms(ms);
        }
        Ok(CheckRequest::Terms(query))
    }
}

/// The result of a `check` as the page reads it; a model is re-checked by the Rust evaluator.
pub fn output(answer: Answer, assertions: &[Term]) -> CheckOutput {
    match answer {
        Answer::Sat(model) => CheckOutput {
            status: "sat",
            rechecked: Some(matches!(model.satisfies_exact(assertions), Ok(true))),
            model: Some(model.iter().map(|(k, v)| (k.to_string(), v.into())).collect()),
            reason: None,
        },
        Answer::Unsat => {
            CheckOutput { status: "unsat", model: None, rechecked: None, reason: None }
        }
        Answer::Unknown(r) => {
            CheckOutput { status: "unknown", model: None, rechecked: None, reason: Some(r) }
        }
    }
}

/// The variant name of an error, exposed to JS as `error.kind`.
pub fn error_kind(e: &SolverError) -> &'static str {
    match e {
        SolverError::NotInstalled => "NotInstalled",
        SolverError::Timeout { .. } => "Timeout",
        SolverError::Crashed(_) => "Crashed",
        SolverError::SolverReported(_) => "SolverReported",
        SolverError::Malformed(_) => "Malformed",
        SolverError::Io(_) => "Io",
        SolverError::WasmLoad(_) => "WasmLoad",
        SolverError::Eval(_) => "Eval",
    }
}
