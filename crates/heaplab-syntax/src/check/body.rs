//! Bodies: functions, methods, tests and predicates, and the statements inside them.
//!
//! Scoping follows Java: a block opens a scope, and a local may not shadow a parameter or another
//! local of the same function (reusing a name in a sibling block is fine). Control-flow checks
//! (`break` outside a loop, a non-void function that can fall off its end) are deliberately
//! simple and conservative, so that a student can predict them.

use super::env::TypeUse;
use super::suggest::did_you_mean;
use super::{Checker, Ctx, Mode};
use crate::ast::{
    Block, ExprKind, FunctionDecl, Ident, Item, Param, PredicateDecl, Program, Stmt, StmtKind,
    TestDecl,
};
use crate::diagnostic::Diagnostic;
use crate::types::Type;

impl Checker {
    pub(super) fn check_items(&mut self, program: &Program) {
        for item in &program.items {
            match item {
                Item::Class(class) => {
                    for method in &class.methods {
                        self.check_function(method, Some(&class.name.name));
                    }
                }
                Item::Function(f) => self.check_function(f, None),
                Item::Predicate(p) => self.check_pred(p),
                Item::Test(t) => self.check_test(t),
            }
        }
    }

    fn check_function(&mut self, f: &FunctionDecl, class: Option<&String>) {
        // Signatures were resolved (and their errors reported) during collection.
        let ret = self.resolve_type(&f.return_type, TypeUse::Return, false);
        let class = class.filter(|c| !c.is_empty()).cloned();
        let params = self.param_types(&f.params, false);
        let make_ctx = |mode| {
            let mut cx = Ctx::new(class.clone(), &f.name.name, ret.clone(), f.is_pure, mode);
            for (p, ty) in f.params.iter().zip(&params) {
                cx.bind(&p.name.name, ty.clone());
            }
            cx
        };

        for formula in &f.requires {
            let mut cx = make_ctx(Mode::Requires);
            self.formula(&mut cx, formula);
        }
        for formula in &f.ensures_formulas {
            let mut cx = make_ctx(Mode::EnsuresFormula);
            self.formula(&mut cx, formula);
        }
        for ensures in &f.ensures {
            let mut cx = make_ctx(Mode::Ensures);
            let ty = self.expr(&mut cx, ensures);
            if !ty.assignable_to(&Type::Bool) {
                self.diags.push(Diagnostic::error(
                    ensures.span,
                    format!("`ensures` must be a `bool` expression, found `{ty}`"),
                ));
            }
        }

        let mut cx = make_ctx(Mode::Code);
        self.block(&mut cx, &f.body);
        if !matches!(ret, Type::Void | Type::Error) && !block_returns(&f.body) {
            self.diags.push(
                Diagnostic::error(
                    f.name.span,
                    format!("missing return: `{}` must return `{ret}` on every path", f.name.name),
                )
                .with_note("add a `return` at the end of the function body"),
            );
        }
    }

    fn check_test(&mut self, t: &TestDecl) {
        let mut cx = Ctx::new(None, &t.name.name, Type::Void, false, Mode::Code);
        cx.is_test = true;
        self.block(&mut cx, &t.body);
    }

    fn check_pred(&mut self, p: &PredicateDecl) {
        let params = self.param_types(&p.params, false);
        let mut cx = Ctx::new(None, &p.name.name, Type::Void, true, Mode::PredBody);
        for (param, ty) in p.params.iter().zip(params) {
            cx.bind(&param.name.name, ty);
        }
        self.formula(&mut cx, &p.body);
    }

    /// Declares a local (or existential), reporting a clash with a name already visible in the
    /// same function.
    pub(super) fn declare(&mut self, cx: &mut Ctx, name: &Ident, ty: Type) {
        if name.name.is_empty() {
            return;
        }
        if cx.lookup(&name.name).is_some() {
            self.diags.push(Diagnostic::error(
                name.span,
                format!(
                    "`{}` is already declared in `{}`; choose another name",
                    name.name, cx.owner
                ),
            ));
        }
        cx.bind(&name.name, ty);
    }

    /// Declares existential binders (`exists int k, Node l.`).
    pub(super) fn declare_params(&mut self, cx: &mut Ctx, params: &[Param], usage: TypeUse) {
        for p in params {
            let ty = self.resolve_type(&p.ty, usage, true);
            self.declare(cx, &p.name, ty);
        }
    }

    pub(super) fn block(&mut self, cx: &mut Ctx, b: &Block) {
        cx.push();
        for stmt in &b.stmts {
            self.stmt(cx, stmt);
        }
        cx.pop();
    }

    fn stmt(&mut self, cx: &mut Ctx, stmt: &Stmt) {
        match &stmt.kind {
            StmtKind::Local { ty, name, init } => {
                let declared = self.resolve_type(ty, TypeUse::Local, true);
                if let Some(init) = init {
                    let found = self.expr(cx, init);
                    self.expect_assignable(init.span, &found, &declared);
                }
                self.declare(cx, name, declared);
            }
            StmtKind::Assign { target, value } => {
                let found = self.expr(cx, value);
                if target.name.is_empty() {
                    return;
                }
                match cx.lookup(&target.name).cloned() {
                    Some(declared) => self.expect_assignable(value.span, &found, &declared),
                    None => self.unknown_variable(cx, target),
                }
            }
            StmtKind::FieldStore { object, field, value } => {
                let object_ty = self.expr(cx, object);
                if matches!(object_ty, Type::Array(_)) && field.name == "length" {
                    self.diags.push(Diagnostic::error(
                        field.span,
                        "an array's `length` cannot be assigned",
                    ));
                }
                let field_ty = self.field_of(&object_ty, field);
                let found = self.expr(cx, value);
                self.expect_assignable(value.span, &found, &field_ty);
                if cx.is_pure {
                    self.diags.push(
                        Diagnostic::error(
                            object.span.to(field.span),
                            format!("`pure` function `{}` cannot store to a field", cx.owner),
                        )
                        .with_note(
                            "remove `pure`, or compute the value without modifying the heap",
                        ),
                    );
                }
            }
            StmtKind::IndexStore { array, index, value } => {
                let array_ty = self.expr(cx, array);
                let elem = self.index_of(cx, &array_ty, array, index);
                let found = self.expr(cx, value);
                self.expect_assignable(value.span, &found, &elem);
                if cx.is_pure {
                    self.diags.push(Diagnostic::error(
                        array.span.to(index.span),
                        format!("`pure` function `{}` cannot store into an array", cx.owner),
                    ));
                }
            }
            StmtKind::Expr(e) => {
                self.expr(cx, e);
            }
            StmtKind::If { cond, then_branch, else_branch } => {
                self.condition(cx, cond, "if");
                self.block(cx, then_branch);
                if let Some(else_branch) = else_branch {
                    self.block(cx, else_branch);
                }
            }
            StmtKind::While { cond, body } => {
                self.condition(cx, cond, "while");
                cx.loops += 1;
                self.block(cx, body);
                cx.loops -= 1;
            }
            StmtKind::Return(value) => self.check_return(cx, stmt, value.as_ref()),
            StmtKind::Throw(e) => {
                self.expr(cx, e);
                if !matches!(e.kind, ExprKind::New { .. }) {
                    self.diags.push(Diagnostic::error(
                        e.span,
                        "`throw` takes a new object of an exception class: write `throw new X();`",
                    ));
                }
            }
            StmtKind::Try { body, catches } => {
                self.block(cx, body);
                for c in catches {
                    if !self.globals.classes.contains_key(&c.class.name) {
                        let mut d = Diagnostic::error(
                            c.class.span,
                            format!("unknown class `{}` in `catch`", c.class.name),
                        );
                        if let Some(note) = did_you_mean(
                            &c.class.name,
                            self.globals.classes.keys().map(String::as_str),
                        ) {
                            d = d.with_note(note);
                        }
                        self.diags.push(d);
                    }
                    if catches
                        .iter()
                        .take_while(|o| !std::ptr::eq(*o, c))
                        .any(|o| o.class.name == c.class.name)
                    {
                        self.diags.push(Diagnostic::error(
                            c.class.span,
                            format!(
                                "`{}` is already caught by an earlier `catch` of this `try`",
                                c.class.name
                            ),
                        ));
                    }
                    cx.push();
                    self.declare(cx, &c.name, Type::Class(c.class.name.clone()));
                    self.block(cx, &c.body);
                    cx.pop();
                }
            }
            StmtKind::Break | StmtKind::Continue => {
                if cx.loops == 0 {
                    let word =
                        if matches!(stmt.kind, StmtKind::Break) { "break" } else { "continue" };
                    self.diags.push(Diagnostic::error(
                        stmt.span,
                        format!("`{word}` outside of a loop; it can only be used inside `while`"),
                    ));
                }
            }
            StmtKind::Assert(e) => self.condition(cx, e, "assert"),
            StmtKind::Assume(e) => self.condition(cx, e, "assume"),
            StmtKind::Block(b) => self.block(cx, b),
        }
    }

    fn check_return(&mut self, cx: &mut Ctx, stmt: &Stmt, value: Option<&crate::ast::Expr>) {
        let ret = cx.ret.clone();
        match value {
            Some(value) => {
                let found = self.expr(cx, value);
                if cx.is_test {
                    self.diags.push(Diagnostic::error(
                        value.span,
                        "a test cannot return a value; use `assert` to check one",
                    ));
                } else if ret == Type::Void {
                    self.diags.push(Diagnostic::error(
                        value.span,
                        format!("`{}` returns `void`, so `return` cannot have a value", cx.owner),
                    ));
                } else {
                    self.expect_assignable(value.span, &found, &ret);
                }
            }
            None => {
                if !matches!(ret, Type::Void | Type::Error) {
                    self.diags.push(Diagnostic::error(
                        stmt.span,
                        format!("`{}` must return a value of type `{ret}`", cx.owner),
                    ));
                }
            }
        }
    }

    /// The condition of `if`, `while`, `assert` or `assume` must be `bool`.
    fn condition(&mut self, cx: &mut Ctx, cond: &crate::ast::Expr, keyword: &str) {
        let ty = self.expr(cx, cond);
        if !ty.assignable_to(&Type::Bool) {
            self.diags.push(Diagnostic::error(
                cond.span,
                format!("the condition of `{keyword}` must be `bool`, found `{ty}`"),
            ));
        }
    }

    pub(super) fn expect_assignable(
        &mut self,
        span: crate::span::Span,
        found: &Type,
        expected: &Type,
    ) {
        if !found.assignable_to(expected) {
            self.diags.push(Diagnostic::error(
                span,
                format!("mismatched types: expected `{expected}`, found `{found}`"),
            ));
        }
    }

    pub(super) fn unknown_variable(&mut self, cx: &Ctx, name: &Ident) {
        let mut d = Diagnostic::error(name.span, format!("unknown variable `{}`", name.name));
        if let Some(note) = did_you_mean(&name.name, cx.visible()) {
            d = d.with_note(note);
        } else if let Some(class) = cx.class.as_ref().and_then(|c| self.globals.classes.get(c)) {
            if class.field(&name.name).is_some() && cx.mode != Mode::PredBody {
                d = d.with_note(format!("to use the field, write `this.{}`", name.name));
            }
        }
        self.diags.push(d);
    }
}

/// A block certainly returns if one of its statements certainly returns (later statements are
/// unreachable).
fn block_returns(b: &Block) -> bool {
    b.stmts.iter().any(stmt_returns)
}

fn stmt_returns(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) | StmtKind::Throw(_) => true,
        StmtKind::If { then_branch, else_branch: Some(else_branch), .. } => {
            block_returns(then_branch) && block_returns(else_branch)
        }
        StmtKind::Block(b) => block_returns(b),
        StmtKind::Try { body, catches } => {
            block_returns(body) && catches.iter().all(|c| block_returns(&c.body))
        }
        StmtKind::While { cond, body } => {
            matches!(cond.kind, ExprKind::Bool(true)) && !block_breaks(body)
        }
        _ => false,
    }
}

/// Whether a loop body contains a `break` that leaves this loop (not an inner one).
fn block_breaks(b: &Block) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Break => true,
        StmtKind::If { then_branch, else_branch, .. } => {
            block_breaks(then_branch) || else_branch.as_ref().is_some_and(block_breaks)
        }
        StmtKind::Block(b) => block_breaks(b),
        StmtKind::Try { body, catches } => {
            block_breaks(body) || catches.iter().any(|c| block_breaks(&c.body))
        }
        _ => false,
    })
}
