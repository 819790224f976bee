//! Z3 in the browser: the wasm [`Transport`] and a small JS class around the solver stack.
//!
//! The host passes one function, `solve(text: string) => Promise<string>` (see
//! `web/src/z3-bridge.js`), which runs an SMT-LIB2 script on Z3 wasm. Everything else (script
//! building, response parsing, local decisions with the Rust decision procedure
//! `heaplab_smt::lia`, cache) is the same Rust code the native CLI runs over a `z3` process.
//!
//! Without Z3 (a page without SharedArrayBuffer cannot load Z3 wasm) the host passes `null`
//! instead of `solve`: queries the Rust procedure decides are answered as usual, the others
//! `unknown` with a reason starting `outside the Rust procedure's fragment`, never guessed.

use std::rc::Rc;

use crate::explore::to_js;
use heaplab_session::events::JsStats;
use heaplab_session::replay_solver::Backend;
use heaplab_session::solver_check::{self, output, CheckInput, CheckRequest};
use heaplab_smt::{BoxFuture, Solver, SolverError, SolverFrontend, Transport};
use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** Host function running one SMT-LIB2 script on Z3 (see web/src/z3-bridge.js). */
export type SmtSolveFn = (smtText: string) => Promise<string>;
/** A query for Z3Solver.check; Ref is an Int with null = 0. */
export interface CheckInput {
  vars?: Record<string, 'Int' | 'Bool' | 'Ref'>;
  assert?: string[];
  raw?: string;
  want?: string[];
  timeoutMs?: number;
}
export interface CheckResult {
  status: 'sat' | 'unsat' | 'unknown';
  model?: Record<string, number | boolean | string>;
  rechecked?: boolean;
  reason?: string;
}
/** Which solver answered how many queries (`Z3Solver.stats()`; `Exploration.solverStats()`
 * adds the engine's own decisions). */
export interface SolverStats {
  /** Whether Z3 is behind this solver (false: constructed with `solve` = null). */
  z3: boolean;
  /** Queries received. */
  queries: number;
  /** Queries sent to Z3 wasm (same as `sentToZ3`; kept for older callers). */
  solverCalls: number;
  /** Queries answered in Rust: constant folding, the equality shortcut and the procedure. */
  decidedLocally: number;
  /** Of `decidedLocally`: queries the decision procedure decided. */
  decidedByProcedure: number;
  /** Queries answered from Z3's cache. */
  cacheHits: number;
  /** Queries outside the procedure's fragment (sent to Z3, cached, or unknown without Z3). */
  outsideFragment: number;
  /** Queries outside the fragment answered `unknown` because there is no Z3. */
  unknownWithoutZ3: number;
  /** Milliseconds spent waiting for Z3. */
  solverTimeMs: number;
}
/** Options of `new Z3Solver(solve, options)`. */
export interface Z3SolverOptions {
  /** Use the Rust decision procedure before Z3 (default true); false sends every query that
   * constant folding and the equality shortcut leave to Z3 (for comparing the two). */
  procedure?: boolean;
}
/** Every rejection is an Error whose kind names the Rust SolverError variant. */
export type SolverErrorKind =
  | 'NotInstalled' | 'Timeout' | 'Crashed' | 'SolverReported' | 'Malformed' | 'Io' | 'WasmLoad' | 'Eval';
"#;

/// A [`Transport`] that calls a host JS function `(text) => Promise<string>`.
#[derive(Debug, Clone)]
pub struct JsTransport {
    solve: Function,
}

impl JsTransport {
    pub fn new(solve: Function) -> JsTransport {
        JsTransport { solve }
    }

    async fn call(&self, script: &str) -> Result<String, SolverError> {
        let ret =
            self.solve.call1(&JsValue::NULL, &JsValue::from_str(script)).map_err(js_failure)?;
        // Accept a plain string too, so a synchronous host function also works.
        let value = match ret.dyn_into::<Promise>() {
            Ok(promise) => JsFuture::from(promise).await.map_err(js_failure)?,
            Err(value) => value,
        };
        value.as_string().ok_or_else(|| {
            SolverError::Malformed("the host solve function did not return a string".into())
        })
    }
}

impl Transport for JsTransport {
    fn run<'a>(&'a self, script: &'a str) -> BoxFuture<'a, Result<String, SolverError>> {
        Box::pin(self.call(script))
    }
}

/// Maps an exception of the host function to an error: `Z3LoadError` (thrown by
/// `z3-bridge.js` when Z3 wasm cannot start) becomes [`SolverError::WasmLoad`].
fn js_failure(err: JsValue) -> SolverError {
    let name = js_sys::Reflect::get(&err, &JsValue::from_str("name"))
        .ok()
        .and_then(|n| n.as_string())
        .unwrap_or_default();
    let message = js_sys::Reflect::get(&err, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| err.as_string())
        .unwrap_or_else(|| "unknown JS error".into());
    if name == "Z3LoadError" {
        SolverError::WasmLoad(message)
    } else {
        SolverError::Io(message)
    }
}

/// A JS `Error` carrying the message and the variant name in `kind`.
pub fn to_js_error(e: &SolverError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let _ = js_sys::Reflect::set(
        &err,
        &JsValue::from_str("kind"),
        &JsValue::from_str(solver_check::error_kind(e)),
    );
    err.into()
}

type Stack = SolverFrontend<Backend<JsTransport>>;

/// The solver stack for JS: frontend (constant folding, the Rust decision procedure, cache,
/// stats) over Z3 wasm, or over nothing.
///
/// ```js
/// import { solve } from './z3-bridge.js';
/// const solver = new Z3Solver(solve);
/// await solver.check({ vars: { x: 'Int' }, assert: ['(> x 3)'] }); // { status: 'sat', model: { x: 4 }, rechecked: true }
/// const rustOnly = new Z3Solver(null);  // no SharedArrayBuffer: no Z3 wasm
/// await rustOnly.check({ vars: { x: 'Int' }, assert: ['(> x 3)'] }); // sat, decided in Rust
/// rustOnly.stats();  // { z3: false, decidedByProcedure: 1, unknownWithoutZ3: 0, ... }
/// ```
#[wasm_bindgen]
pub struct Z3Solver {
    stack: Rc<Stack>,
}

fn js_now() -> f64 {
    js_sys::Date::now()
}

#[wasm_bindgen]
impl Z3Solver {
    /// `solve` is the host function `(smtText: string) => Promise<string>`, or `null` /
    /// `undefined` for no Z3: then queries outside the Rust procedure's fragment resolve to
    /// `{ status: 'unknown', reason: "outside the Rust procedure's fragment: ..." }` and `solve()`
    /// and raw scripts reject with kind `WasmLoad`. `options`: `Z3SolverOptions` (optional).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "SmtSolveFn | null | undefined")] solve: Option<
            Function,
        >,
        #[wasm_bindgen(unchecked_param_type = "Z3SolverOptions | undefined")] options: JsValue,
    ) -> Z3Solver {
        let procedure = js_sys::Reflect::get(&options, &JsValue::from_str("procedure"))
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(true);
        let stack = SolverFrontend::with_clock(Backend::new(solve.map(JsTransport::new)), js_now)
            .with_procedure(procedure);
        Z3Solver { stack: Rc::new(stack) }
    }

    /// Sends raw SMT-LIB2 text to Z3 and resolves to its output text (debug panel, tests).
    pub fn solve(&self, smt_text: String) -> Promise {
        let stack = Rc::clone(&self.stack);
        future_to_promise(async move {
            let smt = stack.inner().smt().map_err(|e| to_js_error(&e))?;
            smt.run_text(&smt_text)
                .await
                .map(|s| JsValue::from_str(&s))
                .map_err(|e| to_js_error(&e))
        })
    }

    /// Checks a query given as a JS object (or JSON text):
    /// `{ vars: {name: 'Int'|'Bool'|'Ref'}, assert: [smtTerm], want?: [name], timeoutMs?: n }`
    /// or `{ raw: script, vars?, want? }`. Resolves to
    /// `{ status: 'sat'|'unsat'|'unknown', model?, rechecked?, reason? }`; rejects with an
    /// `Error` whose `kind` names the [`SolverError`] variant.
    pub fn check(&self, input: JsValue) -> Promise {
        let stack = Rc::clone(&self.stack);
        future_to_promise(async move {
            let input = match input.as_string() {
                Some(text) => js_sys::JSON::parse(&text).map_err(|_| {
                    to_js_error(&SolverError::Malformed("check: input is not valid JSON".into()))
                })?,
                None => input,
            };
            let input: CheckInput = serde_wasm_bindgen::from_value(input).map_err(|e| {
                to_js_error(&SolverError::Malformed(format!("check: bad input: {e}")))
            })?;
            let out = match CheckRequest::parse(input).map_err(|e| to_js_error(&e))? {
                CheckRequest::Terms(query) => {
                    let answer = stack.check(&query).await.map_err(|e| to_js_error(&e))?;
                    output(answer, &query.assertions)
                }
                CheckRequest::Raw(script, want) => {
                    let smt = stack.inner().smt().map_err(|e| to_js_error(&e))?;
                    let answer = smt.check_script(&script, &want).await;
                    output(answer.map_err(|e| to_js_error(&e))?, &[])
                }
            };
            to_js(&out)
        })
    }

    /// Which solver answered how many queries (`SolverStats`).
    #[wasm_bindgen(unchecked_return_type = "SolverStats")]
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        let obj = JsStats::new(&self.stack.stats(), self.stack.inner().is_present());
        to_js(&obj)
    }

    #[wasm_bindgen(js_name = resetStats)]
    pub fn reset_stats(&self) {
        self.stack.reset_stats();
    }
}
