//! The heap model: what a reference is, what an object is, and how the executor's heap
//! operations act on them. The executor asks; the model answers with a value, a decision, or
//! successor states (a fork where the heap is not known enough to answer).
//!
//! [`HeapModel`] is the interface, shaped after the digest of paper 003 §10: read a field,
//! write a field, allocate, compare two references, test for null, claim a cell for a points-to
//! atom, give an unknown reference its values (input roots and existentials), and turn a path's
//! final state into a concrete test input ([`ConcreteInput`]). Its first implementation is the
//! lazy family's heap ([`lazy`]): materialized objects plus Kiasan's symbolic references and
//! locations, with the strategy's option table deciding what an unknown reference may be. A
//! fully symbolic heap (guarded value sets, issue 15) is meant to be a second implementation:
//! nothing outside a model matches on the representation of a reference, and a model's per-path
//! data can live in [`State::ext`](super::state::State::ext) as a strategy's does.
//!
//! Owns: the representation and resolution of references. Never touches: the worklist, the order
//! of states, instructions other than the heap operations, or which strategy is running (a model
//! asks the strategy's option table and hooks, through [`Cx::strategy`]).

mod arrays;
pub mod concrete;
pub mod lazy;
pub mod symheap;
pub mod symheap_arrays;
pub mod worlds;

use super::code::{Compiled, SlotType};
use super::exec::{Cx, Succ, Then};
use super::solve::Model;
use super::state::{SValue, State};
use super::term::Sym;
use crate::interp::{Heap, ObjId, Value};
use heaplab_syntax::ast::NodeId;
use heaplab_syntax::Span;

/// A path's input made concrete: what a test builds, passes and expects.
#[derive(Clone, Debug, PartialEq)]
pub struct ConcreteInput {
    /// The input heap.
    pub heap: Heap,
    /// The input roots' values: `this` (for methods) then the parameters.
    pub roots: Vec<Value>,
    /// The value the path returned, if it returned one.
    pub returned: Option<Value>,
    /// Predicted final field values of every object the path knows (objects created by `new`
    /// carry the ids the interpreter will give them).
    pub final_fields: Vec<(ObjId, String, Value)>,
}

/// What a path ends with when it reaches an array operation under a heap model without arrays
/// (the explorer rejects such a run up front; this is the backstop). Both models have arrays.
pub const NO_ARRAYS: &str = "this strategy's heap model has no arrays";

/// A possible value of an input root: the state in which it has it, the value, and its label.
pub type RootOption = (State, SValue, String);

/// The heap operations of the executor (see the module docs). Operations that may fork take
/// the state by value and return either the answer with the state, or the successors that must
/// run instead (the instruction then runs again in each of them).
pub trait HeapModel {
    /// `this` of the method under test: an input object of `class` with chain budget `budget`.
    fn input_receiver(&self, cx: &mut Cx, st: &mut State, class: &str, budget: i64) -> SValue;

    /// The values an input reference root of `class` may have, and whether the k bound removed
    /// one.
    fn input_root(
        &self,
        cx: &mut Cx,
        st: &State,
        class: &str,
        budget: i64,
    ) -> (Vec<RootOption>, bool);

    /// An unknown reference of `class` (an existential of a formula used before bound):
    /// `apply` stores each possible value in its own successor; `target` names it in events.
    fn unknown_reference(
        &self,
        cx: &mut Cx,
        st: State,
        class: &str,
        budget: i64,
        target: String,
        apply: &dyn Fn(&mut State, SValue),
    ) -> Succ;

    /// `GetField`: the receiver is on top of the stack; replaces it by the field's value.
    fn read_field(
        &self,
        cx: &mut Cx,
        st: State,
        field: &str,
        ty: &SlotType,
        node: NodeId,
        span: Span,
    ) -> Succ;

    /// `PutField`: the value is on top of the stack, the receiver below; pops both.
    fn write_field(&self, cx: &mut Cx, st: State, field: &str, node: NodeId, span: Span) -> Succ;

    /// A new object of `class` with these field values (`new`): never an alias of an input.
    fn allocate(&self, st: &mut State, class: &str, fields: Vec<(String, SValue)>) -> SValue;

    /// True when the model runs the array instructions (both models: the lazy family's heap with
    /// Kiasan's accumulator, `heap/arrays.rs`; `symheap` with its cells under guards,
    /// `heap/symheap_arrays.rs`).
    fn has_arrays(&self) -> bool {
        false
    }

    /// `ArrayLoad` (index on top, array below; `store` false) or `ArrayStore` (the value on
    /// top of those): forks on where the index falls (`heap/arrays.rs`), or only where it is out
    /// of bounds or past the array bound (`heap/symheap_arrays.rs`). A model without
    /// arrays ends the path with an engine error that says so.
    fn array_access(
        &self,
        _cx: &mut Cx,
        st: State,
        _store: bool,
        _node: NodeId,
        span: Span,
    ) -> Succ {
        crate::symbolic::exec::stack::internal(st, NO_ARRAYS, Some(span))
    }

    /// `ArrayLength`: the array reference on top of the stack becomes its length.
    fn array_length(&self, _cx: &mut Cx, st: State, _node: NodeId, span: Span) -> Succ {
        crate::symbolic::exec::stack::internal(st, NO_ARRAYS, Some(span))
    }

    /// A new array of class `class` (`T[]`) and length `len` (`len >= 0` already holds), with
    /// exactly `cells` when given (`new T[]{…}`); `None` when the model has no arrays.
    fn allocate_array(
        &self,
        _st: &mut State,
        _class: &str,
        _len: Sym,
        _cells: Option<Vec<SValue>>,
    ) -> Option<SValue> {
        None
    }

    /// Are two references equal? `Done`: the successors that decide it first.
    fn equal(&self, cx: &mut Cx, st: State, a: &SValue, b: &SValue) -> Then<(State, bool)>;

    /// The answer of [`equal`](Self::equal) when it needs no fork (`None` otherwise).
    fn decided_equal(&self, st: &State, a: &SValue, b: &SValue) -> Option<bool>;

    /// Is `v` null? `Done`: the successors that decide it first.
    fn null_test(&self, cx: &mut Cx, st: State, v: &SValue) -> Then<(State, bool)>;

    /// A points-to atom of class `class` in a formula (the reference on top of the stack):
    /// claims the cell, or discards the path when the cell is null, of another class or
    /// claimed already.
    fn points_to(&self, cx: &mut Cx, st: State, class: &str, span: Span) -> Succ;

    /// True when the model counts the loop bound itself ([`loop_back`](Self::loop_back)):
    /// whether an iteration met a new input slot can differ between the worlds of one path.
    /// Otherwise the executor counts with [`State::materializations`].
    fn counts_loops(&self) -> bool {
        false
    }

    /// The order key of the element `v` for the built-in `compare` (`Instr::OrderKeys`; the
    /// key of `null` already bound to the comparator's `nullKey`), as a term: the comparison
    /// forks only where the program tests its result. `None` for a value that is not an
    /// element. The lazy family reads it without resolving the reference (`State::order_key`).
    fn order_key(&self, _cx: &mut Cx, st: &mut State, v: &SValue) -> Option<Sym> {
        st.order_key(v)
    }

    /// A loop's back edge (the state's pc already at the loop head `head`; `first`: the first
    /// back edge of this loop in this frame), for a model that [`counts_loops`]: the path goes
    /// on, ends as bounded by the loop bound, or forks between the two.
    ///
    /// [`counts_loops`]: Self::counts_loops
    fn loop_back(&self, _cx: &mut Cx, st: State, _head: usize, _first: bool, _span: Span) -> Succ {
        Succ::Continue(st)
    }

    /// The input heap shape of the world `model` of a path's final state `st`, as a condition
    /// whose negation blocks every world with that shape (the all-heaps mode, [`worlds`]);
    /// `None` for a model whose paths each have one input heap (the lazy family).
    fn shape_condition(&self, _code: &Compiled, _st: &State, _model: &Model) -> Option<Sym> {
        None
    }

    /// The concrete input of a path's final state `st` under `model` (values of the state's
    /// variables); `returned` is the value the path returned, if it did.
    fn concretize(
        &self,
        code: &Compiled,
        st: &State,
        model: &Model,
        returned: Option<&SValue>,
    ) -> ConcreteInput;
}
