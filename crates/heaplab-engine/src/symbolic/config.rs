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

/// The bounds of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Bounds {
    /// Kiasan's reference-chain bound. Input roots (`this`, reference parameters) have budget
    /// `k`; an object materialized from a field of an object with budget `m` gets `m − 1` and may
    /// only be created when `m > 0`. Null and aliasing are always allowed. With the receiver at
    /// `k` its fields start at `k − 1`, so a BST explored with `k` has height `< k`.
    /// Default: 2.
    pub k: u32,
    /// The most iterations per loop (per call) that materialize nothing (Kiasan §3.2: loops that
    /// do discover the heap are bounded by `k`). Default: 10.
    pub loop_iterations: u32,
    /// The deepest call nesting, counting the method under test as 1. Default: 32.
    pub call_depth: u32,
    /// Stop after this many paths have ended (returned, failed or bounded; paths discarded by
    /// `assume` or the precondition do not count). Default: 10 000.
    pub max_paths: u64,
    /// Stop after this many states (tree nodes). Paths discarded by `requires` do not count
    /// toward `max_paths`, so without this bound a precondition that rejects almost every
    /// input (lazy on a tree with linked leaves) grows the tree until memory runs out.
    pub max_states: u64,
    /// Stop exploring after this many milliseconds of the run's [`Clock`](super::Clock);
    /// `None` for no limit. Default: `Some(60_000)`.
    pub timeout_ms: Option<u64>,
    /// Stop exploring once the run holds this many megabytes more than when it started, as
    /// counted by the front end's allocator ([`crate::memory`]); `None` for no limit, and no
    /// effect where no meter is installed. Default: `Some(1024)`, so that a run on a 2-core
    /// laptop or in a browser tab (whose wasm memory ends at 2–4 GB) stops with its results
    /// instead of exhausting memory.
    pub max_memory_mb: Option<u64>,
    /// The most instructions one path may execute (a last-resort guard). Default: 1 000 000.
    pub steps_per_path: u64,
    /// `sl` only: the deepest predicate unfolding (JSF's `max_depth`); instances of `requires`
    /// have depth 1. Default: 8.
    pub depth: u32,
    /// All-heaps mode ([`Config::all_heaps`]): the most models asked per path (each is one
    /// input heap or an isomorphic duplicate). Default: 256.
    pub heaps_per_path: u32,
}

/// The default of [`Bounds::max_memory_mb`].
pub const DEFAULT_MAX_MEMORY_MB: u64 = 1024;

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            k: 2,
            loop_iterations: 10,
            call_depth: 32,
            max_paths: 10_000,
            max_states: 200_000,
            timeout_ms: Some(60_000),
            max_memory_mb: Some(DEFAULT_MAX_MEMORY_MB),
            steps_per_path: 1_000_000,
            depth: 8,
            heaps_per_path: 256,
        }
    }
}

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
