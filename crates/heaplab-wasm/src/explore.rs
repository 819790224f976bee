//! Symbolic exploration in the browser: `heaplab_session::exploration::Run` (the same explorer
//! and test generation as `heaplab run`) stepped from JS, with Z3 wasm answering through a host
//! JS function.
//!
//! The run's solver answers only scripts whose reply it already has (see
//! `heaplab_session::replay_solver`); a step that needs another comes back with its scripts.
//! The async loop here sends them to the host's `solve` (several at once in one batch), stores
//! the replies and steps again. Test generation works the same way: a pass with missing model
//! replies is dropped, they are resolved all at once, and generation runs again.
//!
//! Without Z3 (`solve` = `null`, for pages without SharedArrayBuffer) the Rust decision
//! procedure answers what it can and the rest is `unknown`; nothing is ever pending.
//! `solverStats()` says which solver answered how many queries, and how many were left unknown.

use std::cell::RefCell;
use std::rc::Rc;

use heaplab_engine::symbolic::Clock;
use heaplab_session::exploration::{Next, Request, Run};
use heaplab_session::replay_solver::{resolve_with, Shared};
use heaplab_session::slice::{Slice, SliceStop};
use heaplab_session::{json_text, registry, tree_columns::TreeColumns, Failure};
use js_sys::{Function, Promise};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::solver_bridge::{to_js_error, JsTransport};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** What `new Exploration` and `concolicRun` take (every field optional): the engine's run options (`Options` in
 * web/src/report-types.js, generated from docs/report.schema.json: `strategy`, `pre`,
 * `order`, `all_heaps`, `sl_completion`, `bounds: { k, depth, loop, ... }` with the names of
 * `bounds()`), plus `file` (the file name reported in the summary) and `procedure` (false: Z3
 * gets every query the engine leaves, for measurements) and `views` (default true: keep a heap
 * view of every tree node for `view()`; the duel passes false) and `tree` (default true; false: no tree,
 * no view, no record of a discarded path: the Compare tab and the benches). `concolicRun` reads `order`
 * (default `mixed`), and of the bounds `depth` (phase 1), `max_paths` (runs) and `timeout_ms`. */
export type ExploreOptions = Record<string, unknown>;
/** One exploration event. */
export interface ExploreEvent {
  kind: 'start' | 'lazyInit' | 'branch' | 'disjuncts' | 'slModel' | 'solverQuery' | 'pathEnd' | 'stopped';
  /** The state (tree node) the event happened in; null for `stopped`. */
  node: number | null;
  parent: number | null;
  label: string;
  details: Record<string, unknown>;
  /** The 1-based source line of the event's state (a path's end: the construct its outcome blames); null for `stopped`. */
  line: number | null;
}
/** One slice of a run (`Exploration.runSlice`). */
export interface ExploreSlice {
  /** The events that change the tree (every kind but `solverQuery`), in order, as the JSON text of an
   * `ExploreEvent[]`; a `pathEnd` whose node is in `nodes` is folded into that node (its outcome, text and
   * line), unless it is the slice's last event; `sameNamesAs: i`: the `names` of the slice's event i. */
  eventsJson: string;
  /** Tree nodes with ids from `treeFrom` on, as rows (`TreeColumnsJs`). */
  nodes: TreeColumnsJs;
  /** Solver queries the slice asked (counted, not converted). */
  queries: number;
  over: boolean;
}
/** The summary of `heaplab run --format json`, with the same keys: `RunSummary` of
 * docs/report.schema.json, the one schema of the summary (typed for the page in
 * web/src/report-types.js, which is generated from it). */
export type RunSummary = Record<string, unknown>;
export type HeapValue = number | boolean | null | { ref: string };
export interface GeneratedTestJs {
  name: string; path: number; outcome: 'returned' | 'error';
  expected: string; // the return value as HeapLab text, or the error keyword
  validity: 'assumed' | 'valid' | 'invalid' | 'unknown' | 'no_precondition';
  kCut: boolean;
  /** The `test` block (left out by `tests(false)`). */
  hl?: string;
  /** 1-based source lines the test executes (statements the interpreter ran on replay). */
  lines: number[];
  input: {
    receiver: string | null;
    args: HeapValue[];
    objects: { id: string; class: string; fields: Record<string, HeapValue> }[];
  };
}
export interface TreeNodeJs {
  id: number; parent: number | null; label: string; path: number | null;
  /** null while the node is inner or still open. */
  outcome: 'returned' | 'error' | 'bounded' | 'discarded' | 'internal' | null;
  colour: 'green' | 'red' | 'amber' | 'grey' | 'purple' | null;
  text: string | null;
  /** The 1-based line where the state was created (null for the root). */
  line: number | null;
}
/** Tree nodes `first`, `first + 1`, ... as rows of five numbers in one typed array the worker
 * transfers without a copy (node `first + i`'s at `5 * i`): its parent (-1 for the root), its
 * path (-1 for none), its line (0 for none), its label (an index into `strings`) and its end
 * (0 for none, else outcome, colour and text at `3 * (end - 1)` of `ends`, indexes into
 * `strings`). web/src/tree-columns.js makes them `TreeNodeJs` objects. */
export interface TreeColumnsJs {
  first: number; rows: Int32Array; ends: Uint32Array; strings: string[];
}
/** A row of the strategy registry (`strategies()`), in menu order. */
export interface StrategyInfoJs {
  name: string; driver: 'explorer' | 'concolic_loop'; source: string; description: string; learn: string;
  /** Explores only inputs that satisfy `requires`, whatever `pre` says. */
  reads_requires: boolean;
  /** Whether the `depth` bound and the every-input-heap mode concern it. */
  uses_depth: boolean; all_heaps: boolean;
}
/** A bound (`bounds()`): its key in `options.bounds`, the page's label and tooltip, the CLI's
 * help, its default (0: no limit where `zero_is_off`). */
export interface BoundJs {
  name: string; label: string; title: string; help: string; default: number; zero_is_off: boolean;
}
/** A value in a heap view. `int`/`bool` texts name inputs by origin: `x + 1`, `o1.key`. */
export type Val =
  | { kind: 'null' } | { kind: 'void' }
  | { kind: 'obj'; id: string }
  /** lazier#: null or some object, undecided. */
  | { kind: 'symref'; id: string }
  /** lazier: some object, which one undecided. */
  | { kind: 'symloc'; id: string }
  /** An input field not read yet. */
  | { kind: 'unread' } | { kind: 'int'; text: string } | { kind: 'bool'; text: string };
/** The symbolic state of one tree node (`Exploration.view`). */
export interface HeapView {
  node: number;
  /** `caseFormula`: a child of a fork into a predicate's cases: the case it took, instantiated. */
  label: string; caseFormula?: string;
  /** `live`: still being explored (the state now); `end`: its path ended; otherwise recorded
   * when the node was created or when it forked. */
  at: 'created' | 'fork' | 'end' | 'live';
  /** In creation order; fields in declaration order. */
  objects: { id: string; class: string; origin: 'input' | 'new';
             fields: { name: string; value: Val }[] }[];
  /** `this` and the parameters of the method under test, with their input values. */
  roots: { name: string; value: Val }[];
  /** The call stack, outermost first: each frame's unit (`BST.insertAt`, `pred bst`), the
   * 1-based line it is at, and its parameters and locals that hold a value. */
  frames: { unit: string; line: number | null; locals: { name: string; value: Val }[] }[];
  /** Open abstract references some value of the state refers to. */
  symbolic: { id: string; kind: 'symref' | 'symloc'; class: string }[];
  /** `sl`: predicate instances still folded; `root` is the reference covered (null: null). */
  predicates: { text: string; name: string; root: string | null; depth: number }[];
  /** Facts about the inputs, without integer-range facts or facts another one implies. */
  pathCondition: string[];
  returned: Val | null;
  outcome: { kind: 'returned' | 'error' | 'bounded' | 'discarded' | 'internal'; text: string } | null;
  /** `symheap` only (then `objects`, `symbolic` and `predicates` are empty): the references
   * reachable from the roots and locals (circles; values `symref` name them), each with its
   * guarded value set (`loc` null: the null entry; `guard` over the inputs' source names,
   * `always` when it holds in every world), and the locations (boxes) they may denote. */
  symheap: {
    /** `input`: the input the reference stands for (`o1.head`); `copyOf`: a reference that is
     * no input but holds the same set as one (a parameter passed on). */
    refs: { id: string; input: string | null; copyOf: string | null; class: string; entries: { guard: string; loc: string | null }[] }[];
    locs: { id: string; class: string; origin: 'input' | 'new'; fields: { name: string; value: Val }[] }[];
  } | null;
}
/** Concrete worlds of a `symheap` node (`Exploration.worlds`): each lists, for every reference
 * of `HeapView.symheap.refs` in order, the index of its one entry whose guard holds. */
export interface SymheapWorlds {
  worlds: number[][];
  /** More worlds may exist than listed (at most 8 are). */
  more: boolean;
  /** Why the search stopped early, if it did. */
  note: string | null;
}
/** Line coverage of the generated tests; lines are 1-based. */
export interface CoverageJs {
  /** Lines of the statements of the method and of everything it may call. */
  executable: number[];
  /** Lines some generated test executes (by the interpreter's replay). */
  covered: number[];
  /** One entry per branch site (a line may hold several; `column` tells them apart), with the
   * directions the explorer's feasible paths took: `[false, true]`. */
  branches: { line: number; column: number; covered: [boolean, boolean] }[];
}
/** Which solver answered how many of an exploration's queries (`Exploration.solverStats()`):
 * `SolverStats` of the frontend plus the engine's own decisions. */
export interface ExploreSolverStats extends SolverStats {
  /** Queries the explorer decided before the solver layer (constants, facts in the path
   * condition, difference constraints). */
  decidedByEngine: number;
  /** decidedByEngine + decidedLocally: every query answered in Rust. */
  decidedInRust: number;
  /** Queries sent to Z3 wasm (0 without Z3). */
  sentToZ3: number;
  /** Calls to `solve` that carried several scripts at once (the models at the end of a run). */
  batchedCalls: number;
  /** Milliseconds this exploration spent awaiting `solve` (Z3 wasm). */
  z3WaitMs: number;
}
/** The JUnit 5 export (`Exploration.testsJunit`): paths relative to the output folder. */
export interface JunitFiles { files: { name: string; text: string }[]; warnings: string[]; }
"#;

/// A JS `Error` with the message and a `kind` naming the failure (`BadOptions`, `Busy`, ...).
pub(crate) fn fail(kind: &str, message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("kind"), &JsValue::from_str(kind));
    err.into()
}

/// A session's [`Failure`] as a JS `Error` with its `kind`.
pub(crate) fn to_js_failure(e: &Failure) -> JsValue {
    fail(e.kind, &e.message)
}

/// A result as a plain JS value: written as JSON in Rust and parsed by JS in one call
/// (serde-wasm-bindgen crosses into JS once per field, about twice as slow on large results).
pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(&json_text(value).map_err(|e| to_js_failure(&e))?)
}

/// The strategy registry (`StrategyInfoJs[]`), in menu order: every list the page shows (the
/// strategy menu, the Compare tab's rows, "Learn more") reads it.
#[wasm_bindgen(unchecked_return_type = "StrategyInfoJs[]")]
pub fn strategies() -> Result<JsValue, JsValue> {
    to_js(&registry::strategies())
}

/// Every bound, declared once in the engine: its name in `options.bounds`, the page's label and
/// tooltip, the CLI's help, the default (`BoundJs[]`).
#[wasm_bindgen(unchecked_return_type = "BoundJs[]")]
pub fn bounds() -> Result<JsValue, JsValue> {
    to_js(&registry::bounds())
}

/// The host's clock, in milliseconds.
pub(crate) fn js_now() -> f64 {
    js_sys::Date::now()
}

/// Reads a `Request` from an object or JSON text (`undefined` / `null`: the defaults): the
/// engine's `Options` plus the front end's keys `file`, `procedure`, `views` and `tree`. Through JSON
/// text: serde_wasm_bindgen reads only the declared fields of a JS object, and serde_json
/// refuses an undeclared one (`deny_unknown_fields`), nested `bounds` included.
pub(crate) fn parse_options(options: JsValue) -> Result<Request, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(Request::default());
    }
    let text = match options.as_string() {
        Some(text) => text,
        None => js_sys::JSON::stringify(&options)
            .ok()
            .and_then(|t| t.as_string())
            .ok_or_else(|| fail("BadOptions", "options: not JSON data"))?,
    };
    Request::from_json(&text).map_err(|e| to_js_failure(&e))
}

/// Sends one script to the host and stores the reply.
pub(crate) async fn resolve(
    solve: Option<&Function>,
    bridge: &Shared,
    scripts: Vec<String>,
) -> Result<(), JsValue> {
    let Some(solve) = solve else {
        return Err(fail("Internal", "a query waits for Z3 in an exploration without Z3"));
    };
    let transport = JsTransport::new(solve.clone());
    let started = js_sys::Date::now();
    let res = resolve_with(&transport, bridge, scripts).await.map_err(|e| to_js_error(&e));
    bridge.borrow_mut().wait_ms += js_sys::Date::now() - started;
    res
}

/// Takes the run for one async call; `Busy` while another call is running.
fn enter(run: &Rc<RefCell<Run>>) -> Result<(), JsValue> {
    let mut r = run.try_borrow_mut().map_err(|_| fail("Busy", "the exploration is in use"))?;
    r.enter().map_err(|e| to_js_failure(&e))
}

fn leave(run: &Rc<RefCell<Run>>) {
    if let Ok(mut r) = run.try_borrow_mut() {
        r.leave();
    }
}

/// The next event that is not a pending solver answer (resolving those on the way); `None`
/// when exploration is over. `convert`: build the event's JS object; `runToEnd` drops every
/// event, so it passes false and gets `undefined` instead of a JS object built field by field
/// across the JS boundary for every event.
async fn next_event(
    run: &Rc<RefCell<Run>>,
    solve: Option<&Function>,
    convert: bool,
) -> Result<Option<JsValue>, JsValue> {
    loop {
        let next = {
            let mut r = run.borrow_mut();
            r.set_event_text(convert, convert);
            r.advance().map_err(|e| to_js_failure(&e))?
        };
        match next {
            Next::Event(_) if !convert => return Ok(Some(JsValue::UNDEFINED)),
            Next::Event(event) => {
                let r = run.borrow();
                return to_js(&r.event_js(&event)).map(Some);
            }
            Next::Resolve(scripts) => {
                let bridge = Rc::clone(&run.borrow().bridge);
                resolve(solve, &bridge, scripts).await?;
            }
            Next::Explored => return Ok(None),
        }
    }
}

/// Steps for about `budget_ms` of working time (see [`Exploration::run_slice`]): the tree's events
/// cross as one JSON text the worker passes on unread (no object per event), nodes as typed arrays.
async fn slice(
    run: &Rc<RefCell<Run>>,
    solve: Option<&Function>,
    budget_ms: f64,
    tree_from: u32,
    until_path_end: bool,
) -> Result<JsValue, JsValue> {
    let end = run.borrow().clock.now_ms() + budget_ms.max(0.0) as u64;
    let mut out = Slice::for_nodes_from(tree_from as usize);
    loop {
        let stop = run.borrow_mut().advance_slice(&mut out, end, solve.is_some(), until_path_end);
        match stop {
            Err(e) => return Err(to_js_failure(&e)),
            Ok(SliceStop::Resolve(scripts)) => {
                let bridge = Rc::clone(&run.borrow().bridge);
                resolve(solve, &bridge, scripts).await?;
            }
            Ok(stop) => {
                out.over = matches!(stop, SliceStop::Over);
                break;
            }
        }
    }
    run.borrow().finish_slice(&mut out);
    let events = json_text(&out.events).map_err(|e| to_js_failure(&e))?;
    object([
        ("eventsJson", events.into()),
        ("nodes", columns_js(&out.nodes)?),
        ("queries", (out.queries as f64).into()),
        ("over", out.over.into()),
    ])
}

/// `TreeColumnsJs`: the rows copied once into a typed array of JS.
fn columns_js(c: &TreeColumns) -> Result<JsValue, JsValue> {
    let strings: js_sys::Array = c.strings.iter().map(|s| JsValue::from_str(s)).collect();
    // A row's -1 (none) is `u32::MAX`: the page reads the same buffer as signed numbers.
    let rows = js_sys::Int32Array::new(&js_sys::Uint32Array::from(c.rows.as_flattened()).buffer());
    object([
        ("first", c.first.into()),
        ("rows", rows.into()),
        ("ends", js_sys::Uint32Array::from(c.ends.as_flattened()).into()),
        ("strings", strings.into()),
    ])
}

/// A plain JS object of these entries.
fn object<const N: usize>(entries: [(&str, JsValue); N]) -> Result<JsValue, JsValue> {
    let o = js_sys::Object::new();
    for (key, value) in entries {
        js_sys::Reflect::set(&o, &key.into(), &value)?;
    }
    Ok(o.into())
}

/// Ends exploration: generates and replays the tests (once), resolving on the way the model
/// queries that need Z3.
async fn finish(run: &Rc<RefCell<Run>>, solve: Option<&Function>) -> Result<(), JsValue> {
    if run.borrow().generation.is_some() {
        return Ok(());
    }
    run.borrow_mut().explored = true;
    loop {
        let missing = run.borrow_mut().try_generate().map_err(|e| to_js_failure(&e))?;
        if missing.is_empty() {
            return Ok(());
        }
        let bridge = Rc::clone(&run.borrow().bridge);
        if missing.iter().any(|s| bridge.borrow().replies.contains_key(s)) {
            return Err(fail("Internal", "a model query stays unanswered after its reply"));
        }
        resolve(solve, &bridge, missing).await?;
    }
}

impl Exploration {
    /// The run, for a call that reads it: `Busy` while a step or a slice holds it.
    pub(crate) fn read(&self) -> Result<std::cell::Ref<'_, Run>, JsValue> {
        self.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))
    }
}

/// A symbolic run of one method, stepped from JS with Z3 wasm as the solver.
///
/// ```js
/// import { solve } from './z3-bridge.js';
/// const run = new Exploration(source, 'BST.insert', { strategy: 'lazier#', k: 2 }, solve);
/// const first = await run.step();          // { kind: 'start', node: 0, parent: null, ... }
/// const summary = await run.runToEnd(0);   // same keys as `heaplab run --format json`
/// run.tests();                             // [{ name, outcome, hl, input, ... }]
/// ```
#[wasm_bindgen]
pub struct Exploration {
    pub(crate) run: Rc<RefCell<Run>>,
    solve: Option<Function>,
}

#[wasm_bindgen]
impl Exploration {
    /// `options`: `ExploreOptions` as an object or JSON text; `solve`:
    /// `(smtText: string) => Promise<string>` running a script on Z3 wasm, or `null` /
    /// `undefined` to explore with the Rust decision procedure alone (a page without
    /// SharedArrayBuffer): queries outside its fragment are then answered `unknown` (the branch
    /// is kept; a path whose model is unknown gets no test) and counted in
    /// `solverStats().unknownWithoutZ3`. Throws an `Error` with `kind` `BadOptions`,
    /// `ProgramHasErrors` or `UnknownMethod`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        source: String,
        method: String,
        options: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SmtSolveFn | null | undefined")] solve: Option<
            Function,
        >,
    ) -> Result<Exploration, JsValue> {
        let request = parse_options(options)?;
        let run = Run::new(source, method, request, solve.is_some(), js_now)
            .map_err(|e| to_js_failure(&e))?;
        Ok(Exploration { run: Rc::new(RefCell::new(run)), solve })
    }

    /// Resolves to the next event (`ExploreEvent`), or to `null` once exploration is over (the
    /// tests are then generated: see `tests()`). Rejects with an `Error` (`kind`: `Busy`, a
    /// solver error kind such as `WasmLoad`, `TestGeneration`).
    pub fn step(&self) -> Promise {
        let run = Rc::clone(&self.run);
        let solve = self.solve.clone();
        future_to_promise(async move {
            enter(&run)?;
            let res = async {
                match next_event(&run, solve.as_ref(), true).await? {
                    Some(event) => Ok(event),
                    None => {
                        finish(&run, solve.as_ref()).await?;
                        Ok(JsValue::NULL)
                    }
                }
            }
            .await;
            leave(&run);
            res
        })
    }

    /// Runs at most `maxEvents` more events (0 or omitted: no limit). Resolves to the summary
    /// (`RunSummary`) when exploration is over or was cancelled, tests generated; to `null` when
    /// the event budget ran out first (call again to continue).
    #[wasm_bindgen(js_name = runToEnd)]
    pub fn run_to_end(&self, max_events: Option<f64>) -> Promise {
        let run = Rc::clone(&self.run);
        let solve = self.solve.clone();
        let budget = match max_events {
            Some(n) if n.is_finite() && n >= 1.0 => Some(n as u64),
            _ => None,
        };
        future_to_promise(async move {
            enter(&run)?;
            let res = async {
                let mut seen = 0u64;
                loop {
                    if budget.is_some_and(|b| seen >= b) {
                        return Ok(JsValue::NULL);
                    }
                    if next_event(&run, solve.as_ref(), false).await?.is_none() {
                        break;
                    }
                    seen += 1;
                }
                finish(&run, solve.as_ref()).await?;
                let r = run.borrow();
                to_js(&r.summary())
            }
            .await;
            leave(&run);
            res
        })
    }

    /// Runs for about `budgetMs` milliseconds of work, or to the end (`ExploreSlice`): the
    /// events the tree shows (solver queries only counted), the tree nodes with ids `treeFrom..`,
    /// and `over` once exploration is over (then call `runToEnd()` or `step()` for the tests).
    /// With `untilPathEnd`, the slice also ends after the first path that ends (a duel counts
    /// its clues after each). The page's Run takes one slice per batch: the run stays in Rust
    /// between the page's chances to pause it, and one slice crosses into JS at once.
    #[wasm_bindgen(js_name = runSlice, unchecked_return_type = "Promise<ExploreSlice>")]
    pub fn run_slice(
        &self,
        budget_ms: f64,
        tree_from: u32,
        until_path_end: Option<bool>,
    ) -> Promise {
        let run = Rc::clone(&self.run);
        let solve = self.solve.clone();
        let until_path_end = until_path_end.unwrap_or(false);
        future_to_promise(async move {
            enter(&run)?;
            let res = slice(&run, solve.as_ref(), budget_ms, tree_from, until_path_end).await;
            leave(&run);
            res
        })
    }

    /// Which solver answered how many queries so far (`ExploreSolverStats`), for the status
    /// line: `decidedInRust` (engine + frontend), `sentToZ3`, `cacheHits`, and without Z3
    /// `unknownWithoutZ3` (queries outside the Rust procedure's fragment, answered unknown).
    #[wasm_bindgen(js_name = solverStats, unchecked_return_type = "ExploreSolverStats")]
    pub fn solver_stats(&self) -> Result<JsValue, JsValue> {
        to_js(&self.read()?.solver_stats())
    }

    /// The summary so far (`RunSummary`; `tests` is 0 until tests are generated).
    pub fn summary(&self) -> Result<JsValue, JsValue> {
        to_js(&self.read()?.summary())
    }

    /// The generated tests (`GeneratedTestJs[]`, empty until over); `blocks` false: no `hl`.
    pub fn tests(&self, blocks: Option<bool>) -> Result<JsValue, JsValue> {
        to_js(&self.read()?.tests_with(blocks.unwrap_or(true)))
    }

    /// `tests()` as JSON text, for a worker that posts it on (one copy, no structured clone).
    #[wasm_bindgen(js_name = testsText)]
    pub fn tests_text(&self, blocks: Option<bool>) -> Result<String, JsValue> {
        self.read()?.tests_text(blocks.unwrap_or(true)).map_err(|e| to_js_failure(&e))
    }

    /// Each test's `test` block (`GeneratedTestJs.hl`), in the order of `tests()`.
    #[wasm_bindgen(js_name = testBlocks)]
    pub fn test_blocks(&self) -> Result<Vec<String>, JsValue> {
        Ok(self.read()?.test_blocks())
    }

    /// The program followed by every generated test, as `heaplab run --emit hl` writes it
    /// (runnable with `heaplab test`); `null` until exploration is over.
    #[wasm_bindgen(js_name = testsHl)]
    pub fn tests_hl(&self) -> Result<Option<String>, JsValue> {
        Ok(self.read()?.tests_hl())
    }

    /// The generated tests as `heaplab run --emit json` writes them; `null` until over.
    #[wasm_bindgen(js_name = testsJson)]
    pub fn tests_json(&self) -> Result<Option<String>, JsValue> {
        Ok(self.read()?.tests_json())
    }

    /// The exploration tree so far (`TreeNodeJs[]`), parents before children.
    pub fn tree(&self) -> Result<JsValue, JsValue> {
        to_js(&self.read()?.tree_nodes(0))
    }

    /// The tree nodes with ids `start..` (`TreeNodeJs[]`, the shape of `tree()`): a page that
    /// has the first `start` nodes asks only for the new ones. A node's `outcome` is set when its
    /// path ends, so ask again from the first node that was still open.
    #[wasm_bindgen(js_name = treeSince, unchecked_return_type = "TreeNodeJs[]")]
    pub fn tree_since(&self, start: u32) -> Result<JsValue, JsValue> {
        to_js(&self.read()?.tree_nodes(start as usize))
    }

    /// The symbolic state of tree node `node` (`HeapView`), or `null`: no such node, or a node
    /// whose state is gone and whose view was not kept (only the first 5000 nodes' are).
    #[wasm_bindgen(unchecked_return_type = "HeapView | null")]
    pub fn view(&self, node: u32) -> Result<JsValue, JsValue> {
        self.read()?.view(node).map_or(Ok(JsValue::NULL), |v| to_js(&v))
    }

    /// Concrete worlds of a `symheap` tree node (`SymheapWorlds`): models of its path
    /// condition, decided in Rust, each picking one entry of every reference of its view;
    /// `null` when the node has no view or runs another strategy.
    #[wasm_bindgen(unchecked_return_type = "SymheapWorlds | null")]
    pub fn worlds(&self, node: u32) -> Result<JsValue, JsValue> {
        self.read()?.worlds(node).map_or(Ok(JsValue::NULL), |w| to_js(&w))
    }

    /// Line and branch coverage of the generated tests (`CoverageJs`); `null` until exploration
    /// is over.
    #[wasm_bindgen(unchecked_return_type = "CoverageJs | null")]
    pub fn coverage(&self) -> Result<JsValue, JsValue> {
        self.read()?.coverage().map_or(Ok(JsValue::NULL), |c| to_js(&c))
    }

    /// The program translated to Java with a JUnit 5 class of the generated tests, as
    /// `heaplab run --emit junit` writes them for a file named `stem`.hl (`JunitFiles`); `null`
    /// until exploration is over. Throws an `Error` with `kind` `Untranslatable` when the program
    /// uses what Java cannot express faithfully.
    #[wasm_bindgen(js_name = testsJunit, unchecked_return_type = "JunitFiles | null")]
    pub fn tests_junit(&self, stem: &str) -> Result<JsValue, JsValue> {
        let r = self.read()?;
        match r.junit(stem).map_err(|e| to_js_failure(&e))? {
            Some(files) => to_js(&files),
            None => Ok(JsValue::NULL),
        }
    }

    /// Stops exploring at the next event; a running `runToEnd` then generates tests for the
    /// paths found so far and resolves to the summary, and `step()` resolves to `null`.
    pub fn cancel(&self) {
        // The run is borrowed only inside synchronous slices, never while JS runs.
        if let Ok(mut r) = self.run.try_borrow_mut() {
            r.cancelled = true;
        }
    }

    /// True once exploration is over (finished or cancelled).
    #[wasm_bindgen(getter)]
    pub fn done(&self) -> bool {
        self.run.try_borrow().map(|r| r.explored).unwrap_or(false)
    }
}
