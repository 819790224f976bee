//! `heaplab run --dump-smt2 DIR`: every query the run sends to z3, as a standalone SMT-LIB file
//! (`DIR/query-0001.smt2`, …) that another solver can read (`z3 FILE`, `cvc5 FILE`): the logic
//! named, the answer z3 gave as `:status`, the script as z3 got it. Queries the Rust procedure
//! or the cache answered never reach the transport and are not written; their number is the
//! summary's `decided_locally` and `cached`.

use anyhow::Context;
use heaplab_engine::symbolic::{PathSolver, SmtPathSolver};
use heaplab_smt::{BoxFuture, SmtSolver, Transport, Z3Process};
use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The first line of every file written here: how a later run knows the file is its own.
const HEADER: &str = "; heaplab run ";

/// Where the files go and what was written.
pub struct DumpState {
    dir: PathBuf,
    /// What the files say they came from (`examples/bst.hl BST.insert sl`).
    origin: String,
    written: Cell<u32>,
    /// The first file that could not be written (the run goes on; the command reports it).
    failure: RefCell<Option<String>>,
}

impl DumpState {
    /// Makes `dir` and clears the query files an earlier dump left there, so the folder holds
    /// exactly this run's queries; a `query-*.smt2` that HeapLab did not write stops the run
    /// unless `force`.
    pub fn prepare(dir: &Path, origin: String, force: bool) -> anyhow::Result<Rc<DumpState>> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create `{}`", dir.display()))?;
        let entries =
            std::fs::read_dir(dir).with_context(|| format!("cannot read `{}`", dir.display()))?;
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if !(name.starts_with("query-") && name.ends_with(".smt2")) {
                continue;
            }
            let ours = std::fs::read_to_string(&path).is_ok_and(|t| t.starts_with(HEADER));
            anyhow::ensure!(
                ours || force,
                "`{}` was not written by HeapLab: not replaced (use --force to replace it)",
                path.display()
            );
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove `{}`", path.display()))?;
        }
        Ok(Rc::new(DumpState {
            dir: dir.to_path_buf(),
            origin,
            written: Cell::new(0),
            failure: RefCell::new(None),
        }))
    }

    /// (files written, the first write failure).
    pub fn report(&self) -> (u32, Option<String>) {
        (self.written.get(), self.failure.borrow().clone())
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// The run's path solver over `z3`, writing every query it sends when `dump` is given.
pub fn path_solver(z3: Z3Process, dump: Option<&Rc<DumpState>>) -> Box<dyn PathSolver> {
    match dump {
        Some(state) => Box::new(SmtPathSolver::new(SmtSolver::new(Dumping {
            inner: z3,
            state: Rc::clone(state),
        }))),
        None => Box::new(SmtPathSolver::new(SmtSolver::new(z3))),
    }
}

/// A transport that forwards each script to `inner` and writes it with z3's answer.
struct Dumping<T> {
    inner: T,
    state: Rc<DumpState>,
}

/// `sat`, `unsat` or `unknown` from z3's reply to a script (its first line).
fn status(reply: &str) -> &'static str {
    match reply.lines().map(str::trim).find(|l| !l.is_empty()) {
        Some("sat") => "sat",
        Some("unsat") => "unsat",
        _ => "unknown",
    }
}

/// The script as a file of its own: the logic and the expected status first, then the script
/// as z3 got it (its `(set-option :timeout …)` included; other solvers ignore or warn on it).
fn file_text(origin: &str, n: u32, script: &str, status: &str) -> String {
    format!(
        "{HEADER}{origin}: query {n} sent to z3\n(set-info :smt-lib-version 2.6)\n(set-logic ALL)\n(set-info :status {status})\n{script}"
    )
}

impl<T: Transport> Transport for Dumping<T> {
    fn run<'a>(&'a self, script: &'a str) -> BoxFuture<'a, heaplab_smt::Result<String>> {
        Box::pin(async move {
            let reply = self.inner.run(script).await?;
            let state = &self.state;
            let n = state.written.get() + 1;
            let path = state.dir.join(format!("query-{n:04}.smt2"));
            match std::fs::write(&path, file_text(&state.origin, n, script, status(&reply))) {
                Ok(()) => state.written.set(n),
                Err(e) => {
                    let mut failure = state.failure.borrow_mut();
                    failure
                        .get_or_insert_with(|| format!("cannot write `{}`: {e}", path.display()));
                }
            }
            Ok(reply)
        })
    }
}
