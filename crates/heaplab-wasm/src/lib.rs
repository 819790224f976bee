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
//! - [`program`]: the editor's API: `check` (diagnostics in UTF-16 positions), `runTests` (the
//!   `test` blocks in the interpreter) and `satQuery` (satisfiability and enumeration of a
//!   separation-logic formula, as `heaplab sat`).
//! - [`solver_bridge`]: the wasm [`heaplab_smt::Transport`] over a host JS function, and the
//!   `Z3Solver` class (`solve`, `check`, `stats`) used by the conformance tests and the bench.

use wasm_bindgen::prelude::*;

pub mod concolic;
pub mod explore;
mod inspect;
pub mod program;
pub mod solver_bridge;

pub use solver_bridge::{JsTransport, Z3Solver};

/// Installs the panic hook once, so that a Rust panic (always our bug) shows its message in the
/// console instead of "unreachable executed".
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    heaplab_engine::memory::install_meter(|| ALLOCATOR.allocated());
}

/// Counts the bytes the module holds, for the memory bound of explorations (`maxMemoryMb`); the
/// page's wasm memory ends at a few GB, past which the worker would trap.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: cap::Cap<std::alloc::System> = cap::Cap::new(std::alloc::System, usize::MAX);

/// The HeapLab version this module was built from.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
