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
//! Test generation asks for one model per feasible path. Before calling `heaplab_testgen` the
//! loop concretizes every path once with the same solver, collecting the model scripts that
//! have no reply, resolves them all, and repeats until none is missing; `generate` then runs
//! synchronously on the stored replies.
//!
//! Solver counts: a step that was undone re-runs its queries, so the counts it made are taken
//! back (`adjust`); a query answered on re-execution may then count as a cache hit where the
//! CLI counted it as sent (the split can differ, the totals of paths and tests cannot).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::future::Future;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use heaplab_engine::symbolic::{
    smt::{read_model, to_term, wanted},
    strategy, Bound, Clock, Config, Event, Explorer, ForkKind, Model, PathOutcome, PathSolver,
    PreMode, SatAnswer, SearchOrder, SolverCounts, Sort, StateId, Sym,
};
use heaplab_engine::{Heap, ObjId, Value};
use heaplab_smt::{
    Answer, BoxFuture, Query, SmtSolver, Solver, SolverError, SolverFrontend, Transport, Var,
};
use heaplab_syntax::{analyze, Analysis, SourceFile};
use heaplab_testgen::coverage::Lines;
use heaplab_testgen::{emit, generate, Expected, GeneratedTest, Generation, Validity};
use js_sys::{Function, Promise};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::inspect;
use crate::solver_bridge::{to_js_error, JsTransport};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** Options of an Exploration (JSON text or an object); every field is optional. */
export interface ExploreOptions {
  /** A name of `strategies()`. */
  strategy?: 'lazy' | 'lazier' | 'lazier#' | 'sl' | 'symheap';
  k?: number;
  /** `sl` only: the deepest predicate unfolding. */
  depth?: number;
  loop?: number;
  callDepth?: number;
  maxPaths?: number;
  /** Stop after this many states (tree nodes). */
  maxStates?: number;
  /** 0: no limit. */
  timeoutMs?: number;
  pre?: 'assume' | 'ignore';
  order?: 'dfs' | 'bfs';
  /** The file name reported in the summary (as `heaplab run` reports its argument). */
  file?: string;
}
/** One exploration event. */
export interface ExploreEvent {
  kind: 'start' | 'lazyInit' | 'branch' | 'disjuncts' | 'slModel' | 'solverQuery' | 'pathEnd' | 'stopped';
  /** The state (tree node) the event happened in; null for `stopped`. */
  node: number | null;
  parent: number | null;
  label: string;
  details: Record<string, unknown>;
}
/** The summary of `heaplab run --format json`, with the same keys. */
export interface RunSummary {
  file: string; method: string; strategy: string; k: number; pre: 'assume' | 'ignore';
  paths: number; paths_feasible: number; paths_infeasible: number; paths_bounded: number;
  bounds_hit: string[]; k_bound_reached: boolean; states: number; tests: number;
  invalid_inputs: number; errors: number; branches_covered: number;
  /** Branch directions covered by the tests whose input satisfies `requires`. */
  branches_covered_valid: number; branches_total: number;
  solver_calls: { sent: number; decided_locally: number; cached: number; failed: number };
  time_ms: number; internal_errors: number;
  /** `sl`: paths whose input came from a model / that had none / left to running the bodies. */
  sl_models: number; sl_no_model: number; sl_run_completions: number;
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
}
/** A row of the strategy registry (`strategies()`), in menu order. */
export interface StrategyInfoJs { name: string; source: string; description: string; }
/** The default bounds (`defaults()`); `timeoutMs` 0 means no limit. */
export interface BoundsJs {
  k: number; depth: number; loop: number; callDepth: number; maxPaths: number; maxStates: number; timeoutMs: number;
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
  /** Open abstract references some value of the state refers to. */
  symbolic: { id: string; kind: 'symref' | 'symloc'; class: string }[];
  /** `sl`: predicate instances still folded; `root` is the reference covered (null: null). */
  predicates: { text: string; name: string; root: string | null; depth: number }[];
  /** Facts about the inputs, without integer-range facts or facts another one implies. */
  pathCondition: string[];
  returned: Val | null;
  outcome: { kind: 'returned' | 'error' | 'bounded' | 'discarded' | 'internal'; text: string } | null;
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
struct Bridge {
    replies: HashMap<String, String>,
    outstanding: Vec<String>,
    /// Set by the transport when it met a script without a reply.
    missed: bool,
    /// Counts of undone steps, taken back from the frontend's.
    adjust: SolverCounts,
}

type Shared = Rc<RefCell<Bridge>>;

/// A transport that only answers from stored replies; any other script is recorded.
#[derive(Clone)]
struct ReplayTransport(Shared);

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

/// The explorer's [`PathSolver`] over the replay transport (see the module docs).
struct AsyncPathSolver {
    frontend: SolverFrontend<SmtSolver<ReplayTransport>>,
    bridge: Shared,
    local: u64,
    failed: u64,
}

impl AsyncPathSolver {
    fn new(bridge: Shared) -> AsyncPathSolver {
        let smt = SmtSolver::new(ReplayTransport(Rc::clone(&bridge)));
        AsyncPathSolver {
            frontend: SolverFrontend::with_clock(smt, js_sys::Date::now),
            bridge,
            local: 0,
            failed: 0,
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
        let q = Query::new(terms).want(want);
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
        match self.query(conjuncts, wanted(vars)) {
            Reply::Answer(Answer::Sat(m)) => (SatAnswer::Sat, Some(read_model(&m, vars))),
            Reply::Answer(Answer::Unsat) => (SatAnswer::Unsat, None),
            Reply::Answer(Answer::Unknown(_)) => {
                self.failed += 1;
                (SatAnswer::Unknown, None)
            }
            Reply::Failed => (SatAnswer::Unknown, None),
            Reply::Pending => (SatAnswer::Pending, None),
        }
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

    fn is_async(&self) -> bool {
        true
    }
}

/// Milliseconds from `Date.now()`.
struct JsClock;

impl Clock for JsClock {
    fn now_ms(&self) -> u64 {
        let now = js_sys::Date::now();
        if now.is_finite() && now > 0.0 {
            now as u64
        } else {
            0
        }
    }
}

/// Options from JS (see `ExploreOptions`).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Options {
    strategy: Option<String>,
    k: Option<u32>,
    depth: Option<u32>,
    #[serde(rename = "loop")]
    loop_iterations: Option<u32>,
    call_depth: Option<u32>,
    max_paths: Option<u64>,
    max_states: Option<u64>,
    timeout_ms: Option<u64>,
    pre: Option<String>,
    order: Option<String>,
    file: Option<String>,
}

/// The fields of [`Options`], as JS spells them.
const OPTION_KEYS: &[&str] = &[
    "strategy",
    "k",
    "depth",
    "loop",
    "callDepth",
    "maxPaths",
    "maxStates",
    "timeoutMs",
    "pre",
    "order",
    "file",
];

fn fail(kind: &str, message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    let _ = js_sys::Reflect::set(&err, &JsValue::from_str("kind"), &JsValue::from_str(kind));
    err.into()
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| fail("Internal", &e.to_string()))
}

fn parse_options(options: JsValue) -> Result<Options, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(Options::default());
    }
    let options = match options.as_string() {
        Some(text) if text.trim().is_empty() => return Ok(Options::default()),
        Some(text) => {
            js_sys::JSON::parse(&text).map_err(|_| fail("BadOptions", "options: not valid JSON"))?
        }
        None => options,
    };
    // serde_wasm_bindgen reads only the declared fields: reject the others here.
    if let Some(obj) = options.dyn_ref::<js_sys::Object>() {
        for key in js_sys::Object::keys(obj).iter().filter_map(|k| k.as_string()) {
            if !OPTION_KEYS.contains(&key.as_str()) {
                return Err(fail(
                    "BadOptions",
                    &format!("options: unknown field `{key}` (one of {})", OPTION_KEYS.join(", ")),
                ));
            }
        }
    } else {
        return Err(fail("BadOptions", "options: expected an object or JSON text"));
    }
    serde_wasm_bindgen::from_value(options)
        .map_err(|e| fail("BadOptions", &format!("options: {e}")))
}

fn config_of(o: &Options) -> Result<(Config, &'static str), JsValue> {
    let mut config = Config::default();
    let name = o.strategy.as_deref().unwrap_or("lazier#");
    let info = strategy::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = strategy::STRATEGIES.iter().map(|s| s.name).collect();
        fail("BadOptions", &format!("unknown strategy `{name}` (one of {})", names.join(", ")))
    })?;
    config.strategy = info.kind;
    config.pre = match o.pre.as_deref() {
        None | Some("assume") => PreMode::Assume,
        Some("ignore") => PreMode::Ignore,
        Some(other) => {
            return Err(fail("BadOptions", &format!("pre: `{other}` (assume or ignore)")))
        }
    };
    config.order = match o.order.as_deref() {
        None | Some("dfs") => SearchOrder::Dfs,
        Some("bfs") => SearchOrder::Bfs,
        Some(other) => return Err(fail("BadOptions", &format!("order: `{other}` (dfs or bfs)"))),
    };
    let b = &mut config.bounds;
    if let Some(k) = o.k {
        b.k = k;
    }
    if let Some(d) = o.depth {
        b.depth = d;
    }
    if let Some(n) = o.loop_iterations {
        b.loop_iterations = n;
    }
    if let Some(n) = o.call_depth {
        b.call_depth = n;
    }
    if let Some(n) = o.max_paths {
        b.max_paths = n;
    }
    if let Some(n) = o.max_states {
        b.max_states = n;
    }
    if let Some(ms) = o.timeout_ms {
        b.timeout_ms = (ms > 0).then_some(ms);
    }
    Ok((config, info.name))
}

/// The analysis of a program that checks (predicates included, as `heaplab run` requires).
fn checked(file: &SourceFile) -> Result<Analysis, JsValue> {
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
struct Run {
    source: String,
    file: String,
    method: String,
    strategy: &'static str,
    analysis: Analysis,
    explorer: Explorer,
    bridge: Shared,
    bounds_hit: BTreeSet<Bound>,
    generation: Option<Generation>,
    /// Where each statement of the program is, once tests exist (their `lines`, `coverage()`).
    lines: Option<Lines>,
    /// Set when exploration has ended (or was cancelled).
    explored: bool,
    cancelled: bool,
    busy: bool,
}

/// What one synchronous slice of work needs next.
enum Next {
    Event(Box<Event>),
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
        self.bridge.borrow_mut().outstanding.clear();
        match self.explorer.step() {
            None => Ok(Next::Explored),
            Some(Event::SolverPending) => {
                let undone = sub(self.explorer.solver_counts(), before);
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
                if let Event::PathEnd { outcome: PathOutcome::Bounded { bound, .. }, .. } = &event {
                    self.bounds_hit.insert(*bound);
                }
                Ok(Next::Event(Box::new(event)))
            }
        }
    }

    /// Concretizes every feasible path once; the model scripts still without a reply.
    fn missing_models(&mut self) -> Vec<String> {
        let before = self.explorer.solver_counts();
        self.bridge.borrow_mut().outstanding.clear();
        let compiled = Rc::clone(self.explorer.compiled());
        let heap = self.explorer.heap_model();
        let is_method = self.method.contains('.');
        let paths: Vec<_> =
            self.explorer.paths().iter().filter(|p| p.outcome.is_feasible()).cloned().collect();
        for p in &paths {
            let _ = heaplab_testgen::concretize::concretize(
                self.explorer.solver_mut(),
                &*heap,
                &compiled,
                is_method,
                p,
            );
        }
        // These queries are asked again by `generate`: count them once, there.
        let spent = sub(self.explorer.solver_counts(), before);
        let mut b = self.bridge.borrow_mut();
        b.adjust = add(b.adjust, spent);
        std::mem::take(&mut b.outstanding)
    }

    fn generate(&mut self) -> Result<(), JsValue> {
        let program = &self.analysis.program;
        let info = &self.analysis.info;
        let generation = generate(&mut self.explorer, program, info)
            .map_err(|e| fail("TestGeneration", &format!("test generation failed: {e}")))?;
        self.generation = Some(generation);
        let file = SourceFile::new(self.file.clone(), self.source.clone());
        self.lines = Some(Lines::new(program, &file));
        Ok(())
    }

    fn summary(&self) -> JsSummary {
        let stats = self.explorer.stats();
        let counts = self.explorer.solver_counts();
        let (covered, total) = self.explorer.branch_coverage();
        let (tests, invalid, errors) = match &self.generation {
            Some(g) => (g.tests.len(), g.invalid_inputs(), g.errors_found()),
            None => (0, 0, 0),
        };
        // As `heaplab compare`'s br_valid: only tests whose input satisfies `requires`.
        let covered_valid = match &self.generation {
            Some(g) => heaplab_testgen::coverage::branches_taken(
                &self.explorer,
                g.tests.iter().filter(|t| t.validity.is_valid()),
            )
            .len(),
            None => 0,
        };
        JsSummary {
            file: self.file.clone(),
            method: self.method.clone(),
            strategy: self.strategy,
            k: self.explorer.config().bounds.k,
            pre: if self.explorer.config().pre == PreMode::Assume { "assume" } else { "ignore" },
            paths: stats.feasible + stats.infeasible + stats.bounded,
            paths_feasible: stats.feasible,
            paths_infeasible: stats.infeasible,
            paths_bounded: stats.bounded,
            bounds_hit: self.bounds_hit.iter().map(|b| b.name()).collect(),
            k_bound_reached: stats.k_cut,
            states: stats.states,
            tests,
            invalid_inputs: invalid,
            errors,
            branches_covered: covered,
            branches_covered_valid: covered_valid,
            branches_total: total,
            solver_calls: JsCounts {
                sent: counts.sent,
                decided_locally: counts.decided_locally,
                cached: counts.cached,
                failed: counts.failed,
            },
            time_ms: self.explorer.elapsed_ms(),
            internal_errors: stats.internal_errors,
            sl_models: stats.sl_models,
            sl_no_model: stats.sl_no_model,
            sl_run_completions: stats.sl_run_completions,
        }
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

    fn event_js(&self, event: &Event) -> JsEvent {
        let node = |s: &heaplab_engine::symbolic::StateId| Some(s.0);
        match event {
            Event::Start { state, method } => JsEvent {
                kind: "start",
                node: node(state),
                parent: None,
                label: method.clone(),
                details: Details::Start { method: method.clone() },
            },
            Event::LazyInit { state, target, options, children, kind, k_cut } => JsEvent {
                kind: "lazyInit",
                node: node(state),
                parent: self.parent_of(state.0),
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
                kind: "branch",
                node: node(state),
                parent: self.parent_of(state.0),
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
            Event::Disjuncts { state, children } => JsEvent {
                kind: "disjuncts",
                node: node(state),
                parent: self.parent_of(state.0),
                label: format!("{} disjuncts", children.len()),
                details: Details::Disjuncts { children: children.iter().map(|c| c.0).collect() },
            },
            Event::SlModel { state, formula, model } => JsEvent {
                kind: "slModel",
                node: node(state),
                parent: self.parent_of(state.0),
                label: format!("model of {formula}"),
                details: Details::SlModel { formula: formula.clone(), model: model.clone() },
            },
            Event::SolverQuery { state, query, answer, local } => JsEvent {
                kind: "solverQuery",
                node: node(state),
                parent: self.parent_of(state.0),
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
                    kind: "pathEnd",
                    node: node(state),
                    parent: self.parent_of(state.0),
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
                kind: "stopped",
                node: None,
                parent: None,
                label: format!("stopped: bound `{bound}` reached"),
                details: Details::Stopped { bound: bound.name() },
            },
            // Never returned by `advance`; kept total for the match.
            Event::SolverPending => JsEvent {
                kind: "solverPending",
                node: None,
                parent: None,
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

#[derive(Serialize)]
struct JsCounts {
    sent: u64,
    decided_locally: u64,
    cached: u64,
    failed: u64,
}

/// The keys of `heaplab run --format json` (snake_case on purpose).
#[derive(Serialize)]
struct JsSummary {
    file: String,
    method: String,
    strategy: &'static str,
    k: u32,
    pre: &'static str,
    paths: u64,
    paths_feasible: u64,
    paths_infeasible: u64,
    paths_bounded: u64,
    bounds_hit: Vec<&'static str>,
    k_bound_reached: bool,
    states: u64,
    tests: usize,
    invalid_inputs: usize,
    errors: usize,
    branches_covered: usize,
    /// Branch directions covered by the tests whose input satisfies `requires`.
    branches_covered_valid: usize,
    branches_total: usize,
    solver_calls: JsCounts,
    time_ms: u64,
    internal_errors: u64,
    sl_models: u64,
    sl_no_model: u64,
    sl_run_completions: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsEvent {
    kind: &'static str,
    node: Option<u32>,
    parent: Option<u32>,
    label: String,
    details: Details,
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
}

#[derive(Serialize)]
#[serde(untagged)]
enum JsHeapValue {
    Int(f64),
    Big(String),
    Bool(bool),
    Null(Option<()>),
    Ref { r#ref: String },
}

fn heap_value(v: &Value) -> JsHeapValue {
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
struct JsObject {
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
struct JsTest {
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

fn objects(heap: &Heap) -> Vec<JsObject> {
    heap.objects()
        .map(|(id, o): (ObjId, _)| JsObject {
            id: id.to_string(),
            class: o.class.clone(),
            fields: o.fields.iter().map(|(f, v)| (f.clone(), heap_value(v))).collect(),
        })
        .collect()
}

fn test_js(generation: &Generation, lines: Option<&Lines>, t: &GeneratedTest) -> JsTest {
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

#[derive(Serialize)]
struct JsStrategy {
    name: &'static str,
    source: &'static str,
    description: &'static str,
}

/// The strategy registry (`StrategyInfoJs[]`), in menu order: what `strategy` accepts.
#[wasm_bindgen(unchecked_return_type = "StrategyInfoJs[]")]
pub fn strategies() -> Result<JsValue, JsValue> {
    let rows: Vec<JsStrategy> = strategy::STRATEGIES
        .iter()
        .map(|s| JsStrategy { name: s.name, source: s.paper, description: s.description })
        .collect();
    to_js(&rows)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsBounds {
    k: u32,
    depth: u32,
    #[serde(rename = "loop")]
    loop_iterations: u32,
    call_depth: u32,
    max_paths: u64,
    max_states: u64,
    timeout_ms: u64,
}

/// The bounds an exploration uses when its options leave them out (`BoundsJs`), as
/// `heaplab run` does.
#[wasm_bindgen(unchecked_return_type = "BoundsJs")]
pub fn defaults() -> Result<JsValue, JsValue> {
    let b = Config::default().bounds;
    to_js(&JsBounds {
        k: b.k,
        depth: b.depth,
        loop_iterations: b.loop_iterations,
        call_depth: b.call_depth,
        max_paths: b.max_paths,
        max_states: b.max_states,
        timeout_ms: b.timeout_ms.unwrap_or(0),
    })
}

/// Sends one script to the host and stores the reply.
async fn resolve(solve: &Function, bridge: &Shared, scripts: Vec<String>) -> Result<(), JsValue> {
    let transport = JsTransport::new(solve.clone());
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
    Ok(())
}

fn leave(run: &Rc<RefCell<Run>>) {
    if let Ok(mut r) = run.try_borrow_mut() {
        r.busy = false;
    }
}

/// The next event that is not a pending solver answer (resolving those on the way); `None`
/// when exploration is over.
async fn next_event(run: &Rc<RefCell<Run>>, solve: &Function) -> Result<Option<JsValue>, JsValue> {
    loop {
        let next = run.borrow_mut().advance()?;
        match next {
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

/// Ends exploration: resolves every model, then generates and replays the tests (once).
async fn finish(run: &Rc<RefCell<Run>>, solve: &Function) -> Result<(), JsValue> {
    if run.borrow().generation.is_some() {
        return Ok(());
    }
    run.borrow_mut().explored = true;
    loop {
        let missing = run.borrow_mut().missing_models();
        if missing.is_empty() {
            break;
        }
        let bridge = Rc::clone(&run.borrow().bridge);
        if missing.iter().any(|s| bridge.borrow().replies.contains_key(s)) {
            return Err(fail("Internal", "a model query stays unanswered after its reply"));
        }
        resolve(solve, &bridge, missing).await?;
    }
    run.borrow_mut().generate()
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
    run: Rc<RefCell<Run>>,
    solve: Function,
}

#[wasm_bindgen]
impl Exploration {
    /// `options`: `ExploreOptions` as an object or JSON text; `solve`:
    /// `(smtText: string) => Promise<string>`. Throws an `Error` with `kind` `BadOptions`,
    /// `ProgramHasErrors` or `UnknownMethod`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        source: String,
        method: String,
        options: JsValue,
        solve: Function,
    ) -> Result<Exploration, JsValue> {
        let options = parse_options(options)?;
        let (config, strategy) = config_of(&options)?;
        let file_name = options.file.clone().unwrap_or_else(|| "input.hl".to_string());
        let analysis = checked(&SourceFile::new(file_name.clone(), source.clone()))?;
        let bridge: Shared = Rc::new(RefCell::new(Bridge::default()));
        let solver = AsyncPathSolver::new(Rc::clone(&bridge));
        let mut explorer = Explorer::new(
            &analysis.program,
            &analysis.info,
            &method,
            config,
            Box::new(solver),
            Box::new(JsClock),
        )
        .map_err(|e| fail("UnknownMethod", &e.to_string()))?;
        explorer.record_views(VIEW_LIMIT);
        let run = Run {
            source,
            file: file_name,
            method,
            strategy,
            analysis,
            explorer,
            bridge,
            bounds_hit: BTreeSet::new(),
            generation: None,
            lines: None,
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
                match next_event(&run, &solve).await? {
                    Some(event) => Ok(event),
                    None => {
                        finish(&run, &solve).await?;
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
                    if next_event(&run, &solve).await?.is_none() {
                        break;
                    }
                    seen += 1;
                }
                finish(&run, &solve).await?;
                let r = run.borrow();
                to_js(&r.summary())
            }
            .await;
            leave(&run);
            res
        })
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
            Some(v) => to_js(&inspect::heap_view(&v)),
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
