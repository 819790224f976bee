//! Java statements to HeapLab statements. `for`, for-each over arrays and `do`-`while` become
//! `while` loops (a `continue` runs the update first); `try`/`catch` of a superclass catches
//! each exception class of the file that extends it.

use super::build::{block, ident, Fn, LExpr, LResult, LoopKind, Stop};
use super::Lowerer;
use crate::cst::{span_of, text_of};
use crate::decls::Scope;
use crate::types::{display, JType};
use heaplab_syntax::ast::*;
use heaplab_syntax::Span;
use tree_sitter::Node;

impl<'t> Lowerer<'t, '_> {
    /// A block `{ … }` (or one statement, as Java's `if (c) s;` allows) as a HeapLab block with
    /// its own scope.
    pub fn block_of(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> Block {
        let span = span_of(&node);
        f.push();
        let mut stmts = Vec::new();
        if matches!(node.kind(), "block" | "constructor_body") {
            let mut cursor = node.walk();
            let children: Vec<Node<'t>> = node.named_children(&mut cursor).collect();
            for child in children {
                stmts.extend(self.stmt(f, child));
            }
        } else {
            stmts.extend(self.stmt(f, node));
        }
        f.pop();
        block(stmts, span)
    }

    /// One Java statement as HeapLab statements (none after a problem, which is recorded).
    pub fn stmt(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> Vec<Stmt> {
        self.stmt_inner(f, node).unwrap_or_else(|Stop| {
            f.stopped = true;
            Vec::new()
        })
    }

    fn stmt_inner(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<Vec<Stmt>> {
        let span = span_of(&node);
        f.depth += 1;
        if f.depth > super::MAX_DEPTH {
            f.depth -= 1;
            return Err(f.problem(span, "statements nested this deeply", None));
        }
        let r = self.stmt_kind(f, node, span);
        f.depth -= 1;
        r
    }

    fn stmt_kind(&mut self, f: &mut Fn<'t>, node: Node<'t>, span: Span) -> LResult<Vec<Stmt>> {
        match node.kind() {
            "line_comment" | "block_comment" | ";" => Ok(Vec::new()),
            "block" => {
                let b = self.block_of(f, node);
                Ok(vec![self.s(StmtKind::Block(b), span)])
            }
            "local_variable_declaration" => self.local(f, node),
            "expression_statement" => {
                let Some(e) = node.named_child(0) else { return Ok(Vec::new()) };
                self.effect(f, e)
            }
            "if_statement" => {
                let cond = self.condition(f, node)?;
                let (Some(then), alt) = (
                    node.child_by_field_name("consequence"),
                    node.child_by_field_name("alternative"),
                ) else {
                    return Err(f.problem(span, "this `if`", None));
                };
                let then_branch = self.block_of(f, then);
                let else_branch = alt.map(|a| self.block_of(f, a));
                let mut out = cond.pre;
                out.push(self.s(StmtKind::If { cond: cond.expr, then_branch, else_branch }, span));
                Ok(out)
            }
            "while_statement" => {
                let cond = self.condition(f, node)?;
                let Some(body) = node.child_by_field_name("body") else {
                    return Err(f.problem(span, "this `while`", None));
                };
                f.loops.push(LoopKind::While);
                let body = self.block_of(f, body);
                f.loops.pop();
                Ok(vec![self.loop_with(cond, body, span)])
            }
            "do_statement" => {
                let (Some(body), Some(cnode)) =
                    (node.child_by_field_name("body"), node.child_by_field_name("condition"))
                else {
                    return Err(f.problem(span, "this `do`", None));
                };
                f.loops.push(LoopKind::DoWhile { cond: cnode });
                let mut body = self.block_of(f, body);
                f.loops.pop();
                let exit = self.exit_unless(f, cnode)?;
                body.stmts.extend(exit);
                let t = self.e(ExprKind::Bool(true), span);
                Ok(vec![self.s(StmtKind::While { cond: t, body }, span)])
            }
            "for_statement" => self.for_loop(f, node),
            "enhanced_for_statement" => self.for_each(f, node),
            "return_statement" => {
                let Some(value) = node.named_child(0) else {
                    return Ok(vec![self.s(StmtKind::Return(None), span)]);
                };
                let v = self.expr(f, value)?;
                if v.ty.unsupported().is_some() || f.ret.unsupported().is_some() {
                    return Err(Stop);
                }
                if !self.assignable(&v.ty, &f.ret) {
                    let (a, b) = (display(&v.ty, self.decls), display(&f.ret, self.decls));
                    return Err(f.problem(
                        span,
                        format!("returning a `{a}` where a `{b}` is expected"),
                        None,
                    ));
                }
                let mut out = v.pre;
                out.push(self.s(StmtKind::Return(Some(v.expr)), span));
                Ok(out)
            }
            "break_statement" => {
                if node.named_child(0).is_some() {
                    return Err(f.problem(span, "a labeled `break`", None));
                }
                Ok(vec![self.s(StmtKind::Break, span)])
            }
            "continue_statement" => {
                if node.named_child(0).is_some() {
                    return Err(f.problem(span, "a labeled `continue`", None));
                }
                self.continue_stmt(f, span)
            }
            "throw_statement" => self.throw(f, node),
            "try_statement" => self.try_catch(f, node),
            "assert_statement" => self.assert(f, node),
            "explicit_constructor_invocation" => Err(f.problem(
                span,
                "`this(…)` or `super(…)` after the first statement of a constructor",
                None,
            )),
            "labeled_statement" => Err(f.problem(span, "a labeled statement", None)),
            "switch_expression" => self.switch_stmt(f, node),
            "synchronized_statement" => Err(f.problem(span, "`synchronized`", None)),
            "try_with_resources_statement" => Err(f.problem(span, "try-with-resources", None)),
            "class_declaration"
            | "local_class_declaration"
            | "record_declaration"
            | "interface_declaration"
            | "enum_declaration" => Err(f.problem(span, "a class declared inside a method", None)),
            "yield_statement" => self.yield_stmt(f, node),
            kind => Err(f.problem(span, format!("this statement (`{kind}`)"), None)),
        }
    }

    /// An expression statement: an assignment, `++`, a call, a `new` for its effects.
    fn effect(&mut self, f: &mut Fn<'t>, e: Node<'t>) -> LResult<Vec<Stmt>> {
        let span = span_of(&e);
        match e.kind() {
            "assignment_expression" => Ok(self.assignment(f, e, false)?.pre),
            "update_expression" => Ok(self.update(f, e, false)?.pre),
            "method_invocation" | "object_creation_expression" => {
                let LExpr { mut pre, expr, ty } = self.expr(f, e)?;
                // A call runs for its effects; printing (void, no call) and a bare `new` of a
                // class without a constructor leave nothing to run.
                let is_call =
                    matches!(expr.kind, ExprKind::Call { .. } | ExprKind::MethodCall { .. });
                if is_call || (ty != JType::Void && !matches!(expr.kind, ExprKind::New { .. })) {
                    pre.push(self.s(StmtKind::Expr(expr), span));
                }
                Ok(pre)
            }
            "parenthesized_expression" => match e.named_child(0) {
                Some(inner) => self.effect(f, inner),
                None => Ok(Vec::new()),
            },
            _ => Err(f.problem(span, "an expression used as a statement", None)),
        }
    }

    /// `assert c;` / `assert c : msg;`. A condition outside the subset drops the assert (with a
    /// warning) rather than the method: asserts check, they do not act.
    fn assert(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<Vec<Stmt>> {
        let span = span_of(&node);
        let Some(c) = node.named_child(0) else {
            return Err(f.problem(span, "this `assert`", None));
        };
        let saved_callees = std::mem::take(&mut f.callees);
        let problems_before = f.problems.len();
        let cond = self.expr(f, c);
        let callees = std::mem::replace(&mut f.callees, saved_callees);
        if f.problems.len() > problems_before {
            let dropped: Vec<_> = f.problems.drain(problems_before..).collect();
            let mut d =
                heaplab_syntax::Diagnostic::warning(span, "HeapLab does not check this `assert`");
            for p in dropped {
                d = d.with_note(p.message);
            }
            self.diags.push(d);
            return Ok(Vec::new());
        }
        let cond = cond?;
        if cond.ty != JType::Boolean {
            return Err(f.problem(span, "an `assert` of a value that is not a `boolean`", None));
        }
        if let Some(msg) = node.named_child(1) {
            self.messages.push((span, text_of(&msg, self.text).to_string()));
        }
        let mut stmts = cond.pre;
        stmts.push(self.s(StmtKind::Assert(cond.expr), span));
        let stmt = if stmts.len() == 1 {
            stmts.pop().ok_or(Stop)?
        } else {
            self.s(StmtKind::Block(block(stmts, span)), span)
        };
        f.asserts.push((stmt.id, callees));
        Ok(vec![stmt])
    }

    /// `T a = e, b;` (`var` takes the initializer's type).
    fn local(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<Vec<Stmt>> {
        let Some(ty_node) = node.child_by_field_name("type") else {
            return Err(f.problem(span_of(&node), "this declaration", None));
        };
        let is_var = text_of(&ty_node, self.text) == "var";
        let scope = Scope { class: Some(f.class), method_params: &f.type_params };
        let base = self.decls.resolve_type(ty_node, 0, scope, self.text);
        let mut out = Vec::new();
        let mut cursor = node.walk();
        let declarators: Vec<Node<'t>> =
            node.children_by_field_name("declarator", &mut cursor).collect();
        for d in declarators {
            let span = span_of(&d);
            let Some(name_node) = d.child_by_field_name("name") else { continue };
            let java = text_of(&name_node, self.text).to_string();
            let dims = d
                .child_by_field_name("dimensions")
                .map_or(0, |x| text_of(&x, self.text).matches('[').count());
            let mut ty = base.clone();
            for _ in 0..dims {
                ty = JType::Array(Box::new(ty));
            }
            let lowered = crate::names::ident(&java);
            if !is_var && crate::types::erase(&ty, self.decls, span).is_none() {
                // Later uses of the name are quiet: this declaration is the problem.
                let stop = super::build::unsupported_type(f, &ty, span_of(&ty_node));
                f.bind(&java, &lowered, ty);
                return Err(stop);
            }
            let init = match d.child_by_field_name("value") {
                Some(v) if v.kind() == "array_initializer" => {
                    let JType::Array(elem) = ty.clone() else {
                        return Err(f.problem(
                            span,
                            "an array initializer for a value that is not an array",
                            None,
                        ));
                    };
                    Some(self.array_literal(f, v, *elem, span_of(&v)))
                }
                Some(v) => Some(self.expr(f, v)),
                None => None,
            };
            let init = match init.transpose() {
                Ok(init) => init,
                Err(stop) => {
                    // The initializer is the problem: later uses of the name stay quiet.
                    if !is_var {
                        f.bind(&java, &lowered, ty);
                    }
                    return Err(stop);
                }
            };
            if is_var {
                ty = match &init {
                    Some(i) if i.ty != JType::Null => i.ty.clone(),
                    _ => {
                        return Err(f.problem(
                            span,
                            "`var` without an initializer HeapLab can type",
                            None,
                        ))
                    }
                };
            }
            let ty_expr = self.type_expr(f, &ty, span_of(&ty_node))?;
            let init_expr = match init {
                Some(i) => {
                    if i.ty.unsupported().is_some() {
                        return Err(Stop);
                    }
                    if !self.assignable(&i.ty, &ty) {
                        let (a, b) = (display(&i.ty, self.decls), display(&ty, self.decls));
                        return Err(f.problem(
                            span,
                            format!("initializing a `{b}` with a `{a}`"),
                            None,
                        ));
                    }
                    out.extend(i.pre);
                    Some(i.expr)
                }
                None => None,
            };
            let name = ident(&lowered, span_of(&name_node));
            out.push(self.s(StmtKind::Local { ty: ty_expr, name, init: init_expr }, span));
            f.bind(&java, &lowered, ty);
        }
        Ok(out)
    }

    /// The condition of an `if`, `while` or `do`.
    fn condition(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let Some(c) = node.child_by_field_name("condition") else {
            return Err(f.problem(span_of(&node), "a missing condition", None));
        };
        let e = self.expr(f, c)?;
        if e.ty != JType::Boolean {
            return Err(f.problem(span_of(&c), "a condition that is not a `boolean`", None));
        }
        Ok(e)
    }

    /// `while (cond) body`, or, when the condition needs statements of its own,
    /// `while (true) { pre; if (!cond) break; body }`.
    fn loop_with(&mut self, cond: LExpr, mut body: Block, span: Span) -> Stmt {
        if cond.pre.is_empty() {
            return self.s(StmtKind::While { cond: cond.expr, body }, span);
        }
        let cspan = cond.expr.span;
        let mut stmts = cond.pre;
        let not = self.not(cond.expr, cspan);
        let brk = self.s(StmtKind::Break, cspan);
        stmts.push(self.s(
            StmtKind::If { cond: not, then_branch: block(vec![brk], cspan), else_branch: None },
            cspan,
        ));
        stmts.append(&mut body.stmts);
        body.stmts = stmts;
        let t = self.e(ExprKind::Bool(true), span);
        self.s(StmtKind::While { cond: t, body }, span)
    }

    /// `if (!cond) break;` for a `do`-`while`'s condition node.
    fn exit_unless(&mut self, f: &mut Fn<'t>, cnode: Node<'t>) -> LResult<Vec<Stmt>> {
        let c = self.expr(f, cnode)?;
        if c.ty != JType::Boolean {
            return Err(f.problem(span_of(&cnode), "a condition that is not a `boolean`", None));
        }
        let cspan = c.expr.span;
        let mut out = c.pre;
        let not = self.not(c.expr, cspan);
        let brk = self.s(StmtKind::Break, cspan);
        out.push(self.s(
            StmtKind::If { cond: not, then_branch: block(vec![brk], cspan), else_branch: None },
            cspan,
        ));
        Ok(out)
    }

    /// `continue`: a `for`'s update, a for-each's index step or a `do`'s test runs first.
    pub(super) fn continue_stmt(&mut self, f: &mut Fn<'t>, span: Span) -> LResult<Vec<Stmt>> {
        let mut out = Vec::new();
        if let Some(LoopKind::Switch { resume, used }) = f.loops.last_mut() {
            // Leave the switch; the loop's `continue` runs after it (see `switch`).
            *used = true;
            let resume = resume.clone();
            if !f.loops.iter().any(|l| !matches!(l, LoopKind::Switch { .. })) {
                return Err(f.problem(span, "`continue` outside a loop", None));
            }
            let yes = self.e(ExprKind::Bool(true), span);
            out.push(self.s(StmtKind::Assign { target: ident(&resume, span), value: yes }, span));
            out.push(self.s(StmtKind::Break, span));
            return Ok(vec![self.s(StmtKind::Block(block(out, span)), span)]);
        }
        match f.loops.last().cloned() {
            None => return Err(f.problem(span, "`continue` outside a loop", None)),
            Some(LoopKind::While) => {}
            Some(LoopKind::For { updates }) => {
                for u in updates {
                    out.extend(self.effect(f, u)?);
                }
            }
            Some(LoopKind::ForEach { index }) => out.push(self.increment(&index, span)),
            Some(LoopKind::DoWhile { cond }) => out.extend(self.exit_unless(f, cond)?),
            Some(LoopKind::Switch { .. }) => {}
        }
        out.push(self.s(StmtKind::Continue, span));
        Ok(vec![self.s(StmtKind::Block(block(out, span)), span)])
    }

    fn increment(&mut self, var: &str, span: Span) -> Stmt {
        let read = self.var(var, span);
        let one = self.e(ExprKind::Int(1), span);
        let next = self.bin(BinOp::Add, read, one, span);
        self.s(StmtKind::Assign { target: ident(var, span), value: next }, span)
    }

    /// `for (init; cond; update) body` → `{ init; while (cond) { body update } }`.
    fn for_loop(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<Vec<Stmt>> {
        let span = span_of(&node);
        f.push();
        let r = self.for_loop_in_scope(f, node, span);
        f.pop();
        let stmts = r?;
        Ok(vec![self.s(StmtKind::Block(block(stmts, span)), span)])
    }

    fn for_loop_in_scope(
        &mut self,
        f: &mut Fn<'t>,
        node: Node<'t>,
        span: Span,
    ) -> LResult<Vec<Stmt>> {
        let mut out = Vec::new();
        let mut cursor = node.walk();
        let inits: Vec<Node<'t>> = node.children_by_field_name("init", &mut cursor).collect();
        for i in inits {
            if i.kind() == "local_variable_declaration" {
                out.extend(self.local(f, i)?);
            } else {
                out.extend(self.effect(f, i)?);
            }
        }
        let cond = match node.child_by_field_name("condition") {
            Some(c) => {
                let e = self.expr(f, c)?;
                if e.ty != JType::Boolean {
                    return Err(f.problem(
                        span_of(&c),
                        "a condition that is not a `boolean`",
                        None,
                    ));
                }
                e
            }
            None => LExpr::pure(self.e(ExprKind::Bool(true), span), JType::Boolean),
        };
        let mut cursor = node.walk();
        let updates: Vec<Node<'t>> = node.children_by_field_name("update", &mut cursor).collect();
        let Some(body_node) = node.child_by_field_name("body") else {
            return Err(f.problem(span, "this `for`", None));
        };
        f.loops.push(LoopKind::For { updates: updates.clone() });
        let mut body = self.block_of(f, body_node);
        f.loops.pop();
        for u in updates {
            body.stmts.extend(self.effect(f, u)?);
        }
        out.push(self.loop_with(cond, body, span));
        Ok(out)
    }

    /// `for (T x : a) body` over an array →
    /// `{ T[] arr = a; int i = 0; while (i < arr.length) { T x = arr[i]; body i = i + 1; } }`.
    fn for_each(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<Vec<Stmt>> {
        let span = span_of(&node);
        let (Some(ty_node), Some(name_node), Some(value), Some(body_node)) = (
            node.child_by_field_name("type"),
            node.child_by_field_name("name"),
            node.child_by_field_name("value"),
            node.child_by_field_name("body"),
        ) else {
            return Err(f.problem(span, "this for-each loop", None));
        };
        let arr = self.expr(f, value)?;
        let JType::Array(elem) = arr.ty.clone() else {
            return Err(f.problem(
                span_of(&value),
                "a for-each loop over something that is not an array",
                Some("iterators are outside the subset; walk the structure with a loop"),
            ));
        };
        let scope = Scope { class: Some(f.class), method_params: &f.type_params };
        let declared = if text_of(&ty_node, self.text) == "var" {
            (*elem).clone()
        } else {
            self.decls.resolve_type(ty_node, 0, scope, self.text)
        };
        if !self.assignable(&elem, &declared) {
            return Err(f.problem(
                span,
                "a for-each variable of another type than the elements",
                None,
            ));
        }
        let mut out = arr.pre;
        let a = self.spill(f, &mut out, arr.expr, &arr.ty)?;
        let ExprKind::Var(a_name) = &a.kind else { return Err(Stop) };
        let a_name = a_name.name.clone();
        let i = f.temp();
        let zero = self.e(ExprKind::Int(0), span);
        out.push(self.s(
            StmtKind::Local { ty: TypeExpr::Int(span), name: ident(&i, span), init: Some(zero) },
            span,
        ));
        f.push();
        let java = text_of(&name_node, self.text).to_string();
        let lowered = crate::names::ident(&java);
        let elem_ty = self.type_expr(f, &declared, span)?;
        let (ar, ir) = (self.var(&a_name, span), self.var(&i, span));
        let cell = self.e(ExprKind::Index { array: Box::new(ar), index: Box::new(ir) }, span);
        let decl = self.s(
            StmtKind::Local {
                ty: elem_ty,
                name: ident(&lowered, span_of(&name_node)),
                init: Some(cell),
            },
            span,
        );
        f.bind(&java, &lowered, declared);
        f.loops.push(LoopKind::ForEach { index: i.clone() });
        let body = self.block_of(f, body_node);
        f.loops.pop();
        f.pop();
        let step = self.increment(&i, span);
        // An `int[]` of the input holds `int`s (at 64 bits the engine does not know it).
        let (ar, ir) = (self.var(&a_name, span), self.var(&i, span));
        let cell = self.e(ExprKind::Index { array: Box::new(ar), index: Box::new(ir) }, span);
        let mut stmts: Vec<Stmt> = self.assume_place_int(cell, &elem).into_iter().collect();
        stmts.push(decl);
        stmts.push(self.s(StmtKind::Block(body), span));
        stmts.push(step);
        let (ir, ar) = (self.var(&i, span), self.var(&a_name, span));
        let len =
            self.e(ExprKind::Field { object: Box::new(ar), field: ident("length", span) }, span);
        let cond = self.bin(BinOp::Lt, ir, len, span);
        out.push(self.s(StmtKind::While { cond, body: block(stmts, span) }, span));
        Ok(vec![self.s(StmtKind::Block(block(out, span)), span)])
    }

    /// `throw new X(…)`: the class decides the outcome; the message is kept for display.
    fn throw(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<Vec<Stmt>> {
        let span = span_of(&node);
        let Some(e) = node.named_child(0) else {
            return Err(f.problem(span, "this `throw`", None));
        };
        if e.kind() != "object_creation_expression" {
            return Err(f.problem(
                span,
                "throwing a value that is not `new X(…)`",
                Some("write `throw new X(…)` where it is thrown"),
            ));
        }
        let scope = Scope { class: Some(f.class), method_params: &f.type_params };
        let ty =
            e.child_by_field_name("type").map(|t| self.decls.resolve_type(t, 0, scope, self.text));
        let class = match ty {
            Some(JType::Throwable(n)) => {
                self.thrown.insert(n.clone());
                n
            }
            Some(JType::Class(c)) if self.is_throwable(c) => self.decls.classes[c].lowered.clone(),
            _ => return Err(f.problem(span, "throwing something that is not an exception", None)),
        };
        if let Some(args) = e.child_by_field_name("arguments") {
            let msg =
                text_of(&args, self.text).trim_start_matches('(').trim_end_matches(')').trim();
            if !msg.is_empty() {
                self.messages.push((span, msg.to_string()));
            }
        }
        let espan = span_of(&e);
        let new = self.e(ExprKind::New { class: ident(&class, espan), fields: Vec::new() }, espan);
        Ok(vec![self.s(StmtKind::Throw(new), span)])
    }

    /// `try { … } catch (T e) { … }`: a clause of class `T` catches every exception class of the
    /// file that is `T` or extends it (HeapLab's `catch` names one class).
    fn try_catch(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<Vec<Stmt>> {
        let span = span_of(&node);
        let Some(body_node) = node.child_by_field_name("body") else {
            return Err(f.problem(span, "this `try`", None));
        };
        let mut cursor = node.walk();
        let children: Vec<Node<'t>> = node.named_children(&mut cursor).collect();
        if let Some(fin) = children.iter().find(|c| c.kind() == "finally_clause") {
            return Err(f.problem(span_of(fin), "`finally`", None));
        }
        let body = self.block_of(f, body_node);
        let mut catches = Vec::new();
        let mut covered: Vec<String> = Vec::new();
        for clause in children.iter().filter(|c| c.kind() == "catch_clause") {
            let cspan = span_of(clause);
            let mut c2 = clause.walk();
            let Some(param) =
                clause.named_children(&mut c2).find(|n| n.kind() == "catch_formal_parameter")
            else {
                return Err(f.problem(cspan, "this `catch`", None));
            };
            let (Some(name_node), Some(cbody)) =
                (param.child_by_field_name("name"), clause.child_by_field_name("body"))
            else {
                return Err(f.problem(cspan, "this `catch`", None));
            };
            let mut c3 = param.walk();
            let Some(types) = param.named_children(&mut c3).find(|n| n.kind() == "catch_type")
            else {
                return Err(f.problem(cspan, "this `catch`", None));
            };
            let mut c4 = types.walk();
            let type_nodes: Vec<Node<'t>> = types.named_children(&mut c4).collect();
            for t in type_nodes {
                let caught = self.caught_classes(f, t, span_of(clause))?;
                for (lowered, ty) in caught {
                    if covered.contains(&lowered) {
                        continue;
                    }
                    covered.push(lowered.clone());
                    f.push();
                    let java = text_of(&name_node, self.text).to_string();
                    let var = crate::names::ident(&java);
                    f.bind(&java, &var, ty);
                    let b = self.block_of(f, cbody);
                    f.pop();
                    catches.push(Catch {
                        class: ident(&lowered, span_of(&t)),
                        name: ident(&var, span_of(&name_node)),
                        body: b,
                        span: cspan,
                    });
                }
            }
        }
        if catches.is_empty() {
            return Ok(vec![self.s(StmtKind::Block(body), span)]);
        }
        Ok(vec![self.s(StmtKind::Try { body, catches }, span)])
    }

    /// The exception classes a `catch (T e)` catches, each with its type.
    fn caught_classes(
        &mut self,
        f: &mut Fn,
        t: Node,
        clause: Span,
    ) -> LResult<Vec<(String, JType)>> {
        let scope = Scope { class: Some(f.class), method_params: &f.type_params };
        let ty = self.decls.resolve_type(t, 0, scope, self.text);
        let name = match &ty {
            JType::Throwable(n) => n.clone(),
            JType::Class(c) if self.is_throwable(*c) => self.decls.classes[*c].name.clone(),
            _ => {
                return Err(f.problem(
                    span_of(&t),
                    "catching something that is not an exception",
                    None,
                ))
            }
        };
        let jvm: Vec<&str> = crate::jdk::RAISED_BY_THE_JVM
            .iter()
            .copied()
            .filter(|j| self.extends(j, &name))
            .collect();
        if !jvm.is_empty() {
            self.diags.push(
                heaplab_syntax::Diagnostic::warning(
                    clause,
                    format!("in Java this `catch` also catches {}", jvm.join(", ")),
                )
                .with_note("HeapLab ends such a path with its runtime error (null_dereference, …) instead of running the handler"),
            );
        }
        let mut out = Vec::new();
        for u in self.throwable_universe.clone() {
            if self.extends(&u, &name) {
                let ty = match self
                    .decls
                    .classes
                    .iter()
                    .position(|c| c.name == u && self.is_throwable_name(&c.name))
                {
                    Some(c) => JType::Class(c),
                    None => JType::Throwable(u.clone()),
                };
                let lowered = match &ty {
                    JType::Class(c) => self.decls.classes[*c].lowered.clone(),
                    _ => {
                        self.thrown.insert(u.clone());
                        u.clone()
                    }
                };
                out.push((lowered, ty));
            }
        }
        Ok(out)
    }
}
