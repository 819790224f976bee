//! `heaplab check FILE...`

use super::{load, report_all};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// HeapLab source files (.hl).
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut errors = 0usize;
    for path in &args.files {
        let loaded = load(path)?;
        report_all(&loaded);
        errors += loaded.analysis.diagnostics.iter().filter(|d| d.is_error()).count();
    }
    if errors > 0 {
        let plural = if errors == 1 { "" } else { "s" };
        eprintln!("{errors} error{plural}");
        Ok(ExitCode::FAILURE)
    } else {
        Ok(ExitCode::SUCCESS)
    }
}
