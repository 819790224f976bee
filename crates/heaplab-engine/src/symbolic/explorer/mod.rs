//! The search driver: a worklist of symbolic states, each stepped one instruction at a time by
//! the executor ([`crate::symbolic::exec`]).
//!
//! [`Explorer::step`] runs one instruction of one state and returns the next [`Event`]
//! (STYLE.md item 10); [`Explorer::next_path`] steps until a path ends. Because a state is plain
//! data, exploration can be paused between any two steps, resumed, or dropped (cancel). The
//! driver alone decides which state runs next: the children of a fork go on a stack for
//! depth-first search (the default) or a queue for breadth-first; the global bounds (paths,
//! states, time) stop the run, and the states left are reported as bounded paths. With an
//! asynchronous solver, a step whose query is not answered yet is undone and run again later.
//!
//! Owns: the worklist and its order, bounds and stopping, the tree of states, the event queue,
//! finished paths and totals (`record`, `events`), coverage, views on request. Never
//! touches: the semantics of an instruction, the heap's representation, or anything a strategy
//! keeps (it calls the strategy only to ask whether a pending state became pointless, and to
//! save and restore its per-run data when a step is undone). A second driver (a concolic loop)
//! would own its own loop and implement [`Sink`] its own way, over the same executor.
//!
//! Every path ends with a [`PathOutcome`]: returned, a runtime error of the program, cut by a
//! named [`Bound`], or discarded because an `assume`/the precondition does not hold.

mod record;

pub use super::events::{Event, ForkKind, Placed, RunStats, TreeNode};
pub use super::outcome::{PathOutcome, PathResult};
use super::tree::Tree;

use super::code::{compile_for, Compiled, Instr, UnitId};
use super::config::{Bound, Clock, Config, Deadline};
use super::disjuncts::DisjunctTexts;
use super::events::{Label, ViewAt};
use super::exec::{
    answers::{AnswerCounts, Answers},
    asks as exec_asks, entry,
    stack::move_values,
    Asks, Executor, Sink, Succ,
};
use super::heap::HeapModel;
use super::solve::{PathSolver, SolverCounts};
use super::state::{State, StateId};
use super::strategy;
use super::view::HeapView;
use crate::error::{Error, Result};
use heaplab_syntax::ast::{NodeId, Program};
use heaplab_syntax::types::ProgramInfo;
use heaplab_syntax::Span;
use record::Record;
use std::any::Any;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

/// Where the state of a tree node is kept ([`Explorer::kept`]).
enum Kept<'a> {
    /// It is still to be run (or running).
    Live(&'a State),
    /// Its path ended (with the state it ended in).
    Path(&'a PathResult),
    /// A snapshot taken for its view (a state that forked, or one of the entry's).
    Snapshot(&'a State, ViewAt),
}

/// The symbolic explorer of one method (see the module docs).
pub struct Explorer {
    exec: Executor,
    rec: Record,
    clock: Rc<dyn Clock>,
    method_name: String,
    start_ms: u64,
    /// What the process held when the run started (the memory bound counts growth from it).
    memory: crate::memory::Gauge,
    branch_sites: BTreeSet<NodeId>,
    /// The branch directions of the kept paths scanned so far: the page asks for the coverage
    /// at every batch, and scanning every path anew each time was most of a batch's summary.
    covered: RefCell<Covered>,
}

/// The branch directions of the first `scanned` kept paths, and the parts of their shared
/// lists of directions visited (paths share their beginnings: each part is read once).
#[derive(Default)]
struct Covered {
    scanned: usize,
    taken: BTreeSet<(NodeId, bool)>,
    seen: crate::symbolic::shared_list::Seen<(NodeId, bool)>,
}

/// What one step may change, for undoing it (asynchronous solvers).
struct Undo {
    /// The state before the step, unless the step hands it back itself ([`Asks::First`]).
    state: Option<State>,
    pending: usize,
    tree: usize,
    parents: usize,
    next_id: u32,
    paths: usize,
    ended: usize,
    folded_ends: usize,
    stats: RunStats,
    strategy: Box<dyn Any>,
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
        let defs = heaplab_logic::Defs::from_program(program).0;
        Explorer::with_defs(program, info, defs, target, config, solver, clock)
    }

    /// Like [`new`](Self::new) with the program's logic definitions already converted
    /// ([`compile_for`]).
    pub fn with_defs(
        program: &Program,
        info: &ProgramInfo,
        defs: heaplab_logic::Defs,
        target: &str,
        config: Config,
        solver: Box<dyn PathSolver>,
        clock: Box<dyn Clock>,
    ) -> Result<Explorer> {
        let compiled = compile_for(config.strategy, program, info, defs);
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
        let clock: Rc<dyn Clock> = Rc::from(clock);
        let start_ms = clock.now_ms();
        let memory = crate::memory::Gauge::start();
        let strategy = strategy::make(config.strategy, &code);
        let heap = strategy.heap_model();
        if !heap.has_arrays() && code.uses_arrays(method) {
            return Err(Error::Unsupported(format!(
                "`{target}` uses arrays, which the heap model of strategy `{}` does not model",
                strategy::info(config.strategy).name
            )));
        }
        let rec = Record::new(config.order, config.shard);
        let deadline = match config.bounds.timeout_ms {
            Some(t) => Deadline::at(Rc::clone(&clock), start_ms.saturating_add(t)),
            None => Deadline::none(),
        };
        let answers = Answers::new(true);
        let exec = Executor { code, config, method, solver, strategy, heap, deadline, answers };
        let mut explorer = Explorer {
            exec,
            rec,
            clock,
            method_name: target.to_string(),
            start_ms,
            memory,
            branch_sites,
            covered: RefCell::default(),
        };
        explorer.start();
        Ok(explorer)
    }

    pub fn config(&self) -> &Config {
        &self.exec.config
    }

    /// Turns the all-heaps mode of test generation on or off ([`Config::all_heaps`]); it
    /// changes nothing in exploration, so one finished run can be generated both ways.
    pub fn set_all_heaps(&mut self, on: bool) {
        self.exec.config.all_heaps = on;
    }

    pub fn compiled(&self) -> &Rc<Compiled> {
        &self.exec.code
    }

    /// The unit of the method under test.
    pub fn method(&self) -> UnitId {
        self.exec.method
    }

    pub fn paths(&self) -> &[PathResult] {
        &self.rec.paths
    }

    pub fn tree(&self) -> &Tree {
        &self.rec.tree
    }

    pub fn stats(&self) -> &RunStats {
        &self.rec.stats
    }

    pub fn solver_counts(&self) -> SolverCounts {
        self.exec.solver.counts()
    }

    /// The feasibility questions the executor answered without the solver, by how (they are
    /// also in [`SolverCounts::decided_locally`]).
    pub fn answer_counts(&self) -> AnswerCounts {
        self.exec.answers.counts
    }

    /// The heap model of the run (test generation concretizes paths with it).
    pub fn heap_model(&self) -> Rc<dyn HeapModel> {
        Rc::clone(&self.exec.heap)
    }

    /// The solver's queries may take at most `ms` from now on (test generation passes what is
    /// left of the run's time bound; exploration sets it from its own bound at every step).
    pub fn set_solver_time_left(&mut self, ms: Option<u64>) {
        self.exec.solver.set_time_left(ms);
    }

    /// Gives access to the solver (test generation asks it for models).
    pub fn solver_mut(&mut self) -> &mut dyn PathSolver {
        &mut *self.exec.solver
    }

    /// Milliseconds since the explorer was created, by its clock.
    pub fn elapsed_ms(&self) -> u64 {
        self.clock.now_ms().saturating_sub(self.start_ms)
    }

    /// [`elapsed_ms`](Self::elapsed_ms) from a fresh reading of the clock ([`Clock::exact_ms`]):
    /// what a report says the run took.
    pub fn took_ms(&self) -> u64 {
        self.clock.exact_ms().saturating_sub(self.start_ms)
    }

    /// [`elapsed_ms`](Self::elapsed_ms) as a function that does not borrow the explorer (for
    /// work that holds its solver meanwhile, as the all-heaps enumeration does).
    pub fn stopwatch(&self) -> impl Fn() -> u64 + 'static {
        let (clock, start) = (Rc::clone(&self.clock), self.start_ms);
        move || clock.now_ms().saturating_sub(start)
    }

    /// Bytes the process holds beyond what it held when the run started (`None` without a
    /// meter, see [`crate::memory`]).
    pub fn memory_bytes(&self) -> Option<u64> {
        self.memory.held()
    }

    /// (covered, total) source branch directions of the method and everything it calls.
    pub fn branch_coverage(&self) -> (usize, usize) {
        (self.scan_covered().taken.len(), self.branch_sites.len() * 2)
    }

    /// The source branch sites (`if`, `while`, `?:`, `&&`, `||`) of the method and everything
    /// it calls.
    pub fn branch_sites(&self) -> &BTreeSet<NodeId> {
        &self.branch_sites
    }

    /// The branch directions some feasible path (one that becomes a test) took.
    pub fn covered_branches(&self) -> BTreeSet<(NodeId, bool)> {
        self.scan_covered().taken.clone()
    }

    /// [`covered`](Self::covered) brought up to the paths kept now.
    fn scan_covered(&self) -> std::cell::Ref<'_, Covered> {
        {
            let mut covered = self.covered.borrow_mut();
            let Covered { scanned, taken, seen } = &mut *covered;
            let new = self.rec.paths.get(*scanned..).unwrap_or_default();
            for p in new.iter().filter(|p| p.outcome.is_feasible()) {
                p.state.branches.for_each_unseen(seen, |&(site, dir)| {
                    if self.branch_sites.contains(&site) {
                        taken.insert((site, dir));
                    }
                });
            }
            *scanned = self.rec.paths.len();
        }
        self.covered.borrow()
    }

    /// Keeps a [`HeapView`] of up to `limit` tree nodes from now on: of each child when it is
    /// created and of each state when it forks (replacing the first), so that
    /// [`view`](Self::view) can show nodes whose state is gone. Off by default: building views
    /// costs time on every fork, and the CLI never shows them. (The forks on input parameters
    /// at entry happen before anyone can ask, so they are kept always; there are few.)
    pub fn record_views(&mut self, limit: usize) {
        self.rec.views.set_limit(limit);
    }

    /// Whether events carry their text: the formulas of a `Disjuncts` event and the formula of
    /// an `SlModel` event are left empty when off. On by default; a front end that drops the
    /// events (the CLI without `--trace`) turns it off and saves formatting a formula at every
    /// fork. Nothing else about the run changes.
    pub fn set_event_detail(&mut self, on: bool) {
        self.rec.detail = on;
    }

    /// Whether `Disjuncts` and `SlModel` events carry their formulas (with detail on; on by
    /// default), leaving node labels as they are. A front end that runs on without reading the
    /// events (the page's Compare rows, the end of a run) turns it off: writing each fork's
    /// disjuncts as formulas was a third of a `lazy` run in wasm.
    pub fn set_event_formulas(&mut self, on: bool) {
        self.rec.formulas = on;
    }

    /// Whether `Disjuncts` events carry their cases' formulas (with formulas on; on by
    /// default). A front end that draws the tree of a whole run turns it off and shows the one
    /// case it is asked about with its node's view ([`view`](Self::view)'s `case_formula`):
    /// writing every fork's cases was a few percent of the page's Run.
    pub fn set_case_formulas(&mut self, on: bool) {
        self.rec.case_formulas = on;
    }

    /// Whether solver-query events carry the query's text (with detail on; on by default). A
    /// front end that counts the queries of a run but shows only single steps' (the page)
    /// turns it off for the run and on for a step.
    pub fn set_query_text(&mut self, on: bool) {
        self.rec.query_text = on;
    }

    /// Discarded paths that end past the views' limit (see
    /// [`record_views`](Self::record_views)) in nodes `from..` end without an
    /// [`Event::PathEnd`]: their nodes say the outcome, and [`take_folded_ends`] where each
    /// ended. For a front end that takes new nodes with their ends in batches (the page's
    /// Run): `lazy` at k = 3 on TreeMap `put` discards millions of paths there, and an event
    /// for each, made, queued and folded back into its node, was a quarter of what the page's
    /// Run adds to the bare exploration. `u32::MAX` (the default): every end is an event.
    ///
    /// [`take_folded_ends`]: Self::take_folded_ends
    pub fn fold_discarded_ends(&mut self, from: u32) {
        self.rec.fold_from = from;
    }

    /// The ends folded since the last call (see [`fold_discarded_ends`](Self::fold_discarded_ends)):
    /// each one's node and where its path ended.
    pub fn take_folded_ends(&mut self) -> Vec<(u32, Span)> {
        std::mem::take(&mut self.rec.folded_ends)
    }

    /// Whether the run keeps only what its summary and test generation read. Off by default;
    /// a front end that reads no event and no tree (the CLI's `run` without `--trace`,
    /// `compare`, `bench`) turns it on, and then a discarded path (an `assume` or the
    /// precondition does not hold) leaves only its counts in [`stats`](Self::stats), with no
    /// [`PathResult`] in [`paths`](Self::paths) and no [`Event::PathEnd`], and
    /// [`tree`](Self::tree) is empty (the explorer keeps each state's parent only). Feasible
    /// and bounded paths keep their records and every path its number
    /// ([`PathResult::index`], [`PathResult::find`]). While views are recorded
    /// ([`record_views`](Self::record_views)) every path is kept. Set it before the first step.
    pub fn set_summary_only(&mut self, on: bool) {
        self.rec.set_summary_only(on);
    }

    /// True when some node's view was not kept because of the `record_views` limit.
    pub fn views_full(&self) -> bool {
        self.rec.views.full
    }

    /// The state of tree node `id` for a person: the live state while it is still explored, the
    /// final state once its path ended, otherwise the state kept at its fork or creation
    /// (`None` when none was kept: views off or past the limit; a discarded path past the
    /// limit, when views are recorded).
    pub fn view(&self, id: StateId) -> Option<HeapView> {
        let (code, method) = (&self.exec.code, self.exec.method);
        let mut view = match self.kept(id)? {
            Kept::Live(st) => HeapView::of(st, code, method, ViewAt::Live),
            Kept::Path(p) => HeapView::of_path(&p.state, code, method, &p.outcome),
            Kept::Snapshot(st, at) => HeapView::of(st, code, method, at),
        };
        view.label = self
            .rec
            .tree
            .get(id.0 as usize)
            .map_or(String::new(), |n| self.rec.tree.label(&n).to_string());
        view.case_formula = self.case_formula(id);
        Some(view)
    }

    /// The case of a predicate's definition that node `id` took, instantiated as the
    /// `Disjuncts` event's formulas say it, written again from the forking state's view; `None`
    /// for a node that is no such child or whose parent's state is not kept. A run that only
    /// draws the tree leaves the formulas out of its events (writing them at every fork was a
    /// few percent of the page's Run), and the page asks for the one case it shows.
    fn case_formula(&self, id: StateId) -> Option<String> {
        let node = self.rec.tree.get(id.0 as usize)?;
        let case = self.rec.disjunct_labels.iter().position(|l| *l == node.label)?;
        let Kept::Snapshot(st, ViewAt::Fork) = self.kept(node.parent?)? else { return None };
        let frame = st.frames.last()?;
        let unit = self.exec.code.units.get(frame.unit)?;
        let Instr::Fork(targets) = unit.code.get(frame.pc)? else { return None };
        let mut texts = DisjunctTexts::default().of(st, &self.exec.code, targets.len());
        (case < texts.len()).then(|| texts.swap_remove(case))
    }

    /// The learner's names of the ids of `wanted` in state `id` ([`names::access_paths`], on
    /// the state a view would show); `None` where no view of it could be made.
    ///
    /// [`names::access_paths`]: super::names::access_paths
    pub fn access_paths(
        &self,
        id: StateId,
        wanted: &[&str],
    ) -> Option<std::collections::BTreeMap<String, String>> {
        let st = match self.kept(id)? {
            Kept::Live(st) | Kept::Snapshot(st, _) => st,
            Kept::Path(p) => &p.state,
        };
        Some(super::names::access_paths(st, &self.exec.code, self.exec.method, wanted))
    }

    /// Where the state of tree node `id` is still kept, if it is.
    fn kept(&self, id: StateId) -> Option<Kept<'_>> {
        let node = self.rec.tree.get(id.0 as usize)?;
        let live = self.rec.current.iter().chain(&self.rec.worklist).find(|s| s.id == id);
        Some(match (live, node.path.and_then(|p| self.rec.paths.get(p))) {
            (Some(st), _) => Kept::Live(st),
            // Beyond the view limit a discarded path's state keeps only what the summary reads.
            (None, Some(p))
                if matches!(p.outcome, PathOutcome::Discarded { .. })
                    && self.rec.views.recording()
                    && !self.rec.keeps_discarded_view(id) =>
            {
                return None
            }
            (None, Some(p)) => Kept::Path(p),
            (None, None) => {
                let (st, at) = self.rec.views.get(id)?;
                Kept::Snapshot(st, *at)
            }
        })
    }

    /// The bound that stopped the run early, if any.
    pub fn stopped(&self) -> Option<Bound> {
        self.rec.stopped
    }

    /// True when nothing is left to explore.
    pub fn is_done(&self) -> bool {
        self.rec.pending.is_empty() && self.rec.current.is_none() && self.rec.worklist.is_empty()
    }

    /// The source span of the instruction `st`'s top frame is at. In the driver, the place of
    /// the method under test's last step before it returned (its `return`, or the closing brace
    /// it fell off), when `st` is the state that took that step or a state forked from it: the
    /// checks of `ensures` after a `return` (compiled at the closing brace, possibly calling
    /// functions and forking) are not that place.
    fn place_of(&mut self, st: &State) -> Option<Span> {
        let (span, last) = self.place(st);
        if let Some(last) = last {
            self.rec.last = last;
        }
        span
    }

    /// [`Self::place_of`] without the update: the place, and the new last place of the method
    /// under test if it changes.
    #[allow(clippy::type_complexity)]
    fn place(&self, st: &State) -> (Option<Span>, Option<Option<(StateId, Span)>>) {
        let Some(frame) = st.frames.last() else { return (None, None) };
        if Some(frame.unit) == self.rec.entry {
            if let Some((id, span)) = self.rec.last {
                if self.descends_from(st, id) {
                    return (Some(span), None);
                }
            }
        }
        let Some(unit) = self.exec.code.units.get(frame.unit) else { return (None, None) };
        let span = unit.span_at(frame.pc);
        let checking_ensures = unit.ensures_at.is_some_and(|at| frame.pc >= at);
        let method_step =
            st.frames.len() == 2 && frame.unit == self.exec.method && !checking_ensures;
        (span, method_step.then(|| span.map(|s| (st.id, s))))
    }

    /// Whether `st` is the state `id` or a descendant of it within a few forks.
    fn descends_from(&self, st: &State, id: StateId) -> bool {
        const MAX_FORKS: usize = 64;
        let mut at = Some(st.id);
        for _ in 0..MAX_FORKS {
            match at {
                Some(a) if a == id => return true,
                Some(a) => at = self.rec.parent_of(a),
                None => return false,
            }
        }
        false
    }

    /// Runs until a path ends; `None` when exploration is complete.
    pub fn next_path(&mut self) -> Option<&PathResult> {
        while let Some(event) = self.step() {
            if let Event::PathEnd { path: Some(path), .. } = event {
                return self.rec.paths.get(path);
            }
        }
        None
    }

    /// Explores everything (within the bounds).
    pub fn run_to_end(&mut self) {
        while self.step().is_some() {}
    }

    /// The root of the tree and the first states (see [`entry`]).
    fn start(&mut self) {
        let root = self.rec.node(None, Label::Text("entry".into()));
        // The entry's events and states are placed at the method's declaration.
        self.rec.at = self.exec.code.units.get(self.exec.method).map(|u| u.span);
        self.rec.event(Event::Start { state: root, method: self.method_name.clone() });
        let mut st = entry::empty_state(root);
        let Some((code, entry_unit, in_pre)) =
            entry::add_entry_unit(&self.exec.code, self.exec.method, &self.exec.config)
        else {
            return;
        };
        st.in_pre = in_pre;
        st.int_range = code.ints.range();
        st.array_bound = i64::from(self.exec.config.bounds.k);
        self.rec.entry = Some(entry_unit);
        self.exec.code = Rc::new(code);
        let states = self.exec.cx(&mut self.rec).entry_states(st, entry_unit);
        // The entry's states are the first fork (in the order they are pushed, as before).
        let states = self.rec.split(states);
        for s in states {
            self.rec.push_state(s);
        }
    }

    /// Executes one step; returns the next event, `None` when exploration is over.
    pub fn step(&mut self) -> Option<Event> {
        self.step_placed().map(|p| p.event)
    }

    /// [`step`](Self::step) with the event's place in the source ([`Placed`]).
    pub fn step_placed(&mut self) -> Option<Placed> {
        loop {
            if let Some(e) = self.rec.pending.pop_front() {
                return Some(e);
            }
            // A step that only moves values changes nothing a global bound reads (states, paths,
            // questions), and the path's step bound stops a run of them: the bounds and the
            // clock are checked at the next other step.
            if self.step_in_place() {
                continue;
            }
            // The clock is read once a step: in wasm each read is a call out to JS.
            let elapsed = self.exec.config.bounds.timeout_ms.map(|_| self.elapsed_ms());
            if self.rec.stopped.is_none() {
                if let Some(bound) = self.global_bound(elapsed) {
                    self.stop(bound);
                    continue;
                }
            }
            let st = match self.rec.current.take() {
                Some(s) => s,
                None => self.rec.worklist.pop_front()?,
            };
            if self.exec.strategy.obsolete(&st) {
                continue;
            }
            self.rec.stats.steps += 1;
            self.rec.at = self.place_of(&st);
            if let (Some(t), Some(elapsed)) = (self.exec.config.bounds.timeout_ms, elapsed) {
                self.exec.solver.set_time_left(Some(t.saturating_sub(elapsed)));
            }
            // With an asynchronous solver a step may have to be undone: remember everything it
            // can change. Ending a path may ask the solver too (a strategy may complete the
            // input), so the step's successors are handled inside the undoable region.
            // Only a step that may ask anywhere needs a copy of the state (`asks`).
            let asks = match self.exec.solver.is_async() {
                true => self.asks(&st),
                false => Asks::Nothing,
            };
            let undo = (asks != Asks::Nothing).then(|| Undo {
                state: (asks == Asks::Anywhere).then(|| st.clone()),
                pending: self.rec.pending.len(),
                tree: self.rec.tree.len(),
                parents: self.rec.parents.len(),
                next_id: self.rec.next_id,
                paths: self.rec.paths.len(),
                ended: self.rec.ended,
                folded_ends: self.rec.folded_ends.len(),
                stats: self.rec.stats.clone(),
                strategy: self.exec.strategy.save(),
            });
            if undo.is_some() {
                self.rec.staged = Some(Vec::new());
                self.rec.views.begin();
            }
            let mut cx = self.exec.cx(&mut self.rec);
            cx.undoable = undo.is_some() || !cx.solver.is_async();
            let succ = cx.exec(st);
            let mut pending = cx.pending;
            let retry = cx.retry.take();
            match succ {
                _ if pending => {}
                Succ::End(s, outcome) => {
                    // The strategy may ask at the path's end too (`sl`'s model search): its
                    // pending answer undoes the step as the instruction's would.
                    cx.end_path(s, outcome);
                    pending = cx.pending;
                }
                Succ::Continue(s) => self.rec.current = Some(s),
                Succ::Fork(children) => {
                    // A sharded run names the children and keeps its own slice.
                    let children = match children.iter().all(|c| self.exec.strategy.splits(c)) {
                        true => self.rec.split(children),
                        false => children,
                    };
                    self.rec.push_fork(children)
                }
            }
            let staged = self.rec.staged.take().unwrap_or_default();
            debug_assert!(
                !pending || undo.is_some(),
                "a step judged to ask nothing asked the solver"
            );
            if let (true, Some(u)) = (pending, undo) {
                self.rec.pending.truncate(u.pending);
                self.rec.tree.truncate(u.tree);
                self.rec.parents.truncate(u.parents);
                self.rec.next_id = u.next_id;
                self.rec.paths.truncate(u.paths);
                // Paths scanned for coverage may be gone (and others come under their numbers).
                if self.covered.get_mut().scanned > u.paths {
                    *self.covered.get_mut() = Default::default();
                }
                self.rec.ended = u.ended;
                self.rec.folded_ends.truncate(u.folded_ends);
                self.rec.stats = u.stats;
                self.exec.strategy.restore(u.strategy);
                debug_assert!(u.state.is_some() || retry.is_some(), "an undone step kept no state");
                self.rec.current = u.state.or(retry);
                // The step's children will get the same ids again: their views go too.
                self.rec.views.rollback();
                return Some(Placed { event: Event::SolverPending, span: None });
            }
            self.rec.views.commit();
            for s in staged {
                self.rec.push_state(s);
            }
        }
    }

    /// Runs the current state's next instruction where the state lies when it only moves values
    /// (loads, stores, constants, jumps: most of a run's steps). Moving a state (some 300
    /// bytes) out of the explorer, through the executor and back, several copies a step, was a
    /// tenth of a `lazy` run. False, with nothing done, when the step is not one of those or
    /// would end the path (the step bound, an internal error): the executor takes it.
    fn step_in_place(&mut self) -> bool {
        let Some(st) = self.rec.current.as_ref() else { return false };
        let Some(instr) = next_instr(&self.exec.code, st) else { return false };
        if !instr.asks_nothing()
            || st.steps >= self.exec.config.bounds.steps_per_path
            || self.exec.strategy.obsolete(st)
        {
            return false;
        }
        let (at, last) = self.place(st);
        let Some(st) = self.rec.current.as_mut() else { return false };
        if move_values(instr, st).is_err() {
            return false;
        }
        st.steps += 1;
        self.rec.stats.steps += 1;
        self.rec.at = at;
        if let Some(last) = last {
            self.rec.last = last;
        }
        true
    }

    /// What `st`'s next step may ask the solver ([`Asks`]): its instruction's own semantics
    /// ([`asks`](super::exec::asks)), the heap model's operations it calls or the strategy's
    /// hooks. A copy of the state kept before a step, and the copy-on-write of the frame and
    /// objects the step then writes, cost a `lazy` run in wasm a third of its time where no
    /// step asked Z3 anything.
    fn asks(&self, st: &State) -> Asks {
        let Some(i) = next_instr(&self.exec.code, st) else { return Asks::Anywhere };
        if i.asks_nothing() {
            Asks::Nothing
        } else if self.exec.heap.may_ask(i) || self.exec.strategy.hooks_may_ask(i) {
            Asks::Anywhere
        } else {
            exec_asks(i, st)
        }
    }

    /// The global bound that stops exploration now, if one does; `elapsed` is the run's time
    /// so far (read where a time bound is set).
    fn global_bound(&self, elapsed: Option<u64>) -> Option<Bound> {
        let stats = &self.rec.stats;
        let bounds = &self.exec.config.bounds;
        let ended = stats.feasible + stats.bounded + stats.internal_errors;
        if ended >= bounds.max_paths && !self.is_done() {
            return Some(Bound::MaxPaths);
        }
        if stats.states >= bounds.max_states && !self.is_done() {
            return Some(Bound::States);
        }
        if let Some(most) = bounds.max_questions {
            let asked = self.solver_counts();
            let asked = asked.sent + asked.decided_locally + asked.cached;
            if asked >= most && !self.is_done() {
                return Some(Bound::Questions);
            }
        }
        if let (Some(t), Some(elapsed)) = (bounds.timeout_ms, elapsed) {
            // A heap model may have ended the last path in the middle of a step (symheap).
            let cut_in_step = matches!(
                self.rec.paths.last().map(|p| &p.outcome),
                Some(PathOutcome::Bounded { bound: Bound::Timeout, .. })
            );
            if elapsed > t && (!self.is_done() || cut_in_step) {
                return Some(Bound::Timeout);
            }
        }
        // Exploration may fill three quarters of the memory bound: the tests of its paths, which
        // hold input and final heaps, are generated within the rest.
        match (bounds.max_memory_mb, self.memory_bytes()) {
            (Some(m), Some(b)) if b > crate::memory::mb(m) / 4 * 3 && !self.is_done() => {
                Some(Bound::Memory)
            }
            _ => None,
        }
    }

    /// Ends every pending state as bounded by `bound`.
    fn stop(&mut self, bound: Bound) {
        self.rec.stopped = Some(bound);
        self.rec.at = None;
        self.rec.event(Event::Stopped { bound });
        let mut rest: Vec<State> = self.rec.current.take().into_iter().collect();
        rest.extend(self.rec.worklist.drain(..));
        let mut cx = self.exec.cx(&mut self.rec);
        for s in rest {
            cx.end_path(s, PathOutcome::Bounded { bound, span: None });
        }
    }
}

/// The instruction `st`'s top frame is at. A function of the code alone, so that the
/// explorer can hold it while it writes the state.
fn next_instr<'a>(code: &'a Compiled, st: &State) -> Option<&'a Instr> {
    let frame = st.frames.last()?;
    code.units.get(frame.unit)?.code.get(frame.pc)
}
