//! Arrays in the fully symbolic heap (`symheap`): Kiasan's accumulator (the lazy family's
//! `heap/arrays.rs`, digest seed-004a §5) with its forks on index equality turned into guards,
//! in the spirit of paper 003: nothing branches except where the program compares.
//!
//! An array is a location of class `T[]` (so an array reference is a guarded value set like any
//! other, and two input arrays of one class alias by the creator-only rule); its array part
//! ([`SymArray`], kept in [`SymHeapData::arrays`] by location) is a length LEN and the *cell
//! entries* accessed so far. Each entry has an index term, a *live* condition (where it is the
//! first access of its index: the worlds where Kiasan's accumulator made it a new cell) and a
//! current value. In every world the live entries have pairwise distinct indexes, and every
//! index accessed before equals the index of exactly one of them.
//!
//! An access `a[t]` (the array reference with guarded entries `(g_l, l)`):
//! 1. **out of bounds**, `∨ g_l ∧ (t < 0 ∨ LEN_l ≤ t)`: a fork whose child ends with
//!    `index_out_of_bounds`, like the null-dereference fork (the only forks of an access);
//! 2. **equal to an earlier cell** `j` of `l`: the guard `g_l ∧ live_j ∧ t = t_j` — no fork;
//! 3. **a new cell** of `l`: `g_l` and equal to none of them. Kiasan allows it while the array
//!    bound n (k for an input array or one of symbolic length, the length for a concrete one)
//!    is not spent; the number of distinct cells differs between worlds, so each array keeps a
//!    partition of the worlds by that number ([`SymArray::counts`]). The worlds where a new
//!    cell would be cell n + 1 are exactly the lazy paths that end as `bounded (by k)`: they
//!    are split off in a second fork that ends so; the others go on. A new cell of an array made
//!    by `new` holds the default; of an input array, a fresh input: a symbol, or for a reference
//!    element a new input reference (null, a new location, the aliases), met with the array's
//!    budget as a field read meets its value.
//!
//! A read is the guarded choice over the equal cells and the new one (an ite for `int`/`bool`,
//! the union of the guarded sets for references); a write updates each equal cell under its
//! guard and adds the new one. A new cell is a materialization for the loop bound (lazy counts
//! it, read or written), noted world by world where it is new.
//!
//! Concretization builds an input array with the model's length and the cells the world read
//! first (their input values); others keep the default, as lazy's journal does. In the
//! all-heaps mode an input array's reference cells join the shape condition as a field's slots
//! do (read or not, and what they denote); its integers (length, indexes) make no heap
//! distinct.

use super::resolve::element_budget;
use super::symheap::{
    data_mut, dref, feasible, fork_ending, merge, named, named_set, note_first_reads, shown,
    timed_out, Cell, GuardedSet, Meet, Meeting, SymArray, SymHeap, SymHeapData,
};
use super::HeapModel;
use crate::interp::{Heap, ObjId, Value};
use crate::symbolic::code::SlotType;
use crate::symbolic::config::Bound;
use crate::symbolic::exec::stack::{default_value, internal, peek, pop, push_next};
use crate::symbolic::exec::{Cx, Succ};
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::show::show_sym;
use crate::symbolic::solve::Model;
use crate::symbolic::state::{SValue, State, VarOrigin, MAX_INPUT_ARRAY_LEN};
use crate::symbolic::term::{Sort, Sym};
use heaplab_syntax::ast::{ErrorKind, NodeId};
use heaplab_syntax::Span;

/// What an access found for one array location the reference may denote.
struct Part {
    /// Where the reference denotes it.
    guard: Sym,
    loc: usize,
    array: SymArray,
    /// The access's index.
    index: Sym,
    /// The earlier cells the index may equal, each with its guard (`g ∧ live_j ∧ t = t_j`).
    equal: Vec<(usize, Sym)>,
    /// Where the index is a new cell of this array (`None`: in no world).
    new: Option<Sym>,
}

/// `ArrayLoad` (`store` false: index on top, array below) or `ArrayStore` (value on top).
pub fn access(
    heap: &SymHeap,
    cx: &mut Cx,
    st: State,
    store: bool,
    node: NodeId,
    span: Span,
) -> Succ {
    if cx.deadline.passed() {
        return timed_out(st, span);
    }
    let depth = if store { 2 } else { 1 };
    let (Some(arr), Some(idx)) = (peek(&st, depth), peek(&st, depth - 1)) else {
        return internal(st, "empty stack", None);
    };
    let verb = if store { "writing" } else { "reading" };
    let what = format!("{verb} a cell of a null array");
    let (mut st, locs) = match heap.deref(cx, st, &arr, node, span, &what) {
        Ok(found) => found,
        Err(succ) => return *succ,
    };
    let SValue::Int(t) = st.normalize(&idx) else {
        return internal(st, "array index is not an int", Some(span));
    };
    let mut parts = Vec::new();
    for (g, l) in &locs {
        let Some(l) = *l else { continue };
        let Some(array) = array_part(&mut st, l) else {
            return internal(st, "indexing an object that is not an array", Some(span));
        };
        let index = t.clone();
        parts.push(Part { guard: g.clone(), loc: l, array, index, equal: Vec::new(), new: None });
    }
    let target = format!("{}[{}]", shown(&st, &arr), show_sym(&st, &t));

    // (1) Out of bounds: the first fork.
    let mut oob = Sym::bool(false);
    for p in &parts {
        let out = Sym::or(&Sym::lt(&t, &Sym::int(0)), &Sym::le(&p.array.len, &t));
        oob = Sym::or(&oob, &Sym::and(&p.guard, &out));
    }
    let oob = named(&mut st, oob);
    let message = match parts.as_slice() {
        [p] => format!(
            "{verb} cell {} of an array of length {}",
            show_sym(&st, &t),
            show_sym(&st, &p.array.len)
        ),
        _ => format!("{verb} cell {} outside the array", show_sym(&st, &t)),
    };
    let out_of_bounds = move |_: &mut Cx, s: State| {
        let outcome = match s.in_pre {
            true => PathOutcome::Discarded { span, precondition: true },
            false => PathOutcome::Error { kind: ErrorKind::IndexOutOfBounds, node, span, message },
        };
        Succ::End(s, outcome)
    };
    let mut st = match directions(cx, &st, &oob) {
        (false, _) => st,
        (true, false) => return out_of_bounds(cx, st),
        (true, true) => {
            let label = format!("{target} out of bounds");
            match fork_ending(cx, &st, &oob, label, out_of_bounds, span) {
                Ok(s) => s,
                Err(e) => return *e,
            }
        }
    };

    // (2) The earlier cells the index may equal, and where it is a new one.
    let mut cut = Sym::bool(false);
    for p in &mut parts {
        let mut hit = Sym::bool(false);
        for (j, c) in p.array.cells.iter().enumerate() {
            let e = Sym::and(&p.guard, &Sym::and(&c.live, &Sym::eq(&t, &c.index)));
            if e.as_bool() == Some(false) || !feasible(cx, &st, &e) {
                continue;
            }
            hit = Sym::or(&hit, &e);
            p.equal.push((j, e));
        }
        let new = Sym::and(&p.guard, &Sym::not(&hit));
        if new.as_bool() == Some(false) || !feasible(cx, &st, &new) {
            continue;
        }
        let new = named(&mut st, new);
        // The worlds where this would be one distinct cell more than the bound allows.
        for (c, m) in &p.array.counts {
            if *m >= p.array.bound {
                cut = Sym::or(&cut, &Sym::and(c, &new));
            }
        }
        p.new = Some(new);
    }

    // (3) The array bound: the worlds past it end as bounded by k, as lazy's paths there do.
    let cut = named(&mut st, cut);
    let bounded = move |_: &mut Cx, mut s: State| {
        s.k_cut = true;
        Succ::End(s, PathOutcome::Bounded { bound: Bound::K, span: Some(span) })
    };
    match directions(cx, &st, &cut) {
        (false, _) => {}
        (true, false) => {
            cx.sink.stats().k_cut = true;
            return bounded(cx, st);
        }
        (true, true) => {
            cx.sink.stats().k_cut = true;
            let label = format!("{target} new cell (array bound reached)");
            st = match fork_ending(cx, &st, &cut, label, bounded, span) {
                Ok(s) => s,
                Err(e) => return *e,
            };
            // Some arrays may now have no new cell in any world left.
            for p in &mut parts {
                if let Some(new) = &p.new {
                    if !feasible(cx, &st, new) {
                        p.new = None;
                    }
                }
            }
        }
    }

    // (4) The access itself, under guards.
    let result = match store {
        true => write(cx, &mut st, &parts),
        false => read(heap, cx, &mut st, &parts),
    };
    let value = match result {
        Ok(v) => v,
        Err(message) => return internal(st, message, Some(span)),
    };
    let fresh = parts
        .iter()
        .filter_map(|p| p.new.clone())
        .fold(Sym::bool(false), |acc, n| Sym::or(&acc, &n));
    if fresh.as_bool() != Some(false) {
        st.materializations += 1;
        note_first_reads(&mut st, fresh);
    }
    if cx.deadline.passed() {
        return timed_out(st, span);
    }
    pop(&mut st);
    pop(&mut st);
    match value {
        Some(v) => push_next(st, v),
        None => crate::symbolic::exec::stack::next(st),
    }
}

/// Which of `c` and its negation are satisfiable with the path. Unlike
/// `Cx::feasible_directions`, an empty direction is not counted as an infeasible path: the
/// access forks only to end a path (out of bounds, past the array bound), as lazy's children
/// there are only made where feasible.
fn directions(cx: &mut Cx, st: &State, c: &Sym) -> (bool, bool) {
    if let Some(b) = c.as_bool() {
        return (b, !b);
    }
    if !feasible(cx, st, c) {
        return (false, true);
    }
    (true, feasible(cx, st, &Sym::not(c)))
}

/// A read: the guarded choice over the equal cells and the new one. Adds the new cells.
fn read(
    heap: &SymHeap,
    cx: &mut Cx,
    st: &mut State,
    parts: &[Part],
) -> Result<Option<SValue>, &'static str> {
    let mut choices: Vec<(Sym, SValue)> = Vec::new();
    let single = parts.len() == 1;
    let elem = parts.first().map(|p| p.array.elem.clone()).ok_or("no array")?;
    // An `int`/`bool` read that may be a new cell of an input array: its fresh input symbol is
    // the read's value too, defined by the earlier cells' guards (`g_j → x = v_j`). The new
    // cells of different arrays lie in disjoint worlds, so they share it.
    let input_new = parts.iter().any(|p| p.new.is_some() && p.array.default.is_none());
    let shared = match (&elem, input_new) {
        (SlotType::Int | SlotType::Bool, true) => {
            let p = parts.iter().find(|p| p.new.is_some()).ok_or("no new cell")?;
            let field = format!("[{}]", show_sym(st, &p.index));
            let origin = VarOrigin::Field { obj: p.loc, field };
            Some(st.fresh_primitive(&elem, origin).ok_or("array of no type")?)
        }
        _ => None,
    };
    for p in parts {
        for (j, e) in &p.equal {
            let cell = p.array.cells.get(*j).ok_or("array cell vanished")?;
            choices.push((e.clone(), cell.value.clone()));
        }
        let Some(new) = &p.new else { continue };
        let (v, input) = match (&shared, &p.array.default) {
            (Some(x), None) => (x.clone(), Some(x.clone())),
            _ => new_cell_value(heap, cx, st, p, new, single)?,
        };
        add_cell(st, p, new, v.clone(), input);
        choices.push((new.clone(), v));
    }
    if let Some(x) = shared {
        let (SValue::Int(xs) | SValue::Bool(xs)) = &x else { return Err("array of no type") };
        for (g, v) in choices {
            let (SValue::Int(vs) | SValue::Bool(vs)) = &v else { continue };
            let def = Sym::or(&Sym::not(&g), &Sym::eq(xs, vs));
            if def.as_bool() != Some(true) {
                st.pc.push(def);
            }
        }
        return Ok(Some(x));
    }
    Ok(Some(choose(cx, st, choices, &elem)))
}

/// A write: every equal cell takes the value under its guard; the new cells are added.
fn write(cx: &mut Cx, st: &mut State, parts: &[Part]) -> Result<Option<SValue>, &'static str> {
    let v = pop(st).ok_or("empty stack")?;
    for p in parts {
        for (j, e) in &p.equal {
            let old =
                p.array.cells.get(*j).map(|c| c.value.clone()).ok_or("array cell vanished")?;
            let value = match e.as_bool() {
                Some(true) => v.clone(),
                _ => {
                    let choices = vec![(e.clone(), v.clone()), (Sym::not(e), old)];
                    choose(cx, st, choices, &p.array.elem)
                }
            };
            if let Some(cell) =
                data_mut(st).arrays.get_mut(&p.loc).and_then(|a| a.cells.get_mut(*j))
            {
                cell.value = value;
            }
        }
        if let Some(new) = &p.new {
            add_cell(st, p, new, v.clone(), None);
        }
    }
    // The executor's stack still holds the array and the index (popped by the caller).
    Ok(None)
}

/// The guarded choice between values (exhaustive under the path condition): the value itself
/// when there is one, an ite for `int`/`bool`, the union of the guarded sets for references.
fn choose(cx: &mut Cx, st: &mut State, choices: Vec<(Sym, SValue)>, elem: &SlotType) -> SValue {
    let first = choices.first().map(|(_, v)| v.clone()).unwrap_or(SValue::Void);
    if choices.iter().all(|(_, v)| *v == first) {
        return first;
    }
    let SlotType::Class(class) = elem else {
        return SymHeap.select(st, choices, elem);
    };
    let sets: Vec<(Sym, GuardedSet)> = match st.ext.get::<SymHeapData>() {
        Some(d) => choices.iter().map(|(g, v)| (g.clone(), d.set_of(v))).collect(),
        None => Vec::new(),
    };
    let mut set = Vec::new();
    for (g, vs) in &sets {
        for (g2, l2) in vs.iter().cloned() {
            let g3 = Sym::and(g, &g2);
            if g3.as_bool() != Some(false) && feasible(cx, st, &g3) {
                set.push((g3, l2));
            }
        }
    }
    let set = named_set(st, merge(set));
    if set.len() == 1 && set[0].1.is_none() {
        return SValue::Null;
    }
    SValue::SymRef(data_mut(st).new_ref(class, set, None))
}

/// The value of a new cell of `p` (where `new` holds) and its input value: the default of an
/// array made by `new`; for an input array a fresh symbol, or a new input reference met with
/// the array's budget (a `Comparable` element spends none, as in lazy).
fn new_cell_value(
    heap: &SymHeap,
    cx: &mut Cx,
    st: &mut State,
    p: &Part,
    new: &Sym,
    single: bool,
) -> Result<(SValue, Option<SValue>), &'static str> {
    if let Some(d) = &p.array.default {
        return Ok((d.clone(), None));
    }
    let origin = VarOrigin::Field { obj: p.loc, field: format!("[{}]", show_sym(st, &p.index)) };
    let class = match &p.array.elem {
        SlotType::Class(c) => c.clone(),
        elem => {
            let v = st.fresh_primitive(elem, origin).ok_or("array of no type")?;
            return Ok((v.clone(), Some(v)));
        }
    };
    let disc = st.ext.get::<SymHeapData>().and_then(|d| d.locs.get(p.loc)).map(|o| o.disc.clone());
    let disc = disc.unwrap_or_default();
    let spends = |b: i64| element_budget(&class, b);
    let at_zero = disc.iter().all(|(_, b)| spends(*b) <= 0);
    let meet = if single && at_zero { Meet::Never } else { Meet::Later };
    let r = heap.input_ref(cx, st, &class, meet, origin);
    let v = SValue::SymRef(r);
    // Where the path meets the locations the new cell may denote (the k bound).
    let budgets: Vec<(Sym, i64)> = disc.iter().map(|(c, b)| (c.clone(), spends(*b) - 1)).collect();
    let Some(d) = st.ext.get::<SymHeapData>() else { return Err("no symbolic heap") };
    let meetings = d
        .set_of(&v)
        .into_iter()
        .filter_map(|(e, l2)| {
            let l2 = l2?;
            let creator = d.locs.get(l2).and_then(|o| o.creator.as_ref());
            let everywhere =
                new.as_bool() == Some(true) && creator.is_some_and(|(c, n)| *c == r && *n == e);
            Some(Meeting { cond: Sym::and(new, &e), loc: l2, budgets: budgets.clone(), everywhere })
        })
        .collect();
    heap.meet(cx, st, meetings);
    Ok((v.clone(), Some(v)))
}

/// Adds the new cell of an access to `p`'s array, and counts it in the worlds where it is new
/// (below the bound; the worlds past it were cut).
fn add_cell(st: &mut State, p: &Part, new: &Sym, value: SValue, input: Option<SValue>) {
    let Some(a) = data_mut(st).arrays.get_mut(&p.loc) else { return };
    a.cells.push(Cell { index: p.index.clone(), live: new.clone(), value, input });
    let mut counts: Vec<(Sym, i64)> = Vec::new();
    for (c, m) in &a.counts {
        let pieces = match *m >= a.bound {
            true => vec![(c.clone(), *m)],
            false => vec![(Sym::and(c, new), m + 1), (Sym::and(c, &Sym::not(new)), *m)],
        };
        for (c2, m2) in pieces {
            if c2.as_bool() == Some(false) {
                continue;
            }
            match counts.iter_mut().find(|(_, n)| *n == m2) {
                Some(e) => e.0 = Sym::or(&e.0, &c2),
                None => counts.push((c2, m2)),
            }
        }
    }
    if let [(c, _)] = counts.as_mut_slice() {
        *c = Sym::bool(true);
    }
    let counts = counts.into_iter().map(|(c, m)| (named(st, c), m)).collect();
    if let Some(a) = data_mut(st).arrays.get_mut(&p.loc) {
        a.counts = counts;
    }
}

/// The array part of location `l`, made on first use for an input array (a fresh LEN with
/// `0 <= LEN <= 1000`, no cell accessed, Kiasan's bound n = k); `None` for a location that is
/// not an array.
fn array_part(st: &mut State, l: usize) -> Option<SymArray> {
    let d = st.ext.get::<SymHeapData>()?;
    if let Some(a) = d.arrays.get(&l) {
        return Some(a.clone());
    }
    let loc = d.locs.get(l)?;
    let elem = SlotType::array_elem(&loc.class)?;
    if !loc.input {
        return None;
    }
    let len = st.fresh_var(Sort::Int, VarOrigin::Field { obj: l, field: "length".into() });
    st.pc.push(Sym::le(&Sym::int(0), &len));
    st.pc.push(Sym::le(&len, &Sym::int(MAX_INPUT_ARRAY_LEN)));
    let array = SymArray {
        len,
        elem,
        default: None,
        bound: st.array_bound,
        cells: Vec::new(),
        counts: vec![(Sym::bool(true), 0)],
    };
    data_mut(st).arrays.insert(l, array.clone());
    Some(array)
}

/// `ArrayLength`: the array reference on top of the stack becomes its length (an ite over the
/// locations it may denote).
pub fn length(heap: &SymHeap, cx: &mut Cx, st: State, node: NodeId, span: Span) -> Succ {
    let Some(arr) = peek(&st, 0) else { return internal(st, "empty stack", None) };
    let what = "reading the length of a null array";
    let (mut st, locs) = match heap.deref(cx, st, &arr, node, span, what) {
        Ok(found) => found,
        Err(succ) => return *succ,
    };
    let mut choices = Vec::new();
    for (g, l) in &locs {
        let Some(l) = *l else { continue };
        let Some(array) = array_part(&mut st, l) else {
            return internal(st, "the length of an object that is not an array", Some(span));
        };
        choices.push((g.clone(), SValue::Int(array.len)));
    }
    let v = heap.select(&mut st, choices, &SlotType::Int);
    pop(&mut st);
    push_next(st, v)
}

/// A new array of class `class` (`T[]`) and length `len` (never an alias of an input): with
/// `cells`, exactly those (`new T[]{…}`); otherwise default cells, accessed lazily, bounded by
/// its length when concrete and by k when symbolic (ANEWARRAY1/2-S).
pub fn allocate(
    heap: &SymHeap,
    st: &mut State,
    class: &str,
    len: Sym,
    cells: Option<Vec<SValue>>,
) -> SValue {
    let elem = SlotType::array_elem(class).unwrap_or(SlotType::Other);
    let default = default_value(&elem);
    let (cells, bound) = match cells {
        Some(vs) => {
            let cells: Vec<Cell> = vs
                .into_iter()
                .enumerate()
                .map(|(i, v)| Cell {
                    index: Sym::int(i as i64),
                    live: Sym::bool(true),
                    value: v,
                    input: None,
                })
                .collect();
            (cells, 0)
        }
        None => (Vec::new(), len.as_int().unwrap_or(st.array_bound)),
    };
    let counts = vec![(Sym::bool(true), cells.len() as i64)];
    let v = heap.allocate(st, class, Vec::new());
    let l = match &v {
        SValue::SymRef(r) => dref(st).set_of(&SValue::SymRef(*r)).first().and_then(|(_, l)| *l),
        _ => None,
    };
    if let Some(l) = l {
        let array = SymArray { len, elem, default: Some(default), bound, cells, counts };
        data_mut(st).arrays.insert(l, array);
    }
    v
}

/// Does `c` hold in the world `model`?
fn holds(c: &Sym, model: &Model) -> bool {
    let env = |id: u32, sort: Sort| Some(model.get(id, sort).unwrap_or(0));
    c.eval(&env) == Some(1)
}

/// An input array location made concrete: an array of the model's length with default cells
/// (the cells the world read are set by [`input_cells`]); `None` when `l` is no array.
pub fn alloc_input(d: &SymHeapData, l: usize, model: &Model, heap: &mut Heap) -> Option<ObjId> {
    let loc = d.locs.get(l)?;
    let elem = SlotType::array_elem(&loc.class)?;
    let env = |id: u32, sort: Sort| Some(model.get(id, sort).unwrap_or(0));
    let len = d.arrays.get(&l).and_then(|a| a.len.eval(&env)).unwrap_or(0);
    let len = len.clamp(0, MAX_INPUT_ARRAY_LEN) as usize;
    let cell = match elem {
        SlotType::Int => Value::Int(0),
        SlotType::Bool => Value::Bool(false),
        _ => Value::NULL,
    };
    let name = loc.class.strip_suffix("[]").unwrap_or("int");
    Some(heap.alloc_array(name, vec![cell; len]))
}

/// The cells of input array `l` that the world `model` read first: (index, input value).
pub fn input_cells(d: &SymHeapData, l: usize, model: &Model) -> Vec<(usize, SValue)> {
    let Some(a) = d.arrays.get(&l) else { return Vec::new() };
    let env = |id: u32, sort: Sort| Some(model.get(id, sort).unwrap_or(0));
    a.cells
        .iter()
        .filter(|c| c.input.is_some() && holds(&c.live, model))
        .filter_map(|c| {
            let i = usize::try_from(c.index.eval(&env)?).ok()?;
            Some((i, c.input.clone()?))
        })
        .collect()
}

/// The reference cells of input array `l` read first somewhere: (where, input value), for the
/// all-heaps mode's shape condition.
pub fn reference_cells(d: &SymHeapData, l: usize) -> Vec<(Sym, SValue)> {
    let Some(a) = d.arrays.get(&l) else { return Vec::new() };
    a.cells
        .iter()
        .filter_map(|c| match &c.input {
            Some(v @ (SValue::SymRef(_) | SValue::Null)) => Some((c.live.clone(), v.clone())),
            _ => None,
        })
        .collect()
}
