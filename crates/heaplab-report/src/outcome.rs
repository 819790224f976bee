//! The one outcome list: how a path of the symbolic executor or a run of the interpreter ended,
//! as one kind from [`OutcomeKind`] plus what the kind needs (the error's keyword, the bound's
//! name) and a sentence for people.

use heaplab_engine::interp::Outcome;
use heaplab_engine::symbolic::PathOutcome;
use heaplab_syntax::SourceFile;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Every way a path or a run can end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeKind {
    /// The method or call returned (a value, or nothing for `void`).
    Returned,
    /// A runtime error of the program (`error` names it: `null_dereference`, ...).
    Error,
    /// A bound cut the path (`bound` names it).
    Bounded,
    /// An `assume` or the `requires` formula does not hold: no test.
    Discarded,
    /// The engine met something it cannot execute (a bug of HeapLab's).
    Internal,
}

/// How one path or run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OutcomeReport {
    pub kind: OutcomeKind,
    /// `error`: the runtime error's keyword, as a test's `expects` spells it.
    pub error: Option<String>,
    /// `bounded`: the name of the bound that cut the path.
    pub bound: Option<String>,
    /// One line for a person.
    pub text: String,
    /// The 1-based source line where it ended, when it did not return.
    pub line: Option<u32>,
}

impl OutcomeReport {
    /// The outcome of a symbolic path (`line`: the line of its span in the program).
    pub fn of_path(outcome: &PathOutcome, file: Option<&SourceFile>) -> OutcomeReport {
        let line_of = |start: u32| file.map(|f| f.line_col(start).line as u32);
        let (kind, error, bound, line) = match outcome {
            PathOutcome::Returned(_) => (OutcomeKind::Returned, None, None, None),
            PathOutcome::Error { kind, span, .. } => {
                (OutcomeKind::Error, Some(kind.keyword().to_string()), None, line_of(span.start))
            }
            PathOutcome::Bounded { bound, span } => (
                OutcomeKind::Bounded,
                None,
                Some(bound.name().to_string()),
                span.and_then(|s| line_of(s.start)),
            ),
            PathOutcome::Discarded { span, .. } => {
                (OutcomeKind::Discarded, None, None, line_of(span.start))
            }
            PathOutcome::Internal { span, .. } => {
                (OutcomeKind::Internal, None, None, span.and_then(|s| line_of(s.start)))
            }
        };
        OutcomeReport { kind, error, bound, text: outcome.summary(), line }
    }

    /// The outcome of an interpreter run (`text`: the caller's rendering of it).
    pub fn of_run(outcome: &Outcome, text: String, file: &SourceFile) -> OutcomeReport {
        let line = outcome.span().map(|s| file.line_col(s.start).line as u32);
        let (kind, error) = match outcome {
            Outcome::Returned(_) => (OutcomeKind::Returned, None),
            Outcome::Error(e) => (OutcomeKind::Error, Some(e.kind.keyword().to_string())),
            Outcome::AssumptionViolated { .. } => (OutcomeKind::Discarded, None),
        };
        OutcomeReport { kind, error, bound: None, text, line }
    }
}
