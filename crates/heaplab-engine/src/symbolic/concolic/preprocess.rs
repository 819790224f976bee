//! CSF's `preprocess` (Algorithm 2, digest seed-001-002 §4.3): a path condition whose heap
//! accesses are field-access paths becomes separation-logic formulas over the precondition,
//! free of field accesses, by lazily unfolding the predicate instance that covers each accessed
//! cell.
//!
//! The path condition of a concolic node is a symbolic state of the guided run: its input heap
//! (roots, then each input object's first-read fields — the access paths `this.root.left.key`
//! the run used, with the null / alias / object decisions lazy initialization made) and its pure
//! path condition over the values read. For each disjunct of the precondition the accesses are
//! resolved in order, starting from the roots (the precondition's free variables): an access
//! `v.f` whose `v` (or an alias of it, by the heap's equalities) has a points-to reads that
//! points-to's field term (Alg. 2 lines 8–9); one whose `v` is an argument of a predicate
//! instance unfolds that instance into each of its disjuncts and starts again on each (lines
//! 10–14, the first argument preferred, as CSF's artifact treats it as the root); one whose `v`
//! is null, or that nothing covers, drops the formula (lines 6–7 and 15–16), except a field of
//! an object outside every footprint: one whose class no points-to claims (a `Comparable`
//! element, a `Comparator`), a root no atom mentions, or an object a field of such an object
//! holds. Its fields are free ([`Unclaimed`]), as HeapLab's formula semantics gives such objects
//! arbitrary values; a reference field is a free location, so the model chooses null, an
//! object met before or a new object outside the footprint, lazy initialization's three
//! choices. An input array is such an object too (formulas cannot index arrays), its length and
//! read cells free ([`ArrayCells`], at most `max_array_len` long). The path condition
//! is then conjoined with every input variable replaced by the term of its cell. Writes need no
//! treatment here: the executor keeps the input journal (values as first read) apart from the
//! current fields, which is what Alg. 2's fresh names for assigned fields achieve.
//!
//! The unfoldings are bounded (`max_unfold` along one formula), objects outside the footprint
//! by lazy initialization's `k` (their depth from a root); formulas cut by a bound are counted,
//! never guessed.
//!
//! A method without `requires` is the case where this matters most (issue 30): its precondition
//! is `emp` over the roots, so every input object is outside the footprint and a node's formula
//! is the guided run's own input heap — each null / alias / fresh choice it made at a first
//! access, with the values read. CSF takes such a method's precondition as unconstrained; the
//! loop thus negates the heap-shape choices like any branch and reaches the shapes `lazy`
//! reaches at the same `k`, where CSF's Algorithm 2 read literally (nothing covers `this.head`)
//! would prune every node that needs an input object and leave the method on the empty heap.

pub use super::outside::{ArrayCells, Unclaimed};
use crate::symbolic::state::{ObjIdx, Origin, RefResolution, SValue, State, MAX_INPUT_ARRAY_LEN};
use crate::symbolic::term::{Node, Sort as SymSort, Sym};
use heaplab_logic::formula::{CmpOp, Pure, Term};
use heaplab_logic::unfold::unfold_at;
use heaplab_logic::{Defs, Formula, Fresh, Model, Sort, SymHeap};
use std::collections::BTreeSet;
use std::collections::HashMap;

/// What [`preprocess`] produced.
#[derive(Clone, Debug, Default)]
pub struct Preprocessed {
    /// Formulas without field accesses, each one disjunct over the precondition's free
    /// variables (and the [`Unclaimed`] names it adds); the node is feasible if one of them is
    /// satisfiable.
    pub formulas: Vec<Solvable>,
    /// Predicate instances unfolded.
    pub unfolds: usize,
    /// Formulas dropped: an access through null or through nothing that covers it.
    pub dropped: usize,
    /// Formulas left when the unfolding bound was reached.
    pub cut: usize,
    /// Formulas whose path condition has an operation the logic cannot express (`/` or `%` by
    /// a non-constant).
    pub untranslatable: usize,
    /// Formulas dropped because an object outside the footprint lies deeper than `k` on its
    /// chain of references from a root (lazy initialization's bound, see [`preprocess`]).
    pub k_cut: usize,
}

/// One formula of a node, with the cells of objects outside the precondition's footprint that
/// the path read.
#[derive(Clone, Debug)]
pub struct Solvable {
    pub formula: Formula,
    pub unclaimed: Vec<Unclaimed>,
    pub arrays: Vec<ArrayCells>,
}

impl Solvable {
    /// Writes what the formula's own model cannot hold into `model`'s objects outside the
    /// footprint: the fields of [`Unclaimed`] objects, and the length and cells of arrays.
    pub fn fill(&self, model: &mut Model) {
        Unclaimed::fill(model, &self.unclaimed);
        ArrayCells::fill(model, &self.arrays);
    }
}

/// Algorithm 2 over every disjunct of `pre` (whose free variables are the roots, in order).
/// Input arrays are at most `max_array_len` long.
///
/// Objects outside the precondition's footprint are bounded by `k` as lazy initialization
/// bounds its input heap (Kiasan's chain budget): a root has depth 0, the object a field of a
/// depth-d object holds has depth d + 1, and a node whose path made an object outside the
/// footprint at depth beyond `k` is cut (counted in [`Preprocessed::k_cut`]). Without a
/// `requires` every input object is outside the footprint, so the loop explores the same heap
/// shapes `lazy` does at the same `k`; objects a predicate covers are bounded by `max_unfold`
/// instead, as before.
pub fn preprocess(
    defs: &Defs,
    pre: &Formula,
    st: &State,
    max_unfold: u32,
    max_array_len: i64,
    k: u32,
) -> Preprocessed {
    let mut fresh = Fresh::new();
    for (v, _) in &pre.free {
        fresh.avoid([v]);
    }
    for sh in &pre.disjuncts {
        fresh.avoid(sh.all_vars().iter());
    }
    let run = |open_fields: bool, fresh: &mut Fresh| {
        let mut out = Preprocessed::default();
        for sh in &pre.disjuncts {
            let bounds = Bounds { unfold: max_unfold, array_len: max_array_len, k, open_fields };
            resolve(defs, pre, sh.clone(), st, bounds, fresh, &mut out);
        }
        out
    };
    let strict = run(false, &mut fresh);
    if !strict.formulas.is_empty() || strict.dropped == 0 {
        return strict;
    }
    // Every formula was dropped, some because the path read a field of an object that a
    // field of the footprint holds but no atom claims (`requires this -> C { s: s0 } & …`
    // leaves `s0` open). Algorithm 2 read literally prunes the node, so no input ever reaches
    // the outcomes past that read (an overflow on `this.s.j`); the formula semantics lets such
    // an object lie outside the footprint, so the node is tried once more with it there. Only
    // as a fallback: where a strict formula exists, the inputs stay the ones Algorithm 2 gives.
    let open = run(true, &mut fresh);
    if open.formulas.is_empty() {
        strict
    } else {
        open
    }
}

enum Step {
    Done(Box<Solvable>),
    Unfold(usize),
    Dropped,
    Untranslatable,
    KCut,
}

/// The bounds of one preprocessing: unfoldings left along a formula, the longest input array,
/// the deepest object outside the footprint.
#[derive(Clone, Copy)]
struct Bounds {
    unfold: u32,
    array_len: i64,
    k: u32,
    /// An uncovered variable of the formula (an open field value) is an object outside the
    /// footprint rather than a reason to drop the formula (see [`preprocess`]).
    open_fields: bool,
}

fn resolve(
    defs: &Defs,
    pre: &Formula,
    sh: SymHeap,
    st: &State,
    bounds: Bounds,
    fresh: &mut Fresh,
    out: &mut Preprocessed,
) {
    match translate(defs, &sh, pre, st, fresh, bounds) {
        Step::Done(solvable) => out.formulas.push(*solvable),
        Step::Dropped => out.dropped += 1,
        Step::Untranslatable => out.untranslatable += 1,
        Step::KCut => out.k_cut += 1,
        Step::Unfold(_) if bounds.unfold == 0 => out.cut += 1,
        Step::Unfold(idx) => {
            for part in unfold_at(defs, &sh, idx, fresh) {
                out.unfolds += 1;
                let inner = Bounds { unfold: bounds.unfold - 1, ..bounds };
                resolve(defs, pre, part, st, inner, fresh, out);
            }
        }
    }
}

/// The accesses of `st` resolved in `sh`, or the instance to unfold first.
fn translate(
    defs: &Defs,
    sh: &SymHeap,
    pre: &Formula,
    st: &State,
    fresh: &mut Fresh,
    bounds: Bounds,
) -> Step {
    // The classes a points-to of the heap or of a predicate's definition may claim: an object
    // of any other class is outside every footprint.
    let claimed: BTreeSet<&str> = sh
        .points_to
        .iter()
        .chain(defs.preds.values().flat_map(|p| p.body.iter().flat_map(|b| &b.points_to)))
        .map(|p| p.class.as_str())
        .collect();
    let mut tr = Tr {
        sh,
        defs,
        max_array_len: bounds.array_len,
        k: bounds.k,
        open_fields: bounds.open_fields,
        claimed,
        roots: pre.free.iter().map(|(n, _)| n.clone()).collect(),
        free: Vec::new(),
        unclaimed: Vec::new(),
        arrays: Vec::new(),
        pending: Vec::new(),
        outside: Vec::new(),
        outside_refs: Vec::new(),
        objects: HashMap::new(),
        met: Vec::new(),
        vars: HashMap::new(),
        facts: Vec::new(),
        fresh,
        exists: Vec::new(),
        memo: HashMap::new(),
        divs: HashMap::new(),
    };
    for (sv, (name, _)) in st.roots.iter().zip(&pre.free) {
        if let Err(step) = tr.pair(st, sv, Term::var(name.clone())) {
            return step;
        }
    }
    if let Err(step) = tr.array_cells(st) {
        return step;
    }
    for c in &st.pc {
        match tr.pure_of(c) {
            Some(p) => tr.facts.push(p),
            None => return Step::Untranslatable,
        }
    }
    let mut done = sh.clone();
    done.pure.extend(tr.facts);
    done.exists.extend(tr.exists);
    let mut free = pre.free.clone();
    free.extend(tr.free);
    let formula = Formula { free, disjuncts: vec![done] };
    Step::Done(Box::new(Solvable { formula, unclaimed: tr.unclaimed, arrays: tr.arrays }))
}

struct Tr<'a> {
    sh: &'a SymHeap,
    defs: &'a Defs,
    /// The longest input array (see `ConcolicConfig::max_array_len` in heaplab-testgen).
    max_array_len: i64,
    /// The deepest object outside the footprint (see [`preprocess`]).
    k: u32,
    /// See [`Bounds::open_fields`].
    open_fields: bool,
    /// Classes some points-to may claim (see [`translate`]).
    claimed: BTreeSet<&'a str>,
    /// The precondition's free variables (the roots).
    roots: Vec<String>,
    /// Free variables added for objects outside the footprint and their fields.
    free: Vec<(String, Sort)>,
    unclaimed: Vec<Unclaimed>,
    arrays: Vec<ArrayCells>,
    /// Input arrays met (their object, and the index into `arrays`) with how many of their
    /// input cells were translated: a cell's index may use a value read after the array.
    pending: Vec<(ObjIdx, usize, usize)>,
    /// The objects outside the footprint met so far: their term and free variable.
    outside: Vec<(Term, String)>,
    /// The free variables holding reference fields of objects outside the footprint: what
    /// they point to is outside it too (nothing in the formula claims it).
    outside_refs: Vec<Term>,
    objects: HashMap<ObjIdx, Term>,
    /// The terms of the input objects met so far, in order (`objects` is for lookups only:
    /// the formula's facts must not depend on a hash order).
    met: Vec<Term>,
    vars: HashMap<u32, Term>,
    facts: Vec<Pure>,
    fresh: &'a mut Fresh,
    /// Quotients and remainders introduced for `/` and `%` by constants.
    exists: Vec<(String, Sort)>,
    /// Terms already translated (a wrapped value recurs in many conditions).
    memo: HashMap<Sym, Term>,
    /// Quotient and remainder of each division, by its dividend and divisor.
    divs: HashMap<(Sym, Sym), (Term, Term)>,
}

impl Tr<'_> {
    /// The state's value `sv` is the formula's `term`.
    fn pair(&mut self, st: &State, sv: &SValue, term: Term) -> Result<(), Step> {
        match sv {
            SValue::Int(s) | SValue::Bool(s) => match s.node() {
                Node::Var(id, _) => match self.vars.get(id) {
                    Some(t) => self.facts.push(Pure::eq(term, t.clone())),
                    None => {
                        self.vars.insert(*id, term);
                    }
                },
                _ => match self.term_of(s) {
                    Some(t) => self.facts.push(Pure::eq(term, t)),
                    None => return Err(Step::Untranslatable),
                },
            },
            SValue::Null => self.facts.push(Pure::eq(term, Term::Null)),
            SValue::Obj(o) => {
                if let Some(t) = self.objects.get(o) {
                    self.facts.push(Pure::eq(term, t.clone()));
                    return Ok(());
                }
                let Some(obj) = st.heap.get(*o) else { return Err(Step::Dropped) };
                if let Origin::Input { budget } = obj.origin {
                    let depth = i64::from(super::RUN_BUDGET) - budget;
                    if depth > i64::from(self.k) && self.is_outside(&term) {
                        return Err(Step::KCut);
                    }
                }
                // Lazy initialization made this a new object: distinct from every input
                // object met before, whatever its class (the formula may name it by a term
                // that another object's cell also reaches, `header.next` and `header` alike;
                // an `Object` field may reach a cell of any class).
                for other in &self.met {
                    self.facts.push(Pure::ne(term.clone(), other.clone()));
                }
                self.objects.insert(*o, term.clone());
                self.met.push(term.clone());
                self.facts.push(Pure::ne(term.clone(), Term::Null));
                if let Some(a) = &obj.array {
                    return self.array(st, *o, &obj.class, &a.len, &term);
                }
                for (f, fsv) in &obj.input {
                    let ft = self.field(&term, &obj.class, f)?;
                    self.pair(st, fsv, ft)?;
                }
            }
            SValue::SymLoc(l) => match st.symlocs.get(*l as usize).and_then(|i| i.resolved) {
                Some(o) => self.pair(st, &SValue::Obj(o), term)?,
                None => self.facts.push(Pure::ne(term, Term::Null)),
            },
            SValue::SymRef(r) => match st.symrefs.get(*r as usize).and_then(|i| i.resolved) {
                None => {}
                Some(RefResolution::Null) => self.facts.push(Pure::eq(term, Term::Null)),
                Some(RefResolution::Loc(l)) => self.pair(st, &SValue::SymLoc(l), term)?,
            },
            SValue::Void => {}
        }
        Ok(())
    }

    /// The term of `v.f`, `v` an object of `class` (Alg. 2 lines 6–16; an object of a class no
    /// points-to claims is outside the footprint, see [`Unclaimed`]).
    fn field(&mut self, v: &Term, class: &str, f: &str) -> Result<Term, Step> {
        let aliases = self.aliases(v);
        if aliases.contains(&Term::Null) {
            return Err(Step::Dropped);
        }
        if let Some(pt) = self.sh.points_to.iter().find(|p| aliases.contains(&p.ptr)) {
            return pt.field(f).cloned().ok_or(Step::Dropped);
        }
        let by_root =
            self.sh.preds.iter().position(|p| p.args.first().is_some_and(|a| aliases.contains(a)));
        let by_any =
            || self.sh.preds.iter().position(|p| p.args.iter().any(|a| aliases.contains(a)));
        match by_root.or_else(by_any) {
            Some(idx) => Err(Step::Unfold(idx)),
            None if !self.claimed.contains(class) => self.unclaimed_field(v, class, f),
            // A root of the precondition that no atom of the formula mentions (a `Comparable`
            // argument of a method whose precondition claims its elements, as avlcmp.hl's
            // `avl` does): the formula says nothing about it, so it is outside the footprint
            // too (unfolding cannot reach it: no instance has it as an argument).
            None if self.uncovered_root(&aliases) => self.unclaimed_field(v, class, f),
            // An object a field of an outside object holds (a method without `requires`: every
            // input object is one) is outside as well: its fields are free as the path read them.
            None if aliases.iter().any(|a| self.outside_refs.contains(a)) => {
                self.unclaimed_field(v, class, f)
            }
            None if self.open_fields && aliases.iter().any(|a| matches!(a, Term::Var(_))) => {
                self.unclaimed_field(v, class, f)
            }
            None => Err(Step::Dropped),
        }
    }

    /// `term` is an object outside the footprint: a root or the field of an outside object that
    /// no points-to and no predicate instance of the formula mentions.
    fn is_outside(&self, term: &Term) -> bool {
        let aliases = self.aliases(term);
        let claimed = self.sh.points_to.iter().any(|p| aliases.contains(&p.ptr))
            || self.sh.preds.iter().any(|p| p.args.iter().any(|a| aliases.contains(a)));
        !claimed
            && (self.uncovered_root(&aliases)
                || aliases.iter().any(|a| self.outside_refs.contains(a))
                || (self.open_fields && aliases.iter().any(|a| matches!(a, Term::Var(_)))))
    }

    /// One of `aliases` is a root of the precondition (a free variable) that no points-to and
    /// no predicate instance of the formula mentions (checked by the caller).
    fn uncovered_root(&self, aliases: &[Term]) -> bool {
        aliases.iter().any(|a| matches!(a, Term::Var(n) if self.roots.contains(n)))
    }

    /// A fresh free variable for `v.f` of an object outside the footprint. A reference field's
    /// variable is a free location: the model gives it null, an object the formula names, or
    /// an object of its own outside the footprint (a dangling location, [`Model::unclaimed`]),
    /// which [`Unclaimed::fill`] stores in the field — lazy initialization's three choices.
    fn unclaimed_field(&mut self, v: &Term, class: &str, f: &str) -> Result<Term, Step> {
        let sort = match self.defs.field_sort(class, f) {
            Some(s @ (Sort::Int | Sort::Bool | Sort::Ref(_))) => s.clone(),
            _ => return Err(Step::Dropped),
        };
        let object = self.outside_var(v, class);
        if let Some(c) = self.unclaimed.iter().find(|c| c.object == object && c.field == f) {
            return Ok(Term::var(c.value.clone()));
        }
        let value = self.fresh.var(f);
        if matches!(sort, Sort::Ref(_)) {
            self.outside_refs.push(Term::var(value.clone()));
        }
        self.free.push((value.clone(), sort));
        self.unclaimed.push(Unclaimed { object, field: f.to_string(), value: value.clone() });
        Ok(Term::var(value))
    }

    /// An input array met at `term`: free variables for it and its length; its cells wait
    /// for [`Tr::array_cells`].
    fn array(
        &mut self,
        st: &State,
        o: ObjIdx,
        class: &str,
        len: &Sym,
        term: &Term,
    ) -> Result<(), Step> {
        let object = self.outside_var(term, class);
        let len_var = self.fresh.var("len");
        self.free.push((len_var.clone(), Sort::Int));
        self.pair(st, &SValue::Int(len.clone()), Term::var(len_var.clone()))?;
        let bound = Term::Int(self.max_array_len.min(MAX_INPUT_ARRAY_LEN));
        self.facts.push(Pure::cmp(CmpOp::Le, Term::var(len_var.clone()), bound));
        let elem = class.strip_suffix("[]").unwrap_or(class).to_string();
        self.pending.push((o, self.arrays.len(), 0));
        self.arrays.push(ArrayCells { object, elem, len: len_var, cells: Vec::new() });
        Ok(())
    }

    /// Translates the input cells of the arrays met, each once its index is a term (its
    /// variables paired), until none is left; an index that never becomes one is
    /// untranslatable.
    fn array_cells(&mut self, st: &State) -> Result<(), Step> {
        loop {
            let mut progress = false;
            let mut waiting = false;
            let mut i = 0;
            while i < self.pending.len() {
                let (o, at, done) = self.pending[i];
                let Some((t, iv)) = st.array_input_cell(o, done).cloned() else {
                    i += 1;
                    continue;
                };
                let Some(index) = self.term_of(&t) else {
                    waiting = true;
                    i += 1;
                    continue;
                };
                let elem = self.arrays[at].elem.clone();
                let sort = match elem.as_str() {
                    "int" => Sort::Int,
                    "bool" => Sort::Bool,
                    c => Sort::Ref(c.to_string()),
                };
                let (ix, val) = (self.fresh.var("ix"), self.fresh.var("cell"));
                self.free.push((ix.clone(), Sort::Int));
                self.free.push((val.clone(), sort));
                self.facts.push(Pure::eq(Term::var(ix.clone()), index));
                self.pair(st, &iv, Term::var(val.clone()))?;
                self.arrays[at].cells.push((ix, val));
                self.pending[i].2 += 1;
                progress = true;
            }
            if !progress {
                return if waiting { Err(Step::Untranslatable) } else { Ok(()) };
            }
        }
    }

    /// The free variable equal to `v`, an object outside the footprint (made once per term).
    fn outside_var(&mut self, v: &Term, class: &str) -> String {
        if let Some((_, u)) = self.outside.iter().find(|(t, _)| t == v) {
            return u.clone();
        }
        let u = self.fresh.var("u");
        self.free.push((u.clone(), Sort::Ref(class.to_string())));
        self.facts.push(Pure::eq(Term::var(u.clone()), v.clone()));
        self.outside.push((v.clone(), u.clone()));
        u
    }

    /// `v` and every term equal to it by the equalities of the heap and of the facts so far.
    fn aliases(&self, v: &Term) -> Vec<Term> {
        let eqs: Vec<(&Term, &Term)> = self
            .sh
            .pure
            .iter()
            .chain(&self.facts)
            .filter_map(|p| match p {
                Pure::Cmp(CmpOp::Eq, a, b) => Some((a, b)),
                _ => None,
            })
            .collect();
        let mut out = vec![v.clone()];
        let mut grew = true;
        while grew {
            grew = false;
            for (a, b) in &eqs {
                for (x, y) in [(a, b), (b, a)] {
                    if out.contains(x) && !out.contains(y) {
                        out.push((*y).clone());
                        grew = true;
                    }
                }
            }
        }
        out
    }
}

impl Tr<'_> {
    /// An integer (or boolean-valued variable) expression as a logic term. Division and
    /// remainder by a non-zero constant (what `ints java32|java64` wrapping is made of, and
    /// `x / 2`) become fresh existential quotients and remainders with linear side conditions,
    /// so the logic's linear integers decide them exactly; by anything else they are
    /// untranslatable.
    fn term_of(&mut self, s: &Sym) -> Option<Term> {
        if let Some(t) = self.memo.get(s) {
            return Some(t.clone());
        }
        let b = Box::new;
        let t = match s.node() {
            Node::Int(n) => Term::Int(*n),
            Node::Bool(v) => Term::Bool(*v),
            Node::Var(id, _) => self.vars.get(id)?.clone(),
            Node::Add(x, y) => Term::Add(b(self.term_of(x)?), b(self.term_of(y)?)),
            Node::Sub(x, y) => Term::Sub(b(self.term_of(x)?), b(self.term_of(y)?)),
            Node::Mul(x, y) => Term::Mul(b(self.term_of(x)?), b(self.term_of(y)?)),
            Node::Neg(x) => Term::Neg(b(self.term_of(x)?)),
            Node::Rem(x, m) => match (x.node(), m.as_int()) {
                // `floor_mod` of the executor's wrapping: ((x % m) + m) % m, in [0, m).
                (Node::Add(inner, m2), Some(c)) if c > 0 && m2.as_int() == Some(c) => {
                    match inner.node() {
                        Node::Rem(x0, m3) if m3.as_int() == Some(c) => {
                            let x0 = self.term_of(x0)?;
                            self.floor_mod(x0, c)
                        }
                        _ => self.trunc_div_rem(x, m)?.1,
                    }
                }
                (_, Some(0)) => return None,
                _ => self.trunc_div_rem(x, m)?.1,
            },
            Node::Div(x, m) => match m.as_int() {
                Some(0) => return None,
                _ => self.trunc_div_rem(x, m)?.0,
            },
            _ => return None,
        };
        self.memo.insert(s.clone(), t.clone());
        Some(t)
    }

    /// A fresh existential integer of the formula being built.
    fn fresh_int(&mut self, base: &str) -> Term {
        let v = self.fresh.var(base);
        self.exists.push((v.clone(), Sort::Int));
        Term::var(v)
    }

    /// `x` modulo `c > 0` rounded toward negative infinity: `r` with `x = c·q + r`,
    /// `0 <= r < c`.
    fn floor_mod(&mut self, x: Term, c: i64) -> Term {
        let (q, r) = (self.fresh_int("q"), self.fresh_int("r"));
        let b = Box::new;
        self.facts.push(Pure::eq(x, Term::Add(b(Term::Mul(b(Term::Int(c)), b(q))), b(r.clone()))));
        self.facts.push(Pure::cmp(CmpOp::Le, Term::Int(0), r.clone()));
        self.facts.push(Pure::cmp(CmpOp::Lt, r.clone(), Term::Int(c)));
        r
    }

    /// Quotient and remainder of `x` by `d != 0`, truncating toward zero (the executor's and
    /// Java's `/` and `%`): `x = d·q + r`, `|r| < |d|`, `r` with the sign of `x`. By a constant
    /// the facts are linear; by an unknown divisor `d·q` is a product, which Z3 decides. Both
    /// are memoized by operands, so `x / d` and `x % d` share them.
    fn trunc_div_rem(&mut self, x: &Sym, d: &Sym) -> Option<(Term, Term)> {
        let key = (x.clone(), d.clone());
        if let Some(qr) = self.divs.get(&key) {
            return Some(qr.clone());
        }
        let xt = self.term_of(x)?;
        let dt = self.term_of(d)?;
        let (q, r) = (self.fresh_int("q"), self.fresh_int("r"));
        let b = Box::new;
        self.facts.push(Pure::eq(
            xt.clone(),
            Term::Add(b(Term::Mul(b(dt.clone()), b(q.clone()))), b(r.clone())),
        ));
        let lt = |a: Term, b: Term| Pure::cmp(CmpOp::Lt, a, b);
        let le = |a: Term, b: Term| Pure::cmp(CmpOp::Le, a, b);
        let zero = || Term::Int(0);
        // `r` has the dividend's sign.
        self.facts.push(Pure::Or(vec![
            Pure::And(vec![le(zero(), xt.clone()), le(zero(), r.clone())]),
            Pure::And(vec![lt(xt, zero()), le(r.clone(), zero())]),
        ]));
        // `|r| < |d|`.
        let neg = |t: &Term| Term::Neg(b(t.clone()));
        let below = |m: Term| Pure::And(vec![lt(r.clone(), m.clone()), lt(neg(&r), m)]);
        self.facts.push(match d.as_int() {
            Some(c) => below(Term::Int(c.checked_abs()?)),
            None => Pure::Or(vec![
                Pure::And(vec![lt(zero(), dt.clone()), below(dt.clone())]),
                Pure::And(vec![lt(dt.clone(), zero()), below(neg(&dt))]),
            ]),
        });
        self.divs.insert(key, (q.clone(), r.clone()));
        Some((q, r))
    }

    /// A boolean expression of the path condition as a pure formula.
    fn pure_of(&mut self, s: &Sym) -> Option<Pure> {
        Some(match s.node() {
            Node::Bool(v) => Pure::Const(*v),
            Node::Var(id, SymSort::Bool) => Pure::eq(self.vars.get(id)?.clone(), Term::Bool(true)),
            Node::Lt(x, y) => Pure::cmp(CmpOp::Lt, self.term_of(x)?, self.term_of(y)?),
            Node::Le(x, y) => Pure::cmp(CmpOp::Le, self.term_of(x)?, self.term_of(y)?),
            Node::Eq(x, y) => match (self.term_of(x), self.term_of(y)) {
                (Some(a), Some(b)) => Pure::eq(a, b),
                _ => {
                    let (p, q) = (self.pure_of(x)?, self.pure_of(y)?);
                    Pure::Or(vec![
                        Pure::And(vec![p.clone(), q.clone()]),
                        Pure::And(vec![Pure::Not(Box::new(p)), Pure::Not(Box::new(q))]),
                    ])
                }
            },
            Node::Not(x) => Pure::Not(Box::new(self.pure_of(x)?)),
            Node::And(x, y) => Pure::And(vec![self.pure_of(x)?, self.pure_of(y)?]),
            Node::Or(x, y) => Pure::Or(vec![self.pure_of(x)?, self.pure_of(y)?]),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbolic::exec::wrap;
    use heaplab_logic::arith::PureResult;
    use heaplab_logic::{PureOracle, SmtOracle};
    use heaplab_smt::{ProcessConfig, SmtSolver, Z3Process};
    use heaplab_syntax::ast::Ints;
    use std::collections::BTreeMap;

    /// The translation of the executor's wrapped `+ - * neg` (and `/`, `%` by constants) pins
    /// exactly the interpreter's two's-complement value (`Ints::wrap`, the oracle), decided by
    /// z3: over edge operands, the side conditions with `t == expected` are satisfiable and with
    /// `t != expected` they are not.
    #[test]
    fn wrapped_arithmetic_translates_to_the_exact_value() {
        let z3 = SmtSolver::new(Z3Process::new(ProcessConfig::default()));
        let mut oracle = SmtOracle::new(&z3);
        let (x, y) = (Sym::var(0, SymSort::Int), Sym::var(1, SymSort::Int));
        let sh = SymHeap::default();
        let mut fresh = Fresh::new();
        for (ints, bits) in [(Ints::Java32, 32), (Ints::Java64, 64)] {
            let (lo, hi) = ints.range();
            let pairs = [(hi, 1), (lo, -1), (lo, lo), (hi, hi), (-7, 2), (7, -2), (46341, 46341)];
            for (a, b) in pairs.into_iter().chain([(lo + 1, hi - 1), (0, lo)]) {
                let cases: [(&str, Sym, i128); 6] = [
                    ("+", wrap(&Sym::add(&x, &y), bits), i128::from(a) + i128::from(b)),
                    ("-", wrap(&Sym::sub(&x, &y), bits), i128::from(a) - i128::from(b)),
                    ("*", wrap(&Sym::mul(&x, &y), bits), i128::from(a) * i128::from(b)),
                    ("neg", wrap(&Sym::neg(&x), bits), -i128::from(a)),
                    ("/ 2", Sym::div(&wrap(&Sym::add(&x, &y), bits), &Sym::int(2)), {
                        let s = ints.wrap(i128::from(a) + i128::from(b));
                        i128::from(s / 2)
                    }),
                    ("% 3", Sym::rem(&wrap(&Sym::add(&x, &y), bits), &Sym::int(-3)), {
                        let s = ints.wrap(i128::from(a) + i128::from(b));
                        i128::from(s % -3)
                    }),
                ];
                for (op, sym, exact) in cases {
                    // z3's quotients must fit the model reader's i64: a `java64` product
                    // beyond 2^94 is left undecided in preprocessing (docs/symbolic.md).
                    if exact.unsigned_abs() >= 1 << 94 {
                        continue;
                    }
                    let expected = if op.starts_with('/') || op.starts_with('%') {
                        exact as i64
                    } else {
                        ints.wrap(exact)
                    };
                    let defs = Defs::default();
                    let mut tr = Tr {
                        sh: &sh,
                        defs: &defs,
                        max_array_len: MAX_INPUT_ARRAY_LEN,
                        k: 2,
                        open_fields: false,
                        claimed: BTreeSet::new(),
                        roots: Vec::new(),
                        free: Vec::new(),
                        unclaimed: Vec::new(),
                        arrays: Vec::new(),
                        pending: Vec::new(),
                        outside: Vec::new(),
                        outside_refs: Vec::new(),
                        objects: HashMap::new(),
                        met: Vec::new(),
                        // The operands as constants: a product of two variables is beyond the
                        // logic's linear encoding whatever the wrapping.
                        vars: HashMap::from([(0, Term::Int(a)), (1, Term::Int(b))]),
                        facts: Vec::new(),
                        fresh: &mut fresh,
                        exists: Vec::new(),
                        memo: HashMap::new(),
                        divs: HashMap::new(),
                    };
                    let t = tr.term_of(&sym).expect("translatable");
                    let sorts: BTreeMap<String, Sort> = tr.exists.iter().cloned().collect();
                    let facts = tr.facts.clone();
                    let what = format!("{} {a} {op} {b} = {expected}", ints.keyword());
                    let mut is = facts.clone();
                    is.push(Pure::eq(t.clone(), Term::Int(expected)));
                    let sat = oracle.check(&is, &sorts).expect("z3");
                    assert!(matches!(sat, PureResult::Sat(_)), "{what}: {sat:?}");
                    let mut other = facts;
                    other.push(Pure::ne(t, Term::Int(expected)));
                    let unsat = oracle.check(&other, &sorts).expect("z3");
                    assert_eq!(unsat, PureResult::Unsat, "{what}: another value");
                }
            }
        }
    }
}
