//! What a run reports step by step: the nodes of the exploration tree ([`TreeNode`],
//! [`ForkKind`]), the [`Event`] stream, when a view was taken ([`ViewAt`]) and the run's totals
//! ([`RunStats`]). Plain data that front ends convert; nothing here runs anything. A leaf: the
//! executor, heap models and strategies report through these types without knowing the driver.

use crate::symbolic::config::Bound;
use crate::symbolic::outcome::PathOutcome;
use crate::symbolic::solve::SatAnswer;
use crate::symbolic::state::StateId;
use heaplab_syntax::ast::NodeId;
use heaplab_syntax::Span;

pub use super::tree::{Label, LabelId, LabelTexts, TreeNode};

/// Why a state has several children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForkKind {
    /// Lazy initialization of an unknown reference (input root or first field read).
    LazyInit,
    /// A symbolic reference/location was resolved at a dereference, comparison or null test.
    Resolve,
    /// Both directions of a branch are feasible.
    Branch,
    /// The disjuncts of a formula.
    Disjunct,
}

/// A lazy-initialization child's label as a key: the field read (by the address and length of
/// its name in the compiled code, checked against the name itself), the object read, and the
/// option taken (which kind, and the object it names). `lazy` at k = 3 on TreeMap `put` makes
/// millions of such children with a few thousand distinct labels; writing each label was a
/// third of what the page's Run adds to the bare exploration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChoiceKey {
    pub field: (usize, usize),
    pub obj: u32,
    pub option: (u8, u32),
}

/// An [`Event`] with its place in the source: the span of the instruction the top frame of the
/// event's state was executing when it happened (see [`Explorer::step_placed`]). Kept beside the
/// event rather than inside each variant, so that the code reporting an event (heap models,
/// strategies) never has to know where it is.
///
/// [`Explorer::step_placed`]: super::Explorer::step_placed
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    pub event: Event,
    /// `None` for [`Event::Stopped`] and [`Event::SolverPending`].
    pub span: Option<Span>,
}

/// What happened in one step (STYLE.md item 10). Plain data; front ends convert it.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Exploration started: the root of the tree.
    Start { state: StateId, method: String },
    /// An unknown reference got its possible values; one child per option.
    LazyInit {
        state: StateId,
        /// What was unknown: `o1.root`, `param n`, `ref2`, `loc1`.
        target: String,
        /// Every option, in child order (`null`, `o2`, `fresh o3`, `ref4`, `loc1`).
        options: Vec<String>,
        children: Vec<StateId>,
        kind: ForkKind,
        /// The k bound removed the fresh-object option.
        k_cut: bool,
    },
    /// A branch on a symbolic condition; `children` are the feasible directions.
    Branch {
        state: StateId,
        site: Option<NodeId>,
        condition: String,
        /// (direction, child) for each feasible direction.
        children: Vec<(bool, StateId)>,
    },
    /// The disjuncts of a formula. `formulas` (one per child, when the formula is a predicate
    /// the logic reads) are the disjuncts instantiated with the state's arguments, in source
    /// names: `ref0 == null & emp`, `ref0 -> Node { key: k, … } * bst(l, lo, k) * …`.
    Disjuncts { state: StateId, children: Vec<StateId>, formulas: Vec<String> },
    /// `sl`: the input formula left at a path's end (`bst(ref1, lo, o2.key)`) was solved; `model`
    /// lists the cells the model added (`o4 -> Node { key: 3, … }`, or `emp`). The path ends next.
    SlModel { state: StateId, formula: String, model: String },
    /// A path-condition query and its answer.
    SolverQuery { state: StateId, query: String, answer: SatAnswer, local: bool },
    /// A path ended; `path` is its place in `Explorer::paths`, `None` for a discarded path the
    /// run did not keep there (past the view limit, see `Record::keeps_discarded_view`).
    PathEnd { state: StateId, path: Option<usize>, outcome: PathOutcome },
    /// Exploration stopped early because of a bound (remaining states are reported as
    /// bounded paths first).
    Stopped { bound: Bound },
    /// An asynchronous solver has not answered a query yet; the step was undone. Resolve the
    /// solver's outstanding query, then call [`Explorer::step`](super::Explorer::step) again.
    SolverPending,
}

/// Totals of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Paths that returned or ended in a runtime error (each becomes a test).
    pub feasible: u64,
    /// Branch directions pruned by the solver plus paths discarded by `assume`/precondition.
    pub infeasible: u64,
    /// Of `infeasible`: paths discarded because the precondition does not hold.
    pub precondition_discarded: u64,
    /// Paths cut by a bound.
    pub bounded: u64,
    /// Paths the engine could not execute.
    pub internal_errors: u64,
    /// States created (nodes of the exploration tree).
    pub states: u64,
    /// Instructions executed.
    pub steps: u64,
    /// The k bound removed a fresh-object option on some path.
    pub k_cut: bool,
    /// `sl`: disjuncts the `enum` rule pruned before running them (also in `infeasible`, like
    /// a branch direction pruned by the solver).
    pub sl_pruned: u64,
    /// `sl`: values of a reference that a formula rules out at the instruction asking for them
    /// (`t == nn` with `nn` known: `t` is not `null` nor another object), never created.
    pub sl_decided: u64,
    /// `sl`: ended paths with folded instances whose input came from a model of the remaining
    /// input formula (the logic's satisfiability procedure,
    /// [`crate::symbolic::strategy::sl::model`]).
    pub sl_models: u64,
    /// `sl`: ended paths whose remaining formula has no model: discarded (also in `infeasible`).
    pub sl_no_model: u64,
    /// `sl`: ended paths the logic could not take (see
    /// [`crate::symbolic::strategy::sl::model`]), completed by
    /// running the instances' bodies instead.
    pub sl_run_completions: u64,
}

/// When a view was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewAt {
    /// When the tree node was created (the state right after the choice that made it).
    Created,
    /// When the node's state forked into its children.
    Fork,
    /// When its path ended.
    End,
    /// Now: the state is still being explored.
    Live,
}

impl ViewAt {
    pub fn name(self) -> &'static str {
        match self {
            ViewAt::Created => "created",
            ViewAt::Fork => "fork",
            ViewAt::End => "end",
            ViewAt::Live => "live",
        }
    }
}
