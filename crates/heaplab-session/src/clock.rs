//! The clock of a stepped exploration's time bound: working time only, read sparingly.

use std::cell::Cell;
use std::rc::Rc;

use heaplab_engine::symbolic::Clock;

/// The time an exploration has spent working: it runs only while the host steps it (a `step()`
/// or `runToEnd()` in the page), so the time bound never counts time spent paused (a class
/// discussion between two Steps, a Pause before Resume).
#[derive(Clone)]
pub struct ActiveTime(Rc<Cell<(f64, Option<f64>)>>, CoarseNow);

impl ActiveTime {
    /// A stopped clock reading the host's time in milliseconds with `read`.
    pub fn new(read: fn() -> f64) -> ActiveTime {
        ActiveTime(Rc::default(), CoarseNow { state: Rc::default(), read })
    }

    pub fn start(&self) {
        let (spent, running) = self.0.get();
        if running.is_none() {
            self.0.set((spent, Some(self.1.exact())));
        }
    }

    pub fn stop(&self) {
        if let (spent, Some(since)) = self.0.get() {
            self.0.set((spent + (self.1.exact() - since).max(0.0), None));
        }
    }
}

impl Clock for ActiveTime {
    fn now_ms(&self) -> u64 {
        let (spent, running) = self.0.get();
        let current = running.map_or(0.0, |since| (self.1.now() - since).max(0.0));
        (spent + current) as u64
    }
}

/// The host's clock (`Date.now()` in wasm) read sparingly. The explorer asks its clock at every
/// step and inside long steps, and in wasm each reading is a call out to JS: 3–4 % of a run when every one crossed over. So a
/// reading is reused for up to `stride` asks, and the stride adapts: it doubles (up to 64) while
/// readings come less than a millisecond apart and halves when they come further apart, so a
/// reused reading is never more than about a millisecond old.
#[derive(Clone)]
struct CoarseNow {
    state: Rc<Cell<CoarseState>>,
    read: fn() -> f64,
}

#[derive(Clone, Copy, Default)]
struct CoarseState {
    last: f64,
    /// Asks answered with `last` since it was read.
    reused: u32,
    stride: u32,
}

impl CoarseNow {
    const MAX_STRIDE: u32 = 64;

    /// A fresh reading (starting and stopping the clock).
    fn exact(&self) -> f64 {
        let now = self.read();
        let mut s = self.state.get();
        s.last = now;
        s.reused = 0;
        self.state.set(s);
        now
    }

    fn now(&self) -> f64 {
        let mut s = self.state.get();
        if s.reused < s.stride {
            s.reused += 1;
            self.state.set(s);
            return s.last;
        }
        let now = self.read();
        s.stride = if now - s.last < 1.0 {
            (s.stride * 2).clamp(1, Self::MAX_STRIDE)
        } else {
            s.stride / 2
        };
        s.last = now;
        s.reused = 0;
        self.state.set(s);
        now
    }

    fn read(&self) -> f64 {
        let now = (self.read)();
        if now.is_finite() && now > 0.0 {
            now
        } else {
            0.0
        }
    }
}
