//! The symbolic executor: explores every path of one method over *unknown* input heaps, discovered
//! on demand by a heap strategy (Kiasan's lazy, lazier and lazier#, digest seed-004a §3).
//!
//! Code map:
//! - [`code`]: the program compiled to a small stack bytecode (methods, predicates and
//!   `requires` formulas alike), so a state is plain data that can be cloned and stepped.
//! - [`state`]: one path — frames, the symbolic heap with its input journal, Kiasan's symbolic
//!   locations/references, the path condition.
//! - [`strategy`]: the heap strategies behind one trait, and the registry table that front ends
//!   read.
//! - [`sl`]: the `sl` strategy's deferred predicate instances (JSF); [`sl_enum`]: its `enum`
//!   rule, which prunes an instance's disjuncts against the path before they run;
//!   [`sl_model`]: a path's remaining input formula solved by the logic into the test input
//!   (`sl_oracle` lets that search ask the explorer's solver; `logic_sym` turns the logic's
//!   facts into [`term::Sym`]s for both).
//! - [`explorer`]: the worklist, one instruction per step, the [`Event`] stream and the tree of
//!   states; path outcomes, bounds and coverage.
//! - [`solve`]: the explorer's synchronous view of the solver [`smt`] adapts `heaplab_smt` to it.
//! - [`config`]: the one [`Config`] struct with every bound.
//! - [`view`]: a state as plain data for people (heap graph, path condition), and the per-node
//!   snapshots the explorer keeps on request.
//!
//! Invariant: no IO, no clock of its own (time comes through [`Clock`]), no threads — the
//! explorer runs the same natively and in wasm.

pub mod code;
pub mod config;
mod dbm;
pub mod explorer;
mod logic_sym;
pub mod sl;
pub mod sl_enum;
pub mod sl_model;
mod sl_oracle;
pub mod smt;
pub mod solve;
pub mod state;
pub mod strategy;
pub mod term;
pub mod view;

pub use config::{
    Bound, Bounds, Clock, Config, NoClock, PreMode, SearchOrder, SlCompletion, StrategyKind,
};
pub use explorer::{Event, Explorer, ForkKind, PathOutcome, PathResult, RunStats, TreeNode};
pub use smt::SmtPathSolver;
pub use solve::{Model, PathSolver, SatAnswer, SolverCounts};
pub use state::{SValue, State, StateId};
pub use strategy::{HeapStrategy, StrategyInfo, STRATEGIES};
pub use term::{Sort, Sym};
pub use view::{HeapView, ValView, ViewAt};
