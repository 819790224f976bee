//! HeapLab's report vocabulary (issue 28 item 2, STYLE.md item 11): what leaves a run — the run
//! summary, the outcome of a path or a call, the documents each command prints with
//! `--format json` — declared once as serde types in one spelling (snake_case), each document
//! carrying [`SCHEMA_VERSION`]. The CLI prints these types, the wasm module returns them, and
//! the page is typed from the JSON Schema generated from them ([`schema`]), which is committed
//! as `docs/report.schema.json` (a test fails when it and the types drift apart).
//!
//! Invariant: no IO. Builders read the engine's and test generation's results and return plain
//! values; the front ends serialize them.

pub mod commands;
pub mod findings;
pub mod merge;
pub mod outcome;
pub mod schema;
pub mod summary;

pub use commands::{
    BenchReport, CheckReport, CompareReport, DiagnosticReport, ExecReport, SatFileReport,
    SatReport, TestReport, TestResultReport,
};
pub use outcome::{OutcomeKind, OutcomeReport};
pub use summary::{FindingReport, RunSummary, ShardReport, SolverCallsReport};

/// The version of every document here: raised when a key changes meaning or goes away (adding
/// a key keeps it).
pub const SCHEMA_VERSION: u32 = 1;
