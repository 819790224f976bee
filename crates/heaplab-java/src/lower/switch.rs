//! `switch` statements and expressions, which HeapLab's language does not have.
//!
//! The selector is read once (into a temporary unless it is a local variable) and each group of
//! `case` labels becomes an `if` on `sel == label || …`. When no group falls into the next and
//! no `break` or `yield` leaves the switch before a group's end, the groups are one
//! `if`/`else if` chain with `default` last: the lowered code reads as a teacher would write it.
//! Otherwise the groups run inside `while (true) { …; break; }`, so a `break` leaves the
//! switch, and fall-through is a flag: once a group is entered, every later group runs (the
//! `default` group is entered when no label matches). A `continue` of an enclosing loop inside
//! such a switch sets a second flag and leaves the switch; the loop's own `continue` follows.
//! A switch expression assigns its value to a temporary: an arrow's expression, or `yield`.

use super::build::{block, ident, Fn, LExpr, LResult, LoopKind};
use super::Lowerer;
use crate::cst::{span_of, text_of};
use crate::types::{display, JType};
use heaplab_syntax::ast::*;
use heaplab_syntax::Span;
use tree_sitter::Node;

/// One `case …:` group (or `case … ->` rule) of a switch block.
struct Group<'t> {
    /// The label expressions (`case 1, 2` has two).
    labels: Vec<Node<'t>>,
    default: bool,
    /// The statements of a group; a rule's one body (a block, an expression, a `throw`).
    body: Vec<Node<'t>>,
    /// A `case … ->` rule: it never falls through.
    arrow: bool,
    span: Span,
}

/// The value of a switch expression being lowered: the temporary its arms assign, and the type
/// of the values seen so far.
pub struct Yield {
    pub var: String,
    pub ty: Option<JType>,
}

impl<'t> Lowerer<'t, '_> {
    /// A `switch` used as a statement.
    pub fn switch_stmt(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<Vec<Stmt>> {
        self.switch(f, node, false)
    }

    /// A `switch` expression: statements computing its value into a temporary, and a read of it.
    pub fn switch_value(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let span = span_of(&node);
        let var = f.temp();
        f.yields.push(Yield { var: var.clone(), ty: None });
        let stmts = self.switch(f, node, true);
        let y = f.yields.pop();
        let stmts = stmts?;
        let Some(ty) = y.and_then(|y| y.ty) else {
            return Err(f.problem(span, "a `switch` expression without a value", None));
        };
        let ty = if ty == JType::Null { JType::Object } else { ty };
        let ty_expr = self.type_expr(f, &ty, span)?;
        let mut pre = vec![
            self.s(StmtKind::Local { ty: ty_expr, name: ident(&var, span), init: None }, span)
        ];
        pre.extend(stmts);
        Ok(LExpr { pre, expr: self.var(&var, span), ty })
    }

    /// `yield v;` inside a switch expression's block: assign the value and leave the switch.
    pub fn yield_stmt(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<Vec<Stmt>> {
        let span = span_of(&node);
        let Some(value) = node.named_child(0) else {
            return Err(f.problem(span, "this `yield`", None));
        };
        let mut out = self.yield_value(f, value)?;
        out.push(self.s(StmtKind::Break, span));
        Ok(out)
    }

    /// The value of a switch expression's arm assigned to its temporary.
    fn yield_value(&mut self, f: &mut Fn<'t>, value: Node<'t>) -> LResult<Vec<Stmt>> {
        let span = span_of(&value);
        let Some(current) = f.yields.last().map(|y| y.ty.clone()) else {
            return Err(f.problem(span, "`yield` outside a `switch` expression", None));
        };
        let v = self.expr(f, value)?;
        if v.ty.unsupported().is_some() {
            return Err(super::build::Stop);
        }
        let ty = match current {
            None | Some(JType::Null) => v.ty.clone(),
            Some(t) if self.assignable(&v.ty, &t) => t,
            Some(t) if self.assignable(&t, &v.ty) => v.ty.clone(),
            Some(t) => {
                let (a, b) = (display(&t, self.decls), display(&v.ty, self.decls));
                return Err(f.problem(
                    span,
                    format!("a `switch` choosing a `{a}` or a `{b}`"),
                    None,
                ));
            }
        };
        let var = match f.yields.last_mut() {
            Some(y) => {
                y.ty = Some(ty);
                y.var.clone()
            }
            None => return Err(super::build::Stop),
        };
        let mut out = v.pre;
        out.push(self.s(StmtKind::Assign { target: ident(&var, span), value: v.expr }, span));
        Ok(out)
    }

    fn switch(&mut self, f: &mut Fn<'t>, node: Node<'t>, value: bool) -> LResult<Vec<Stmt>> {
        let span = span_of(&node);
        let (Some(cond), Some(body)) =
            (node.child_by_field_name("condition"), node.child_by_field_name("body"))
        else {
            return Err(f.problem(span, "this `switch`", None));
        };
        let groups = self.groups(f, body)?;
        let sel = self.expr(f, cond)?;
        if sel.ty != JType::Int {
            let what = match &sel.ty {
                JType::Unsupported(t) if t == "String" => "a `switch` on a `String`".to_string(),
                JType::Class(c) if self.decls.classes[*c].kind == "enum" => {
                    "a `switch` on an enum".to_string()
                }
                t => format!("a `switch` on a `{}`", display(t, self.decls)),
            };
            return Err(f.problem(
                span_of(&cond),
                what,
                Some("HeapLab switches on `int` and `char`; write the others as an `if`/`else if` chain"),
            ));
        }
        let mut out = sel.pre;
        let selector = match &sel.expr.kind {
            ExprKind::Var(_) => sel.expr,
            _ => self.spill(f, &mut out, sel.expr, &JType::Int)?,
        };

        let matches = self.label_matches(f, &groups, &selector)?;

        let falls = groups.iter().enumerate().any(|(i, g)| {
            i + 1 < groups.len() && !g.arrow && !g.body.last().is_some_and(|s| ends_group(s))
        });
        let leaves = groups.iter().any(|g| {
            let n = g.body.len();
            g.body.iter().enumerate().any(|(i, s)| {
                let trailing_break = i + 1 == n && s.kind() == "break_statement";
                !trailing_break && leaves_switch(*s)
            })
        });
        let wrapped = falls || leaves;

        let resume = f.temp();
        if wrapped {
            f.loops.push(LoopKind::Switch { resume: resume.clone(), used: false });
        }
        let bodies: Vec<Vec<Stmt>> =
            groups.iter().map(|g| self.group_body(f, g, wrapped, value)).collect();
        let resumed = if wrapped {
            matches!(f.loops.pop(), Some(LoopKind::Switch { used: true, .. }))
        } else {
            false
        };

        let mut chain = if falls {
            self.fall_through_chain(f, &groups, matches, bodies, span)?
        } else {
            self.if_chain(&groups, matches, bodies)
        };
        // A last `default` group that cannot complete normally ends every run of the loop: no
        // `break` after it, so a method whose switch returns on every path still returns.
        let ends_in_default = groups.last().is_some_and(|g| {
            g.default
                && g.body
                    .last()
                    .is_some_and(|s| matches!(s.kind(), "return_statement" | "throw_statement"))
        });
        if wrapped && !(falls && ends_in_default && !leaves) {
            chain.push(self.s(StmtKind::Break, span));
        }
        if wrapped {
            if falls && !chain.is_empty() {
                // The fall-through flag is declared before the loop.
                out.push(chain.remove(0));
            }
            if resumed {
                let bool_ty = self.type_expr(f, &JType::Boolean, span)?;
                let no = self.e(ExprKind::Bool(false), span);
                out.push(self.s(
                    StmtKind::Local { ty: bool_ty, name: ident(&resume, span), init: Some(no) },
                    span,
                ));
            }
            let t = self.e(ExprKind::Bool(true), span);
            out.push(self.s(StmtKind::While { cond: t, body: block(chain, span) }, span));
            if resumed {
                let again = self.continue_stmt(f, span)?;
                let flag = self.var(&resume, span);
                out.push(self.s(
                    StmtKind::If { cond: flag, then_branch: block(again, span), else_branch: None },
                    span,
                ));
            }
        } else {
            out.extend(chain);
        }
        Ok(vec![self.s(StmtKind::Block(block(out, span)), span)])
    }

    /// Each group's match condition, `sel == l1 || sel == l2 …`, in order (`None` for a group
    /// with no label: `default:` alone).
    fn label_matches(
        &mut self,
        f: &mut Fn<'t>,
        groups: &[Group<'t>],
        selector: &Expr,
    ) -> LResult<Vec<Option<Expr>>> {
        let mut matches: Vec<Option<Expr>> = Vec::new();
        for g in groups {
            let mut cond: Option<Expr> = None;
            for &label in &g.labels {
                let lspan = span_of(&label);
                let l = self.expr(f, label)?;
                if !l.pre.is_empty() || l.ty != JType::Int {
                    return Err(f.problem(
                        lspan,
                        "a `case` label that is not an `int` constant",
                        None,
                    ));
                }
                let sel_read = selector.clone_fresh(self);
                let eq = self.bin(BinOp::Eq, sel_read, l.expr, lspan);
                cond = Some(match cond {
                    None => eq,
                    Some(c) => self.bin(BinOp::Or, c, eq, lspan),
                });
            }
            matches.push(cond);
        }

        Ok(matches)
    }

    /// The groups of a switch block, with their labels.
    fn groups(&mut self, f: &mut Fn<'t>, body: Node<'t>) -> LResult<Vec<Group<'t>>> {
        let mut out: Vec<Group<'t>> = Vec::new();
        let mut cursor = body.walk();
        let children: Vec<Node<'t>> = body.named_children(&mut cursor).collect();
        for child in children {
            let arrow = match child.kind() {
                "switch_block_statement_group" => false,
                "switch_rule" => true,
                "line_comment" | "block_comment" => continue,
                _ => return Err(f.problem(span_of(&child), "this part of a `switch`", None)),
            };
            let mut g = Group {
                labels: Vec::new(),
                default: false,
                body: Vec::new(),
                arrow,
                span: span_of(&child),
            };
            let mut c = child.walk();
            let parts: Vec<Node<'t>> = child.named_children(&mut c).collect();
            for part in parts {
                match part.kind() {
                    "switch_label" => {
                        if text_of(&part, self.text).trim_start().starts_with("default") {
                            g.default = true;
                        }
                        let mut lc = part.walk();
                        let labels: Vec<Node<'t>> = part.named_children(&mut lc).collect();
                        for l in labels {
                            match l.kind() {
                                "line_comment" | "block_comment" => {}
                                "guard" | "pattern" | "type_pattern" | "record_pattern" => {
                                    return Err(f.problem(
                                        span_of(&l),
                                        "a pattern in a `case` label",
                                        None,
                                    ))
                                }
                                _ => g.labels.push(l),
                            }
                        }
                    }
                    "line_comment" | "block_comment" => {}
                    _ => g.body.push(part),
                }
            }
            // `case 1:` directly followed by `case 2:` runs the next group's statements: one
            // group with both labels.
            match out.last_mut() {
                Some(prev) if !prev.arrow && prev.body.is_empty() => {
                    prev.labels.append(&mut g.labels);
                    prev.default |= g.default;
                    prev.body = g.body;
                    prev.span = Span { start: prev.span.start, end: g.span.end };
                }
                _ => out.push(g),
            }
        }
        Ok(out)
    }

    /// A group's statements in their own scope. Without the `while (true)` around the switch, a
    /// group's trailing `break` is dropped (the chain's `else` does its work). A rule's
    /// expression in a switch expression is the value. (Rules never fall through, so a rule
    /// needs no `break` of its own: the chain around it is an `if`/`else if`.)
    fn group_body(
        &mut self,
        f: &mut Fn<'t>,
        g: &Group<'t>,
        wrapped: bool,
        value: bool,
    ) -> Vec<Stmt> {
        f.push();
        let mut out = Vec::new();
        let n = g.body.len();
        for (i, &s) in g.body.iter().enumerate() {
            if !wrapped && i + 1 == n && s.kind() == "break_statement" && s.named_child(0).is_none()
            {
                continue;
            }
            if g.arrow && value && s.kind() == "expression_statement" {
                match s.named_child(0).map(|e| self.yield_value(f, e)) {
                    Some(Ok(stmts)) => out.extend(stmts),
                    Some(Err(_)) | None => f.stopped = true,
                }
                continue;
            }
            out.extend(self.stmt(f, s));
        }
        f.pop();
        out
    }

    /// `if (m1) { b1 } else if (m2) { b2 } … else { default }`: no group falls through.
    fn if_chain(
        &mut self,
        groups: &[Group<'t>],
        matches: Vec<Option<Expr>>,
        bodies: Vec<Vec<Stmt>>,
    ) -> Vec<Stmt> {
        let mut default_body: Option<Block> = None;
        let mut cases: Vec<(Expr, Block, Span)> = Vec::new();
        for ((g, m), b) in groups.iter().zip(matches).zip(bodies) {
            let body = block(b, g.span);
            match (g.default, m) {
                // `case 3: default:` is the default: its labels change nothing.
                (true, _) => default_body = Some(body),
                (false, Some(m)) => cases.push((m, body, g.span)),
                (false, None) => {}
            }
        }
        let mut tail: Option<Block> = default_body;
        for (m, body, gspan) in cases.into_iter().rev() {
            let stmt =
                self.s(StmtKind::If { cond: m, then_branch: body, else_branch: tail }, gspan);
            tail = Some(block(vec![stmt], gspan));
        }
        tail.map(|b| b.stmts).unwrap_or_default()
    }

    /// `boolean go = false; if (go || m1) { go = true; b1 } if (go || m2) { … } …`: once a group
    /// is entered, each later one runs; the default group is entered when no label matches.
    fn fall_through_chain(
        &mut self,
        f: &mut Fn<'t>,
        groups: &[Group<'t>],
        matches: Vec<Option<Expr>>,
        bodies: Vec<Vec<Stmt>>,
        span: Span,
    ) -> LResult<Vec<Stmt>> {
        let go = f.temp();
        let bool_ty = self.type_expr(f, &JType::Boolean, span)?;
        let no = self.e(ExprKind::Bool(false), span);
        let mut out =
            vec![self
                .s(StmtKind::Local { ty: bool_ty, name: ident(&go, span), init: Some(no) }, span)];
        // No label matches: the selector equals none of the labels of any group.
        let mut none_match: Option<Expr> = None;
        for m in matches.iter().flatten() {
            let again = m.clone_fresh(self);
            let not = self.not(again, m.span);
            none_match = Some(match none_match {
                None => not,
                Some(c) => self.bin(BinOp::And, c, not, m.span),
            });
        }
        let last = groups.len().saturating_sub(1);
        for (i, ((g, m), b)) in groups.iter().zip(matches).zip(bodies).enumerate() {
            let mut enter = self.var(&go, g.span);
            let always = g.default && i == last;
            let own = match (g.default, m) {
                // Reached with `go` false only when no label matched.
                (true, _) if i == last => None,
                (true, _) => Some(match &none_match {
                    Some(c) => c.clone_fresh(self),
                    None => self.e(ExprKind::Bool(true), g.span),
                }),
                (false, m) => m,
            };
            if let Some(own) = own {
                enter = self.bin(BinOp::Or, enter, own, g.span);
            }
            let mut stmts = Vec::new();
            if i < last {
                let yes = self.e(ExprKind::Bool(true), g.span);
                stmts.push(
                    self.s(StmtKind::Assign { target: ident(&go, g.span), value: yes }, g.span),
                );
            }
            stmts.extend(b);
            if always {
                out.push(self.s(StmtKind::Block(block(stmts, g.span)), g.span));
            } else {
                out.push(self.s(
                    StmtKind::If {
                        cond: enter,
                        then_branch: block(stmts, g.span),
                        else_branch: None,
                    },
                    g.span,
                ));
            }
        }
        Ok(out)
    }
}

/// A group's last statement that never lets control reach the next group.
fn ends_group(s: &Node) -> bool {
    matches!(
        s.kind(),
        "break_statement"
            | "return_statement"
            | "throw_statement"
            | "continue_statement"
            | "yield_statement"
    )
}

/// Whether `s` holds a `break` or `yield` that leaves the enclosing switch (not one of a loop
/// or switch nested in it).
fn leaves_switch(s: Node) -> bool {
    match s.kind() {
        "break_statement" => s.named_child(0).is_none(),
        "yield_statement" => true,
        "while_statement"
        | "do_statement"
        | "for_statement"
        | "enhanced_for_statement"
        | "switch_expression"
        | "lambda_expression"
        | "class_body" => false,
        _ => {
            let mut cursor = s.walk();
            let children: Vec<Node> = s.named_children(&mut cursor).collect();
            children.into_iter().any(leaves_switch)
        }
    }
}

/// A copy of an expression with fresh node ids (each node of a HeapLab program has its own id).
trait CloneFresh {
    fn clone_fresh(&self, l: &mut Lowerer) -> Expr;
}

impl CloneFresh for Expr {
    fn clone_fresh(&self, l: &mut Lowerer) -> Expr {
        let mut e = self.clone();
        renumber(&mut e, l);
        e
    }
}

fn renumber(e: &mut Expr, l: &mut Lowerer) {
    e.id = l.id();
    match &mut e.kind {
        ExprKind::Binary { lhs, rhs, .. } => {
            renumber(lhs, l);
            renumber(rhs, l);
        }
        ExprKind::Unary { operand, .. } => renumber(operand, l),
        ExprKind::Field { object, .. } => renumber(object, l),
        _ => {}
    }
}
