//! Arrays in the lazy family's heap: Kiasan's accumulator (digest seed-004a §5, ANEWARRAY1/2-S,
//! IALOAD1-3-S, IASTORE1-4-S). An array is an [`Object`] of class `T[]` with [`ArrayData`]: a
//! symbolic length LEN and the cells accessed so far. An access with index `t` forks into
//! (1) out of bounds (`t < 0 ∨ LEN ≤ t`, the `index_out_of_bounds` error), (2) `t` equal to one
//! of the accessed indexes, one child each, and (3) a new distinct index (`t` differs from every
//! accessed one, `0 ≤ t < LEN`, fewer cells accessed than LEN), allowed while the array bound n
//! (the run's k for input arrays) is positive and decremented by it; beyond it the path is
//! bounded by `k`. A new cell of an array made by `new` holds the default (DEF); of an input
//! array, a fresh input (a primitive symbol, or for a reference element the strategy's options,
//! as for a reference field). Children that are infeasible are dropped by the solver.

use super::resolve::{apply_choice, deref, element_budget};
use crate::symbolic::code::SlotType;
use crate::symbolic::config::Bound;
use crate::symbolic::events::ForkKind;
use crate::symbolic::exec::stack::{default_value, internal, peek, pop, with_fact};
use crate::symbolic::exec::{ChoiceEvent, Cx, Succ};
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::show::show_sym;
use crate::symbolic::state::{
    ArrayData, ObjIdx, Object, Origin, PathState, SValue, State, VarOrigin,
};
use crate::symbolic::term::Sym;
use heaplab_syntax::ast::{ErrorKind, NodeId};
use heaplab_syntax::Span;

/// One child of an access: its state, its label, and how its path ends (if it does).
type Kid = (State, String, Option<PathOutcome>);

/// `ArrayLoad` (`store` false: index on top, array below) or `ArrayStore` (value on top).
pub fn access(cx: &mut Cx, st: State, store: bool, node: NodeId, span: Span) -> Succ {
    let depth = if store { 2 } else { 1 };
    let (Some(arr), Some(idx)) = (peek(&st, depth), peek(&st, depth - 1)) else {
        return internal(st, "empty stack", None);
    };
    let verb = if store { "writing" } else { "reading" };
    let what = || format!("{verb} a cell of a null array");
    let (st, obj) = match deref(cx, st, arr, node, span, what) {
        Ok(found) => found,
        Err(succ) => return *succ,
    };
    let SValue::Int(t) = st.normalize(&idx) else {
        return internal(st, "array index is not an int", Some(span));
    };
    let Some(object) = st.heap.get(obj) else {
        return internal(st, "dangling object", Some(span));
    };
    let Some(data) = object.array.clone() else {
        return internal(st, "indexing an object that is not an array", Some(span));
    };
    let budget = match object.origin {
        Origin::Input { budget } => Some(budget),
        Origin::New => None,
    };
    let target = format!("{}[{}]", PathState::obj_name(obj), show_sym(&st, &t));
    let mut kids: Vec<Kid> = Vec::new();

    // (1) Out of bounds.
    let oob = Sym::or(&Sym::lt(&t, &Sym::int(0)), &Sym::le(&data.len, &t));
    if cx.feasible(&st, &oob) {
        let s = with_fact(st.clone(), &oob, true);
        let message = format!(
            "{verb} cell {} of an array of length {}",
            show_sym(&st, &t),
            show_sym(&st, &data.len)
        );
        let outcome = match st.in_pre {
            true => PathOutcome::Discarded { span, precondition: true },
            false => PathOutcome::Error { kind: ErrorKind::IndexOutOfBounds, node, span, message },
        };
        kids.push((s, "out of bounds".into(), Some(outcome)));
    }

    // (2) One of the accessed cells.
    for (i, (ti, _)) in data.cells.iter().enumerate() {
        let same = Sym::eq(&t, ti);
        if !cx.feasible(&st, &same) {
            continue;
        }
        let mut s = with_fact(st.clone(), &same, true);
        let label = format!("= cell {}", show_sym(&st, ti));
        if store {
            let Some(v) = pop(&mut s) else { return internal(s, "empty stack", None) };
            set_cell(&mut s, obj, i, v);
            pop_operands(&mut s, 2);
            advance(&mut s);
        } else {
            let v = s.heap.get(obj).and_then(|o| o.array.as_ref()?.cells.get(i).cloned());
            let Some((_, v)) = v else { return internal(s, "array cell vanished", None) };
            pop_operands(&mut s, 2);
            push(&mut s, v);
        }
        kids.push((s, label, None));
    }

    // (3) A new distinct cell, within the array bound.
    let count = Sym::int(data.cells.len() as i64);
    let mut fresh = Sym::and(
        &Sym::and(&Sym::le(&Sym::int(0), &t), &Sym::lt(&t, &data.len)),
        &Sym::lt(&count, &data.len),
    );
    for (ti, _) in &data.cells {
        fresh = Sym::and(&fresh, &Sym::not(&Sym::eq(&t, ti)));
    }
    let mut k_cut = false;
    if cx.feasible(&st, &fresh) {
        let mut s = with_fact(st.clone(), &fresh, true);
        if data.remaining <= 0 {
            k_cut = true;
            s.k_cut = true;
            cx.sink.stats().k_cut = true;
            let bounded = PathOutcome::Bounded { bound: Bound::K, span: Some(span) };
            kids.push((s, "new cell (array bound reached)".into(), Some(bounded)));
        } else if store {
            let Some(v) = pop(&mut s) else { return internal(s, "empty stack", None) };
            add_cell(&mut s, obj, &t, v, None);
            pop_operands(&mut s, 2);
            advance(&mut s);
            kids.push((s, "new cell".into(), None));
        } else {
            kids.extend(new_cell_values(cx, s, obj, &t, &data, budget));
        }
    }
    finish(cx, st, target, kids, k_cut)
}

/// The children reading a new cell `t` of array `obj`: its default, a fresh primitive input,
/// or each of the strategy's options for a reference element.
fn new_cell_values(
    cx: &mut Cx,
    mut s: State,
    obj: ObjIdx,
    t: &Sym,
    data: &ArrayData,
    budget: Option<i64>,
) -> Vec<Kid> {
    let label = "new cell".to_string();
    let name = format!("[{}]", show_sym(&s, t));
    if let Some(d) = &data.default {
        add_cell(&mut s, obj, t, d.clone(), None);
        pop_operands(&mut s, 2);
        push(&mut s, d.clone());
        return vec![(s, label, None)];
    }
    let budget = budget.unwrap_or(0);
    match &data.elem {
        SlotType::Class(c) => {
            let budget = element_budget(c, budget);
            let opts = cx.strategy.options(&s, c, budget - 1);
            let mut kids = Vec::new();
            for choice in &opts.choices {
                let mut k = s.clone();
                let (v, option) = apply_choice(cx, &mut k, *choice, c, budget - 1);
                if opts.k_cut {
                    k.k_cut = true;
                }
                add_cell(&mut k, obj, t, v.clone(), Some(v.clone()));
                pop_operands(&mut k, 2);
                push(&mut k, v);
                kids.push((k, format!("new cell = {option}"), None));
            }
            if kids.is_empty() {
                s.k_cut = true;
                let bounded = PathOutcome::Bounded { bound: Bound::K, span: None };
                kids.push((s, label, Some(bounded)));
            }
            kids
        }
        elem => {
            let origin = VarOrigin::Field { obj, field: name };
            let Some(v) = s.fresh_primitive(elem, origin) else {
                let outcome =
                    PathOutcome::Internal { message: "array of no type".into(), span: None };
                return vec![(s, label, Some(outcome))];
            };
            add_cell(&mut s, obj, t, v.clone(), Some(v.clone()));
            pop_operands(&mut s, 2);
            push(&mut s, v);
            vec![(s, label, None)]
        }
    }
}

/// Continues the one child, or forks with an event naming the cell; children whose path ends
/// are recorded.
fn finish(cx: &mut Cx, st: State, target: String, mut kids: Vec<Kid>, k_cut: bool) -> Succ {
    if kids.len() == 1 {
        if let Some((s, _, outcome)) = kids.pop() {
            return match outcome {
                Some(o) => Succ::End(s, o),
                None => Succ::Continue(s),
            };
        }
    }
    if kids.is_empty() {
        return Succ::End(
            st,
            PathOutcome::Discarded { span: Span::default(), precondition: false },
        );
    }
    let options: Vec<String> = kids.iter().map(|(_, l, _)| l.clone()).collect();
    let ends: Vec<Option<PathOutcome>> = kids.iter().map(|(_, _, o)| o.clone()).collect();
    let labelled = kids.into_iter().map(|(s, l, _)| (s, format!("{target} {l}"))).collect();
    let event = ChoiceEvent { target, options, kind: ForkKind::LazyInit, k_cut };
    let states = cx.choice_owned(st, labelled, event);
    let mut live = Vec::new();
    for (s, end) in states.into_iter().zip(ends) {
        match end {
            Some(o) => cx.end_path(s, o),
            None => live.push(s),
        }
    }
    Succ::Fork(live)
}

/// `ArrayLength`: replaces the array reference on top of the stack by its length.
pub fn length(cx: &mut Cx, st: State, node: NodeId, span: Span) -> Succ {
    let Some(arr) = peek(&st, 0) else { return internal(st, "empty stack", None) };
    let (mut st, obj) =
        match deref(cx, st, arr, node, span, || "reading the length of a null array".into()) {
            Ok(found) => found,
            Err(succ) => return *succ,
        };
    let Some(len) = st.heap.get(obj).and_then(|o| o.array.as_ref().map(|a| a.len.clone())) else {
        return internal(st, "the length of an object that is not an array", Some(span));
    };
    pop_operands(&mut st, 1);
    push(&mut st, SValue::Int(len));
    Succ::Continue(st)
}

/// A new array of class `class` (`T[]`) of length `len` (never an alias of an input): with
/// `cells`, exactly those (`new T[]{…}`); otherwise default cells, accessed lazily, bounded by
/// its length when concrete and by k when symbolic (ANEWARRAY1/2-S).
pub fn allocate(st: &mut State, class: &str, len: Sym, cells: Option<Vec<SValue>>) -> SValue {
    let elem = SlotType::array_elem(class).unwrap_or(SlotType::Other);
    let default = default_value(&elem);
    let (cells, remaining) = match cells {
        Some(vs) => {
            let cells: Vec<(Sym, SValue)> =
                vs.into_iter().enumerate().map(|(i, v)| (Sym::int(i as i64), v)).collect();
            (cells, 0)
        }
        None => (Vec::new(), len.as_int().unwrap_or(st.array_bound)),
    };
    let array =
        ArrayData { len, elem, default: Some(default), cells, input: Vec::new(), remaining };
    SValue::Obj(st.heap.push(Object {
        class: class.to_string(),
        origin: Origin::New,
        fields: Vec::new(),
        input: Vec::new(),
        array: Some(array),
    }))
}

fn set_cell(st: &mut State, obj: ObjIdx, i: usize, v: SValue) {
    if let Some(cell) = st.heap.get_mut(obj).and_then(|o| o.array.as_mut()?.cells.get_mut(i)) {
        cell.1 = v;
    }
}

/// Records a new accessed cell (and, for a read of an input array, its input value).
fn add_cell(st: &mut State, obj: ObjIdx, t: &Sym, v: SValue, input: Option<SValue>) {
    if let Some(a) = st.heap.get_mut(obj).and_then(|o| o.array.as_mut()) {
        a.cells.push((t.clone(), v));
        if let Some(iv) = input {
            a.input.push((t.clone(), iv));
        }
        a.remaining -= 1;
    }
    st.materializations += 1;
}

fn pop_operands(st: &mut State, n: usize) {
    for _ in 0..n {
        pop(st);
    }
}

/// Pushes the instruction's result and moves past it.
fn push(st: &mut State, v: SValue) {
    crate::symbolic::exec::stack::push_next_raw(st, v);
}

/// Moves past a store (which pushes nothing).
fn advance(st: &mut State) {
    if let Some(f) = st.frames.last_mut() {
        f.pc += 1;
    }
}
