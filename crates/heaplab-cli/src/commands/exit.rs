//! The exit codes every command uses (docs/cli.md has the table), so scripts and CI can tell
//! "ran, nothing found" from "found something", a wrong command line, a bound that cut the
//! run, and `sat`'s three answers.

use std::process::ExitCode;

/// The command ran and found nothing wrong.
pub const OK: u8 = 0;
/// It found something: errors in the input program, failing tests, a contract the code
/// breaks on a valid input, a duel's difference.
pub const FOUND: u8 = 1;
/// The command line is wrong (clap's usage errors), or the command could not run (a file it
/// cannot read or write, a solver that fails).
pub const USAGE: u8 = 2;
/// `--strict-bounds`: a bound stopped the run before it finished.
pub const BOUND: u8 = 3;
/// `sat`'s answers, as SAT solvers report them (unknown is 0).
pub const SAT: u8 = 10;
pub const UNSAT: u8 = 20;

/// The exit code of an exploring run (`run`, either driver): what it found first, then (with
/// `--strict-bounds`) whether a bound cut it.
pub fn of_run(
    spec_violations: usize,
    internal_errors: u64,
    cut_by_bound: bool,
    strict: bool,
) -> ExitCode {
    if spec_violations > 0 || internal_errors > 0 {
        ExitCode::from(FOUND)
    } else if strict && cut_by_bound {
        ExitCode::from(BOUND)
    } else {
        ExitCode::from(OK)
    }
}
