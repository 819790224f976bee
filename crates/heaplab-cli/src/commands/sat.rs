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
    enumerate, sat, Defs, EnumConfig, IntEquivalence, Model, NoSolver, PureOracle, SatResult,
    SearchBounds, SmtOracle, Value,
};
use heaplab_smt::{ProcessConfig, SmtSolver, SolverFrontend, Z3Process};
use heaplab_syntax::diagnostic::render_all;
use heaplab_syntax::SourceFile;
use serde_json::{json, Value as Json};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut out = String::new();
    let code = run_into(args, &mut out)?;
    // A closed pipe (`| head`) is not an error of ours: ignore write failures.
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    Ok(code)
}

fn run_into(args: Args, buf: &mut String) -> anyhow::Result<ExitCode> {
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
    let enumerate_n = args.enumerate.or(if args.count { Some(4) } else { None });
    if let Some(n) = enumerate_n {
        let bounds = SearchBounds {
            max_depth: args.depth.unwrap_or(n.max(1) as u32),
            max_objects: n,
            ..SearchBounds::default()
        };
        let ints = if args.shapes { IntEquivalence::Ignore } else { IntEquivalence::UpToOrder };
        let cfg = EnumConfig { bounds, ints, ..EnumConfig::default() };
        let res = enumerate(&defs, &formula, cfg, oracle.as_mut())?;
        match args.format {
            Format::Text if args.count => outln!(buf, "{}", res.models.len()),
            Format::Text => {
                for (i, m) in res.models.iter().enumerate() {
                    outln!(buf, "model {}:", i + 1);
                    out!(buf, "{m}");
                }
                outln!(
                    buf,
                    "{} model(s) with at most {n} object(s), unfolding depth {}",
                    res.models.len(),
                    bounds.max_depth
                );
            }
            Format::Json => {
                let mut out = json!({
                    "count": res.models.len(),
                    "maxObjects": n,
                    "maxDepth": bounds.max_depth,
                    "complete": !res.incomplete,
                });
                if !args.count {
                    out["models"] = Json::Array(res.models.iter().map(model_json).collect());
                }
                outln!(buf, "{}", serde_json::to_string_pretty(&out)?);
            }
        }
        if res.incomplete {
            eprintln!("note: the enumeration is incomplete (a work limit was reached or some arithmetic was undecided)");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let bounds = SearchBounds {
        max_depth: args.depth.unwrap_or(SearchBounds::default().max_depth),
        max_objects: args.objects,
        ..SearchBounds::default()
    };
    let res = sat(&defs, &formula, bounds, oracle.as_mut())?;
    match args.format {
        Format::Text => match &res {
            SatResult::Sat(m) => {
                outln!(buf, "sat");
                out!(buf, "{m}");
            }
            SatResult::Unsat => outln!(buf, "unsat"),
            SatResult::Unknown(why) => outln!(buf, "unknown: {why}"),
        },
        Format::Json => {
            let out = match &res {
                SatResult::Sat(m) => json!({ "result": "sat", "model": model_json(m) }),
                SatResult::Unsat => json!({ "result": "unsat" }),
                SatResult::Unknown(why) => json!({ "result": "unknown", "reason": why }),
            };
            outln!(buf, "{}", serde_json::to_string_pretty(&out)?);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn value_json(v: &Value) -> Json {
    match v {
        Value::Int(i) => json!(i),
        Value::Bool(b) => json!(b),
        Value::Null => Json::Null,
        Value::Ref(o) => json!({ "ref": o }),
    }
}

fn model_json(m: &Model) -> Json {
    let store: serde_json::Map<String, Json> =
        m.store.iter().map(|(k, v)| (k.clone(), value_json(v))).collect();
    let objects: Vec<Json> = m
        .objects
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let fields: serde_json::Map<String, Json> =
                o.fields.iter().map(|(f, v)| (f.clone(), value_json(v))).collect();
            json!({ "id": i, "class": o.class, "fields": fields })
        })
        .collect();
    json!({ "store": store, "objects": objects })
}
