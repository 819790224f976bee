//! `heaplab test FILE...`: runs every `test` block in the concrete interpreter
//! (`--format json`: a `TestReport`).
//!
//! A test marked `expects bug KIND` (an error-revealing test that `heaplab run` exported) whose
//! error still occurs is a found bug: reported with the place and clause, counted among the
//! failures (the exit code is 1). Once the call completes instead, the bug is gone and the test
//! passes.

use super::style::{self, Stream, Tone};
use super::{load, report, Format};
use heaplab_engine::interp::Outcome;
use heaplab_engine::interp::TestResult;
use heaplab_engine::{run_tests, Limits};
use heaplab_report::commands::CheckedFile;
use heaplab_report::{DiagnosticReport, OutcomeReport, TestReport, TestResultReport};
use heaplab_syntax::ast::Item;
use heaplab_syntax::SourceFile;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Source files: HeapLab (.hl) or Java (.java).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Run only tests whose name contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Interpreter step limit per test.
    #[arg(long, default_value_t = Limits::default().steps)]
    steps: u64,
    /// Output format: one line per test, or one JSON document.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The names of the tests marked `expects bug`.
fn bug_tests(program: &heaplab_syntax::ast::Program) -> std::collections::HashSet<&str> {
    let tests = program.items.iter().filter_map(|i| match i {
        Item::Test(t) if t.bug => Some(t.name.name.as_str()),
        _ => None,
    });
    tests.collect()
}

/// How one test ended, for its line.
enum Verdict {
    /// Passed, with a note (empty, or that a recorded bug no longer occurs).
    Passed(&'static str),
    Failed(String),
    /// An `expects bug` test whose error occurred again: the place and the clause.
    Bug(String),
}

/// Judges one result. A test marked `expects bug` whose error occurred again is a found bug
/// (not a pass: its message names the place and the broken clause); one whose call completed
/// passes, since the bug is fixed.
fn judge(result: &mut TestResult, bug: bool, file: &SourceFile) -> Verdict {
    if bug {
        match &result.outcome {
            Ok(Outcome::Error(e)) if result.passed => {
                let clause = file.text.get(e.span.start as usize..e.span.end as usize);
                let clause = clause.unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
                let pos = file.line_col(e.span.start);
                let what =
                    format!("{}:{}:{}: {}: `{clause}`", file.name, pos.line, pos.col, e.message);
                result.passed = false;
                result.message = format!("found bug: {what}");
                return Verdict::Bug(what);
            }
            Ok(Outcome::Returned(_)) => {
                result.passed = true;
                result.message.clear();
                return Verdict::Passed(" (the bug it recorded no longer occurs)");
            }
            _ => {}
        }
    }
    if result.passed {
        Verdict::Passed("")
    } else {
        Verdict::Failed(result.describe(file))
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let limits = Limits { steps: args.steps, ..Limits::default() };
    let text = args.format == Format::Text;
    let mut out = TestReport {
        schema_version: heaplab_report::SCHEMA_VERSION,
        tests: Vec::new(),
        passed: 0,
        failed: 0,
        broken_files: Vec::new(),
    };
    let mut unreadable = 0;
    let mut bugs = 0;
    for path in &args.files {
        // A file that cannot be read is reported and counted; the others still run.
        let loaded = match load(path) {
            Ok(loaded) => loaded,
            Err(e) => {
                unreadable += 1;
                out.failed += 1;
                eprintln!("heaplab: error: {e:#}");
                if text {
                    crate::say!("FAIL {} (cannot be read)", path.display());
                }
                out.broken_files.push(CheckedFile {
                    file: path.display().to_string(),
                    diagnostics: vec![DiagnosticReport::unreadable(format!("{e:#}"))],
                });
                continue;
            }
        };
        let broken = if text { report(&loaded) } else { loaded.analysis.has_errors() };
        if broken {
            // A file that does not check cannot be run; count it as one failure so the
            // summary line never reports success for a broken file.
            if text {
                crate::say!(
                    "FAIL {} (does not type-check; see the errors above)",
                    loaded.file.name
                );
            }
            out.failed += 1;
            let diagnostics = loaded.analysis.diagnostics.iter();
            out.broken_files.push(CheckedFile {
                file: loaded.file.name.clone(),
                diagnostics: diagnostics.map(|d| DiagnosticReport::of(d, &loaded.file)).collect(),
            });
            continue;
        }
        let marked = bug_tests(&loaded.analysis.program);
        let results = run_tests(&loaded.analysis.program, &loaded.analysis.info, limits);
        for mut result in results {
            if let Some(filter) = &args.filter {
                if !result.name.contains(filter.as_str()) {
                    continue;
                }
            }
            let pos = loaded.file.line_col(result.span.start);
            let name = format!("{}:{}: {}", loaded.file.name, pos.line, result.name);
            let bug = marked.contains(result.name.as_str());
            match judge(&mut result, bug, &loaded.file) {
                Verdict::Passed(note) => {
                    out.passed += 1;
                    // `-q`: the failures, the bugs and the tally only.
                    if text && !style::quiet() {
                        let ok = style::paint(Stream::Stdout, Tone::Good, "ok");
                        crate::say!("{ok}   {name}{note}");
                    }
                }
                Verdict::Failed(why) => {
                    out.failed += 1;
                    if text {
                        let fail = style::paint(Stream::Stdout, Tone::Error, "FAIL");
                        crate::say!("{fail} {name}: {why}");
                    }
                }
                Verdict::Bug(what) => {
                    out.failed += 1;
                    bugs += 1;
                    if text {
                        let bug = style::paint(Stream::Stdout, Tone::Error, "BUG");
                        crate::say!("{bug}  {name}: {what}");
                    }
                }
            }
            let outcome = result
                .outcome
                .as_ref()
                .ok()
                .map(|o| OutcomeReport::of_run(o, o.describe(&loaded.file), &loaded.file));
            out.tests.push(TestResultReport {
                file: loaded.file.name.clone(),
                name: result.name.clone(),
                line: pos.line as u32,
                passed: result.passed,
                outcome,
                message: result.message.clone(),
                steps: result.steps,
            });
        }
    }
    if text {
        if bugs > 0 {
            crate::say!("{} passed, {} failed ({bugs} of them found bugs)", out.passed, out.failed);
        } else {
            crate::say!("{} passed, {} failed", out.passed, out.failed);
        }
    } else {
        super::print_json(&out)?;
    }
    Ok(ExitCode::from(if unreadable > 0 {
        super::exit::USAGE
    } else if out.failed > 0 {
        super::exit::FOUND
    } else {
        super::exit::OK
    }))
}
