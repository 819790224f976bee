//! Which node of the constraint tree the loop tries next: the frontier of unexplored nodes
//! (picked in the run's [`SearchOrder`]), and the nodes put off to a larger unfolding budget,
//! tried once the frontier is empty (see `ConcolicConfig::first_unfold`).

use super::{SearchOrder, SplitMix};
use heaplab_engine::symbolic::State;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// A node of the constraint tree that is no longer unexplored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Node {
    Explored,
    Tried,
}

/// A tried node waiting for a larger unfolding budget.
pub(super) struct Waiting {
    pub(super) key: Vec<u16>,
    pub(super) state: State,
    /// The budget it is tried with next.
    pub(super) budget: u32,
    /// Its formulas proved unsatisfiable at smaller budgets (as printed).
    pub(super) refuted: BTreeSet<String>,
}

/// The nodes put off to a larger unfolding budget, by budget.
#[derive(Default)]
pub(super) struct Deferred(BTreeMap<u32, VecDeque<Waiting>>);

impl Deferred {
    pub(super) fn push(&mut self, w: Waiting) {
        self.0.entry(w.budget).or_default().push_back(w);
    }

    /// The oldest node of the smallest budget that no run has passed since it was put off.
    pub(super) fn pop_first(&mut self, tree: &BTreeMap<Vec<u16>, Node>) -> Option<Waiting> {
        while let Some(mut entry) = self.0.first_entry() {
            let next = entry.get_mut().pop_front();
            if entry.get().is_empty() {
                entry.remove();
            }
            match next {
                Some(w) if tree.get(&w.key) != Some(&Node::Explored) => return Some(w),
                _ => {}
            }
        }
        None
    }

    /// How many still wait (nodes a run has passed since do not).
    pub(super) fn waiting(&self, tree: &BTreeMap<Vec<u16>, Node>) -> usize {
        self.0.values().flatten().filter(|w| tree.get(&w.key) != Some(&Node::Explored)).count()
    }
}

/// The next unexplored node in `order`, removed from the frontier (nodes a run explored since
/// they were queued are dropped).
pub(super) fn pick(
    frontier: &mut Vec<(Vec<u16>, State)>,
    tree: &BTreeMap<Vec<u16>, Node>,
    order: SearchOrder,
    rng: &mut SplitMix,
    picks: usize,
) -> Option<(Vec<u16>, State)> {
    frontier.retain(|(k, _)| !tree.contains_key(k));
    if frontier.is_empty() {
        return None;
    }
    let shallowest = |frontier: &[(Vec<u16>, State)]| {
        let min = frontier.iter().map(|(k, _)| k.len()).min().unwrap_or(0);
        frontier.iter().position(|(k, _)| k.len() == min).unwrap_or(0)
    };
    let at = match order {
        // The deepest branch of the latest run first (DART): it was queued last.
        SearchOrder::Dfs => frontier.len() - 1,
        SearchOrder::Bfs => shallowest(frontier),
        SearchOrder::Random => (rng.next() % frontier.len() as u64) as usize,
        SearchOrder::Mixed if picks % 2 == 1 => frontier.len() - 1,
        SearchOrder::Mixed => shallowest(frontier),
    };
    Some(frontier.remove(at))
}
