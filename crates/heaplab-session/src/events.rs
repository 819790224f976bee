//! The JS shapes of a stepped run's events, tree nodes and solver counts (built in
//! [`crate::event_convert`]).

use std::collections::BTreeMap;

use heaplab_engine::symbolic::{ForkKind, PathOutcome};
use heaplab_smt::Stats;
use serde::Serialize;

pub fn fork_name(kind: &ForkKind) -> &'static str {
    match kind {
        ForkKind::LazyInit => "lazyInit",
        ForkKind::Resolve => "resolve",
        ForkKind::Branch => "branch",
        ForkKind::Disjunct => "disjunct",
    }
}

/// The outcome's name and its colour in the tree view.
pub fn outcome_name(outcome: &PathOutcome) -> (&'static str, &'static str) {
    match outcome {
        PathOutcome::Returned(_) => ("returned", "green"),
        PathOutcome::Error { .. } => ("error", "red"),
        PathOutcome::Bounded { .. } => ("bounded", "amber"),
        PathOutcome::Discarded { .. } => ("discarded", "grey"),
        PathOutcome::Internal { .. } => ("internal", "purple"),
    }
}

/// `ExploreSolverStats` (see the TypeScript section).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsExploreStats {
    #[serde(flatten)]
    pub base: JsStats,
    pub decided_by_engine: f64,
    pub decided_in_rust: f64,
    pub sent_to_z3: f64,
    pub batched_calls: f64,
    pub z3_wait_ms: f64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsEvent {
    pub kind: &'static str,
    pub node: Option<u32>,
    pub parent: Option<u32>,
    pub label: String,
    pub details: Details,
    /// The 1-based source line the event happened at, where the engine says it: the method's
    /// declaration (`start`), the branch's condition (`branch`), the statement a path ended at
    /// (`pathEnd` with an error, a cut or a failed assumption). `null` for the others.
    pub line: Option<u32>,
    /// For the events that fork (`lazyInit`, `branch`): the learner's name of each object and
    /// open reference the event or its children's labels mention (`ref3` → `this.root.left`),
    /// walked on the forking state (`Explorer::access_paths`); absent when that state is no
    /// longer kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub names: Option<BTreeMap<String, String>>,
    /// In a run's slice, instead of `names`: the index of an earlier event of the slice whose
    /// `names` are the same, sent once (a run's forks name the same few objects again and
    /// again: 155 different names of 1,488 forks on TreeMap `remove` at k = 3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub same_names_as: Option<u32>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsDirection {
    pub direction: bool,
    pub node: u32,
}

#[derive(Serialize)]
#[serde(untagged, rename_all_fields = "camelCase")]
pub enum Details {
    Start {
        method: String,
    },
    LazyInit {
        target: String,
        options: Vec<String>,
        children: Vec<u32>,
        fork: &'static str,
        k_cut: bool,
    },
    Branch {
        condition: String,
        site: Option<u32>,
        children: Vec<JsDirection>,
    },
    Disjuncts {
        children: Vec<u32>,
        /// One per child: the disjunct instantiated (`ref0 == null & emp`); empty when unknown.
        formulas: Vec<String>,
    },
    SlModel {
        formula: String,
        model: String,
    },
    SolverQuery {
        query: String,
        answer: &'static str,
        local: bool,
    },
    PathEnd {
        /// `null` for a discarded path the run did not keep (see `TreeNode::discarded`).
        path: Option<usize>,
        outcome: &'static str,
        colour: &'static str,
        text: String,
        error_kind: Option<&'static str>,
        bound: Option<&'static str>,
        /// Byte offsets in the source.
        span: Option<[u32; 2]>,
    },
    Stopped {
        bound: &'static str,
    },
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsTreeNode {
    pub id: u32,
    pub parent: Option<u32>,
    pub label: String,
    pub path: Option<usize>,
    pub outcome: Option<&'static str>,
    pub colour: Option<&'static str>,
    pub text: Option<String>,
    /// Where the state was created (the line of the instruction that made it).
    pub line: Option<u32>,
}

/// `SolverStats` (the TypeScript types of heaplab-wasm).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsStats {
    z3: bool,
    queries: f64,
    solver_calls: f64,
    decided_locally: f64,
    decided_by_procedure: f64,
    cache_hits: f64,
    outside_fragment: f64,
    unknown_without_z3: f64,
    solver_time_ms: f64,
}

impl JsStats {
    pub fn new(s: &Stats, z3: bool) -> JsStats {
        JsStats {
            z3,
            queries: s.queries as f64,
            solver_calls: s.solver_calls as f64,
            decided_locally: s.decided_locally as f64,
            decided_by_procedure: s.decided_by_procedure as f64,
            cache_hits: s.cache_hits as f64,
            outside_fragment: s.outside_fragment as f64,
            unknown_without_z3: s.unanswered as f64,
            solver_time_ms: s.solver_time_ms,
        }
    }
}
