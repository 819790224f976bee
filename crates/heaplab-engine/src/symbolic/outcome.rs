//! How a path ended ([`PathOutcome`]) and a finished path with its final state
//! ([`PathResult`]). A leaf: every part of the executor ends paths with these.

use crate::symbolic::config::Bound;
use crate::symbolic::state::{SValue, State};
use heaplab_syntax::ast::{ErrorKind, NodeId};
use heaplab_syntax::Span;

/// How a path ended.
#[derive(Clone, Debug, PartialEq)]
pub enum PathOutcome {
    /// The method under test returned this value (normalized; `Void` for `void`).
    Returned(SValue),
    /// A runtime error of the program.
    Error { kind: ErrorKind, node: NodeId, span: Span, message: String },
    /// A bound cut the path.
    Bounded { bound: Bound, span: Option<Span> },
    /// An `assume` (or, with `precondition`, the `requires` formula) does not hold: the path
    /// does not describe a valid run and yields no test.
    Discarded { span: Span, precondition: bool },
    /// The engine met something it cannot execute (a program the checker should reject).
    Internal { message: String, span: Option<Span> },
}

/// The summary of a path discarded because its input breaks the precondition.
pub const DISCARDED_PRECONDITION: &str = "precondition does not hold";
/// The summary of a path discarded by an assumption (or an infeasible branch).
pub const DISCARDED_ASSUMPTION: &str = "assumption does not hold";

impl PathOutcome {
    /// Paths that become tests: the method returned or the program failed.
    pub fn is_feasible(&self) -> bool {
        matches!(self, PathOutcome::Returned(_) | PathOutcome::Error { .. })
    }

    /// One line for a person (values are shown raw; see [`PathResult::describe`]).
    pub fn summary(&self) -> String {
        match self {
            PathOutcome::Returned(v) => format!("returned {v:?}"),
            PathOutcome::Error { kind, message, .. } => format!("{}: {message}", kind.keyword()),
            PathOutcome::Bounded { bound, .. } => format!("bounded by `{bound}`"),
            PathOutcome::Discarded { precondition: true, .. } => DISCARDED_PRECONDITION.into(),
            PathOutcome::Discarded { precondition: false, .. } => DISCARDED_ASSUMPTION.into(),
            PathOutcome::Internal { message, .. } => format!("internal error: {message}"),
        }
    }
}

/// A finished path with its final state (the input journal, path condition and final heap that
/// test generation concretizes).
#[derive(Clone, Debug)]
pub struct PathResult {
    /// 0-based, in the order paths ended (counting the discarded paths a run left out, so a
    /// path's number, and the name of its test, do not depend on whether they were kept).
    pub index: usize,
    pub outcome: PathOutcome,
    /// Boxed: a run keeps hundreds of thousands of paths, and a `Vec` of whole states grew by
    /// hundreds of megabytes at once when it doubled, past the whole memory bound in one step.
    pub state: Box<State>,
}

impl PathResult {
    /// The path whose [`index`](Self::index) is `index` in `paths` (a run's paths in the order
    /// they ended): at that position unless the run left discarded paths out
    /// (`Explorer::set_summary_only`).
    pub fn find(paths: &[PathResult], index: usize) -> Option<&PathResult> {
        match paths.get(index) {
            Some(p) if p.index == index => Some(p),
            _ => paths.binary_search_by_key(&index, |p| p.index).ok().map(|i| &paths[i]),
        }
    }

    pub fn describe(&self) -> String {
        match &self.outcome {
            PathOutcome::Returned(v) => format!("returned {}", self.state.show(v)),
            other => other.summary(),
        }
    }
}
