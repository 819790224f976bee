//! `heaplab run --raise-bound`: the self-raising bound (issue 33). Explores at the given k (and
//! depth), then at k + 1, k + 2, … until coverage of the method's directions (covered by tests
//! with a valid input, its specifications left out) stops growing, every feasible direction is
//! covered, a run is complete (raising k cannot change it), or the time bound ends. The run
//! reported is the smallest k that reached the best coverage.
//!
//! "Stops growing" means for two steps in a row, not one: SUSHI's `sample` covers 2 of 18
//! directions at k = 2 and at k = 3, then 11 at k = 4 (its `removeI(4)` needs five cells).

use super::{Config, Explorer, Generation, Run};
use heaplab_engine::symbolic::PathSolver;
use heaplab_report::summary::{RaiseReport, RaiseStep};
use heaplab_testgen::feasible;
use std::process::ExitCode;

/// Steps without growth that end the raising.
const PATIENCE: u32 = 2;
/// Steps at most (k0 … k0 + 8): a run without a time bound must still end.
const MAX_STEPS: u32 = 9;

/// The run to report and, when raised, what the raising tried.
pub(super) struct Explored {
    pub explorer: Explorer,
    pub generation: Generation,
    pub explore_ms: u64,
    pub raised: Option<RaiseReport>,
}

pub(super) fn raise(
    run: &Run<'_>,
    config: Config,
    solver: &dyn Fn() -> Box<dyn PathSolver>,
) -> anyhow::Result<Result<Explored, ExitCode>> {
    let program = &run.loaded.analysis.program;
    let (k0, depth0) = (config.bounds.k, config.bounds.depth);
    let mut best: Option<(u64, Explored)> = None;
    let mut steps = Vec::new();
    let mut flat = 0;
    let mut stopped = format!("k reached {} ({MAX_STEPS} steps)", k0 + MAX_STEPS - 1);
    for i in 0..MAX_STEPS {
        if run.left_ms() == Some(0) {
            stopped = "the time bound ended (--timeout-ms)".into();
            break;
        }
        let mut step = config;
        step.bounds.k = k0 + i;
        step.bounds.depth = depth0 + i;
        let (explorer, generation, explore_ms) = match run.once(step, solver())? {
            Ok(r) => r,
            Err(code) => return Ok(Err(code)),
        };
        let f = feasible::of_exploration(program, &explorer, &generation);
        let covered = f.covered.len() as u64;
        steps.push(RaiseStep {
            k: k0 + i,
            depth: depth0 + i,
            covered,
            tests: generation.tests.len() as u64,
        });
        let cut_by_time = matches!(
            explorer.stopped(),
            Some(
                heaplab_engine::symbolic::Bound::Timeout | heaplab_engine::symbolic::Bound::Memory
            )
        ) || !generation.out_of_time.is_empty()
            || !generation.out_of_memory.is_empty();
        let grew = best.as_ref().is_none_or(|(c, _)| covered > *c);
        if grew {
            flat = 0;
            let old = best
                .replace((covered, Explored { explorer, generation, explore_ms, raised: None }));
            // Freeing a large exploration state by state is slow, and the process ends soon.
            std::mem::forget(old);
        } else {
            flat += 1;
            std::mem::forget((explorer, generation));
        }
        if f.unknown.is_empty() {
            stopped = if f.proof.is_some() {
                "the run was complete: a larger k changes nothing".into()
            } else if !f.by_nullness.is_empty() {
                "every direction of the method is covered or proved infeasible by the nullness analysis"
                    .into()
            } else {
                "every direction of the method is covered".into()
            };
            break;
        }
        if cut_by_time {
            stopped = "the time or memory bound cut the last step".into();
            break;
        }
        if flat >= PATIENCE && covered > 0 {
            stopped = format!("coverage did not grow for {PATIENCE} steps");
            break;
        }
    }
    let Some((_, mut explored)) = best else {
        anyhow::bail!("--raise-bound: no step ran (the time bound ended before the first)");
    };
    explored.raised =
        Some(RaiseReport { chosen_k: explored.explorer.config().bounds.k, steps, stopped });
    Ok(Ok(explored))
}
