//! `Exploration.replay(i)`: the concrete replay of generated test `i`, for the page to step
//! through: a call of `Run::replay` (heaplab-session), which holds the logic. The interpreter runs the test's input with its trace observer on (the tracing is the
//! engine's; this module only shapes it for JS): one event per statement with its line, the call
//! frames and their locals, and the heap, then the outcome the replay ended in beside the one
//! the test expects. The test's symbolic history is the chain of exploration-tree choices from
//! the root to its path's end (lazy initializations, unfoldings, branches).

use crate::explore::{to_js, to_js_failure, Exploration};
use wasm_bindgen::prelude::*;

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

#[wasm_bindgen]
impl Exploration {
    /// Replays generated test `test` (its index in `tests()`) in the interpreter and returns
    /// its trace (`Replay`). Throws an `Error` with `kind` `NoTests` before exploration is over,
    /// `UnknownTest` for an index out of range.
    #[wasm_bindgen(unchecked_return_type = "Replay")]
    pub fn replay(&self, test: u32) -> Result<JsValue, JsValue> {
        to_js(&self.read()?.replay(test).map_err(|e| to_js_failure(&e))?)
    }
}
