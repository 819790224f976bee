//! The concolic driver's engine side (issue 16, Concolic StarFinder): one *guided* run of the
//! symbolic executor per concrete input, and CSF's `preprocess` (Algorithm 2) of a path
//! condition into separation-logic formulas over the precondition ([`preprocess`]).
//!
//! A concolic run follows exactly the path the concrete input takes, while the executor keeps
//! the symbolic side: the path condition over input cells, and the input heap discovered by
//! lazy initialization (`lazy`, precondition ignored), which is the heap access path of every
//! cell read. At each fork the driver keeps the one successor that agrees with the concrete input
//! ([`agrees`]: its input heap maps one-to-one onto the concrete one along the access paths, and
//! its path condition evaluates to true on the concrete values) and hands back the others:
//! they are CSF's eagerly created unexplored children (`Δ ∧ ¬e0`, or another lazy-init choice).
//! The loop over runs, the constraint tree shared by all runs and the solving live in
//! `heaplab-testgen`'s `concolic` module.
//!
//! This is a second search driver next to [`super::explorer`]: it owns its loop and its
//! [`Sink`] ([`Quiet`]: tree ids, totals, the path end), over the same executor.

pub mod agree;
pub mod outside;
pub mod preprocess;

pub use agree::{agrees, ConcreteInput};

use super::code::{compile, UnitId};
use super::config::{Bound, Config, Deadline, PreMode, StrategyKind};
use super::events::{Event, Label, RunStats, ViewAt};
use super::exec::{answers::Answers, entry, Executor, Sink, Succ};
use super::explorer::split_target;
use super::outcome::PathOutcome;
use super::solve::PathSolver;
use super::state::{State, StateId};
use super::strategy;
use crate::error::{Error, Result};
use heaplab_syntax::ast::Program;
use heaplab_syntax::types::ProgramInfo;
use std::rc::Rc;

/// The chain budget of a guided run's roots (lazy initialization's `k`): the concrete input
/// bounds the heap, so the run itself never cuts a chain; an input object's depth from the
/// roots is `RUN_BUDGET` minus its budget, which [`preprocess`] bounds by the loop's `k`.
pub const RUN_BUDGET: u32 = 1_000;

/// One fork a guided run passed: the child it took and the children it did not.
#[derive(Clone, Debug)]
pub struct ForkRecord {
    /// Positions among the fork's children.
    pub taken: u16,
    pub others: Vec<(u16, State)>,
    /// What the fork decided (the label of the taken child's tree node).
    pub label: String,
    /// The heap-shape alternatives among `others`, which may not be program directions: the
    /// untaken choices of lazy initialization that make an input reference null, an alias
    /// of an earlier input object or a new one. Which of them the program tests, and which the input
    /// generator decides, is the loop's to judge (issue 32).
    pub shape: Vec<ShapeChoice>,
    /// A branch of an `ensures`' evaluation (its functions' tests as they walk the heap), not
    /// of the code: CSF's constraint tree has none, and it ranges over the whole output heap,
    /// so negating it grows the tree with the input's size (issue 32). The check of the
    /// `ensures` itself (its failing side) is an ordinary fork.
    pub spec: bool,
}

/// An untaken lazy-initialization choice that makes `reference` null, the earlier input
/// object `target` or (`fresh`) the new input object `target`: `o3.next = o1` is reference
/// `o3.next`, target `Some("o1")`; `o3.next = null` is target `None`; `o3.next = fresh o4` is
/// target `Some("o4")` with `fresh`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeChoice {
    /// Position among the fork's children (as in [`ForkRecord::others`]).
    pub child: u16,
    pub reference: String,
    pub target: Option<String>,
    pub fresh: bool,
}

/// The result of one guided run.
#[derive(Clone, Debug)]
pub struct GuidedRun {
    pub forks: Vec<ForkRecord>,
    /// The final state and outcome, when the run ended.
    pub end: Option<(State, PathOutcome)>,
    /// At some fork no child agreed with the input (or two did): the run stopped there.
    pub diverged: bool,
    /// The caller's `stop` said so before the path ended (its end is `bounded (by timeout)`).
    pub stopped: bool,
}

impl GuidedRun {
    /// The constraint-tree key of the run's path: the child taken at each fork.
    pub fn key(&self) -> Vec<u16> {
        self.forks.iter().map(|f| f.taken).collect()
    }
}

/// The driver's sink: ids for tree nodes, totals, and the end of the one path it follows.
#[derive(Default)]
struct Quiet {
    next_id: u32,
    labels: Vec<String>,
    stats: RunStats,
    /// Paths the last step ended: the whole path, or the failing side of a runtime check
    /// (`guard` ends that side at once and continues with the other).
    ended: Vec<(State, PathOutcome)>,
    pushed: Vec<State>,
}

impl Sink for Quiet {
    fn node(&mut self, _parent: Option<StateId>, label: Label) -> StateId {
        let id = StateId(self.next_id);
        self.next_id += 1;
        // Steps label by text here: this sink hands out no label ids (`Sink`'s defaults).
        let text = match label {
            Label::Text(text) => text,
            Label::Known(_) => String::new(),
        };
        self.labels.push(text);
        id
    }
    fn event(&mut self, _event: Event) {}
    fn snapshot(&mut self, _st: &State, _at: ViewAt) {}
    fn keep_view(&mut self, _st: &State, _at: ViewAt) {}
    fn stats(&mut self) -> &mut RunStats {
        &mut self.stats
    }
    fn record(&mut self, st: State, outcome: PathOutcome) {
        self.ended.push((st, outcome));
    }
    fn push(&mut self, st: State) {
        self.pushed.push(st);
    }
    fn stopped(&self) -> bool {
        false
    }
}

/// Runs the symbolic executor along concrete inputs of one method.
pub struct Runner {
    exec: Executor,
    entry_unit: UnitId,
    /// The most executor steps of one run.
    pub max_steps: u64,
}

impl Runner {
    /// A runner for `target` (`Class.method` or a function). The executor runs under `lazy` with
    /// the precondition ignored: the concrete input decides every lazy-initialization choice,
    /// and the precondition enters only when a path condition is solved.
    pub fn new(
        program: &Program,
        info: &ProgramInfo,
        target: &str,
        solver: Box<dyn PathSolver>,
    ) -> Result<Runner> {
        let code = compile(program, info);
        let (class, name) = split_target(target);
        let Some(method) = code.function(class, name) else {
            return Err(Error::UnknownFunction(target.to_string()));
        };
        let mut config =
            Config { strategy: StrategyKind::Lazy, pre: PreMode::Ignore, ..Config::default() };
        // The concrete input bounds the heap, its loops and its recursion; the exploration
        // bounds must not cut a run (`max_steps` stops a run that does not end).
        config.bounds.k = RUN_BUDGET;
        config.bounds.loop_iterations = 100_000;
        config.bounds.call_depth = 1_000;
        let Some((code2, entry_unit, _)) = entry::add_entry_unit(&code, method, &config) else {
            return Err(Error::UnknownFunction(target.to_string()));
        };
        let code = Rc::new(code2);
        let strategy = strategy::make(config.strategy, &code);
        let heap = strategy.heap_model();
        // CSF's query counts are the algorithm's: every question reaches the solver.
        let answers = Answers::new(false);
        let deadline = Deadline::none();
        let exec = Executor { code, config, method, solver, strategy, heap, deadline, answers };
        Ok(Runner { exec, entry_unit, max_steps: 200_000 })
    }

    /// Is `st` evaluating some function's `ensures` (at or past its epilogue)?
    fn in_ensures(&self, st: &State) -> bool {
        st.frames.iter().any(|f| {
            self.exec.code.units.get(f.unit).and_then(|u| u.ensures_at).is_some_and(|at| f.pc >= at)
        })
    }

    /// The solver's query count so far (the executor's feasibility checks).
    pub fn solver_queries(&self) -> u64 {
        self.exec.solver.counts().sent
    }

    /// Follows `input` from the method's entry to the end of its path.
    pub fn run(&mut self, input: &ConcreteInput) -> GuidedRun {
        self.run_until(input, &mut || false)
    }

    /// [`run`](Self::run), asking `stop` before every step: one run may be long (each fork
    /// asks the solver which other directions are feasible, and a path through arrays read at
    /// symbolic indexes asks thousands of slow questions), and the driver's time bound must
    /// hold inside it. A stopped run ends `bounded (by timeout)` with the forks it passed.
    pub fn run_until(
        &mut self,
        input: &ConcreteInput,
        stop: &mut dyn FnMut() -> bool,
    ) -> GuidedRun {
        let mut sink = Quiet::default();
        let root = sink.node(None, Label::Text("entry".into()));
        let mut st = entry::empty_state(root);
        // Input integers range over the program's `ints` (32-bit under `java32`), as in the
        // explorer: the range joins the path condition that preprocessing solves.
        st.int_range = self.exec.code.ints.range();
        st.array_bound = i64::from(self.exec.config.bounds.k);
        let entry_unit = self.entry_unit;
        let mut out = GuidedRun { forks: Vec::new(), end: None, diverged: false, stopped: false };
        let first = self.exec.cx(&mut sink).entry_states(st, entry_unit);
        let Some((_, mut cur)) = choose(first, input, &sink.labels, &mut out, false) else {
            out.diverged = true;
            return out;
        };
        let mut steps = 0u64;
        loop {
            steps += 1;
            if steps > self.max_steps {
                out.end = Some((cur, PathOutcome::Bounded { bound: Bound::Steps, span: None }));
                return out;
            }
            if stop() {
                out.end = Some((cur, PathOutcome::Bounded { bound: Bound::Timeout, span: None }));
                out.stopped = true;
                return out;
            }
            let next = {
                let mut cx = self.exec.cx(&mut sink);
                match cx.exec(cur) {
                    Succ::End(s, o) => {
                        cx.end_path(s, o);
                        None
                    }
                    other => Some(other),
                }
            };
            // A runtime check (assertion, `ensures`, overflow, division by zero, bounds, null)
            // ends its failing side inside the step and continues with the other: both are
            // children of one fork, so the input may take the failing side and the loop may
            // negate either (issue 30).
            let mut ended = std::mem::take(&mut sink.ended);
            let kids = match next {
                Some(Succ::Continue(s)) => vec![s],
                Some(Succ::Fork(kids)) => kids,
                _ => std::mem::take(&mut sink.pushed),
            };
            if kids.is_empty() && !ended.is_empty() {
                out.end = Some(ended.swap_remove(0));
                return out;
            }
            let live = kids.len();
            let (fail_states, fail_outcomes): (Vec<State>, Vec<PathOutcome>) =
                ended.into_iter().filter(|(_, o)| matches!(o, PathOutcome::Error { .. })).unzip();
            let all: Vec<State> = kids.into_iter().chain(fail_states).collect();
            let spec = live == all.len() && all.first().is_some_and(|s| self.in_ensures(s));
            match choose(all, input, &sink.labels, &mut out, spec) {
                Some((i, s)) if i >= live => {
                    let outcome = fail_outcomes.into_iter().nth(i - live);
                    out.end = outcome.map(|o| (s, o));
                    out.diverged = out.end.is_none();
                    return out;
                }
                Some((_, s)) => cur = s,
                None => {
                    out.diverged = true;
                    return out;
                }
            }
        }
    }
}

/// The one child that agrees with `input`; records the fork when there were several (`spec`:
/// see [`ForkRecord::spec`]).
fn choose(
    kids: Vec<State>,
    input: &ConcreteInput,
    labels: &[String],
    out: &mut GuidedRun,
    spec: bool,
) -> Option<(usize, State)> {
    if kids.len() == 1 {
        return kids.into_iter().next().map(|k| (0, k));
    }
    let verdicts: Vec<Option<bool>> = kids.iter().map(|k| agrees(k, input)).collect();
    let pick = verdicts
        .iter()
        .position(|v| *v == Some(true))
        .or_else(|| verdicts.iter().position(|v| v.is_none()))?;
    let mut taken = None;
    let mut others = Vec::new();
    for (i, k) in kids.into_iter().enumerate() {
        if i == pick {
            taken = Some(k);
        } else {
            others.push((i as u16, k));
        }
    }
    let taken = taken?;
    let label = labels.get(taken.id.0 as usize).cloned().unwrap_or_default();
    let label_of = |s: &State| labels.get(s.id.0 as usize).map_or("", String::as_str);
    let shape = others
        .iter()
        .filter_map(|(i, o)| {
            let label = label_of(o);
            if let Some((reference, object)) = fresh_choice(label) {
                return Some(ShapeChoice {
                    child: *i,
                    reference: reference.into(),
                    target: Some(object.into()),
                    fresh: true,
                });
            }
            let (reference, target) = shape_choice(label)?;
            Some(ShapeChoice {
                child: *i,
                reference: reference.into(),
                target: target.map(Into::into),
                fresh: false,
            })
        })
        .collect();
    out.forks.push(ForkRecord { taken: pick as u16, others, label, shape, spec });
    Some((pick, taken))
}

/// The reference and what `label` (a child's tree label) makes it by lazy initialization: the
/// earlier input object (`o1.next`, `Some(o1)`) for `o1.next = o1`, (`loc3`, `Some(o2)`) for
/// `loc3 = o2`, null (`o1.next`, `None`) for `o1.next = null`; `None` for other labels. The
/// third choice reads `= fresh o4`; branch and check labels are conditions, never `path = x`.
fn shape_choice(label: &str) -> Option<(&str, Option<&str>)> {
    let (path, target) = label.rsplit_once(" = ")?;
    let target = match target {
        "null" => None,
        t if is_input_object(t) => Some(t),
        _ => return None,
    };
    (!path.is_empty() && !path.contains(' ')).then_some((path, target))
}

/// The reference and the new input object of a lazy-initialization choice's label:
/// (`o2.next`, `o5`) for `o2.next = fresh o5`; `None` for other labels.
pub fn fresh_choice(label: &str) -> Option<(&str, &str)> {
    let (path, object) = label.rsplit_once(" = fresh ")?;
    (!path.is_empty() && !path.contains(' ') && is_input_object(object)).then_some((path, object))
}

/// `o7`: an input object's name in the tree's labels.
pub fn is_input_object(name: &str) -> bool {
    name.strip_prefix('o').is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}
