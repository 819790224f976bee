//! The concrete interpreter: HeapLab's reference semantics (`docs/language.md`, "Runtime
//! semantics"). It runs `test` blocks, evaluates `heaplab exec --call` expressions, and replays
//! generated tests as the oracle of the symbolic executor, so it favours being obviously right
//! over being fast.
//!
//! - Every failure of the user's program is an [`Outcome`], never an `Err` and never a panic;
//!   `Err(`[`Error`]`)` means the engine was misused or met a program the checker should have
//!   rejected.
//! - Evaluation uses an explicit task stack ([`machine`]), so deep HeapLab recursion and deeply
//!   nested expressions never touch the native stack limit — on wasm32 too, where there are no
//!   threads to get a bigger stack.
//! - Names are resolved with the checker's [`ProgramInfo::calls`] when present, and otherwise
//!   dynamically (receiver's class; bare call: current class, then top-level function), so the
//!   interpreter also works on a partially checked program.
//! - `requires` is not evaluated here (it is a separation-logic formula; the logic crate's model
//!   checker decides it). `ensures` is: `old(e)` subexpressions are evaluated at entry.

mod heap;
mod limits;
mod machine;
mod outcome;
mod tables;
mod trace;
mod value;

pub use heap::{Heap, Object};
pub use limits::Limits;
pub use outcome::{kind_text, Coverage, LimitKind, Outcome, RuntimeError, TestResult};
pub use tables::ENSURES_FORMULA_NODE;
pub use trace::{Trace, TraceEvent, TraceFrame};
pub use value::{ObjId, Value};

use crate::error::{Error, Result};
use heaplab_syntax::ast::{Block, Expr, Program, TestDecl};
use heaplab_syntax::types::ProgramInfo;
use machine::Machine;
use tables::Tables;

/// Runs code of one program on a heap that persists between runs.
///
/// Each run ([`eval`](Self::eval), [`run_block`](Self::run_block),
/// [`call_function`](Self::call_function), [`call_method`](Self::call_method)) gets the full
/// [`Limits`]; coverage accumulates across runs until [`take_coverage`](Self::take_coverage).
pub struct Interpreter<'p> {
    info: &'p ProgramInfo,
    limits: Limits,
    tables: Tables<'p>,
    heap: Heap,
    coverage: Coverage,
    steps: u64,
    /// Set by [`trace_next_run`](Self::trace_next_run): the next run records its statements.
    trace: Option<Trace>,
}

impl<'p> Interpreter<'p> {
    /// Builds the name tables of `program` once; starts with an empty heap.
    pub fn new(program: &'p Program, info: &'p ProgramInfo, limits: Limits) -> Interpreter<'p> {
        Interpreter {
            info,
            limits,
            tables: Tables::build(program, info),
            heap: Heap::new(),
            coverage: Coverage::default(),
            steps: 0,
            trace: None,
        }
    }

    /// Records the statements of the runs that follow (at most `max_events` events in all)
    /// until [`take_trace`](Self::take_trace).
    pub fn trace_next_run(&mut self, max_events: usize) {
        self.trace = Some(Trace::new(max_events));
    }

    /// The recorded trace, if tracing was on; tracing stops.
    pub fn take_trace(&mut self) -> Option<Trace> {
        self.trace.take()
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    pub fn heap(&self) -> &Heap {
        &self.heap
    }

    /// For building an input heap before a call.
    pub fn heap_mut(&mut self) -> &mut Heap {
        &mut self.heap
    }

    /// Replaces the heap (e.g. with one built from a solver model); returns the old one.
    pub fn set_heap(&mut self, heap: Heap) -> Heap {
        std::mem::replace(&mut self.heap, heap)
    }

    pub fn into_heap(self) -> Heap {
        self.heap
    }

    pub fn coverage(&self) -> &Coverage {
        &self.coverage
    }

    /// Returns the coverage collected so far and starts afresh.
    pub fn take_coverage(&mut self) -> Coverage {
        std::mem::take(&mut self.coverage)
    }

    /// Steps used by the last run.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The test blocks of the program, in source order.
    pub fn tests(&self) -> &[&'p TestDecl] {
        &self.tables.tests
    }

    /// Allocates an object of a declared class with default field values (0, false, null).
    pub fn alloc_default(&mut self, class: &str) -> Result<ObjId> {
        let Some(decl) = self.tables.classes.get(class) else {
            return Err(Error::Internal {
                span: Default::default(),
                message: format!("unknown class `{class}`"),
            });
        };
        let fields = decl
            .fields
            .iter()
            .map(|f| (f.name.name.clone(), machine::default_value(&f.ty)))
            .collect();
        Ok(self.heap.alloc(class, fields))
    }

    /// Evaluates any expression at the top level (no locals, no `this`) on the current heap.
    pub fn eval(&mut self, expr: &Expr) -> Result<Outcome> {
        let mut m =
            Machine::new(&self.tables, self.info, self.limits, &mut self.heap, &mut self.coverage);
        m.trace = self.trace.as_mut();
        let outcome = m.eval(expr);
        self.steps = m.steps;
        outcome
    }

    /// Evaluates an expression on the current heap with `this` (of class `class`) and named
    /// locals bound: a pure fact of a `requires` on a concrete input.
    pub fn eval_in(
        &mut self,
        expr: &'p Expr,
        this: Option<ObjId>,
        class: Option<&'p str>,
        locals: Vec<(&'p str, Value)>,
    ) -> Result<Outcome> {
        let mut m =
            Machine::new(&self.tables, self.info, self.limits, &mut self.heap, &mut self.coverage);
        m.trace = self.trace.as_mut();
        let outcome = m.eval_in(expr, this, class, locals);
        self.steps = m.steps;
        outcome
    }

    /// Executes a block at the top level (how a `test` body runs); completes with `Void`.
    pub fn run_block(&mut self, block: &Block) -> Result<Outcome> {
        let mut m =
            Machine::new(&self.tables, self.info, self.limits, &mut self.heap, &mut self.coverage);
        m.trace = self.trace.as_mut();
        let outcome = m.exec_block(block);
        self.steps = m.steps;
        outcome
    }

    /// Runs one test block on a fresh heap with fresh coverage.
    pub fn run_test(&mut self, test: &TestDecl) -> TestResult {
        self.heap = Heap::new();
        self.coverage = Coverage::default();
        let outcome = self.run_block(&test.body);
        TestResult::new(
            test.name.name.clone(),
            test.span,
            test.expect,
            outcome,
            self.take_coverage(),
            self.steps,
        )
    }

    /// Calls a top-level function with argument values, on the current heap.
    pub fn call_function(&mut self, name: &str, args: &[Value]) -> Result<Outcome> {
        let Some(&func) = self.tables.functions.get(name) else {
            return Err(Error::UnknownFunction(name.to_string()));
        };
        self.call_index(func, None, name, args)
    }

    /// Calls method `method` on object `receiver` of the current heap (the entry point of test
    /// generation: build an input heap, call, inspect [`heap`](Self::heap)).
    pub fn call_method(
        &mut self,
        receiver: ObjId,
        method: &str,
        args: &[Value],
    ) -> Result<Outcome> {
        let Some(class) = self.heap.class_of(receiver) else {
            return Err(Error::UnknownObject(receiver));
        };
        let Some(&func) = self.tables.methods.get(&(class, method)) else {
            return Err(Error::UnknownMethod {
                class: class.to_string(),
                method: method.to_string(),
            });
        };
        self.call_index(func, Some(receiver), method, args)
    }

    fn call_index(
        &mut self,
        func: usize,
        this: Option<ObjId>,
        name: &str,
        args: &[Value],
    ) -> Result<Outcome> {
        let expected = self.tables.fns.get(func).map_or(0, |f| f.decl.params.len());
        if expected != args.len() {
            return Err(Error::ArgumentCount { name: name.to_string(), expected, got: args.len() });
        }
        let mut m =
            Machine::new(&self.tables, self.info, self.limits, &mut self.heap, &mut self.coverage);
        m.trace = self.trace.as_mut();
        let outcome = m.call(func, this, args.to_vec());
        self.steps = m.steps;
        outcome
    }
}

/// Runs every `test` block of a checked program, each on a fresh heap, in source order.
pub fn run_tests(program: &Program, info: &ProgramInfo, limits: Limits) -> Vec<TestResult> {
    let mut interp = Interpreter::new(program, info, limits);
    let tests = interp.tests().to_vec();
    tests.into_iter().map(|t| interp.run_test(t)).collect()
}

/// Evaluates `call` (any expression, e.g. `length(new Node { key: 1 })`) on a fresh heap and
/// returns how it ended with the final heap. `Err` only for internal errors (a program the
/// checker should have rejected).
pub fn eval_call(
    program: &Program,
    info: &ProgramInfo,
    call: &Expr,
    limits: Limits,
) -> Result<(Outcome, Heap)> {
    let mut interp = Interpreter::new(program, info, limits);
    let outcome = interp.eval(call)?;
    Ok((outcome, interp.into_heap()))
}
