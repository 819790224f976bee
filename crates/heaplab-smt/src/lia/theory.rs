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

use std::cell::RefCell;
use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::encode::{Lin, Lit, Lits};
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

/// Steps 1 and 2 done over the first `len` literals of a conjunction: where the check of a
/// longer conjunction that starts with the same literals resumes.
///
/// Why: a split branch's literals are its parent's and a few more, and a prepared context's
/// questions all start with the context's literals (symheap: a hundred and more, a dozen of
/// them unit equalities); normalizing and substituting all of them again for every check was
/// a fifth of a symheap run. The default covers nothing.
#[derive(Clone, Default)]
pub struct Prefix {
    len: usize,
    /// What steps 1 and 2 left (`None` when they covered nothing yet, or found `unsat`).
    reduced: Option<Rc<Reduced>>,
    unsat: bool,
}

/// The constraints steps 1 and 2 keep, the equalities they solved and the Booleans fixed.
#[derive(Default)]
struct Reduced {
    kept: Vec<Kept>,
    marks: Vec<Mark>,
    solved: Vec<(usize, Lin)>,
    bool_values: Vec<Option<bool>>,
}

impl Prefix {
    /// Whether its literals are unsat over the integers.
    pub fn is_unsat(&self) -> bool {
        self.unsat
    }
}

/// A constraint `lin ⋈ 0` steps 1 and 2 keep, shared between a prefix and the checks that
/// resume from it: a check copies a prefix's hundred-odd constraints and rewrites the few its
/// substitutions touch (copying each one was a tenth of a symheap run in wasm).
type Kept = Rc<(Kind, Lin)>;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Le,
    Eq,
    Ne,
}

/// Whether `c ⋈ 0` holds.
fn holds(c: i128, kind: Kind) -> bool {
    match kind {
        Kind::Le => c <= 0,
        Kind::Eq => c == 0,
        Kind::Ne => c != 0,
    }
}

/// Divides `lin ⋈ 0` by the gcd of its coefficients in place (see the module docs, step 1):
/// `Some(holds)` when that decides the constraint, `None` when it stays.
fn normalize(lin: &mut Lin, kind: Kind) -> Option<bool> {
    let mut g = 0;
    for &c in lin.coeffs.values() {
        g = gcd(g, c);
        // Almost always: a coefficient ±1.
        if g == 1 {
            return None;
        }
    }
    if g == 0 {
        return Some(holds(lin.constant, kind));
    }
    if g > 1 {
        let (q, r) = euclid(lin.constant, g);
        match kind {
            Kind::Eq if r != 0 => return Some(false),
            Kind::Ne if r != 0 => return Some(true),
            // Σ a·x ≤ -c becomes Σ (a/g)·x ≤ ⌊-c/g⌋, i.e. constant ⌈c/g⌉.
            Kind::Le => lin.constant = q + i128::from(r != 0),
            _ => lin.constant = q,
        }
        for c in lin.coeffs.values_mut() {
            *c = euclid(*c, g).0;
        }
    }
    None
}

/// The buffers of the theory checks, kept from one check to the next (one per thread).
///
/// Why: a check is mostly small (a few dozen literals, a handful of slack forms) and each built
/// a dozen vectors and a key per constraint; allocation was a large part of its time, more so
/// in wasm, where `check_inner` took 28% of a symheap run against 17% natively.
#[derive(Default)]
struct Scratch {
    /// The normalized constraints, unit equalities substituted.
    kept: Vec<Kept>,
    /// Positions of `kept` a substitution made true.
    holds: Vec<usize>,
    /// While substituting, a [`Mark`] per entry of `kept`.
    marks: Vec<Mark>,
    /// Solved unit equalities: the variable and its value in the others.
    solved: Vec<(usize, Lin)>,
    /// Whether an inequality or equality mentions the variable.
    bound: Vec<bool>,
    /// Whether each entry of `kept` is a disequality over a free variable, set aside.
    aside: Vec<bool>,
    /// The variable of each simplex column, and the column of each variable (`NONE` if none).
    columns: Vec<usize>,
    column: Vec<usize>,
    /// The slack forms, one after another (`form_ends[f]` ends form `f`), and their index.
    form_pairs: Vec<(usize, i128)>,
    form_ends: Vec<usize>,
    // Fx, not SipHash: keys of 128-bit coefficients hashed per constraint, per query.
    form_index: FxHashMap<Vec<(usize, i128)>, usize>,
    /// A form being looked up: in the simplex's columns, its first coefficient positive.
    key: Vec<(usize, i128)>,
    /// (simplex variable, lower, upper) and (simplex variable, excluded value).
    bounds: Vec<(usize, Option<i128>, Option<i128>)>,
    diseqs: Vec<(usize, i128)>,
    bool_values: Vec<Option<bool>>,
}

const NONE: usize = usize::MAX;

thread_local! {
    // Per thread, not per query: a query makes a few checks, and a search's own buffers were
    // grown again from empty by every query.
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// Decides a conjunction of literals over `ints` integer and `bools` Boolean variables, resuming
/// from `from`, a prefix of `lits`. When sat, also the prefix that covers all of `lits`.
pub fn check(
    ints: usize,
    bools: usize,
    lits: &Lits,
    from: &Prefix,
    budget: Budget<'_>,
) -> (TheoryResult, Option<Prefix>) {
    if from.unsat {
        return (TheoryResult::Unsat, None);
    }
    match with_scratch(|s| check_inner(ints, bools, lits, from, budget, s)) {
        Ok(r) => r,
        Err(Overflow) => (TheoryResult::Outside("arithmetic beyond 128 bits"), None),
    }
}

/// Steps 1 and 2 over `lits`, resuming from `from` (a prefix of them) with at most
/// `substitutions` coefficients rewritten: the prefix that covers them, or `from` itself where
/// the budget or the arithmetic ran out.
pub fn prepare(bools: usize, lits: &Lits, from: &Prefix, substitutions: u64) -> Prefix {
    if from.unsat {
        return from.clone();
    }
    let mut budget = substitutions;
    with_scratch(|s| match s.reduce(bools, lits, from, &mut budget) {
        Ok(None) => s.save(lits.len(), s.bool_values.clone()),
        Ok(Some(TheoryResult::Unsat)) => Prefix { len: lits.len(), reduced: None, unsat: true },
        Ok(Some(_)) | Err(Overflow) => from.clone(),
    })
}

/// Runs `f` on this thread's buffers.
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut s) => f(&mut s),
        // Never nested; were it, a fresh one would do.
        Err(_) => f(&mut Scratch::default()),
    })
}

fn check_inner(
    all_ints: usize,
    bools: usize,
    lits: &Lits,
    from: &Prefix,
    budget: Budget<'_>,
    s: &mut Scratch,
) -> Result<(TheoryResult, Option<Prefix>), Overflow> {
    if let Some(r) = s.reduce(bools, lits, from, &mut *budget.substitutions)? {
        return Ok((r, None));
    }
    s.set_free_aside(all_ints);
    let ints = s.columns(all_ints);
    if !s.targets(ints)? {
        return Ok((TheoryResult::Unsat, None));
    }
    let forms = s.form_ends.len();
    if (ints + forms).saturating_mul(forms) > budget.cells {
        return Ok((TheoryResult::Outside("a tableau beyond the size budget"), None));
    }
    let start = |f: usize| if f == 0 { 0 } else { s.form_ends[f - 1] };
    let slices = (0..forms).map(|f| &s.form_pairs[start(f)..s.form_ends[f]]);
    let mut sx = Simplex::new(ints, slices)?;
    for &(v, lo, hi) in &s.bounds {
        if let Some(l) = lo {
            if !sx.set_lower(v, Q::int(l))? {
                return Ok((TheoryResult::Unsat, None));
            }
        }
        if let Some(u) = hi {
            if !sx.set_upper(v, Q::int(u))? {
                return Ok((TheoryResult::Unsat, None));
            }
        }
    }
    let sx = match branch_and_bound(sx, ints, &s.diseqs, budget)? {
        Found::Point(sx) => sx,
        Found::None => return Ok((TheoryResult::Unsat, None)),
        Found::Outside(why) => return Ok((TheoryResult::Outside(why), None)),
    };
    let mut values: Vec<i128> = vec![0; all_ints];
    for (j, &x) in s.columns.iter().enumerate() {
        values[x] = sx.value(j).as_int().ok_or(Overflow)?;
    }
    assign_free(&mut values, &s.bound, &s.kept, &s.aside)?;
    for (x, value) in s.solved.iter().rev() {
        values[*x] = value_at(value, &values)?;
    }
    let bool_values = s.bool_values.clone();
    let prefix = s.save(lits.len(), s.bool_values.clone());
    Ok((TheoryResult::Sat(values, bool_values), Some(prefix)))
}

/// What the branch and bound found.
enum Found {
    /// A simplex whose point is integral and satisfies every disequality.
    Point(Simplex),
    /// No such point: unsat.
    None,
    /// Why the search gave up.
    Outside(&'static str),
}

/// Step 4: branch and bound from `sx` (see [`Found`]).
fn branch_and_bound(
    sx: Simplex,
    ints: usize,
    diseqs: &[(usize, i128)],
    budget: Budget<'_>,
) -> Result<Found, Overflow> {
    // Depth first.
    let mut stack = vec![sx];
    let mut nodes = 0;
    let mut gave_up = false;
    while let Some(mut sx) = stack.pop() {
        nodes += 1;
        if nodes > budget.nodes {
            return Ok(Found::Outside("branch-and-bound budget spent"));
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
        return Ok(Found::Point(sx));
    }
    if gave_up {
        return Ok(Found::Outside("simplex pivot budget spent"));
    }
    Ok(Found::None)
}

/// What the substitution asks of a constraint again and again, kept next to it in a small
/// vector so that it does not go through the constraint's pairs each time (in the dozens of
/// substitutions of a symheap check, the scans over the constraints were most of its time).
#[derive(Clone, Copy)]
struct Mark {
    /// A bit per variable the constraint mentions, modulo 64: a constraint whose mask lacks a
    /// variable's bit does not mention it.
    vars: u64,
    /// Whether it is a unit equality (one with a coefficient ±1).
    unit: bool,
}

fn mark(kind: Kind, lin: &Lin) -> Mark {
    Mark {
        vars: lin.coeffs.keys().fold(0, |m, &x| m | 1 << (x % 64)),
        unit: kind == Kind::Eq && lin.coeffs.values().any(|c| c.abs() == 1),
    }
}

/// Removes the entries at the sorted positions `at`, keeping the others' order.
fn remove_at<T>(v: &mut Vec<T>, at: &[usize]) {
    let mut i = 0;
    v.retain(|_| {
        i += 1;
        at.binary_search(&(i - 1)).is_err()
    });
}

const SPENT: &str = "substitution budget spent";

/// Takes the work of substituting `value` into a constraint from `budget`; `false` when the
/// budget does not hold it. Chains of solutions can fill every constraint with every variable
/// (a quotient and remainder per halving, over cells read at symbolic indexes): seconds per
/// query. Beyond the budget the query is outside, for Z3.
fn spend(budget: &mut u64, value: &Lin) -> bool {
    let work = value.coeffs.len() as u64 + 1;
    if *budget < work {
        return false;
    }
    *budget -= work;
    true
}

/// `lin`'s value at `values`.
fn value_at(lin: &Lin, values: &[i128]) -> Result<i128, Overflow> {
    let mut v = lin.constant;
    for (&y, &c) in &lin.coeffs {
        v = v.checked_add(checked_mul(c, values[y]).ok_or(Overflow)?).ok_or(Overflow)?;
    }
    Ok(v)
}

impl Scratch {
    /// Steps 1 and 2 over `lits`, resuming from `from` (a prefix of them): the check's answer
    /// when they decide it.
    fn reduce(
        &mut self,
        bools: usize,
        lits: &Lits,
        from: &Prefix,
        budget: &mut u64,
    ) -> Result<Option<TheoryResult>, Overflow> {
        // A prefix longer than the literals cannot be theirs: start over (never happens).
        let empty = Prefix::default();
        let from = if from.len <= lits.len() { from } else { &empty };
        let new = lits.after(from.len);
        match &from.reduced {
            Some(r) => {
                self.kept.clone_from(&r.kept);
                self.marks.clone_from(&r.marks);
                self.solved.clone_from(&r.solved);
                self.bool_values.clone_from(&r.bool_values);
            }
            None => {
                self.kept.clear();
                self.marks.clear();
                self.solved.clear();
                self.bool_values.clear();
            }
        }
        if self.bool_values.len() < bools {
            self.bool_values.resize(bools, None);
        }
        // The prefix's constraints hold no unit equality: the substitution resumes at the
        // first new one.
        let old = self.kept.len();
        if let Some(r) = self.normalize(new, budget)? {
            return Ok(Some(r));
        }
        self.substitute(old, budget)
    }

    /// Step 1 over the new literals, straight from them into `kept` (Booleans into
    /// `bool_values`), after the substitutions already solved; the check's answer when this
    /// decides it.
    fn normalize<'a>(
        &mut self,
        lits: impl Iterator<Item = &'a Lit>,
        budget: &mut u64,
    ) -> Result<Option<TheoryResult>, Overflow> {
        let Scratch { kept, marks, solved, bool_values, .. } = self;
        for lit in lits {
            let (kind, lin) = match lit {
                Lit::Bool(b, v) => match bool_values[*b] {
                    Some(prev) if prev != *v => return Ok(Some(TheoryResult::Unsat)),
                    _ => {
                        bool_values[*b] = Some(*v);
                        continue;
                    }
                },
                Lit::Le(l) => (Kind::Le, l),
                Lit::Eq(l) => (Kind::Eq, l),
                Lit::Ne(l) => (Kind::Ne, l),
            };
            if lin.coeffs.is_empty() {
                if !holds(lin.constant, kind) {
                    return Ok(Some(TheoryResult::Unsat));
                }
                continue;
            }
            let mut lin = lin.clone();
            // In the order solved: a value mentions only variables solved after it.
            for (x, value) in solved.iter() {
                if let Some(c) = lin.coeffs.remove(x) {
                    if !spend(budget, value) {
                        return Ok(Some(TheoryResult::Outside(SPENT)));
                    }
                    lin.add_scaled(value, c)?;
                }
            }
            match normalize(&mut lin, kind) {
                Some(true) => {}
                Some(false) => return Ok(Some(TheoryResult::Unsat)),
                None => {
                    marks.push(mark(kind, &lin));
                    kept.push(Rc::new((kind, lin)));
                }
            }
        }
        Ok(None)
    }

    /// Step 2: solves the unit equalities of `kept` (none before `from`) and substitutes them
    /// in the rest (`budget`: the coefficients the query may still rewrite); the check's
    /// answer when this decides it.
    fn substitute(
        &mut self,
        mut from: usize,
        budget: &mut u64,
    ) -> Result<Option<TheoryResult>, Overflow> {
        let Scratch { kept, holds, solved, marks, .. } = self;
        // No entry before `from` is a unit equality: each was scanned and has not changed since.
        // The scan for the first one starts there, not at 0 (the same equality is found, without
        // scanning the hundreds of constraints before it again for each one solved).
        while let Some(pos) = marks.get(from..).and_then(|rest| rest.iter().position(|m| m.unit)) {
            let pos = from + pos;
            let (_, mut value) = Rc::unwrap_or_clone(kept.swap_remove(pos));
            marks.swap_remove(pos);
            // The last entry, not scanned yet, moved to `pos`.
            from = pos;
            let Some((&x, &a)) = value.coeffs.iter().find(|(_, c)| c.abs() == 1) else { continue };
            // a·x + rest = 0 with a = ±1: x = -a·rest.
            value.coeffs.remove(&x);
            if a == 1 {
                value.negate()?;
            }
            // In place: most constraints do not mention `x`, and moving each of them into a new
            // vector for every equality solved was most of this function's time on symheap's
            // queries (dozens of unit equalities over a few hundred constraints).
            holds.clear();
            let bit = 1 << (x % 64);
            for (i, (entry, m)) in kept.iter_mut().zip(marks.iter_mut()).enumerate() {
                if m.vars & bit == 0 || !entry.1.coeffs.keys().any(|&y| y == x) {
                    continue;
                }
                // Copied here if the prefix shares it.
                let (kind, lin) = Rc::make_mut(entry);
                let Some(c) = lin.coeffs.remove(&x) else { continue };
                // Changed: it may have become a unit equality. (Entries `retain` drops below
                // are changed ones, so none lies before `from`.)
                from = from.min(i);
                if !spend(budget, &value) {
                    return Ok(Some(TheoryResult::Outside(SPENT)));
                }
                lin.add_scaled(&value, c)?;
                match normalize(lin, *kind) {
                    Some(true) => holds.push(i),
                    Some(false) => return Ok(Some(TheoryResult::Unsat)),
                    None => *m = mark(*kind, lin),
                }
            }
            if !holds.is_empty() {
                remove_at(kept, holds);
                remove_at(marks, holds);
            }
            solved.push((x, value));
        }
        Ok(None)
    }

    /// The prefix of `len` literals that steps 1 and 2 left in `kept`, `solved` and `bools`
    /// (the buffers move into it; the next check grows them again).
    fn save(&mut self, len: usize, bool_values: Vec<Option<bool>>) -> Prefix {
        let reduced = Reduced {
            kept: std::mem::take(&mut self.kept),
            marks: std::mem::take(&mut self.marks),
            solved: std::mem::take(&mut self.solved),
            bool_values,
        };
        Prefix { len, reduced: Some(Rc::new(reduced)), unsat: false }
    }

    /// Free variables: a variable no inequality or equality mentions, only disequalities.
    /// Whatever values the others take, each disequality excludes at most one value of the
    /// last free variable it mentions, so a disequality with a free variable can always be
    /// satisfied by choosing that variable after the rest (`assign_free`); only the others go
    /// to the simplex, over the variables they mention (symheap's references are all free once
    /// their equalities are substituted, and the branch and bound over their disequalities
    /// was most of the procedure's time). Marks those disequalities in `aside`.
    fn set_free_aside(&mut self, ints: usize) {
        let Scratch { kept, bound, aside, .. } = self;
        bound.clear();
        bound.resize(ints, false);
        for (kind, lin) in kept.iter().map(|e| &**e) {
            if *kind != Kind::Ne {
                for &x in lin.coeffs.keys() {
                    bound[x] = true;
                }
            }
        }
        aside.clear();
        aside.extend(
            kept.iter()
                .map(|e| &**e)
                .map(|(kind, lin)| *kind == Kind::Ne && lin.coeffs.keys().any(|&x| !bound[x])),
        );
    }

    /// The simplex's columns: the variables its constraints mention, in index order (so that
    /// its pivoting rule sees them in the same order); returns how many there are.
    fn columns(&mut self, ints: usize) -> usize {
        let Scratch { kept, aside, columns, column, .. } = self;
        column.clear();
        column.resize(ints, NONE);
        for (_, lin) in entries(kept, aside, false) {
            for &x in lin.coeffs.keys() {
                column[x] = 0;
            }
        }
        columns.clear();
        for (x, c) in column.iter_mut().enumerate() {
            if *c != NONE {
                *c = columns.len();
                columns.push(x);
            }
        }
        columns.len()
    }

    /// Step 3: the bounds and excluded values of the simplex's constraints on its `ints`
    /// variables (its columns) and its slack forms; `false` when an equality has no integer
    /// solution.
    fn targets(&mut self, ints: usize) -> Result<bool, Overflow> {
        let Scratch {
            kept,
            aside,
            column,
            form_pairs,
            form_ends,
            form_index,
            key,
            bounds,
            diseqs,
            ..
        } = self;
        form_pairs.clear();
        form_ends.clear();
        form_index.clear();
        bounds.clear();
        diseqs.clear();
        for (kind, lin) in entries(kept, aside, false) {
            // A form is keyed by its coefficients in columns with the first one positive;
            // `sign` says whether the constraint's form was negated to get there.
            let (target, sign) = if lin.coeffs.len() == 1 {
                let (&x, &a) = lin.coeffs.iter().next().ok_or(Overflow)?;
                (column[x], a)
            } else {
                let sign = lin.coeffs.values().next().copied().unwrap_or(1).signum();
                key.clear();
                for &(v, c) in lin.coeffs.as_slice() {
                    let c = if sign > 0 { c } else { c.checked_neg().ok_or(Overflow)? };
                    key.push((column[v], c));
                }
                let f = match form_index.get(key.as_slice()) {
                    Some(&f) => f,
                    None => {
                        let f = form_ends.len();
                        form_index.insert(key.clone(), f);
                        form_pairs.extend_from_slice(key);
                        form_ends.push(form_pairs.len());
                        f
                    }
                };
                (ints + f, sign)
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
                            return Ok(false);
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
        Ok(true)
    }
}

/// The entries of `kept` that are set aside (`aside`), or those that go to the simplex.
fn entries<'a>(
    kept: &'a [Kept],
    aside: &'a [bool],
    set_aside: bool,
) -> impl Iterator<Item = &'a (Kind, Lin)> + 'a {
    kept.iter().zip(aside).filter(move |(_, &a)| a == set_aside).map(|(entry, _)| &**entry)
}

/// Values for the free variables (in index order, each the smallest value from 0 up) that
/// satisfy every disequality whose last free variable it is (the entries of `kept` set
/// `aside`); the other variables have theirs.
fn assign_free(
    values: &mut [i128],
    bound: &[bool],
    kept: &[Kept],
    aside: &[bool],
) -> Result<(), Overflow> {
    let last_free = |lin: &Lin| lin.coeffs.keys().rev().find(|&&y| !bound[y]).copied();
    let mut mine: Vec<Vec<&Lin>> = vec![Vec::new(); values.len()];
    for (_, lin) in entries(kept, aside, true) {
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
                if value_at(lin, values)? == 0 {
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
