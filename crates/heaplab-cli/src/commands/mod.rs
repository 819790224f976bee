//! One module per subcommand, plus the file loading they share.

pub mod bench;
pub mod check;
pub mod compare;
pub mod csf_table;
pub mod duel;
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
    let bytes = read_capped(path)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("`{}` is not UTF-8 text", path.display()))?;
    let file = SourceFile::new(path.display().to_string(), text);
    let mut analysis = analyze(&file);
    if !analysis.has_errors() {
        analysis.diagnostics.extend(predicate_diagnostics(&analysis.program));
        analysis.diagnostics.sort_by_key(|d| (d.span.start, d.severity));
    }
    Ok(Loaded { file, analysis })
}

/// The largest input file HeapLab reads (programs are a few kilobytes; `/dev/zero` is not).
pub const MAX_INPUT_BYTES: u64 = 8 * 1024 * 1024;

/// Reads at most [`MAX_INPUT_BYTES`] of `path`, failing with a clear message beyond that,
/// whatever the file is (a device, a pipe, a huge log).
pub fn read_capped(path: &Path) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read `{}`", path.display()))?;
    let mut bytes = Vec::new();
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read `{}`", path.display()))?;
    anyhow::ensure!(
        bytes.len() as u64 <= MAX_INPUT_BYTES,
        "`{}` is larger than {} MB, the most HeapLab reads as a program",
        path.display(),
        MAX_INPUT_BYTES / 1024 / 1024
    );
    Ok(bytes)
}

/// What the logic adds to the checker's verdict on predicates: definitions it cannot convert
/// (errors) and suspicious but legal ones (warnings: no base case, never satisfiable,
/// unreachable disjunct). Decided without Z3, so `check` works on a machine without it.
fn predicate_diagnostics(
    program: &heaplab_syntax::ast::Program,
) -> Vec<heaplab_syntax::Diagnostic> {
    let (defs, errors) = heaplab_logic::Defs::from_program(program);
    let mut diags: Vec<_> = errors.iter().map(heaplab_logic::Error::to_diagnostic).collect();
    if errors.is_empty() {
        diags.extend(heaplab_logic::check_predicates(program, &defs, &mut heaplab_logic::NoSolver));
    }
    diags
}

/// Prints a file's diagnostics to stderr; returns true when any is an error.
pub fn report(loaded: &Loaded) -> bool {
    let diags = &loaded.analysis.diagnostics;
    if !diags.is_empty() {
        eprint!("{}", render_all(diags, &loaded.file));
    }
    loaded.analysis.has_errors()
}
