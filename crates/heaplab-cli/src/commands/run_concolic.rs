//! `heaplab run --strategy concolic`: Concolic StarFinder (issue 16) instead of a symbolic
//! exploration. Phase 1 (tests from the precondition's unfoldings), then the concolic loop;
//! the tests go through the same emitters, and the summary adds CSF's `#Calls` (phase-1 /
//! phase-2 solver calls). Coverage is counted at the explorer's branch sites, on the replays of
//! the tests with a valid input, as `heaplab compare` counts it.

use super::{write_junit, write_tests, Args, Emit, Format};
use crate::commands::{load_method, WallClock};
use anyhow::Context;
use heaplab_engine::symbolic::{Config, Explorer, NoClock, Options, SmtPathSolver};
use heaplab_logic::SmtOracle;
use heaplab_report::summary::FeasibilityReport;
use heaplab_report::RunSummary;
use heaplab_smt::{SmtSolver, Z3Process};
use heaplab_testgen::concolic::{self, ConcolicConfig};
use heaplab_testgen::coverage::branches_taken;
use heaplab_testgen::minimize;
use std::process::ExitCode;

pub fn run(mut args: Args, options: &Options) -> anyhow::Result<ExitCode> {
    refuse_explorer_flags(&args)?;
    // The time bound counts from here: loading and starting the solvers spend it too.
    let clock = WallClock::new();
    let Some((loaded, method)) = load_method(&args.file, &args.method)? else {
        return Ok(ExitCode::FAILURE);
    };
    args.method = method;
    let program = &loaded.analysis.program;
    let info = &loaded.analysis.info;
    let start = |what: &str| -> anyhow::Result<SmtSolver<Z3Process>> {
        let z3 = crate::commands::started_z3(&args.z3).with_context(|| format!("({what})"))?;
        Ok(SmtSolver::new(z3))
    };
    let logic_z3 = start("logic")?;
    let mut oracle = SmtOracle::new(&logic_z3);
    let path_solver = SmtPathSolver::new(start("executor")?);
    let bounds = args.bounds.resolve();
    // Branch sites of the method and what it calls, from an explorer that is only started
    // (with the run's bounds, which the summary reports).
    let mut sites_config = Config::default();
    sites_config.bounds = bounds;
    let sites = Explorer::new(
        program,
        info,
        &args.method,
        sites_config,
        Box::new(SmtPathSolver::new(start("sites")?)),
        Box::new(NoClock),
    )
    .map_err(|e| anyhow::anyhow!("{e} (in `{}`)", args.file.display()))?;
    let mut cfg = ConcolicConfig::from_options(options);
    // What is left of the time bound after the setup above.
    cfg.timeout_ms = cfg.timeout_ms.map(|ms| ms.saturating_sub(clock.elapsed_ms()).max(1));
    let r = concolic::generate(
        program,
        info,
        &args.method,
        &cfg,
        &mut oracle,
        Box::new(path_solver),
        &clock,
    )
    .context("concolic test generation failed")?;
    let mut r = r;
    let (feasibility_report, generated) =
        suite(&loaded.file, program, &sites, &mut r, options.minimize == Some(true));
    let time_ms = clock.elapsed_ms();
    let g = &r.generation;
    let valid = branches_taken(&sites, g.tests.iter().filter(|t| t.validity.is_valid()));
    let total = sites.branch_coverage().1;
    let written = match args.emit {
        Some(Emit::Junit) => Some(write_junit(&args, &loaded, &[], g)?),
        Some(kind) => Some(write_tests(&args, kind, &loaded.file.text, g)?),
        None => None,
    };
    let s = &r.stats;
    match args.format {
        Format::Json => {
            let mut summary =
                RunSummary::of_concolic(&loaded.file.name, &args.method, &r, &sites, time_ms);
            summary.feasibility = Some(feasibility_report);
            summary.tests_generated = generated;
            summary.emitted = written.as_ref().map(|p| p.display().to_string());
            summary.findings = heaplab_report::findings::findings(&loaded.file, &[], g);
            crate::commands::print_json(&summary)?;
        }
        Format::Text => {
            crate::say!("{} with concolic (phase-1 depth {})", args.method, cfg.depth);
            crate::say!(
                "  tests: {} ({} from phase 1, {} from phase 2), invalid inputs: {}, errors found: {}",
                g.tests.len(),
                s.phase1_inputs,
                s.phase2_inputs,
                g.invalid_inputs(),
                g.errors_found()
            );
            crate::say!("  branch coverage (valid inputs): {}/{}", valid.len(), total);
            say_suite(&feasibility_report, generated, g.tests.len());
            crate::say!(
                "  solver calls (#Calls p1/p2): {}/{}; runs {}; nodes pruned {} unsat, {} undecided; unexplored left {}",
                s.phase1_calls, s.phase2_calls, s.runs, s.pruned_unsat, s.pruned_unknown, s.unexplored_left
            );
            if s.deepened > 0 {
                crate::say!(
                    "  nodes tried again with more unfoldings: {} (up to {} of --max-unfold {})",
                    s.deepened,
                    s.deepest_unfold,
                    cfg.max_unfold
                );
            }
            if let Some(b) = s.stopped_by {
                crate::say!("  stopped by: {b}");
            }
            crate::say!("  time: {time_ms} ms");
            if let Some(p) = &written {
                crate::say!("  tests written to {}", p.display());
            }
        }
    }
    Ok(crate::commands::exit::of_run(
        g.spec_violations(),
        0,
        s.stopped_by.is_some(),
        args.strict_bounds,
    ))
}

/// The run's coverage of the feasible, proved from every run's directions, then the suite
/// minimized when asked (returns how many tests there were).
fn suite(
    file: &heaplab_syntax::SourceFile,
    program: &heaplab_syntax::ast::Program,
    sites: &Explorer,
    r: &mut concolic::ConcolicRun,
    minimize: bool,
) -> (FeasibilityReport, Option<u64>) {
    let f = heaplab_testgen::feasible::of_concolic(program, sites, &r.generation, &r.stats);
    let report = FeasibilityReport::new(&f, &heaplab_testgen::coverage::Lines::new(program, file));
    (report, minimize.then(|| minimized(r)))
}

/// The text summary's lines on coverage of the feasible and the kept suite.
fn say_suite(f: &FeasibilityReport, generated: Option<u64>, kept: usize) {
    for line in super::feasibility_text(f).lines() {
        crate::say!("  {line}");
    }
    if let Some(generated) = generated {
        crate::say!("  minimized: {kept} of {generated} tests kept");
    }
}

/// Keeps the minimized suite of a run; returns how many tests there were.
fn minimized(r: &mut concolic::ConcolicRun) -> u64 {
    let before = r.generation.tests.len() as u64;
    let keep = minimize::cover(&r.generation.tests);
    minimize::retain_indexes(&mut r.generation.tests, &keep);
    // Each kept test keeps the phase that produced it.
    minimize::retain_indexes(&mut r.stats.phase_of_test, &keep);
    before
}

/// The flags of the explorer's runs that `concolic` has no use for: an error, not ignored.
fn refuse_explorer_flags(args: &Args) -> anyhow::Result<()> {
    if args.shard.is_some() {
        anyhow::bail!(
            "`--shard` splits the explorer's tree of states; `concolic` runs the program input \
             by input and has no such tree: run it whole"
        );
    }
    if args.raise_bound {
        anyhow::bail!(
            "`--raise-bound` raises the explorer's k; `concolic` draws its inputs from \
             `requires` (its k only prunes): use another strategy, or give `--k`"
        );
    }
    if args.dump_smt2.is_some() {
        anyhow::bail!(
            "`--dump-smt2` writes the explorer's queries; `concolic`'s three solvers (logic, \
             executor, branch sites) are not dumped: use another strategy"
        );
    }
    Ok(())
}
