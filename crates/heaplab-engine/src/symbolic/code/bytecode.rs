//! The bytecode's types: units, instructions, slots and the compiled program.

use heaplab_syntax::ast::{BinOp, ErrorKind, NodeId, TypeExpr, UnOp};
use heaplab_syntax::types::Type;
use heaplab_syntax::Span;
use std::collections::{BTreeSet, HashMap};

/// Index of a [`Unit`] in [`Compiled::units`].
pub type UnitId = usize;

/// A local variable slot of a frame.
pub type Slot = usize;

/// How two operands of `==`/`!=` compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandKind {
    Int,
    Bool,
    Ref,
}

/// A constant pushed by [`Instr::Const`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Const {
    Int(i64),
    Bool(bool),
    Null,
    Void,
}

/// The declared type of a slot or field, reduced to what the explorer needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotType {
    Int,
    Bool,
    Class(String),
    /// `void` or unknown: never materialized.
    Other,
}

impl SlotType {
    pub fn from_type(ty: &Type) -> SlotType {
        match ty {
            Type::Int => SlotType::Int,
            Type::Bool => SlotType::Bool,
            Type::Class(c) => SlotType::Class(c.clone()),
            // An array is a reference to an object of the "class" `T[]` (no fields; its length
            // and cells are the heap model's `ArrayData`).
            Type::Array(_) => SlotType::Class(ty.to_string()),
            _ => SlotType::Other,
        }
    }

    pub fn from_type_expr(ty: &TypeExpr) -> SlotType {
        match ty {
            TypeExpr::Int(_) => SlotType::Int,
            TypeExpr::Bool(_) => SlotType::Bool,
            TypeExpr::Class(id) => SlotType::Class(id.name.clone()),
            TypeExpr::Array { .. } => SlotType::Class(heaplab_syntax::pretty::type_expr(ty)),
            TypeExpr::Void(_) => SlotType::Other,
        }
    }

    /// The element type of the array class `class` (`int[]` → `Int`); `None` for a class.
    pub fn array_elem(class: &str) -> Option<SlotType> {
        Some(match class.strip_suffix("[]")? {
            "int" => SlotType::Int,
            "bool" => SlotType::Bool,
            c => SlotType::Class(c.to_string()),
        })
    }
}

/// One instruction. `node`/`span` fields say which source construct an outcome is blamed on.
#[derive(Clone, Debug, PartialEq)]
pub enum Instr {
    Const(Const),
    Load(Slot),
    /// In a formula: load an existential variable, first binding it to a fresh symbolic value of
    /// the slot's type if nothing bound it yet.
    LoadOrFresh(Slot),
    Store(Slot),
    /// In a formula: pop a value; bind the existential `slot` to it if unbound, otherwise assume
    /// that it equals the bound value.
    BindOrAssumeEq {
        slot: Slot,
        kind: OperandKind,
        span: Span,
    },
    Pop,
    Dup,
    /// Pop a reference, push the value of `field` (lazy initialization happens here).
    GetField {
        class: String,
        field: String,
        ty: SlotType,
        node: NodeId,
        span: Span,
    },
    /// Pop a value, then a reference; store.
    PutField {
        class: String,
        field: String,
        node: NodeId,
        span: Span,
    },
    /// Pop one value per name in `inits` (last name on top), allocate.
    New {
        class: String,
        inits: Vec<String>,
    },
    /// Pop an index, then an array reference; push the cell's value (Kiasan's IALOAD-S: out of
    /// bounds, one of the accessed cells, or a new distinct cell within the array bound).
    ArrayLoad {
        node: NodeId,
        span: Span,
    },
    /// Pop a value, an index, then an array reference; store (IASTORE-S).
    ArrayStore {
        node: NodeId,
        span: Span,
    },
    /// Pop an array reference; push its length.
    ArrayLength {
        node: NodeId,
        span: Span,
    },
    /// Pop a length; push a new array of `class` (`T[]`) with default cells, or end the path
    /// with `negative_array_size` (ANEWARRAY-S). With `count`, pop that many values instead
    /// (`new T[]{…}`, last on top): an array of exactly those cells.
    NewArray {
        class: String,
        count: Option<usize>,
        node: NodeId,
        span: Span,
    },
    Unary {
        op: UnOp,
        node: NodeId,
        span: Span,
    },
    /// Arithmetic, comparison or equality (never `&&`/`||`, which compile to branches).
    Binary {
        op: BinOp,
        kind: OperandKind,
        node: NodeId,
        span: Span,
    },
    Jump(usize),
    /// Pop a bool; fall through when true, jump to `target` when false. `site` is the source
    /// branch (for coverage) or `None` for branches the compiler made up (formulas).
    BranchFalse {
        target: usize,
        site: Option<NodeId>,
    },
    /// The back edge of a `while` loop (the loop-iteration bound is checked here).
    LoopBack {
        head: usize,
        node: NodeId,
        span: Span,
    },
    /// Call `unit` with `nargs` arguments on the stack (the receiver first when `receiver`).
    Call {
        unit: UnitId,
        nargs: usize,
        receiver: bool,
        node: NodeId,
        span: Span,
    },
    /// The built-in `Comparator.compare` (see `heaplab_syntax::builtin`): pop `b`, `a` and the
    /// comparator's `nullKey`, push the order keys of `a` and `b` (no reference is resolved).
    OrderKeys {
        span: Span,
    },
    /// Pop the return value and return to the caller.
    Ret,
    /// Pop a bool; false ends the path with `kind` (assert or ensures failure).
    Check {
        kind: ErrorKind,
        node: NodeId,
        span: Span,
    },
    /// Pop a bool; false discards the path (an `assume`, or a precondition that does not hold).
    Assume {
        span: Span,
        precondition: bool,
    },
    /// `throw new X`: pops the exception object and continues at the innermost [`Handler`] for
    /// class `X` whose range holds the throw (or, in a caller's frame, the call); with none,
    /// ends the path with [`ErrorKind::Exception`].
    Throw {
        class: String,
        node: NodeId,
        span: Span,
    },
    /// Continue at each target in a separate path (the disjuncts of a formula).
    Fork(Vec<usize>),
    /// In a formula: pop a reference that must point to an object of `class` not yet claimed by
    /// the separating conjunction; claim it and push it back.
    PointsTo {
        class: String,
        span: Span,
    },
    /// In a formula, after the first binding of an existential that the separating conjunction
    /// will claim unless it is null (`compile/separate.rs`): an object already claimed or
    /// reserved cannot be it, and ends the path; otherwise `reserve` reserves the object for
    /// it. Only the lazy family's heap model, whose references are objects, acts on it.
    Separate {
        slot: Slot,
        reserve: bool,
        span: Span,
    },
    /// In a formula, before the one atom that claims the existential in `slot`: release the
    /// existential's reservation (inside that atom another existential may be the same object).
    Release {
        slot: Slot,
    },
    /// A function that must return a value ran off its end.
    MissingReturn {
        span: Span,
    },
    /// Something the compiler could not translate (a program the checker should reject).
    Invalid {
        message: String,
        span: Span,
    },
    /// Driver only: the precondition has been established; forget its footprint.
    PreDone,
    /// Driver only: pop the value the method under test returned; the path is complete.
    Halt,
}

/// What a unit of code is.
impl Instr {
    /// Whether executing it only moves values between the stack, the locals and the program
    /// counter: it never asks the solver, and a path it ends (the step bound, an internal
    /// error) is never one a strategy completes with the solver. An asynchronous solver's
    /// explorer takes no undo snapshot for such a step (a snapshot is a whole state's clone).
    pub fn asks_nothing(&self) -> bool {
        matches!(
            self,
            Instr::Const(_)
                | Instr::Load(_)
                | Instr::Store(_)
                | Instr::Pop
                | Instr::Dup
                | Instr::Jump(_)
        )
    }

    /// Whether the executor's own semantics of it may ask the solver: a condition's
    /// feasibility (a branch, an assumption, a check, a binding) or an arithmetic guard (a
    /// divisor, an overflow, an array's size). What the heap model and the strategy's hooks
    /// ask is theirs to say ([`HeapModel::may_ask`], [`HeapStrategy::hooks_may_ask`]).
    ///
    /// [`HeapModel::may_ask`]: crate::symbolic::step::HeapModel::may_ask
    /// [`HeapStrategy::hooks_may_ask`]: crate::symbolic::strategy::HeapStrategy::hooks_may_ask
    pub fn executor_may_ask(&self) -> bool {
        match self {
            Instr::BranchFalse { .. }
            | Instr::Assume { .. }
            | Instr::Check { .. }
            | Instr::BindOrAssumeEq { .. }
            | Instr::NewArray { .. }
            | Instr::Unary { .. } => true,
            // Comparisons build a condition and ask nothing; a reference comparison is the
            // heap model's.
            Instr::Binary { op, kind, .. } => *kind != OperandKind::Ref && guarded(*op),
            _ => false,
        }
    }

    /// Whether a step of it may end the path as returned or with a runtime error (a path a
    /// strategy may complete with the solver): all but the instructions that only move values,
    /// decide a condition, allocate, return to a caller, count a loop, fork disjuncts or end
    /// with a bound or a discarded path.
    pub fn may_end_feasibly(&self) -> bool {
        match self {
            i if i.asks_nothing() => false,
            Instr::BranchFalse { .. }
            | Instr::Assume { .. }
            | Instr::BindOrAssumeEq { .. }
            | Instr::New { .. }
            | Instr::Ret
            | Instr::LoopBack { .. }
            | Instr::Fork(_)
            | Instr::PreDone
            | Instr::LoadOrFresh(_)
            | Instr::OrderKeys { .. }
            | Instr::Separate { .. }
            | Instr::Release { .. }
            | Instr::MissingReturn { .. }
            | Instr::Invalid { .. } => false,
            Instr::Binary { op, .. } => guarded(*op),
            _ => true,
        }
    }

    /// Whether it calls into the heap model with the step's context (where a model may ask the
    /// solver): field and array accesses, reference comparisons, a call's receiver test, an
    /// existential's first use, a points-to claim, order keys, a loop's back edge.
    pub fn calls_heap_model(&self) -> bool {
        match self {
            Instr::GetField { .. }
            | Instr::PutField { .. }
            | Instr::ArrayLoad { .. }
            | Instr::ArrayStore { .. }
            | Instr::ArrayLength { .. }
            | Instr::LoadOrFresh(_)
            | Instr::PointsTo { .. }
            | Instr::Separate { .. }
            | Instr::OrderKeys { .. }
            | Instr::LoopBack { .. }
            | Instr::Call { .. } => true,
            Instr::Binary { kind, .. } | Instr::BindOrAssumeEq { kind, .. } => {
                *kind == OperandKind::Ref
            }
            _ => false,
        }
    }
}

/// The operators whose result is guarded (a divisor, an overflow): they may ask the solver and
/// end a path with a runtime error.
fn guarded(op: BinOp) -> bool {
    matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::Shl)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// A method (`class` is `Some`) or a top-level function.
    Function { class: Option<String>, name: String },
    /// A separation-logic predicate (its disjuncts are a `Fork`).
    Predicate { name: String },
    /// The `requires` clauses of a function, as code over its parameters.
    Requires { class: Option<String>, name: String },
}

/// One `catch (X e)` clause: a `throw` of class `X` at a pc in `start..end` (the `try` body's
/// code, calls in it included) stores the exception in `slot` and continues at `target`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handler {
    pub start: usize,
    pub end: usize,
    pub class: String,
    pub slot: Slot,
    pub target: usize,
}

/// Straight-line code for one function, predicate or precondition.
#[derive(Clone, Debug)]
pub struct Unit {
    pub kind: UnitKind,
    /// Parameters, `this` first for methods. Their slots are `0..params.len()`.
    pub params: Vec<(String, SlotType)>,
    /// The type of every slot (parameters, locals, existentials, hidden `old`/`result` slots).
    pub slot_types: Vec<SlotType>,
    /// The source name of every slot (empty for hidden ones), so a symbolic value made for an
    /// existential can be shown as `lo` rather than a slot number.
    pub slot_names: Vec<String>,
    pub code: Vec<Instr>,
    /// Beside `code`: the source construct each instruction was compiled from (the innermost
    /// statement, expression or formula atom), so that an event, a tree node or an error can
    /// say its line. May be shorter than `code` (a unit built by hand); read with
    /// [`Unit::span_at`].
    pub spans: Vec<Span>,
    pub returns: SlotType,
    pub span: Span,
    /// Source branch sites (`if`, `while`, `?:`, `&&`, `||`) in this unit.
    pub branch_sites: Vec<NodeId>,
    /// Units this one may call.
    pub callees: BTreeSet<UnitId>,
    /// The `catch` clauses of the unit, innermost `try` first.
    pub handlers: Vec<Handler>,
    /// Where the `ensures` clauses are checked (every return jumps there), if the unit has any.
    pub ensures_at: Option<usize>,
}

impl Unit {
    /// The source span of the instruction at `pc`, if the unit has one.
    pub fn span_at(&self, pc: usize) -> Option<Span> {
        self.spans.get(pc).copied()
    }

    /// `Class.method`, `function`, `pred p` or `requires of Class.method`.
    pub fn display_name(&self) -> String {
        match &self.kind {
            UnitKind::Function { class: Some(c), name } => format!("{c}.{name}"),
            UnitKind::Function { class: None, name } => name.clone(),
            UnitKind::Predicate { name } => format!("pred {name}"),
            UnitKind::Requires { class: Some(c), name } => format!("requires of {c}.{name}"),
            UnitKind::Requires { class: None, name } => format!("requires of {name}"),
        }
    }
}

/// A whole program in bytecode form.
#[derive(Clone, Debug, Default)]
pub struct Compiled {
    pub units: Vec<Unit>,
    /// `(class, method)` or `(None, function)` → function unit.
    pub functions: HashMap<(Option<String>, String), UnitId>,
    /// Function unit → its `requires` unit (only when it has `requires` clauses).
    pub requires: HashMap<UnitId, UnitId>,
    pub predicates: HashMap<String, UnitId>,
    /// Every class with its fields (name, type) in declaration order.
    pub classes: HashMap<String, Vec<(String, SlotType)>>,
    /// The predicates as the logic reads them (predicates whose body does not convert are left
    /// out), for the `sl` strategy's `enum` rule over their least fixed point.
    pub defs: heaplab_logic::Defs,
    /// The program's integer semantics.
    pub ints: heaplab_syntax::ast::Ints,
    /// The program's `Comparator` is the built-in one, whose `compare` compiles to
    /// [`Instr::OrderKeys`].
    pub builtin_comparator: bool,
    /// Disjuncts that differ only in pure facts were compiled as one (see
    /// `compile::compile_merging`); `sl`'s code keeps one fork target per written disjunct.
    pub merged_disjuncts: bool,
    /// Per predicate, the parameters it claims whenever they are not null (the merged code's
    /// [`Instr::Separate`] checks rest on them).
    pub owned_params: HashMap<String, Vec<bool>>,
}

impl Compiled {
    /// Looks up `Class.method` or `function`.
    pub fn function(&self, class: Option<&str>, name: &str) -> Option<UnitId> {
        self.functions.get(&(class.map(str::to_string), name.to_string())).copied()
    }

    /// The declared type of a field.
    pub fn field_type(&self, class: &str, field: &str) -> Option<&SlotType> {
        self.classes.get(class)?.iter().find(|(f, _)| f == field).map(|(_, t)| t)
    }

    /// Whether code reachable from `root` (its precondition included) touches an array; the
    /// strategies whose heap model has none reject such a run up front.
    pub fn uses_arrays(&self, root: UnitId) -> bool {
        let mut roots = vec![root];
        roots.extend(self.requires.get(&root).copied());
        roots.iter().flat_map(|r| self.reachable(*r)).any(|u| {
            self.units.get(u).is_some_and(|unit| {
                unit.code.iter().any(|i| {
                    matches!(
                        i,
                        Instr::ArrayLoad { .. }
                            | Instr::ArrayStore { .. }
                            | Instr::ArrayLength { .. }
                            | Instr::NewArray { .. }
                    )
                })
            })
        })
    }

    /// Every unit reachable from `root` through calls (including `root`).
    pub fn reachable(&self, root: UnitId) -> BTreeSet<UnitId> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![root];
        while let Some(u) = todo.pop() {
            if !seen.insert(u) {
                continue;
            }
            if let Some(unit) = self.units.get(u) {
                todo.extend(unit.callees.iter().copied());
            }
        }
        seen
    }
}

impl OperandKind {
    /// `null == x`: the non-null side decides the comparison kind.
    pub(super) fn max_with(self, other: OperandKind) -> OperandKind {
        match (self, other) {
            (OperandKind::Int, _) | (_, OperandKind::Int) => OperandKind::Int,
            (OperandKind::Bool, _) | (_, OperandKind::Bool) => OperandKind::Bool,
            _ => OperandKind::Ref,
        }
    }
}
