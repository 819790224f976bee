//! Continuations of the task stack: what happens once the operands of an expression or the
//! condition of a statement are on the value stack.

use super::{fail, internal, Machine, Step, Stop, Task};
use crate::interp::outcome::Outcome;
use crate::interp::value::Value;
use heaplab_syntax::ast::{BinOp, ErrorKind, Expr, ExprKind, Stmt, StmtKind};
use heaplab_syntax::Span;

impl<'a> Machine<'a> {
    pub(super) fn binary_done(&mut self, e: &'a Expr) -> Step {
        let rhs = self.pop(e.span)?;
        let lhs = self.pop(e.span)?;
        let ExprKind::Binary { op, .. } = &e.kind else {
            return Err(internal(e.span, "binary continuation on a non-binary node"));
        };
        let v = self.binary(e, *op, lhs, rhs)?;
        self.values.push(v);
        Ok(())
    }

    pub(super) fn short_circuit(&mut self, e: &'a Expr) -> Step {
        let lhs = self.pop_bool(e.span)?;
        self.coverage.branches.insert((e.id, lhs));
        let ExprKind::Binary { op, rhs, .. } = &e.kind else {
            return Err(internal(e.span, "short-circuit continuation on a non-binary node"));
        };
        match (op, lhs) {
            (BinOp::And, false) => self.values.push(Value::Bool(false)),
            (BinOp::Or, true) => self.values.push(Value::Bool(true)),
            _ => self.tasks.push(Task::Eval(rhs)),
        }
        Ok(())
    }

    pub(super) fn cond_done(&mut self, e: &'a Expr) -> Step {
        let c = self.pop_bool(e.span)?;
        self.coverage.branches.insert((e.id, c));
        let ExprKind::Cond { then_expr, else_expr, .. } = &e.kind else {
            return Err(internal(e.span, "conditional continuation on another node"));
        };
        self.tasks.push(Task::Eval(if c { then_expr } else { else_expr }));
        Ok(())
    }

    pub(super) fn bind_local(&mut self, s: &'a Stmt) -> Step {
        let v = self.pop(s.span)?;
        let StmtKind::Local { name, .. } = &s.kind else {
            return Err(internal(s.span, "local continuation on another statement"));
        };
        self.frame_mut(s.span)?.locals.push((name.name.as_str(), v));
        Ok(())
    }

    pub(super) fn assign(&mut self, s: &'a Stmt) -> Step {
        let v = self.pop(s.span)?;
        let StmtKind::Assign { target, .. } = &s.kind else {
            return Err(internal(s.span, "assignment continuation on another statement"));
        };
        let frame = self.frame_mut(s.span)?;
        match frame.locals.iter_mut().rev().find(|(n, _)| *n == target.name) {
            Some(slot) => {
                slot.1 = v;
                Ok(())
            }
            None => Err(internal(target.span, format!("unknown variable `{}`", target.name))),
        }
    }

    pub(super) fn if_done(&mut self, s: &'a Stmt) -> Step {
        let c = self.pop_bool(s.span)?;
        self.coverage.branches.insert((s.id, c));
        let StmtKind::If { then_branch, else_branch, .. } = &s.kind else {
            return Err(internal(s.span, "if continuation on another statement"));
        };
        if c {
            self.push_block(then_branch);
        } else if let Some(b) = else_branch {
            self.push_block(b);
        }
        Ok(())
    }

    pub(super) fn loop_marker(&mut self, stmt: &'a Stmt, scope: usize) -> Step {
        let StmtKind::While { cond, .. } = &stmt.kind else {
            return Err(internal(stmt.span, "loop marker on a non-loop statement"));
        };
        self.tasks.push(Task::Loop { stmt, scope });
        self.tasks.push(Task::LoopTest(stmt));
        self.tasks.push(Task::Eval(cond));
        Ok(())
    }

    pub(super) fn loop_test(&mut self, s: &'a Stmt) -> Step {
        let c = self.pop_bool(s.span)?;
        self.coverage.branches.insert((s.id, c));
        let StmtKind::While { body, .. } = &s.kind else {
            return Err(internal(s.span, "loop test on a non-loop statement"));
        };
        if c {
            self.push_block(body);
        } else if !matches!(self.tasks.pop(), Some(Task::Loop { .. })) {
            return Err(internal(s.span, "loop marker missing"));
        }
        Ok(())
    }

    pub(super) fn assert_done(&mut self, s: &'a Stmt) -> Step {
        if !self.pop_bool(s.span)? {
            return Err(fail(
                ErrorKind::AssertFailed,
                s.span,
                s.id,
                "the asserted condition is false",
            ));
        }
        Ok(())
    }

    /// `throw new X`: continues in the innermost enclosing `catch (X e)`, here or in a caller,
    /// with `e` bound to the exception object; with none, the exception ends the run.
    pub(super) fn throw_done(&mut self, s: &'a Stmt) -> Step {
        let exception = self.pop(s.span)?;
        let class = match &s.kind {
            StmtKind::Throw(Expr { kind: ExprKind::New { class, .. }, .. }) => class.name.as_str(),
            _ => return Err(internal(s.span, "`throw` of something other than `new X`")),
        };
        let handler = self.tasks.iter().enumerate().rev().find_map(|(at, t)| match t {
            Task::Try { stmt: Stmt { kind: StmtKind::Try { catches, .. }, .. }, .. } => {
                catches.iter().find(|c| c.class.name == class).map(|c| (at, c))
            }
            _ => None,
        });
        let Some((at, clause)) = handler else {
            return Err(fail(ErrorKind::Exception, s.span, s.id, format!("`{class}` thrown")));
        };
        let Some(Task::Try { scope, frames, values, depth, .. }) = self.tasks.get(at).copied()
        else {
            return Err(internal(s.span, "`try` marker missing"));
        };
        self.tasks.truncate(at);
        self.frames.truncate(frames);
        self.values.truncate(values);
        self.depth = depth;
        let frame = self.frame_mut(s.span)?;
        frame.locals.truncate(scope);
        frame.locals.push((clause.name.name.as_str(), exception));
        self.tasks.push(Task::ScopeEnd(scope));
        self.tasks.extend(clause.body.stmts.iter().rev().map(Task::Exec));
        Ok(())
    }

    pub(super) fn assume_done(&mut self, s: &'a Stmt) -> Step {
        if !self.pop_bool(s.span)? {
            return Err(Stop::Outcome(Outcome::AssumptionViolated { span: s.span, node: s.id }));
        }
        Ok(())
    }

    pub(super) fn check_ensures(&mut self, e: &'a Expr) -> Step {
        if !self.pop_bool(e.span)? {
            let name = self
                .frame(e.span)?
                .func
                .and_then(|f| self.tables.fns.get(f))
                .map_or("?", |f| f.decl.name.name.as_str());
            return Err(fail(
                ErrorKind::EnsuresFailed,
                e.span,
                e.id,
                format!("an `ensures` clause of `{name}` is false on return"),
            ));
        }
        Ok(())
    }

    pub(super) fn pop_frame(&mut self) -> Step {
        let frame =
            self.frames.pop().ok_or_else(|| internal(Span::default(), "no frame to pop"))?;
        if frame.func.is_some() {
            self.depth = self.depth.saturating_sub(1);
        }
        self.values.truncate(frame.values_base);
        self.values.push(frame.result.unwrap_or(Value::Void));
        Ok(())
    }
}
