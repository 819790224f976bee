//! One module per subcommand, plus the file loading they share.

pub mod check;
pub mod exec;
pub mod run;
pub mod sat;
pub mod serve;
pub mod test;

use anyhow::Context;
use heaplab_syntax::{analyze, diagnostic::render_all, Analysis, SourceFile};
use std::path::Path;

/// A source file read from disk together with its analysis.
pub struct Loaded {
    pub file: SourceFile,
    pub analysis: Analysis,
}

/// Reads and analyzes one file. IO problems are errors of the command; problems in the
/// program are diagnostics inside the analysis.
pub fn load(path: &Path) -> anyhow::Result<Loaded> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read `{}`", path.display()))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("`{}` is not UTF-8 text", path.display()))?;
    let file = SourceFile::new(path.display().to_string(), text);
    let analysis = analyze(&file);
    Ok(Loaded { file, analysis })
}

/// Prints a file's diagnostics to stderr; returns true when any is an error.
pub fn report(loaded: &Loaded) -> bool {
    let diags = &loaded.analysis.diagnostics;
    if !diags.is_empty() {
        eprint!("{}", render_all(diags, &loaded.file));
    }
    loaded.analysis.has_errors()
}
