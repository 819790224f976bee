//! The explorer's [`PathSolver`] on top of `heaplab_smt`: every path-condition query goes through
//! a [`SolverFrontend`] (local decisions, cache, statistics) to any [`Solver`] — the z3 process
//! natively, z3 wasm in the browser.
//!
//! The explorer steps synchronously, so the async solver is driven with [`block_on`]; the native
//! transport is ready on the first poll. Terms are translated from [`Sym`] here. `heaplab_smt`
//! terms are linear; a product of two symbolic values or a division by a symbolic value cannot
//! be expressed, and such a query is answered [`SatAnswer::Unknown`] (the branch is kept and the
//! failure counted) rather than guessed.

use super::solve::{Model, PathSolver, SatAnswer, SolverCounts};
use super::term::{Node, Sort, Sym};
use heaplab_smt::frontend::CONTEXT_MIN;
use heaplab_smt::{block_on, Answer, NlOp, Query, Solver, SolverFrontend, Term, Var};

/// The slices of path conditions a path solver was asked about lately, each with the id its
/// frontend gave it ([`SolverFrontend::check_in_context_id`]): the executor asks several
/// questions of one slice in a row, and with the id the frontend finds its prepared context
/// without the slice being translated, hashed and compared again. A slice is the same when it
/// holds the same shared expressions, by address; the copies kept here keep those addresses
/// from being reused.
#[derive(Default)]
pub struct SliceIds {
    recent: Vec<(Vec<Sym>, u64)>,
}

/// Slices remembered by [`SliceIds`].
const RECENT_SLICES: usize = 32;

impl SliceIds {
    /// The id of `slice`, from `fresh` when it is not among the recent ones; and for a new one,
    /// the id and length of the longest recent slice it starts with (a path condition grows at
    /// its end, so the next slice is most often the last one and a few more conjuncts).
    pub fn id(
        &mut self,
        slice: &[Sym],
        fresh: impl FnOnce() -> u64,
    ) -> (u64, Option<(u64, usize)>) {
        let same = |kept: &[Sym], upto: usize| {
            kept.len() == upto && kept.iter().zip(slice).all(|(a, b)| a.addr() == b.addr())
        };
        let (entry, parent) = match self.recent.iter().position(|(kept, _)| same(kept, slice.len()))
        {
            Some(i) => (self.recent.remove(i), None),
            None => {
                let parent = self
                    .recent
                    .iter()
                    .filter(|(kept, _)| kept.len() < slice.len() && same(kept, kept.len()))
                    .max_by_key(|(kept, _)| kept.len())
                    .map(|(kept, id)| (*id, kept.len()));
                ((slice.to_vec(), fresh()), parent)
            }
        };
        let id = entry.1;
        self.recent.insert(0, entry);
        self.recent.truncate(RECENT_SLICES);
        (id, parent)
    }
}

/// The answer to `slice ∧ question` from `frontend`'s prepared context of the slice, where the
/// query is one that takes a context (a plain check of [`CONTEXT_MIN`] conjuncts or more) and
/// the context answers; `None` sends the whole query as usual.
pub fn check_in_slice<S: Solver>(
    frontend: &SolverFrontend<S>,
    slices: &mut SliceIds,
    conjuncts: &[Sym],
) -> Option<Answer> {
    let (question, slice) = conjuncts.split_last()?;
    if conjuncts.len() < CONTEXT_MIN {
        return None;
    }
    let question = to_term(question)?;
    let (id, parent) = slices.id(slice, || frontend.context_id());
    let terms = |from: usize| slice[from..].iter().map(to_term).collect();
    frontend.check_in_context_id(id, parent, terms, &question)
}

/// A [`PathSolver`] over a `heaplab_smt` solver.
pub struct SmtPathSolver<S> {
    frontend: SolverFrontend<S>,
    slices: SliceIds,
    local: u64,
    failed: u64,
    last_error: Option<String>,
    /// The first failure of the solver itself (it crashed, could not be run, or replied
    /// with something that is not an answer): an error of the run, not an `unknown`.
    broken: Option<String>,
    /// See [`PathSolver::set_time_left`].
    time_left_ms: Option<u64>,
}

impl<S: Solver> SmtPathSolver<S> {
    pub fn new(solver: S) -> SmtPathSolver<S> {
        SmtPathSolver::with_frontend(SolverFrontend::new(solver))
    }

    /// Over a frontend configured by the caller (a cache shared between runs, a query log).
    pub fn with_frontend(frontend: SolverFrontend<S>) -> SmtPathSolver<S> {
        SmtPathSolver {
            frontend,
            slices: SliceIds::default(),
            local: 0,
            failed: 0,
            last_error: None,
            broken: None,
            time_left_ms: None,
        }
    }

    /// The last solver failure (transport error, untranslatable term), for messages.
    pub fn last_error(&self) -> Option<&str> {
        self.last_error.as_deref()
    }

    /// A query's answer as the explorer sees it, the model read by `read`; an unknown answer
    /// is counted as failed with its reason kept.
    fn answered(
        &mut self,
        answer: Option<Answer>,
        read: impl FnOnce(&heaplab_smt::Model) -> Model,
    ) -> (SatAnswer, Option<Model>) {
        match answer {
            Some(Answer::Sat(m)) => (SatAnswer::Sat, Some(read(&m))),
            Some(Answer::Unsat) => (SatAnswer::Unsat, None),
            Some(Answer::Unknown(why)) => {
                self.failed += 1;
                self.last_error = Some(why);
                (SatAnswer::Unknown, None)
            }
            None => (SatAnswer::Unknown, None),
        }
    }

    fn query(&mut self, conjuncts: &[Sym], want: Vec<Var>) -> Option<Answer> {
        let mut terms = Vec::with_capacity(conjuncts.len());
        for c in conjuncts {
            match to_term(c) {
                Some(t) => terms.push(t),
                None => {
                    self.failed += 1;
                    self.last_error = Some(format!("cannot be written for the solver: {c}"));
                    return None;
                }
            }
        }
        let mut q = Query::new(terms).want(want);
        if let Some(left) = self.time_left_ms {
            q = q.timeout_ms(query_timeout_ms(left));
        }
        match block_on(self.frontend.check(&q)) {
            Ok(a) => Some(a),
            Err(e) => {
                self.failed += 1;
                self.last_error = Some(e.to_string());
                // A slow query is an answer (`unknown`); a solver that does not work is not.
                if !matches!(e, heaplab_smt::SolverError::Timeout { .. }) && self.broken.is_none() {
                    self.broken = Some(e.to_string());
                }
                None
            }
        }
    }
}

/// The solver variable of the explorer's symbol `id`. Every front end's path solver names
/// symbols through this one function, so the names in queries and in models always agree.
pub fn var(id: u32, sort: Sort) -> Var {
    // Written without `format!`: each query names every symbol it mentions, and its formatting
    // machinery was 2 % of a `lazier#` run of TreeMap `put`.
    let mut buffer = itoa::Buffer::new();
    let digits = buffer.format(id);
    let mut name = String::with_capacity(1 + digits.len());
    name.push(if sort == Sort::Int { 'x' } else { 'b' });
    name.push_str(digits);
    match sort {
        Sort::Int => Var::int(name),
        Sort::Bool => Var::bool(name),
    }
}

/// The solver variables to ask a model for, for the explorer's symbols `vars`.
pub fn wanted(vars: &[(u32, Sort)]) -> Vec<Var> {
    vars.iter().map(|(id, sort)| var(*id, *sort)).collect()
}

/// The explorer's model from a solver model: every symbol asked for gets a value (a symbol the
/// solver left unconstrained reads as 0 / false, any value being as good as another).
pub fn read_model(m: &heaplab_smt::Model, vars: &[(u32, Sort)]) -> Model {
    let mut model = Model::default();
    for (id, sort) in vars {
        let v = var(*id, *sort);
        let value = match sort {
            Sort::Int => m.int(&v).unwrap_or(0),
            Sort::Bool => i64::from(m.bool(&v).unwrap_or(false)),
        };
        model.values.insert((*id, *sort), value);
    }
    model
}

/// The explorer's model from every value a solver model holds whose name [`var`] gave (what a
/// model of a query that asked for no variable holds: those the procedure solved for).
pub fn read_whole_model(m: &heaplab_smt::Model) -> Model {
    let mut model = Model::default();
    for (name, value) in m.iter() {
        let (sort, id) = match name.split_at_checked(1) {
            Some(("x", id)) => (Sort::Int, id),
            Some(("b", id)) => (Sort::Bool, id),
            _ => continue,
        };
        let Ok(id) = id.parse::<u32>() else { continue };
        let value = match (sort, value) {
            (Sort::Int, heaplab_smt::Value::Int(v)) => v,
            (Sort::Bool, heaplab_smt::Value::Bool(b)) => i64::from(b),
            _ => continue,
        };
        model.values.insert((id, sort), value);
    }
    model
}

/// Division truncating toward zero by a non-zero constant, in SMT's Euclidean `div`.
fn tdiv(a: Term, c: i64) -> Term {
    let neg_a = Term::neg(a.clone());
    Term::ite(Term::ge(a.clone(), Term::Int(0)), Term::div(a, c), Term::neg(Term::div(neg_a, c)))
}

/// The program's `a / b` (`op` Div) or `a % b` (`op` Mod) for a symbolic divisor, which the
/// engine has already checked is not zero: truncation toward zero, so the quotient and remainder
/// of the magnitudes, with the quotient negated when the signs differ and the remainder taking
/// the dividend's sign. Non-linear: such a query goes to Z3.
fn truncated(op: NlOp, a: Term, b: Term) -> Term {
    let abs = |t: Term| Term::ite(Term::ge(t.clone(), Term::Int(0)), t.clone(), Term::neg(t));
    let a_pos = Term::ge(a.clone(), Term::Int(0));
    let magnitude = Term::nonlinear(op, abs(a), abs(b.clone()));
    let positive = match op {
        NlOp::Div => Term::eq(a_pos, Term::gt(b, Term::Int(0))),
        _ => a_pos,
    };
    Term::ite(positive, magnitude.clone(), Term::neg(magnitude))
}

/// `Sym` to a linear `heaplab_smt` term; `None` when it is not linear.
pub fn to_term(s: &Sym) -> Option<Term> {
    Some(match s.node() {
        Node::Int(n) => Term::Int(*n),
        Node::Bool(b) => Term::Bool(*b),
        Node::Var(id, sort) => var(*id, *sort).term(),
        Node::Add(a, b) => Term::add([to_term(a)?, to_term(b)?]),
        Node::Sub(a, b) => Term::sub(to_term(a)?, to_term(b)?),
        Node::Neg(a) => Term::neg(to_term(a)?),
        Node::Mul(a, b) => match (a.as_int(), b.as_int()) {
            (Some(c), _) => Term::mul(c, to_term(b)?),
            (_, Some(c)) => Term::mul(c, to_term(a)?),
            _ => Term::nonlinear(NlOp::Mul, to_term(a)?, to_term(b)?),
        },
        // `x >> n`: one Euclidean `div` (floor for a positive divisor), see `as_floor_div`.
        Node::Div(..) if s.as_floor_div().is_some() => {
            let (x, p) = s.as_floor_div()?;
            Term::div(to_term(x)?, p)
        }
        Node::Div(a, b) => match b.as_int() {
            Some(c) if c != 0 => tdiv(to_term(a)?, c),
            Some(_) => return None,
            None => truncated(NlOp::Div, to_term(a)?, to_term(b)?),
        },
        // A wrap (`ints java32`, `>>`) is one Euclidean `mod`: one fresh quotient, bounded by
        // its dividend's range (`lia::bounds`). Spelled out with truncating remainders, the
        // dividend would be written four times per wrap (a wrapped loop counter would grow
        // exponentially), under sign tests that branch and bound wanders through.
        Node::Rem(..) if s.as_floor_mod().is_some() => {
            let (x, m) = s.as_floor_mod()?;
            Term::modulo(to_term(x)?, m)
        }
        Node::Rem(a, b) => match b.as_int() {
            Some(c) if c != 0 => {
                let a = to_term(a)?;
                Term::sub(a.clone(), Term::mul(c, tdiv(a, c)))
            }
            Some(_) => return None,
            None => truncated(NlOp::Mod, to_term(a)?, to_term(b)?),
        },
        Node::Lt(a, b) => Term::lt(to_term(a)?, to_term(b)?),
        Node::Le(a, b) => Term::le(to_term(a)?, to_term(b)?),
        Node::Eq(a, b) => Term::eq(to_term(a)?, to_term(b)?),
        Node::Not(a) => Term::not(to_term(a)?),
        Node::And(a, b) => Term::and([to_term(a)?, to_term(b)?]),
        Node::Or(a, b) => Term::or([to_term(a)?, to_term(b)?]),
    })
}

impl<S: Solver> PathSolver for SmtPathSolver<S> {
    fn check_with_model(
        &mut self,
        conjuncts: &[Sym],
        vars: &[(u32, Sort)],
    ) -> (SatAnswer, Option<Model>) {
        let answer = self.query(conjuncts, wanted(vars));
        self.answered(answer, |m| read_model(m, vars))
    }

    fn check_keeping_model(&mut self, conjuncts: &[Sym]) -> (SatAnswer, Option<Model>) {
        let answer = match check_in_slice(&self.frontend, &mut self.slices, conjuncts) {
            Some(answer) => Some(answer),
            None => self.query(conjuncts, Vec::new()),
        };
        self.answered(answer, read_whole_model)
    }

    fn counts(&self) -> SolverCounts {
        let s = self.frontend.stats();
        SolverCounts {
            sent: s.solver_calls,
            decided_locally: s.decided_locally + self.local,
            cached: s.cache_hits,
            failed: self.failed,
        }
    }

    fn note_local(&mut self) {
        self.local += 1;
    }

    fn last_unknown(&self) -> Option<String> {
        self.last_error.clone()
    }

    fn broken(&self) -> Option<String> {
        self.broken.clone()
    }

    fn set_time_left(&mut self, ms: Option<u64>) {
        self.time_left_ms = ms;
    }
}

/// The solver-side limit of one query when the run has `left_ms` left: the default limit, or
/// less when the run has less (at least 1 ms; z3 reads 0 as no limit).
pub fn query_timeout_ms(left_ms: u64) -> u32 {
    let cap = u64::from(Query::DEFAULT_TIMEOUT_MS);
    left_ms.clamp(1, cap) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_terms_stay_linear_and_products_are_non_linear() {
        let x = Sym::var(0, Sort::Int);
        let y = Sym::var(1, Sort::Int);
        let linear = |t: &Term| !t.to_string().contains("(* x0 x1)");
        assert!(to_term(&Sym::lt(&Sym::add(&x, &Sym::int(1)), &y)).is_some_and(|t| linear(&t)));
        assert!(to_term(&Sym::div(&x, &Sym::int(2))).is_some_and(|t| linear(&t)));
        let product = to_term(&Sym::mul(&x, &y)).expect("a product translates");
        assert_eq!(product.to_string(), "(* x0 x1)");
    }

    /// A symbolic divisor's quotient and remainder, evaluated as SMT-LIB's Euclidean `div` and
    /// `mod` would be, are the program's: Rust's `/` and `%` truncate as Java's do.
    #[test]
    fn symbolic_division_truncates_toward_zero() {
        let x = Sym::var(0, Sort::Int);
        let y = Sym::var(1, Sort::Int);
        let quotient = to_term(&Sym::div(&x, &y)).expect("translates");
        let remainder = to_term(&Sym::rem(&x, &y)).expect("translates");
        for a in [-7i64, -6, -1, 0, 1, 6, 7, i64::MAX, i64::MIN + 1] {
            for b in [-3i64, -2, -1, 1, 2, 3, 5] {
                let mut m = heaplab_smt::Model::new();
                m.insert(&var(0, Sort::Int), heaplab_smt::Value::Int(a));
                m.insert(&var(1, Sort::Int), heaplab_smt::Value::Int(b));
                let q = heaplab_smt::eval(&quotient, &m);
                let r = heaplab_smt::eval(&remainder, &m);
                assert_eq!(q.ok(), Some(heaplab_smt::Value::Int(a / b)), "{a} / {b}");
                assert_eq!(r.ok(), Some(heaplab_smt::Value::Int(a % b)), "{a} % {b}");
            }
        }
    }

    /// `x >> n` and a wrap translate to one Euclidean `div` / `mod` each (no sign tests), whose
    /// value is the program's (Java's `>>` floors; Rust's `div_euclid` is the oracle), and the
    /// Rust procedure decides a query on them as brute force over a small range does. JDK
    /// `LinkedList.entry`'s `index < (size >> 1)`, with `0 <= index < size`, went to Z3 before.
    #[test]
    fn shifts_and_wraps_are_one_euclidean_division() {
        let x = Sym::var(0, Sort::Int);
        let shift = to_term(&Sym::floor_div(&x, 4)).expect("translates");
        let wrap = to_term(&Sym::floor_mod(&x, 4)).expect("translates");
        assert_eq!(
            (shift.to_string(), wrap.to_string()),
            ("(div x0 4)".into(), "(mod x0 4)".into())
        );
        for a in [-9i64, -8, -5, -4, -1, 0, 1, 3, 4, 9, i64::MAX, i64::MIN] {
            let mut m = heaplab_smt::Model::new();
            m.insert(&var(0, Sort::Int), heaplab_smt::Value::Int(a));
            let exact = |s: &Sym| s.eval(&|_, _| Some(a));
            assert_eq!(
                heaplab_smt::eval(&shift, &m).ok(),
                Some(heaplab_smt::Value::Int(a.div_euclid(4)))
            );
            assert_eq!(exact(&Sym::floor_div(&x, 4)), Some(a.div_euclid(4)), "{a} >> 2");
            assert_eq!(exact(&Sym::floor_mod(&x, 4)), Some(a.rem_euclid(4)), "{a} mod 4");
        }
        let (index, size) = (x, Sym::var(1, Sort::Int));
        let range = |v: &Sym| [Sym::le(&Sym::int(-20), v), Sym::le(v, &Sym::int(20))];
        for c in -6..=6 {
            // size >> 1 == c with 0 <= index < size and index < size >> 1.
            let mut query: Vec<Sym> = range(&index).into_iter().chain(range(&size)).collect();
            query.push(Sym::le(&Sym::int(0), &index));
            query.push(Sym::lt(&index, &size));
            query.push(Sym::lt(&index, &Sym::floor_div(&size, 2)));
            query.push(Sym::eq(&Sym::floor_div(&size, 2), &Sym::int(c)));
            let terms: Vec<Term> = query.iter().map(|q| to_term(q).expect("linear")).collect();
            let brute =
                (-20i64..=20).any(|s| (0..s).any(|i| i < s.div_euclid(2)) && s.div_euclid(2) == c);
            match heaplab_smt::lia::decide(&terms, &[]) {
                heaplab_smt::lia::Decision::Sat(_) => assert!(brute, "size >> 1 == {c}: sat"),
                heaplab_smt::lia::Decision::Unsat => assert!(!brute, "size >> 1 == {c}: unsat"),
                other => panic!("size >> 1 == {c} left undecided: {other:?}"),
            }
        }
    }

    #[test]
    fn a_query_never_outlasts_the_run() {
        assert_eq!(query_timeout_ms(0), 1);
        assert_eq!(query_timeout_ms(250), 250);
        assert_eq!(query_timeout_ms(u64::MAX), Query::DEFAULT_TIMEOUT_MS);
    }
}
