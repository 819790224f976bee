//! One module per subcommand, plus the file loading they share.

pub mod bench;
pub mod bound_flags;
pub mod check;
pub mod compare;
pub mod csf_table;
pub mod duel;
pub mod dump_smt2;
pub mod exec;
pub mod exit;
pub mod grade;
pub mod import_jsf;
pub mod merge;
pub mod progress;
pub mod run;
pub mod sat;
pub mod serve;
pub mod style;
pub mod test;

use anyhow::Context;
use heaplab_engine::symbolic::{Clock, CoarseTime};
use std::time::Instant;

/// Milliseconds since `since` on the wall clock, read sparingly ([`CoarseTime`]): the clock of
/// every native run's time bound.
pub struct WallClock(CoarseTime);

impl WallClock {
    /// A clock started now.
    pub fn new() -> WallClock {
        WallClock::since(Instant::now())
    }

    /// A clock started at `since` (runs that share one time bound).
    pub fn since(since: Instant) -> WallClock {
        WallClock(CoarseTime::new(move || since.elapsed().as_secs_f64() * 1000.0))
    }
}

impl WallClock {
    /// Milliseconds since the start, read now (for reports).
    pub fn elapsed_ms(&self) -> u64 {
        self.0.exact() as u64
    }
}

impl Clock for WallClock {
    fn now_ms(&self) -> u64 {
        self.0.now() as u64
    }

    fn exact_ms(&self) -> u64 {
        self.0.exact() as u64
    }
}

use heaplab_syntax::{analyze, diagnostic::render_all, Analysis, SourceFile};
use std::path::Path;

/// How a command prints what it found: for people, or as one JSON document of the report
/// vocabulary (`heaplab_report`, schema in `docs/report.schema.json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// The z3 process at `program`, started on its first query: a run whose every question the
/// Rust procedure decides never needs a z3 (a failure to start is then the path solver's
/// `broken()`, reported as an error naming the solver).
pub fn z3(program: &str) -> heaplab_smt::Z3Process {
    let mut process = heaplab_smt::ProcessConfig::default();
    process.program = std::path::PathBuf::from(program);
    heaplab_smt::Z3Process::new(process)
}

/// The z3 process at `program`, started now and ready (it has answered): for the commands that
/// ask it something on every run (the logic's oracle, the bench's timings). Waiting for its
/// answer keeps z3's own start out of what they time: it ran beside the first steps of each
/// bench row, and on two loaded cores slowed them (avlcmp.hl `AvlTree.isEmpty` under `lazy`
/// read 9–15 ms in the bench, 8 ms alone).
pub fn started_z3(program: &str) -> anyhow::Result<heaplab_smt::Z3Process> {
    let z3 = z3(program);
    let failed =
        |e: heaplab_smt::SolverError| anyhow::anyhow!("cannot start the solver `{program}`: {e}");
    z3.start().map_err(failed)?;
    z3.run_blocking("").map_err(failed)?;
    Ok(z3)
}

/// Prints one JSON document of the report vocabulary on stdout; a closed stdout (`| head`) is
/// not an error of the command.
pub fn print_json<T: serde::Serialize>(document: &T) -> anyhow::Result<()> {
    use std::io::Write;
    let text = serde_json::to_string_pretty(document)?;
    let _ = writeln!(std::io::stdout(), "{text}");
    Ok(())
}

/// `println!` that ignores a closed stdout instead of panicking.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// A source file read from disk together with its analysis.
pub struct Loaded {
    pub file: SourceFile,
    pub analysis: Analysis,
    /// For a `.java` file: the Java names behind the lowered program.
    pub java: Option<heaplab_java::JavaMap>,
    /// Milliseconds from reading the file to a checked program (the predicates' lints after
    /// it not counted): the part of loading that a run timed from the program's text, as the
    /// page's runs are (they parse the source and lint nothing), counts.
    pub read_ms: f64,
}

impl Loaded {
    /// The program's name for a method the user named: a Java file's `Class.method` (or an
    /// overload's `Class.method(Type)`) resolves to its lowered target; a `.hl` name is itself.
    pub fn target(&self, name: &str) -> anyhow::Result<String> {
        match &self.java {
            Some(map) => {
                map.find_target(name).map(|m| m.target.clone()).map_err(|e| anyhow::anyhow!("{e}"))
            }
            None => {
                let targets = self.analysis.program.targets();
                if targets.iter().any(|t| t == name) {
                    return Ok(name.to_string());
                }
                // Say what could have been meant: the methods of that name, else all of them.
                let short = name.rsplit('.').next().unwrap_or(name);
                let same: Vec<&String> =
                    targets.iter().filter(|t| t.rsplit('.').next() == Some(short)).collect();
                let (what, list) = match same.is_empty() {
                    false => (format!("`{short}` is"), same),
                    true => ("its methods:".to_string(), targets.iter().collect()),
                };
                let shown: Vec<&str> = list.iter().take(40).map(|t| t.as_str()).collect();
                let more = if list.len() > 40 {
                    format!(", … ({} in all)", list.len())
                } else {
                    String::new()
                };
                anyhow::bail!(
                    "no method `{name}` in `{}`; {what} {}{more}",
                    self.file.name,
                    shown.join(", ")
                )
            }
        }
    }
}

/// The language a source file is read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    /// HeapLab's own language.
    Hl,
    /// The Java subset with JML-style specs (docs/java.md).
    Java,
}

/// `--lang`, when given: it overrides the file extension for every file of the command.
static LANG: std::sync::OnceLock<Lang> = std::sync::OnceLock::new();

/// Reads every file of this process in `lang` (set once, from `--lang`, before any file is read).
pub fn set_lang(lang: Lang) {
    let _ = LANG.set(lang);
}

/// The language of a file: `--lang` when given, else `.java` files are Java and all others
/// HeapLab.
pub fn lang_of(path: &Path) -> Lang {
    if let Some(lang) = LANG.get() {
        return *lang;
    }
    if is_stdin(path) {
        // No extension to go by: the text decides (as the page does), in `load`.
        return Lang::Hl;
    }
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("java")) {
        Lang::Java
    } else {
        Lang::Hl
    }
}

/// Reads and analyzes one file. IO problems are errors of the command; problems in the
/// program are diagnostics inside the analysis.
pub fn load(path: &Path) -> anyhow::Result<Loaded> {
    let started = std::time::Instant::now();
    let bytes = read_capped(path)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| anyhow::anyhow!("`{}` is not UTF-8 text", path.display()))?;
    let name = if is_stdin(path) { "<stdin>".to_string() } else { path.display().to_string() };
    let file = SourceFile::new(name, text);
    let java_text =
        is_stdin(path) && LANG.get().is_none() && heaplab_java::looks_like_java(&file.text);
    let (mut analysis, java) = if lang_of(path) == Lang::Java || java_text {
        let j = heaplab_java::analyze(&file);
        (j.analysis, Some(j.map))
    } else {
        let mut a = analyze(&file);
        let hint = if !a.has_errors() {
            None
        } else if heaplab_java::looks_like_java(&file.text) {
            Some("this looks like Java: HeapLab reads Java from `.java` files (or with `--lang java`)".to_string())
        } else if heaplab_syntax::jsf::looks_like_jsf(&file.text) {
            Some(format!(
                "this looks like a JSF/CSF predicate file: `heaplab import-jsf {}` translates it to HeapLab",
                file.name
            ))
        } else {
            None
        };
        if let (Some(hint), Some(first)) = (hint, a.diagnostics.iter_mut().find(|d| d.is_error())) {
            first.notes.push(hint);
        }
        (a, None)
    };
    let read_ms = started.elapsed().as_secs_f64() * 1000.0;
    heaplab_session::program::add_predicate_diagnostics(&mut analysis);
    Ok(Loaded { file, analysis, java, read_ms })
}

/// Loads `path` and resolves `method` in it (a Java file's overloads are renamed in the lowered
/// program): `None` once the file's errors or the unknown method are reported on stderr.
pub fn load_method(path: &Path, method: &str) -> anyhow::Result<Option<(Loaded, String)>> {
    let loaded = load(path)?;
    if report(&loaded) {
        return Ok(None);
    }
    match loaded.target(method) {
        Ok(target) => Ok(Some((loaded, target))),
        Err(e) => {
            eprintln!("heaplab: error: {e}");
            Ok(None)
        }
    }
}

/// The largest input file HeapLab reads (programs are a few kilobytes; `/dev/zero` is not).
pub const MAX_INPUT_BYTES: u64 = 8 * 1024 * 1024;

/// `-`: the program comes from standard input, as in most command-line tools.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads at most [`MAX_INPUT_BYTES`] of `path` (standard input for `-`), failing with a clear
/// message beyond that, whatever the file is (a device, a pipe, a huge log).
pub fn read_capped(path: &Path) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    if is_stdin(path) {
        let mut bytes = Vec::new();
        std::io::stdin()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
        anyhow::ensure!(
            bytes.len() as u64 <= MAX_INPUT_BYTES,
            "standard input is larger than {} MB, the most HeapLab reads as a program",
            MAX_INPUT_BYTES / 1024 / 1024
        );
        return Ok(bytes);
    }
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

/// Prints a file's diagnostics to stderr; returns true when any is an error. A Java file's
/// warnings (methods left out of the subset) are summed up in one line: `heaplab check` shows
/// them in full.
pub fn report(loaded: &Loaded) -> bool {
    let diags = &loaded.analysis.diagnostics;
    if loaded.java.is_some() {
        let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).cloned().collect();
        if !errors.is_empty() {
            eprint!("{}", style::diagnostics(&render_all(&errors, &loaded.file)));
        }
        let warnings = diags.len() - errors.len();
        if warnings > 0 && errors.is_empty() && !style::quiet() {
            eprintln!(
                "heaplab: {}: {warnings} warnings about code outside the Java subset (heaplab check {} shows them)",
                loaded.file.name,
                if loaded.file.name == "<stdin>" { "-" } else { &loaded.file.name }
            );
        }
    } else if !diags.is_empty() {
        eprint!("{}", style::diagnostics(&render_all(diags, &loaded.file)));
    }
    loaded.analysis.has_errors()
}

/// Prints every diagnostic of a file (`heaplab check`); returns true when any is an error.
pub fn report_all(loaded: &Loaded) -> bool {
    let diags = &loaded.analysis.diagnostics;
    if !diags.is_empty() {
        eprint!("{}", style::diagnostics(&render_all(diags, &loaded.file)));
    }
    loaded.analysis.has_errors()
}
