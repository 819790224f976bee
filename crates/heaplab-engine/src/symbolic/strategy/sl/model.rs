//! The `sl` strategy's final step (JSF, digest seed-000 §4.6–4.7: at the end of a path the
//! remaining symbolic heap is solved, and its model is a fully initialized test input): when a
//! path ends with predicate instances still folded, the remaining input formula is handed to the
//! logic's satisfiability procedure ([`heaplab_logic::sat_in_order`]) and the input is completed
//! from its model.
//!
//! The formula given to the logic, over free variables that name the state's values:
//! - each folded instance `P(args)`, with its arguments translated: a state integer/boolean
//!   variable `n` is `svn`; an unresolved symbolic reference / location is `srn` / `sln` (a
//!   location is not `null`); `null` is `null`;
//! - each object of the state an argument is, as a points-to cell `son -> C { … }`: it is
//!   claimed already (the state's footprint), so the separating conjunction keeps the instances'
//!   new cells apart from it. Its fields are constants: the instances cannot read them (they own
//!   other cells), and variables there would only make the search close dangling references;
//! - the path condition restricted to the conjuncts that share variables with the arguments
//!   (the rest is satisfiable on its own, [`slice`]), without the `i64` range conjuncts (every
//!   integer of a model is an `i64` anyway).
//!
//! The search is depth-first (base cases first, as a run of the bodies would go) and bounded as
//! a run is: an instance may unfold recursively while its depth is below `--depth`, and while
//! the budget of its root allows one more cell (Kiasan's `k`: a root with budget `b` leaves
//! `b + 1` levels). The logic prunes with the predicates' invariants (`-1 <= h`), so a height the
//! path has forced negative is refuted at once. The pure part the Rust procedure cannot decide
//! goes to the engine's [`PathSolver`] through a [`PureOracle`] adapter (at most
//! [`super::oracle::ORACLE_BUDGET`] queries per path), so an asynchronous solver's `Pending`
//! reaches the driver, which undoes the step as for any other query.
//!
//! The answers ([`Completion`]):
//! - a model: a new input object per cell the model adds (fields journaled as input values,
//!   claimed), the symbolic references and locations resolved to `null` or those objects, and the
//!   integer variables involved pinned to the model's values (added to the path condition, after
//!   checking that they satisfy the slice). The test generator then reads the input as for any
//!   other path;
//! - `Unsat` (no bound cut the search): the path has no valid input and is discarded;
//! - no model, and only the depth cut the search: the path ends as bounded (by `k` when a
//!   root's budget limited it, else by `depth`);
//! - anything else ([`Completion::Fallback`]: an argument that is an unclaimed object, division
//!   in an argument, arithmetic the solver budget did not settle, a model that needs a new cell
//!   where `k` allows none): the strategy completes by running the bodies instead, and counts it
//!   ([`RunStats::sl_run_completions`](crate::symbolic::events::RunStats::sl_run_completions)).
//!   Over every example method at k = 2 that is 3 paths of about 180.

use super::oracle::Oracle;
use crate::symbolic::code::Compiled;
use crate::symbolic::config::{Bound, Deadline};
use crate::symbolic::solve::PathSolver;
use crate::symbolic::state::{Origin, PathState, RefResolution, SValue, State};
use crate::symbolic::term::{Node, Sort, Sym};
use heaplab_logic::formula::{CmpOp, PointsTo, PredApp, Pure, Sort as LSort, SymHeap, Term};
use heaplab_logic::model::Value;
use heaplab_logic::{Cut, Cuts, Formula, Order, SatResult, SearchBounds};
use std::collections::{BTreeMap, BTreeSet};

/// The logic's search bounds at path end: the unfolding depth is the engine's (so a model
/// exists exactly for the completions a run within `--depth` could reach); the object and work
/// caps only make the search give up (`Unknown`, hence the fallback), never change a model.
fn bounds(depth: u32) -> SearchBounds {
    SearchBounds { max_depth: depth, max_objects: 64, max_states: 2_000 }
}

/// The outcome of [`complete`].
#[derive(Debug)]
pub enum Completion {
    /// The state's input is complete; the text shows the model's new cells, for events.
    Model(String),
    /// The solver has not answered yet: the explorer undoes the step.
    Pending,
    /// The remaining formula has no model at all (no bound cut the search): the path has no
    /// valid input and is discarded.
    Unsat,
    /// No model within the bounds, and only the unfolding depth cut the search (the engine's
    /// `depth`, or `k` through the roots' budgets): the path ends as bounded by that bound.
    Bounded(Bound),
    /// The logic cannot take this state (the reason); complete by running.
    Fallback(String),
}

/// Translates the state's folded instances, asks `sat`, and on a model completes `st` in place
/// (only then is `st` changed).
pub fn complete(
    code: &Compiled,
    st: &mut State,
    depth_bound: u32,
    solver: &mut dyn PathSolver,
    deadline: &Deadline,
) -> Completion {
    if deadline.passed() {
        return Completion::Bounded(Bound::Timeout);
    }
    let mut tr = Translation::default();
    let heap = match tr.formula(code, st, depth_bound) {
        Ok(h) => h,
        Err(why) => return Completion::Fallback(why),
    };
    let formula = Formula { free: tr.free.clone(), disjuncts: vec![heap] };
    let mut oracle = Oracle::new(solver, st.vars.len() as u32);
    // The search may take long (thousands of partial heaps, each with pure checks): it asks the
    // run's deadline now and then, and a search stopped by it ends the path on the time bound.
    let res = heaplab_logic::sat_with(
        &code.defs,
        &formula,
        bounds(depth_bound),
        Order::DepthFirst,
        &mut oracle,
        &mut || deadline.passed(),
        None,
        false,
    );
    if oracle.pending {
        return Completion::Pending;
    }
    let model = match res {
        Ok(out) if out.cut_by.contains(&Cut::Stopped) => {
            return Completion::Bounded(Bound::Timeout)
        }
        Ok(out) => match (out.result, out.cuts) {
            (SatResult::Sat(m), _) => m,
            (SatResult::Unsat, _) => return Completion::Unsat,
            (SatResult::Unknown(_), Cuts { depth: true, caps: false }) if !oracle.undecided => {
                // Only structures deeper than the bounds allow are left.
                return Completion::Bounded(if tr.k_limited { Bound::K } else { Bound::Depth });
            }
            (SatResult::Unknown(why), _) => return Completion::Fallback(why),
        },
        Err(e) => return Completion::Fallback(e.to_string()),
    };
    match tr.apply(code, st, &model) {
        Ok(text) => Completion::Model(text),
        Err(why) => Completion::Fallback(why),
    }
}

/// The free variables of the translated formula and what they stand for.
#[derive(Default)]
struct Translation {
    free: Vec<(String, LSort)>,
    seen: BTreeSet<String>,
    /// State variables (pinned after the model).
    vars: Vec<(String, u32, Sort)>,
    /// Stated cells: variable → object of the state.
    cells: BTreeMap<String, usize>,
    symrefs: Vec<(String, u32)>,
    symlocs: Vec<(String, u32)>,
    /// Some instance may unfold less deep than `depth` allows because of `k`.
    k_limited: bool,
}

impl Translation {
    fn declare(&mut self, name: String, sort: LSort) -> Term {
        if self.seen.insert(name.clone()) {
            self.free.push((name.clone(), sort));
        }
        Term::Var(name)
    }

    fn formula(&mut self, code: &Compiled, st: &State, depth: u32) -> Result<SymHeap, String> {
        let mut heap = SymHeap::default();
        let mut keys: BTreeSet<(u32, Sort)> = BTreeSet::new();
        for d in super::deferred(st) {
            if d.depth > depth {
                // A run ends this path as bounded by `depth`; keep that outcome.
                return Err(format!("{} is past the depth bound", d.name));
            }
            let def = code.defs.preds.get(&d.name).ok_or("predicate without a definition")?;
            let mut args = Vec::new();
            for (a, (_, sort)) in d.args.iter().zip(&def.params) {
                args.push(self.value(code, st, a, sort, &mut heap, &mut keys)?);
            }
            // The engine's instance depth counts like the logic's: 1 for `requires`, and a
            // recursive disjunct may be taken while `depth < max_depth` in both. Kiasan's `k`
            // joins in through the root: a run may make the root a new cell only while its
            // budget `b` is not negative, and each cell below has one less, so `b + 1` levels
            // of recursive unfolding are left — the depth the instance starts the search at.
            let mut start = d.depth;
            if let Some(b) = root_budget(code, st, d) {
                let left = u32::try_from(b.saturating_add(1).max(0)).unwrap_or(u32::MAX);
                if depth.saturating_sub(left) > start {
                    start = depth.saturating_sub(left);
                    self.k_limited = true;
                }
            }
            heap.preds.push(PredApp { name: d.name.clone(), args, depth: start });
        }
        // The path condition, restricted to what the arguments' variables are tied to.
        for c in slice(&st.pc, keys) {
            if is_range(c) {
                // `i64::MIN <= x` / `x <= i64::MAX`: every integer of a model is an i64, so
                // these hold anyway; leaving them out keeps the search's pure checks small.
                continue;
            }
            heap.pure.push(self.pure(c)?);
        }
        Ok(heap)
    }

    /// An argument as a term; `keys` collects the symbolic expressions (for the slice).
    fn value(
        &mut self,
        code: &Compiled,
        st: &State,
        v: &SValue,
        sort: &LSort,
        heap: &mut SymHeap,
        keys: &mut BTreeSet<(u32, Sort)>,
    ) -> Result<Term, String> {
        match st.normalize(v) {
            SValue::Int(s) | SValue::Bool(s) => {
                keys.extend(s.vars());
                match sort {
                    LSort::Bool => match s.node() {
                        Node::Bool(b) => Ok(Term::Bool(*b)),
                        Node::Var(n, Sort::Bool) => Ok(self.var(*n, Sort::Bool)),
                        _ => Err("a boolean argument that is not a variable".into()),
                    },
                    _ => self.term(&s),
                }
            }
            SValue::Null => Ok(Term::Null),
            SValue::SymRef(r) => {
                let class =
                    st.symrefs.get(r as usize).map(|i| i.class.to_string()).unwrap_or_default();
                let name = format!("sr{r}");
                if !self.seen.contains(&name) {
                    self.symrefs.push((name.clone(), r));
                }
                Ok(self.declare(name, LSort::Ref(class)))
            }
            SValue::SymLoc(l) => {
                let class =
                    st.symlocs.get(l as usize).map(|i| i.class.to_string()).unwrap_or_default();
                let name = format!("sl{l}");
                if !self.seen.contains(&name) {
                    self.symlocs.push((name.clone(), l));
                    heap.pure.push(Pure::ne(Term::var(name.clone()), Term::Null));
                }
                Ok(self.declare(name, LSort::Ref(class)))
            }
            SValue::Obj(o) => {
                let name = format!("so{o}");
                if self.seen.contains(&name) {
                    return Ok(Term::Var(name));
                }
                let ob = st.heap.get(o).ok_or("dangling object")?;
                if !ob.is_input() || !st.footprint.contains(&o) {
                    // Unclaimed: an instance could own it; only running knows.
                    return Err(format!(
                        "argument {} is not a claimed cell",
                        PathState::obj_name(o)
                    ));
                }
                let t = self.declare(name.clone(), LSort::Ref(ob.class.clone()));
                // The cell's fields are the state's business: the instances cannot read them
                // (they own other cells), so any value does; constants rather than variables
                // keep the search from closing dangling references that nothing looks at.
                let mut fields = Vec::new();
                for (f, _) in &ob.fields {
                    let fs = code
                        .defs
                        .field_sort(&ob.class, f)
                        .ok_or_else(|| format!("field {}.{f} has no sort", ob.class))?;
                    let value = match fs {
                        LSort::Int => Term::Int(0),
                        LSort::Bool => Term::Bool(false),
                        LSort::Ref(_) => Term::Null,
                    };
                    fields.push((f.clone(), value));
                }
                heap.points_to.push(PointsTo { ptr: t.clone(), class: ob.class.clone(), fields });
                self.cells.insert(name, o);
                Ok(t)
            }
            SValue::Void => Err("a void argument".into()),
        }
    }

    fn var(&mut self, n: u32, sort: Sort) -> Term {
        let name = format!("sv{n}");
        if !self.seen.contains(&name) {
            self.vars.push((name.clone(), n, sort));
        }
        let ls = match sort {
            Sort::Int => LSort::Int,
            Sort::Bool => LSort::Bool,
        };
        self.declare(name, ls)
    }

    fn term(&mut self, s: &Sym) -> Result<Term, String> {
        let b = |t: Term| Box::new(t);
        Ok(match s.node() {
            Node::Int(n) => Term::Int(*n),
            Node::Var(n, Sort::Int) => self.var(*n, Sort::Int),
            Node::Add(x, y) => Term::Add(b(self.term(x)?), b(self.term(y)?)),
            Node::Sub(x, y) => Term::Sub(b(self.term(x)?), b(self.term(y)?)),
            Node::Mul(x, y) => Term::Mul(b(self.term(x)?), b(self.term(y)?)),
            Node::Neg(x) => Term::Neg(b(self.term(x)?)),
            _ => return Err(format!("`{s}` has no term in the logic")),
        })
    }

    fn pure(&mut self, s: &Sym) -> Result<Pure, String> {
        Ok(match s.node() {
            Node::Bool(v) => Pure::Const(*v),
            Node::Var(n, Sort::Bool) => Pure::eq(self.var(*n, Sort::Bool), Term::Bool(true)),
            Node::Lt(x, y) => Pure::cmp(CmpOp::Lt, self.term(x)?, self.term(y)?),
            Node::Le(x, y) => Pure::cmp(CmpOp::Le, self.term(x)?, self.term(y)?),
            Node::Eq(x, y) if is_int(x) => Pure::eq(self.term(x)?, self.term(y)?),
            Node::Eq(x, y) => {
                let (p, q) = (self.pure(x)?, self.pure(y)?);
                let np = Pure::Not(Box::new(p.clone()));
                let nq = Pure::Not(Box::new(q.clone()));
                Pure::Or(vec![Pure::And(vec![p, q]), Pure::And(vec![np, nq])])
            }
            Node::Not(x) => Pure::Not(Box::new(self.pure(x)?)),
            Node::And(x, y) => Pure::And(vec![self.pure(x)?, self.pure(y)?]),
            Node::Or(x, y) => Pure::Or(vec![self.pure(x)?, self.pure(y)?]),
            _ => return Err(format!("`{s}` has no formula in the logic")),
        })
    }

    /// Completes `st` from `model`; `Err` leaves `st` as it was.
    fn apply(
        &self,
        code: &Compiled,
        st: &mut State,
        model: &heaplab_logic::Model,
    ) -> Result<String, String> {
        let mut out = st.clone();
        // Model objects → state objects: the stated cells first, then one new input object
        // for each cell the model adds.
        let mut map: BTreeMap<usize, usize> = BTreeMap::new();
        for (name, &o) in &self.cells {
            if let Some(Value::Ref(m)) = model.store.get(name) {
                map.insert(*m, o);
            }
        }
        // `k` shaped the search through the instances' starting depths (see `formula`), which
        // bounds the recursive levels but not a cell a base case allocates: a root whose budget
        // is spent cannot be a new cell at all, so such a model is left to the run, which cuts
        // that choice as it always did.
        let spent = self.symrefs.iter().map(|(n, r)| (n, st.symrefs[*r as usize].budget));
        let spent =
            spent.chain(self.symlocs.iter().map(|(n, l)| (n, st.symlocs[*l as usize].budget)));
        for (name, b) in spent {
            if let (true, Some(Value::Ref(m))) = (b < 0, model.store.get(name)) {
                if !map.contains_key(m) {
                    return Err("the model needs a new object where k allows none".into());
                }
            }
        }
        // One new input object per cell the model adds. The path is over, so their chain
        // budget is never consulted again.
        let mut added = Vec::new();
        for (m, obj) in model.objects.iter().enumerate() {
            if map.contains_key(&m) {
                continue;
            }
            let fields = code.classes.get(&obj.class).ok_or("a cell of an unknown class")?;
            let idx = out.new_input_object(&obj.class, fields, 0);
            out.claim(idx);
            map.insert(m, idx);
            added.push(m);
        }
        let val = |v: &Value| -> Result<SValue, String> {
            Ok(match v {
                Value::Int(n) => SValue::Int(Sym::int(*n)),
                Value::Bool(b) => SValue::Bool(Sym::bool(*b)),
                Value::Null => SValue::Null,
                Value::Ref(m) => SValue::Obj(*map.get(m).ok_or("a dangling model reference")?),
            })
        };
        let mut shown = Vec::new();
        for &m in &added {
            let obj = &model.objects[m];
            let idx = map[&m];
            let mut parts = Vec::new();
            for (f, v) in &obj.fields {
                let sv = val(v)?;
                parts.push(format!("{f}: {}", out.show(&sv)));
                let o = &mut out.heap[idx];
                if let Some(slot) = o.fields.iter_mut().find(|(g, _)| g == f) {
                    slot.1 = Some(sv.clone());
                }
                o.input.push((f.clone(), sv));
            }
            shown.push(format!(
                "{} -> {} {{ {} }}",
                PathState::obj_name(idx),
                obj.class,
                parts.join(", ")
            ));
        }
        for (name, r) in &self.symrefs {
            let res = match model.store.get(name) {
                Some(Value::Null) | None => RefResolution::Null,
                Some(v @ Value::Ref(_)) => {
                    let SValue::Obj(o) = val(v)? else { unreachable!() };
                    let class = out.heap[o].class.clone();
                    let SValue::SymLoc(l) = out.new_symloc(&class, 0) else { unreachable!() };
                    out.symlocs[l as usize].resolved = Some(o);
                    RefResolution::Loc(l)
                }
                Some(_) => return Err("a reference with a non-reference value".into()),
            };
            out.symrefs[*r as usize].resolved = Some(res);
        }
        for (name, l) in &self.symlocs {
            match model.store.get(name).map(val) {
                Some(Ok(SValue::Obj(o))) => out.symlocs[*l as usize].resolved = Some(o),
                _ => return Err("a symbolic location without an object".into()),
            }
        }
        let mut pins: BTreeMap<(u32, Sort), i64> = BTreeMap::new();
        for (name, n, sort) in &self.vars {
            let v = Sym::var(*n, *sort);
            let (fact, k) = match model.store.get(name) {
                Some(Value::Int(k)) => (Sym::eq(&v, &Sym::int(*k)), *k),
                Some(Value::Bool(true)) => (v, 1),
                Some(Value::Bool(false)) => (Sym::not(&v), 0),
                _ => return Err(format!("the model has no value for {name}")),
            };
            pins.insert((*n, *sort), k);
            out.pc.push(fact);
        }
        // The pinned values must satisfy every conjunct they take part in (the slice is closed
        // under shared variables), or the path condition would lose its model; checked here
        // rather than trusted, since the search decided it over a translated form.
        let env = |id: u32, sort: Sort| pins.get(&(id, sort)).copied();
        let keys: BTreeSet<(u32, Sort)> = pins.keys().copied().collect();
        if !keys.is_empty() && slice(&st.pc, keys).iter().any(|c| c.eval(&env) != Some(1)) {
            return Err("the model's integers do not satisfy the path condition".into());
        }
        debug_assert!(out.heap.iter().all(|o| o.origin != Origin::New || o.input.is_empty()));
        *st = out;
        Ok(if shown.is_empty() { "emp".into() } else { shown.join(" * ") })
    }
}

/// The chain budget of the instance's root (its first reference argument) when that is still an
/// unknown reference or location; `None` for `null` and objects (nothing to create).
fn root_budget(code: &Compiled, st: &State, d: &super::Deferred) -> Option<i64> {
    let unit = code.units.get(d.unit)?;
    let (_, root) = unit
        .params
        .iter()
        .zip(&d.args)
        .find(|((_, ty), _)| matches!(ty, crate::symbolic::code::SlotType::Class(_)))?;
    match st.normalize(root) {
        SValue::SymRef(r) => st.symrefs.get(r as usize).map(|i| i.budget),
        SValue::SymLoc(l) => st.symlocs.get(l as usize).map(|i| i.budget),
        _ => None,
    }
}

/// The conjuncts of `pc` tied to `wanted` through shared variables (transitively): the rest of
/// the path condition is satisfiable on its own, whatever values these variables take.
fn slice(pc: &[Sym], mut wanted: BTreeSet<(u32, Sort)>) -> Vec<&Sym> {
    let vars: Vec<Vec<(u32, Sort)>> = pc.iter().map(Sym::vars).collect();
    let mut taken = vec![false; pc.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (i, vs) in vars.iter().enumerate() {
            if !taken[i] && vs.iter().any(|v| wanted.contains(v)) {
                taken[i] = true;
                changed = true;
                wanted.extend(vs.iter().copied());
            }
        }
    }
    pc.iter().zip(taken).filter(|(_, t)| *t).map(|(p, _)| p).collect()
}

/// The range conjunct [`State::fresh_var`] adds for an `int` variable.
fn is_range(c: &Sym) -> bool {
    match c.node() {
        Node::Le(a, b) => matches!(
            (a.node(), b.node()),
            (Node::Int(i64::MIN), Node::Var(..)) | (Node::Var(..), Node::Int(i64::MAX))
        ),
        _ => false,
    }
}

fn is_int(s: &Sym) -> bool {
    matches!(
        s.node(),
        Node::Int(_)
            | Node::Var(_, Sort::Int)
            | Node::Add(..)
            | Node::Sub(..)
            | Node::Mul(..)
            | Node::Div(..)
            | Node::Rem(..)
            | Node::Neg(_)
    )
}
