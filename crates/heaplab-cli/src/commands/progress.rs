//! The progress line of a long run on stderr, as cargo and ripgrep show theirs: drawn only when
//! stderr is a terminal and the run has lasted over a second, redrawn a few times a second,
//! and cleared at the end, so logs, pipes and tests never see it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::cell::Cell;
use std::time::{Duration, Instant};

pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    last: Cell<Instant>,
}

/// How long a run goes before its progress line appears, and how often it is redrawn.
const AFTER: Duration = Duration::from_secs(1);
const EVERY: Duration = Duration::from_millis(150);

impl Progress {
    pub fn new() -> Progress {
        // indicatif hides the bar when stderr is not a terminal; `-q` hides it always.
        let target = match super::style::quiet() {
            true => ProgressDrawTarget::hidden(),
            false => ProgressDrawTarget::stderr(),
        };
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        let now = Instant::now();
        Progress { bar, started: now, last: Cell::new(now) }
    }

    /// Redraws the line with `message()` when it is due (the message is built only then).
    pub fn tick(&self, message: impl FnOnce() -> String) {
        let now = Instant::now();
        if now.duration_since(self.started) < AFTER || now.duration_since(self.last.get()) < EVERY {
            return;
        }
        self.last.set(now);
        self.bar.set_message(message());
        self.bar.tick();
    }

    /// Clears the line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
