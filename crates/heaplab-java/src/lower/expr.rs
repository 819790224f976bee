//! Java expressions to HeapLab expressions. What HeapLab writes only as a statement (an
//! assignment, `++`, a constructor call's effects) is hoisted into statements that run first,
//! keeping Java's left-to-right order (`LExpr::pre`, `Lowerer::sequence`).

use super::build::{ident, unsupported_type, Fn, LExpr, LResult, Stop};
use super::{Const, FieldRef, Lowerer, MAX_DEPTH};
use crate::cst::{span_of, text_of};
use crate::types::JType;
use heaplab_syntax::ast::*;
use heaplab_syntax::Span;

use tree_sitter::Node;

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
                if text_of(&node, text).ends_with(['l', 'L']) {
                    let v = self.long_literal(f, node)?;
                    return Ok(LExpr::pure(self.e(ExprKind::Int(v), span), JType::Long));
                }
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
            "identifier" => {
                let v = self.name(f, node)?;
                self.narrowed(f, v)
            }
            "field_access" => {
                let v = self.field_access(f, node)?;
                self.narrowed(f, v)
            }
            "array_access" => {
                let cell = self.array_cell(f, node)?;
                self.narrowed(f, cell)
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
            "switch_expression" => self.switch_value(f, node),
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
    /// A `long` literal (`5L`, `0xFFL`) in 0..=`Long.MAX_VALUE` (hex and binary ones as their
    /// two's-complement bits). `Long.MIN_VALUE` written in decimal is outside the subset.
    fn long_literal(&mut self, f: &mut Fn, node: Node) -> LResult<i64> {
        let span = span_of(&node);
        let raw = text_of(&node, self.text).replace('_', "");
        let raw = raw.trim_end_matches(['l', 'L']);
        let (digits, radix) = match node.kind() {
            "hex_integer_literal" => (&raw[2..], 16),
            "binary_integer_literal" => (&raw[2..], 2),
            "octal_integer_literal" => (&raw[1..], 8),
            _ => (raw, 10),
        };
        match u64::from_str_radix(digits, radix) {
            Ok(v) if radix != 10 => Ok(v as i64),
            Ok(v) if i64::try_from(v).is_ok() => Ok(v as i64),
            _ => Err(f.problem(span, "a `long` literal out of range", None)),
        }
    }

    pub fn int_literal(&mut self, f: &mut Fn, node: Node, negated: bool) -> LResult<i64> {
        let span = span_of(&node);
        let raw = text_of(&node, self.text).replace('_', "");
        if raw.ends_with(['l', 'L']) {
            return Err(f.problem(span, "a `long` literal where a constant `int` is needed", None));
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
    pub(super) fn name(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let span = span_of(&node);
        let name = text_of(&node, self.text);
        if let Some(local) = f.lookup(name) {
            let (lowered, ty) = (local.lowered.clone(), local.ty.clone());
            return Ok(LExpr::pure(self.var(&lowered, span), ty));
        }
        match self.field(f.class, name, true) {
            Some((owner, FieldRef::Instance(ty))) => {
                if !crate::hierarchy::is_subtype(self.decls, f.class, owner) {
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
    pub(super) fn field_access(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
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

    /// An operand of arithmetic or a comparison: an `int` or a `long`.
    pub(super) fn num_operand(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let e = self.expr(f, node)?;
        if e.ty.unsupported().is_some() {
            return Err(Stop);
        }
        if !matches!(e.ty, JType::Int | JType::Long) {
            let shown = crate::types::display(&e.ty, self.decls);
            return Err(f.problem(
                span_of(&node),
                format!("a `{shown}` where a number is needed"),
                None,
            ));
        }
        Ok(e)
    }

    /// `a[i]` as the cell it names (no read yet: `narrowed` makes it one, `place` a target).
    pub fn array_cell(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let span = span_of(&node);
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

    /// An `int` result reduced to Java's 32 bits when the program runs at 64 (a file with
    /// `long`): `(e << 32) >> 32` under `ints java64` keeps the low 32 bits, sign-extended,
    /// which is exactly the `int` Java computes. Under `java32` the engine wraps already.
    pub fn wrap_int(&mut self, e: LExpr, span: Span) -> LExpr {
        if !self.longs || e.ty != JType::Int {
            return e;
        }
        let k = self.e(ExprKind::Int(32), span);
        let up = self.bin(BinOp::Shl, e.expr, k, span);
        let k = self.e(ExprKind::Int(32), span);
        let down = self.bin(BinOp::Shr, up, k, span);
        LExpr { pre: e.pre, expr: down, ty: JType::Int }
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
                let (lo, ro) = (self.num_operand(f, l)?, self.num_operand(f, r)?);
                let bop = match op {
                    "+" => BinOp::Add,
                    "-" => BinOp::Sub,
                    "*" => BinOp::Mul,
                    "/" => BinOp::Div,
                    _ => BinOp::Mod,
                };
                // Binary numeric promotion: `long` if either side is.
                let ty = promote(&lo.ty, &ro.ty);
                let e = self.combine(f, bop, lo, ro, span, ty)?;
                Ok(self.wrap_int(e, span))
            }
            "<" | "<=" | ">" | ">=" => {
                let (lo, ro) = (self.num_operand(f, l)?, self.num_operand(f, r)?);
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
                if !(self.assignable(&lo.ty, &ro.ty) || self.assignable(&ro.ty, &lo.ty)) {
                    let (a, b) = (
                        crate::types::display(&lo.ty, self.decls),
                        crate::types::display(&ro.ty, self.decls),
                    );
                    return Err(f.problem(span, format!("comparing a `{a}` with a `{b}`"), None));
                }
                let bop = if op == "==" { BinOp::Eq } else { BinOp::Ne };
                self.combine(f, bop, lo, ro, span, JType::Boolean)
            }
            "&" | "|" | "^" => self.bitwise(f, op, l, r, span),
            "<<" | ">>" => self.shift(f, op, l, r, span),
            ">>>" => self.unsigned_shift(f, l, r, span),
            _ => Err(f.problem(span, format!("the operator `{op}`"), None)),
        }
    }

    /// `&`, `|`, `^` on booleans (both sides evaluated, as Java does); on `int` they are
    /// outside the subset.
    fn bitwise(
        &mut self,
        f: &mut Fn<'t>,
        op: &str,
        l: Node<'t>,
        r: Node<'t>,
        span: Span,
    ) -> LResult<LExpr> {
        let int_const = |c: Option<Const>| matches!(c, Some(Const::Int(_)));
        if int_const(self.const_value(f, r)) || int_const(self.const_value(f, l)) {
            return self.int_bitwise(f, op, l, r, span);
        }
        let lo = self.expr(f, l)?;
        if matches!(lo.ty, JType::Int | JType::Long) {
            // No constant side: refused there, by name.
            return self.int_bitwise(f, op, l, r, span);
        }
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

    /// `<<` and `>>` by a constant (Java masks an `int` shift's amount to 0..=31).
    fn shift(
        &mut self,
        f: &mut Fn<'t>,
        op: &str,
        l: Node<'t>,
        r: Node<'t>,
        span: Span,
    ) -> LResult<LExpr> {
        let lo = self.num_operand(f, l)?;
        let amount = i64::from(self.shift_amount(f, op, &lo.ty, r)?);
        let rspan = span_of(&r);
        let re = self.e(ExprKind::Int(amount), rspan);
        let bop = if op == "<<" { BinOp::Shl } else { BinOp::Shr };
        let e = self.bin(bop, lo.expr, re, span);
        Ok(self.wrap_int(LExpr { pre: lo.pre, expr: e, ty: lo.ty }, span))
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
                let long = text_of(&operand, self.text).ends_with(['l', 'L']);
                if operand.kind() == "decimal_integer_literal" && !long {
                    let v = self.int_literal(f, operand, true)?;
                    if v == 1 << 31 {
                        return Ok(LExpr::pure(self.e(ExprKind::Int(-v), span), JType::Int));
                    }
                }
                let o = self.num_operand(f, operand)?;
                let e = self.e(ExprKind::Unary { op: UnOp::Neg, operand: Box::new(o.expr) }, span);
                Ok(self.wrap_int(LExpr { pre: o.pre, expr: e, ty: o.ty }, span))
            }
            "!" => {
                let o = self.bool_operand(f, operand)?;
                let e = self.not(o.expr, span);
                Ok(LExpr { pre: o.pre, expr: e, ty: JType::Boolean })
            }
            "+" => self.num_operand(f, operand),
            "~" => {
                let o = self.num_operand(f, operand)?;
                Ok(self.complement(o, span))
            }
            _ => Err(f.problem(span, "this operator", None)),
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
        if !(self.assignable(&a.ty, &ty) && self.assignable(&b.ty, &ty)) {
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

/// Java's binary numeric promotion over the subset's `int` and `long`.
fn promote(a: &JType, b: &JType) -> JType {
    if *a == JType::Long || *b == JType::Long {
        JType::Long
    } else {
        JType::Int
    }
}
