//! `heaplab`: the command-line front end. Thin by design: it reads files, calls the library crates
//! and prints; every decision about programs lives in those crates.

mod commands;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "heaplab",
    version,
    about = "Symbolic execution of heap-manipulating programs: check, test and explore HeapLab (.hl) programs",
    after_help = "Examples:\n  heaplab check examples/*.hl\n  heaplab test examples/bst.hl\n  heaplab exec examples/sll.hl --call 'length(new Node { val: 1 })'"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
        after_help = "Examples:\n  heaplab exec examples/bst.hl --call 'height(null)'\n  heaplab exec examples/sll.hl --call 'length(new Node { val: 1 })' --heap"
    )]
    Exec(commands::exec::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(args) => commands::check::run(args),
        Command::Test(args) => commands::test::run(args),
        Command::Exec(args) => commands::exec::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("heaplab: error: {err:#}");
            ExitCode::from(2)
        }
    }
}
