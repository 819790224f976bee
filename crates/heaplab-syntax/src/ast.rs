//! The abstract syntax tree of a HeapLab program (`.hl`). See `docs/language.md` for the grammar.
//!
//! Trees are plain values: no interner, no solver handles, no side tables. Every expression and
//! statement carries a `NodeId` that is unique within one parsed program, so later passes (the type
//! checker's `TypeTable`, coverage, the symbolic executor) can attach facts to nodes without
//! mutating the tree. Spans are byte offsets into the one source file the program came from.

use crate::span::Span;

/// Identifies one expression or statement within a program. Assigned by the parser in source
/// order; unique per `Program`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// A name with the span where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A whole source file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    pub items: Vec<Item>,
    /// The integer semantics, from a top-level `ints java32;` / `ints java64;` (default
    /// [`Ints::Checked`]).
    pub ints: Ints,
}

impl Program {
    /// Every method (`Class.method`) and top-level function (`name`) in source order: the
    /// names a run can start from.
    pub fn targets(&self) -> Vec<String> {
        let mut out = Vec::new();
        for item in &self.items {
            match item {
                Item::Class(c) => {
                    out.extend(c.methods.iter().map(|m| format!("{}.{}", c.name.name, m.name.name)))
                }
                Item::Function(f) => out.push(f.name.name.clone()),
                _ => {}
            }
        }
        out
    }

    /// The [`targets`](Self::targets) that have a `requires`, in source order: the methods
    /// the bench, the CSF table and the coverage tests run.
    pub fn targets_with_requires(&self) -> Vec<String> {
        let mut out = Vec::new();
        for item in &self.items {
            match item {
                Item::Class(c) => out.extend(
                    c.methods
                        .iter()
                        .filter(|m| !m.requires.is_empty())
                        .map(|m| format!("{}.{}", c.name.name, m.name.name)),
                ),
                Item::Function(f) if !f.requires.is_empty() => out.push(f.name.name.clone()),
                _ => {}
            }
        }
        out
    }
}

/// What `int` arithmetic means. The default, `checked`, is HeapLab's: 64-bit, and leaving the
/// range is the `integer_overflow` error. `java64` and `java32` wrap as Java's `long` and `int`
/// do (two's complement), so Java subjects compare one to one; under `java32` every `int` value,
/// input or literal, is in the 32-bit range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ints {
    #[default]
    Checked,
    Java32,
    Java64,
}

impl Ints {
    pub const ALL: [Ints; 3] = [Ints::Checked, Ints::Java32, Ints::Java64];

    pub fn keyword(self) -> &'static str {
        match self {
            Ints::Checked => "checked",
            Ints::Java32 => "java32",
            Ints::Java64 => "java64",
        }
    }

    pub fn from_keyword(s: &str) -> Option<Ints> {
        Ints::ALL.into_iter().find(|i| i.keyword() == s)
    }

    /// The width of a wrapping semantics; `None` for `checked`.
    pub fn wrap_bits(self) -> Option<u32> {
        match self {
            Ints::Checked => None,
            Ints::Java32 => Some(32),
            Ints::Java64 => Some(64),
        }
    }

    /// `v` wrapped to this semantics' width (unchanged under `checked`).
    pub fn wrap(self, v: i128) -> i64 {
        match self {
            Ints::Java32 => v as i32 as i64,
            _ => v as i64,
        }
    }

    /// The smallest and largest `int`.
    pub fn range(self) -> (i64, i64) {
        match self {
            Ints::Java32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
            _ => (i64::MIN, i64::MAX),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Class(ClassDecl),
    /// A top-level function (`pure` or not).
    Function(FunctionDecl),
    Predicate(PredicateDecl),
    Test(TestDecl),
}

/// `class C { fields; methods }`. No inheritance.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassDecl {
    pub name: Ident,
    pub fields: Vec<FieldDecl>,
    pub methods: Vec<FunctionDecl>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FieldDecl {
    pub ty: TypeExpr,
    pub name: Ident,
    pub span: Span,
}

/// A type as written in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeExpr {
    Int(Span),
    Bool(Span),
    /// Only as a return type.
    Void(Span),
    /// A class name (resolved by the checker).
    Class(Ident),
    /// `T[]`: an array of `T` (`int[]`, `bool[]`, `C[]`). `span` covers the whole type.
    Array {
        elem: Box<TypeExpr>,
        span: Span,
    },
}

impl TypeExpr {
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Int(s) | TypeExpr::Bool(s) | TypeExpr::Void(s) => *s,
            TypeExpr::Class(id) => id.span,
            TypeExpr::Array { span, .. } => *span,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub ty: TypeExpr,
    pub name: Ident,
}

/// A method (inside a class; has receiver `this`) or a top-level function.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    /// `pure`: no side effects on the heap, no allocation, no loops needed; callable from
    /// specifications (`ensures`, `assert`).
    pub is_pure: bool,
    pub return_type: TypeExpr,
    pub name: Ident,
    pub params: Vec<Param>,
    /// `requires F` clauses, in order; each is a separation-logic formula. Several are
    /// conjoined with `*`.
    pub requires: Vec<Formula>,
    /// `ensures e` clauses, in order; each is an executable boolean expression that may use
    /// `result` and `old(e)`.
    pub ensures: Vec<Expr>,
    /// `ensures F` clauses whose `F` is a separation-logic formula (`bst(this.root, lo, hi)`,
    /// `exists …`, a points-to): checked on the final heap by the logic's model checker. They
    /// may use `result`, not `old`.
    pub ensures_formulas: Vec<Formula>,
    pub body: Block,
    pub span: Span,
}

/// `pred p(T1 x1, ...) := F;`
#[derive(Clone, Debug, PartialEq)]
pub struct PredicateDecl {
    pub name: Ident,
    pub params: Vec<Param>,
    pub body: Formula,
    pub span: Span,
}

/// What a `test` block expects: normal completion, or a specific runtime error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Expectation {
    /// Completes without a runtime error (every `assert` in it holds).
    Pass,
    /// Ends with this runtime error (`test t expects null_dereference { ... }`).
    Error(ErrorKind),
}

/// The runtime errors a HeapLab program can end with. They are path outcomes, never crashes.
/// The keyword after `expects` in a test is the `keyword()` of one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ErrorKind {
    NullDereference,
    DivisionByZero,
    /// An `assert` statement whose condition was false.
    AssertFailed,
    /// An `ensures` clause that was false on return.
    EnsuresFailed,
    /// A `requires` clause that did not hold at a call (checked where the runtime can).
    RequiresFailed,
    /// An `int` operation left the i64 range.
    IntegerOverflow,
    /// The step, call-depth or loop limit was exhausted.
    BoundExhausted,
    /// `throw new X` reached the method's caller: no enclosing `catch (X e)` caught it.
    Exception,
    /// `a[i]` with `i < 0` or `i >= a.length` (Java's `ArrayIndexOutOfBoundsException`).
    IndexOutOfBounds,
    /// `new T[n]` with `n < 0` (Java's `NegativeArraySizeException`).
    NegativeArraySize,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 10] = [
        ErrorKind::NullDereference,
        ErrorKind::DivisionByZero,
        ErrorKind::AssertFailed,
        ErrorKind::EnsuresFailed,
        ErrorKind::RequiresFailed,
        ErrorKind::IntegerOverflow,
        ErrorKind::BoundExhausted,
        ErrorKind::Exception,
        ErrorKind::IndexOutOfBounds,
        ErrorKind::NegativeArraySize,
    ];

    /// The spelling used after `expects` in a test block.
    pub fn keyword(self) -> &'static str {
        match self {
            ErrorKind::NullDereference => "null_dereference",
            ErrorKind::DivisionByZero => "division_by_zero",
            ErrorKind::AssertFailed => "assert_failed",
            ErrorKind::EnsuresFailed => "ensures_failed",
            ErrorKind::RequiresFailed => "requires_failed",
            ErrorKind::IntegerOverflow => "integer_overflow",
            ErrorKind::BoundExhausted => "bound_exhausted",
            ErrorKind::Exception => "exception",
            ErrorKind::IndexOutOfBounds => "index_out_of_bounds",
            ErrorKind::NegativeArraySize => "negative_array_size",
        }
    }

    pub fn from_keyword(s: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.keyword() == s)
    }
}

/// `test name { ... }`, `test name expects KIND { ... }` or, for an error-revealing test,
/// `test name expects bug KIND { ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct TestDecl {
    pub name: Ident,
    pub expect: Expectation,
    /// `expects bug KIND`: the error is a bug the test reveals (a valid input breaking a
    /// contract), not behaviour to keep; `heaplab test` reports it as a found bug while it
    /// still occurs. Always `false` with [`Expectation::Pass`].
    pub bug: bool,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub id: NodeId,
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `T x;` or `T x = e;` (a missing initializer means the type's default: 0, false, null).
    Local {
        ty: TypeExpr,
        name: Ident,
        init: Option<Expr>,
    },
    /// `x = e;`
    Assign {
        target: Ident,
        value: Expr,
    },
    /// `e.f = v;`
    FieldStore {
        object: Expr,
        field: Ident,
        value: Expr,
    },
    /// `a[i] = v;`: a bounds-checked store into an array cell.
    IndexStore {
        array: Expr,
        index: Expr,
        value: Expr,
    },
    /// An expression evaluated for its effect, e.g. a call.
    Expr(Expr),
    If {
        cond: Expr,
        then_branch: Block,
        else_branch: Option<Block>,
    },
    While {
        cond: Expr,
        body: Block,
    },
    Return(Option<Expr>),
    /// `throw new X;`: unwinds to the innermost enclosing `catch (X e)` (in this function or a
    /// caller); with none, ends the run with [`ErrorKind::Exception`] naming class `X`.
    Throw(Expr),
    /// `try { body } catch (X e) { … } …`: an exception of class `X` thrown while `body` runs
    /// (directly or in a call) continues in the first clause naming `X`, with `e` bound to it.
    Try {
        body: Block,
        catches: Vec<Catch>,
    },
    Break,
    Continue,
    Assert(Expr),
    /// `assume e;` — paths where `e` is false are discarded (in the interpreter: the run stops
    /// with outcome "assumption violated", which is not an error of the program).
    Assume(Expr),
    Block(Block),
}

/// One `catch (X e) { … }` clause of a `try` statement. HeapLab has no class hierarchy, so a
/// clause catches exactly the exceptions of class `X`.
#[derive(Clone, Debug, PartialEq)]
pub struct Catch {
    pub class: Ident,
    pub name: Ident,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub id: NodeId,
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    And,
    Or,
    /// `x << c`: `x * 2^c`, overflow checked like `*`; `c` is a constant in 0..=62.
    Shl,
    /// `x >> c`: arithmetic shift, `x / 2^c` rounded toward negative infinity (Java's `>>`).
    Shr,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Null,
    This,
    /// `result` in an `ensures` clause.
    Result,
    /// A local variable, parameter, or (in formulas) a bound/existential variable.
    Var(Ident),
    /// `e.f`; on an array, `e.length` is its length (the checker's types tell which).
    Field {
        object: Box<Expr>,
        field: Ident,
    },
    /// `a[i]`: a bounds-checked read of an array cell.
    Index {
        array: Box<Expr>,
        index: Box<Expr>,
    },
    /// `new T[n]`: a fresh array of `n` cells holding `T`'s default (0, false, null).
    NewArray {
        elem: TypeExpr,
        len: Box<Expr>,
    },
    /// `new T[]{e1, ..., en}`: a fresh array of `n` cells holding the values (generated tests
    /// use it to build array inputs).
    ArrayLit {
        elem: TypeExpr,
        elems: Vec<Expr>,
    },
    Unary {
        op: UnOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `c ? a : b`
    Cond {
        cond: Box<Expr>,
        then_expr: Box<Expr>,
        else_expr: Box<Expr>,
    },
    /// `f(args)`: a top-level function, or inside a class a method of `this` (methods first).
    Call {
        callee: Ident,
        args: Vec<Expr>,
    },
    /// `e.m(args)`
    MethodCall {
        receiver: Box<Expr>,
        method: Ident,
        args: Vec<Expr>,
    },
    /// `new C` or `new C { f: e, ... }` (unlisted fields get their defaults).
    New {
        class: Ident,
        fields: Vec<FieldInit>,
    },
    /// `old(e)` in an `ensures` clause: `e` evaluated in the entry state.
    Old(Box<Expr>),
    /// `_` inside a formula's points-to: an anonymous existential.
    Wildcard,
}

impl ExprKind {
    /// The direct subexpressions, left to right (the one place that knows each kind's
    /// children, for the walks that only need to reach every expression).
    pub fn children(&self) -> Vec<&Expr> {
        match self {
            ExprKind::Field { object, .. } => vec![object],
            ExprKind::Index { array, index } => vec![array, index],
            ExprKind::NewArray { len, .. } => vec![len],
            ExprKind::ArrayLit { elems, .. } => elems.iter().collect(),
            ExprKind::Unary { operand, .. } => vec![operand],
            ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
            ExprKind::Cond { cond, then_expr, else_expr } => vec![cond, then_expr, else_expr],
            ExprKind::Call { args, .. } => args.iter().collect(),
            ExprKind::MethodCall { receiver, args, .. } => {
                std::iter::once(&**receiver).chain(args).collect()
            }
            ExprKind::New { fields, .. } => fields.iter().map(|f| &f.value).collect(),
            ExprKind::Old(inner) => vec![inner],
            ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Null
            | ExprKind::This
            | ExprKind::Result
            | ExprKind::Var(_)
            | ExprKind::Wildcard => Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct FieldInit {
    pub field: Ident,
    pub value: Expr,
}

/// A separation-logic formula: a disjunction of symbolic heaps.
#[derive(Clone, Debug, PartialEq)]
pub struct Formula {
    pub disjuncts: Vec<SymbolicHeap>,
    pub span: Span,
}

impl Formula {
    /// An `ensures` formula's pure conjuncts that use `old(…)`, split off as `ensures`
    /// expressions, and the rest (`None` when nothing is left): `ensures list(this.head,
    /// this.size) & this.size == old(this.size) + 1` is the formula `list(…)`, checked on the
    /// final heap, and the expression `this.size == old(this.size) + 1`, checked against the
    /// entry state, as if written as two clauses. Only a formula of one disjunct without
    /// existentials is split (elsewhere such a conjunct could use a bound variable, and the
    /// checker's error about `old` in a formula stands).
    pub fn split_old(mut self) -> (Option<Formula>, Vec<Expr>) {
        let [heap] = self.disjuncts.as_mut_slice() else { return (Some(self), Vec::new()) };
        if !heap.exists.is_empty() {
            return (Some(self), Vec::new());
        }
        let mut exprs = Vec::new();
        heap.atoms.retain(|atom| match atom {
            Atom::Pure(e) if e.mentions_old() => {
                exprs.push(e.clone());
                false
            }
            _ => true,
        });
        let rest = (!heap.atoms.is_empty()).then_some(self);
        (rest, exprs)
    }
}

impl Expr {
    /// Whether `old(…)` occurs in this expression.
    pub fn mentions_old(&self) -> bool {
        matches!(self.kind, ExprKind::Old(_))
            || self.kind.children().iter().any(|c| c.mentions_old())
    }
}

/// `exists T v, ... . a1 * a2 & p1 ...`: existentials, spatial atoms and pure facts.
/// `*` and `&` both conjoin; the parser keeps the atoms in source order.
#[derive(Clone, Debug, PartialEq)]
pub struct SymbolicHeap {
    pub exists: Vec<Param>,
    pub atoms: Vec<Atom>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Atom {
    Emp(Span),
    /// `e -> C { f: e, ... }`: `e` points to an object of class `C`. Unlisted fields are
    /// unconstrained; a `_` value is an anonymous existential.
    PointsTo {
        pointer: Expr,
        class: Ident,
        fields: Vec<FieldInit>,
        span: Span,
    },
    /// `p(args)`: an instance of a user-defined predicate.
    Pred {
        name: Ident,
        args: Vec<Expr>,
        span: Span,
    },
    /// A boolean expression over ints and references (`x == null`, `lo < k`, ...).
    Pure(Expr),
}

impl Atom {
    pub fn span(&self) -> Span {
        match self {
            Atom::Emp(s) => *s,
            Atom::PointsTo { span, .. } | Atom::Pred { span, .. } => *span,
            Atom::Pure(e) => e.span,
        }
    }
}
