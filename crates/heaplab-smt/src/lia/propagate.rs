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

use std::rc::Rc;

use super::bounds::unit_range;
use super::encode::{Formula, Lin, Lit, Lits};
use super::known::{formula_slots, over_several, status, Known};
use super::known::{Numbering, Shape};
use super::rational::checked_mul;

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

/// The search's clauses: the conjunction's literals and its disjunctions, each literal
/// numbered once (when it joins) for the propagation.
///
/// The disjunctions are shared between copies (each split branch copies the clauses, and each
/// question of a prepared context copies its propagated ones) and rebuilt only where a
/// propagation changes them.
#[derive(Clone)]
pub struct Clauses {
    pub lits: Lits,
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
    lits: &mut Lits,
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
        Clauses { lits: Lits::from(lits), ors, unexamined: 0, known }
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
            for l in self.lits.iter() {
                let lin = match l {
                    Lit::Le(lin) | Lit::Eq(lin) | Lit::Ne(lin) if lin.coeffs.len() > 1 => lin,
                    _ => continue,
                };
                // The constant plus the fixed variables' terms, and the one variable left.
                let (mut sum, mut open) = (Some(lin.constant), None);
                for (&x, &c) in &lin.coeffs {
                    match self.known.fixed(x) {
                        Some(v) => sum = sum.and_then(|s| s.checked_add(checked_mul(c, v)?)),
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
