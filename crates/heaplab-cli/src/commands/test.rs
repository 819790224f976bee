//! `heaplab test FILE...`: runs every `test` block in the concrete interpreter.

use super::{load, report};
use heaplab_engine::{run_tests, Limits};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// HeapLab source files (.hl).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Run only tests whose name contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Interpreter step limit per test.
    #[arg(long, default_value_t = Limits::default().steps)]
    steps: u64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let limits = Limits { steps: args.steps, ..Limits::default() };
    let (mut passed, mut failed) = (0usize, 0usize);
    for path in &args.files {
        let loaded = load(path)?;
        if report(&loaded) {
            // A file that does not check cannot be run; count it as one failure so the
            // summary line never reports success for a broken file.
            println!("FAIL {} (does not type-check; see the errors above)", loaded.file.name);
            failed += 1;
            continue;
        }
        let results = run_tests(&loaded.analysis.program, &loaded.analysis.info, limits);
        for result in results {
            if let Some(filter) = &args.filter {
                if !result.name.contains(filter.as_str()) {
                    continue;
                }
            }
            let pos = loaded.file.line_col(result.span.start);
            let name = format!("{}:{}: {}", loaded.file.name, pos.line, result.name);
            if result.passed {
                passed += 1;
                println!("ok   {name}");
            } else {
                failed += 1;
                println!("FAIL {name}: {}", result.describe(&loaded.file));
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
