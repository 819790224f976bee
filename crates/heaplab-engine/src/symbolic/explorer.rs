//! The explorer: a worklist of symbolic states stepped one instruction at a time.
//!
//! [`Explorer::step`] executes one instruction of one state and returns the next [`Event`]
//! (STYLE.md item 10); [`Explorer::next_path`] steps until a path ends. Because a state is plain
//! data, exploration can be paused between any two steps, resumed, or dropped (cancel). Forks
//! (lazy-initialization choices, resolution of symbolic references/locations, feasible branch
//! directions, disjuncts of a formula) push the children onto the worklist: a stack for
//! depth-first search (the default), a queue for breadth-first.
//!
//! Every path ends with a [`PathOutcome`]: returned, a runtime error of the program, cut by a
//! named [`Bound`], or discarded because an `assume`/the precondition does not hold. Infeasible
//! branch directions are pruned with the solver, which is asked only when the condition is not
//! decided locally (constants, or a fact already in the path condition).

use super::code::{compile, Compiled, Const, Instr, OperandKind, SlotType, UnitId, UnitKind};
use super::config::{Bound, Clock, Config, PreMode, SearchOrder, SlCompletion, StrategyKind};
use super::solve::{PathSolver, SatAnswer, SolverCounts};
use super::state::{
    Frame, LoopCount, ObjIdx, Object, Origin, RefResolution, SValue, State, StateId, VarOrigin,
};
use super::strategy::{self, Choice, HeapStrategy};
use super::term::Sym;
use super::view::{HeapView, Snapshots, ViewAt};
use crate::error::{Error, Result};
use heaplab_syntax::ast::{BinOp, ErrorKind, NodeId, Program, UnOp};
use heaplab_syntax::types::ProgramInfo;
use heaplab_syntax::Span;
use std::collections::{BTreeSet, VecDeque};
use std::rc::Rc;

/// How a path ended.
#[derive(Clone, Debug, PartialEq)]
pub enum PathOutcome {
    /// The method under test returned this value (normalized; `Void` for `void`).
    Returned(SValue),
    /// A runtime error of the program.
    Error { kind: ErrorKind, node: NodeId, span: Span, message: String },
    /// A bound cut the path.
    Bounded { bound: Bound, span: Option<Span> },
    /// An `assume` (or, with `precondition`, the `requires` formula) does not hold: the path
    /// does not describe a valid run and yields no test.
    Discarded { span: Span, precondition: bool },
    /// The engine met something it cannot execute (a program the checker should reject).
    Internal { message: String, span: Option<Span> },
}

impl PathOutcome {
    /// Paths that become tests: the method returned or the program failed.
    pub fn is_feasible(&self) -> bool {
        matches!(self, PathOutcome::Returned(_) | PathOutcome::Error { .. })
    }

    /// One line for a person (values are shown raw; see [`PathResult::describe`]).
    pub fn summary(&self) -> String {
        match self {
            PathOutcome::Returned(v) => format!("returned {v:?}"),
            PathOutcome::Error { kind, message, .. } => format!("{}: {message}", kind.keyword()),
            PathOutcome::Bounded { bound, .. } => format!("bounded by `{bound}`"),
            PathOutcome::Discarded { precondition: true, .. } => {
                "precondition does not hold".into()
            }
            PathOutcome::Discarded { precondition: false, .. } => "assumption does not hold".into(),
            PathOutcome::Internal { message, .. } => format!("internal error: {message}"),
        }
    }
}

/// A finished path with its final state (the input journal, path condition and final heap that
/// test generation concretizes).
#[derive(Clone, Debug)]
pub struct PathResult {
    /// 0-based, in the order paths ended.
    pub index: usize,
    pub outcome: PathOutcome,
    pub state: State,
}

impl PathResult {
    pub fn describe(&self) -> String {
        match &self.outcome {
            PathOutcome::Returned(v) => format!("returned {}", self.state.show(v)),
            other => other.summary(),
        }
    }
}

/// Why a state has several children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForkKind {
    /// Lazy initialization of an unknown reference (input root or first field read).
    LazyInit,
    /// A symbolic reference/location was resolved at a dereference, comparison or null test.
    Resolve,
    /// Both directions of a branch are feasible.
    Branch,
    /// The disjuncts of a formula.
    Disjunct,
}

/// One node of the exploration tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode {
    pub id: StateId,
    pub parent: Option<StateId>,
    /// What distinguishes this state from its siblings (`root = null`, `x0 < x1`, ...).
    pub label: String,
    /// The path that ended in this state, if any.
    pub path: Option<usize>,
}

/// What happened in one step (STYLE.md item 10). Plain data; front ends convert it.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Exploration started: the root of the tree.
    Start { state: StateId, method: String },
    /// An unknown reference got its possible values; one child per option.
    LazyInit {
        state: StateId,
        /// What was unknown: `o1.root`, `param n`, `ref2`, `loc1`.
        target: String,
        /// Every option, in child order (`null`, `o2`, `fresh o3`, `ref4`, `loc1`).
        options: Vec<String>,
        children: Vec<StateId>,
        kind: ForkKind,
        /// The k bound removed the fresh-object option.
        k_cut: bool,
    },
    /// A branch on a symbolic condition; `children` are the feasible directions.
    Branch {
        state: StateId,
        site: Option<NodeId>,
        condition: String,
        /// (direction, child) for each feasible direction.
        children: Vec<(bool, StateId)>,
    },
    /// The disjuncts of a formula.
    Disjuncts { state: StateId, children: Vec<StateId> },
    /// `sl`: the input formula left at a path's end (`bst(ref1, lo, o2.key)`) was solved; `model`
    /// lists the cells the model added (`o4 -> Node { key: 3, … }`, or `emp`). The path ends next.
    SlModel { state: StateId, formula: String, model: String },
    /// A path-condition query and its answer.
    SolverQuery { state: StateId, query: String, answer: SatAnswer, local: bool },
    /// A path ended.
    PathEnd { state: StateId, path: usize, outcome: PathOutcome },
    /// Exploration stopped early because of a bound (remaining states are reported as
    /// bounded paths first).
    Stopped { bound: Bound },
    /// An asynchronous solver has not answered a query yet; the step was undone. Resolve the
    /// solver's outstanding query, then call [`Explorer::step`] again.
    SolverPending,
}

/// Totals of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Paths that returned or ended in a runtime error (each becomes a test).
    pub feasible: u64,
    /// Branch directions pruned by the solver plus paths discarded by `assume`/precondition.
    pub infeasible: u64,
    /// Of `infeasible`: paths discarded because the precondition does not hold.
    pub precondition_discarded: u64,
    /// Paths cut by a bound.
    pub bounded: u64,
    /// Paths the engine could not execute.
    pub internal_errors: u64,
    /// States created (nodes of the exploration tree).
    pub states: u64,
    /// Instructions executed.
    pub steps: u64,
    /// The k bound removed a fresh-object option on some path.
    pub k_cut: bool,
    /// `sl`: disjuncts the `enum` rule pruned before running them (also in `infeasible`, like
    /// a branch direction pruned by the solver).
    pub sl_pruned: u64,
    /// `sl`: values of a reference that a formula rules out at the instruction asking for them
    /// (`t == nn` with `nn` known: `t` is not `null` nor another object), never created.
    pub sl_decided: u64,
    /// `sl`: ended paths with folded instances whose input came from a model of the remaining
    /// input formula (the logic's satisfiability procedure, [`super::sl_model`]).
    pub sl_models: u64,
    /// `sl`: ended paths whose remaining formula has no model: discarded (also in `infeasible`).
    pub sl_no_model: u64,
    /// `sl`: ended paths the logic could not take (see [`super::sl_model`]), completed by
    /// running the instances' bodies instead.
    pub sl_run_completions: u64,
}

enum Succ {
    Continue(State),
    Fork(Vec<State>),
    End(State, PathOutcome),
}

/// The symbolic explorer of one method (see the module docs).
pub struct Explorer {
    code: Rc<Compiled>,
    config: Config,
    strategy: Box<dyn HeapStrategy>,
    solver: Box<dyn PathSolver>,
    clock: Box<dyn Clock>,
    method: UnitId,
    method_name: String,
    start_ms: u64,
    worklist: VecDeque<State>,
    current: Option<State>,
    pending: VecDeque<Event>,
    next_id: u32,
    tree: Vec<TreeNode>,
    paths: Vec<PathResult>,
    stats: RunStats,
    stopped: Option<Bound>,
    /// Set by `ask` when the solver answered [`SatAnswer::Pending`].
    solver_pending: bool,
    branch_sites: BTreeSet<NodeId>,
    /// `sl`: the next completion group, and the groups whose path has been completed.
    sl_next_group: u64,
    sl_done: BTreeSet<u64>,
    /// `sl`: the predicates' base unfoldings by disjunct, for the `enum` rule (built once).
    sl_enum: Option<Rc<super::sl_enum::EnumTable>>,
    /// While a step runs with an asynchronous solver, the states it adds to the worklist wait
    /// here, so that undoing the step (a pending answer) can drop them.
    staged: Option<Vec<State>>,
    /// Views of tree nodes whose state is gone (see [`Explorer::record_views`]).
    views: Snapshots,
}

/// Splits `Class.method` (or a bare function name).
pub fn split_target(target: &str) -> (Option<&str>, &str) {
    match target.split_once('.') {
        Some((c, m)) => (Some(c), m),
        None => (None, target),
    }
}

impl Explorer {
    /// Prepares the exploration of `target` (`Class.method` or a top-level function).
    /// `Err` when the program has no such method.
    pub fn new(
        program: &Program,
        info: &ProgramInfo,
        target: &str,
        config: Config,
        solver: Box<dyn PathSolver>,
        clock: Box<dyn Clock>,
    ) -> Result<Explorer> {
        let compiled = compile(program, info);
        Explorer::from_compiled(Rc::new(compiled), target, config, solver, clock)
    }

    /// Like [`new`](Self::new) for an already compiled program (shared between runs).
    pub fn from_compiled(
        code: Rc<Compiled>,
        target: &str,
        config: Config,
        solver: Box<dyn PathSolver>,
        clock: Box<dyn Clock>,
    ) -> Result<Explorer> {
        let (class, name) = split_target(target);
        let Some(method) = code.function(class, name) else {
            return Err(match class {
                Some(c) if code.classes.contains_key(c) => {
                    Error::UnknownMethod { class: c.to_string(), method: name.to_string() }
                }
                Some(c) => Error::UnknownFunction(format!("{c}.{name} (no class `{c}`)")),
                None => Error::UnknownFunction(name.to_string()),
            });
        };
        let mut branch_sites = BTreeSet::new();
        for u in code.reachable(method) {
            if let Some(unit) = code.units.get(u) {
                branch_sites.extend(unit.branch_sites.iter().copied());
            }
        }
        let start_ms = clock.now_ms();
        // JSF computes the least fixed point once, before execution.
        let sl_enum = (config.strategy == StrategyKind::Sl)
            .then(|| Rc::new(super::sl_enum::EnumTable::build(&code)));
        let mut explorer = Explorer {
            strategy: strategy::make(config.strategy),
            method_name: target.to_string(),
            code,
            config,
            solver,
            clock,
            method,
            start_ms,
            worklist: VecDeque::new(),
            current: None,
            pending: VecDeque::new(),
            next_id: 0,
            tree: Vec::new(),
            paths: Vec::new(),
            stats: RunStats::default(),
            stopped: None,
            solver_pending: false,
            branch_sites,
            sl_next_group: 0,
            sl_done: BTreeSet::new(),
            sl_enum,
            staged: None,
            views: Snapshots::default(),
        };
        explorer.start();
        Ok(explorer)
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn compiled(&self) -> &Rc<Compiled> {
        &self.code
    }

    /// The unit of the method under test.
    pub fn method(&self) -> UnitId {
        self.method
    }

    pub fn paths(&self) -> &[PathResult] {
        &self.paths
    }

    pub fn tree(&self) -> &[TreeNode] {
        &self.tree
    }

    pub fn stats(&self) -> &RunStats {
        &self.stats
    }

    pub fn solver_counts(&self) -> SolverCounts {
        self.solver.counts()
    }

    /// Gives access to the solver (test generation asks it for models).
    pub fn solver_mut(&mut self) -> &mut dyn PathSolver {
        &mut *self.solver
    }

    /// Milliseconds since the explorer was created, by its clock.
    pub fn elapsed_ms(&self) -> u64 {
        self.clock.now_ms().saturating_sub(self.start_ms)
    }

    /// (covered, total) source branch directions of the method and everything it calls.
    pub fn branch_coverage(&self) -> (usize, usize) {
        (self.covered_branches().len(), self.branch_sites.len() * 2)
    }

    /// The source branch sites (`if`, `while`, `?:`, `&&`, `||`) of the method and everything
    /// it calls.
    pub fn branch_sites(&self) -> &BTreeSet<NodeId> {
        &self.branch_sites
    }

    /// The branch directions some feasible path (one that becomes a test) took.
    pub fn covered_branches(&self) -> BTreeSet<(NodeId, bool)> {
        self.paths
            .iter()
            .filter(|p| p.outcome.is_feasible())
            .flat_map(|p| p.state.branches.iter().copied())
            .filter(|(site, _)| self.branch_sites.contains(site))
            .collect()
    }

    /// Keeps a [`HeapView`] of up to `limit` tree nodes from now on: of each child when it is
    /// created and of each state when it forks (replacing the first), so that
    /// [`view`](Self::view) can show nodes whose state is gone. Off by default: building views
    /// costs time on every fork, and the CLI never shows them. (The forks on input parameters
    /// at entry happen before anyone can ask, so they are kept always; there are few.)
    pub fn record_views(&mut self, limit: usize) {
        self.views.set_limit(limit);
    }

    /// True when some node's view was not kept because of the `record_views` limit.
    pub fn views_full(&self) -> bool {
        self.views.full
    }

    /// The state of tree node `id` for a person: the live state while it is still explored, the
    /// final state once its path ended, otherwise the view recorded at its fork or creation
    /// (`None` when none was recorded: views off or past the limit).
    pub fn view(&self, id: StateId) -> Option<HeapView> {
        let node = self.tree.get(id.0 as usize).filter(|n| n.id == id)?;
        let live = self.current.iter().chain(&self.worklist).find(|s| s.id == id);
        let mut view = match (live, node.path.and_then(|p| self.paths.get(p))) {
            (Some(st), _) => HeapView::of(st, &self.code, self.method, ViewAt::Live),
            (None, Some(p)) => HeapView::of_path(&p.state, &self.code, self.method, &p.outcome),
            (None, None) => self.views.get(id)?.clone(),
        };
        view.label = node.label.clone();
        Some(view)
    }

    fn snapshot(&mut self, st: &State, at: ViewAt) {
        if self.views.wants(st.id) {
            self.views.put(HeapView::of(st, &self.code, self.method, at));
        }
    }

    /// The bound that stopped the run early, if any.
    pub fn stopped(&self) -> Option<Bound> {
        self.stopped
    }

    /// True when nothing is left to explore.
    pub fn is_done(&self) -> bool {
        self.pending.is_empty() && self.current.is_none() && self.worklist.is_empty()
    }

    /// Runs until a path ends; `None` when exploration is complete.
    pub fn next_path(&mut self) -> Option<&PathResult> {
        while let Some(event) = self.step() {
            if let Event::PathEnd { path, .. } = event {
                return self.paths.get(path);
            }
        }
        None
    }

    /// Explores everything (within the bounds).
    pub fn run_to_end(&mut self) {
        while self.step().is_some() {}
    }

    fn new_id(&mut self, parent: Option<StateId>, label: String) -> StateId {
        let id = StateId(self.next_id);
        self.next_id += 1;
        self.tree.push(TreeNode { id, parent, label, path: None });
        self.stats.states += 1;
        id
    }

    fn start(&mut self) {
        let root = self.new_id(None, "entry".into());
        self.pending.push_back(Event::Start { state: root, method: self.method_name.clone() });
        let code = Rc::clone(&self.code);
        let Some(unit) = code.units.get(self.method) else { return };
        let mut st = State {
            id: root,
            parent: None,
            frames: Vec::new(),
            heap: Vec::new(),
            symlocs: Vec::new(),
            symrefs: Vec::new(),
            pc: Vec::new(),
            vars: Vec::new(),
            footprint: BTreeSet::new(),
            in_pre: false,
            materializations: 0,
            k_cut: false,
            steps: 0,
            roots: Vec::new(),
            branches: Vec::new(),
            returned: None,
            sl: Default::default(),
        };
        let k = i64::from(self.config.bounds.k);
        let is_method = matches!(unit.kind, UnitKind::Function { class: Some(_), .. });
        // The driver: [requires(roots); PreDone;] call(roots); Halt.
        let n = unit.params.len();
        let mut driver = Vec::new();
        if let (PreMode::Assume, Some(&req)) = (self.config.pre, code.requires.get(&self.method)) {
            driver.extend((0..n).map(Instr::Load));
            driver.push(Instr::Call {
                unit: req,
                nargs: n,
                receiver: false,
                node: NodeId(u32::MAX),
                span: unit.span,
            });
            driver.push(Instr::Pop);
            st.in_pre = true;
        }
        driver.push(Instr::PreDone);
        driver.extend((0..n).map(Instr::Load));
        driver.push(Instr::Call {
            unit: self.method,
            nargs: n,
            receiver: is_method,
            node: NodeId(u32::MAX),
            span: unit.span,
        });
        driver.push(Instr::Halt);
        let mut compiled = (*code).clone();
        let driver_id = compiled.units.len();
        let mut driver_unit = unit.clone();
        driver_unit.kind = UnitKind::Function { class: None, name: "<driver>".into() };
        driver_unit.code = driver;
        driver_unit.slot_types = unit.params.iter().map(|(_, t)| t.clone()).collect();
        driver_unit.slot_names = unit.params.iter().map(|(n, _)| n.clone()).collect();
        driver_unit.branch_sites = Vec::new();
        compiled.units.push(driver_unit);
        self.code = Rc::new(compiled);
        // Roots: `this` is a fresh input object with budget k (the receiver wrapper); other
        // references are unknown and ask the strategy.
        let mut states = vec![st];
        for (i, (name, ty)) in unit.params.iter().enumerate() {
            let mut next = Vec::new();
            for mut s in states {
                match ty {
                    SlotType::Class(c) if i == 0 && is_method => {
                        let fields = self.code.classes.get(c).cloned().unwrap_or_default();
                        let o = s.new_input_object(c, &fields, k);
                        s.roots.push(SValue::Obj(o));
                        next.push(s);
                    }
                    SlotType::Class(c) => {
                        let opts = self.strategy.options(&s, c, k);
                        if opts.k_cut {
                            s.k_cut = true;
                        }
                        let mut labels = Vec::new();
                        let mut children = Vec::new();
                        for choice in &opts.choices {
                            let mut child = s.clone();
                            let (v, label) = self.apply_choice(&mut child, *choice, c, k);
                            child.roots.push(v);
                            labels.push(label);
                            children.push(child);
                        }
                        if children.len() > 1 {
                            self.views.put(HeapView::of(&s, &self.code, self.method, ViewAt::Fork));
                            let parent = s.id;
                            let mut ids = Vec::new();
                            for (child, label) in children.iter_mut().zip(&labels) {
                                child.parent = Some(parent);
                                child.id = self.new_id(Some(parent), format!("{name} = {label}"));
                                ids.push(child.id);
                            }
                            self.pending.push_back(Event::LazyInit {
                                state: parent,
                                target: format!("param {name}"),
                                options: labels,
                                children: ids,
                                kind: ForkKind::LazyInit,
                                k_cut: opts.k_cut,
                            });
                        }
                        next.extend(children);
                    }
                    other => {
                        let v = s
                            .fresh_primitive(other, VarOrigin::Param(name.clone()))
                            .unwrap_or(SValue::Void);
                        s.roots.push(v);
                        next.push(s);
                    }
                }
            }
            states = next;
        }
        for mut s in states {
            s.frames.push(Frame {
                unit: driver_id,
                pc: 0,
                locals: s.roots.iter().cloned().map(Some).collect(),
                stack: Vec::new(),
                loops: Vec::new(),
            });
            self.push_state(s);
        }
    }

    fn push_state(&mut self, s: State) {
        if let Some(staged) = &mut self.staged {
            staged.push(s);
            return;
        }
        match self.config.order {
            SearchOrder::Dfs => self.worklist.push_front(s),
            SearchOrder::Bfs => self.worklist.push_back(s),
        }
    }

    /// Applies a strategy choice for an unknown reference of `class` whose new object would get
    /// budget `budget`; returns the value and its label.
    fn apply_choice(
        &self,
        st: &mut State,
        choice: Choice,
        class: &str,
        budget: i64,
    ) -> (SValue, String) {
        match choice {
            Choice::Null => (SValue::Null, "null".into()),
            Choice::Alias(o) => (SValue::Obj(o), State::obj_name(o)),
            Choice::Fresh => {
                let fields = self.code.classes.get(class).cloned().unwrap_or_default();
                let o = st.new_input_object(class, &fields, budget);
                (SValue::Obj(o), format!("fresh {}", State::obj_name(o)))
            }
            Choice::SymLoc => {
                let v = st.new_symloc(class, budget);
                let label = st.show(&v);
                (v, label)
            }
            Choice::SymRef => {
                let v = st.new_symref(class, budget);
                let label = st.show(&v);
                (v, label)
            }
        }
    }

    /// Executes one step; returns the next event, `None` when exploration is over.
    pub fn step(&mut self) -> Option<Event> {
        loop {
            if let Some(e) = self.pending.pop_front() {
                return Some(e);
            }
            if self.stopped.is_none() {
                if let Some(bound) = self.global_bound() {
                    self.stop(bound);
                    continue;
                }
            }
            let st = match self.current.take() {
                Some(s) => s,
                None => self.worklist.pop_front()?,
            };
            if st.sl.group.is_some_and(|g| self.sl_done.contains(&g)) {
                // `sl`: another completion of the same path already succeeded.
                continue;
            }
            self.stats.steps += 1;
            // With an asynchronous solver a step may have to be undone: remember everything it
            // can change.
            // can change. Ending a path may ask the solver too (`sl` completes the input
            // formula), so the step's successors are handled inside the undoable region.
            let undo = self.solver.is_async().then(|| Undo {
                state: st.clone(),
                pending: self.pending.len(),
                tree: self.tree.len(),
                next_id: self.next_id,
                paths: self.paths.len(),
                stats: self.stats.clone(),
                sl_next_group: self.sl_next_group,
                sl_done: self.sl_done.clone(),
            });
            if undo.is_some() {
                self.staged = Some(Vec::new());
                self.views.begin();
            }
            let succ = self.exec(st);
            if !self.solver_pending {
                match succ {
                    Succ::Continue(s) => self.current = Some(s),
                    // DFS explores the first child first: push in reverse.
                    Succ::Fork(children) => match self.config.order {
                        SearchOrder::Dfs => {
                            children.into_iter().rev().for_each(|c| self.push_state(c))
                        }
                        SearchOrder::Bfs => children.into_iter().for_each(|c| self.push_state(c)),
                    },
                    Succ::End(s, outcome) => self.end_path(s, outcome),
                }
            }
            let staged = self.staged.take().unwrap_or_default();
            if std::mem::take(&mut self.solver_pending) {
                if let Some(u) = undo {
                    self.pending.truncate(u.pending);
                    self.tree.truncate(u.tree);
                    self.next_id = u.next_id;
                    self.paths.truncate(u.paths);
                    self.stats = u.stats;
                    self.sl_next_group = u.sl_next_group;
                    self.sl_done = u.sl_done;
                    self.current = Some(u.state);
                    // The step's children will get the same ids again: their views go too.
                    self.views.rollback();
                    return Some(Event::SolverPending);
                }
            }
            self.views.commit();
            for s in staged {
                self.push_state(s);
            }
        }
    }

    fn global_bound(&self) -> Option<Bound> {
        let ended = self.stats.feasible + self.stats.bounded + self.stats.internal_errors;
        if ended >= self.config.bounds.max_paths && !self.is_done() {
            return Some(Bound::MaxPaths);
        }
        if self.stats.states >= self.config.bounds.max_states && !self.is_done() {
            return Some(Bound::States);
        }
        match self.config.bounds.timeout_ms {
            Some(t) if self.elapsed_ms() > t && !self.is_done() => Some(Bound::Timeout),
            _ => None,
        }
    }

    /// Ends every pending state as bounded by `bound`.
    fn stop(&mut self, bound: Bound) {
        self.stopped = Some(bound);
        self.pending.push_back(Event::Stopped { bound });
        let mut rest: Vec<State> = self.current.take().into_iter().collect();
        rest.extend(self.worklist.drain(..));
        for s in rest {
            self.end_path(s, PathOutcome::Bounded { bound, span: None });
        }
    }

    fn end_path(&mut self, mut st: State, outcome: PathOutcome) {
        if self.config.strategy == StrategyKind::Sl
            && self.stopped.is_none()
            && outcome.is_feasible()
            && st.sl.finish.is_none()
            && !st.sl.deferred.is_empty()
        {
            // `sl`: complete the input formula before the path becomes a test: as JSF does, from
            // a model of the remaining formula; where the logic cannot take the state, by
            // running the instances' bodies (the first completion wins).
            let before = super::sl::show_formula(&st);
            let depth = self.config.bounds.depth;
            let completion = match self.config.sl_completion {
                SlCompletion::Model => {
                    super::sl_model::complete(&self.code, &mut st, depth, self.solver.as_mut())
                }
                SlCompletion::Run => super::sl_model::Completion::Fallback("asked to run".into()),
            };
            match completion {
                super::sl_model::Completion::Pending => {
                    // The step is undone (see `step`) and runs again once the solver answered.
                    self.solver_pending = true;
                    return;
                }
                super::sl_model::Completion::Model(cells) => {
                    self.stats.sl_models += 1;
                    self.pending.push_back(Event::SlModel {
                        state: st.id,
                        formula: before,
                        model: cells,
                    });
                    st.sl.deferred.clear();
                    return self.end_path(st, outcome);
                }
                super::sl_model::Completion::Unsat => {
                    self.stats.sl_no_model += 1;
                    let span = (self.code.requires.get(&self.method))
                        .and_then(|r| self.code.units.get(*r))
                        .map(|u| u.span)
                        .unwrap_or_default();
                    return self.end_path(st, PathOutcome::Discarded { span, precondition: true });
                }
                super::sl_model::Completion::Bounded(bound) => {
                    if bound == Bound::K {
                        st.k_cut = true;
                    }
                    return self.end_path(st, PathOutcome::Bounded { bound, span: None });
                }
                super::sl_model::Completion::Fallback(_) => self.stats.sl_run_completions += 1,
            }
            st.sl.finish = Some(Box::new(outcome));
            st.sl.group = Some(self.sl_next_group);
            self.sl_next_group += 1;
            match self.sl_finish_next(st) {
                Succ::Continue(s) => self.push_state(s),
                Succ::Fork(kids) => kids.into_iter().rev().for_each(|k| self.push_state(k)),
                Succ::End(s, o) => self.end_path(s, o),
            }
            return;
        }
        if let (true, Some(g)) = (outcome.is_feasible(), st.sl.group) {
            self.sl_done.insert(g);
        }
        match &outcome {
            PathOutcome::Returned(_) | PathOutcome::Error { .. } => {
                self.stats.feasible += 1;
            }
            PathOutcome::Bounded { .. } => self.stats.bounded += 1,
            PathOutcome::Discarded { precondition, .. } => {
                self.stats.infeasible += 1;
                if *precondition {
                    self.stats.precondition_discarded += 1;
                }
            }
            PathOutcome::Internal { .. } => self.stats.internal_errors += 1,
        }
        if st.k_cut {
            self.stats.k_cut = true;
        }
        if matches!(outcome, PathOutcome::Discarded { .. }) {
            // A discarded path yields no test; its frames (locals, operand stacks) are dead
            // weight, and a precondition that rejects most inputs leaves tens of thousands.
            st.frames = Vec::new();
        }
        let index = self.paths.len();
        if let Some(node) = self.tree.get_mut(st.id.0 as usize) {
            node.path = Some(index);
        }
        self.pending.push_back(Event::PathEnd {
            state: st.id,
            path: index,
            outcome: outcome.clone(),
        });
        self.paths.push(PathResult { index, outcome, state: st });
    }

    /// Gives each child state a new tree node under `st`.
    fn children(&mut self, parent: &State, kids: Vec<(State, String)>) -> Vec<State> {
        self.snapshot(parent, ViewAt::Fork);
        self.adopt(parent.id, kids)
    }

    /// [`children`](Self::children) without the parent's view (taken already).
    fn adopt(&mut self, parent: StateId, mut kids: Vec<(State, String)>) -> Vec<State> {
        let mut out = Vec::new();
        for (mut k, label) in kids.drain(..) {
            k.parent = Some(parent);
            k.id = self.new_id(Some(parent), label);
            self.snapshot(&k, ViewAt::Created);
            out.push(k);
        }
        out
    }

    // ----- the instruction interpreter -----

    fn exec(&mut self, mut st: State) -> Succ {
        st.steps += 1;
        if st.steps > self.config.bounds.steps_per_path {
            return Succ::End(st, PathOutcome::Bounded { bound: Bound::Steps, span: None });
        }
        let code = Rc::clone(&self.code);
        let Some(frame) = st.frames.last() else {
            return internal(st, "no frame", None);
        };
        let Some(unit) = code.units.get(frame.unit) else {
            return internal(st, "unknown unit", None);
        };
        let pc = frame.pc;
        let Some(instr) = unit.code.get(pc) else {
            return internal(st, "ran off the end of the code", Some(unit.span));
        };
        match instr {
            Instr::Const(c) => {
                let v = match c {
                    Const::Int(n) => SValue::Int(Sym::int(*n)),
                    Const::Bool(b) => SValue::Bool(Sym::bool(*b)),
                    Const::Null => SValue::Null,
                    Const::Void => SValue::Void,
                };
                push_next(st, v)
            }
            Instr::Load(slot) => {
                let v = st.frames.last().and_then(|f| f.locals.get(*slot).cloned().flatten());
                match v {
                    Some(v) => push_next(st, v),
                    None => internal(st, "read of an unassigned slot", None),
                }
            }
            Instr::LoadOrFresh(slot) => {
                let bound = st.frames.last().and_then(|f| f.locals.get(*slot).cloned().flatten());
                if let Some(v) = bound {
                    return push_next(st, v);
                }
                let ty = unit.slot_types.get(*slot).cloned().unwrap_or(SlotType::Other);
                match &ty {
                    SlotType::Class(c) => {
                        // An existential used before anything bound it: an unknown reference
                        // with budget 0 (null, an alias, or one more object).
                        let opts = self.strategy.options(&st, c, 0);
                        let target = format!("existential #{slot}");
                        self.lazy_fork(st, opts, c, 0, target, |s, v| {
                            set_local(s, *slot, v.clone());
                            push_next_raw(s, v);
                        })
                    }
                    other => {
                        let name = match unit.slot_names.get(*slot) {
                            Some(n) if !n.is_empty() => n.clone(),
                            _ => format!("#{slot}"),
                        };
                        let v = st
                            .fresh_primitive(other, VarOrigin::Existential(name))
                            .unwrap_or(SValue::Void);
                        set_local(&mut st, *slot, v.clone());
                        push_next(st, v)
                    }
                }
            }
            Instr::Store(slot) => {
                let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
                set_local(&mut st, *slot, v);
                next(st)
            }
            Instr::BindOrAssumeEq { slot, kind, span } => {
                let bound = st.frames.last().and_then(|f| f.locals.get(*slot).cloned().flatten());
                match bound {
                    None => {
                        let Some(v) = pop(&mut st) else {
                            return internal(st, "empty stack", None);
                        };
                        set_local(&mut st, *slot, v);
                        next(st)
                    }
                    Some(b) => {
                        let Some(top) = peek(&st, 0) else {
                            return internal(st, "empty stack", None);
                        };
                        let cond = match kind {
                            OperandKind::Ref => match self.ref_equal(&st, &b, &top) {
                                RefEq::Decided(x) => Sym::bool(x),
                                RefEq::Resolve(v) => return self.resolve(st, v),
                            },
                            _ => match (st.normalize(&b), st.normalize(&top)) {
                                (SValue::Int(x), SValue::Int(y))
                                | (SValue::Bool(x), SValue::Bool(y)) => Sym::eq(&x, &y),
                                _ => return internal(st, "ill-typed binding", Some(*span)),
                            },
                        };
                        pop(&mut st);
                        self.assume(st, cond, *span, true)
                    }
                }
            }
            Instr::Pop => {
                pop(&mut st);
                next(st)
            }
            Instr::Dup => match peek(&st, 0) {
                Some(v) => push_next(st, v),
                None => internal(st, "empty stack", None),
            },
            Instr::GetField { class: _, field, ty, node, span } => {
                let Some(recv) = peek(&st, 0) else { return internal(st, "empty stack", None) };
                let obj = match self.deref(
                    st,
                    recv,
                    *node,
                    *span,
                    &format!("reading field `{field}` of null"),
                ) {
                    Ok((s, o)) => {
                        st = s;
                        o
                    }
                    Err(succ) => return *succ,
                };
                let Some(object) = st.heap.get(obj) else {
                    return internal(st, "dangling object", Some(*span));
                };
                if self.config.strategy == StrategyKind::Sl
                    && st.in_pre
                    && !st.sl.unfolding.is_empty()
                    && object.is_input()
                    && object.field(field).is_some()
                {
                    // `sl`: a predicate instance describes the input heap, so its body reads the
                    // input value (the journal), not what the program has written since; a field
                    // written before it was ever read gets its input value now.
                    return match object.input_field(field) {
                        Some(v) => {
                            let v = v.clone();
                            pop(&mut st);
                            push_next(st, v)
                        }
                        None => self.materialize(st, obj, field, ty),
                    };
                }
                match object.field(field) {
                    None => internal(st, format!("no field `{field}`"), Some(*span)),
                    Some(Some(v)) => {
                        let v = v.clone();
                        pop(&mut st);
                        push_next(st, v)
                    }
                    Some(None) => self.materialize(st, obj, field, ty),
                }
            }
            Instr::PutField { class: _, field, node, span } => {
                let Some(recv) = peek(&st, 1) else { return internal(st, "empty stack", None) };
                let obj = match self.deref(
                    st,
                    recv,
                    *node,
                    *span,
                    &format!("writing field `{field}` of null"),
                ) {
                    Ok((s, o)) => {
                        st = s;
                        o
                    }
                    Err(succ) => return *succ,
                };
                let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
                pop(&mut st);
                let Some(object) = st.heap.get_mut(obj) else {
                    return internal(st, "dangling object", Some(*span));
                };
                match object.fields.iter_mut().find(|(f, _)| f == field) {
                    Some(slot) => slot.1 = Some(v),
                    None => return internal(st, format!("no field `{field}`"), Some(*span)),
                }
                next(st)
            }
            Instr::New { class, inits } => {
                let mut values = Vec::new();
                for _ in inits {
                    match pop(&mut st) {
                        Some(v) => values.push(v),
                        None => return internal(st, "empty stack", None),
                    }
                }
                values.reverse();
                let Some(decl) = code.classes.get(class) else {
                    return internal(st, format!("unknown class `{class}`"), None);
                };
                let fields = decl
                    .iter()
                    .map(|(f, t)| {
                        let init =
                            inits.iter().position(|i| i == f).and_then(|p| values.get(p).cloned());
                        (f.clone(), Some(init.unwrap_or_else(|| default_value(t))))
                    })
                    .collect();
                st.heap.push(Object {
                    class: class.clone(),
                    origin: Origin::New,
                    fields,
                    input: Vec::new(),
                });
                let o = st.heap.len() - 1;
                push_next(st, SValue::Obj(o))
            }
            Instr::Unary { op, node, span } => {
                let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
                match (op, st.normalize(&v)) {
                    (UnOp::Not, SValue::Bool(b)) => push_next(st, SValue::Bool(Sym::not(&b))),
                    (UnOp::Neg, SValue::Int(x)) => {
                        let r = Sym::neg(&x);
                        let ok = in_range(&r);
                        let live = self.guard(
                            st,
                            &ok,
                            ErrorKind::IntegerOverflow,
                            *node,
                            *span,
                            "negation overflows",
                        );
                        continue_all(live, |s| push_next_raw(s, SValue::Int(r.clone())))
                    }
                    _ => internal(st, "ill-typed unary operand", Some(*span)),
                }
            }
            Instr::Binary { op, kind, node, span } => self.binary(st, *op, *kind, *node, *span),
            Instr::Jump(t) => {
                let t = *t;
                if let Some(f) = st.frame_mut() {
                    f.pc = t;
                }
                Succ::Continue(st)
            }
            Instr::BranchFalse { target, site } => {
                let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
                let SValue::Bool(c) = st.normalize(&v) else {
                    return internal(st, "branch on a non-boolean", None);
                };
                let (target, site) = (*target, *site);
                let go = move |s: &mut State, dir: bool| {
                    if let Some(site) = site {
                        s.branches.push((site, dir));
                    }
                    if let Some(f) = s.frame_mut() {
                        f.pc = if dir { f.pc + 1 } else { target };
                    }
                };
                self.branch(st, c, site, go)
            }
            Instr::LoopBack { head, span, .. } => {
                let (head, span) = (*head, *span);
                let mats = st.materializations;
                let limit = self.config.bounds.loop_iterations;
                let Some(f) = st.frame_mut() else { return internal(st, "no frame", None) };
                let entry = match f.loops.iter_mut().position(|l| l.head == head) {
                    Some(i) => &mut f.loops[i],
                    None => {
                        f.loops.push(LoopCount { head, idle: 0, seen: mats });
                        let last = f.loops.len() - 1;
                        &mut f.loops[last]
                    }
                };
                if entry.seen == mats {
                    entry.idle += 1;
                }
                entry.seen = mats;
                let exceeded = entry.idle > limit;
                f.pc = head;
                if exceeded {
                    return Succ::End(
                        st,
                        PathOutcome::Bounded { bound: Bound::Loop, span: Some(span) },
                    );
                }
                Succ::Continue(st)
            }
            Instr::Call { unit: callee, nargs, .. }
                if self.config.strategy == StrategyKind::Sl
                    && st.in_pre
                    && super::sl::predicate_name(&code, *callee).is_some() =>
            {
                // `sl`: the instance joins the input formula, unfolded on first access.
                let name = super::sl::predicate_name(&code, *callee).unwrap_or("?").to_string();
                let mut args = Vec::new();
                for _ in 0..*nargs {
                    match pop(&mut st) {
                        Some(v) => args.push(v),
                        None => return internal(st, "empty stack", None),
                    }
                }
                args.reverse();
                let depth = st.sl.current_depth() + 1;
                st.sl.deferred.push(super::sl::Deferred { unit: *callee, name, args, depth });
                push_next(st, SValue::Void)
            }
            Instr::Call { unit: callee, nargs, receiver, node, span } => {
                let depth = st.frames.len() as u64;
                if depth > u64::from(self.config.bounds.call_depth) {
                    return Succ::End(
                        st,
                        PathOutcome::Bounded { bound: Bound::CallDepth, span: Some(*span) },
                    );
                }
                if *receiver {
                    let Some(r) = peek(&st, nargs.saturating_sub(1)) else {
                        return internal(st, "empty stack", None);
                    };
                    match st.normalize(&r) {
                        SValue::Null => {
                            return self.null_deref(st, *node, *span, "calling a method on null");
                        }
                        SValue::SymRef(_) => return self.resolve(st, r),
                        _ => {}
                    }
                }
                let Some(callee_unit) = code.units.get(*callee) else {
                    return internal(st, "unknown callee", Some(*span));
                };
                let mut args = Vec::new();
                for _ in 0..*nargs {
                    match pop(&mut st) {
                        Some(v) => args.push(v),
                        None => return internal(st, "empty stack", None),
                    }
                }
                args.reverse();
                let mut locals: Vec<Option<SValue>> = args.into_iter().map(Some).collect();
                locals.resize(callee_unit.slot_types.len().max(locals.len()), None);
                if let Some(f) = st.frame_mut() {
                    f.pc += 1;
                }
                st.frames.push(Frame {
                    unit: *callee,
                    pc: 0,
                    locals,
                    stack: Vec::new(),
                    loops: Vec::new(),
                });
                Succ::Continue(st)
            }
            Instr::Ret => {
                let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
                if st.sl.unfolding.last().is_some_and(|u| u.frame_len == st.frames.len()) {
                    // `sl`: an unfolding is done; the interrupted access runs again.
                    st.frames.pop();
                    if let Some(u) = st.sl.unfolding.pop() {
                        st.in_pre = u.was_in_pre;
                    }
                    if st.sl.finish.is_some() && st.sl.unfolding.is_empty() {
                        return self.sl_finish_next(st);
                    }
                    return Succ::Continue(st);
                }
                st.frames.pop();
                match st.frame_mut() {
                    Some(f) => {
                        f.stack.push(v);
                        Succ::Continue(st)
                    }
                    None => internal(st, "return without caller", None),
                }
            }
            Instr::Check { kind, node, span } => {
                let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
                let SValue::Bool(c) = st.normalize(&v) else {
                    return internal(st, "check of a non-boolean", Some(*span));
                };
                let message = match kind {
                    ErrorKind::EnsuresFailed => "the `ensures` clause is false",
                    _ => "the `assert` condition is false",
                };
                let live = self.guard(st, &c, *kind, *node, *span, message);
                continue_all(live, |s| {
                    if let Some(f) = s.frame_mut() {
                        f.pc += 1;
                    }
                })
            }
            Instr::Assume { span, precondition } => {
                let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
                let SValue::Bool(c) = st.normalize(&v) else {
                    return internal(st, "assume of a non-boolean", Some(*span));
                };
                self.assume(st, c, *span, *precondition)
            }
            Instr::Fork(targets) => {
                // `sl`: the disjuncts of a predicate being unfolded that `enum` left.
                let unfolding_body = pc == 0
                    && st.sl.unfolding.last().is_some_and(|u| u.frame_len == st.frames.len());
                let allowed = match st.sl.unfolding.last_mut() {
                    Some(u) if unfolding_body => u.allowed.take(),
                    _ => None,
                }
                .filter(|a| a.len() == targets.len());
                let keep =
                    |i: usize| allowed.as_ref().and_then(|a| a.get(i)).copied().unwrap_or(true);
                if allowed.as_ref().is_some_and(|a| a.iter().filter(|ok| **ok).count() == 1) {
                    if let Some(t) = (0..targets.len()).find(|i| keep(*i)).map(|i| targets[i]) {
                        if let Some(f) = st.frame_mut() {
                            f.pc = t;
                        }
                        return Succ::Continue(st);
                    }
                }
                let parent = st.clone();
                let kids: Vec<(State, String)> = targets
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| keep(*i))
                    .map(|(i, t)| {
                        let mut s = st.clone();
                        if let Some(f) = s.frame_mut() {
                            f.pc = *t;
                        }
                        (s, format!("disjunct {}", i + 1))
                    })
                    .collect();
                let kids = self.children(&parent, kids);
                self.pending.push_back(Event::Disjuncts {
                    state: parent.id,
                    children: kids.iter().map(|k| k.id).collect(),
                });
                Succ::Fork(kids)
            }
            Instr::PointsTo { class, span } => {
                let Some(r) = peek(&st, 0) else { return internal(st, "empty stack", None) };
                match st.normalize(&r) {
                    SValue::Null => {
                        Succ::End(st, PathOutcome::Discarded { span: *span, precondition: true })
                    }
                    SValue::SymRef(_) | SValue::SymLoc(_) => self.resolve(st, r),
                    SValue::Obj(o) => {
                        let ok = st.heap.get(o).is_some_and(|ob| &ob.class == class);
                        if !ok || st.footprint.contains(&o) {
                            return Succ::End(
                                st,
                                PathOutcome::Discarded { span: *span, precondition: true },
                            );
                        }
                        st.footprint.insert(o);
                        next(st)
                    }
                    _ => internal(st, "points-to of a non-reference", Some(*span)),
                }
            }
            Instr::MissingReturn { span } => {
                internal(st, "a function ended without `return`", Some(*span))
            }
            Instr::Invalid { message, span } => internal(st, message.clone(), Some(*span)),
            Instr::PreDone => {
                st.in_pre = false;
                if self.config.strategy != StrategyKind::Sl {
                    // `sl` keeps the claimed objects: later unfoldings must stay separate.
                    st.footprint.clear();
                }
                next(st)
            }
            Instr::Halt => {
                let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
                let v = st.normalize(&v);
                st.returned = Some(v.clone());
                Succ::End(st, PathOutcome::Returned(v))
            }
        }
    }

    fn binary(
        &mut self,
        mut st: State,
        op: BinOp,
        kind: OperandKind,
        node: NodeId,
        span: Span,
    ) -> Succ {
        let (Some(b), Some(a)) = (peek(&st, 0), peek(&st, 1)) else {
            return internal(st, "empty stack", None);
        };
        if kind == OperandKind::Ref {
            let eq = match self.ref_equal(&st, &a, &b) {
                RefEq::Decided(x) => x,
                RefEq::Resolve(v) => return self.resolve(st, v),
            };
            pop(&mut st);
            pop(&mut st);
            let r = if op == BinOp::Ne { !eq } else { eq };
            return push_next(st, SValue::Bool(Sym::bool(r)));
        }
        pop(&mut st);
        pop(&mut st);
        let (x, y) = match (st.normalize(&a), st.normalize(&b)) {
            (SValue::Int(x), SValue::Int(y)) | (SValue::Bool(x), SValue::Bool(y)) => (x, y),
            _ => return internal(st, "ill-typed operands", Some(span)),
        };
        let boolean = |s: Sym| SValue::Bool(s);
        match op {
            BinOp::Lt => push_next(st, boolean(Sym::lt(&x, &y))),
            BinOp::Le => push_next(st, boolean(Sym::le(&x, &y))),
            BinOp::Gt => push_next(st, boolean(Sym::lt(&y, &x))),
            BinOp::Ge => push_next(st, boolean(Sym::le(&y, &x))),
            BinOp::Eq => push_next(st, boolean(Sym::eq(&x, &y))),
            BinOp::Ne => push_next(st, boolean(Sym::not(&Sym::eq(&x, &y)))),
            BinOp::And => push_next(st, boolean(Sym::and(&x, &y))),
            BinOp::Or => push_next(st, boolean(Sym::or(&x, &y))),
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                let r = match op {
                    BinOp::Add => Sym::add(&x, &y),
                    BinOp::Sub => Sym::sub(&x, &y),
                    _ => Sym::mul(&x, &y),
                };
                let ok = in_range(&r);
                let live = self.guard(st, &ok, ErrorKind::IntegerOverflow, node, span, OVERFLOW);
                continue_all(live, |s| push_next_raw(s, SValue::Int(r.clone())))
            }
            BinOp::Div | BinOp::Mod => {
                // First the divisor, then overflow (i64::MIN / -1).
                let nonzero = Sym::not(&Sym::eq(&y, &Sym::int(0)));
                let r = if op == BinOp::Div { Sym::div(&x, &y) } else { Sym::rem(&x, &y) };
                let no_overflow = Sym::not(&Sym::and(
                    &Sym::eq(&x, &Sym::int(i64::MIN)),
                    &Sym::eq(&y, &Sym::int(-1)),
                ));
                let mut live = Vec::new();
                for s in self.guard(
                    st,
                    &nonzero,
                    ErrorKind::DivisionByZero,
                    node,
                    span,
                    "division by zero",
                ) {
                    if op == BinOp::Mod {
                        // i64::MIN % -1 is 0, in range (as in Java).
                        live.push(s);
                        continue;
                    }
                    live.extend(self.guard(
                        s,
                        &no_overflow,
                        ErrorKind::IntegerOverflow,
                        node,
                        span,
                        OVERFLOW,
                    ));
                }
                continue_all(live, |s| push_next_raw(s, SValue::Int(r.clone())))
            }
        }
    }

    /// Splits `st` on `ok`: paths where it cannot hold end with the runtime error `kind`; the
    /// states where it holds are returned (with the fact in their path condition).
    fn guard(
        &mut self,
        st: State,
        ok: &Sym,
        kind: ErrorKind,
        node: NodeId,
        span: Span,
        message: &str,
    ) -> Vec<State> {
        // In a formula (`requires`, a predicate body, a pure function it calls) a failed
        // operation means the formula does not hold, as in the model checker: the path is
        // discarded, never an error of the program (`sl` unfolds predicates long after entry).
        let in_pre = st.in_pre;
        let error = |message: &str| match in_pre {
            true => PathOutcome::Discarded { span, precondition: true },
            false => PathOutcome::Error { kind, node, span, message: message.to_string() },
        };
        match self.feasible_directions(&st, ok) {
            (true, false) => vec![with_fact(st, ok, true)],
            (false, true) => {
                let s = with_fact(st, ok, false);
                self.end_path(s, error(message));
                Vec::new()
            }
            (true, true) => {
                let parent = st.clone();
                let shown = super::view::show_sym(&st, ok);
                let kids = vec![
                    (with_fact(st.clone(), ok, true), shown.clone()),
                    (with_fact(st, ok, false), format!("!({shown})")),
                ];
                let mut kids = self.children(&parent, kids);
                self.pending.push_back(Event::Branch {
                    state: parent.id,
                    site: None,
                    condition: shown,
                    children: kids.iter().zip([true, false]).map(|(k, d)| (d, k.id)).collect(),
                });
                let bad = kids.pop();
                if let Some(bad) = bad {
                    self.end_path(bad, error(message));
                }
                kids
            }
            (false, false) => {
                self.end_path(st, PathOutcome::Discarded { span, precondition: false });
                Vec::new()
            }
        }
    }

    /// Adds `c` to the path condition, or discards the path when it cannot hold.
    fn assume(&mut self, st: State, c: Sym, span: Span, precondition: bool) -> Succ {
        let precondition = precondition || st.in_pre;
        if self.feasible(&st, &c) {
            next(with_fact(st, &c, true))
        } else {
            Succ::End(st, PathOutcome::Discarded { span, precondition })
        }
    }

    /// Forks on a boolean condition; `go` sets up each child for its direction.
    fn branch(
        &mut self,
        st: State,
        c: Sym,
        site: Option<NodeId>,
        go: impl Fn(&mut State, bool),
    ) -> Succ {
        let (t, f) = self.feasible_directions(&st, &c);
        let mut dirs = Vec::new();
        if t {
            dirs.push(true);
        }
        if f {
            dirs.push(false);
        }
        match dirs.as_slice() {
            [dir] => {
                let mut s = with_fact(st, &c, *dir);
                go(&mut s, *dir);
                Succ::Continue(s)
            }
            [] => {
                Succ::End(st, PathOutcome::Discarded { span: Span::default(), precondition: false })
            }
            _ => {
                let parent = st.clone();
                // Labels name inputs as the source does (`x < o1.key`), as the views do.
                let shown = super::view::show_sym(&st, &c);
                let kids: Vec<(State, String)> = dirs
                    .iter()
                    .map(|d| {
                        let mut s = with_fact(st.clone(), &c, *d);
                        go(&mut s, *d);
                        let label = if *d { shown.clone() } else { format!("!({shown})") };
                        (s, label)
                    })
                    .collect();
                let kids = self.children(&parent, kids);
                self.pending.push_back(Event::Branch {
                    state: parent.id,
                    site,
                    condition: shown,
                    children: dirs.iter().copied().zip(kids.iter().map(|k| k.id)).collect(),
                });
                Succ::Fork(kids)
            }
        }
    }

    /// Which of `c` / `!c` are satisfiable together with the path condition (which is, so at
    /// least one of them is).
    fn feasible_directions(&mut self, st: &State, c: &Sym) -> (bool, bool) {
        if let Some(b) = c.as_bool() {
            return (b, !b);
        }
        if !self.feasible(st, c) {
            self.stats.infeasible += 1;
            return (false, true);
        }
        let f = self.feasible(st, &Sym::not(c));
        if !f {
            self.stats.infeasible += 1;
        }
        (true, f)
    }

    /// Is `pc && c` satisfiable?
    fn feasible(&mut self, st: &State, c: &Sym) -> bool {
        if let Some(b) = c.as_bool() {
            return b;
        }
        match self.decide_locally(st, c) {
            Some(answer) => answer,
            None => self.ask(st, c),
        }
    }

    /// Decides `pc && c` without the solver when possible: `c` or its negation is already in
    /// the path condition (which is satisfiable), or difference-constraint reasoning settles it
    /// (`dbm`).
    fn decide_locally(&mut self, st: &State, c: &Sym) -> Option<bool> {
        let answer = if st.pc.contains(c) {
            true
        } else if st.pc.contains(&Sym::not(c)) {
            false
        } else {
            super::dbm::decide(&super::dbm::slice(&st.pc, c), c)?
        };
        self.solver.note_local();
        self.pending.push_back(Event::SolverQuery {
            state: st.id,
            query: c.to_string(),
            answer: if answer { SatAnswer::Sat } else { SatAnswer::Unsat },
            local: true,
        });
        Some(answer)
    }

    fn ask(&mut self, st: &State, c: &Sym) -> bool {
        // Only the conjuncts that share variables with `c` matter (the rest is satisfiable).
        let mut q = super::dbm::slice(&st.pc, c);
        q.push(c.clone());
        let answer = self.solver.check(&q);
        if answer == SatAnswer::Pending {
            self.solver_pending = true;
        }
        self.pending.push_back(Event::SolverQuery {
            state: st.id,
            query: c.to_string(),
            answer,
            local: false,
        });
        answer != SatAnswer::Unsat
    }

    /// Dereferences the value `recv` (on the stack). `Ok` with the object when it is one;
    /// otherwise the successors (null dereference, or the resolution forks to re-execute).
    fn deref(
        &mut self,
        st: State,
        recv: SValue,
        node: NodeId,
        span: Span,
        what: &str,
    ) -> std::result::Result<(State, ObjIdx), Box<Succ>> {
        if let Some(i) = self.sl_covering(&st, &recv) {
            return Err(Box::new(self.sl_unfold(st, i)));
        }
        match st.normalize(&recv) {
            SValue::Obj(o) => Ok((st, o)),
            SValue::Null => Err(Box::new(self.null_deref(st, node, span, what))),
            SValue::SymRef(_) | SValue::SymLoc(_) => Err(Box::new(self.resolve(st, recv))),
            _ => Err(Box::new(internal(st, "dereference of a non-reference", Some(span)))),
        }
    }

    fn null_deref(&mut self, st: State, node: NodeId, span: Span, what: &str) -> Succ {
        if st.in_pre {
            // In a formula, `e.f` implies `e` is allocated: the precondition does not hold.
            return Succ::End(st, PathOutcome::Discarded { span, precondition: true });
        }
        Succ::End(
            st,
            PathOutcome::Error {
                kind: ErrorKind::NullDereference,
                node,
                span,
                message: what.to_string(),
            },
        )
    }

    /// Resolves one abstract value (Kiasan's init-sym-ref* / init-sym-loc*); the children
    /// re-execute the same instruction.
    fn resolve(&mut self, st: State, v: SValue) -> Succ {
        if let Some(i) = self.sl_covering(&st, &v) {
            return self.sl_unfold(st, i);
        }
        match st.normalize(&v) {
            SValue::SymRef(r) => {
                let Some(info) = st.symrefs.get(r as usize).cloned() else {
                    return internal(st, "unknown symbolic reference", None);
                };
                let mut null = st.clone();
                if let Some(i) = null.symrefs.get_mut(r as usize) {
                    i.resolved = Some(RefResolution::Null);
                }
                let mut loc = st.clone();
                let SValue::SymLoc(l) = loc.new_symloc(&info.class, info.budget) else {
                    return internal(st, "symbolic location", None);
                };
                if let Some(i) = loc.symrefs.get_mut(r as usize) {
                    i.resolved = Some(RefResolution::Loc(l));
                }
                let target = format!("ref{r}");
                let kids = vec![
                    (null, (format!("{target} = null"), "null".to_string())),
                    (loc, (format!("{target} = loc{l}"), format!("loc{l}"))),
                ];
                let (mut kids, options): (Vec<(State, String)>, Vec<String>) = self
                    .sl_formula_decides(kids)
                    .into_iter()
                    .map(|(s, (l, o))| ((s, l), o))
                    .unzip();
                if kids.len() < 2 {
                    return match kids.pop() {
                        Some((s, _)) => Succ::Continue(s),
                        None => Succ::End(
                            st,
                            PathOutcome::Discarded { span: Span::default(), precondition: true },
                        ),
                    };
                }
                let kids = self.children(&st, kids);
                self.pending.push_back(Event::LazyInit {
                    state: st.id,
                    target,
                    options,
                    children: kids.iter().map(|k| k.id).collect(),
                    kind: ForkKind::Resolve,
                    k_cut: false,
                });
                Succ::Fork(kids)
            }
            SValue::SymLoc(l) => {
                let Some(info) = st.symlocs.get(l as usize).cloned() else {
                    return internal(st, "unknown symbolic location", None);
                };
                let mut kids = Vec::new();
                let mut options = Vec::new();
                for o in st.alias_candidates(&info.class) {
                    let mut s = st.clone();
                    if let Some(i) = s.symlocs.get_mut(l as usize) {
                        i.resolved = Some(o);
                    }
                    options.push(State::obj_name(o));
                    kids.push((s, format!("loc{l} = {}", State::obj_name(o))));
                }
                let k_cut = info.budget < 0;
                if !k_cut {
                    let mut s = st.clone();
                    let fields = self.code.classes.get(&info.class).cloned().unwrap_or_default();
                    let o = s.new_input_object(&info.class, &fields, info.budget);
                    if let Some(i) = s.symlocs.get_mut(l as usize) {
                        i.resolved = Some(o);
                    }
                    options.push(format!("fresh {}", State::obj_name(o)));
                    kids.push((s, format!("loc{l} = fresh {}", State::obj_name(o))));
                }
                if k_cut {
                    for (k, _) in &mut kids {
                        k.k_cut = true;
                    }
                }
                if k_cut && !kids.is_empty() {
                    // Children the formula decides are dropped below; the cut still happened.
                    self.stats.k_cut = true;
                }
                let before = kids.len();
                let labelled = kids.into_iter().zip(options).map(|((s, l), o)| (s, (l, o)));
                let (mut kids, options): (Vec<(State, String)>, Vec<String>) = self
                    .sl_formula_decides(labelled.collect())
                    .into_iter()
                    .map(|(s, (l, o))| ((s, l), o))
                    .unzip();
                if before > 0 && kids.is_empty() {
                    return Succ::End(
                        st,
                        PathOutcome::Discarded { span: Span::default(), precondition: true },
                    );
                }
                if kids.is_empty() {
                    let mut st = st;
                    st.k_cut = true;
                    return Succ::End(st, PathOutcome::Bounded { bound: Bound::K, span: None });
                }
                if kids.len() == 1 {
                    if let Some((s, _)) = kids.pop() {
                        return Succ::Continue(s);
                    }
                }
                let target = format!("loc{l}");
                let kids = self.children(&st, kids);
                self.pending.push_back(Event::LazyInit {
                    state: st.id,
                    target,
                    options,
                    children: kids.iter().map(|k| k.id).collect(),
                    kind: ForkKind::Resolve,
                    k_cut,
                });
                Succ::Fork(kids)
            }
            _ => Succ::Continue(st),
        }
    }

    /// `sl`, in a formula: drops the resolution children that the instruction which asked for
    /// the resolution would discard at once (a points-to on `null` or on a cell the formula
    /// already claimed, an equality the formula states that the child makes false, a field read
    /// of `null`). JSF's `enum` takes such values from the formula rather than enumerating them;
    /// dropping the children before they exist has the same effect (counted in
    /// [`RunStats::sl_decided`], not as paths: they never were any).
    fn sl_formula_decides<T>(&mut self, kids: Vec<(State, T)>) -> Vec<(State, T)> {
        if self.config.strategy != StrategyKind::Sl {
            return kids;
        }
        let before = kids.len();
        let kept: Vec<(State, T)> = kids.into_iter().filter(|(s, _)| !self.doomed(s)).collect();
        self.stats.sl_decided += (before - kept.len()) as u64;
        kept
    }

    /// See [`sl_formula_decides`](Self::sl_formula_decides).
    fn doomed(&self, s: &State) -> bool {
        if !s.in_pre {
            return false;
        }
        let Some(f) = s.frames.last() else { return false };
        let Some(unit) = self.code.units.get(f.unit) else { return false };
        let top = |d: usize| peek(s, d).map(|v| s.normalize(&v));
        match unit.code.get(f.pc) {
            Some(Instr::PointsTo { class, .. }) => match top(0) {
                Some(SValue::Null) => true,
                Some(SValue::Obj(o)) => {
                    s.footprint.contains(&o) || s.heap.get(o).is_some_and(|ob| &ob.class != class)
                }
                _ => false,
            },
            // `a == b` (or `!=`) whose value the formula assumes right away.
            Some(Instr::Binary {
                op: op @ (BinOp::Eq | BinOp::Ne),
                kind: OperandKind::Ref,
                ..
            }) if matches!(unit.code.get(f.pc + 1), Some(Instr::Assume { .. })) => {
                let (Some(b), Some(a)) = (peek(s, 0), peek(s, 1)) else { return false };
                match self.ref_equal(s, &a, &b) {
                    RefEq::Decided(eq) => eq != (*op == BinOp::Eq),
                    RefEq::Resolve(_) => false,
                }
            }
            Some(Instr::BindOrAssumeEq { slot, kind: OperandKind::Ref, .. }) => {
                match (f.locals.get(*slot).cloned().flatten(), peek(s, 0)) {
                    (Some(b), Some(t)) => {
                        matches!(self.ref_equal(s, &b, &t), RefEq::Decided(false))
                    }
                    _ => false,
                }
            }
            Some(Instr::GetField { .. }) => top(0) == Some(SValue::Null),
            _ => false,
        }
    }

    /// `sl`: the deferred instance covering `v`, if any.
    fn sl_covering(&self, st: &State, v: &SValue) -> Option<usize> {
        if self.config.strategy != StrategyKind::Sl {
            return None;
        }
        super::sl::covering(&self.code, st, &st.normalize(v))
    }

    /// `sl`: unfolds deferred instance `i` (JSF's access rule): its body runs in a new frame in
    /// a child state (its disjuncts fork there); the interrupted instruction runs again after.
    fn sl_unfold(&mut self, mut st: State, i: usize) -> Succ {
        // The parent's view still shows the instance being unfolded.
        self.snapshot(&st, ViewAt::Fork);
        let d = st.sl.deferred.remove(i);
        let instance = super::sl::show_instance(&st, &d);
        if d.depth > self.config.bounds.depth {
            return Succ::End(st, PathOutcome::Bounded { bound: Bound::Depth, span: None });
        }
        let code = Rc::clone(&self.code);
        let Some(unit) = code.units.get(d.unit) else {
            return internal(st, "unknown predicate", None);
        };
        // JSF's `enum`: disjuncts the path rules out are pruned before they run.
        let params: Vec<String> = unit.params.iter().map(|(n, _)| n.clone()).collect();
        let verdicts =
            self.sl_enum.as_ref().and_then(|t| t.verdicts(&st, d.unit, &params, &d.args));
        let mut pruned = Vec::new();
        let allowed = verdicts.map(|(verdicts, asked)| {
            for _ in 0..asked {
                self.solver.note_local();
            }
            for (j, v) in verdicts.iter().enumerate() {
                if let Err(why) = v {
                    pruned.push(format!("disjunct {} ({why})", j + 1));
                }
            }
            verdicts.iter().map(|v| v.is_ok()).collect::<Vec<bool>>()
        });
        self.stats.sl_pruned += pruned.len() as u64;
        self.stats.infeasible += pruned.len() as u64;
        if allowed.as_ref().is_some_and(|a| !a.iter().any(|ok| *ok)) {
            // No disjunct can hold: the input formula is false on this path. The event (with no
            // child) still says why.
            self.pending.push_back(Event::LazyInit {
                state: st.id,
                target: format!(
                    "unfold {instance} (depth {}; enum pruned {})",
                    d.depth,
                    pruned.join(", ")
                ),
                options: Vec::new(),
                children: Vec::new(),
                kind: ForkKind::Disjunct,
                k_cut: false,
            });
            return Succ::End(st, PathOutcome::Discarded { span: unit.span, precondition: true });
        }
        let mut locals: Vec<Option<SValue>> = d.args.iter().cloned().map(Some).collect();
        locals.resize(unit.slot_types.len().max(locals.len()), None);
        st.sl.unfolding.push(super::sl::Unfolding {
            frame_len: st.frames.len() + 1,
            was_in_pre: st.in_pre,
            depth: d.depth,
            allowed,
        });
        st.in_pre = true;
        st.frames.push(Frame { unit: d.unit, pc: 0, locals, stack: Vec::new(), loops: Vec::new() });
        let before = format!("{instance} * {}", super::sl::show_formula(&st));
        let kids = self.adopt(st.id, vec![(st.clone(), format!("unfold {instance}"))]);
        // The pruned disjuncts and why go in the target: options stay one per child.
        let pruned = match pruned.is_empty() {
            true => String::new(),
            false => format!("; enum pruned {}", pruned.join(", ")),
        };
        self.pending.push_back(Event::LazyInit {
            state: st.id,
            target: format!(
                "unfold {instance} (depth {}; input formula: {before}{pruned})",
                d.depth
            ),
            options: vec![format!("disjuncts of {}", d.name)],
            children: kids.iter().map(|k| k.id).collect(),
            kind: ForkKind::Disjunct,
            k_cut: false,
        });
        Succ::Fork(kids)
    }

    /// `sl`, at path end: unfolds the next remaining instance, or ends the path with the
    /// outcome it had when every instance is unfolded.
    fn sl_finish_next(&mut self, mut st: State) -> Succ {
        if st.sl.deferred.is_empty() {
            let outcome = st.sl.finish.take().map(|b| *b);
            return match outcome {
                Some(o) => Succ::End(st, o),
                None => internal(st, "sl completion without an outcome", None),
            };
        }
        self.sl_unfold(st, 0)
    }

    /// First read of field `field` of input object `obj` (the receiver is on the stack).
    fn materialize(&mut self, mut st: State, obj: ObjIdx, field: &str, ty: &SlotType) -> Succ {
        let budget = match st.heap.get(obj).map(|o| o.origin) {
            Some(Origin::Input { budget }) => budget,
            _ => 0,
        };
        let set = |s: &mut State, v: SValue| {
            if let Some(o) = s.heap.get_mut(obj) {
                // A field the program wrote before reading it keeps the written value; only its
                // input value is recorded (`sl` unfoldings read the input).
                if let Some(slot) = o.fields.iter_mut().find(|(f, _)| f == field) {
                    if slot.1.is_none() {
                        slot.1 = Some(v.clone());
                    }
                }
                o.input.push((field.to_string(), v.clone()));
            }
            s.materializations += 1;
            pop(s);
            push_next_raw(s, v);
        };
        match ty {
            SlotType::Class(c) => {
                let opts = self.strategy.options(&st, c, budget - 1);
                let target = format!("{}.{field}", State::obj_name(obj));
                self.lazy_fork(st, opts, c, budget - 1, target, set)
            }
            other => {
                let origin = VarOrigin::Field { obj, field: field.to_string() };
                let Some(v) = st.fresh_primitive(other, origin) else {
                    return internal(st, format!("field `{field}` has no type"), None);
                };
                set(&mut st, v);
                Succ::Continue(st)
            }
        }
    }

    /// Applies each strategy option in its own child; `apply` stores the value.
    fn lazy_fork(
        &mut self,
        st: State,
        opts: strategy::Options,
        class: &str,
        budget: i64,
        target: String,
        apply: impl Fn(&mut State, SValue),
    ) -> Succ {
        let mut kids = Vec::new();
        let mut labels = Vec::new();
        for choice in &opts.choices {
            let mut s = st.clone();
            let (v, label) = self.apply_choice(&mut s, *choice, class, budget);
            if opts.k_cut {
                s.k_cut = true;
            }
            apply(&mut s, v);
            labels.push(label.clone());
            kids.push((s, format!("{target} = {label}")));
        }
        if kids.len() == 1 {
            if let Some((s, _)) = kids.pop() {
                return Succ::Continue(s);
            }
        }
        if kids.is_empty() {
            return Succ::End(st, PathOutcome::Bounded { bound: Bound::K, span: None });
        }
        let kids = self.children(&st, kids);
        self.pending.push_back(Event::LazyInit {
            state: st.id,
            target,
            options: labels,
            children: kids.iter().map(|k| k.id).collect(),
            kind: ForkKind::LazyInit,
            k_cut: opts.k_cut,
        });
        Succ::Fork(kids)
    }

    /// Reference equality, or which abstract value must be resolved first (digest §8 item 6).
    fn ref_equal(&self, st: &State, a: &SValue, b: &SValue) -> RefEq {
        let (a, b) = (st.normalize(a), st.normalize(b));
        use SValue::*;
        match (&a, &b) {
            (Null, Null) => RefEq::Decided(true),
            (Obj(x), Obj(y)) => RefEq::Decided(x == y),
            (Null, Obj(_)) | (Obj(_), Null) => RefEq::Decided(false),
            (SymRef(x), SymRef(y)) if x == y => RefEq::Decided(true),
            (SymLoc(x), SymLoc(y)) if x == y => RefEq::Decided(true),
            (SymRef(_), _) => RefEq::Resolve(a),
            (_, SymRef(_)) => RefEq::Resolve(b),
            (SymLoc(_), Null) | (Null, SymLoc(_)) => RefEq::Decided(false),
            (SymLoc(_), Obj(o)) | (Obj(o), SymLoc(_))
                if st.heap.get(*o).is_some_and(|ob| !ob.is_input()) =>
            {
                RefEq::Decided(false)
            }
            (SymLoc(_), _) => RefEq::Resolve(a),
            (_, SymLoc(_)) => RefEq::Resolve(b),
            _ => RefEq::Decided(false),
        }
    }
}

/// What one step may change, for undoing it (asynchronous solvers).
struct Undo {
    state: State,
    pending: usize,
    tree: usize,
    next_id: u32,
    paths: usize,
    stats: RunStats,
    sl_next_group: u64,
    sl_done: BTreeSet<u64>,
}

enum RefEq {
    Decided(bool),
    Resolve(SValue),
}

const OVERFLOW: &str = "the result leaves the int range";

/// Continues each live state after `f` (which pushes the result and advances).
fn continue_all(mut live: Vec<State>, f: impl Fn(&mut State)) -> Succ {
    for s in &mut live {
        f(s);
    }
    if live.len() == 1 {
        if let Some(s) = live.pop() {
            return Succ::Continue(s);
        }
    }
    Succ::Fork(live)
}

fn default_value(t: &SlotType) -> SValue {
    match t {
        SlotType::Int => SValue::Int(Sym::int(0)),
        SlotType::Bool => SValue::Bool(Sym::bool(false)),
        _ => SValue::Null,
    }
}

/// `i64::MIN <= r <= i64::MAX` in mathematical integers.
fn in_range(r: &Sym) -> Sym {
    Sym::and(&Sym::le(&Sym::int(i64::MIN), r), &Sym::le(r, &Sym::int(i64::MAX)))
}

fn with_fact(mut st: State, c: &Sym, dir: bool) -> State {
    let fact = if dir { c.clone() } else { Sym::not(c) };
    if fact.as_bool() != Some(true) && !st.pc.contains(&fact) {
        st.pc.push(fact);
    }
    st
}

fn internal(st: State, message: impl Into<String>, span: Option<Span>) -> Succ {
    Succ::End(st, PathOutcome::Internal { message: message.into(), span })
}

fn pop(st: &mut State) -> Option<SValue> {
    st.frames.last_mut()?.stack.pop()
}

/// The value `depth` places below the top of the stack.
fn peek(st: &State, depth: usize) -> Option<SValue> {
    let stack = &st.frames.last()?.stack;
    stack.len().checked_sub(depth + 1).and_then(|i| stack.get(i)).cloned()
}

fn set_local(st: &mut State, slot: usize, v: SValue) {
    if let Some(f) = st.frames.last_mut() {
        if f.locals.len() <= slot {
            f.locals.resize(slot + 1, None);
        }
        f.locals[slot] = Some(v);
    }
}

fn push_next_raw(st: &mut State, v: SValue) {
    if let Some(f) = st.frames.last_mut() {
        f.stack.push(v);
        f.pc += 1;
    }
}

fn push_next(mut st: State, v: SValue) -> Succ {
    push_next_raw(&mut st, v);
    Succ::Continue(st)
}

fn next(mut st: State) -> Succ {
    if let Some(f) = st.frames.last_mut() {
        f.pc += 1;
    }
    Succ::Continue(st)
}
