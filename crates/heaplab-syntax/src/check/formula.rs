//! Separation-logic formulas: `requires` clauses and predicate bodies.
//!
//! What is in scope: in a `requires`, the parameters of the function (and `this` in a method);
//! in a predicate body, only the predicate's parameters. `exists` binders scope over the rest of
//! their disjunct. Formulas must stay within what the logic can decide: linear integer
//! arithmetic, calls only to `pure` functions, no allocation.

use super::env::TypeUse;
use super::suggest::did_you_mean;
use super::{Checker, Ctx, Mode};
use crate::ast::{Atom, Expr, ExprKind, FieldInit, Formula, Ident};
use crate::diagnostic::Diagnostic;
use crate::types::{CallTarget, Type};

impl Checker {
    pub(super) fn formula(&mut self, cx: &mut Ctx, f: &Formula) {
        for disjunct in &f.disjuncts {
            cx.push();
            self.declare_params(cx, &disjunct.exists, TypeUse::Existential);
            for atom in &disjunct.atoms {
                self.atom(cx, atom);
            }
            cx.pop();
        }
    }

    fn atom(&mut self, cx: &mut Ctx, atom: &Atom) {
        match atom {
            Atom::Emp(_) => {}
            Atom::PointsTo { pointer, class, fields, .. } => {
                self.points_to(cx, pointer, class, fields)
            }
            Atom::Pred { name, args, span } => {
                if let Some(target) = self.pred_instance(cx, name, args) {
                    self.info.atom_targets.insert(*span, target);
                }
            }
            Atom::Pure(e) => {
                // A parser may hand a bare `p(x)` over as an expression; a predicate name still
                // makes it a predicate instance.
                if let ExprKind::Call { callee, args } = &e.kind {
                    if self.globals.preds.contains_key(&callee.name) {
                        if let Some(target) = self.pred_instance(cx, callee, args) {
                            self.info.calls.insert(e.id, target);
                        }
                        self.info.expr_types.insert(e.id, Type::Bool);
                        return;
                    }
                }
                let ty = self.expr(cx, e);
                if !ty.assignable_to(&Type::Bool) {
                    let mut d = Diagnostic::error(
                        e.span,
                        format!("a pure fact in a formula must be `bool`, found `{ty}`"),
                    );
                    if ty == Type::Int {
                        d = d.with_note(
                            "if you meant to multiply: in a formula `*` separates heap parts, so write `#` (`a # b`)",
                        );
                    }
                    self.diags.push(d);
                }
            }
        }
    }

    fn points_to(&mut self, cx: &mut Ctx, pointer: &Expr, class: &Ident, fields: &[FieldInit]) {
        let pointer_ty = self.expr(cx, pointer);
        let known = self.globals.classes.contains_key(&class.name);
        if !known && !class.name.is_empty() {
            self.unknown_class(class, "class");
        }
        match &pointer_ty {
            Type::Class(c) if known && *c != class.name => {
                self.diags.push(Diagnostic::error(
                    pointer.span,
                    format!("mismatched types: this points-to describes a `{}`, but the pointer is a `{c}`", class.name),
                ));
            }
            Type::Int | Type::Bool | Type::Void => {
                self.diags.push(Diagnostic::error(
                    pointer.span,
                    format!(
                        "the left side of `->` must be an object reference, found `{pointer_ty}`"
                    ),
                ));
            }
            _ => {}
        }
        self.field_inits(cx, &class.name, fields, true);
    }

    /// Resolves `p(args)` at atom level: a predicate if `p` is one, otherwise a `pure bool`
    /// function used as a fact (a method of the class first, in a method's `requires`).
    fn pred_instance(&mut self, cx: &mut Ctx, name: &Ident, args: &[Expr]) -> Option<CallTarget> {
        if name.name.is_empty() {
            self.check_args(cx, name, None, args);
            return None;
        }
        if let Some(sig) = self.globals.preds.get(&name.name).cloned() {
            self.check_args(cx, name, Some(&sig.params), args);
            return Some(CallTarget::Predicate(name.name.clone()));
        }
        let method = cx
            .class
            .as_ref()
            .filter(|_| matches!(cx.mode, Mode::Requires | Mode::EnsuresFormula))
            .and_then(|c| self.globals.classes.get(c).map(|sig| (c, sig)))
            .and_then(|(c, sig)| sig.method(&name.name).map(|m| (c.clone(), m.clone())));
        let found = match method {
            Some((class, sig)) => {
                Some((CallTarget::Method { class, method: name.name.clone() }, sig))
            }
            None => self
                .globals
                .functions
                .get(&name.name)
                .map(|sig| (CallTarget::Function(name.name.clone()), sig.clone())),
        };
        let Some((target, sig)) = found else {
            self.check_args(cx, name, None, args);
            let candidates = self
                .globals
                .pred_order
                .iter()
                .chain(self.globals.function_order.iter())
                .map(String::as_str);
            let mut d = Diagnostic::error(name.span, format!("unknown predicate `{}`", name.name));
            if let Some(note) = did_you_mean(&name.name, candidates) {
                d = d.with_note(note);
            }
            self.diags.push(d);
            return None;
        };
        if !sig.ret.assignable_to(&Type::Bool) {
            self.diags.push(Diagnostic::error(
                name.span,
                format!(
                    "`{}` returns `{}`; a call in a formula must be a predicate or a `pure bool` function",
                    name.name, sig.ret
                ),
            ));
        } else {
            self.check_purity(cx, name, &sig);
        }
        self.check_args(cx, name, Some(&sig.params), args);
        Some(target)
    }
}
