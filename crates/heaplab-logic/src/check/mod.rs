//! The model checker: does a concrete heap and store satisfy a formula? This is the validity
//! oracle for everything the generator produces, so it deliberately shares no code with the
//! satisfiability search and never calls a solver.
//!
//! Semantics (docs/language.md, "Formula semantics"): a formula describes exactly its footprint
//! (precise semantics: each cell of the footprint is the cell of exactly one points-to in the
//! unfolded formula), and the heap may hold further objects outside it. A reference may point
//! to such an unclaimed object (a location outside the footprint, as a dangling reference is in
//! standard separation logic); the formula says nothing about its fields. So `model ⊨ F` holds
//! when some sub-heap of the model is a footprint of `F` under the store.
//!
//! The search is a direct recursion over the formula against the heap:
//! - a points-to whose pointer has a value consumes that object (class must match) and binds or
//!   checks its field terms against the object's field values;
//! - a predicate instance is unfolded into its disjuncts (branching), preferring instances with
//!   a reference argument already bound, so unfolding follows the heap;
//! - a disjunct that already holds (no cell, every fact true) is taken alone: it claims and
//!   binds nothing, so whatever another disjunct allows, it allows too;
//! - an existential pointer that nothing determines is tried against every unconsumed object;
//! - pure facts are evaluated as soon as their variables have values; an equality with a single
//!   unknown integer (`v == e`, `2 # v + 1 == e`) is solved on the spot.
//!
//! Integer existentials that only occur in pure facts (the `lo`/`hi` bounds of `bst`, which are
//! existential at the top only) are solved at the end by propagation: each fact with exactly one
//! unknown variable gives a bound or an excluded value, a variable is set to a value meeting all
//! of its single-variable facts (its lower bound, else its upper bound, else 0), and this repeats.
//! Limits: when facts tie several unknowns together, the values tried are a heuristic; if no
//! choice works and such a choice was involved, the answer is `Unknown`, never a wrong `Fails`.
//! Existential pointers constrained only by pure facts may also take a dangling (unallocated)
//! location, as in standard separation-logic semantics: a new one, or one another existential
//! already took (two existentials may name the same location outside the heap). The search is
//! bounded by `max_steps`; exhausting it yields `Unknown`.

use crate::error::{Error, Result};
use crate::formula::{CmpOp, Defs, Formula, Var};
use crate::model::{Model, Value};
use compiled::{Compiled, Frame};
use refs::{Refs, Side};
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};
use term::{App, FastMap, Fx, Id, Kind, Kinds, Names, Part, Pt, MAX_FRESH, P, T};

mod compiled;
mod refs;
mod term;

/// The answer of the model checker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Holds,
    Fails,
    /// The bounded search could not decide (the reason says which limit or heuristic).
    Unknown(String),
}

/// Limits of the model checker's search.
#[derive(Clone, Copy, Debug)]
pub struct CheckLimits {
    /// Search steps (propagation rounds and branches) before giving up. Default: 200 000.
    pub max_steps: usize,
    /// Bytes of the search states waiting on the stack, at most (estimated: each holds a copy
    /// of what is left to match and of which objects are taken), so the checker's memory is
    /// bounded however it branches. Default: 256 MB.
    pub max_pending_bytes: usize,
}

impl Default for CheckLimits {
    fn default() -> Self {
        CheckLimits { max_steps: 200_000, max_pending_bytes: 256 << 20 }
    }
}

/// Satisfaction: `model ⊨ formula`, the footprint being some part of the heap (the rest is
/// unclaimed: objects the formula says nothing about).
pub fn satisfies(
    defs: &Defs,
    model: &Model,
    formula: &Formula,
    limits: CheckLimits,
) -> Result<Verdict> {
    satisfies_within(defs, model, formula, limits, &mut crate::halt::never)
}

/// [`satisfies`] within the caller's bounds (time, memory): `interrupt` is asked at every
/// step, and a bound it names makes the verdict `Unknown`, naming it.
pub fn satisfies_within(
    defs: &Defs,
    model: &Model,
    formula: &Formula,
    limits: CheckLimits,
    interrupt: &mut crate::halt::Interrupt<'_>,
) -> Result<Verdict> {
    Ok(satisfies_costed(defs, model, formula, limits, interrupt)?.0)
}

/// What a check did: its search steps (the unit of [`CheckLimits::max_steps`]), and the
/// predicate body disjuncts it instantiated (given fresh existentials and the instance's
/// arguments); the others it only read, compiled, through the arguments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckCost {
    pub steps: usize,
    pub instantiated: usize,
    /// Body disjuncts read compiled, through an instance's arguments, to choose what to
    /// unfold (each would have been instantiated before bodies were compiled).
    pub read: usize,
    /// Unfolded instances keyed for the loop cut (what is known of their arguments, computed
    /// and compared with the instances met before along their chain of unfoldings).
    pub keyed: usize,
}

/// [`satisfies_within`], with what the check cost.
pub fn satisfies_costed(
    defs: &Defs,
    model: &Model,
    formula: &Formula,
    limits: CheckLimits,
    interrupt: &mut crate::halt::Interrupt<'_>,
) -> Result<(Verdict, CheckCost)> {
    for (v, _) in &formula.free {
        if !model.store.contains_key(v) {
            return Err(Error::BadModel(format!("the store has no value for `{v}`")));
        }
    }
    for o in &model.objects {
        for (_, v) in &o.fields {
            if let Value::Ref(r) = v {
                if *r >= model.objects.len() {
                    return Err(Error::BadModel(format!("reference @{r} to a missing object")));
                }
            }
        }
    }
    let mut names = Names::default();
    let compiled = Compiled::new(defs, &mut names);
    let classes: Vec<u32> = model.objects.iter().map(|o| names.class(&o.class)).collect();
    let mut search = Search {
        compiled: &compiled,
        model,
        classes,
        steps: 0,
        limits,
        approx: false,
        names,
        interrupt,
        stopped: None,
        halted: false,
        wide: false,
        standing: std::collections::HashMap::new(),
        chains: 0,
        instantiated: 0,
        read: std::cell::Cell::new(0),
        keyed: 0,
    };
    let verdict = search.verdict(formula);
    Ok((
        verdict,
        CheckCost {
            steps: search.steps,
            instantiated: search.instantiated,
            read: search.read.get(),
            keyed: search.keyed,
        },
    ))
}

impl Search<'_, '_> {
    /// Whether some disjunct of `formula` holds in the model.
    fn verdict(&mut self, formula: &Formula) -> Verdict {
        let mut unknown = None;
        for d in &formula.disjuncts {
            for v in d.all_vars().iter().chain(d.exists.iter().map(|(v, _)| v)) {
                self.names.avoid(v);
            }
            let mut var = |n: &mut Names, v: &Var| n.var(v);
            let mut given: Vec<Option<Kind>> = Vec::new();
            for (v, sort) in formula.free.iter().chain(&d.exists) {
                let id = self.names.var(v) as usize;
                if given.len() <= id {
                    given.resize(id + 1, None);
                }
                given[id] = Some(Kind::of(sort));
            }
            let env: Env = formula
                .free
                .iter()
                .filter_map(|(v, _)| {
                    self.model.store.get(v).map(|x| (self.names.var(v), x.clone()))
                })
                .collect();
            let part = self.names.part(d, &mut var);
            let st = State {
                env,
                kinds: Kinds::new(given),
                avail: vec![true; self.model.objects.len()],
                unconsumed: self.model.objects.len(),
                pts: part.pts,
                preds: part
                    .apps
                    .into_iter()
                    .map(|mut p| {
                        self.chains += 1;
                        p.chain = self.chains;
                        p
                    })
                    .collect(),
                pure: part.pure,
                refs: Refs::default(),
                chains: BTreeMap::new(),
            };
            match self.solve(st) {
                Found::Yes => return Verdict::Holds,
                Found::No => {}
                Found::Budget => {
                    unknown = Some(match self.stopped.take() {
                        Some(why) => why,
                        None => format!("search bound of {} steps reached", self.limits.max_steps),
                    });
                    if self.halted {
                        break;
                    }
                }
            }
        }
        if let Some(why) = unknown {
            return Verdict::Unknown(why);
        }
        if self.wide {
            return Verdict::Unknown(
                "an existential integer would need a value beyond 64 bits, which the checker's integers cannot hold".into(),
            );
        }
        if self.approx {
            return Verdict::Unknown(
                "integer facts tie several unknown existentials together; the values tried did not work".into(),
            );
        }
        Verdict::Fails
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Found {
    Yes,
    No,
    Budget,
}

enum Step {
    Done(Found),
    Branch(Vec<State>),
}

#[derive(Clone)]
struct State {
    env: Env,
    /// The variables' sorts (shared by all the states of a search: a sort never changes).
    kinds: Kinds,
    avail: Vec<bool>,
    /// How many of `avail` are still true (counted as objects are taken, not recounted).
    unconsumed: usize,
    pts: Vec<Pt>,
    preds: Vec<App>,
    pure: Vec<P>,
    /// What the facts say of the references without a location yet.
    refs: Refs,
    /// Per chain of unfoldings that took one instance for another and no cell (its id is the
    /// instance's `depth`, which the checker does not otherwise use): the instances met.
    chains: BTreeMap<u32, Vec<InstanceKey>>,
}

struct Search<'a, 'i> {
    /// The predicates' bodies, compiled once for this check.
    compiled: &'a Compiled,
    model: &'a Model,
    /// Each object's class, by its number ([`Names::class`]).
    classes: Vec<u32>,
    steps: usize,
    limits: CheckLimits,
    approx: bool,
    /// The check's names; fresh existentials are given here.
    names: Names,
    interrupt: &'a mut crate::halt::Interrupt<'i>,
    /// Why a bound other than the steps stopped the search (its memory, the caller's bound).
    stopped: Option<String>,
    /// The caller's bound fired: nothing more is tried.
    halted: bool,
    /// Some existential needed an integer beyond 64 bits, which a model cannot hold.
    wide: bool,
    /// How many disjuncts of an instance stand, by what is known of its arguments.
    standing: std::collections::HashMap<u64, usize>,
    /// Chain ids given out.
    chains: u32,
    /// Body disjuncts instantiated ([`CheckCost::instantiated`]).
    instantiated: usize,
    /// Body disjuncts read compiled ([`CheckCost::read`]).
    read: std::cell::Cell<usize>,
    /// Instances keyed for the loop cut ([`CheckCost::keyed`]).
    keyed: usize,
}

/// What the standing disjuncts of an instance depend on: the predicate, and per argument its
/// value (with whether an object is still free) or its class (with whether it is known not to
/// be `null`), and which pairs of arguments are known to differ.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct InstanceKey {
    pred: u32,
    args: Vec<ArgKey>,
    differ: Vec<(u8, u8)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum ArgKey {
    Value(Value, bool),
    Class(Id, bool),
    /// A class only this instance mentions: where it first appears, and whether it is known
    /// not to be `null`.
    Local(u8, bool),
    Open,
}

/// Entries of the instance cache, at most (it is cleared past that).
const MAX_STANDING: usize = 100_000;

/// `local`: an argument whose class of unbound variables nothing but this instance mentions
/// (a fresh existential of an unfolding, perhaps known not to be `null`) is keyed by what is
/// known of it and where it first appears among the arguments, whatever its name.
fn instance_key(app: &App, st: &State, local: bool) -> InstanceKey {
    // Classes by their roots, found once per argument rather than once per pair below.
    let sides: Vec<Option<Side>> = app
        .args
        .iter()
        .map(|a| match st.side(a) {
            Some(Side::Class(c)) => Some(Side::Class(st.refs.find(c))),
            s => s,
        })
        .collect();
    let mut first: BTreeMap<Id, u8> = BTreeMap::new();
    let mut waiting: Option<Vec<Id>> = None;
    let args = app
        .args
        .iter()
        .zip(&sides)
        .enumerate()
        .map(|(i, (a, side))| match side {
            Some(Side::Value(v)) => {
                let free = matches!(v, Value::Ref(o) if st.avail.get(*o).copied().unwrap_or(false));
                ArgKey::Value(v.clone(), free)
            }
            Some(Side::Class(c)) => {
                let root = st.refs.find(*c);
                let nonnull =
                    st.refs.equal(&Side::Class(*c), &Side::Value(Value::Null)) == Some(false);
                // What the waiting obligations mention, gathered once for all arguments
                // (scanning them per argument was a tenth of a counter's time).
                if local && st.local_class(root, waiting.get_or_insert_with(|| st.waiting_vars())) {
                    let at = *first.entry(root).or_insert(i as u8);
                    ArgKey::Local(at, nonnull)
                } else {
                    ArgKey::Class(root, nonnull)
                }
            }
            None => match eval(a, &st.env) {
                Some(v) => ArgKey::Value(v, false),
                None => ArgKey::Open,
            },
        })
        .collect();
    // Only the disequalities the arguments' keys do not already tell: two values differ by
    // their keys, and a class differs from `null` by its flag. Those left involve a class
    // with a disequality of its own, which few have; looking at every pair instead (561 for
    // a counter's 34 arguments, each two map look-ups) was a tenth of the checker's time.
    let mut differ = Vec::new();
    for (i, x) in sides.iter().enumerate() {
        let Some(x @ Side::Class(c)) = x else { continue };
        if st.refs.alone(*c) {
            continue;
        }
        for (j, y) in sides.iter().enumerate() {
            let Some(y) = y else { continue };
            let pair = match y {
                Side::Class(_) if j > i => (i as u8, j as u8),
                Side::Value(v) if *v != Value::Null => (i.min(j) as u8, i.max(j) as u8),
                _ => continue,
            };
            if st.refs.equal(x, y) == Some(false) {
                differ.push(pair);
            }
        }
    }
    differ.sort_unstable();
    InstanceKey { pred: app.pred, args, differ }
}

/// The key of the instance cache: [`instance_key`] without the locality of classes, hashed as
/// it is read instead of built (building it copied the predicate's name and every class's
/// root, a quarter of a counter's check, once per waiting instance per step). The cache
/// only orders the choice of instance, the chosen one's disjuncts being worked out again, so
/// two instances sharing a hash cost time, never an answer.
fn selection_key(app: &App, st: &State) -> u64 {
    let mut h = Fx::default();
    h.write_u32(app.pred);
    let mut roots: Vec<Option<Id>> = Vec::with_capacity(app.args.len());
    for a in &app.args {
        let class = match a {
            T::Var(v) if !st.env.contains_key(v) => {
                (st.kinds.of(*v) == Some(Kind::Ref)).then(|| st.refs.root(*v))
            }
            _ => None,
        };
        roots.push(class);
        match (class, eval(a, &st.env)) {
            (Some(r), _) => {
                h.write_u8(1);
                h.write_u32(r);
                h.write_u8(u8::from(st.refs.root_nonnull(r)));
            }
            (None, Some(v)) => {
                h.write_u8(2);
                v.hash(&mut h);
                let free = matches!(v, Value::Ref(o) if st.avail.get(o).copied().unwrap_or(false));
                h.write_u8(u8::from(free));
            }
            (None, None) => h.write_u8(3),
        }
    }
    // The disequalities the values do not tell, as in `instance_key`.
    for (i, x) in roots.iter().enumerate() {
        let Some(x) = *x else { continue };
        if st.refs.alone(x) {
            continue;
        }
        for (j, (y, a)) in roots.iter().zip(&app.args).enumerate() {
            let differ = match y {
                Some(y) if j > i => st.refs.roots_differ(x, *y),
                Some(_) => false,
                None => match eval(a, &st.env) {
                    Some(v @ Value::Ref(_)) => st.refs.root_differs_from(x, &v),
                    _ => false,
                },
            };
            if differ {
                h.write_usize(i.min(j) << 8 | i.max(j));
            }
        }
    }
    h.finish()
}

/// The values of the variables that have one.
type Env = FastMap<Id, Value>;

impl State {
    /// A rough size in bytes: what a copy of this state holds.
    fn bytes(&self) -> usize {
        256 + self.avail.len()
            + 64 * (self.env.len() + self.pts.len() + self.preds.len())
            + 160 * self.refs.len()
            + 96 * self.pure.len()
    }
}

/// Whether `v` is among `waiting` (sorted, as [`State::waiting_vars`] gives them).
fn live(waiting: &[Id], v: Id) -> bool {
    waiting.binary_search(&v).is_ok()
}

/// A three-valued evaluation result.
enum Tri {
    True,
    False,
    Open,
}

fn eval(t: &T, env: &Env) -> Option<Value> {
    Some(match t {
        T::Var(v) => env.get(v)?.clone(),
        T::Null => Value::Null,
        T::Int(i) => Value::Int(*i),
        T::Bool(b) => Value::Bool(*b),
        T::Add(..) | T::Sub(..) | T::Mul(..) | T::Neg(..) => {
            Value::Int(i64::try_from(num(t, env)?).ok()?)
        }
    })
}

/// An integer term's value, computed exactly in `i128`: the model's integers are `i64`, but
/// `v + 1` at `v == i64::MAX` is an integer too (the logic's integers are mathematical).
fn num(t: &T, env: &Env) -> Option<i128> {
    match t {
        T::Var(v) => match env.get(v)? {
            Value::Int(i) => Some(i128::from(*i)),
            _ => None,
        },
        T::Int(i) => Some(i128::from(*i)),
        T::Add(a, b) => num(a, env)?.checked_add(num(b, env)?),
        T::Sub(a, b) => num(a, env)?.checked_sub(num(b, env)?),
        T::Mul(a, b) => num(a, env)?.checked_mul(num(b, env)?),
        T::Neg(a) => num(a, env)?.checked_neg(),
        T::Null | T::Bool(_) => None,
    }
}

fn eval_pure(p: &P, env: &Env) -> Tri {
    match p {
        P::Const(b) => tri(*b),
        P::Cmp(op, a, b) => cmp_terms(*op, a, b, env),
        P::Not(q) => match eval_pure(q, env) {
            Tri::True => Tri::False,
            Tri::False => Tri::True,
            Tri::Open => Tri::Open,
        },
        P::And(ps) => {
            let mut open = false;
            for q in ps {
                match eval_pure(q, env) {
                    Tri::False => return Tri::False,
                    Tri::Open => open = true,
                    Tri::True => {}
                }
            }
            if open {
                Tri::Open
            } else {
                Tri::True
            }
        }
        P::Or(ps) => {
            let mut open = false;
            for q in ps {
                match eval_pure(q, env) {
                    Tri::True => return Tri::True,
                    Tri::Open => open = true,
                    Tri::False => {}
                }
            }
            if open {
                Tri::Open
            } else {
                Tri::False
            }
        }
    }
}

fn cmp_terms(op: CmpOp, a: &T, b: &T, env: &Env) -> Tri {
    if let (Some(x), Some(y)) = (num(a, env), num(b, env)) {
        return tri(match op {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
        });
    }
    let (Some(x), Some(y)) = (eval(a, env), eval(b, env)) else { return Tri::Open };
    match op {
        CmpOp::Eq => tri(x == y),
        CmpOp::Ne => tri(x != y),
        CmpOp::Lt | CmpOp::Le => match (x, y) {
            (Value::Int(x), Value::Int(y)) => tri(if op == CmpOp::Lt { x < y } else { x <= y }),
            _ => Tri::False,
        },
    }
}

fn tri(b: bool) -> Tri {
    if b {
        Tri::True
    } else {
        Tri::False
    }
}

impl State {
    /// A reference term as a value, or as its class when it has no location yet; `None` for
    /// terms that are not references.
    fn side(&self, t: &T) -> Option<Side> {
        match t {
            T::Null => Some(Side::Value(Value::Null)),
            T::Var(v) => match self.env.get(v) {
                Some(x @ (Value::Ref(_) | Value::Null)) => Some(Side::Value(x.clone())),
                Some(_) => None,
                None => (self.kinds.of(*v) == Some(Kind::Ref)).then_some(Side::Class(*v)),
            },
            _ => None,
        }
    }

    /// [`eval_pure`], with the reference classes deciding (dis)equalities of references that
    /// have no location yet.
    fn eval(&self, p: &P) -> Tri {
        match p {
            P::Cmp(op, a, b) => self.eval_cmp(*op, a, b),
            P::Not(q) => match self.eval(q) {
                Tri::True => Tri::False,
                Tri::False => Tri::True,
                Tri::Open => Tri::Open,
            },
            P::And(ps) => {
                let mut open = false;
                for q in ps {
                    match self.eval(q) {
                        Tri::False => return Tri::False,
                        Tri::Open => open = true,
                        Tri::True => {}
                    }
                }
                if open {
                    Tri::Open
                } else {
                    Tri::True
                }
            }
            P::Or(ps) => {
                let mut open = false;
                for q in ps {
                    match self.eval(q) {
                        Tri::True => return Tri::True,
                        Tri::Open => open = true,
                        Tri::False => {}
                    }
                }
                if open {
                    Tri::Open
                } else {
                    Tri::False
                }
            }
            p => eval_pure(p, &self.env),
        }
    }

    /// `a op b` as [`State::eval`] evaluates it.
    fn eval_cmp(&self, op: CmpOp, a: &T, b: &T) -> Tri {
        if matches!(op, CmpOp::Eq | CmpOp::Ne) {
            if let (Some(x), Some(y)) = (self.side(a), self.side(b)) {
                return match self.refs.equal(&x, &y) {
                    Some(eq) => tri(eq == (op == CmpOp::Eq)),
                    None => Tri::Open,
                };
            }
        }
        cmp_terms(op, a, b, &self.env)
    }

    /// Whether the class `root` of unbound variables is mentioned by no waiting obligation
    /// (`waiting`: the variables they mention) and differs from no other class.
    fn local_class(&self, root: Id, waiting: &[Id]) -> bool {
        self.refs.alone(root) && !self.refs.members_of(root).iter().any(|m| live(waiting, *m))
    }

    /// The variables the waiting obligations mention, sorted, each once.
    fn waiting_vars(&self) -> Vec<Id> {
        let mut live = Vec::new();
        for pt in &self.pts {
            pt.ptr.free_vars(&mut live);
            pt.fields.iter().for_each(|(_, t)| t.free_vars(&mut live));
        }
        for app in &self.preds {
            app.args.iter().for_each(|t| t.free_vars(&mut live));
        }
        self.pure.iter().for_each(|p| p.free_vars(&mut live));
        live.sort_unstable();
        live.dedup();
        live
    }

    /// Drops what no waiting obligation mentions any more: values and classes of the
    /// existentials of the unfoldings done, so a long derivation's states stay small (and
    /// so do their copies when the search branches).
    fn collect_garbage(&mut self) {
        let waiting = self.waiting_vars();
        self.env.retain(|v, _| live(&waiting, *v));
        self.refs.retain(&waiting);
        let chains: BTreeSet<u32> = self.preds.iter().map(|p| p.chain).collect();
        self.chains.retain(|c, _| chains.contains(c));
    }

    /// Binds `v` (and, for a reference, its whole class) to `val`; `false` when a fact of the
    /// classes forbids it.
    fn assign(&mut self, v: &Id, val: Value) -> bool {
        if self.kinds.of(*v) != Some(Kind::Ref) || !matches!(val, Value::Ref(_) | Value::Null) {
            self.env.insert(*v, val);
            return true;
        }
        let Some(members) = self.refs.bind(*v, &val) else { return false };
        for m in members {
            self.env.insert(m, val.clone());
        }
        self.env.insert(*v, val);
        true
    }

    /// Takes an open (dis)equality of references into the classes; `None`: not one,
    /// `Some(false)`: it contradicts them.
    /// The fact is read in place (`pure[j]`), not copied: this is asked of every open fact
    /// at every round of propagation.
    fn absorb(&mut self, j: usize) -> Option<bool> {
        let P::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b) = self.pure.get(j)? else { return None };
        let (op, x, y) = (*op, self.side(a)?, self.side(b)?);
        Some(match (op, x, y) {
            (CmpOp::Eq, Side::Class(x), Side::Class(y)) => self.refs.union(x, y),
            (CmpOp::Eq, Side::Class(x), Side::Value(v))
            | (CmpOp::Eq, Side::Value(v), Side::Class(x)) => self.assign(&x, v),
            (_, Side::Class(x), Side::Class(y)) => self.refs.differ(x, y),
            (_, Side::Class(x), Side::Value(v)) | (_, Side::Value(v), Side::Class(x)) => {
                self.refs.differ_from(x, v);
                true
            }
            (_, Side::Value(x), Side::Value(y)) => (x == y) == (op == CmpOp::Eq),
        })
    }
}

impl State {
    /// A compiled fact read through `frame` and evaluated as [`State::eval`] would
    /// evaluate its instantiation: an atom mentioning an unknown is open (a fresh
    /// existential has no value and no class).
    fn eval_in(&self, p: &P, frame: Frame<'_, '_>) -> Tri {
        match p {
            P::Const(b) => tri(*b),
            P::Cmp(op, a, b) => match (frame.read(a), frame.read(b)) {
                (Some(a), Some(b)) => self.eval_cmp(*op, &a, &b),
                _ => Tri::Open,
            },
            P::Not(q) => match self.eval_in(q, frame) {
                Tri::True => Tri::False,
                Tri::False => Tri::True,
                Tri::Open => Tri::Open,
            },
            P::And(ps) | P::Or(ps) => {
                let (stop, stop_at) = match p {
                    P::And(_) => (Tri::False, false),
                    _ => (Tri::True, true),
                };
                let mut open = false;
                for q in ps {
                    match (self.eval_in(q, frame), stop_at) {
                        (Tri::False, false) | (Tri::True, true) => return stop,
                        (Tri::Open, _) => open = true,
                        _ => {}
                    }
                }
                if open {
                    Tri::Open
                } else {
                    tri(!stop_at)
                }
            }
        }
    }

    /// A compiled points-to's pointer names a location this state cannot give it: `null`, a
    /// non-reference, or an object already taken.
    fn ptr_refuted(&self, ptr: &T, frame: Frame<'_, '_>) -> bool {
        match frame.read(ptr).and_then(|t| eval(&t, &self.env)) {
            Some(Value::Ref(o)) => !self.avail.get(o).copied().unwrap_or(false),
            Some(_) => true,
            None => false,
        }
    }
}

/// `t` as `Σ c·v + k` over the variables without a value (exactly, in `i128`); `None` if not
/// linear, not an integer, or too large.
fn linear(t: &T, env: &Env) -> Option<(BTreeMap<Id, i128>, i128)> {
    Some(match t {
        T::Var(v) => match env.get(v) {
            Some(Value::Int(i)) => (BTreeMap::new(), i128::from(*i)),
            Some(_) => return None,
            None => (BTreeMap::from([(*v, 1)]), 0),
        },
        T::Int(i) => (BTreeMap::new(), i128::from(*i)),
        T::Add(a, b) | T::Sub(a, b) => {
            let (mut ca, ka) = linear(a, env)?;
            let (cb, kb) = linear(b, env)?;
            let sign = if matches!(t, T::Sub(..)) { -1 } else { 1 };
            for (v, c) in cb {
                let e = ca.entry(v).or_insert(0);
                *e = e.checked_add(c.checked_mul(sign)?)?;
            }
            ca.retain(|_, c| *c != 0);
            (ca, ka.checked_add(kb.checked_mul(sign)?)?)
        }
        T::Neg(a) => {
            let (ca, k) = linear(a, env)?;
            let ca =
                ca.into_iter().map(|(v, c)| Some((v, c.checked_neg()?))).collect::<Option<_>>()?;
            (ca, k.checked_neg()?)
        }
        T::Mul(a, b) => {
            let (ca, ka) = linear(a, env)?;
            let (cb, kb) = linear(b, env)?;
            let scale = |c: BTreeMap<Id, i128>, by: i128| -> Option<BTreeMap<Id, i128>> {
                c.into_iter()
                    .map(|(v, x)| Some((v, x.checked_mul(by)?)))
                    .filter(|r| r.as_ref().is_none_or(|(_, x)| *x != 0))
                    .collect()
            };
            if ca.is_empty() {
                (scale(cb, ka)?, ka.checked_mul(kb)?)
            } else if cb.is_empty() {
                (scale(ca, kb)?, ka.checked_mul(kb)?)
            } else {
                return None;
            }
        }
        T::Null | T::Bool(_) => return None,
    })
}

/// Facts about one unknown integer variable from single-variable constraints.
#[derive(Default)]
struct Bounds {
    lo: Option<i128>,
    hi: Option<i128>,
    exact: Option<i128>,
    excluded: BTreeSet<i128>,
    conflict: bool,
}

impl Search<'_, '_> {
    /// Depth-first search with an explicit stack, so long structures cannot overflow the call
    /// stack. Siblings are pushed in reverse so the first disjunct is tried first.
    fn solve(&mut self, init: State) -> Found {
        let mut pending = init.bytes();
        let mut stack = vec![init];
        let mut res = Found::No;
        while let Some(st) = stack.pop() {
            pending = pending.saturating_sub(st.bytes());
            match self.step(st) {
                Step::Done(Found::Yes) => return Found::Yes,
                Step::Done(Found::Budget) => {
                    res = Found::Budget;
                    if self.steps > self.limits.max_steps || self.halted {
                        return Found::Budget;
                    }
                }
                Step::Done(Found::No) => {}
                Step::Branch(children) => {
                    pending += children.iter().map(State::bytes).sum::<usize>();
                    if pending > self.limits.max_pending_bytes {
                        self.stopped = Some(format!(
                            "its search states outgrew {} MB",
                            self.limits.max_pending_bytes >> 20
                        ));
                        return Found::Budget;
                    }
                    stack.extend(children.into_iter().rev());
                }
            }
        }
        res
    }

    /// Counts a step; `false` once the steps or the caller's bound are spent.
    fn tick(&mut self) -> bool {
        self.steps += 1;
        if self.steps > self.limits.max_steps {
            return false;
        }
        if self.names.fresh_given() > MAX_FRESH && !self.halted {
            self.halted = true;
            self.stopped = Some("its fresh variables outgrew the checker's numbering".into());
        }
        if !self.halted {
            if let Some(h) = (self.interrupt)() {
                self.halted = true;
                self.stopped = Some(format!("stopped by {h}"));
            }
        }
        !self.halted
    }

    fn step(&mut self, mut st: State) -> Step {
        loop {
            if !self.tick() {
                return Step::Done(Found::Budget);
            }
            match self.propagate(&mut st) {
                Some(true) => continue,
                Some(false) => {}
                None => return Step::Done(Found::No),
            }
            break;
        }
        if st.pts.len() > st.unconsumed {
            return Step::Done(Found::No);
        }
        // Unfold a predicate instance: among the first few waiting, the one with the fewest
        // disjuncts that what is known leaves standing (none: this state fails; one: no
        // branching), then one whose reference argument has a value. Choosing the most
        // constrained instance first keeps a wrong branch from running on past the fact that
        // refutes it (a gate of a counter whose inputs are only known to be non-null).
        if !st.preds.is_empty() {
            let mut best: Option<(usize, bool, usize, Option<Vec<usize>>)> = None;
            for idx in 0..st.preds.len().min(SELECT_AMONG) {
                let app = &st.preds[idx];
                if self.compiled.get(app.pred).is_none() {
                    return Step::Done(Found::No);
                }
                let bound = app
                    .args
                    .iter()
                    .any(|a| matches!(eval(a, &st.env), Some(Value::Ref(_) | Value::Null)));
                // How many disjuncts stand depends only on what is known of the arguments:
                // an instance met before with the same knowledge is not looked into again.
                let key = selection_key(app, &st);
                let (count, parts) = match self.standing.get(&key) {
                    Some(n) => (*n, None),
                    None => {
                        // Disjuncts refuted by what is already known are dropped before the
                        // state is copied; when a single one survives, the state is moved,
                        // not copied (this keeps checking a long list linear).
                        let parts = self.standing(app, &st);
                        // What every disjunct left standing says of the arguments (`z ==
                        // null` for an and-gate whose inputs are both null) holds without
                        // choosing one: it is learnt, and the search goes on from it
                        // without branching.
                        if parts.len() > 1 {
                            let learnt: Vec<P> = self
                                .common_facts(app, &parts, LOOKAHEAD)
                                .into_iter()
                                .filter(|p| matches!(st.eval(p), Tri::Open))
                                .collect();
                            if !learnt.is_empty() {
                                st.pure.extend(learnt);
                                return Step::Branch(vec![st]);
                            }
                        }
                        if self.standing.len() >= MAX_STANDING {
                            self.standing.clear();
                        }
                        self.standing.insert(key, parts.len());
                        (parts.len(), Some(parts))
                    }
                };
                let better = match &best {
                    None => true,
                    Some((n, b, _, _)) => count < *n || (count == *n && bound && !b),
                };
                if better {
                    // None left: this state fails; one: as good as any (no branching).
                    let done = count <= 1;
                    best = Some((count, bound, idx, parts));
                    if done {
                        break;
                    }
                }
            }
            let best = best.map(|(n, b, idx, parts)| {
                let parts = parts.unwrap_or_else(|| self.standing(&st.preds[idx], &st));
                (n, b, idx, self.instantiate(&st.preds[idx], parts))
            });
            let Some((_, _, idx, parts)) = best else { return Step::Done(Found::No) };
            // Before the state is copied (or now and then on a long single path), what no
            // obligation mentions goes; the instance being unfolded still holds its
            // arguments, which its disjuncts mention.
            if parts.len() > 1 || self.steps.is_multiple_of(64) {
                st.collect_garbage();
            }
            // An instance met again along a chain of unfoldings that took one instance for
            // another and no cell (`S1(x, y, z)` ⇒ `S2(x, y, z, c)` ⇒ `S1(x, y, z)`), with
            // the same knowledge of its arguments: whatever derivation goes on from here
            // could have gone on from the first, so this branch adds nothing.
            let app = st.preds.remove(idx);
            let chain = app.chain;
            // Only an instance of a predicate on a cycle of the call graph can meet itself
            // again along a chain: the others are neither keyed nor recorded (keying every
            // unfolded instance was an eighth of a counter's check, whose `succK` gates
            // recurse into `succK-1` and never back).
            let recursive = self.compiled.get(app.pred).is_some_and(|cp| cp.recursive);
            let key = recursive.then(|| {
                self.keyed += 1;
                instance_key(&app, &st, true)
            });
            if let Some(key) = &key {
                if st.chains.get(&chain).is_some_and(|c| c.contains(key)) {
                    return Step::Done(Found::No);
                }
            }
            let mut children = Vec::new();
            let last = parts.len().saturating_sub(1);
            let mut st = Some(st);
            for (i, part) in parts.into_iter().enumerate() {
                let mut next = if i == last {
                    match st.take() {
                        Some(s) => s,
                        None => break,
                    }
                } else {
                    match &st {
                        Some(s) => s.clone(),
                        None => break,
                    }
                };
                let mut preds = part.apps;
                if part.pts.is_empty() && preds.len() == 1 {
                    // The chain goes on through the one instance.
                    if let Some(key) = &key {
                        next.chains.entry(chain).or_default().push(key.clone());
                    }
                    preds[0].chain = chain;
                } else {
                    for p in &mut preds {
                        self.chains += 1;
                        p.chain = self.chains;
                    }
                }
                next.pts.extend(part.pts);
                next.preds.extend(preds);
                for p in part.pure {
                    if !next.pure.contains(&p) {
                        next.pure.push(p);
                    }
                }
                children.push(next);
            }
            return Step::Branch(children);
        }
        // A points-to whose pointer nothing determines: try every unconsumed object.
        if let Some(pt) = st.pts.first().cloned() {
            let T::Var(v) = &pt.ptr else { return Step::Done(Found::No) };
            let mut children = Vec::new();
            for (o, class) in self.classes.iter().enumerate() {
                if st.avail[o] && *class == pt.class {
                    let mut next = st.clone();
                    if next.assign(v, Value::Ref(o)) {
                        children.push(next);
                    }
                }
            }
            return Step::Branch(children);
        }
        // Objects still available are outside the footprint: unclaimed, and allowed.
        Step::Done(self.solve_pure(st))
    }

    /// The disjuncts of `app` (their numbers) that what `st` knows does not refute. When one of them holds
    /// already (no cell, its facts true, its instances so too), it alone is kept, as [`HOLDS`] (an
    /// empty part): it claims nothing and binds nothing, so every way the other disjuncts could
    /// go on, it goes on too. Without this, a gate of a counter whose disjuncts both hold
    /// (`and(0, 0, 0)`) left a copy of the state on the stack at each of the counter's 2^n
    /// steps, and the checker's states outgrew their memory bound from 12 bits on.
    fn standing(&self, app: &App, st: &State) -> Vec<usize> {
        let Some(cp) = self.compiled.get(app.pred) else { return Vec::new() };
        let args: Vec<Option<&T>> = app.args.iter().map(Some).collect();
        let frame = Frame { params: cp.params, args: &args };
        let mut standing = Vec::new();
        // Each disjunct is judged on its compiled form read through the arguments; only the
        // chosen instance's are instantiated ([`Search::instantiate`]).
        for (i, d) in cp.disjuncts.iter().enumerate() {
            self.read.set(self.read.get() + 1);
            if self.holds_now(d, frame, st, LOOKAHEAD) {
                return vec![HOLDS];
            }
            if !self.refuted(d, frame, st, LOOKAHEAD) {
                standing.push(i);
            }
        }
        standing
    }

    /// The disjuncts `standing` of `app`, instantiated with fresh existentials.
    fn instantiate(&mut self, app: &App, standing: Vec<usize>) -> Vec<Part> {
        let compiled = self.compiled;
        let Some(cp) = compiled.get(app.pred) else { return Vec::new() };
        standing
            .into_iter()
            .map(|i| {
                if i == HOLDS {
                    Part::default()
                } else {
                    self.instantiated += 1;
                    cp.instantiate(i, &app.args, &mut self.names)
                }
            })
            .collect()
    }

    /// Whether a compiled disjunct, read through `frame`, holds whatever the rest of the
    /// search does: no points-to, every fact true by what `st` knows, and (looking `depth`
    /// levels down) each instance with a disjunct that holds so. A fact on the disjunct's
    /// own existentials is open, so never true.
    fn holds_now(&self, d: &Part, frame: Frame<'_, '_>, st: &State, depth: u32) -> bool {
        if !d.pts.is_empty()
            || (depth == 0 && !d.apps.is_empty())
            || !d.pure.iter().all(|p| matches!(st.eval_in(p, frame), Tri::True))
        {
            return false;
        }
        d.apps.iter().all(|app| {
            let Some(cp) = self.compiled.get(app.pred) else { return false };
            let owned = frame.read_args(app);
            let args: Vec<Option<&T>> = owned.iter().map(|a| a.as_deref()).collect();
            let sub = Frame { params: cp.params, args: &args };
            self.read.set(self.read.get() + cp.disjuncts.len());
            cp.disjuncts.iter().any(|d| self.holds_now(d, sub, st, depth - 1))
        })
    }

    /// Whether what the state knows refutes a compiled disjunct read through `frame`: a fact
    /// that evaluates to false (the reference classes included: `x == null` for an `x` known
    /// not to be `null`), a points-to at `null` or at an object already taken, or (looking
    /// `depth` levels into its instances) an instance every disjunct of which is refuted so.
    fn refuted(&self, d: &Part, frame: Frame<'_, '_>, st: &State, depth: u32) -> bool {
        let direct = d.pure.iter().any(|p| matches!(st.eval_in(p, frame), Tri::False))
            || d.pts.iter().any(|pt| st.ptr_refuted(&pt.ptr, frame));
        if direct || depth == 0 {
            return direct;
        }
        d.apps.iter().any(|app| {
            let owned = frame.read_args(app);
            // An instance whose arguments are all fresh (existentials of this disjunct or of
            // the one above): the state knows nothing of them, so none of its disjuncts'
            // facts can evaluate to false against it, and looking into it would only read
            // bodies (every node of a tree of 320 000 has two such children).
            let unknown = |a: &Option<std::borrow::Cow<'_, T>>| match a.as_deref() {
                None => true,
                Some(T::Var(v)) => !st.env.contains_key(v) && st.kinds.of(*v).is_none(),
                Some(_) => false,
            };
            if owned.iter().all(unknown) {
                return false;
            }
            let Some(cp) = self.compiled.get(app.pred) else { return true };
            let args: Vec<Option<&T>> = owned.iter().map(|a| a.as_deref()).collect();
            let sub = Frame { params: cp.params, args: &args };
            self.read.set(self.read.get() + cp.disjuncts.len());
            cp.disjuncts.iter().all(|d| self.refuted(d, sub, st, depth - 1))
        })
    }

    /// The facts `x == null` / `x != null` on the arguments of `app` that every disjunct of
    /// `standing` implies (its own facts, and those of instances with a single disjunct,
    /// `depth` levels down), read on the compiled disjuncts.
    fn common_facts(&self, app: &App, standing: &[usize], depth: u32) -> Vec<P> {
        let Some(cp) = self.compiled.get(app.pred) else { return Vec::new() };
        let args: Vec<Option<&T>> = app.args.iter().map(Some).collect();
        let frame = Frame { params: cp.params, args: &args };
        let mut common: Option<BTreeSet<(CmpOp, Id)>> = None;
        for &i in standing {
            let Some(d) = cp.disjuncts.get(i) else { return Vec::new() };
            let mut facts = BTreeSet::new();
            self.implied(d, frame, depth, &mut facts);
            common = Some(match common {
                None => facts,
                Some(c) => c.intersection(&facts).cloned().collect(),
            });
            if common.as_ref().is_some_and(BTreeSet::is_empty) {
                return Vec::new();
            }
        }
        // In the order of the variables' names, as the facts were learnt when they were
        // the formula's terms (the order in which they are taken into the classes).
        let mut common: Vec<(CmpOp, Id)> = common.unwrap_or_default().into_iter().collect();
        common.sort_by(|(o, x), (p, y)| o.cmp(p).then_with(|| self.names.order(*x, *y)));
        common.into_iter().map(|(op, x)| P::Cmp(op, T::Var(x), T::Null)).collect()
    }

    /// Collects into `acc` the nullness facts a compiled disjunct read through `frame` implies
    /// on the instance's arguments: a variable read through the frame is one of them (an
    /// existential reads as unknown).
    fn implied(&self, d: &Part, frame: Frame<'_, '_>, depth: u32, acc: &mut BTreeSet<(CmpOp, Id)>) {
        for p in &d.pure {
            if let P::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b) = p {
                for (x, y) in [(a, b), (b, a)] {
                    if let (Some(x), Some(y)) = (frame.read(x), frame.read(y)) {
                        if let (T::Null, T::Var(x)) = (&*y, &*x) {
                            acc.insert((*op, *x));
                        }
                    }
                }
            }
        }
        if depth == 0 {
            return;
        }
        for app in &d.apps {
            let Some(cp) = self.compiled.get(app.pred) else { continue };
            if let [sub] = cp.disjuncts.as_slice() {
                self.read.set(self.read.get() + 1);
                let owned = frame.read_args(app);
                let args: Vec<Option<&T>> = owned.iter().map(|a| a.as_deref()).collect();
                self.implied(sub, Frame { params: cp.params, args: &args }, depth - 1, acc);
            }
        }
    }

    /// One round of deterministic propagation. `Some(true)`: progress; `Some(false)`: nothing
    /// to do; `None`: contradiction.
    fn propagate(&mut self, st: &mut State) -> Option<bool> {
        let mut progress = false;
        // Points-to with a known pointer.
        let mut i = 0;
        while i < st.pts.len() {
            let Some(pv) = eval(&st.pts[i].ptr, &st.env) else {
                i += 1;
                continue;
            };
            let Value::Ref(o) = pv else { return None };
            let obj = self.model.objects.get(o)?;
            if !st.avail.get(o).copied().unwrap_or(false) || self.classes[o] != st.pts[i].class {
                return None;
            }
            st.avail[o] = false;
            st.unconsumed -= 1;
            let pt = st.pts.remove(i);
            for (f, t) in &pt.fields {
                let val = obj.field(self.names.field_name(*f))?.clone();
                match t {
                    T::Var(v) if !st.env.contains_key(v) => {
                        if !st.assign(v, val) {
                            return None;
                        }
                    }
                    _ => match eval(t, &st.env) {
                        Some(x) if x == val => {}
                        Some(_) => return None,
                        None => {
                            let Value::Int(n) = val else { return None };
                            st.pure.push(P::Cmp(CmpOp::Eq, t.clone(), T::Int(n)));
                        }
                    },
                }
            }
            progress = true;
        }
        // Pure facts: evaluate, take (dis)equalities of references into the classes, or
        // solve an equality with one unknown.
        let mut j = 0;
        while j < st.pure.len() {
            match st.eval(&st.pure[j]) {
                Tri::False => return None,
                Tri::True => {
                    st.pure.remove(j);
                    progress = true;
                }
                Tri::Open => {
                    match st.absorb(j) {
                        Some(true) => {
                            st.pure.remove(j);
                            progress = true;
                            continue;
                        }
                        Some(false) => return None,
                        None => {}
                    }
                    if let P::Cmp(CmpOp::Eq, a, b) = &st.pure[j] {
                        match solve_eq(a, b, &st.env) {
                            Some(Solved::Value(v, val)) => {
                                if !st.assign(&v, val) {
                                    return None;
                                }
                                st.pure.remove(j);
                                progress = true;
                                continue;
                            }
                            Some(Solved::NoInteger) => return None,
                            Some(Solved::Wide) => {
                                self.wide = true;
                                return None;
                            }
                            None => {}
                        }
                    }
                    j += 1;
                }
            }
        }
        Some(progress)
    }

    /// No spatial obligations left: find values for the remaining unknowns of the pure facts.
    fn solve_pure(&mut self, st: State) -> Found {
        if !self.tick() {
            return Found::Budget;
        }
        let mut unknown = Vec::new();
        for p in &st.pure {
            p.free_vars(&mut unknown);
        }
        unknown.retain(|v| !st.env.contains_key(v));
        // Tried in the order of their names, as when they were the formula's terms.
        unknown.sort_by(|a, b| self.names.order(*a, *b));
        unknown.dedup();
        if unknown.is_empty() {
            let ok = st.pure.iter().all(|p| matches!(eval_pure(p, &st.env), Tri::True));
            return if ok { Found::Yes } else { Found::No };
        }
        // Booleans and references: try the candidates.
        if let Some(v) =
            unknown.iter().find(|v| !matches!(st.kinds.of(**v), Some(Kind::Int) | None))
        {
            let cands: Vec<Value> = match st.kinds.of(*v) {
                Some(Kind::Bool) => vec![Value::Bool(false), Value::Bool(true)],
                _ => {
                    // A new location outside the heap first (it meets every disequality),
                    // then the ones other existentials already took (they may share one),
                    // then `null` and the objects. Up to renaming of the new locations,
                    // these are all the values a reference can take.
                    let n = self.model.objects.len();
                    let mut c = vec![Value::Ref(usize::MAX - self.steps)];
                    let taken: BTreeSet<usize> = st
                        .env
                        .values()
                        .filter_map(|x| match x {
                            Value::Ref(o) if *o >= n => Some(*o),
                            _ => None,
                        })
                        .collect();
                    c.extend(taken.into_iter().map(Value::Ref));
                    c.push(Value::Null);
                    c.extend((0..n).map(Value::Ref));
                    c
                }
            };
            return self.branch(st, *v, cands);
        }
        // Integers: single-variable facts give bounds; pick a value meeting them.
        let mut bounds: BTreeMap<Id, Bounds> = BTreeMap::new();
        let mut multi: BTreeSet<Id> = BTreeSet::new();
        for p in &st.pure {
            let P::Cmp(op, a, b) = p else {
                let mut vs = Vec::new();
                p.free_vars(&mut vs);
                multi.extend(vs.into_iter().filter(|v| !st.env.contains_key(v)));
                continue;
            };
            let (Some((ca, ka)), Some((cb, kb))) = (linear(a, &st.env), linear(b, &st.env)) else {
                continue;
            };
            let mut c = ca;
            for (v, k) in cb {
                *c.entry(v).or_insert(0) -= k;
            }
            c.retain(|_, k| *k != 0);
            let Some(k) = kb.checked_sub(ka) else { continue }; // Σ c·v  op  k
            if c.len() != 1 {
                multi.extend(c.keys().cloned());
                continue;
            }
            let Some((v, coef)) = c.into_iter().next() else { continue };
            let b = bounds.entry(v).or_default();
            match op {
                CmpOp::Eq => {
                    if k % coef != 0 || b.exact.is_some_and(|e| e != k / coef) {
                        b.conflict = true;
                    } else {
                        b.exact = Some(k / coef);
                    }
                }
                CmpOp::Ne => {
                    if k % coef == 0 {
                        b.excluded.insert(k / coef);
                    }
                }
                CmpOp::Lt | CmpOp::Le => {
                    // coef·v < k  ⇔  coef·v ≤ k − 1.
                    let Some(k) = (if *op == CmpOp::Lt { k.checked_sub(1) } else { Some(k) })
                    else {
                        continue;
                    };
                    if coef > 0 {
                        let hi = k.div_euclid(coef);
                        b.hi = Some(b.hi.map_or(hi, |h| h.min(hi)));
                    } else {
                        // coef < 0: v ≥ ceil(k / coef) = −floor(k / −coef).
                        let Some(lo) = k.div_euclid(-coef).checked_neg() else { continue };
                        b.lo = Some(b.lo.map_or(lo, |l| l.max(lo)));
                    }
                }
            }
        }
        let pick =
            unknown.iter().find(|v| bounds.contains_key(*v)).or_else(|| unknown.first()).cloned();
        let Some(v) = pick else { return Found::No };
        let b = bounds.remove(&v).unwrap_or_default();
        if b.conflict {
            return Found::No;
        }
        let mut cands = Vec::new();
        if let Some(e) = b.exact {
            cands.push(e);
        } else {
            for start in [b.lo, b.hi, Some(0)].into_iter().flatten() {
                let step = if Some(start) == b.hi && b.lo.is_none() { -1 } else { 1 };
                let mut x = start;
                let mut guard = 0;
                while b.excluded.contains(&x) && guard < 1000 {
                    x += step;
                    guard += 1;
                }
                cands.push(x);
            }
        }
        cands.retain(|x| {
            b.lo.is_none_or(|l| *x >= l) && b.hi.is_none_or(|h| *x <= h) && !b.excluded.contains(x)
        });
        cands.dedup();
        // A value beyond 64 bits is an integer the model cannot hold: not a refutation.
        let wide = cands.iter().any(|x| i64::try_from(*x).is_err());
        let cands: Vec<Value> =
            cands.into_iter().filter_map(|x| i64::try_from(x).ok()).map(Value::Int).collect();
        let guessed = multi.contains(&v) && b.exact.is_none();
        let res = self.branch(st, v, cands);
        if res == Found::No && guessed {
            self.approx = true;
        }
        if res == Found::No && wide {
            self.wide = true;
        }
        res
    }

    fn branch(&mut self, st: State, v: Id, cands: Vec<Value>) -> Found {
        let mut res = Found::No;
        for c in cands {
            let mut next = st.clone();
            if !next.assign(&v, c) {
                continue;
            }
            // Equalities with one unknown left are solved at once, so a chain `x1 == x2 ==
            // x3` follows the first choice instead of branching on every member.
            let mut solved = true;
            let mut refuted = false;
            while solved && !refuted {
                solved = false;
                for i in 0..next.pure.len() {
                    let P::Cmp(CmpOp::Eq, a, b) = &next.pure[i] else { continue };
                    match solve_eq(a, b, &next.env) {
                        Some(Solved::Value(w, val)) => {
                            if !next.assign(&w, val) {
                                refuted = true;
                                break;
                            }
                            solved = true;
                        }
                        Some(Solved::Wide) => self.wide = true,
                        _ => {}
                    }
                }
            }
            if refuted || next.pure.iter().any(|p| matches!(next.eval(p), Tri::False)) {
                continue;
            }
            match self.solve_pure(next) {
                Found::Yes => return Found::Yes,
                Found::Budget => res = Found::Budget,
                Found::No => {}
            }
        }
        res
    }
}

/// Waiting instances compared when choosing the next to unfold, at most.
const SELECT_AMONG: usize = 64;

/// A standing disjunct that holds already: an empty part.
const HOLDS: usize = usize::MAX;

/// Levels of instances looked into when deciding whether a disjunct is refuted.
const LOOKAHEAD: u32 = 2;

/// `a == b` with exactly one unknown variable, solvable exactly: its value.
fn solve_eq(a: &T, b: &T, env: &Env) -> Option<Solved> {
    for (x, y) in [(a, b), (b, a)] {
        if let T::Var(v) = x {
            if !env.contains_key(v) {
                if let Some(val) = eval(y, env) {
                    return Some(Solved::Value(*v, val));
                }
            }
        }
    }
    let (ca, ka) = linear(a, env)?;
    let (cb, kb) = linear(b, env)?;
    let mut c = ca;
    for (v, k) in cb {
        let e = c.entry(v).or_insert(0);
        *e = e.checked_sub(k)?;
    }
    c.retain(|_, k| *k != 0);
    if c.len() != 1 {
        return None;
    }
    let (v, coef) = c.into_iter().next()?;
    let k = kb.checked_sub(ka)?;
    if k % coef != 0 {
        return Some(Solved::NoInteger);
    }
    Some(match i64::try_from(k / coef) {
        Ok(x) => Solved::Value(v, Value::Int(x)),
        Err(_) => Solved::Wide,
    })
}

/// What solving `a == b` for its one unknown gave.
enum Solved {
    Value(Id, Value),
    /// No integer solves it: the fact is false.
    NoInteger,
    /// The solution lies beyond 64 bits, where the model has no values: not decided.
    Wide,
}
