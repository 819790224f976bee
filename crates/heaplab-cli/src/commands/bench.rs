//! `heaplab bench`: every example method with a `requires` × every strategy at the default
//! bounds (each run capped by the explorer's timeout bound), one row each: paths, tests, invalid
//! inputs, errors, branch coverage, solver calls, time and peak memory. Markdown or JSON.
//!
//! Peak memory is the process's `VmHWM` (Linux `/proc/self/status`), read after each run: it is
//! the peak of the whole `heaplab` process so far, so it only grows down the table; a row shows
//! that peak and how much the run raised it. The wasm engine has no rows yet.

use super::load;
use anyhow::Context;
use heaplab_engine::symbolic::shard::Shard;
use heaplab_engine::symbolic::{strategy, Config, Explorer, SmtPathSolver};
use heaplab_report::commands::{BenchRow, BenchShard};
use heaplab_report::summary::SlReport;
use heaplab_report::{BenchReport, RunSummary, SCHEMA_VERSION};
use heaplab_smt::{QueryLog, SharedCache, SmtSolver, SolverFrontend};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

#[derive(clap::Args)]
pub struct Args {
    /// The suite: a folder; every `.hl` and `.java` file in it (default `examples/`).
    #[arg(long, default_value = "examples")]
    suite: String,
    /// Comma-separated strategies (default: every registry row the explorer runs).
    #[arg(long, default_value_t = explorer_strategies())]
    strategies: String,
    /// Kiasan's k (default: the explorer's default).
    #[arg(long, default_value_t = Config::default().bounds.k)]
    k: u32,
    /// Cap per run in milliseconds (the explorer's timeout bound).
    #[arg(long, default_value_t = 1000)]
    timeout_ms: u64,
    /// Stop each run once it holds this many more megabytes than at its start (0: no limit).
    #[arg(long, default_value_t = Config::default().bounds.max_memory_mb.unwrap_or(0))]
    max_memory_mb: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Md)]
    format: Format,
    /// Write to this file instead of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The z3 executable.
    #[arg(long, default_value = "z3")]
    z3: String,
    /// Write every distinct query the solver layer receives to this file (JSON lines, the
    /// query corpus `crates/heaplab-smt/tests/corpus/queries.jsonl`).
    #[arg(long)]
    dump_queries: Option<PathBuf>,
    /// Skip the Rust decision procedure (only constant folding and the equality shortcut
    /// decide locally): the numbers before it existed.
    #[arg(long)]
    no_procedure: bool,
    /// Share z3's answers between the strategies of one method, as `heaplab compare` does.
    #[arg(long)]
    share_cache: bool,
    /// Run only slice I of N of the rows (every N-th (file, method, strategy), from the I-th);
    /// `heaplab merge` puts the slices' JSON reports back together.
    #[arg(long, value_name = "I/N", value_parser = super::run::parse_shard)]
    shard: Option<Shard>,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Md,
    Json,
}

/// The names of the registry rows the explorer runs, in menu order (the bench's columns).
fn explorer_strategies() -> String {
    let rows = strategy::STRATEGIES.iter().filter(|s| s.kind().is_some());
    rows.map(|s| s.name).collect::<Vec<_>>().join(",")
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let dir = PathBuf::from(&args.suite);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("cannot read the suite folder `{}`", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hl" || x == "java"))
        .collect();
    files.sort();
    let strategies: Vec<&str> = args.strategies.split(',').map(str::trim).collect();
    for s in &strategies {
        strategy::by_name(s).and_then(|s| s.kind()).ok_or_else(|| {
            anyhow::anyhow!("`{s}` is not a strategy the explorer runs (the bench's)")
        })?;
    }
    let mut rows = Vec::new();
    let log = args.dump_queries.as_ref().map(|_| Arc::new(Mutex::new(QueryLog::new())));
    // A file that cannot be read or does not check (a submission with a syntax error) has no
    // rows: it is named on stderr and the others are measured.
    let mut skipped = 0;
    // The place of each (file, method, strategy) in the whole bench: what `--shard` slices.
    let mut item: u64 = 0;
    for file in &files {
        let loaded = match load(file) {
            Ok(loaded) if !loaded.analysis.has_errors() => loaded,
            Ok(_) => {
                skipped += 1;
                eprintln!(
                    "heaplab: `{}` has errors (heaplab check shows them): no rows",
                    file.display()
                );
                continue;
            }
            Err(e) => {
                skipped += 1;
                eprintln!("heaplab: error: {e:#}: no rows");
                continue;
            }
        };
        let program = &loaded.analysis.program;
        let targets = program.targets_with_requires();
        for target in &targets {
            let cache = SharedCache::default();
            for s in &strategies {
                item += 1;
                if args.shard.is_some_and(|shard| {
                    (item - 1) % u64::from(shard.count) != u64::from(shard.index)
                }) {
                    continue;
                }
                let shared = args.share_cache.then_some(&cache);
                // A strategy that does not model what the method uses (arrays under
                // `symheap`) has no row; the reason goes to stderr.
                if let Some(mut row) = bench_one(&args, file, target, s, log.as_ref(), shared)? {
                    row.item = item - 1;
                    rows.push(row);
                }
            }
        }
    }
    if skipped > 0 {
        eprintln!("heaplab: {skipped} of {} files had no rows (see above)", files.len());
    }
    let text = match args.format {
        Format::Md => markdown(&args, &rows),
        Format::Json => json_rows(&args, &rows),
    };
    match &args.out {
        Some(path) => std::fs::write(path, text)
            .with_context(|| format!("cannot write `{}`", path.display()))?,
        None => print!("{text}"),
    }
    if let (Some(path), Some(log)) = (&args.dump_queries, &log) {
        let log = log.lock().unwrap_or_else(|e| e.into_inner());
        std::fs::write(path, log.to_jsonl())
            .with_context(|| format!("cannot write `{}`", path.display()))?;
        eprintln!(
            "{} distinct queries of {} received written to {}",
            log.len(),
            log.received,
            path.display()
        );
    }
    Ok(ExitCode::from(if skipped > 0 { super::exit::FOUND } else { super::exit::OK }))
}

fn bench_one(
    args: &Args,
    file: &std::path::Path,
    target: &str,
    strategy_name: &str,
    log: Option<&Arc<Mutex<QueryLog>>>,
    cache: Option<&SharedCache>,
) -> anyhow::Result<Option<BenchRow>> {
    let kind = strategy::by_name(strategy_name).and_then(|s| s.kind()).ok_or_else(|| {
        anyhow::anyhow!("`{strategy_name}` is not a strategy the explorer runs (the bench's)")
    })?;
    let mut config = Config::default();
    config.strategy = kind;
    config.bounds.k = args.k;
    config.bounds.timeout_ms = Some(args.timeout_ms);
    config.bounds.max_memory_mb = (args.max_memory_mb > 0).then_some(args.max_memory_mb);
    let z3 = super::started_z3(&args.z3)?;
    let mut frontend = SolverFrontend::new(SmtSolver::new(z3)).with_procedure(!args.no_procedure);
    if let Some(cache) = cache {
        frontend = frontend.with_cache(Arc::clone(cache));
    }
    if let Some(log) = log {
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        log.lock()
            .unwrap_or_else(|e| e.into_inner())
            .set_origin(format!("{name} {target} {strategy_name}"));
        frontend = frontend.with_log(Arc::clone(log));
    }
    let solver = SmtPathSolver::with_frontend(frontend);
    let before = peak_rss_kb();
    let start = std::time::Instant::now();
    // A row's time runs from the program's text to its tests, as `heaplab run`'s and the
    // wasm suites' rows do (an `Exploration` starts from the source): the program is read,
    // parsed and checked again (its predicates' invariants included), not taken from the
    // file's first load. The predicates' lints, which loading also runs for the user and an
    // `Exploration` does not, are not counted.
    let loaded = &load(file)?;
    let linted = std::time::Instant::now();
    let program = &loaded.analysis.program;
    let explorer = Explorer::new(
        program,
        &loaded.analysis.info,
        target,
        config,
        Box::new(solver),
        Box::new(Clock(start)),
    );
    let mut explorer = match explorer {
        Ok(ex) => ex,
        Err(heaplab_engine::Error::Unsupported(m)) => {
            eprintln!("{}: {target} skipped under {strategy_name}: {m}", file.display());
            return Ok(None);
        }
        Err(e) => anyhow::bail!("{e} (in `{}`)", file.display()),
    };
    // Only the `Stopped` event is read: no formula text.
    explorer.set_event_detail(false);
    explorer.set_summary_only(true);
    let mut timed_out = false;
    while let Some(event) = explorer.step() {
        if let heaplab_engine::symbolic::Event::Stopped { bound } = event {
            timed_out |= bound == heaplab_engine::symbolic::Bound::Timeout;
        }
    }
    let generation = heaplab_testgen::generate(&mut explorer, program, &loaded.analysis.info)
        .with_context(|| format!("test generation for {target} ({strategy_name})"))?;
    let time_ms = (loaded.read_ms + linted.elapsed().as_secs_f64() * 1000.0).round() as u64;
    let after = peak_rss_kb();
    let mut summary = RunSummary::of_exploration(
        &file.display().to_string(),
        target,
        &explorer,
        Some(&generation),
    );
    summary.time_ms = time_ms;
    Ok(Some(BenchRow {
        item: 0,
        summary,
        timed_out,
        peak_rss_kb: after,
        peak_rss_raise_kb: after.saturating_sub(before),
    }))
}

/// `VmHWM` of this process in kB (0 where `/proc` is missing).
fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

struct Clock(std::time::Instant);

impl heaplab_engine::symbolic::Clock for Clock {
    fn now_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

fn markdown(args: &Args, rows: &[BenchRow]) -> String {
    let mut out = format!(
        "# HeapLab bench: suite `{}`, k = {}, {} ms cap per run\n\n",
        args.suite, args.k, args.timeout_ms
    );
    out.push_str("Native engine, z3 process. Peak memory is the process-wide `VmHWM` after the run (it only grows down the table) and, in parentheses, how much this run raised it.\n\n");
    out.push_str("| file | method | strategy | paths (bounded) | tests | invalid | errors | branches | Z3 sent / decided in Rust / cached | time ms | peak MB (+kB) |\n");
    out.push_str("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for row in rows {
        let r = &row.summary;
        out.push_str(&format!(
            "| {} | {} | {} | {} ({}){} | {} | {} | {} | {}/{} | {} / {} / {} | {} | {:.1} (+{}) |\n",
            r.file.rsplit('/').next().unwrap_or(&r.file),
            r.method,
            r.strategy.replace('#', "\\#"),
            r.paths,
            r.paths_bounded,
            match r.stopped_by.as_deref().and_then(|b| b.split(' ').next()) {
                Some(bound) => format!(" stopped by {bound}"),
                None => String::new(),
            },
            r.tests,
            r.invalid_inputs,
            r.errors,
            r.branches_covered,
            r.branches_total,
            r.solver_calls.sent,
            r.solver_calls.decided_locally,
            r.solver_calls.cached,
            r.time_ms,
            row.peak_rss_kb as f64 / 1024.0,
            row.peak_rss_raise_kb
        ));
    }
    let (sent, local, cached) = totals(rows);
    let all = (sent + local + cached).max(1);
    out.push_str(&format!(
        "\nSolver queries over the bench: {} sent to Z3 ({:.2}%), {} decided in Rust (the engine's own decisions, constant folding, the equality shortcut and the decision procedure `heaplab_smt::lia`), {} answered from the cache.\n",
        sent,
        100.0 * sent as f64 / all as f64,
        local,
        cached
    ));
    let sl: Vec<_> = rows.iter().filter_map(|r| r.summary.sl).collect();
    if !sl.is_empty() {
        let sum = |f: fn(&SlReport) -> u64| sl.iter().map(f).sum::<u64>();
        out.push_str(&format!(
            "\n`sl` path ends with predicate instances left: {} inputs from a model of the remaining formula, {} without a model (discarded), {} completed by running the bodies instead.\n",
            sum(|r| r.models),
            sum(|r| r.no_model),
            sum(|r| r.run_completions),
        ));
    }
    out.push_str(
        "\nThe wasm engine's rows come from `node tests/bench/wasm-suite.mjs` (run by `./build.sh bench`).\n",
    );
    out
}

/// Queries sent to Z3, decided in Rust and answered from the cache, over all rows.
fn totals(rows: &[BenchRow]) -> (u64, u64, u64) {
    rows.iter()
        .map(|r| r.summary.solver_calls)
        .fold((0, 0, 0), |(s, l, c), r| (s + r.sent, l + r.decided_locally, c + r.cached))
}

fn json_rows(args: &Args, rows: &[BenchRow]) -> String {
    let report = BenchReport {
        schema_version: SCHEMA_VERSION,
        suite: args.suite.clone(),
        k: args.k,
        timeout_ms: args.timeout_ms,
        rows: rows.to_vec(),
        shard: args.shard.map(|s| BenchShard { index: s.index + 1, count: s.count }),
    };
    serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
}
