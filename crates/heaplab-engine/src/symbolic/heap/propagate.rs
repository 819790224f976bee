//! Unit propagation over a path condition: the variables its literals fix, replaced by their
//! values everywhere (the rule is in `symheap_forks.rs`'s module documentation; it runs after
//! every fork of a `symheap` path).
//!
//! Incremental along a path: a path condition only grows between two propagations, and the
//! last one left its prefix settled (no fixed variable in it but in its unit), so [`Settled`]
//! keeps what that prefix says (the values, and the bounds and exclusions of the variables
//! still free) and the next propagation reads only the conjuncts added since and those its
//! new values rewrite. Why: a path condition of `symheap` at k = 3 holds some 80 conjuncts, and
//! reading every one at each fork was a quarter of a TreeMap `put` run.

use crate::symbolic::term::{var_bit, Env, Memo, Node, Sort, Sym};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// Rounds of propagation (each after replacing the variables the last one fixed).
const ROUNDS: usize = 8;
/// A range this narrow or narrower is searched for its one value left.
const NARROW: i64 = 64;

/// What the last propagation along a path left: its path condition's settled prefix.
#[derive(Clone, Debug, Default)]
pub struct Settled {
    /// How many conjuncts that path condition had, and the last of them (to tell that a path
    /// condition extends it).
    len: usize,
    last: Option<Sym>,
    /// The variables it fixes, with their values, and their [`var_bit`]s.
    fixed: Rc<FxHashMap<u32, i64>>,
    bits: u64,
    /// The bounds and exclusions its conjuncts set on the variables still free, by variable.
    ranges: Rc<Vec<Literal>>,
}

impl Settled {
    /// What propagation found for `pc` (as [`Propagation::pc`] was made the path condition,
    /// with the missing units added after it).
    pub fn of(pc: &[Sym], found: Propagation) -> Settled {
        Settled {
            len: pc.len(),
            last: pc.last().cloned(),
            fixed: Rc::new(found.fixed),
            bits: found.bits,
            ranges: Rc::new(found.ranges),
        }
    }

    /// Whether `pc` extends the path condition this was left for (conjuncts are only added
    /// between two propagations; one that replaced them starts again from nothing).
    fn extended_by(&self, pc: &[Sym]) -> bool {
        match &self.last {
            None => self.len == 0,
            Some(last) => pc.get(self.len - 1).is_some_and(|c| c.addr() == last.addr()),
        }
    }
}

/// What one propagation found.
pub struct Propagation {
    /// The variables the path condition fixes, with their values, and their [`var_bit`]s.
    pub fixed: FxHashMap<u32, i64>,
    pub bits: u64,
    /// The conjuncts with the fixed variables replaced (units of fixed variables kept as they
    /// are, `true` dropped).
    pub pc: Vec<Sym>,
    /// Whether a conjunct changed, and whether a variable was fixed that the last
    /// propagation had not.
    pub changed: bool,
    pub fixed_more: bool,
    ranges: Vec<Literal>,
}

/// A literal about one variable: its value, a value it does not take, a bound.
#[derive(Clone, Copy, Debug)]
enum Literal {
    Is(u32, Sort, i64),
    Not(u32, i64),
    AtLeast(u32, i64),
    AtMost(u32, i64),
}

impl Literal {
    fn var(&self) -> u32 {
        match *self {
            Literal::Is(x, ..)
            | Literal::Not(x, _)
            | Literal::AtLeast(x, _)
            | Literal::AtMost(x, _) => x,
        }
    }
}

/// The variable a unit conjunct fixes, and its value (`b` / `¬b` / `x = v`).
pub fn unit(c: &Sym) -> Option<(u32, i64)> {
    c.fixed_value().map(|(x, _, v)| (x, v))
}

/// The literals of a conjunct that is a literal or a conjunction of them.
fn literals(c: &Sym, out: &mut Vec<Literal>) {
    if let Some((x, sort, v)) = c.fixed_value() {
        out.push(Literal::Is(x, sort, v));
        return;
    }
    let var = |s: &Sym| match s.node() {
        Node::Var(id, Sort::Int) => Some(*id),
        _ => None,
    };
    let bound = |a: &Sym, b: &Sym, strict: bool, negated: bool| -> Option<Literal> {
        // a ≤ b (a < b when strict), negated: b < a (b ≤ a).
        let (lower, x, n) = match (var(a), b.as_int(), a.as_int(), var(b)) {
            (Some(x), Some(n), _, _) => (false, x, n),
            (_, _, Some(n), Some(x)) => (true, x, n),
            _ => return None,
        };
        Some(match (lower, strict, negated) {
            (true, false, false) => Literal::AtLeast(x, n),
            (true, true, false) => Literal::AtLeast(x, n.checked_add(1)?),
            (true, false, true) => Literal::AtMost(x, n.checked_sub(1)?),
            (true, true, true) => Literal::AtMost(x, n),
            (false, false, false) => Literal::AtMost(x, n),
            (false, true, false) => Literal::AtMost(x, n.checked_sub(1)?),
            (false, false, true) => Literal::AtLeast(x, n.checked_add(1)?),
            (false, true, true) => Literal::AtLeast(x, n),
        })
    };
    let found = match c.node() {
        Node::And(a, b) => {
            literals(a, out);
            literals(b, out);
            None
        }
        Node::Le(a, b) => bound(a, b, false, false),
        Node::Lt(a, b) => bound(a, b, true, false),
        Node::Not(n) => match n.node() {
            Node::Eq(a, b) => match (var(a), b.as_int(), a.as_int(), var(b)) {
                (Some(x), Some(v), _, _) | (_, _, Some(v), Some(x)) => Some(Literal::Not(x, v)),
                _ => None,
            },
            Node::Le(a, b) => bound(a, b, false, true),
            Node::Lt(a, b) => bound(a, b, true, true),
            _ => None,
        },
        _ => None,
    };
    out.extend(found);
}

/// The variables `pc` fixes and its conjuncts with them replaced, from what propagation left
/// for a path condition `pc` may extend (see the module docs); `None` when propagation finds
/// the conjuncts contradictory.
pub fn propagate(from: &Settled, pc: &[Sym]) -> Option<Propagation> {
    let fresh_start = Settled::default();
    let from = if from.extended_by(pc) { from } else { &fresh_start };
    let mut fixed = (*from.fixed).clone();
    let mut ranges = (*from.ranges).clone();
    let mut bits = from.bits;
    let (mut changed, mut fixed_more) = (false, false);
    // The conjuncts, and which of them to read for literals: those added since, and later
    // those a round rewrites (the rest said what they say before).
    let mut current: Vec<Sym> = pc[..from.len].to_vec();
    let mut unread = vec![false; from.len];
    let value = |id: u32, _: Sort| fixed.get(&id).copied();
    let env = Env { value: &value, bits };
    let mut memo = Memo::default();
    for c in &pc[from.len..] {
        if let Some(s) = rewritten(c, &env, &fixed, &mut memo)? {
            changed |= s.addr() != c.addr();
            current.push(s);
            unread.push(true);
        } else {
            changed = true;
        }
    }
    let mut found = Vec::new();
    for _ in 0..ROUNDS {
        found.clear();
        for (c, _) in current.iter().zip(&unread).filter(|(_, u)| **u) {
            literals(c, &mut found);
        }
        let mut new = Fixed::default();
        if !fix(&mut found, &mut fixed, &mut ranges, &mut new) {
            return None;
        }
        if new.values.is_empty() {
            break;
        }
        fixed_more = true;
        bits |= new.bits;
        new.values.sort_unstable();
        let value = |id: u32, _: Sort| new.get(id);
        let env = Env { value: &value, bits: new.bits };
        let mut memo = Memo::default();
        let mut next = Vec::with_capacity(current.len());
        unread.clear();
        for c in &current {
            if let Some(s) = rewritten(c, &env, &fixed, &mut memo)? {
                let differs = s.addr() != c.addr();
                changed |= differs;
                next.push(s);
                unread.push(differs);
            } else {
                changed = true;
            }
        }
        current = next;
    }
    Some(Propagation { fixed, bits, pc: current, changed, fixed_more, ranges })
}

/// A conjunct with the values of `env` put in: `Some(None)` when that makes it `true`, `None`
/// when `false`. A unit of a fixed variable stays as it is (one per variable is kept).
fn rewritten(
    c: &Sym,
    env: &Env,
    fixed: &FxHashMap<u32, i64>,
    memo: &mut Memo,
) -> Option<Option<Sym>> {
    if unit(c).is_some_and(|(x, v)| fixed.get(&x) == Some(&v)) {
        return Some(Some(c.clone()));
    }
    let s = c.substitute(env, memo);
    match s.as_bool() {
        Some(false) => None,
        Some(true) => Some(None),
        None => Some(Some(s)),
    }
}

/// Adds what `found` fixes to `fixed` and `new`, and its bounds and exclusions of variables
/// still free to `ranges`; `false` when they contradict what is known (the conjuncts are
/// unsatisfiable: then nothing is rewritten).
fn fix(
    found: &mut Vec<Literal>,
    fixed: &mut FxHashMap<u32, i64>,
    ranges: &mut Vec<Literal>,
    new: &mut Fixed,
) -> bool {
    // The values first: most literals are the units of variables fixed before.
    for l in found.iter() {
        if let Literal::Is(x, sort, v) = *l {
            match fixed.get(&x) {
                Some(w) if *w != v => return false,
                Some(_) => {}
                None => {
                    fixed.insert(x, v);
                    new.add(x, sort, v);
                }
            }
        }
    }
    // Then the ranges of the free variables these literals bound or exclude values of.
    found.retain(|l| !matches!(l, Literal::Is(..)) && !fixed.contains_key(&l.var()));
    if !found.is_empty() || !new.values.is_empty() {
        ranges.extend(found.iter().copied());
        ranges.retain(|l| !fixed.contains_key(&l.var()));
        ranges.sort_unstable_by_key(Literal::var);
    }
    let mut touched: Vec<u32> = found.iter().map(Literal::var).collect();
    touched.sort_unstable();
    touched.dedup();
    for x in touched {
        let start = ranges.partition_point(|l| l.var() < x);
        let end = ranges.partition_point(|l| l.var() <= x);
        match narrowed(&ranges[start..end]) {
            Ok(Some(v)) => {
                fixed.insert(x, v);
                new.add(x, Sort::Int, v);
            }
            Ok(None) => {}
            Err(()) => return false,
        }
    }
    ranges.retain(|l| !fixed.contains_key(&l.var()));
    true
}

/// Variables fixed by a round of propagation, sorted by id once complete, and their
/// [`var_bit`]s.
#[derive(Default)]
struct Fixed {
    values: Vec<(u32, i64)>,
    bits: u64,
}

impl Fixed {
    fn add(&mut self, x: u32, sort: Sort, v: i64) {
        self.values.push((x, v));
        self.bits |= var_bit(x, sort);
    }

    fn get(&self, x: u32) -> Option<i64> {
        self.values.binary_search_by_key(&x, |(y, _)| *y).ok().map(|i| self.values[i].1)
    }
}

/// The one value a variable's bounds and exclusions leave it, when its range is narrow;
/// `Err` when they leave none.
fn narrowed(group: &[Literal]) -> Result<Option<i64>, ()> {
    let (mut lo, mut hi): (Option<i64>, Option<i64>) = (None, None);
    for l in group {
        match *l {
            Literal::AtLeast(_, n) => lo = Some(lo.map_or(n, |lo| lo.max(n))),
            Literal::AtMost(_, n) => hi = Some(hi.map_or(n, |hi| hi.min(n))),
            Literal::Is(..) | Literal::Not(..) => {}
        }
    }
    let (Some(lo), Some(hi)) = (lo, hi) else { return Ok(None) };
    if hi.checked_sub(lo).is_none_or(|w| w >= NARROW) {
        return Ok(None);
    }
    let out = |v: &i64| group.iter().any(|l| matches!(*l, Literal::Not(_, o) if o == *v));
    let mut left = (lo..=hi).filter(|v| !out(v));
    match (left.next(), left.next()) {
        (Some(v), None) => Ok(Some(v)),
        (None, _) => Err(()),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three integer variables (ids 0–2) and three Boolean ones (ids 3–5).
    fn x(i: u64) -> Sym {
        Sym::var(i as u32, Sort::Int)
    }

    fn b(i: u64) -> Sym {
        Sym::var(3 + i as u32, Sort::Bool)
    }

    /// A conjunct of the shapes `symheap` paths hold: units, bounds, exclusions, Boolean
    /// literals, definitions of a Boolean, disjunctions, conjunctions of literals, orders.
    fn conjunct(next: &mut impl FnMut(u64) -> u64) -> Sym {
        let v = |next: &mut dyn FnMut(u64) -> u64| Sym::int(next(5) as i64 - 2);
        let (i, j, k) = (next(3), next(3), next(3));
        match next(8) {
            0 => Sym::eq(&x(i), &v(next)),
            1 => match next(4) {
                0 => Sym::le(&x(i), &v(next)),
                1 => Sym::le(&v(next), &x(i)),
                2 => Sym::lt(&x(i), &v(next)),
                _ => Sym::not(&Sym::lt(&v(next), &x(i))),
            },
            2 => Sym::not(&Sym::eq(&x(i), &v(next))),
            3 if next(2) == 0 => b(k),
            3 => Sym::not(&b(k)),
            4 => Sym::eq(&b(k), &Sym::lt(&x(i), &x(j))),
            5 => Sym::or(&Sym::eq(&x(i), &v(next)), &b(k)),
            6 => Sym::and(&Sym::le(&x(i), &v(next)), &Sym::eq(&x(j), &v(next))),
            _ => Sym::lt(&x(i), &x(j)),
        }
    }

    /// Every assignment of the variables over a box around the constants used.
    fn assignments() -> impl Iterator<Item = [i64; 6]> {
        (0..5i64.pow(3) * 8).map(|n| {
            let int = |d: i64| (n / 5i64.pow(d as u32)) % 5 - 2;
            let bit = |d: i64| ((n / 125) >> d) & 1;
            [int(0), int(1), int(2), bit(0), bit(1), bit(2)]
        })
    }

    fn holds(pc: &[Sym], a: &[i64; 6]) -> bool {
        let env = |id: u32, _: Sort| a.get(id as usize).copied();
        pc.iter().all(|c| c.eval(&env) == Some(1))
    }

    /// Paths grown a few conjuncts at a time, propagated after each step as `settle` does
    /// (missing units added): the propagated path condition with the fixed values holds in
    /// exactly the worlds of the original (a contradiction only where there are none), and
    /// propagation from the last step's [`Settled`] finds what it finds from nothing.
    #[test]
    fn propagation_keeps_the_worlds_and_goes_on_from_where_it_stopped() {
        let mut next = crate::symbolic::xorshift(0x2545_f491_4f6c_dd1d);
        let (mut fixing, mut contradictions) = (0, 0);
        for _ in 0..300 {
            let mut pc: Vec<Sym> = Vec::new();
            let mut settled = Settled::default();
            for _ in 0..6 {
                for _ in 0..1 + next(2) {
                    pc.push(conjunct(&mut next));
                }
                let scratch = propagate(&Settled::default(), &pc);
                let Some(found) = propagate(&settled, &pc) else {
                    assert!(scratch.is_none(), "{pc:?}");
                    assert!(!assignments().any(|a| holds(&pc, &a)), "{pc:?}");
                    contradictions += 1;
                    break;
                };
                let scratch = scratch.expect("from nothing, no contradiction either");
                let sorted = |m: &FxHashMap<u32, i64>| {
                    let mut v: Vec<(u32, i64)> = m.iter().map(|(x, v)| (*x, *v)).collect();
                    v.sort_unstable();
                    v
                };
                assert_eq!(sorted(&found.fixed), sorted(&scratch.fixed), "{pc:?}");
                let mut units: Vec<Sym> = found.pc.clone();
                for (x, v) in sorted(&found.fixed) {
                    units.push(match x {
                        0..=2 => Sym::eq(&Sym::var(x, Sort::Int), &Sym::int(v)),
                        _ if v != 0 => Sym::var(x, Sort::Bool),
                        _ => Sym::not(&Sym::var(x, Sort::Bool)),
                    });
                }
                for a in assignments() {
                    assert_eq!(holds(&pc, &a), holds(&units, &a), "{pc:?} → {units:?} at {a:?}");
                }
                fixing += usize::from(found.fixed_more);
                pc = units;
                settled = Settled::of(&pc, found);
            }
        }
        assert!(fixing > 300 && contradictions > 50, "{fixing} {contradictions}");
    }

    /// A path condition that no longer extends the settled one (replaced, not grown) is
    /// propagated from nothing.
    #[test]
    fn a_replaced_path_condition_starts_again() {
        let pc = vec![Sym::eq(&x(0), &Sym::int(1)), Sym::lt(&x(1), &x(2))];
        let found = propagate(&Settled::default(), &pc).expect("satisfiable");
        let settled = Settled::of(&pc, found);
        let other = vec![Sym::eq(&x(0), &Sym::int(2)), Sym::lt(&x(0), &x(2))];
        let again = propagate(&settled, &other).expect("satisfiable");
        assert_eq!(again.fixed.get(&0), Some(&2));
        assert_eq!(again.pc.len(), 2);
    }
}
