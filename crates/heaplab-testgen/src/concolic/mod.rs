//! The `concolic` strategy: Concolic StarFinder (CSF, papers 001/002; digest seed-001-002).
//!
//! CSF generates inputs from the precondition, not from the code: phase 1 (`genFromSpec`,
//! [`spec`]) unfolds the method's `requires` to a bound and takes one model per satisfiable
//! formula. Each model becomes a concrete input heap, the interpreter runs it (the run is the
//! test's expected outcome), the logic's model checker classifies it against `requires`
//! ([`crate::concretize::PreChecker`], independent of how the model was found) and the
//! interpreter replays it once more through [`crate::concretize::replay`] before it is emitted.
//! The result is an ordinary [`Generation`], so the `.hl`, JSON and JUnit emitters serve it as
//! they serve the symbolic strategies.
//!
//! Phase 2 is CSF's concolic loop. Each input is run by the engine's guided runner
//! ([`heaplab_engine::symbolic::concolic`]), which follows the input's path through the symbolic
//! executor and hands back the children it did not take. These are the unexplored nodes of a
//! constraint tree that all runs share. A node is keyed by the children taken from the entry,
//! and each node is tried at most once. An unexplored node is picked (DFS, BFS or seeded
//! random) and preprocessed into formulas over the precondition's unfoldings (CSF Algorithm 2).
//! The logic's `sat` then solves them; the first model becomes the next input, and nodes with
//! no model are pruned (unsat and undecided counted apart). The loop stops when nothing is left
//! unexplored, or when a bound is reached: runs, unfolding depth or time.
//!
//! Unconstrained integer inputs (parameters the formula does not mention) get 0, or seeded
//! pseudo-random values in a range (CSF's Experiment 2 uses [−32, 31]).
//!
//! A method without `requires` (CSF: an unconstrained precondition) gets its input heaps as
//! lazy initialization builds them, up to `k` (`ConcolicConfig::k`). Phase 1 gives one input,
//! the model of `emp` over the roots (reference fields null); the guided run's heap-shape
//! choices at each first access (null, an alias of an object met before, a fresh object) are
//! forks of the constraint tree like branches, and preprocessing turns an untaken choice into a
//! formula over objects outside the footprint (heaplab-engine's `concolic::preprocess`), so the
//! loop negates them like any branch. This fits the loop as it is — the runs, the tree, the
//! pruning and the run bounds are shared with the `requires` case — where enumerating every
//! shape up to `k` in phase 1 would run inputs no branch asked for and grow as the shapes do.
//! Nodes whose every formula needs an object deeper than `k` are counted in
//! `ConcolicStats::pruned_k`. The same holds for the reference fields of a root a `requires`
//! does not mention. Under a `requires` the tree holds the program's branches, as CSF's does
//! (issue 32): see [`shapes`] and `ForkRecord::spec`.

mod arrays;
mod config;
mod frontier;
mod shapes;
pub mod spec;

use crate::concretize::{replay, Concrete, PreChecker};
use crate::{find_function, unique_name, Expected, Generation, Input, Result};
pub use config::{ConcolicConfig, IntFill, SearchOrder};
use frontier::{pick, Deferred, Node, Waiting};
use heaplab_engine::symbolic::concolic::preprocess::preprocess;
use heaplab_engine::symbolic::concolic::{ConcreteInput, Runner};
use heaplab_engine::symbolic::{Clock, PathSolver, PreMode, State};
use heaplab_engine::{Heap, Interpreter, Limits, ObjId, Outcome, Value};
use heaplab_logic::{sat_with, Defs, Formula, Model, Order, PureOracle, SatResult, Sort};
use heaplab_syntax::ast::{Item, Program};
use heaplab_syntax::types::ProgramInfo;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// What a `concolic` run did, beside its tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConcolicStats {
    /// Solver calls of phase 1 and phase 2 (CSF Table 1's `#Calls`, `p1/p2`).
    pub phase1_calls: usize,
    pub phase2_calls: usize,
    /// Phase-1 formulas proved unsatisfiable, undecided (pruned, counted), or not solved
    /// because of `max_formulas`.
    pub phase1_unsat: usize,
    pub phase1_unknown: usize,
    pub phase1_cut: usize,
    /// Models phase 1 produced: one per satisfiable formula.
    pub phase1_models: usize,
    /// Tests phase 1 produced (identical inputs are run and emitted once).
    pub phase1_inputs: usize,
    /// Inputs not run because the `requires`' code facts (a `pure` method call such as
    /// `isBST()`, an array cell) do not hold on them.
    pub code_fact_discards: usize,
    /// Inputs whose arrays were lengthened until the `requires`' code facts held (see
    /// [`lengthen_arrays`]).
    pub code_fact_repairs: usize,
    /// New tests phase 2 produced.
    pub phase2_inputs: usize,
    /// Concrete runs in all.
    pub runs: usize,
    /// Unexplored nodes tried whose formulas were all unsatisfiable / some undecided (pruned,
    /// counted: an unknown or a bound reached is never taken for unsatisfiable).
    pub pruned_unsat: usize,
    pub pruned_unknown: usize,
    /// Unexplored nodes tried whose every formula needed an input object deeper than `k`
    /// (lazy initialization's bound; `lazy` at the same `k` cuts the same heap shapes).
    pub pruned_k: usize,
    /// Times a node was put off to a larger unfolding budget (see
    /// [`ConcolicConfig::first_unfold`]); nodes still waiting when a bound stopped the loop
    /// count in `unexplored_left`.
    pub deepened: usize,
    /// The largest unfolding budget a node was tried with.
    pub deepest_unfold: u32,
    /// Alias and null choices left to the input generator ([`shapes`]; no infeasibility proof
    /// then).
    pub shapes_left_out: usize,
    /// Formulas preprocessing produced, and predicate instances it unfolded.
    pub preprocess_formulas: usize,
    pub preprocess_unfolds: usize,
    /// Runs on a solved input that did not reach the node it was solved for.
    pub missed_target: usize,
    /// Runs where no successor of a fork agreed with the input.
    pub diverged: usize,
    /// Nodes of the constraint tree runs passed through; unexplored nodes left at the end.
    pub tree_explored: usize,
    pub unexplored_left: usize,
    /// Why the loop stopped early (`runs`, `time`, `questions`, `states`, `solver calls`), if
    /// it did.
    pub stopped_by: Option<&'static str>,
    /// For each test, the phase (1 or 2) that produced its input.
    pub phase_of_test: Vec<u8>,
}

/// A `concolic` run's tests and counts.
#[derive(Clone, Debug)]
pub struct ConcolicRun {
    pub generation: Generation,
    pub stats: ConcolicStats,
    /// What the loop did, in order (the event stream of issue 16; front ends may show it).
    pub events: Vec<ConcolicEvent>,
}

/// One step of the concolic loop; serialized (for the page) as `{ kind: "runInput", … }`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ConcolicEvent {
    /// Run number `run` (from 0) starts on an input of phase 1 or 2.
    RunInput { run: usize, phase: u8 },
    /// A run passed a fork of the constraint tree: what it decided, and whether the node was new.
    Branch { node: Vec<u16>, label: String, new: bool },
    /// A run left a child of a fork untaken: a new unexplored node of the constraint tree.
    Unexplored { node: Vec<u16> },
    /// An unexplored node is tried (once).
    TryNode { node: Vec<u16> },
    /// A tried node gave no model, but the unfolding budget cut some of its formulas: it is
    /// unexplored again, to be tried with `budget` unfoldings once the frontier is empty.
    Deferred { node: Vec<u16>, budget: u32 },
    /// A tried node gave no model: it is pruned (`unsat`; `k` when its formulas needed an input
    /// object deeper than `k`; or `undecided` when some formula was unknown or a bound cut it).
    Pruned { node: Vec<u16>, why: &'static str },
    /// Preprocessing (CSF Algorithm 2) gave these many formulas, after these many unfoldings.
    Preprocess { formulas: usize, unfolds: usize },
    /// The node's answer: a model (a new input follows), unsat, undecided (pruned, counted), or
    /// deferred (to a larger unfolding budget).
    Solve { outcome: &'static str },
    /// The formula (one of the tried node's preprocessed formulas, over the precondition) whose
    /// model is the next input; it comes just before `Solve { outcome: "model" }`.
    Solved { formula: String },
    /// The input became test `test`.
    NewInput { test: String },
}

/// Sees each event as the loop records it, with the tests so far (a front end that shows the
/// constraint tree while the loop runs; `generate` passes one that does nothing).
pub type Observer<'a> = &'a mut dyn FnMut(&ConcolicEvent, &Generation);

/// Records `event` after showing it to `observe`.
fn record(
    events: &mut Vec<ConcolicEvent>,
    observe: &mut dyn FnMut(&ConcolicEvent, &Generation),
    generation: &Generation,
    event: ConcolicEvent,
) {
    observe(&event, generation);
    events.push(event);
}

/// A small seeded generator (SplitMix64): reproducible integer inputs without a dependency.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn in_range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi - lo).unsigned_abs() + 1;
        lo.min(hi) + (self.next() % span) as i64
    }
}

/// The method's `requires` as a logic formula over `this` and the parameters, with those
/// names and sorts; `Err` says why it cannot be used.
pub fn precondition(
    defs: &Defs,
    program: &Program,
    info: &ProgramInfo,
    target: &str,
) -> std::result::Result<(Formula, Vec<(String, Sort)>), String> {
    let Some((class, decl)) = find_function(program, target) else {
        return Err(format!("no method `{target}`"));
    };
    let mut free = Vec::new();
    if let Some(c) = class {
        free.push(("this".to_string(), Sort::Ref(c.to_string())));
    }
    for p in &decl.params {
        let s = heaplab_logic::convert::sort_of_type(&p.ty).map_err(|e| e.to_string())?;
        free.push((p.name.name.clone(), s));
    }
    let formula = match decl.requires.as_slice() {
        [] => Formula { free: free.clone(), disjuncts: vec![heaplab_logic::SymHeap::default()] },
        [one] => {
            // Facts the logic does not read (a call of a `pure` method, an array cell) are not
            // part of the formula inputs come from; the loop checks them on each input.
            let is_pred = |n: &str| defs.preds.contains_key(n);
            let split = heaplab_logic::code_facts::split_code_facts(one, info, &is_pred);
            let one = split.as_ref().map_or(one, |(rest, _)| rest);
            let mut fresh = heaplab_logic::Fresh::new();
            heaplab_logic::convert::convert_formula(defs, one, &free, &mut fresh)
                .map_err(|e| e.to_string())?
        }
        _ => return Err("several `requires` clauses are not supported".into()),
    };
    Ok((formula, free))
}

/// A logic model as the interpreter's input: the heap, the receiver and the arguments.
/// `mentioned` are the variables the solved formula constrains; integer roots outside it take
/// `fill`'s value.
fn to_input(
    model: &Model,
    roots: &[(String, Sort)],
    mentioned: &BTreeSet<String>,
    has_receiver: bool,
    rng: &mut SplitMix,
    fill: IntFill,
) -> Input {
    // Objects keep the model's numbering: object i of the model is the i-th allocated.
    let ids: Vec<ObjId> = (0..model.objects.len() as u32).map(ObjId).collect();
    let conv = |v: &heaplab_logic::Value| match v {
        heaplab_logic::Value::Int(n) => Value::Int(*n),
        heaplab_logic::Value::Bool(b) => Value::Bool(*b),
        heaplab_logic::Value::Null => Value::Ref(None),
        heaplab_logic::Value::Ref(i) => Value::Ref(ids.get(*i).copied()),
    };
    let mut heap = Heap::new();
    for o in &model.objects {
        heap.alloc(o.class.clone(), o.fields.iter().map(|(f, v)| (f.clone(), conv(v))).collect());
    }
    let heap_ints: Vec<i64> = model
        .objects
        .iter()
        .flat_map(|o| o.fields.iter())
        .filter_map(|(_, v)| match v {
            heaplab_logic::Value::Int(n) => Some(*n),
            _ => None,
        })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut values = Vec::new();
    for (name, sort) in roots {
        let v = match (model.store.get(name), sort) {
            (_, Sort::Int) if !mentioned.contains(name) => match fill {
                IntFill::Default => Value::Int(0),
                // Half of the draws take one of the input heap's own integers (when it has
                // any), so that equality branches against stored values (`x == t.key`) can be
                // reached from a model whose values the precondition alone chose.
                IntFill::Random { .. } if !heap_ints.is_empty() && rng.next().is_multiple_of(2) => {
                    Value::Int(heap_ints[(rng.next() % heap_ints.len() as u64) as usize])
                }
                IntFill::Random { lo, hi, .. } => Value::Int(rng.in_range(lo, hi)),
            },
            (Some(v), _) => conv(v),
            (None, Sort::Int) => Value::Int(0),
            (None, Sort::Bool) => Value::Bool(false),
            (None, _) => Value::Ref(None),
        };
        values.push(v);
    }
    let receiver = if has_receiver {
        match values.first() {
            Some(Value::Ref(Some(r))) => Some(*r),
            _ => None,
        }
    } else {
        None
    };
    let args = if has_receiver { values[1..].to_vec() } else { values };
    Input { heap, receiver, args }
}

/// Runs CSF on `target` (`Class.method` or `function`): phase 1 from the precondition, then
/// (unless `config.phase2` is off) the concolic loop; every input becomes a replayed,
/// classified test. `oracle` decides the logic's pure parts (phase 1 and 2's `sat`); `solver`
/// is the executor's (the guided runs' feasibility checks); `clock` measures `timeout_ms`.
pub fn generate(
    program: &Program,
    info: &ProgramInfo,
    target: &str,
    config: &ConcolicConfig,
    oracle: &mut dyn PureOracle,
    solver: Box<dyn PathSolver>,
    clock: &dyn Clock,
) -> Result<ConcolicRun> {
    generate_observed(program, info, target, config, oracle, solver, clock, &mut |_, _| {})
}

/// [`generate`], showing each event to `observe` as it happens.
#[allow(clippy::too_many_arguments)]
pub fn generate_observed(
    program: &Program,
    info: &ProgramInfo,
    target: &str,
    config: &ConcolicConfig,
    oracle: &mut dyn PureOracle,
    solver: Box<dyn PathSolver>,
    clock: &dyn Clock,
    observe: Observer<'_>,
) -> Result<ConcolicRun> {
    let started = clock.now_ms();
    let (defs, _) = Defs::from_program(program);
    let mut stats = ConcolicStats::default();
    let mut generation = Generation { target: target.to_string(), ..Generation::default() };
    generation.return_type = crate::return_type_of(program, target);
    let Ok((pre, roots)) = precondition(&defs, program, info, target) else {
        return Ok(ConcolicRun { generation, stats, events: Vec::new() });
    };
    let found = find_function(program, target);
    let has_receiver = found.is_some_and(|(c, _)| c.is_some());
    let has_requires = found.is_some_and(|(_, d)| !d.requires.is_empty());
    let code = found.map(|(class, method)| shapes::Code { program, info, class, method });
    let shapes = shapes::ShapeRule::new(&defs, &pre, has_requires, code);
    let root_names: Vec<&str> = roots.iter().map(|(v, _)| v.as_str()).collect();
    // Phase 1 may take at most half of the time bound, so that its inputs are run and the
    // concolic loop gets the rest (the balanced trees' deeper formulas are slow to solve).
    let spec = spec::gen_from_spec(&defs, &pre, config, &root_names, oracle, &|| {
        config.timeout_ms.is_some_and(|t| clock.now_ms().saturating_sub(started) > t / 2)
    });
    stats.phase1_calls = spec.calls;
    stats.phase1_unsat = spec.unsat;
    stats.phase1_unknown = spec.unknown;
    stats.phase1_cut = spec.cut;
    stats.phase1_models = spec.models.len();
    let mentioned: BTreeSet<String> = pre.disjuncts.iter().flat_map(|sh| sh.free_vars()).collect();
    let seed = match config.ints {
        IntFill::Random { seed, .. } => seed,
        IntFill::Default => 0,
    };
    let mut rng = SplitMix(seed);
    let mut pick_rng = SplitMix(seed ^ 0x5eed);
    let mut queue: VecDeque<(usize, Input)> = spec
        .models
        .iter()
        .map(|(_, m)| (1, to_input(m, &roots, &mentioned, has_receiver, &mut rng, config.ints)))
        .collect();
    let mut runner = if config.phase2 {
        Some(Runner::new(program, info, target, solver).map_err(|source| match source {
            heaplab_engine::Error::Unsupported(why) => crate::Error::Unsupported(why),
            source => crate::Error::Engine { test: target.to_string(), source },
        })?)
    } else {
        None
    };
    let checker = PreChecker::new(program, info, target, PreMode::Ignore);
    let elements = crate::distinct::Elements::new(program, info, target);
    let method_short = target.rsplit('.').next().unwrap_or(target).to_string();
    let mut taken: BTreeSet<String> = program
        .items
        .iter()
        .filter_map(|i| if let Item::Test(t) = i { Some(t.name.name.clone()) } else { None })
        .collect();
    // The constraint tree shared by all runs: a node is the sequence of children taken at the
    // forks from the entry; each is explored (some run passed it) or tried (solved once).
    let mut tree: BTreeMap<Vec<u16>, Node> = BTreeMap::new();
    let mut frontier: Vec<(Vec<u16>, State)> = Vec::new();
    let mut deferred = Deferred::default();
    let mut seen_inputs: Vec<Input> = Vec::new();
    let mut runs = 0;
    let mut stopped_in_run = false;
    let mut picks = 0usize;
    let mut events = Vec::new();
    // The loop stops at 90 % of the time bound: its last input is still replayed and checked
    // after the check, and the front end prints and writes after the loop.
    let loop_ms = config.timeout_ms.map(|t| t - t / 10);
    let out_of_time = || loop_ms.is_some_and(|t| clock.now_ms().saturating_sub(started) > t);
    loop {
        if stopped_in_run {
            break;
        }
        if runs >= config.max_runs {
            stats.stopped_by = Some("runs");
            break;
        }
        if out_of_time() {
            stats.stopped_by = Some("time");
            break;
        }
        if config.max_phase2_calls.is_some_and(|m| stats.phase2_calls >= m) {
            stats.stopped_by = Some("solver calls");
            break;
        }
        let asked = (stats.phase1_calls + stats.phase2_calls) as u64;
        if config.max_questions.is_some_and(|m| asked >= m) {
            stats.stopped_by = Some("questions");
            break;
        }
        if tree.len() as u64 >= config.max_nodes {
            stats.stopped_by = Some("states");
            break;
        }
        let (phase, input, target_key) = if let Some((phase, input)) = queue.pop_front() {
            (phase, input, None)
        } else {
            let Some(_) = &runner else { break };
            picks += 1;
            let first = config.first_unfold.clamp(1, config.max_unfold.max(1));
            let Some(Waiting { key, state, budget, mut refuted }) =
                pick(&mut frontier, &tree, config.order, &mut pick_rng, picks)
                    .map(|(key, state)| Waiting {
                        key,
                        state,
                        budget: first,
                        refuted: BTreeSet::new(),
                    })
                    .or_else(|| deferred.pop_first(&tree))
            else {
                break;
            };
            stats.deepest_unfold = stats.deepest_unfold.max(budget);
            tree.insert(key.clone(), Node::Tried);
            record(&mut events, observe, &generation, ConcolicEvent::TryNode { node: key.clone() });
            let pp = preprocess(&defs, &pre, &state, budget, config.max_array_len, config.k);
            record(
                &mut events,
                observe,
                &generation,
                ConcolicEvent::Preprocess { formulas: pp.formulas.len(), unfolds: pp.unfolds },
            );
            stats.preprocess_formulas += pp.formulas.len();
            stats.preprocess_unfolds += pp.unfolds;
            let mut found = None;
            // Undecided for a reason a larger unfolding budget does not change.
            let mut stuck = pp.untranslatable > 0 || pp.formulas.len() > config.max_node_formulas;
            let mut undecided = stuck || pp.cut > 0;
            for solvable in pp.formulas.iter().take(config.max_node_formulas) {
                let f = &solvable.formula;
                // Proved unsatisfiable at a smaller budget: a formula the smaller budget did
                // not cut comes out of preprocessing again, the same.
                let text = f.to_string();
                if refuted.contains(&text) {
                    continue;
                }
                let asked = (stats.phase1_calls + stats.phase2_calls) as u64;
                if out_of_time()
                    || config.max_phase2_calls.is_some_and(|m| stats.phase2_calls >= m)
                    || config.max_questions.is_some_and(|m| asked >= m)
                {
                    undecided = true;
                    stuck = true;
                    break;
                }
                stats.phase2_calls += 1;
                // One search may be long: it asks the time bound too (stopped: undecided).
                let answer = sat_with(
                    &defs,
                    f,
                    config.node_sat_bounds,
                    Order::DepthFirst,
                    oracle,
                    &mut || out_of_time(),
                    None,
                    false,
                );
                match answer.map(|o| o.result) {
                    Ok(SatResult::Sat(mut m)) => {
                        let vars = constrained_vars(f, program.ints.range());
                        // The values the path chose for objects outside the footprint (element
                        // keys, a comparator's nullKey, an input array's length and cells) go
                        // into those objects.
                        solvable.fill(&mut m);
                        found = Some((m.restrict_to_reachable(&root_names), vars, text));
                        break;
                    }
                    Ok(SatResult::Unsat) => {
                        refuted.insert(text);
                    }
                    Ok(SatResult::Unknown(_)) | Err(_) => {
                        undecided = true;
                        stuck = true;
                    }
                }
            }
            if found.is_none() && pp.cut > 0 && !stuck && budget < config.max_unfold {
                // The budget cut some formulas and none of the others has a model: the node
                // may need a deeper input. It waits for a larger budget until the frontier is
                // empty, so that nodes the smaller budget decides come first.
                record(
                    &mut events,
                    observe,
                    &generation,
                    ConcolicEvent::Solve { outcome: "deferred" },
                );
                record(
                    &mut events,
                    observe,
                    &generation,
                    ConcolicEvent::Deferred { node: key.clone(), budget: budget + 1 },
                );
                stats.deepened += 1;
                deferred.push(Waiting { key, state, budget: budget + 1, refuted });
                continue;
            }
            let outcome = match (&found, undecided) {
                (Some(_), _) => "model",
                (None, true) => "undecided",
                (None, false) if pp.k_cut > 0 => "k",
                (None, false) => "unsat",
            };
            if let Some((_, _, formula)) = &found {
                let formula = formula.clone();
                record(&mut events, observe, &generation, ConcolicEvent::Solved { formula });
            }
            record(&mut events, observe, &generation, ConcolicEvent::Solve { outcome });
            let Some((model, vars, _)) = found else {
                record(
                    &mut events,
                    observe,
                    &generation,
                    ConcolicEvent::Pruned { node: key, why: outcome },
                );
                if undecided {
                    stats.pruned_unknown += 1;
                } else if pp.k_cut > 0 {
                    stats.pruned_k += 1;
                } else {
                    stats.pruned_unsat += 1;
                }
                continue;
            };
            let input = to_input(&model, &roots, &vars, has_receiver, &mut rng, config.ints);
            (2, input, Some(key))
        };
        let input = if checker.code_facts_hold(&input) {
            input
        } else {
            match arrays::lengthen_arrays(&input, config.max_array_len, |i| {
                checker.code_facts_hold(i)
            }) {
                Some(longer) => {
                    stats.code_fact_repairs += 1;
                    longer
                }
                None => input,
            }
        };
        record(
            &mut events,
            observe,
            &generation,
            ConcolicEvent::RunInput { run: runs, phase: phase as u8 },
        );
        runs += 1;
        if let Some(runner) = &mut runner {
            let mut values: Vec<Value> =
                input.receiver.map(|r| Value::Ref(Some(r))).into_iter().collect();
            values.extend(input.args.iter().copied());
            // One run may be long (a fork asks the solver about each other direction): it asks
            // the loop's bound too. A stopped run's input is still replayed and checked, which
            // takes no solver.
            let run = runner
                .run_until(&ConcreteInput { heap: &input.heap, roots: &values }, &mut || {
                    out_of_time()
                });
            if run.diverged {
                stats.diverged += 1;
            }
            if run.stopped {
                stats.stopped_by = Some("time");
                stopped_in_run = true;
            }
            let mut prefix = Vec::new();
            let mut origins = shapes::Origins::default();
            for fork in run.forks {
                origins.record(&fork.label);
                if fork.spec {
                    continue;
                }
                for (j, st) in fork.others {
                    if fork.shape.iter().any(|c| c.child == j && shapes.decides(c, &origins)) {
                        stats.shapes_left_out += 1;
                        continue;
                    }
                    let mut k = prefix.clone();
                    k.push(j);
                    if !tree.contains_key(&k) && !frontier.iter().any(|(f, _)| *f == k) {
                        record(
                            &mut events,
                            observe,
                            &generation,
                            ConcolicEvent::Unexplored { node: k.clone() },
                        );
                        frontier.push((k, st));
                    }
                }
                prefix.push(fork.taken);
                let new = tree.insert(prefix.clone(), Node::Explored) != Some(Node::Explored);
                record(
                    &mut events,
                    observe,
                    &generation,
                    ConcolicEvent::Branch { node: prefix.clone(), label: fork.label, new },
                );
            }
            if let Some(k) = target_key {
                if !prefix.starts_with(&k) {
                    stats.missed_target += 1;
                }
            }
        }
        if seen_inputs.contains(&input) {
            continue;
        }
        seen_inputs.push(input.clone());
        if !checker.code_facts_hold(&input) {
            // The `requires`' code facts (e.g. `isBST()`) rule it out, as at entry.
            stats.code_fact_discards += 1;
            continue;
        }
        let i = generation.tests.len();
        let name = unique_name(&format!("gen_{method_short}_{i}"), &mut taken);
        let Some(expected) = run_input(program, info, target, &input)? else {
            generation.unknown.push(i);
            continue;
        };
        let mut concrete = Concrete { input, expected, final_fields: Vec::new() };
        let (final_heap, covered, error) = replay(program, info, target, &name, &mut concrete)?;
        let validity = checker.classify(&concrete.input);
        if phase == 2 {
            stats.phase2_inputs += 1;
        }
        let original = crate::distinct::Filled {
            input: concrete.input,
            expected: concrete.expected,
            final_heap,
            coverage: covered,
            error: error.map(|e| (e.node, e.span, e.message)),
            validity,
        };
        // Elements whose choices were left to the generator (see `shapes`) come out `null`:
        // they become distinct objects where the path allows, as `sl`'s do.
        let filled = elements.as_ref().and_then(|e| e.fill(&original)).unwrap_or(original);
        generation.tests.push(filled.into_test(name, i, false));
        stats.phase_of_test.push(phase as u8);
        if let Some(test) = generation.tests.last().map(|t| t.name.clone()) {
            record(&mut events, observe, &generation, ConcolicEvent::NewInput { test });
        }
    }
    stats.runs = runs;
    stats.phase1_inputs = stats.phase_of_test.iter().filter(|p| **p == 1).count();
    stats.tree_explored = tree.values().filter(|n| **n == Node::Explored).count();
    stats.unexplored_left =
        frontier.iter().filter(|(k, _)| !tree.contains_key(k)).count() + deferred.waiting(&tree);
    Ok(ConcolicRun { generation, stats, events })
}

/// The free variables `f` constrains beyond their type's range: an integer root that only its
/// range (`lo <= x <= hi`, which the executor adds for every input integer) mentions is
/// unconstrained, and takes the configured fill like a root the formula does not mention,
/// rather than whatever the solver picked (often a bound of another variable, `x == len`).
fn constrained_vars(f: &Formula, (lo, hi): (i64, i64)) -> BTreeSet<String> {
    use heaplab_logic::formula::{CmpOp, Pure, Term};
    let is_range = |p: &Pure| match p {
        Pure::Cmp(CmpOp::Le, Term::Int(c), Term::Var(_)) => *c == lo,
        Pure::Cmp(CmpOp::Le, Term::Var(_), Term::Int(c)) => *c == hi,
        _ => false,
    };
    f.disjuncts
        .iter()
        .flat_map(|sh| {
            let mut sh = sh.clone();
            sh.pure.retain(|p| !is_range(p));
            sh.free_vars()
        })
        .collect()
}

/// Runs one input in the interpreter; its outcome is what the test expects. `None` when the
/// run does not count (an `assume` failed).
fn run_input(
    program: &Program,
    info: &ProgramInfo,
    target: &str,
    input: &Input,
) -> Result<Option<Expected>> {
    let mut interp = Interpreter::new(program, info, Limits::default());
    interp.set_heap(input.heap.clone());
    let (_, name) = heaplab_engine::symbolic::explorer::split_target(target);
    let res = match input.receiver {
        Some(r) => interp.call_method(r, name, &input.args),
        None => interp.call_function(name, &input.args),
    };
    let outcome =
        res.map_err(|source| crate::Error::Engine { test: target.to_string(), source })?;
    Ok(match outcome {
        Outcome::Returned(v) => Some(Expected::Returned(v)),
        Outcome::Error(e) => Some(Expected::Error(e.kind)),
        Outcome::AssumptionViolated { .. } => None,
    })
}
