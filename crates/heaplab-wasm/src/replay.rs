//! `Exploration.replay(i)`: the concrete replay of generated test `i`, for the page to step
//! through. The interpreter runs the test's input with its trace observer on (the tracing is the
//! engine's; this module only shapes it for JS): one event per statement with its line, the call
//! frames and their locals, and the heap, then the outcome the replay ended in beside the one
//! the test expects. The test's symbolic history is the chain of exploration-tree choices from
//! the root to its path's end (lazy initializations, unfoldings, branches).

use crate::explore::{fail, heap_value, objects, to_js, Exploration, JsHeapValue, JsObject};
use heaplab_engine::symbolic::explorer::split_target;
use heaplab_engine::{Interpreter, Limits, Outcome};
use heaplab_testgen::Expected;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Steps of one replay: smaller than the interpreter's default, since every step the learner
/// can see holds a heap.
const REPLAY_STEPS: u64 = 200_000;
/// Statements recorded; past it the replay still runs to its outcome, and says it stopped
/// recording.
const REPLAY_EVENTS: usize = 2_000;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** One statement of a concrete replay: where it is, the frames (outermost first) and the heap
 * before it runs. */
export interface ReplayEvent {
  line: number;
  frames: { function: string; this: string | null; locals: [string, unknown][] }[];
  objects: { id: string; class: string; fields: Record<string, unknown> }[];
}
/** `Exploration.replay(i)`. `outcome`/`expected`: the replay's, in the shape of a test's. */
export interface Replay {
  test: string;
  events: ReplayEvent[];
  /** Events were no longer recorded past `maxEvents` (the run went on to its outcome). */
  truncated: boolean;
  maxEvents: number;
  maxSteps: number;
  steps: number;
  outcome: 'returned' | 'error' | 'assumption';
  expected: string;
  message: string;
  line: number | null;
  testOutcome: string;
  testExpected: string;
  history: { node: number; label: string; line: number | null }[];
}
"#;

#[derive(Serialize)]
struct JsFrame {
    function: String,
    this: Option<String>,
    locals: Vec<(String, JsHeapValue)>,
}

#[derive(Serialize)]
struct JsReplayEvent {
    line: u32,
    frames: Vec<JsFrame>,
    objects: Vec<JsObject>,
}

#[derive(Serialize)]
struct JsChoice {
    node: u32,
    label: String,
    line: Option<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsReplay {
    test: String,
    events: Vec<JsReplayEvent>,
    truncated: bool,
    max_events: usize,
    max_steps: u64,
    steps: u64,
    outcome: &'static str,
    expected: String,
    message: String,
    line: Option<u32>,
    test_outcome: &'static str,
    test_expected: String,
    history: Vec<JsChoice>,
}

#[wasm_bindgen]
impl Exploration {
    /// Replays generated test `test` (its index in `tests()`) in the interpreter and returns
    /// its trace (`Replay`). Throws an `Error` with `kind` `NoTests` before exploration is over,
    /// `UnknownTest` for an index out of range.
    #[wasm_bindgen(unchecked_return_type = "Replay")]
    pub fn replay(&self, test: u32) -> Result<JsValue, JsValue> {
        let r = self.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
        let Some(g) = &r.generation else {
            return Err(fail("NoTests", "the tests exist once exploration is over"));
        };
        let Some(t) = g.tests.get(test as usize) else {
            return Err(fail("UnknownTest", &format!("there is no test {test}")));
        };
        let program = &r.analysis.program;
        let limits = Limits { steps: REPLAY_STEPS, ..Limits::default() };
        let mut interp = Interpreter::new(program, &r.analysis.info, limits);
        interp.set_heap(t.input.heap.clone());
        interp.trace_next_run(REPLAY_EVENTS);
        let (_, name) = split_target(&r.method);
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
                line: r.line_of(e.span),
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
            Outcome::Error(e) => {
                ("error", e.kind.keyword().to_string(), e.message.clone(), Some(r.line_of(e.span)))
            }
            Outcome::AssumptionViolated { span, .. } => (
                "assumption",
                "assume".to_string(),
                "an `assume` was false".to_string(),
                Some(r.line_of(*span)),
            ),
        };
        let (test_outcome, test_expected) = match &t.expected {
            Expected::Returned(v) => ("returned", t.input.heap.display_value(v)),
            Expected::Error(kind) => ("error", kind.keyword().to_string()),
        };
        to_js(&JsReplay {
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
            history: history(&r.explorer, t.path, |s| r.line_of(s)),
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
    let Some(mut node) = tree.iter().find(|n| n.path == Some(path)) else { return Vec::new() };
    let mut chain = Vec::new();
    loop {
        chain.push(JsChoice {
            node: node.id.0,
            label: node.label.clone(),
            line: node.span.map(&line),
        });
        let Some(parent) = node.parent else { break };
        let found = match tree.get(parent.0 as usize) {
            Some(n) if n.id == parent => Some(n),
            _ => tree.iter().find(|n| n.id == parent),
        };
        match found {
            Some(n) if chain.len() <= tree.len() => node = n,
            _ => break,
        }
    }
    chain.reverse();
    chain
}
