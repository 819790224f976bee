//! Expressions: the type of every expression, recorded in `ProgramInfo::expr_types`, and the
//! target of every call, recorded in `ProgramInfo::calls`.
//!
//! The same code checks expressions in bodies, in `ensures` and inside formulas; the `Mode` of
//! the context decides what is allowed where (`result`, `old`, `_`, impure calls, `new`,
//! non-linear arithmetic), so each rule lives in one place.

use super::suggest::did_you_mean;
use super::{plural, Checker, Ctx, Mode};
use crate::ast::{BinOp, Expr, ExprKind, FieldInit, Ident, UnOp};
use crate::diagnostic::Diagnostic;
use crate::types::{CallTarget, Type};

impl Checker {
    /// Checks an expression and records its type.
    pub(super) fn expr(&mut self, cx: &mut Ctx, e: &Expr) -> Type {
        let ty = self.expr_kind(cx, e);
        self.info.expr_types.insert(e.id, ty.clone());
        ty
    }

    fn expr_kind(&mut self, cx: &mut Ctx, e: &Expr) -> Type {
        match &e.kind {
            ExprKind::Int(n) => {
                let (lo, hi) = self.ints.range();
                if !(lo..=hi).contains(n) {
                    self.diags.push(Diagnostic::error(
                        e.span,
                        format!(
                            "integer literal out of range: under `ints {}` an `int` is from {lo} to {hi}",
                            self.ints.keyword()
                        ),
                    ));
                }
                Type::Int
            }
            ExprKind::Bool(_) => Type::Bool,
            ExprKind::Null => Type::Null,
            ExprKind::This => match &cx.class {
                Some(class) if cx.mode != Mode::PredBody => Type::Class(class.clone()),
                _ => {
                    let msg = if cx.mode == Mode::PredBody {
                        "`this` cannot be used in a predicate body; pass the object as a parameter"
                    } else {
                        "`this` can only be used inside a method of a class"
                    };
                    self.diags.push(Diagnostic::error(e.span, msg));
                    Type::Error
                }
            },
            ExprKind::Result => {
                if cx.mode != Mode::Ensures {
                    self.diags.push(Diagnostic::error(
                        e.span,
                        "`result` can only be used in `ensures` clauses",
                    ));
                    Type::Error
                } else if cx.ret == Type::Void {
                    self.diags.push(Diagnostic::error(
                        e.span,
                        format!(
                            "`{}` returns `void`, so there is no `result` to refer to",
                            cx.owner
                        ),
                    ));
                    Type::Error
                } else {
                    cx.ret.clone()
                }
            }
            ExprKind::Var(name) => {
                if name.name.is_empty() {
                    return Type::Error;
                }
                match cx.lookup(&name.name) {
                    Some(ty) => ty.clone(),
                    None => {
                        self.unknown_variable(cx, name);
                        Type::Error
                    }
                }
            }
            ExprKind::Field { object, field } => {
                let object_ty = self.expr(cx, object);
                if let Type::Array(_) = object_ty {
                    self.no_arrays_in_formula(cx, e);
                }
                self.field_of(&object_ty, field)
            }
            ExprKind::Index { array, index } => {
                self.no_arrays_in_formula(cx, e);
                let array_ty = self.expr(cx, array);
                self.index_of(cx, &array_ty, array, index)
            }
            ExprKind::NewArray { elem, len } => {
                let elem = self.new_array_elem(cx, e, elem);
                let len_ty = self.expr(cx, len);
                if !len_ty.assignable_to(&Type::Int) {
                    self.diags.push(Diagnostic::error(
                        len.span,
                        format!("the length of a new array must be `int`, found `{len_ty}`"),
                    ));
                }
                array_of(elem)
            }
            ExprKind::ArrayLit { elem, elems } => {
                let elem = self.new_array_elem(cx, e, elem);
                for v in elems {
                    let found = self.expr(cx, v);
                    if !found.assignable_to(&elem) {
                        self.diags.push(Diagnostic::error(
                            v.span,
                            format!("an element of `{elem}[]` must be `{elem}`, found `{found}`"),
                        ));
                    }
                }
                array_of(elem)
            }
            ExprKind::Unary { op, operand } => {
                let ty = self.expr(cx, operand);
                let (want, name) = match op {
                    UnOp::Neg => (Type::Int, "-"),
                    UnOp::Not => (Type::Bool, "!"),
                };
                if !ty.assignable_to(&want) {
                    self.diags.push(Diagnostic::error(
                        operand.span,
                        format!("operator `{name}` expects `{want}`, found `{ty}`"),
                    ));
                }
                want
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(cx, e, *op, lhs, rhs),
            ExprKind::Cond { cond, then_expr, else_expr } => {
                let cond_ty = self.expr(cx, cond);
                if !cond_ty.assignable_to(&Type::Bool) {
                    self.diags.push(Diagnostic::error(
                        cond.span,
                        format!("the condition of `?:` must be `bool`, found `{cond_ty}`"),
                    ));
                }
                let a = self.expr(cx, then_expr);
                let b = self.expr(cx, else_expr);
                match join(&a, &b) {
                    Some(ty) => ty,
                    None => {
                        self.diags.push(Diagnostic::error(
                            else_expr.span,
                            format!("the branches of `?:` have different types: `{a}` and `{b}`"),
                        ));
                        Type::Error
                    }
                }
            }
            ExprKind::Call { callee, args } => self.bare_call(cx, e, callee, args),
            ExprKind::MethodCall { receiver, method, args } => {
                let receiver_ty = self.expr(cx, receiver);
                self.method_call(cx, e, &receiver_ty, method, args)
            }
            ExprKind::New { class, fields } => self.new_object(cx, e, class, fields),
            ExprKind::Old(inner) => {
                if cx.mode != Mode::Ensures {
                    self.diags.push(Diagnostic::error(
                        e.span,
                        "`old(…)` can only be used in `ensures` clauses",
                    ));
                }
                self.expr(cx, inner)
            }
            ExprKind::Wildcard => {
                self.diags.push(Diagnostic::error(
                    e.span,
                    "`_` can only stand for a field value in a points-to, as in `x -> Node { next: _ }`",
                ));
                Type::Error
            }
        }
    }

    fn binary(&mut self, cx: &mut Ctx, e: &Expr, op: BinOp, lhs: &Expr, rhs: &Expr) -> Type {
        let l = self.expr(cx, lhs);
        let r = self.expr(cx, rhs);
        let symbol = op.symbol();
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod => {
                self.operands(symbol, &Type::Int, [(lhs, &l), (rhs, &r)]);
                if cx.mode.is_formula() {
                    self.check_linear(op, lhs, rhs);
                }
                Type::Int
            }
            BinOp::Shl | BinOp::Shr => {
                self.operands(symbol, &Type::Int, [(lhs, &l), (rhs, &r)]);
                if cx.mode.is_formula() {
                    self.diags.push(Diagnostic::error(
                        e.span,
                        format!("`{symbol}` is not supported in a formula: write the product or quotient by a power of two"),
                    ));
                } else if !matches!(rhs.kind, ExprKind::Int(0..=62)) {
                    self.diags.push(Diagnostic::error(
                        rhs.span,
                        format!("the shift amount of `{symbol}` must be an integer literal from 0 to 62"),
                    ));
                }
                Type::Int
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                self.operands(symbol, &Type::Int, [(lhs, &l), (rhs, &r)]);
                Type::Bool
            }
            BinOp::And | BinOp::Or => {
                self.operands(symbol, &Type::Bool, [(lhs, &l), (rhs, &r)]);
                Type::Bool
            }
            BinOp::Eq | BinOp::Ne => {
                if l == Type::Void || r == Type::Void {
                    let side = if l == Type::Void { lhs } else { rhs };
                    self.diags.push(Diagnostic::error(
                        side.span,
                        format!("this call returns `void`, so it has no value to compare with `{symbol}`"),
                    ));
                } else if !l.assignable_to(&r) && !r.assignable_to(&l) {
                    self.diags.push(Diagnostic::error(
                        e.span,
                        format!("cannot compare `{l}` with `{r}` using `{symbol}`"),
                    ));
                }
                Type::Bool
            }
        }
    }

    /// Reports each operand whose type is not `want`.
    fn operands(&mut self, symbol: &str, want: &Type, sides: [(&Expr, &Type); 2]) {
        for (side, ty) in sides {
            if !ty.assignable_to(want) {
                self.diags.push(Diagnostic::error(
                    side.span,
                    format!("operator `{symbol}` expects `{want}` operands, found `{ty}`"),
                ));
            }
        }
    }

    /// Formulas are linear integer arithmetic: a product needs a constant factor, and `/`, `%`
    /// need a constant divisor.
    fn check_linear(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr) {
        let message = match op {
            BinOp::Mul if !is_constant(lhs) && !is_constant(rhs) => {
                "non-linear arithmetic in a formula: one side of a product must be a constant"
            }
            BinOp::Div | BinOp::Mod if !is_constant(rhs) => {
                "non-linear arithmetic in a formula: the divisor must be a constant"
            }
            _ => return,
        };
        let span = if op == BinOp::Mul { lhs.span.to(rhs.span) } else { rhs.span };
        self.diags.push(Diagnostic::error(span, message));
    }

    /// The element type of `new T[n]` or `new T[]{…}`, reporting an allocation in a formula or
    /// in pure code.
    fn new_array_elem(&mut self, cx: &Ctx, e: &Expr, elem: &crate::ast::TypeExpr) -> Type {
        if cx.mode.is_formula() {
            self.diags.push(Diagnostic::error(e.span, "a formula cannot allocate an array"));
        }
        if let Some(place) = pure_place(cx) {
            self.diags.push(Diagnostic::error(
                e.span,
                format!("{place} cannot allocate arrays with `new`"),
            ));
        }
        self.resolve_type(elem, super::env::TypeUse::Local, true)
    }

    /// Arrays are not part of the separation logic: a predicate cannot index them or read
    /// their length. A `requires` can, in a pure fact: that fact is checked by running it on
    /// the input, as a call of a `pure` method is (`heaplab_logic::code_facts`).
    fn no_arrays_in_formula(&mut self, cx: &Ctx, e: &Expr) {
        if cx.mode == Mode::PredBody {
            self.diags.push(Diagnostic::error(
                e.span,
                "a predicate cannot index an array or read its length: the logic has no array atoms (state it in the method's `requires` or an `assume`)",
            ));
        }
    }

    /// The element type read by `array[index]`, reporting a non-array or a non-`int` index.
    pub(super) fn index_of(
        &mut self,
        cx: &mut Ctx,
        array_ty: &Type,
        array: &Expr,
        index: &Expr,
    ) -> Type {
        let index_ty = self.expr(cx, index);
        if !index_ty.assignable_to(&Type::Int) {
            self.diags.push(Diagnostic::error(
                index.span,
                format!("an array index must be `int`, found `{index_ty}`"),
            ));
        }
        match array_ty {
            Type::Array(elem) => (**elem).clone(),
            Type::Error => Type::Error,
            other => {
                self.diags.push(Diagnostic::error(
                    array.span,
                    format!("only an array can be indexed with `[…]`; this is `{other}`"),
                ));
                Type::Error
            }
        }
    }

    /// The type of field `field` of a value of type `object`, reporting what is wrong.
    pub(super) fn field_of(&mut self, object: &Type, field: &Ident) -> Type {
        match object {
            Type::Error => Type::Error,
            Type::Array(_) if field.name == "length" => Type::Int,
            Type::Array(_) => {
                self.diags.push(Diagnostic::error(
                    field.span,
                    format!("an array has no field `{}`; its only one is `length`", field.name),
                ));
                Type::Error
            }
            Type::Class(class) => {
                let Some(sig) = self.globals.classes.get(class) else { return Type::Error };
                if let Some(ty) = sig.field(&field.name) {
                    return ty.clone();
                }
                if field.name.is_empty() {
                    return Type::Error;
                }
                let note = did_you_mean(&field.name, sig.fields.iter().map(|(f, _)| f.as_str()));
                let mut d = Diagnostic::error(
                    field.span,
                    format!("unknown field `{}` on `{class}`", field.name),
                );
                if let Some(note) = note {
                    d = d.with_note(note);
                }
                self.diags.push(d);
                Type::Error
            }
            Type::Null => {
                self.diags.push(Diagnostic::error(
                    field.span,
                    format!("cannot read field `{}` of `null`", field.name),
                ));
                Type::Error
            }
            Type::Int | Type::Bool | Type::Void => {
                self.diags.push(Diagnostic::error(
                    field.span,
                    format!(
                        "a value of type `{object}` has no fields; only objects of a class have fields like `{}`",
                        field.name
                    ),
                ));
                Type::Error
            }
        }
    }

    /// `f(args)`: inside a class, a method of `this` first; then a top-level function.
    fn bare_call(&mut self, cx: &mut Ctx, e: &Expr, callee: &Ident, args: &[Expr]) -> Type {
        let method = cx
            .class
            .as_ref()
            .filter(|_| cx.mode != Mode::PredBody)
            .and_then(|c| self.globals.classes.get(c).map(|sig| (c, sig)))
            .and_then(|(c, sig)| sig.method(&callee.name).map(|m| (c.clone(), m.clone())));
        let (target, sig) = if let Some((class, sig)) = method {
            (CallTarget::Method { class, method: callee.name.clone() }, sig)
        } else if let Some(sig) = self.globals.functions.get(&callee.name) {
            (CallTarget::Function(callee.name.clone()), sig.clone())
        } else {
            self.check_args(cx, callee, None, args);
            if callee.name.is_empty() {
                return Type::Error;
            }
            if self.globals.preds.contains_key(&callee.name) {
                self.diags.push(Diagnostic::error(
                    callee.span,
                    format!(
                        "`{}` is a predicate, not a function; a predicate can only stand alone as an atom of a formula (`requires`, `pred` bodies)",
                        callee.name
                    ),
                ));
                return Type::Error;
            }
            let mut candidates: Vec<&str> = Vec::new();
            if let Some(sig) = cx.class.as_ref().and_then(|c| self.globals.classes.get(c)) {
                candidates.extend(sig.methods.iter().map(|m| m.name.as_str()));
            }
            candidates.extend(self.globals.function_order.iter().map(String::as_str));
            let mut d =
                Diagnostic::error(callee.span, format!("unknown function `{}`", callee.name));
            if let Some(note) = did_you_mean(&callee.name, candidates) {
                d = d.with_note(note);
            }
            self.diags.push(d);
            return Type::Error;
        };
        self.info.calls.insert(e.id, target);
        self.check_purity(cx, callee, &sig);
        self.check_args(cx, callee, Some(&sig.params), args);
        sig.ret
    }

    /// `receiver.m(args)`.
    fn method_call(
        &mut self,
        cx: &mut Ctx,
        e: &Expr,
        receiver: &Type,
        method: &Ident,
        args: &[Expr],
    ) -> Type {
        let class = match receiver {
            Type::Class(class) => class.clone(),
            Type::Error => {
                self.check_args(cx, method, None, args);
                return Type::Error;
            }
            other => {
                self.diags.push(Diagnostic::error(
                    method.span,
                    format!(
                        "cannot call method `{}` on a value of type `{other}`; only objects have methods",
                        method.name
                    ),
                ));
                self.check_args(cx, method, None, args);
                return Type::Error;
            }
        };
        let Some(class_sig) = self.globals.classes.get(&class) else {
            self.check_args(cx, method, None, args);
            return Type::Error;
        };
        let Some(sig) = class_sig.method(&method.name).cloned() else {
            let note =
                did_you_mean(&method.name, class_sig.methods.iter().map(|m| m.name.as_str()));
            if !method.name.is_empty() {
                let mut d = Diagnostic::error(
                    method.span,
                    format!("unknown method `{}` on `{class}`", method.name),
                );
                if let Some(note) = note {
                    d = d.with_note(note);
                }
                self.diags.push(d);
            }
            self.check_args(cx, method, None, args);
            return Type::Error;
        };
        self.info.calls.insert(e.id, CallTarget::Method { class, method: method.name.clone() });
        self.check_purity(cx, method, &sig);
        self.check_args(cx, method, Some(&sig.params), args);
        sig.ret
    }

    /// In a `pure` function, an `ensures` clause or a formula, only `pure` functions may be
    /// called.
    pub(super) fn check_purity(&mut self, cx: &Ctx, callee: &Ident, sig: &super::env::FnSig) {
        if sig.is_pure {
            return;
        }
        if let Some(place) = pure_place(cx) {
            self.diags.push(
                Diagnostic::error(
                    callee.span,
                    format!(
                        "{place} can only call `pure` functions, and `{}` is not `pure`",
                        sig.name
                    ),
                )
                .with_note(format!(
                    "if `{}` does not modify the heap, declare it `pure`",
                    sig.name
                )),
            );
        }
    }

    /// Checks every argument (recording its type), then arity and argument types against
    /// `params` when the callee is known.
    pub(super) fn check_args(
        &mut self,
        cx: &mut Ctx,
        callee: &Ident,
        params: Option<&[crate::types::Type]>,
        args: &[Expr],
    ) {
        let types: Vec<Type> = args.iter().map(|a| self.expr(cx, a)).collect();
        let Some(params) = params else { return };
        if params.len() != args.len() {
            let given = if args.len() == 1 {
                "1 was given".to_string()
            } else {
                format!("{} were given", args.len())
            };
            self.diags.push(Diagnostic::error(
                callee.span,
                format!("`{}` takes {} but {given}", callee.name, plural(params.len(), "argument")),
            ));
            return;
        }
        for (i, ((arg, found), expected)) in args.iter().zip(&types).zip(params).enumerate() {
            if !found.assignable_to(expected) {
                self.diags.push(Diagnostic::error(
                    arg.span,
                    format!(
                        "mismatched types: argument {} of `{}` must be `{expected}`, found `{found}`",
                        i + 1,
                        callee.name
                    ),
                ));
            }
        }
    }

    /// `new C { f: e, ... }`.
    fn new_object(&mut self, cx: &mut Ctx, e: &Expr, class: &Ident, fields: &[FieldInit]) -> Type {
        if let Some(place) = pure_place(cx) {
            self.diags.push(Diagnostic::error(
                e.span,
                format!("{place} cannot allocate objects with `new`"),
            ));
        }
        let known = self.globals.classes.contains_key(&class.name);
        if !known && !class.name.is_empty() {
            self.unknown_class(class, "class");
        }
        self.field_inits(cx, &class.name, fields, false);
        if known {
            Type::Class(class.name.clone())
        } else {
            Type::Error
        }
    }

    /// Field initializers of `new C { … }` and of a points-to `x -> C { … }`: each field exists
    /// on the class, is listed once, and gets a value of its type. `_` values are allowed only in
    /// points-to (`wildcards`).
    pub(super) fn field_inits(
        &mut self,
        cx: &mut Ctx,
        class: &str,
        fields: &[FieldInit],
        wildcards: bool,
    ) {
        let mut seen: Vec<&str> = Vec::new();
        for init in fields {
            let name = init.field.name.as_str();
            let declared = match self.globals.classes.get(class) {
                None => Type::Error,
                Some(_) if name.is_empty() => Type::Error,
                Some(sig) => match sig.field(name) {
                    Some(ty) => ty.clone(),
                    None => {
                        let note = did_you_mean(name, sig.fields.iter().map(|(f, _)| f.as_str()));
                        let mut d = Diagnostic::error(
                            init.field.span,
                            format!("unknown field `{name}` on `{class}`"),
                        );
                        if let Some(note) = note {
                            d = d.with_note(note);
                        }
                        self.diags.push(d);
                        Type::Error
                    }
                },
            };
            if !name.is_empty() && seen.contains(&name) {
                self.diags.push(Diagnostic::error(
                    init.field.span,
                    format!("field `{name}` is listed twice"),
                ));
            }
            seen.push(name);
            if wildcards && matches!(init.value.kind, ExprKind::Wildcard) {
                self.info.expr_types.insert(init.value.id, declared);
                continue;
            }
            let found = self.expr(cx, &init.value);
            if !found.assignable_to(&declared) {
                self.diags.push(Diagnostic::error(
                    init.value.span,
                    format!("mismatched types: field `{name}` is `{declared}`, found `{found}`"),
                ));
            }
        }
    }
}

/// Where only side-effect-free code is allowed, described for messages.
fn pure_place(cx: &Ctx) -> Option<String> {
    match cx.mode {
        Mode::Ensures => Some("an `ensures` clause".to_string()),
        Mode::Requires | Mode::PredBody => Some("a formula".to_string()),
        Mode::Code if cx.is_pure => Some(format!("`pure` function `{}`", cx.owner)),
        Mode::Code => None,
    }
}

/// The common type of two `?:` branches, if they have one.
fn join(a: &Type, b: &Type) -> Option<Type> {
    match (a, b) {
        (Type::Error, _) | (_, Type::Error) => Some(Type::Error),
        (Type::Null, Type::Class(_) | Type::Array(_)) => Some(b.clone()),
        (Type::Class(_) | Type::Array(_), Type::Null) => Some(a.clone()),
        _ if a == b => Some(a.clone()),
        _ => None,
    }
}

/// `elem[]`, or the error type when `elem` is one.
fn array_of(elem: Type) -> Type {
    match elem {
        Type::Error => Type::Error,
        t => Type::Array(Box::new(t)),
    }
}

/// An integer constant: literals and arithmetic on them.
fn is_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) => true,
        ExprKind::Unary { op: UnOp::Neg, operand } => is_constant(operand),
        ExprKind::Binary { op, lhs, rhs } => {
            matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod)
                && is_constant(lhs)
                && is_constant(rhs)
        }
        _ => false,
    }
}
