//! HeapLab's JS API: the Rust engine compiled to wasm.
//!
//! This file only wires modules to JS; each feature lives in its own module with its own
//! `#[wasm_bindgen]` exports. Options come in as the engine's `Options` (plus `file` and
//! `procedure`); run summaries go out as `heaplab_report::RunSummary`, the document `heaplab run
//! --format json` prints (snake_case, typed for the page by web/src/report-types.js). Results
//! the report vocabulary does not cover yet (events, views, tests) are JS-shaped structs here.
//! To add an API: write `src/<feature>.rs`, declare it below, and follow [`solver_bridge`] for
//! the patterns (a JS `Error` with a `kind` for every failure).
//!
//! Modules:
//! - [`explore`]: the `Exploration` class: symbolic execution of one method (`step`,
//!   `runToEnd`, `tests`, `tree`, `view`, `coverage`, `cancel`), the same explorer and test
//!   generation as `heaplab run`, with Z3 wasm answering through the explorer's pending-solver
//!   protocol; `strategies()` (the registry) and `bounds()` (the bound table) for the page. `inspect` holds the JS
//!   shapes of heap views and coverage.
//! - [`concolic`]: `concolicRun`, the `concolic` strategy (Concolic StarFinder) over Z3 wasm by
//!   restart-and-replay: the synchronous driver is re-run with Z3's replies cached.
//! - [`duel`]: `duelProgram`, `duelProgress`, `duelVerdict`: a student's method against a
//!   reference, as `heaplab duel` (the product program explored by an `Exploration`, the clues
//!   replayed on the original program by the interpreter).
//! - [`program`]: the editor's API: `check` (diagnostics in UTF-16 positions), `runTests` (the
//!   `test` blocks in the interpreter) and `satQuery` (satisfiability and enumeration of a
//!   separation-logic formula, as `heaplab sat`).
//! - [`replay`]: `Exploration.replay(i)`, the concrete replay of generated test `i` (the
//!   interpreter's trace: line, frames, heap per statement; the outcome; the path's choices).
//! - [`solver_bridge`]: the wasm [`heaplab_smt::Transport`] over a host JS function, and the
//!   `Z3Solver` class (`solve`, `check`, `stats`) used by the conformance tests and the bench.

use wasm_bindgen::prelude::*;

pub mod concolic;
pub mod duel;
pub mod explore;
mod inspect;
pub mod program;
pub mod replay;
pub mod solver_bridge;

pub use solver_bridge::{JsTransport, Z3Solver};

/// Installs the panic hook once, so that a Rust panic (always our bug) shows its message in the
/// console instead of "unreachable executed".
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    heaplab_engine::memory::install_meter(linear_memory_bytes);
}

/// The memory bound's meter in wasm (`maxMemoryMb`): the size of the module's linear memory,
/// which is what the tab gives the engine (past a few GB the worker traps). The allocator takes
/// memory from it and never gives it back, so a run is stopped once it made the memory grow
/// `maxMemoryMb` beyond its size at the run's start. Reading it is one instruction; counting
/// every allocation (the `cap` allocator the CLI uses) cost about 4 % of a run here (`malloc`
/// and `free` are a quarter of a wasm run's time).
#[cfg(target_arch = "wasm32")]
fn linear_memory_bytes() -> usize {
    const PAGE: usize = 65_536;
    core::arch::wasm32::memory_size(0) * PAGE
}

/// The HeapLab version this module was built from.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
