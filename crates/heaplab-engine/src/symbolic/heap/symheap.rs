//! The fully symbolic heap of paper 003 (digest seed-003 §3, with the fixes [FIX-1b], [FIX-2],
//! [FIX-3]): a reference holds a *guarded value set* of (guard, location) pairs, so reading a
//! field never branches; the path forks only where the program compares references, tests for
//! null, or dereferences a reference that may be null.
//!
//! Representation (per path, in [`State::ext`] as [`SymHeapData`]; `st.heap` stays empty):
//! - a reference value is `SValue::SymRef(id)` indexing [`SymHeapData::refs`]; `null` stays
//!   `SValue::Null` (`L(r_null) = {(true, l_null)}`);
//! - a location is an index into [`SymHeapData::locs`]; `None` is `l_null`;
//! - an *input reference* (a root, or a field of an input location read for the first time) is
//!   an `Int` solver variable (`null` = 0); guards are equalities over input references only;
//! - an input location has a creator (the input reference whose "new" entry made it) and that
//!   entry's guard `N`; later input references of its class may alias it under `N ∧ r = c`
//!   (creator-only rule [FIX-1b]); their "new" guard is `r ≠ null ∧ r ≠ c` for every earlier
//!   input reference `c` of the class.
//! - integer and boolean fields hold symbolic values; a read through several locations is a
//!   fresh variable `x` defined by `g_i → x = v_i` for each guard (an ite over the guards).
//!
//! The k bound is lazy initialization's, world by world. Lazy gives an object its budget when a
//! path first *reads* a slot holding it (the owner's budget − 1; roots k) and forbids a fresh
//! object below 0. Here the summary machine creates input references in another order (every
//! location a receiver may denote, so also slots this world never reads), so a budget cannot
//! belong to a location: each input location keeps its *discovery* list, the (condition, budget)
//! pairs under which a read of the path met it first ([`LocInfo::disc`]). A read of slot `(p, f)`
//! under receiver guard `g` meets location `l` (entry guard `e`) first where `g ∧ e ∧ ¬Disc(l)`;
//! where `p`'s budget is 0 that world is cut (its negation joins the path condition), elsewhere
//! `l` is discovered with `p`'s budget − 1.
//!
//! Arrays are locations of class `T[]` whose array part ([`SymHeapData::arrays`]) lives in
//! `heap/symheap_arrays.rs`: Kiasan's accumulator with index equality as guards.
//!
//! Owns the representation, the heap operations and concretization (§5 of the digest: one world
//! of the path condition, the unique true entry of each input reference, objects numbered in BFS
//! order from the roots). Never touches the worklist or the lazy family's objects.

use super::lazy::element_budget;
use super::symheap_arrays::{self, SymArray};
use super::{ConcreteInput, HeapModel, RootOption};
use crate::interp::{Heap, ObjId, Value};
use crate::symbolic::code::{Compiled, SlotType};
use crate::symbolic::config::Bound;
use crate::symbolic::exec::stack::{internal, next, peek, pop, push_next, with_fact};
use crate::symbolic::exec::{Cx, Succ, Then};
use crate::symbolic::explorer::{Event, PathOutcome};
use crate::symbolic::solve::Model;
use crate::symbolic::state::{SValue, State, VarOrigin};
use crate::symbolic::term::{Sort, Sym};
use heaplab_syntax::ast::NodeId;
use heaplab_syntax::builtin::KEY;
use heaplab_syntax::Span;
use std::borrow::Cow;
use std::collections::{BTreeMap, VecDeque};

/// A location index; `None` is `l_null`.
pub type Loc = Option<usize>;

/// A guarded value set: `(guard, location)` pairs, exclusive and exhaustive in every world.
pub type GuardedSet = Vec<(Sym, Loc)>;

/// One reference: its guarded set, and its solver variable if it is an input reference.
#[derive(Clone, Debug)]
pub struct RefInfo {
    pub class: String,
    pub set: GuardedSet,
    /// The `Int` variable of an input reference.
    pub var: Option<u32>,
}

/// One location (a box in the paper's drawings).
#[derive(Clone, Debug)]
pub struct LocInfo {
    pub class: String,
    /// An input location (pre-existing object) rather than one allocated by `new`.
    pub input: bool,
    /// Where a read of the path met this location first, with the budget it got there
    /// (conditions exclusive; lazy initialization's budget, world by world). Empty: not met yet.
    pub disc: Vec<(Sym, i64)>,
    /// The path met this location in every world where it exists (`Disc(l) ⇔ N`): no later
    /// read can meet it first, so reads skip it.
    pub met_everywhere: bool,
    /// The input reference whose "new" entry is this location, and that entry's guard `N`.
    pub creator: Option<(u32, Sym)>,
    /// Current field values; `None` = an input field not summarized yet (`⊥`).
    pub fields: Vec<(String, Option<SValue>)>,
    /// The input-slot table: the value each field had in the input (never changed by writes).
    pub input_slots: Vec<(String, SValue)>,
    /// Where the path has read or written each field so far (the loop bound: lazy counts an
    /// iteration as idle when it read no slot for the first time).
    pub touched: Vec<(String, Sym)>,
    /// Where the path has read each field's *input* value (read before any write in that
    /// world): the part of the input heap the path observed, as lazy initialization
    /// materializes it. Slots a world never observed are "don't care" in its test.
    pub observed: Vec<(String, Sym)>,
}

/// The loop bound of one loop in one frame, world by world: how many idle iterations each world
/// has had (exclusive conditions), and where an input slot was read for the first time since
/// the last back edge.
#[derive(Clone, Debug)]
pub struct LoopTrack {
    depth: usize,
    head: usize,
    idle: Vec<(Sym, u32)>,
    since: Sym,
}

/// The per-path data of the symbolic heap.
#[derive(Clone, Debug, Default)]
pub struct SymHeapData {
    pub refs: Vec<RefInfo>,
    pub locs: Vec<LocInfo>,
    /// Input references in creation order (indices into `refs`).
    pub inputs: Vec<u32>,
    /// The answer of a comparison or null test the state was forked on; the re-executed
    /// instruction consumes it.
    decided: Option<bool>,
    /// Entries claimed by points-to atoms of the formula being evaluated (`requires`).
    footprint: GuardedSet,
    /// The loops being counted ([`HeapModel::counts_loops`]).
    loops: Vec<LoopTrack>,
    /// The array part of array locations (class `T[]`), by location (`heap/symheap_arrays.rs`).
    pub arrays: BTreeMap<usize, SymArray>,
}

impl SymHeapData {
    /// The guarded set of a reference value.
    pub fn set_of(&self, v: &SValue) -> GuardedSet {
        match v {
            SValue::SymRef(r) => {
                self.refs.get(*r as usize).map(|i| i.set.clone()).unwrap_or_default()
            }
            _ => vec![(Sym::bool(true), None)],
        }
    }

    pub(super) fn new_ref(&mut self, class: &str, set: GuardedSet, var: Option<u32>) -> u32 {
        self.refs.push(RefInfo { class: class.to_string(), set, var });
        self.refs.len() as u32 - 1
    }

    fn field(&self, l: usize, f: &str) -> Option<Option<SValue>> {
        self.locs.get(l)?.fields.iter().find(|(n, _)| n == f).map(|(_, v)| v.clone())
    }

    fn set_field(&mut self, l: usize, f: &str, v: SValue) {
        if let Some(slot) =
            self.locs.get_mut(l).and_then(|o| o.fields.iter_mut().find(|(n, _)| n == f))
        {
            slot.1 = Some(v);
        }
    }
}

pub(super) fn data(st: &State) -> SymHeapData {
    st.ext.get::<SymHeapData>().cloned().unwrap_or_default()
}

/// The state's data, borrowed (empty when the state has none yet): the heap operations read it
/// many times per step, and a copy of every location per read was a tenth of symheap's time.
pub(super) fn dref(st: &State) -> Cow<'_, SymHeapData> {
    match st.ext.get::<SymHeapData>() {
        Some(d) => Cow::Borrowed(d),
        None => Cow::Owned(SymHeapData::default()),
    }
}

pub(super) fn data_mut(st: &mut State) -> &mut SymHeapData {
    st.ext.get_mut::<SymHeapData>()
}

/// The fully symbolic heap (see the module docs).
pub struct SymHeap;

/// A read (or a root) obtaining a value that denotes input location `loc` where `cond` holds;
/// met there first, `loc` gets the budget of the matching `(condition, budget)` pair.
pub(super) struct Meeting {
    pub(super) cond: Sym,
    pub(super) loc: usize,
    pub(super) budgets: Vec<(Sym, i64)>,
    pub(super) everywhere: bool,
}

/// Whether the new location of an input reference being created may exist, and when the path
/// meets it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Meet {
    /// Met at once with this budget (a root or an existential): no new location below 0.
    Now(i64),
    /// A slot: met (or cut) when a read of the path obtains it, see [`SymHeap::meet`].
    Later,
    /// A slot read now in every world from a location whose budget is 0: no new location.
    Never,
}

/// The disjunction of the guards of a set's entries at `l_null`.
fn null_guard(set: &GuardedSet) -> Sym {
    set.iter().filter(|(_, l)| l.is_none()).fold(Sym::bool(false), |acc, (g, _)| Sym::or(&acc, g))
}

/// Merges entries of the same location (OR of their guards), first occurrence order ([FIX-3]).
pub(super) fn merge(set: GuardedSet) -> GuardedSet {
    let mut out: GuardedSet = Vec::new();
    for (g, l) in set {
        match out.iter_mut().find(|(_, m)| *m == l) {
            Some(e) => e.0 = Sym::or(&e.0, &g),
            None => out.push((g, l)),
        }
    }
    // One entry left: its guard holds in every world of the path.
    if out.len() == 1 {
        out[0].0 = Sym::bool(true);
    }
    out
}

/// Guards larger than this (as printed, a tree) get a name.
const NAMED_GUARD: usize = 24;

/// Forks `st` on `fact` where both directions are feasible: the child where `fact` holds ends at
/// once through `end` (a null dereference, a loop bound), the other is returned to go on. One
/// branch event names both.
pub(super) fn fork_ending(
    cx: &mut Cx,
    st: &State,
    fact: &Sym,
    shown: String,
    end: impl FnOnce(&mut Cx, State) -> Succ,
    span: Span,
) -> Result<State, Box<Succ>> {
    let kids = vec![
        (with_fact(st.clone(), fact, false), format!("!({shown})")),
        (with_fact(st.clone(), fact, true), shown.clone()),
    ];
    let mut kids = cx.children(st, kids);
    cx.sink.event(Event::Branch {
        state: st.id,
        site: None,
        condition: shown,
        children: kids.iter().zip([false, true]).map(|(k, d)| (d, k.id)).collect(),
    });
    if let Some(ended) = kids.pop() {
        if let Succ::End(s, o) = end(cx, ended) {
            cx.end_path(s, o);
        }
    }
    kids.pop().ok_or_else(|| Box::new(internal(st.clone(), "lost a child", Some(span))))
}

/// The size of `s` as a tree, counted up to `cap`.
fn tree_size(s: &Sym, cap: usize) -> usize {
    let mut n = 0;
    let mut stack = vec![s];
    while let Some(t) = stack.pop() {
        n += 1;
        if n > cap {
            break;
        }
        stack.extend(t.node().children());
    }
    n
}

/// Hash-consing for the solver: a guard is a DAG, but SMT-LIB text prints it as a tree, which
/// grows exponentially along a path of reads and writes. A large guard becomes a fresh boolean
/// `b` with `b = g` in the path condition (a definition: it removes no world).
pub(super) fn named(st: &mut State, g: Sym) -> Sym {
    if g.as_bool().is_some() || tree_size(&g, NAMED_GUARD) <= NAMED_GUARD {
        return g;
    }
    let id = st.vars.len() as u32;
    st.vars.push((Sort::Bool, VarOrigin::Existential("guard".into())));
    let b = Sym::var(id, Sort::Bool);
    st.pc.push(Sym::eq(&b, &g));
    b
}

/// [`named`] for every guard of a set.
pub(super) fn named_set(st: &mut State, set: GuardedSet) -> GuardedSet {
    set.into_iter().map(|(g, l)| (named(st, g), l)).collect()
}

/// `cx.feasible`, answering "yes" without asking once the run's time bound has passed: one step
/// over large guarded value sets asks many questions, and the operation that asked them then
/// ends the path as bounded by time ([`timed_out`]).
pub(super) fn feasible(cx: &mut Cx, st: &State, g: &Sym) -> bool {
    cx.deadline.passed() || cx.feasible(st, g)
}

/// The state's path, ended by the run's time bound in the middle of a heap operation.
pub(super) fn timed_out(st: State, span: Span) -> Succ {
    Succ::End(st, PathOutcome::Bounded { bound: Bound::Timeout, span: Some(span) })
}

/// A new `Int` variable for an input reference (no range conjuncts: only equality matters).
fn ref_var(st: &mut State, origin: VarOrigin) -> Sym {
    let id = st.vars.len() as u32;
    st.vars.push((Sort::Int, origin));
    Sym::var(id, Sort::Int)
}

/// Notes, in every loop being counted, that the worlds where `fresh` holds met an input slot
/// (or, for arrays, a new cell) for the first time since the last back edge.
pub(super) fn note_first_reads(st: &mut State, fresh: Sym) {
    if fresh.as_bool() == Some(false) || dref(st).loops.is_empty() {
        return;
    }
    let fresh = named(st, fresh);
    let n = dref(st).loops.len();
    for i in 0..n {
        let since = Sym::or(&dref(st).loops[i].since, &fresh);
        let since = named(st, since);
        data_mut(st).loops[i].since = since;
    }
}

impl SymHeap {
    /// Creates one input reference of `class`: entries null, a fresh input location (unless
    /// `meet` rules it out), and every earlier input location of the class under its creator's
    /// guard ([FIX-1b]). Feasible entries only.
    pub(super) fn input_ref(
        &self,
        cx: &mut Cx,
        st: &mut State,
        class: &str,
        meet: Meet,
        origin: VarOrigin,
    ) -> u32 {
        let x = ref_var(st, origin);
        let var = match x.node() {
            crate::symbolic::term::Node::Var(id, _) => *id,
            _ => 0,
        };
        let null = Sym::int(0);
        let mut set: GuardedSet = vec![(Sym::eq(&x, &null), None)];
        let mut newg = Sym::not(&Sym::eq(&x, &null));
        let r = {
            let d = dref(st);
            for &c in &d.inputs {
                let Some(info) = d.refs.get(c as usize) else { continue };
                if info.class == class {
                    if let Some(cv) = info.var {
                        newg = Sym::and(&newg, &Sym::not(&Sym::eq(&x, &Sym::var(cv, Sort::Int))));
                    }
                }
            }
            for (l, loc) in d.locs.iter().enumerate() {
                if !loc.input || loc.class != class {
                    continue;
                }
                let Some((c, n)) = &loc.creator else { continue };
                let Some(cv) = d.refs.get(*c as usize).and_then(|i| i.var) else { continue };
                // Prune aliases of locations that exist in no world of the path.
                if !feasible(cx, st, n) {
                    continue;
                }
                set.push((Sym::and(n, &Sym::eq(&x, &Sym::var(cv, Sort::Int))), Some(l)));
            }
            d.refs.len() as u32
        };
        let new_loc = match meet {
            Meet::Now(b) if b < 0 => None,
            Meet::Never => None,
            Meet::Now(b) => Some(vec![(newg.clone(), b)]),
            Meet::Later => Some(Vec::new()),
        };
        match new_loc {
            Some(disc) => {
                let fields = cx.code.classes.get(class).cloned().unwrap_or_default();
                let d = data_mut(st);
                d.locs.push(LocInfo {
                    class: class.to_string(),
                    input: true,
                    met_everywhere: !disc.is_empty(),
                    disc,
                    creator: Some((r, newg.clone())),
                    fields: fields.iter().map(|(f, _)| (f.clone(), None)).collect(),
                    input_slots: Vec::new(),
                    touched: Vec::new(),
                    observed: Vec::new(),
                });
                set.push((newg, Some(d.locs.len() - 1)));
            }
            None => {
                // The k bound leaves out the new location: the worlds where this reference
                // would denote one are cut, so that the remaining entries stay exhaustive.
                st.pc.push(Sym::not(&newg));
                st.k_cut = true;
                cx.sink.stats().k_cut = true;
            }
        }
        let d = data_mut(st);
        d.new_ref(class, set, Some(var));
        d.inputs.push(r);
        st.materializations += 1;
        r
    }

    /// Records where the path meets input locations: each `(c, l, budgets)` says that where `c`
    /// holds, the value just obtained denotes `l`, which, met here for the first time, gets the
    /// budget of the matching `(condition, budget)` pair. Where that budget is negative the
    /// world is cut (lazy initialization offers no fresh object there); elsewhere `l` joins
    /// its discovery list. All conditions are taken against the lists before this step. A
    /// meeting marked `everywhere` holds in every world where `l` exists (its creator's new
    /// entry, read in every world).
    pub(super) fn meet(&self, cx: &mut Cx, st: &mut State, meetings: Vec<Meeting>) {
        let mut found: Vec<(usize, Sym, i64)> = Vec::new();
        let mut everywhere = Vec::new();
        for Meeting { cond: c, loc: l, budgets, everywhere: all } in meetings {
            let seen = {
                let d = dref(st);
                let Some(loc) = d.locs.get(l) else { continue };
                if !loc.input || loc.met_everywhere || c.as_bool() == Some(false) {
                    continue;
                }
                loc.disc.iter().fold(Sym::bool(false), |acc, (g, _)| Sym::or(&acc, g))
            };
            if all {
                everywhere.push(l);
            }
            if seen.as_bool() == Some(true) {
                continue;
            }
            let seen = named(st, seen);
            let newly = named(st, Sym::and(&c, &Sym::not(&seen)));
            if newly.as_bool() == Some(false) {
                continue;
            }
            let single = budgets.len() == 1;
            let mut cut = Sym::bool(false);
            for (cb, b) in budgets {
                let cond = if single { newly.clone() } else { Sym::and(&newly, &cb) };
                if b < 0 {
                    cut = Sym::or(&cut, &cond);
                } else {
                    found.push((l, cond, b));
                }
            }
            if cut.as_bool() != Some(false) {
                let cut = named(st, cut);
                st.pc.push(Sym::not(&cut));
                st.k_cut = true;
                cx.sink.stats().k_cut = true;
            }
        }
        for l in everywhere {
            if let Some(loc) = data_mut(st).locs.get_mut(l) {
                loc.met_everywhere = true;
            }
        }
        for (l, cond, b) in found {
            let cond = named(st, cond);
            let Some(loc) = data_mut(st).locs.get_mut(l) else { continue };
            match loc.disc.iter_mut().find(|(_, b2)| *b2 == b) {
                Some(e) => e.0 = Sym::or(&e.0, &cond),
                None => loc.disc.push((cond, b)),
            }
        }
        // Keep the lists' conditions small for the next step's `Disc(l)`.
        let n = dref(st).locs.len();
        for l in 0..n {
            let small = |g: &Sym| tree_size(g, NAMED_GUARD) <= NAMED_GUARD;
            if dref(st).locs[l].disc.iter().all(|(g, _)| small(g)) {
                continue;
            }
            let disc = dref(st).locs[l].disc.clone();
            let disc: Vec<(Sym, i64)> = disc.into_iter().map(|(g, b)| (named(st, g), b)).collect();
            data_mut(st).locs[l].disc = disc;
        }
    }

    /// Every location an input reference may denote, met now with budget `b` (a root or an
    /// existential of a formula; lazy initialization forks on it at once).
    fn meet_ref(&self, cx: &mut Cx, st: &mut State, r: u32, b: i64) {
        let set = dref(st).set_of(&SValue::SymRef(r));
        let meetings = set
            .into_iter()
            .filter_map(|(g, l)| {
                Some(Meeting {
                    cond: g,
                    loc: l?,
                    budgets: vec![(Sym::bool(true), b)],
                    everywhere: false,
                })
            })
            .collect();
        self.meet(cx, st, meetings);
    }

    /// Notes that the operation reads (or writes) field `f` of the receiver's locations `locs`;
    /// a read of an input slot the world had not read or written before is a materialization
    /// for the loop bound, noted in every loop being counted.
    fn touch(&self, st: &mut State, locs: &GuardedSet, f: &str, read: bool) {
        let mut fresh = Sym::bool(false);
        for (g, l) in locs {
            let Some(l) = *l else { continue };
            let (before, seen) = {
                let d = dref(st);
                let Some(loc) = d.locs.get(l).filter(|o| o.input) else { continue };
                let before = loc.touched.iter().find(|(n, _)| n == f).map(|(_, t)| t.clone());
                let seen = loc.observed.iter().find(|(n, _)| n == f).map(|(_, t)| t.clone());
                (before.unwrap_or(Sym::bool(false)), seen)
            };
            if read {
                let first = Sym::and(g, &Sym::not(&before));
                fresh = Sym::or(&fresh, &first);
                // Read first here (neither read nor written before): the input value is seen.
                let seen = named(st, Sym::or(&seen.unwrap_or(Sym::bool(false)), &first));
                let Some(loc) = data_mut(st).locs.get_mut(l) else { continue };
                match loc.observed.iter_mut().find(|(n, _)| n == f) {
                    Some(e) => e.1 = seen,
                    None => loc.observed.push((f.to_string(), seen)),
                }
            }
            let after = named(st, Sym::or(&before, g));
            let Some(loc) = data_mut(st).locs.get_mut(l) else { continue };
            match loc.touched.iter_mut().find(|(n, _)| n == f) {
                Some(e) => e.1 = after,
                None => loc.touched.push((f.to_string(), after)),
            }
        }
        note_first_reads(st, fresh);
    }

    /// Summarizes field `f` of location `l` if it is still `⊥` (the summary machine, one step);
    /// `meet` says whether a new location may be met (see [`Meet`]).
    fn summarize(&self, cx: &mut Cx, st: &mut State, l: usize, f: &str, meet: Meet) {
        let ty = {
            let d = dref(st);
            let Some(loc) = d.locs.get(l) else { return };
            if !loc.input || d.field(l, f) != Some(None) {
                return;
            }
            cx.code
                .classes
                .get(&loc.class)
                .and_then(|fs| fs.iter().find(|(n, _)| n == f))
                .map(|(_, t)| t.clone())
        };
        let origin = VarOrigin::Field { obj: l, field: f.to_string() };
        let v = match ty {
            Some(SlotType::Class(c)) => SValue::SymRef(self.input_ref(cx, st, &c, meet, origin)),
            Some(t) => match st.fresh_primitive(&t, origin) {
                Some(v) => v,
                None => return,
            },
            None => return,
        };
        let d = data_mut(st);
        d.set_field(l, f, v.clone());
        if let Some(o) = d.locs.get_mut(l) {
            o.input_slots.push((f.to_string(), v));
        }
    }

    /// Splits off the worlds where `recv` is null (a null dereference); `Ok` with the state
    /// where it is not, and the receiver's feasible non-null entries merged by location.
    pub(super) fn deref(
        &self,
        cx: &mut Cx,
        st: State,
        recv: &SValue,
        node: NodeId,
        span: Span,
        what: &str,
    ) -> Result<(State, GuardedSet), Box<Succ>> {
        if matches!(recv, SValue::Null) {
            return Err(Box::new(cx.null_deref(st, node, span, what)));
        }
        let mut st = st;
        let set = dref(&st).set_of(recv);
        let nullg = named(&mut st, null_guard(&set));
        let st = match cx.feasible_directions(&st, &nullg) {
            (false, _) => st,
            (true, false) => return Err(Box::new(cx.null_deref(st, node, span, what))),
            (true, true) => {
                let shown = format!("{} == null", shown(&st, recv));
                let end = |cx: &mut Cx, bad| cx.null_deref(bad, node, span, what);
                fork_ending(cx, &st, &nullg, shown, end, span)?
            }
        };
        let mut out = Vec::new();
        for (g, l) in merge(set) {
            if l.is_none() || !feasible(cx, &st, &g) {
                continue;
            }
            out.push((g, l));
        }
        if out.len() == 1 {
            out[0].0 = Sym::bool(true);
        }
        Ok((st, out))
    }

    /// A guarded choice between values: the value itself when there is one, else a fresh
    /// variable defined by `g_i → x = v_i` (an ite over the guards).
    pub(super) fn select(
        &self,
        st: &mut State,
        choices: Vec<(Sym, SValue)>,
        ty: &SlotType,
    ) -> SValue {
        let first = choices.first().map(|(_, v)| v.clone()).unwrap_or(SValue::Void);
        if choices.iter().all(|(_, v)| *v == first) {
            return first;
        }
        let (sort, wrap): (Sort, fn(Sym) -> SValue) = match ty {
            SlotType::Bool => (Sort::Bool, SValue::Bool),
            _ => (Sort::Int, SValue::Int),
        };
        let id = st.vars.len() as u32;
        st.vars.push((sort, VarOrigin::Existential("ite".into())));
        let x = Sym::var(id, sort);
        for (g, v) in choices {
            let (SValue::Int(v) | SValue::Bool(v)) = v else { continue };
            let def = Sym::or(&Sym::not(&g), &Sym::eq(&x, &v));
            if def.as_bool() != Some(true) {
                st.pc.push(def);
            }
        }
        wrap(x)
    }

    /// Forks on a reference condition `c` (EQ of a comparison, or a null guard): one child
    /// per satisfiable direction, each remembering its answer for the re-executed instruction.
    fn decide(&self, cx: &mut Cx, st: State, c: Sym, shown: String) -> Then<(State, bool)> {
        match cx.feasible_directions(&st, &c) {
            (true, false) => Then::Go((st, true)),
            (false, true) => Then::Go((st, false)),
            (false, false) => Then::Done(Succ::End(
                st,
                PathOutcome::Discarded { span: Span::default(), precondition: false },
            )),
            (true, true) => {
                let mut kids = Vec::new();
                for dir in [true, false] {
                    let mut s = with_fact(st.clone(), &c, dir);
                    data_mut(&mut s).decided = Some(dir);
                    let label = if dir { shown.clone() } else { format!("!({shown})") };
                    kids.push((s, label));
                }
                let kids = cx.children(&st, kids);
                cx.sink.event(Event::Branch {
                    state: st.id,
                    site: None,
                    condition: shown,
                    children: [true, false].into_iter().zip(kids.iter().map(|k| k.id)).collect(),
                });
                Then::Done(Succ::Fork(kids))
            }
        }
    }
}

/// `EQ` of two guarded sets: some location (null included) is the value of both.
fn eq_condition(a: &GuardedSet, b: &GuardedSet) -> Sym {
    let mut eq = Sym::bool(false);
    for (ga, la) in a {
        for (gb, lb) in b {
            if la == lb {
                eq = Sym::or(&eq, &Sym::and(ga, gb));
            }
        }
    }
    eq
}

impl HeapModel for SymHeap {
    fn input_receiver(&self, cx: &mut Cx, st: &mut State, class: &str, budget: i64) -> SValue {
        let x = ref_var(st, VarOrigin::Param("this".into()));
        let var = match x.node() {
            crate::symbolic::term::Node::Var(id, _) => *id,
            _ => 0,
        };
        let nonnull = Sym::not(&Sym::eq(&x, &Sym::int(0)));
        st.pc.push(nonnull.clone());
        let fields = cx.code.classes.get(class).cloned().unwrap_or_default();
        let d = data_mut(st);
        let r = d.refs.len() as u32;
        d.locs.push(LocInfo {
            class: class.to_string(),
            input: true,
            disc: vec![(Sym::bool(true), budget)],
            met_everywhere: true,
            creator: Some((r, nonnull)),
            fields: fields.iter().map(|(f, _)| (f.clone(), None)).collect(),
            input_slots: Vec::new(),
            touched: Vec::new(),
            observed: Vec::new(),
        });
        let l = d.locs.len() - 1;
        d.new_ref(class, vec![(Sym::bool(true), Some(l))], Some(var));
        d.inputs.push(r);
        st.materializations += 1;
        SValue::SymRef(r)
    }

    fn input_root(
        &self,
        cx: &mut Cx,
        st: &State,
        class: &str,
        budget: i64,
    ) -> (Vec<RootOption>, bool) {
        let mut s = st.clone();
        let name = format!("param #{}", s.roots.len());
        // At entry every earlier location is a root's, met already: only the new one is met.
        let r = self.input_ref(cx, &mut s, class, Meet::Now(budget), VarOrigin::Param(name));
        let k_cut = budget < 0;
        (vec![(s, SValue::SymRef(r), format!("ref{r}"))], k_cut)
    }

    fn unknown_reference(
        &self,
        cx: &mut Cx,
        mut st: State,
        class: &str,
        budget: i64,
        target: String,
        apply: &dyn Fn(&mut State, SValue),
    ) -> Succ {
        // Mid-path, an alias may name a location no read has met yet: lazy would make it here.
        let r = self.input_ref(cx, &mut st, class, Meet::Later, VarOrigin::Existential(target));
        self.meet_ref(cx, &mut st, r, budget);
        apply(&mut st, SValue::SymRef(r));
        Succ::Continue(st)
    }

    fn read_field(
        &self,
        cx: &mut Cx,
        st: State,
        field: &str,
        ty: &SlotType,
        node: NodeId,
        span: Span,
    ) -> Succ {
        if cx.deadline.passed() {
            return timed_out(st, span);
        }
        let Some(recv) = peek(&st, 0) else { return internal(st, "empty stack", None) };
        let what = format!("reading field `{field}` of null");
        let (mut st, locs) = match self.deref(cx, st, &recv, node, span, &what) {
            Ok(found) => found,
            Err(succ) => return *succ,
        };
        self.touch(&mut st, &locs, field, true);
        // The summary machine: field `field` of every location the receiver may denote. A
        // receiver that is one location, met with budget 0 only, reads its slot in every world:
        // no new location there (lazy offers none); otherwise the read below decides.
        // A `Comparable` element does not spend the budget, as in lazy (`element_budget`).
        let class = match ty {
            SlotType::Class(c) => Some(c.as_str()),
            _ => None,
        };
        let spends = |b: i64| class.map_or(b, |c| element_budget(c, b));
        let meet = {
            let d = dref(&st);
            let at_zero = |l: usize| {
                d.locs.get(l).is_some_and(|o| o.disc.iter().all(|(_, b)| spends(*b) <= 0))
            };
            match locs.as_slice() {
                [(_, Some(l))] if at_zero(*l) => Meet::Never,
                _ => Meet::Later,
            }
        };
        for (_, l) in &locs {
            if let Some(l) = l {
                self.summarize(cx, &mut st, *l, field, meet);
            }
        }
        let mut values: Vec<(Sym, SValue)> = Vec::new();
        for (g, l) in &locs {
            let Some(l) = l else { continue };
            match dref(&st).field(*l, field) {
                Some(Some(v)) => values.push((g.clone(), v)),
                _ => return internal(st, format!("no field `{field}`"), Some(span)),
            }
        }
        pop(&mut st);
        if let SlotType::Class(_) = ty {
            // Where the path meets the locations this read may obtain (the k bound).
            let d = dref(&st);
            let mut meetings = Vec::new();
            for ((g, p), (_, v)) in locs.iter().zip(&values) {
                let Some(owner) = p.and_then(|p| d.locs.get(p)).filter(|o| o.input) else {
                    continue;
                };
                let budgets: Vec<(Sym, i64)> =
                    owner.disc.iter().map(|(c, b)| (c.clone(), spends(*b) - 1)).collect();
                for (e, l2) in d.set_of(v) {
                    let Some(l2) = l2 else { continue };
                    // The new entry of the input reference read here, in every world.
                    let everywhere = g.as_bool() == Some(true)
                        && d.locs
                            .get(l2)
                            .and_then(|o| o.creator.as_ref())
                            .is_some_and(|(c, n)| *v == SValue::SymRef(*c) && *n == e);
                    meetings.push(Meeting {
                        cond: Sym::and(g, &e),
                        loc: l2,
                        budgets: budgets.clone(),
                        everywhere,
                    });
                }
            }
            drop(d);
            self.meet(cx, &mut st, meetings);
        }
        let v = match ty {
            SlotType::Class(c) => {
                // VS: the product of the receiver's guards and each value's, pruned by the path.
                let mut set = Vec::new();
                for (g, v) in &values {
                    for (g2, l2) in dref(&st).set_of(v) {
                        let g3 = Sym::and(g, &g2);
                        if feasible(cx, &st, &g3) {
                            set.push((g3, l2));
                        }
                    }
                }
                let set = named_set(&mut st, merge(set));
                if set.len() == 1 && set[0].1.is_none() {
                    SValue::Null
                } else {
                    SValue::SymRef(data_mut(&mut st).new_ref(c, set, None))
                }
            }
            other => self.select(&mut st, values, other),
        };
        if cx.deadline.passed() {
            return timed_out(st, span);
        }
        push_next(st, v)
    }

    fn write_field(&self, cx: &mut Cx, st: State, field: &str, node: NodeId, span: Span) -> Succ {
        if cx.deadline.passed() {
            return timed_out(st, span);
        }
        let Some(recv) = peek(&st, 1) else { return internal(st, "empty stack", None) };
        let what = format!("writing field `{field}` of null");
        let (mut st, locs) = match self.deref(cx, st, &recv, node, span, &what) {
            Ok(found) => found,
            Err(succ) => return *succ,
        };
        let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
        pop(&mut st);
        self.touch(&mut st, &locs, field, false);
        let strong = locs.len() == 1;
        for (g, l) in &locs {
            let Some(l) = *l else { continue };
            if strong {
                // A strong update: the input value of a field never read stays "don't care".
                data_mut(&mut st).set_field(l, field, v.clone());
                continue;
            }
            // A guarded (weak) update: summarize first to get the old value ([FIX-2]); a
            // write meets nothing.
            self.summarize(cx, &mut st, l, field, Meet::Later);
            let old = dref(&st).field(l, field);
            let Some(Some(old)) = old else {
                return internal(st, format!("no field `{field}`"), Some(span));
            };
            let new = match &v {
                SValue::Int(_) | SValue::Bool(_) => {
                    let ty = match v {
                        SValue::Bool(_) => SlotType::Bool,
                        _ => SlotType::Int,
                    };
                    self.select(&mut st, vec![(g.clone(), v.clone()), (Sym::not(g), old)], &ty)
                }
                _ => {
                    let mut set = Vec::new();
                    for (g2, l2) in dref(&st).set_of(&v) {
                        let g3 = Sym::and(&g2, g);
                        if feasible(cx, &st, &g3) {
                            set.push((g3, l2));
                        }
                    }
                    for (g2, l2) in dref(&st).set_of(&old) {
                        let g3 = Sym::and(&g2, &Sym::not(g));
                        if feasible(cx, &st, &g3) {
                            set.push((g3, l2));
                        }
                    }
                    let class = dref(&st).locs.get(l).map(|o| o.class.clone()).unwrap_or_default();
                    let class = cx
                        .code
                        .classes
                        .get(&class)
                        .and_then(|fs| fs.iter().find(|(n, _)| n == field))
                        .map(|(_, t)| match t {
                            SlotType::Class(c) => c.clone(),
                            _ => String::new(),
                        })
                        .unwrap_or_default();
                    let set = named_set(&mut st, merge(set));
                    SValue::SymRef(data_mut(&mut st).new_ref(&class, set, None))
                }
            };
            data_mut(&mut st).set_field(l, field, new);
        }
        if cx.deadline.passed() {
            return timed_out(st, span);
        }
        next(st)
    }

    fn allocate(&self, st: &mut State, class: &str, fields: Vec<(String, SValue)>) -> SValue {
        let d = data_mut(st);
        d.locs.push(LocInfo {
            class: class.to_string(),
            input: false,
            disc: Vec::new(),
            met_everywhere: true,
            creator: None,
            fields: fields.into_iter().map(|(f, v)| (f, Some(v))).collect(),
            input_slots: Vec::new(),
            touched: Vec::new(),
            observed: Vec::new(),
        });
        let l = d.locs.len() - 1;
        SValue::SymRef(d.new_ref(class, vec![(Sym::bool(true), Some(l))], None))
    }

    fn has_arrays(&self) -> bool {
        true
    }

    fn array_access(&self, cx: &mut Cx, st: State, store: bool, node: NodeId, span: Span) -> Succ {
        symheap_arrays::access(self, cx, st, store, node, span)
    }

    fn array_length(&self, cx: &mut Cx, st: State, node: NodeId, span: Span) -> Succ {
        symheap_arrays::length(self, cx, st, node, span)
    }

    fn allocate_array(
        &self,
        st: &mut State,
        class: &str,
        len: Sym,
        cells: Option<Vec<SValue>>,
    ) -> Option<SValue> {
        Some(symheap_arrays::allocate(self, st, class, len, cells))
    }

    fn equal(&self, cx: &mut Cx, mut st: State, a: &SValue, b: &SValue) -> Then<(State, bool)> {
        if let Some(dir) = data_mut(&mut st).decided.take() {
            return Then::Go((st, dir));
        }
        if let Some(x) = self.decided_equal(&st, a, b) {
            return Then::Go((st, x));
        }
        let eq = {
            let d = dref(&st);
            eq_condition(&d.set_of(a), &d.set_of(b))
        };
        let eq = named(&mut st, eq);
        let shown = format!("{} == {}", shown(&st, a), shown(&st, b));
        self.decide(cx, st, eq, shown)
    }

    fn decided_equal(&self, st: &State, a: &SValue, b: &SValue) -> Option<bool> {
        if a == b {
            return Some(true);
        }
        let d = st.ext.get::<SymHeapData>()?;
        eq_condition(&d.set_of(a), &d.set_of(b)).as_bool()
    }

    fn null_test(&self, cx: &mut Cx, mut st: State, v: &SValue) -> Then<(State, bool)> {
        if let Some(dir) = data_mut(&mut st).decided.take() {
            return Then::Go((st, dir));
        }
        let c = null_guard(&dref(&st).set_of(v));
        if let Some(x) = c.as_bool() {
            return Then::Go((st, x));
        }
        let c = named(&mut st, c);
        let shown = format!("{} == null", shown(&st, v));
        self.decide(cx, st, c, shown)
    }

    /// `requires` is unfolded into guards (option (b) of issue 15): a points-to atom assumes
    /// that its reference is not null and denotes no location claimed already by the
    /// separating conjunction; worlds where that fails are discarded, never forked on.
    fn points_to(&self, cx: &mut Cx, mut st: State, _class: &str, span: Span) -> Succ {
        let Some(r) = peek(&st, 0) else { return internal(st, "empty stack", None) };
        // The executor clears the lazy heap's footprint when the precondition is done; the
        // claims here follow it (one placeholder entry per claim).
        if st.footprint.is_empty() {
            data_mut(&mut st).footprint.clear();
        }
        let d = dref(&st);
        let set = d.set_of(&r);
        let mut ok = Sym::not(&null_guard(&set));
        for (g, l) in set.iter().filter(|(_, l)| l.is_some()) {
            for (g2, l2) in &d.footprint {
                if l == l2 {
                    ok = Sym::and(&ok, &Sym::not(&Sym::and(g, g2)));
                }
            }
        }
        let claims = d.footprint.len();
        drop(d);
        let ok = named(&mut st, ok);
        let dm = data_mut(&mut st);
        dm.footprint.extend(set.into_iter().filter(|(_, l)| l.is_some()));
        st.footprint.insert(claims);
        if ok.as_bool() == Some(true) {
            return next(st);
        }
        cx.assume(st, ok, span, true)
    }

    /// The key of an element as an ite over its guarded set: `null`'s key (the comparator's
    /// `nullKey`) under the null guard, each location's `key` input slot under its guard
    /// (summarized on first use, a read of that slot). Nothing forks: the program's test of
    /// `compare`'s result is the only branch, as under lazy's order keys, so two worlds that
    /// differ only inside `compare` stay on one path (one branch trace).
    fn order_key(&self, cx: &mut Cx, st: &mut State, v: &SValue) -> Option<Sym> {
        let set = match v {
            SValue::Null => return Some(st.null_order_key()),
            SValue::SymRef(_) => dref(st).set_of(v),
            _ => return None,
        };
        let objects: GuardedSet = set.iter().filter(|(_, l)| l.is_some()).cloned().collect();
        self.touch(st, &objects, KEY, true);
        let mut choices = Vec::new();
        for (g, l) in set {
            let k = match l {
                None => st.null_order_key(),
                Some(l) => {
                    self.summarize(cx, st, l, KEY, Meet::Later);
                    match dref(st).field(l, KEY) {
                        Some(Some(SValue::Int(k))) => k,
                        _ => return None,
                    }
                }
            };
            choices.push((g, SValue::Int(k)));
        }
        match self.select(st, choices, &SlotType::Int) {
            SValue::Int(k) => Some(k),
            _ => None,
        }
    }

    fn counts_loops(&self) -> bool {
        true
    }

    /// Lazy's loop bound world by world: each world's idle count goes up where the iteration
    /// read no input slot for the first time; worlds past the bound end the path as bounded,
    /// the others go on (a fork where both exist).
    fn loop_back(&self, cx: &mut Cx, mut st: State, head: usize, first: bool, span: Span) -> Succ {
        let depth = st.frames.len();
        let limit = cx.config.bounds.loop_iterations;
        let d = dref(&st);
        let pos = d.loops.iter().position(|t| t.depth == depth && t.head == head);
        let idle = match pos {
            Some(i) if !first => {
                let t = &d.loops[i];
                let mut out: Vec<(Sym, u32)> = Vec::new();
                for (c, n) in &t.idle {
                    for (c2, n2) in
                        [(Sym::and(c, &t.since), *n), (Sym::and(c, &Sym::not(&t.since)), n + 1)]
                    {
                        if c2.as_bool() == Some(false) {
                            continue;
                        }
                        match out.iter_mut().find(|(_, m)| *m == n2) {
                            Some(e) => e.0 = Sym::or(&e.0, &c2),
                            None => out.push((c2, n2)),
                        }
                    }
                }
                out
            }
            // The first back edge counts as idle, as the executor counts it.
            _ => vec![(Sym::bool(true), 1)],
        };
        drop(d);
        let idle: Vec<(Sym, u32)> = idle.into_iter().map(|(c, n)| (named(&mut st, c), n)).collect();
        let cut = idle
            .iter()
            .filter(|(_, n)| *n > limit)
            .fold(Sym::bool(false), |acc, (c, _)| Sym::or(&acc, c));
        let keep: Vec<(Sym, u32)> = idle.iter().filter(|(_, n)| *n <= limit).cloned().collect();
        let track = LoopTrack { depth, head, idle: keep, since: Sym::bool(false) };
        let dm = data_mut(&mut st);
        match pos {
            Some(i) => dm.loops[i] = track,
            None => dm.loops.push(track),
        }
        let bounded =
            |s: State| Succ::End(s, PathOutcome::Bounded { bound: Bound::Loop, span: Some(span) });
        let cut = named(&mut st, cut);
        match cx.feasible_directions(&st, &cut) {
            (false, _) => Succ::Continue(st),
            (true, false) => bounded(st),
            (true, true) => {
                let shown = "loop bound reached".to_string();
                match fork_ending(cx, &st, &cut, shown, |_, s| bounded(s), span) {
                    Ok(k) => Succ::Continue(k),
                    Err(e) => *e,
                }
            }
        }
    }

    fn concretize(
        &self,
        code: &Compiled,
        st: &State,
        model: &Model,
        returned: Option<&SValue>,
    ) -> ConcreteInput {
        concretize(code, st, model, returned)
    }

    fn shape_condition(&self, code: &Compiled, st: &State, model: &Model) -> Option<Sym> {
        Some(world_shape(code, st, model))
    }
}

/// The condition recorded for field `f` in a per-field list (`touched`, `observed`); false
/// when the field is not listed.
fn slot_cond(list: &[(String, Sym)], f: &str) -> Sym {
    list.iter().find(|(n, _)| n == f).map(|(_, c)| c.clone()).unwrap_or(Sym::bool(false))
}

/// Does `c` hold in the world `model`?
fn holds(c: &Sym, model: &Model) -> bool {
    let env = |id: u32, sort: Sort| Some(model.get(id, sort).unwrap_or(0));
    c.eval(&env) == Some(1)
}

/// The true entry of a reference value's set in the world `model`.
fn world_entry(d: &SymHeapData, v: &SValue, model: &Model) -> Option<(Sym, Loc)> {
    match v {
        SValue::SymRef(_) => d.set_of(v).into_iter().find(|(g, _)| holds(g, model)),
        _ => None,
    }
}

/// The input heap shape of the world `model` as a condition over the path's variables: the
/// entry each root denotes, then, in BFS order over the locations reached, for each reference
/// slot of the input whether the path observed it there and, where it did, the entry its input
/// reference denotes. Every world where it holds has the same reachable observed input heap
/// (the same locations, the same slots observed, the same targets), so its negation is the
/// blocking clause of the all-heaps mode (digest seed-003 §5 item 6).
pub fn world_shape(code: &Compiled, st: &State, model: &Model) -> Sym {
    let d = data(st);
    let mut conj = Sym::bool(true);
    let mut seen: BTreeMap<usize, ()> = BTreeMap::new();
    let mut queue = VecDeque::new();
    let mut reach = |e: Option<(Sym, Loc)>, conj: &mut Sym, queue: &mut VecDeque<usize>| {
        let Some((g, l)) = e else { return };
        *conj = Sym::and(conj, &g);
        if let Some(l) = l {
            if seen.insert(l, ()).is_none() {
                queue.push_back(l);
            }
        }
    };
    for v in &st.roots {
        reach(world_entry(&d, v, model), &mut conj, &mut queue);
    }
    while let Some(l) = queue.pop_front() {
        let Some(loc) = d.locs.get(l) else { continue };
        let refs = code.classes.get(&loc.class).cloned().unwrap_or_default();
        for (f, ty) in refs {
            if !matches!(ty, SlotType::Class(_)) {
                continue;
            }
            let Some((_, v)) = loc.input_slots.iter().find(|(n, _)| *n == f) else { continue };
            let obs = slot_cond(&loc.observed, &f);
            if holds(&obs, model) {
                conj = Sym::and(&conj, &obs);
                reach(world_entry(&d, v, model), &mut conj, &mut queue);
            } else {
                conj = Sym::and(&conj, &Sym::not(&obs));
            }
        }
        // An input array's reference cells: read in this world (and to what), or not.
        for (obs, v) in symheap_arrays::reference_cells(&d, l) {
            if holds(&obs, model) {
                conj = Sym::and(&conj, &obs);
                reach(world_entry(&d, &v, model), &mut conj, &mut queue);
            } else {
                conj = Sym::and(&conj, &Sym::not(&obs));
            }
        }
    }
    conj
}

/// A value for a person (tree labels, branch events): an input reference by the input it
/// stands for (`o1.head`), as is a reference holding the same guarded set as one (a copy, such
/// as a parameter passed on); other references by id (`ref4`).
pub(super) fn shown(st: &State, v: &SValue) -> String {
    let SValue::SymRef(r) = v else { return st.show(v) };
    let Some(d) = st.ext.get::<SymHeapData>() else { return st.show(v) };
    let Some(info) = d.refs.get(*r as usize) else { return st.show(v) };
    let var = info.var.or_else(|| {
        let twin = d.inputs.iter().filter_map(|&i| d.refs.get(i as usize));
        twin.filter(|i| i.set == info.set).find_map(|i| i.var)
    });
    match var {
        Some(var) => crate::symbolic::view::Names::of(st).var(var, Sort::Int),
        None => st.show(v),
    }
}

/// The location a reference value denotes in the world `model` (its unique true entry).
pub fn world_loc(d: &SymHeapData, v: &SValue, model: &Model) -> Option<Loc> {
    match v {
        SValue::Null => Some(None),
        SValue::SymRef(_) => {
            let env = |id: u32, sort: Sort| Some(model.get(id, sort).unwrap_or(0));
            let set = d.set_of(v);
            let mut hits = set.iter().filter(|(g, _)| g.eval(&env) == Some(1)).map(|(_, l)| *l);
            let first = hits.next()?;
            Some(first)
        }
        _ => None,
    }
}

/// Counts the true entries of every reference in `model` by location: the well-formedness
/// invariant (digest §8.1 item 2) says each is exactly one. Returns the references that break it.
pub fn ill_formed(st: &State, model: &Model) -> Vec<u32> {
    let Some(d) = st.ext.get::<SymHeapData>() else { return Vec::new() };
    let env = |id: u32, sort: Sort| Some(model.get(id, sort).unwrap_or(0));
    let mut bad = Vec::new();
    for (r, info) in d.refs.iter().enumerate() {
        let mut locs: Vec<Loc> =
            info.set.iter().filter(|(g, _)| g.eval(&env) == Some(1)).map(|(_, l)| *l).collect();
        locs.dedup();
        if locs.len() != 1 {
            bad.push(r as u32);
        }
    }
    bad
}

/// §5 of the digest: one world of the path becomes the input heap, numbered in BFS order from
/// the roots (fields in declaration order); slots never summarized keep their defaults.
pub fn concretize(
    code: &Compiled,
    st: &State,
    model: &Model,
    returned: Option<&SValue>,
) -> ConcreteInput {
    let d = data(st);
    let env = |id: u32, sort: Sort| Some(model.get(id, sort).unwrap_or(0));
    let prim = |v: &SValue| match v {
        SValue::Int(s) => Value::Int(s.eval(&env).unwrap_or(0)),
        SValue::Bool(s) => Value::Bool(s.eval(&env).unwrap_or(0) != 0),
        _ => Value::Void,
    };
    let defaults = |class: &str| -> Vec<(String, Value)> {
        code.classes
            .get(class)
            .map(|fs| {
                fs.iter()
                    .map(|(f, t)| {
                        let v = match t {
                            SlotType::Int => Value::Int(0),
                            SlotType::Bool => Value::Bool(false),
                            _ => Value::NULL,
                        };
                        (f.clone(), v)
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    // BFS over input locations from the roots.
    let mut heap = Heap::new();
    let mut map: BTreeMap<usize, ObjId> = BTreeMap::new();
    let mut queue = VecDeque::new();
    let visit = |l: Loc,
                 heap: &mut Heap,
                 map: &mut BTreeMap<usize, ObjId>,
                 queue: &mut VecDeque<usize>|
     -> Value {
        let Some(l) = l else { return Value::NULL };
        if let Some(id) = map.get(&l) {
            return Value::Ref(Some(*id));
        }
        let class = d.locs.get(l).map(|o| o.class.clone()).unwrap_or_default();
        let id = symheap_arrays::alloc_input(&d, l, model, heap)
            .unwrap_or_else(|| heap.alloc(&class, defaults(&class)));
        map.insert(l, id);
        queue.push_back(l);
        Value::Ref(Some(id))
    };
    let mut roots = Vec::new();
    for v in &st.roots {
        let cv = match v {
            SValue::Int(_) | SValue::Bool(_) => prim(v),
            _ => match world_loc(&d, v, model) {
                Some(l) => visit(l, &mut heap, &mut map, &mut queue),
                None => Value::NULL,
            },
        };
        roots.push(cv);
    }
    while let Some(l) = queue.pop_front() {
        let Some(loc) = d.locs.get(l) else { continue };
        let id = map[&l];
        let order: Vec<String> = loc.fields.iter().map(|(f, _)| f.clone()).collect();
        for f in order {
            let Some((_, v)) = loc.input_slots.iter().find(|(n, _)| *n == f) else { continue };
            let cv = match v {
                SValue::Int(_) | SValue::Bool(_) => prim(v),
                // A slot this world never observed is "don't care": its default.
                _ if !holds(&slot_cond(&loc.observed, &f), model) => continue,
                _ => match world_loc(&d, v, model) {
                    Some(t) => visit(t, &mut heap, &mut map, &mut queue),
                    None => Value::NULL,
                },
            };
            heap.set_field(id, &f, cv);
        }
        // An input array's cells the world read (their input values).
        for (i, v) in symheap_arrays::input_cells(&d, l, model) {
            let cv = match &v {
                SValue::Int(_) | SValue::Bool(_) => prim(&v),
                _ => match world_loc(&d, &v, model) {
                    Some(t) => visit(t, &mut heap, &mut map, &mut queue),
                    None => Value::NULL,
                },
            };
            heap.set_cell(id, i, cv);
        }
    }
    let input_heap = heap.clone();
    // Allocated locations get the ids the interpreter will give them.
    let mut next_id = input_heap.len() as u32;
    for (l, loc) in d.locs.iter().enumerate() {
        if !loc.input {
            map.insert(l, ObjId(next_id));
            next_id += 1;
        }
    }
    let value = |v: &SValue| -> Option<Value> {
        match v {
            SValue::Int(_) | SValue::Bool(_) => Some(prim(v)),
            SValue::Void => Some(Value::Void),
            _ => match world_loc(&d, v, model)? {
                None => Some(Value::NULL),
                Some(l) => map.get(&l).map(|id| Value::Ref(Some(*id))),
            },
        }
    };
    let returned = returned.and_then(value);
    let mut final_fields = Vec::new();
    for (l, loc) in d.locs.iter().enumerate() {
        let Some(&id) = map.get(&l) else { continue };
        for (f, v) in &loc.fields {
            // A reference slot of the input that this world never read nor wrote keeps its
            // input value, the default the test leaves there.
            let untouched = loc.input && !holds(&slot_cond(&loc.touched, f), model);
            if untouched && matches!(v, Some(SValue::SymRef(_) | SValue::Null)) {
                continue;
            }
            if let Some(cv) = v.as_ref().and_then(value) {
                final_fields.push((id, f.clone(), cv));
            }
        }
    }
    ConcreteInput { heap: input_heap, roots, returned, final_fields }
}
