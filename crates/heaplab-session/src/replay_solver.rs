//! The explorer's solver over a host that answers later (Z3 wasm): restart and replay.
//!
//! The explorer is synchronous; such a host is not. The bridge is the explorer's asynchronous
//! solver protocol ([`SatAnswer::Pending`]): [`AsyncPathSolver`] goes through the same
//! `heaplab_smt` stack as the CLI (frontend with local decisions and cache, SMT-LIB2 script
//! building, response parsing), but its transport only answers scripts whose reply it already
//! has. A script it has no reply for is recorded and the query answered "pending"; the explorer
//! undoes the step and returns `Event::SolverPending`. The host's loop sends each recorded
//! script to the solver, stores the reply (keyed by the script text) and steps again, which
//! re-executes the same instruction with the answer available.
//!
//! Solver counts: a step that was undone re-runs its queries, so the counts it made are taken
//! back (`adjust`); a query answered on re-execution may then count as a cache hit where the
//! CLI counted it as sent (the split can differ, the totals of paths and tests cannot).

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use heaplab_engine::symbolic::{
    smt::{
        check_in_slice, query_timeout_ms, read_model, read_whole_model, to_term, wanted, SliceIds,
    },
    Model, PathSolver, SatAnswer, SolverCounts, Sort, Sym,
};
use heaplab_smt::{
    batch_script, split_batch_reply, Answer, BoxFuture, NoZ3, Query, SmtSolver, Solver,
    SolverError, SolverFrontend, Stats, Transport, Var,
};

/// The marker error of a script that has no reply yet.
const PENDING: &str = "solver reply pending";

/// Replies by script text and the scripts still waiting for one; shared by the transport, the
/// path solver and the async loop.
#[derive(Default)]
pub struct Bridge {
    pub replies: HashMap<String, String>,
    pub outstanding: Vec<String>,
    /// Set by the transport when it met a script without a reply.
    pub missed: bool,
    /// Counts of undone steps, taken back from the frontend's.
    pub adjust: SolverCounts,
    /// Transport calls that carried several scripts at once (see `resolve`).
    pub batched_calls: u64,
    /// Milliseconds spent awaiting the host's `solve` (Z3 wasm), in `resolve`.
    pub wait_ms: f64,
}

pub type Shared = Rc<RefCell<Bridge>>;

/// A transport that only answers from stored replies; any other script is recorded.
#[derive(Clone)]
pub struct ReplayTransport(pub Shared);

impl Transport for ReplayTransport {
    fn run<'a>(&'a self, script: &'a str) -> BoxFuture<'a, Result<String, SolverError>> {
        let mut b = self.0.borrow_mut();
        let res = match b.replies.get(script) {
            Some(text) => Ok(text.clone()),
            None => {
                b.missed = true;
                if !b.outstanding.iter().any(|s| s == script) {
                    b.outstanding.push(script.to_string());
                }
                Err(SolverError::Io(PENDING.into()))
            }
        };
        Box::pin(std::future::ready(res))
    }
}

/// Polls a future once; every future of the stack over [`ReplayTransport`] is ready at once.
fn poll_now<F: Future>(fut: F) -> Option<F::Output> {
    let mut fut = std::pin::pin!(fut);
    let mut cx = Context::from_waker(Waker::noop());
    match fut.as_mut().poll(&mut cx) {
        Poll::Ready(v) => Some(v),
        Poll::Pending => None,
    }
}

pub fn sub(a: SolverCounts, b: SolverCounts) -> SolverCounts {
    SolverCounts {
        sent: a.sent.saturating_sub(b.sent),
        decided_locally: a.decided_locally.saturating_sub(b.decided_locally),
        cached: a.cached.saturating_sub(b.cached),
        failed: a.failed.saturating_sub(b.failed),
    }
}

pub fn add(a: SolverCounts, b: SolverCounts) -> SolverCounts {
    SolverCounts {
        sent: a.sent + b.sent,
        decided_locally: a.decided_locally + b.decided_locally,
        cached: a.cached + b.cached,
        failed: a.failed + b.failed,
    }
}

/// What became of one query.
enum Reply {
    Answer(Answer),
    Failed,
    Pending,
}

/// Z3 through a transport `T` (the replay transport, or the host's own in `Z3Solver`), or no
/// Z3 at all (a page without SharedArrayBuffer cannot load Z3 wasm).
pub enum Backend<T: Transport> {
    Z3(SmtSolver<T>),
    None(NoZ3),
}

impl<T: Transport> Backend<T> {
    /// Z3 through `transport`, or none.
    pub fn new(transport: Option<T>) -> Backend<T> {
        match transport {
            Some(t) => Backend::Z3(SmtSolver::new(t)),
            None => Backend::None(NoZ3),
        }
    }

    /// The SMT solver, for raw scripts; without Z3 a `WasmLoad` error.
    pub fn smt(&self) -> Result<&SmtSolver<T>, SolverError> {
        match self {
            Backend::Z3(s) => Ok(s),
            Backend::None(_) => Err(SolverError::WasmLoad(
                "no Z3 in this page: raw SMT-LIB2 scripts need Z3 wasm".into(),
            )),
        }
    }
}

impl<T: Transport> Solver for Backend<T> {
    fn check<'a>(&'a self, query: &'a Query) -> BoxFuture<'a, Result<Answer, SolverError>> {
        match self {
            Backend::Z3(s) => s.check(query),
            Backend::None(n) => n.check(query),
        }
    }
    fn is_present(&self) -> bool {
        matches!(self, Backend::Z3(_))
    }
}

pub type Frontend = SolverFrontend<Backend<ReplayTransport>>;

/// `a - b`, field by field (the counts of undone steps).
pub fn stats_sub(a: Stats, b: Stats) -> Stats {
    Stats {
        queries: a.queries.saturating_sub(b.queries),
        solver_calls: a.solver_calls.saturating_sub(b.solver_calls),
        decided_locally: a.decided_locally.saturating_sub(b.decided_locally),
        decided_by_procedure: a.decided_by_procedure.saturating_sub(b.decided_by_procedure),
        cache_hits: a.cache_hits.saturating_sub(b.cache_hits),
        outside_fragment: a.outside_fragment.saturating_sub(b.outside_fragment),
        unanswered: a.unanswered.saturating_sub(b.unanswered),
        solver_time_ms: a.solver_time_ms,
    }
}

pub fn stats_add(a: Stats, b: Stats) -> Stats {
    Stats {
        queries: a.queries + b.queries,
        solver_calls: a.solver_calls + b.solver_calls,
        decided_locally: a.decided_locally + b.decided_locally,
        decided_by_procedure: a.decided_by_procedure + b.decided_by_procedure,
        cache_hits: a.cache_hits + b.cache_hits,
        outside_fragment: a.outside_fragment + b.outside_fragment,
        unanswered: a.unanswered + b.unanswered,
        solver_time_ms: a.solver_time_ms,
    }
}

/// The explorer's [`PathSolver`] over the replay transport (see the module docs).
pub struct AsyncPathSolver {
    pub frontend: Rc<Frontend>,
    slices: SliceIds,
    bridge: Shared,
    local: u64,
    failed: u64,
    /// See [`PathSolver::last_unknown`].
    last_unknown: Option<String>,
    /// See [`PathSolver::set_time_left`]: Z3 wasm's limit for one query.
    time_left_ms: Option<u64>,
}

impl AsyncPathSolver {
    /// A reply as the explorer sees it, the model read by `read`; an unknown answer is
    /// counted as failed.
    fn answered(
        &mut self,
        reply: Reply,
        read: impl FnOnce(&heaplab_smt::Model) -> Model,
    ) -> (SatAnswer, Option<Model>) {
        match reply {
            Reply::Answer(Answer::Sat(m)) => (SatAnswer::Sat, Some(read(&m))),
            Reply::Answer(Answer::Unsat) => (SatAnswer::Unsat, None),
            Reply::Answer(Answer::Unknown(why)) => {
                self.failed += 1;
                self.last_unknown = Some(why);
                (SatAnswer::Unknown, None)
            }
            Reply::Failed => (SatAnswer::Unknown, None),
            Reply::Pending => (SatAnswer::Pending, None),
        }
    }

    /// With Z3 (`z3`: replies come through the bridge) or without; `procedure`: see
    /// [`SolverFrontend::with_procedure`]; `now`: the host's clock in milliseconds.
    pub fn new(bridge: Shared, z3: bool, procedure: bool, now: fn() -> f64) -> AsyncPathSolver {
        let backend = Backend::new(z3.then(|| ReplayTransport(Rc::clone(&bridge))));
        AsyncPathSolver {
            frontend: Rc::new(SolverFrontend::with_clock(backend, now).with_procedure(procedure)),
            slices: SliceIds::default(),
            bridge,
            local: 0,
            failed: 0,
            last_unknown: None,
            time_left_ms: None,
        }
    }

    fn query(&mut self, conjuncts: &[Sym], want: Vec<Var>) -> Reply {
        let mut terms = Vec::with_capacity(conjuncts.len());
        for c in conjuncts {
            match to_term(c) {
                Some(t) => terms.push(t),
                None => {
                    self.failed += 1;
                    return Reply::Failed;
                }
            }
        }
        let mut q = Query::new(terms).want(want);
        // One Z3 query may not carry the run past its time bound (Z3's own limit is 10 s).
        if let Some(left) = self.time_left_ms {
            q = q.timeout_ms(query_timeout_ms(left));
        }
        self.bridge.borrow_mut().missed = false;
        let res = poll_now(self.frontend.check(&q));
        let missed = std::mem::take(&mut self.bridge.borrow_mut().missed);
        match res {
            Some(Ok(a)) => Reply::Answer(a),
            _ if missed => Reply::Pending,
            _ => {
                self.failed += 1;
                Reply::Failed
            }
        }
    }
}

impl PathSolver for AsyncPathSolver {
    fn check_with_model(
        &mut self,
        conjuncts: &[Sym],
        vars: &[(u32, Sort)],
    ) -> (SatAnswer, Option<Model>) {
        let reply = self.query(conjuncts, wanted(vars));
        self.answered(reply, |m| read_model(m, vars))
    }

    fn check_keeping_model(&mut self, conjuncts: &[Sym]) -> (SatAnswer, Option<Model>) {
        let reply = match check_in_slice(&self.frontend, &mut self.slices, conjuncts) {
            Some(answer) => Reply::Answer(answer),
            None => self.query(conjuncts, Vec::new()),
        };
        self.answered(reply, read_whole_model)
    }

    fn counts(&self) -> SolverCounts {
        let s = self.frontend.stats();
        let raw = SolverCounts {
            sent: s.solver_calls,
            decided_locally: s.decided_locally + self.local,
            cached: s.cache_hits,
            failed: self.failed,
        };
        sub(raw, self.bridge.borrow().adjust)
    }

    fn note_local(&mut self) {
        self.local += 1;
    }

    fn last_unknown(&self) -> Option<String> {
        self.last_unknown.clone()
    }

    fn set_time_left(&mut self, ms: Option<u64>) {
        self.time_left_ms = ms;
    }

    fn is_async(&self) -> bool {
        true
    }
}

/// Runs `scripts` through `transport` and stores the replies in `bridge`. Several scripts (the
/// models of every path at the end of a run) go in one call when the reply splits: Z3 wasm's
/// cost is mostly per call.
pub async fn resolve_with<T: Transport>(
    transport: &T,
    bridge: &Shared,
    scripts: Vec<String>,
) -> Result<(), SolverError> {
    if scripts.len() > 1 {
        let reply = transport.run(&batch_script(&scripts)).await?;
        if let Some(parts) = split_batch_reply(&reply, scripts.len()) {
            let mut b = bridge.borrow_mut();
            b.batched_calls += 1;
            for (script, part) in scripts.into_iter().zip(parts) {
                b.replies.insert(script, part);
            }
            return Ok(());
        }
    }
    for script in scripts {
        let reply = transport.run(&script).await?;
        bridge.borrow_mut().replies.insert(script, reply);
    }
    Ok(())
}
