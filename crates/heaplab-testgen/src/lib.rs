//! Test generation: every feasible symbolic path becomes a concrete test (Kiasan's KUnit, digest
//! seed-004a §6).
//!
//! For one path: the solver gives a model of the final path condition; the input journal of the
//! final state (every field as it was when first read) is the effective symbolic pre-state, and
//! concretizing it is minimal — fields never read keep their defaults, unresolved symbolic
//! references become `null`, each unresolved symbolic location becomes its own fresh object
//! ([`concretize`]). The concrete interpreter then *replays* the test: it builds that heap, calls
//! the method and must reproduce the predicted outcome and final heap. A mismatch is a bug of
//! the engine, reported as [`Error::ReplayMismatch`]; no test is emitted unless its replay
//! agrees. Emitters write HeapLab `test` blocks ([`emit::hl`]) and JSON ([`emit::json`]); the
//! replay also records which statements each test runs ([`coverage`] turns them into lines).
//!
//! A path whose condition the solver cannot give a model for (nonlinear arithmetic, a solver
//! timeout) gets no test: it is listed in [`Generation::unknown`] and generation goes on. With a
//! deadline ([`generate_within`]) the paths left when it passes are listed in
//! [`Generation::out_of_time`], so the run's one time bound covers test generation and replay.
//!
//! Invariant: no IO and no JSON library — the emitters return strings; front ends write them.

pub mod concolic;
pub mod concretize;
pub mod coverage;
pub mod distinct;
pub mod duel;
pub mod emit;
pub mod feasible;
pub mod minimize;
pub mod nullness;

use heaplab_engine::symbolic::{Bound, Explorer, PathResult};
use heaplab_engine::{Heap, ObjId, Value};
use heaplab_syntax::ast::{ErrorKind, Item, NodeId, Program, TypeExpr};
use heaplab_syntax::types::ProgramInfo;
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::rc::Rc;

/// What can go wrong while generating tests (not in the program under test).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Replaying a generated test in the interpreter did not reproduce the symbolic outcome:
    /// a bug of the symbolic executor (or of the interpreter).
    #[error("replay of test `{test}` disagrees with symbolic execution: expected {expected}, the interpreter gave {got}")]
    ReplayMismatch { test: String, expected: String, got: String },
    /// The strategy does not model something the target uses (the engine says what).
    #[error("{0}")]
    Unsupported(String),
    /// The interpreter refused the generated call (a method that does not exist, ...).
    #[error("replay of test `{test}`: {source}")]
    Engine {
        test: String,
        #[source]
        source: heaplab_engine::Error,
    },
}

/// The result type of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// A concrete input: the heap before the call, the receiver and the arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    pub heap: Heap,
    /// `this` of a method; `None` for a top-level function.
    pub receiver: Option<ObjId>,
    pub args: Vec<Value>,
}

/// The outcome a test expects.
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// The call returns this value (`Void` for `void`).
    Returned(Value),
    /// The call ends with this runtime error.
    Error(ErrorKind),
}

/// Whether an input satisfies the method's `requires` (checked by the logic's model checker
/// when the precondition was ignored during exploration).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Validity {
    /// Exploration assumed the precondition, so every input satisfies it.
    Assumed,
    Valid,
    Invalid,
    /// The model checker could not decide (its reason).
    Unknown(String),
    /// The method has no `requires`.
    NoPrecondition,
}

impl Validity {
    /// The input satisfies `requires`: checked valid, assumed during exploration, or there is
    /// no precondition to satisfy. `Unknown` is not valid (the checker could not show it).
    pub fn is_valid(&self) -> bool {
        matches!(self, Validity::Valid | Validity::Assumed | Validity::NoPrecondition)
    }
}

/// One generated, replayed test.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedTest {
    /// A HeapLab identifier, unique within one generation: `gen_insert_3`.
    pub name: String,
    /// The path it came from ([`PathResult::index`]).
    pub path: usize,
    pub input: Input,
    pub expected: Expected,
    /// The interpreter's heap after the replayed call.
    pub final_heap: Heap,
    pub validity: Validity,
    /// The k bound removed a fresh-object option on this path.
    pub k_cut: bool,
    /// Where the replayed call stopped with an error: the failing statement or expression (for
    /// an uncaught exception, its `throw`, which names the class).
    pub error_node: Option<NodeId>,
    /// The failing statement's place in the source and what happened there (`reading field
    /// `key` of null`), for reports.
    pub error_at: Option<(heaplab_syntax::Span, String)>,
    /// The statements the replayed call executed (see [`coverage`] for their lines).
    pub statements: BTreeSet<NodeId>,
    /// The branch directions the replayed call took (the node of the `if`, `while`, `?:`,
    /// `&&` or `||`, with the value its condition had), as the interpreter saw them.
    pub branches: BTreeSet<(NodeId, bool)>,
}

impl GeneratedTest {
    /// Error-revealing (Randoop's and EvoSuite's split): a valid input on which the method
    /// breaks a contract, a failing `ensures` or a call breaking its callee's `requires`. Such
    /// a test is a found bug, exported to fail while the bug is there; every other test
    /// (returns, and errors on invalid inputs or that the code signals on purpose, such as an
    /// `assert` standing for Weiss's `Underflow`) is a regression test that records behaviour.
    pub fn reveals_bug(&self) -> bool {
        self.validity.is_valid()
            && matches!(
                self.expected,
                Expected::Error(ErrorKind::EnsuresFailed | ErrorKind::RequiresFailed)
            )
    }
}

/// A type as the source writes it (`int`, `Node`, `Object[]`, `void`).
pub(crate) fn type_as_written(t: &TypeExpr) -> String {
    match t {
        TypeExpr::Int(_) => "int".to_string(),
        TypeExpr::Bool(_) => "bool".to_string(),
        TypeExpr::Class(c) => c.name.clone(),
        TypeExpr::Array { elem, .. } => format!("{}[]", type_as_written(elem)),
        _ => "void".to_string(),
    }
}

/// Everything generated for one exploration.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Generation {
    /// `Class.method` or `function`.
    pub target: String,
    /// The declared return type as written (`int`, `Node`, `void`).
    pub return_type: String,
    pub tests: Vec<GeneratedTest>,
    /// Feasible paths the solver gave no model for (unknown, or it failed): no test.
    pub unknown: Vec<usize>,
    /// Why the solver gave no model, in words, for the last of [`Self::unknown`] (`needs Z3:
    /// …` for a query outside the Rust procedure where no Z3 runs).
    pub unknown_reason: Option<String>,
    /// Feasible paths left without a test because the deadline passed.
    pub out_of_time: Vec<usize>,
    /// Feasible paths left without a test because the run held more memory than its bound
    /// ([`Bounds::max_memory_mb`](heaplab_engine::symbolic::Bounds::max_memory_mb)): the tests
    /// generated so far (their input and final heaps) count toward it.
    pub out_of_memory: Vec<usize>,
    /// All-heaps mode ([`Config::all_heaps`](heaplab_engine::symbolic::Config::all_heaps)):
    /// how each path's input heaps were enumerated. Empty otherwise.
    pub heaps: Vec<PathHeaps>,
}

/// The all-heaps enumeration of one path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathHeaps {
    /// The path ([`PathResult::index`]).
    pub path: usize,
    /// Distinct input heaps (up to isomorphism), each a test.
    pub heaps: usize,
    /// Models whose heap was isomorphic to one found before.
    pub duplicates: usize,
    /// Model queries asked.
    pub queries: u64,
    /// The bound that stopped the enumeration before the solver said unsat (`heaps_per_path`,
    /// `timeout`, `solver unknown`); `None` when it was complete.
    pub stopped_by: Option<&'static str>,
}

/// The all-heaps enumeration summed over a run's paths: what `heaplab run --all-heaps` and the
/// page's summary report.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapsTotal {
    /// Distinct input heaps (each a test).
    pub heaps: usize,
    /// Models whose heap was isomorphic to one found before on the same path.
    pub duplicates: usize,
    /// Model queries asked.
    pub queries: u64,
    /// Paths whose enumeration a bound stopped.
    pub paths_cut: usize,
    /// The bounds that stopped them, each once, in order.
    pub cut_by: Vec<&'static str>,
}

impl Generation {
    /// All-heaps mode: the paths whose enumeration a bound stopped.
    pub fn heaps_cut(&self) -> usize {
        self.heaps.iter().filter(|h| h.stopped_by.is_some()).count()
    }

    /// All-heaps mode: the enumeration of every path, summed.
    pub fn heaps_total(&self) -> HeapsTotal {
        let cut_by: std::collections::BTreeSet<&'static str> =
            self.heaps.iter().filter_map(|h| h.stopped_by).collect();
        HeapsTotal {
            heaps: self.heaps.iter().map(|h| h.heaps).sum(),
            duplicates: self.heaps.iter().map(|h| h.duplicates).sum(),
            queries: self.heaps.iter().map(|h| h.queries).sum(),
            paths_cut: self.heaps_cut(),
            cut_by: cut_by.into_iter().collect(),
        }
    }
}

impl Generation {
    /// Which bound stopped the run early: the exploration's own (`explorer`, from
    /// `Explorer::stopped`), or the time bound during test generation. `None` when the run went
    /// to the end. The CLI and the wasm summary print the same words.
    pub fn stopped_by(&self, explorer: Option<Bound>) -> Option<String> {
        if !self.out_of_time.is_empty() {
            return Some("timeout (during test generation)".to_string());
        }
        if !self.out_of_memory.is_empty() {
            return Some("memory (during test generation; raise --max-memory-mb)".to_string());
        }
        explorer.map(|bound| match bound {
            Bound::Timeout => "timeout (during exploration)".to_string(),
            other => format!("{} ({})", other.name(), bound_hint(other)),
        })
    }

    /// Tests whose input violates `requires`.
    pub fn invalid_inputs(&self) -> usize {
        self.tests.iter().filter(|t| t.validity == Validity::Invalid).count()
    }

    /// Tests that expect a runtime error, on valid (or unchecked) inputs.
    pub fn errors_found(&self) -> usize {
        self.tests
            .iter()
            .filter(|t| matches!(t.expected, Expected::Error(_)) && t.validity != Validity::Invalid)
            .count()
    }

    /// Tests whose valid input makes the code break its contract: a failing `ensures`, or a
    /// call that breaks its callee's `requires`. These are the bugs `heaplab run` reports
    /// through its exit code. A failing `assert`, a thrown exception or a null dereference on a
    /// valid input is behaviour the tests record (courses use `assert` for underflow as Weiss
    /// throws), not a broken contract.
    pub fn spec_violations(&self) -> usize {
        self.tests.iter().filter(|t| t.reveals_bug()).count()
    }
}

/// Concretizes every feasible path of a finished exploration, replays each test in the
/// interpreter and classifies its input against `requires` (when exploration ignored it).
pub fn generate(
    explorer: &mut Explorer,
    program: &Program,
    info: &ProgramInfo,
) -> Result<Generation> {
    generate_within(explorer, program, info, None)
}

/// [`generate`], stopping once the explorer's clock ([`Explorer::elapsed_ms`]) reaches
/// `deadline_ms`: the paths not reached by then are listed in [`Generation::out_of_time`].
pub fn generate_within(
    explorer: &mut Explorer,
    program: &Program,
    info: &ProgramInfo,
    deadline_ms: Option<u64>,
) -> Result<Generation> {
    let target = explorer_target(explorer);
    // The explorer's logic definitions, not converted again (the predicates' invariants).
    let (code, config) = (Rc::clone(explorer.compiled()), explorer.config());
    let defs = Cow::Borrowed(&code.defs);
    let checker = concretize::PreChecker::with_defs(program, info, &target, config.pre, defs);
    let elements =
        distinct::Elements::for_strategy(config.strategy, program, info, &target, &code.defs);
    // Positions, not copies: a timed-out run can end with many thousands of paths, and each
    // is copied only when its turn comes.
    let feasible: Vec<usize> = (0..explorer.paths().len())
        .filter(|&i| explorer.paths()[i].outcome.is_feasible())
        .collect();
    let method_short = target.rsplit('.').next().unwrap_or(&target).to_string();
    let is_method = target.contains('.');
    let mut tests = Vec::new();
    let (mut unknown, mut out_of_time, mut heaps) = (Vec::new(), Vec::new(), Vec::new());
    let (mut out_of_memory, mut unknown_reason) = (Vec::new(), None);
    let memory_bound = explorer.config().bounds.max_memory_mb.map(heaplab_engine::memory::mb);
    // Generated names never clash with the program's own tests (the `.hl` export appends them).
    let mut taken: BTreeSet<String> = program
        .items
        .iter()
        .filter_map(|i| if let Item::Test(t) = i { Some(t.name.name.clone()) } else { None })
        .collect();
    for position in feasible {
        if deadline_ms.is_some_and(|d| explorer.elapsed_ms() >= d) {
            out_of_time.push(explorer.paths()[position].index);
            continue;
        }
        // Checked between tests: one test's replay is bounded by the interpreter's heap limit.
        let held = explorer.memory_bytes();
        if !out_of_memory.is_empty() || held.zip(memory_bound).is_some_and(|(b, m)| b > m) {
            out_of_memory.push(explorer.paths()[position].index);
            continue;
        }
        if let Some(d) = deadline_ms {
            // One slow model query must not carry the run past its bound either.
            explorer.set_solver_time_left(Some(d.saturating_sub(explorer.elapsed_ms())));
        }
        let path: PathResult = explorer.paths()[position].clone();
        let path = &path;
        let name = unique_name(&format!("gen_{method_short}_{}", path.index), &mut taken);
        let compiled = std::rc::Rc::clone(explorer.compiled());
        let heap = explorer.heap_model();
        let concretes = if explorer.config().all_heaps {
            let limit = explorer.config().bounds.heaps_per_path;
            let elapsed = explorer.stopwatch();
            let mut late = || deadline_ms.is_some_and(|d| elapsed() >= d);
            let found = concretize::all_heaps(
                explorer.solver_mut(),
                &*heap,
                &compiled,
                is_method,
                path,
                limit,
                &mut late,
            );
            found.map(|(cs, w)| {
                heaps.push(PathHeaps {
                    path: path.index,
                    heaps: cs.len(),
                    duplicates: w.duplicates,
                    queries: w.queries,
                    stopped_by: w.end.bound_name(),
                });
                cs
            })
        } else {
            concretize::concretize(explorer.solver_mut(), &*heap, &compiled, is_method, path)
                .map(|c| vec![c])
        };
        let concretes = match concretes {
            Some(cs) if !cs.is_empty() => cs,
            _ => {
                unknown.push(path.index);
                unknown_reason = Some(unknown_in_words(explorer.solver_mut().last_unknown()));
                continue;
            }
        };
        for (i, mut concrete) in concretes.into_iter().enumerate() {
            // The first heap of a path keeps the path's name; others are numbered after it.
            let name = if i == 0 {
                name.clone()
            } else {
                unique_name(&format!("{name}_h{}", i + 1), &mut taken)
            };
            let (final_heap, covered, error) =
                concretize::replay(program, info, &target, &name, &mut concrete)?;
            let validity = checker.classify(&concrete.input);
            let error = error.map(|e| (e.node, e.span, e.message));
            let original = distinct::Filled {
                input: concrete.input,
                expected: concrete.expected,
                final_heap,
                coverage: covered,
                error,
                validity,
            };
            let f = elements.as_ref().and_then(|e| e.fill(&original)).unwrap_or(original);
            tests.push(f.into_test(name, path.index, path.state.k_cut));
        }
    }
    let return_type = return_type_of(program, &target);
    Ok(Generation {
        target,
        return_type,
        tests,
        unknown,
        unknown_reason,
        out_of_time,
        out_of_memory,
        heaps,
    })
}

/// A path's missing model in words: a query outside the Rust procedure's fragment where no Z3
/// runs (a page without cross-origin isolation) says it needs Z3.
fn unknown_in_words(reason: Option<String>) -> String {
    match reason {
        Some(r) if r.ends_with("(no Z3)") => {
            format!("needs Z3, which is not available here ({r})")
        }
        Some(r) => format!("the solver gave no model ({r})"),
        None => "the solver gave no model".to_string(),
    }
}

/// `base`, or `base_2`, `base_3`, ...: the first not in `taken` (then it is).
fn unique_name(base: &str, taken: &mut BTreeSet<String>) -> String {
    let mut name = base.to_string();
    let mut n = 2;
    while taken.contains(&name) {
        name = format!("{base}_{n}");
        n += 1;
    }
    taken.insert(name.clone());
    name
}

/// `Class.method` of the explorer's method unit.
fn explorer_target(explorer: &Explorer) -> String {
    use heaplab_engine::symbolic::code::UnitKind;
    match explorer.compiled().units.get(explorer.method()).map(|u| &u.kind) {
        Some(UnitKind::Function { class: Some(c), name }) => format!("{c}.{name}"),
        Some(UnitKind::Function { class: None, name }) => name.clone(),
        _ => String::new(),
    }
}

/// The declaration of `Class.method` / `function` in a program.
/// The declared return type of `target` as written (`int[]`, `Node`, `void`), for the
/// emitters' `T r = call;` lines: one answer for every driver.
pub(crate) fn return_type_of(program: &Program, target: &str) -> String {
    match find_function(program, target) {
        Some((_, d)) => type_as_written(&d.return_type),
        None => "void".to_string(),
    }
}

pub(crate) fn find_function<'p>(
    program: &'p Program,
    target: &str,
) -> Option<(Option<&'p str>, &'p heaplab_syntax::ast::FunctionDecl)> {
    let (class, name) = heaplab_engine::symbolic::explorer::split_target(target);
    program.items.iter().find_map(|item| match (item, class) {
        (Item::Class(c), Some(cn)) if c.name.name == cn => {
            c.methods.iter().find(|m| m.name.name == name).map(|m| (Some(c.name.name.as_str()), m))
        }
        (Item::Function(f), None) if f.name.name == name => Some((None, f)),
        _ => None,
    })
}

/// What a user can do about a bound that stopped a run, in the CLI's option names.
pub fn bound_hint(bound: Bound) -> &'static str {
    match bound {
        Bound::MaxPaths => "raise --max-paths",
        Bound::States => "raise --max-states",
        Bound::Timeout => "raise --timeout-ms",
        Bound::Loop => "raise --loop",
        Bound::CallDepth => "raise --call-depth",
        Bound::K => "raise --k",
        Bound::Steps => "a path ran too long",
        Bound::Depth => "raise --depth",
        Bound::Memory => "raise --max-memory-mb",
        Bound::ArrayLength => "an array longer than the interpreter's heap allows",
        Bound::Questions => "raise --max-questions",
    }
}
