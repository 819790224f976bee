//! Unit propagation between the conjunction's literals and its disjunctions, before each theory
//! check of the case split.
//!
//! Why: symheap's path conditions carry one implication per guarded value (`g → x = v`, an
//! `or` of the guard's negated literals and the equality), and the guards' literals are often
//! stated plainly in the same path condition. Splitting those disjunctions one theory point at a
//! time spent the split budget on queries a literal-level look settles at once (measured on the
//! example suite's symheap queries: see `examples/decide_share.rs`).
//!
//! What: a disjunct that *contradicts* a literal of the conjunction (its exact complement:
//! `l = 0` / `l ≠ 0`, `l ≤ 0` / `-l + 1 ≤ 0` over the integers, `b` / `¬b`) drops out; a
//! disjunction with a disjunct the conjunction already *states* is satisfied and drops out; a
//! disjunction left with one disjunct joins the conjunction, which may settle others, up to a
//! fixed point. Besides literals, each integer variable's range is kept, as the literals over
//! it alone bound it (see [`Known`]): a disjunct comparing the variable with a constant outside
//! the range is contradicted, one inside a range of one value decided, and an empty range is a
//! conflict; a literal over several variables is decided once their ranges put it wholly on
//! one side, and fixes its last variable once the others are fixed ([`Clauses::settle`]).
//! Only facts of single literals and variables' ranges are used (linear forms compared
//! after sign normalization), so the result is equivalent to the input whatever the theory would
//! say.

use std::collections::HashMap;
use std::rc::Rc;

use super::bounds::unit_range;
use super::encode::{Formula, Lin, Lit};
use rustc_hash::FxBuildHasher;

/// A literal in a form where a literal and its sign-flipped twin (`x - y = 0`, `y - x = 0`)
/// are equal.
fn key(l: &Lit) -> Option<Lit> {
    Some(match l {
        Lit::Eq(lin) => Lit::Eq(oriented(lin)?),
        Lit::Ne(lin) => Lit::Ne(oriented(lin)?),
        Lit::Le(lin) => Lit::Le(lin.clone()),
        Lit::Bool(b, v) => Lit::Bool(*b, *v),
    })
}

/// `lin` or `-lin`, whichever has a positive first coefficient (`= 0` and `≠ 0` do not care).
fn oriented(lin: &Lin) -> Option<Lin> {
    match lin.coeffs.values().next() {
        Some(c) if *c < 0 => lin.scaled(-1).ok(),
        _ => Some(lin.clone()),
    }
}

/// The literal that holds exactly when `l` does not (over the integers).
fn complement(l: &Lit) -> Option<Lit> {
    match l {
        Lit::Eq(lin) => key(&Lit::Ne(lin.clone())),
        Lit::Ne(lin) => key(&Lit::Eq(lin.clone())),
        Lit::Le(lin) => {
            // ¬(lin ≤ 0) ⇔ lin ≥ 1 ⇔ -lin + 1 ≤ 0
            let mut neg = lin.scaled(-1).ok()?;
            neg.constant = neg.constant.checked_add(1)?;
            Some(Lit::Le(neg))
        }
        Lit::Bool(b, v) => Some(Lit::Bool(*b, !*v)),
    }
}

/// The literals of one propagation, numbered: a literal and its sign-flipped twin share a
/// number, so that the fixed point below compares numbers, never linear forms.
///
/// Why: the fixed point looks at every disjunct of every disjunction once per round, and each
/// look used to build the literal's key and complement (copying their linear forms) and hash
/// them; on symheap's path conditions (a hundred and more implications) that was most of the
/// procedure's time. Numbering each literal once per call keeps a round to array lookups.
#[derive(Default, Clone)]
pub struct Numbering {
    ids: HashMap<Lit, u32, FxBuildHasher>,
}

impl Numbering {
    fn id(&mut self, l: Lit) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(l).or_insert(next)
    }

    /// The numbers of `l`'s key and of its complement (`None` where that form overflows).
    fn lit(&mut self, l: &Lit) -> Shape {
        let (k, c) = (key(l).map(|k| self.id(k)), complement(l).map(|c| self.id(c)));
        if let Some((x, v, eq)) = value_of(l) {
            return Shape::Value(k, c, x, v, eq);
        }
        match l {
            Lit::Le(_) => match unit_range(l) {
                Some((x, (lo, hi))) => Shape::Bound(k, c, x, lo, hi),
                None => Shape::Lit(k, c),
            },
            _ => Shape::Lit(k, c),
        }
    }

    /// Whether `x ≠ v` is among the numbered literals and `known` holds it.
    fn excluded(&self, known: &Known, x: usize, v: i128) -> bool {
        let Some(constant) = v.checked_neg() else { return false };
        let lit = Lit::Ne(Lin { coeffs: [(x, 1)].into(), constant });
        known.contains(self.ids.get(&lit).copied())
    }

    pub(super) fn shape(&mut self, f: &Formula) -> Shape {
        match f {
            Formula::Lit(l) => self.lit(l),
            Formula::And(fs) => Shape::And(fs.iter().map(|g| self.shape(g)).collect()),
            Formula::Or(fs) => Shape::Or(fs.iter().map(|g| self.shape(g)).collect()),
        }
    }
}

/// `(x, v, true)` for a literal `x = v`, `(x, v, false)` for `x ≠ v`.
fn value_of(l: &Lit) -> Option<(usize, i128, bool)> {
    let (lin, eq) = match l {
        Lit::Eq(lin) => (lin, true),
        Lit::Ne(lin) => (lin, false),
        _ => return None,
    };
    if lin.coeffs.len() != 1 {
        return None;
    }
    let (&x, &c) = lin.coeffs.iter().next()?;
    // c·x + k = 0: x = -k / c where that is an integer (otherwise no integer value; left to
    // the theory).
    let k = lin.constant.checked_neg()?;
    (c != 0 && k % c == 0).then(|| (x, k / c, eq))
}

/// A formula with each literal replaced by the [`Numbering`] of its key and complement.
///
/// `Value` is a literal that compares one variable with a constant (`x = 3`, `x ≠ 0`): besides
/// its numbers, it is decided by the variable's value once a literal of the conjunction fixes
/// it (symheap's references take one constant per world, see `heap/symheap.rs`'s ranks).
///
/// `Bound` is a literal that bounds one variable (`x ≤ 3`, `0 ≤ x`): decided by the variable's
/// range once the conjunction's bounds put it wholly inside or outside.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Lit(Option<u32>, Option<u32>),
    Value(Option<u32>, Option<u32>, usize, i128, bool),
    Bound(Option<u32>, Option<u32>, usize, Option<i128>, Option<i128>),
    And(Vec<Shape>),
    Or(Vec<Shape>),
}

/// The literals known to hold, by number; each integer variable's range as the conjunction's
/// literals over it alone bound it (`x = 3`, `0 ≤ x`, `x ≤ 5`, and `x ≠ v` at an end of the
/// range); and whether those ranges already contradict each other.
///
/// Why ranges: symheap's references are numbered locations, each over a small range
/// (`0 ≤ r ≤ 4`) with some locations ruled out (`r ≠ 0`), and most of its disjuncts compare one
/// reference with one location. A disjunct outside the range, or a range left with one value,
/// decided nothing here and cost a split and a theory check each.
#[derive(Default, Clone)]
struct Known {
    ids: Vec<bool>,
    ranges: Vec<(i128, i128)>,
    conflict: bool,
    /// A variable's range became one value, or a literal over several variables joined, since
    /// those literals were last looked at ([`Clauses::settle`]).
    unsettled: bool,
    /// The variables (their [`slot_int`] and [`slot_bool`] places, as bits) a literal was
    /// stated over or whose range narrowed since the last round of [`Clauses::propagate`]:
    /// only disjunctions over them can change.
    touched: Vec<u64>,
}

impl Known {
    fn insert(&mut self, id: u32) {
        let i = id as usize;
        if self.ids.len() <= i {
            self.ids.resize(i + 1, false);
        }
        self.ids[i] = true;
    }

    fn contains(&self, id: Option<u32>) -> bool {
        id.is_some_and(|i| self.ids.get(i as usize).copied().unwrap_or(false))
    }

    fn touch(&mut self, slot: u32) {
        let (word, bit) = ((slot / 64) as usize, slot % 64);
        if self.touched.len() <= word {
            self.touched.resize(word + 1, 0);
        }
        self.touched[word] |= 1 << bit;
    }

    fn touch_lit(&mut self, l: &Lit) {
        match l {
            Lit::Le(lin) | Lit::Eq(lin) | Lit::Ne(lin) => {
                for &x in lin.coeffs.keys() {
                    self.touch(slot_int(x));
                }
            }
            Lit::Bool(b, _) => self.touch(slot_bool(*b)),
        }
    }

    fn range(&self, x: usize) -> (i128, i128) {
        self.ranges.get(x).copied().unwrap_or((i128::MIN, i128::MAX))
    }

    /// Narrows `x`'s range to `[lo, hi]` (a side `None`: unchanged), then past the values the
    /// known literals exclude at its ends.
    fn narrow(&mut self, x: usize, lo: Option<i128>, hi: Option<i128>, numbers: &Numbering) {
        if self.ranges.len() <= x {
            self.ranges.resize(x + 1, (i128::MIN, i128::MAX));
        }
        let r = &mut self.ranges[x];
        let (was, was_fixed) = (*r, r.0 == r.1);
        r.0 = lo.map_or(r.0, |lo| r.0.max(lo));
        r.1 = hi.map_or(r.1, |hi| r.1.min(hi));
        if *r != was {
            self.touch(slot_int(x));
        }
        loop {
            let (lo, hi) = self.ranges[x];
            if lo > hi {
                self.conflict = true;
                return;
            }
            if lo == hi && !was_fixed {
                self.unsettled = true;
            }
            let low_out = lo != i128::MIN && numbers.excluded(self, x, lo);
            let high_out = !low_out && hi != i128::MAX && numbers.excluded(self, x, hi);
            if !(low_out || high_out) {
                return;
            }
            // The one value left is excluded (and `lo < hi` below keeps the ends in range).
            if lo == hi {
                self.conflict = true;
                return;
            }
            match low_out {
                true => self.ranges[x].0 = lo + 1,
                false => self.ranges[x].1 = hi - 1,
            }
            self.touch(slot_int(x));
        }
    }

    /// Notes `l` as holding: its number, and the range of its variable if it has one.
    ///
    /// Only the key is numbered here (not the complement, as [`Numbering::lit`] would): the
    /// conjunction's own literals are many and a query's small, and a literal stated with its
    /// complement among them is left to the theory.
    fn state(&mut self, l: &Lit, numbers: &mut Numbering) {
        self.unsettled |= over_several(l);
        self.touch_lit(l);
        if let Some(k) = key(l) {
            self.insert(numbers.id(k));
        }
        match value_of(l) {
            Some((x, v, eq)) => self.narrow_value(x, v, eq, numbers),
            None if matches!(l, Lit::Le(_)) => {
                if let Some((x, (lo, hi))) = unit_range(l) {
                    self.narrow(x, lo, hi, numbers);
                }
            }
            None => {}
        }
    }

    /// Narrows `x`'s range by `x = v` (`eq`) or `x ≠ v`, which moves an end of the range that
    /// it excludes.
    fn narrow_value(&mut self, x: usize, v: i128, eq: bool, numbers: &Numbering) {
        if eq {
            self.narrow(x, Some(v), Some(v), numbers);
        } else {
            let (lo, hi) = self.range(x);
            if v == lo || v == hi {
                self.narrow(x, None, None, numbers);
            }
        }
    }

    /// [`Known::state`] for a literal already numbered: `s` is its shape.
    fn state_shaped(&mut self, s: &Shape, numbers: &Numbering) {
        match *s {
            Shape::Lit(k, c) | Shape::Value(k, c, ..) | Shape::Bound(k, c, ..) => {
                if let Some(k) = k {
                    self.insert(k);
                }
                // A literal and its complement both stated.
                if self.contains(c) {
                    self.conflict = true;
                }
            }
            Shape::And(_) | Shape::Or(_) => {}
        }
        match *s {
            Shape::Value(_, _, x, v, eq) => self.narrow_value(x, v, eq, numbers),
            Shape::Bound(_, _, x, lo, hi) => self.narrow(x, lo, hi, numbers),
            _ => {}
        }
    }
}

/// Whether `l` compares several integer variables.
fn over_several(l: &Lit) -> bool {
    matches!(l, Lit::Le(lin) | Lit::Eq(lin) | Lit::Ne(lin) if lin.coeffs.len() > 1)
}

/// What the variables' ranges say of `lin`'s literal `l` over several variables: the least and
/// the greatest `lin` can be, against 0.
fn by_ranges(l: &Lit, known: &Known) -> Option<bool> {
    let lin = match l {
        Lit::Le(lin) | Lit::Eq(lin) | Lit::Ne(lin) => lin,
        Lit::Bool(..) => return None,
    };
    let (mut lo, mut hi) = (Some(lin.constant), Some(lin.constant));
    for (&x, &c) in &lin.coeffs {
        let (xlo, xhi) = known.range(x);
        let (xlo, xhi) = ((xlo != i128::MIN).then_some(xlo), (xhi != i128::MAX).then_some(xhi));
        let (least, most) = if c > 0 { (xlo, xhi) } else { (xhi, xlo) };
        lo = lo.zip(least).and_then(|(s, v)| s.checked_add(c.checked_mul(v)?));
        hi = hi.zip(most).and_then(|(s, v)| s.checked_add(c.checked_mul(v)?));
        if lo.is_none() && hi.is_none() {
            return None;
        }
    }
    match l {
        Lit::Le(_) if hi.is_some_and(|h| h <= 0) => Some(true),
        Lit::Le(_) if lo.is_some_and(|l| l > 0) => Some(false),
        Lit::Eq(_) | Lit::Ne(_) => {
            let eq = l == &Lit::Eq(lin.clone());
            if lo.is_some_and(|l| l > 0) || hi.is_some_and(|h| h < 0) {
                Some(!eq)
            } else if lo == Some(0) && hi == Some(0) {
                Some(eq)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// What the known literals say of a formula: `Some(true)` stated, `Some(false)` contradicted.
/// `f` is the formula `s` is the shape of, for the literals over several variables (`None`:
/// those are left undecided).
fn status(s: &Shape, f: Option<&Formula>, known: &Known) -> Option<bool> {
    if let Shape::Lit(key, complement)
    | Shape::Value(key, complement, ..)
    | Shape::Bound(key, complement, ..) = s
    {
        if known.contains(*key) {
            return Some(true);
        } else if known.contains(*complement) {
            return Some(false);
        }
    }
    match s {
        Shape::Lit(..) => match f {
            Some(Formula::Lit(l)) => by_ranges(l, known),
            _ => None,
        },
        Shape::Value(_, _, x, v, eq) => {
            let (lo, hi) = known.range(*x);
            if lo == hi {
                Some((lo == *v) == *eq)
            } else if *v < lo || *v > hi {
                Some(!*eq)
            } else {
                None
            }
        }
        Shape::Bound(_, _, x, blo, bhi) => {
            let (lo, hi) = known.range(*x);
            let (blo, bhi) = (blo.unwrap_or(i128::MIN), bhi.unwrap_or(i128::MAX));
            if blo <= lo && hi <= bhi {
                Some(true)
            } else if hi < blo || bhi < lo {
                Some(false)
            } else {
                None
            }
        }
        Shape::And(gs) => {
            let fs = match f {
                Some(Formula::And(fs)) if fs.len() == gs.len() => Some(fs),
                _ => None,
            };
            let mut all = true;
            for (i, g) in gs.iter().enumerate() {
                match status(g, fs.map(|fs| &fs[i]), known) {
                    Some(false) => return Some(false),
                    Some(true) => {}
                    None => all = false,
                }
            }
            all.then_some(true)
        }
        Shape::Or(gs) => {
            let fs = match f {
                Some(Formula::Or(fs)) if fs.len() == gs.len() => Some(fs),
                _ => None,
            };
            let mut none = true;
            for (i, g) in gs.iter().enumerate() {
                match status(g, fs.map(|fs| &fs[i]), known) {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None => none = false,
                }
            }
            none.then_some(false)
        }
    }
}

/// One disjunction of the search, with the shape of each disjunct.
#[derive(Debug)]
struct Disjunction {
    formulas: Vec<Formula>,
    shapes: Vec<Shape>,
    /// The variables of its disjuncts (their [`slot_int`] and [`slot_bool`] places), a superset
    /// once propagation dropped some.
    vars: Rc<[u32]>,
}

impl Disjunction {
    fn new(formulas: Vec<Formula>, shapes: Vec<Shape>) -> Disjunction {
        let mut vars = Vec::new();
        for f in &formulas {
            formula_slots(f, &mut vars);
        }
        vars.sort_unstable();
        vars.dedup();
        Disjunction { formulas, shapes, vars: vars.into() }
    }
}

/// A variable's place among the touched ones: integer `x` at `2x`, Boolean `b` at `2b + 1`.
fn slot_int(x: usize) -> u32 {
    (2 * x) as u32
}

fn slot_bool(b: usize) -> u32 {
    (2 * b + 1) as u32
}

fn lit_slots(l: &Lit, out: &mut Vec<u32>) {
    match l {
        Lit::Le(lin) | Lit::Eq(lin) | Lit::Ne(lin) => {
            out.extend(lin.coeffs.keys().map(|&x| slot_int(x)))
        }
        Lit::Bool(b, _) => out.push(slot_bool(*b)),
    }
}

fn formula_slots(f: &Formula, out: &mut Vec<u32>) {
    match f {
        Formula::Lit(l) => lit_slots(l, out),
        Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|g| formula_slots(g, out)),
    }
}

/// The search's clauses: the conjunction's literals and its disjunctions, each literal
/// numbered once (when it joins) for the propagation.
///
/// The disjunctions are shared between copies (each split branch copies the clauses, and each
/// question of a prepared context copies its propagated ones) and rebuilt only where a
/// propagation changes them.
#[derive(Clone)]
pub struct Clauses {
    pub lits: Vec<Lit>,
    ors: Vec<Rc<Disjunction>>,
    /// `ors[unexamined..]` joined since the last round of propagation (all are looked at).
    unexamined: usize,
    /// The numbers of `lits`' keys.
    known: Known,
}

/// A disjunction's disjuncts with their shapes, as flattening leaves them.
type Shaped = (Vec<Formula>, Vec<Shape>);

/// The search's `flatten` for a formula already numbered (`s` is its shape): its literals go to
/// `lits` and are noted in `known` by their numbers, its disjunctions to `ors` with their
/// disjuncts' shapes; `false` when it is plainly false.
///
/// Why: the units of a propagation and the disjuncts a split assumes come out of disjunctions
/// whose shapes are known; numbering them again (hashing every literal's linear form) was a
/// tenth of a symheap run.
fn flatten_shaped(
    f: Formula,
    s: Shape,
    lits: &mut Vec<Lit>,
    known: &mut Known,
    ors: &mut Vec<Shaped>,
    numbers: &mut Numbering,
) -> bool {
    match (f, s) {
        (Formula::Lit(l), s @ (Shape::Lit(..) | Shape::Value(..) | Shape::Bound(..))) => {
            known.state_shaped(&s, numbers);
            known.unsettled |= over_several(&l);
            known.touch_lit(&l);
            lits.push(l);
        }
        (Formula::And(fs), Shape::And(ss)) if fs.len() == ss.len() => {
            for (g, t) in fs.into_iter().zip(ss) {
                if !flatten_shaped(g, t, lits, known, ors, numbers) {
                    return false;
                }
            }
        }
        (Formula::Or(fs), Shape::Or(ss)) if fs.len() == ss.len() => {
            if fs.iter().any(|g| matches!(g, Formula::And(v) if v.is_empty())) {
                return true;
            }
            let (mut fs, mut ss): (Vec<Formula>, Vec<Shape>) = fs
                .into_iter()
                .zip(ss)
                .filter(|(g, _)| !matches!(g, Formula::Or(v) if v.is_empty()))
                .unzip();
            match fs.len() {
                0 => return false,
                1 => return flatten_shaped(fs.remove(0), ss.remove(0), lits, known, ors, numbers),
                _ => ors.push((fs, ss)),
            }
        }
        // A shape that is not the formula's (never made so): number the formula afresh.
        (f, _) => {
            let s = numbers.shape(&f);
            return flatten_shaped(f, s, lits, known, ors, numbers);
        }
    }
    true
}

fn disjunction(formulas: Vec<Formula>, numbers: &mut Numbering) -> Rc<Disjunction> {
    let shapes = formulas.iter().map(|f| numbers.shape(f)).collect();
    Rc::new(Disjunction::new(formulas, shapes))
}

impl Clauses {
    pub fn new(lits: Vec<Lit>, ors: Vec<Vec<Formula>>, numbers: &mut Numbering) -> Clauses {
        let mut known = Known::default();
        for l in &lits {
            known.state(l, numbers);
        }
        let ors = ors.into_iter().map(|d| disjunction(d, numbers)).collect();
        Clauses { lits, ors, unexamined: 0, known }
    }

    /// Conjoins `f` (flattened); `false` when it is plainly false.
    #[cfg(test)]
    pub fn add(&mut self, f: Formula, numbers: &mut Numbering) -> bool {
        let s = numbers.shape(&f);
        self.add_shaped(f, s, numbers)
    }

    /// Conjoins `f`, whose shape `s` is known; `false` when it is plainly false.
    pub fn add_shaped(&mut self, f: Formula, s: Shape, numbers: &mut Numbering) -> bool {
        let mut ors = Vec::new();
        if !flatten_shaped(f, s, &mut self.lits, &mut self.known, &mut ors, numbers) {
            return false;
        }
        self.unexamined = self.unexamined.min(self.ors.len());
        self.ors.extend(
            ors.into_iter().map(|(formulas, shapes)| Rc::new(Disjunction::new(formulas, shapes))),
        );
        true
    }

    /// Conjoins literals and disjunctions already flattened.
    pub fn extend(&mut self, lits: Vec<Lit>, ors: Vec<Vec<Formula>>, numbers: &mut Numbering) {
        for l in &lits {
            self.known.state(l, numbers);
        }
        self.lits.extend(lits);
        self.unexamined = self.unexamined.min(self.ors.len());
        self.ors.extend(ors.into_iter().map(|d| disjunction(d, numbers)));
    }

    /// The disjunctions' disjuncts, in order.
    pub fn disjunctions(
        &self,
    ) -> impl ExactSizeIterator<Item = &[Formula]> + DoubleEndedIterator + '_ {
        self.ors.iter().map(|d| d.formulas.as_slice())
    }

    /// Removes and returns disjunction `i`, its disjuncts and their shapes (the last
    /// disjunction takes its place).
    pub fn take_or(&mut self, i: usize) -> (Vec<Formula>, Vec<Shape>) {
        let d = self.ors.swap_remove(i);
        // The last one, moved to `i`, is looked at again if it had not been.
        if self.unexamined >= self.ors.len() {
            self.unexamined = self.unexamined.min(i);
        }
        Rc::try_unwrap(d)
            .map(|d| (d.formulas, d.shapes))
            .unwrap_or_else(|d| (d.formulas.clone(), d.shapes.clone()))
    }

    /// Looks at the literals over several variables once a variable's range became one value:
    /// one whose variables are all fixed is evaluated (false: a conflict), one with a single
    /// variable left bounds it (`x - y = 1` with `y = -1` fixes `x = 0`), and so on while
    /// that fixes more.
    ///
    /// Why: AVL trees' heights are chains of such equalities from a `-1` at each empty subtree,
    /// and a conflict among them cost a split and a theory check to find.
    fn settle(&mut self, numbers: &Numbering) {
        while self.known.unsettled && !self.known.conflict {
            self.known.unsettled = false;
            for l in &self.lits {
                let lin = match l {
                    Lit::Le(lin) | Lit::Eq(lin) | Lit::Ne(lin) if lin.coeffs.len() > 1 => lin,
                    _ => continue,
                };
                // The constant plus the fixed variables' terms, and the one variable left.
                let (mut sum, mut open) = (Some(lin.constant), None);
                for (&x, &c) in &lin.coeffs {
                    match self.known.range(x) {
                        (lo, hi) if lo == hi => {
                            sum = sum.and_then(|s| s.checked_add(c.checked_mul(lo)?));
                        }
                        _ if open.is_none() => open = Some((x, c)),
                        _ => {
                            sum = None;
                            break;
                        }
                    }
                }
                let Some(sum) = sum else { continue };
                match open {
                    None => {
                        let holds = match l {
                            Lit::Le(_) => sum <= 0,
                            Lit::Eq(_) => sum == 0,
                            _ => sum != 0,
                        };
                        if !holds {
                            self.known.conflict = true;
                            return;
                        }
                    }
                    Some((x, c)) => {
                        let rest = Lin { coeffs: [(x, c)].into(), constant: sum };
                        let unit = match l {
                            Lit::Le(_) => Lit::Le(rest),
                            Lit::Eq(_) => Lit::Eq(rest),
                            _ => continue,
                        };
                        if let Some((x, (lo, hi))) = unit_range(&unit) {
                            self.known.narrow(x, lo, hi, numbers);
                            if self.known.conflict {
                                return;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Propagates to a fixed point; `false` when a disjunction lost every disjunct (unsat).
    ///
    /// A round looks at each disjunction's statuses first and rebuilds only those that changed,
    /// keeping the others where they are (in their order, which the split follows): a question
    /// asked of a large propagated slice touches few of its disjunctions.
    pub fn propagate(&mut self, numbers: &mut Numbering) -> bool {
        loop {
            self.settle(numbers);
            if self.known.conflict {
                return false;
            }
            let mut changed = false;
            let mut units = Vec::new();
            let mut kept = 0;
            let touched = std::mem::take(&mut self.known.touched);
            let new_from = std::mem::replace(&mut self.unexamined, usize::MAX);
            let is_touched =
                |v: &u32| touched.get((v / 64) as usize).is_some_and(|w| w & (1 << (v % 64)) != 0);
            for i in 0..self.ors.len() {
                // What nothing touched since it was last looked at cannot have changed.
                if i < new_from && !self.ors[i].vars.iter().any(is_touched) {
                    self.ors.swap(kept, i);
                    kept += 1;
                    continue;
                }
                let mut satisfied = false;
                let mut contradicted = 0;
                let d = &self.ors[i];
                for (f, s) in d.formulas.iter().zip(&d.shapes) {
                    match status(s, Some(f), &self.known) {
                        Some(true) => {
                            satisfied = true;
                            break;
                        }
                        Some(false) => contradicted += 1,
                        None => {}
                    }
                }
                if satisfied {
                    changed = true;
                    continue;
                }
                let d = if contradicted == 0 {
                    Rc::clone(&self.ors[i])
                } else {
                    changed = true;
                    let d = &self.ors[i];
                    let open = d.formulas.len() - contradicted;
                    let (mut formulas, mut shapes) =
                        (Vec::with_capacity(open), Vec::with_capacity(open));
                    for (f, s) in d.formulas.iter().zip(&d.shapes) {
                        if status(s, Some(f), &self.known).is_none() {
                            formulas.push(f.clone());
                            shapes.push(s.clone());
                        }
                    }
                    let vars = Rc::clone(&d.vars);
                    Rc::new(Disjunction { formulas, shapes, vars })
                };
                match d.formulas.len() {
                    0 => return false,
                    1 => {
                        changed = true;
                        units.push((d.formulas[0].clone(), d.shapes[0].clone()));
                    }
                    _ => {
                        self.ors[kept] = d;
                        kept += 1;
                    }
                }
            }
            self.ors.truncate(kept);
            self.unexamined = self.unexamined.min(self.ors.len());
            for (f, s) in units {
                if !self.add_shaped(f, s, numbers) {
                    return false;
                }
            }
            if !changed {
                return !self.known.conflict;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Twins share a number, a literal's complement is the number of its negation's key, and
    /// different literals get different numbers.
    #[test]
    fn numbering_identifies_twins_and_complements() {
        let mut n = Numbering::default();
        let eq = n.lit(&Lit::Eq(Lin::of(&[(0, 1), (1, -1)], 0)));
        let flipped = n.lit(&Lit::Eq(Lin::of(&[(0, -1), (1, 1)], 0)));
        assert_eq!(eq, flipped);
        let ne = n.lit(&Lit::Ne(Lin::of(&[(0, -1), (1, 1)], 0)));
        let (Shape::Lit(k_eq, c_eq), Shape::Lit(k_ne, c_ne)) = (&eq, &ne) else { panic!() };
        assert_eq!((k_eq, c_eq), (c_ne, k_ne));
        // ¬(x ≤ 0) is -x + 1 ≤ 0.
        let le = n.lit(&Lit::Le(Lin::of(&[(0, 1)], 0)));
        let ge1 = n.lit(&Lit::Le(Lin::of(&[(0, -1)], 1)));
        let (Shape::Bound(k_le, c_le, 0, None, Some(0)), Shape::Bound(k_ge, _, 0, Some(1), None)) =
            (&le, &ge1)
        else {
            panic!("{le:?} {ge1:?}")
        };
        assert_eq!(c_le, k_ge);
        assert_ne!(k_le, k_ge);
        let b = n.lit(&Lit::Bool(0, true));
        let not_b = n.lit(&Lit::Bool(0, false));
        let (Shape::Lit(kb, cb), Shape::Lit(knb, cnb)) = (&b, &not_b) else { panic!() };
        assert_eq!((kb, cb), (cnb, knb));
        assert_ne!(kb, k_le);
    }

    /// A literal fixing a variable decides every comparison of it with a constant: `x = 3`
    /// contradicts `x = 1` and states `x ≠ 0`, so `x = 1 ∨ b` becomes `b` and `x ≠ 0 ∨ c`
    /// drops out; a second value (`x = 2`) is left to the theory.
    #[test]
    fn a_fixed_value_decides_comparisons_with_constants() {
        let b = |i: usize, v: bool| Formula::Lit(Lit::Bool(i, v));
        let x_is = |v: i128| Formula::Lit(Lit::Eq(Lin::of(&[(0, 1)], -v)));
        let x_not = |v: i128| Formula::Lit(Lit::Ne(Lin::of(&[(0, -1)], v)));
        let mut n = Numbering::default();
        let ors = vec![vec![x_is(1), b(1, true)], vec![x_not(0), b(2, true)]];
        let mut c = Clauses::new(vec![Lit::Eq(Lin::of(&[(0, 1)], -3))], ors.clone(), &mut n);
        assert!(c.propagate(&mut n));
        assert!(c.ors.is_empty(), "{:?}", c.ors);
        assert!(c.lits.contains(&Lit::Bool(1, true)));
        assert!(!c.lits.contains(&Lit::Bool(2, true)));
        // `-x + 3 = 0` fixes it too; `x = 1 ∨ x = 2` then has no disjunct left.
        let mut c = Clauses::new(
            vec![Lit::Eq(Lin::of(&[(0, -1)], 3))],
            vec![vec![x_is(1), x_is(2)]],
            &mut n,
        );
        assert!(!c.propagate(&mut n));
        // `2x = 3` fixes no integer value: nothing is decided by it.
        let mut c = Clauses::new(vec![Lit::Eq(Lin::of(&[(0, 2)], -3))], ors, &mut n);
        assert!(c.propagate(&mut n));
        assert_eq!(c.ors.len(), 2);
    }

    /// A chain of implications each unit settles the next of: propagation reaches the end
    /// (numbers given to literals that only later become known still match).
    #[test]
    fn a_chain_of_units_propagates_to_its_end() {
        let b = |i: usize, v: bool| Formula::Lit(Lit::Bool(i, v));
        let lits = vec![Lit::Bool(0, true)];
        // b_i → b_{i+1}, written ¬b_i ∨ b_{i+1}, listed last first.
        let mut ors: Vec<Vec<Formula>> =
            (0..20).rev().map(|i| vec![b(i, false), b(i + 1, true)]).collect();
        // and one disjunction whose disjunct is a conjunction holding a new disjunction.
        ors.push(vec![
            b(20, false),
            Formula::And(vec![b(30, true), Formula::Or(vec![b(30, false), b(31, true)])]),
        ]);
        let mut n = Numbering::default();
        let mut c = Clauses::new(lits, ors, &mut n);
        assert!(c.propagate(&mut n));
        assert!(c.ors.is_empty(), "{:?}", c.ors);
        for i in 0..=20 {
            assert!(c.lits.contains(&Lit::Bool(i, true)));
        }
        assert!(c.lits.contains(&Lit::Bool(31, true)));
        // b_21 false contradicts the chain.
        let lits = vec![Lit::Bool(0, true), Lit::Bool(21, false)];
        let ors: Vec<Vec<Formula>> = (0..21).map(|i| vec![b(i, false), b(i + 1, true)]).collect();
        let mut c = Clauses::new(lits, ors, &mut n);
        assert!(!c.propagate(&mut n));
        // A literal added after numbering is known to the next propagation.
        let ors = vec![vec![b(40, false), b(41, true)]];
        let mut c = Clauses::new(Vec::new(), ors, &mut n);
        assert!(c.propagate(&mut n));
        assert_eq!(c.ors.len(), 1);
        assert!(c.add(b(40, true), &mut n));
        assert!(c.propagate(&mut n));
        assert!(c.ors.is_empty() && c.lits.contains(&Lit::Bool(41, true)));
    }
}
