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
//! Phase 2 of CSF (the concolic loop over a shared constraint tree, issue 16) is not built yet.
//!
//! Unconstrained integer inputs (parameters the formula does not mention) get 0, or seeded
//! pseudo-random values in a range (CSF's Experiment 2 uses [−32, 31]).

pub mod spec;

use crate::concretize::{replay, Concrete, PreChecker};
use crate::{find_function, unique_name, Expected, GeneratedTest, Generation, Input, Result};
use heaplab_engine::symbolic::PreMode;
use heaplab_engine::{Heap, Interpreter, Limits, ObjId, Outcome, Value};
use heaplab_logic::{Defs, Formula, Model, PureOracle, SearchBounds, Sort};
use heaplab_syntax::ast::{Item, Program, TypeExpr};
use heaplab_syntax::types::ProgramInfo;
use std::collections::BTreeSet;

/// How integer inputs the precondition leaves unconstrained are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntFill {
    /// 0 (CSF's default).
    Default,
    /// Seeded pseudo-random values in `lo..=hi`.
    Random { seed: u64, lo: i64, hi: i64 },
}

/// The bounds of a `concolic` run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConcolicConfig {
    /// Phase 1's unfolding depth n: levels 0..=n are solved. Default 2.
    pub depth: u32,
    /// At most this many phase-1 formulas are solved. Default 256.
    pub max_formulas: usize,
    /// Bounds of each `sat` call.
    pub sat_bounds: SearchBounds,
    pub ints: IntFill,
}

impl Default for ConcolicConfig {
    fn default() -> Self {
        ConcolicConfig {
            depth: 2,
            max_formulas: 256,
            sat_bounds: SearchBounds::default(),
            ints: IntFill::Default,
        }
    }
}

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
    /// Inputs phase 1 produced (after removing identical models).
    pub phase1_inputs: usize,
}

/// A `concolic` run's tests and counts.
#[derive(Clone, Debug)]
pub struct ConcolicRun {
    pub generation: Generation,
    pub stats: ConcolicStats,
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
    let mut values = Vec::new();
    for (name, sort) in roots {
        let v = match (model.store.get(name), sort) {
            (_, Sort::Int) if !mentioned.contains(name) => match fill {
                IntFill::Default => Value::Int(0),
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

/// Runs phase 1 on `target` (`Class.method` or `function`) and turns every model into a
/// replayed, classified test.
pub fn generate(
    program: &Program,
    info: &ProgramInfo,
    target: &str,
    config: &ConcolicConfig,
    oracle: &mut dyn PureOracle,
) -> Result<ConcolicRun> {
    let (defs, _) = Defs::from_program(program);
    let mut stats = ConcolicStats::default();
    let mut generation = Generation { target: target.to_string(), ..Generation::default() };
    generation.return_type = match find_function(program, target).map(|(_, d)| &d.return_type) {
        Some(TypeExpr::Int(_)) => "int".to_string(),
        Some(TypeExpr::Bool(_)) => "bool".to_string(),
        Some(TypeExpr::Class(c)) => c.name.clone(),
        _ => "void".to_string(),
    };
    let Ok((pre, roots)) = precondition(&defs, program, target) else {
        return Ok(ConcolicRun { generation, stats });
    };
    let has_receiver = find_function(program, target).is_some_and(|(c, _)| c.is_some());
    let root_names: Vec<&str> = roots.iter().map(|(v, _)| v.as_str()).collect();
    let spec = spec::gen_from_spec(
        &defs,
        &pre,
        config.depth,
        config.max_formulas,
        config.sat_bounds,
        &root_names,
        oracle,
    );
    stats.phase1_calls = spec.calls;
    stats.phase1_unsat = spec.unsat;
    stats.phase1_unknown = spec.unknown;
    stats.phase1_cut = spec.cut;
    stats.phase1_inputs = spec.models.len();
    let mentioned: BTreeSet<String> = pre.disjuncts.iter().flat_map(|sh| sh.free_vars()).collect();
    let seed = match config.ints {
        IntFill::Random { seed, .. } => seed,
        IntFill::Default => 0,
    };
    let mut rng = SplitMix(seed);
    let checker = PreChecker::new(program, target, PreMode::Ignore);
    let method_short = target.rsplit('.').next().unwrap_or(target).to_string();
    let mut taken: BTreeSet<String> = program
        .items
        .iter()
        .filter_map(|i| if let Item::Test(t) = i { Some(t.name.name.clone()) } else { None })
        .collect();
    for (i, (_, model)) in spec.models.iter().enumerate() {
        let input = to_input(model, &roots, &mentioned, has_receiver, &mut rng, config.ints);
        let name = unique_name(&format!("gen_{method_short}_{i}"), &mut taken);
        let Some(expected) = run_input(program, info, target, &input)? else {
            generation.unknown.push(i);
            continue;
        };
        let concrete = Concrete { input, expected, final_fields: Vec::new() };
        let (final_heap, covered) = replay(program, info, target, &name, &concrete)?;
        let validity = checker.classify(&concrete.input);
        generation.tests.push(GeneratedTest {
            name,
            path: i,
            input: concrete.input,
            expected: concrete.expected,
            final_heap,
            validity,
            k_cut: false,
            statements: covered.statements.into_iter().collect(),
            branches: covered.branches.into_iter().collect(),
        });
    }
    Ok(ConcolicRun { generation, stats })
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
