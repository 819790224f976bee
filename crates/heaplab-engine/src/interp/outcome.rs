//! How a run ends, and how to explain that to a person.

use super::value::Value;
use crate::error::Error;
use heaplab_syntax::ast::{ErrorKind, Expectation, NodeId};
use heaplab_syntax::{SourceFile, Span};
use std::collections::HashSet;

/// Which interpreter limit a [`ErrorKind::BoundExhausted`] error hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LimitKind {
    /// [`Limits::steps`](super::Limits::steps).
    Steps,
    /// [`Limits::call_depth`](super::Limits::call_depth).
    CallDepth,
    /// [`Limits::heap_cells`](super::Limits::heap_cells).
    HeapCells,
}

/// A runtime error of the user's program: it ends the run (HeapLab has no exceptions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeError {
    pub kind: ErrorKind,
    /// The expression or statement that failed.
    pub span: Span,
    /// The node of that expression or statement.
    pub node: NodeId,
    /// What happened, without a position: "reading field `key` of null".
    pub message: String,
    /// For `BoundExhausted`: which limit.
    pub limit: Option<LimitKind>,
}

impl RuntimeError {
    /// `null dereference at 12:7: reading field `key` of null`.
    pub fn describe(&self, file: &SourceFile) -> String {
        let pos = file.line_col(self.span.start);
        format!("{} at {}:{}: {}", kind_text(self.kind), pos.line, pos.col, self.message)
    }

    /// Like [`describe`](Self::describe) but without a position, for when the source is unknown.
    pub fn summary(&self) -> String {
        format!("{}: {}", kind_text(self.kind), self.message)
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The code completed; the value of the expression or call (`Void` for a `void` call or a
    /// test block).
    Returned(Value),
    /// The program failed.
    Error(RuntimeError),
    /// An `assume` was false: not a failure of the program, but the run does not count (a test
    /// that hits it fails, since its setup does not reach the code under test).
    AssumptionViolated { span: Span, node: NodeId },
}

impl Outcome {
    /// Where the run stopped, unless it completed.
    pub fn span(&self) -> Option<Span> {
        match self {
            Outcome::Returned(_) => None,
            Outcome::Error(e) => Some(e.span),
            Outcome::AssumptionViolated { span, .. } => Some(*span),
        }
    }

    /// The node where the run stopped, unless it completed.
    pub fn node_id(&self) -> Option<NodeId> {
        match self {
            Outcome::Returned(_) => None,
            Outcome::Error(e) => Some(e.node),
            Outcome::AssumptionViolated { node, .. } => Some(*node),
        }
    }

    /// The runtime error, if the run ended with one.
    pub fn error_kind(&self) -> Option<ErrorKind> {
        match self {
            Outcome::Error(e) => Some(e.kind),
            _ => None,
        }
    }

    /// One line for a person, with `line:col` taken from `file`.
    pub fn describe(&self, file: &SourceFile) -> String {
        self.text(Some(file))
    }

    /// One line without a position.
    pub fn summary(&self) -> String {
        self.text(None)
    }

    fn text(&self, file: Option<&SourceFile>) -> String {
        match (self, file) {
            (Outcome::Returned(v), _) => format!("returned {v}"),
            (Outcome::Error(e), Some(f)) => e.describe(f),
            (Outcome::Error(e), None) => e.summary(),
            (Outcome::AssumptionViolated { span, .. }, Some(f)) => {
                let pos = f.line_col(span.start);
                format!(
                    "assumption violated at {}:{}: the `assume` condition is false",
                    pos.line, pos.col
                )
            }
            (Outcome::AssumptionViolated { .. }, None) => {
                "assumption violated: the `assume` condition is false".to_string()
            }
        }
    }
}

/// Words for an error kind in messages ("null dereference").
pub fn kind_text(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::NullDereference => "null dereference",
        ErrorKind::DivisionByZero => "division by zero",
        ErrorKind::AssertFailed => "assertion failed",
        ErrorKind::EnsuresFailed => "postcondition failed",
        ErrorKind::RequiresFailed => "precondition failed",
        ErrorKind::IntegerOverflow => "integer overflow",
        ErrorKind::BoundExhausted => "bound exhausted",
        ErrorKind::Exception => "uncaught exception",
        ErrorKind::IndexOutOfBounds => "index out of bounds",
        ErrorKind::NegativeArraySize => "negative array size",
    }
}

/// What a run executed: cheap sets filled as statements run and branches are decided. Later
/// passes (the symbolic executor's statistics, the UI's highlighting) compare them across runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Every statement that started executing.
    pub statements: HashSet<NodeId>,
    /// Every branch direction taken: the node of an `if` or `while` statement, or of a `?:`,
    /// `&&` or `||` expression (its condition / left operand), with the value it had.
    pub branches: HashSet<(NodeId, bool)>,
}

impl Coverage {
    /// Adds everything `other` covered.
    pub fn merge(&mut self, other: &Coverage) {
        self.statements.extend(other.statements.iter().copied());
        self.branches.extend(other.branches.iter().copied());
    }
}

/// The result of one `test` block.
#[derive(Clone, Debug, PartialEq)]
pub struct TestResult {
    pub name: String,
    /// The whole test declaration.
    pub span: Span,
    pub expected: Expectation,
    /// How the block ended; `Err` if the interpreter could not run it (a program the checker
    /// should have rejected).
    pub outcome: Result<Outcome, Error>,
    pub passed: bool,
    /// Why the test failed, without positions ("expected null_dereference but the test
    /// completed"); empty when it passed. [`describe`](Self::describe) adds `line:col`.
    pub message: String,
    pub coverage: Coverage,
    /// Interpreter steps used.
    pub steps: u64,
}

impl TestResult {
    pub(crate) fn new(
        name: String,
        span: Span,
        expected: Expectation,
        outcome: Result<Outcome, Error>,
        coverage: Coverage,
        steps: u64,
    ) -> TestResult {
        let passed = match (&outcome, expected) {
            (Ok(Outcome::Returned(_)), Expectation::Pass) => true,
            (Ok(Outcome::Error(e)), Expectation::Error(kind)) => e.kind == kind,
            _ => false,
        };
        let mut result = TestResult {
            name,
            span,
            expected,
            outcome,
            passed,
            message: String::new(),
            coverage,
            steps,
        };
        if !passed {
            result.message = result.failure_text(None);
        }
        result
    }

    /// Why the test failed, with `line:col` from `file` ("null dereference at 12:7: reading
    /// field `key` of null"); `passed` for a passing test.
    pub fn describe(&self, file: &SourceFile) -> String {
        if self.passed {
            "passed".to_string()
        } else {
            self.failure_text(Some(file))
        }
    }

    fn failure_text(&self, file: Option<&SourceFile>) -> String {
        let outcome = match &self.outcome {
            Err(e) => return format!("internal error: {e}"),
            Ok(o) => o,
        };
        let got = outcome.text(file);
        match (self.expected, outcome) {
            (Expectation::Error(kind), Outcome::Returned(_)) => {
                format!("expected {} but the test completed", kind.keyword())
            }
            (Expectation::Error(kind), Outcome::Error(_)) => {
                format!("expected {} but got {got}", kind.keyword())
            }
            (Expectation::Error(kind), Outcome::AssumptionViolated { .. }) => format!(
                "expected {} but the test stopped early: {got} (its setup does not reach the code under test)",
                kind.keyword()
            ),
            (Expectation::Pass, Outcome::AssumptionViolated { .. }) => {
                format!("{got} (the test's setup does not reach the code under test)")
            }
            (Expectation::Pass, _) => got,
        }
    }
}
