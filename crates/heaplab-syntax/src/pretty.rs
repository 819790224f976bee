//! The pretty-printer: canonical HeapLab text for a tree.
//!
//! Why: the CLI and the page show programs, specifications and counterexamples as source text,
//! and the parser tests snapshot the printed tree. The output is canonical (2-space indent,
//! braces around every branch, minimal parentheses by precedence), and printing is the inverse
//! of parsing up to spans and ids: `parse(program(parse(src)))` is `parse(src)` modulo spans and
//! ids, which the parser tests check on every example and test file.
//!
//! Formulas lose whether atoms were joined by `*` or `&`; the printer writes `*` between spatial
//! atoms and `&` next to a pure one. In a formula, a multiplication prints as `*` only when its left
//! operand is an integer literal (as the parser reads it) and as `#` otherwise.

use crate::ast::*;

/// A whole program, items separated by blank lines, ending with a newline.
pub fn program(p: &Program) -> String {
    let mut items: Vec<String> = p.items.iter().map(item).collect();
    if p.ints != Ints::Checked {
        items.insert(0, format!("ints {};\n", p.ints.keyword()));
    }
    let mut out = items.join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// One item (class, function, predicate, test), ending with a newline.
pub fn item(it: &Item) -> String {
    let mut out = String::new();
    match it {
        Item::Class(c) => class(&mut out, c),
        Item::Function(f) => function(&mut out, f, 0),
        Item::Predicate(p) => predicate(&mut out, p),
        Item::Test(t) => {
            out.push_str("test ");
            out.push_str(&t.name.name);
            if let Expectation::Error(kind) = t.expect {
                out.push_str(if t.bug { " expects bug " } else { " expects " });
                out.push_str(kind.keyword());
            }
            out.push(' ');
            block(&mut out, &t.body, 0);
        }
    }
    out.push('\n');
    out
}

/// An expression in ordinary (executable) context.
pub fn expr(e: &Expr) -> String {
    let mut out = String::new();
    write_expr(&mut out, e, 0, Ctx::Code);
    out
}

/// A separation-logic formula on one line.
pub fn formula(f: &Formula) -> String {
    let heaps: Vec<String> = f.disjuncts.iter().map(heap).collect();
    heaps.join(" | ")
}

/// One symbolic heap (a disjunct of a formula).
pub fn heap(h: &SymbolicHeap) -> String {
    let mut out = String::new();
    if !h.exists.is_empty() {
        out.push_str("exists ");
        out.push_str(&params(&h.exists));
        out.push_str(". ");
    }
    if h.atoms.is_empty() {
        out.push_str("emp");
    }
    let mut prev_pure = false;
    for (i, a) in h.atoms.iter().enumerate() {
        let pure = matches!(a, Atom::Pure(_));
        if i > 0 {
            // `&` next to a pure fact: a `*` after one could read as a multiplication
            // (`k < 2 * x -> C {}`).
            out.push_str(if pure || prev_pure { " & " } else { " * " });
        }
        atom(&mut out, a);
        prev_pure = pure;
    }
    out
}

/// A statement at indentation 0 (nested blocks are indented by two spaces per level), without
/// a trailing newline.
pub fn stmt(s: &Stmt) -> String {
    let mut out = String::new();
    write_stmt(&mut out, s, 0);
    out
}

/// A type as written.
pub fn type_expr(t: &TypeExpr) -> String {
    match t {
        TypeExpr::Int(_) => "int".to_string(),
        TypeExpr::Bool(_) => "bool".to_string(),
        TypeExpr::Void(_) => "void".to_string(),
        TypeExpr::Class(id) => id.name.clone(),
        TypeExpr::Array { elem, .. } => format!("{}[]", type_expr(elem)),
    }
}

// ---- Items ----------------------------------------------------------------------------------

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

fn params(ps: &[Param]) -> String {
    let ps: Vec<String> =
        ps.iter().map(|p| format!("{} {}", type_expr(&p.ty), p.name.name)).collect();
    ps.join(", ")
}

fn class(out: &mut String, c: &ClassDecl) {
    out.push_str("class ");
    out.push_str(&c.name.name);
    if c.fields.is_empty() && c.methods.is_empty() {
        out.push_str(" {}");
        return;
    }
    out.push_str(" {\n");
    for f in &c.fields {
        indent(out, 1);
        out.push_str(&format!("{} {};\n", type_expr(&f.ty), f.name.name));
    }
    for (i, m) in c.methods.iter().enumerate() {
        if i > 0 || !c.fields.is_empty() {
            out.push('\n');
        }
        indent(out, 1);
        function(out, m, 1);
        out.push('\n');
    }
    out.push('}');
}

/// A function at `level` (the caller has written the indentation of the first line).
fn function(out: &mut String, f: &FunctionDecl, level: usize) {
    if f.is_pure {
        out.push_str("pure ");
    }
    out.push_str(&format!("{} {}({})", type_expr(&f.return_type), f.name.name, params(&f.params)));
    if f.requires.is_empty() && f.ensures.is_empty() && f.ensures_formulas.is_empty() {
        out.push(' ');
    } else {
        for r in &f.requires {
            out.push('\n');
            indent(out, level + 1);
            out.push_str("requires ");
            out.push_str(&formula(r));
        }
        for e in &f.ensures {
            out.push('\n');
            indent(out, level + 1);
            out.push_str("ensures ");
            out.push_str(&expr(e));
        }
        for f in &f.ensures_formulas {
            out.push('\n');
            indent(out, level + 1);
            out.push_str("ensures ");
            out.push_str(&formula(f));
        }
        out.push('\n');
        indent(out, level);
    }
    block(out, &f.body, level);
}

fn predicate(out: &mut String, p: &PredicateDecl) {
    out.push_str(&format!("pred {}({}) :=", p.name.name, params(&p.params)));
    if p.body.disjuncts.len() <= 1 {
        out.push(' ');
        out.push_str(&formula(&p.body));
    } else {
        for (i, h) in p.body.disjuncts.iter().enumerate() {
            out.push_str(if i == 0 { "\n    " } else { "\n  | " });
            out.push_str(&heap(h));
        }
    }
    out.push(';');
}

// ---- Statements -----------------------------------------------------------------------------

/// A block whose `{` goes where the caller is; its `}` is indented at `level`.
fn block(out: &mut String, b: &Block, level: usize) {
    if b.stmts.is_empty() {
        out.push_str("{}");
        return;
    }
    out.push_str("{\n");
    for s in &b.stmts {
        indent(out, level + 1);
        write_stmt(out, s, level + 1);
        out.push('\n');
    }
    indent(out, level);
    out.push('}');
}

/// A statement whose first line's indentation the caller has written.
fn write_stmt(out: &mut String, s: &Stmt, level: usize) {
    match &s.kind {
        StmtKind::Local { ty, name, init } => {
            out.push_str(&type_expr(ty));
            out.push(' ');
            out.push_str(&name.name);
            if let Some(e) = init {
                out.push_str(" = ");
                out.push_str(&expr(e));
            }
            out.push(';');
        }
        StmtKind::Assign { target, value } => {
            out.push_str(&format!("{} = {};", target.name, expr(value)));
        }
        StmtKind::FieldStore { object, field, value } => {
            write_expr(out, object, PREC_POSTFIX, Ctx::Code);
            out.push_str(&format!(".{} = {};", field.name, expr(value)));
        }
        StmtKind::IndexStore { array, index, value } => {
            write_expr(out, array, PREC_POSTFIX, Ctx::Code);
            out.push_str(&format!("[{}] = {};", expr(index), expr(value)));
        }
        StmtKind::Expr(e) => {
            out.push_str(&expr(e));
            out.push(';');
        }
        StmtKind::If { cond, then_branch, else_branch } => {
            out.push_str(&format!("if ({}) ", expr(cond)));
            block(out, then_branch, level);
            if let Some(else_branch) = else_branch {
                out.push_str(" else ");
                match else_branch.stmts.as_slice() {
                    [only @ Stmt { kind: StmtKind::If { .. }, .. }] => write_stmt(out, only, level),
                    _ => block(out, else_branch, level),
                }
            }
        }
        StmtKind::While { cond, body } => {
            out.push_str(&format!("while ({}) ", expr(cond)));
            block(out, body, level);
        }
        StmtKind::Return(None) => out.push_str("return;"),
        StmtKind::Throw(e) => out.push_str(&format!("throw {};", expr(e))),
        StmtKind::Try { body, catches } => {
            out.push_str("try ");
            block(out, body, level);
            for c in catches {
                out.push_str(&format!(" catch ({} {}) ", c.class.name, c.name.name));
                block(out, &c.body, level);
            }
        }
        StmtKind::Return(Some(e)) => out.push_str(&format!("return {};", expr(e))),
        StmtKind::Break => out.push_str("break;"),
        StmtKind::Continue => out.push_str("continue;"),
        StmtKind::Assert(e) => out.push_str(&format!("assert {};", expr(e))),
        StmtKind::Assume(e) => out.push_str(&format!("assume {};", expr(e))),
        StmtKind::Block(b) => block(out, b, level),
    }
}

// ---- Expressions and atoms -------------------------------------------------------------------

/// Where an expression is printed: ordinary code, or inside a formula (where `*` between
/// non-literal operands would read as the separating conjunction).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Code,
    Formula,
}

const PREC_COND: u8 = 0;
const PREC_REL: u8 = 4;
const PREC_UNARY: u8 = 8;
const PREC_POSTFIX: u8 = 9;

fn binop_prec(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 1,
        BinOp::And => 2,
        BinOp::Eq | BinOp::Ne => 3,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => PREC_REL,
        BinOp::Shl | BinOp::Shr => 5,
        BinOp::Add | BinOp::Sub => 6,
        BinOp::Mul | BinOp::Div | BinOp::Mod => 7,
    }
}

fn expr_prec(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Cond { .. } => PREC_COND,
        ExprKind::Binary { op, .. } => binop_prec(*op),
        ExprKind::Unary { .. } => PREC_UNARY,
        // `new T[n]` cannot be indexed or dotted without parentheses.
        ExprKind::NewArray { .. } | ExprKind::ArrayLit { .. } => PREC_UNARY,
        ExprKind::Int(n) if *n < 0 => PREC_UNARY,
        _ => PREC_POSTFIX,
    }
}

/// Whether the parser reads this as an integer literal (so `lit * e` is a multiplication even
/// in a formula).
fn prints_as_literal(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Int(n) if n >= 0 || n == i64::MIN)
}

fn write_args(out: &mut String, args: &[Expr], ctx: Ctx) {
    out.push('(');
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_expr(out, a, 0, ctx);
    }
    out.push(')');
}

fn write_field_inits(out: &mut String, fields: &[FieldInit], ctx: Ctx) {
    if fields.is_empty() {
        out.push_str("{}");
        return;
    }
    out.push_str("{ ");
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&f.field.name);
        out.push_str(": ");
        write_expr(out, &f.value, 0, ctx);
    }
    out.push_str(" }");
}

/// Writes `e`, parenthesized if it binds more loosely than `min_prec`.
fn write_expr(out: &mut String, e: &Expr, min_prec: u8, ctx: Ctx) {
    if expr_prec(e) < min_prec {
        out.push('(');
        write_expr(out, e, 0, ctx);
        out.push(')');
        return;
    }
    match &e.kind {
        ExprKind::Int(n) => out.push_str(&n.to_string()),
        ExprKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::Null => out.push_str("null"),
        ExprKind::This => out.push_str("this"),
        ExprKind::Result => out.push_str("result"),
        ExprKind::Wildcard => out.push('_'),
        ExprKind::Var(id) => out.push_str(&id.name),
        ExprKind::Field { object, field } => {
            write_expr(out, object, PREC_POSTFIX, ctx);
            out.push('.');
            out.push_str(&field.name);
        }
        ExprKind::Index { array, index } => {
            write_expr(out, array, PREC_POSTFIX, ctx);
            out.push('[');
            write_expr(out, index, 0, ctx);
            out.push(']');
        }
        ExprKind::NewArray { elem, len } => {
            out.push_str(&format!("new {}[", type_expr(elem)));
            write_expr(out, len, 0, ctx);
            out.push(']');
        }
        ExprKind::ArrayLit { elem, elems } => {
            out.push_str(&format!("new {}[]", type_expr(elem)));
            out.push('{');
            for (i, v) in elems.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_expr(out, v, 0, ctx);
            }
            out.push('}');
        }
        ExprKind::Unary { op, operand } => {
            let mut inner = String::new();
            write_expr(&mut inner, operand, PREC_UNARY, ctx);
            out.push(match op {
                UnOp::Neg => '-',
                UnOp::Not => '!',
            });
            if *op == UnOp::Neg && inner.starts_with('-') {
                out.push(' ');
            }
            out.push_str(&inner);
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let prec = binop_prec(*op);
            let lhs_min = if prec == PREC_REL { prec + 1 } else { prec };
            write_expr(out, lhs, lhs_min, ctx);
            let symbol = match op {
                BinOp::Mul if ctx == Ctx::Formula && !prints_as_literal(lhs) => "#",
                op => op.symbol(),
            };
            out.push(' ');
            out.push_str(symbol);
            out.push(' ');
            write_expr(out, rhs, prec + 1, ctx);
        }
        ExprKind::Cond { cond, then_expr, else_expr } => {
            write_expr(out, cond, 1, ctx);
            out.push_str(" ? ");
            write_expr(out, then_expr, 0, ctx);
            out.push_str(" : ");
            write_expr(out, else_expr, 0, ctx);
        }
        ExprKind::Call { callee, args } => {
            out.push_str(&callee.name);
            write_args(out, args, ctx);
        }
        ExprKind::MethodCall { receiver, method, args } => {
            write_expr(out, receiver, PREC_POSTFIX, ctx);
            out.push('.');
            out.push_str(&method.name);
            write_args(out, args, ctx);
        }
        ExprKind::New { class, fields } => {
            out.push_str("new ");
            out.push_str(&class.name);
            if !fields.is_empty() {
                out.push(' ');
                write_field_inits(out, fields, ctx);
            }
        }
        ExprKind::Old(inner) => {
            out.push_str("old(");
            write_expr(out, inner, 0, ctx);
            out.push(')');
        }
    }
}

fn atom(out: &mut String, a: &Atom) {
    match a {
        Atom::Emp(_) => out.push_str("emp"),
        Atom::PointsTo { pointer, class, fields, .. } => {
            write_expr(out, pointer, PREC_POSTFIX, Ctx::Formula);
            out.push_str(" -> ");
            out.push_str(&class.name);
            out.push(' ');
            write_field_inits(out, fields, Ctx::Formula);
        }
        Atom::Pred { name, args, .. } => {
            out.push_str(&name.name);
            write_args(out, args, Ctx::Formula);
        }
        Atom::Pure(e) => write_expr(out, e, 0, Ctx::Formula),
    }
}
