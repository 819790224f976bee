//! The documents `heaplab check`, `test`, `exec`, `sat`, `compare` and `bench` print with
//! `--format json` (`run` prints a [`RunSummary`](crate::RunSummary)).

use crate::outcome::OutcomeReport;
use crate::summary::RunSummary;
use heaplab_syntax::{Diagnostic, SourceFile};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One diagnostic with its place (1-based lines and columns).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiagnosticReport {
    /// `error` or `warning`.
    pub severity: String,
    pub message: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

impl DiagnosticReport {
    pub fn of(d: &Diagnostic, file: &SourceFile) -> DiagnosticReport {
        let (start, end) = (file.line_col(d.span.start), file.line_col(d.span.end));
        DiagnosticReport {
            severity: if d.is_error() { "error" } else { "warning" }.to_string(),
            message: d.message.clone(),
            line: start.line as u32,
            column: start.col as u32,
            end_line: end.line as u32,
            end_column: end.col as u32,
        }
    }

    /// A file that could not be read (missing, not UTF-8, too large): an error about the file
    /// as a whole, at line 0.
    pub fn unreadable(message: String) -> DiagnosticReport {
        DiagnosticReport {
            severity: "error".to_string(),
            message,
            line: 0,
            column: 0,
            end_line: 0,
            end_column: 0,
        }
    }
}

/// `heaplab check --format json`: the diagnostics of each file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckReport {
    pub schema_version: u32,
    pub files: Vec<CheckedFile>,
    /// Errors in all files (0: every file checks).
    pub errors: u64,
}

/// One file's diagnostics.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CheckedFile {
    pub file: String,
    pub diagnostics: Vec<DiagnosticReport>,
}

/// `heaplab test --format json`: each test block's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestReport {
    pub schema_version: u32,
    pub tests: Vec<TestResultReport>,
    pub passed: u64,
    /// Failed tests, plus one per file that does not check.
    pub failed: u64,
    /// Files that do not check (their tests did not run).
    pub broken_files: Vec<CheckedFile>,
}

/// One test block's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestResultReport {
    pub file: String,
    pub name: String,
    /// The line of the test's declaration.
    pub line: u32,
    pub passed: bool,
    /// How the block ended (`None`: the interpreter could not run it).
    pub outcome: Option<OutcomeReport>,
    /// Why it failed; empty when it passed.
    pub message: String,
    /// Interpreter steps used.
    pub steps: u64,
}

/// `heaplab exec --format json`: how the call ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExecReport {
    pub schema_version: u32,
    pub file: String,
    /// The call as given.
    pub call: String,
    pub outcome: OutcomeReport,
    /// The value returned, as the interpreter prints it.
    pub value: Option<String>,
    /// The final heap, with `--heap`.
    pub heap: Option<String>,
}

/// `heaplab compare --format json`: one run summary per strategy, in the order asked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CompareReport {
    pub schema_version: u32,
    pub file: String,
    pub method: String,
    pub k: u32,
    pub depth: u32,
    pub strategies: Vec<RunSummary>,
}

/// `heaplab bench --format json`: one row per (subject, strategy).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BenchReport {
    pub schema_version: u32,
    pub suite: String,
    pub k: u32,
    pub timeout_ms: u64,
    pub rows: Vec<BenchRow>,
    /// `heaplab bench --shard i/n`: which slice of the rows this report holds (absent from
    /// whole and merged reports).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<BenchShard>,
}

/// One slice of a sharded bench: the rows whose `item` is `index - 1` modulo `count`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BenchShard {
    /// This slice, counted from 1.
    pub index: u32,
    pub count: u32,
}

/// One bench row: the run's summary and the memory it took.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BenchRow {
    /// The row's place among every (file, method, strategy) of the whole bench, sharded or not
    /// (a method a strategy cannot run keeps its place without a row).
    pub item: u64,
    pub summary: RunSummary,
    /// Whether the run's time bound stopped it.
    pub timed_out: bool,
    /// The process's peak resident memory after the run (monotone over the bench), in KB.
    pub peak_rss_kb: u64,
    /// How much this run raised that peak, in KB.
    pub peak_rss_raise_kb: u64,
}

/// `heaplab sat --format json`: the verdict on one formula.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SatReport {
    pub schema_version: u32,
    /// `sat`, `unsat` or `unknown`.
    pub result: String,
    /// `sat`: the model.
    pub model: Option<ModelReport>,
    /// `sat`: the independent model checker accepted the model (`false`: it could not decide
    /// it within the run's bounds, see `unchecked_reason`).
    pub checked: Option<bool>,
    /// `sat` not re-checked: why the model checker gave up.
    pub unchecked_reason: Option<String>,
    /// `unknown`: why (the bound that stopped the search).
    pub reason: Option<String>,
    /// The run's time or memory bound, when one stopped it.
    pub stopped_by: Option<String>,
    pub time_ms: u64,
}

/// `heaplab sat FILE.smt2 --format json` on an SL-COMP file with a declared status (or more
/// than one query): the status the file declares and one verdict per query.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SatFileReport {
    pub schema_version: u32,
    /// The `:status` the file declares (`sat`, `unsat` or `unknown`).
    pub status: Option<String>,
    pub answers: Vec<SatReport>,
}

/// `heaplab sat --enumerate --format json`: the models up to isomorphism.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnumerationReport {
    pub schema_version: u32,
    pub count: u64,
    pub max_objects: u64,
    /// `--exactly N`: only models of exactly N objects.
    pub exactly: Option<u64>,
    pub max_depth: u32,
    /// Every model within the bounds was found.
    pub complete: bool,
    /// The bound that stopped the enumeration early, if one did.
    pub stopped_by: Option<String>,
    /// Models the model checker could not decide within the run's bounds (counted, not
    /// dropped).
    pub unchecked: u64,
    pub time_ms: u64,
    /// The models (left out with `--count`).
    pub models: Option<Vec<ModelReport>>,
}

/// A heap model of a formula: the store and the objects.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelReport {
    /// Each free variable's value.
    pub store: std::collections::BTreeMap<String, ValueReport>,
    pub objects: Vec<ObjectReport>,
}

/// One object of a model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObjectReport {
    pub id: u64,
    pub class: String,
    pub fields: std::collections::BTreeMap<String, ValueReport>,
    /// Outside the formula's footprint: the formula says nothing about its fields.
    pub unclaimed: bool,
}

/// A value of a model: an integer, a boolean, `null`, or a reference to an object by id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ValueReport {
    Int(i64),
    Bool(bool),
    Ref { r#ref: u64 },
    Null(()),
}

impl ModelReport {
    pub fn of(m: &heaplab_logic::Model) -> ModelReport {
        let value = |v: &heaplab_logic::Value| match v {
            heaplab_logic::Value::Int(i) => ValueReport::Int(*i),
            heaplab_logic::Value::Bool(b) => ValueReport::Bool(*b),
            heaplab_logic::Value::Null => ValueReport::Null(()),
            heaplab_logic::Value::Ref(o) => ValueReport::Ref { r#ref: *o as u64 },
        };
        ModelReport {
            store: m.store.iter().map(|(k, v)| (k.clone(), value(v))).collect(),
            objects: m
                .objects
                .iter()
                .enumerate()
                .map(|(i, o)| ObjectReport {
                    id: i as u64,
                    class: o.class.clone(),
                    fields: o.fields.iter().map(|(f, v)| (f.clone(), value(v))).collect(),
                    unclaimed: m.unclaimed.contains(&i),
                })
                .collect(),
        }
    }
}
