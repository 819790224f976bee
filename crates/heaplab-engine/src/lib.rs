//! HeapLab's execution engine: the concrete interpreter ([`interp`]), HeapLab's reference
//! semantics and the replay oracle of generated tests, and the symbolic executor ([`symbolic`]):
//! a search driver, an executor, heap models and the heap strategies (see `DESIGN.md` §3 and
//! `ARCHITECTURE.md`).
//!
//! Invariant: no IO, no threads, no processes — the engine compiles for wasm32-unknown-unknown
//! and runs the same in the browser as in the CLI. A failure of the user's program is an
//! [`Outcome`]; [`Error`] is reserved for failures of the engine or its caller.

mod error;
pub mod interp;
pub mod memory;
pub mod symbolic;

pub use error::{Error, Result};
pub use interp::{
    eval_call, run_tests, Coverage, Heap, Interpreter, LimitKind, Limits, ObjId, Object, Outcome,
    RuntimeError, TestResult, Trace, TraceEvent, TraceFrame, Value, ENSURES_FORMULA_NODE,
};
