//! The conformance corpus (`tests/corpus/conformance.json`) against the native backend: a real
//! `z3` process, both directly and through the [`SolverFrontend`]. The same file runs on Z3
//! wasm in `tests/node/conformance.test.mjs`.
#![allow(clippy::unwrap_used)]

use heaplab_smt::{
    block_on, parse_sort, parse_term, Answer, Query, SmtSolver, Solver, SolverError,
    SolverFrontend, Term, Value, Var, Z3Process,
};
use serde_json::Value as Json;

struct Case {
    name: String,
    json: Json,
    vars: Vec<Var>,
}

fn corpus() -> Vec<Case> {
    let text = include_str!("corpus/conformance.json");
    let root: Json = serde_json::from_str(text).expect("corpus is valid JSON");
    root["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| {
            let vars = c["vars"]
                .as_object()
                .map(|m| {
                    m.iter()
                        .map(|(n, s)| Var::new(n.clone(), parse_sort(s.as_str().unwrap()).unwrap()))
                        .collect()
                })
                .unwrap_or_default();
            Case { name: c["name"].as_str().unwrap().to_string(), json: c.clone(), vars }
        })
        .collect()
}

/// Runs one case; returns the answer and the assertions its model must satisfy.
fn run_case(
    solver: &dyn Solver,
    smt: &SmtSolver<Z3Process>,
    case: &Case,
) -> Result<(Answer, Vec<Term>), SolverError> {
    if let Some(raw) = case.json["raw"].as_str() {
        return Ok((block_on(smt.check_script(raw, &case.vars))?, Vec::new()));
    }
    let assertions = case.json["assert"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| parse_term(a.as_str().unwrap(), &case.vars))
        .collect::<Result<Vec<_>, _>>()?;
    let mut query = Query::new(assertions.clone()).want(case.vars.clone());
    if let Some(ms) = case.json["timeoutMs"].as_u64() {
        query = query.timeout_ms(ms as u32);
    }
    Ok((block_on(solver.check(&query))?, assertions))
}

fn error_kind(e: &SolverError) -> &'static str {
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

/// Checks one result against the case's expectation; returns a failure message.
fn verify(case: &Case, res: Result<(Answer, Vec<Term>), SolverError>) -> Option<String> {
    let expect = case.json["expect"].as_str().unwrap();
    match (expect, res) {
        ("sat", Ok((Answer::Sat(model), assertions))) => {
            if model.satisfies(&assertions) != Ok(true) {
                return Some(format!("model {model:?} does not satisfy the assertions"));
            }
            for v in &case.vars {
                if model.get(v).is_none() {
                    return Some(format!("no value for {}", v.name));
                }
            }
            if let Some(pinned) = case.json["model"].as_object() {
                for (name, want) in pinned {
                    let var = case.vars.iter().find(|v| &v.name == name).unwrap();
                    let want = match want {
                        Json::Bool(b) => Value::Bool(*b),
                        n => Value::Int(n.as_i64().unwrap()),
                    };
                    if model.get(var) != Some(want) {
                        return Some(format!("{name} = {:?}, expected {want:?}", model.get(var)));
                    }
                }
            }
            None
        }
        ("unsat", Ok((Answer::Unsat, _))) => None,
        ("unknown", Ok((Answer::Unknown(_), _)))
        | ("unknown", Err(SolverError::Timeout { .. })) => None,
        ("error", Err(e)) if error_kind(&e) == case.json["error"].as_str().unwrap() => None,
        (_, other) => Some(format!("expected {expect}, got {other:?}")),
    }
}

#[test]
fn corpus_on_z3_process() {
    let smt = SmtSolver::new(Z3Process::default());
    let frontend = SolverFrontend::new(SmtSolver::new(Z3Process::default()));
    let mut failures = Vec::new();
    let cases = corpus();
    assert!(cases.len() >= 20, "corpus shrank to {} cases", cases.len());
    for case in &cases {
        for (label, solver) in [("direct", &smt as &dyn Solver), ("frontend", &frontend)] {
            if let Some(msg) = verify(case, run_case(solver, &smt, case)) {
                failures.push(format!("{} [{label}]: {msg}", case.name));
            }
        }
    }
    assert!(failures.is_empty(), "conformance failures:\n{}", failures.join("\n"));
    let stats = frontend.stats();
    assert!(stats.decided_locally > 0, "{stats:?}");
    assert!(stats.solver_calls > 0, "{stats:?}");
}
