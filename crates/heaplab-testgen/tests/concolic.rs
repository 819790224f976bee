//! Issue #16 (`concolic`, Concolic StarFinder), checked against independent oracles: the logic's
//! model checker judges every input (a `PreChecker`, which never calls `sat`), the interpreter
//! replays every test, and coverage is compared with `sl`'s replayed tests at default bounds.

mod common;

use heaplab_engine::symbolic::{Config, NoClock, StrategyKind};
use heaplab_logic::SmtOracle;
use heaplab_smt::{ProcessConfig, SmtSolver, Z3Process};
use heaplab_syntax::ast::{Item, NodeId};
use heaplab_testgen::concolic::{self, ConcolicConfig, IntFill};
use heaplab_testgen::coverage::branches_taken;
use heaplab_testgen::{generate, Generation, Validity};
use std::collections::BTreeSet;

fn targets_with_requires(a: &heaplab_syntax::Analysis) -> Vec<String> {
    let mut out = Vec::new();
    for item in &a.program.items {
        match item {
            Item::Class(c) => out.extend(
                c.methods
                    .iter()
                    .filter(|m| !m.requires.is_empty())
                    .map(|m| format!("{}.{}", c.name.name, m.name.name)),
            ),
            Item::Function(f) if !f.requires.is_empty() => out.push(f.name.name.clone()),
            _ => {}
        }
    }
    out
}

fn concolic_run(
    a: &heaplab_syntax::Analysis,
    target: &str,
    config: &ConcolicConfig,
) -> concolic::ConcolicRun {
    let z3 = SmtSolver::new(Z3Process::new(ProcessConfig::default()));
    let mut oracle = SmtOracle::new(&z3);
    concolic::generate(&a.program, &a.info, target, config, &mut oracle, common::solver(), &NoClock)
        .unwrap_or_else(|e| panic!("{target}: {e}"))
}

/// The wall clock, for the per-method time bound of the all-examples run.
struct Wall(std::time::Instant);

impl heaplab_engine::symbolic::Clock for Wall {
    fn now_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

fn concolic_run_clocked(
    a: &heaplab_syntax::Analysis,
    target: &str,
    config: &ConcolicConfig,
) -> concolic::ConcolicRun {
    let z3 = SmtSolver::new(Z3Process::new(ProcessConfig::default()));
    let mut oracle = SmtOracle::new(&z3);
    let clock = Wall(std::time::Instant::now());
    concolic::generate(&a.program, &a.info, target, config, &mut oracle, common::solver(), &clock)
        .unwrap_or_else(|e| panic!("{target}: {e}"))
}

#[allow(dead_code)]
fn covered(g: &Generation, valid_only: bool) -> BTreeSet<(NodeId, bool)> {
    g.tests
        .iter()
        .filter(|t| !valid_only || t.validity.is_valid())
        .flat_map(|t| t.branches.iter().copied())
        .collect()
}

#[test]
fn phase1_inputs_are_valid_replayed_and_deterministic() {
    let a = common::load("bst.hl");
    let cfg = ConcolicConfig {
        ints: IntFill::Random { seed: 7, lo: -32, hi: 31 },
        phase2: false,
        ..ConcolicConfig::default()
    };
    let r1 = concolic_run(&a, "BST.remove", &cfg);
    let r2 = concolic_run(&a, "BST.remove", &cfg);
    assert_eq!(r1.generation.tests, r2.generation.tests, "same seed, same tests");
    // bst(this.root, lo, hi) at depth 2: CSF Fig. 3's six formulas (2 at level 1, 4 at level
    // 2, one instance unfolded at a time); every one is satisfiable.
    assert_eq!(r1.stats.phase1_calls, 6, "{:?}", r1.stats);
    assert_eq!(r1.stats.phase1_unsat + r1.stats.phase1_unknown, 0, "{:?}", r1.stats);
    assert!(!r1.generation.tests.is_empty());
    for t in &r1.generation.tests {
        assert_eq!(t.validity, Validity::Valid, "{}", t.name);
        for x in &t.input.args {
            let n = x.as_int().expect("int parameter");
            assert!((-32..=31).contains(&n), "{n} in CSF's range");
        }
    }
}

/// CSF's Table 1 counts phase-1 calls as #methods × #disjuncts of the root predicate at depth 1:
/// BST's 8 methods with `bst` (2 disjuncts) give 16.
#[test]
fn phase1_calls_at_depth_one_match_csf_table1_for_bst() {
    let a = common::load("bst.hl");
    let cfg = ConcolicConfig { depth: 1, phase2: false, ..ConcolicConfig::default() };
    let calls: Vec<usize> = targets_with_requires(&a)
        .iter()
        .map(|t| concolic_run(&a, t, &cfg).stats.phase1_calls)
        .collect();
    // findMax's `requires` adds `this.root != null`: still two formulas, one unsatisfiable.
    assert_eq!(calls, vec![2; calls.len()], "{calls:?}");
}

/// Methods where `concolic` at these bounds covers less than `sl` — issue 16 is left open
/// there. Preprocessing drops or cuts many nodes of the structures with a shared sentinel (AA
/// tree), a header (cdll) or parent pointers (TreeMap), and the budget runs out on the balanced
/// trees. The TreeMap lookups reach `sl`'s coverage only just within the time bound, so they are
/// listed too, to keep the test independent of the machine's speed. Every other method must
/// cover at least `sl`'s directions.
const KNOWN_GAPS: &[&str] = &[
    "AATree.insert",
    "AATree.remove",
    "AvlTree.insert",
    "LinkedList.remove",
    "TreeMap.put",
    "TreeMap.remove",
    "TreeMap.get",
    "TreeMap.containsKey",
    // hash32.hl runs under `ints java32`: the concolic loop's inputs and preprocessing do not
    // model the wrapping 32-bit semantics yet, so the branches that need a wrapped value
    // (abs(MIN_VALUE) < 0, the overflowing midpoint) are not reached (issue 16, left).
    "IntList.negativeAfterAbs",
    "mid",
    // dll.hl (issue 19): the header list again, with `Object` elements the precondition leaves
    // unconstrained; the loop bodies that find the argument among the elements (null or not)
    // and set's walk from the far end are not reached (issue 16, left). Named with their file:
    // jlist.hl has a LinkedList.set that concolic covers.
    "dll.hl LinkedList.contains",
    "dll.hl LinkedList.indexOf",
    "dll.hl LinkedList.lastIndexOf",
    "dll.hl LinkedList.set",
];

/// Whether `target` of example `file` is a known gap (listed by target, or by file and target).
fn known_gap(file: &str, target: &str) -> bool {
    KNOWN_GAPS.contains(&target) || KNOWN_GAPS.contains(&format!("{file} {target}").as_str())
}

/// Issue #16's acceptance over every example method with a `requires`: no invalid input
/// (model checker), every test replayed (generation fails otherwise), and branch coverage by
/// valid inputs at least `sl`'s at default bounds, measured the same way (replays, restricted to
/// the explorer's branch sites).
#[test]
fn concolic_inputs_are_valid_and_cover_what_sl_covers() {
    let mut failures = Vec::new();
    let mut methods = 0;
    for file in common::example_files() {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        let a = common::load(&name);
        for target in targets_with_requires(&a) {
            methods += 1;
            eprint!("{name:<16} {target:<28} ");
            let started = std::time::Instant::now();
            let mut config = Config::default();
            config.strategy = StrategyKind::Sl;
            let mut ex = common::explore(&a, &target, config);
            let sl = generate(&mut ex, &a.program, &a.info).expect("sl generation");
            let sl_cov = branches_taken(&ex, &sl.tests);
            let cfg = ConcolicConfig {
                max_runs: 30,
                max_phase2_calls: Some(120),
                // The budgets above bind; the time bound is a safety net, short on the listed
                // gaps (where it binds on TreeMap) and long elsewhere so load cannot change a
                // result that is asserted.
                timeout_ms: Some(if known_gap(&name, &target) { 10_000 } else { 90_000 }),
                ..ConcolicConfig::default()
            };
            let r = concolic_run_clocked(&a, &target, &cfg);
            let valid = r.generation.tests.iter().filter(|t| t.validity.is_valid());
            let cov = branches_taken(&ex, valid);
            for t in &r.generation.tests {
                if t.validity != Validity::Valid {
                    failures.push(format!("{name} {target}: {} is {:?}", t.name, t.validity));
                }
            }
            let missing: Vec<_> = sl_cov.difference(&cov).collect();
            if !missing.is_empty() && !known_gap(&name, &target) {
                failures.push(format!("{name} {target}: sl covers {missing:?}, concolic does not"));
            }
            eprintln!(
                "sl {:>3}/{:<3} concolic {:>3} ({} tests, p1/p2 calls {}/{}, runs {}{}) {} ms",
                sl_cov.len(),
                ex.branch_coverage().1,
                cov.len(),
                r.generation.tests.len(),
                r.stats.phase1_calls,
                r.stats.phase2_calls,
                r.stats.runs,
                r.stats.stopped_by.map(|b| format!(", stopped by {b}")).unwrap_or_default(),
                started.elapsed().as_millis()
            );
        }
    }
    assert!(methods > 40, "every example method with a `requires` ({methods})");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// CSF's motivating example (digest §7.6): BST.remove (examples/bst.hl's `remove` is the
/// paper's Fig. 1: the same eight branch sites in `removeAt` and `findMinAt`, 16 directions,
/// 15 feasible — `findMinAt`'s `t == null` is never true, since it is called on a non-null
/// right child and recurses on non-null left children). The branch the paper names as the
/// one phase 1 misses is the else of `findMin`'s `t.left == null` (its line 21): the
/// recursion, which needs a node with two children whose right child has a left child.
/// Phase 1 (CSF's depth 1) misses it; phase 2 covers it and reaches all 15 feasible directions.
/// Which directions are feasible is measured independently by `sl`'s exhaustive exploration.
#[test]
fn bst_remove_phase1_misses_the_findmin_recursion_and_phase2_covers_it() {
    let a = common::load("bst.hl");
    let text =
        std::fs::read_to_string(format!("{}/../../examples/bst.hl", env!("CARGO_MANIFEST_DIR")))
            .expect("bst.hl");
    let lines = heaplab_testgen::coverage::Lines::new(
        &a.program,
        &heaplab_syntax::SourceFile::new("bst.hl".to_string(), text.clone()),
    );
    let line_of = |needle: &str| {
        text.lines().position(|l| l.contains(needle)).map(|i| i + 1).expect("line in bst.hl")
    };
    let (first, last) =
        (line_of("Node removeAt(int x, Node t)"), line_of("return findMinAt(t.left);"));
    let in_remove = |s: &NodeId| lines.at(*s).is_some_and(|(l, _)| (first..=last).contains(&l));
    let mut config = Config::default();
    config.strategy = StrategyKind::Sl;
    config.bounds.k = 3;
    let mut ex = common::explore(&a, "BST.remove", config);
    let sl = generate(&mut ex, &a.program, &a.info).expect("sl generation");
    let sites: BTreeSet<NodeId> = ex.branch_sites().iter().copied().filter(in_remove).collect();
    assert_eq!(sites.len(), 8, "Fig. 1's eight branch sites");
    let restrict = |c: BTreeSet<(NodeId, bool)>| -> BTreeSet<(NodeId, bool)> {
        c.into_iter().filter(|(s, _)| sites.contains(s)).collect()
    };
    let feasible = restrict(branches_taken(&ex, &sl.tests));
    assert_eq!(feasible.len(), 15, "sl: 15 feasible directions");
    let recursion_line = line_of("else if (t.left == null)");
    let recursion: Vec<(NodeId, bool)> = sites
        .iter()
        .filter(|s| lines.at(**s).is_some_and(|(l, _)| l == recursion_line))
        .map(|s| (*s, false))
        .collect();
    assert_eq!(recursion.len(), 1);
    assert!(feasible.contains(&recursion[0]));

    let cfg = ConcolicConfig {
        depth: 1,
        max_runs: 60,
        order: concolic::SearchOrder::Bfs,
        ..ConcolicConfig::default()
    };
    let r = concolic_run(&a, "BST.remove", &cfg);
    let by_phase = |phase: u8| {
        restrict(
            r.generation
                .tests
                .iter()
                .zip(&r.stats.phase_of_test)
                .filter(|(t, p)| **p <= phase && t.validity == Validity::Valid)
                .flat_map(|(t, _)| t.branches.iter().copied())
                .collect(),
        )
    };
    let (p1, p2) = (by_phase(1), by_phase(2));
    let missed: Vec<_> = feasible.difference(&p1).map(|(s, d)| (lines.at(*s), *d)).collect();
    eprintln!(
        "BST.remove: phase 1 {} of 15 ({} tests, {} calls), missing {missed:?}; with phase 2 {} of 15 ({} tests, {} calls, {} runs)",
        p1.len(),
        r.stats.phase1_inputs,
        r.stats.phase1_calls,
        p2.len(),
        r.generation.tests.len(),
        r.stats.phase2_calls,
        r.stats.runs
    );
    assert_eq!(r.stats.phase1_calls, 2, "depth 1: one call per disjunct of bst");
    assert!(!p1.contains(&recursion[0]), "phase 1 misses the findMin recursion");
    assert!(p2.contains(&recursion[0]), "phase 2 covers the findMin recursion");
    assert_eq!(p2, feasible, "phase 2 reaches every feasible direction");
    assert!(r.generation.tests.iter().all(|t| t.validity == Validity::Valid));
    // The event stream: a node left unexplored by one run is tried, solved to a model, and a
    // later run passes through it (the node is new to the tree when it does).
    use concolic::ConcolicEvent as E;
    let covered_later = r.events.iter().enumerate().any(|(i, e)| match e {
        E::TryNode { node } => {
            matches!(r.events.get(i + 2), Some(E::Solve { outcome: "model" }))
                && r.events[i..]
                    .iter()
                    .any(|f| matches!(f, E::Branch { node: n, new: true, .. } if n == node))
        }
        _ => false,
    });
    assert!(covered_later, "an unexplored node is covered by a later run");
    let runs = r.events.iter().filter(|e| matches!(e, E::RunInput { .. })).count();
    assert_eq!(runs, r.stats.runs);
}
