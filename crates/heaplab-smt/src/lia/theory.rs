//! A conjunction of literals over the integers: `≤`, `=`, `≠` between linear forms, and
//! Boolean literals. Sat with integer values for every variable, unsat, or outside (a budget
//! ran out or a number left 128 bits).
//!
//! Steps, each sound over the integers:
//! 1. every constraint is divided by the gcd of its coefficients: an equality whose constant
//!    the gcd does not divide is false, an inequality's bound is rounded down (a cut that is
//!    exact for integers), a disequality the gcd does not divide is true;
//! 2. an equality with a coefficient ±1 is solved for that variable, which is substituted
//!    everywhere (its value is computed back from the model at the end);
//! 3. a variable only disequalities mention is *free*: the disequalities that mention one are
//!    set aside and satisfied at the end by choosing the free variables last (each excludes at
//!    most one value of its last free variable); the rest goes to the [`Simplex`], over the
//!    variables it mentions: single-variable constraints as bounds, the others as bounds of
//!    slack variables (one per distinct linear form, shared by a form and its negation);
//! 4. branch and bound: a non-integer value `v` of a variable splits into `x ≤ ⌊v⌋` and
//!    `x ≥ ⌈v⌉`; a violated disequality `f ≠ d` splits into `f ≤ d - 1` and `f ≥ d + 1` (lazily,
//!    only when the current point violates it). Both splits cover every integer point, so a
//!    search whose leaves are all infeasible proves unsat.

use rustc_hash::FxHashMap;

use super::encode::{Lin, Lit};
use super::rational::{ceil_div, checked_mul, euclid, floor_div, gcd, Overflow, Q};
use super::simplex::{Simplex, Status};

/// Budgets of one theory check.
#[derive(Debug)]
pub struct Budget<'a> {
    /// Branch-and-bound nodes.
    pub nodes: u32,
    /// Simplex pivots left for the whole query (shared by its theory checks).
    pub pivots: &'a mut u32,
    /// The largest tableau (rows × columns) worth building.
    pub cells: usize,
    /// Coefficients the substitution of unit equalities may still rewrite (shared by the
    /// query's theory checks).
    pub substitutions: &'a mut u64,
}

/// The result of a theory check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TheoryResult {
    /// Values for every integer variable and the Booleans the literals fix.
    Sat(Vec<i128>, Vec<Option<bool>>),
    Unsat,
    Outside(&'static str),
}

enum Norm {
    True,
    False,
    Keep(Lin),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Le,
    Eq,
    Ne,
}

/// Divides by the gcd of the coefficients (see the module docs, step 1).
fn normalize(mut lin: Lin, kind: Kind) -> Norm {
    let g = lin.coeffs.values().fold(0, |g, &c| gcd(g, c));
    if g == 0 {
        let holds = match kind {
            Kind::Le => lin.constant <= 0,
            Kind::Eq => lin.constant == 0,
            Kind::Ne => lin.constant != 0,
        };
        return if holds { Norm::True } else { Norm::False };
    }
    if g > 1 {
        let (q, r) = euclid(lin.constant, g);
        match kind {
            Kind::Eq if r != 0 => return Norm::False,
            Kind::Ne if r != 0 => return Norm::True,
            // Σ a·x ≤ -c becomes Σ (a/g)·x ≤ ⌊-c/g⌋, i.e. constant ⌈c/g⌉.
            Kind::Le => lin.constant = q + i128::from(r != 0),
            _ => lin.constant = q,
        }
        for c in lin.coeffs.values_mut() {
            *c = euclid(*c, g).0;
        }
    }
    Norm::Keep(lin)
}

/// Decides a conjunction of literals over `ints` integer and `bools` Boolean variables.
pub fn check(ints: usize, bools: usize, lits: &[Lit], budget: Budget<'_>) -> TheoryResult {
    match check_inner(ints, bools, lits, budget) {
        Ok(r) => r,
        Err(Overflow) => TheoryResult::Outside("arithmetic beyond 128 bits"),
    }
}

fn check_inner(
    ints: usize,
    bools: usize,
    lits: &[Lit],
    budget: Budget<'_>,
) -> Result<TheoryResult, Overflow> {
    let mut bool_values: Vec<Option<bool>> = vec![None; bools];
    let mut cons: Vec<(Kind, Lin)> = Vec::new();
    for lit in lits {
        match lit {
            Lit::Bool(b, v) => match bool_values[*b] {
                Some(prev) if prev != *v => return Ok(TheoryResult::Unsat),
                _ => bool_values[*b] = Some(*v),
            },
            Lit::Le(l) => cons.push((Kind::Le, l.clone())),
            Lit::Eq(l) => cons.push((Kind::Eq, l.clone())),
            Lit::Ne(l) => cons.push((Kind::Ne, l.clone())),
        }
    }
    let mut kept: Vec<(Kind, Lin)> = Vec::with_capacity(cons.len());
    for (kind, lin) in cons {
        match normalize(lin, kind) {
            Norm::True => {}
            Norm::False => return Ok(TheoryResult::Unsat),
            Norm::Keep(l) => kept.push((kind, l)),
        }
    }
    // Step 2: solve unit equalities.
    let mut solved: Vec<(usize, Lin)> = Vec::new();
    let unit = |(k, l): &(Kind, Lin)| *k == Kind::Eq && l.coeffs.values().any(|c| c.abs() == 1);
    // No entry before `from` is a unit equality: each was scanned and has not changed since.
    // The scan for the first one starts there, not at 0 (the same equality is found, without
    // scanning the hundreds of constraints before it again for each one solved).
    let mut from = 0;
    while let Some(pos) = kept.get(from..).and_then(|rest| rest.iter().position(unit)) {
        let pos = from + pos;
        let (_, eq) = kept.swap_remove(pos);
        // The last entry, not scanned yet, moved to `pos`.
        from = pos;
        let Some((&x, &a)) = eq.coeffs.iter().find(|(_, c)| c.abs() == 1) else { continue };
        // a·x + rest = 0 with a = ±1: x = -a·rest.
        let mut rest = eq.clone();
        rest.coeffs.remove(&x);
        let value = rest.scaled(-a)?;
        // In place: most constraints do not mention `x`, and moving each of them into a new
        // vector for every equality solved was most of this function's time on symheap's
        // queries (dozens of unit equalities over a few hundred constraints).
        let mut holds = Vec::new();
        for (i, (kind, lin)) in kept.iter_mut().enumerate() {
            let Some(c) = lin.coeffs.remove(&x) else { continue };
            // Changed: it may have become a unit equality. (Entries `retain` drops below are
            // changed ones, so none lies before `from`.)
            from = from.min(i);
            // Chains of solutions can fill every constraint with every variable (a quotient
            // and remainder per halving, over cells read at symbolic indexes): seconds per
            // query. Beyond the budget the query is outside, for Z3.
            let work = value.coeffs.len() as u64 + 1;
            if *budget.substitutions < work {
                return Ok(TheoryResult::Outside("substitution budget spent"));
            }
            *budget.substitutions -= work;
            lin.add_scaled(&value, c)?;
            match normalize(std::mem::take(lin), *kind) {
                Norm::True => holds.push(i),
                Norm::False => return Ok(TheoryResult::Unsat),
                Norm::Keep(l) => *lin = l,
            }
        }
        if !holds.is_empty() {
            let mut i = 0;
            kept.retain(|_| {
                i += 1;
                holds.binary_search(&(i - 1)).is_err()
            });
        }
        solved.push((x, value));
    }
    // Free variables: a variable no inequality or equality mentions, only disequalities.
    // Whatever values the others take, each disequality excludes at most one value of the
    // last free variable it mentions, so a disequality with a free variable can always be
    // satisfied by choosing that variable after the rest (`assign_free`); only the others go to
    // the simplex, over the variables they mention (symheap's references are all free once
    // their equalities are substituted, and the branch and bound over their disequalities
    // was most of the procedure's time).
    let mut bound = vec![false; ints];
    for (kind, lin) in &kept {
        if *kind != Kind::Ne {
            for &x in lin.coeffs.keys() {
                bound[x] = true;
            }
        }
    }
    let mut free_diseqs: Vec<Lin> = Vec::new();
    let mut simplex_side: Vec<(Kind, Lin)> = Vec::with_capacity(kept.len());
    for (kind, lin) in kept {
        if kind == Kind::Ne && lin.coeffs.keys().any(|&x| !bound[x]) {
            free_diseqs.push(lin);
        } else {
            simplex_side.push((kind, lin));
        }
    }
    let kept = simplex_side;
    // The simplex's columns: the variables the kept constraints mention, in index order (so
    // that its pivoting rule sees them in the same order).
    let mut used = vec![false; ints];
    for (_, lin) in &kept {
        for &x in lin.coeffs.keys() {
            used[x] = true;
        }
    }
    let columns: Vec<usize> = (0..ints).filter(|&x| used[x]).collect();
    let mut column: Vec<Option<usize>> = vec![None; ints];
    for (j, &x) in columns.iter().enumerate() {
        column[x] = Some(j);
    }
    let kept: Vec<(Kind, Lin)> = kept
        .into_iter()
        .map(|(kind, lin)| {
            let coeffs = lin.coeffs.iter().map(|(&x, &c)| (column[x].unwrap_or(x), c)).collect();
            (kind, Lin { coeffs, constant: lin.constant })
        })
        .collect();
    let all_ints = ints;
    let ints = columns.len();
    // Step 3: bounds and slack rows. A form is keyed by its coefficients with the first one
    // positive; `sign` says whether the constraint's form was negated to get there.
    let mut forms: Vec<Vec<(usize, i128)>> = Vec::new();
    // Fx, not SipHash: keys of 128-bit coefficients hashed per constraint, per query.
    let mut form_index: FxHashMap<Vec<(usize, i128)>, usize> = FxHashMap::default();
    // (target variable or form, lower, upper, ≠) in the simplex's terms, collected first.
    enum Target {
        Var(usize),
        Form(usize),
    }
    let mut bounds: Vec<(Target, Option<i128>, Option<i128>)> = Vec::new();
    let mut diseqs: Vec<(Target, i128)> = Vec::new();
    for (kind, lin) in &kept {
        let (target, sign) = if lin.coeffs.len() == 1 {
            let (&x, &a) = lin.coeffs.iter().next().ok_or(Overflow)?;
            (Target::Var(x), a)
        } else {
            let first = lin.coeffs.values().next().copied().unwrap_or(1);
            let sign = first.signum();
            let key: Vec<(usize, i128)> = lin.coeffs.iter().map(|(&v, &c)| (v, c * sign)).collect();
            let next = forms.len();
            let f = *form_index.entry(key.clone()).or_insert(next);
            if f == next {
                forms.push(key);
            }
            (Target::Form(f), sign)
        };
        // The constraint is sign·t + c ⋈ 0 for the target t (for a variable, sign is its
        // coefficient, ±1 after normalization unless it is an inequality).
        let c = lin.constant.checked_neg().ok_or(Overflow)?;
        match kind {
            Kind::Le => {
                // sign·t ≤ c (c is the negated constant).
                if sign > 0 {
                    bounds.push((target, None, Some(floor_div(c, sign).ok_or(Overflow)?)));
                } else {
                    bounds.push((target, Some(ceil_div(c, sign).ok_or(Overflow)?), None));
                }
            }
            Kind::Eq | Kind::Ne => {
                // sign·t = c; sign is ±1 for a form, and for a variable after step 1.
                let v = floor_div(c, sign).ok_or(Overflow)?;
                if checked_mul(v, sign) != Some(c) {
                    if *kind == Kind::Eq {
                        return Ok(TheoryResult::Unsat);
                    }
                    continue;
                }
                if *kind == Kind::Eq {
                    bounds.push((target, Some(v), Some(v)));
                } else {
                    diseqs.push((target, v));
                }
            }
        }
    }
    if (ints + forms.len()).saturating_mul(forms.len()) > budget.cells {
        return Ok(TheoryResult::Outside("a tableau beyond the size budget"));
    }
    let mut sx = Simplex::new(ints, &forms)?;
    let index = |t: &Target| match t {
        Target::Var(x) => *x,
        Target::Form(f) => ints + f,
    };
    for (t, lo, hi) in &bounds {
        let v = index(t);
        if let Some(l) = lo {
            if !sx.set_lower(v, Q::int(*l))? {
                return Ok(TheoryResult::Unsat);
            }
        }
        if let Some(u) = hi {
            if !sx.set_upper(v, Q::int(*u))? {
                return Ok(TheoryResult::Unsat);
            }
        }
    }
    let diseqs: Vec<(usize, i128)> = diseqs.iter().map(|(t, v)| (index(t), *v)).collect();
    // Step 4: branch and bound, depth first.
    let mut stack = vec![sx];
    let mut nodes = 0;
    let mut gave_up = false;
    while let Some(mut sx) = stack.pop() {
        nodes += 1;
        if nodes > budget.nodes {
            return Ok(TheoryResult::Outside("branch-and-bound budget spent"));
        }
        match sx.check(budget.pivots)? {
            Status::Infeasible => continue,
            Status::GaveUp => {
                gave_up = true;
                continue;
            }
            Status::Feasible => {}
        }
        if let Some(x) = (0..ints).find(|&x| !sx.value(x).is_int()) {
            let v = sx.value(x);
            let mut up = sx.clone();
            if up.set_lower(x, Q::int(v.ceil()))? {
                stack.push(up);
            }
            if sx.set_upper(x, Q::int(v.floor()))? {
                stack.push(sx);
            }
            continue;
        }
        if let Some(&(x, d)) = diseqs.iter().find(|(x, d)| sx.value(*x) == Q::int(*d)) {
            // Explore away from zero first: references get positive addresses.
            let mut low = sx.clone();
            let low_ok = low.set_upper(x, Q::int(d - 1))?;
            let high_ok = sx.set_lower(x, Q::int(d + 1))?;
            let (first, second) = if d >= 0 { (sx, low) } else { (low, sx) };
            let (first_ok, second_ok) = if d >= 0 { (high_ok, low_ok) } else { (low_ok, high_ok) };
            if second_ok {
                stack.push(second);
            }
            if first_ok {
                stack.push(first);
            }
            continue;
        }
        let mut values: Vec<i128> = vec![0; all_ints];
        for (j, &x) in columns.iter().enumerate() {
            values[x] = sx.value(j).as_int().ok_or(Overflow)?;
        }
        assign_free(&mut values, &bound, &free_diseqs)?;
        for (x, value) in solved.iter().rev() {
            let mut v = value.constant;
            for (&y, &c) in &value.coeffs {
                v = v.checked_add(checked_mul(c, values[y]).ok_or(Overflow)?).ok_or(Overflow)?;
            }
            values[*x] = v;
        }
        return Ok(TheoryResult::Sat(values, bool_values));
    }
    if gave_up {
        return Ok(TheoryResult::Outside("simplex pivot budget spent"));
    }
    Ok(TheoryResult::Unsat)
}

/// Values for the free variables (in index order, each the smallest value from 0 up) that
/// satisfy every disequality whose last free variable it is; the other variables have theirs.
fn assign_free(values: &mut [i128], bound: &[bool], diseqs: &[Lin]) -> Result<(), Overflow> {
    let value = |lin: &Lin, values: &[i128]| -> Result<i128, Overflow> {
        let mut v = lin.constant;
        for (&y, &c) in &lin.coeffs {
            v = v.checked_add(checked_mul(c, values[y]).ok_or(Overflow)?).ok_or(Overflow)?;
        }
        Ok(v)
    };
    let last_free = |lin: &Lin| lin.coeffs.keys().rev().find(|&&y| !bound[y]).copied();
    let mut mine: Vec<Vec<&Lin>> = vec![Vec::new(); values.len()];
    for lin in diseqs {
        if let Some(x) = last_free(lin) {
            mine[x].push(lin);
        }
    }
    for (x, lins) in mine.iter().enumerate() {
        if lins.is_empty() {
            continue;
        }
        // Each disequality excludes at most one value: at most `lins.len()` steps.
        let mut v: i128 = 0;
        loop {
            values[x] = v;
            let mut ok = true;
            for lin in lins {
                if value(lin, values)? == 0 {
                    ok = false;
                    break;
                }
            }
            if ok {
                break;
            }
            v = v.checked_add(1).ok_or(Overflow)?;
        }
    }
    Ok(())
}
