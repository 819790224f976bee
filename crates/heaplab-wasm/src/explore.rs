//! Symbolic exploration in the browser: the same explorer and test generation as
//! `heaplab run`, with Z3 wasm answering through a host JS function.
//!
//! The explorer is synchronous; Z3 wasm is not. The bridge is the explorer's asynchronous
//! solver protocol ([`SatAnswer::Pending`]): the [`PathSolver`] here goes through the same
//! `heaplab_smt` stack as the CLI (frontend with local decisions and cache, SMT-LIB2 script
//! building, response parsing), but its transport only answers scripts whose reply it already
//! has. A script it has no reply for is recorded and the query answered "pending"; the explorer
//! undoes the step and returns [`Event::SolverPending`]. The async loop of [`Exploration`] sends
//! each recorded script to the host's `solve`, stores the reply (keyed by the script text) and
//! steps again, which re-executes the same instruction with the answer available.
//!
//! Test generation asks for one model per feasible path. The loop runs `heaplab_testgen`
//! straight away: when every model query is answered (decided in Rust, or its reply stored),
//! that pass is the only one. Otherwise the model scripts without a reply were recorded on the
//! way: that pass is dropped (its counts taken back), they are resolved all at once, and
//! generation runs again, until none is missing.
//!
//! Solver counts: a step that was undone re-runs its queries, so the counts it made are taken
//! back (`adjust`); a query answered on re-execution may then count as a cache hit where the
//! CLI counted it as sent (the split can differ, the totals of paths and tests cannot).
//!
//! Without Z3 (`solve` = `null`, for pages without SharedArrayBuffer) the frontend's Rust
//! decision procedure answers what it can and the rest is `unknown` (the explorer keeps such a
//! branch, and a path whose model query is unknown gets no test); nothing is ever pending.
//! `solverStats()` says which solver answered how many queries, and how many were left unknown.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::future::Future;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use crate::program::analyze;
use heaplab_engine::symbolic::{
    bounds::BOUNDS,
    smt::{query_timeout_ms, read_model, read_whole_model, to_term, wanted},
    strategy, Bound, Clock, Event, Explorer, ForkKind, Model, Options, PathOutcome, PathSolver,
    Placed, SatAnswer, SolverCounts, Sort, StateId, Sym,
};
use heaplab_engine::{Heap, ObjId, Value};
use heaplab_report::RunSummary;
use heaplab_smt::{
    batch_script, split_batch_reply, Answer, BoxFuture, NoZ3, Query, SmtSolver, Solver,
    SolverError, SolverFrontend, Stats, Transport, Var,
};
use heaplab_syntax::{Analysis, SourceFile, Span};
use heaplab_testgen::coverage::Lines;
use heaplab_testgen::{emit, generate, Expected, GeneratedTest, Generation, Validity};
use js_sys::{Function, Promise};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::inspect;
use crate::solver_bridge::{to_js_error, JsStats, JsTransport};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** Options of an Exploration (JSON text or an object); every field is optional. */
/** What `new Exploration` and `concolicRun` take: the engine's run options (`Options` in
 * web/src/report-types.js, generated from docs/report.schema.json: `strategy`, `pre`,
 * `order`, `all_heaps`, `sl_completion`, `bounds: { k, depth, loop, ... }` with the names of
 * `bounds()`), plus `file` (the file name reported in the summary) and `procedure` (false: Z3
 * gets every query the engine leaves, for measurements) and `views` (default true: keep a heap
 * view of every tree node for `view()`; the Compare tab and the benches pass false). `concolicRun` reads `order`
 * (default `mixed`), and of the bounds `depth` (phase 1), `max_paths` (runs) and
 * `timeout_ms`. */
export type ExploreOptions = Record<string, unknown>;
/** One exploration event. */
export interface ExploreEvent {
  kind: 'start' | 'lazyInit' | 'branch' | 'disjuncts' | 'slModel' | 'solverQuery' | 'pathEnd' | 'stopped';
  /** The state (tree node) the event happened in; null for `stopped`. */
  node: number | null;
  parent: number | null;
  label: string;
  details: Record<string, unknown>;
  /** The 1-based source line of the instruction the event's state was at (a path's end: the
   * construct its outcome blames); null for `stopped`. */
  line: number | null;
}
/** One slice of a run (`Exploration.runSlice`). */
export interface ExploreSlice {
  /** The events that change the tree (every kind but `solverQuery`), in order. */
  events: ExploreEvent[];
  /** Tree nodes with ids from `treeFrom` on. */
  nodes: TreeNodeJs[];
  /** Solver queries the slice asked (counted, not converted). */
  queries: number;
  over: boolean;
}
/** The summary of `heaplab run --format json`, with the same keys. */
export interface RunSummary {
  file: string; method: string; strategy: string; k: number; pre: 'assume' | 'ignore';
  paths: number; paths_feasible: number; paths_infeasible: number; paths_bounded: number;
  /** Feasible paths without a test (the solver gave no model). */
  paths_unknown: number;
  /** Why those paths have no model, in words (`needs Z3, which is not available here (…)`). */
  unknown_reason?: string | null;
  /** Feasible paths left without a test because the time bound passed during generation. */
  paths_untested_out_of_time: number;
  /** Feasible paths left without a test because the run held more memory than its bound. */
  paths_untested_out_of_memory: number;
  /** The bound that stopped the run early, in the CLI's words; null when it ran to the end. */
  stopped_by: string | null;
  /** Of `paths_infeasible`: discarded because the input violates `requires`. */
  paths_precondition_discarded: number;
  bounds_hit: string[]; k_bound_reached: boolean; states: number; tests: number;
  invalid_inputs: number; errors: number; branches_covered: number;
  /** Branch directions covered by the tests whose input satisfies `requires`. */
  branches_covered_valid: number; branches_total: number;
  solver_calls: { sent: number; decided_locally: number; cached: number; failed: number };
  time_ms: number; internal_errors: number;
  /** `sl`: paths whose input came from a model / that had none / left to running the bodies. */
  sl_models: number; sl_no_model: number; sl_run_completions: number;
  /** All-heaps mode only (absent otherwise), as `heaplab run --all-heaps --format json`. */
  all_heaps?: AllHeapsSummary;
}
/** How the input heaps of every path were enumerated (all-heaps mode). */
export interface AllHeapsSummary {
  /** Distinct input heaps, each a test. */
  heaps: number;
  /** Models whose heap was isomorphic to one found before on the same path. */
  duplicates: number;
  model_queries: number;
  /** Paths whose enumeration a bound stopped, and those bounds. */
  paths_cut: number; cut_by: string[];
}
export type HeapValue = number | boolean | null | { ref: string };
export interface GeneratedTestJs {
  name: string; path: number; outcome: 'returned' | 'error';
  /** The expected return value as HeapLab text, or the error keyword. */
  expected: string;
  validity: 'assumed' | 'valid' | 'invalid' | 'unknown' | 'no_precondition';
  kCut: boolean;
  /** The `test` block. */
  hl: string;
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
/** A row of the strategy registry (`strategies()`), in menu order. */
export interface StrategyInfoJs {
  name: string; driver: 'explorer' | 'concolic_loop'; source: string; description: string; learn: string;
  /** Explores only inputs that satisfy `requires`, whatever `pre` says. */
  reads_requires: boolean;
  /** The `depth` bound concerns it. */
  uses_depth: boolean;
  /** The every-input-heap mode concerns it. */
  all_heaps: boolean;
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
  | { kind: 'unread' }
  | { kind: 'int'; text: string } | { kind: 'bool'; text: string };
/** The symbolic state of one tree node (`Exploration.view`). */
export interface HeapView {
  node: number;
  label: string;
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

/// Tree nodes whose view is kept once their state is gone (a forked state lives on only in its
/// children); views of live states and ended paths are always available. A view costs about a
/// kilobyte, so this bounds the memory of a long run.
const VIEW_LIMIT: usize = 5_000;

/// The marker error of a script that has no reply yet.
const PENDING: &str = "solver reply pending";

/// Replies by script text and the scripts still waiting for one; shared by the transport, the
/// path solver and the async loop.
#[derive(Default)]
pub(crate) struct Bridge {
    pub(crate) replies: HashMap<String, String>,
    pub(crate) outstanding: Vec<String>,
    /// Set by the transport when it met a script without a reply.
    missed: bool,
    /// Counts of undone steps, taken back from the frontend's.
    adjust: SolverCounts,
    /// Transport calls that carried several scripts at once (see `resolve`).
    batched_calls: u64,
    /// Milliseconds spent awaiting the host's `solve` (Z3 wasm), in `resolve`.
    wait_ms: f64,
}

pub(crate) type Shared = Rc<RefCell<Bridge>>;

/// A transport that only answers from stored replies; any other script is recorded.
#[derive(Clone)]
pub(crate) struct ReplayTransport(pub(crate) Shared);

impl Transport for ReplayTransport {
    fn run<'a>(&'a self, script: &'a str) -> BoxFuture<'a, Result<String, SolverError>> {
        let mut b = self.0.borrow_mut();
        let res = match b.replies.get(script) {
            Some(text) => Ok(text.clone()),
            None => {
                b.missed = true;
                if !b.outstanding.iter().any(|s| s == script) {
                    b.outstanding.push(script.to_string());
                }
                Err(SolverError::Io(PENDING.into()))
            }
        };
        Box::pin(std::future::ready(res))
    }
}

/// Polls a future once; every future of the stack over [`ReplayTransport`] is ready at once.
fn poll_now<F: Future>(fut: F) -> Option<F::Output> {
    let mut fut = std::pin::pin!(fut);
    let mut cx = Context::from_waker(Waker::noop());
    match fut.as_mut().poll(&mut cx) {
        Poll::Ready(v) => Some(v),
        Poll::Pending => None,
    }
}

fn sub(a: SolverCounts, b: SolverCounts) -> SolverCounts {
    SolverCounts {
        sent: a.sent.saturating_sub(b.sent),
        decided_locally: a.decided_locally.saturating_sub(b.decided_locally),
        cached: a.cached.saturating_sub(b.cached),
        failed: a.failed.saturating_sub(b.failed),
    }
}

fn add(a: SolverCounts, b: SolverCounts) -> SolverCounts {
    SolverCounts {
        sent: a.sent + b.sent,
        decided_locally: a.decided_locally + b.decided_locally,
        cached: a.cached + b.cached,
        failed: a.failed + b.failed,
    }
}

/// What became of one query.
enum Reply {
    Answer(Answer),
    Failed,
    Pending,
}

/// Z3 wasm through the replay transport, or no Z3.
pub(crate) enum Backend {
    Replay(SmtSolver<ReplayTransport>),
    None(NoZ3),
}

impl Solver for Backend {
    fn check<'a>(&'a self, query: &'a Query) -> BoxFuture<'a, Result<Answer, SolverError>> {
        match self {
            Backend::Replay(s) => s.check(query),
            Backend::None(n) => n.check(query),
        }
    }
    fn is_present(&self) -> bool {
        matches!(self, Backend::Replay(_))
    }
}

type Frontend = SolverFrontend<Backend>;

/// `a - b`, field by field (the counts of undone steps).
fn stats_sub(a: Stats, b: Stats) -> Stats {
    Stats {
        queries: a.queries.saturating_sub(b.queries),
        solver_calls: a.solver_calls.saturating_sub(b.solver_calls),
        decided_locally: a.decided_locally.saturating_sub(b.decided_locally),
        decided_by_procedure: a.decided_by_procedure.saturating_sub(b.decided_by_procedure),
        cache_hits: a.cache_hits.saturating_sub(b.cache_hits),
        outside_fragment: a.outside_fragment.saturating_sub(b.outside_fragment),
        unanswered: a.unanswered.saturating_sub(b.unanswered),
        solver_time_ms: a.solver_time_ms,
    }
}

fn stats_add(a: Stats, b: Stats) -> Stats {
    Stats {
        queries: a.queries + b.queries,
        solver_calls: a.solver_calls + b.solver_calls,
        decided_locally: a.decided_locally + b.decided_locally,
        decided_by_procedure: a.decided_by_procedure + b.decided_by_procedure,
        cache_hits: a.cache_hits + b.cache_hits,
        outside_fragment: a.outside_fragment + b.outside_fragment,
        unanswered: a.unanswered + b.unanswered,
        solver_time_ms: a.solver_time_ms,
    }
}

/// The explorer's [`PathSolver`] over the replay transport (see the module docs).
pub(crate) struct AsyncPathSolver {
    frontend: Rc<Frontend>,
    bridge: Shared,
    local: u64,
    failed: u64,
    /// See [`PathSolver::last_unknown`].
    last_unknown: Option<String>,
    /// See [`PathSolver::set_time_left`]: Z3 wasm's limit for one query.
    time_left_ms: Option<u64>,
}

impl AsyncPathSolver {
    /// A reply as the explorer sees it, the model read by `read`; an unknown answer is
    /// counted as failed.
    fn answered(
        &mut self,
        reply: Reply,
        read: impl FnOnce(&heaplab_smt::Model) -> Model,
    ) -> (SatAnswer, Option<Model>) {
        match reply {
            Reply::Answer(Answer::Sat(m)) => (SatAnswer::Sat, Some(read(&m))),
            Reply::Answer(Answer::Unsat) => (SatAnswer::Unsat, None),
            Reply::Answer(Answer::Unknown(why)) => {
                self.failed += 1;
                self.last_unknown = Some(why);
                (SatAnswer::Unknown, None)
            }
            Reply::Failed => (SatAnswer::Unknown, None),
            Reply::Pending => (SatAnswer::Pending, None),
        }
    }

    /// With Z3 (`z3`: replies come through the bridge) or without; `procedure`: see
    /// [`SolverFrontend::with_procedure`].
    pub(crate) fn new(bridge: Shared, z3: bool, procedure: bool) -> AsyncPathSolver {
        let backend = if z3 {
            Backend::Replay(SmtSolver::new(ReplayTransport(Rc::clone(&bridge))))
        } else {
            Backend::None(NoZ3)
        };
        AsyncPathSolver {
            frontend: Rc::new(
                SolverFrontend::with_clock(backend, js_sys::Date::now).with_procedure(procedure),
            ),
            bridge,
            local: 0,
            failed: 0,
            last_unknown: None,
            time_left_ms: None,
        }
    }

    fn query(&mut self, conjuncts: &[Sym], want: Vec<Var>) -> Reply {
        let mut terms = Vec::with_capacity(conjuncts.len());
        for c in conjuncts {
            match to_term(c) {
                Some(t) => terms.push(t),
                None => {
                    self.failed += 1;
                    return Reply::Failed;
                }
            }
        }
        let mut q = Query::new(terms).want(want);
        // One Z3 query may not carry the run past its time bound (Z3's own limit is 10 s).
        if let Some(left) = self.time_left_ms {
            q = q.timeout_ms(query_timeout_ms(left));
        }
        self.bridge.borrow_mut().missed = false;
        let res = poll_now(self.frontend.check(&q));
        let missed = std::mem::take(&mut self.bridge.borrow_mut().missed);
        match res {
            Some(Ok(a)) => Reply::Answer(a),
            _ if missed => Reply::Pending,
            _ => {
                self.failed += 1;
                Reply::Failed
            }
        }
    }
}

impl PathSolver for AsyncPathSolver {
    fn check_with_model(
        &mut self,
        conjuncts: &[Sym],
        vars: &[(u32, Sort)],
    ) -> (SatAnswer, Option<Model>) {
        let reply = self.query(conjuncts, wanted(vars));
        self.answered(reply, |m| read_model(m, vars))
    }

    fn check_keeping_model(&mut self, conjuncts: &[Sym]) -> (SatAnswer, Option<Model>) {
        let reply = self.query(conjuncts, Vec::new());
        self.answered(reply, read_whole_model)
    }

    fn counts(&self) -> SolverCounts {
        let s = self.frontend.stats();
        let raw = SolverCounts {
            sent: s.solver_calls,
            decided_locally: s.decided_locally + self.local,
            cached: s.cache_hits,
            failed: self.failed,
        };
        sub(raw, self.bridge.borrow().adjust)
    }

    fn note_local(&mut self) {
        self.local += 1;
    }

    fn last_unknown(&self) -> Option<String> {
        self.last_unknown.clone()
    }

    fn set_time_left(&mut self, ms: Option<u64>) {
        self.time_left_ms = ms;
    }

    fn is_async(&self) -> bool {
        true
    }
}

/// The time an exploration has spent working: it runs only while a `step()` or `runToEnd()` is
/// in progress, so the time bound never counts time spent paused (a class discussion between
/// two Steps, a Pause before Resume).
#[derive(Clone, Default)]
struct ActiveTime(Rc<std::cell::Cell<(f64, Option<f64>)>>, CoarseNow);

impl ActiveTime {
    fn start(&self) {
        let (spent, running) = self.0.get();
        if running.is_none() {
            self.0.set((spent, Some(self.1.exact())));
        }
    }

    fn stop(&self) {
        if let (spent, Some(since)) = self.0.get() {
            self.0.set((spent + (self.1.exact() - since).max(0.0), None));
        }
    }
}

impl Clock for ActiveTime {
    fn now_ms(&self) -> u64 {
        let (spent, running) = self.0.get();
        let current = running.map_or(0.0, |since| (self.1.now() - since).max(0.0));
        (spent + current) as u64
    }
}

/// `Date.now()` read sparingly. The explorer asks its clock at every step and inside long
/// steps, and each reading is a call out to JS: 3–4 % of a run when every one crossed over. So a
/// reading is reused for up to `stride` asks, and the stride adapts: it doubles (up to 64) while
/// readings come less than a millisecond apart and halves when they come further apart, so a
/// reused reading is never more than about a millisecond old.
#[derive(Clone, Default)]
struct CoarseNow(Rc<std::cell::Cell<CoarseState>>);

#[derive(Clone, Copy, Default)]
struct CoarseState {
    last: f64,
    /// Asks answered with `last` since it was read.
    reused: u32,
    stride: u32,
}

impl CoarseNow {
    const MAX_STRIDE: u32 = 64;

    /// A fresh reading (starting and stopping the clock).
    fn exact(&self) -> f64 {
        let now = Self::read();
        let mut s = self.0.get();
        s.last = now;
        s.reused = 0;
        self.0.set(s);
        now
    }

    fn now(&self) -> f64 {
        let mut s = self.0.get();
        if s.reused < s.stride {
            s.reused += 1;
            self.0.set(s);
            return s.last;
        }
        let now = Self::read();
        s.stride = if now - s.last < 1.0 {
            (s.stride * 2).clamp(1, Self::MAX_STRIDE)
        } else {
            s.stride / 2
        };
        s.last = now;
        s.reused = 0;
        self.0.set(s);
        now
    }

    fn read() -> f64 {
        let now = js_sys::Date::now();
        if now.is_finite() && now > 0.0 {
            now
        } else {
            0.0
        }
    }
}

/// What `new Exploration` takes: the engine's run options (`Options` of
/// docs/report.schema.json: `strategy`, `pre`, `order`, `all_heaps`, `bounds: { k, ... }`)
/// plus keys of this front end: `file` (the name views and tests give the program),
/// `procedure` (false: every query to Z3, for measurements) and `views` (false: keep no heap
/// views; about 5 % of a run).
pub(crate) struct Request {
    pub(crate) options: Options,
    pub(crate) file: Option<String>,
    pub(crate) procedure: Option<bool>,
    /// Keep a heap view of every tree node (default true), for `view()`.
    pub(crate) views: Option<bool>,
}

pub(crate) fn fail(kind: &str, message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("kind"), &JsValue::from_str(kind));
    err.into()
}

pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| fail("Internal", &e.to_string()))
}

/// Reads a `Request` from an object or JSON text (`undefined` / `null`: the defaults).
pub(crate) fn parse_options(options: JsValue) -> Result<Request, JsValue> {
    let none = Request { options: Options::default(), file: None, procedure: None, views: None };
    if options.is_undefined() || options.is_null() {
        return Ok(none);
    }
    let options = match options.as_string() {
        Some(text) if text.trim().is_empty() => return Ok(none),
        Some(text) => {
            js_sys::JSON::parse(&text).map_err(|_| fail("BadOptions", "options: not valid JSON"))?
        }
        None => options,
    };
    let Some(obj) = options.dyn_ref::<js_sys::Object>() else {
        return Err(fail("BadOptions", "options: expected an object or JSON text"));
    };
    // The front end's own keys come off a copy; the rest must be the engine's `Options`, whose
    // serde refuses an unknown key.
    let rest = js_sys::Object::assign(&js_sys::Object::new(), obj);
    let take = |key: &str| {
        let key = JsValue::from_str(key);
        let v = js_sys::Reflect::get(&rest, &key).unwrap_or(JsValue::UNDEFINED);
        let _ = js_sys::Reflect::delete_property(&rest, &key);
        v
    };
    let (file, procedure, views) = (take("file"), take("procedure"), take("views"));
    // Through JSON text: serde_wasm_bindgen reads only the declared fields of a JS object, and
    // serde_json refuses an undeclared one (`deny_unknown_fields`), nested `bounds` included.
    let text = js_sys::JSON::stringify(&rest)
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| fail("BadOptions", "options: not JSON data"))?;
    let options: Options =
        serde_json::from_str(&text).map_err(|e| fail("BadOptions", &format!("options: {e}")))?;
    let bad = |what: &str| fail("BadOptions", &format!("options: `{what}` has the wrong type"));
    Ok(Request {
        options,
        file: match file.is_undefined() || file.is_null() {
            true => None,
            false => Some(file.as_string().ok_or_else(|| bad("file"))?),
        },
        procedure: match procedure.is_undefined() || procedure.is_null() {
            true => None,
            false => Some(procedure.as_bool().ok_or_else(|| bad("procedure"))?),
        },
        views: match views.is_undefined() || views.is_null() {
            true => None,
            false => Some(views.as_bool().ok_or_else(|| bad("views"))?),
        },
    })
}

/// The analysis of a program that checks (predicates included, as `heaplab run` requires).
pub(crate) fn checked(file: &SourceFile) -> Result<Analysis, JsValue> {
    let analysis = analyze(file);
    // Each error with its place (`3:12: unknown variable `y``), as the editor underlines it.
    let at = |d: &heaplab_syntax::Diagnostic| {
        let lc = file.line_col(d.span.start);
        format!("{}:{}: {}", lc.line, lc.col, d.message)
    };
    let mut errors: Vec<String> =
        analysis.diagnostics.iter().filter(|d| d.is_error()).map(at).collect();
    if errors.is_empty() {
        let (_, logic_errors) = heaplab_logic::Defs::from_program(&analysis.program);
        errors.extend(logic_errors.iter().map(|e| at(&e.to_diagnostic())));
    }
    match errors.len() {
        0 => Ok(analysis),
        n => Err(fail(
            "ProgramHasErrors",
            &format!(
                "The program has {n} error{}; fix {} first (first: {})",
                if n == 1 { "" } else { "s" },
                if n == 1 { "it" } else { "them" },
                errors[0]
            ),
        )),
    }
}

/// Everything of one run; borrowed only between awaits.
pub(crate) struct Run {
    source: String,
    file: String,
    pub(crate) method: String,
    pub(crate) analysis: Analysis,
    pub(crate) explorer: Explorer,
    bridge: Shared,
    /// The path solver's frontend, for `solverStats()`, and the counts of undone steps.
    frontend: Rc<Frontend>,
    frontend_adjust: Stats,
    bounds_hit: BTreeSet<Bound>,
    pub(crate) generation: Option<Generation>,
    /// Where each statement of the program is, once tests exist (their `lines`, `coverage()`).
    lines: Option<Lines>,
    /// Where each statement and branch site starts, for the line of a branch event.
    sites: Lines,
    /// The program text, for the line of a path's end.
    text: SourceFile,
    /// The line of the method under test's declaration (the `start` event's line).
    method_line: Option<u32>,
    /// Time spent working (the clock of the time bound).
    clock: ActiveTime,
    /// Set when exploration has ended (or was cancelled).
    explored: bool,
    cancelled: bool,
    busy: bool,
}

/// What one synchronous slice of work needs next.
enum Next {
    Event(Box<Placed>),
    Resolve(Vec<String>),
    Explored,
}

impl Run {
    /// Steps once; a pending answer is reported with the scripts to resolve.
    fn advance(&mut self) -> Result<Next, JsValue> {
        if self.cancelled {
            return Ok(Next::Explored);
        }
        let before = self.explorer.solver_counts();
        let before_frontend = self.frontend.stats();
        self.bridge.borrow_mut().outstanding.clear();
        match self.explorer.step_placed() {
            None => Ok(Next::Explored),
            Some(Placed { event: Event::SolverPending, .. }) => {
                let undone = sub(self.explorer.solver_counts(), before);
                let undone_frontend = stats_sub(self.frontend.stats(), before_frontend);
                self.frontend_adjust = stats_add(self.frontend_adjust, undone_frontend);
                let mut b = self.bridge.borrow_mut();
                b.adjust = add(b.adjust, undone);
                let scripts = std::mem::take(&mut b.outstanding);
                if scripts.is_empty() || scripts.iter().any(|s| b.replies.contains_key(s)) {
                    return Err(fail(
                        "Internal",
                        "the explorer waits for a solver reply that was already given",
                    ));
                }
                Ok(Next::Resolve(scripts))
            }
            Some(event) => {
                if let Event::PathEnd { outcome: PathOutcome::Bounded { bound, .. }, .. } =
                    &event.event
                {
                    self.bounds_hit.insert(*bound);
                }
                Ok(Next::Event(Box::new(event)))
            }
        }
    }

    /// Generates the tests; or, when some model query has no reply yet, drops that pass (its
    /// counts are taken back: the next pass asks again) and returns the scripts to resolve.
    fn try_generate(&mut self) -> Result<Vec<String>, JsValue> {
        let before = self.explorer.solver_counts();
        let before_frontend = self.frontend.stats();
        self.bridge.borrow_mut().outstanding.clear();
        let program = &self.analysis.program;
        let info = &self.analysis.info;
        let generation = generate(&mut self.explorer, program, info);
        let missing = std::mem::take(&mut self.bridge.borrow_mut().outstanding);
        if !missing.is_empty() {
            let spent = sub(self.explorer.solver_counts(), before);
            let spent_frontend = stats_sub(self.frontend.stats(), before_frontend);
            self.frontend_adjust = stats_add(self.frontend_adjust, spent_frontend);
            let mut b = self.bridge.borrow_mut();
            b.adjust = add(b.adjust, spent);
            return Ok(missing);
        }
        let generation = generation
            .map_err(|e| fail("TestGeneration", &format!("test generation failed: {e}")))?;
        self.generation = Some(generation);
        let file = SourceFile::new(self.file.clone(), self.source.clone());
        self.lines = Some(Lines::new(program, &file));
        Ok(Vec::new())
    }

    /// The run summary, as `heaplab run --format json` prints it (its findings included).
    fn summary(&self) -> RunSummary {
        let mut summary = RunSummary::of_exploration(
            &self.file,
            &self.method,
            &self.explorer,
            self.generation.as_ref(),
        );
        if let Some(g) = &self.generation {
            let file = SourceFile::new(self.file.clone(), self.source.clone());
            summary.findings = heaplab_report::findings::findings(&file, self.explorer.paths(), g);
        }
        summary
    }

    fn solver_stats(&self) -> JsExploreStats {
        let f = stats_sub(self.frontend.stats(), self.frontend_adjust);
        let counts = self.explorer.solver_counts();
        let engine = counts.decided_locally.saturating_sub(f.decided_locally);
        JsExploreStats {
            base: JsStats::new(&f, self.frontend.inner().is_present()),
            decided_by_engine: engine as f64,
            decided_in_rust: (engine + f.decided_locally) as f64,
            sent_to_z3: f.solver_calls as f64,
            batched_calls: self.bridge.borrow().batched_calls as f64,
            z3_wait_ms: self.bridge.borrow().wait_ms,
        }
    }

    /// Queries answered `unknown` for want of Z3 (see `solverStats().unknownWithoutZ3`).
    fn unanswered(&self) -> u64 {
        stats_sub(self.frontend.stats(), self.frontend_adjust).unanswered
    }

    fn tree_nodes(&self, start: usize) -> Vec<JsTreeNode> {
        let paths = self.explorer.paths();
        let tree = self.explorer.tree();
        tree.get(start..)
            .unwrap_or_default()
            .iter()
            .map(|n| {
                let end = n.path.and_then(|p| paths.get(p));
                let (outcome, colour) = match end {
                    Some(p) => {
                        let (o, c) = outcome_name(&p.outcome);
                        (Some(o), Some(c))
                    }
                    None => (None, None),
                };
                JsTreeNode {
                    id: n.id.0,
                    parent: n.parent.map(|p| p.0),
                    label: n.label.clone(),
                    path: n.path,
                    outcome,
                    colour,
                    text: end.map(|p| p.describe()),
                    line: n.span.map(|s| self.line_of(s)),
                }
            })
            .collect()
    }

    fn parent_of(&self, id: u32) -> Option<u32> {
        let tree = self.explorer.tree();
        let node = match tree.get(id as usize) {
            Some(n) if n.id.0 == id => Some(n),
            _ => tree.iter().find(|n| n.id.0 == id),
        };
        node.and_then(|n| n.parent).map(|p| p.0)
    }

    /// The 1-based line of a span of the program.
    pub(crate) fn line_of(&self, span: Span) -> u32 {
        self.text.line_col(span.start).line as u32
    }

    /// The line of an event: where the engine placed it (the instruction its state was at), a
    /// path's end at the construct its outcome blames (the failing `assert`, the bound's loop).
    fn event_line(&self, placed: &Placed) -> Option<u32> {
        match &placed.event {
            Event::Start { .. } => self.method_line,
            Event::Branch { site: Some(site), .. } => {
                self.sites.of(&BTreeSet::from([*site])).first().map(|l| *l as u32)
            }
            Event::PathEnd {
                outcome:
                    PathOutcome::Error { span, .. }
                    | PathOutcome::Bounded { span: Some(span), .. }
                    | PathOutcome::Discarded { span, .. }
                    | PathOutcome::Internal { span: Some(span), .. },
                ..
            } => Some(self.line_of(*span)),
            _ => placed.span.map(|s| self.line_of(s)),
        }
    }

    fn event_js(&self, placed: &Placed) -> JsEvent {
        let mut js = self.event_js_unplaced(&placed.event);
        js.line = self.event_line(placed);
        if let Event::LazyInit { state, .. } | Event::Branch { state, .. } = &placed.event {
            // Views are kept for the first VIEW_LIMIT nodes only, which bounds this work too.
            if (state.0 as usize) < VIEW_LIMIT {
                js.names = self.explorer.view(*state).map(|v| inspect::access_paths(&v));
            }
        }
        js
    }

    fn event_js_unplaced(&self, event: &Event) -> JsEvent {
        let node = |s: &heaplab_engine::symbolic::StateId| Some(s.0);
        match event {
            Event::Start { state, method } => JsEvent {
                names: None,
                kind: "start",
                node: node(state),
                parent: None,
                line: None,
                label: method.clone(),
                details: Details::Start { method: method.clone() },
            },
            Event::LazyInit { state, target, options, children, kind, k_cut } => JsEvent {
                names: None,
                kind: "lazyInit",
                node: node(state),
                parent: self.parent_of(state.0),
                line: None,
                label: target.clone(),
                details: Details::LazyInit {
                    target: target.clone(),
                    options: options.clone(),
                    children: children.iter().map(|c| c.0).collect(),
                    fork: fork_name(kind),
                    k_cut: *k_cut,
                },
            },
            Event::Branch { state, site, condition, children } => JsEvent {
                names: None,
                kind: "branch",
                node: node(state),
                parent: self.parent_of(state.0),
                line: None,
                label: condition.clone(),
                details: Details::Branch {
                    condition: condition.clone(),
                    site: site.map(|s| s.0),
                    children: children
                        .iter()
                        .map(|(d, c)| JsDirection { direction: *d, node: c.0 })
                        .collect(),
                },
            },
            Event::Disjuncts { state, children, formulas } => JsEvent {
                names: None,
                kind: "disjuncts",
                node: node(state),
                parent: self.parent_of(state.0),
                line: None,
                label: format!("{} disjuncts", children.len()),
                details: Details::Disjuncts {
                    children: children.iter().map(|c| c.0).collect(),
                    formulas: formulas.clone(),
                },
            },
            Event::SlModel { state, formula, model } => JsEvent {
                names: None,
                kind: "slModel",
                node: node(state),
                parent: self.parent_of(state.0),
                line: None,
                label: format!("model of {formula}"),
                details: Details::SlModel { formula: formula.clone(), model: model.clone() },
            },
            Event::SolverQuery { state, query, answer, local } => JsEvent {
                names: None,
                kind: "solverQuery",
                node: node(state),
                parent: self.parent_of(state.0),
                line: None,
                label: query.clone(),
                details: Details::SolverQuery {
                    query: query.clone(),
                    answer: answer.as_str(),
                    local: *local,
                },
            },
            Event::PathEnd { state, path, outcome } => {
                let text = match self.explorer.paths().get(*path) {
                    Some(p) => p.describe(),
                    None => outcome.summary(),
                };
                let (kind, colour) = outcome_name(outcome);
                JsEvent {
                    names: None,
                    kind: "pathEnd",
                    node: node(state),
                    parent: self.parent_of(state.0),
                    line: None,
                    label: text.clone(),
                    details: Details::PathEnd {
                        path: *path,
                        outcome: kind,
                        colour,
                        text,
                        error_kind: match outcome {
                            PathOutcome::Error { kind, .. } => Some(kind.keyword()),
                            _ => None,
                        },
                        bound: match outcome {
                            PathOutcome::Bounded { bound, .. } => Some(bound.name()),
                            _ => None,
                        },
                        span: match outcome {
                            PathOutcome::Error { span, .. }
                            | PathOutcome::Bounded { span: Some(span), .. }
                            | PathOutcome::Discarded { span, .. }
                            | PathOutcome::Internal { span: Some(span), .. } => {
                                Some([span.start, span.end])
                            }
                            _ => None,
                        },
                    },
                }
            }
            Event::Stopped { bound } => JsEvent {
                names: None,
                kind: "stopped",
                node: None,
                parent: None,
                line: None,
                label: format!("stopped: bound `{bound}` reached"),
                details: Details::Stopped { bound: bound.name() },
            },
            // Never returned by `advance`; kept total for the match.
            Event::SolverPending => JsEvent {
                names: None,
                kind: "solverPending",
                node: None,
                parent: None,
                line: None,
                label: String::new(),
                details: Details::Stopped { bound: "" },
            },
        }
    }
}

fn fork_name(kind: &ForkKind) -> &'static str {
    match kind {
        ForkKind::LazyInit => "lazyInit",
        ForkKind::Resolve => "resolve",
        ForkKind::Branch => "branch",
        ForkKind::Disjunct => "disjunct",
    }
}

/// The outcome's name and its colour in the tree view.
fn outcome_name(outcome: &PathOutcome) -> (&'static str, &'static str) {
    match outcome {
        PathOutcome::Returned(_) => ("returned", "green"),
        PathOutcome::Error { .. } => ("error", "red"),
        PathOutcome::Bounded { .. } => ("bounded", "amber"),
        PathOutcome::Discarded { .. } => ("discarded", "grey"),
        PathOutcome::Internal { .. } => ("internal", "purple"),
    }
}

/// `ExploreSolverStats` (see the TypeScript section).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsExploreStats {
    #[serde(flatten)]
    base: JsStats,
    decided_by_engine: f64,
    decided_in_rust: f64,
    sent_to_z3: f64,
    batched_calls: f64,
    z3_wait_ms: f64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsEvent {
    kind: &'static str,
    node: Option<u32>,
    parent: Option<u32>,
    label: String,
    details: Details,
    /// The 1-based source line the event happened at, where the engine says it: the method's
    /// declaration (`start`), the branch's condition (`branch`), the statement a path ended at
    /// (`pathEnd` with an error, a cut or a failed assumption). `null` for the others.
    line: Option<u32>,
    /// For the events that fork (`lazyInit`, `branch`): the learner's name of each object and
    /// open reference of the forking state (`ref3` → `this.root.left`), from its view
    /// ([`inspect::access_paths`]); absent when no view of that state is kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    names: Option<std::collections::BTreeMap<String, String>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsDirection {
    direction: bool,
    node: u32,
}

#[derive(Serialize)]
#[serde(untagged, rename_all_fields = "camelCase")]
enum Details {
    Start {
        method: String,
    },
    LazyInit {
        target: String,
        options: Vec<String>,
        children: Vec<u32>,
        fork: &'static str,
        k_cut: bool,
    },
    Branch {
        condition: String,
        site: Option<u32>,
        children: Vec<JsDirection>,
    },
    Disjuncts {
        children: Vec<u32>,
        /// One per child: the disjunct instantiated (`ref0 == null & emp`); empty when unknown.
        formulas: Vec<String>,
    },
    SlModel {
        formula: String,
        model: String,
    },
    SolverQuery {
        query: String,
        answer: &'static str,
        local: bool,
    },
    PathEnd {
        path: usize,
        outcome: &'static str,
        colour: &'static str,
        text: String,
        error_kind: Option<&'static str>,
        bound: Option<&'static str>,
        /// Byte offsets in the source.
        span: Option<[u32; 2]>,
    },
    Stopped {
        bound: &'static str,
    },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsTreeNode {
    id: u32,
    parent: Option<u32>,
    label: String,
    path: Option<usize>,
    outcome: Option<&'static str>,
    colour: Option<&'static str>,
    text: Option<String>,
    /// Where the state was created (the line of the instruction that made it).
    line: Option<u32>,
}

#[derive(Serialize)]
#[serde(untagged)]
pub(crate) enum JsHeapValue {
    Int(f64),
    Big(String),
    Bool(bool),
    Null(Option<()>),
    Ref { r#ref: String },
}

pub(crate) fn heap_value(v: &Value) -> JsHeapValue {
    const SAFE: i64 = 1 << 53;
    match v {
        Value::Int(i) if (-SAFE..=SAFE).contains(i) => JsHeapValue::Int(*i as f64),
        Value::Int(i) => JsHeapValue::Big(i.to_string()),
        Value::Bool(b) => JsHeapValue::Bool(*b),
        Value::Ref(Some(o)) => JsHeapValue::Ref { r#ref: o.to_string() },
        Value::Ref(None) | Value::Void => JsHeapValue::Null(None),
    }
}

#[derive(Serialize)]
pub(crate) struct JsObject {
    id: String,
    class: String,
    fields: BTreeMap<String, JsHeapValue>,
}

#[derive(Serialize)]
struct JsInput {
    receiver: Option<String>,
    args: Vec<JsHeapValue>,
    objects: Vec<JsObject>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JsTest {
    name: String,
    path: usize,
    outcome: &'static str,
    expected: String,
    validity: &'static str,
    k_cut: bool,
    hl: String,
    lines: Vec<usize>,
    input: JsInput,
}

pub(crate) fn objects(heap: &Heap) -> Vec<JsObject> {
    heap.objects()
        .map(|(id, o): (ObjId, _)| JsObject {
            id: id.to_string(),
            class: o.class.clone(),
            fields: o.fields.iter().map(|(f, v)| (f.clone(), heap_value(v))).collect(),
        })
        .collect()
}

pub(crate) fn test_js(generation: &Generation, lines: Option<&Lines>, t: &GeneratedTest) -> JsTest {
    let (outcome, expected) = match &t.expected {
        Expected::Returned(v) => ("returned", t.input.heap.display_value(v)),
        Expected::Error(kind) => ("error", kind.keyword().to_string()),
    };
    JsTest {
        name: t.name.clone(),
        path: t.path,
        outcome,
        expected,
        validity: match t.validity {
            Validity::Assumed => "assumed",
            Validity::Valid => "valid",
            Validity::Invalid => "invalid",
            Validity::Unknown(_) => "unknown",
            Validity::NoPrecondition => "no_precondition",
        },
        k_cut: t.k_cut,
        hl: emit::test_block(generation, t),
        lines: lines.map(|l| l.of_test(t)).unwrap_or_default(),
        input: JsInput {
            receiver: t.input.receiver.map(|r| r.to_string()),
            args: t.input.args.iter().map(heap_value).collect(),
            objects: objects(&t.input.heap),
        },
    }
}

#[derive(Serialize)]
struct JsFile {
    name: String,
    text: String,
}

#[derive(Serialize)]
struct JsJunit {
    files: Vec<JsFile>,
    warnings: Vec<String>,
}

/// A registry row as the page reads it (`StrategyInfoJs`).
#[derive(Serialize)]
struct JsStrategy {
    name: &'static str,
    /// `explorer` or `concolic_loop` (its own driver: `concolicRun`).
    driver: &'static str,
    source: &'static str,
    description: &'static str,
    learn: &'static str,
    reads_requires: bool,
    uses_depth: bool,
    all_heaps: bool,
}

/// The strategy registry (`StrategyInfoJs[]`), in menu order: every list the page shows (the
/// strategy menu, the Compare tab's rows, "Learn more") reads it.
#[wasm_bindgen(unchecked_return_type = "StrategyInfoJs[]")]
pub fn strategies() -> Result<JsValue, JsValue> {
    let rows: Vec<JsStrategy> = strategy::STRATEGIES
        .iter()
        .map(|s| JsStrategy {
            name: s.name,
            driver: s.driver.name(),
            source: s.paper,
            description: s.description,
            learn: s.learn,
            reads_requires: s.reads_requires,
            uses_depth: s.uses_depth,
            all_heaps: s.all_heaps,
        })
        .collect();
    to_js(&rows)
}

/// A bound as the page shows it (`BoundJs`).
#[derive(Serialize)]
struct JsBound {
    name: &'static str,
    label: &'static str,
    title: &'static str,
    help: &'static str,
    default: u64,
    zero_is_off: bool,
}

/// Every bound, declared once in the engine (`heaplab_engine::symbolic::bounds`): its name in
/// `options.bounds`, the page's label and tooltip, the CLI's help, the default.
#[wasm_bindgen(unchecked_return_type = "BoundJs[]")]
pub fn bounds() -> Result<JsValue, JsValue> {
    let rows: Vec<JsBound> = BOUNDS
        .iter()
        .map(|b| JsBound {
            name: b.name,
            label: b.label,
            title: b.title,
            help: b.help,
            default: b.default_value(),
            zero_is_off: b.zero_is_off,
        })
        .collect();
    to_js(&rows)
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
    let res = resolve_with(&transport, bridge, scripts).await;
    bridge.borrow_mut().wait_ms += js_sys::Date::now() - started;
    res
}

async fn resolve_with(
    transport: &JsTransport,
    bridge: &Shared,
    scripts: Vec<String>,
) -> Result<(), JsValue> {
    // Several scripts (the models of every path at the end of a run) go in one call: Z3 wasm's
    // cost is mostly per call.
    if scripts.len() > 1 {
        let reply = transport.run(&batch_script(&scripts)).await.map_err(|e| to_js_error(&e))?;
        if let Some(parts) = split_batch_reply(&reply, scripts.len()) {
            let mut b = bridge.borrow_mut();
            b.batched_calls += 1;
            for (script, part) in scripts.into_iter().zip(parts) {
                b.replies.insert(script, part);
            }
            return Ok(());
        }
    }
    for script in scripts {
        let reply = transport.run(&script).await.map_err(|e| to_js_error(&e))?;
        bridge.borrow_mut().replies.insert(script, reply);
    }
    Ok(())
}

/// Takes the run for one async call; `Busy` while another call is running.
fn enter(run: &Rc<RefCell<Run>>) -> Result<(), JsValue> {
    let mut r = run.try_borrow_mut().map_err(|_| fail("Busy", "the exploration is in use"))?;
    if r.busy {
        return Err(fail("Busy", "another step() or runToEnd() of this exploration is running"));
    }
    r.busy = true;
    r.clock.start();
    Ok(())
}

fn leave(run: &Rc<RefCell<Run>>) {
    if let Ok(mut r) = run.try_borrow_mut() {
        r.busy = false;
        r.clock.stop();
    }
}

/// The span of the declaration of `Class.method` or of the function `name`.
fn declaration_span(
    program: &heaplab_syntax::ast::Program,
    name: &str,
) -> Option<heaplab_syntax::Span> {
    use heaplab_syntax::ast::Item;
    let (class, method) = match name.split_once('.') {
        Some((c, m)) => (Some(c), m),
        None => (None, name),
    };
    program.items.iter().find_map(|item| match (item, class) {
        (Item::Class(c), Some(cls)) if c.name.name == cls => {
            c.methods.iter().find(|m| m.name.name == method).map(|m| m.name.span)
        }
        (Item::Function(f), None) if f.name.name == method => Some(f.name.span),
        _ => None,
    })
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
        let next = run.borrow_mut().advance()?;
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

/// What one `runSlice` hands the page: the events that change the tree, the tree nodes created
/// since `treeFrom`, how many solver queries were only counted, and whether exploration is over.
#[derive(Serialize)]
struct JsSlice {
    events: Vec<JsEvent>,
    nodes: Vec<JsTreeNode>,
    queries: u64,
    over: bool,
}

/// Steps for about `budget_ms` of working time (see [`Exploration::run_slice`]). Every event is
/// taken in Rust; only those the tree shows are converted, and the whole slice crosses into JS
/// once, as JSON text parsed by the engine of JS (one call instead of one per field).
async fn slice(
    run: &Rc<RefCell<Run>>,
    solve: Option<&Function>,
    budget_ms: f64,
    tree_from: u32,
) -> Result<JsValue, JsValue> {
    let end = run.borrow().clock.now_ms() as f64 + budget_ms.max(0.0);
    let mut events = Vec::new();
    let mut queries = 0;
    let over = loop {
        let next = run.borrow_mut().advance()?;
        match next {
            Next::Event(placed) => {
                let r = run.borrow();
                if let Event::SolverQuery { .. } = placed.event {
                    queries += 1;
                    // Without Z3, a query outside the Rust procedure ends the slice there, so
                    // that the page stops on it (`NoZ3`) with the tree up to it.
                    if solve.is_none() && r.unanswered() > 0 {
                        break false;
                    }
                } else {
                    events.push(r.event_js(&placed));
                }
                if r.clock.now_ms() as f64 >= end {
                    break false;
                }
            }
            Next::Resolve(scripts) => {
                let bridge = Rc::clone(&run.borrow().bridge);
                resolve(solve, &bridge, scripts).await?;
            }
            Next::Explored => break true,
        }
    };
    let r = run.borrow();
    let out = JsSlice { events, nodes: r.tree_nodes(tree_from as usize), queries, over };
    let text = serde_json::to_string(&out).map_err(|e| fail("Internal", &e.to_string()))?;
    js_sys::JSON::parse(&text)
}

/// Ends exploration: generates and replays the tests (once), resolving on the way the model
/// queries that need Z3.
async fn finish(run: &Rc<RefCell<Run>>, solve: Option<&Function>) -> Result<(), JsValue> {
    if run.borrow().generation.is_some() {
        return Ok(());
    }
    run.borrow_mut().explored = true;
    loop {
        let missing = run.borrow_mut().try_generate()?;
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
        let config =
            request.options.resolve().map_err(|e| fail("BadOptions", &format!("options: {e}")))?;
        let file_name = request.file.clone().unwrap_or_else(|| "input.hl".to_string());
        let text = SourceFile::new(file_name.clone(), source.clone());
        let analysis = checked(&text)?;
        let bridge: Shared = Rc::new(RefCell::new(Bridge::default()));
        let clock = ActiveTime::default();
        let procedure = request.procedure.unwrap_or(true);
        let solver = AsyncPathSolver::new(Rc::clone(&bridge), solve.is_some(), procedure);
        let frontend = Rc::clone(&solver.frontend);
        let mut explorer = Explorer::new(
            &analysis.program,
            &analysis.info,
            &method,
            config,
            Box::new(solver),
            Box::new(clock.clone()),
        )
        .map_err(|e| fail("UnknownMethod", &e.to_string()))?;
        let sites = Lines::new(&analysis.program, &text);
        let method_line = declaration_span(&analysis.program, &method)
            .map(|span| text.line_col(span.start).line as u32);
        if request.views.unwrap_or(true) {
            explorer.record_views(VIEW_LIMIT);
        }
        let run = Run {
            source,
            file: file_name,
            method,
            analysis,
            explorer,
            bridge,
            frontend,
            frontend_adjust: Stats::default(),
            bounds_hit: BTreeSet::new(),
            generation: None,
            lines: None,
            sites,
            text,
            method_line,
            clock,
            explored: false,
            cancelled: false,
            busy: false,
        };
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
    /// The page's Run takes one slice per batch: the run stays in Rust between the page's
    /// chances to pause it, and one slice crosses into JS at once.
    #[wasm_bindgen(js_name = runSlice, unchecked_return_type = "Promise<ExploreSlice>")]
    pub fn run_slice(&self, budget_ms: f64, tree_from: u32) -> Promise {
        let run = Rc::clone(&self.run);
        let solve = self.solve.clone();
        future_to_promise(async move {
            enter(&run)?;
            let res = slice(&run, solve.as_ref(), budget_ms, tree_from).await;
            leave(&run);
            res
        })
    }

    /// Which solver answered how many queries so far (`ExploreSolverStats`), for the status
    /// line: `decidedInRust` (engine + frontend), `sentToZ3`, `cacheHits`, and without Z3
    /// `unknownWithoutZ3` (queries outside the Rust procedure's fragment, answered unknown).
    #[wasm_bindgen(js_name = solverStats, unchecked_return_type = "ExploreSolverStats")]
    pub fn solver_stats(&self) -> Result<JsValue, JsValue> {
        let r = self.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
        to_js(&r.solver_stats())
    }

    /// The summary so far (`RunSummary`; `tests` is 0 until tests are generated).
    pub fn summary(&self) -> Result<JsValue, JsValue> {
        let r = self.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
        to_js(&r.summary())
    }

    /// The generated tests (`GeneratedTestJs[]`); empty until exploration is over.
    pub fn tests(&self) -> Result<JsValue, JsValue> {
        let r = self.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
        let tests: Vec<JsTest> = match &r.generation {
            Some(g) => g.tests.iter().map(|t| test_js(g, r.lines.as_ref(), t)).collect(),
            None => Vec::new(),
        };
        to_js(&tests)
    }

    /// The program followed by every generated test, as `heaplab run --emit hl` writes it
    /// (runnable with `heaplab test`); `null` until exploration is over.
    #[wasm_bindgen(js_name = testsHl)]
    pub fn tests_hl(&self) -> Result<Option<String>, JsValue> {
        let r = self.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
        Ok(r.generation.as_ref().map(|g| emit::hl(&r.source, g)))
    }

    /// The generated tests as `heaplab run --emit json` writes them; `null` until over.
    #[wasm_bindgen(js_name = testsJson)]
    pub fn tests_json(&self) -> Result<Option<String>, JsValue> {
        let r = self.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
        Ok(r.generation.as_ref().map(emit::json))
    }

    /// The exploration tree so far (`TreeNodeJs[]`), parents before children.
    pub fn tree(&self) -> Result<JsValue, JsValue> {
        let r = self.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
        to_js(&r.tree_nodes(0))
    }

    /// The tree nodes with ids `start..` (`TreeNodeJs[]`, the shape of `tree()`): a page that
    /// has the first `start` nodes asks only for the new ones. A node's `outcome` is set when its
    /// path ends, so ask again from the first node that was still open.
    #[wasm_bindgen(js_name = treeSince, unchecked_return_type = "TreeNodeJs[]")]
    pub fn tree_since(&self, start: u32) -> Result<JsValue, JsValue> {
        let r = self.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
        to_js(&r.tree_nodes(start as usize))
    }

    /// The symbolic state of tree node `node` (`HeapView`), or `null`: no such node, or a node
    /// whose state is gone and whose view was not kept (only the first 5000 nodes' are).
    #[wasm_bindgen(unchecked_return_type = "HeapView | null")]
    pub fn view(&self, node: u32) -> Result<JsValue, JsValue> {
        let r = self.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
        match r.explorer.view(StateId(node)) {
            Some(v) => to_js(&inspect::heap_view(&v, |s| r.line_of(s))),
            None => Ok(JsValue::NULL),
        }
    }

    /// Concrete worlds of a `symheap` tree node (`SymheapWorlds`): models of its path
    /// condition, decided in Rust, each picking one entry of every reference of its view;
    /// `null` when the node has no view or runs another strategy.
    #[wasm_bindgen(unchecked_return_type = "SymheapWorlds | null")]
    pub fn worlds(&self, node: u32) -> Result<JsValue, JsValue> {
        let r = self.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
        match r.explorer.view(StateId(node)).and_then(|v| v.symheap) {
            Some(s) => to_js(&inspect::worlds(&s.worlds())),
            None => Ok(JsValue::NULL),
        }
    }

    /// Line and branch coverage of the generated tests (`CoverageJs`); `null` until exploration
    /// is over.
    #[wasm_bindgen(unchecked_return_type = "CoverageJs | null")]
    pub fn coverage(&self) -> Result<JsValue, JsValue> {
        let r = self.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
        match (&r.generation, &r.lines) {
            (Some(g), Some(lines)) => {
                let cov = lines.coverage(&r.analysis.program, &r.explorer, g);
                to_js(&inspect::coverage(&cov))
            }
            _ => Ok(JsValue::NULL),
        }
    }

    /// The program translated to Java with a JUnit 5 class of the generated tests, as
    /// `heaplab run --emit junit` writes them for a file named `stem`.hl (`JunitFiles`); `null`
    /// until exploration is over. Throws an `Error` with `kind` `Untranslatable` when the program
    /// uses what Java cannot express faithfully.
    #[wasm_bindgen(js_name = testsJunit, unchecked_return_type = "JunitFiles | null")]
    pub fn tests_junit(&self, stem: &str) -> Result<JsValue, JsValue> {
        let r = self.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
        let Some(g) = &r.generation else { return Ok(JsValue::NULL) };
        if crate::program::is_java_name(&r.file) {
            // A Java program's tests exercise the pasted class itself, in its package (the
            // Java map is rebuilt from the same text: the lowering is deterministic).
            let java = heaplab_java::analyze(&SourceFile::new(r.file.clone(), r.source.clone()));
            let settings = format!("the playground's exploration of `{}`", r.method);
            let input = emit::junit_java::OriginalInput {
                program: &r.analysis.program,
                map: &java.map,
                settings: &settings,
            };
            let out = emit::junit_java::junit_for_original(&input, g);
            let files: Vec<JsFile> =
                out.files.into_iter().map(|(name, text)| JsFile { name, text }).collect();
            return to_js(&JsJunit { files, warnings: out.warnings });
        }
        let input = emit::junit::JunitInput {
            program: &r.analysis.program,
            info: &r.analysis.info,
            source: &r.source,
            package: Some(emit::junit::package_name(stem)),
            paths: r.explorer.paths(),
        };
        let java =
            emit::junit::junit(&input, g).map_err(|e| fail("Untranslatable", &e.to_string()))?;
        let files: Vec<JsFile> =
            java.files.into_iter().map(|(name, text)| JsFile { name, text }).collect();
        to_js(&JsJunit { files, warnings: java.warnings })
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
