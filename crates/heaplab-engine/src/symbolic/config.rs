//! Every knob of a symbolic run in one documented struct (STYLE.md item 9).
//!
//! Front ends resolve their own options (CLI flags, JSON from the page) into a [`Config`] and pass
//! it explicitly; nothing here is global. Bounds are always explicit: a path cut by one is
//! reported as bounded and names the [`Bound`], it is never dropped silently.

use std::fmt;

/// Which heap strategy discovers the input heap. The registry in
/// [`strategy::STRATEGIES`](super::strategy::STRATEGIES) describes each one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StrategyKind {
    /// Khurshid et al. / JPF: first read of a reference field branches over null, every
    /// compatible input object and a fresh object.
    Lazy,
    /// Kiasan: null or a symbolic location; aliasing is decided at dereference or comparison.
    Lazier,
    /// Kiasan: a symbolic reference with no branch on read; null is split off at dereference,
    /// comparison or null test.
    LazierSharp,
    /// JSF: predicate instances of `requires` are unfolded only when the program first
    /// accesses a reference they cover; other references as lazier#.
    Sl,
    /// Paper 003: a fully symbolic heap of guarded value sets; forks only on reference
    /// comparisons, null tests and possibly-null dereferences.
    Symheap,
}

/// The order in which pending states are explored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchOrder {
    /// Depth first (a stack): finishes paths early and keeps few states alive.
    Dfs,
    /// Breadth first (a queue): shallow paths first.
    Bfs,
}

/// What to do with the method's `requires` formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreMode {
    /// Evaluate it symbolically at entry (Kiasan's `assume repOK`), materializing what it
    /// describes; only valid inputs are explored.
    Assume,
    /// Explore without it; test generation then classifies each input with the model checker.
    Ignore,
}

pub use super::bounds::{Bounds, DEFAULT_MAX_MEMORY_MB};

/// The configuration of one symbolic run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// Default: [`StrategyKind::LazierSharp`].
    pub strategy: StrategyKind,
    /// Default: [`SearchOrder::Dfs`].
    pub order: SearchOrder,
    /// Default: [`PreMode::Assume`].
    pub pre: PreMode,
    pub bounds: Bounds,
    /// `sl` only. Default: [`SlCompletion::Model`].
    pub sl_completion: SlCompletion,
    /// All-heaps mode (`symheap`; issue 15 item 4): test generation emits every distinct input
    /// heap of each path (solve, block the shape, solve again; `heap::worlds`), not one model
    /// per path. Strategies whose paths have one heap each are unaffected. Default: off.
    pub all_heaps: bool,
    /// Explore only this slice of the tree (`heaplab run --shard i/n`, see `shard`).
    /// Default: the whole tree.
    pub shard: Option<crate::symbolic::shard::Shard>,
}

/// How `sl` completes the input of a path that ends with predicate instances still folded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SlCompletion {
    /// From a model of the remaining formula (the logic's satisfiability procedure), as JSF
    /// does; paths the logic cannot take are completed by running.
    #[default]
    Model,
    /// By running the instances' bodies, first completion wins. Kept as an independent second
    /// way to the same inputs: tests compare the two.
    Run,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            strategy: StrategyKind::LazierSharp,
            order: SearchOrder::Dfs,
            pre: PreMode::Assume,
            bounds: Bounds::default(),
            sl_completion: SlCompletion::Model,
            all_heaps: false,
            shard: None,
        }
    }
}

/// The bound that cut a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bound {
    /// [`Bounds::k`]: a reference had no possible value left (no alias target, and the chain
    /// budget forbade a fresh object).
    K,
    /// [`Bounds::loop_iterations`].
    Loop,
    /// [`Bounds::call_depth`].
    CallDepth,
    /// [`Bounds::steps_per_path`].
    Steps,
    /// [`Bounds::depth`] (`sl`): a predicate instance was deeper than allowed.
    Depth,
    /// [`Bounds::max_paths`]: the path was still pending when the run stopped.
    MaxPaths,
    /// The exploration tree reached `max_states` nodes.
    States,
    /// [`Bounds::timeout_ms`]: the path was still pending when the run stopped.
    Timeout,
    /// [`Bounds::max_memory_mb`]: the path was still pending when the run stopped.
    Memory,
    /// `new T[n]` with `n` above [`MAX_NEW_ARRAY_LEN`]: the interpreter's heap limit could not
    /// hold the array, so no test could replay the path.
    ArrayLength,
    /// [`Bounds::max_questions`]: the path was still pending when the run stopped.
    Questions,
}

/// The longest array `new T[n]` may allocate on a path that goes on: half of the interpreter's
/// heap limit ([`Limits::heap_cells`](crate::interp::Limits::heap_cells)), so that the array
/// and the rest of a test's heap fit in it when the test is replayed. A longer one cuts the
/// path as [`Bound::ArrayLength`].
pub const MAX_NEW_ARRAY_LEN: i64 = 1_000_000;

impl Bound {
    /// The option name a user changes to lift the bound.
    pub fn name(self) -> &'static str {
        match self {
            Bound::K => "k",
            Bound::Loop => "loop",
            Bound::CallDepth => "call_depth",
            Bound::Steps => "steps",
            Bound::Depth => "depth",
            Bound::MaxPaths => "max_paths",
            Bound::States => "max_states",
            Bound::Timeout => "timeout",
            Bound::Memory => "memory",
            Bound::ArrayLength => "array_length",
            Bound::Questions => "max_questions",
        }
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A source of milliseconds: the explorer never reads the system clock itself (there is none on
/// wasm32-unknown-unknown), so the front end passes one in.
pub trait Clock {
    /// Milliseconds since some fixed point.
    fn now_ms(&self) -> u64;

    /// A fresh reading, for what a report says a run took: a clock that reuses its readings
    /// ([`CoarseTime`]) may answer [`now_ms`](Self::now_ms) with one taken before a long stretch
    /// in which nothing asked (test generation), and a run's time then left that stretch out.
    fn exact_ms(&self) -> u64 {
        self.now_ms()
    }
}

/// A host clock in milliseconds read sparingly. The explorer asks its clock at every step (its
/// time bound, the solver's time left) and inside long steps; a reading is a system call
/// natively (5 % of a `lazier#` run) and a call out to JS in wasm. So a reading is reused for
/// up to `stride` asks, and the stride adapts: it doubles (up to 64) while readings come less
/// than a millisecond apart and halves when they come further apart, so a reused reading is
/// never more than about a millisecond old.
pub struct CoarseTime {
    state: std::cell::Cell<CoarseState>,
    read: Box<dyn Fn() -> f64>,
}

#[derive(Clone, Copy, Default)]
struct CoarseState {
    last: f64,
    /// Asks answered with `last` since it was read.
    reused: u32,
    stride: u32,
}

impl CoarseTime {
    const MAX_STRIDE: u32 = 64;

    /// A reader of `read` (milliseconds since some fixed point).
    pub fn new(read: impl Fn() -> f64 + 'static) -> CoarseTime {
        CoarseTime { state: Default::default(), read: Box::new(read) }
    }

    /// A fresh reading.
    pub fn exact(&self) -> f64 {
        let now = self.read();
        self.state.set(CoarseState { last: now, reused: 0, ..self.state.get() });
        now
    }

    /// A reading at most about a millisecond old.
    pub fn now(&self) -> f64 {
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

/// When the run's time bound passes, on the run's clock: what a long computation inside one
/// step (a model search at a path end) asks now and then, so that one step cannot carry the
/// run past `--timeout-ms`.
#[derive(Clone, Default)]
pub struct Deadline {
    clock: Option<std::rc::Rc<dyn Clock>>,
    at_ms: u64,
}

impl Deadline {
    /// No deadline: [`passed`](Self::passed) is always false.
    pub fn none() -> Deadline {
        Deadline::default()
    }

    /// The time `at_ms` of `clock`.
    pub fn at(clock: std::rc::Rc<dyn Clock>, at_ms: u64) -> Deadline {
        Deadline { clock: Some(clock), at_ms }
    }

    /// Whether the clock is past the deadline.
    pub fn passed(&self) -> bool {
        self.clock.as_ref().is_some_and(|c| c.now_ms() > self.at_ms)
    }
}

impl fmt::Debug for Deadline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.clock {
            Some(_) => write!(f, "Deadline({} ms)", self.at_ms),
            None => f.write_str("Deadline(none)"),
        }
    }
}

/// A clock that never advances (no timeout ever fires); for tests and for front ends that
/// enforce time themselves.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoClock;

impl Clock for NoClock {
    fn now_ms(&self) -> u64 {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::CoarseTime;
    use std::cell::Cell;
    use std::rc::Rc;

    /// A clock asked often reads the host rarely while readings come close together, reads it
    /// again every time once they come far apart, and `exact` always reads.
    #[test]
    fn coarse_time_reads_the_host_sparingly_and_never_far_behind() {
        let (time, reads) = (Rc::new(Cell::new(1.0)), Rc::new(Cell::new(0u32)));
        let (t, r) = (Rc::clone(&time), Rc::clone(&reads));
        let clock = CoarseTime::new(move || {
            r.set(r.get() + 1);
            t.get()
        });
        for _ in 0..1000 {
            assert_eq!(clock.now(), 1.0);
        }
        assert!(reads.get() <= 1000 / 64 + 8, "{} reads", reads.get());
        // Time now moves 5 ms between asks: the stride halves at each reading, down to reading
        // at every ask.
        for _ in 0..200 {
            time.set(time.get() + 5.0);
            clock.now();
        }
        let before = reads.get();
        time.set(time.get() + 5.0);
        assert_eq!(clock.now(), time.get());
        assert_eq!(reads.get(), before + 1);
        clock.exact();
        assert_eq!(reads.get(), before + 2);
    }
}
