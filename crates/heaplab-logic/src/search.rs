//! Bounded unfolding of a formula into closed base heaps, and models built from them. Shared by
//! satisfiability ([`crate::sat`]) and enumeration ([`crate::enumerate`]).
//!
//! The [`Explorer`] keeps a worklist of partial unfoldings (breadth-first for satisfiability, so
//! the smallest model comes first; depth-first for enumeration, to keep memory low). It always
//! unfolds the leftmost predicate instance, which is complete: any derivation of a model can be
//! reordered to unfold leftmost-first. Each new heap is normalised (contradictions dropped) and
//! its pure part checked by [`crate::arith::decide`]; since unfolding only adds constraints, an
//! unsatisfiable partial heap can be pruned.
//!
//! Bounds: `max_depth` counts *recursive* unfoldings — an instance created by unfolding a
//! depth-`d` instance has depth `d + 1`, and an instance may only be replaced by a disjunct that
//! contains further instances while `d < max_depth` (disjuncts without instances are always
//! allowed). So depth `k` admits lists of length ≤ k and trees of height < k (the empty tree has
//! height −1), which is exactly Kiasan's `BST_k`. `max_objects` caps the points-to count and
//! `max_states` the work. Whenever a branch is cut by a bound, `bound_hit` records it, so an
//! empty result is only reported as a proof when nothing was cut.
//!
//! A base heap is then *closed*: models are Java-like heaps, so every reference that is not
//! allocated by the heap itself must be `null` or one of the heap's objects. Each way of doing
//! so (respecting the disequalities) is a separate closed base heap.

use crate::arith::{decide, PureResult, PureValue};
use crate::formula::{Defs, Formula, Fresh, Pure, Sort, SymHeap, Term, Var};
use crate::model::{Model, Object, Value};
use crate::normalize::{equality_classes, normalize};
use crate::unfold::unfold_at;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Bounds of the unfolding search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchBounds {
    /// Maximum nesting of recursive unfoldings (see the module docs). Default: 6.
    pub max_depth: u32,
    /// Maximum number of objects (points-to atoms) in a heap. Default: 12.
    pub max_objects: usize,
    /// Maximum number of partial heaps examined, and of heaps waiting in the worklist.
    /// Default: 50 000.
    pub max_states: usize,
}

impl Default for SearchBounds {
    fn default() -> Self {
        SearchBounds { max_depth: 6, max_objects: 12, max_states: 50_000 }
    }
}

/// The order in which partial unfoldings are explored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    BreadthFirst,
    DepthFirst,
}

/// A closed base heap with the sorts of all its variables.
#[derive(Clone, Debug)]
pub struct Base {
    pub heap: SymHeap,
    pub sorts: BTreeMap<Var, Sort>,
    /// The heap's pure part plus what its spatial part implies (see [`facts`]).
    pub facts: Vec<Pure>,
}

/// The pure part of `sh` together with the facts its points-to atoms imply: every allocated
/// cell is not `null`, and distinct points-to atoms are distinct cells. Normalisation already
/// checks these syntactically against the top-level equalities, so they are only added when
/// `always` is set (for the solver) or when the pure part has case splits (`||`, `!`) that could
/// merge two cells.
pub fn facts(sh: &SymHeap, always: bool) -> Vec<Pure> {
    let mut out = sh.pure.clone();
    if !always && !sh.pure.iter().any(|p| matches!(p, Pure::Or(_) | Pure::Not(_))) {
        return out;
    }
    for (i, a) in sh.points_to.iter().enumerate() {
        out.push(Pure::ne(a.ptr.clone(), Term::Null));
        for b in &sh.points_to[i + 1..] {
            out.push(Pure::ne(a.ptr.clone(), b.ptr.clone()));
        }
    }
    out
}

/// A stepper over the closed base heaps of a formula.
pub struct Explorer<'a> {
    defs: &'a Defs,
    free: Vec<(Var, Sort)>,
    bounds: SearchBounds,
    order: Order,
    work: VecDeque<SymHeap>,
    ready: VecDeque<Base>,
    fresh: Fresh,
    /// Some branch was cut by a bound (depth, objects or states).
    pub bound_hit: bool,
    /// Some partial heap's pure part could not be decided in Rust and was kept.
    pub undecided: bool,
    /// Partial heaps examined so far.
    pub states: usize,
}

impl<'a> Explorer<'a> {
    pub fn new(
        defs: &'a Defs,
        formula: &Formula,
        bounds: SearchBounds,
        order: Order,
    ) -> Explorer<'a> {
        let mut fresh = Fresh::new();
        let mut work = VecDeque::new();
        for d in &formula.disjuncts {
            fresh.avoid(d.all_vars().iter());
            fresh.avoid(d.exists.iter().map(|(v, _)| v));
            if let Some(d) = normalize(d.clone()) {
                work.push_back(d);
            }
        }
        Explorer {
            defs,
            free: formula.free.clone(),
            bounds,
            order,
            work,
            ready: VecDeque::new(),
            fresh,
            bound_hit: false,
            undecided: false,
            states: 0,
        }
    }

    fn sorts(&self, sh: &SymHeap) -> BTreeMap<Var, Sort> {
        let mut s: BTreeMap<Var, Sort> = self.free.iter().cloned().collect();
        s.extend(sh.exists.iter().cloned());
        s
    }

    /// The next closed base heap whose pure part is not known to be unsatisfiable, or `None`
    /// when the (bounded) search is over.
    pub fn next_base(&mut self) -> Option<Base> {
        loop {
            if let Some(b) = self.ready.pop_front() {
                return Some(b);
            }
            let sh = match self.order {
                Order::BreadthFirst => self.work.pop_front(),
                Order::DepthFirst => self.work.pop_back(),
            }?;
            self.states += 1;
            if self.states > self.bounds.max_states {
                self.bound_hit = true;
                self.work.clear();
                return None;
            }
            if sh.is_base() {
                for heap in close(&sh, &self.sorts(&sh)) {
                    let sorts = self.sorts(&heap);
                    let facts = facts(&heap, false);
                    match decide(&facts, &sorts) {
                        PureResult::Unsat => {}
                        _ => self.ready.push_back(Base { heap, sorts, facts }),
                    }
                }
                continue;
            }
            let depth = sh.preds[0].depth;
            let mut children = Vec::new();
            for child in unfold_at(self.defs, &sh, 0, &mut self.fresh) {
                let recursive = child.preds.iter().any(|p| p.depth > depth);
                if recursive && depth >= self.bounds.max_depth {
                    self.bound_hit = true;
                    continue;
                }
                if child.points_to.len() > self.bounds.max_objects {
                    self.bound_hit = true;
                    continue;
                }
                let Some(child) = normalize(child) else { continue };
                if child.points_to.len() > self.bounds.max_objects {
                    self.bound_hit = true;
                    continue;
                }
                match decide(&facts(&child, false), &self.sorts(&child)) {
                    PureResult::Unsat => continue,
                    PureResult::Unknown => self.undecided = true,
                    PureResult::Sat(_) => {}
                }
                children.push(child);
            }
            if self.order == Order::DepthFirst {
                children.reverse();
            }
            // The worklist is capped too: breadth-first search over trees grows exponentially.
            if self.work.len() + children.len() > self.bounds.max_states {
                self.bound_hit = true;
                children.truncate(self.bounds.max_states.saturating_sub(self.work.len()));
            }
            self.work.extend(children);
        }
    }
}

/// All closures of a base heap: each unallocated reference class becomes `null` or an allocated
/// object of a compatible class.
pub fn close(sh: &SymHeap, sorts: &BTreeMap<Var, Sort>) -> Vec<SymHeap> {
    let Some(mut uf) = equality_classes(sh) else { return Vec::new() };
    let roots: Vec<(Term, String)> =
        sh.points_to.iter().map(|p| (uf.find(&p.ptr), p.class.clone())).collect();
    let mut vars = BTreeSet::new();
    for v in sh.all_vars() {
        vars.insert(v);
    }
    let mut open: Vec<(Term, String)> = Vec::new();
    for v in vars {
        let Some(Sort::Ref(class)) = sorts.get(&v) else { continue };
        let r = uf.find(&Term::Var(v.clone()));
        if r == Term::Null
            || roots.iter().any(|(t, _)| *t == r)
            || open.iter().any(|(t, _)| *t == r)
        {
            continue;
        }
        open.push((r, class.clone()));
    }
    let mut out = vec![sh.clone()];
    for (rep, class) in open {
        let mut next = Vec::new();
        for h in &out {
            let mut choices = vec![Term::Null];
            choices.extend(roots.iter().filter(|(_, c)| *c == class).map(|(t, _)| t.clone()));
            for c in choices {
                let mut h2 = h.clone();
                h2.pure.push(Pure::eq(rep.clone(), c));
                if let Some(h2) = normalize(h2) {
                    next.push(h2);
                }
            }
            if next.len() > 10_000 {
                break;
            }
        }
        out = next;
    }
    out
}

/// Builds the concrete model of a closed base heap from a pure assignment.
pub fn build_model(
    base: &Base,
    free: &[(Var, Sort)],
    assignment: &BTreeMap<Var, PureValue>,
) -> Option<Model> {
    let sh = &base.heap;
    let loc_of = |t: &Term| -> Option<PureValue> {
        match t {
            Term::Null => Some(PureValue::Null),
            Term::Var(v) => assignment.get(v).cloned(),
            _ => None,
        }
    };
    let mut objects_by_loc: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, pt) in sh.points_to.iter().enumerate() {
        match loc_of(&pt.ptr)? {
            PureValue::Loc(l) => {
                objects_by_loc.insert(l, i);
            }
            _ => return None,
        }
    }
    let value = |t: &Term, sort: Option<&Sort>| -> Option<Value> {
        match sort {
            Some(Sort::Ref(_)) => match loc_of(t)? {
                PureValue::Null => Some(Value::Null),
                PureValue::Loc(l) => objects_by_loc.get(&l).map(|o| Value::Ref(*o)),
                _ => None,
            },
            Some(Sort::Bool) => match t {
                Term::Bool(b) => Some(Value::Bool(*b)),
                Term::Var(v) => match assignment.get(v) {
                    Some(PureValue::Bool(b)) => Some(Value::Bool(*b)),
                    _ => Some(Value::Bool(false)),
                },
                _ => None,
            },
            _ => eval_int(t, assignment).map(Value::Int),
        }
    };
    let mut objects = Vec::new();
    for pt in &sh.points_to {
        let mut fields = Vec::new();
        for (f, t) in &pt.fields {
            let sort = base_field_sort(base, t);
            fields.push((f.clone(), value(t, sort.as_ref())?));
        }
        objects.push(Object { class: pt.class.clone(), fields });
    }
    let mut store = BTreeMap::new();
    for (v, s) in free {
        store.insert(v.clone(), value(&Term::Var(v.clone()), Some(s))?);
    }
    Some(Model { objects, store })
}

/// The sort of a field term: from the variable's sort, else by shape.
fn base_field_sort(base: &Base, t: &Term) -> Option<Sort> {
    match t {
        Term::Var(v) => base.sorts.get(v).cloned(),
        Term::Null => Some(Sort::Ref(String::new())),
        Term::Bool(_) => Some(Sort::Bool),
        _ => Some(Sort::Int),
    }
}

pub(crate) fn eval_int(t: &Term, a: &BTreeMap<Var, PureValue>) -> Option<i64> {
    match t {
        Term::Var(v) => match a.get(v) {
            Some(PureValue::Int(i)) => Some(*i),
            None => Some(0),
            _ => None,
        },
        Term::Int(i) => Some(*i),
        Term::Add(x, y) => eval_int(x, a)?.checked_add(eval_int(y, a)?),
        Term::Sub(x, y) => eval_int(x, a)?.checked_sub(eval_int(y, a)?),
        Term::Mul(x, y) => eval_int(x, a)?.checked_mul(eval_int(y, a)?),
        Term::Neg(x) => eval_int(x, a)?.checked_neg(),
        Term::Null | Term::Bool(_) => None,
    }
}
