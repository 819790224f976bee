//! Fewer solver calls: decide what Rust can decide, cache the rest, and count.
//!
//! Path conditions of heap programs are mostly conjunctions of (dis)equalities between
//! references and null, plus integer comparisons. [`SolverFrontend`] folds constants, runs
//! union-find over the equality atoms, then the decision procedure [`crate::lia`] (linear
//! integer arithmetic with models), and only sends Z3 what is outside that fragment; Z3's
//! answers are cached by the text of the normalized query. Every locally produced model is
//! re-checked with [`crate::eval`] before it is returned, so a local shortcut can cost a solver
//! call, never a wrong answer.
//!
//! Over [`NoZ3`] (a page that cannot load Z3 wasm) a query outside the fragment is answered
//! `unknown` with a reason starting with [`crate::lia::OUTSIDE_FRAGMENT`], never guessed.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use crate::definitions;
use crate::error::Result;
use crate::lia::{self, Decision, OUTSIDE_FRAGMENT};
use crate::model::{Model, Value};
use crate::print::build_script;
use crate::querylog::QueryLog;
use crate::solver::{Answer, BoxFuture, Query, Solver};
use crate::term::{Sort, Term, Var};
use rustc_hash::FxBuildHasher;

/// Counters of a [`SolverFrontend`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Stats {
    /// Queries received.
    pub queries: u64,
    /// Queries sent to the wrapped solver (Z3).
    pub solver_calls: u64,
    /// Queries answered in Rust without the solver (constant folding, the equality shortcut
    /// and the decision procedure together).
    pub decided_locally: u64,
    /// Of `decided_locally`, the queries the decision procedure [`crate::lia`] decided.
    pub decided_by_procedure: u64,
    /// Queries outside the procedure's fragment: sent to the solver, answered from the cache,
    /// or (over [`NoZ3`]) answered `unknown`.
    pub outside_fragment: u64,
    /// Queries outside the fragment answered `unknown` because there is no solver ([`NoZ3`]).
    pub unanswered: u64,
    /// Queries answered from the cache.
    pub cache_hits: u64,
    /// Wall-clock time spent waiting for the wrapped solver, in milliseconds (0 when no clock
    /// is available, see [`SolverFrontend::with_clock`]).
    pub solver_time_ms: f64,
}

/// Cached answers beyond this count are dropped wholesale; a simple bound on memory.
const CACHE_LIMIT: usize = 10_000;

/// Memoized simplifications beyond this count are dropped wholesale (see [`Simplified`]).
const MEMO_LIMIT: usize = 20_000;

/// Each assertion's simplification ([`Term::simplify`]), by the assertion.
///
/// Why: the engine asks about the same path condition again and again, one new conjunct at a
/// time (symheap asks one query per guarded entry, each with a hundred and more conjuncts of the
/// same path); simplifying every conjunct anew was a fifth of its solver time. A hit costs a
/// hash and a comparison, and gives the very term `simplify` would, so answers cannot change.
type Simplified = HashMap<Term, Term, FxBuildHasher>;

/// Z3's answers by normalized query text; shareable between frontends (the runs of one
/// `heaplab compare` share one, see [`SolverFrontend::with_cache`]).
pub type SharedCache = Arc<Mutex<HashMap<String, Answer>>>;

/// Prepared contexts kept: the engine asks a slice's questions one after another, and its next
/// slice most often extends one of its last few (see [`SolverFrontend::check_in_context_id`]);
/// a sibling path, explored after its brother's whole subtree, extends their parent's slice,
/// so more than a few are kept (a context of a hundred conjuncts holds about a megabyte).
const CONTEXTS: usize = 32;

/// Queries with fewer assertions take the usual path: preparing a context costs more than it
/// saves on small ones.
pub const CONTEXT_MIN: usize = 16;

/// All but the last assertion of a query, prepared for the decision procedure
/// ([`lia::Context`]): the engine asks several questions (the last assertion) of one slice of
/// a path condition in a row; the slice is simplified, encoded and propagated once.
struct CachedContext {
    key: ContextKey,
    /// The context's terms: those it was prepared with, then those of each extension (shared
    /// with the contexts it was extended from).
    terms: Vec<Rc<[Term]>>,
    prepared: Prepared,
}

impl CachedContext {
    fn len(&self) -> usize {
        self.terms.iter().map(|t| t.len()).sum()
    }
}

/// How a context is found again: by a hash of its terms (compared in full), or by the id a
/// caller got from [`SolverFrontend::context_id`] for it.
#[derive(Clone, Copy, PartialEq)]
enum ContextKey {
    Hash(u64),
    Id(u64),
}

/// See [`SolverFrontend::asking`].
struct Asked<'a> {
    defs: Vec<definitions::Definition<'a>>,
    pulled: Vec<usize>,
    normalized: Option<Vec<Term>>,
}

enum Prepared {
    /// The context alone is unsat.
    Unsat,
    /// The procedure cannot take it: its queries take the usual path.
    Unusable,
    Ready {
        /// `terms[0][i]` for each definition set aside (see `definitions`), in evaluation
        /// order.
        set_aside: Vec<usize>,
        lia: Box<lia::Context>,
    },
}

/// A [`Solver`] wrapping another one with local decisions, a cache and [`Stats`].
pub struct SolverFrontend<S> {
    inner: S,
    cache: SharedCache,
    stats: Mutex<Stats>,
    clock: fn() -> f64,
    procedure: bool,
    log: Option<Arc<Mutex<QueryLog>>>,
    simplified: Mutex<Simplified>,
    contexts: Mutex<Vec<CachedContext>>,
    /// The last id [`SolverFrontend::context_id`] gave.
    last_context_id: Mutex<u64>,
}

/// The solver of a page without Z3 (no SharedArrayBuffer): every query that reaches it is
/// answered `unknown` (`OUTSIDE_FRAGMENT`). Behind a [`SolverFrontend`] only queries outside the
/// decision procedure's fragment reach it, and the frontend counts them as
/// [`Stats::unanswered`], not as solver calls.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoZ3;

impl Solver for NoZ3 {
    fn check<'a>(&'a self, _query: &'a Query) -> BoxFuture<'a, Result<Answer>> {
        Box::pin(std::future::ready(Ok(Answer::Unknown(format!("{OUTSIDE_FRAGMENT} (no Z3)")))))
    }
    fn is_present(&self) -> bool {
        false
    }
}

impl<S: std::fmt::Debug> std::fmt::Debug for SolverFrontend<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolverFrontend")
            .field("inner", &self.inner)
            .field("stats", &*self.stats.lock().unwrap_or_else(|e| e.into_inner()))
            .finish()
    }
}

/// Milliseconds from an arbitrary fixed point. `std::time::Instant` panics on
/// wasm32-unknown-unknown, so there the default clock reads 0 and the wasm crate passes a JS
/// clock instead.
fn default_clock() -> f64 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        EPOCH.get_or_init(std::time::Instant::now).elapsed().as_secs_f64() * 1000.0
    }
    #[cfg(target_arch = "wasm32")]
    {
        0.0
    }
}

impl<S: Solver> SolverFrontend<S> {
    pub fn new(inner: S) -> SolverFrontend<S> {
        SolverFrontend::with_clock(inner, default_clock)
    }

    /// Like [`SolverFrontend::new`], timing solver calls with `clock` (milliseconds).
    pub fn with_clock(inner: S, clock: fn() -> f64) -> SolverFrontend<S> {
        SolverFrontend {
            inner,
            cache: Arc::new(Mutex::new(HashMap::new())),
            stats: Mutex::new(Stats::default()),
            clock,
            procedure: true,
            log: None,
            simplified: Mutex::new(Simplified::default()),
            contexts: Mutex::new(Vec::new()),
            last_context_id: Mutex::new(0),
        }
    }

    /// Uses (`true`, the default) or skips the decision procedure [`crate::lia`]; off, only
    /// constant folding and the equality shortcut decide locally (for measurements).
    pub fn with_procedure(mut self, on: bool) -> SolverFrontend<S> {
        self.procedure = on;
        self
    }

    /// Shares Z3's answers with other frontends holding the same cache.
    pub fn with_cache(mut self, cache: SharedCache) -> SolverFrontend<S> {
        self.cache = cache;
        self
    }

    /// The cache, to hand to another frontend.
    pub fn cache(&self) -> SharedCache {
        Arc::clone(&self.cache)
    }

    /// Records every query received (after normalization) in `log`: the query corpus.
    pub fn with_log(mut self, log: Arc<Mutex<QueryLog>>) -> SolverFrontend<S> {
        self.log = Some(log);
        self
    }

    pub fn inner(&self) -> &S {
        &self.inner
    }

    pub fn stats(&self) -> Stats {
        *self.stats.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn reset_stats(&self) {
        *self.stats.lock().unwrap_or_else(|e| e.into_inner()) = Stats::default();
    }

    fn bump(&self, f: impl FnOnce(&mut Stats)) {
        f(&mut self.stats.lock().unwrap_or_else(|e| e.into_inner()));
    }

    async fn check_query(&self, query: &Query) -> Result<Answer> {
        self.bump(|s| s.queries += 1);
        if let Some(answer) = self.check_in_context(query) {
            return Ok(answer);
        }
        // Definitions nothing reads are solved for after the rest (see `definitions`).
        let (needed, set_aside) = definitions::split(&query.assertions, &query.want);
        let answer = self.check_needed(&needed, query).await?;
        Ok(match answer {
            Answer::Sat(mut model) if !set_aside.is_empty() => {
                match definitions::complete(&mut model, &set_aside) {
                    Some(()) => Answer::Sat(model),
                    None => Answer::Unknown("a set-aside definition does not evaluate".into()),
                }
            }
            other => other,
        })
    }

    /// The answer from a prepared context (all assertions but the last), when the query is a
    /// large plain satisfiability check and the decision procedure answers; `None` sends it
    /// the usual way (which asks the procedure again, so nothing is lost but time).
    fn check_in_context(&self, query: &Query) -> Option<Answer> {
        let n = query.assertions.len();
        if !self.procedure || self.log.is_some() || !query.want.is_empty() || n < CONTEXT_MIN {
            return None;
        }
        let (context, question) = query.assertions.split_at(n - 1);
        let hash = {
            let mut h = rustc_hash::FxHasher::default();
            context.hash(&mut h);
            h.finish()
        };
        let key = ContextKey::Hash(hash);
        let mut contexts = self.contexts.lock().unwrap_or_else(|e| e.into_inner());
        let same =
            |c: &CachedContext| c.key == key && c.terms.len() == 1 && *c.terms[0] == *context;
        let mut entry = match contexts.iter().position(same) {
            Some(i) => contexts.remove(i),
            None => CachedContext {
                key,
                terms: vec![Rc::from(context)],
                prepared: self.prepare(context),
            },
        };
        let answer = self.ask_context(&mut entry, question);
        contexts.insert(0, entry);
        contexts.truncate(CONTEXTS);
        answer
    }

    /// A new id for a context the caller will ask several questions of, with
    /// [`Self::check_in_context_id`]: unique for this frontend.
    pub fn context_id(&self) -> u64 {
        let mut last = self.last_context_id.lock().unwrap_or_else(|e| e.into_inner());
        *last += 1;
        *last
    }

    /// `context ∧ question` for a plain satisfiability check, the context known by the `id`
    /// [`Self::context_id`] gave the caller for it: what a query of the context's terms and the
    /// question gets, without translating, hashing or comparing the context again. `None` when
    /// the context cannot answer (the caller then sends the whole query as usual).
    ///
    /// The first time, `context(from)` gives the context's terms from position `from` on
    /// (`None` where they cannot be written). `parent`, `(id, n)`, says that the context's first
    /// `n` terms are those of the context `id`: it is then made from that one's, when it is
    /// still kept, with only the terms after them prepared ([`lia::Context::extend`]).
    pub fn check_in_context_id(
        &self,
        id: u64,
        parent: Option<(u64, usize)>,
        context: impl FnOnce(usize) -> Option<Vec<Term>>,
        question: &Term,
    ) -> Option<Answer> {
        if !self.procedure || self.log.is_some() {
            return None;
        }
        let key = ContextKey::Id(id);
        let mut contexts = self.contexts.lock().unwrap_or_else(|e| e.into_inner());
        let mut entry = match contexts.iter().position(|c| c.key == key) {
            Some(i) => contexts.remove(i),
            None => {
                let parent = parent.and_then(|(id, n)| {
                    contexts.iter().find(|c| c.key == ContextKey::Id(id) && c.len() == n)
                });
                match parent {
                    Some(parent) => {
                        let more: Rc<[Term]> = Rc::from(context(parent.len())?);
                        let prepared = self.extend(parent, &more);
                        let mut terms = parent.terms.clone();
                        terms.push(more);
                        CachedContext { key, terms, prepared }
                    }
                    None => {
                        let terms = context(0)?;
                        let prepared = self.prepare(&terms);
                        CachedContext { key, terms: vec![Rc::from(terms)], prepared }
                    }
                }
            }
        };
        let answer = self.ask_context(&mut entry, std::slice::from_ref(question));
        contexts.insert(0, entry);
        contexts.truncate(CONTEXTS);
        if answer.is_some() {
            self.bump(|s| s.queries += 1);
        }
        answer
    }

    /// The context of `parent`'s terms and `more`, prepared from `parent`'s: `more`, with the
    /// set-aside definitions it reads (which stop being set aside), simplified and added.
    fn extend(&self, parent: &CachedContext, more: &[Term]) -> Prepared {
        let (set_aside, lia) = match &parent.prepared {
            Prepared::Unsat => return Prepared::Unsat,
            Prepared::Unusable => return Prepared::Unusable,
            Prepared::Ready { set_aside, lia } => (set_aside, lia),
        };
        let Asked { pulled, normalized, .. } = self.asking(more, &parent.terms[0], set_aside);
        let Some(conjuncts) = normalized else { return Prepared::Unsat };
        let set_aside =
            (0..set_aside.len()).filter(|i| !pulled.contains(i)).map(|i| set_aside[i]).collect();
        match lia.extend(&conjuncts) {
            Ok(lia) => Prepared::Ready { set_aside, lia: Box::new(lia) },
            Err(Decision::Unsat) => Prepared::Unsat,
            Err(_) => Prepared::Unusable,
        }
    }

    /// What `terms` ask of a context whose set-aside definitions are `set_aside` (positions in
    /// `first`, the terms it was prepared with), as [`definitions::asking`] says, with the
    /// asked terms simplified (`None` where that is false).
    fn asking<'a>(&self, terms: &'a [Term], first: &'a [Term], set_aside: &[usize]) -> Asked<'a> {
        let (defs, pulled, asked) = definitions::asking(first, set_aside, terms);
        let normalized = {
            let mut memo = self.simplified.lock().unwrap_or_else(|e| e.into_inner());
            normalize(&asked, &mut memo)
        };
        Asked { defs, pulled, normalized }
    }

    fn prepare(&self, context: &[Term]) -> Prepared {
        let (needed, set_aside) = definitions::split(context, &[]);
        let normalized = {
            let mut memo = self.simplified.lock().unwrap_or_else(|e| e.into_inner());
            normalize(&needed, &mut memo)
        };
        let Some(conjuncts) = normalized else { return Prepared::Unsat };
        let set_aside = definitions::positions(context, &set_aside);
        match lia::Context::new(conjuncts) {
            Ok(lia) => Prepared::Ready { set_aside, lia: Box::new(lia) },
            Err(Decision::Unsat) => Prepared::Unsat,
            Err(_) => Prepared::Unusable,
        }
    }

    /// `entry`'s context and `question`; a model must satisfy both.
    fn ask_context(&self, entry: &mut CachedContext, question: &[Term]) -> Option<Answer> {
        let local = |by_procedure: bool| {
            self.bump(|s| {
                s.decided_locally += 1;
                s.decided_by_procedure += u64::from(by_procedure);
            })
        };
        let (set_aside, lia) = match &mut entry.prepared {
            Prepared::Unsat => {
                local(false);
                return Some(Answer::Unsat);
            }
            Prepared::Unusable => return None,
            Prepared::Ready { set_aside, lia } => (set_aside, lia),
        };
        // The set-aside definitions the question reads join it; the others are evaluated
        // under the model.
        let Asked { defs, pulled, normalized } = self.asking(question, &entry.terms[0], set_aside);
        let Some(normalized) = normalized else {
            local(false);
            return Some(Answer::Unsat);
        };
        match lia.decide(&normalized, lia::Limits::for_want(&[])) {
            Decision::Sat(mut model) => {
                let rest: Vec<definitions::Definition<'_>> =
                    (0..defs.len()).filter(|i| !pulled.contains(i)).map(|i| defs[i]).collect();
                definitions::complete(&mut model, &rest)?;
                let holds = |ts: &[Term]| model.satisfies_exact(ts) == Ok(true);
                if !entry.terms.iter().all(|t| holds(t)) || !holds(question) {
                    return None;
                }
                local(true);
                Some(Answer::Sat(model))
            }
            Decision::Unsat => {
                local(true);
                Some(Answer::Unsat)
            }
            Decision::Outside(_) => None,
        }
    }

    /// [`Self::check_query`] on the assertions the answer depends on (`query` gives the rest:
    /// `want` and the time limit).
    async fn check_needed(&self, needed: &[&Term], query: &Query) -> Result<Answer> {
        let normalized = {
            let mut memo = self.simplified.lock().unwrap_or_else(|e| e.into_inner());
            normalize(needed, &mut memo)
        };
        let Some(conjuncts) = normalized else {
            self.bump(|s| s.decided_locally += 1);
            return Ok(Answer::Unsat);
        };
        if let Some(log) = &self.log {
            log.lock().unwrap_or_else(|e| e.into_inner()).record(&conjuncts, &query.want);
        }
        if let Some(answer) = decide_locally(&conjuncts, &query.want) {
            self.bump(|s| s.decided_locally += 1);
            return Ok(answer);
        }
        let mut why = String::from("the procedure is off");
        if self.procedure {
            match lia::decide_with(&conjuncts, &query.want, lia::Limits::for_want(&query.want)) {
                // The procedure re-checks its model; this is the frontend's own check, the
                // same one Z3's models get from the callers.
                Decision::Sat(model) if model.satisfies_exact(&conjuncts) == Ok(true) => {
                    self.bump(|s| {
                        s.decided_locally += 1;
                        s.decided_by_procedure += 1;
                    });
                    return Ok(Answer::Sat(model));
                }
                Decision::Sat(_) => why = "a model that did not re-check".into(),
                Decision::Unsat => {
                    self.bump(|s| {
                        s.decided_locally += 1;
                        s.decided_by_procedure += 1;
                    });
                    return Ok(Answer::Unsat);
                }
                Decision::Outside(reason) => why = reason,
            }
        }
        self.bump(|s| s.outside_fragment += 1);
        if !self.inner.is_present() {
            self.bump(|s| s.unanswered += 1);
            return Ok(Answer::Unknown(format!("{OUTSIDE_FRAGMENT}: {why} (no Z3)")));
        }
        // A definite answer does not depend on the time limit, so the limit is not part of the
        // key (callers shorten it as their run's time runs out).
        let key = build_script(&conjuncts, &query.want, 0);
        let cached = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key).cloned();
        if let Some(answer) = cached {
            self.bump(|s| s.cache_hits += 1);
            return Ok(answer);
        }
        let simplified =
            Query { assertions: conjuncts, want: query.want.clone(), timeout_ms: query.timeout_ms };
        let start = (self.clock)();
        let res = self.inner.check(&simplified).await;
        let elapsed = (self.clock)() - start;
        self.bump(|s| {
            s.solver_calls += 1;
            s.solver_time_ms += elapsed.max(0.0);
        });
        let answer = res?;
        // `unknown` may depend on load (timeouts), so only definite answers are cached.
        if !matches!(answer, Answer::Unknown(_)) {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if cache.len() >= CACHE_LIMIT {
                cache.clear();
            }
            cache.insert(key, answer.clone());
        }
        Ok(answer)
    }
}

impl<S: Solver> Solver for SolverFrontend<S> {
    fn check<'a>(&'a self, query: &'a Query) -> BoxFuture<'a, Result<Answer>> {
        Box::pin(self.check_query(query))
    }
}

/// Simplified, flattened, de-duplicated and sorted conjuncts, or `None` if some conjunct
/// folded to `false`. Sorting makes equal sets print equally, for the cache key. `memo` holds
/// the assertions' simplifications already made.
fn normalize(assertions: &[&Term], memo: &mut Simplified) -> Option<Vec<Term>> {
    if memo.len() >= MEMO_LIMIT {
        memo.clear();
    }
    let simplified = assertions
        .iter()
        .map(|&t| match memo.get(t) {
            Some(s) => s.clone(),
            None => {
                let s = t.simplify();
                memo.insert(t.clone(), s.clone());
                s
            }
        })
        .collect();
    let mut set = BTreeSet::new();
    match crate::term::conjunction_of_simplified(simplified) {
        Term::Bool(true) => {}
        Term::Bool(false) => return None,
        Term::And(ts) => set.extend(ts),
        t => {
            set.insert(t);
        }
    }
    Some(set.into_iter().collect())
}

/// An operand of an equality the union-find understands: an Int/Ref variable or a constant.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Atom {
    Var(Var),
    Const(i64),
}

fn atom(t: &Term) -> Option<Atom> {
    match t {
        Term::Var(v) if v.sort != Sort::Bool => Some(Atom::Var(v.clone())),
        Term::Int(c) => Some(Atom::Const(*c)),
        Term::Null => Some(Atom::Const(0)),
        _ => None,
    }
}

#[derive(Default)]
struct UnionFind {
    index: BTreeMap<Atom, usize>,
    parent: Vec<usize>,
}

impl UnionFind {
    fn node(&mut self, a: Atom) -> usize {
        let next = self.parent.len();
        let i = *self.index.entry(a).or_insert(next);
        if i == next {
            self.parent.push(next);
        }
        i
    }
    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        self.parent[ra] = rb;
    }
}

/// Decides conjunctions of literals over variables and constants: `a = b`, `a != b`,
/// `distinct`, and Bool variables or their negation. Returns `Unsat` on a contradiction even
/// when other conjuncts are present (a contradictory subset suffices), `Sat` with a built model
/// when every conjunct is such a literal, and `None` when Z3 is needed.
fn decide_locally(conjuncts: &[Term], want: &[Var]) -> Option<Answer> {
    let mut uf = UnionFind::default();
    let mut diseqs: Vec<(usize, usize)> = Vec::new();
    let mut bools: BTreeMap<Var, bool> = BTreeMap::new();
    let mut only_literals = true;
    let mut bool_conflict = false;
    for c in conjuncts {
        match c {
            Term::Eq(a, b) => match (atom(a), atom(b)) {
                (Some(a), Some(b)) => {
                    let (a, b) = (uf.node(a), uf.node(b));
                    uf.union(a, b);
                }
                _ => only_literals = false,
            },
            Term::Distinct(ts) => {
                let atoms: Option<Vec<Atom>> = ts.iter().map(atom).collect();
                match atoms {
                    Some(atoms) => {
                        let ids: Vec<usize> = atoms.into_iter().map(|a| uf.node(a)).collect();
                        for (i, &x) in ids.iter().enumerate() {
                            for &y in &ids[i + 1..] {
                                diseqs.push((x, y));
                            }
                        }
                    }
                    None => only_literals = false,
                }
            }
            Term::Var(v) if v.sort == Sort::Bool => {
                bool_conflict |= bools.insert(v.clone(), true) == Some(false);
            }
            Term::Not(inner) => match &**inner {
                Term::Eq(a, b) => match (atom(a), atom(b)) {
                    (Some(a), Some(b)) => {
                        let (a, b) = (uf.node(a), uf.node(b));
                        diseqs.push((a, b));
                    }
                    _ => only_literals = false,
                },
                Term::Var(v) if v.sort == Sort::Bool => {
                    bool_conflict |= bools.insert(v.clone(), false) == Some(true);
                }
                _ => only_literals = false,
            },
            _ => only_literals = false,
        }
    }
    if bool_conflict {
        return Some(Answer::Unsat);
    }
    // Every class holds at most one constant; two distinct constants in a class is a conflict.
    let atoms: Vec<(Atom, usize)> = uf.index.iter().map(|(a, &i)| (a.clone(), i)).collect();
    let mut class_const: BTreeMap<usize, i64> = BTreeMap::new();
    for (a, i) in &atoms {
        if let Atom::Const(c) = a {
            let root = uf.find(*i);
            if let Some(prev) = class_const.insert(root, *c) {
                if prev != *c {
                    return Some(Answer::Unsat);
                }
            }
        }
    }
    for &(x, y) in &diseqs {
        if uf.find(x) == uf.find(y) {
            return Some(Answer::Unsat);
        }
    }
    if !only_literals {
        return None;
    }
    // Satisfiable: give each class its constant, or a fresh value above every constant so
    // that all classes are pairwise different (which satisfies every disequality).
    let mut fresh = class_const.values().map(|c| c.saturating_abs()).max().unwrap_or(0);
    let mut model = Model::new();
    for (a, i) in &atoms {
        if let Atom::Var(v) = a {
            let root = uf.find(*i);
            let value = match class_const.get(&root) {
                Some(c) => *c,
                None => {
                    fresh = fresh.checked_add(1)?;
                    class_const.insert(root, fresh);
                    fresh
                }
            };
            model.insert(v, Value::Int(value));
        }
    }
    for (v, b) in &bools {
        model.insert(v, Value::Bool(*b));
    }
    for v in want {
        if model.get(v).is_none() {
            model.insert(v, Value::default_for(v.sort));
        }
    }
    // A shortcut must never produce a wrong model; if it would, ask the solver instead.
    match model.satisfies(conjuncts) {
        Ok(true) => Some(Answer::Sat(model)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Term> {
        let (x, y) = (Var::int("x"), Var::int("y"));
        let b = Var::bool("b");
        vec![
            Term::eq(&x, Term::add([Term::Int(1), Term::Int(2)])),
            Term::and([Term::lt(&x, &y), Term::Bool(true), Term::lt(&x, &y)]),
            Term::eq(b.term(), Term::or([Term::eq(&y, 4), Term::not(Term::eq(&y, 4))])),
            Term::lt(&x, &y),
        ]
    }

    /// The memo gives what simplifying gives, fills once per distinct assertion, and is what a
    /// second query reads (a planted entry shows through).
    #[test]
    fn normalize_reads_memoized_simplifications() {
        let ts = sample();
        let refs: Vec<&Term> = ts.iter().collect();
        let mut memo = Simplified::default();
        let plain = match crate::term::simplify_conjunction(&refs) {
            Term::And(v) => v.into_iter().collect::<BTreeSet<_>>().into_iter().collect::<Vec<_>>(),
            t => vec![t],
        };
        assert_eq!(normalize(&refs, &mut memo), Some(plain.clone()));
        assert_eq!(memo.len(), ts.len());
        assert_eq!(normalize(&refs, &mut memo), Some(plain));
        assert_eq!(memo.len(), ts.len());
        // A contradiction planted for the last assertion is read, not recomputed.
        memo.insert(ts[3].clone(), Term::Bool(false));
        assert_eq!(normalize(&refs, &mut memo), None);
    }

    /// Junctions of pre-simplified terms equal junctions simplified on the way (duplicates,
    /// complements, nesting).
    #[test]
    fn conjunction_of_simplified_matches_simplify_conjunction() {
        let ts = sample();
        let mut cases: Vec<Vec<Term>> = vec![ts.clone()];
        let mut with_complement = ts.clone();
        with_complement.push(Term::not(ts[3].clone()));
        cases.push(with_complement);
        cases.push(vec![Term::Bool(true)]);
        cases.push(Vec::new());
        for case in cases {
            let refs: Vec<&Term> = case.iter().collect();
            let pre: Vec<Term> = case.iter().map(Term::simplify).collect();
            assert_eq!(
                crate::term::conjunction_of_simplified(pre),
                crate::term::simplify_conjunction(&refs)
            );
        }
    }
}
