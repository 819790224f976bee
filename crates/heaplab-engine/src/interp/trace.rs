//! An optional observer of a concrete run: what the page's Replay steps through. Before each
//! statement the interpreter records the statement's place, the call frames with their locals
//! and a copy of the heap. Off by default, so the oracle runs of test generation pay nothing;
//! when on, the number of events is bounded ([`Trace::max_events`]) because each holds a heap.

use super::heap::Heap;
use super::value::{ObjId, Value};
use heaplab_syntax::ast::NodeId;
use heaplab_syntax::Span;

/// One call frame as the learner sees it: the function, `this` and the locals in scope.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceFrame {
    /// The function or method name; empty for the top level (a test block or a `--call`).
    pub function: String,
    pub this: Option<ObjId>,
    pub locals: Vec<(String, Value)>,
}

/// The machine just before one statement runs.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceEvent {
    pub span: Span,
    pub node: NodeId,
    /// Outermost first.
    pub frames: Vec<TraceFrame>,
    pub heap: Heap,
}

/// The recorded events of one run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    pub events: Vec<TraceEvent>,
    /// The most events kept; the run itself goes on (its own bound is `Limits::steps`).
    pub max_events: usize,
    /// Events were left out because [`Self::max_events`] was reached.
    pub truncated: bool,
}

impl Trace {
    pub fn new(max_events: usize) -> Trace {
        Trace { events: Vec::new(), max_events, truncated: false }
    }

    /// Whether another event fits; marks the trace truncated when it does not.
    pub(crate) fn has_room(&mut self) -> bool {
        if self.events.len() < self.max_events {
            return true;
        }
        self.truncated = true;
        false
    }
}
