//! Expressions: each leaves its value on the operand stack.

use super::*;
use heaplab_syntax::ast::Ident;

impl Cx<'_> {
    /// The array class (`int[]`) of an array-typed expression.
    fn array_class(&self, e: &Expr) -> String {
        match self.info.type_of(e.id) {
            Some(t @ Type::Array(_)) => t.to_string(),
            _ => "int[]".to_string(),
        }
    }

    pub(super) fn expr(&mut self, e: &Expr) {
        self.within(e.span, |cx| cx.expr_code(e));
    }

    fn expr_code(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Int(n) => {
                self.emit(Instr::Const(Const::Int(*n)));
            }
            ExprKind::Bool(b) => {
                self.emit(Instr::Const(Const::Bool(*b)));
            }
            ExprKind::Null => {
                self.emit(Instr::Const(Const::Null));
            }
            ExprKind::This => match self.lookup("this").map(|v| v.slot) {
                Some(slot) => {
                    self.emit(Instr::Load(slot));
                }
                None => self.invalid("`this` outside a method", e.span),
            },
            ExprKind::Result => match self.result_slot {
                Some(slot) => {
                    self.emit(Instr::Load(slot));
                }
                None => self.invalid("`result` outside `ensures`", e.span),
            },
            ExprKind::Var(id) => match self.lookup(&id.name).map(|v| (v.slot, v.existential)) {
                Some((slot, true)) => {
                    self.emit(Instr::LoadOrFresh(slot));
                }
                Some((slot, false)) => {
                    self.emit(Instr::Load(slot));
                }
                None => self.invalid(format!("unknown variable `{}`", id.name), id.span),
            },
            ExprKind::Field { object, .. }
                if matches!(self.info.type_of(object.id), Some(Type::Array(_))) =>
            {
                self.expr(object);
                self.emit(Instr::ArrayLength { node: e.id, span: e.span });
            }
            ExprKind::Field { object, field } => {
                let Some(class) = self.class_of(object) else {
                    return self.invalid("field read on a non-object", e.span);
                };
                let ty =
                    self.out.field_type(&class, &field.name).cloned().unwrap_or(SlotType::Other);
                self.expr(object);
                self.emit(Instr::GetField {
                    class,
                    field: field.name.clone(),
                    ty,
                    node: e.id,
                    span: e.span,
                });
            }
            ExprKind::Index { array, index } => {
                self.expr(array);
                self.expr(index);
                self.emit(Instr::ArrayLoad { node: e.id, span: e.span });
            }
            ExprKind::NewArray { len, .. } => {
                let class = self.array_class(e);
                self.expr(len);
                self.emit(Instr::NewArray { class, count: None, node: e.id, span: e.span });
            }
            ExprKind::ArrayLit { elems, .. } => {
                let class = self.array_class(e);
                for v in elems {
                    self.expr(v);
                }
                let count = Some(elems.len());
                self.emit(Instr::NewArray { class, count, node: e.id, span: e.span });
            }
            ExprKind::Unary { op, operand } => {
                self.expr(operand);
                self.emit(Instr::Unary { op: *op, node: e.id, span: e.span });
            }
            ExprKind::Binary { op: BinOp::And, lhs, rhs } => self.and(e, lhs, rhs),
            ExprKind::Binary { op: BinOp::Or, lhs, rhs } => self.or(e, lhs, rhs),
            ExprKind::Binary { op, lhs, rhs } => {
                if self.compare_sign(e, *op, lhs, rhs) {
                    return;
                }
                let kind = match op {
                    BinOp::Eq | BinOp::Ne => self.kind_of(lhs).max_with(self.kind_of(rhs)),
                    _ => OperandKind::Int,
                };
                self.expr(lhs);
                self.expr(rhs);
                self.emit(Instr::Binary { op: *op, kind, node: e.id, span: e.span });
            }
            ExprKind::Cond { cond, then_expr, else_expr } => {
                self.conditional(e, cond, then_expr, else_expr)
            }
            ExprKind::Call { callee, args } => self.call_expr(e, callee, args),
            ExprKind::MethodCall { receiver, method, args } => {
                self.method_call(e, receiver, method, args)
            }
            ExprKind::New { class, fields } => {
                let mut inits = Vec::new();
                for FieldInit { field, value } in fields {
                    self.expr(value);
                    inits.push(field.name.clone());
                }
                self.emit(Instr::New { class: class.name.clone(), inits });
            }
            ExprKind::Old(_) => match self.olds.get(&e.id).copied() {
                Some(slot) => {
                    self.emit(Instr::Load(slot));
                }
                None => self.invalid("`old` outside `ensures`", e.span),
            },
            ExprKind::Wildcard => self.invalid("`_` outside a points-to", e.span),
        }
    }

    /// `a && b`: `b` only when `a` holds (a branch site).
    fn and(&mut self, e: &Expr, lhs: &Expr, rhs: &Expr) {
        self.expr(lhs);
        let site = self.site(e.id);
        let br = self.emit(Instr::BranchFalse { target: usize::MAX, site });
        self.expr(rhs);
        let j = self.emit(Instr::Jump(usize::MAX));
        let f = self.here();
        self.patch(br, f);
        self.emit(Instr::Const(Const::Bool(false)));
        let end = self.here();
        self.patch(j, end);
    }

    /// `a || b`: `b` only when `a` does not hold (a branch site).
    fn or(&mut self, e: &Expr, lhs: &Expr, rhs: &Expr) {
        self.expr(lhs);
        let site = self.site(e.id);
        let br = self.emit(Instr::BranchFalse { target: usize::MAX, site });
        self.emit(Instr::Const(Const::Bool(true)));
        let j = self.emit(Instr::Jump(usize::MAX));
        let r = self.here();
        self.patch(br, r);
        self.expr(rhs);
        let end = self.here();
        self.patch(j, end);
    }

    /// `c ? a : b` (a branch site).
    fn conditional(&mut self, e: &Expr, cond: &Expr, then_expr: &Expr, else_expr: &Expr) {
        self.expr(cond);
        let site = self.site(e.id);
        let br = self.emit(Instr::BranchFalse { target: usize::MAX, site });
        self.expr(then_expr);
        let j = self.emit(Instr::Jump(usize::MAX));
        let f = self.here();
        self.patch(br, f);
        self.expr(else_expr);
        let end = self.here();
        self.patch(j, end);
    }

    /// A bare call: a function, a method of the current class, or a predicate.
    fn call_expr(&mut self, e: &Expr, callee: &Ident, args: &[Expr]) {
        match self.info.calls.get(&e.id).cloned() {
            Some(CallTarget::Function(name)) => match self.out.function(None, &name) {
                Some(unit) => {
                    for a in args {
                        self.expr(a);
                    }
                    self.call(unit, args.len(), false, e);
                }
                None => self.invalid(format!("unknown function `{name}`"), callee.span),
            },
            Some(CallTarget::Method { class, method }) => {
                match self.out.function(Some(&class), &method) {
                    Some(unit) => {
                        match self.lookup("this").map(|v| v.slot) {
                            Some(slot) => {
                                self.emit(Instr::Load(slot));
                            }
                            None => return self.invalid("method call without `this`", e.span),
                        }
                        for a in args {
                            self.expr(a);
                        }
                        self.call(unit, args.len() + 1, true, e);
                    }
                    None => self.invalid(format!("unknown method `{class}.{method}`"), e.span),
                }
            }
            Some(CallTarget::Predicate(name)) => self.pred_call(&name, args, e.span),
            None => self.invalid(format!("unresolved call `{}`", callee.name), callee.span),
        }
    }

    /// `r.m(args)`.
    fn method_call(&mut self, e: &Expr, receiver: &Expr, method: &Ident, args: &[Expr]) {
        let target = match self.info.calls.get(&e.id) {
            Some(CallTarget::Method { class, method }) => self.out.function(Some(class), method),
            _ => self.class_of(receiver).and_then(|c| self.out.function(Some(&c), &method.name)),
        };
        if self.builtin_compare(e, receiver, method, args, None) {
            return;
        }
        match target {
            Some(unit) => {
                self.expr(receiver);
                for a in args {
                    self.expr(a);
                }
                self.call(unit, args.len() + 1, true, e);
            }
            None => self.invalid(format!("unknown method `{}`", method.name), method.span),
        }
    }

    /// `c.compare(a, b) op 0` (or `0 op c.compare(a, b)`) for a comparison `op` and the
    /// built-in `compare`: the sign of the result is the order of the keys, so this is `ka op kb`
    /// with no branch at the call. Kiasan's compare is a fresh α tied to the keys by
    /// `α < 0 ⇔ ka < kb`, `α = 0 ⇔ ka = kb`, `α > 0 ⇔ ka > kb` (digest seed-004a §4.4): a path
    /// forks only where the code tests the sign, two ways for `< 0`, not three. False (nothing
    /// emitted) when `e` is not such a comparison.
    fn compare_sign(&mut self, e: &Expr, op: BinOp, lhs: &Expr, rhs: &Expr) -> bool {
        if !matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne) {
            return false;
        }
        let zero = |x: &Expr| matches!(x.kind, ExprKind::Int(0));
        // `0 op r` is `r op' 0` with the operands' roles mirrored.
        let (call, op) = match (&lhs.kind, &rhs.kind) {
            (ExprKind::MethodCall { .. }, _) if zero(rhs) => (lhs, op),
            (_, ExprKind::MethodCall { .. }) if zero(lhs) => (rhs, mirrored(op)),
            _ => return false,
        };
        let ExprKind::MethodCall { receiver, method, args } = &call.kind else { return false };
        self.builtin_compare(call, receiver, method, args, Some((op, e)))
    }

    /// `c.compare(a, b)` of the built-in `Comparator` (`heaplab_syntax::builtin`): the
    /// comparator's `nullKey` (a field read: `c` is dereferenced), the keys of `a` and `b`
    /// without resolving them (`OrderKeys`), then `ka < kb ? -1 : (ka == kb ? 0 : 1)` as
    /// branches the compiler made up, or with `sign` = `(op, e)` the bool `ka op kb` (the value
    /// of `compare(a, b) op 0`, the expression `e`). False when the call is not that one.
    fn builtin_compare(
        &mut self,
        e: &Expr,
        receiver: &Expr,
        method: &Ident,
        args: &[Expr],
        sign: Option<(BinOp, &Expr)>,
    ) -> bool {
        use heaplab_syntax::builtin::{COMPARATOR, COMPARE, NULL_KEY};
        if method.name != COMPARE || args.len() != 2 {
            return false;
        }
        if self.class_of(receiver).as_deref() != Some(COMPARATOR) || !self.out.builtin_comparator {
            return false;
        }
        let Some(unit) = self.out.function(Some(COMPARATOR), COMPARE) else { return false };
        // Not run here, but a replayed test runs the body: its lines are the caller's callees'.
        self.callees.insert(unit);
        self.expr(receiver);
        self.expr(&args[0]);
        self.expr(&args[1]);
        let (sr, sa, sb) = (
            self.hidden(SlotType::Class(COMPARATOR.to_string())),
            self.hidden(SlotType::Class(heaplab_syntax::builtin::COMPARABLE.to_string())),
            self.hidden(SlotType::Class(heaplab_syntax::builtin::COMPARABLE.to_string())),
        );
        self.emit(Instr::Store(sb));
        self.emit(Instr::Store(sa));
        self.emit(Instr::Store(sr));
        self.emit(Instr::Load(sr));
        self.emit(Instr::GetField {
            class: COMPARATOR.to_string(),
            field: NULL_KEY.to_string(),
            ty: SlotType::Int,
            node: e.id,
            span: e.span,
        });
        self.emit(Instr::Load(sa));
        self.emit(Instr::Load(sb));
        self.emit(Instr::OrderKeys { span: e.span });
        if let Some((op, whole)) = sign {
            let (node, span) = (whole.id, whole.span);
            self.emit(Instr::Binary { op, kind: OperandKind::Int, node, span });
            return true;
        }
        let (ka, kb) = (self.hidden(SlotType::Int), self.hidden(SlotType::Int));
        self.emit(Instr::Store(kb));
        self.emit(Instr::Store(ka));
        let test = |cx: &mut Self, op: BinOp| {
            cx.emit(Instr::Load(ka));
            cx.emit(Instr::Load(kb));
            cx.emit(Instr::Binary { op, kind: OperandKind::Int, node: e.id, span: e.span });
            cx.emit(Instr::BranchFalse { target: usize::MAX, site: None })
        };
        let lt = test(self, BinOp::Lt);
        self.emit(Instr::Const(Const::Int(-1)));
        let j1 = self.emit(Instr::Jump(usize::MAX));
        let at = self.here();
        self.patch(lt, at);
        let eq = test(self, BinOp::Eq);
        self.emit(Instr::Const(Const::Int(0)));
        let j2 = self.emit(Instr::Jump(usize::MAX));
        let at = self.here();
        self.patch(eq, at);
        self.emit(Instr::Const(Const::Int(1)));
        let end = self.here();
        self.patch(j1, end);
        self.patch(j2, end);
        true
    }

    pub(super) fn site(&mut self, id: NodeId) -> Option<NodeId> {
        if self.in_formula || self.no_sites {
            None
        } else {
            self.branch_sites.push(id);
            Some(id)
        }
    }

    pub(super) fn call(&mut self, unit: UnitId, nargs: usize, receiver: bool, e: &Expr) {
        self.callees.insert(unit);
        self.emit(Instr::Call { unit, nargs, receiver, node: e.id, span: e.span });
    }
}

/// The comparison with its operands swapped: `0 op r` is `r mirrored(op) 0`.
fn mirrored(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}
