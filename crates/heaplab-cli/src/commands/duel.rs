//! `heaplab duel FILE --method M --reference R`: does `M` behave like the reference `R` on
//! every valid input up to the bounds? Prints the inputs on which they differ (the clues) and
//! exits 1, or says that no difference exists up to the bounds, naming the bounds that limited
//! the search, and exits 0 (2: the duel could not run). For grading: a class's submissions
//! against one reference.
//!
//! Thin: `heaplab_testgen::duel` writes the product program and judges the inputs; this file
//! explores the product with the explorer, as `heaplab run` does, and prints.

use super::bound_flags::BoundFlags;
use super::{load, report, WallClock};
use anyhow::Context;
use heaplab_engine::symbolic::options::PreOption;
use heaplab_engine::symbolic::{
    strategy, Bound, Event, Explorer, Options, PathOutcome, SmtPathSolver,
};
use heaplab_smt::SmtSolver;
use heaplab_syntax::{analyze, diagnostic::render_all, SourceFile};
use heaplab_testgen::duel::{self, PathKind};
use heaplab_testgen::generate_within;
use serde_json::json;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The k of a duel when `--k` is not given: heaps with reference chains of three, which is
/// what a course's duel promises ("no difference up to k = 3").
pub const DEFAULT_K: u64 = 3;

#[derive(clap::Args)]
pub struct Args {
    /// The source file (.hl or .java) holding both methods.
    file: PathBuf,
    /// The student's method: `Class.method`, or a function's name.
    #[arg(long)]
    method: String,
    /// The reference: a method of the same class, or a function whose first parameter is the
    /// receiver (`insertRef(BST self, int x)`), or a function when `--method` is one.
    #[arg(long)]
    reference: String,
    /// Heap strategy of the exploration (one the explorer runs).
    #[arg(long, default_value = "lazier#", value_parser = clap::builder::PossibleValuesParser::new(strategy::STRATEGIES.iter().filter(|s| s.kind().is_some()).map(|s| s.name)))]
    strategy: String,
    /// The exploration's bounds; a duel's `--k` is 3 unless given.
    #[command(flatten)]
    bounds: BoundFlags,
    /// Stop after finding this many paths on which the two differ (0: explore everything).
    #[arg(long, default_value_t = 3)]
    clues: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The z3 executable.
    #[arg(long, default_value = "z3")]
    z3: String,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    let loaded = load(&args.file)?;
    if report(&loaded) {
        return Ok(ExitCode::from(2));
    }
    let program = &loaded.analysis.program;
    let product = duel::build(program, &loaded.file.text, &args.method, &args.reference)
        .map_err(|e| anyhow::anyhow!("{e} (in `{}`)", args.file.display()))?;
    let product_file = SourceFile::new(loaded.file.name.clone(), product.source.clone());
    let analysis = analyze(&product_file);
    if analysis.has_errors() {
        anyhow::bail!(
            "the comparison HeapLab generated does not check (a bug in HeapLab; please report):\n{}",
            render_all(&analysis.diagnostics, &product_file)
        );
    }
    let (config, deadline_ms) = config_of(&args, started)?;
    let k = config.bounds.k;

    let z3 = super::started_z3(&args.z3)?;
    let solver = SmtPathSolver::new(SmtSolver::new(z3));
    let mut explorer = Explorer::new(
        &analysis.program,
        &analysis.info,
        &product.target,
        config,
        Box::new(solver),
        Box::new(WallClock::new()),
    )
    .map_err(|e| anyhow::anyhow!("{e} (in `{}`)", args.file.display()))?;

    let (bounds_hit, stopped_at_clues) = search(&mut explorer, &product.reference, args.clues);
    let generation = generate_within(&mut explorer, &analysis.program, &analysis.info, deadline_ms)
        .context("test generation failed")?;
    let compiled = std::rc::Rc::clone(explorer.compiled());
    let verdict = duel::verdict(
        program,
        &loaded.analysis.info,
        &loaded.file.text,
        &product,
        &analysis.program,
        &analysis.info,
        &compiled,
        explorer.paths(),
        &generation,
    );
    let stats = explorer.stats().clone();
    let mut limits: Vec<String> = Vec::new();
    if stats.k_cut {
        limits.push(format!("k = {k} (inputs with longer reference chains were not tried)"));
    }
    for b in &bounds_hit {
        limits.push(format!("{} ({})", b.name(), heaplab_testgen::bound_hint(*b)));
    }
    if !stopped_at_clues {
        if let Some(s) = generation.stopped_by(explorer.stopped()) {
            limits.push(s);
        }
    }
    let found = Found {
        k,
        verdict: &verdict,
        limits,
        unknown: generation.unknown.len()
            + generation.out_of_time.len()
            + generation.out_of_memory.len(),
        stopped_at_clues,
        states: stats.states,
        time_ms: started.elapsed().as_millis() as u64,
    };
    match args.format {
        Format::Json => {
            out(&serde_json::to_string_pretty(&json_report(&args, &loaded.file.name, &found))?)
        }
        Format::Text => out(&text_report(&args, &found)),
    }
    let internal = stats.internal_errors;
    std::mem::forget(explorer);
    if internal > 0 || !verdict.unconfirmed.is_empty() {
        eprintln!(
            "heaplab: the engine and the interpreter disagree on {} path(s) of this duel (a bug in HeapLab; please report)",
            internal as usize + verdict.unconfirmed.len()
        );
        return Ok(ExitCode::from(2));
    }
    Ok(if verdict.differ() { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// The explorer's configuration from the flags (a duel's k is 3 unless given), its time bound
/// shared between exploring and test generation as `heaplab run` does; and the deadline.
fn config_of(
    args: &Args,
    started: std::time::Instant,
) -> anyhow::Result<(heaplab_engine::symbolic::Config, Option<u64>)> {
    let mut bounds = args.bounds.0.clone();
    if bounds.get("k").is_none() {
        bounds.set("k", DEFAULT_K);
    }
    let options = Options {
        strategy: Some(args.strategy.clone()),
        pre: Some(PreOption::Assume),
        bounds,
        ..Options::default()
    };
    let mut config = options.resolve().map_err(|e| anyhow::anyhow!("{e}"))?;
    let setup_ms = started.elapsed().as_millis() as u64;
    let (explore_bound, deadline_ms) = match config.bounds.timeout_ms {
        Some(total) => {
            let (explore, whole) = super::run::shares(total);
            (Some(explore.saturating_sub(setup_ms).max(1)), Some(whole.saturating_sub(setup_ms)))
        }
        None => (None, None),
    };
    config.bounds.timeout_ms = explore_bound;
    Ok((config, deadline_ms))
}

/// Explores until the end, or until `clues` paths (0: no limit) showed a difference; returns
/// the bounds that cut paths and whether the search stopped at the clues.
fn search(explorer: &mut Explorer, reference: &str, clues: usize) -> (BTreeSet<Bound>, bool) {
    let mut bounds_hit = BTreeSet::new();
    let mut differing = 0usize;
    while let Some(event) = explorer.step() {
        match &event {
            Event::PathEnd { outcome: PathOutcome::Bounded { bound, .. }, .. } => {
                bounds_hit.insert(*bound);
            }
            Event::PathEnd { path, .. } => {
                let compiled = std::rc::Rc::clone(explorer.compiled());
                let kind = path
                    .and_then(|p| explorer.paths().get(p))
                    .map(|p| duel::classify(reference, &compiled, p));
                if kind == Some(PathKind::Differ) {
                    differing += 1;
                }
            }
            _ => {}
        }
        if clues > 0 && differing >= clues {
            return (bounds_hit, true);
        }
    }
    (bounds_hit, false)
}

/// What a duel found, for the report.
struct Found<'a> {
    k: u32,
    verdict: &'a duel::Verdict,
    /// The bounds that limited the search, in words.
    limits: Vec<String>,
    /// Paths that got no input (no model, or out of time).
    unknown: usize,
    stopped_at_clues: bool,
    states: u64,
    time_ms: u64,
}

fn json_report(args: &Args, file: &str, f: &Found) -> serde_json::Value {
    let clues: Vec<_> = f
        .verdict
        .clues
        .iter()
        .map(|c| {
            json!({
                "test": c.test,
                "input": c.input_text,
                "student": c.student,
                "reference": c.reference,
                "differences": c.differences,
                "input_satisfies_requires": c.validity.is_valid(),
            })
        })
        .collect();
    json!({
        "file": file,
        "method": args.method,
        "reference": args.reference,
        "strategy": args.strategy.as_str(),
        "k": f.k,
        "differ": f.verdict.differ(),
        "clues": clues,
        "paths_agreeing": f.verdict.agreeing_paths,
        "paths_reference_fails": f.verdict.reference_failures,
        "paths_without_input": f.unknown,
        "stopped_after_clues": f.stopped_at_clues,
        "limited_by": f.limits,
        "unconfirmed": f.verdict.unconfirmed,
        "states": f.states,
        "time_ms": f.time_ms,
    })
}

fn out(text: &str) {
    // A closed pipe (`| head`) must not abort the report.
    let _ = writeln!(std::io::stdout(), "{}", text.trim_end());
}

fn text_report(args: &Args, found: &Found) -> String {
    let Found { k, verdict, limits, unknown, stopped_at_clues, time_ms, .. } = found;
    let (k, unknown, stopped_at_clues) = (*k, *unknown, *stopped_at_clues);
    let mut s = format!(
        "duel: {} against the reference {} ({}, k = {k})\n",
        args.method, args.reference, args.strategy
    );
    if verdict.differ() {
        s.push_str(&format!(
            "they differ: {} clue input{}{}\n",
            verdict.clues.len(),
            if verdict.clues.len() == 1 { "" } else { "s" },
            if stopped_at_clues { " (the search stopped after finding them)" } else { "" }
        ));
        for (i, c) in verdict.clues.iter().enumerate() {
            s.push_str(&format!("\nclue {}:\n", i + 1));
            for (j, line) in c.input_text.iter().enumerate() {
                s.push_str(&format!(
                    "  {}{line}\n",
                    if j == 0 { "input:     " } else { "           " }
                ));
            }
            s.push_str(&format!("  yours:     {}\n", c.student));
            s.push_str(&format!("  reference: {}\n", c.reference));
            for d in &c.differences {
                s.push_str(&format!("  differs:   {d}\n"));
            }
        }
    } else {
        s.push_str(&format!(
            "no difference up to k = {}: {} path{} compared, every input on each{}\n",
            k,
            verdict.agreeing_paths,
            if verdict.agreeing_paths == 1 { "" } else { "s" },
            if limits.is_empty() { String::new() } else { " within the bounds below".to_string() }
        ));
    }
    if verdict.reference_failures > 0 {
        s.push_str(&format!(
            "the reference itself fails on {} path{}: there the two were compared on one input each\n",
            verdict.reference_failures,
            if verdict.reference_failures == 1 { "" } else { "s" }
        ));
    }
    if unknown > 0 {
        s.push_str(&format!("{unknown} path(s) got no input (the solver gave no model, or time ran out): not compared\n"));
    }
    if stopped_at_clues {
        // The search stopped on its own: the bounds said nothing about this verdict.
    } else if limits.is_empty() {
        s.push_str("no bound limited the search\n");
    } else {
        s.push_str("limited by:\n");
        for l in limits {
            s.push_str(&format!("  {l}\n"));
        }
    }
    s.push_str(&format!("time: {time_ms} ms\n"));
    s
}
