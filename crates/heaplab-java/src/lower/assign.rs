//! Assignments and `++`/`--`: where a value is stored (a local, a field, an array cell), read
//! and written again with the place's object and index held in temporaries so that Java's
//! evaluation order survives the statements hoisted out of the right side.

use super::build::{ident, Fn, LExpr, LResult};
use super::{FieldRef, Lowerer};
use crate::cst::{span_of, text_of};
use crate::types::JType;
use heaplab_syntax::ast::*;
use heaplab_syntax::Span;
use std::collections::HashSet;
use tree_sitter::Node;

/// Where a value is stored: a local, a field of an object, an array cell. Object and index are
/// stable expressions (literals, `this`, locals), so the place can be read and written again.
pub enum Place {
    Local(String),
    /// The object, its type, the field.
    Field(Expr, JType, String),
    /// The array, its type, the index.
    Index(Expr, JType, Expr),
}

impl<'t> Lowerer<'t, '_> {
    /// The place an assignment or `++` writes, with the statements that compute its object and
    /// index (held in temporaries when `twice`: the place is read and written).
    pub fn place(
        &mut self,
        f: &mut Fn<'t>,
        node: Node<'t>,
        twice: bool,
    ) -> LResult<(Vec<Stmt>, Place, JType)> {
        let span = span_of(&node);
        let (mut pre, place, ty) = match node.kind() {
            "parenthesized_expression" => {
                return match node.named_child(0) {
                    Some(n) => self.place(f, n, twice),
                    None => Err(f.problem(span, "this assignment", None)),
                }
            }
            "identifier" => {
                let name = text_of(&node, self.text);
                if let Some(l) = f.lookup(name) {
                    return Ok((Vec::new(), Place::Local(l.lowered.clone()), l.ty.clone()));
                }
                let e = self.name(f, node)?;
                match e.expr.kind {
                    ExprKind::Field { object, field } => {
                        let this_ty = JType::Class(f.class);
                        (e.pre, Place::Field(*object, this_ty, field.name), e.ty)
                    }
                    _ => return Err(f.problem(span, "an assignment to a constant", None)),
                }
            }
            "field_access" => {
                let (Some(object), Some(field)) =
                    (node.child_by_field_name("object"), node.child_by_field_name("field"))
                else {
                    return Err(f.problem(span, "this assignment", None));
                };
                let fname = text_of(&field, self.text);
                if self.static_receiver(f, object).is_some() {
                    return Err(f.problem(
                        span,
                        format!("an assignment to the static field `{fname}`"),
                        Some("only `static final` constants are in the subset; make it an instance field"),
                    ));
                }
                let obj = self.expr(f, object)?;
                let JType::Class(c) = obj.ty else {
                    return Err(f.problem(span, format!("an assignment to `{fname}`"), None));
                };
                match self.field(c, fname, false) {
                    Some((_, FieldRef::Instance(ty))) => {
                        let lowered = crate::names::ident(fname);
                        (obj.pre, Place::Field(obj.expr, JType::Class(c), lowered), ty)
                    }
                    _ => return Err(f.problem(span, format!("an assignment to `{fname}`"), None)),
                }
            }
            "array_access" => {
                let e = self.array_cell(f, node)?;
                match e.expr.kind {
                    ExprKind::Index { array, index } => {
                        let aty = JType::Array(Box::new(e.ty.clone()));
                        (e.pre, Place::Index(*array, aty, *index), e.ty)
                    }
                    _ => return Err(f.problem(span, "an assignment to this", None)),
                }
            }
            _ => return Err(f.problem(span, "an assignment to this", None)),
        };
        let place = if twice { self.stabilize(f, &mut pre, place)? } else { place };
        Ok((pre, place, ty))
    }

    /// The place with its object and index held in temporaries (unless they are literals,
    /// `this` or locals), so it can be read and written again, or written after statements
    /// that run in between.
    fn stabilize(&mut self, f: &mut Fn, pre: &mut Vec<Stmt>, place: Place) -> LResult<Place> {
        self.stabilize_against(f, pre, place, &HashSet::new())
    }

    /// [`stabilize`](Self::stabilize), where a local is stable only if `assigned` (what later
    /// statements assign) does not name it.
    fn stabilize_against(
        &mut self,
        f: &mut Fn,
        pre: &mut Vec<Stmt>,
        place: Place,
        assigned: &HashSet<String>,
    ) -> LResult<Place> {
        let stable = |e: &Expr| match &e.kind {
            ExprKind::This | ExprKind::Int(_) | ExprKind::Null => true,
            ExprKind::Var(v) => !assigned.contains(&v.name),
            _ => false,
        };
        Ok(match place {
            Place::Local(n) => Place::Local(n),
            Place::Field(o, oty, fld) => {
                let o = if stable(&o) { o } else { self.spill(f, pre, o, &oty)? };
                Place::Field(o, oty, fld)
            }
            Place::Index(a, aty, i) => {
                let a = if stable(&a) { a } else { self.spill(f, pre, a, &aty)? };
                let i = if stable(&i) { i } else { self.spill(f, pre, i, &JType::Int)? };
                Place::Index(a, aty, i)
            }
        })
    }

    /// A fresh read of a place.
    pub fn read_place(&mut self, p: &Place, span: Span) -> Expr {
        match p {
            Place::Local(n) => self.var(n, span),
            Place::Field(o, _, fld) => {
                let o = self.refresh(o);
                self.e(ExprKind::Field { object: Box::new(o), field: ident(fld, span) }, span)
            }
            Place::Index(a, _, i) => {
                let (a, i) = (self.refresh(a), self.refresh(i));
                self.e(ExprKind::Index { array: Box::new(a), index: Box::new(i) }, span)
            }
        }
    }

    pub fn write_place(&mut self, f: &mut Fn, p: &Place, value: Expr, span: Span) -> Stmt {
        match p {
            Place::Local(n) => self.s(StmtKind::Assign { target: ident(n, span), value }, span),
            Place::Field(o, _, fld) => {
                f.effects = true;
                let o = self.refresh(o);
                self.s(StmtKind::FieldStore { object: o, field: ident(fld, span), value }, span)
            }
            Place::Index(a, _, i) => {
                f.effects = true;
                let (a, i) = (self.refresh(a), self.refresh(i));
                self.s(StmtKind::IndexStore { array: a, index: i, value }, span)
            }
        }
    }

    /// The `assume` that an `int` field or cell about to be read by `++` or `op=` holds an
    /// `int` (at 64 bits; `None` otherwise).
    fn range_place(&mut self, p: &Place, ty: &JType, span: Span) -> Option<Stmt> {
        let read = self.read_place(p, span);
        self.assume_place_int(read, ty)
    }

    /// A copy of a (small, stable) expression with fresh node ids.
    pub fn refresh(&mut self, e: &Expr) -> Expr {
        let kind = match &e.kind {
            ExprKind::Field { object, field } => {
                ExprKind::Field { object: Box::new(self.refresh(object)), field: field.clone() }
            }
            ExprKind::Index { array, index } => ExprKind::Index {
                array: Box::new(self.refresh(array)),
                index: Box::new(self.refresh(index)),
            },
            k => k.clone(),
        };
        self.e(kind, e.span)
    }

    /// `x++`, `--a[i]`, … as an expression (`value`) or a statement.
    pub fn update(&mut self, f: &mut Fn<'t>, node: Node<'t>, value: bool) -> LResult<LExpr> {
        let span = span_of(&node);
        let Some(target) = node.named_child(0) else {
            return Err(f.problem(span, "this update", None));
        };
        let prefix = node.child(0).is_some_and(|c| !c.is_named());
        let inc = text_of(&node, self.text).contains("++");
        let (mut pre, place, ty) = self.place(f, target, true)?;
        if !matches!(ty, JType::Int | JType::Long) {
            return Err(f.problem(span, "`++`/`--` on a value that is not an `int`", None));
        }
        let op = if inc { BinOp::Add } else { BinOp::Sub };
        let one = self.e(ExprKind::Int(1), span);
        pre.extend(self.range_place(&place, &ty, span));
        if !value {
            let read = self.read_place(&place, span);
            let next = self.bin(op, read, one, span);
            let next = self.wrap_int(LExpr::pure(next, ty.clone()), span).expr;
            let w = self.write_place(f, &place, next, span);
            pre.push(w);
            let unit = self.e(ExprKind::Int(0), span);
            return Ok(LExpr { pre, expr: unit, ty: JType::Void });
        }
        if prefix {
            let read = self.read_place(&place, span);
            let next = self.bin(op, read, one, span);
            let next = self.wrap_int(LExpr::pure(next, ty.clone()), span).expr;
            let w = self.write_place(f, &place, next, span);
            pre.push(w);
            let v = self.read_place(&place, span);
            // The new value, held so later writes to the place do not change it.
            let v = self.spill(f, &mut pre, v, &ty)?;
            Ok(LExpr { pre, expr: v, ty })
        } else {
            let read = self.read_place(&place, span);
            let old = self.spill(f, &mut pre, read, &ty)?;
            let old2 = self.refresh(&old);
            let next = self.bin(op, old2, one, span);
            let next = self.wrap_int(LExpr::pure(next, ty.clone()), span).expr;
            let w = self.write_place(f, &place, next, span);
            pre.push(w);
            Ok(LExpr { pre, expr: old, ty })
        }
    }

    /// `p = v`, `p op= v` as an expression (`value`: its result is used) or a statement.
    pub fn assignment(&mut self, f: &mut Fn<'t>, node: Node<'t>, value: bool) -> LResult<LExpr> {
        let span = span_of(&node);
        let (Some(l), Some(r), Some(op)) = (
            node.child_by_field_name("left"),
            node.child_by_field_name("right"),
            node.child_by_field_name("operator"),
        ) else {
            return Err(f.problem(span, "this assignment", None));
        };
        let op = text_of(&op, self.text).to_string();
        let compound = op != "=";
        let (mut pre, place, ty) = self.place(f, l, compound || value)?;
        let rhs = self.expr(f, r)?;
        // The place's object and index are evaluated before the right side (Java's order): held
        // in temporaries when the right side's statements could change them.
        let place = if rhs.pre.is_empty() {
            place
        } else {
            let mut assigned = HashSet::new();
            for st in &rhs.pre {
                super::build::assigned_locals(st, &mut assigned);
            }
            self.stabilize_against(f, &mut pre, place, &assigned)?
        };
        let new_value = if compound {
            let bop = match op.as_str() {
                "+=" => Some(BinOp::Add),
                "-=" => Some(BinOp::Sub),
                "*=" => Some(BinOp::Mul),
                "/=" => Some(BinOp::Div),
                "%=" => Some(BinOp::Mod),
                "<<=" => Some(BinOp::Shl),
                ">>=" => Some(BinOp::Shr),
                "&=" | "|=" | "^=" if ty == JType::Boolean => None,
                _ => {
                    return Err(f.problem(span, format!("the operator `{op}`"), None));
                }
            };
            match bop {
                Some(bop) => {
                    if ![&ty, &rhs.ty].iter().all(|t| matches!(t, JType::Int | JType::Long)) {
                        return Err(f.problem(
                            span,
                            format!("`{op}` on a value that is not an `int`"),
                            None,
                        ));
                    }
                    let rhs_expr = if matches!(bop, BinOp::Shl | BinOp::Shr) {
                        let c = self.shift_amount(f, &op, &ty, r)?;
                        self.e(ExprKind::Int(i64::from(c)), rhs.expr.span)
                    } else {
                        rhs.expr
                    };
                    // The place is read before the right side runs (Java's order).
                    let read = self.read_place(&place, span);
                    pre.extend(self.range_place(&place, &ty, span));
                    let old =
                        if rhs.pre.is_empty() { read } else { self.spill(f, &mut pre, read, &ty)? };
                    pre.extend(rhs.pre);
                    // `i op= v` is `i = (int) (i op v)`: the result narrowed to the place's type.
                    let e = self.bin(bop, old, rhs_expr, span);
                    self.wrap_int(LExpr::pure(e, ty.clone()), span).expr
                }
                None => {
                    if rhs.ty != JType::Boolean {
                        return Err(f.problem(span, "this assignment", None));
                    }
                    let read = self.read_place(&place, span);
                    let old = self.spill(f, &mut pre, read, &JType::Boolean)?;
                    pre.extend(rhs.pre);
                    let new = self.spill(f, &mut pre, rhs.expr, &JType::Boolean)?;
                    let bop = match op.as_str() {
                        "&=" => BinOp::And,
                        "|=" => BinOp::Or,
                        _ => BinOp::Ne,
                    };
                    self.bin(bop, old, new, span)
                }
            }
        } else {
            if !self.assignable(&rhs.ty, &ty) {
                let (a, b) = (
                    crate::types::display(&rhs.ty, self.decls),
                    crate::types::display(&ty, self.decls),
                );
                return Err(f.problem(
                    span,
                    format!("storing a `{a}` where a `{b}` is expected"),
                    None,
                ));
            }
            pre.extend(rhs.pre);
            rhs.expr
        };
        if value {
            let held = self.spill(f, &mut pre, new_value, &ty)?;
            let again = self.refresh(&held);
            let w = self.write_place(f, &place, again, span);
            pre.push(w);
            Ok(LExpr { pre, expr: held, ty })
        } else {
            let w = self.write_place(f, &place, new_value, span);
            pre.push(w);
            let unit = self.e(ExprKind::Int(0), span);
            Ok(LExpr { pre, expr: unit, ty: JType::Void })
        }
    }
}
