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
//! A base heap is then *closed*: every reference that is not allocated by the heap itself is
//! `null`, one of the heap's objects, or a location outside the footprint (dangling, as in the
//! standard semantics of separation logic: a formula describes exactly its footprint, and a
//! reference may point anywhere else). Each way of doing so (respecting the disequalities) is a
//! separate closed base heap. In a model a dangling location becomes an object the formula says
//! nothing about, with arbitrary field values (the defaults: `null`, 0, false), listed in
//! [`Model::unclaimed`] — JSF's fallback to lazy initialization for test inputs.

use crate::arith::{decide_counted, PureResult, PureValue};
use crate::formula::{Defs, Formula, Fresh, Pure, Sort, SymHeap, Term, Var};
use crate::halt::{Halt, Interrupt};
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

/// Which bounds cut the search: the unfolding depth (deeper structures were not looked at), or
/// the caps on objects and work (the search gave up).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cuts {
    pub depth: bool,
    pub caps: bool,
}

/// A bound that cut a branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The unfolding depth (`max_depth`).
    Depth,
    /// The object count (`max_objects`).
    Objects,
    /// The work limit (`max_states`).
    States,
    /// The caller's bound (time, memory): see [`Explorer::halted`].
    Stopped,
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
    /// The closures of the base heap being handed out, one per [`next_base`](Self::next_base).
    closing: Option<std::iter::Take<Closures>>,
    fresh: Fresh,
    /// Some branch was cut by a bound (depth, objects or states).
    pub bound_hit: bool,
    /// Which bounds cut a branch.
    pub cuts: Cuts,
    /// Some partial heap's pure part could not be decided in Rust and was kept.
    pub undecided: bool,
    /// Partial heaps examined so far.
    pub states: usize,
    /// Every bound that cut a branch, in the order first met.
    pub cut_by: Vec<Cut>,
    /// Asked at every state; a bound it names stops the search (a cut by [`Cut::Stopped`]).
    interrupt: Option<&'a mut Interrupt<'a>>,
    /// The caller's bound that stopped the search.
    pub halted: Option<Halt>,
    /// Case splits made by the pure decision procedure so far, and the cap on them (a cut by
    /// [`Cut::States`] when passed): one state's check may split exponentially often.
    pub splits: usize,
    split_cap: Option<usize>,
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
            closing: None,
            fresh,
            bound_hit: false,
            cuts: Cuts::default(),
            undecided: false,
            states: 0,
            cut_by: Vec::new(),
            interrupt: None,
            halted: None,
            splits: 0,
            split_cap: None,
        }
    }

    /// Caps the case splits of the pure checks (see [`Explorer::splits`]).
    pub fn with_split_cap(mut self, cap: Option<usize>) -> Explorer<'a> {
        self.split_cap = cap;
        self
    }

    /// [`decide_counted`], charged to the split count.
    fn decide(&mut self, facts: &[Pure], sorts: &BTreeMap<Var, Sort>) -> PureResult {
        let (res, n) = decide_counted(facts, sorts);
        self.splits += n;
        res
    }

    fn over_split_cap(&self) -> bool {
        self.split_cap.is_some_and(|cap| self.splits > cap)
    }

    /// Drops the remaining closures of the current base heap: after an undecided closure the
    /// others (which differ only in reference equalities) are almost always undecided too, and
    /// their number is exponential. The search then cannot claim `Unsat`, only `Unknown`.
    pub fn skip_closures(&mut self) {
        self.closing = None;
    }

    /// Asks `interrupt` at every state; when it names a bound, the search ends as cut by
    /// [`Cut::Stopped`] and [`Explorer::halted`] says which.
    pub fn with_interrupt(mut self, interrupt: &'a mut Interrupt<'a>) -> Explorer<'a> {
        self.interrupt = Some(interrupt);
        self
    }

    /// The caller's bound, if it fired now.
    fn interrupted(&mut self) -> bool {
        if self.halted.is_none() {
            self.halted = self.interrupt.as_mut().and_then(|i| i());
        }
        self.halted.is_some()
    }

    fn cut(&mut self, c: Cut) {
        self.bound_hit = true;
        match c {
            Cut::Depth => self.cuts.depth = true,
            _ => self.cuts.caps = true,
        }
        if !self.cut_by.contains(&c) {
            self.cut_by.push(c);
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
            if self.over_split_cap() {
                self.cut(Cut::States);
                self.work.clear();
                self.closing = None;
                return None;
            }
            if let Some(heap) = self.closing.as_mut().and_then(Iterator::next) {
                // Each closure is work too: their number is exponential in the open references.
                self.states += 1;
                if self.states > self.bounds.max_states {
                    self.cut(Cut::States);
                    self.work.clear();
                    self.closing = None;
                    return None;
                }
                if self.interrupted() {
                    self.cut(Cut::Stopped);
                    self.work.clear();
                    self.closing = None;
                    return None;
                }
                let sorts = self.sorts(&heap);
                let facts = facts(&heap, false);
                if self.decide(&facts, &sorts) != PureResult::Unsat {
                    return Some(Base { heap, sorts, facts });
                }
                continue;
            }
            self.closing = None;
            let sh = match self.order {
                Order::BreadthFirst => self.work.pop_front(),
                Order::DepthFirst => self.work.pop_back(),
            }?;
            self.states += 1;
            if self.states > self.bounds.max_states {
                self.cut(Cut::States);
                self.work.clear();
                return None;
            }
            if self.interrupted() {
                self.cut(Cut::Stopped);
                self.work.clear();
                return None;
            }
            if sh.is_base() {
                // A base heap whose pure part is already contradictory has no closure: decide
                // it once here rather than once per closure (their number is exponential in
                // the open references).
                let sorts = self.sorts(&sh);
                if self.decide(&facts(&sh, true), &sorts) == PureResult::Unsat {
                    continue;
                }
                self.closing = Some(Closures::new(&sh, &sorts).take(MAX_CLOSURES));
                continue;
            }
            let depth = sh.preds[0].depth;
            let mut children = Vec::new();
            for child in unfold_at(self.defs, &sh, 0, &mut self.fresh) {
                let recursive = child.preds.iter().any(|p| p.depth > depth);
                if child.points_to.len() > self.bounds.max_objects {
                    self.cut(Cut::Objects);
                    continue;
                }
                let Some(child) = normalize(child) else { continue };
                if child.points_to.len() > self.bounds.max_objects {
                    self.cut(Cut::Objects);
                    continue;
                }
                // Each folded instance stands for its invariant (`-1 <= h`), so a path that
                // forces an argument outside it is cut here, not at the depth bound.
                let mut pure = facts(&child, false);
                for app in &child.preds {
                    pure.extend(crate::invariant::instance(self.defs, &self.defs.invariants, app));
                }
                let sorts = self.sorts(&child);
                match self.decide(&pure, &sorts) {
                    PureResult::Unsat => continue,
                    PureResult::Unknown => self.undecided = true,
                    PureResult::Sat(_) => {}
                }
                // The depth bound cuts only a child that could still hold: a contradiction is
                // a proof, a cut is not.
                if recursive && depth >= self.bounds.max_depth {
                    self.cut(Cut::Depth);
                    continue;
                }
                children.push(child);
            }
            if self.order == Order::DepthFirst {
                children.reverse();
            }
            // The worklist is capped too: breadth-first search over trees grows exponentially.
            if self.work.len() + children.len() > self.bounds.max_states {
                self.cut(Cut::States);
                children.truncate(self.bounds.max_states.saturating_sub(self.work.len()));
            }
            self.work.extend(children);
        }
    }
}

/// The closures of one base heap that are looked at, at most.
const MAX_CLOSURES: usize = 10_000;

/// All closures of a base heap: each unallocated reference class becomes `null` or an allocated
/// object of a compatible class (at most 10 000 of them, the first ones [`Closures`] yields).
pub fn close(sh: &SymHeap, sorts: &BTreeMap<Var, Sort>) -> Vec<SymHeap> {
    Closures::new(sh, sorts).take(MAX_CLOSURES).collect()
}

/// The closures of a base heap one at a time, in the order [`close`] lists them: the first open
/// reference varies slowest, and `null` comes before the heap's cells. Choices are made by
/// backtracking, so a choice that contradicts the heap (normalisation fails) cuts every closure
/// below it, and a caller that needs only the first closure (satisfiability) never builds the
/// others — their number is exponential in the open references.
pub struct Closures {
    /// Each open reference class (its representative) with its candidate values.
    open: Vec<(Term, Vec<Choice>)>,
    /// The heap's allocated cells (representatives), which a dangling location differs from.
    cells: Vec<Term>,
    /// The partial closures on the current branch: `stack[i]` has the first `i` choices made,
    /// and `next[i]` is the next choice to try for reference `i`.
    stack: Vec<SymHeap>,
    next: Vec<usize>,
}

impl Closures {
    pub fn new(sh: &SymHeap, sorts: &BTreeMap<Var, Sort>) -> Closures {
        let Some(mut uf) = equality_classes(sh) else {
            return Closures {
                open: Vec::new(),
                cells: Vec::new(),
                stack: Vec::new(),
                next: Vec::new(),
            };
        };
        let roots: Vec<(Term, String)> =
            sh.points_to.iter().map(|p| (uf.find(&p.ptr), p.class.clone())).collect();
        let vars: BTreeSet<Var> = sh.all_vars().into_iter().collect();
        let mut open: Vec<(Term, Vec<Choice>)> = Vec::new();
        for v in vars {
            let Some(Sort::Ref(class)) = sorts.get(&v) else { continue };
            let r = uf.find(&Term::Var(v.clone()));
            if r == Term::Null
                || roots.iter().any(|(t, _)| *t == r)
                || open.iter().any(|(t, _)| *t == r)
            {
                continue;
            }
            let mut choices = vec![Choice::Is(Term::Null)];
            choices.extend(
                roots.iter().filter(|(_, c)| *c == *class).map(|(t, _)| Choice::Is(t.clone())),
            );
            choices.push(Choice::Dangling);
            open.push((r, choices));
        }
        let cells = roots.into_iter().map(|(t, _)| t).collect();
        Closures { open, cells, stack: vec![sh.clone()], next: vec![0] }
    }
}

/// What an open reference is closed to: `null` or a cell of the heap, or a location outside
/// the footprint (different from `null` and from every cell).
enum Choice {
    Is(Term),
    Dangling,
}

impl Iterator for Closures {
    type Item = SymHeap;

    fn next(&mut self) -> Option<SymHeap> {
        loop {
            let depth = self.stack.len().checked_sub(1)?;
            if depth == self.open.len() {
                // A complete closure: hand it out and backtrack past it.
                self.next.pop();
                return self.stack.pop();
            }
            let (rep, choices) = &self.open[depth];
            let i = self.next[depth];
            if i >= choices.len() {
                self.stack.pop();
                self.next.pop();
                continue;
            }
            self.next[depth] += 1;
            let mut h = self.stack[depth].clone();
            match &choices[i] {
                Choice::Is(t) => h.pure.push(Pure::eq(rep.clone(), t.clone())),
                Choice::Dangling => {
                    h.pure.push(Pure::ne(rep.clone(), Term::Null));
                    for c in &self.cells {
                        h.pure.push(Pure::ne(rep.clone(), c.clone()));
                    }
                }
            }
            if let Some(h) = normalize(h) {
                self.stack.push(h);
                self.next.push(0);
            }
        }
    }
}

/// Whether `class` names an array type (`int[]`, `Node[]`): its sort is a reference the logic
/// cannot look into.
fn is_array_class(class: &str) -> bool {
    class.ends_with("[]")
}

/// Builds the concrete model of a closed base heap from a pure assignment. A reference whose
/// location is no cell of the heap is dangling: it gets an object of its class outside the
/// footprint, with default field values (one object per location), listed in
/// [`Model::unclaimed`].
pub fn build_model(
    defs: &Defs,
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
    // Dangling locations, in order of first use (fields, then the store).
    let mut dangling: Vec<(usize, String)> = Vec::new();
    let ref_terms = sh
        .points_to
        .iter()
        .flat_map(|pt| pt.fields.iter().map(|(_, t)| (t.clone(), base_field_sort(base, t))))
        .chain(free.iter().map(|(v, s)| (Term::Var(v.clone()), Some(s.clone()))));
    for (t, sort) in ref_terms {
        let (Some(Sort::Ref(class)), Some(PureValue::Loc(l))) = (sort, loc_of(&t)) else {
            continue;
        };
        if let std::collections::btree_map::Entry::Vacant(e) = objects_by_loc.entry(l) {
            if !defs.classes.contains_key(&class) && !is_array_class(&class) {
                return None;
            }
            e.insert(sh.points_to.len() + dangling.len());
            dangling.push((l, class));
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
    let mut unclaimed = BTreeSet::new();
    for (_, class) in &dangling {
        unclaimed.insert(objects.len());
        // A formula cannot look into an array (`T[]`): one outside the footprint is empty, and
        // a caller that knows more (the concolic preprocessing's cells) fills it in.
        let object = match defs.classes.get(class) {
            Some(fields) => Object::with_defaults(class, fields),
            None if is_array_class(class) => Object { class: class.clone(), fields: Vec::new() },
            None => return None,
        };
        objects.push(object);
    }
    let mut store = BTreeMap::new();
    for (v, s) in free {
        store.insert(v.clone(), value(&Term::Var(v.clone()), Some(s))?);
    }
    Some(Model { objects, store, unclaimed })
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
