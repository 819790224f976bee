//! The run summary: one document for every strategy, whichever driver ran it (the explorer
//! for `lazy` … `symheap`, the concolic loop for `concolic`). Every key is present for every
//! strategy; what does not apply to a strategy is `null` (its own counts: `sl`, `all_heaps`,
//! `concolic`) or 0. `paths` always means every path that ended (feasible, infeasible,
//! bounded); `paths_feasible` the ones that became tests' paths.

use crate::merge::directions;
use crate::SCHEMA_VERSION;
use heaplab_engine::symbolic::config::{PreMode, StrategyKind};
use heaplab_engine::symbolic::{strategy, Bound, Explorer, PathOutcome, SolverCounts};
use heaplab_testgen::concolic::ConcolicRun;
use heaplab_testgen::coverage::{branches_taken, Lines};
use heaplab_testgen::feasible::Feasibility;
use heaplab_testgen::Generation;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// What a run of one strategy on one method found (`heaplab run --format json`, a row of
/// `heaplab compare`, the wasm `Exploration.summary()` and `concolicRun`'s summary).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunSummary {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The program's file name.
    pub file: String,
    /// `Class.method` or a function name.
    pub method: String,
    /// The strategy's registry name.
    pub strategy: String,
    /// Kiasan's reference-chain bound of the run.
    pub k: u32,
    /// How `requires` was used: `assume` or `ignore`.
    pub pre: String,
    /// Every path that ended: feasible + infeasible + bounded.
    pub paths: u64,
    /// Paths that returned or failed (each becomes a test).
    pub paths_feasible: u64,
    /// Branch directions the solver pruned plus paths an `assume` or `requires` discarded.
    pub paths_infeasible: u64,
    /// Paths a bound cut.
    pub paths_bounded: u64,
    /// Of `paths_infeasible`: discarded because the precondition does not hold.
    pub paths_precondition_discarded: u64,
    /// The bounds that limited the run, each once: those that cut some path and the one that
    /// stopped the whole run (`stopped_by`), so a run that stopped early never lists none.
    pub bounds_hit: Vec<String>,
    /// The k bound removed a fresh-object option somewhere.
    pub k_bound_reached: bool,
    /// States created (nodes of the exploration tree).
    pub states: u64,
    /// Tests generated (each replayed by the interpreter).
    pub tests: u64,
    /// Tests whose input violates `requires` (the model checker's verdict).
    pub invalid_inputs: u64,
    /// Tests that expect a runtime error.
    pub errors: u64,
    /// Branch directions the tests take.
    pub branches_covered: u64,
    /// Branch directions the tests with a valid input take.
    pub branches_covered_valid: u64,
    /// Branch directions of the method and what it calls.
    pub branches_total: u64,
    pub solver_calls: SolverCallsReport,
    /// Milliseconds the run took.
    pub time_ms: u64,
    /// Paths the engine could not execute (a HeapLab bug when not 0).
    pub internal_errors: u64,
    /// Feasible paths the solver gave no model for (no test).
    pub paths_unknown: u64,
    /// Why those paths have no model, in words (`needs Z3, which is not available here …`).
    pub unknown_reason: Option<String>,
    /// Feasible paths left without a test when the time bound passed.
    pub paths_untested_out_of_time: u64,
    /// Feasible paths left without a test when the run held more memory than its bound.
    pub paths_untested_out_of_memory: u64,
    /// The bound that stopped the run early, if one did.
    pub stopped_by: Option<String>,
    /// `sl`: how paths that ended with folded instances got their input.
    pub sl: Option<SlReport>,
    /// All-heaps mode (`symheap`): the input heaps enumerated.
    pub all_heaps: Option<AllHeapsReport>,
    /// `concolic`: the loop's counts.
    pub concolic: Option<ConcolicReport>,
    /// `heaplab run --emit`: where the tests were written.
    pub emitted: Option<String>,
    /// `heaplab run`: every test that ended in an error, where and why (the text output's error
    /// lines), so a script or a grader reads them without parsing text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<FindingReport>,
    /// `heaplab run --shard i/n`: which slice of the tree this run explored, and what `heaplab
    /// merge` needs to add the slices up (absent from whole runs and merged summaries).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardReport>,
    /// Coverage of the feasible: the method's own directions (its specifications' left out),
    /// those proved infeasible and those still unknown (`null` where it was not computed: a
    /// shard, a merged summary, the page).
    #[serde(default)]
    pub feasibility: Option<FeasibilityReport>,
    /// Tests generated before the suite was minimized (`tests` is what was kept); `null` when
    /// it was not minimized.
    #[serde(default)]
    pub tests_generated: Option<u64>,
    /// `--raise-bound`: the runs at each k and the one chosen (`null` for a run at one k).
    #[serde(default)]
    pub raised: Option<RaiseReport>,
}

/// Coverage of the method's feasible branch directions (`heaplab_testgen::feasible`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeasibilityReport {
    /// Directions of the code the method runs: its body and what it calls, not its `ensures`,
    /// `assert`s or the functions only specifications call.
    pub directions: u64,
    /// Of `directions`: covered by the tests with a valid input.
    pub covered: u64,
    /// `directions` minus the proved-infeasible ones (an upper bound while `unknown` is not
    /// empty).
    pub feasible: u64,
    /// Uncovered directions proved unreachable under `requires`.
    pub infeasible: Vec<DirectionReport>,
    /// Uncovered directions neither covered nor proved infeasible.
    pub unknown: Vec<DirectionReport>,
    /// How `infeasible` was proved, in words; `null` when the run proves nothing (a bound cut
    /// it), so every uncovered direction is unknown.
    pub proof: Option<String>,
}

/// One branch direction, where it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DirectionReport {
    pub line: u32,
    pub column: u32,
    /// `then` (the condition holds) or `else`.
    pub direction: String,
}

/// What `--raise-bound` tried.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RaiseReport {
    /// The k of the reported run: the smallest that reached the best coverage seen.
    pub chosen_k: u32,
    /// Each step's k, depth and covered directions, in order.
    pub steps: Vec<RaiseStep>,
    /// Why raising stopped, in words.
    pub stopped: String,
}

/// One run of `--raise-bound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RaiseStep {
    pub k: u32,
    pub depth: u32,
    /// Directions covered by tests with a valid input (the method's, as in `feasibility`).
    pub covered: u64,
    pub tests: u64,
}

/// The bound a summary names (`bounds_hit`, `stopped_by`).
fn bound_named(name: &str) -> Option<Bound> {
    use Bound::*;
    [K, Loop, CallDepth, Steps, Depth, MaxPaths, States, Timeout, Memory, ArrayLength, Questions]
        .into_iter()
        .find(|b| b.name() == name)
}

/// When a run ends with no test or with uncovered directions not proved infeasible: a sentence
/// naming the bounds that cut its paths (those paths are the ones that could reach them), with
/// the flag that raises each. `None` when nothing is missing or nothing was cut.
pub fn cut_sentence(s: &RunSummary) -> Option<String> {
    let unknown = s.feasibility.as_ref().map_or(0, |f| f.unknown.len());
    if s.tests > 0 && unknown == 0 {
        return None;
    }
    let mut cuts: Vec<String> = Vec::new();
    if s.k_bound_reached {
        cuts.push(format!("k (k = {}: --k, or --raise-bound)", s.k));
    }
    for b in s.bounds_hit.iter().chain(s.stopped_by.iter()) {
        if s.k_bound_reached && b == Bound::K.name() {
            continue;
        }
        let text = match bound_named(b) {
            Some(bound) => format!("{b} ({})", heaplab_testgen::bound_hint(bound)),
            None => b.clone(),
        };
        if !cuts.contains(&text) {
            cuts.push(text);
        }
    }
    let missing = match (s.tests, unknown) {
        (0, _) => "no test".to_string(),
        (_, n) => format!("{n} uncovered directions not proved infeasible"),
    };
    Some(if cuts.is_empty() {
        format!("why {missing}: no bound cut a path; the directions may need inputs `requires` does not allow, which is not proved")
    } else {
        format!("why {missing}: the paths that could reach them were cut by {}", cuts.join("; "))
    })
}

impl FeasibilityReport {
    /// The report of a feasibility, its directions placed by `lines`.
    pub fn new(f: &Feasibility, lines: &Lines) -> FeasibilityReport {
        let place = |set: &std::collections::BTreeSet<(heaplab_syntax::ast::NodeId, bool)>| {
            let mut v: Vec<DirectionReport> = set
                .iter()
                .map(|(site, dir)| {
                    let (line, column) = lines.at(*site).unwrap_or((0, 0));
                    DirectionReport {
                        line: line as u32,
                        column: column as u32,
                        direction: if *dir { "then" } else { "else" }.to_string(),
                    }
                })
                .collect();
            v.sort_by(|a, b| {
                (a.line, a.column, &a.direction).cmp(&(b.line, b.column, &b.direction))
            });
            v
        };
        FeasibilityReport {
            directions: n(f.directions.len()),
            covered: n(f.covered.len()),
            feasible: n(f.feasible()),
            infeasible: place(&f.infeasible),
            unknown: place(&f.unknown),
            proof: f.proof_text(),
        }
    }
}

/// One slice of a sharded run (see `heaplab_engine::symbolic::shard`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShardReport {
    /// This slice, counted from 1.
    pub index: u32,
    /// How many slices the run was split into.
    pub count: u32,
    /// How many forks name a slice (every shard explores the tree above it).
    pub split_depth: u32,
    /// The branch directions the slice's tests take (`site:then`, `site:else`), so that merged
    /// coverage is the union, not the sum.
    pub covered: Vec<String>,
    /// Of `covered`: those the tests with a valid input take.
    pub covered_valid: Vec<String>,
}

/// One test that ended in an error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindingReport {
    /// The generated test's name.
    pub test: String,
    /// The error's keyword (`ensures_failed`, `null_dereference`, …).
    pub kind: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// Its input satisfies `requires` (checked, assumed, or there is none).
    pub valid_input: bool,
    /// A broken contract on a valid input (a failing `ensures`, or a callee's `requires`): what
    /// makes `heaplab run` exit 1.
    pub breaks_contract: bool,
    /// The counterexample: the test's input and call as HeapLab statements on one line
    /// (`SLL o1 = new SLL; Node o2 = new Node; o1.head = o2; o1.remove(0);`).
    pub input: String,
}

/// Questions the run asked about path conditions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SolverCallsReport {
    /// Sent to the solver.
    pub sent: u64,
    /// Answered without the solver.
    pub decided_locally: u64,
    /// Answered from the cache.
    pub cached: u64,
    /// The solver could not answer.
    pub failed: u64,
}

impl From<SolverCounts> for SolverCallsReport {
    fn from(c: SolverCounts) -> SolverCallsReport {
        SolverCallsReport {
            sent: c.sent,
            decided_locally: c.decided_locally,
            cached: c.cached,
            failed: c.failed,
        }
    }
}

/// `sl`'s path ends with folded instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SlReport {
    /// Inputs from a model of the remaining formula.
    pub models: u64,
    /// Remaining formulas without a model (discarded).
    pub no_model: u64,
    /// Paths completed by running the instances' bodies instead.
    pub run_completions: u64,
}

/// All-heaps mode's counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AllHeapsReport {
    /// Distinct input heaps (each a test).
    pub heaps: u64,
    /// Models isomorphic to a heap found before on the same path.
    pub duplicates: u64,
    /// Model queries asked.
    pub model_queries: u64,
    /// Paths whose enumeration a bound stopped.
    pub paths_cut: u64,
    /// The bounds that stopped them.
    pub cut_by: Vec<String>,
}

/// The concolic loop's counts (CSF, paper 001).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConcolicReport {
    /// CSF's `#Calls`: phase-1 solver calls.
    pub phase1_calls: u64,
    /// CSF's `#Calls`: phase-2 solver calls.
    pub phase2_calls: u64,
    /// Tests phase 1 produced.
    pub phase1_inputs: u64,
    /// Tests phase 2 produced.
    pub phase2_inputs: u64,
    /// Concrete runs.
    pub runs: u64,
    /// Unexplored nodes whose formulas were all unsatisfiable.
    pub pruned_unsat: u64,
    /// Unexplored nodes with an undecided formula.
    pub pruned_unknown: u64,
    /// Runs on a solved input that missed the node it was solved for.
    pub missed_target: u64,
    /// Runs where no successor of a fork agreed with the input.
    pub diverged: u64,
    /// Unexplored nodes left at the end.
    pub unexplored_left: u64,
    /// Times a node was put off to a larger unfolding budget (`max_unfold`).
    pub deepened: u64,
    /// The largest unfolding budget a node was tried with.
    pub deepest_unfold: u64,
}

fn n(v: usize) -> u64 {
    v as u64
}

/// The bound table's name for what stopped a `concolic` run (its loop names `runs`, the cap
/// that `--max-paths` sets, `time`, `questions` and `states`).
fn bound_name(stopped_by: &str) -> &str {
    match stopped_by {
        "runs" => Bound::MaxPaths.name(),
        "time" => Bound::Timeout.name(),
        "questions" => Bound::Questions.name(),
        "states" => Bound::States.name(),
        other => other,
    }
}

fn pre_name(pre: PreMode) -> String {
    match pre {
        PreMode::Assume => "assume".into(),
        PreMode::Ignore => "ignore".into(),
    }
}

impl RunSummary {
    /// The summary of an exploration; `generation` once tests are generated (`None` while the
    /// exploration runs: no tests yet).
    pub fn of_exploration(
        file: &str,
        method: &str,
        explorer: &Explorer,
        generation: Option<&Generation>,
    ) -> RunSummary {
        let mut bounds_hit: BTreeSet<Bound> = explorer
            .paths()
            .iter()
            .filter_map(|p| match p.outcome {
                PathOutcome::Bounded { bound, .. } => Some(bound),
                _ => None,
            })
            .collect();
        bounds_hit.extend(explorer.stopped());
        if generation.is_some_and(|g| !g.out_of_time.is_empty()) {
            bounds_hit.insert(Bound::Timeout);
        }
        if generation.is_some_and(|g| !g.out_of_memory.is_empty()) {
            bounds_hit.insert(Bound::Memory);
        }
        let stats = explorer.stats();
        let config = explorer.config();
        let (covered, total) = explorer.branch_coverage();
        let valid = generation.map_or(0, |g| {
            branches_taken(explorer, g.tests.iter().filter(|t| t.validity.is_valid())).len()
        });
        let stopped_by = match generation {
            Some(g) => g.stopped_by(explorer.stopped()),
            None => explorer.stopped().map(|b| b.name().to_string()),
        };
        let is_sl = config.strategy == StrategyKind::Sl;
        RunSummary {
            schema_version: SCHEMA_VERSION,
            file: file.to_string(),
            method: method.to_string(),
            strategy: strategy::info(config.strategy).name.to_string(),
            k: config.bounds.k,
            pre: pre_name(config.pre),
            paths: stats.feasible + stats.infeasible + stats.bounded,
            paths_feasible: stats.feasible,
            paths_infeasible: stats.infeasible,
            paths_bounded: stats.bounded,
            paths_precondition_discarded: stats.precondition_discarded,
            bounds_hit: bounds_hit.iter().map(|b| b.name().to_string()).collect(),
            k_bound_reached: stats.k_cut,
            states: stats.states,
            tests: generation.map_or(0, |g| n(g.tests.len())),
            invalid_inputs: generation.map_or(0, |g| n(g.invalid_inputs())),
            errors: generation.map_or(0, |g| n(g.errors_found())),
            branches_covered: n(covered),
            branches_covered_valid: n(valid),
            branches_total: n(total),
            solver_calls: explorer.solver_counts().into(),
            time_ms: explorer.took_ms(),
            internal_errors: stats.internal_errors,
            paths_unknown: generation.map_or(0, |g| n(g.unknown.len())),
            unknown_reason: generation.and_then(|g| g.unknown_reason.clone()),
            paths_untested_out_of_time: generation.map_or(0, |g| n(g.out_of_time.len())),
            paths_untested_out_of_memory: generation.map_or(0, |g| n(g.out_of_memory.len())),
            stopped_by,
            sl: is_sl.then_some(SlReport {
                models: stats.sl_models,
                no_model: stats.sl_no_model,
                run_completions: stats.sl_run_completions,
            }),
            all_heaps: config.all_heaps.then(|| {
                let h = generation.map(|g| g.heaps_total()).unwrap_or_default();
                AllHeapsReport {
                    heaps: n(h.heaps),
                    duplicates: n(h.duplicates),
                    model_queries: h.queries,
                    paths_cut: n(h.paths_cut),
                    cut_by: h.cut_by.iter().map(|s| s.to_string()).collect(),
                }
            }),
            concolic: None,
            emitted: None,
            findings: Vec::new(),
            feasibility: None,
            tests_generated: None,
            raised: None,
            shard: config.shard.map(|shard| ShardReport {
                index: shard.index + 1,
                count: shard.count,
                split_depth: shard.split_depth(),
                covered: directions(&explorer.covered_branches()),
                covered_valid: generation.map_or_else(Vec::new, |g| {
                    let valid = g.tests.iter().filter(|t| t.validity.is_valid());
                    directions(&branches_taken(explorer, valid))
                }),
            }),
        }
    }

    /// The summary of a `concolic` run; `sites` is an explorer of the same method that was
    /// only started (its branch sites count the coverage, as for the other strategies), `k`
    /// and `pre` what the run was asked for, `time_ms` what it took.
    pub fn of_concolic(
        file: &str,
        method: &str,
        run: &ConcolicRun,
        sites: &Explorer,
        time_ms: u64,
    ) -> RunSummary {
        let g = &run.generation;
        let s = &run.stats;
        let all = branches_taken(sites, g.tests.iter());
        let valid = branches_taken(sites, g.tests.iter().filter(|t| t.validity.is_valid()));
        RunSummary {
            schema_version: SCHEMA_VERSION,
            file: file.to_string(),
            method: method.to_string(),
            strategy: strategy::CONCOLIC.name.to_string(),
            k: sites.config().bounds.k,
            // The concolic loop draws its inputs from `requires`.
            pre: pre_name(PreMode::Assume),
            paths: n(s.runs),
            paths_feasible: n(s.runs),
            paths_infeasible: 0,
            paths_bounded: 0,
            paths_precondition_discarded: 0,
            bounds_hit: s.stopped_by.map(|b| bound_name(b).to_string()).into_iter().collect(),
            // Nodes pruned because their input needed an object deeper than `k` (a method
            // without `requires` explores heap shapes as lazy initialization does).
            k_bound_reached: s.pruned_k > 0,
            states: n(s.tree_explored),
            tests: n(g.tests.len()),
            invalid_inputs: n(g.invalid_inputs()),
            errors: n(g.errors_found()),
            branches_covered: n(all.len()),
            branches_covered_valid: n(valid.len()),
            branches_total: n(sites.branch_coverage().1),
            solver_calls: SolverCallsReport {
                sent: n(s.phase1_calls + s.phase2_calls),
                ..SolverCallsReport::default()
            },
            time_ms,
            internal_errors: 0,
            paths_unknown: 0,
            unknown_reason: None,
            paths_untested_out_of_time: 0,
            paths_untested_out_of_memory: 0,
            stopped_by: s.stopped_by.map(|b| bound_name(b).to_string()),
            sl: None,
            all_heaps: None,
            concolic: Some(ConcolicReport {
                phase1_calls: n(s.phase1_calls),
                phase2_calls: n(s.phase2_calls),
                phase1_inputs: n(s.phase1_inputs),
                phase2_inputs: n(s.phase2_inputs),
                runs: n(s.runs),
                pruned_unsat: n(s.pruned_unsat),
                pruned_unknown: n(s.pruned_unknown),
                missed_target: n(s.missed_target),
                diverged: n(s.diverged),
                unexplored_left: n(s.unexplored_left),
                deepened: n(s.deepened),
                deepest_unfold: u64::from(s.deepest_unfold),
            }),
            emitted: None,
            findings: Vec::new(),
            shard: None,
            feasibility: None,
            tests_generated: None,
            raised: None,
        }
    }
}
