//! What one step of the executor works with, and the two interfaces it calls.
//!
//! [`Cx`] is one step's view of the run; a step ends in a [`Succ`] (or, inside a hook, a
//! [`Then`]) and reports to a [`Sink`] the driver lends. The executor asks the heap model
//! ([`HeapModel`], `heap/`) about references and objects, and the running strategy
//! ([`HeapStrategy`], `strategy/`) through its option table and hooks. They live in one module
//! because they name one another (a hook takes a `Cx`, a `Cx` holds the model and the strategy):
//! the executor, every heap model and every strategy depend on this module and on nothing of
//! each other's.

use super::code::{Compiled, Instr, SlotType, UnitId};
use super::config::{Config, Deadline};
use super::disjuncts::DisjunctTexts;
use super::events::{ChoiceKey, Event, Label, RunStats, ViewAt};
use super::exec::answers::Answers;
use super::outcome::PathOutcome;
use super::solve::{Model, PathSolver};
use super::state::{ObjIdx, SValue, State, StateId};
use super::strategy::StrategyInfo;
use super::term::Sym;
use crate::interp::{Heap, ObjId, Value};
use heaplab_syntax::ast::NodeId;
use heaplab_syntax::Span;
use std::any::Any;
use std::rc::Rc;

/// What became of a state after one instruction.
pub enum Succ {
    /// The same path goes on.
    Continue(State),
    /// Successor states, in the order a depth-first search explores them.
    Fork(Vec<State>),
    /// The path ended.
    End(State, PathOutcome),
}

/// What a strategy hook or a heap operation did with the state it was handed.
// `T` is a state (or a state with an answer), as large as `Succ`: the lint sees a generic `T`.
#[allow(clippy::large_enum_variant)]
pub enum Then<T> {
    /// Go on with this: the state handed back (with the answer, for a heap question).
    Go(T),
    /// The step is over: these are its successors (the instruction runs again in them).
    Done(Succ),
}

/// Where the executor reports what a step did; the search driver implements it (a second
/// driver, such as a concolic loop, implements it its own way).
pub trait Sink {
    /// A new node of the exploration tree.
    fn node(&mut self, parent: Option<StateId>, label: Label) -> StateId;
    /// The labels of a lazy-initialization child: its node's (`o1.left = fresh o2`) and its
    /// option's (`fresh o2`; empty unless `option` asks for it), written by `make` unless the
    /// sink has them for `key` already.
    fn choice_label(
        &mut self,
        _key: ChoiceKey,
        _field: &str,
        _option: bool,
        make: &mut dyn FnMut() -> (String, String),
    ) -> (Label, String) {
        let (label, option) = make();
        (Label::Text(label), option)
    }
    /// The label of the child that takes the `i`-th (0-based) disjunct of a formula
    /// (`disjunct 2`).
    fn disjunct_label(&mut self, i: usize) -> Label {
        Label::Text(format!("disjunct {}", i + 1))
    }
    fn event(&mut self, event: Event);
    /// Keeps a view of `st` if views are being recorded and the limit allows.
    fn snapshot(&mut self, st: &State, at: ViewAt);
    /// [`snapshot`](Self::snapshot) of a state its caller is done with: a kept view takes the
    /// state itself rather than a copy.
    fn snapshot_owned(&mut self, st: State, at: ViewAt) {
        self.snapshot(&st, at);
    }
    /// Keeps a view of `st` whatever the limit (the forks at entry, before anyone can ask).
    fn keep_view(&mut self, st: &State, at: ViewAt);
    fn stats(&mut self) -> &mut RunStats;
    /// Branch directions or disjuncts of `st` that cannot hold (counted with the infeasible
    /// paths).
    fn pruned(&mut self, _st: &State, directions: u64) {
        self.stats().infeasible += directions;
    }
    /// A path ended for good: count it, name it, keep it.
    fn record(&mut self, st: State, outcome: PathOutcome);
    /// A state to run later (created while a path was ending).
    fn push(&mut self, st: State);
    /// True once the run is being stopped by a bound.
    fn stopped(&self) -> bool;
    /// Whether tree nodes and forking events carry labels (`o1.left = null`, a branch's
    /// condition): off where nobody reads the tree, since writing them at every fork was a
    /// twentieth of a `lazy` run. Default: on.
    fn labels(&self) -> bool {
        true
    }
    /// Whether events should carry their text (formulas, models): off where nobody reads it,
    /// since formatting a whole formula at every fork cost `sl` a fifth of its time.
    fn detailed(&self) -> bool {
        true
    }
    /// [`detailed`](Self::detailed) for an event of state `st`: a front end that keeps views of
    /// the first states only (the page: 5,000) reads their events' texts only there too, and
    /// writing each fork's disjuncts as formulas past them was a tenth of a `lazy` TreeMap `put`
    /// run in the page.
    fn detailed_at(&self, _st: StateId) -> bool {
        self.detailed()
    }
    /// Whether a `Disjuncts` event of state `st` carries its cases' formulas: where
    /// [`detailed_at`](Self::detailed_at), unless the front end shows a case's formula with
    /// its node's view instead (the page's Run).
    fn case_formulas_at(&self, st: StateId) -> bool {
        self.detailed_at(st)
    }
    /// Whether a solver-query event carries the query as text: only a front end that shows
    /// single steps reads it, and writing it in source names at every question cost a
    /// `lazier#` run a twentieth of its time. Default: when [`detailed`](Self::detailed).
    fn query_text(&self) -> bool {
        self.detailed()
    }
    /// Where the run keeps the disjunct formulas it wrote (none: each fork writes its own).
    fn disjunct_texts(&mut self) -> Option<&mut DisjunctTexts> {
        None
    }
}

/// One step's view of the run: what the executor, the heap model and the strategy hooks may use.
pub struct Cx<'a> {
    pub code: &'a Compiled,
    pub config: &'a Config,
    pub method: UnitId,
    pub solver: &'a mut dyn PathSolver,
    pub strategy: &'a dyn HeapStrategy,
    pub heap: &'a dyn HeapModel,
    pub sink: &'a mut dyn Sink,
    /// When the run's time bound passes.
    pub deadline: &'a Deadline,
    /// Feasibility answers known without the solver.
    pub answers: &'a mut Answers,
    /// Set when an asynchronous solver has not answered: the driver undoes the step.
    pub pending: bool,
    /// Whether the driver can undo this step (it kept the state as it was before). A step the
    /// driver judged to ask nothing cannot be undone: an answer it still lacked counts as
    /// unknown there (the branch is kept), never as lost work.
    pub undoable: bool,
    /// The state as it was before the step, handed back by a step that asked before changing
    /// anything and is undone ([`Asks::First`](super::exec::Asks::First)).
    pub retry: Option<State>,
}

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

    /// Whether the operations of this model that `instr` calls may ask the solver (an
    /// asynchronous solver's explorer snapshots a state before such a step, to undo it when
    /// the answer is not there yet; see [`Instr::executor_may_ask`]). Default: every
    /// instruction that calls into the model with the step's context may.
    fn may_ask(&self, instr: &Instr) -> bool {
        instr.calls_heap_model()
    }

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
        Succ::End(st, PathOutcome::Internal { message: NO_ARRAYS.into(), span: Some(span) })
    }

    /// `ArrayLength`: the array reference on top of the stack becomes its length.
    fn array_length(&self, _cx: &mut Cx, st: State, _node: NodeId, span: Span) -> Succ {
        Succ::End(st, PathOutcome::Internal { message: NO_ARRAYS.into(), span: Some(span) })
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

    /// [`Instr::Separate`]: the existential in local `slot`, just bound, will be claimed unless
    /// it is null; false when it cannot be (the path ends on the precondition). Models whose
    /// references are not yet objects when bound keep every path.
    fn separate(&self, _st: &mut State, _slot: usize, _reserve: bool) -> bool {
        true
    }

    /// [`Instr::Release`]: the existential in local `slot` is about to be claimed by the one
    /// atom that owns it, inside which another existential may be the same object: its
    /// reservation ends.
    fn release(&self, _st: &mut State, _slot: usize) {}

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
    /// whose negation blocks every world with that shape (the all-heaps mode, [`worlds`](super::heap::worlds));
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

/// A value an unknown reference may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Null,
    /// An existing input object.
    Alias(ObjIdx),
    /// A fresh input object (allowed only when the budget is not negative).
    Fresh,
    /// A fresh symbolic location δ (non-null, identity open).
    SymLoc,
    /// A fresh symbolic reference δ̂ (null-ness and identity open).
    SymRef,
}

/// What a strategy answers for one unknown reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub choices: Vec<Choice>,
    /// The k bound removed the [`Choice::Fresh`] option.
    pub k_cut: bool,
}

/// Labels of a resolution child: (tree label, option text).
pub type Labels = (String, String);

/// What a strategy does with a path that ended (see [`HeapStrategy::path_end`]).
pub enum PathEnd {
    /// Record the path with this outcome.
    Record(State, PathOutcome),
    /// The solver has not answered yet; the step is undone and runs again.
    Pending,
    /// The path goes on before it ends (the states to run next).
    Continue(Succ),
}

/// A heap strategy (see the module docs). Hooks take `&self`: a strategy's per-run data, if any,
/// sits behind interior mutability and is saved and restored with [`save`](Self::save) /
/// [`restore`](Self::restore) when a step is undone.
pub trait HeapStrategy {
    fn info(&self) -> &'static StrategyInfo;

    /// The options for an unknown reference of `class` whose object would get chain budget
    /// `budget` (a fresh object needs `budget >= 0`). The lazy-family heap model asks this; a
    /// strategy over a heap model of its own may list no choices.
    fn options(&self, state: &State, class: &str, budget: i64) -> Options;

    /// The heap model the strategy runs over (`heap::lazy::LazyHeap` for the lazy family).
    fn heap_model(&self) -> Rc<dyn HeapModel>;

    /// The program accesses (dereferences, compares, null-tests) the reference `v`. `Done` when
    /// the strategy takes the step over (the access runs again later); `Go` gives the state
    /// back for the heap model.
    fn first_access(&self, _cx: &mut Cx, st: State, _v: &SValue) -> Then<State> {
        Then::Go(st)
    }

    /// Drops resolution children the instruction that asked for them would end at once.
    fn prune_resolutions(&self, _cx: &mut Cx, kids: Vec<(State, Labels)>) -> Vec<(State, Labels)> {
        kids
    }

    /// At a symbolic location the k bound denies a fresh object: may it instead denote a fresh
    /// object that `pending`, an input root of its class (the receiver or an argument) still
    /// unresolved (a symbolic reference or location whose budget allows one), is made to denote?
    /// Lazy initialization resolves the roots before the method runs, so such an alias is among
    /// its choices; a strategy that resolves them later (lazier#'s symbolic references) meets
    /// the cut location first and would miss it.
    fn k_cut_adopts(&self, _code: &Compiled, _st: &State, _pending: &SValue) -> bool {
        false
    }

    /// True when a field read of an input object must give the field's input value (the
    /// journal) rather than what the program wrote since.
    fn reads_input_heap(&self, _st: &State) -> bool {
        false
    }

    /// A call of `callee` with `nargs` arguments on the stack. `Done` when the strategy executes
    /// it; `Go` gives the state back.
    fn call(&self, _cx: &mut Cx, st: State, _callee: UnitId, _nargs: usize) -> Then<State> {
        Then::Go(st)
    }

    /// A `return` (its value already popped). `Done` when the returning frame was the strategy's.
    fn ret(&self, _cx: &mut Cx, st: State) -> Then<State> {
        Then::Go(st)
    }

    /// Whether the hooks of this strategy may ask the solver in a step of `instr` (where the
    /// heap model and the executor do not: [`HeapModel::may_ask`]), the path's end included.
    /// Default: they never do.
    fn hooks_may_ask(&self, _instr: &Instr) -> bool {
        false
    }

    /// At a `Fork` over `n` disjuncts at `pc`: which may run (`None`: all).
    fn allowed_disjuncts(&self, _st: &mut State, _pc: usize, _n: usize) -> Option<Vec<bool>> {
        None
    }

    /// True when the objects claimed while the precondition ran stay claimed afterwards.
    fn keeps_footprint(&self) -> bool {
        false
    }

    /// A path ended with `outcome` (`stopped`: the run is being stopped by a bound).
    fn path_end(&self, _cx: &mut Cx, st: State, outcome: PathOutcome, _stopped: bool) -> PathEnd {
        PathEnd::Record(st, outcome)
    }

    /// True when a pending state has become pointless and is dropped unexplored.
    fn obsolete(&self, _st: &State) -> bool {
        false
    }

    /// Whether [`obsolete`](Self::obsolete) ever drops a state: then a state may leave the
    /// run without forking or ending a path, and its node's view is the one taken when it was
    /// created.
    fn drops_states(&self) -> bool {
        false
    }

    /// False when the children of a fork of `st` must stay in one shard of a sharded run
    /// (`shard`): when which of them runs depends on how their siblings ended.
    fn splits(&self, _st: &State) -> bool {
        true
    }

    /// The strategy's per-run data, for undoing a step.
    fn save(&self) -> Box<dyn Any> {
        Box::new(())
    }

    fn restore(&self, _saved: Box<dyn Any>) {}
}
