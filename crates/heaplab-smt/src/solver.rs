//! The [`Solver`] trait, the text-level [`Transport`] it runs on, and [`SmtSolver`], the one
//! implementation that turns a [`Query`] into a script and the reply into an [`Answer`].
//!
//! Why boxed futures rather than `async fn` in the trait: the engine holds solvers as
//! `&dyn Solver` (to keep its long functions non-generic), and `async fn` in traits is not
//! dyn-compatible. The futures are not `Send`, because the wasm transport awaits a JS Promise.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use crate::error::Result;
use crate::print::build_script;
use crate::response::parse_check_response;
pub use crate::response::Answer;
use crate::sexp::check_balanced;
use crate::term::{Term, Var};

/// A heap-allocated future borrowing from `'a`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// One satisfiability question: is the conjunction of `assertions` satisfiable, and if so,
/// what values do the variables in `want` take?
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Query {
    pub assertions: Vec<Term>,
    pub want: Vec<Var>,
    /// Solver-side time limit in milliseconds. Default: [`Query::DEFAULT_TIMEOUT_MS`].
    pub timeout_ms: u32,
}

impl Query {
    /// Ten seconds: far above what a path condition needs, low enough that a runaway query
    /// cannot freeze the page.
    pub const DEFAULT_TIMEOUT_MS: u32 = 10_000;

    pub fn new(assertions: impl IntoIterator<Item = Term>) -> Query {
        Query {
            assertions: assertions.into_iter().collect(),
            want: Vec::new(),
            timeout_ms: Query::DEFAULT_TIMEOUT_MS,
        }
    }
    /// Asks for values of `vars` in the model.
    pub fn want(mut self, vars: impl IntoIterator<Item = Var>) -> Query {
        self.want.extend(vars);
        self
    }
    pub fn timeout_ms(mut self, ms: u32) -> Query {
        self.timeout_ms = ms;
        self
    }
    /// The SMT-LIB2 script for this query (see [`build_script`]).
    pub fn script(&self) -> String {
        build_script(&self.assertions, &self.want, self.timeout_ms)
    }
}

/// Answers satisfiability queries. Implemented by [`SmtSolver`] over any transport and by
/// [`crate::SolverFrontend`], which wraps another solver.
pub trait Solver {
    fn check<'a>(&'a self, query: &'a Query) -> BoxFuture<'a, Result<Answer>>;

    /// False for a stand-in that never answers (see [`crate::NoZ3`]); a
    /// [`crate::SolverFrontend`] then answers what its own procedure cannot decide `unknown`.
    fn is_present(&self) -> bool {
        true
    }
}

/// Moves SMT-LIB2 text to a solver and its printed output back: the only part that differs
/// between the `z3` process and Z3 wasm.
///
/// Contract: each `run` executes in its own scope (both transports wrap the script in
/// `(push 1)` ... `(pop 1)`), so no declarations or assertions of earlier scripts are visible,
/// provided scripts keep their own pushes and pops balanced. It returns everything the solver
/// printed for the script.
/// Solver `(error ...)` lines are part of the text, not an `Err`; `Err` means the transport
/// itself failed (not installed, crashed, timed out, could not load).
pub trait Transport {
    fn run<'a>(&'a self, script: &'a str) -> BoxFuture<'a, Result<String>>;
}

impl<T: Transport + ?Sized> Transport for Box<T> {
    fn run<'a>(&'a self, script: &'a str) -> BoxFuture<'a, Result<String>> {
        (**self).run(script)
    }
}

impl<S: Solver + ?Sized> Solver for Box<S> {
    fn check<'a>(&'a self, query: &'a Query) -> BoxFuture<'a, Result<Answer>> {
        (**self).check(query)
    }
    fn is_present(&self) -> bool {
        (**self).is_present()
    }
}

/// The one [`Solver`] implementation: build the script, send it through the transport,
/// parse the reply. Both backends share this code path, so they can only differ in transport.
#[derive(Debug)]
pub struct SmtSolver<T> {
    transport: T,
}

impl<T: Transport> SmtSolver<T> {
    pub fn new(transport: T) -> SmtSolver<T> {
        SmtSolver { transport }
    }
    pub fn transport(&self) -> &T {
        &self.transport
    }
    /// Sends raw SMT-LIB2 text and returns the solver's output text unchanged.
    ///
    /// The script must be lexically complete; an unbalanced one is rejected as
    /// [`crate::SolverError::Malformed`] before it reaches the solver.
    pub async fn run_text(&self, script: &str) -> Result<String> {
        check_balanced(script)?;
        self.transport.run(script).await
    }
    /// Runs a hand-written script that ends with `(check-sat)` (and optionally
    /// `(get-value ...)` for `want`) and parses the reply like any query's.
    pub async fn check_script(&self, script: &str, want: &[Var]) -> Result<Answer> {
        let reply = self.run_text(script).await?;
        parse_check_response(&reply, want)
    }
}

impl<T: Transport> Solver for SmtSolver<T> {
    fn check<'a>(&'a self, query: &'a Query) -> BoxFuture<'a, Result<Answer>> {
        Box::pin(async move {
            let script = query.script();
            let reply = self.transport.run(&script).await?;
            parse_check_response(&reply, &query.want)
        })
    }
}

struct ThreadWaker(std::thread::Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

/// Runs a future to completion on the current thread.
///
/// The native transport does its blocking work inside `poll`, so its futures are ready on the
/// first poll; this executor exists so that native callers need no async runtime. It also
/// handles futures that do wait, by parking until woken. Not for wasm (there is no blocking).
pub fn block_on<F: Future>(fut: F) -> F::Output {
    let mut fut = std::pin::pin!(fut);
    let waker = Waker::from(Arc::new(ThreadWaker(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        match fut.as_mut().poll(&mut cx) {
            Poll::Ready(v) => return v,
            Poll::Pending => std::thread::park(),
        }
    }
}
