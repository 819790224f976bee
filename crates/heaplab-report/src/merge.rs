//! `heaplab merge`: the summaries of the slices of one sharded run (`heaplab run --shard i/n`)
//! added up into the summary of the whole run. The slices' paths partition the whole run's
//! (see `heaplab_engine::symbolic::shard`), so path, test and error counts add; coverage is the
//! union of the slices' directions; the bounds hit are the union. What every slice repeats
//! (the shared prefix of the tree) makes `states` and `solver_calls` larger than one run's,
//! and `time_ms` is the slowest slice's (the slices run side by side).

use crate::commands::BenchReport;
use crate::summary::{AllHeapsReport, ConcolicReport, RunSummary, SlReport};
use heaplab_syntax::ast::NodeId;
use std::collections::BTreeSet;

/// Why slices cannot be merged.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MergeError {
    #[error("no summaries to merge")]
    Empty,
    #[error("summary {0} is not a slice of a sharded run (it has no `shard`)")]
    NotAShard(usize),
    #[error(
        "summary {index} is of a different run: {what} is `{theirs}`, the first summary's is `{ours}`"
    )]
    DifferentRun { index: usize, what: &'static str, ours: String, theirs: String },
    #[error("shard {0}/{1} is given twice")]
    Twice(u32, u32),
    #[error("shards missing: {}", .0.iter().map(|i| format!("{i}/{}", .1)).collect::<Vec<_>>().join(", "))]
    Missing(Vec<u32>, u32),
}

/// Branch directions as the summary writes them (`site:then`, `site:else`).
pub fn directions(set: &BTreeSet<(NodeId, bool)>) -> Vec<String> {
    set.iter()
        .map(|(site, dir)| format!("{}:{}", site.0, if *dir { "then" } else { "else" }))
        .collect()
}

/// The whole run's summary from all of its slices, in any order.
pub fn merge(mut parts: Vec<RunSummary>) -> Result<RunSummary, MergeError> {
    if parts.is_empty() {
        return Err(MergeError::Empty);
    }
    for (i, p) in parts.iter().enumerate() {
        if p.shard.is_none() {
            return Err(MergeError::NotAShard(i + 1));
        }
    }
    parts.sort_by_key(|p| p.shard.as_ref().map_or(0, |s| s.index));
    check_same_run(&parts)?;
    let count = parts[0].shard.as_ref().map_or(0, |s| s.count);
    shards_complete(parts.iter().map(|p| p.shard.as_ref().map_or(0, |s| s.index)), count)?;

    let mut whole = parts[0].clone();
    whole.shard = None;
    // A shard proves nothing infeasible and lists its own unknown directions: the whole run's
    // feasibility is not the union of the slices'.
    whole.feasibility = None;
    let mut covered = BTreeSet::new();
    let mut covered_valid = BTreeSet::new();
    let mut bounds = BTreeSet::new();
    for (i, p) in parts.iter().enumerate() {
        let shard = p.shard.as_ref().expect("checked above");
        covered.extend(shard.covered.iter().cloned());
        covered_valid.extend(shard.covered_valid.iter().cloned());
        bounds.extend(p.bounds_hit.iter().cloned());
        if i == 0 {
            continue;
        }
        let w = &mut whole;
        w.paths += p.paths;
        w.paths_feasible += p.paths_feasible;
        w.paths_infeasible += p.paths_infeasible;
        w.paths_bounded += p.paths_bounded;
        w.paths_precondition_discarded += p.paths_precondition_discarded;
        w.k_bound_reached |= p.k_bound_reached;
        w.states += p.states;
        w.tests += p.tests;
        w.invalid_inputs += p.invalid_inputs;
        w.errors += p.errors;
        w.solver_calls.sent += p.solver_calls.sent;
        w.solver_calls.decided_locally += p.solver_calls.decided_locally;
        w.solver_calls.cached += p.solver_calls.cached;
        w.solver_calls.failed += p.solver_calls.failed;
        w.time_ms = w.time_ms.max(p.time_ms);
        w.internal_errors += p.internal_errors;
        w.paths_unknown += p.paths_unknown;
        if w.unknown_reason.is_none() {
            w.unknown_reason.clone_from(&p.unknown_reason);
        }
        w.paths_untested_out_of_time += p.paths_untested_out_of_time;
        w.paths_untested_out_of_memory += p.paths_untested_out_of_memory;
        if w.stopped_by.is_none() {
            w.stopped_by.clone_from(&p.stopped_by);
        }
        w.sl = add_sl(w.sl.take(), p.sl.as_ref());
        w.all_heaps = add_heaps(w.all_heaps.take(), p.all_heaps.as_ref());
        w.concolic = add_concolic(w.concolic.take(), p.concolic.as_ref());
        w.emitted = match (w.emitted.take(), &p.emitted) {
            (Some(a), Some(b)) if a != *b => Some(format!("{a}, {b}")),
            (a, b) => a.or_else(|| b.clone()),
        };
        w.findings.extend(p.findings.iter().cloned());
    }
    whole.branches_covered = covered.len() as u64;
    whole.branches_covered_valid = covered_valid.len() as u64;
    whole.bounds_hit = bounds.into_iter().collect();
    Ok(whole)
}

/// The whole bench's report from all of its slices (`heaplab bench --shard i/n`), in any order:
/// the rows of every slice in the whole bench's order.
pub fn merge_bench(mut parts: Vec<BenchReport>) -> Result<BenchReport, MergeError> {
    if parts.is_empty() {
        return Err(MergeError::Empty);
    }
    let mut indices = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        match &p.shard {
            Some(s) => indices.push((s.index, s.count)),
            None => return Err(MergeError::NotAShard(i + 1)),
        }
    }
    let first = &parts[0];
    let key = |p: &BenchReport| -> [(&'static str, String); 4] {
        [
            ("suite", p.suite.clone()),
            ("k", p.k.to_string()),
            ("timeout_ms", p.timeout_ms.to_string()),
            ("the shard count", p.shard.as_ref().map_or(0, |s| s.count).to_string()),
        ]
    };
    let ours = key(first);
    for (i, p) in parts.iter().enumerate().skip(1) {
        for ((what, a), (_, b)) in ours.iter().zip(key(p)) {
            if *a != b {
                return Err(MergeError::DifferentRun {
                    index: i + 1,
                    what,
                    ours: a.clone(),
                    theirs: b,
                });
            }
        }
    }
    let count = indices[0].1;
    shards_complete(indices.iter().map(|(i, _)| *i), count)?;
    let mut whole = parts.remove(0);
    whole.shard = None;
    for p in parts {
        whole.rows.extend(p.rows);
    }
    whole.rows.sort_by_key(|r| r.item);
    Ok(whole)
}

/// Every shard of `count` given exactly once.
fn shards_complete(indices: impl Iterator<Item = u32>, count: u32) -> Result<(), MergeError> {
    let mut seen = BTreeSet::new();
    for index in indices {
        if !seen.insert(index) {
            return Err(MergeError::Twice(index, count));
        }
    }
    let missing: Vec<u32> = (1..=count).filter(|i| !seen.contains(i)).collect();
    match missing.is_empty() {
        true => Ok(()),
        false => Err(MergeError::Missing(missing, count)),
    }
}

fn check_same_run(parts: &[RunSummary]) -> Result<(), MergeError> {
    let key = |p: &RunSummary| -> [(&'static str, String); 7] {
        let count = p.shard.as_ref().map_or(0, |s| s.count);
        [
            ("file", p.file.clone()),
            ("method", p.method.clone()),
            ("strategy", p.strategy.clone()),
            ("k", p.k.to_string()),
            ("pre", p.pre.clone()),
            ("the shard count", count.to_string()),
            ("branches_total", p.branches_total.to_string()),
        ]
    };
    let first = key(&parts[0]);
    for (i, p) in parts.iter().enumerate().skip(1) {
        for ((what, ours), (_, theirs)) in first.iter().zip(key(p)) {
            if *ours != theirs {
                return Err(MergeError::DifferentRun {
                    index: i + 1,
                    what,
                    ours: ours.clone(),
                    theirs,
                });
            }
        }
    }
    Ok(())
}

fn add_sl(a: Option<SlReport>, b: Option<&SlReport>) -> Option<SlReport> {
    match (a, b) {
        (Some(a), Some(b)) => Some(SlReport {
            models: a.models + b.models,
            no_model: a.no_model + b.no_model,
            run_completions: a.run_completions + b.run_completions,
        }),
        (a, b) => a.or_else(|| b.cloned()),
    }
}

fn add_heaps(a: Option<AllHeapsReport>, b: Option<&AllHeapsReport>) -> Option<AllHeapsReport> {
    match (a, b) {
        (Some(a), Some(b)) => {
            let mut cut_by: BTreeSet<String> = a.cut_by.into_iter().collect();
            cut_by.extend(b.cut_by.iter().cloned());
            Some(AllHeapsReport {
                heaps: a.heaps + b.heaps,
                duplicates: a.duplicates + b.duplicates,
                model_queries: a.model_queries + b.model_queries,
                paths_cut: a.paths_cut + b.paths_cut,
                cut_by: cut_by.into_iter().collect(),
            })
        }
        (a, b) => a.or_else(|| b.cloned()),
    }
}

/// `concolic` runs are not sharded (the CLI refuses); kept so a summary never loses its counts.
fn add_concolic(a: Option<ConcolicReport>, b: Option<&ConcolicReport>) -> Option<ConcolicReport> {
    a.or_else(|| b.cloned())
}
