//! The lazy family's resolution (Kiasan, digest seed-004a §3): dereferencing a value, lazy
//! initialization of an unknown field or reference (one child per option of the strategy's
//! table), and the resolution of Kiasan's abstract values δ̂ / δ (init-sym-ref* /
//! init-sym-loc*). Used by the lazy heap model ([`super::lazy`]) and by its arrays
//! ([`super::arrays`]), which both call into it and into nothing of each other's but the
//! model's dispatch.

use crate::symbolic::code::SlotType;
use crate::symbolic::config::Bound;
use crate::symbolic::events::{ChoiceKey, ForkKind, Label, ViewAt};
use crate::symbolic::exec::stack::{internal, pop, push_next_raw};
use crate::symbolic::exec::{ChoiceEvent, Cx, Succ, Then};
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::show::push_obj_name;
use crate::symbolic::state::{ObjIdx, Origin, PathState, RefResolution, SValue, State, VarOrigin};
use crate::symbolic::strategy::{Choice, Labels, Options};
use heaplab_syntax::ast::NodeId;
use heaplab_syntax::Span;

/// Dereferences the value `recv` (on the stack). `Ok` with the object when it is one;
/// otherwise the successors (null dereference, or the resolution forks to re-execute).
pub(super) fn deref(
    cx: &mut Cx,
    st: State,
    recv: SValue,
    node: NodeId,
    span: Span,
    what: impl FnOnce() -> String,
) -> std::result::Result<(State, ObjIdx), Box<Succ>> {
    let strategy = cx.strategy;
    let st = match strategy.first_access(cx, st, &recv) {
        Then::Done(succ) => return Err(Box::new(succ)),
        Then::Go(st) => st,
    };
    match st.normalize(&recv) {
        SValue::Obj(o) => Ok((st, o)),
        SValue::Null => Err(Box::new(cx.null_deref(st, node, span, &what()))),
        SValue::SymRef(_) | SValue::SymLoc(_) => Err(Box::new(resolve(cx, st, recv))),
        _ => Err(Box::new(internal(st, "dereference of a non-reference", Some(span)))),
    }
}

/// Resolves one abstract value (Kiasan's init-sym-ref* / init-sym-loc*); the children
/// re-execute the same instruction.
pub(super) fn resolve(cx: &mut Cx, st: State, v: SValue) -> Succ {
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
    let target = cx.label(|| format!("ref{r}"));
    let kids = vec![
        (null, (cx.label(|| format!("{target} = null")), cx.label(|| "null".to_string()))),
        (loc, (cx.label(|| format!("{target} = loc{l}")), cx.label(|| format!("loc{l}")))),
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
    let event = ChoiceEvent { target, options, kind: ForkKind::Resolve, k_cut: false };
    Succ::Fork(cx.choice_owned(st, kids, event))
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
        let name = cx.label(|| PathState::obj_name(o));
        kids.push((s, (cx.label(|| format!("loc{l} = {name}")), name)));
    }
    let k_cut = info.budget < 0;
    let fields = || cx.code.classes.get(&*info.class).cloned().unwrap_or_default();
    if !k_cut {
        let mut s = st.clone();
        let o = s.new_input_object(&info.class, &fields(), info.budget);
        if let Some(i) = s.symlocs.get_mut(l as usize) {
            i.resolved = Some(o);
        }
        s.link_order_keys();
        let name = cx.label(|| PathState::obj_name(o));
        kids.push((
            s,
            (cx.label(|| format!("loc{l} = fresh {name}")), cx.label(|| format!("fresh {name}"))),
        ));
    } else {
        // No fresh object here, but one an unresolved input reference of the class may still
        // denote within its own budget: that reference becomes a fresh object, and `l` it.
        for (s, o, whose) in adopt_pending(cx, &st, l, &info.class, &fields()) {
            let name = PathState::obj_name(o);
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
    let event = ChoiceEvent {
        target: cx.label(|| format!("loc{l}")),
        options,
        kind: ForkKind::Resolve,
        k_cut,
    };
    Succ::Fork(cx.choice_owned(st, kids, event))
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
        let Some(budget) = info.filter(|(c, b)| ***c == *class && *b >= 0).map(|(_, b)| b) else {
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
pub(super) fn materialize(
    cx: &mut Cx,
    mut st: State,
    obj: ObjIdx,
    field: &str,
    ty: &SlotType,
) -> Succ {
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
            let target = cx.label(|| field_target(obj, field));
            let read = Some((obj, field));
            lazy_fork(cx, st, opts, c, budget - 1, target, read, &set)
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

/// `o3.left`: what a lazy initialization of field `field` of input object `obj` chooses (as
/// [`PathState::obj_name`] names the object). Written at every such fork, without the formatting
/// machinery.
fn field_target(obj: ObjIdx, field: &str) -> String {
    let mut target = String::with_capacity(8 + field.len());
    push_obj_name(&mut target, obj);
    target.push('.');
    target.push_str(field);
    target
}

/// Applies each strategy option in its own child; `apply` stores the value. `read`: the
/// object and field whose value the fork chooses, if it is a field's (its children's labels
/// then come from the sink's table, [`Sink::choice_label`]).
///
/// [`Sink::choice_label`]: crate::symbolic::step::Sink::choice_label
#[allow(clippy::too_many_arguments)]
pub(super) fn lazy_fork(
    cx: &mut Cx,
    st: State,
    opts: Options,
    class: &str,
    budget: i64,
    target: String,
    read: Option<(ObjIdx, &str)>,
    apply: &dyn Fn(&mut State, SValue),
) -> Succ {
    let Some((last, rest)) = opts.choices.split_last() else {
        return Succ::End(st, PathOutcome::Bounded { bound: Bound::K, span: None });
    };
    let parent = st.id;
    if !rest.is_empty() {
        // The parent's view first: then the last child takes the state itself instead of a
        // clone of it (a clone and a drop of a whole state fewer per fork, where `lazy` forks
        // at nearly every field it reads).
        cx.sink.snapshot(&st, ViewAt::Fork);
    }
    // The event's option texts only where someone reads them (see `Sink::detailed_at`): `lazy`
    // forks at nearly every field it reads, millions of times in the page's large runs.
    let texts = cx.sink.detailed_at(parent);
    let mut labels = Vec::with_capacity(if texts { opts.choices.len() } else { 0 });
    let mut kids = Vec::with_capacity(opts.choices.len());
    let mut child = |cx: &mut Cx, mut s: State, choice: Choice| {
        let v = choice_value(cx, &mut s, choice, class, budget);
        let (label, option) = match (cx.sink.labels(), read, choice_key(choice, &v)) {
            (false, _, _) => (Label::Text(String::new()), String::new()),
            (true, Some((obj, field)), Some(option)) => {
                let field_at = (field.as_ptr() as usize, field.len());
                let key = ChoiceKey { field: field_at, obj: obj as u32, option };
                cx.sink.choice_label(key, field, texts, &mut || {
                    let option = choice_text(&s, choice, &v);
                    (format!("{target} = {option}"), option)
                })
            }
            (true, _, _) => {
                let option = choice_text(&s, choice, &v);
                (Label::Text(format!("{target} = {option}")), option)
            }
        };
        if opts.k_cut {
            s.k_cut = true;
        }
        apply(&mut s, v);
        kids.push((s, label));
        if texts {
            labels.push(option);
        }
    };
    for choice in rest {
        child(cx, st.clone(), *choice);
    }
    child(cx, st, *last);
    if kids.len() == 1 {
        if let Some((s, _)) = kids.pop() {
            return Succ::Continue(s);
        }
    }
    let event =
        ChoiceEvent { target, options: labels, kind: ForkKind::LazyInit, k_cut: opts.k_cut };
    Succ::Fork(cx.announce_choice(parent, kids, event))
}

/// Applies a strategy choice for an unknown reference of `class` whose new object would get
/// budget `budget`; returns the value and its label (empty where nobody reads labels).
pub(super) fn apply_choice(
    cx: &Cx,
    st: &mut State,
    choice: Choice,
    class: &str,
    budget: i64,
) -> (SValue, String) {
    let v = choice_value(cx, st, choice, class, budget);
    let label = cx.label(|| choice_text(st, choice, &v));
    (v, label)
}

/// The value a strategy choice gives an unknown reference of `class` (a new object, symbolic
/// location or reference gets budget `budget`).
fn choice_value(cx: &Cx, st: &mut State, choice: Choice, class: &str, budget: i64) -> SValue {
    match choice {
        Choice::Null => SValue::Null,
        Choice::Alias(o) => SValue::Obj(o),
        Choice::Fresh => {
            let fields = cx.code.classes.get(class).cloned().unwrap_or_default();
            SValue::Obj(st.new_input_object(class, &fields, budget))
        }
        Choice::SymLoc => st.new_symloc(class, budget),
        Choice::SymRef => st.new_symref(class, budget),
    }
}

/// A choice's option as the tree says it: `null`, `o2`, `fresh o3`, `δ1`.
fn choice_text(st: &State, choice: Choice, v: &SValue) -> String {
    match (choice, v) {
        (Choice::Null, _) => "null".into(),
        (Choice::Alias(o), _) => PathState::obj_name(o),
        (Choice::Fresh, SValue::Obj(o)) => format!("fresh {}", PathState::obj_name(*o)),
        _ => st.show(v),
    }
}

/// What [`choice_text`] says, as a key: which option, and the object it names (`None` for a
/// symbolic value, which the state numbers).
fn choice_key(choice: Choice, v: &SValue) -> Option<(u8, u32)> {
    match (choice, v) {
        (Choice::Null, _) => Some((0, 0)),
        (Choice::Alias(o), _) => Some((1, o as u32)),
        (Choice::Fresh, SValue::Obj(o)) => Some((2, *o as u32)),
        _ => None,
    }
}

/// Reference equality, or which abstract value must be resolved first (digest §8 item 6).
pub(super) enum RefEq {
    Decided(bool),
    Resolve(SValue),
}

/// See [`RefEq`].
pub(super) fn ref_equal(st: &State, a: &SValue, b: &SValue) -> RefEq {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-written target says what `PathState::obj_name` and a format would.
    #[test]
    fn field_targets_name_objects_as_the_state_does() {
        for obj in [0, 1, 8, 9, 10, 98, 99, 12_344, u32::MAX as usize] {
            let expected = format!("{}.left", PathState::obj_name(obj));
            assert_eq!(field_target(obj, "left"), expected);
        }
    }
}
