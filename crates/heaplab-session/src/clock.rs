//! The clock of a stepped exploration's time bound: working time only, read sparingly.

use std::cell::Cell;
use std::rc::Rc;

use heaplab_engine::symbolic::{Clock, CoarseTime};

/// The time an exploration has spent working: it runs only while the host steps it (a `step()`
/// or `runToEnd()` in the page), so the time bound never counts time spent paused (a class
/// discussion between two Steps, a Pause before Resume).
#[derive(Clone)]
pub struct ActiveTime(Rc<Cell<(f64, Option<f64>)>>, Rc<CoarseTime>);

impl ActiveTime {
    /// A stopped clock reading the host's time in milliseconds with `read`.
    pub fn new(read: fn() -> f64) -> ActiveTime {
        ActiveTime(Rc::default(), Rc::new(CoarseTime::new(read)))
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

    /// The active milliseconds, with `now` the reading of the moment.
    fn active_ms(&self, now: f64) -> u64 {
        let (spent, running) = self.0.get();
        let current = running.map_or(0.0, |since| (now - since).max(0.0));
        (spent + current) as u64
    }
}

impl Clock for ActiveTime {
    fn now_ms(&self) -> u64 {
        self.active_ms(self.1.now())
    }

    fn exact_ms(&self) -> u64 {
        self.active_ms(self.1.exact())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static NOW: Cell<f64> = const { Cell::new(1.0) };
    }

    fn now() -> f64 {
        NOW.with(Cell::get)
    }

    /// After a stretch in which nothing asked the clock (a run's test generation), `now_ms` may
    /// answer with a reading taken before it; `exact_ms`, which a run's summary reads, does not.
    #[test]
    fn exact_ms_reads_past_a_quiet_stretch() {
        let clock = ActiveTime::new(now);
        clock.start();
        // Asks close together: the clock reuses its readings for up to 64 asks.
        for _ in 0..1000 {
            assert_eq!(clock.now_ms(), 0);
        }
        NOW.with(|t| t.set(t.get() + 500.0));
        assert_eq!(clock.now_ms(), 0, "a reused reading");
        assert_eq!(clock.exact_ms(), 500);
        clock.stop();
        NOW.with(|t| t.set(t.get() + 300.0));
        assert_eq!(clock.exact_ms(), 500, "a stopped clock does not run");
    }
}
