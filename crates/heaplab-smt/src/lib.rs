//! HeapLab's solver layer: quantifier-free terms, SMT-LIB2 text in and out, and one async
//! [`Solver`] trait with two transports (a `z3 -in` process natively, Z3 wasm in the browser).
//!
//! Reading order: [`term`] (what a query is made of), [`solver`] (the trait, [`SmtSolver`] and
//! the text-level [`Transport`]), [`frontend`] (local decisions, cache and [`Stats`]), then
//! [`process`] (the native transport).
//!
//! Invariant: this crate depends on no other HeapLab crate and knows nothing of heaps or
//! programs. Its only IO is the `z3` child process, which is compiled out on wasm32.
//!
//! Sorts: references are modelled as `Int` with `null = 0`. That keeps every query in linear
//! integer arithmetic (one theory, cheap for Z3) and lets reference and integer values share one
//! [`Value::Int`]. The engine is responsible for constraining allocated references to be non-null.

pub mod definitions;
pub mod error;
pub mod frontend;
pub mod lia;
pub mod model;
pub mod print;
#[cfg(not(target_arch = "wasm32"))]
pub mod process;
pub mod querylog;
pub mod response;
mod sexp;
pub mod solver;
pub mod term;

pub use error::{Result, SolverError};
pub use frontend::{NoZ3, SharedCache, SolverFrontend, Stats};
pub use model::{eval, Model, Value};
pub use print::{batch_script, build_script, quote_symbol, split_batch_reply};
#[cfg(not(target_arch = "wasm32"))]
pub use process::{ProcessConfig, Z3Process};
pub use querylog::QueryLog;
pub use response::{parse_check_response, parse_model, parse_sort, parse_term, parse_values};
pub use solver::{block_on, Answer, BoxFuture, Query, SmtSolver, Solver, Transport};
pub use term::{CmpOp, NlOp, Sort, Term, Var};
