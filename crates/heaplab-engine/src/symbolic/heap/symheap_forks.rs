//! Where a symbolic-heap path forks, and the values each fork fixes, folded into the guards.
//!
//! The forks: a dereference of a reference that may be null ([`SymHeap::deref`]), a reference
//! comparison or null test ([`SymHeap::decide`]), and, in a precondition, a points-to atom
//! picking its location ([`pick_location`]).
//!
//! Why fold: a guard is a condition over input references' variables, and a precondition that
//! walks the structure fixes most of them: each null test forks, and separation rules out the
//! aliases. The guarded sets still list every entry, though, and their guards still name those
//! variables. So each later read asks the solver about entries that hold in no world of the
//! path, and every question carries the whole heap's constraints, since they share variables
//! with it (BST `insert` at k = 3: about 14 questions a state, over 100 conjuncts each).
//!
//! How ([`settle`], after each fork): unit propagation over the conjuncts finds the variables
//! they fix:
//! - a conjunct that is a literal (`x = 3`, `b`, `x ≠ 2`, `0 ≤ x`), or a conjunction of them,
//!   gives it;
//! - a variable whose range holds one value outside the excluded ones is fixed.
//!
//! Each fixed variable is replaced by its value everywhere, which folds conjuncts into further
//! literals, until nothing new is fixed. The path condition becomes the folded conjuncts that
//! are not `true`, and one unit conjunct per fixed variable, so models (and the tests read off
//! them) still give each its value. Entries whose guard folds to `false` leave their sets.
//!
//! Exact: `pc ≡ pc[v/x] ∧ x = v` when the path condition implies `x = v`, and a guard `g` holds
//! in the same worlds of the path as `g[v/x]`. Conjuncts and guards without a fixed variable
//! keep their address ([`Sym::substitute`]), so the answer tables and the prepared solver
//! contexts keyed by it still hit.
//!
//! The propagation itself is `propagate.rs`: incremental along a path, it reads the conjuncts
//! added since the last fork's and those its new values rewrite.

use super::propagate::{propagate, unit, Settled};
use super::symheap::{
    data_mut, dref, feasible, fork_ending, merge, named, null_guard, shown, GuardedSet, LocInfo,
    SymHeap, SymHeapData,
};
use crate::symbolic::events::{Event, ForkKind};
use crate::symbolic::exec::stack::with_fact;
use crate::symbolic::exec::{ChoiceEvent, Cx, Succ, Then};
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::show::{negated, Names};
use crate::symbolic::state::{PathCondition, SValue, State};
use crate::symbolic::term::{Env, Memo, Sort, Sym};
use heaplab_syntax::ast::NodeId;
use heaplab_syntax::Span;

impl SymHeap {
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
                let shown = cx.label(|| format!("{} == null", shown(&st, recv)));
                let end = |cx: &mut Cx, bad| cx.null_deref(bad, node, span, what);
                let mut st = fork_ending(cx, &st, &nullg, shown, end, span)?;
                settle(&mut st);
                st
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

    /// Forks on a reference condition `c` (EQ of a comparison, or a null guard): one child
    /// per satisfiable direction, each remembering its answer for the re-executed instruction.
    /// `shown` writes the condition for the labels, when there are labels to write.
    pub(super) fn decide(
        &self,
        cx: &mut Cx,
        st: State,
        c: Sym,
        shown: impl FnOnce(&State) -> String,
    ) -> Then<(State, bool)> {
        match cx.feasible_directions(&st, &c) {
            (true, false) => Then::Go((st, true)),
            (false, true) => Then::Go((st, false)),
            (false, false) => Then::Done(Succ::End(
                st,
                PathOutcome::Discarded { span: Span::default(), precondition: false },
            )),
            (true, true) => {
                let shown = cx.label(|| shown(&st));
                let negation = cx.label(|| negated(&shown));
                let mut kids = Vec::new();
                for (dir, label) in [(true, shown.clone()), (false, negation)] {
                    let mut s = with_fact(st.clone(), &c, dir);
                    settle(&mut s);
                    data_mut(&mut s).decided = Some(dir);
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

/// Replaces, in `st`'s path condition and symbolic heap, every variable the path condition
/// fixes by its value (see the module documentation).
pub(super) fn settle(st: &mut State) {
    let from = st.ext.get::<SymHeapData>().map(|d| d.settled.clone()).unwrap_or_default();
    let Some(mut found) = propagate(&from, &st.pc) else { return };
    // Nothing new since the last time: the heap's guards already have these values.
    if !found.changed && !found.fixed_more {
        if st.ext.get::<SymHeapData>().is_some() {
            data_mut(st).settled = Settled::of(&st.pc, found);
        }
        return;
    }
    let mut pc = std::mem::take(&mut found.pc);
    // One unit per fixed variable: those the rounds turned into `true` come back.
    let mut has_unit: Vec<u32> = pc.iter().filter_map(unit).map(|(x, _)| x).collect();
    has_unit.sort_unstable();
    let mut missing: Vec<(u32, i64)> = found
        .fixed
        .iter()
        .filter(|(x, _)| has_unit.binary_search(x).is_err())
        .map(|(x, v)| (*x, *v))
        .collect();
    missing.sort_unstable();
    for (x, v) in missing {
        let sort = st.vars.get(x as usize).map_or(Sort::Int, |(s, _)| *s);
        pc.push(match sort {
            Sort::Int => Sym::eq(&Sym::var(x, Sort::Int), &Sym::int(v)),
            Sort::Bool if v != 0 => Sym::var(x, Sort::Bool),
            Sort::Bool => Sym::not(&Sym::var(x, Sort::Bool)),
        });
    }
    if found.changed {
        st.pc = PathCondition::from(pc);
    }
    if st.ext.get::<SymHeapData>().is_none() {
        return;
    }
    let bits = found.bits;
    let fixed = std::mem::take(&mut found.fixed);
    let value = |id: u32, _: Sort| fixed.get(&id).copied();
    let env = Env { value: &value, bits };
    let mut memo = Memo::default();
    let mut sub = |s: &Sym| s.substitute(&env, &mut memo);
    rewrite(data_mut(st), bits, &mut sub);
    found.fixed = fixed;
    data_mut(st).settled = Settled::of(&st.pc, found);
    debug_assert!(dref(st).refs.iter().all(|r| !r.set.is_empty()));
}

/// A points-to atom of a precondition picks the location its reference denotes, when each of
/// them is the location of a field the precondition read: one child per location, where the
/// reference denotes that one alone and the settled guards fold (`None` when there are fewer
/// than two, or one of them is another kind: nothing to pick). Each child runs the atom again.
///
/// Why: the separating conjunction rules out an alias only when it claims the second cell, so a
/// precondition that walks a structure keeps, until then, every world where a reference it
/// reads aliases a cell the walk claims later; each read below it asks the solver about each of
/// them, and each question carries their disjunctions (BST `insert` at k = 3: the precondition
/// was 99 % of the questions' time). Lazy initialization picks the object at once; so does
/// this, among the cells the walk may claim. A reference that may also denote another location
/// (a parameter an element may alias, an existential) keeps its guarded set, as paper 003 does:
/// splitting it off made two paths hold the same heap, one valuation each. The worlds are the
/// same, split among the children (those where the reference is null fail the atom and are
/// dropped, as the atom's assumption drops them).
pub(super) fn pick_location(cx: &mut Cx, st: &State, r: &SValue, span: Span) -> Option<Succ> {
    let SValue::SymRef(id) = r else { return None };
    let set = merge(dref(st).set_of(r));
    let walked =
        |l: &Option<usize>| l.is_some_and(|l| dref(st).locs.get(l).is_some_and(|o| o.walked));
    let picked: GuardedSet = set.into_iter().filter(|(_, l)| l.is_some()).collect();
    if picked.len() < 2 || !picked.iter().all(|(_, l)| walked(l)) {
        return None;
    }
    let mut kids = Vec::new();
    for (g, l) in picked {
        // The worlds where the atom claims `l` a second time fail it: no child for them.
        let claimed = dref(st)
            .footprint
            .iter()
            .filter(|(_, l2)| *l2 == l)
            .fold(Sym::bool(false), |acc, (g2, _)| Sym::or(&acc, g2));
        let fact = Sym::and(&g, &Sym::not(&claimed));
        if !feasible(cx, st, &fact) {
            continue;
        }
        let mut kid = with_fact(st.clone(), &fact, true);
        if let Some(info) = data_mut(&mut kid).refs.get_mut(*id as usize) {
            info.set = vec![(Sym::bool(true), l)];
        }
        settle(&mut kid);
        kids.push((kid, l));
    }
    match kids.len() {
        0 => Some(Succ::End(st.clone(), PathOutcome::Discarded { span, precondition: true })),
        1 => kids.pop().map(|(kid, _)| Succ::Continue(kid)),
        _ => {
            let (target, names) = (shown(st, r), Names::of(st));
            let label = |l| picked_label(st, &names, &target, l);
            let kids: Vec<(State, String)> =
                kids.into_iter().map(|(kid, l)| (kid, label(l))).collect();
            let options = kids.iter().map(|(_, label)| label.clone()).collect();
            let event = ChoiceEvent { target, options, kind: ForkKind::Resolve, k_cut: false };
            Some(Succ::Fork(cx.choice(st, kids, event)))
        }
    }
}

/// A picked location in the words of the heap view: `o1.left is new` for the location the
/// reference's own input creates, `o1.left == o2.right` for another input's.
fn picked_label(st: &State, names: &Names, target: &str, l: Option<usize>) -> String {
    let d = dref(st);
    let creator = l.and_then(|l| d.locs.get(l)?.creator.as_ref().map(|(c, _)| *c));
    let name = creator.and_then(|c| d.refs.get(c as usize)?.var).map(|v| names.var(v, Sort::Int));
    match name {
        Some(name) if name == target => format!("{target} is new"),
        Some(name) => format!("{target} == {name}"),
        None => format!("{target} denotes a location of its own"),
    }
}

/// `set` with its guards rewritten, the entries that hold nowhere left out and the others
/// merged by location; `None` when no guard changed (or may read a variable of `bits`).
fn rewrite_set(
    set: &GuardedSet,
    bits: u64,
    sub: &mut dyn FnMut(&Sym) -> Sym,
) -> Option<GuardedSet> {
    if set.iter().all(|(g, _)| g.var_bits() & bits == 0) {
        return None;
    }
    let new: GuardedSet = set.iter().map(|(g, l)| (sub(g), *l)).collect();
    if new.iter().zip(set).all(|((a, _), (b, _))| a.addr() == b.addr()) {
        return None;
    }
    let kept: GuardedSet = new.into_iter().filter(|(g, _)| g.as_bool() != Some(false)).collect();
    // Exhaustive in every world of the path: an empty set means the rewrite went wrong, and
    // keeping the old guards is always exact.
    (!kept.is_empty()).then(|| merge(kept))
}

/// The same value, terms compared by address.
fn same_value(a: &Option<SValue>, b: &Option<SValue>) -> bool {
    match (a, b) {
        (Some(SValue::Int(x) | SValue::Bool(x)), Some(SValue::Int(y) | SValue::Bool(y))) => {
            x.addr() == y.addr()
        }
        _ => a == b,
    }
}

fn rewrite_value(v: &SValue, sub: &mut dyn FnMut(&Sym) -> Sym) -> SValue {
    match v {
        SValue::Int(s) => SValue::Int(sub(s)),
        SValue::Bool(s) => SValue::Bool(sub(s)),
        other => other.clone(),
    }
}

/// Whether a location holds a term that may read a variable of `bits` (see [`Sym::var_bits`]).
fn reads_any(loc: &LocInfo, bits: u64) -> bool {
    let hit = |s: &Sym| s.var_bits() & bits != 0;
    let value = |v: &Option<SValue>| matches!(v, Some(SValue::Int(s) | SValue::Bool(s)) if hit(s));
    loc.touched.iter().chain(&loc.observed).any(|(_, c)| hit(c))
        || loc.disc.iter().any(|(c, _)| hit(c))
        || loc.creator.as_ref().is_some_and(|(_, n)| hit(n))
        || loc.fields.iter().any(|(_, v)| value(v))
}

/// Every guard and value of the heap's data rewritten by `sub`, which replaces variables of
/// `bits` (elements copied only where something changed: they may be shared with other states).
fn rewrite(d: &mut SymHeapData, bits: u64, sub: &mut dyn FnMut(&Sym) -> Sym) {
    for r in 0..d.refs.len() {
        let Some(set) = d.refs.get(r).and_then(|i| rewrite_set(&i.set, bits, sub)) else {
            continue;
        };
        if let Some(info) = d.refs.get_mut(r) {
            info.set = set;
        }
    }
    for l in 0..d.locs.len() {
        let Some(old) = d.locs.get(l) else { continue };
        if !reads_any(old, bits) {
            continue;
        }
        let mut loc = old.clone();
        let mut conds = |list: &mut Vec<(String, Sym)>| {
            for (_, c) in list.iter_mut() {
                *c = sub(c);
            }
        };
        conds(&mut loc.touched);
        conds(&mut loc.observed);
        for (c, _) in loc.disc.iter_mut() {
            *c = sub(c);
        }
        loc.disc.retain(|(c, _)| c.as_bool() != Some(false));
        if let Some((_, n)) = loc.creator.as_mut() {
            *n = sub(n);
        }
        for (_, v) in loc.fields.iter_mut() {
            if let Some(v) = v.as_mut() {
                *v = rewrite_value(v, sub);
            }
        }
        let same = |a: &[(String, Sym)], b: &[(String, Sym)]| {
            a.iter().zip(b).all(|((_, x), (_, y))| x.addr() == y.addr())
        };
        let unchanged = same(&loc.touched, &old.touched)
            && same(&loc.observed, &old.observed)
            && loc.disc.len() == old.disc.len()
            && loc.disc.iter().zip(&old.disc).all(|((x, _), (y, _))| x.addr() == y.addr())
            && loc.creator.as_ref().map(|(_, n)| n.addr())
                == old.creator.as_ref().map(|(_, n)| n.addr())
            && loc.fields.iter().zip(&old.fields).all(|((_, a), (_, b))| same_value(a, b));
        if !unchanged {
            if let Some(slot) = d.locs.get_mut(l) {
                *slot = loc;
            }
        }
    }
    // The footprint keeps its entries (one per claim), guards rewritten.
    for (g, _) in d.footprint.iter_mut() {
        *g = sub(g);
    }
    for track in d.loops.iter_mut() {
        for (c, _) in track.idle.iter_mut() {
            *c = sub(c);
        }
        track.since = sub(&track.since);
    }
    for a in d.arrays.values_mut() {
        a.len = sub(&a.len);
        for cell in a.cells.iter_mut() {
            cell.index = sub(&cell.index);
            cell.live = sub(&cell.live);
            cell.value = rewrite_value(&cell.value, sub);
            cell.input = cell.input.as_ref().map(|v| rewrite_value(v, sub));
        }
        for (c, _) in a.counts.iter_mut() {
            *c = sub(c);
        }
    }
}
