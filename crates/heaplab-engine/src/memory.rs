//! How much memory the process holds, for the memory bound of a run (issue 21).
//!
//! The engine cannot ask the operating system (there is none on wasm32-unknown-unknown), and an
//! estimate from counting states would miss what they share or what a strategy keeps. So a front
//! end installs a counting global allocator (the CLI around the system allocator, the wasm module
//! around its default one) and hands its counter to [`install_meter`]: the bytes allocated and
//! not yet freed, counted the same way natively and in the page. The count is deterministic for a
//! single-threaded run: the same program allocates the same bytes.
//!
//! The allocator's count misses its own slack: freed memory it keeps (a run that replays
//! tests with large arrays held 1.6 times its count). Where the system tells the resident
//! memory (Linux's `/proc/self/status`, read by the CLI), a front end also installs a resident
//! meter, and a [`Gauge`] takes whichever grew more; that is what keeps a run's peak resident
//! memory near its bound.
//!
//! This is the engine's one piece of global state, because the allocator is global by nature.
//! Where no front end installed a meter (unit tests), [`live_bytes`] is `None` and memory bounds
//! do nothing.

use std::cell::Cell;
use std::sync::OnceLock;

static METER: OnceLock<fn() -> usize> = OnceLock::new();
static RESIDENT: OnceLock<fn() -> Option<u64>> = OnceLock::new();

/// Installs the process's byte counter (the first call wins; later calls are ignored).
pub fn install_meter(live: fn() -> usize) {
    let _ = METER.set(live);
}

/// Installs a reader of the process's resident memory in bytes (a system call: a [`Gauge`]
/// reads it every few hundred asks, or when the live bytes moved by a few megabytes).
pub fn install_resident_meter(resident: fn() -> Option<u64>) {
    let _ = RESIDENT.set(resident);
}

/// What a run holds beyond what the process held when the run started: the growth of the
/// allocator's live bytes or of the resident memory, whichever is larger.
#[derive(Debug)]
pub struct Gauge {
    live_start: Option<u64>,
    resident_start: Option<u64>,
    /// Asks since the resident memory was last read, the live bytes then, and its growth then.
    asks: Cell<u32>,
    live_then: Cell<u64>,
    resident_grown: Cell<u64>,
}

/// Asks between two readings of the resident memory. A reading is a file read (about 30 µs),
/// and the explorer asks at every step: every 256 asks cost a `lazier#` run a twentieth of its
/// time. The live bytes are exact at every ask; between readings only what the allocator holds
/// beyond them (fragmentation) is not seen, and a change of the live bytes reads sooner.
const RESIDENT_EVERY: u32 = 4096;
/// A change of the live bytes that triggers a reading sooner.
const RESIDENT_DRIFT: u64 = 4 << 20;

impl Gauge {
    /// Starts measuring from what the process holds now.
    pub fn start() -> Gauge {
        let live = live_bytes();
        Gauge {
            live_start: live,
            resident_start: RESIDENT.get().and_then(|f| f()),
            asks: Cell::new(0),
            live_then: Cell::new(live.unwrap_or(0)),
            resident_grown: Cell::new(0),
        }
    }

    /// Bytes held beyond the start (`None` without a meter).
    pub fn held(&self) -> Option<u64> {
        let live = live_bytes()?;
        let grown = live.saturating_sub(self.live_start?);
        if let (Some(start), Some(read)) = (self.resident_start, RESIDENT.get()) {
            let asks = self.asks.get() + 1;
            if asks >= RESIDENT_EVERY || live.abs_diff(self.live_then.get()) > RESIDENT_DRIFT {
                self.asks.set(0);
                self.live_then.set(live);
                if let Some(now) = read() {
                    self.resident_grown.set(now.saturating_sub(start));
                }
            } else {
                self.asks.set(asks);
            }
        }
        Some(grown.max(self.resident_grown.get()))
    }
}

/// Bytes allocated and not yet freed in the whole process; `None` without a meter.
pub fn live_bytes() -> Option<u64> {
    METER.get().map(|f| f() as u64)
}

/// Megabytes as bytes (saturating).
pub fn mb(n: u64) -> u64 {
    n.saturating_mul(1024 * 1024)
}
