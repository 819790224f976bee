//! The evaluator: an explicit-stack machine instead of a recursive tree walk.
//!
//! Why: HeapLab programs recurse (1 000 nested calls by default) and expressions nest, and the
//! engine must run in the browser (wasm32 has a small stack and no threads to get a bigger
//! one). So no HeapLab construct maps to Rust recursion: work is a stack of [`Task`]s — "evaluate
//! this expression", "execute this statement", or a continuation that consumes operand values
//! from the value stack — and calls push a [`Frame`]. Native stack use is constant; the depth of
//! HeapLab recursion is limited only by [`Limits::call_depth`].
//!
//! Control flow: a `while` leaves a `Loop` marker task under its body; `break` and `continue`
//! pop tasks down to it. A call pushes `FrameExit` under the body and records its index;
//! `return` truncates the task stack to it. `FrameExit` schedules the `ensures` checks.

use super::heap::Heap;
use super::outcome::{Coverage, LimitKind, Outcome, RuntimeError};
use super::tables::Tables;
use super::value::{ObjId, Value};
use super::Limits;
use crate::error::Error;
use heaplab_syntax::ast::{
    BinOp, Block, ErrorKind, Expr, ExprKind, NodeId, Stmt, StmtKind, TypeExpr, UnOp,
};
use heaplab_syntax::types::{CallTarget, ProgramInfo};
use heaplab_syntax::Span;

/// Why the machine stopped before finishing.
pub(crate) enum Stop {
    Outcome(Outcome),
    Internal(Error),
}

type Step<T = ()> = Result<T, Stop>;

fn internal(span: Span, message: impl Into<String>) -> Stop {
    Stop::Internal(Error::Internal { span, message: message.into() })
}

fn fail(kind: ErrorKind, span: Span, node: NodeId, message: impl Into<String>) -> Stop {
    Stop::Outcome(Outcome::Error(RuntimeError {
        kind,
        span,
        node,
        message: message.into(),
        limit: None,
    }))
}

#[derive(Clone, Copy)]
enum Task<'a> {
    Eval(&'a Expr),
    Exec(&'a Stmt),
    // Expression continuations: operand values are on the value stack.
    Unary(&'a Expr),
    Binary(&'a Expr),
    ShortCircuit(&'a Expr),
    Cond(&'a Expr),
    FieldRead(&'a Expr),
    Call(&'a Expr),
    New(&'a Expr),
    // Statement continuations.
    BindLocal(&'a Stmt),
    Assign(&'a Stmt),
    FieldStore(&'a Stmt),
    Discard,
    If(&'a Stmt),
    /// Marker under a loop body; when reached, the next iteration starts. `scope` is the number
    /// of locals when the loop began (restored by `break` / `continue`).
    Loop {
        stmt: &'a Stmt,
        scope: usize,
    },
    LoopTest(&'a Stmt),
    Return,
    Assert(&'a Stmt),
    Assume(&'a Stmt),
    ScopeEnd(usize),
    // Calls.
    StoreOld(NodeId),
    FrameExit,
    CheckEnsures(&'a Expr),
    PopFrame,
}

struct Frame<'a> {
    /// Index into `Tables::fns`; `None` for the top level (a test block or a `--call` expr).
    func: Option<usize>,
    this: Option<ObjId>,
    class: Option<&'a str>,
    locals: Vec<(&'a str, Value)>,
    olds: Vec<(NodeId, Value)>,
    result: Option<Value>,
    /// Index of this frame's `FrameExit` task, the target of `return`.
    exit: Option<usize>,
    values_base: usize,
}

impl<'a> Frame<'a> {
    fn top(exit: Option<usize>) -> Frame<'a> {
        Frame {
            func: None,
            this: None,
            class: None,
            locals: Vec::new(),
            olds: Vec::new(),
            result: None,
            exit,
            values_base: 0,
        }
    }
}

/// The default value of a declared type: 0, false, null.
pub(crate) fn default_value(ty: &TypeExpr) -> Value {
    match ty {
        TypeExpr::Int(_) => Value::Int(0),
        TypeExpr::Bool(_) => Value::Bool(false),
        TypeExpr::Class(_) => Value::NULL,
        TypeExpr::Void(_) => Value::Void,
    }
}

pub(crate) struct Machine<'a> {
    tables: &'a Tables<'a>,
    info: &'a ProgramInfo,
    limits: Limits,
    heap: &'a mut Heap,
    coverage: &'a mut Coverage,
    pub steps: u64,
    depth: u32,
    tasks: Vec<Task<'a>>,
    values: Vec<Value>,
    frames: Vec<Frame<'a>>,
}

impl<'a> Machine<'a> {
    pub fn new(
        tables: &'a Tables<'a>,
        info: &'a ProgramInfo,
        limits: Limits,
        heap: &'a mut Heap,
        coverage: &'a mut Coverage,
    ) -> Machine<'a> {
        Machine {
            tables,
            info,
            limits,
            heap,
            coverage,
            steps: 0,
            depth: 0,
            tasks: Vec::new(),
            values: Vec::new(),
            frames: Vec::new(),
        }
    }

    /// Evaluates an expression at the top level (no locals, no `this`).
    pub fn eval(&mut self, expr: &'a Expr) -> Result<Outcome, Error> {
        self.frames.push(Frame::top(None));
        self.tasks.push(Task::Eval(expr));
        self.run()
    }

    /// Executes a block at the top level (a test body); `return` in it ends the block.
    pub fn exec_block(&mut self, block: &'a Block) -> Result<Outcome, Error> {
        self.frames.push(Frame::top(Some(0)));
        self.tasks.push(Task::FrameExit);
        self.push_block(block);
        self.run()
    }

    /// Calls function `func` (an index into the tables) with `this` and `args`.
    pub fn call(
        &mut self,
        func: usize,
        this: Option<ObjId>,
        args: Vec<Value>,
    ) -> Result<Outcome, Error> {
        self.frames.push(Frame::top(None));
        let span = self.tables.fns.get(func).map_or(Span::default(), |f| f.decl.span);
        match self.enter(func, this, args, span, NodeId(u32::MAX)) {
            Ok(()) => self.run(),
            Err(stop) => Self::finish(Err(stop)),
        }
    }

    fn finish(result: Step<Value>) -> Result<Outcome, Error> {
        match result {
            Ok(v) => Ok(Outcome::Returned(v)),
            Err(Stop::Outcome(o)) => Ok(o),
            Err(Stop::Internal(e)) => Err(e),
        }
    }

    fn run(&mut self) -> Result<Outcome, Error> {
        let result = self.run_tasks();
        Self::finish(result)
    }

    fn run_tasks(&mut self) -> Step<Value> {
        while let Some(task) = self.tasks.pop() {
            self.step(task)?;
        }
        Ok(self.values.pop().unwrap_or(Value::Void))
    }

    fn tick(&mut self, span: Span, node: NodeId) -> Step {
        self.steps += 1;
        if self.steps > self.limits.steps {
            return Err(Stop::Outcome(Outcome::Error(RuntimeError {
                kind: ErrorKind::BoundExhausted,
                span,
                node,
                message: format!(
                    "the step limit of {} steps was reached (Limits::steps)",
                    self.limits.steps
                ),
                limit: Some(LimitKind::Steps),
            })));
        }
        Ok(())
    }

    fn frame(&self, span: Span) -> Step<&Frame<'a>> {
        self.frames.last().ok_or_else(|| internal(span, "no active frame"))
    }

    fn frame_mut(&mut self, span: Span) -> Step<&mut Frame<'a>> {
        self.frames.last_mut().ok_or_else(|| internal(span, "no active frame"))
    }

    fn pop(&mut self, span: Span) -> Step<Value> {
        self.values.pop().ok_or_else(|| internal(span, "value stack underflow"))
    }

    fn pop_n(&mut self, n: usize, span: Span) -> Step<Vec<Value>> {
        let len = self.values.len();
        if len < n {
            return Err(internal(span, "value stack underflow"));
        }
        Ok(self.values.split_off(len - n))
    }

    fn pop_int(&mut self, span: Span) -> Step<i64> {
        match self.pop(span)? {
            Value::Int(n) => Ok(n),
            other => Err(internal(span, format!("expected an int, found `{other}`"))),
        }
    }

    fn pop_bool(&mut self, span: Span) -> Step<bool> {
        match self.pop(span)? {
            Value::Bool(b) => Ok(b),
            other => Err(internal(span, format!("expected a bool, found `{other}`"))),
        }
    }

    fn push_block(&mut self, block: &'a Block) {
        let scope = self.frames.last().map_or(0, |f| f.locals.len());
        self.tasks.push(Task::ScopeEnd(scope));
        self.tasks.extend(block.stmts.iter().rev().map(Task::Exec));
    }

    fn step(&mut self, task: Task<'a>) -> Step {
        match task {
            Task::Eval(e) => self.eval_expr(e),
            Task::Exec(s) => self.exec_stmt(s),
            Task::Unary(e) => self.unary(e),
            Task::Binary(e) => {
                let rhs = self.pop(e.span)?;
                let lhs = self.pop(e.span)?;
                let ExprKind::Binary { op, .. } = &e.kind else {
                    return Err(internal(e.span, "binary continuation on a non-binary node"));
                };
                let v = self.binary(e, *op, lhs, rhs)?;
                self.values.push(v);
                Ok(())
            }
            Task::ShortCircuit(e) => {
                let lhs = self.pop_bool(e.span)?;
                self.coverage.branches.insert((e.id, lhs));
                let ExprKind::Binary { op, rhs, .. } = &e.kind else {
                    return Err(internal(
                        e.span,
                        "short-circuit continuation on a non-binary node",
                    ));
                };
                match (op, lhs) {
                    (BinOp::And, false) => self.values.push(Value::Bool(false)),
                    (BinOp::Or, true) => self.values.push(Value::Bool(true)),
                    _ => self.tasks.push(Task::Eval(rhs)),
                }
                Ok(())
            }
            Task::Cond(e) => {
                let c = self.pop_bool(e.span)?;
                self.coverage.branches.insert((e.id, c));
                let ExprKind::Cond { then_expr, else_expr, .. } = &e.kind else {
                    return Err(internal(e.span, "conditional continuation on another node"));
                };
                self.tasks.push(Task::Eval(if c { then_expr } else { else_expr }));
                Ok(())
            }
            Task::FieldRead(e) => self.field_read(e),
            Task::Call(e) => self.call_expr(e),
            Task::New(e) => self.new_object(e),
            Task::BindLocal(s) => {
                let v = self.pop(s.span)?;
                let StmtKind::Local { name, .. } = &s.kind else {
                    return Err(internal(s.span, "local continuation on another statement"));
                };
                self.frame_mut(s.span)?.locals.push((name.name.as_str(), v));
                Ok(())
            }
            Task::Assign(s) => {
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
                    None => {
                        Err(internal(target.span, format!("unknown variable `{}`", target.name)))
                    }
                }
            }
            Task::FieldStore(s) => self.field_store(s),
            Task::Discard => self.pop(Span::default()).map(drop),
            Task::If(s) => {
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
            Task::Loop { stmt, scope } => {
                let StmtKind::While { cond, .. } = &stmt.kind else {
                    return Err(internal(stmt.span, "loop marker on a non-loop statement"));
                };
                self.tasks.push(Task::Loop { stmt, scope });
                self.tasks.push(Task::LoopTest(stmt));
                self.tasks.push(Task::Eval(cond));
                Ok(())
            }
            Task::LoopTest(s) => {
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
            Task::Return => {
                let v = self.pop(Span::default())?;
                self.do_return(Some(v), Span::default())
            }
            Task::Assert(s) => {
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
            Task::Assume(s) => {
                if !self.pop_bool(s.span)? {
                    return Err(Stop::Outcome(Outcome::AssumptionViolated {
                        span: s.span,
                        node: s.id,
                    }));
                }
                Ok(())
            }
            Task::ScopeEnd(n) => {
                self.frame_mut(Span::default())?.locals.truncate(n);
                Ok(())
            }
            Task::StoreOld(id) => {
                let v = self.pop(Span::default())?;
                self.frame_mut(Span::default())?.olds.push((id, v));
                Ok(())
            }
            Task::FrameExit => self.frame_exit(),
            Task::CheckEnsures(e) => {
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
            Task::PopFrame => {
                let frame = self
                    .frames
                    .pop()
                    .ok_or_else(|| internal(Span::default(), "no frame to pop"))?;
                if frame.func.is_some() {
                    self.depth = self.depth.saturating_sub(1);
                }
                self.values.truncate(frame.values_base);
                self.values.push(frame.result.unwrap_or(Value::Void));
                Ok(())
            }
        }
    }

    fn eval_expr(&mut self, e: &'a Expr) -> Step {
        self.tick(e.span, e.id)?;
        let v = match &e.kind {
            ExprKind::Int(n) => Value::Int(*n),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::Null => Value::NULL,
            ExprKind::This => match self.frame(e.span)?.this {
                Some(id) => Value::Ref(Some(id)),
                None => return Err(internal(e.span, "`this` outside a method")),
            },
            ExprKind::Result => match self.frame(e.span)?.result {
                Some(v) => v,
                None => return Err(internal(e.span, "`result` outside an `ensures` clause")),
            },
            ExprKind::Var(id) => {
                let frame = self.frame(e.span)?;
                match frame.locals.iter().rev().find(|(n, _)| *n == id.name) {
                    Some((_, v)) => *v,
                    None => {
                        return Err(internal(e.span, format!("unknown variable `{}`", id.name)))
                    }
                }
            }
            ExprKind::Field { object, .. } => {
                self.tasks.push(Task::FieldRead(e));
                self.tasks.push(Task::Eval(object));
                return Ok(());
            }
            ExprKind::Unary { operand, .. } => {
                self.tasks.push(Task::Unary(e));
                self.tasks.push(Task::Eval(operand));
                return Ok(());
            }
            ExprKind::Binary { op: BinOp::And | BinOp::Or, lhs, .. } => {
                self.tasks.push(Task::ShortCircuit(e));
                self.tasks.push(Task::Eval(lhs));
                return Ok(());
            }
            ExprKind::Binary { lhs, rhs, .. } => {
                self.tasks.push(Task::Binary(e));
                self.tasks.push(Task::Eval(rhs));
                self.tasks.push(Task::Eval(lhs));
                return Ok(());
            }
            ExprKind::Cond { cond, .. } => {
                self.tasks.push(Task::Cond(e));
                self.tasks.push(Task::Eval(cond));
                return Ok(());
            }
            ExprKind::Call { args, .. } => {
                self.tasks.push(Task::Call(e));
                self.tasks.extend(args.iter().rev().map(Task::Eval));
                return Ok(());
            }
            ExprKind::MethodCall { receiver, args, .. } => {
                self.tasks.push(Task::Call(e));
                self.tasks.extend(args.iter().rev().map(Task::Eval));
                self.tasks.push(Task::Eval(receiver));
                return Ok(());
            }
            ExprKind::New { fields, .. } => {
                self.tasks.push(Task::New(e));
                self.tasks.extend(fields.iter().rev().map(|f| Task::Eval(&f.value)));
                return Ok(());
            }
            ExprKind::Old(inner) => {
                let frame = self.frame(e.span)?;
                match frame.olds.iter().rev().find(|(id, _)| *id == e.id) {
                    Some((_, v)) => *v,
                    None => {
                        // Not pre-evaluated (e.g. nested inside another `old`): evaluate now.
                        self.tasks.push(Task::Eval(inner));
                        return Ok(());
                    }
                }
            }
            ExprKind::Wildcard => {
                return Err(internal(e.span, "`_` can only appear inside a formula"));
            }
        };
        self.values.push(v);
        Ok(())
    }

    fn exec_stmt(&mut self, s: &'a Stmt) -> Step {
        self.tick(s.span, s.id)?;
        self.coverage.statements.insert(s.id);
        match &s.kind {
            StmtKind::Local { ty, name, init } => match init {
                Some(init) => {
                    self.tasks.push(Task::BindLocal(s));
                    self.tasks.push(Task::Eval(init));
                }
                None => {
                    self.frame_mut(s.span)?.locals.push((name.name.as_str(), default_value(ty)))
                }
            },
            StmtKind::Assign { value, .. } => {
                self.tasks.push(Task::Assign(s));
                self.tasks.push(Task::Eval(value));
            }
            StmtKind::FieldStore { object, value, .. } => {
                // Java order: the object, then the value, then the null check.
                self.tasks.push(Task::FieldStore(s));
                self.tasks.push(Task::Eval(value));
                self.tasks.push(Task::Eval(object));
            }
            StmtKind::Expr(e) => {
                self.tasks.push(Task::Discard);
                self.tasks.push(Task::Eval(e));
            }
            StmtKind::If { cond, .. } => {
                self.tasks.push(Task::If(s));
                self.tasks.push(Task::Eval(cond));
            }
            StmtKind::While { .. } => {
                let scope = self.frame(s.span)?.locals.len();
                self.tasks.push(Task::Loop { stmt: s, scope });
            }
            StmtKind::Return(Some(e)) => {
                self.tasks.push(Task::Return);
                self.tasks.push(Task::Eval(e));
            }
            StmtKind::Return(None) => self.do_return(None, s.span)?,
            StmtKind::Break => self.unwind_loop(s, false)?,
            StmtKind::Continue => self.unwind_loop(s, true)?,
            StmtKind::Assert(e) => {
                self.tasks.push(Task::Assert(s));
                self.tasks.push(Task::Eval(e));
            }
            StmtKind::Assume(e) => {
                self.tasks.push(Task::Assume(s));
                self.tasks.push(Task::Eval(e));
            }
            StmtKind::Block(b) => self.push_block(b),
        }
        Ok(())
    }

    /// `break` (pops the loop marker) or `continue` (keeps it, so the next iteration starts).
    fn unwind_loop(&mut self, s: &Stmt, keep: bool) -> Step {
        let word = if keep { "continue" } else { "break" };
        let base = self.frame(s.span)?.exit.map_or(0, |e| e + 1);
        while self.tasks.len() > base {
            if let Some(Task::Loop { stmt, scope }) = self.tasks.pop() {
                if keep {
                    self.tasks.push(Task::Loop { stmt, scope });
                }
                self.frame_mut(s.span)?.locals.truncate(scope);
                return Ok(());
            }
        }
        Err(internal(s.span, format!("`{word}` outside a loop")))
    }

    fn do_return(&mut self, value: Option<Value>, span: Span) -> Step {
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

    fn frame_exit(&mut self) -> Step {
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
        for ens in decl.ensures.iter().rev() {
            self.tasks.push(Task::CheckEnsures(ens));
            self.tasks.push(Task::Eval(ens));
        }
        Ok(())
    }

    /// Pushes a frame for `func` and schedules its `old(...)` evaluations and its body.
    fn enter(
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

    fn call_expr(&mut self, e: &'a Expr) -> Step {
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
    fn resolve_bare(&self, e: &Expr, name: &str) -> Step<(usize, Option<ObjId>)> {
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

    fn field_read(&mut self, e: &'a Expr) -> Step {
        let ExprKind::Field { field, .. } = &e.kind else {
            return Err(internal(e.span, "field continuation on a non-field node"));
        };
        let v = match self.pop(e.span)? {
            Value::Ref(Some(id)) => match self.heap.field(id, &field.name) {
                Some(v) => v,
                None => {
                    return Err(internal(
                        e.span,
                        format!(
                            "{} has no field `{}`",
                            self.heap.display_value(&Value::Ref(Some(id))),
                            field.name
                        ),
                    ));
                }
            },
            Value::Ref(None) => {
                return Err(fail(
                    ErrorKind::NullDereference,
                    e.span,
                    e.id,
                    format!("reading field `{}` of null", field.name),
                ));
            }
            other => return Err(internal(e.span, format!("reading a field of `{other}`"))),
        };
        self.values.push(v);
        Ok(())
    }

    fn field_store(&mut self, s: &'a Stmt) -> Step {
        let StmtKind::FieldStore { field, .. } = &s.kind else {
            return Err(internal(s.span, "field-store continuation on another statement"));
        };
        let value = self.pop(s.span)?;
        match self.pop(s.span)? {
            Value::Ref(Some(id)) => {
                if self.heap.set_field(id, &field.name, value) {
                    Ok(())
                } else {
                    Err(internal(
                        s.span,
                        format!(
                            "{} has no field `{}`",
                            self.heap.display_value(&Value::Ref(Some(id))),
                            field.name
                        ),
                    ))
                }
            }
            Value::Ref(None) => Err(fail(
                ErrorKind::NullDereference,
                s.span,
                s.id,
                format!("writing field `{}` of null", field.name),
            )),
            other => Err(internal(s.span, format!("writing a field of `{other}`"))),
        }
    }

    fn new_object(&mut self, e: &'a Expr) -> Step {
        let ExprKind::New { class, fields } = &e.kind else {
            return Err(internal(e.span, "`new` continuation on another node"));
        };
        let values = self.pop_n(fields.len(), e.span)?;
        let Some(decl) = self.tables.classes.get(class.name.as_str()) else {
            return Err(internal(class.span, format!("unknown class `{}`", class.name)));
        };
        let mut slots: Vec<(String, Value)> =
            decl.fields.iter().map(|f| (f.name.name.clone(), default_value(&f.ty))).collect();
        for (init, value) in fields.iter().zip(values) {
            match slots.iter_mut().find(|(n, _)| *n == init.field.name) {
                Some(slot) => slot.1 = value,
                None => {
                    return Err(internal(
                        init.field.span,
                        format!("class `{}` has no field `{}`", class.name, init.field.name),
                    ));
                }
            }
        }
        let id = self.heap.alloc(class.name.clone(), slots);
        self.values.push(Value::Ref(Some(id)));
        Ok(())
    }

    fn unary(&mut self, e: &'a Expr) -> Step {
        let ExprKind::Unary { op, .. } = &e.kind else {
            return Err(internal(e.span, "unary continuation on another node"));
        };
        let v = match op {
            UnOp::Neg => {
                let n = self.pop_int(e.span)?;
                match n.checked_neg() {
                    Some(m) => Value::Int(m),
                    None => {
                        return Err(fail(
                            ErrorKind::IntegerOverflow,
                            e.span,
                            e.id,
                            format!("-({n}) leaves the int range"),
                        ));
                    }
                }
            }
            UnOp::Not => Value::Bool(!self.pop_bool(e.span)?),
        };
        self.values.push(v);
        Ok(())
    }

    fn binary(&self, e: &Expr, op: BinOp, lhs: Value, rhs: Value) -> Step<Value> {
        let sym = op.symbol();
        match op {
            BinOp::Eq | BinOp::Ne => {
                let same = match (lhs, rhs) {
                    (Value::Int(_), Value::Int(_))
                    | (Value::Bool(_), Value::Bool(_))
                    | (Value::Ref(_), Value::Ref(_)) => lhs == rhs,
                    _ => {
                        return Err(internal(
                            e.span,
                            format!("cannot compare `{lhs}` {sym} `{rhs}`"),
                        ));
                    }
                };
                Ok(Value::Bool(same == (op == BinOp::Eq)))
            }
            BinOp::And | BinOp::Or => match (lhs, rhs) {
                (Value::Bool(a), Value::Bool(b)) => {
                    Ok(Value::Bool(if op == BinOp::And { a && b } else { a || b }))
                }
                _ => Err(internal(e.span, format!("`{sym}` needs two bools"))),
            },
            _ => {
                let (Value::Int(a), Value::Int(b)) = (lhs, rhs) else {
                    return Err(internal(
                        e.span,
                        format!("`{sym}` needs two ints, got `{lhs}` and `{rhs}`"),
                    ));
                };
                let overflow = || {
                    fail(
                        ErrorKind::IntegerOverflow,
                        e.span,
                        e.id,
                        format!("{a} {sym} {b} leaves the int range"),
                    )
                };
                let div_zero = || {
                    fail(
                        ErrorKind::DivisionByZero,
                        e.span,
                        e.id,
                        format!("{a} {sym} 0 divides by zero"),
                    )
                };
                let v = match op {
                    BinOp::Add => Value::Int(a.checked_add(b).ok_or_else(overflow)?),
                    BinOp::Sub => Value::Int(a.checked_sub(b).ok_or_else(overflow)?),
                    BinOp::Mul => Value::Int(a.checked_mul(b).ok_or_else(overflow)?),
                    BinOp::Div if b == 0 => return Err(div_zero()),
                    // Truncates toward zero, as in Java; only i64::MIN / -1 overflows.
                    BinOp::Div => Value::Int(a.checked_div(b).ok_or_else(overflow)?),
                    BinOp::Mod if b == 0 => return Err(div_zero()),
                    // Sign of the dividend, as in Java; i64::MIN % -1 is 0 (in range).
                    BinOp::Mod => Value::Int(a.wrapping_rem(b)),
                    BinOp::Lt => Value::Bool(a < b),
                    BinOp::Le => Value::Bool(a <= b),
                    BinOp::Gt => Value::Bool(a > b),
                    BinOp::Ge => Value::Bool(a >= b),
                    BinOp::Eq | BinOp::Ne | BinOp::And | BinOp::Or => {
                        return Err(internal(e.span, "unreachable operator"));
                    }
                };
                Ok(v)
            }
        }
    }
}
