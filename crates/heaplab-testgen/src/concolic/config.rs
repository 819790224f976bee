//! The settings of a `concolic` run, and how the one options type the front ends produce
//! becomes them.

use heaplab_engine::symbolic::options::{Options, OrderOption};
use heaplab_logic::SearchBounds;

/// How integer inputs the precondition leaves unconstrained are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntFill {
    /// 0 (CSF's default).
    Default,
    /// Seeded pseudo-random values in `lo..=hi`.
    Random { seed: u64, lo: i64, hi: i64 },
}

/// The bounds of a `concolic` run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConcolicConfig {
    /// Phase 1's unfolding depth n: levels 0..=n are solved. Default 2.
    pub depth: u32,
    /// At most this many phase-1 formulas are solved. Default 256.
    pub max_formulas: usize,
    /// Bounds of each `sat` call.
    pub sat_bounds: SearchBounds,
    pub ints: IntFill,
    /// Run phase 2 (the concolic loop) after phase 1. Default true.
    pub phase2: bool,
    /// At most this many concrete runs (phase-1 inputs included). Default 200.
    pub max_runs: usize,
    /// Unfoldings along one formula when preprocessing a node (CSF's `star.max_depth`): the
    /// largest budget a node is tried with. Default: the bound table's (4).
    pub max_unfold: u32,
    /// The budget a node is first tried with. A node whose formulas the budget cut, with no
    /// model among the rest, waits until the frontier is empty and is then tried again with
    /// one unfolding more, up to `max_unfold` (iterative deepening): the tree converges at the
    /// smallest budget first, and only the nodes that need a deeper input cost deeper
    /// formulas. Set it to `max_unfold` for CSF's single budget. Default 1 (CSF's default).
    pub first_unfold: u32,
    /// Bounds of each phase-2 `sat` call (a node may give many formulas).
    pub node_sat_bounds: SearchBounds,
    /// At most this many of a node's preprocessed formulas are solved; the node counts as
    /// undecided when more were left. Default 64.
    pub max_node_formulas: usize,
    /// Which unexplored node is tried next.
    pub order: SearchOrder,
    /// Stop after this many milliseconds of the clock. Default none.
    pub timeout_ms: Option<u64>,
    /// Stop after this many phase-2 solver calls (a deterministic budget). Default none.
    pub max_phase2_calls: Option<usize>,
    /// Stop once this many solver calls (both phases) were made: `--max-questions`, the same
    /// budget the explorer counts. Default none.
    pub max_questions: Option<u64>,
    /// Stop once the constraint tree has this many nodes: `--max-states`, the explorer's count of
    /// its tree's nodes. Default: the bound table's.
    pub max_nodes: u64,
    /// The longest input array phase 2 solves for: `--max-array-length` (the bound table says
    /// why).
    pub max_array_len: i64,
    /// Lazy initialization's `k` for input objects outside the precondition's footprint (every
    /// input object of a method without `requires`): none deeper than `k` references from a
    /// root. Default 2, the explorer's default.
    pub k: u32,
}

/// The order in which unexplored nodes of the constraint tree are tried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchOrder {
    /// The deepest unexplored branch of the latest run first (DART, CSF's artifact).
    Dfs,
    /// The shallowest first.
    Bfs,
    /// Uniformly at random, seeded by the `IntFill::Random` seed (0 otherwise).
    Random,
    /// DFS and BFS picks in turn: DFS reaches deep cases along the latest run (a red-black
    /// tree's rebalancing under a deep phase-1 input), BFS the shallow directions many runs
    /// left behind (an AVL tree's rotations near the root).
    Mixed,
}

impl ConcolicConfig {
    /// A `concolic` run's settings from the one options type the CLI's flags, the wasm API and
    /// the page's controls produce: the phase-1 depth is the `depth` bound (at most 8), the run
    /// cap `max_paths` (at most 10 000), the time bound `timeout_ms`, and the order `mixed`
    /// (DFS and BFS picks in turn) unless `dfs` or `bfs` is asked.
    pub fn from_options(options: &Options) -> ConcolicConfig {
        let mut bounds = heaplab_engine::symbolic::Bounds::default();
        options.bounds.apply(&mut bounds);
        ConcolicConfig {
            depth: bounds.depth.min(8),
            order: match options.order {
                Some(OrderOption::Dfs) => SearchOrder::Dfs,
                Some(OrderOption::Bfs) => SearchOrder::Bfs,
                None | Some(OrderOption::Mixed) => SearchOrder::Mixed,
            },
            max_runs: usize::try_from(bounds.max_paths).unwrap_or(usize::MAX).min(10_000),
            timeout_ms: bounds.timeout_ms,
            max_questions: bounds.max_questions,
            max_nodes: bounds.max_states,
            max_array_len: i64::from(bounds.max_array_length),
            k: bounds.k,
            max_unfold: bounds.max_unfold.max(1),
            ..ConcolicConfig::default()
        }
    }
}

impl Default for ConcolicConfig {
    fn default() -> Self {
        ConcolicConfig {
            depth: 2,
            max_formulas: 256,
            sat_bounds: SearchBounds::default(),
            ints: IntFill::Default,
            phase2: true,
            max_runs: 200,
            max_unfold: heaplab_engine::symbolic::Bounds::default().max_unfold,
            first_unfold: 1,
            node_sat_bounds: SearchBounds { max_depth: 4, max_objects: 12, max_states: 2_000 },
            max_node_formulas: 64,
            order: SearchOrder::Bfs,
            timeout_ms: None,
            max_phase2_calls: None,
            max_questions: None,
            max_nodes: heaplab_engine::symbolic::Bounds::default().max_states,
            max_array_len: i64::from(heaplab_engine::symbolic::Bounds::default().max_array_length),
            k: heaplab_engine::symbolic::Bounds::default().k,
        }
    }
}
