//! The built-in element classes of Kiasan's object versions (digest seed-004a §4.4): `Comparable`,
//! an element with a hidden order key, and `Comparator`, a total order over elements in which
//! `null` is one more element (its key is the comparator's `nullKey`), as Kiasan's
//! `Comparator.compare` does not require non-null arguments.
//!
//! They are ordinary classes for every pass (checker, interpreter, pretty-printer, JUnit), so the
//! concrete meaning of `c.compare(a, b)` is the body below: -1, 0 or 1 as the keys compare. The
//! symbolic executor compiles a call of the built-in `compare` without running the body: it
//! reads each argument's key without resolving the reference (no null test, no aliasing choice),
//! which is Kiasan's comparison-Id model (`heaplab-engine`, `exec/order.rs`).

use crate::ast::*;
use crate::Span;

/// The element class.
pub const COMPARABLE: &str = "Comparable";
/// The order class.
pub const COMPARATOR: &str = "Comparator";
/// `Comparable`'s order key.
pub const KEY: &str = "key";
/// `Comparator`'s key of `null`.
pub const NULL_KEY: &str = "nullKey";
/// The comparison method.
pub const COMPARE: &str = "compare";

/// `class Comparable { int key; }` and `class Comparator { int nullKey; pure int compare(..) }`,
/// every span `span` (an empty span at the end of the file), node ids from `id`.
pub fn order_classes(span: Span, id: &mut dyn FnMut() -> NodeId) -> Vec<ClassDecl> {
    let ident = |n: &str| Ident { name: n.to_string(), span };
    let class_ty = |n: &str| TypeExpr::Class(ident(n));
    let field = |ty: TypeExpr, n: &str| FieldDecl { ty, name: ident(n), span };
    let comparable = ClassDecl {
        name: ident(COMPARABLE),
        fields: vec![field(TypeExpr::Int(span), KEY)],
        methods: Vec::new(),
        span,
    };
    let mut e = |kind: ExprKind| Expr { id: id(), kind, span };
    // key(v) = v == null ? this.nullKey : v.key
    let key = |v: &str, e: &mut dyn FnMut(ExprKind) -> Expr| {
        let var = e(ExprKind::Var(ident(v)));
        let null = e(ExprKind::Null);
        let cond = e(ExprKind::Binary { op: BinOp::Eq, lhs: Box::new(var), rhs: Box::new(null) });
        let this = e(ExprKind::This);
        let nk = e(ExprKind::Field { object: Box::new(this), field: ident(NULL_KEY) });
        let var = e(ExprKind::Var(ident(v)));
        let k = e(ExprKind::Field { object: Box::new(var), field: ident(KEY) });
        e(ExprKind::Cond { cond: Box::new(cond), then_expr: Box::new(nk), else_expr: Box::new(k) })
    };
    // ka < kb ? -1 : (ka == kb ? 0 : 1)
    let (ka, kb) = (key("a", &mut e), key("b", &mut e));
    let lt = e(ExprKind::Binary { op: BinOp::Lt, lhs: Box::new(ka), rhs: Box::new(kb) });
    let (ka, kb) = (key("a", &mut e), key("b", &mut e));
    let eq = e(ExprKind::Binary { op: BinOp::Eq, lhs: Box::new(ka), rhs: Box::new(kb) });
    let (minus, zero, one) = (e(ExprKind::Int(1)), e(ExprKind::Int(0)), e(ExprKind::Int(1)));
    // `-1` as the parser reads it, so the printed program parses back to the same tree.
    let minus = e(ExprKind::Unary { op: UnOp::Neg, operand: Box::new(minus) });
    let inner = e(ExprKind::Cond {
        cond: Box::new(eq),
        then_expr: Box::new(zero),
        else_expr: Box::new(one),
    });
    let body = e(ExprKind::Cond {
        cond: Box::new(lt),
        then_expr: Box::new(minus),
        else_expr: Box::new(inner),
    });
    let ret = Stmt { id: id(), kind: StmtKind::Return(Some(body)), span };
    let compare = FunctionDecl {
        is_pure: true,
        return_type: TypeExpr::Int(span),
        name: ident(COMPARE),
        params: vec![
            Param { ty: class_ty(COMPARABLE), name: ident("a") },
            Param { ty: class_ty(COMPARABLE), name: ident("b") },
        ],
        requires: Vec::new(),
        ensures: Vec::new(),
        ensures_formulas: Vec::new(),
        body: Block { stmts: vec![ret], span },
        span,
    };
    let comparator = ClassDecl {
        name: ident(COMPARATOR),
        fields: vec![field(TypeExpr::Int(span), NULL_KEY)],
        methods: vec![compare],
        span,
    };
    vec![comparable, comparator]
}

/// True for the built-in `Comparator` (as [`order_classes`] builds it: an empty span), not a
/// class of the user's that happens to have its name.
pub fn is_builtin_comparator(c: &ClassDecl) -> bool {
    c.name.name == COMPARATOR
        && c.span.start == c.span.end
        && c.fields.len() == 1
        && c.fields[0].name.name == NULL_KEY
        && c.methods.len() == 1
        && c.methods[0].name.name == COMPARE
}
