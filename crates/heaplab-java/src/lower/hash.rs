//! What a hash table's `(key.hashCode() & 0x7fffffff) % m` and `key.equals(k)` need.
//!
//! `hashCode()` of a `Comparable` element is its order key: an unknown `int` chosen per object
//! and the same on every call, like the key `compareTo` reads (the JUnit export's `Elem`
//! returns its key), so equal keys hash alike and the table's every bucket is reachable.
//! `hashCode()` of an `Object` element (an unbounded type parameter) is a hidden `int` field of
//! the element, likewise unknown per object and fixed; the JUnit export builds such an element
//! as a small class of the test whose `hashCode` returns it and whose `equals` is identity.
//! `equals` on an element without its own is identity.
//!
//! The bitwise operators on `int` and `long` that HeapLab's integer arithmetic expresses
//! exactly (the engine has no bit-vector terms): `x & (2^k - 1)` with a constant mask, `x >>> k`
//! by a constant, and `~x`. The rest (`|`, `^`, `&` with another mask) is refused by name.

use super::build::{ident, Fn, LExpr, LResult, Stop};
use super::Synth;
use super::{Const, Lowerer};
use crate::cst::span_of;
use crate::types::display;
use crate::types::JType;
use heaplab_syntax::ast::*;
use heaplab_syntax::Span;
use tree_sitter::Node;

impl<'t> Lowerer<'t, '_> {
    /// `e.hashCode()` on an element: the field that holds its hash, the key of a `Comparable`
    /// and the hidden [`crate::HASH_FIELD`] of an `Object` (a null `e` throws, as in Java).
    pub(super) fn hash_code(
        &mut self,
        f: &mut Fn,
        recv: LExpr,
        field: &str,
        span: Span,
    ) -> LResult<LExpr> {
        let (pre, held) = self.held(f, recv)?;
        let key = ident(field, span);
        let e = self.e(ExprKind::Field { object: Box::new(held), field: key }, span);
        self.narrowed(f, LExpr { pre, expr: e, ty: JType::Int })
    }

    /// `a.equals(b)` where `a`'s class does not define `equals`: Java's `Object.equals`, identity
    /// (and a null dereference when `a` is null).
    pub(super) fn identity_equals(
        &mut self,
        f: &mut Fn,
        recv: LExpr,
        args: Vec<LExpr>,
        span: Span,
    ) -> LResult<LExpr> {
        let ty = recv.ty.clone();
        let Some(arg) = args.first() else { return Err(Stop) };
        if !self.assignable(&arg.ty, &ty) {
            let (a, b) = (display(&arg.ty, self.decls), display(&ty, self.decls));
            return Err(f.problem(
                span,
                format!("`equals` between a `{b}` and a `{a}`"),
                Some("HeapLab's `equals` compares objects of one class"),
            ));
        }
        let class = match &ty {
            JType::Class(c) => self.decls.classes[*c].lowered.clone(),
            JType::Object => "Object".to_string(),
            _ => heaplab_syntax::builtin::COMPARABLE.to_string(),
        };
        self.synth.insert(Synth::Equals(class));
        let params = [ty];
        self.builtin_call(f, recv, "equals", args, &params, JType::Boolean, span)
    }

    /// `&`, `|`, `^` whose left side is an `int` or a `long`.
    pub(super) fn int_bitwise(
        &mut self,
        f: &mut Fn<'t>,
        op: &str,
        l: Node<'t>,
        r: Node<'t>,
        span: Span,
    ) -> LResult<LExpr> {
        if op != "&" {
            return Err(f.problem(
                span,
                format!("the bitwise operator `{op}` on `int`"),
                Some("only `x & (2^k - 1)` with a constant mask, `>>>`, `<<`, `>>` by a constant and `~` are in the subset"),
            ));
        }
        // The mask is the constant side; when both are, the one that is a mask of low bits.
        let is_mask = |m: i64| m == -1 || (m >= 0 && (m + 1).count_ones() == 1);
        let (value, mask) = match (self.const_value(f, r), self.const_value(f, l)) {
            (Some(Const::Int(m)), Some(Const::Int(n))) if !is_mask(m) && is_mask(n) => (r, n),
            (Some(Const::Int(m)), _) => (l, m),
            (_, Some(Const::Int(m))) => (r, m),
            _ => {
                return Err(f.problem(
                    span,
                    "`&` between two values that are not constants",
                    Some("only `x & (2^k - 1)` with a constant mask, such as `x & 0x7fffffff`, is in the subset"),
                ))
            }
        };
        let v = self.num_operand(f, value)?;
        let width: u32 = if v.ty == JType::Long { 64 } else { 32 };
        // An `int` mask of a `long` is sign-extended, as Java's promotion does.
        if mask == -1 {
            return Ok(v);
        }
        if !is_mask(mask) {
            return Err(f.problem(
                span,
                format!("`&` with the mask {mask} (not 2^k - 1)"),
                Some("only masks of low bits (`0x7fffffff`, `0xff`, `m - 1` for a constant power of two `m`) are in the subset"),
            ));
        }
        let k = (mask + 1).trailing_zeros();
        let ty = v.ty.clone();
        let (mut pre, t) = self.held(f, v)?;
        if k == 0 {
            return Ok(LExpr { pre, expr: self.e(ExprKind::Int(0), span), ty });
        }
        if k == width - 1 {
            // The sign bit cleared: a negative x becomes x + 2^(w-1), written (x + MAX) + 1 so
            // that no literal leaves the range.
            let max = if width == 32 { i64::from(i32::MAX) } else { i64::MAX };
            let again = self.refresh(&t);
            let raised = self.plus(again, max, span);
            let raised = self.plus(raised, 1, span);
            let e = self.if_negative(&t, raised, span);
            return Ok(LExpr { pre, expr: e, ty });
        }
        // The low k bits: Java's `%` keeps the sign, so a negative remainder gets 2^k added.
        let m = self.e(ExprKind::Int(1 << k), span);
        let rem = self.bin(BinOp::Mod, t, m, span);
        let rem = self.spill(f, &mut pre, rem, &ty)?;
        let again = self.refresh(&rem);
        let raised = self.plus(again, 1 << k, span);
        let e = self.if_negative(&rem, raised, span);
        Ok(LExpr { pre, expr: e, ty })
    }

    /// The amount of a shift `op` (`<<`, `>>`, `>>>` or their compound forms) of a value of
    /// type `ty` by `r`: a constant, masked to the value's width as Java does. The engine's shift
    /// amounts are 0..=62, so a `long` shift by 63 is refused.
    pub(super) fn shift_amount(
        &mut self,
        f: &mut Fn<'t>,
        op: &str,
        ty: &JType,
        r: Node<'t>,
    ) -> LResult<u32> {
        let Some(Const::Int(amount)) = self.const_value(f, r) else {
            // `<<` and `>>` are a product and a floor division by a power of two; `>>>` is not.
            let help =
                (!op.starts_with(">>>")).then_some("multiply or divide by a power of two instead");
            return Err(f.problem(
                span_of(&r),
                format!("a shift `{op}` by an amount that is not a constant"),
                help,
            ));
        };
        let width: i64 = if *ty == JType::Long { 64 } else { 32 };
        let k = amount & (width - 1);
        if k > 62 {
            return Err(f.problem(span_of(&r), "a `long` shift by 63", None));
        }
        Ok(k as u32)
    }

    /// `x >>> k` by a constant: `x >> k` when x is not negative, else that plus 2^(w-k).
    pub(super) fn unsigned_shift(
        &mut self,
        f: &mut Fn<'t>,
        l: Node<'t>,
        r: Node<'t>,
        span: Span,
    ) -> LResult<LExpr> {
        let v = self.num_operand(f, l)?;
        let k = self.shift_amount(f, ">>>", &v.ty, r)?;
        let width: u32 = if v.ty == JType::Long { 64 } else { 32 };
        if k == 0 {
            return Ok(v);
        }
        let ty = v.ty.clone();
        let (pre, t) = self.held(f, v)?;
        let amount = self.e(ExprKind::Int(i64::from(k)), span);
        let again = self.refresh(&t);
        let shifted = self.bin(BinOp::Shr, again, amount, span);
        // 2^(w-k) added as (2^(w-k) - 1) + 1 so that no literal leaves the range.
        let top = (1i128 << (width - k)) - 1;
        let raised = self.plus(shifted.clone(), top as i64, span);
        let raised = self.plus(raised, 1, span);
        let shifted = self.refresh_deep(&shifted);
        let cond = self.negative(&t, span);
        let e = self.e(
            ExprKind::Cond {
                cond: Box::new(cond),
                then_expr: Box::new(raised),
                else_expr: Box::new(shifted),
            },
            span,
        );
        Ok(LExpr { pre, expr: e, ty })
    }

    /// `~x`, which is `-x - 1` at every width (and wraps alike at the ends of the range).
    pub(super) fn complement(&mut self, v: LExpr, span: Span) -> LExpr {
        let neg = self.e(ExprKind::Unary { op: UnOp::Neg, operand: Box::new(v.expr) }, span);
        let one = self.e(ExprKind::Int(1), span);
        let e = self.bin(BinOp::Sub, neg, one, span);
        self.wrap_int(LExpr { pre: v.pre, expr: e, ty: v.ty }, span)
    }

    fn plus(&mut self, e: Expr, c: i64, span: Span) -> Expr {
        let c = self.e(ExprKind::Int(c), span);
        self.bin(BinOp::Add, e, c, span)
    }

    fn negative(&mut self, t: &Expr, span: Span) -> Expr {
        let zero = self.e(ExprKind::Int(0), span);
        let t = self.refresh(t);
        self.bin(BinOp::Lt, t, zero, span)
    }

    /// `t < 0 ? then : t` for a held value `t`.
    fn if_negative(&mut self, t: &Expr, then: Expr, span: Span) -> Expr {
        let cond = self.negative(t, span);
        let other = self.refresh(t);
        self.e(
            ExprKind::Cond {
                cond: Box::new(cond),
                then_expr: Box::new(then),
                else_expr: Box::new(other),
            },
            span,
        )
    }

    /// `t >> k` again with fresh node ids.
    fn refresh_deep(&mut self, e: &Expr) -> Expr {
        match &e.kind {
            ExprKind::Binary { op, lhs, rhs } => {
                let (l, r) = (self.refresh_deep(lhs), self.refresh_deep(rhs));
                self.bin(*op, l, r, e.span)
            }
            _ => self.refresh(e),
        }
    }
}
