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

use super::resolve::{apply_choice, deref, lazy_fork, materialize, ref_equal, resolve, RefEq};
use super::{ConcreteInput, HeapModel, RootOption};
use crate::symbolic::code::{Compiled, Instr, SlotType};
use crate::symbolic::exec::stack::{internal, next, peek, pop, push_next};
use crate::symbolic::exec::{Cx, Succ, Then};
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::solve::Model;
use crate::symbolic::state::{Object, Origin, SValue, State};
use crate::symbolic::term::Sym;
use heaplab_syntax::ast::NodeId;
use heaplab_syntax::Span;

/// The lazy-family heap (see the module docs).
pub struct LazyHeap;

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
        lazy_fork(cx, st, opts, class, budget, target, None, apply)
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
        // The message is built only for a null receiver: reads are a run's most common step.
        let what = || format!("reading field `{field}` of null");
        let (mut st, obj) = match deref(cx, st, recv, node, span, what) {
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
        let what = || format!("writing field `{field}` of null");
        let (mut st, obj) = match deref(cx, st, recv, node, span, what) {
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
                st.claim(o);
                next(st)
            }
            _ => internal(st, "points-to of a non-reference", Some(span)),
        }
    }

    /// An object claimed already, or reserved by another existential the formula will claim,
    /// cannot be this one (see `code/compile/separate.rs`): the path ends here rather than when
    /// the atom that owns the existential claims it.
    fn separate(&self, st: &mut State, slot: usize, reserve: bool) -> bool {
        let bound = crate::symbolic::exec::stack::local(st, slot).map(|v| st.normalize(&v));
        let Some(SValue::Obj(o)) = bound else { return true };
        if st.footprint.contains(&o) || st.reserved.contains(&o) {
            return false;
        }
        if reserve {
            std::rc::Rc::make_mut(&mut st.reserved).push(o);
        }
        true
    }

    fn release(&self, st: &mut State, slot: usize) {
        let bound = crate::symbolic::exec::stack::local(st, slot).map(|v| st.normalize(&v));
        if let Some(SValue::Obj(o)) = bound {
            if st.reserved.contains(&o) {
                std::rc::Rc::make_mut(&mut st.reserved).retain(|r| *r != o);
            }
        }
    }

    fn has_arrays(&self) -> bool {
        true
    }

    /// Lazy initialization and Kiasan's resolutions fork on the strategy's options and ask
    /// nothing; only where an array index falls does (`heap/arrays.rs`).
    fn may_ask(&self, instr: &Instr) -> bool {
        matches!(
            instr,
            Instr::ArrayLoad { .. } | Instr::ArrayStore { .. } | Instr::ArrayLength { .. }
        )
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
