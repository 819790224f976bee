//! `concolicRun`: the `concolic` strategy (Concolic StarFinder, issue 16) in the browser, the
//! same driver as `heaplab run --strategy concolic`: heaplab-session's `Concolic` run pass by
//! pass, the scripts a dropped pass left waiting sent to Z3 wasm between passes (see there).

use heaplab_session::concolic::{Concolic, Pass};
use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::explore::{js_now, parse_options, resolve, to_js, to_js_failure};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** One step of the concolic loop; `node` is the path of child indices from the entry. */
export type ConcolicEventJs =
  | { kind: 'runInput'; run: number; phase: number }
  | { kind: 'branch'; node: number[]; label: string; new: boolean }
  | { kind: 'unexplored'; node: number[] }
  | { kind: 'tryNode'; node: number[] }
  | { kind: 'deferred'; node: number[]; budget: number }
  | { kind: 'pruned'; node: number[]; why: string }
  | { kind: 'preprocess'; formulas: number; unfolds: number }
  | { kind: 'solve'; outcome: 'model' | 'unsat' | 'undecided' | 'deferred' }
  | { kind: 'solved'; formula: string }
  | { kind: 'newInput'; test: string };
/** What `concolicRun` resolves to. `summary` is the run summary of `heaplab run --strategy
 * concolic --format json` (`RunSummary` in web/src/report-types.js; `time_ms`: wall time of
 * the final pass); `passes` counts generation runs (one more per batch of Z3 replies awaited),
 * `sent_to_z3` the questions Z3 answered. */
export interface ConcolicResult {
  summary: RunSummary;
  passes: number;
  sent_to_z3: number;
  tests: GeneratedTestJs[];
  /** Test index to phase (1 or 2). */
  phases: number[];
  hl: string;
  json: string;
  /** As `Exploration.testsJunit`, or `{ error }` when Java cannot express the program. */
  junit: JunitFiles | { error: string };
  events: ConcolicEventJs[];
}
/** What `concolicRun`'s `onEvent` gets, as the loop runs: the event, the generation pass it
 * belongs to (a new pass, after Z3's replies, starts the stream again from its first run), and
 * for `newInput` the new test (its input heap). */
export interface ConcolicLiveEvent {
  pass: number;
  event: ConcolicEventJs;
  test?: GeneratedTestJs;
}
"#;

/// Runs CSF on `method` of `source` (see the module docs); resolves to `ConcolicResult`.
/// `solve`: the host's Z3 function, or `null` (then queries outside the Rust procedure's
/// fragment read `unknown`, as in an `Exploration` without Z3). `onEvent`, if given, is called
/// with each `ConcolicLiveEvent` as the loop records it (a throw there is ignored).
#[wasm_bindgen(js_name = concolicRun, unchecked_return_type = "Promise<ConcolicResult>")]
pub fn concolic_run(
    source: String,
    method: String,
    #[wasm_bindgen(unchecked_param_type = "ExploreOptions | undefined")] options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SmtSolveFn | null | undefined")] solve: Option<Function>,
    #[wasm_bindgen(js_name = onEvent, unchecked_param_type = "((e: ConcolicLiveEvent) => void) | null | undefined")]
    on_event: Option<Function>,
) -> Promise {
    future_to_promise(async move {
        let request = parse_options(options)?;
        let mut run = Concolic::new(source, method, &request, solve.is_some(), js_now)
            .map_err(|e| to_js_failure(&e))?;
        let mut observe = |e: &heaplab_session::concolic::LiveEvent| {
            let Some(f) = &on_event else { return };
            if let Ok(v) = to_js(e) {
                let _ = f.call1(&JsValue::NULL, &v);
            }
        };
        loop {
            match run.pass(&mut observe).map_err(|e| to_js_failure(&e))? {
                Pass::Done(result) => return to_js(&result),
                Pass::Missing(scripts) => resolve(solve.as_ref(), &run.bridge, scripts).await?,
            }
        }
    })
}
