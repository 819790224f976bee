//! Symbolic integer and boolean expressions as the explorer builds them.
//!
//! Why a small term type of our own next to `heaplab_smt::Term`: values are created and folded
//! on every instruction, so they must be cheap to clone (`Rc`) and simplify constants eagerly
//! (`1 + 2` is `3`, `x == x` is `true`), which keeps most branches decided without a solver.
//! Only path-condition queries are translated to the solver's terms ([`Sym::to_smt`] in
//! `solve.rs`). Integer division and remainder truncate toward zero, like the interpreter.

use std::rc::Rc;

/// The sort of a symbolic variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    Int,
    Bool,
}

/// A symbolic expression node.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Node {
    Int(i64),
    Bool(bool),
    /// A symbolic variable: an input value (`x3` / `b3`).
    Var(u32, Sort),
    Add(Sym, Sym),
    Sub(Sym, Sym),
    Mul(Sym, Sym),
    /// Division truncating toward zero (the divisor is known to be non-zero on the path).
    Div(Sym, Sym),
    /// Remainder with the sign of the dividend.
    Rem(Sym, Sym),
    Neg(Sym),
    Lt(Sym, Sym),
    Le(Sym, Sym),
    Eq(Sym, Sym),
    Not(Sym),
    And(Sym, Sym),
    Or(Sym, Sym),
}

impl Node {
    /// The operands of this node, in order (none for constants and variables): the one place
    /// that knows each node's arity, for the traversals that only walk the expression.
    pub fn children(&self) -> impl Iterator<Item = &Sym> {
        let (a, b) = match self {
            Node::Int(_) | Node::Bool(_) | Node::Var(..) => (None, None),
            Node::Neg(a) | Node::Not(a) => (Some(a), None),
            Node::Add(a, b)
            | Node::Sub(a, b)
            | Node::Mul(a, b)
            | Node::Div(a, b)
            | Node::Rem(a, b)
            | Node::Lt(a, b)
            | Node::Le(a, b)
            | Node::Eq(a, b)
            | Node::And(a, b)
            | Node::Or(a, b) => (Some(a), Some(b)),
        };
        a.into_iter().chain(b)
    }
}

/// [`Sym::substitute`]'s memo: by a node's address, the node (kept alive so that its address
/// is not reused while the memo lives) and what it became.
pub type Memo = rustc_hash::FxHashMap<usize, (Sym, Sym)>;

/// The values [`Sym::substitute`] puts in: `value` of each variable it replaces, and the
/// [`var_bit`]s of those variables (a subtree with none of them is not visited).
pub struct Env<'a> {
    pub value: &'a dyn Fn(u32, Sort) -> Option<i64>,
    pub bits: u64,
}

impl<'a> Env<'a> {
    /// Values for any variable: every subtree is visited.
    pub fn any(value: &'a dyn Fn(u32, Sort) -> Option<i64>) -> Env<'a> {
        Env { value, bits: u64::MAX }
    }
}

/// A shared, immutable symbolic expression.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sym(Rc<Cell>);

/// A node and a summary of the variables under it.
///
/// Why the summary: `symheap` replaces the variables a fork fixes in every conjunct and guard
/// of the path (`symheap_forks::settle`), a few variables among thousands of nodes; a subtree
/// whose summary misses them is kept as it is without a visit ([`Sym::substitute`]).
#[derive(Clone)]
struct Cell {
    node: Node,
    /// One bit per variable under the node, at [`var_bit`]: a bit clear means no such variable.
    vars: u64,
}

/// Equal nodes have equal summaries: the summary is compared first, as a cheap way to tell
/// unequal terms apart; order and hash are the node's.
impl PartialEq for Cell {
    fn eq(&self, other: &Cell) -> bool {
        self.vars == other.vars && self.node == other.node
    }
}

impl Eq for Cell {}

impl std::hash::Hash for Cell {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.node.hash(state);
    }
}

impl PartialOrd for Cell {
    fn partial_cmp(&self, other: &Cell) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Cell {
    fn cmp(&self, other: &Cell) -> std::cmp::Ordering {
        self.node.cmp(&other.node)
    }
}

/// A variable's bit in a [`Cell`]'s summary (variables share bits: a set bit says "maybe").
pub fn var_bit(id: u32, sort: Sort) -> u64 {
    let key = 2 * u64::from(id) + u64::from(sort == Sort::Bool);
    1 << (key % 64)
}

impl Sym {
    pub fn node(&self) -> &Node {
        &self.0.node
    }

    /// The variable summary of this term: the [`var_bit`]s of its variables, and maybe others.
    pub fn var_bits(&self) -> u64 {
        self.0.vars
    }

    /// The address of this shared node: a key for memo tables over the expression DAG (hashing
    /// a `Sym` hashes the whole tree, exponential in a DAG's depth).
    pub fn addr(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }

    /// `self` with the variables `env` knows replaced by their values (booleans 0 / 1) and
    /// constants folded; `memo` keeps shared nodes from being visited twice. A node none of
    /// whose operands changed is returned itself, so a conjunct without a replaced variable
    /// keeps its address (the executor's answer tables and the solver's prepared contexts are
    /// keyed by it).
    pub fn substitute(&self, env: &Env, memo: &mut Memo) -> Sym {
        if self.var_bits() & env.bits == 0 {
            return self.clone();
        }
        if let Node::Var(id, sort) = self.node() {
            return match ((env.value)(*id, *sort), sort) {
                (Some(v), Sort::Int) => Sym::int(v),
                (Some(v), Sort::Bool) => Sym::bool(v != 0),
                (None, _) => self.clone(),
            };
        }
        if let Some((_, s)) = memo.get(&self.addr()) {
            return s.clone();
        }
        let out = match self.node() {
            Node::Int(_) | Node::Bool(_) | Node::Var(..) => self.clone(),
            node => {
                let mut ops = node.children().map(|c| (c.addr(), c.substitute(env, memo)));
                let (a, b) = (ops.next(), ops.next());
                let same =
                    |o: &Option<(usize, Sym)>| o.as_ref().is_none_or(|(at, s)| *at == s.addr());
                match same(&a) && same(&b) {
                    true => self.clone(),
                    false => self.rebuilt(a.map(|(_, s)| s), b.map(|(_, s)| s)),
                }
            }
        };
        memo.insert(self.addr(), (self.clone(), out.clone()));
        out
    }

    /// This node's operation over new operands, folded by the constructors.
    fn rebuilt(&self, a: Option<Sym>, b: Option<Sym>) -> Sym {
        let Some(a) = a else { return self.clone() };
        match (self.node(), b) {
            (Node::Neg(_), _) => Sym::neg(&a),
            (Node::Not(_), _) => Sym::not(&a),
            (Node::Add(..), Some(b)) => Sym::add(&a, &b),
            (Node::Sub(..), Some(b)) => Sym::sub(&a, &b),
            (Node::Mul(..), Some(b)) => Sym::mul(&a, &b),
            (Node::Div(..), Some(b)) => Sym::div(&a, &b),
            (Node::Rem(..), Some(b)) => Sym::rem(&a, &b),
            (Node::Lt(..), Some(b)) => Sym::lt(&a, &b),
            (Node::Le(..), Some(b)) => Sym::le(&a, &b),
            (Node::Eq(..), Some(b)) => Sym::eq(&a, &b),
            (Node::And(..), Some(b)) => Sym::and(&a, &b),
            (Node::Or(..), Some(b)) => Sym::or(&a, &b),
            _ => self.clone(),
        }
    }

    pub fn int(n: i64) -> Sym {
        Sym(Rc::new(Cell { node: Node::Int(n), vars: 0 }))
    }

    pub fn bool(b: bool) -> Sym {
        Sym(Rc::new(Cell { node: Node::Bool(b), vars: 0 }))
    }

    pub fn var(id: u32, sort: Sort) -> Sym {
        Sym(Rc::new(Cell { node: Node::Var(id, sort), vars: var_bit(id, sort) }))
    }

    fn mk(node: Node) -> Sym {
        let vars = node.children().fold(0, |bits, c| bits | c.var_bits());
        Sym(Rc::new(Cell { node, vars }))
    }

    pub fn as_int(&self) -> Option<i64> {
        match self.0.node {
            Node::Int(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.0.node {
            Node::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// `b` or `!b` for a Boolean variable `b`: its id and the value the literal gives it.
    pub fn bool_literal(&self) -> Option<(u32, bool)> {
        match self.node() {
            Node::Var(id, Sort::Bool) => Some((*id, true)),
            Node::Not(inner) => match inner.node() {
                Node::Var(id, Sort::Bool) => Some((*id, false)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The variable a unit conjunct fixes, and its value: `b` (1), `!b` (0), `x == k`.
    pub fn fixed_value(&self) -> Option<(u32, Sort, i64)> {
        if let Some((id, value)) = self.bool_literal() {
            return Some((id, Sort::Bool, i64::from(value)));
        }
        match self.node() {
            Node::Eq(a, b) => match (a.node(), b.node()) {
                (Node::Var(id, Sort::Int), Node::Int(k))
                | (Node::Int(k), Node::Var(id, Sort::Int)) => Some((*id, Sort::Int, *k)),
                _ => None,
            },
            _ => None,
        }
    }

    /// A definition `v == e` (or `e == v`) of a variable `v` that does not occur in `e`: `v`
    /// and `e`.
    pub fn as_definition(&self) -> Option<((u32, Sort), &Sym)> {
        let Node::Eq(a, b) = self.node() else { return None };
        for (side, other) in [(a, b), (b, a)] {
            if let Node::Var(id, sort) = side.node() {
                let v = (*id, *sort);
                let mut inside = false;
                other.for_each_var(|i, s| inside |= (i, s) == v);
                if !inside {
                    return Some((v, other));
                }
            }
        }
        None
    }

    /// `a + b` in mathematical integers (overflow is checked separately by the explorer).
    pub fn add(a: &Sym, b: &Sym) -> Sym {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) if x.checked_add(y).is_some() => Sym::int(x + y),
            (Some(0), _) => b.clone(),
            (_, Some(0)) => a.clone(),
            _ => Sym::mk(Node::Add(a.clone(), b.clone())),
        }
    }

    pub fn sub(a: &Sym, b: &Sym) -> Sym {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) if x.checked_sub(y).is_some() => Sym::int(x - y),
            (_, Some(0)) => a.clone(),
            _ => Sym::mk(Node::Sub(a.clone(), b.clone())),
        }
    }

    pub fn mul(a: &Sym, b: &Sym) -> Sym {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) if x.checked_mul(y).is_some() => Sym::int(x * y),
            (Some(1), _) => b.clone(),
            (_, Some(1)) => a.clone(),
            _ => Sym::mk(Node::Mul(a.clone(), b.clone())),
        }
    }

    pub fn div(a: &Sym, b: &Sym) -> Sym {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) if y != 0 && x.checked_div(y).is_some() => Sym::int(x / y),
            (_, Some(1)) => a.clone(),
            _ => Sym::mk(Node::Div(a.clone(), b.clone())),
        }
    }

    pub fn rem(a: &Sym, b: &Sym) -> Sym {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) if y != 0 => Sym::int(x.wrapping_rem(y)),
            _ => Sym::mk(Node::Rem(a.clone(), b.clone())),
        }
    }

    pub fn neg(a: &Sym) -> Sym {
        match a.as_int() {
            Some(x) if x.checked_neg().is_some() => Sym::int(-x),
            _ => Sym::mk(Node::Neg(a.clone())),
        }
    }

    pub fn lt(a: &Sym, b: &Sym) -> Sym {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Sym::bool(x < y),
            _ if a == b => Sym::bool(false),
            _ => Sym::mk(Node::Lt(a.clone(), b.clone())),
        }
    }

    pub fn le(a: &Sym, b: &Sym) -> Sym {
        match (a.as_int(), b.as_int()) {
            (Some(x), Some(y)) => Sym::bool(x <= y),
            _ if a == b => Sym::bool(true),
            _ => Sym::mk(Node::Le(a.clone(), b.clone())),
        }
    }

    /// Equality of two ints or two bools.
    pub fn eq(a: &Sym, b: &Sym) -> Sym {
        if a == b {
            return Sym::bool(true);
        }
        match (a.node(), b.node()) {
            (Node::Int(x), Node::Int(y)) => Sym::bool(x == y),
            (Node::Bool(x), Node::Bool(y)) => Sym::bool(x == y),
            (Node::Bool(true), _) => b.clone(),
            (_, Node::Bool(true)) => a.clone(),
            (Node::Bool(false), _) => Sym::not(b),
            (_, Node::Bool(false)) => Sym::not(a),
            _ => Sym::mk(Node::Eq(a.clone(), b.clone())),
        }
    }

    pub fn not(a: &Sym) -> Sym {
        match a.node() {
            Node::Bool(b) => Sym::bool(!b),
            Node::Not(inner) => inner.clone(),
            _ => Sym::mk(Node::Not(a.clone())),
        }
    }

    pub fn and(a: &Sym, b: &Sym) -> Sym {
        match (a.as_bool(), b.as_bool()) {
            (Some(false), _) | (_, Some(false)) => Sym::bool(false),
            (Some(true), _) => b.clone(),
            (_, Some(true)) => a.clone(),
            _ => Sym::mk(Node::And(a.clone(), b.clone())),
        }
    }

    pub fn or(a: &Sym, b: &Sym) -> Sym {
        match (a.as_bool(), b.as_bool()) {
            (Some(true), _) | (_, Some(true)) => Sym::bool(true),
            (Some(false), _) => b.clone(),
            (_, Some(false)) => a.clone(),
            _ => Sym::mk(Node::Or(a.clone(), b.clone())),
        }
    }

    /// Calls `f` on every variable in the expression.
    pub fn for_each_var(&self, mut f: impl FnMut(u32, Sort)) {
        // Inline for the usual shallow term: `sl` walks every conjunct of the path condition
        // for each fact it checks (`dbm::slice`), and a heap stack per conjunct showed.
        let mut stack: smallvec::SmallVec<[&Sym; 16]> = smallvec::smallvec![self];
        while let Some(s) = stack.pop() {
            if let Node::Var(id, sort) = s.node() {
                f(*id, *sort);
            }
            stack.extend(s.node().children());
        }
    }

    /// Evaluates the expression under an assignment of its variables (`None` if a variable is
    /// missing or an operation is undefined). Used to double-check solver models.
    /// Intermediate results are exact up to i128 (the wrapping semantics of `ints java64` go
    /// through values like `x + 2^63`); the result must fit an i64.
    pub fn eval(&self, env: &dyn Fn(u32, Sort) -> Option<i64>) -> Option<i64> {
        // In i64 first: almost every evaluation stays small, and in wasm each i128 step is
        // several instructions (an i128 product a call); this evaluation was a twentieth of a
        // symheap run there. Only where a step leaves i64 is it done again in i128: both are
        // exact, so they agree wherever the narrow one finishes.
        match self.eval_in::<i64>(env) {
            Ok(v) => Some(v),
            Err(Stop::Overflow) => i64::try_from(self.eval_in::<i128>(env).ok()?).ok(),
            Err(Stop::Undefined) => None,
        }
    }

    fn eval_in<T: Exact>(&self, env: &dyn Fn(u32, Sort) -> Option<i64>) -> Result<T, Stop> {
        let b = |v: bool| T::from(i64::from(v));
        let over = |r: Option<T>| r.ok_or(Stop::Overflow);
        Ok(match self.node() {
            Node::Int(n) => T::from(*n),
            Node::Bool(v) => b(*v),
            Node::Var(id, sort) => T::from(env(*id, *sort).ok_or(Stop::Undefined)?),
            Node::Add(x, y) => over(x.eval_in::<T>(env)?.checked_add(y.eval_in(env)?))?,
            Node::Sub(x, y) => over(x.eval_in::<T>(env)?.checked_sub(y.eval_in(env)?))?,
            Node::Mul(x, y) => over(x.eval_in::<T>(env)?.checked_mul(y.eval_in(env)?))?,
            Node::Div(x, y) => {
                let (n, d) = (x.eval_in::<T>(env)?, y.eval_in::<T>(env)?);
                if d == T::from(0) {
                    return Err(Stop::Undefined);
                }
                over(n.checked_div(d))?
            }
            Node::Rem(x, y) => {
                let d = y.eval_in::<T>(env)?;
                if d == T::from(0) {
                    return Err(Stop::Undefined);
                }
                x.eval_in::<T>(env)?.wrapping_rem(d)
            }
            Node::Neg(x) => over(x.eval_in::<T>(env)?.checked_neg())?,
            Node::Lt(x, y) => b(x.eval_in::<T>(env)? < y.eval_in(env)?),
            Node::Le(x, y) => b(x.eval_in::<T>(env)? <= y.eval_in(env)?),
            Node::Eq(x, y) => b(x.eval_in::<T>(env)? == y.eval_in(env)?),
            Node::Not(x) => b(x.eval_in::<T>(env)? == T::from(0)),
            Node::And(x, y) => {
                b(x.eval_in::<T>(env)? != T::from(0) && y.eval_in::<T>(env)? != T::from(0))
            }
            Node::Or(x, y) => {
                b(x.eval_in::<T>(env)? != T::from(0) || y.eval_in::<T>(env)? != T::from(0))
            }
        })
    }
}

/// Why [`Sym::eval_in`] has no value: an operation undefined (or a variable without a value),
/// or a step beyond its integer type.
enum Stop {
    Undefined,
    Overflow,
}

/// The integer types [`Sym::eval_in`] evaluates in: their checked operations.
trait Exact: Copy + Ord + From<i64> {
    fn checked_add(self, o: Self) -> Option<Self>;
    fn checked_sub(self, o: Self) -> Option<Self>;
    fn checked_mul(self, o: Self) -> Option<Self>;
    fn checked_div(self, o: Self) -> Option<Self>;
    fn checked_neg(self) -> Option<Self>;
    fn wrapping_rem(self, o: Self) -> Self;
}

macro_rules! exact {
    ($t:ty) => {
        impl Exact for $t {
            fn checked_add(self, o: Self) -> Option<Self> {
                <$t>::checked_add(self, o)
            }
            fn checked_sub(self, o: Self) -> Option<Self> {
                <$t>::checked_sub(self, o)
            }
            fn checked_mul(self, o: Self) -> Option<Self> {
                <$t>::checked_mul(self, o)
            }
            fn checked_div(self, o: Self) -> Option<Self> {
                <$t>::checked_div(self, o)
            }
            fn checked_neg(self) -> Option<Self> {
                <$t>::checked_neg(self)
            }
            fn wrapping_rem(self, o: Self) -> Self {
                <$t>::wrapping_rem(self, o)
            }
        }
    };
}
exact!(i64);
exact!(i128);

impl Sym {
    /// `x mod m` rounded toward negative infinity (in `[0, m)`), for a constant `m > 0`:
    /// `((x % m) + m) % m` with the program's truncating `%` (see [`Sym::as_floor_mod`]).
    pub fn floor_mod(x: &Sym, m: i64) -> Sym {
        let m = Sym::int(m);
        Sym::rem(&Sym::add(&Sym::rem(x, &m), &m), &m)
    }

    /// `x / p` rounded toward negative infinity, for a constant `p > 0` (`x >> n` with
    /// `p = 2ⁿ`): `(x - floor_mod(x, p)) / p`, an exact division (see [`Sym::as_floor_div`]).
    pub fn floor_div(x: &Sym, p: i64) -> Sym {
        Sym::div(&Sym::sub(x, &Sym::floor_mod(x, p)), &Sym::int(p))
    }

    /// `(x, m)` when this term is `((x % m) + m) % m` for a constant `m > 0`: `x` modulo `m`
    /// rounded toward negative infinity, which is how wrapping arithmetic (`ints java32`) and
    /// `>>` are built. The solvers read it as one Euclidean `mod`; spelled out with truncating
    /// remainders, `x` would be written four times per level, and a loop counter wrapped ten
    /// times would make an exponentially large query.
    pub fn as_floor_mod(&self) -> Option<(&Sym, i64)> {
        let Node::Rem(sum, m) = self.node() else { return None };
        let m = m.as_int().filter(|m| *m > 0)?;
        let Node::Add(inner, m2) = sum.node() else { return None };
        let Node::Rem(x, m3) = inner.node() else { return None };
        (m2.as_int() == Some(m) && m3.as_int() == Some(m)).then_some((x, m))
    }

    /// `(x, p)` when this term is `(x - floor_mod(x, p)) / p` for a constant `p > 0`: `x`
    /// divided by `p` rounded toward negative infinity, which is how `x >> n` and the high half
    /// of a 64-bit wrap are built. The solvers read it as one Euclidean `div`: spelled out with
    /// truncating division, `x` would be written under three nested sign tests, which the Rust
    /// procedure's branch and bound does not get through.
    pub fn as_floor_div(&self) -> Option<(&Sym, i64)> {
        let Node::Div(diff, p) = self.node() else { return None };
        let p = p.as_int().filter(|p| *p > 0)?;
        let Node::Sub(x, low) = diff.node() else { return None };
        let (y, m) = low.as_floor_mod()?;
        (m == p && y == x).then_some((x, p))
    }

    /// Every variable of the expression, sorted.
    pub fn vars(&self) -> Vec<(u32, Sort)> {
        let mut v = Vec::new();
        self.for_each_var(|id, sort| v.push((id, sort)));
        v.sort();
        v.dedup();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documented meaning of `eval`, spelled out over i128 for the test below.
    fn wide(s: &Sym, env: &dyn Fn(u32) -> Option<i64>) -> Option<i128> {
        let w = |t: &Sym| wide(t, env);
        let b = |v: bool| Some(i128::from(v));
        match s.node() {
            Node::Int(n) => Some(i128::from(*n)),
            Node::Bool(v) => b(*v),
            Node::Var(id, _) => env(*id).map(i128::from),
            Node::Add(x, y) => w(x)?.checked_add(w(y)?),
            Node::Sub(x, y) => w(x)?.checked_sub(w(y)?),
            Node::Mul(x, y) => w(x)?.checked_mul(w(y)?),
            Node::Div(x, y) => w(x)?.checked_div(w(y)?),
            Node::Rem(x, y) => {
                let d = w(y)?;
                if d == 0 {
                    return None;
                }
                Some(w(x)?.wrapping_rem(d))
            }
            Node::Neg(x) => w(x)?.checked_neg(),
            Node::Lt(x, y) => b(w(x)? < w(y)?),
            Node::Le(x, y) => b(w(x)? <= w(y)?),
            Node::Eq(x, y) => b(w(x)? == w(y)?),
            Node::Not(x) => b(w(x)? == 0),
            Node::And(x, y) => b(w(x)? != 0 && w(y)? != 0),
            Node::Or(x, y) => b(w(x)? != 0 || w(y)? != 0),
        }
    }

    /// `eval` (i64 first, i128 where a step leaves i64) gives the exact wide evaluation's
    /// value wherever that fits an i64, on terms over values at the edges of i64, with
    /// missing variables and divisions by zero.
    #[test]
    fn evaluation_is_exact_through_values_beyond_i64() {
        let values = [0, 1, -1, 2, 7, -3, 3_037_000_500, 1 << 40, i64::MAX, i64::MIN, i64::MAX - 1];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        let (mut wide_steps, mut checked) = (0, 0);
        for _ in 0..4000 {
            // A random term of depth up to 4 over x0..x4 (x4 has no value).
            fn term(depth: u32, next: &mut dyn FnMut(u64) -> u64) -> Sym {
                if depth == 0 || next(4) == 0 {
                    return match next(3) {
                        0 => Sym::int([0, 1, -1, 2, i64::MAX, i64::MIN][next(6) as usize]),
                        _ => Sym::var(next(5) as u32, Sort::Int),
                    };
                }
                let (x, y) = (term(depth - 1, next), term(depth - 1, next));
                match next(13) {
                    0 => Sym::add(&x, &y),
                    1 => Sym::sub(&x, &y),
                    2 => Sym::mul(&x, &y),
                    3 => Sym::div(&x, &y),
                    4 => Sym::rem(&x, &y),
                    5 => Sym::neg(&x),
                    6 => Sym::lt(&x, &y),
                    7 => Sym::le(&x, &y),
                    8 => Sym::eq(&x, &y),
                    9 => Sym::not(&Sym::lt(&x, &y)),
                    10 => Sym::and(&Sym::lt(&x, &y), &Sym::eq(&y, &x)),
                    11 => Sym::or(&Sym::le(&x, &y), &Sym::lt(&y, &x)),
                    _ => Sym::floor_mod(&x, 7),
                }
            }
            let t = term(4, &mut next);
            let env_values: Vec<i64> =
                (0..4).map(|_| values[next(values.len() as u64) as usize]).collect();
            let env = |id: u32| env_values.get(id as usize).copied();
            let expected = wide(&t, &env).and_then(|v| i64::try_from(v).ok());
            assert_eq!(t.eval(&|id, _| env(id)), expected, "{t} at {env_values:?}");
            checked += 1;
            if expected.is_some() && t.eval_in::<i64>(&|id, _| env(id)).is_err() {
                wide_steps += 1;
            }
        }
        // Both ways were taken: values that fit i64 only through a wide step, and the rest.
        assert!(wide_steps > 20 && checked - wide_steps > 1000, "{wide_steps} of {checked}");
    }

    #[test]
    fn folds_constants_and_identities() {
        let x = Sym::var(0, Sort::Int);
        assert_eq!(Sym::add(&Sym::int(1), &Sym::int(2)), Sym::int(3));
        assert_eq!(Sym::lt(&x, &x), Sym::bool(false));
        assert_eq!(Sym::eq(&x, &x), Sym::bool(true));
        assert_eq!(Sym::not(&Sym::not(&Sym::lt(&x, &Sym::int(3)))), Sym::lt(&x, &Sym::int(3)));
        assert_eq!(Sym::lt(&x, &Sym::int(3)).to_string(), "x0 < 3");
    }

    /// A term's variable summary has the bit of each of its variables (ids far apart share
    /// bits), so a substitution that skips the subtrees whose summary misses the replaced
    /// variables' bits gives what one visiting every node gives.
    #[test]
    fn summaries_cover_the_variables_and_skipping_by_them_changes_nothing() {
        let mut next = crate::symbolic::xorshift(0x9e37_79b9_7f4a_7c15);
        fn term(next: &mut dyn FnMut(u64) -> u64, depth: u32) -> Sym {
            if depth == 0 || next(4) == 0 {
                return match next(3) {
                    0 => Sym::int(next(5) as i64),
                    _ => Sym::var(next(300) as u32, Sort::Int),
                };
            }
            let (a, b) = (term(next, depth - 1), term(next, depth - 1));
            match next(4) {
                0 => Sym::add(&a, &b),
                1 => Sym::sub(&a, &b),
                2 => Sym::mul(&a, &b),
                _ => Sym::neg(&a),
            }
        }
        for _ in 0..500 {
            let t = Sym::lt(&term(&mut next, 4), &term(&mut next, 4));
            let vars = t.vars();
            assert!(vars.iter().all(|(id, s)| var_bit(*id, *s) & t.var_bits() != 0), "{t:?}");
            let picked: Vec<u32> =
                vars.iter().map(|(id, _)| *id).filter(|_| next(2) == 0).collect();
            let value = |id: u32, _: Sort| picked.contains(&id).then_some(id as i64 % 7);
            let bits = picked.iter().fold(0, |bits, id| bits | var_bit(*id, Sort::Int));
            let precise = t.substitute(&Env { value: &value, bits }, &mut Memo::default());
            let visiting = t.substitute(&Env::any(&value), &mut Memo::default());
            assert_eq!(precise, visiting, "{t:?} with {picked:?}");
        }
    }

    #[test]
    fn substitution_agrees_with_eval_and_keeps_the_unknown_and_unchanged_nodes() {
        let x = Sym::var(0, Sort::Int);
        let y = Sym::var(1, Sort::Int);
        let b = Sym::var(2, Sort::Bool);
        // A shared node, as guards are.
        let shared = Sym::eq(&x, &Sym::int(0));
        let e = Sym::and(
            &Sym::or(&shared, &b),
            &Sym::or(&Sym::not(&shared), &Sym::lt(&y, &Sym::add(&x, &Sym::int(2)))),
        );
        for xv in [0, 1, 5] {
            for bv in [0, 1] {
                let known = |id: u32, _: Sort| match id {
                    0 => Some(xv),
                    2 => Some(bv),
                    _ => None,
                };
                let rest = e.substitute(&Env::any(&known), &mut Memo::default());
                assert!(
                    !rest.vars().contains(&(0, Sort::Int))
                        && !rest.vars().contains(&(2, Sort::Bool))
                );
                for yv in [-3, 0, 3, 9] {
                    let all = |id: u32, s: Sort| if id == 1 { Some(yv) } else { known(id, s) };
                    assert_eq!(rest.eval(&all), e.eval(&all), "x = {xv}, b = {bv}, y = {yv}");
                }
            }
        }
        // x = 1, b false: the first conjunct is false whatever y is.
        let env = |id: u32, _: Sort| [Some(1), None, Some(0)][id as usize];
        assert_eq!(e.substitute(&Env::any(&env), &mut Memo::default()), Sym::bool(false));
        // Nothing known: the expression itself, not a copy.
        assert_eq!(e.substitute(&Env::any(&|_, _| None), &mut Memo::default()).addr(), e.addr());
        // Only `b` known: the second conjunct, which does not read it, is kept as it is.
        let Node::And(_, second) = e.node() else { panic!("{e:?}") };
        let only_b = |id, _| (id == 2).then_some(0);
        let only_b = e.substitute(&Env::any(&only_b), &mut Memo::default());
        let Node::And(_, kept) = only_b.node() else { panic!("{only_b:?}") };
        assert_eq!(kept.addr(), second.addr());
    }

    #[test]
    fn show_with_names_variables_and_keeps_the_layout() {
        let x = Sym::var(0, Sort::Int);
        let y = Sym::var(1, Sort::Int);
        let b = Sym::var(2, Sort::Bool);
        let e = Sym::and(&Sym::lt(&x, &Sym::add(&y, &Sym::int(1))), &Sym::not(&b));
        assert_eq!(e.to_string(), "(x0 < (x1 + 1)) && !b2");
        let names = |id: u32, _: Sort| ["x", "o1.key", "flag"][id as usize].to_string();
        assert_eq!(e.show_with(&names), "(x < (o1.key + 1)) && !flag");
        assert_eq!(Sym::neg(&Sym::sub(&x, &y)).show_with(&names), "-(x - o1.key)");
        let bounds = Sym::le(&Sym::int(i64::MIN), &Sym::var(4_294_967_295, Sort::Int));
        assert_eq!(bounds.to_string(), "-9223372036854775808 <= x4294967295");
        for n in [0, 7, -7, 10, -10, 1_234_567_890, i64::MIN, i64::MAX] {
            assert_eq!(Sym::int(n).to_string(), n.to_string());
        }
    }
}
