//! `heaplab sat FILE --formula 'F'`: satisfiability, models and enumeration of a
//! separation-logic formula over the classes and predicates of a program; `heaplab sat
//! FILE.smt2`: the same for SL-COMP's own format, one answer per `(check-sat)`.
//!
//! Free variables of the formula are implicitly existential; their types are inferred from their
//! use (predicate parameters, points-to classes, field types, arithmetic), and their values are
//! shown as the model's store. Bounds are explicit and printed with the answer, so "unknown"
//! always says which bound was reached. Every run is bounded in time and memory by default
//! (`--timeout-ms`, `--max-memory-mb`, the same bounds and defaults as `run`), and every model
//! is re-checked by the model checker within what is left of them.

use super::{load, read_capped, report};
use heaplab_engine::symbolic::Config;
use heaplab_logic::convert::parse_query_noting;
use heaplab_logic::smtlib;
use heaplab_logic::{
    enumerate_with, satisfies_within, solve, CheckLimits, Defs, EnumConfig, Formula, Halt,
    IntEquivalence, Model, Order, ProofCaps, PureOracle, SatConfig, SatResult, SearchBounds,
    SmtOracle, Verdict,
};
use heaplab_report::commands::{EnumerationReport, ModelReport};
use heaplab_report::{SatFileReport, SatReport, SCHEMA_VERSION};
use heaplab_smt::{ProcessConfig, Query, SmtSolver, SolverFrontend, Z3Process};
use heaplab_syntax::diagnostic::render_all;
use heaplab_syntax::SourceFile;
use std::collections::BTreeMap;
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
    /// A HeapLab source file whose classes and predicates the formula uses, or an SL-COMP
    /// file in SMT-LIB (`.smt2`), which carries its own query.
    file: PathBuf,
    /// The formula (with a `.hl` file), e.g. 'exists int lo, int hi. bst(t, lo, hi) & t != null'.
    #[arg(long)]
    formula: Option<String>,
    /// With a `.smt2` entailment (`(assert A)`, `(assert (not B))`): ask whether its left-hand
    /// side `A` is satisfiable, leaving out the negated assertions.
    #[arg(long)]
    lhs: bool,
    /// Enumerate all models with at most N objects (each once, integers up to order).
    #[arg(long, value_name = "N")]
    enumerate: Option<usize>,
    /// Enumerate the models whose footprint has exactly N objects (Korat's finitization).
    #[arg(long, value_name = "N")]
    exactly: Option<usize>,
    /// Integers range over LO..HI (inclusive) and models count with their exact values
    /// (Korat's finitization of int fields); implies enumeration. `--ints -1..9` works too.
    #[arg(long, value_name = "LO..HI", value_parser = parse_range, allow_hyphen_values = true)]
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
    /// The whole run's time bound in milliseconds, search, proof and model check together
    /// (0: no limit). The answer is then unknown, or the enumeration incomplete, naming it.
    #[arg(long, value_name = "MS", default_value_t = Config::default().bounds.timeout_ms.unwrap_or(0))]
    timeout_ms: u64,
    /// Stop once the run holds this many more megabytes than at its start (0: no limit).
    #[arg(long, value_name = "MB", default_value_t = Config::default().bounds.max_memory_mb.unwrap_or(0))]
    max_memory_mb: u64,
    /// Base pairs of one predicate, at most (the unsat proof and deep models).
    #[arg(long, value_name = "N", default_value_t = ProofCaps::default().max_pairs)]
    max_pairs: usize,
    /// Consistency checks of base pairs in one predicate cluster, at most.
    #[arg(long, value_name = "N", default_value_t = ProofCaps::default().max_checks)]
    max_pair_checks: usize,
    /// Exact rounds of the base formulas over integer parameters before they widen.
    #[arg(long, value_name = "N", default_value_t = ProofCaps::default().max_rounds)]
    max_rounds: usize,
    /// Base elements (a pair with integer bounds) of one predicate, at most.
    #[arg(long, value_name = "N", default_value_t = ProofCaps::default().max_elements)]
    max_elements: usize,
    /// Consistency checks of base elements in one query, at most.
    #[arg(long, value_name = "N", default_value_t = ProofCaps::default().max_element_checks)]
    max_element_checks: usize,
    /// Instances unfolded into one model built beyond the search's bounds, at most.
    #[arg(long, value_name = "N", default_value_t = ProofCaps::default().max_unfoldings)]
    max_unfoldings: usize,
    /// Steps of the model checker re-checking a model, at most.
    #[arg(long, value_name = "N", default_value_t = CHECK_STEPS)]
    max_check_steps: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The model checker's steps by default: enough for models of hundreds of thousands of cells
/// (the time and memory bounds stop it before it runs long).
const CHECK_STEPS: usize = 50_000_000;

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

/// The run's time and memory bounds: an interrupt for the logic that fires (and stays fired)
/// once either is passed. Memory is what the process holds beyond its start, by the engine's
/// [`Gauge`](heaplab_engine::memory::Gauge): the allocator's live bytes at every call and the
/// resident memory every few hundred calls (the allocator's count alone misses its slack: a
/// search of many small symbolic heaps holds some 60 % more than it asked for).
///
/// The time bound fires a little before the deadline: once the logic stops, it still frees
/// what it built (millions of small allocations after a long fixed point) and the process
/// returns its pages, and that takes one to two milliseconds per megabyte held on a loaded
/// machine (SL-COMP's succ-circuit files end holding 1 GB); starting z3 and printing the answer
/// take a few tens of milliseconds more. The reserve is that estimate, at most a tenth of the
/// bound, so that the run ends within its bound rather than a second past it (at a twentieth
/// and a millisecond per megabyte, breadth-first searches ended 5 to 10 % past it).
struct Bounds {
    deadline: Option<(Instant, u64)>,
    memory: Option<(u64, heaplab_engine::memory::Gauge)>,
    fired: Option<Halt>,
    /// Asks so far: the memory gauge (which now and then reads the resident memory from
    /// `/proc`, a fifth of the CPU time of a long run when asked every time) is asked every
    /// [`MEMORY_EVERY`]th time.
    asks: u64,
}

/// Asks of [`Bounds::check`] between two looks at the memory gauge.
const MEMORY_EVERY: u64 = 4;

/// Time kept back for ending the run: a fiftieth of the time bound, and a millisecond and a
/// half per megabyte live for tearing it down, at most a tenth of the bound.
fn teardown_reserve(bound_ms: u64) -> Duration {
    let live_mb = heaplab_engine::memory::live_bytes().unwrap_or(0) >> 20;
    Duration::from_millis((bound_ms / 50 + live_mb * 3 / 2).min(bound_ms / 10))
}

impl Bounds {
    fn new(args: &Args, started: Instant) -> Bounds {
        let deadline = (args.timeout_ms > 0)
            .then(|| (started + Duration::from_millis(args.timeout_ms), args.timeout_ms));
        let memory = (args.max_memory_mb > 0)
            .then(|| (args.max_memory_mb, heaplab_engine::memory::Gauge::start()));
        Bounds { deadline, memory, fired: None, asks: 0 }
    }

    fn check(&mut self) -> Option<Halt> {
        if self.fired.is_none() {
            if let Some((d, ms)) = self.deadline {
                if Instant::now() + teardown_reserve(ms) >= d {
                    self.fired = Some(Halt::Time { ms });
                }
            }
            self.asks += 1;
            if let Some((mb, gauge)) =
                self.memory.as_ref().filter(|_| self.asks.is_multiple_of(MEMORY_EVERY))
            {
                if gauge.held().is_some_and(|b| b > heaplab_engine::memory::mb(*mb)) {
                    self.fired = Some(Halt::Memory { mb: *mb });
                }
            }
        }
        self.fired
    }

    /// Milliseconds left before the deadline (`None`: no time limit).
    fn left_ms(&self) -> Option<u64> {
        self.deadline.map(|(d, _)| d.saturating_duration_since(Instant::now()).as_millis() as u64)
    }
}

/// The SMT solver for arithmetic beyond the Rust procedures (`None`: no z3), its per-query
/// time limit cut to what is left of the run's (a query past the deadline is not asked: its
/// answer is unknown).
struct BoundedOracle<'a, 'b> {
    smt: Option<SmtOracle<'a>>,
    bounds: &'b std::cell::RefCell<Bounds>,
}

impl PureOracle for BoundedOracle<'_, '_> {
    fn check(
        &mut self,
        facts: &[heaplab_logic::formula::Pure],
        sorts: &BTreeMap<String, heaplab_logic::Sort>,
    ) -> heaplab_logic::Result<heaplab_logic::arith::PureResult> {
        let Some(smt) = self.smt.as_mut() else {
            return Ok(heaplab_logic::arith::PureResult::Unknown);
        };
        let left = self.bounds.borrow().left_ms();
        if left == Some(0) || self.bounds.borrow_mut().check().is_some() {
            return Ok(heaplab_logic::arith::PureResult::Unknown);
        }
        let most = u64::from(Query::DEFAULT_TIMEOUT_MS);
        smt.timeout_ms = left.map_or(most, |l| l.clamp(1, most)) as u32;
        smt.check(facts, sorts)
    }
}

fn run_into(args: Args, buf: &mut String) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let bounds = std::cell::RefCell::new(Bounds::new(&args, started));
    let input = match read_input(&args)? {
        Ok(i) => i,
        Err(code) => return Ok(code),
    };
    // z3 decides the arithmetic the Rust procedure cannot (anything beyond difference
    // constraints); without it those cases are reported as unknown, never guessed.
    // The frontend decides linear arithmetic in Rust (heaplab_smt::lia) before asking z3.
    let z3 = SolverFrontend::new(SmtSolver::new(Z3Process::new(ProcessConfig::default())));
    let smt = if z3.inner().transport().start().is_ok() {
        Some(SmtOracle::new(&z3))
    } else {
        eprintln!(
            "note: z3 is not installed; arithmetic beyond difference constraints stays unknown"
        );
        None
    };
    let mut oracle = BoundedOracle { smt, bounds: &bounds };
    let mut interrupt = || bounds.borrow_mut().check();
    let Input { defs, queries, status } = input;
    if let Some(n) = enumeration_size(&args) {
        // An SL-COMP file often asks `(check-sat)` once after its definitions and once after
        // its assertions; its status, and so the enumeration, is about the last one.
        let Some(q) = queries.last() else {
            anyhow::bail!("nothing to enumerate: `{}` has no `(check-sat)`", args.file.display());
        };
        if queries.len() > 1 {
            eprintln!(
                "note: enumerating the models of the last of the {} `(check-sat)`s",
                queries.len()
            );
        }
        return enumerate(&args, n, &defs, &q.formula, &mut oracle, &mut interrupt, buf, started);
    }
    let cfg = SatConfig {
        bounds: SearchBounds {
            max_depth: args.depth.unwrap_or(SearchBounds::default().max_depth),
            max_objects: args.objects,
            max_states: args.max_states,
        },
        order: match args.order {
            SearchOrder::Breadth => Order::BreadthFirst,
            SearchOrder::Depth => Order::DepthFirst,
        },
        caps: caps(&args),
        ..SatConfig::default()
    };
    let mut answers = Vec::new();
    for q in &queries {
        answers.push(answer(&args, &defs, q, &cfg, &mut oracle, &mut interrupt)?);
    }
    match args.format {
        Format::Text => {
            for a in &answers {
                a.text(buf);
            }
        }
        Format::Json if answers.len() == 1 && status.is_none() => {
            outln!(buf, "{}", serde_json::to_string_pretty(&answers[0].json(started))?);
        }
        Format::Json => {
            let out = SatFileReport {
                schema_version: SCHEMA_VERSION,
                status,
                answers: answers.iter().map(|a| a.json(started)).collect(),
            };
            outln!(buf, "{}", serde_json::to_string_pretty(&out)?);
        }
    }
    // One query: its answer is the exit code, as SAT solvers report it.
    Ok(ExitCode::from(match &answers[..] {
        [a] => match a.result {
            SatResult::Sat(_) => super::exit::SAT,
            SatResult::Unsat => super::exit::UNSAT,
            SatResult::Unknown(_) => super::exit::OK,
        },
        _ => super::exit::OK,
    }))
}

fn caps(args: &Args) -> ProofCaps {
    let mut caps = ProofCaps::default();
    caps.max_pairs = args.max_pairs;
    caps.max_checks = args.max_pair_checks;
    caps.max_rounds = args.max_rounds;
    caps.max_elements = args.max_elements;
    caps.max_element_checks = args.max_element_checks;
    caps.max_unfoldings = args.max_unfoldings;
    caps
}

/// One question: a formula, and (from an entailment file) the negated assertions it leaves out.
struct Question {
    formula: Formula,
    /// Negated spatial assertions (an entailment's right-hand side), not decided by `sat`.
    negated: usize,
}

struct Input {
    defs: Defs,
    queries: Vec<Question>,
    /// The status an SL-COMP file declares.
    status: Option<String>,
}

/// The definitions and queries of a `.hl` file and `--formula`, or of a `.smt2` file; `Err`
/// with the exit code after printing the diagnostics of bad input.
fn read_input(args: &Args) -> anyhow::Result<Result<Input, ExitCode>> {
    if args.file.extension().is_some_and(|e| e == "smt2") {
        if args.formula.is_some() {
            anyhow::bail!("a `.smt2` file carries its own query: leave out `--formula`");
        }
        let bytes = read_capped(&args.file)?;
        let text = String::from_utf8(bytes)
            .map_err(|_| anyhow::anyhow!("`{}` is not UTF-8 text", args.file.display()))?;
        let file = SourceFile::new(args.file.display().to_string(), text);
        let script = match smtlib::read(&file.text) {
            Ok(s) => s,
            Err(e) => {
                eprint!("{}", render_all(&[e.to_diagnostic()], &file));
                return Ok(Err(ExitCode::FAILURE));
            }
        };
        if script.queries.is_empty() {
            eprintln!("note: `{}` has no `(check-sat)`: nothing to answer", args.file.display());
        }
        let queries = script
            .queries
            .into_iter()
            .map(|q| Question {
                formula: q.formula,
                negated: if args.lhs { 0 } else { q.negated.len() },
            })
            .collect();
        return Ok(Ok(Input { defs: script.defs, queries, status: script.status }));
    }
    if args.lhs {
        anyhow::bail!("`--lhs` asks an SL-COMP entailment file (`.smt2`)");
    }
    let Some(text) = args.formula.clone() else {
        anyhow::bail!(
            "`--formula` is needed with a `.hl` file (a `.smt2` file carries its own query)"
        );
    };
    let loaded = load(&args.file)?;
    if report(&loaded) {
        return Ok(Err(ExitCode::FAILURE));
    }
    let (defs, errors) = Defs::from_program(&loaded.analysis.program);
    if !errors.is_empty() {
        let diags: Vec<_> = errors.iter().map(|e| e.to_diagnostic()).collect();
        eprint!("{}", render_all(&diags, &loaded.file));
    }
    let formula_file = SourceFile::new("--formula", text.clone());
    let (formula, notes) = match parse_query_noting(&defs, &text, &[]) {
        Ok(f) => f,
        Err(e) => {
            eprint!("{}", render_all(&[e.to_diagnostic()], &formula_file));
            return Ok(Err(ExitCode::FAILURE));
        }
    };
    if !notes.is_empty() {
        eprint!("{}", render_all(&notes, &formula_file));
    }
    Ok(Ok(Input { defs, queries: vec![Question { formula, negated: 0 }], status: None }))
}

fn enumeration_size(args: &Args) -> Option<usize> {
    let n = args.enumerate.or(args.exactly).or(if args.count || args.ints.is_some() {
        Some(4)
    } else {
        None
    })?;
    Some(args.exactly.map_or(n, |e| e.max(n)))
}

/// What a `sat` run answered for one query, and what the model checker said of its model.
struct Answer {
    result: SatResult,
    /// The model checker's verdict on a `sat` model (`None` for other answers).
    check: Option<Verdict>,
    /// The caller's bound that stopped the run.
    halted: Option<Halt>,
}

impl Answer {
    fn text(&self, buf: &mut String) {
        match (&self.result, &self.check) {
            (SatResult::Sat(m), Some(Verdict::Holds)) => {
                outln!(buf, "sat (the model checker accepts the model)");
                out!(buf, "{m}");
            }
            (SatResult::Sat(m), Some(Verdict::Unknown(why))) => {
                outln!(buf, "sat (model not re-checked: {why})");
                out!(buf, "{m}");
            }
            (SatResult::Sat(m), _) => {
                outln!(buf, "sat");
                out!(buf, "{m}");
            }
            (SatResult::Unsat, _) => outln!(buf, "unsat"),
            (SatResult::Unknown(why), _) => outln!(buf, "unknown: {why}"),
        }
    }

    /// `checked`: whether the model checker accepted the model (`true`), or could not decide
    /// it within its bounds (`false`, with `unchecked_reason`); `stopped_by`: the run's time or
    /// memory bound when one stopped it.
    fn json(&self, started: Instant) -> SatReport {
        let verdict = |result: &str| SatReport {
            schema_version: SCHEMA_VERSION,
            result: result.to_string(),
            model: None,
            checked: None,
            unchecked_reason: None,
            reason: None,
            stopped_by: self.halted.map(|h| h.to_string()),
            time_ms: started.elapsed().as_millis() as u64,
        };
        match &self.result {
            SatResult::Sat(m) => {
                let (checked, why) = match &self.check {
                    Some(Verdict::Holds) => (true, None),
                    Some(Verdict::Unknown(why)) => (false, Some(why.clone())),
                    _ => (false, None),
                };
                SatReport {
                    model: Some(ModelReport::of(m)),
                    checked: Some(checked),
                    unchecked_reason: why,
                    ..verdict("sat")
                }
            }
            SatResult::Unsat => verdict("unsat"),
            SatResult::Unknown(why) => {
                SatReport { reason: Some(why.clone()), ..verdict("unknown") }
            }
        }
    }
}

fn answer(
    args: &Args,
    defs: &Defs,
    q: &Question,
    cfg: &SatConfig,
    oracle: &mut dyn PureOracle,
    interrupt: &mut heaplab_logic::Interrupt<'_>,
) -> anyhow::Result<Answer> {
    let out = solve(defs, &q.formula, cfg, oracle, interrupt)?;
    let mut result = out.result;
    if q.negated > 0 && !matches!(result, SatResult::Unsat) {
        // `A ∧ ¬B` with `B` spatial is an entailment question: only an unsatisfiable `A`
        // answers it here.
        result = SatResult::Unknown(format!(
            "the file asks an entailment ({} negated spatial assertion(s)), which `sat` does not decide; its left-hand side is {} (`--lhs` asks it alone)",
            q.negated,
            match &result {
                SatResult::Sat(_) => "satisfiable".to_string(),
                SatResult::Unknown(why) => format!("undecided: {why}"),
                SatResult::Unsat => "unsatisfiable".to_string(),
            }
        ));
    }
    let check = match &result {
        SatResult::Sat(m) => Some(recheck(args, defs, m, &q.formula, interrupt)?),
        _ => None,
    };
    Ok(Answer { result, check, halted: out.halted })
}

/// The model checker's verdict on a model `sat` or enumeration produced, within the run's
/// bounds: `Holds`, or `Unknown` naming the bound that stopped it. A `Fails` is a bug of the
/// search, reported as an error rather than printed as a model.
fn recheck(
    args: &Args,
    defs: &Defs,
    m: &Model,
    formula: &Formula,
    interrupt: &mut heaplab_logic::Interrupt<'_>,
) -> anyhow::Result<Verdict> {
    let limits = CheckLimits { max_steps: args.max_check_steps, ..CheckLimits::default() };
    match satisfies_within(defs, m, formula, limits, interrupt)? {
        Verdict::Fails => {
            anyhow::bail!("internal error: the model checker does not accept the model:\n{m}")
        }
        v => Ok(v),
    }
}

#[allow(clippy::too_many_arguments)]
fn enumerate(
    args: &Args,
    n: usize,
    defs: &Defs,
    formula: &Formula,
    oracle: &mut dyn PureOracle,
    interrupt: &mut heaplab_logic::Interrupt<'_>,
    buf: &mut String,
    started: Instant,
) -> anyhow::Result<ExitCode> {
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
    let mut res = enumerate_with(defs, formula, cfg, oracle, interrupt)?;
    // Every model is re-checked by the independent model checker; those it could not decide
    // within the run's bounds are counted, not dropped.
    let mut unchecked = 0;
    for (i, m) in res.models.iter().enumerate() {
        // Once a bound has fired, the models left are counted at once: asking the checker
        // for each (thousands, when the enumeration ran to the time bound) set each one up
        // only to be told to stop, a tenth of the bound past it.
        if interrupt().is_some() {
            unchecked += (res.models.len() - i) as u64;
            break;
        }
        match recheck(args, defs, m, formula, interrupt)
            .map_err(|e| anyhow::anyhow!("model {}: {e}", i + 1))?
        {
            Verdict::Holds => {}
            _ => unchecked += 1,
        }
    }
    if res.stopped_by.is_none() {
        if let Some(h) = interrupt() {
            res.incomplete = true;
            res.stopped_by = Some(h.to_string());
        }
    }
    let size = match args.exactly {
        Some(e) => format!("exactly {e}"),
        None => format!("at most {n}"),
    };
    let checked = if unchecked == 0 {
        "each checked by the model checker".to_string()
    } else {
        format!("{unchecked} of them not re-checked (the run's bounds stopped the model checker)")
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
                "{} model(s) with {size} object(s), unfolding depth {}, {checked}",
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
                unchecked,
                time_ms: started.elapsed().as_millis() as u64,
                models: (!args.count).then(|| res.models.iter().map(ModelReport::of).collect()),
            };
            outln!(buf, "{}", serde_json::to_string_pretty(&out)?);
        }
    }
    if let Some(why) = &res.stopped_by {
        eprintln!("note: the enumeration is incomplete: stopped by {why}");
    }
    Ok(ExitCode::SUCCESS)
}
