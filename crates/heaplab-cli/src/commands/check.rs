//! `heaplab check FILE...` (`--format json`: a `CheckReport`).

use super::{load, report_all, Format};
use heaplab_report::commands::CheckedFile;
use heaplab_report::{CheckReport, DiagnosticReport, SCHEMA_VERSION};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Source files: HeapLab (.hl) or Java (.java).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format: diagnostics as text on stderr, or one JSON document on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut errors = 0usize;
    let mut files = Vec::new();
    let mut unreadable = 0;
    for path in &args.files {
        // A file that cannot be read is reported; the others are still checked.
        let loaded = match load(path) {
            Ok(loaded) => loaded,
            Err(e) => {
                unreadable += 1;
                eprintln!("heaplab: error: {e:#}");
                files.push(CheckedFile {
                    file: path.display().to_string(),
                    diagnostics: vec![DiagnosticReport::unreadable(format!("{e:#}"))],
                });
                continue;
            }
        };
        if args.format == Format::Text {
            report_all(&loaded);
        }
        errors += loaded.analysis.diagnostics.iter().filter(|d| d.is_error()).count();
        let diagnostics = loaded.analysis.diagnostics.iter();
        files.push(CheckedFile {
            file: loaded.file.name.clone(),
            diagnostics: diagnostics.map(|d| DiagnosticReport::of(d, &loaded.file)).collect(),
        });
    }
    if args.format == Format::Json {
        let report = CheckReport { schema_version: SCHEMA_VERSION, files, errors: errors as u64 };
        super::print_json(&report)?;
    } else if errors > 0 {
        let plural = if errors == 1 { "" } else { "s" };
        eprintln!("{errors} error{plural}");
    }
    Ok(ExitCode::from(if unreadable > 0 {
        super::exit::USAGE
    } else if errors > 0 {
        super::exit::FOUND
    } else {
        super::exit::OK
    }))
}
