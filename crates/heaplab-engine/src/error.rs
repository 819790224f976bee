//! The engine's error type: failures of HeapLab itself or of its caller, never of the user's
//! program. A null dereference, a failed `assert` or an exhausted bound is a path
//! [`Outcome`](crate::Outcome); an `Error` means the engine was asked something it cannot do (a
//! function that does not exist, the wrong number of arguments) or met a program the checker
//! should have rejected.

use crate::interp::ObjId;
use heaplab_syntax::Span;

/// What can go wrong in the engine, as opposed to in the program it runs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The caller named a top-level function that the program does not declare.
    #[error("no top-level function named `{0}`")]
    UnknownFunction(String),
    /// The caller named a method that the receiver's class does not declare.
    #[error("class `{class}` has no method `{method}`")]
    UnknownMethod { class: String, method: String },
    /// The caller passed a receiver that is not in the heap.
    #[error("object {0} is not in the heap")]
    UnknownObject(ObjId),
    /// The caller passed the wrong number of arguments.
    #[error("`{name}` takes {expected} argument(s), but {got} were given")]
    ArgumentCount { name: String, expected: usize, got: usize },
    /// The interpreter met something a checked program cannot contain: an unknown name, an
    /// operand of the wrong type, `break` outside a loop, a non-void function ending without
    /// `return`. Only possible when the type checker was bypassed or is incomplete.
    /// The run asks for something the chosen strategy does not model (arrays under `symheap`
    /// or `concolic`).
    #[error("{0}")]
    Unsupported(String),
    #[error("internal interpreter error at bytes {}..{}: {message}", span.start, span.end)]
    Internal { span: Span, message: String },
}

/// The engine's result type.
pub type Result<T> = std::result::Result<T, Error>;
