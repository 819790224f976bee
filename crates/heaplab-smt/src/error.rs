//! The one error type of the solver layer.
//!
//! An `unsat` or `unknown` answer is not an error: it is an [`crate::Answer`]. Errors mean the
//! question could not be asked or the reply could not be understood.

/// Everything that can go wrong between building a query and holding a parsed answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    /// The `z3` executable could not be started (see [`crate::ProcessConfig::program`]).
    #[error("z3 not found: install it with `apt-get install z3` or run ./build.sh setup")]
    NotInstalled,
    /// The wall-clock guard expired: the query took longer than
    /// [`crate::Query::timeout_ms`] plus [`crate::ProcessConfig::grace_ms`]. The process was
    /// killed and will be restarted by the next query.
    #[error("solver timed out after {ms} ms (the z3 process was restarted)")]
    Timeout { ms: u64 },
    /// The solver process exited or closed its output in the middle of a query.
    #[error("solver crashed: {0}")]
    Crashed(String),
    /// Z3 answered with `(error "...")`, e.g. a sort mismatch in an assertion.
    #[error("solver reported an error: {0}")]
    SolverReported(String),
    /// Text that is not valid SMT-LIB2, or a solver reply we cannot understand.
    #[error("malformed SMT-LIB2: {0}")]
    Malformed(String),
    /// Reading from or writing to the solver failed.
    #[error("i/o error talking to the solver: {0}")]
    Io(String),
    /// Z3 wasm could not be loaded in the host (browser or node).
    #[error("Z3 wasm failed to load: {0}")]
    WasmLoad(String),
    /// Evaluating a term under a model failed (unbound variable, sort mismatch, overflow,
    /// division by zero); used when re-checking models.
    #[error("cannot evaluate term: {0}")]
    Eval(String),
}

/// `Result` with [`SolverError`].
pub type Result<T, E = SolverError> = std::result::Result<T, E>;
