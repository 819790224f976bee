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
//! The path condition often fixes input references (a null test, an alias a separating
//! conjunction rules out): after each heap fork, `symheap_forks.rs` folds the values it fixes
//! into the path condition and every guard, so entries that hold in no world of the path leave
//! their sets and later reads ask nothing about them. In a precondition, a points-to atom
//! picks its location (a fork, as lazy initialization's), since the separating conjunction
//! would rule out the aliases only when it claims their second cell.
//!
//! Files: this one (the representation, its per-path data and the operations on guarded sets),
//! `symheap_model.rs` (the [`HeapModel`](super::HeapModel) implementation and concretization),
//! `symheap_forks.rs` (the forks, and the values each fixes folded in, found by
//! `propagate.rs`), `symheap_arrays.rs`
//! (arrays).
//!
//! Owns the representation, the heap operations and concretization (§5 of the digest: one world
//! of the path condition, the unique true entry of each input reference, objects numbered in BFS
//! order from the roots). Never touches the worklist or the lazy family's objects.

use super::propagate::Settled;
use crate::symbolic::code::SlotType;
use crate::symbolic::config::Bound;
use crate::symbolic::events::Event;
use crate::symbolic::exec::stack::{internal, with_fact};
use crate::symbolic::exec::{Cx, Succ};
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::show::negated;
use crate::symbolic::solve::Model;
use crate::symbolic::state::{SValue, SharedVec, State, VarOrigin};
use crate::symbolic::term::{Sort, Sym};
use heaplab_syntax::Span;
use std::borrow::Cow;
use std::collections::BTreeMap;

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
    /// The new location of a field the precondition read: a cell its walk may claim later
    /// (`symheap_forks.rs`'s `pick_location`).
    pub walked: bool,
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
    pub(super) depth: usize,
    pub(super) head: usize,
    pub(super) idle: Vec<(Sym, u32)>,
    pub(super) since: Sym,
}

/// The array part of an array location.
#[derive(Clone, Debug)]
pub struct SymArray {
    /// LEN (`0 <= LEN <= 1000` for an input array).
    pub len: Sym,
    /// The element type.
    pub elem: SlotType,
    /// DEF: the value of a cell never accessed, for an array made by `new` (`None` for an
    /// input array, whose new cells are fresh inputs).
    pub default: Option<SValue>,
    /// Kiasan's array bound n: how many distinct cells may be accessed.
    pub bound: i64,
    /// The cell entries, in the order of the accesses that made them.
    pub cells: Vec<Cell>,
    /// The worlds of the path by how many distinct cells they accessed (exclusive conditions).
    pub counts: Vec<(Sym, i64)>,
}

/// One cell entry of an array.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Its index term.
    pub index: Sym,
    /// Where it is a distinct cell: the first access of its index (and the array denotes it).
    pub live: Sym,
    /// Its current value.
    pub value: SValue,
    /// Its input value, when the first access was a read of an input array (the journal).
    pub input: Option<SValue>,
}

/// The per-path data of the symbolic heap.
#[derive(Clone, Debug, Default)]
pub struct SymHeapData {
    pub refs: SharedVec<RefInfo>,
    pub locs: SharedVec<LocInfo>,
    /// Input references in creation order (indices into `refs`).
    pub inputs: Vec<u32>,
    /// The answer of a comparison or null test the state was forked on; the re-executed
    /// instruction consumes it.
    pub(super) decided: Option<bool>,
    /// Entries claimed by points-to atoms of the formula being evaluated (`requires`).
    pub(super) footprint: GuardedSet,
    /// The loops being counted ([`HeapModel::counts_loops`](super::HeapModel::counts_loops)).
    pub(super) loops: Vec<LoopTrack>,
    /// The array part of array locations (class `T[]`), by location (`heap/symheap_arrays.rs`).
    pub arrays: BTreeMap<usize, SymArray>,
    /// What the last propagation of the path condition's fixed values left
    /// (`heap/symheap_forks.rs`).
    pub(super) settled: Settled,
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

    pub(super) fn field(&self, l: usize, f: &str) -> Option<Option<SValue>> {
        self.locs.get(l)?.fields.iter().find(|(n, _)| n == f).map(|(_, v)| v.clone())
    }

    pub(super) fn set_field(&mut self, l: usize, f: &str, v: SValue) {
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
pub(super) fn null_guard(set: &GuardedSet) -> Sym {
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
    let negation = cx.label(|| negated(&shown));
    let kids = vec![
        (with_fact(st.clone(), fact, false), negation),
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
pub(super) fn ref_var(st: &mut State, origin: VarOrigin) -> Sym {
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

/// The input references of `class` in creation order. The j-th (from 1) has *rank* j: its
/// variable is `j` in the worlds where it denotes the new location it creates, `0` where it is
/// null, and the rank of the creator of the location it aliases elsewhere. Every world of the
/// inputs has exactly one such valuation, so a guard is an equality with a constant (`r = 3`)
/// rather than a chain of disequalities with every earlier reference of the class, and the
/// solver gets a few small atoms per entry.
pub(crate) fn class_ranks(d: &SymHeapData, class: &str) -> Vec<u32> {
    d.inputs
        .iter()
        .copied()
        .filter(|&c| d.refs.get(c as usize).is_some_and(|i| i.class == class && i.var.is_some()))
        .collect()
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
        // A field the precondition's walk reads: its new location is a cell the walk may claim.
        let walked = st.in_pre && matches!(origin, VarOrigin::Field { .. });
        let x = ref_var(st, origin);
        let var = match x.node() {
            crate::symbolic::term::Node::Var(id, _) => *id,
            _ => 0,
        };
        let null = Sym::int(0);
        let mut set: GuardedSet = vec![(Sym::eq(&x, &null), None)];
        // The earlier input references of the class by rank (see [`class_ranks`]), each with
        // the location it created, if any, and that location's guard; this one's "new" value
        // is one past the last.
        let (earlier, r) = {
            let d = dref(st);
            let made = |c: u32| {
                d.locs.iter().enumerate().find_map(|(l, loc)| match &loc.creator {
                    Some((cr, n)) if loc.input && *cr == c => Some((l, n.clone())),
                    _ => None,
                })
            };
            let earlier: Vec<_> = class_ranks(&d, class).into_iter().map(made).collect();
            (earlier, d.refs.len() as u32)
        };
        let rank = earlier.len() as i64 + 1;
        let newg = Sym::eq(&x, &Sym::int(rank));
        // The domain of `x`: 0 ..= rank, and a rank j only where the j-th reference's location
        // exists (its creator is new there); values outside every entry would make the set
        // non-exhaustive.
        let mut domain = vec![Sym::le(&null, &x)];
        for (j, made) in earlier.into_iter().enumerate() {
            let at_j = Sym::eq(&x, &Sym::int(j as i64 + 1));
            match made {
                // Prune aliases of locations that exist in no world of the path.
                Some((l, n)) if feasible(cx, st, &n) => {
                    if !st.pc.contains(&n) {
                        domain.push(Sym::or(&Sym::not(&at_j), &n));
                    }
                    set.push((at_j, Some(l)));
                }
                _ => domain.push(Sym::not(&at_j)),
            }
        }
        let new_loc = match meet {
            Meet::Now(b) if b < 0 => None,
            Meet::Never => None,
            Meet::Now(b) => Some(vec![(newg.clone(), b)]),
            Meet::Later => Some(Vec::new()),
        };
        // With no new location, the worlds where this reference would denote one are cut (so
        // that the remaining entries stay exhaustive): its domain ends below its rank.
        let top = if new_loc.is_some() { rank } else { rank - 1 };
        domain.push(Sym::le(&x, &Sym::int(top)));
        let domain = domain.iter().fold(Sym::bool(true), |acc, c| Sym::and(&acc, c));
        st.pc.push(domain);
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
                    walked,
                    fields: fields.iter().map(|(f, _)| (f.clone(), None)).collect(),
                    input_slots: Vec::new(),
                    touched: Vec::new(),
                    observed: Vec::new(),
                });
                set.push((newg, Some(d.locs.len() - 1)));
            }
            None => {
                // The k bound left out the new location (its worlds cut by the domain).
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
    pub(super) fn meet_ref(&self, cx: &mut Cx, st: &mut State, r: u32, b: i64) {
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
    pub(super) fn touch(&self, st: &mut State, locs: &GuardedSet, f: &str, read: bool) {
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
    pub(super) fn summarize(&self, cx: &mut Cx, st: &mut State, l: usize, f: &str, meet: Meet) {
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
        Some(var) => crate::symbolic::show::Names::of(st).var(var, Sort::Int),
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
