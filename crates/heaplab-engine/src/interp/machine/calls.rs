//! Calls: entering a function (arguments, `old` values, the `ensures` checks scheduled at exit),
//! `return`, and leaving a frame.

use super::{fail, internal, Frame, Machine, Step, Stop, Task};
use crate::interp::outcome::{LimitKind, Outcome, RuntimeError};
use crate::interp::value::{ObjId, Value};
use heaplab_syntax::ast::{ErrorKind, Expr, ExprKind, NodeId, TypeExpr};
use heaplab_syntax::types::CallTarget;
use heaplab_syntax::Span;

impl<'a> Machine<'a> {
    pub(super) fn do_return(&mut self, value: Option<Value>, span: Span) -> Step {
        let frame = self.frame_mut(span)?;
        frame.result = value;
        let Some(exit) = frame.exit else {
            return Err(internal(span, "`return` outside a function"));
        };
        let base = frame.values_base;
        self.tasks.truncate(exit + 1);
        self.values.truncate(base);
        Ok(())
    }

    pub(super) fn frame_exit(&mut self) -> Step {
        let tables = self.tables;
        let frame = self.frame_mut(Span::default())?;
        let Some(entry) = frame.func.and_then(|f| tables.fns.get(f)) else {
            self.tasks.push(Task::PopFrame);
            return Ok(());
        };
        let decl = entry.decl;
        if frame.result.is_none() {
            if matches!(decl.return_type, TypeExpr::Void(_)) {
                frame.result = Some(Value::Void);
            } else {
                return Err(internal(
                    decl.span,
                    format!("`{}` ended without returning a value", decl.name.name),
                ));
            }
        }
        // `ensures` sees the parameters, not the body's locals.
        frame.locals.truncate(decl.params.len());
        self.tasks.push(Task::PopFrame);
        // Formulas are checked after the expressions (tasks run last pushed first).
        self.schedule_post(&entry.post);
        for ens in decl.ensures.iter().rev() {
            self.tasks.push(Task::CheckEnsures(ens));
            self.tasks.push(Task::Eval(ens));
        }
        Ok(())
    }

    /// Pushes a frame for `func` and schedules its `old(...)` evaluations and its body.
    pub(super) fn enter(
        &mut self,
        func: usize,
        this: Option<ObjId>,
        args: Vec<Value>,
        span: Span,
        node: NodeId,
    ) -> Step {
        let tables = self.tables;
        let Some(entry) = tables.fns.get(func) else {
            return Err(internal(span, "call of an unknown function"));
        };
        let decl = entry.decl;
        if self.depth >= self.limits.call_depth {
            return Err(Stop::Outcome(Outcome::Error(RuntimeError {
                kind: ErrorKind::BoundExhausted,
                span,
                node,
                message: format!(
                    "the call depth limit of {} nested calls was reached when calling `{}` \
                     (Limits::call_depth)",
                    self.limits.call_depth, decl.name.name
                ),
                limit: Some(LimitKind::CallDepth),
            })));
        }
        if args.len() != decl.params.len() {
            return Err(internal(
                span,
                format!(
                    "`{}` takes {} argument(s), but {} were given",
                    decl.name.name,
                    decl.params.len(),
                    args.len()
                ),
            ));
        }
        if entry.class.is_some() && this.is_none() {
            return Err(internal(
                span,
                format!("method `{}` called without a receiver", decl.name.name),
            ));
        }
        let locals = decl.params.iter().map(|p| p.name.name.as_str()).zip(args).collect();
        self.frames.push(Frame {
            func: Some(func),
            this: if entry.class.is_some() { this } else { None },
            class: entry.class,
            locals,
            olds: Vec::new(),
            result: None,
            exit: Some(self.tasks.len()),
            values_base: self.values.len(),
        });
        self.depth += 1;
        self.tasks.push(Task::FrameExit);
        self.push_block(&decl.body);
        for old in entry.olds.iter().rev() {
            if let ExprKind::Old(inner) = &old.kind {
                self.tasks.push(Task::StoreOld(old.id));
                self.tasks.push(Task::Eval(inner));
            }
        }
        Ok(())
    }

    pub(super) fn call_expr(&mut self, e: &'a Expr) -> Step {
        match &e.kind {
            ExprKind::Call { callee, args } => {
                let args = self.pop_n(args.len(), e.span)?;
                let (func, this) = self.resolve_bare(e, &callee.name)?;
                self.enter(func, this, args, e.span, e.id)
            }
            ExprKind::MethodCall { method, args, .. } => {
                let args = self.pop_n(args.len(), e.span)?;
                let receiver = match self.pop(e.span)? {
                    Value::Ref(Some(id)) => id,
                    Value::Ref(None) => {
                        return Err(fail(
                            ErrorKind::NullDereference,
                            e.span,
                            e.id,
                            format!("calling method `{}` on null", method.name),
                        ));
                    }
                    other => {
                        return Err(internal(e.span, format!("calling a method on `{other}`")));
                    }
                };
                // No inheritance: the runtime class is the static one, so the checker's
                // resolution and dynamic lookup agree; dynamic lookup also covers an
                // incomplete checker.
                let Some(class) = self.heap.class_of(receiver) else {
                    return Err(internal(e.span, format!("dangling reference {receiver}")));
                };
                let Some(&func) = self.tables.methods.get(&(class, method.name.as_str())) else {
                    return Err(internal(
                        e.span,
                        format!("class `{class}` has no method `{}`", method.name),
                    ));
                };
                self.enter(func, Some(receiver), args, e.span, e.id)
            }
            _ => Err(internal(e.span, "call continuation on a non-call node")),
        }
    }

    /// A bare call `f(..)`: the checker's resolution if it has one, else a method of the
    /// current class (on `this`), else a top-level function.
    pub(super) fn resolve_bare(&self, e: &Expr, name: &str) -> Step<(usize, Option<ObjId>)> {
        let frame = self.frame(e.span)?;
        match self.info.calls.get(&e.id) {
            Some(CallTarget::Function(f)) => {
                if let Some(&idx) = self.tables.functions.get(f.as_str()) {
                    return Ok((idx, None));
                }
            }
            Some(CallTarget::Method { class, method }) => {
                if let Some(&idx) = self.tables.methods.get(&(class.as_str(), method.as_str())) {
                    if frame.this.is_some() {
                        return Ok((idx, frame.this));
                    }
                }
            }
            Some(CallTarget::Predicate(p)) => {
                return Err(internal(e.span, format!("predicate `{p}` called as a function")));
            }
            None => {}
        }
        if let (Some(class), Some(this)) = (frame.class, frame.this) {
            if let Some(&idx) = self.tables.methods.get(&(class, name)) {
                return Ok((idx, Some(this)));
            }
        }
        match self.tables.functions.get(name) {
            Some(&idx) => Ok((idx, None)),
            None => Err(internal(e.span, format!("unknown function `{name}`"))),
        }
    }
}
