//! `heaplab sat FILE --formula 'F'`: satisfiability, models and enumeration of a
//! separation-logic formula over the classes and predicates of a program.
//!
//! Free variables of the formula are implicitly existential; their types are inferred from their
//! use (predicate parameters, points-to classes, field types, arithmetic), and their values are
//! shown as the model's store. Bounds are explicit and printed with the answer, so "unknown"
//! always says which bound was reached.

use super::{load, report};
use heaplab_logic::convert::parse_query;
use heaplab_logic::{
    enumerate_with, sat_with, satisfies, CheckLimits, Defs, EnumConfig, IntEquivalence, Model,
    NoSolver, Order, PureOracle, SatResult, SearchBounds, SmtOracle, Verdict,
};
use heaplab_report::commands::{EnumerationReport, ModelReport};
use heaplab_report::{SatReport, SCHEMA_VERSION};
use heaplab_smt::{ProcessConfig, SmtSolver, SolverFrontend, Z3Process};
use heaplab_syntax::diagnostic::render_all;
use heaplab_syntax::SourceFile;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

macro_rules! outln {
    ($buf:expr, $($arg:tt)*) => {{ let _ = writeln!($buf, $($arg)*); }};
}

macro_rules! out {
    ($buf:expr, $($arg:tt)*) => {{ let _ = write!($buf, $($arg)*); }};
}

#[derive(clap::Args)]
pub struct Args {
    /// The HeapLab source file whose classes and predicates the formula uses.
    file: PathBuf,
    /// The formula, e.g. 'exists int lo, int hi. bst(t, lo, hi) & t != null'.
    #[arg(long)]
    formula: String,
    /// Enumerate all models with at most N objects (each once, integers up to order).
    #[arg(long, value_name = "N")]
    enumerate: Option<usize>,
    /// Enumerate the models whose footprint has exactly N objects (Korat's finitization).
    #[arg(long, value_name = "N")]
    exactly: Option<usize>,
    /// Integers range over LO..HI (inclusive) and models count with their exact values
    /// (Korat's finitization of int fields); implies enumeration.
    #[arg(long, value_name = "LO..HI", value_parser = parse_range)]
    ints: Option<(i64, i64)>,
    /// Print only the number of models (implies --enumerate 4 unless given).
    #[arg(long)]
    count: bool,
    /// Ignore integer values when enumerating: one model per shape.
    #[arg(long)]
    shapes: bool,
    /// Maximum nesting of recursive predicate unfoldings (default: 6, or N with --enumerate N).
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
    /// Maximum number of objects when deciding satisfiability.
    #[arg(long, value_name = "N", default_value_t = SearchBounds::default().max_objects)]
    objects: usize,
    /// Work limit: partial heaps examined (and waiting), at most.
    #[arg(long, value_name = "N", default_value_t = SearchBounds::default().max_states)]
    max_states: usize,
    /// Stop an enumeration after N models.
    #[arg(long, value_name = "N", default_value_t = EnumConfig::default().max_models)]
    max_models: usize,
    /// Search order: breadth-first finds a smallest model; depth-first follows the
    /// definitions' disjunct order and finds deep models (trees with linked leaves) at once.
    #[arg(long, value_enum, default_value_t = SearchOrder::Breadth)]
    order: SearchOrder,
    /// Stop the search after this many milliseconds (the answer is then unknown, or the
    /// enumeration incomplete, naming the time limit).
    #[arg(long, value_name = "MS")]
    timeout_ms: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SearchOrder {
    Breadth,
    Depth,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// `LO..HI` with `LO <= HI`.
fn parse_range(s: &str) -> Result<(i64, i64), String> {
    let (lo, hi) = s.split_once("..").ok_or("expected LO..HI, e.g. 0..9")?;
    let lo: i64 = lo.trim().parse().map_err(|_| format!("`{lo}` is not an integer"))?;
    let hi: i64 = hi.trim().parse().map_err(|_| format!("`{hi}` is not an integer"))?;
    if lo > hi {
        return Err(format!("the range {lo}..{hi} is empty"));
    }
    if hi.abs_diff(lo) > 10_000 {
        return Err("at most 10 001 values per integer".into());
    }
    Ok((lo, hi))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut out = String::new();
    let code = run_into(args, &mut out)?;
    // A closed pipe (`| head`) is not an error of ours: ignore write failures.
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    Ok(code)
}

fn run_into(args: Args, buf: &mut String) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let deadline = args.timeout_ms.map(|ms| started + Duration::from_millis(ms));
    let mut stop = move || deadline.is_some_and(|d| Instant::now() >= d);
    let loaded = load(&args.file)?;
    if report(&loaded) {
        return Ok(ExitCode::FAILURE);
    }
    let (defs, errors) = Defs::from_program(&loaded.analysis.program);
    if !errors.is_empty() {
        let diags: Vec<_> = errors.iter().map(|e| e.to_diagnostic()).collect();
        eprint!("{}", render_all(&diags, &loaded.file));
    }
    let formula_file = SourceFile::new("--formula", args.formula.clone());
    let formula = match parse_query(&defs, &args.formula, &[]) {
        Ok(f) => f,
        Err(e) => {
            eprint!("{}", render_all(&[e.to_diagnostic()], &formula_file));
            return Ok(ExitCode::FAILURE);
        }
    };
    // z3 decides the arithmetic the Rust procedure cannot (anything beyond difference
    // constraints); without it those cases are reported as unknown, never guessed.
    // The frontend decides linear arithmetic in Rust (heaplab_smt::lia) before asking z3.
    let z3 = SolverFrontend::new(SmtSolver::new(Z3Process::new(ProcessConfig::default())));
    let mut oracle: Box<dyn PureOracle + '_> = if z3.inner().transport().start().is_ok() {
        Box::new(SmtOracle::new(&z3))
    } else {
        eprintln!(
            "note: z3 is not installed; arithmetic beyond difference constraints stays unknown"
        );
        Box::new(NoSolver)
    };
    let enumerate_n = args.enumerate.or(args.exactly).or(if args.count || args.ints.is_some() {
        Some(4)
    } else {
        None
    });
    if let Some(n) = enumerate_n {
        let n = args.exactly.map_or(n, |e| e.max(n));
        let bounds = SearchBounds {
            max_depth: args.depth.unwrap_or(n.max(1) as u32),
            max_objects: n,
            max_states: args.max_states,
        };
        let ints = if args.shapes { IntEquivalence::Ignore } else { IntEquivalence::UpToOrder };
        let cfg = EnumConfig {
            bounds,
            ints,
            max_models: args.max_models,
            exactly: args.exactly,
            int_range: args.ints,
        };
        let res = enumerate_with(&defs, &formula, cfg, oracle.as_mut(), &mut stop)?;
        // Every model is re-checked by the independent model checker.
        for (i, m) in res.models.iter().enumerate() {
            recheck(&defs, m, &formula).map_err(|e| anyhow::anyhow!("model {}: {e}", i + 1))?;
        }
        let size = match args.exactly {
            Some(e) => format!("exactly {e}"),
            None => format!("at most {n}"),
        };
        match args.format {
            Format::Text if args.count => outln!(buf, "{}", res.models.len()),
            Format::Text => {
                for (i, m) in res.models.iter().enumerate() {
                    outln!(buf, "model {}:", i + 1);
                    out!(buf, "{m}");
                }
                outln!(
                    buf,
                    "{} model(s) with {size} object(s), unfolding depth {}, each checked by the model checker",
                    res.models.len(),
                    bounds.max_depth
                );
            }
            Format::Json => {
                let out = EnumerationReport {
                    schema_version: SCHEMA_VERSION,
                    count: res.models.len() as u64,
                    max_objects: n as u64,
                    exactly: args.exactly.map(|e| e as u64),
                    max_depth: bounds.max_depth,
                    complete: !res.incomplete,
                    stopped_by: res.stopped_by.clone(),
                    time_ms: started.elapsed().as_millis() as u64,
                    models: (!args.count).then(|| res.models.iter().map(ModelReport::of).collect()),
                };
                outln!(buf, "{}", serde_json::to_string_pretty(&out)?);
            }
        }
        if let Some(why) = &res.stopped_by {
            eprintln!("note: the enumeration is incomplete: stopped by {why}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let bounds = SearchBounds {
        max_depth: args.depth.unwrap_or(SearchBounds::default().max_depth),
        max_objects: args.objects,
        max_states: args.max_states,
    };
    let order = match args.order {
        SearchOrder::Breadth => Order::BreadthFirst,
        SearchOrder::Depth => Order::DepthFirst,
    };
    let res =
        sat_with(&defs, &formula, bounds, order, oracle.as_mut(), &mut stop, None, true)?.result;
    if let SatResult::Sat(m) = &res {
        recheck(&defs, m, &formula)?;
    }
    match args.format {
        Format::Text => match &res {
            SatResult::Sat(m) => {
                outln!(buf, "sat (the model checker accepts the model)");
                out!(buf, "{m}");
            }
            SatResult::Unsat => outln!(buf, "unsat"),
            SatResult::Unknown(why) => outln!(buf, "unknown: {why}"),
        },
        Format::Json => {
            let verdict = |result: &str| SatReport {
                schema_version: SCHEMA_VERSION,
                result: result.to_string(),
                model: None,
                checked: None,
                reason: None,
            };
            let out = match &res {
                SatResult::Sat(m) => SatReport {
                    model: Some(ModelReport::of(m)),
                    checked: Some(true),
                    ..verdict("sat")
                },
                SatResult::Unsat => verdict("unsat"),
                SatResult::Unknown(why) => {
                    SatReport { reason: Some(why.clone()), ..verdict("unknown") }
                }
            };
            outln!(buf, "{}", serde_json::to_string_pretty(&out)?);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The model checker's verdict on a model `sat` or enumeration produced: anything but `Holds`
/// is a bug of the search, reported as an error rather than printed as a model.
fn recheck(defs: &Defs, m: &Model, formula: &heaplab_logic::Formula) -> anyhow::Result<()> {
    match satisfies(defs, m, formula, CheckLimits::default())? {
        Verdict::Holds => Ok(()),
        Verdict::Unknown(why) => {
            eprintln!("note: the model checker could not decide this model: {why}");
            Ok(())
        }
        Verdict::Fails => {
            anyhow::bail!("internal error: the model checker does not accept the model:\n{m}")
        }
    }
}
