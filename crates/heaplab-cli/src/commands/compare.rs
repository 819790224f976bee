//! `heaplab compare FILE --method M`: runs several heap strategies on the same method and prints
//! one row per strategy (paths, tests, invalid inputs, errors, branch coverage, branch coverage
//! by valid inputs only, solver calls, time), as text or JSON.
//!
//! Plain coverage counts every generated input, including those that violate `requires`; the
//! fair comparison between `sl` (valid inputs only) and the `--pre ignore` strategies is the
//! second figure, the directions taken by the replays of the tests whose input the model checker
//! finds valid (or that have no precondition to satisfy).
//!
//! `lazy`, `lazier` and `lazier#` run with `--pre ignore` semantics, so test generation classifies
//! their inputs with the model checker; `sl` uses `requires` during exploration, and its inputs are
//! checked by the same model checker independently (a `PreChecker` in ignore mode).

use super::{load, report};
use anyhow::Context;
use heaplab_engine::symbolic::strategy::Driver;
use heaplab_engine::symbolic::{strategy, Clock, Config, Explorer, PreMode, SmtPathSolver};
use heaplab_report::{CompareReport, RunSummary, SCHEMA_VERSION};
use heaplab_smt::{ProcessConfig, SharedCache, SmtSolver, SolverFrontend, Z3Process};
use heaplab_testgen::concretize::PreChecker;
use heaplab_testgen::coverage::branches_taken;
use heaplab_testgen::{generate, Validity};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct Args {
    /// The HeapLab source file (.hl).
    file: PathBuf,
    /// The method to explore: `Class.method` or a top-level function.
    #[arg(long)]
    method: String,
    /// Kiasan's reference-chain bound.
    #[arg(long, default_value_t = Config::default().bounds.k)]
    k: u32,
    /// `sl`: deepest predicate unfolding; `concolic`: phase-1 unfolding depth (at most 8).
    #[arg(long, default_value_t = Config::default().bounds.depth)]
    depth: u32,
    /// Comma-separated strategy names (default: every registry row, in menu order; `concolic`'s
    /// solver column is CSF's `p1/p2` calls).
    #[arg(long, default_value_t = every_strategy())]
    strategies: String,
    /// Stop each run once it holds this many more megabytes than at its start (0: no limit).
    #[arg(long, default_value_t = Config::default().bounds.max_memory_mb.unwrap_or(0))]
    max_memory_mb: u64,
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

/// Every registry row's name, in menu order.
fn every_strategy() -> String {
    strategy::STRATEGIES.iter().map(|s| s.name).collect::<Vec<_>>().join(",")
}

pub fn run(mut args: Args) -> anyhow::Result<ExitCode> {
    let loaded = load(&args.file)?;
    if report(&loaded) {
        return Ok(ExitCode::FAILURE);
    }
    // A Java file's method names resolve to the lowered program's (overloads renamed).
    args.method = match loaded.target(&args.method) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("heaplab: error: {e}");
            return Ok(ExitCode::FAILURE);
        }
    };
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
        let mut config = Config::default();
        config.strategy = kind;
        config.pre = if info.reads_requires { PreMode::Assume } else { PreMode::Ignore };
        config.bounds.k = args.k;
        config.bounds.depth = args.depth;
        config.bounds.max_memory_mb = (args.max_memory_mb > 0).then_some(args.max_memory_mb);
        let mut process = ProcessConfig::default();
        process.program = PathBuf::from(&args.z3);
        let z3 = Z3Process::new(process);
        z3.start().map_err(|e| anyhow::anyhow!("cannot start the solver `{}`: {e}", args.z3))?;
        let frontend = SolverFrontend::new(SmtSolver::new(z3)).with_cache(Arc::clone(&cache));
        let solver = SmtPathSolver::with_frontend(frontend);
        let started = std::time::Instant::now();
        let explorer = Explorer::new(
            program,
            ainfo,
            &args.method,
            config,
            Box::new(solver),
            Box::new(Wall(started)),
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
        explorer.run_to_end();
        let generation = generate(&mut explorer, program, ainfo)
            .with_context(|| format!("test generation failed for `{name}`"))?;
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
    let mut out = std::io::stdout();
    if args.format == Format::Json {
        let report = CompareReport {
            schema_version: SCHEMA_VERSION,
            file: loaded.file.name.clone(),
            method: args.method.clone(),
            k: args.k,
            depth: args.depth,
            strategies: rows,
        };
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&report)?);
    } else {
        let _ = writeln!(out, "{} (k = {}, depth = {})", args.method, args.k, args.depth);
        let _ = writeln!(
            out,
            "{:<9} {:<7} {:>8} {:>8} {:>6} {:>8} {:>6} {:>9} {:>9} {:>12} {:>8} {:>7}",
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
            "unknown"
        );
        for r in &rows {
            let _ = writeln!(
                out,
                "{:<9} {:<7} {:>8} {:>8} {:>6} {:>8} {:>6} {:>9} {:>9} {:>12} {:>8} {:>7}",
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
                r.paths_unknown
            );
        }
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
        let mut process = ProcessConfig::default();
        process.program = PathBuf::from(&args.z3);
        let z3 = Z3Process::new(process);
        z3.start().map_err(|e| anyhow::anyhow!("cannot start the solver `{}`: {e}", args.z3))?;
        Ok(SmtSolver::new(z3))
    };
    let logic_z3 = start()?;
    let mut oracle = heaplab_logic::SmtOracle::new(&logic_z3);
    let started = std::time::Instant::now();
    let sites = Explorer::new(
        program,
        ainfo,
        &args.method,
        Config::default(),
        Box::new(SmtPathSolver::new(start()?)),
        Box::new(Wall(started)),
    )
    .map_err(|e| anyhow::anyhow!("{e} (in `{}`)", args.file.display()))?;
    // The settings of `heaplab run --strategy concolic` at the same `--depth` (and of the page's
    // Explore and Compare tabs), so that the row and a run agree: phase-1 depth, the mixed
    // order, the run cap of `--max-paths`' default, the default time bound.
    let cfg = heaplab_testgen::concolic::ConcolicConfig {
        depth: args.depth.min(8),
        order: heaplab_testgen::concolic::SearchOrder::Mixed,
        max_runs: usize::try_from(Config::default().bounds.max_paths)
            .unwrap_or(usize::MAX)
            .min(10_000),
        timeout_ms: Config::default().bounds.timeout_ms,
        ..Default::default()
    };
    let r = heaplab_testgen::concolic::generate(
        program,
        ainfo,
        &args.method,
        &cfg,
        &mut oracle,
        Box::new(SmtPathSolver::new(start()?)),
        &Wall(started),
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

/// Milliseconds since the row's run started.
struct Wall(std::time::Instant);

impl Clock for Wall {
    fn now_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}
