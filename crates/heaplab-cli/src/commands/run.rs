//! `heaplab run FILE --method Class.method`: symbolic execution of one method with a heap
//! strategy, test generation with replay, and a summary (text or JSON).
//!
//! Thin on purpose: the explorer (`heaplab_engine::symbolic`) and test generation
//! (`heaplab_testgen`) decide everything; this file turns flags into a `Config`, drives the
//! explorer's event stream (printing it with `--trace`), writes the emitted tests and prints the
//! columns the papers compare. The solver is z3 through `heaplab_smt` (process transport).

#[path = "run_concolic.rs"]
mod concolic;
#[path = "run_raise.rs"]
mod raise;

use super::bound_flags::BoundFlags;
use super::dump_smt2::{path_solver, DumpState};
use super::{load_method, WallClock};
use anyhow::Context;
use heaplab_engine::symbolic::options::{OrderOption, PreOption};
use heaplab_engine::symbolic::shard::Shard;
use heaplab_engine::symbolic::strategy::Driver;
use heaplab_engine::symbolic::{strategy, Config, Event, Explorer, Options, PathOutcome};
use heaplab_report::findings::findings;
use heaplab_report::summary::FeasibilityReport;
use heaplab_report::RunSummary;
use heaplab_testgen::{emit, generate_within, Generation};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// `println!` that ignores a closed stdout instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// `print!` that ignores a closed stdout.
macro_rules! outp {
    ($($arg:tt)*) => {{
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

#[derive(clap::Args)]
pub struct Args {
    /// The source file: HeapLab (.hl) or Java (.java).
    file: PathBuf,
    /// The method to explore: `Class.method`, or the name of a top-level function.
    #[arg(long)]
    method: String,
    /// Heap strategy (see the table in `heaplab run --help`).
    #[arg(long, default_value = "lazier#", value_parser = clap::builder::PossibleValuesParser::new(strategy::STRATEGIES.iter().map(|s| s.name)))]
    strategy: String,
    #[command(flatten)]
    bounds: BoundFlags,
    /// What to do with `requires`: assume it at entry, or ignore it and classify each input.
    #[arg(long, value_enum, default_value_t = Pre::Assume)]
    pre: Pre,
    /// Search order: `dfs` (the default) or `bfs` for the explorer; `dfs`, `bfs` or `mixed`
    /// (DFS and BFS picks in turn, the default) for the `concolic` loop.
    #[arg(long, value_enum)]
    order: Option<Order>,
    /// All-heaps mode (`symheap`): a test for every distinct input heap of each path (solve,
    /// block the heap's shape, solve again), not one per path. Other strategies already give
    /// one heap per path.
    #[arg(long)]
    all_heaps: bool,
    /// Write the generated tests in this format.
    #[arg(long, value_enum)]
    emit: Option<Emit>,
    /// Directory for the emitted tests (default: the current directory).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Let `--emit` replace files HeapLab did not write (by default it overwrites only its own
    /// earlier output, never a hand-written `BST.java`).
    #[arg(long)]
    force: bool,
    /// Exit 3 when a bound (time, memory, paths, states, questions) stopped the run before it
    /// finished, for CI jobs that must not pass on a partial run.
    #[arg(long)]
    pub strict_bounds: bool,
    /// Write every query sent to z3 into this folder as a standalone SMT-LIB file
    /// (`query-0001.smt2`, …, with z3's answer as `:status`); queries HeapLab decided itself
    /// are not sent and not written.
    #[arg(long, value_name = "DIR")]
    dump_smt2: Option<PathBuf>,
    /// Explore only slice I of N of the tree of states (`--shard 1/3`, `2/3`, `3/3`, e.g. on three
    /// machines); `heaplab merge` adds the slices' JSON summaries up to the whole run's.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    shard: Option<Shard>,
    /// Keep a minimal suite: the fewest tests (greedy set cover) that cover the same branch
    /// directions and the same distinct outcomes; the summary shows both counts. On by default
    /// for `concolic` (`--minimize false` keeps every test, as the page's concolic tab does).
    #[arg(long, num_args = 0..=1, default_missing_value = "true", value_name = "BOOL")]
    minimize: Option<bool>,
    /// Raise k (and depth) one step at a time from `--k` until coverage of the method's branch
    /// directions stops growing for two steps, all of them are covered, or `--timeout-ms` ends;
    /// the summary names the k chosen (the smallest with the best coverage).
    #[arg(long)]
    raise_bound: bool,
    /// Print every exploration event (lazy-initialization choices, branches, solver queries, path
    /// ends) as the tree of states is built.
    #[arg(long)]
    trace: bool,
    /// Output format of the summary.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The z3 executable.
    #[arg(long, default_value = "z3")]
    z3: String,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Pre {
    Assume,
    Ignore,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Order {
    Dfs,
    Bfs,
    Mixed,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Emit {
    Hl,
    Json,
    /// JUnit 5: the classes as Java and a `<Class><Method>Test.java`, in a package named
    /// after the file (`--out DIR` gets `DIR/<package>/`).
    Junit,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// `I/N` with 1 ≤ I ≤ N.
pub(super) fn parse_shard(text: &str) -> Result<Shard, String> {
    Shard::parse(text).ok_or_else(|| format!("`{text}` is not a shard: write I/N with 1 <= I <= N"))
}

/// The strategy table, for `--help` and error messages.
pub fn strategy_table() -> String {
    let mut out = String::from("Strategies:\n");
    for s in strategy::STRATEGIES {
        out.push_str(&format!("  {:<8} {} ({})\n", s.name, s.description, s.paper));
    }
    out
}

/// The one options type of a run, from the flags.
fn options_of(args: &Args) -> Options {
    Options {
        strategy: Some(args.strategy.clone()),
        order: args.order.map(|o| match o {
            Order::Dfs => OrderOption::Dfs,
            Order::Bfs => OrderOption::Bfs,
            Order::Mixed => OrderOption::Mixed,
        }),
        pre: Some(match args.pre {
            Pre::Assume => PreOption::Assume,
            Pre::Ignore => PreOption::Ignore,
        }),
        all_heaps: Some(args.all_heaps),
        sl_completion: None,
        // `concolic` keeps every run's input otherwise (CSF keeps 47 BST tests, it 552).
        minimize: Some(args.minimize.unwrap_or(args.strategy == strategy::CONCOLIC.name)),
        raise_bound: Some(args.raise_bound),
        bounds: args.bounds.0.clone(),
    }
}

/// The explorer's configuration: the options resolved, and the slice of a sharded run.
fn config_of(options: &Options, shard: Option<Shard>) -> anyhow::Result<Config> {
    let mut config = options.resolve().map_err(|e| match e.option {
        "strategy" => anyhow::anyhow!("{e}\n{}", strategy_table()),
        _ => anyhow::anyhow!("{e}"),
    })?;
    config.shard = shard;
    Ok(config)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let options = options_of(&args);
    let driver = options.driver().map_err(|e| anyhow::anyhow!("{e}\n{}", strategy_table()))?;
    if driver == Driver::Concolic {
        return concolic::run(args, &options);
    }
    // The time bound counts from here: loading and starting the solver spend it too.
    let started = std::time::Instant::now();
    let Some((loaded, target)) = load_method(&args.file, &args.method)? else {
        return Ok(ExitCode::FAILURE);
    };
    let config = config_of(&options, args.shard)?;
    let bound_ms = config.bounds.timeout_ms;
    say_bounds(&config);

    let origin = format!("{} {} {}", loaded.file.name, args.method, args.strategy);
    let dump = match &args.dump_smt2 {
        Some(dir) => Some(DumpState::prepare(dir, origin, args.force)?),
        None => None,
    };
    let program = &loaded.analysis.program;
    let raise = options.raise_bound == Some(true);
    if raise && args.shard.is_some() {
        anyhow::bail!(
            "`--raise-bound` raises k over whole runs: it does not combine with `--shard`"
        );
    }
    if raise && dump.is_some() {
        anyhow::bail!(
            "`--raise-bound` starts a solver per step: it does not combine with `--dump-smt2`"
        );
    }
    let run = Run { args: &args, loaded: &loaded, target: &target, started, bound_ms };
    let explored = if raise {
        raise::raise(&run, config, &|| path_solver(super::z3(&args.z3), None))?
    } else {
        run.once(config, path_solver(super::z3(&args.z3), dump.as_ref()))?.map(
            |(e, g, explore_ms)| raise::Explored {
                explorer: e,
                generation: g,
                explore_ms,
                raised: None,
            },
        )
    };
    let raise::Explored { mut explorer, mut generation, explore_ms, raised } = match explored {
        Ok(e) => e,
        Err(code) => return Ok(code),
    };
    // Minimizing comes after the summary's coverage is taken from the whole generation's
    // paths (the explorer's), so the kept suite is checked against what was generated.
    let generated = (options.minimize == Some(true))
        .then(|| heaplab_testgen::minimize::minimize(&mut generation) as u64);

    let written = match args.emit {
        Some(Emit::Junit) => Some(write_junit(&args, &loaded, explorer.paths(), &generation)?),
        Some(kind) => Some(write_tests(&args, kind, &loaded.file.text, &generation)?),
        None => None,
    };

    let mut summary =
        RunSummary::of_exploration(&loaded.file.name, &args.method, &explorer, Some(&generation));
    let lines = heaplab_testgen::coverage::Lines::new(program, &loaded.file);
    let feasibility = heaplab_testgen::feasible::of_exploration(program, &explorer, &generation);
    summary.feasibility = Some(FeasibilityReport::new(&feasibility, &lines));
    summary.tests_generated = generated;
    summary.time_ms = if raised.is_some() {
        // Every step's time, not only the chosen one's.
        started.elapsed().as_millis() as u64
    } else {
        // From the program's text to its tests, as the bench's rows and the page's runs (which
        // parse the source) are timed: the explorer's clock starts after the program is read.
        loaded.read_ms.round() as u64 + summary.time_ms
    };
    summary.raised = raised;
    summary.emitted = written.as_ref().map(|p| p.display().to_string());
    summary.findings = findings(&loaded.file, explorer.paths(), &generation);
    match args.format {
        Format::Json => out!("{}", serde_json::to_string_pretty(&summary)?),
        Format::Text => {
            outp!("{}", summary_text(&summary, explore_ms));
            if let Some(path) = &written {
                out!("tests written to {}", path.display());
            }
            print_errors(&loaded.file, &summary.findings);
        }
    }
    if let Some(state) = &dump {
        report_dump(state, args.format)?;
    }
    if let Some(e) = explorer.solver_mut().broken() {
        eprintln!("heaplab: error: the solver `{}` failed: {e}", args.z3);
        std::mem::forget(explorer);
        return Ok(ExitCode::from(super::exit::USAGE));
    }
    // The process ends here: freeing a large exploration state by state took ~200 ms of a 1 s
    // time bound (60 000 states), for memory the exit returns anyway. The solver's process
    // ends too: its input closes with ours.
    std::mem::forget(explorer);
    let cut = summary.stopped_by.is_some()
        || summary.paths_untested_out_of_time > 0
        || summary.paths_untested_out_of_memory > 0;
    Ok(super::exit::of_run(
        generation.spec_violations(),
        summary.internal_errors,
        cut,
        args.strict_bounds,
    ))
}

/// What every exploration of one `heaplab run` shares.
struct Run<'a> {
    args: &'a Args,
    loaded: &'a super::Loaded,
    target: &'a str,
    /// When the command started: its time bound counts from here.
    started: std::time::Instant,
    /// The whole command's time bound (`None`: no limit).
    bound_ms: Option<u64>,
}

impl Run<'_> {
    /// Milliseconds of the time bound left (`None`: no limit).
    fn left_ms(&self) -> Option<u64> {
        self.bound_ms.map(|b| b.saturating_sub(self.started.elapsed().as_millis() as u64))
    }

    /// One exploration with `config` and its test generation, within what is left of the
    /// time bound; `Err` is the exit code of an input error already reported.
    #[allow(clippy::type_complexity)]
    fn once(
        &self,
        mut config: Config,
        solver: Box<dyn heaplab_engine::symbolic::PathSolver>,
    ) -> anyhow::Result<Result<(Explorer, Generation, u64), ExitCode>> {
        let (args, loaded) = (self.args, self.loaded);
        let program = &loaded.analysis.program;
        let ainfo = &loaded.analysis.info;
        // The explorer's clock starts at its creation: its timeout and the generation deadline
        // are what is left of the bound by then.
        let (explore_bound, deadline_ms) = match self.left_ms() {
            Some(left) => {
                let (explore, whole) = shares(left);
                (Some(explore.max(1)), Some(whole))
            }
            None => (None, None),
        };
        config.bounds.timeout_ms = explore_bound;
        // A method the program does not have (or cannot explore) is an error of the input: 1.
        let mut explorer = match Explorer::new(
            program,
            ainfo,
            self.target,
            config,
            solver,
            Box::new(WallClock::new()),
        ) {
            Ok(explorer) => explorer,
            Err(e) => {
                eprintln!("heaplab: error: {e} (in `{}`)", args.file.display());
                return Ok(Err(ExitCode::FAILURE));
            }
        };
        // Only `--trace` reads the events' text, the tree and the discarded paths' records
        // (their `PathEnd` lines): without it the run keeps what its summary and tests need.
        explorer.set_event_detail(args.trace);
        explorer.set_summary_only(!args.trace);
        let progress = super::progress::Progress::new();
        while let Some(event) = explorer.step() {
            progress.tick(|| {
                let s = explorer.stats();
                format!(
                    "exploring: {} states, {} paths ended",
                    s.states,
                    s.feasible + s.infeasible + s.bounded
                )
            });
            if args.trace {
                let line = trace_line(&explorer, &event, &loaded.file);
                // A closed pipe (`| head`) must not abort the run.
                let _ = if args.format == Format::Json {
                    writeln!(std::io::stderr(), "{line}")
                } else {
                    writeln!(std::io::stdout(), "{line}")
                };
            }
        }
        progress.finish();
        let explore_ms = explorer.elapsed_ms();
        let generation = generate_within(&mut explorer, program, ainfo, deadline_ms)
            .context("test generation failed")?;
        Ok(Ok((explorer, generation, explore_ms)))
    }
}

/// `-v`: the bounds in effect, before the run starts (stderr).
fn say_bounds(config: &Config) {
    if !super::style::verbose() {
        return;
    }
    let bounds: Vec<String> = heaplab_engine::symbolic::bounds::BOUNDS
        .iter()
        .map(|spec| format!("{} {}", spec.flag(), (spec.get)(&config.bounds)))
        .collect();
    eprintln!("heaplab: bounds: {}", bounds.join(", "));
}

/// How many queries were written, on the text output's last line (stderr with `--format json`);
/// a file that could not be written fails the command.
fn report_dump(state: &DumpState, format: Format) -> anyhow::Result<()> {
    let (written, failure) = state.report();
    if let Some(failure) = failure {
        anyhow::bail!("--dump-smt2: {failure}");
    }
    let line = format!("{written} queries sent to z3 written to {}", state.dir().display());
    match format {
        Format::Text => out!("{line}"),
        Format::Json => eprintln!("{line}"),
    }
    Ok(())
}

/// One line per test that found an error: its kind, place, message and test name.
fn print_errors(file: &heaplab_syntax::SourceFile, findings: &[heaplab_report::FindingReport]) {
    for f in findings {
        out!(
            "  {} {}:{}:{}: {} (test {}{})",
            f.kind,
            file.name,
            f.line,
            f.column,
            f.message,
            f.test,
            if f.valid_input { "" } else { ", input violates requires" }
        );
    }
}

/// The summary for a person (`--format text`).
pub(super) fn summary_text(s: &RunSummary, explore_ms: u64) -> String {
    let mut t = String::new();
    t.push_str(&format!("{} with {} (k = {})\n", s.method, s.strategy, s.k));
    if let Some(shard) = &s.shard {
        t.push_str(&format!(
            "shard {}/{}: the paths below fork {} that are this shard's (merge the shards' JSON with `heaplab merge`)\n",
            shard.index, shard.count, shard.split_depth
        ));
    }
    t.push_str(&format!(
        "paths: {} feasible, {} infeasible, {} bounded{}\n",
        s.paths_feasible,
        s.paths_infeasible,
        s.paths_bounded,
        if s.bounds_hit.is_empty() || s.paths_bounded == 0 {
            String::new()
        } else {
            format!(" (by {})", s.bounds_hit.join(", "))
        }
    ));
    if s.k_bound_reached {
        t.push_str("k bound reached: coverage is complete only for heaps within k\n");
    }
    t.push_str(&format!(
        "tests: {} ({} with invalid inputs), errors found: {}\n",
        s.tests, s.invalid_inputs, s.errors
    ));
    if s.paths_unknown > 0 {
        t.push_str(&format!(
            "unknown: {} feasible paths without a test: {}\n",
            s.paths_unknown,
            s.unknown_reason.as_deref().unwrap_or("the solver gave no model")
        ));
    }
    if let Some(h) = &s.all_heaps {
        t.push_str(&format!(
            "all heaps: {} input heaps, {} isomorphic duplicates, {} model queries{}\n",
            h.heaps,
            h.duplicates,
            h.model_queries,
            if h.paths_cut == 0 {
                String::new()
            } else {
                format!(
                    "; {} paths cut by {} (raise --heaps-per-path / --timeout-ms)",
                    h.paths_cut,
                    h.cut_by.join(", ")
                )
            }
        ));
    }
    if let Some(bound) = &s.stopped_by {
        t.push_str(&format!("stopped by: {bound}\n"));
    }
    if s.paths_untested_out_of_memory > 0 {
        t.push_str(&format!(
            "out of memory: {} feasible paths without a test (raise --max-memory-mb)\n",
            s.paths_untested_out_of_memory
        ));
    }
    if s.paths_untested_out_of_time > 0 {
        t.push_str(&format!(
            "out of time: {} feasible paths without a test (raise --timeout-ms)\n",
            s.paths_untested_out_of_time
        ));
    }
    t.push_str(&format!("branches: {}/{} covered\n", s.branches_covered, s.branches_total));
    if let Some(f) = &s.feasibility {
        t.push_str(&feasibility_text(f));
    }
    if let Some(generated) = s.tests_generated {
        t.push_str(&format!("minimized: {} of {generated} tests kept\n", s.tests));
    }
    if let Some(r) = &s.raised {
        let steps: Vec<String> =
            r.steps.iter().map(|st| format!("k = {}: {}", st.k, st.covered)).collect();
        t.push_str(&format!(
            "raised bound: chose k = {} (directions covered {}; stopped: {})\n",
            r.chosen_k,
            steps.join(", "),
            r.stopped
        ));
    }
    if let Some(why) = heaplab_report::summary::cut_sentence(s) {
        t.push_str(&why);
        t.push('\n');
    }
    t.push_str(&format!(
        "solver: {} sent, {} decided locally, {} cached\n",
        s.solver_calls.sent, s.solver_calls.decided_locally, s.solver_calls.cached
    ));
    t.push_str(&format!(
        "states: {}, time: {} ms ({explore_ms} ms exploring)\n",
        s.states, s.time_ms
    ));
    if s.internal_errors > 0 {
        t.push_str(&format!(
            "internal errors: {} (a bug in HeapLab; please report)\n",
            s.internal_errors
        ));
    }
    t
}

/// `feasible:` and the directions left, by line and direction.
pub(super) fn feasibility_text(f: &heaplab_report::summary::FeasibilityReport) -> String {
    let list = |v: &[heaplab_report::summary::DirectionReport]| {
        let all: Vec<String> =
            v.iter().map(|d| format!("{}:{} {}", d.line, d.column, d.direction)).collect();
        all.join(", ")
    };
    let pct = (f.covered * 100).checked_div(f.feasible).unwrap_or(100);
    let mut t = format!(
        "feasible: {}/{} ({pct}%) of the method's directions covered with valid inputs ({} directions, specifications left out)\n",
        f.covered, f.feasible, f.directions
    );
    match &f.proof {
        Some(proof) if !f.infeasible.is_empty() => t.push_str(&format!(
            "  proved infeasible: {} ({proof}): {}\n",
            f.infeasible.len(),
            list(&f.infeasible)
        )),
        None if !f.unknown.is_empty() => t.push_str("  proved infeasible: none (a bound cut the run, and the nullness analysis decided none of the uncovered directions)\n"),
        _ => {}
    }
    if !f.unknown.is_empty() {
        t.push_str(&format!(
            "  unknown: {} uncovered, not proved infeasible (so {} is an upper bound): {}\n",
            f.unknown.len(),
            f.feasible,
            list(&f.unknown)
        ));
    }
    t
}

fn write_tests(
    args: &Args,
    kind: Emit,
    source: &str,
    generation: &Generation,
) -> anyhow::Result<PathBuf> {
    let dir = args.out.clone().unwrap_or_else(|| PathBuf::from("."));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create `{}`", dir.display()))?;
    let stem = match args.file.file_stem().and_then(|s| s.to_str()) {
        Some(stem) if !super::is_stdin(&args.file) => stem,
        _ => "program",
    };
    let method = args.method.replace('.', "_");
    let (name, text) = match kind {
        Emit::Hl => (format!("{stem}_{method}_tests.hl"), emit::hl(source, generation)),
        Emit::Json => (format!("{stem}_{method}_tests.json"), emit::json(generation)),
        Emit::Junit => anyhow::bail!("JUnit export goes through write_junit"),
    };
    let path = dir.join(name);
    write_generated(&path, &text, args.force)?;
    Ok(path)
}

/// Writes one emitted file. A file already there is replaced only when HeapLab wrote it (its
/// marks: the JUnit header, the `.hl` tests' banner, the JSON's first key) or with `--force`:
/// `--out .` next to the user's own `BST.java` must not destroy it.
fn write_generated(path: &std::path::Path, text: &str, force: bool) -> anyhow::Result<()> {
    if !force && path.exists() {
        let old = super::read_capped(path).map(|b| String::from_utf8_lossy(&b).into_owned());
        // An empty file holds nothing to lose.
        let ours = old.is_ok_and(|old| {
            old.is_empty()
                || old.to_lowercase().contains("generated by `heaplab run")
                || old.starts_with("{\"target\":")
        });
        anyhow::ensure!(
            ours,
            "`{}` exists and was not written by HeapLab: not replacing it (--force replaces it, or choose another --out)",
            path.display()
        );
    }
    // Written beside and renamed into place, so a run writing the same file at the same time
    // (two methods of one class exported into one folder) never reads it half written.
    let mut partial = path.as_os_str().to_owned();
    partial.push(format!(".{}.partial", std::process::id()));
    let partial = std::path::PathBuf::from(partial);
    std::fs::write(&partial, text)
        .and_then(|()| std::fs::rename(&partial, path))
        .with_context(|| format!("cannot write `{}`", path.display()))
}

/// Writes the Java translation and the test class; returns the package folder. Tests the
/// translation cannot express are named on stderr; an untranslatable program is an error.
fn write_junit(
    args: &Args,
    loaded: &super::Loaded,
    paths: &[heaplab_engine::symbolic::PathResult],
    generation: &Generation,
) -> anyhow::Result<PathBuf> {
    let dir = args.out.clone().unwrap_or_else(|| PathBuf::from("."));
    let stem = match args.file.file_stem().and_then(|s| s.to_str()) {
        Some(stem) if !super::is_stdin(&args.file) => stem,
        _ => "program",
    };
    let k =
        args.bounds.0.k.unwrap_or(u64::from(heaplab_engine::symbolic::Config::default().bounds.k));
    let settings = format!("strategy {}, k = {k}", args.strategy);
    let input = heaplab_session::junit::JunitSource {
        analysis: &loaded.analysis,
        source: &loaded.file.text,
        java: loaded.java.as_ref(),
        stem,
        settings: &settings,
        paths,
    };
    let java = heaplab_session::junit::junit(&input, generation)?;
    for w in &java.warnings {
        eprintln!("heaplab: warning: {w}");
    }
    // A Java file's tests sit next to its class, in its package: the last file written is
    // named; a HeapLab program's translation and tests are a package of their own.
    let mut last = dir.clone();
    for file in &java.files {
        let path = dir.join(&file.name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create `{}`", parent.display()))?;
        }
        write_generated(&path, &file.text, args.force)?;
        last = path;
    }
    Ok(match loaded.java {
        Some(_) => last,
        None => dir.join(emit::junit::package_name(stem)),
    })
}

fn trace_line(explorer: &Explorer, event: &Event, file: &heaplab_syntax::SourceFile) -> String {
    let pos = |span: heaplab_syntax::Span| {
        let p = file.line_col(span.start);
        format!("{}:{}", p.line, p.col)
    };
    match event {
        Event::Start { state, method } => format!("[{}] start {method}", state.0),
        Event::LazyInit { state, target, options, children, k_cut, .. } => {
            let taken: Vec<String> =
                options.iter().zip(children).map(|(o, c)| format!("{o} -> [{}]", c.0)).collect();
            format!(
                "[{}] lazy-init {target}: {}{}",
                state.0,
                taken.join(" | "),
                if *k_cut { " (fresh cut by k)" } else { "" }
            )
        }
        Event::Branch { state, condition, children, .. } => {
            let dirs: Vec<String> =
                children.iter().map(|(d, c)| format!("{d} -> [{}]", c.0)).collect();
            format!("[{}] branch {condition}: {}", state.0, dirs.join(" | "))
        }
        Event::Disjuncts { state, children, .. } => {
            let kids: Vec<String> = children.iter().map(|c| format!("[{}]", c.0)).collect();
            format!("[{}] disjuncts: {}", state.0, kids.join(" | "))
        }
        Event::SlModel { state, formula, model } => {
            format!("[{}] model of {formula}: {model}", state.0)
        }
        Event::SolverQuery { state, query, answer, local } => format!(
            "[{}] query {query}: {}{}",
            state.0,
            answer.as_str(),
            if *local { " (local)" } else { "" }
        ),
        Event::PathEnd { state, path, outcome } => {
            let text = match path.and_then(|p| explorer.paths().get(p)) {
                Some(p) => p.describe(),
                None => outcome.summary(),
            };
            let at = match outcome {
                PathOutcome::Error { span, .. } => format!(" at {}", pos(*span)),
                PathOutcome::Bounded { span: Some(span), .. } => format!(" at {}", pos(*span)),
                _ => String::new(),
            };
            // Only a run that records views leaves paths out of `paths` (the page).
            let path = path.map_or_else(|| "?".to_string(), |p| p.to_string());
            format!("[{}] path {path} ends: {text}{at}", state.0)
        }
        Event::SolverPending => "solver pending".to_string(),
        Event::Stopped { bound } => {
            format!("stopped: bound `{bound}` reached ({})", heaplab_testgen::bound_hint(*bound))
        }
    }
}

/// Milliseconds from the process's monotonic clock.
/// How a run spends its time bound: exploration stops at three quarters of it, test generation
/// and replay start no new path after 90 %, which leaves the rest for the path in progress, the
/// export, the report and stopping the solver.
pub fn shares(total_ms: u64) -> (u64, u64) {
    (total_ms / 4 * 3, total_ms / 100 * 90)
}
