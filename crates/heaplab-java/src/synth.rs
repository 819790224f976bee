//! What the lowering adds beside the file's own code: `Math.max` and friends as functions,
//! `equals` as identity and `compareTo` on the element classes, and the built-in classes
//! (`Object`, `Comparable`/`Comparator`, the JDK exceptions) the program names.

use crate::lower::{Lowerer, Synth};
use heaplab_syntax::ast::*;
use heaplab_syntax::Span;
use std::collections::BTreeSet;

/// The helper functions and methods the lowering asked for.
pub fn synthesize(
    l: &mut Lowerer,
    classes: &mut [ClassDecl],
    free: &mut Vec<FunctionDecl>,
    span: Span,
) {
    let synth = l.synth.clone();
    for s in synth {
        match s {
            Synth::Math(name) => free.push(math_function(l, name, span)),
            Synth::Equals(class) => {
                if let Some(c) = classes.iter_mut().find(|c| c.name.name == class) {
                    let eq = equals_method(l, &class, span);
                    c.methods.push(eq);
                }
            }
            Synth::CompareTo | Synth::ObjectHash => {}
        }
    }
}

fn ident(name: &str, span: Span) -> Ident {
    Ident { name: name.to_string(), span }
}

/// `pure int Math_max(int a, int b) { return a >= b ? a : b; }` and its siblings.
fn math_function(l: &mut Lowerer, name: &str, span: Span) -> FunctionDecl {
    let int = || TypeExpr::Int(span);
    let (a, b) = (l.var("a", span), l.var("b", span));
    let body = match name {
        "abs" => {
            let zero = l.e(ExprKind::Int(0), span);
            let lt = l.bin(BinOp::Lt, a, zero, span);
            let a2 = l.var("a", span);
            let neg = l.e(ExprKind::Unary { op: UnOp::Neg, operand: Box::new(a2) }, span);
            let a3 = l.var("a", span);
            l.e(
                ExprKind::Cond {
                    cond: Box::new(lt),
                    then_expr: Box::new(neg),
                    else_expr: Box::new(a3),
                },
                span,
            )
        }
        _ => {
            let op = if name == "max" { BinOp::Ge } else { BinOp::Le };
            let c = l.bin(op, a, b, span);
            let (a2, b2) = (l.var("a", span), l.var("b", span));
            l.e(
                ExprKind::Cond {
                    cond: Box::new(c),
                    then_expr: Box::new(a2),
                    else_expr: Box::new(b2),
                },
                span,
            )
        }
    };
    let ret = l.s(StmtKind::Return(Some(body)), span);
    let mut params = vec![Param { ty: int(), name: ident("a", span) }];
    if name != "abs" {
        params.push(Param { ty: int(), name: ident("b", span) });
    }
    FunctionDecl {
        is_pure: true,
        return_type: int(),
        name: ident(&format!("Math_{name}"), span),
        params,
        requires: Vec::new(),
        ensures: Vec::new(),
        ensures_formulas: Vec::new(),
        body: Block { stmts: vec![ret], span },
        span,
    }
}

/// `pure bool equals(C other) { return this == other; }`: Java's `Object.equals`.
fn equals_method(l: &mut Lowerer, class: &str, span: Span) -> FunctionDecl {
    let this = l.e(ExprKind::This, span);
    let other = l.var("other", span);
    let eq = l.bin(BinOp::Eq, this, other, span);
    let ret = l.s(StmtKind::Return(Some(eq)), span);
    FunctionDecl {
        is_pure: true,
        return_type: TypeExpr::Bool(span),
        name: ident("equals", span),
        params: vec![Param { ty: TypeExpr::Class(ident(class, span)), name: ident("other", span) }],
        requires: Vec::new(),
        ensures: Vec::new(),
        ensures_formulas: Vec::new(),
        body: Block { stmts: vec![ret], span },
        span,
    }
}

/// `pure int compareTo(Comparable other)`: -1, 0 or 1 as the keys compare; `other` null is a
/// null dereference, as `Integer.compareTo(null)` is in Java.
fn compare_to_method(l: &mut Lowerer, span: Span) -> FunctionDecl {
    let key = |l: &mut Lowerer, this: bool| {
        let o = if this { l.e(ExprKind::This, span) } else { l.var("other", span) };
        l.e(
            ExprKind::Field {
                object: Box::new(o),
                field: ident(heaplab_syntax::builtin::KEY, span),
            },
            span,
        )
    };
    let (a, b) = (key(l, true), key(l, false));
    let lt = l.bin(BinOp::Lt, a, b, span);
    let (a, b) = (key(l, true), key(l, false));
    let eq = l.bin(BinOp::Eq, a, b, span);
    let one = l.e(ExprKind::Int(1), span);
    let minus = l.e(ExprKind::Unary { op: UnOp::Neg, operand: Box::new(one) }, span);
    let (zero, one) = (l.e(ExprKind::Int(0), span), l.e(ExprKind::Int(1), span));
    let inner = l.e(
        ExprKind::Cond { cond: Box::new(eq), then_expr: Box::new(zero), else_expr: Box::new(one) },
        span,
    );
    let body = l.e(
        ExprKind::Cond {
            cond: Box::new(lt),
            then_expr: Box::new(minus),
            else_expr: Box::new(inner),
        },
        span,
    );
    let ret = l.s(StmtKind::Return(Some(body)), span);
    FunctionDecl {
        is_pure: true,
        return_type: TypeExpr::Int(span),
        name: ident("compareTo", span),
        params: vec![Param {
            ty: TypeExpr::Class(ident(heaplab_syntax::builtin::COMPARABLE, span)),
            name: ident("other", span),
        }],
        requires: Vec::new(),
        ensures: Vec::new(),
        ensures_formulas: Vec::new(),
        body: Block { stmts: vec![ret], span },
        span,
    }
}

/// `Object`, `Comparable`/`Comparator` and the JDK exception classes, where the program names
/// them.
pub fn add_builtins(l: &mut Lowerer, program: &mut Program, span: Span) {
    let mut named = BTreeSet::new();
    collect_class_names(program, &mut named);
    for s in &l.synth {
        match s {
            Synth::Equals(c) => {
                named.insert(c.clone());
            }
            Synth::CompareTo => {
                named.insert(heaplab_syntax::builtin::COMPARABLE.to_string());
            }
            Synth::ObjectHash => {
                named.insert("Object".to_string());
            }
            Synth::Math(_) => {}
        }
    }
    let declared: BTreeSet<String> = program
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Class(c) => Some(c.name.name.clone()),
            _ => None,
        })
        .collect();
    if named.contains("Object") && !declared.contains("Object") {
        let mut methods = Vec::new();
        if l.synth.contains(&Synth::Equals("Object".into())) {
            methods.push(equals_method(l, "Object", span));
        }
        let mut fields = Vec::new();
        if l.synth.contains(&Synth::ObjectHash) {
            let name = ident(crate::HASH_FIELD, span);
            fields.push(FieldDecl { ty: TypeExpr::Int(span), name, span });
        }
        program.items.push(Item::Class(ClassDecl {
            name: ident("Object", span),
            fields,
            methods,
            span,
        }));
    }
    let order = [heaplab_syntax::builtin::COMPARABLE, heaplab_syntax::builtin::COMPARATOR];
    if order.iter().any(|c| named.contains(*c)) {
        let mut classes = heaplab_syntax::builtin::order_classes(span, &mut || l.id());
        if let Some(cmp) = classes.first_mut() {
            if l.synth.contains(&Synth::CompareTo) {
                let m = compare_to_method(l, span);
                cmp.methods.push(m);
            }
            if l.synth.contains(&Synth::Equals(heaplab_syntax::builtin::COMPARABLE.into())) {
                let m = equals_method(l, heaplab_syntax::builtin::COMPARABLE, span);
                cmp.methods.push(m);
            }
        }
        program.items.extend(classes.into_iter().map(Item::Class));
    }
    for t in l.thrown.clone() {
        if !declared.contains(&t) {
            program.items.push(Item::Class(ClassDecl {
                name: ident(&t, span),
                fields: Vec::new(),
                methods: Vec::new(),
                span,
            }));
        }
    }
}

fn ty(t: &TypeExpr, out: &mut BTreeSet<String>) {
    match t {
        TypeExpr::Class(c) => {
            out.insert(c.name.clone());
        }
        TypeExpr::Array { elem, .. } => ty(elem, out),
        _ => {}
    }
}

fn expr(e: &Expr, out: &mut BTreeSet<String>) {
    match &e.kind {
        ExprKind::New { class, .. } => {
            out.insert(class.name.clone());
        }
        ExprKind::NewArray { elem, .. } | ExprKind::ArrayLit { elem, .. } => ty(elem, out),
        _ => {}
    }
    for c in e.kind.children() {
        expr(c, out);
    }
}

fn stmts(b: &Block, out: &mut BTreeSet<String>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Local { ty: t, init, .. } => {
                ty(t, out);
                init.iter().for_each(|e| expr(e, out));
            }
            StmtKind::Assign { value, .. } => expr(value, out),
            StmtKind::FieldStore { object, value, .. } => {
                expr(object, out);
                expr(value, out);
            }
            StmtKind::IndexStore { array, index, value } => {
                [array, index, value].into_iter().for_each(|e| expr(e, out));
            }
            StmtKind::Expr(e) | StmtKind::Throw(e) | StmtKind::Assert(e) | StmtKind::Assume(e) => {
                expr(e, out)
            }
            StmtKind::Return(e) => e.iter().for_each(|e| expr(e, out)),
            StmtKind::If { cond, then_branch, else_branch } => {
                expr(cond, out);
                stmts(then_branch, out);
                else_branch.iter().for_each(|b| stmts(b, out));
            }
            StmtKind::While { cond, body } => {
                expr(cond, out);
                stmts(body, out);
            }
            StmtKind::Try { body, catches } => {
                stmts(body, out);
                catches.iter().for_each(|c| stmts(&c.body, out));
            }
            StmtKind::Block(b) => stmts(b, out),
            StmtKind::Break | StmtKind::Continue => {}
        }
    }
}

fn formula(f: &Formula, out: &mut BTreeSet<String>) {
    for d in &f.disjuncts {
        d.exists.iter().for_each(|p| ty(&p.ty, out));
        for a in &d.atoms {
            if let Atom::PointsTo { class, .. } = a {
                out.insert(class.name.clone());
            }
        }
    }
}

fn function(f: &FunctionDecl, out: &mut BTreeSet<String>) {
    ty(&f.return_type, out);
    f.params.iter().for_each(|p| ty(&p.ty, out));
    stmts(&f.body, out);
    f.requires.iter().for_each(|r| formula(r, out));
}

/// Every class name the program mentions (types, `new`, points-to).
fn collect_class_names(program: &Program, out: &mut BTreeSet<String>) {
    for item in &program.items {
        match item {
            Item::Class(c) => {
                c.fields.iter().for_each(|f| ty(&f.ty, out));
                c.methods.iter().for_each(|m| function(m, out));
            }
            Item::Function(f) => function(f, out),
            Item::Predicate(p) => {
                p.params.iter().for_each(|q| ty(&q.ty, out));
                formula(&p.body, out);
            }
            Item::Test(_) => {}
        }
    }
}
