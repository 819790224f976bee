//! The concrete replay of a generated test, for the page to step through. The interpreter runs
//! the test's input with its trace observer on (the tracing is the engine's; this module only
//! shapes it): one event per statement with its line, the call frames and their locals, and
//! the heap, then the outcome the replay ended in beside the one the test expects. The test's
//! symbolic history is the chain of exploration-tree choices from the root to its path's end
//! (lazy initializations, unfoldings, branches).

use heaplab_engine::symbolic::explorer::split_target;
use heaplab_engine::{Interpreter, Limits, Outcome};
use heaplab_testgen::Expected;
use serde::Serialize;

use crate::exploration::Run;
use crate::tests_view::{heap_value, objects, JsHeapValue, JsObject};
use crate::{fail, Failure};

/// Steps of one replay: smaller than the interpreter's default, since every step the learner
/// can see holds a heap.
pub const REPLAY_STEPS: u64 = 200_000;
/// Statements recorded; past it the replay still runs to its outcome, and says it stopped
/// recording.
pub const REPLAY_EVENTS: usize = 2_000;

#[derive(Serialize)]
pub struct JsFrame {
    pub function: String,
    pub this: Option<String>,
    pub locals: Vec<(String, JsHeapValue)>,
}

#[derive(Serialize)]
pub struct JsReplayEvent {
    pub line: u32,
    pub frames: Vec<JsFrame>,
    pub objects: Vec<JsObject>,
}

#[derive(Serialize)]
pub struct JsChoice {
    pub node: u32,
    pub label: String,
    pub line: Option<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsReplay {
    pub test: String,
    pub events: Vec<JsReplayEvent>,
    pub truncated: bool,
    pub max_events: usize,
    pub max_steps: u64,
    pub steps: u64,
    pub outcome: &'static str,
    pub expected: String,
    pub message: String,
    pub line: Option<u32>,
    pub test_outcome: &'static str,
    pub test_expected: String,
    pub history: Vec<JsChoice>,
}

impl Run {
    /// Replays generated test `test` (its index in `tests()`) in the interpreter and returns
    /// its trace. Fails with `NoTests` before exploration is over, `UnknownTest` for an index
    /// out of range.
    pub fn replay(&self, test: u32) -> Result<JsReplay, Failure> {
        let Some(g) = &self.generation else {
            return Err(fail("NoTests", "the tests exist once exploration is over"));
        };
        let Some(t) = g.tests.get(test as usize) else {
            return Err(fail("UnknownTest", &format!("there is no test {test}")));
        };
        let program = &self.analysis.program;
        let limits = Limits { steps: REPLAY_STEPS, ..Limits::default() };
        let mut interp = Interpreter::new(program, &self.analysis.info, limits);
        interp.set_heap(t.input.heap.clone());
        interp.trace_next_run(REPLAY_EVENTS);
        let (_, name) = split_target(&self.method);
        let outcome = match t.input.receiver {
            Some(recv) => interp.call_method(recv, name, &t.input.args),
            None => interp.call_function(name, &t.input.args),
        }
        .map_err(|e| fail("Internal", &e.to_string()))?;
        let trace = interp.take_trace().unwrap_or_default();
        let steps = interp.steps();
        let heap = interp.into_heap();
        let events = trace
            .events
            .iter()
            .map(|e| JsReplayEvent {
                line: self.line_of(e.span),
                frames: e
                    .frames
                    .iter()
                    .map(|f| JsFrame {
                        function: f.function.clone(),
                        this: f.this.map(|o| o.to_string()),
                        locals: f.locals.iter().map(|(n, v)| (n.clone(), heap_value(v))).collect(),
                    })
                    .collect(),
                objects: objects(&e.heap),
            })
            .collect();
        let (outcome, expected, message, line) = match &outcome {
            Outcome::Returned(v) => ("returned", heap.display_value(v), String::new(), None),
            Outcome::Error(e) => (
                "error",
                e.kind.keyword().to_string(),
                e.message.clone(),
                Some(self.line_of(e.span)),
            ),
            Outcome::AssumptionViolated { span, .. } => (
                "assumption",
                "assume".to_string(),
                "an `assume` was false".to_string(),
                Some(self.line_of(*span)),
            ),
        };
        let (test_outcome, test_expected) = match &t.expected {
            Expected::Returned(v) => ("returned", t.input.heap.display_value(v)),
            Expected::Error(kind) => ("error", kind.keyword().to_string()),
        };
        Ok(JsReplay {
            test: t.name.clone(),
            events,
            truncated: trace.truncated,
            max_events: REPLAY_EVENTS,
            max_steps: REPLAY_STEPS,
            steps,
            outcome,
            expected,
            message,
            line,
            test_outcome,
            test_expected,
            history: history(&self.explorer, t.path, |s| self.line_of(s)),
        })
    }
}
/// The choices from the root of the exploration tree to the end of path `path`.
fn history(
    explorer: &heaplab_engine::symbolic::Explorer,
    path: usize,
    line: impl Fn(heaplab_syntax::Span) -> u32,
) -> Vec<JsChoice> {
    let tree = explorer.tree();
    // The path's final state is its node (a search of the tree read millions of nodes).
    let end = explorer.paths().get(path).map(|p| p.state.id.0 as usize);
    let Some(mut node) = end.and_then(|i| tree.get(i)).filter(|n| n.path == Some(path)) else {
        return Vec::new();
    };
    let mut chain = Vec::new();
    loop {
        chain.push(JsChoice {
            node: node.id.0,
            label: tree.label(&node).to_string(),
            line: node.span.map(&line),
        });
        let Some(parent) = node.parent else { break };
        match tree.get(parent.0 as usize) {
            Some(n) if chain.len() <= tree.len() => node = n,
            _ => break,
        }
    }
    chain.reverse();
    chain
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exploration::{Next, Request};

    /// A test's history is the chain of tree nodes from the root to the node its path ended in,
    /// each the parent of the next, with the labels the tree gives them.
    #[test]
    fn a_history_runs_from_the_root_to_the_paths_node() {
        let source = include_str!("../../../examples/bst.hl").to_string();
        let request = Request::from_json(r#"{"strategy": "lazier#", "bounds": {"k": 2}}"#)
            .unwrap_or_else(|e| panic!("{}", e.message));
        let mut run = Run::new(source, "BST.insert".into(), request, false, || 0.0)
            .unwrap_or_else(|e| panic!("{}", e.message));
        while let Next::Event(_) = run.advance().expect("runs") {}
        run.try_generate().expect("tests");
        let tree = run.explorer.tree();
        let tests = run.tests();
        assert!(tests.len() > 20, "{} tests", tests.len());
        for (i, t) in tests.iter().enumerate() {
            let chain = run.replay(i as u32).expect("replays").history;
            let last = chain.last().expect("a history");
            assert_eq!(tree.get(last.node as usize).and_then(|n| n.path), Some(t.path));
            assert_eq!(tree.get(chain[0].node as usize).map(|n| n.parent), Some(None));
            for pair in chain.windows(2) {
                let child = tree.get(pair[1].node as usize).expect("a node");
                assert_eq!(child.parent.map(|p| p.0), Some(pair[0].node));
                assert_eq!(pair[1].label, tree.label(&child));
            }
        }
    }
}
