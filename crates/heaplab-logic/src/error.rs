//! The one error type of `heaplab-logic`. A formula that is unsatisfiable, or a search that hits
//! its bound, is a *result* (`SatResult::Unsat`, `SatResult::Unknown`), never an `Err`; errors
//! are for input the logic cannot handle at all and for solver failures.

use heaplab_syntax::{Diagnostic, Span};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// A formula or predicate that cannot be converted into the logic (unknown names, wrong
    /// arity, unsupported expressions). Carries the span of the offending source text.
    Convert { span: Span, message: String },
    /// The model given to the model checker does not fit the formula (missing store variable,
    /// dangling object id).
    BadModel(String),
    /// The SMT solver failed (not "unsat": a crash, a parse error, an unsupported answer).
    Solver(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn convert(span: Span, message: impl Into<String>) -> Error {
        Error::Convert { span, message: message.into() }
    }

    /// A diagnostic for front ends; errors without a source position point at the start.
    pub fn to_diagnostic(&self) -> Diagnostic {
        match self {
            Error::Convert { span, message } => Diagnostic::error(*span, message.clone()),
            other => Diagnostic::error(Span::default(), other.to_string()),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Convert { message, .. } => write!(f, "{message}"),
            Error::BadModel(m) => write!(f, "bad model: {m}"),
            Error::Solver(m) => write!(f, "solver error: {m}"),
        }
    }
}

impl std::error::Error for Error {}
