//! The symbolic executor: explores every path of one method over *unknown* input heaps, discovered
//! on demand by a heap strategy (Kiasan's lazy, lazier and lazier#, digest seed-004a §3).
//!
//! Code map — driver → executor → heap model ← strategy (ARCHITECTURE.md draws it):
//! - [`explorer`]: the search driver. The worklist and its order, bounds, stop/pause, the
//!   [`Event`] stream, the tree of states, finished paths and coverage. The only part that
//!   decides which state runs next.
//! - [`exec`]: the executor. The semantics of one instruction over one state, forks on
//!   conditions (feasibility, the solver), the entry of a run, path ends. It reports to a
//!   [`exec::Sink`] the driver lends it and asks the heap model and the strategy hooks.
//! - [`heap`]: the heap model as a trait ([`heap::HeapModel`]: read/write a field, allocate,
//!   compare references, null test, points-to, input roots); [`heap::lazy`] is the lazy family's
//!   (objects plus Kiasan's symbolic references and locations).
//! - [`strategy`]: the registry and the [`HeapStrategy`] trait — an option table for unknown
//!   references plus hooks; one module per strategy (`lazy`, `lazier`, `lazier_sharp`, `sl` with
//!   its unfolding, `enum` rule and path-end model).
//! - [`state`]: one path — frames, the lazy-family heap with its input journal, the path
//!   condition, and a slot for the running strategy's per-path data.
//! - [`code`]: the program compiled to a small stack bytecode (methods, predicates and
//!   `requires` formulas alike), so a state is plain data that can be cloned and stepped.
//! - [`solve`]: the executor's synchronous view of the solver; [`smt`] adapts `heaplab_smt` to
//!   it. `dbm` decides difference constraints locally.
//! - [`config`]: the one [`Config`] struct with every bound.
//! - [`view`]: a state as plain data for people (heap graph, path condition), and the per-node
//!   snapshots the driver keeps on request.
//!
//! Invariant: no IO, no clock of its own (time comes through [`Clock`]), no threads — the
//! explorer runs the same natively and in wasm.

pub mod bounds;
mod chunked;
pub mod code;
pub mod concolic;
pub mod config;
mod dbm;
mod disjuncts;
pub mod events;
pub mod exec;
pub mod explorer;
pub mod heap;
pub mod names;
pub mod options;
mod order;
pub mod outcome;
pub mod shard;
pub mod shared_list;
pub mod show;
mod slots;
pub mod smt;
pub mod solve;
pub mod state;
pub mod step;
pub mod strategy;
pub mod term;
mod term_text;
pub mod tree;
pub mod view;
pub mod view_symheap;

pub use config::{
    Bound, Bounds, Clock, CoarseTime, Config, NoClock, PreMode, SearchOrder, SlCompletion,
    StrategyKind,
};
pub use events::{Event, ForkKind, Placed, RunStats, ViewAt};
pub use exec::answers::AnswerCounts;
pub use explorer::Explorer;
pub use options::{Options, OptionsError};
pub use outcome::{PathOutcome, PathResult, DISCARDED_ASSUMPTION, DISCARDED_PRECONDITION};
pub use show::ValView;
pub use smt::SmtPathSolver;
pub use solve::{Model, PathSolver, SatAnswer, SolverCounts};
pub use state::{SValue, State, StateId, StrategyData};
pub use strategy::{HeapStrategy, StrategyInfo, STRATEGIES};
pub use term::{Sort, Sym};
pub use tree::{LabelId, LabelTexts, Tree, TreeNode};
pub use view::HeapView;

/// The tests' random cases: a small deterministic generator (xorshift64) from `seed`;
/// `next(n)` is in `0..n`.
#[cfg(test)]
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    }
}
