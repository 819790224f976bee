//! What propagation knows of a conjunction: the literals it states, by number, each integer
//! variable's range, and what those say of a disjunct.
//!
//! [`super::propagate`] runs the fixed point over these: literals are numbered once
//! ([`Numbering`], [`Shape`]), and [`Known`] holds what the conjunction states.

use super::bounds::{range, tighten, unit_range, Interval};
use super::encode::{Formula, Lin, Lit};
use super::rational::{checked_mul, floor_div};
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;

/// A literal in a form where a literal and its sign-flipped twin (`x - y = 0`, `y - x = 0`)
/// are equal.
pub(super) fn key(l: &Lit) -> Option<Lit> {
    Some(match l {
        Lit::Eq(lin) => Lit::Eq(oriented(lin)?),
        Lit::Ne(lin) => Lit::Ne(oriented(lin)?),
        Lit::Le(lin) => Lit::Le(lin.clone()),
        Lit::Bool(b, v) => Lit::Bool(*b, *v),
    })
}

/// `lin` or `-lin`, whichever has a positive first coefficient (`= 0` and `≠ 0` do not care).
pub(super) fn oriented(lin: &Lin) -> Option<Lin> {
    match lin.coeffs.values().next() {
        Some(c) if *c < 0 => lin.scaled(-1).ok(),
        _ => Some(lin.clone()),
    }
}

/// The literal that holds exactly when `l` does not (over the integers).
pub(super) fn complement(l: &Lit) -> Option<Lit> {
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
    pub(super) fn id(&mut self, l: Lit) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(l).or_insert(next)
    }

    /// The numbers of `l`'s key and of its complement (`None` where that form overflows).
    pub(super) fn lit(&mut self, l: &Lit) -> Shape {
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
    pub(super) fn excluded(&self, known: &Known, x: usize, v: i128) -> bool {
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
pub(super) fn value_of(l: &Lit) -> Option<(usize, i128, bool)> {
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
    let v = floor_div(k, c)?;
    (checked_mul(v, c) == Some(k)).then_some((x, v, eq))
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
pub(super) struct Known {
    pub(super) ids: Vec<bool>,
    pub(super) ranges: Vec<Interval>,
    pub(super) conflict: bool,
    /// A variable's range became one value, or a literal over several variables joined, since
    /// those literals were last looked at ([`super::propagate::Clauses::settle`]).
    pub(super) unsettled: bool,
    /// The variables (their [`slot_int`] and [`slot_bool`] places, as bits) a literal was
    /// stated over or whose range narrowed since the last round of [`super::propagate::Clauses::propagate`]:
    /// only disjunctions over them can change.
    pub(super) touched: Vec<u64>,
}

impl Known {
    pub(super) fn insert(&mut self, id: u32) {
        let i = id as usize;
        if self.ids.len() <= i {
            self.ids.resize(i + 1, false);
        }
        self.ids[i] = true;
    }

    pub(super) fn contains(&self, id: Option<u32>) -> bool {
        id.is_some_and(|i| self.ids.get(i as usize).copied().unwrap_or(false))
    }

    pub(super) fn touch(&mut self, slot: u32) {
        let (word, bit) = ((slot / 64) as usize, slot % 64);
        if self.touched.len() <= word {
            self.touched.resize(word + 1, 0);
        }
        self.touched[word] |= 1 << bit;
    }

    pub(super) fn touch_lit(&mut self, l: &Lit) {
        match l {
            Lit::Le(lin) | Lit::Eq(lin) | Lit::Ne(lin) => {
                for &x in lin.coeffs.keys() {
                    self.touch(slot_int(x));
                }
            }
            Lit::Bool(b, _) => self.touch(slot_bool(*b)),
        }
    }

    pub(super) fn range(&self, x: usize) -> Interval {
        self.ranges.get(x).copied().unwrap_or((None, None))
    }

    /// `x`'s value, if its range holds one value.
    pub(super) fn fixed(&self, x: usize) -> Option<i128> {
        match self.range(x) {
            (Some(lo), Some(hi)) if lo == hi => Some(lo),
            _ => None,
        }
    }

    /// Narrows `x`'s range to `[lo, hi]` (a side `None`: unchanged), then past the values the
    /// known literals exclude at its ends.
    pub(super) fn narrow(
        &mut self,
        x: usize,
        lo: Option<i128>,
        hi: Option<i128>,
        numbers: &Numbering,
    ) {
        if self.ranges.len() <= x {
            self.ranges.resize(x + 1, (None, None));
        }
        let (was, was_fixed) = (self.ranges[x], self.fixed(x).is_some());
        tighten(&mut self.ranges, x, (lo, hi));
        if self.ranges[x] != was {
            self.touch(slot_int(x));
        }
        loop {
            let (lo, hi) = self.ranges[x];
            if lo.zip(hi).is_some_and(|(lo, hi)| lo > hi) {
                self.conflict = true;
                return;
            }
            let one_value = self.fixed(x).is_some();
            if one_value && !was_fixed {
                self.unsettled = true;
            }
            let low_out = lo.filter(|&lo| numbers.excluded(self, x, lo));
            let high_out = hi.filter(|&hi| low_out.is_none() && numbers.excluded(self, x, hi));
            if low_out.is_none() && high_out.is_none() {
                return;
            }
            // The one value left is excluded.
            if one_value {
                self.conflict = true;
                return;
            }
            // An end moves inwards; past the integers' limits there is nothing left to move to.
            let moved = match (low_out, high_out) {
                (Some(lo), _) => lo.checked_add(1).map(|v| self.ranges[x].0 = Some(v)),
                (_, Some(hi)) => hi.checked_sub(1).map(|v| self.ranges[x].1 = Some(v)),
                _ => None,
            };
            if moved.is_none() {
                return;
            }
            self.touch(slot_int(x));
        }
    }

    /// Notes `l` as holding: its number, and the range of its variable if it has one.
    ///
    /// Only the key is numbered here (not the complement, as [`Numbering::lit`] would): the
    /// conjunction's own literals are many and a query's small, and a literal stated with its
    /// complement among them is left to the theory.
    pub(super) fn state(&mut self, l: &Lit, numbers: &mut Numbering) {
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
    pub(super) fn narrow_value(&mut self, x: usize, v: i128, eq: bool, numbers: &Numbering) {
        if eq {
            self.narrow(x, Some(v), Some(v), numbers);
        } else {
            let (lo, hi) = self.range(x);
            if lo == Some(v) || hi == Some(v) {
                self.narrow(x, None, None, numbers);
            }
        }
    }

    /// [`Known::state`] for a literal already numbered: `s` is its shape.
    pub(super) fn state_shaped(&mut self, s: &Shape, numbers: &Numbering) {
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
pub(super) fn over_several(l: &Lit) -> bool {
    matches!(l, Lit::Le(lin) | Lit::Eq(lin) | Lit::Ne(lin) if lin.coeffs.len() > 1)
}

/// What the variables' ranges say of `lin`'s literal `l` over several variables: the least and
/// the greatest `lin` can be, against 0.
fn by_ranges(l: &Lit, known: &Known) -> Option<bool> {
    let lin = match l {
        Lit::Le(lin) | Lit::Eq(lin) | Lit::Ne(lin) => lin,
        Lit::Bool(..) => return None,
    };
    let (lo, hi) = range(lin, &known.ranges);
    match l {
        Lit::Le(_) if hi.is_some_and(|h| h <= 0) => Some(true),
        Lit::Le(_) if lo.is_some_and(|l| l > 0) => Some(false),
        Lit::Eq(_) | Lit::Ne(_) => {
            let eq = matches!(l, Lit::Eq(_));
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

/// What the known literals say of a conjunction (`decisive` false: one false part decides it)
/// or a disjunction (`decisive` true: one true part decides it) of the parts `gs`, whose
/// formulas are `fs` where known.
fn combine(gs: &[Shape], fs: Option<&Vec<Formula>>, decisive: bool, known: &Known) -> Option<bool> {
    let mut all_other = true;
    for (i, g) in gs.iter().enumerate() {
        match status(g, fs.map(|fs| &fs[i]), known) {
            Some(v) if v == decisive => return Some(decisive),
            Some(_) => {}
            None => all_other = false,
        }
    }
    all_other.then_some(!decisive)
}

/// What the known literals say of a formula: `Some(true)` stated, `Some(false)` contradicted.
/// `f` is the formula `s` is the shape of, for the literals over several variables (`None`:
/// those are left undecided).
pub(super) fn status(s: &Shape, f: Option<&Formula>, known: &Known) -> Option<bool> {
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
            if let Some(value) = known.fixed(*x) {
                Some((value == *v) == *eq)
            } else if lo.is_some_and(|lo| *v < lo) || hi.is_some_and(|hi| *v > hi) {
                Some(!*eq)
            } else {
                None
            }
        }
        Shape::Bound(_, _, x, blo, bhi) => {
            let (lo, hi) = known.range(*x);
            // Each end of the bound is met by the range's end on its side.
            let above = |b: Option<i128>| b.is_none_or(|b| lo.is_some_and(|lo| b <= lo));
            let below = |b: Option<i128>| b.is_none_or(|b| hi.is_some_and(|hi| hi <= b));
            if above(*blo) && below(*bhi) {
                Some(true)
            } else if hi.zip(*blo).is_some_and(|(hi, b)| hi < b)
                || lo.zip(*bhi).is_some_and(|(lo, b)| b < lo)
            {
                Some(false)
            } else {
                None
            }
        }
        Shape::And(gs) => match f {
            Some(Formula::And(fs)) if fs.len() == gs.len() => combine(gs, Some(fs), false, known),
            _ => combine(gs, None, false, known),
        },
        Shape::Or(gs) => match f {
            Some(Formula::Or(fs)) if fs.len() == gs.len() => combine(gs, Some(fs), true, known),
            _ => combine(gs, None, true, known),
        },
    }
}

/// A variable's place among the touched ones: integer `x` at `2x`, Boolean `b` at `2b + 1`.
pub(super) fn slot_int(x: usize) -> u32 {
    (2 * x) as u32
}

pub(super) fn slot_bool(b: usize) -> u32 {
    (2 * b + 1) as u32
}

pub(super) fn lit_slots(l: &Lit, out: &mut Vec<u32>) {
    match l {
        Lit::Le(lin) | Lit::Eq(lin) | Lit::Ne(lin) => {
            out.extend(lin.coeffs.keys().map(|&x| slot_int(x)))
        }
        Lit::Bool(b, _) => out.push(slot_bool(*b)),
    }
}

pub(super) fn formula_slots(f: &Formula, out: &mut Vec<u32>) {
    match f {
        Formula::Lit(l) => lit_slots(l, out),
        Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|g| formula_slots(g, out)),
    }
}
