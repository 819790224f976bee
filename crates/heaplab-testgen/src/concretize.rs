//! From a symbolic path to a concrete input, the predicted outcome, and the replay that checks
//! the prediction (digest seed-004a §6.2–6.4).
//!
//! The integers come from one solver model of the final path condition; the run's heap model
//! turns the path's final state into the input heap
//! ([`HeapModel::concretize`](heaplab_engine::symbolic::heap::HeapModel::concretize)).

use crate::{Error, Expected, Input, Result, Validity};
use heaplab_engine::symbolic::code::Compiled;
use heaplab_engine::symbolic::heap::worlds::{self, Worlds};
use heaplab_engine::symbolic::heap::{ConcreteInput, HeapModel};
use heaplab_engine::symbolic::{PathOutcome, PathResult, PathSolver, PreMode, SValue, Sort};
use heaplab_engine::{Coverage, Heap, Interpreter, Limits, ObjId, Outcome, Value};
use heaplab_logic::{CheckLimits, Verdict};
use heaplab_syntax::ast::Program;
use heaplab_syntax::types::ProgramInfo;
use std::borrow::Cow;

/// A concretized path.
#[derive(Clone, Debug, PartialEq)]
pub struct Concrete {
    pub input: Input,
    pub expected: Expected,
    /// Predicted final field values of every object the path knows (concrete ids).
    pub final_fields: Vec<(ObjId, String, Value)>,
}

/// Builds the concrete input and prediction of one feasible path with the run's heap model;
/// `None` without a model.
pub fn concretize(
    solver: &mut dyn PathSolver,
    heap: &dyn HeapModel,
    compiled: &Compiled,
    is_method: bool,
    path: &PathResult,
) -> Option<Concrete> {
    let st = &path.state;
    let vars: Vec<(u32, Sort)> =
        st.vars.iter().enumerate().map(|(i, (sort, _))| (i as u32, *sort)).collect();
    let model = solver.model(&st.pc, &vars)?;
    let returned = path_returned(path)?;
    Some(from_input(heap.concretize(compiled, st, &model, returned), is_method, path))
}

/// The value a feasible path returned (`Some(None)` for an error path); `None` for a path
/// without a test (discarded, bounded).
pub fn path_returned(path: &PathResult) -> Option<Option<&SValue>> {
    match &path.outcome {
        PathOutcome::Returned(v) => Some(Some(v)),
        PathOutcome::Error { .. } => Some(None),
        _ => None,
    }
}

/// Every distinct input heap of a feasible path (all-heaps mode,
/// [`heaplab_engine::symbolic::heap::worlds`]) as concretized tests, with the enumeration's
/// report; `None` for a path without a test.
pub fn all_heaps(
    solver: &mut dyn PathSolver,
    heap: &dyn HeapModel,
    compiled: &Compiled,
    is_method: bool,
    path: &PathResult,
    limit: u32,
    out_of_time: &mut dyn FnMut() -> bool,
) -> Option<(Vec<Concrete>, Worlds)> {
    let returned = path_returned(path)?;
    let mut worlds =
        worlds::enumerate(solver, heap, compiled, &path.state, returned, limit, out_of_time);
    let inputs = std::mem::take(&mut worlds.inputs);
    Some((inputs.into_iter().map(|c| from_input(c, is_method, path)).collect(), worlds))
}

/// A path's concrete input as a test's input and prediction.
fn from_input(c: ConcreteInput, is_method: bool, path: &PathResult) -> Concrete {
    let receiver = match c.roots.first() {
        Some(Value::Ref(Some(r))) if is_method => Some(*r),
        _ => None,
    };
    let args = if receiver.is_some() { c.roots[1..].to_vec() } else { c.roots };
    let expected = match (&path.outcome, c.returned) {
        (PathOutcome::Error { kind, .. }, _) => Expected::Error(*kind),
        (_, returned) => Expected::Returned(returned.unwrap_or(Value::Void)),
    };
    Concrete {
        input: Input { heap: c.heap, receiver, args },
        expected,
        final_fields: c.final_fields,
    }
}

/// Replays a concretized test in the interpreter; returns the final heap and what the call
/// covered (statements and branch directions), or the mismatch.
pub fn replay(
    program: &Program,
    info: &ProgramInfo,
    target: &str,
    test: &str,
    c: &mut Concrete,
) -> Result<(Heap, Coverage, Option<ReplayError>)> {
    let mut interp = Interpreter::new(program, info, Limits::default());
    interp.set_heap(c.input.heap.clone());
    let (_, name) = heaplab_engine::symbolic::explorer::split_target(target);
    let res = match c.input.receiver {
        Some(r) => interp.call_method(r, name, &c.input.args),
        None => interp.call_function(name, &c.input.args),
    };
    let outcome = res.map_err(|source| Error::Engine { test: test.to_string(), source })?;
    let mismatch = |expected: String, got: String| Error::ReplayMismatch {
        test: test.to_string(),
        expected,
        got,
    };
    match (&c.expected, &outcome) {
        (Expected::Returned(v), Outcome::Returned(w)) if v == w => {}
        // An `ensures` formula is checked on the concrete final heap, not symbolically: where
        // the replay finds it false, that is the test's outcome.
        (Expected::Returned(_), Outcome::Error(e))
            if e.kind == heaplab_syntax::ast::ErrorKind::EnsuresFailed
                && e.node == heaplab_engine::ENSURES_FORMULA_NODE =>
        {
            c.expected = Expected::Error(e.kind);
        }
        (Expected::Error(k), Outcome::Error(e)) if *k == e.kind => {}
        (e, o) => return Err(mismatch(describe_expected(e), o.summary())),
    }
    let error = match &outcome {
        Outcome::Error(e) => {
            Some(ReplayError { node: e.node, span: e.span, message: e.message.clone() })
        }
        _ => None,
    };
    let coverage = interp.take_coverage();
    let heap = interp.into_heap();
    for (id, field, v) in &c.final_fields {
        let got = heap.field(*id, field);
        if got != Some(*v) {
            return Err(mismatch(
                format!("{id}.{field} == {v} after the call"),
                format!(
                    "{id}.{field} == {}",
                    got.map_or("<missing>".to_string(), |g| g.to_string())
                ),
            ));
        }
    }
    Ok((heap, coverage, error))
}

/// Where and why a replayed call stopped with an error.
pub struct ReplayError {
    pub node: heaplab_syntax::ast::NodeId,
    pub span: heaplab_syntax::Span,
    pub message: String,
}

pub fn describe_expected(e: &Expected) -> String {
    match e {
        Expected::Returned(v) => format!("returned {v}"),
        Expected::Error(k) => k.keyword().to_string(),
    }
}

/// Classifies inputs against the method's `requires` with the logic's model checker. Pure
/// facts the logic does not read (a call of a `pure` method, an array cell or length:
/// [`heaplab_logic::code_facts`]) are evaluated by the interpreter on the concrete input.
pub struct PreChecker<'p> {
    mode: PreMode,
    defs: Cow<'p, heaplab_logic::Defs>,
    formula: Option<heaplab_logic::Formula>,
    /// Why the formula could not be used (several clauses, conversion error).
    problem: Option<String>,
    has_requires: bool,
    roots: Vec<String>,
    code: Option<CodeFacts<'p>>,
}

/// The code facts of a `requires`, and what evaluating them needs.
struct CodeFacts<'p> {
    program: &'p Program,
    info: &'p ProgramInfo,
    facts: Vec<heaplab_syntax::ast::Expr>,
    class: Option<&'p str>,
    params: Vec<&'p str>,
}

impl<'p> PreChecker<'p> {
    pub fn new(
        program: &'p Program,
        info: &'p ProgramInfo,
        target: &str,
        mode: PreMode,
    ) -> PreChecker<'p> {
        let (defs, _) = heaplab_logic::Defs::from_program(program);
        PreChecker::with_defs(program, info, target, mode, Cow::Owned(defs))
    }

    /// Like [`new`](Self::new) with the program's logic definitions already converted (an
    /// explorer's: converting them again computes the predicates' invariants again).
    pub fn with_defs(
        program: &'p Program,
        info: &'p ProgramInfo,
        target: &str,
        mode: PreMode,
        defs: Cow<'p, heaplab_logic::Defs>,
    ) -> PreChecker<'p> {
        let mut checker = PreChecker {
            mode,
            defs,
            formula: None,
            problem: None,
            has_requires: false,
            roots: Vec::new(),
            code: None,
        };
        let Some((class, decl)) = crate::find_function(program, target) else { return checker };
        checker.has_requires = !decl.requires.is_empty();
        let mut free = Vec::new();
        if let Some(c) = class {
            free.push(("this".to_string(), heaplab_logic::Sort::Ref(c.to_string())));
        }
        for p in &decl.params {
            match heaplab_logic::convert::sort_of_type(&p.ty) {
                Ok(s) => free.push((p.name.name.clone(), s)),
                Err(e) => checker.problem = Some(e.to_string()),
            }
        }
        checker.roots = free.iter().map(|(v, _)| v.clone()).collect();
        match decl.requires.as_slice() {
            [] => {}
            [one] => {
                let is_pred = |n: &str| checker.defs.preds.contains_key(n);
                let split = heaplab_logic::code_facts::split_code_facts(one, info, &is_pred);
                let logic_part = match &split {
                    Some((rest, facts)) => {
                        checker.code = Some(CodeFacts {
                            program,
                            info,
                            facts: facts.clone(),
                            class,
                            params: decl.params.iter().map(|p| p.name.name.as_str()).collect(),
                        });
                        rest
                    }
                    None => one,
                };
                let mut fresh = heaplab_logic::Fresh::new();
                match heaplab_logic::convert::convert_formula(
                    &checker.defs,
                    logic_part,
                    &free,
                    &mut fresh,
                ) {
                    Ok(f) => checker.formula = Some(f),
                    Err(e) => checker.problem = Some(e.to_string()),
                }
            }
            _ => checker.problem = Some("several `requires` clauses are not checked yet".into()),
        }
        checker
    }

    /// Whether the `requires`' code facts hold on `input` (true when it has none): `false`
    /// when one is false or fails (a null dereference while evaluating it, as at entry).
    pub fn code_facts_hold(&self, input: &Input) -> bool {
        let Some(code) = &self.code else { return true };
        let mut interp = Interpreter::new(code.program, code.info, Limits::default());
        interp.set_heap(input.heap.clone());
        let locals: Vec<(&str, Value)> =
            code.params.iter().copied().zip(input.args.iter().copied()).collect();
        code.facts.iter().all(|fact| {
            matches!(
                interp.eval_in(fact, input.receiver, code.class, locals.clone()),
                Ok(Outcome::Returned(Value::Bool(true)))
            )
        })
    }

    pub fn classify(&self, input: &Input) -> Validity {
        if !self.has_requires {
            return Validity::NoPrecondition;
        }
        if self.mode == PreMode::Assume {
            return Validity::Assumed;
        }
        let Some(formula) = &self.formula else {
            return Validity::Unknown(self.problem.clone().unwrap_or_default());
        };
        let mut values: Vec<Value> = Vec::new();
        if let Some(r) = input.receiver {
            values.push(Value::Ref(Some(r)));
        }
        values.extend(input.args.iter().copied());
        let model = input.heap.logic_model(self.roots.iter().map(String::as_str).zip(values));
        match heaplab_logic::satisfies(&self.defs, &model, formula, CheckLimits::default()) {
            Ok(Verdict::Holds) if !self.code_facts_hold(input) => Validity::Invalid,
            Ok(Verdict::Holds) => Validity::Valid,
            Ok(Verdict::Fails) => Validity::Invalid,
            Ok(Verdict::Unknown(why)) => Validity::Unknown(why),
            Err(e) => Validity::Unknown(e.to_string()),
        }
    }
}
