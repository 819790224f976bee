//! `heaplab compare FILE --method M`: runs several heap strategies on the same method and prints
//! one row per strategy (paths, tests, invalid inputs, errors, branch coverage, branch coverage
//! by valid inputs only, solver calls, time, the bound that stopped it), as text or JSON.
//!
//! Every row runs with the same options as `heaplab run` (the bound flags, `--pre`): the
//! precondition is assumed by default, as in `run` and in the page's Compare tab, and
//! `--pre ignore` explores every input and lets the model checker classify it. Whatever a
//! strategy did with `requires`, every generated input goes through the same model checker,
//! and the second coverage figure counts only the directions taken by the replays of the tests
//! whose input it finds valid (or that have no precondition to satisfy).

use super::bound_flags::BoundFlags;
use super::run::{shares, Pre};
use super::{load_method, WallClock};
use anyhow::Context;
use heaplab_engine::symbolic::options::PreOption;
use heaplab_engine::symbolic::strategy::Driver;
use heaplab_engine::symbolic::{strategy, Config, Explorer, Options, PreMode, SmtPathSolver};
use heaplab_report::{CompareReport, RunSummary, SCHEMA_VERSION};
use heaplab_smt::{SharedCache, SmtSolver, SolverFrontend, Z3Process};
use heaplab_testgen::concretize::PreChecker;
use heaplab_testgen::coverage::branches_taken;
use heaplab_testgen::{generate_within, Validity};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct Args {
    /// The source file: HeapLab (.hl) or Java (.java).
    file: PathBuf,
    /// The method to explore: `Class.method` or a top-level function.
    #[arg(long)]
    method: String,
    /// Comma-separated strategy names (default: every registry row, in menu order; `concolic`'s
    /// solver column is CSF's `p1/p2` calls).
    #[arg(long, default_value_t = every_strategy())]
    strategies: String,
    /// Each row's bounds, as for `heaplab run` (`--timeout-ms` bounds each row on its own).
    #[command(flatten)]
    bounds: BoundFlags,
    /// What every row does with `requires`: assume it at entry, or ignore it and classify each
    /// input with the model checker.
    #[arg(long, value_enum, default_value_t = Pre::Assume)]
    pre: Pre,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The z3 executable.
    #[arg(long, default_value = "z3")]
    z3: String,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
}

/// The options of one row: `heaplab run`'s, from the same flags.
fn options(args: &Args, strategy: &str) -> Options {
    Options {
        strategy: Some(strategy.to_string()),
        pre: Some(match args.pre {
            Pre::Assume => PreOption::Assume,
            Pre::Ignore => PreOption::Ignore,
        }),
        bounds: args.bounds.0.clone(),
        ..Options::default()
    }
}

/// Every registry row's name, in menu order.
fn every_strategy() -> String {
    strategy::STRATEGIES.iter().map(|s| s.name).collect::<Vec<_>>().join(",")
}

pub fn run(mut args: Args) -> anyhow::Result<ExitCode> {
    let Some((loaded, method)) = load_method(&args.file, &args.method)? else {
        return Ok(ExitCode::FAILURE);
    };
    args.method = method;
    let program = &loaded.analysis.program;
    let ainfo = &loaded.analysis.info;
    let checker = PreChecker::new(program, ainfo, &args.method, PreMode::Ignore);
    let mut rows = Vec::new();
    // Every name is checked before any strategy runs, so a typo costs no run.
    let mut strategies = Vec::new();
    // One cache of z3's answers for all strategies: equal query texts are equal questions.
    let cache = SharedCache::default();
    for name in args.strategies.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let info = strategy::by_name(name).ok_or_else(|| {
            anyhow::anyhow!("unknown strategy `{name}`\n{}", super::run::strategy_table())
        })?;
        strategies.push(info);
    }
    anyhow::ensure!(!strategies.is_empty(), "--strategies names no strategy");
    for info in strategies {
        let name = info.name;
        let kind = match info.driver {
            Driver::Explorer(kind) => kind,
            Driver::Concolic => {
                rows.push(concolic_row(&args, &loaded.file.name, program, ainfo, &checker)?);
                continue;
            }
        };
        let mut config = options(&args, name).resolve().map_err(|e| anyhow::anyhow!("{e}"))?;
        config.strategy = kind;
        // As in `heaplab run`: exploration gets three quarters of the time bound, test
        // generation what is left up to nine tenths.
        let deadline_ms = config.bounds.timeout_ms.map(|total| {
            let (explore, whole) = shares(total);
            config.bounds.timeout_ms = Some(explore.max(1));
            whole
        });
        let z3 = super::z3(&args.z3);
        let frontend = SolverFrontend::new(SmtSolver::new(z3)).with_cache(Arc::clone(&cache));
        let solver = SmtPathSolver::with_frontend(frontend);
        let started = std::time::Instant::now();
        let explorer = Explorer::new(
            program,
            ainfo,
            &args.method,
            config,
            Box::new(solver),
            Box::new(WallClock::since(started)),
        );
        let mut explorer = match explorer {
            Ok(ex) => ex,
            // A strategy whose heap model does not model the method (none today): no row.
            Err(heaplab_engine::Error::Unsupported(m)) => {
                eprintln!("{name}: skipped: {m}");
                continue;
            }
            Err(e) => anyhow::bail!("{e} (in `{}`)", args.file.display()),
        };
        // A row reads counts and tests: no event text, no tree, no record of a discarded path.
        explorer.set_event_detail(false);
        explorer.set_summary_only(true);
        explorer.run_to_end();
        let generation = generate_within(&mut explorer, program, ainfo, deadline_ms)
            .with_context(|| format!("test generation failed for `{name}`"))?;
        if let Some(e) = explorer.solver_mut().broken() {
            anyhow::bail!("the solver `{}` failed: {e}", args.z3);
        }
        let time_ms = started.elapsed().as_millis() as u64;
        // Every input goes through the model checker, whatever the strategy did with `requires`.
        let validity: Vec<Validity> =
            generation.tests.iter().map(|t| checker.classify(&t.input)).collect();
        let invalid = validity.iter().filter(|v| **v == Validity::Invalid).count();
        let errors = generation
            .tests
            .iter()
            .zip(&validity)
            .filter(|(t, v)| {
                matches!(t.expected, heaplab_testgen::Expected::Error(_))
                    && **v != Validity::Invalid
            })
            .count();
        let valid_tests =
            generation.tests.iter().zip(&validity).filter(|(_, v)| v.is_valid()).map(|(t, _)| t);
        let covered_valid = branches_taken(&explorer, valid_tests).len();
        let mut row = RunSummary::of_exploration(
            &loaded.file.name,
            &args.method,
            &explorer,
            Some(&generation),
        );
        // Every input went through the model checker above, whatever the strategy did with
        // `requires`: those verdicts, and the coverage of the valid inputs, are the row's.
        row.invalid_inputs = invalid as u64;
        row.errors = errors as u64;
        row.branches_covered_valid = covered_valid as u64;
        row.time_ms = time_ms;
        rows.push(row);
    }
    let bounds = args.bounds.resolve();
    let mut out = std::io::stdout();
    if args.format == Format::Json {
        let report = CompareReport {
            schema_version: SCHEMA_VERSION,
            file: loaded.file.name.clone(),
            method: args.method.clone(),
            k: bounds.k,
            depth: bounds.depth,
            strategies: rows,
        };
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&report)?);
    } else {
        let _ = writeln!(out, "{} (k = {}, depth = {})", args.method, bounds.k, bounds.depth);
        let _ = writeln!(
            out,
            "{:<9} {:<7} {:>8} {:>8} {:>6} {:>8} {:>6} {:>9} {:>9} {:>12} {:>8} {:>7}  {:<11} cut by",
            "strategy",
            "pre",
            "feasible",
            "bounded",
            "tests",
            "invalid",
            "errors",
            "branches",
            "br_valid",
            "solver",
            "time_ms",
            "unknown",
            "stopped by"
        );
        for r in &rows {
            // `stopped_by` reads `timeout (during exploration)`: its first word is the bound.
            let stopped = r.stopped_by.as_deref().and_then(|b| b.split(' ').next()).unwrap_or("-");
            let cut: Vec<&str> =
                r.bounds_hit.iter().map(String::as_str).filter(|b| *b != stopped).collect();
            let _ = writeln!(
                out,
                "{:<9} {:<7} {:>8} {:>8} {:>6} {:>8} {:>6} {:>9} {:>9} {:>12} {:>8} {:>7}  {:<11} {}",
                r.strategy,
                r.pre,
                r.paths_feasible,
                r.paths_bounded,
                r.tests,
                r.invalid_inputs,
                r.errors,
                format!("{}/{}", r.branches_covered, r.branches_total),
                format!("{}/{}", r.branches_covered_valid, r.branches_total),
                match &r.concolic {
                    Some(c) => format!("p1/p2 {}/{}", c.phase1_calls, c.phase2_calls),
                    None => format!("{}+{}", r.solver_calls.sent, r.solver_calls.decided_locally),
                },
                r.time_ms,
                r.paths_unknown,
                stopped,
                if cut.is_empty() { "-".to_string() } else { cut.join(",") }
            );
        }
        let _ = writeln!(
            out,
            "(stopped by: the bound that ended a row's run early; cut by: bounds that cut paths)"
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The `concolic` row (CSF, issue 16): its tests classified by the same model checker, its
/// coverage counted at the explorer's branch sites on the replays, its solver column CSF's
/// `#Calls` (phase 1 / phase 2).
fn concolic_row(
    args: &Args,
    file: &str,
    program: &heaplab_syntax::ast::Program,
    ainfo: &heaplab_syntax::types::ProgramInfo,
    checker: &PreChecker,
) -> anyhow::Result<RunSummary> {
    let start = || -> anyhow::Result<SmtSolver<Z3Process>> {
        let z3 = super::started_z3(&args.z3)?;
        Ok(SmtSolver::new(z3))
    };
    let logic_z3 = start()?;
    let mut oracle = heaplab_logic::SmtOracle::new(&logic_z3);
    let started = std::time::Instant::now();
    let options = options(args, strategy::CONCOLIC.name);
    let mut sites_config = Config::default();
    sites_config.bounds = args.bounds.resolve();
    let sites = Explorer::new(
        program,
        ainfo,
        &args.method,
        sites_config,
        Box::new(SmtPathSolver::new(start()?)),
        Box::new(WallClock::since(started)),
    )
    .map_err(|e| anyhow::anyhow!("{e} (in `{}`)", args.file.display()))?;
    // The settings of `heaplab run --strategy concolic` with the same flags (and of the page's
    // Explore and Compare tabs), so that the row and a run agree.
    let cfg = heaplab_testgen::concolic::ConcolicConfig::from_options(&options);
    let r = heaplab_testgen::concolic::generate(
        program,
        ainfo,
        &args.method,
        &cfg,
        &mut oracle,
        Box::new(SmtPathSolver::new(start()?)),
        &WallClock::since(started),
    )
    .context("test generation failed for `concolic`")?;
    let time_ms = started.elapsed().as_millis() as u64;
    let g = &r.generation;
    let validity: Vec<Validity> = g.tests.iter().map(|t| checker.classify(&t.input)).collect();
    let valid = g.tests.iter().zip(&validity).filter(|(_, v)| v.is_valid()).map(|(t, _)| t);
    let mut row = RunSummary::of_concolic(file, &args.method, &r, &sites, time_ms);
    row.invalid_inputs = validity.iter().filter(|v| **v == Validity::Invalid).count() as u64;
    row.branches_covered_valid = branches_taken(&sites, valid).len() as u64;
    Ok(row)
}
