//! `heaplab import-jsf FILE`: a Java StarFinder / Concolic StarFinder predicate file (`data`,
//! `pred`, `pre`, `.jpf` settings) as HeapLab source: classes, predicates with inferred types,
//! and the preconditions as comments to paste on the methods (`heaplab_syntax::jsf` translates;
//! this prints, writes and reports).

use super::read_capped;
use anyhow::Context;
use heaplab_syntax::{analyze, diagnostic::render_all, SourceFile};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The JSF/CSF file (`-` for standard input).
    file: PathBuf,
    /// Write the HeapLab text to this file instead of stdout (refused when it exists, unless
    /// `--force`).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Let `--out` replace an existing file.
    #[arg(long)]
    force: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let bytes = read_capped(&args.file)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("`{}` is not UTF-8 text", args.file.display()))?;
    let name = args.file.display().to_string();
    let (hl, diags) = heaplab_syntax::jsf::translate(&text);
    // The importer's spans are offsets into the JSF text: rendered against it.
    let source = SourceFile::new(name.clone(), text);
    if !diags.is_empty() {
        eprint!("{}", render_all(&diags, &source));
    }
    if diags.iter().any(|d| d.is_error()) {
        eprintln!("heaplab: `{name}` was not imported (errors above)");
        return Ok(ExitCode::from(super::exit::FOUND));
    }
    // What it wrote must be a HeapLab program that checks: otherwise it is a bug of the importer.
    let written = SourceFile::new(format!("{name} (imported)"), hl.clone());
    let analysis = analyze(&written);
    if analysis.has_errors() {
        eprint!("{}", render_all(&analysis.diagnostics, &written));
        anyhow::bail!("the imported text of `{name}` does not check: this is a HeapLab bug");
    }
    match &args.out {
        Some(path) => {
            if path.exists() && !args.force {
                anyhow::bail!(
                    "`{}` exists: not replaced (use --force to replace it)",
                    path.display()
                );
            }
            std::fs::write(path, &hl)
                .with_context(|| format!("cannot write `{}`", path.display()))?;
            eprintln!("heaplab: wrote {}", path.display());
        }
        None => {
            let _ = std::io::stdout().write_all(hl.as_bytes());
        }
    }
    Ok(ExitCode::SUCCESS)
}
