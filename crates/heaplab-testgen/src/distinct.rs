//! Distinct elements (issue 33, item 2): an `Object` element the path leaves unconstrained
//! becomes a fresh object of its own instead of `null`, so a test tells the elements apart (a
//! stack's `pop` is asserted to return *this* input object, not merely `null`).
//!
//! `sl`, `lazier#` and `symheap` leave an element reference they never split symbolic, and the
//! heap models concretize an unresolved reference as `null`. Which of those `null`s the path
//! really needs is decided here by the independent oracles rather than by the heap model: a
//! candidate input with fresh distinct objects in the `null` element slots (fields and
//! parameters declared `Object`) is kept only when the interpreter runs it down the same path
//! (the same statements, branch directions and kind of outcome, so every aliasing and nullness
//! decision of the path still holds) and the model checker classifies it as it classified the
//! original input (a valid input stays valid). All slots are tried at once, then one by one
//! (at most [`MAX_SLOTS`]); a slot the path needs `null` (a null test, a comparison with
//! another `null`) keeps it.

use crate::concretize::PreChecker;
use crate::{Expected, Input, Validity};
use heaplab_engine::{Coverage, Heap, Interpreter, Limits, ObjId, Outcome, Value};
use heaplab_syntax::ast::{Item, Program, TypeExpr};
use heaplab_syntax::types::ProgramInfo;
use std::borrow::Cow;

/// The most single slots tried after the all-at-once candidate fails: each costs one replay.
pub const MAX_SLOTS: usize = 8;

/// A `null` element slot of an input: a field of an input object or a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot<'a> {
    Field(ObjId, &'a str),
    Arg(usize),
}

/// A replayed test: its input and what the replay gave.
pub struct Filled {
    pub input: Input,
    pub expected: Expected,
    pub final_heap: Heap,
    pub coverage: Coverage,
    /// The replay's error: its node, place and message.
    pub error: Option<(heaplab_syntax::ast::NodeId, heaplab_syntax::Span, String)>,
    pub validity: Validity,
}

/// The parts of a program the filling needs: which fields and parameters hold elements.
pub struct Elements<'p> {
    program: &'p Program,
    info: &'p ProgramInfo,
    target: String,
    /// `(class, field)` declared `Object`.
    fields: Vec<(&'p str, &'p str)>,
    /// Indexes of the target's parameters declared `Object`.
    params: Vec<usize>,
    /// Classifies every input against `requires`, even when exploration assumed it.
    checker: PreChecker<'p>,
}

fn is_element(t: &TypeExpr) -> bool {
    matches!(t, TypeExpr::Class(c) if c.name == "Object")
}

impl Filled {
    /// The generated test, named and placed.
    pub fn into_test(self, name: String, path: usize, k_cut: bool) -> crate::GeneratedTest {
        crate::GeneratedTest {
            name,
            path,
            input: self.input,
            expected: self.expected,
            final_heap: self.final_heap,
            validity: self.validity,
            k_cut,
            error_node: self.error.as_ref().map(|e| e.0),
            error_at: self.error.map(|e| (e.1, e.2)),
            statements: self.coverage.statements.into_iter().collect(),
            branches: self.coverage.branches.into_iter().collect(),
        }
    }
}

impl<'p> Elements<'p> {
    /// The filling for the strategies that leave element references symbolic and concretize
    /// them as `null` (`sl`, `lazier#`, `symheap`); `None` for the others (`lazy` and `lazier`
    /// choose null or an object themselves) or without an element slot. `concolic` leaves the
    /// choices of elements its code never compares to its input generator, and fills through
    /// [`Elements::new`].
    pub fn for_strategy(
        strategy: heaplab_engine::symbolic::StrategyKind,
        program: &'p Program,
        info: &'p ProgramInfo,
        target: &str,
        defs: &'p heaplab_logic::Defs,
    ) -> Option<Self> {
        use heaplab_engine::symbolic::StrategyKind as S;
        match strategy {
            S::Sl | S::LazierSharp | S::Symheap => {
                Self::with_defs(program, info, target, Cow::Borrowed(defs))
            }
            _ => None,
        }
    }

    /// `None` when the target has no element slot (nothing to fill).
    pub fn new(program: &'p Program, info: &'p ProgramInfo, target: &str) -> Option<Self> {
        let defs = heaplab_logic::Defs::from_program(program).0;
        Self::with_defs(program, info, target, Cow::Owned(defs))
    }

    /// Like [`new`](Self::new) with the program's logic definitions already converted.
    fn with_defs(
        program: &'p Program,
        info: &'p ProgramInfo,
        target: &str,
        defs: Cow<'p, heaplab_logic::Defs>,
    ) -> Option<Self> {
        let mut fields = Vec::new();
        for item in &program.items {
            if let Item::Class(c) = item {
                for f in c.fields.iter().filter(|f| is_element(&f.ty)) {
                    fields.push((c.name.name.as_str(), f.name.name.as_str()));
                }
            }
        }
        let params: Vec<usize> = crate::find_function(program, target)
            .map(|(_, d)| {
                d.params.iter().enumerate().filter(|(_, p)| is_element(&p.ty)).map(|(i, _)| i)
            })
            .into_iter()
            .flatten()
            .collect();
        if fields.is_empty() && params.is_empty() {
            return None;
        }
        let mode = heaplab_engine::symbolic::PreMode::Ignore;
        let checker = PreChecker::with_defs(program, info, target, mode, defs);
        Some(Elements { program, info, target: target.to_string(), fields, params, checker })
    }

    fn slots<'i>(&'i self, input: &'i Input) -> Vec<Slot<'i>> {
        let mut out = Vec::new();
        for (id, o) in input.heap.objects() {
            for (class, field) in &self.fields {
                if o.class == *class && input.heap.field(id, field) == Some(Value::Ref(None)) {
                    out.push(Slot::Field(id, field));
                }
            }
        }
        for &i in &self.params {
            if input.args.get(i) == Some(&Value::Ref(None)) {
                out.push(Slot::Arg(i));
            }
        }
        out
    }

    /// The input with a fresh `Object` in each of `slots`, its `int` fields (the Java front
    /// end's hidden hash) 0: a filling is kept only if the path stays the same.
    fn with_fresh(&self, input: &Input, slots: &[Slot]) -> Input {
        let mut out = input.clone();
        let fields: Vec<(String, Value)> = self
            .program
            .items
            .iter()
            .find_map(|i| match i {
                Item::Class(c) if c.name.name == "Object" => Some(&c.fields),
                _ => None,
            })
            // Only `int` fields: a program of the language may declare its own `Object`
            // with fields of any type, which stay unset as on any fresh object.
            .map(|fs| {
                fs.iter()
                    .filter(|f| matches!(f.ty, TypeExpr::Int(_)))
                    .map(|f| (f.name.name.clone(), Value::Int(0)))
                    .collect()
            })
            .unwrap_or_default();
        for slot in slots {
            let fresh = out.heap.alloc("Object", fields.clone());
            match *slot {
                Slot::Field(id, field) => {
                    out.heap.set_field(id, field, Value::Ref(Some(fresh)));
                }
                Slot::Arg(i) => out.args[i] = Value::Ref(Some(fresh)),
            }
        }
        out
    }

    /// Runs `input` in the interpreter: the outcome, final heap and coverage, or `None` if the
    /// interpreter refused the call.
    fn run(&self, input: &Input) -> Option<(Outcome, Heap, Coverage)> {
        let mut interp = Interpreter::new(self.program, self.info, Limits::default());
        interp.set_heap(input.heap.clone());
        let (_, name) = heaplab_engine::symbolic::explorer::split_target(&self.target);
        let outcome = match input.receiver {
            Some(r) => interp.call_method(r, name, &input.args),
            None => interp.call_function(name, &input.args),
        }
        .ok()?;
        let coverage = interp.take_coverage();
        Some((outcome, interp.into_heap(), coverage))
    }

    /// The candidate, replayed, when it follows the original's path and keeps its validity.
    fn accept(
        &self,
        candidate: Input,
        expected: &Expected,
        covered: &Coverage,
        validity: &Validity,
    ) -> Option<Filled> {
        let (outcome, final_heap, coverage) = self.run(&candidate)?;
        let same_path =
            coverage.statements == covered.statements && coverage.branches == covered.branches;
        let (expected, error) = match (expected, outcome) {
            (Expected::Returned(_), Outcome::Returned(v)) => (Expected::Returned(v), None),
            (Expected::Error(k), Outcome::Error(e)) if e.kind == *k => {
                (Expected::Error(e.kind), Some((e.node, e.span, e.message)))
            }
            _ => return None,
        };
        let new_validity = self.checker.classify(&candidate);
        if !same_path || !same_class(validity, &new_validity) {
            return None;
        }
        let validity = validity.clone();
        Some(Filled { input: candidate, expected, final_heap, coverage, error, validity })
    }

    /// Fresh distinct elements in the `null` slots of a replayed test where the path allows;
    /// `None` when no slot could be filled (keep the test as it is).
    pub fn fill(&self, test: &Filled) -> Option<Filled> {
        let (input, expected, validity) = (&test.input, &test.expected, &test.validity);
        let covered = &test.coverage;
        let slots = self.slots(input);
        if slots.is_empty() {
            return None;
        }
        // The original's own classification against `requires` (exploration may have assumed
        // it): a candidate must get the same.
        let original = match validity {
            Validity::Assumed => self.checker.classify(input),
            v => v.clone(),
        };
        if !matches!(original, Validity::Valid | Validity::Invalid | Validity::NoPrecondition) {
            return None;
        }
        let filled = self.with_fresh(input, &slots);
        if let Some(f) = self.accept(filled, expected, covered, &original) {
            return Some(Filled { validity: validity.clone(), ..f });
        }
        // One slot at a time: keep each that leaves the path as it was.
        let mut kept: Vec<Slot> = Vec::new();
        let mut best = None;
        for slot in slots.iter().take(MAX_SLOTS) {
            let mut trial = kept.clone();
            trial.push(*slot);
            if let Some(f) =
                self.accept(self.with_fresh(input, &trial), expected, covered, &original)
            {
                kept = trial;
                best = Some(f);
            }
        }
        best.map(|f| Filled { validity: validity.clone(), ..f })
    }
}

/// Two classifications that agree on validity.
fn same_class(a: &Validity, b: &Validity) -> bool {
    a.is_valid() == b.is_valid()
        && matches!(b, Validity::Valid | Validity::Invalid | Validity::NoPrecondition)
}
