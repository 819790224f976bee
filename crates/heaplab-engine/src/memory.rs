//! How much memory the process holds, for the memory bound of a run (issue 21).
//!
//! The engine cannot ask the operating system (there is none on wasm32-unknown-unknown), and an
//! estimate from counting states would miss what they share or what a strategy keeps. So a front
//! end installs a counting global allocator (the CLI around the system allocator, the wasm module
//! around its default one) and hands its counter to [`install_meter`]: the bytes allocated and
//! not yet freed, counted the same way natively and in the page. The count is deterministic for a
//! single-threaded run: the same program allocates the same bytes.
//!
//! This is the engine's one piece of global state, because the allocator is global by nature.
//! Where no front end installed a meter (unit tests), [`live_bytes`] is `None` and memory bounds
//! do nothing.

use std::sync::OnceLock;

static METER: OnceLock<fn() -> usize> = OnceLock::new();

/// Installs the process's byte counter (the first call wins; later calls are ignored).
pub fn install_meter(live: fn() -> usize) {
    let _ = METER.set(live);
}

/// Bytes allocated and not yet freed in the whole process; `None` without a meter.
pub fn live_bytes() -> Option<u64> {
    METER.get().map(|f| f() as u64)
}

/// Megabytes as bytes (saturating).
pub fn mb(n: u64) -> u64 {
    n.saturating_mul(1024 * 1024)
}
