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

use std::collections::BTreeMap;
use std::rc::Rc;

use heaplab_smt::{
    parse_sort, parse_term, Answer, BoxFuture, NoZ3, Query, SmtSolver, Solver, SolverError,
    SolverFrontend, Stats, Term, Transport, Value, Var,
};
use js_sys::{Function, Promise};
use serde::{Deserialize, Serialize};
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

/// The variant name of an error, exposed to JS as `error.kind`.
fn error_kind(e: &SolverError) -> &'static str {
    match e {
        SolverError::NotInstalled => "NotInstalled",
        SolverError::Timeout { .. } => "Timeout",
        SolverError::Crashed(_) => "Crashed",
        SolverError::SolverReported(_) => "SolverReported",
        SolverError::Malformed(_) => "Malformed",
        SolverError::Io(_) => "Io",
        SolverError::WasmLoad(_) => "WasmLoad",
        SolverError::Eval(_) => "Eval",
    }
}

/// A JS `Error` carrying the message and the variant name in `kind`.
pub fn to_js_error(e: &SolverError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    let _ =
        js_sys::Reflect::set(&err, &JsValue::from_str("kind"), &JsValue::from_str(error_kind(e)));
    err.into()
}

/// Input of `check`: the shape of one case of the conformance corpus.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CheckInput {
    /// Variable name to sort (`Int`, `Bool`, `Ref`).
    #[serde(default)]
    vars: BTreeMap<String, String>,
    /// Assertions in SMT-LIB2 term syntax over `vars`.
    #[serde(default)]
    assert: Vec<String>,
    /// A whole hand-written script, sent as is instead of `assert`.
    #[serde(default)]
    raw: Option<String>,
    /// Variables to report; default: all of `vars`.
    #[serde(default)]
    want: Option<Vec<String>>,
    #[serde(default)]
    timeout_ms: Option<u32>,
}

/// Result of `check`, as a plain JS object.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CheckOutput {
    status: &'static str,
    /// Variable name to number or boolean (numbers beyond 2^53 as strings).
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<BTreeMap<String, ModelValue>>,
    /// Whether the model satisfies every assertion under the Rust evaluator.
    #[serde(skip_serializing_if = "Option::is_none")]
    rechecked: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
enum ModelValue {
    Bool(bool),
    Number(f64),
    Big(String),
}

impl From<Value> for ModelValue {
    fn from(v: Value) -> ModelValue {
        const SAFE: i64 = 1 << 53;
        match v {
            Value::Bool(b) => ModelValue::Bool(b),
            Value::Int(i) if (-SAFE..=SAFE).contains(&i) => ModelValue::Number(i as f64),
            Value::Int(i) => ModelValue::Big(i.to_string()),
        }
    }
}

/// A parsed `check` request: either a term query or a raw script.
enum Request {
    Terms(Query),
    Raw(String, Vec<Var>),
}

fn parse_request(input: CheckInput) -> Result<Request, SolverError> {
    let vars: Vec<Var> = input
        .vars
        .iter()
        .map(|(name, sort)| Ok(Var::new(name.clone(), parse_sort(sort)?)))
        .collect::<Result<_, SolverError>>()?;
    let want = match &input.want {
        None => vars.clone(),
        Some(names) => names
            .iter()
            .map(|n| {
                vars.iter()
                    .find(|v| &v.name == n)
                    .cloned()
                    .ok_or_else(|| SolverError::Malformed(format!("want: unknown variable {n}")))
            })
            .collect::<Result<_, _>>()?,
    };
    if let Some(raw) = input.raw {
        return Ok(Request::Raw(raw, want));
    }
    let assertions: Vec<Term> =
        input.assert.iter().map(|a| parse_term(a, &vars)).collect::<Result<_, _>>()?;
    let mut query = Query::new(assertions).want(want);
    if let Some(ms) = input.timeout_ms {
        query = query.timeout_ms(ms);
    }
    Ok(Request::Terms(query))
}

fn output(answer: Answer, assertions: &[Term]) -> CheckOutput {
    match answer {
        Answer::Sat(model) => CheckOutput {
            status: "sat",
            rechecked: Some(matches!(model.satisfies_exact(assertions), Ok(true))),
            model: Some(model.iter().map(|(k, v)| (k.to_string(), v.into())).collect()),
            reason: None,
        },
        Answer::Unsat => {
            CheckOutput { status: "unsat", model: None, rechecked: None, reason: None }
        }
        Answer::Unknown(r) => {
            CheckOutput { status: "unknown", model: None, rechecked: None, reason: Some(r) }
        }
    }
}

/// Z3 wasm through the host's `solve`, or no Z3 at all.
pub enum Backend {
    Z3(SmtSolver<JsTransport>),
    None(NoZ3),
}

impl Backend {
    /// `solve` as JS passed it: a function, or `null`/`undefined` for no Z3.
    pub fn from_js(solve: Option<Function>) -> Backend {
        match solve {
            Some(f) => Backend::Z3(SmtSolver::new(JsTransport::new(f))),
            None => Backend::None(NoZ3),
        }
    }

    fn smt(&self) -> Result<&SmtSolver<JsTransport>, SolverError> {
        match self {
            Backend::Z3(s) => Ok(s),
            Backend::None(_) => Err(SolverError::WasmLoad(
                "no Z3 in this page: raw SMT-LIB2 scripts need Z3 wasm".into(),
            )),
        }
    }
}

impl Solver for Backend {
    fn check<'a>(&'a self, query: &'a Query) -> BoxFuture<'a, Result<Answer, SolverError>> {
        match self {
            Backend::Z3(s) => s.check(query),
            Backend::None(n) => n.check(query),
        }
    }
    fn is_present(&self) -> bool {
        matches!(self, Backend::Z3(_))
    }
}

type Stack = SolverFrontend<Backend>;

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
        let stack =
            SolverFrontend::with_clock(Backend::from_js(solve), js_now).with_procedure(procedure);
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
            let out = match parse_request(input).map_err(|e| to_js_error(&e))? {
                Request::Terms(query) => {
                    let answer = stack.check(&query).await.map_err(|e| to_js_error(&e))?;
                    output(answer, &query.assertions)
                }
                Request::Raw(script, want) => {
                    let smt = stack.inner().smt().map_err(|e| to_js_error(&e))?;
                    let answer = smt.check_script(&script, &want).await;
                    output(answer.map_err(|e| to_js_error(&e))?, &[])
                }
            };
            to_js(&out).map_err(|e| js_sys::Error::new(&e.to_string()).into())
        })
    }

    /// Which solver answered how many queries (`SolverStats`).
    #[wasm_bindgen(unchecked_return_type = "SolverStats")]
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        let obj = JsStats::new(&self.stack.stats(), self.stack.inner().is_present());
        to_js(&obj).map_err(|e| js_sys::Error::new(&e.to_string()).into())
    }

    #[wasm_bindgen(js_name = resetStats)]
    pub fn reset_stats(&self) {
        self.stack.reset_stats();
    }
}

/// Serializes to plain JS objects (not `Map`s), as JSON would.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, serde_wasm_bindgen::Error> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
}

/// `SolverStats` (see the TypeScript section).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsStats {
    z3: bool,
    queries: f64,
    solver_calls: f64,
    decided_locally: f64,
    decided_by_procedure: f64,
    cache_hits: f64,
    outside_fragment: f64,
    unknown_without_z3: f64,
    solver_time_ms: f64,
}

impl JsStats {
    pub fn new(s: &Stats, z3: bool) -> JsStats {
        JsStats {
            z3,
            queries: s.queries as f64,
            solver_calls: s.solver_calls as f64,
            decided_locally: s.decided_locally as f64,
            decided_by_procedure: s.decided_by_procedure as f64,
            cache_hits: s.cache_hits as f64,
            outside_fragment: s.outside_fragment as f64,
            unknown_without_z3: s.unanswered as f64,
            solver_time_ms: s.solver_time_ms,
        }
    }
}
