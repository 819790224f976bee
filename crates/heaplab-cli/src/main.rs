//! `heaplab`: the command-line front end. Thin by design: it reads files, calls the library crates
//! and prints; every decision about programs lives in those crates.

mod commands;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "heaplab",
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("HEAPLAB_COMMIT"), ")"),
    about = "Symbolic execution of heap-manipulating programs: check, test and explore HeapLab (.hl) programs and Java classes (.java)",
    after_help = "Examples:\n  heaplab check examples/*.hl\n  heaplab test examples/bst.hl\n  heaplab exec examples/sll.hl --call 'len(new Node { elem: 1 })'"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Read every file in this language instead of choosing by extension (`.java` is Java,
    /// anything else HeapLab).
    #[arg(long, global = true, value_enum)]
    lang: Option<commands::Lang>,
    /// Print results and errors only: no progress line, no warnings, no notes.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Print more: the bounds in effect before a run starts.
    #[arg(short, long, global = true)]
    verbose: bool,
    /// Colour the output: on a terminal unless NO_COLOR is set (auto), always, or never.
    #[arg(long, global = true, value_enum, default_value_t = commands::style::ColorChoice::Auto)]
    color: commands::style::ColorChoice,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and type-check files; print diagnostics. Exit 0 when there are no errors.
    #[command(after_help = "Example:\n  heaplab check examples/*.hl")]
    Check(commands::check::Args),
    /// Run every `test` block; one line per test and a final `N passed, N failed`.
    #[command(
        after_help = "Example:\n  heaplab test examples/*.hl\n  heaplab test examples/bst.hl --filter insert"
    )]
    Test(commands::test::Args),
    /// Evaluate one expression (typically a call) on a fresh heap and print its result.
    #[command(
        after_help = "Examples:\n  heaplab exec examples/bst.hl --call 'size(null)'\n  heaplab exec examples/sll.hl --call 'len(new Node { elem: 1 })' --heap"
    )]
    Exec(commands::exec::Args),
    /// Explore a method symbolically with a heap strategy; generate and replay tests. Exit 1 when
    /// the code breaks an `ensures` on a valid input (docs/cli.md lists every exit code).
    #[command(
        after_help = "Examples:\n  heaplab run examples/bst.hl --method BST.insert --strategy 'lazier#' --k 2\n  heaplab run examples/swap.hl --method Node.swap --strategy lazy --trace\n  heaplab run examples/bst.hl --method BST.findMin --pre ignore --emit hl --out generated/"
    )]
    Run(commands::run::Args),
    /// Run several heap strategies on one method; one row per strategy (text or JSON).
    #[command(
        after_help = "Example:\n  heaplab compare examples/bst.hl --method BST.insert --format json"
    )]
    Compare(commands::compare::Args),
    /// A duel: does a method behave like a reference on every valid input up to the bounds?
    /// Prints the inputs on which they differ and exits 1; exits 0 when none exists up to the
    /// bounds (naming the bounds that limited the search); 2 when the duel cannot run.
    #[command(
        after_help = "Example:\n  heaplab duel examples/duels/bst-insert.hl --method BST.insert --reference insertRef --k 3"
    )]
    Duel(commands::duel::Args),
    /// Grade submissions: one row per file and method (checks, contract violations and crashes on
    /// valid inputs with a counterexample, tests, coverage, bounds), as CSV or JSON. Exit 1 when
    /// any row is flagged.
    #[command(after_help = "Example:
  heaplab grade submissions/ --method SLL.remove --jobs 2 --summary csv --out grades.csv")]
    Grade(commands::grade::Args),
    /// Translate a Java StarFinder / Concolic StarFinder predicate file (data, pred, pre) into
    /// HeapLab classes and predicates. Exit 1 when the file has errors.
    #[command(
        after_help = "Example:\n  heaplab import-jsf sll.jsf --out sll.hl && heaplab check sll.hl"
    )]
    ImportJsf(commands::import_jsf::Args),
    /// Add up the JSON summaries of the shards of one run (`heaplab run --shard I/N`) into the
    /// whole run's summary. Exit 1 when the run broke a contract on a valid input, as `run`.
    #[command(after_help = "Example:
  for i in 1 2 3; do heaplab run examples/bst.hl --method BST.insert --shard $i/3 --format json > s$i.json; done
  heaplab merge s1.json s2.json s3.json")]
    Merge(commands::merge::Args),
    /// Decide satisfiability of a separation-logic formula; print a model or enumerate models.
    /// Exit 10 for sat, 20 for unsat, 0 for unknown, as SAT solvers do.
    #[command(
        after_help = "Examples:\n  heaplab sat examples/bst.hl --formula 'bst(x, 0, 100)'\n  heaplab sat examples/bst.hl --formula 'bst(x, 0, 100)' --enumerate 3 --count"
    )]
    Sat(commands::sat::Args),
    /// Benchmark every example method with a `requires` under each strategy (markdown or JSON).
    #[command(
        after_help = "Example:\n  heaplab bench --strategies lazy,lazier,lazier# --format md --out bench/results.md"
    )]
    Bench(commands::bench::Args),
    /// CSF's Table 1 next to HeapLab's `concolic` on the same subjects (markdown).
    #[command(after_help = "Example:\n  heaplab csf-table --into docs/symbolic.md")]
    CsfTable(commands::csf_table::Args),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) for heaplab.
    #[command(
        after_help = "Example:\n  heaplab completions bash > ~/.local/share/bash-completion/completions/heaplab"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print heaplab's man page (roff), generated from the same definitions as --help.
    #[command(after_help = "Example:\n  heaplab man > heaplab.1 && man ./heaplab.1")]
    Man,
    /// Serve the web playground (a folder) with the headers Z3 wasm needs.
    #[command(after_help = "Example:\n  heaplab serve web/dist --port 8000")]
    Serve(commands::serve::Args),
}

/// Counts the bytes the process holds, for the memory bound of runs (`--max-memory-mb`), over
/// mimalloc: runs allocate and free small terms, clauses and states by the million, and glibc's
/// allocator spent a quarter to a third of a run in `malloc`/`free` and their consolidation
/// (BST `insert` under `symheap` at k = 3: 33.5 s with it, 23.9 s with mimalloc; AVL `insert`
/// under `lazy` 1.87 s → 1.46 s).
#[global_allocator]
static ALLOCATOR: cap::Cap<mimalloc::MiMalloc> = cap::Cap::new(mimalloc::MiMalloc, usize::MAX);

/// Resident memory of this process, in bytes, where the system tells (Linux).
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

fn main() -> ExitCode {
    heaplab_engine::memory::install_meter(|| ALLOCATOR.allocated());
    heaplab_engine::memory::install_resident_meter(resident_bytes);
    let cli = Cli::parse();
    if let Some(lang) = cli.lang {
        commands::set_lang(lang);
    }
    let verbosity = match (cli.quiet, cli.verbose) {
        (true, _) => commands::style::Verbosity::Quiet,
        (_, true) => commands::style::Verbosity::Verbose,
        _ => commands::style::Verbosity::Normal,
    };
    commands::style::set(verbosity, cli.color);
    let result = match cli.command {
        Command::Check(args) => commands::check::run(args),
        Command::Test(args) => commands::test::run(args),
        Command::Exec(args) => commands::exec::run(args),
        Command::Run(args) => commands::run::run(args),
        Command::Compare(args) => commands::compare::run(args),
        Command::Sat(args) => commands::sat::run(args),
        Command::Duel(args) => commands::duel::run(args),
        Command::Grade(args) => commands::grade::run(args),
        Command::Merge(args) => commands::merge::run(args),
        Command::ImportJsf(args) => commands::import_jsf::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::CsfTable(args) => commands::csf_table::run(args),
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut cmd, "heaplab", &mut std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Command::Man => {
            let cmd = <Cli as clap::CommandFactory>::command();
            let mut page = Vec::new();
            clap_mangen::Man::new(cmd)
                .render(&mut page)
                .map_err(anyhow::Error::from)
                .and_then(|()| {
                    use std::io::Write as _;
                    std::io::stdout().write_all(&page).map_err(anyhow::Error::from)
                })
                .map(|()| ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            use commands::style::{paint, Stream, Tone};
            eprintln!("heaplab: {}: {err:#}", paint(Stream::Stderr, Tone::Error, "error"));
            ExitCode::from(commands::exit::USAGE)
        }
    }
}
