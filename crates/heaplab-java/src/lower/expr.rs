//! Java expressions to HeapLab expressions. What HeapLab writes only as a statement (an
//! assignment, `++`, a constructor call's effects) is hoisted into statements that run first,
//! keeping Java's left-to-right order (`LExpr::pre`, `Lowerer::sequence`).

use super::build::{ident, unsupported_type, Fn, LExpr, LResult, Stop};
use super::{Const, FieldRef, Lowerer, MAX_DEPTH};
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
    pub fn expr(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        f.depth += 1;
        let r = if f.depth > MAX_DEPTH {
            Err(f.problem(span_of(&node), "an expression nested this deeply", None))
        } else {
            self.expr_inner(f, node)
        };
        f.depth -= 1;
        r
    }

    fn expr_inner(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let span = span_of(&node);
        let text = self.text;
        match node.kind() {
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) => self.expr(f, inner),
                None => Err(f.problem(span, "an empty expression", None)),
            },
            "decimal_integer_literal"
            | "hex_integer_literal"
            | "octal_integer_literal"
            | "binary_integer_literal" => {
                let v = self.int_literal(f, node, false)?;
                Ok(LExpr::pure(self.e(ExprKind::Int(v), span), JType::Int))
            }
            "character_literal" => match char_value(text_of(&node, text)) {
                Some(v) => Ok(LExpr::pure(self.e(ExprKind::Int(v), span), JType::Int)),
                None => Err(f.problem(span, "this character literal", None)),
            },
            "true" | "false" => {
                let b = node.kind() == "true";
                Ok(LExpr::pure(self.e(ExprKind::Bool(b), span), JType::Boolean))
            }
            "null_literal" => Ok(LExpr::pure(self.e(ExprKind::Null, span), JType::Null)),
            "this" => {
                if f.is_static {
                    return Err(f.problem(span, "`this` in a static method", None));
                }
                Ok(LExpr::pure(self.e(ExprKind::This, span), JType::Class(f.class)))
            }
            "identifier" => self.name(f, node),
            "field_access" => self.field_access(f, node),
            "array_access" => {
                let (Some(a), Some(i)) =
                    (node.child_by_field_name("array"), node.child_by_field_name("index"))
                else {
                    return Err(f.problem(span, "this array access", None));
                };
                let a = self.expr(f, a)?;
                let elem = match &a.ty {
                    JType::Array(t) => (**t).clone(),
                    t => {
                        let shown = crate::types::display(t, self.decls);
                        return Err(f.problem(span, format!("indexing a `{shown}`"), None));
                    }
                };
                let i = self.int_operand(f, i)?;
                let (pre, mut es) = self.sequence(f, vec![a, i])?;
                let (i, a) = (es.pop(), es.pop());
                let (Some(a), Some(i)) = (a, i) else { return Err(Stop) };
                let e = self.e(ExprKind::Index { array: Box::new(a), index: Box::new(i) }, span);
                Ok(LExpr { pre, expr: e, ty: elem })
            }
            "binary_expression" => self.binary(f, node),
            "unary_expression" => self.unary(f, node),
            "update_expression" => self.update(f, node, true),
            "assignment_expression" => self.assignment(f, node, true),
            "ternary_expression" => self.ternary(f, node),
            "method_invocation" => self.call(f, node),
            "object_creation_expression" => self.new_object(f, node),
            "array_creation_expression" => self.new_array(f, node, None),
            "cast_expression" => self.cast(f, node),
            "instanceof_expression" => self.instance_of(f, node),
            "string_literal" | "text_block" => Err(f.problem(
                span,
                "a `String` value",
                Some("strings are allowed only as exception, assertion and printing messages"),
            )),
            "lambda_expression" => Err(f.problem(span, "a lambda expression", None)),
            "method_reference" => Err(f.problem(span, "a method reference", None)),
            "switch_expression" => {
                Err(f.problem(span, "a `switch`", Some("write it as an `if`/`else if` chain")))
            }
            "class_literal" => Err(f.problem(span, "a class literal", None)),
            "array_initializer" => {
                Err(f.problem(span, "an array initializer here", Some("write `new T[]{…}`")))
            }
            "super" => Err(f.problem(span, "`super`", None)),
            "floating_point_literal" => Err(f.problem(
                span,
                "a floating-point number",
                Some("floating point is outside the subset; use `int`"),
            )),
            kind => Err(f.problem(span, format!("this expression (`{kind}`)"), None)),
        }
    }

    /// An integer literal's value as a Java `int`; `negated` when it is the operand of a unary
    /// minus (so `-2147483648` is allowed).
    pub fn int_literal(&mut self, f: &mut Fn, node: Node, negated: bool) -> LResult<i64> {
        let span = span_of(&node);
        let raw = text_of(&node, self.text).replace('_', "");
        if raw.ends_with(['l', 'L']) {
            return Err(f.problem(
                span,
                "a `long` literal",
                Some("use `int`: HeapLab runs Java's 32-bit `int` arithmetic"),
            ));
        }
        let (digits, radix) = match node.kind() {
            "hex_integer_literal" => (raw[2..].to_string(), 16),
            "binary_integer_literal" => (raw[2..].to_string(), 2),
            "octal_integer_literal" => (raw[1..].to_string(), 8),
            _ => (raw.clone(), 10),
        };
        let Ok(v) = u64::from_str_radix(&digits, radix) else {
            return Err(f.problem(span, "an integer literal out of range", None));
        };
        if radix == 10 {
            let limit = if negated { 1u64 << 31 } else { (1u64 << 31) - 1 };
            if v > limit {
                return Err(f.problem(span, "an integer literal out of `int` range", None));
            }
            Ok(v as i64)
        } else {
            match u32::try_from(v) {
                Ok(u) => Ok(i64::from(u as i32)),
                Err(_) => Err(f.problem(span, "an integer literal out of `int` range", None)),
            }
        }
    }

    /// A bare name: a local, a field of `this`, or a constant.
    fn name(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let span = span_of(&node);
        let name = text_of(&node, self.text);
        if let Some(local) = f.lookup(name) {
            let (lowered, ty) = (local.lowered.clone(), local.ty.clone());
            return Ok(LExpr::pure(self.var(&lowered, span), ty));
        }
        match self.field(f.class, name, true) {
            Some((owner, FieldRef::Instance(ty))) => {
                if owner != f.class {
                    return Err(f.problem(
                        span,
                        format!("the field `{name}` of the enclosing instance"),
                        Some("HeapLab reads an inner class as a record: pass what it needs as a parameter"),
                    ));
                }
                if f.is_static {
                    return Err(f.problem(span, "an instance field in a static method", None));
                }
                let lowered = crate::names::ident(name);
                Ok(LExpr::pure(self.this_field(&lowered, span), ty))
            }
            Some((_, r)) => self.static_field(f, r, name, span),
            None => Err(f.unknown(span, &format!("`{name}`"))),
        }
    }

    fn static_field(&mut self, f: &mut Fn, r: FieldRef, name: &str, span: Span) -> LResult<LExpr> {
        match r {
            FieldRef::Constant(c) => Ok(self.constant(c, span)),
            FieldRef::Dropped(ty) => Err(unsupported_type(f, &ty, span)),
            FieldRef::StaticVar => Err(f.problem(
                span,
                format!("the static field `{name}`"),
                Some("only `static final` constants are in the subset; make it an instance field"),
            )),
            FieldRef::Instance(_) => Err(f.problem(span, format!("the field `{name}`"), None)),
        }
    }

    pub fn constant(&mut self, c: Const, span: Span) -> LExpr {
        match c {
            Const::Int(v) => LExpr::pure(self.e(ExprKind::Int(v), span), JType::Int),
            Const::Bool(b) => LExpr::pure(self.e(ExprKind::Bool(b), span), JType::Boolean),
        }
    }

    /// `obj.f`, `this.f`, `a.length`, `C.CONST`, `Integer.MAX_VALUE`.
    fn field_access(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let span = span_of(&node);
        let (Some(object), Some(field)) =
            (node.child_by_field_name("object"), node.child_by_field_name("field"))
        else {
            return Err(f.problem(span, "this field access", None));
        };
        let fname = text_of(&field, self.text);
        if field.kind() == "this" {
            return Err(f.problem(
                span,
                "`Outer.this`",
                Some("pass the outer object as a parameter"),
            ));
        }
        if object.kind() == "super" {
            return Err(f.problem(span, "`super`", None));
        }
        if let Some(class) = self.static_receiver(f, object) {
            return match class {
                StaticRecv::Class(c) => match self.field(c, fname, false) {
                    Some((_, r)) => self.static_field(f, r, fname, span),
                    None => Err(f.unknown(span, &format!("`{fname}`"))),
                },
                StaticRecv::Jdk(cls) => match crate::jdk::int_constant(&cls, fname) {
                    Some(v) => Ok(self.constant(Const::Int(v), span)),
                    None => Err(f.problem(span, format!("`{cls}.{fname}`"), None)),
                },
            };
        }
        let obj = self.expr(f, object)?;
        match &obj.ty {
            JType::Unsupported(_) => Err(Stop),
            JType::Array(_) if fname == "length" => {
                let e = self.e(
                    ExprKind::Field { object: Box::new(obj.expr), field: ident("length", span) },
                    span,
                );
                Ok(LExpr { pre: obj.pre, expr: e, ty: JType::Int })
            }
            JType::Class(c) => {
                let c = *c;
                match self.field(c, fname, false) {
                    Some((_, FieldRef::Instance(ty))) => {
                        let lowered = crate::names::ident(fname);
                        let e = self.e(
                            ExprKind::Field {
                                object: Box::new(obj.expr),
                                field: ident(&lowered, span),
                            },
                            span,
                        );
                        Ok(LExpr { pre: obj.pre, expr: e, ty })
                    }
                    Some((_, r)) => self.static_field(f, r, fname, span),
                    None => Err(f.problem(span, format!("the field `{fname}`"), None)),
                }
            }
            t => {
                let shown = crate::types::display(t, self.decls);
                Err(f.problem(span, format!("the field `{fname}` of a `{shown}`"), None))
            }
        }
    }

    /// A receiver that names a class rather than a value: one of the file's classes, or a JDK
    /// class (`Math`, `Integer`, `System.out`).
    pub fn static_receiver(&self, f: &Fn, node: Node) -> Option<StaticRecv> {
        let text = text_of(&node, self.text);
        match node.kind() {
            "identifier" => {
                if f.lookup(text).is_some() || self.field(f.class, text, true).is_some() {
                    return None;
                }
                match self.decls.find_class(text, Some(f.class)) {
                    Some(c) => Some(StaticRecv::Class(c)),
                    None if text.starts_with(|c: char| c.is_ascii_uppercase()) => {
                        Some(StaticRecv::Jdk(text.to_string()))
                    }
                    None => None,
                }
            }
            "field_access" | "scoped_identifier" => {
                let t = text.replace(char::is_whitespace, "");
                if matches!(t.as_str(), "System.out" | "System.err") {
                    return Some(StaticRecv::Jdk(t));
                }
                None
            }
            _ => None,
        }
    }

    fn int_operand(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let e = self.expr(f, node)?;
        if e.ty.unsupported().is_some() {
            return Err(Stop);
        }
        if e.ty != JType::Int {
            let shown = crate::types::display(&e.ty, self.decls);
            return Err(f.problem(
                span_of(&node),
                format!("a `{shown}` where an `int` is needed"),
                None,
            ));
        }
        Ok(e)
    }

    fn bool_operand(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let e = self.expr(f, node)?;
        if e.ty.unsupported().is_some() {
            return Err(Stop);
        }
        if e.ty != JType::Boolean {
            let shown = crate::types::display(&e.ty, self.decls);
            return Err(f.problem(
                span_of(&node),
                format!("a `{shown}` where a `boolean` is needed"),
                None,
            ));
        }
        Ok(e)
    }

    fn binary(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let span = span_of(&node);
        let (Some(l), Some(r), Some(op)) = (
            node.child_by_field_name("left"),
            node.child_by_field_name("right"),
            node.child_by_field_name("operator"),
        ) else {
            return Err(f.problem(span, "this expression", None));
        };
        let op = text_of(&op, self.text);
        match op {
            "&&" | "||" => {
                let l = self.bool_operand(f, l)?;
                let r = self.bool_operand(f, r)?;
                let bop = if op == "&&" { BinOp::And } else { BinOp::Or };
                if r.pre.is_empty() {
                    let e = self.bin(bop, l.expr, r.expr, span);
                    return Ok(LExpr { pre: l.pre, expr: e, ty: JType::Boolean });
                }
                // bool t = l; if (t) { r.pre; t = r; }   (`if (!t)` for ||)
                let mut pre = l.pre;
                let t = f.temp();
                let decl = self.s(
                    StmtKind::Local {
                        ty: TypeExpr::Bool(span),
                        name: ident(&t, span),
                        init: Some(l.expr),
                    },
                    span,
                );
                pre.push(decl);
                let mut then = r.pre;
                then.push(
                    self.s(StmtKind::Assign { target: ident(&t, span), value: r.expr }, span),
                );
                let mut cond = self.var(&t, span);
                if bop == BinOp::Or {
                    cond = self.not(cond, span);
                }
                pre.push(self.s(
                    StmtKind::If {
                        cond,
                        then_branch: super::build::block(then, span),
                        else_branch: None,
                    },
                    span,
                ));
                Ok(LExpr { pre, expr: self.var(&t, span), ty: JType::Boolean })
            }
            "+" | "-" | "*" | "/" | "%" => {
                let (lo, ro) = (self.int_operand(f, l)?, self.int_operand(f, r)?);
                let bop = match op {
                    "+" => BinOp::Add,
                    "-" => BinOp::Sub,
                    "*" => BinOp::Mul,
                    "/" => BinOp::Div,
                    _ => BinOp::Mod,
                };
                self.combine(f, bop, lo, ro, span, JType::Int)
            }
            "<" | "<=" | ">" | ">=" => {
                let (lo, ro) = (self.int_operand(f, l)?, self.int_operand(f, r)?);
                let bop = match op {
                    "<" => BinOp::Lt,
                    "<=" => BinOp::Le,
                    ">" => BinOp::Gt,
                    _ => BinOp::Ge,
                };
                self.combine(f, bop, lo, ro, span, JType::Boolean)
            }
            "==" | "!=" => {
                let (lo, ro) = (self.expr(f, l)?, self.expr(f, r)?);
                if lo.ty.unsupported().is_some() || ro.ty.unsupported().is_some() {
                    return Err(Stop);
                }
                if !(lo.ty.assignable_to(&ro.ty) || ro.ty.assignable_to(&lo.ty)) {
                    let (a, b) = (
                        crate::types::display(&lo.ty, self.decls),
                        crate::types::display(&ro.ty, self.decls),
                    );
                    return Err(f.problem(span, format!("comparing a `{a}` with a `{b}`"), None));
                }
                let bop = if op == "==" { BinOp::Eq } else { BinOp::Ne };
                self.combine(f, bop, lo, ro, span, JType::Boolean)
            }
            "&" | "|" | "^" => {
                let lo = self.expr(f, l)?;
                if lo.ty != JType::Boolean {
                    return Err(f.problem(
                        span,
                        format!("the bitwise operator `{op}` on `int`"),
                        Some("write the arithmetic with `+ - * / %` and comparisons"),
                    ));
                }
                let ro = self.bool_operand(f, r)?;
                // Both sides are evaluated in Java: hold each in a temporary first.
                let mut pre = lo.pre;
                let a = self.spill(f, &mut pre, lo.expr, &JType::Boolean)?;
                pre.extend(ro.pre);
                let b = self.spill(f, &mut pre, ro.expr, &JType::Boolean)?;
                let bop = match op {
                    "&" => BinOp::And,
                    "|" => BinOp::Or,
                    _ => BinOp::Ne,
                };
                let e = self.bin(bop, a, b, span);
                Ok(LExpr { pre, expr: e, ty: JType::Boolean })
            }
            "<<" | ">>" => {
                let lo = self.int_operand(f, l)?;
                let Some(Const::Int(amount)) = self.const_value(f, r) else {
                    return Err(f.problem(
                        span_of(&r),
                        "a shift by an amount that is not a constant",
                        Some("multiply or divide by a power of two instead"),
                    ));
                };
                let amount = amount & 31;
                let rspan = span_of(&r);
                let re = self.e(ExprKind::Int(amount), rspan);
                let bop = if op == "<<" { BinOp::Shl } else { BinOp::Shr };
                let e = self.bin(bop, lo.expr, re, span);
                Ok(LExpr { pre: lo.pre, expr: e, ty: JType::Int })
            }
            ">>>" => Err(f.problem(
                span,
                "the unsigned shift `>>>`",
                Some("for a value known to be non-negative, `>>` is the same"),
            )),
            _ => Err(f.problem(span, format!("the operator `{op}`"), None)),
        }
    }

    fn combine(
        &mut self,
        f: &mut Fn,
        op: BinOp,
        l: LExpr,
        r: LExpr,
        span: Span,
        ty: JType,
    ) -> LResult<LExpr> {
        let (pre, mut es) = self.sequence(f, vec![l, r])?;
        let (r, l) = (es.pop(), es.pop());
        let (Some(l), Some(r)) = (l, r) else { return Err(Stop) };
        let e = self.bin(op, l, r, span);
        Ok(LExpr { pre, expr: e, ty })
    }

    fn unary(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let span = span_of(&node);
        let (Some(operand), Some(op)) =
            (node.child_by_field_name("operand"), node.child_by_field_name("operator"))
        else {
            return Err(f.problem(span, "this expression", None));
        };
        match text_of(&op, self.text) {
            "-" => {
                if operand.kind() == "decimal_integer_literal" {
                    let v = self.int_literal(f, operand, true)?;
                    if v == 1 << 31 {
                        return Ok(LExpr::pure(self.e(ExprKind::Int(-v), span), JType::Int));
                    }
                }
                let o = self.int_operand(f, operand)?;
                let e = self.e(ExprKind::Unary { op: UnOp::Neg, operand: Box::new(o.expr) }, span);
                Ok(LExpr { pre: o.pre, expr: e, ty: JType::Int })
            }
            "!" => {
                let o = self.bool_operand(f, operand)?;
                let e = self.not(o.expr, span);
                Ok(LExpr { pre: o.pre, expr: e, ty: JType::Boolean })
            }
            "+" => self.int_operand(f, operand),
            _ => Err(f.problem(span, "the bitwise complement `~`", None)),
        }
    }

    fn ternary(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let span = span_of(&node);
        let (Some(c), Some(a), Some(b)) = (
            node.child_by_field_name("condition"),
            node.child_by_field_name("consequence"),
            node.child_by_field_name("alternative"),
        ) else {
            return Err(f.problem(span, "this expression", None));
        };
        let c = self.bool_operand(f, c)?;
        let a = self.expr(f, a)?;
        let b = self.expr(f, b)?;
        let ty = if a.ty == JType::Null { b.ty.clone() } else { a.ty.clone() };
        if !(a.ty.assignable_to(&ty) && b.ty.assignable_to(&ty)) {
            let (x, y) = (
                crate::types::display(&a.ty, self.decls),
                crate::types::display(&b.ty, self.decls),
            );
            return Err(f.problem(
                span,
                format!("a conditional choosing a `{x}` or a `{y}`"),
                None,
            ));
        }
        if a.pre.is_empty() && b.pre.is_empty() {
            let e = self.e(
                ExprKind::Cond {
                    cond: Box::new(c.expr),
                    then_expr: Box::new(a.expr),
                    else_expr: Box::new(b.expr),
                },
                span,
            );
            return Ok(LExpr { pre: c.pre, expr: e, ty });
        }
        // T t; if (c) { a.pre; t = a } else { b.pre; t = b }
        let mut pre = c.pre;
        let t = f.temp();
        let ty_expr = self.type_expr(f, &ty, span)?;
        pre.push(self.s(StmtKind::Local { ty: ty_expr, name: ident(&t, span), init: None }, span));
        let mut then = a.pre;
        then.push(self.s(StmtKind::Assign { target: ident(&t, span), value: a.expr }, span));
        let mut other = b.pre;
        other.push(self.s(StmtKind::Assign { target: ident(&t, span), value: b.expr }, span));
        pre.push(self.s(
            StmtKind::If {
                cond: c.expr,
                then_branch: super::build::block(then, span),
                else_branch: Some(super::build::block(other, span)),
            },
            span,
        ));
        Ok(LExpr { pre, expr: self.var(&t, span), ty })
    }

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
                let e = self.expr(f, node)?;
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

    /// A copy of a (small, stable) expression with fresh node ids.
    pub fn refresh(&mut self, e: &Expr) -> Expr {
        let kind = match &e.kind {
            ExprKind::Field { object, field } => {
                ExprKind::Field { object: Box::new(self.refresh(object)), field: field.clone() }
            }
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
        if ty != JType::Int {
            return Err(f.problem(span, "`++`/`--` on a value that is not an `int`", None));
        }
        let op = if inc { BinOp::Add } else { BinOp::Sub };
        let one = self.e(ExprKind::Int(1), span);
        if !value {
            let read = self.read_place(&place, span);
            let next = self.bin(op, read, one, span);
            let w = self.write_place(f, &place, next, span);
            pre.push(w);
            let unit = self.e(ExprKind::Int(0), span);
            return Ok(LExpr { pre, expr: unit, ty: JType::Void });
        }
        if prefix {
            let read = self.read_place(&place, span);
            let next = self.bin(op, read, one, span);
            let w = self.write_place(f, &place, next, span);
            pre.push(w);
            let v = self.read_place(&place, span);
            // The new value, held so later writes to the place do not change it.
            let v = self.spill(f, &mut pre, v, &JType::Int)?;
            Ok(LExpr { pre, expr: v, ty: JType::Int })
        } else {
            let read = self.read_place(&place, span);
            let old = self.spill(f, &mut pre, read, &JType::Int)?;
            let old2 = self.refresh(&old);
            let next = self.bin(op, old2, one, span);
            let w = self.write_place(f, &place, next, span);
            pre.push(w);
            Ok(LExpr { pre, expr: old, ty: JType::Int })
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
                    if ty != JType::Int || rhs.ty != JType::Int {
                        return Err(f.problem(
                            span,
                            format!("`{op}` on a value that is not an `int`"),
                            None,
                        ));
                    }
                    let rhs_expr = if matches!(bop, BinOp::Shl | BinOp::Shr) {
                        match self.const_value(f, r) {
                            Some(Const::Int(c)) => self.e(ExprKind::Int(c & 31), rhs.expr.span),
                            _ => {
                                return Err(f.problem(
                                    span,
                                    "a shift by an amount that is not a constant",
                                    None,
                                ))
                            }
                        }
                    } else {
                        rhs.expr
                    };
                    // The place is read before the right side runs (Java's order).
                    let read = self.read_place(&place, span);
                    let old = if rhs.pre.is_empty() {
                        read
                    } else {
                        self.spill(f, &mut pre, read, &JType::Int)?
                    };
                    pre.extend(rhs.pre);
                    self.bin(bop, old, rhs_expr, span)
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
            if !rhs.ty.assignable_to(&ty) {
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

/// A receiver that names a class.
pub enum StaticRecv {
    Class(usize),
    Jdk(String),
}

/// The value of a Java character literal (`'a'`, `'\n'`, `'\u0041'`).
pub fn char_value(lit: &str) -> Option<i64> {
    let inner = lit.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut chars = inner.chars();
    let first = chars.next()?;
    if first != '\\' {
        return if chars.next().is_none() { Some(first as i64) } else { None };
    }
    let rest: String = chars.collect();
    Some(match rest.as_str() {
        "n" => 10,
        "t" => 9,
        "r" => 13,
        "b" => 8,
        "f" => 12,
        "0" => 0,
        "s" => 32,
        "'" => 39,
        "\"" => 34,
        "\\" => 92,
        r if r.starts_with('u') => i64::from_str_radix(r.trim_start_matches('u'), 16).ok()?,
        r => i64::from_str_radix(r, 8).ok()?,
    })
}
