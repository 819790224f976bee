//! The fully symbolic heap's [`HeapModel`] (paper 003, see [`super::symheap`] for the
//! representation): the executor's heap operations over guarded value sets, the input heap
//! shape of one world (the all-heaps mode), and concretization of one world into a test input.
//! It dispatches array operations to [`super::symheap_arrays`].

use super::resolve::element_budget;
use super::symheap::*;
use super::symheap_arrays;
use super::symheap_forks::{pick_location, settle};
use super::{ConcreteInput, HeapModel, RootOption};
use crate::interp::{Heap, ObjId, Value};
use crate::symbolic::code::{Compiled, SlotType};
use crate::symbolic::config::Bound;
use crate::symbolic::exec::stack::{internal, next, peek, pop, push_next};
use crate::symbolic::exec::{Cx, Succ, Then};
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::solve::Model;
use crate::symbolic::state::{SValue, State, VarOrigin};
use crate::symbolic::term::{Sort, Sym};
use heaplab_syntax::ast::NodeId;
use heaplab_syntax::builtin::KEY;
use heaplab_syntax::Span;
use std::collections::{BTreeMap, VecDeque};

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
        // Not null, so the new location of its rank (see `class_ranks`).
        let rank = class_ranks(&dref(st), class).len() as i64 + 1;
        let nonnull = Sym::eq(&x, &Sym::int(rank));
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
            walked: false,
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
            walked: false,
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
        let text = |st: &State| format!("{} == {}", shown(st, a), shown(st, b));
        self.decide(cx, st, eq, text)
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
        let text = |st: &State| format!("{} == null", shown(st, v));
        self.decide(cx, st, c, text)
    }

    /// `requires` is unfolded into guards (option (b) of issue 15): a points-to atom assumes
    /// that its reference is not null and denotes no location claimed already by the
    /// separating conjunction; worlds where that fails are discarded. In a precondition a
    /// reference that may denote several locations first picks one (`pick_location`, a fork).
    fn points_to(&self, cx: &mut Cx, mut st: State, _class: &str, span: Span) -> Succ {
        let Some(r) = peek(&st, 0) else { return internal(st, "empty stack", None) };
        // The executor clears the lazy heap's footprint when the precondition is done; the
        // claims here follow it (one placeholder entry per claim).
        if st.footprint.is_empty() {
            data_mut(&mut st).footprint.clear();
        }
        if st.in_pre {
            if let Some(picked) = pick_location(cx, &st, &r, span) {
                return picked;
            }
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
        st.claim(claims);
        if ok.as_bool() == Some(true) {
            return next(st);
        }
        match cx.assume(st, ok, span, true) {
            Succ::Continue(mut st) => {
                settle(&mut st);
                Succ::Continue(st)
            }
            other => other,
        }
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
