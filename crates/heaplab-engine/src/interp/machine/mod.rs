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
//! `return` truncates the task stack to it. `FrameExit` schedules the `ensures` checks. A `try`
//! leaves a `Try` marker under its body; `throw` truncates the task stack to the innermost marker
//! with a `catch` of its class (possibly in a caller's part of the stack) and restores the frames,
//! values and locals the marker recorded.

mod arrays;
mod calls;
mod ops;
mod post;
mod resume;

use super::heap::Heap;
use super::limits::Limits;
use super::outcome::{Coverage, LimitKind, Outcome, RuntimeError};
use super::tables::Tables;
use super::trace::{Trace, TraceEvent, TraceFrame};
use super::value::{ObjId, Value};
use crate::error::Error;
use heaplab_syntax::ast::{
    BinOp, Block, ErrorKind, Expr, ExprKind, NodeId, Stmt, StmtKind, TypeExpr,
};
use heaplab_syntax::types::ProgramInfo;
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
    IndexRead(&'a Expr),
    NewArray(&'a Expr),
    // Statement continuations.
    IndexStore(&'a Stmt),
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
    /// `throw`: the exception object is on the value stack; it unwinds to a `Try` marker that
    /// catches its class, or ends the run.
    Throw(&'a Stmt),
    /// Marker under a `try` body (a no-op when reached normally). It records the machine's
    /// extent when the `try` began, which a caught `throw` restores before its `catch` block.
    Try {
        stmt: &'a Stmt,
        scope: usize,
        frames: usize,
        values: usize,
        depth: u32,
    },
    ScopeEnd(usize),
    // Calls.
    StoreOld(NodeId),
    FrameExit,
    CheckEnsures(&'a Expr),
    CheckPost(&'a crate::interp::tables::Post),
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
        TypeExpr::Class(_) | TypeExpr::Array { .. } => Value::NULL,
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
    /// The optional observer: `Some` only for a traced run (the page's Replay).
    pub trace: Option<&'a mut Trace>,
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
            trace: None,
        }
    }

    /// Records the machine before statement `s` when a trace is on and has room.
    fn observe(&mut self, s: &Stmt) {
        let Some(trace) = self.trace.as_deref_mut() else { return };
        if !trace.has_room() {
            return;
        }
        let frames = self
            .frames
            .iter()
            .map(|f| TraceFrame {
                function: f
                    .func
                    .and_then(|i| self.tables.fns.get(i))
                    .map_or(String::new(), |e| e.decl.name.name.clone()),
                this: f.this,
                locals: f.locals.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
            })
            .collect();
        trace.events.push(TraceEvent { span: s.span, node: s.id, frames, heap: self.heap.clone() });
    }

    /// Evaluates an expression at the top level (no locals, no `this`).
    pub fn eval(&mut self, expr: &'a Expr) -> Result<Outcome, Error> {
        self.frames.push(Frame::top(None));
        self.tasks.push(Task::Eval(expr));
        self.run()
    }

    /// Evaluates an expression with `this` and named locals bound (a `requires` fact on a
    /// concrete input: `this` and the parameters).
    pub fn eval_in(
        &mut self,
        expr: &'a Expr,
        this: Option<ObjId>,
        class: Option<&'a str>,
        locals: Vec<(&'a str, Value)>,
    ) -> Result<Outcome, Error> {
        let mut frame = Frame::top(None);
        frame.this = this;
        frame.class = class;
        frame.locals = locals;
        self.frames.push(frame);
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
            Task::Binary(e) => self.binary_done(e),
            Task::ShortCircuit(e) => self.short_circuit(e),
            Task::Cond(e) => self.cond_done(e),
            Task::FieldRead(e) => self.field_read(e),
            Task::Call(e) => self.call_expr(e),
            Task::New(e) => self.new_object(e),
            Task::IndexRead(e) => self.index_read(e),
            Task::NewArray(e) => self.new_array(e),
            Task::IndexStore(s) => self.index_store(s),
            Task::BindLocal(s) => self.bind_local(s),
            Task::Assign(s) => self.assign(s),
            Task::FieldStore(s) => self.field_store(s),
            Task::Discard => self.pop(Span::default()).map(drop),
            Task::If(s) => self.if_done(s),
            Task::Loop { stmt, scope } => self.loop_marker(stmt, scope),
            Task::LoopTest(s) => self.loop_test(s),
            Task::Return => {
                let v = self.pop(Span::default())?;
                self.do_return(Some(v), Span::default())
            }
            Task::Assert(s) => self.assert_done(s),
            Task::Assume(s) => self.assume_done(s),
            Task::Throw(s) => self.throw_done(s),
            Task::Try { .. } => Ok(()),
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
            Task::CheckEnsures(e) => self.check_ensures(e),
            Task::CheckPost(p) => self.check_post(p),
            Task::PopFrame => self.pop_frame(),
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
            ExprKind::Index { array, index } => {
                self.tasks.push(Task::IndexRead(e));
                self.tasks.push(Task::Eval(index));
                self.tasks.push(Task::Eval(array));
                return Ok(());
            }
            ExprKind::NewArray { len, .. } => {
                self.tasks.push(Task::NewArray(e));
                self.tasks.push(Task::Eval(len));
                return Ok(());
            }
            ExprKind::ArrayLit { elems, .. } => {
                self.tasks.push(Task::NewArray(e));
                self.tasks.extend(elems.iter().rev().map(Task::Eval));
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
        self.observe(s);
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
            StmtKind::IndexStore { array, index, value } => {
                // Java order: the array, the index, the value, then the null and bounds checks.
                self.tasks.push(Task::IndexStore(s));
                self.tasks.push(Task::Eval(value));
                self.tasks.push(Task::Eval(index));
                self.tasks.push(Task::Eval(array));
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
            StmtKind::Throw(e) => {
                self.tasks.push(Task::Throw(s));
                self.tasks.push(Task::Eval(e));
            }
            StmtKind::Try { body, .. } => {
                let scope = self.frame(s.span)?.locals.len();
                self.tasks.push(Task::Try {
                    stmt: s,
                    scope,
                    frames: self.frames.len(),
                    values: self.values.len(),
                    depth: self.depth,
                });
                self.push_block(body);
            }
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
}
