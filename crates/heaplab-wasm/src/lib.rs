//! HeapLab's JS API: the Rust engine compiled to wasm, a thin layer over `heaplab-session`.
//!
//! Each module holds `#[wasm_bindgen]` entry points that read JS values into the shared types
//! (options into `heaplab_session::exploration::Request`, whose `options` is the engine's
//! `Options`), call `heaplab-session`, and return its serde results as plain JS objects; what a
//! call computes lives there, shared with the CLI. What stays here truly needs wasm: the JS
//! conversions, the async loops that await the host's Z3 between synchronous steps, the JS
//! solver transport, and the TypeScript declarations of the API. Run summaries go out as
//! `heaplab_report::RunSummary`, the document `heaplab run --format json` prints. To add an API:
//! write the logic in heaplab-session, its entry point in `src/<feature>.rs`, and follow
//! [`solver_bridge`] for the patterns (a JS `Error` with a `kind` for every failure).
//!
//! Modules:
//! - [`explore`]: the `Exploration` class (`step`, `runToEnd`, `runSlice`, `tests`, `tree`,
//!   `view`, `coverage`, `cancel`) over a session `Run`, with Z3 wasm answering through the
//!   replay solver; `strategies()` (the registry) and `bounds()` (the bound table).
//! - [`concolic`]: `concolicRun`, the `concolic` strategy pass by pass, Z3 wasm between passes.
//! - [`duel`]: `duelProgram`, `duelProgress`, `duelVerdict`, as `heaplab duel`.
//! - [`program`]: the editor's API: `check`, `runTests`, `satQuery`, `methods`, `syntaxDump`,
//!   `looksLikeJava`.
//! - [`replay`]: `Exploration.replay(i)`, the concrete replay of generated test `i`.
//! - [`solver_bridge`]: the wasm [`heaplab_smt::Transport`] over a host JS function, and the
//!   `Z3Solver` class (`solve`, `check`, `stats`) used by the conformance tests and the bench.

use wasm_bindgen::prelude::*;

pub mod concolic;
pub mod duel;
pub mod explore;
pub mod program;
pub mod replay;
pub mod solver_bridge;

pub use solver_bridge::{JsTransport, Z3Solver};

/// The wasm engine's allocator: free lists by size class (`heaplab-alloc`) in front of TLSF
/// instead of the standard library's dlmalloc port. TLSF took 11 % less CPU than dlmalloc on
/// TreeMap `put` `lazier#` k = 3 in node, and the free lists a further quarter of a `lazy` run,
/// where forking and dropping states is most of the work. TLSF grows the memory by chunks
/// (`heaplab_alloc::linear`, where growing at each slice made JS collect garbage twice a slice).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: heaplab_alloc::SizeClasses<heaplab_alloc::linear::WasmTlsf> =
    heaplab_alloc::SizeClasses::new(heaplab_alloc::linear::WasmTlsf::linear());

/// Installs the panic hook once, so that a Rust panic (always our bug) shows its message in the
/// console instead of "unreachable executed".
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    #[cfg(target_arch = "wasm32")]
    heaplab_engine::memory::install_meter(linear_memory_bytes);
}

/// The memory bound's meter in wasm (`maxMemoryMb`): the linear memory's size, what the tab gives
/// the engine (past a few GB the worker traps), which the allocator never gives back: a run stops
/// once it grew the memory `maxMemoryMb` past its size at the run's start. One instruction to
/// read; counting every allocation (the CLI's `cap` allocator) cost about 4 % of a run here.
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
