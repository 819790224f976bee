//! `heaplab grade FILES...`: a teacher's folder of submissions in one command. One row per
//! submission and method: does it check, does it break its contract or crash on a valid input
//! (with the first counterexample), how many tests and how much of it they cover, which bound
//! limited the search; as CSV or JSON. Each run is a `heaplab run` process of its own
//! (`--jobs` at once), so one submission's crash, time or memory never touches another's.

use super::bound_flags::BoundFlags;
use super::{exit, load};
use heaplab_engine::symbolic::bounds::BOUNDS;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(clap::Args)]
#[command(
    mut_arg("k", |a| a.help(grade_help("k"))),
    mut_arg("timeout_ms", |a| a.help(grade_help("timeout_ms")))
)]
pub struct Args {
    /// Submissions: files (.hl or .java), or folders whose .hl and .java files are graded.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The method to grade (repeat for several); default: every method with a `requires`.
    #[arg(long = "method")]
    methods: Vec<String>,
    /// Heap strategy of each run.
    #[arg(long, default_value = "lazier#")]
    strategy: String,
    /// Each run's bounds, as for `heaplab run` (grading's defaults: k 2, 10 s per run).
    #[command(flatten)]
    bounds: BoundFlags,
    /// Runs at once (default: the machine's cores).
    #[arg(long)]
    jobs: Option<usize>,
    /// What to print: one CSV row per submission and method, or a JSON array of them.
    #[arg(long, value_enum, default_value_t = Summary::Csv)]
    summary: Summary,
    /// Write the rows to this file instead of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The z3 executable (started only by a run that needs it).
    #[arg(long, default_value = "z3")]
    z3: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Summary {
    Csv,
    Json,
}

/// One submission's verdict on one method.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    pub file: String,
    pub method: String,
    /// `ok`, `cut` (nothing found, but a bound stopped the run before it finished), `violation`
    /// (a broken `ensures` or callee `requires` on a valid input), `crash` (a runtime error on a
    /// valid input), `error` (the file does not check), `no_method`, or `failed` (the run
    /// itself failed: unreadable file, solver failure).
    pub status: String,
    pub tests: u64,
    pub violations: u64,
    pub crashes: u64,
    pub branches_covered: u64,
    pub branches_total: u64,
    /// The bound that stopped the run before it finished, if one did.
    pub stopped_by: String,
    /// The first violation or crash with its counterexample (`ensures_failed at 12:13: … (test
    /// gen_remove_3: SLL o1 = new SLL; … o1.remove(0);)`), or the first error of a file that
    /// does not check.
    pub detail: String,
}

/// The runtime errors that are a crash on a valid input (a documented `throw` is not).
const CRASHES: &[&str] = &[
    "null_dereference",
    "division_by_zero",
    "integer_overflow",
    "index_out_of_bounds",
    "negative_array_size",
    "assert_failed",
];

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let files = submissions(&args.files)?;
    // Checked here; each method of a file that checks is one job.
    let mut rows: Vec<Row> = Vec::new();
    let mut jobs: Vec<(usize, PathBuf, String)> = Vec::new();
    for file in &files {
        let name = file.display().to_string();
        let row = |method: &str, status: &str, detail: String| Row {
            file: name.clone(),
            method: method.to_string(),
            status: status.to_string(),
            detail,
            ..Row::default()
        };
        let loaded = match load(file) {
            Ok(loaded) => loaded,
            Err(e) => {
                rows.push(row("", "failed", format!("{e:#}")));
                continue;
            }
        };
        if let Some(d) = loaded.analysis.diagnostics.iter().find(|d| d.is_error()) {
            let pos = loaded.file.line_col(d.span.start);
            let detail = format!("{}:{}: {}", pos.line, pos.col, d.message);
            let methods =
                if args.methods.is_empty() { vec![String::new()] } else { args.methods.clone() };
            for m in methods {
                rows.push(row(&m, "error", detail.clone()));
            }
            continue;
        }
        let methods = if args.methods.is_empty() {
            loaded.analysis.program.targets_with_requires()
        } else {
            args.methods.clone()
        };
        for m in methods {
            let exists = match loaded.target(&m) {
                Ok(t) => loaded.analysis.program.targets().contains(&t),
                Err(_) => false,
            };
            if exists {
                jobs.push((rows.len(), file.clone(), m.clone()));
                rows.push(row(&m, "failed", String::new()));
            } else {
                rows.push(row(&m, "no_method", format!("`{m}` is not a method of this file")));
            }
        }
    }

    let workers = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 64);
    let next = AtomicUsize::new(0);
    let results = Mutex::new(rows);
    std::thread::scope(|scope| {
        for _ in 0..workers.min(jobs.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((slot, file, method)) = jobs.get(i) else { break };
                let graded = grade_one(&args, file, method);
                if let Ok(mut rows) = results.lock() {
                    let row = &mut rows[*slot];
                    *row = Row { file: row.file.clone(), method: row.method.clone(), ..graded };
                }
            });
        }
    });
    let rows = results.into_inner().unwrap_or_default();

    let text = match args.summary {
        Summary::Csv => csv(&rows),
        Summary::Json => serde_json::to_string_pretty(&rows)? + "\n",
    };
    match &args.out {
        Some(path) => std::fs::write(path, &text)
            .map_err(|e| anyhow::anyhow!("cannot write `{}`: {e}", path.display()))?,
        None => {
            use std::io::Write as _;
            // A closed pipe (`| head`) is not an error of ours.
            let _ = std::io::stdout().write_all(text.as_bytes());
        }
    }
    let found = |s: &str| matches!(s, "violation" | "crash" | "error" | "no_method");
    let failed = rows.iter().filter(|r| r.status == "failed").count();
    let flagged = rows.iter().filter(|r| found(&r.status)).count();
    eprintln!(
        "heaplab grade: {} rows: {} ok, {flagged} flagged, {failed} failed",
        rows.len(),
        rows.iter().filter(|r| r.status == "ok" || r.status == "cut").count()
    );
    Ok(ExitCode::from(if failed > 0 {
        exit::USAGE
    } else if flagged > 0 {
        exit::FOUND
    } else {
        exit::OK
    }))
}

/// The files to grade: each file given, and the `.hl` / `.java` files of each folder (sorted).
fn submissions(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut inner: Vec<PathBuf> = std::fs::read_dir(p)
                .map_err(|e| anyhow::anyhow!("cannot read the folder `{}`: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "hl" || x == "java"))
                .collect();
            inner.sort();
            out.extend(inner);
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// Grading's own defaults where they differ from a single run's: small heaps and a time bound
/// per submission, so a class of fifty finishes in minutes.
const GRADE_DEFAULTS: &[(&str, u64)] = &[("k", 2), ("timeout_ms", 10_000)];

/// A bound's help with grading's default instead of a single run's.
fn grade_help(name: &str) -> String {
    let help = BOUNDS.iter().find(|b| b.name == name).map_or("", |b| b.help);
    let default = GRADE_DEFAULTS.iter().find(|(n, _)| *n == name).map_or(0, |(_, v)| *v);
    format!("{help} [default when grading: {default}]")
}

/// The bound flags a run gets: every bound given to `grade` (the same flags, from the engine's
/// one bound table), and grading's defaults for the others it sets.
fn bound_args(flags: &BoundFlags) -> Vec<String> {
    let mut out = Vec::new();
    for spec in BOUNDS {
        let given = flags.0.get(spec.name);
        let default = GRADE_DEFAULTS.iter().find(|(n, _)| *n == spec.name).map(|(_, v)| *v);
        if let Some(v) = given.or(default) {
            out.push(format!("--{}", spec.flag()));
            out.push(v.to_string());
        }
    }
    out
}

/// One `heaplab run` process and its JSON summary, as a row.
fn grade_one(args: &Args, file: &Path, method: &str) -> Row {
    let failed = |detail: String| Row { status: "failed".into(), detail, ..Row::default() };
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => return failed(format!("cannot find the heaplab executable: {e}")),
    };
    let output = Command::new(exe)
        .arg("run")
        .arg(file)
        .args(["--method", method, "--strategy", &args.strategy, "--format", "json"])
        .args(bound_args(&args.bounds))
        .args(["--z3", &args.z3])
        .output();
    let output = match output {
        Ok(o) => o,
        Err(e) => return failed(format!("cannot start a run: {e}")),
    };
    let code = output.status.code();
    let summary: Option<heaplab_report::RunSummary> = serde_json::from_slice(&output.stdout).ok();
    let (Some(s), Some(0 | 1)) = (summary, code) else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first = stderr.lines().find(|l| !l.trim().is_empty()).unwrap_or("no output");
        return failed(format!(
            "the run failed ({}): {first}",
            code.map_or("killed".into(), |c| format!("exit {c}"))
        ));
    };
    let violations: Vec<_> = s.findings.iter().filter(|f| f.breaks_contract).collect();
    let crashes: Vec<_> = s
        .findings
        .iter()
        .filter(|f| f.valid_input && !f.breaks_contract && CRASHES.contains(&f.kind.as_str()))
        .collect();
    let first = violations.first().or(crashes.first());
    let status = if !violations.is_empty() {
        "violation"
    } else if !crashes.is_empty() {
        "crash"
    } else if s.stopped_by.is_some() {
        "cut"
    } else {
        "ok"
    };
    Row {
        status: status.into(),
        tests: s.tests,
        violations: violations.len() as u64,
        crashes: crashes.len() as u64,
        branches_covered: s.branches_covered_valid,
        branches_total: s.branches_total,
        stopped_by: s.stopped_by.clone().unwrap_or_default(),
        detail: first.map_or(String::new(), |f| {
            format!(
                "{} at {}:{}: {} (test {}: {})",
                f.kind, f.line, f.column, f.message, f.test, f.input
            )
        }),
        ..Row::default()
    }
}

/// The rows as CSV (RFC 4180: a field with a comma, quote or line break is quoted).
fn csv(rows: &[Row]) -> String {
    let field = |s: &str| {
        if s.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut out = String::from(
        "file,method,status,tests,violations,crashes,branches_covered,branches_total,stopped_by,detail\n",
    );
    for r in rows {
        let cells = [
            field(&r.file),
            field(&r.method),
            field(&r.status),
            r.tests.to_string(),
            r.violations.to_string(),
            r.crashes.to_string(),
            r.branches_covered.to_string(),
            r.branches_total.to_string(),
            field(&r.stopped_by),
            field(&r.detail),
        ];
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}
