//! Suites as small as the coverage needs (issue 33): a greedy set cover over the tests, keeping
//! every branch direction the whole suite covers and every distinct outcome (each returned
//! normally, each error kind at each place), so that minimizing never loses a found bug.
//!
//! Greedy set cover is within a logarithmic factor of the smallest cover, and deterministic:
//! ties go to the earlier test, so the same generation keeps the same tests.

use crate::{Expected, GeneratedTest, Generation};
use std::collections::BTreeSet;

/// What a test contributes: its branch directions and its outcome.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Goal {
    /// A site, a direction, and whether the test's input is valid: a direction a valid input
    /// covers stays covered by a valid input.
    Direction(heaplab_syntax::ast::NodeId, bool, bool),
    Outcome(String),
}

/// The outcome a test stands for: a normal return, or an error of a kind at a place. Tests with
/// an input that violates `requires` are kept apart, so that a suite keeps an invalid input's
/// test only when no valid one does the same.
fn outcome(t: &GeneratedTest) -> String {
    let valid = if t.validity.is_valid() { "" } else { " (invalid input)" };
    match &t.expected {
        Expected::Returned(_) => format!("returned{valid}"),
        Expected::Error(kind) => format!("{kind:?} at {:?}{valid}", t.error_node),
    }
}

fn goals(t: &GeneratedTest) -> BTreeSet<Goal> {
    let valid = t.validity.is_valid();
    let mut g: BTreeSet<Goal> =
        t.branches.iter().map(|(s, d)| Goal::Direction(*s, *d, valid)).collect();
    g.insert(Goal::Outcome(outcome(t)));
    g
}

/// The indexes (in `tests`' order) of a small subset with the same directions and outcomes.
pub fn cover(tests: &[GeneratedTest]) -> Vec<usize> {
    let sets: Vec<BTreeSet<Goal>> = tests.iter().map(goals).collect();
    let mut left: BTreeSet<Goal> = sets.iter().flatten().cloned().collect();
    let mut kept = Vec::new();
    while !left.is_empty() {
        // The test adding the most goals still missing; the first of equals.
        let best = sets
            .iter()
            .enumerate()
            .map(|(i, s)| (s.intersection(&left).count(), std::cmp::Reverse(i)))
            .max();
        let Some((gain, std::cmp::Reverse(i))) = best else { break };
        if gain == 0 {
            break;
        }
        left.retain(|g| !sets[i].contains(g));
        kept.push(i);
    }
    kept.sort_unstable();
    kept
}

/// Keeps the elements of `v` at the indexes `keep` (sorted), in order.
pub fn retain_indexes<T>(v: &mut Vec<T>, keep: &[usize]) {
    let mut i = 0;
    v.retain(|_| {
        i += 1;
        keep.binary_search(&(i - 1)).is_ok()
    });
}

/// Keeps only the tests of [`cover`] (in their order); returns how many there were.
pub fn minimize(generation: &mut Generation) -> usize {
    let before = generation.tests.len();
    let keep = cover(&generation.tests);
    retain_indexes(&mut generation.tests, &keep);
    before
}
