//! The lazy family's heap model (Kiasan, digest seed-004a §3): a heap of materialized objects
//! ([`Object`], input or allocated), plus Kiasan's abstract references — a symbolic reference
//! δ̂ (null or some object, decided on use) and a symbolic location δ (some object, decided on
//! dereference) — kept in the state's resolution table ([`State::normalize`]).
//!
//! An unknown reference (input root, first read of a reference field, unbound existential) gets
//! the values the strategy's option table lists ([`HeapStrategy::options`]); one child each.
//! Resolution of δ̂ / δ is the same for every strategy (Kiasan's init-sym-ref* /
//! init-sym-loc*): δ̂ becomes null or a new δ; δ becomes each input object of its class or a
//! fresh one within the k bound. Before the model forks on an access, the strategy's
//! [`first_access`](crate::symbolic::strategy::HeapStrategy::first_access) hook may take the step over, and its
//! [`prune_resolutions`](crate::symbolic::strategy::HeapStrategy::prune_resolutions) hook may drop resolution children.
//!
//! [`HeapStrategy::options`]: crate::symbolic::strategy::HeapStrategy::options
//! [`HeapStrategy`]: crate::symbolic::strategy::HeapStrategy

use super::{ConcreteInput, HeapModel, RootOption};
use crate::symbolic::code::{Compiled, SlotType};
use crate::symbolic::config::Bound;
use crate::symbolic::exec::stack::{internal, next, peek, pop, push_next, push_next_raw};
use crate::symbolic::exec::{Cx, Succ, Then};
use crate::symbolic::explorer::{ForkKind, PathOutcome};
use crate::symbolic::solve::Model;
use crate::symbolic::state::{ObjIdx, Object, Origin, RefResolution, SValue, State, VarOrigin};
use crate::symbolic::strategy::{Choice, Labels, Options};
use crate::symbolic::term::Sym;
use heaplab_syntax::ast::NodeId;
use heaplab_syntax::Span;

/// The lazy-family heap (see the module docs).
pub struct LazyHeap;

/// Reference equality, or which abstract value must be resolved first (digest §8 item 6).
enum RefEq {
    Decided(bool),
    Resolve(SValue),
}

impl HeapModel for LazyHeap {
    fn input_receiver(&self, cx: &mut Cx, st: &mut State, class: &str, budget: i64) -> SValue {
        let fields = cx.code.classes.get(class).cloned().unwrap_or_default();
        SValue::Obj(st.new_input_object(class, &fields, budget))
    }

    fn input_root(
        &self,
        cx: &mut Cx,
        st: &State,
        class: &str,
        budget: i64,
    ) -> (Vec<RootOption>, bool) {
        let opts = cx.strategy.options(st, class, budget);
        let mut out = Vec::new();
        for choice in &opts.choices {
            let mut child = st.clone();
            if opts.k_cut {
                child.k_cut = true;
            }
            let (v, label) = apply_choice(cx, &mut child, *choice, class, budget);
            out.push((child, v, label));
        }
        (out, opts.k_cut)
    }

    fn unknown_reference(
        &self,
        cx: &mut Cx,
        st: State,
        class: &str,
        budget: i64,
        target: String,
        apply: &dyn Fn(&mut State, SValue),
    ) -> Succ {
        let opts = cx.strategy.options(&st, class, budget);
        lazy_fork(cx, st, opts, class, budget, target, apply)
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
        let Some(recv) = peek(&st, 0) else { return internal(st, "empty stack", None) };
        let what = format!("reading field `{field}` of null");
        let (mut st, obj) = match deref(cx, st, recv, node, span, &what) {
            Ok(found) => found,
            Err(succ) => return *succ,
        };
        let Some(object) = st.heap.get(obj) else {
            return internal(st, "dangling object", Some(span));
        };
        if cx.strategy.reads_input_heap(&st) && object.is_input() && object.field(field).is_some() {
            // A formula describes the input heap, so it reads the input value (the journal), not
            // what the program has written since; a field written before it was ever read gets
            // its input value now.
            return match object.input_field(field) {
                Some(v) => {
                    let v = v.clone();
                    pop(&mut st);
                    push_next(st, v)
                }
                None => materialize(cx, st, obj, field, ty),
            };
        }
        match object.field(field) {
            None => internal(st, format!("no field `{field}`"), Some(span)),
            Some(Some(v)) => {
                let v = v.clone();
                pop(&mut st);
                push_next(st, v)
            }
            Some(None) => materialize(cx, st, obj, field, ty),
        }
    }

    fn write_field(&self, cx: &mut Cx, st: State, field: &str, node: NodeId, span: Span) -> Succ {
        let Some(recv) = peek(&st, 1) else { return internal(st, "empty stack", None) };
        let what = format!("writing field `{field}` of null");
        let (mut st, obj) = match deref(cx, st, recv, node, span, &what) {
            Ok(found) => found,
            Err(succ) => return *succ,
        };
        let Some(v) = pop(&mut st) else { return internal(st, "empty stack", None) };
        pop(&mut st);
        let Some(object) = st.heap.get_mut(obj) else {
            return internal(st, "dangling object", Some(span));
        };
        match object.fields.iter_mut().find(|(f, _)| f == field) {
            Some(slot) => slot.1 = Some(v),
            None => return internal(st, format!("no field `{field}`"), Some(span)),
        }
        next(st)
    }

    fn allocate(&self, st: &mut State, class: &str, fields: Vec<(String, SValue)>) -> SValue {
        SValue::Obj(st.heap.push(Object {
            class: class.to_string(),
            origin: Origin::New,
            fields: fields.into_iter().map(|(f, v)| (f, Some(v))).collect(),
            input: Vec::new(),
            array: None,
        }))
    }

    fn equal(&self, cx: &mut Cx, st: State, a: &SValue, b: &SValue) -> Then<(State, bool)> {
        match ref_equal(&st, a, b) {
            RefEq::Decided(x) => Then::Go((st, x)),
            RefEq::Resolve(v) => Then::Done(resolve(cx, st, v)),
        }
    }

    fn decided_equal(&self, st: &State, a: &SValue, b: &SValue) -> Option<bool> {
        match ref_equal(st, a, b) {
            RefEq::Decided(x) => Some(x),
            RefEq::Resolve(_) => None,
        }
    }

    fn null_test(&self, cx: &mut Cx, st: State, v: &SValue) -> Then<(State, bool)> {
        match st.normalize(v) {
            SValue::Null => Then::Go((st, true)),
            SValue::SymRef(_) => Then::Done(resolve(cx, st, v.clone())),
            _ => Then::Go((st, false)),
        }
    }

    fn points_to(&self, cx: &mut Cx, mut st: State, class: &str, span: Span) -> Succ {
        let Some(r) = peek(&st, 0) else { return internal(st, "empty stack", None) };
        let discarded = PathOutcome::Discarded { span, precondition: true };
        match st.normalize(&r) {
            SValue::Null => Succ::End(st, discarded),
            SValue::SymRef(_) | SValue::SymLoc(_) => resolve(cx, st, r),
            SValue::Obj(o) => {
                let ok = st.heap.get(o).is_some_and(|ob| ob.class == class);
                if !ok || st.footprint.contains(&o) {
                    return Succ::End(st, discarded);
                }
                st.footprint.insert(o);
                next(st)
            }
            _ => internal(st, "points-to of a non-reference", Some(span)),
        }
    }

    fn has_arrays(&self) -> bool {
        true
    }

    fn array_access(&self, cx: &mut Cx, st: State, store: bool, node: NodeId, span: Span) -> Succ {
        super::arrays::access(cx, st, store, node, span)
    }

    fn array_length(&self, cx: &mut Cx, st: State, node: NodeId, span: Span) -> Succ {
        super::arrays::length(cx, st, node, span)
    }

    fn allocate_array(
        &self,
        st: &mut State,
        class: &str,
        len: Sym,
        cells: Option<Vec<SValue>>,
    ) -> Option<SValue> {
        Some(super::arrays::allocate(st, class, len, cells))
    }

    fn concretize(
        &self,
        code: &Compiled,
        st: &State,
        model: &Model,
        returned: Option<&SValue>,
    ) -> ConcreteInput {
        super::concrete::concretize(code, st, model, returned)
    }
}

/// Dereferences the value `recv` (on the stack). `Ok` with the object when it is one;
/// otherwise the successors (null dereference, or the resolution forks to re-execute).
pub(super) fn deref(
    cx: &mut Cx,
    st: State,
    recv: SValue,
    node: NodeId,
    span: Span,
    what: &str,
) -> std::result::Result<(State, ObjIdx), Box<Succ>> {
    let strategy = cx.strategy;
    let st = match strategy.first_access(cx, st, &recv) {
        Then::Done(succ) => return Err(Box::new(succ)),
        Then::Go(st) => st,
    };
    match st.normalize(&recv) {
        SValue::Obj(o) => Ok((st, o)),
        SValue::Null => Err(Box::new(cx.null_deref(st, node, span, what))),
        SValue::SymRef(_) | SValue::SymLoc(_) => Err(Box::new(resolve(cx, st, recv))),
        _ => Err(Box::new(internal(st, "dereference of a non-reference", Some(span)))),
    }
}

/// Resolves one abstract value (Kiasan's init-sym-ref* / init-sym-loc*); the children
/// re-execute the same instruction.
fn resolve(cx: &mut Cx, st: State, v: SValue) -> Succ {
    let strategy = cx.strategy;
    let st = match strategy.first_access(cx, st, &v) {
        Then::Done(succ) => return succ,
        Then::Go(st) => st,
    };
    match st.normalize(&v) {
        SValue::SymRef(r) => resolve_ref(cx, st, r),
        SValue::SymLoc(l) => resolve_loc(cx, st, l),
        _ => Succ::Continue(st),
    }
}

/// δ̂ `r` becomes null or a new symbolic location.
fn resolve_ref(cx: &mut Cx, st: State, r: u32) -> Succ {
    let Some(info) = st.symrefs.get(r as usize).cloned() else {
        return internal(st, "unknown symbolic reference", None);
    };
    let mut null = st.clone();
    if let Some(i) = null.symrefs.get_mut(r as usize) {
        i.resolved = Some(RefResolution::Null);
    }
    null.link_order_keys();
    let mut loc = st.clone();
    let SValue::SymLoc(l) = loc.new_symloc(&info.class, info.budget) else {
        return internal(st, "symbolic location", None);
    };
    if let Some(i) = loc.symrefs.get_mut(r as usize) {
        i.resolved = Some(RefResolution::Loc(l));
    }
    loc.link_order_keys();
    let target = format!("ref{r}");
    let kids = vec![
        (null, (format!("{target} = null"), "null".to_string())),
        (loc, (format!("{target} = loc{l}"), format!("loc{l}"))),
    ];
    let (mut kids, options) = unzip_labels(cx.strategy.prune_resolutions(cx, kids));
    if kids.len() < 2 {
        return match kids.pop() {
            Some((s, _)) => Succ::Continue(s),
            None => {
                Succ::End(st, PathOutcome::Discarded { span: Span::default(), precondition: true })
            }
        };
    }
    Succ::Fork(cx.choice(&st, target, kids, options, ForkKind::Resolve, false))
}

/// δ `l` becomes each input object of its class, or a fresh one within the k bound.
fn resolve_loc(cx: &mut Cx, st: State, l: u32) -> Succ {
    let Some(info) = st.symlocs.get(l as usize).cloned() else {
        return internal(st, "unknown symbolic location", None);
    };
    let mut kids: Vec<(State, Labels)> = Vec::new();
    for o in st.alias_candidates(&info.class) {
        let mut s = st.clone();
        if let Some(i) = s.symlocs.get_mut(l as usize) {
            i.resolved = Some(o);
        }
        s.link_order_keys();
        let name = State::obj_name(o);
        kids.push((s, (format!("loc{l} = {name}"), name)));
    }
    let k_cut = info.budget < 0;
    let fields = || cx.code.classes.get(&info.class).cloned().unwrap_or_default();
    if !k_cut {
        let mut s = st.clone();
        let o = s.new_input_object(&info.class, &fields(), info.budget);
        if let Some(i) = s.symlocs.get_mut(l as usize) {
            i.resolved = Some(o);
        }
        s.link_order_keys();
        let name = State::obj_name(o);
        kids.push((s, (format!("loc{l} = fresh {name}"), format!("fresh {name}"))));
    } else {
        // No fresh object here, but one an unresolved input reference of the class may still
        // denote within its own budget: that reference becomes a fresh object, and `l` it.
        for (s, o, whose) in adopt_pending(cx, &st, l, &info.class, &fields()) {
            let name = State::obj_name(o);
            kids.push((s, (format!("loc{l} = fresh {name} = {whose}"), format!("{whose} {name}"))));
        }
    }
    if k_cut {
        for (k, _) in &mut kids {
            k.k_cut = true;
        }
    }
    if k_cut && !kids.is_empty() {
        // Children the strategy drops below; the cut still happened.
        cx.sink.stats().k_cut = true;
    }
    let before = kids.len();
    let (mut kids, options) = unzip_labels(cx.strategy.prune_resolutions(cx, kids));
    if before > 0 && kids.is_empty() {
        return Succ::End(st, PathOutcome::Discarded { span: Span::default(), precondition: true });
    }
    if kids.is_empty() {
        let mut st = st;
        st.k_cut = true;
        return Succ::End(st, PathOutcome::Bounded { bound: Bound::K, span: None });
    }
    if kids.len() == 1 {
        if let Some((s, _)) = kids.pop() {
            return Succ::Continue(s);
        }
    }
    Succ::Fork(cx.choice(&st, format!("loc{l}"), kids, options, ForkKind::Resolve, k_cut))
}

/// The children of [`HeapStrategy::k_cut_adopts`] for symbolic location `l` of `class` (cut by
/// k): one per input root (the receiver or an argument) of that class that is still an
/// unresolved symbolic reference or location, whose budget allows a fresh object, and that the
/// strategy lets `l` adopt. In each, the root denotes a new input object with its budget, and
/// `l` denotes the same object. Returns (child, the object, the root's name).
///
/// [`HeapStrategy::k_cut_adopts`]: crate::symbolic::strategy::HeapStrategy::k_cut_adopts
fn adopt_pending(
    cx: &Cx,
    st: &State,
    l: u32,
    class: &str,
    fields: &[(String, SlotType)],
) -> Vec<(State, ObjIdx, String)> {
    let mut pending: Vec<(SValue, i64)> = Vec::new();
    for root in &st.roots {
        let v = st.normalize(root);
        let info = match &v {
            SValue::SymRef(r) => st.symrefs.get(*r as usize).map(|i| (&i.class, i.budget)),
            SValue::SymLoc(m) if *m != l => {
                st.symlocs.get(*m as usize).map(|i| (&i.class, i.budget))
            }
            _ => None,
        };
        let Some(budget) = info.filter(|(c, b)| *c == class && *b >= 0).map(|(_, b)| b) else {
            continue;
        };
        if !pending.iter().any(|(p, _)| p == &v) {
            pending.push((v, budget));
        }
    }
    let mut out = Vec::new();
    for (v, budget) in pending {
        if !cx.strategy.k_cut_adopts(cx.code, st, &v) {
            continue;
        }
        let mut s = st.clone();
        let o = s.new_input_object(class, fields, budget);
        let name = match v {
            SValue::SymRef(r) => {
                if let Some(i) = s.symrefs.get_mut(r as usize) {
                    i.resolved = Some(RefResolution::Loc(l));
                }
                format!("ref{r}")
            }
            SValue::SymLoc(m) => {
                if let Some(i) = s.symlocs.get_mut(m as usize) {
                    i.resolved = Some(o);
                }
                format!("loc{m}")
            }
            _ => continue,
        };
        if let Some(i) = s.symlocs.get_mut(l as usize) {
            i.resolved = Some(o);
        }
        s.link_order_keys();
        out.push((s, o, name));
    }
    out
}

fn unzip_labels(kids: Vec<(State, Labels)>) -> (Vec<(State, String)>, Vec<String>) {
    kids.into_iter().map(|(s, (label, option))| ((s, label), option)).unzip()
}

/// The budget a reference read from an input object (a field or an array cell) is drawn
/// from: the object's own, except that a built-in `Comparable` element has no reference fields,
/// so it cannot lengthen a chain and does not spend the k budget (Kiasan keeps elements in a
/// region of their own; its counts have fresh elements in the deepest nodes and cells).
pub(super) fn element_budget(class: &str, budget: i64) -> i64 {
    match class {
        heaplab_syntax::builtin::COMPARABLE => budget.max(1),
        _ => budget,
    }
}

/// First read of field `field` of input object `obj` (the receiver is on the stack).
fn materialize(cx: &mut Cx, mut st: State, obj: ObjIdx, field: &str, ty: &SlotType) -> Succ {
    let budget = match st.heap.get(obj).map(|o| o.origin) {
        Some(Origin::Input { budget }) => budget,
        _ => 0,
    };
    let set = |s: &mut State, v: SValue| {
        if let Some(o) = s.heap.get_mut(obj) {
            // A field the program wrote before reading it keeps the written value; only its
            // input value is recorded (formulas read the input).
            if let Some(slot) = o.fields.iter_mut().find(|(f, _)| f == field) {
                if slot.1.is_none() {
                    slot.1 = Some(v.clone());
                }
            }
            o.input.push((field.to_string(), v.clone()));
        }
        s.materializations += 1;
        pop(s);
        push_next_raw(s, v);
    };
    match ty {
        SlotType::Class(c) => {
            let budget = element_budget(c, budget);
            let opts = cx.strategy.options(&st, c, budget - 1);
            let target = format!("{}.{field}", State::obj_name(obj));
            lazy_fork(cx, st, opts, c, budget - 1, target, &set)
        }
        other => {
            let origin = VarOrigin::Field { obj, field: field.to_string() };
            let Some(v) = st.fresh_primitive(other, origin) else {
                return internal(st, format!("field `{field}` has no type"), None);
            };
            set(&mut st, v);
            Succ::Continue(st)
        }
    }
}

/// Applies each strategy option in its own child; `apply` stores the value.
fn lazy_fork(
    cx: &mut Cx,
    st: State,
    opts: Options,
    class: &str,
    budget: i64,
    target: String,
    apply: &dyn Fn(&mut State, SValue),
) -> Succ {
    let mut kids = Vec::new();
    let mut labels = Vec::new();
    for choice in &opts.choices {
        let mut s = st.clone();
        let (v, label) = apply_choice(cx, &mut s, *choice, class, budget);
        if opts.k_cut {
            s.k_cut = true;
        }
        apply(&mut s, v);
        labels.push(label.clone());
        kids.push((s, format!("{target} = {label}")));
    }
    if kids.len() == 1 {
        if let Some((s, _)) = kids.pop() {
            return Succ::Continue(s);
        }
    }
    if kids.is_empty() {
        return Succ::End(st, PathOutcome::Bounded { bound: Bound::K, span: None });
    }
    Succ::Fork(cx.choice(&st, target, kids, labels, ForkKind::LazyInit, opts.k_cut))
}

/// Applies a strategy choice for an unknown reference of `class` whose new object would get
/// budget `budget`; returns the value and its label.
pub(super) fn apply_choice(
    cx: &Cx,
    st: &mut State,
    choice: Choice,
    class: &str,
    budget: i64,
) -> (SValue, String) {
    match choice {
        Choice::Null => (SValue::Null, "null".into()),
        Choice::Alias(o) => (SValue::Obj(o), State::obj_name(o)),
        Choice::Fresh => {
            let fields = cx.code.classes.get(class).cloned().unwrap_or_default();
            let o = st.new_input_object(class, &fields, budget);
            (SValue::Obj(o), format!("fresh {}", State::obj_name(o)))
        }
        Choice::SymLoc => {
            let v = st.new_symloc(class, budget);
            let label = st.show(&v);
            (v, label)
        }
        Choice::SymRef => {
            let v = st.new_symref(class, budget);
            let label = st.show(&v);
            (v, label)
        }
    }
}

/// Reference equality, or which abstract value must be resolved first (digest §8 item 6).
fn ref_equal(st: &State, a: &SValue, b: &SValue) -> RefEq {
    let (a, b) = (st.normalize(a), st.normalize(b));
    use SValue::*;
    match (&a, &b) {
        (Null, Null) => RefEq::Decided(true),
        (Obj(x), Obj(y)) => RefEq::Decided(x == y),
        (Null, Obj(_)) | (Obj(_), Null) => RefEq::Decided(false),
        (SymRef(x), SymRef(y)) if x == y => RefEq::Decided(true),
        (SymLoc(x), SymLoc(y)) if x == y => RefEq::Decided(true),
        (SymRef(_), _) => RefEq::Resolve(a),
        (_, SymRef(_)) => RefEq::Resolve(b),
        (SymLoc(_), Null) | (Null, SymLoc(_)) => RefEq::Decided(false),
        (SymLoc(_), Obj(o)) | (Obj(o), SymLoc(_))
            if st.heap.get(*o).is_some_and(|ob| !ob.is_input()) =>
        {
            RefEq::Decided(false)
        }
        (SymLoc(_), _) => RefEq::Resolve(a),
        (_, SymLoc(_)) => RefEq::Resolve(b),
        _ => RefEq::Decided(false),
    }
}
