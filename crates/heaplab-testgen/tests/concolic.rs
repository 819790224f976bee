//! Issue #16 (`concolic`, Concolic StarFinder), checked against independent oracles: the logic's
//! model checker judges every input (a `PreChecker`, which never calls `sat`), the interpreter
//! replays every test, and coverage is compared with `sl`'s replayed tests at default bounds.

mod common;

use heaplab_engine::symbolic::{Config, NoClock, StrategyKind};
use heaplab_logic::SmtOracle;
use heaplab_smt::{ProcessConfig, SmtSolver, Z3Process};
use heaplab_syntax::ast::NodeId;
use heaplab_testgen::concolic::{self, ConcolicConfig, IntFill};
use heaplab_testgen::coverage::branches_taken;
use heaplab_testgen::{generate, Generation, Validity};
use std::collections::BTreeSet;

fn targets_with_requires(a: &heaplab_syntax::Analysis) -> Vec<String> {
    a.program.targets_with_requires()
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

/// [`concolic_run`] that hands back the run's error instead of failing on it.
fn try_concolic_run(
    a: &heaplab_syntax::Analysis,
    target: &str,
    config: &ConcolicConfig,
) -> Result<concolic::ConcolicRun, heaplab_testgen::Error> {
    let z3 = SmtSolver::new(Z3Process::new(ProcessConfig::default()));
    let mut oracle = SmtOracle::new(&z3);
    concolic::generate(&a.program, &a.info, target, config, &mut oracle, common::solver(), &NoClock)
}

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

/// An input array is outside every footprint (formulas cannot index it): its length and the
/// cells a path read are free variables of the preprocessed formula, and the model's values
/// build the array. Reaching `found` needs a length above 2 and cell 1 equal to 7 (and cell 0
/// distinct from cell 1's index, since a read index is kept apart from the others): phase 1
/// alone gives an empty array.
#[test]
fn concolic_builds_input_arrays_from_the_cells_a_path_read() {
    let src = r#"
class Buf {
  int[] a;
  int probe(int i)
    requires this.a != null
  {
    if (this.a.length > 2 && 0 <= i && i < this.a.length && this.a[1] == 7 && this.a[i] < 0)
      return 1;
    return 0;
  }
}
"#;
    let a = heaplab_syntax::analyze(&heaplab_syntax::SourceFile::new("buf.hl", src));
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    let cfg = ConcolicConfig { max_runs: 60, ..ConcolicConfig::default() };
    let r = try_concolic_run(&a, "Buf.probe", &cfg).expect("concolic runs array inputs");
    let found = r.generation.tests.iter().find(|t| {
        matches!(t.expected, heaplab_testgen::Expected::Returned(heaplab_engine::Value::Int(1)))
    });
    let Some(t) = found else {
        panic!(
            "no input returns 1: {:#?}",
            r.generation.tests.iter().map(|t| t.input.heap.render()).collect::<Vec<_>>()
        )
    };
    assert!(t.validity.is_valid(), "{:?}", t.validity);
    // The test's own input, replayed by the interpreter, is what returned 1.
    let rendered = t.input.heap.render();
    assert!(rendered.contains("int[]"), "{rendered}");
    assert!(r.stats.phase2_inputs > 0);
}

/// A `requires` over an array's length (a resizing-array stack's `n <= a.length`) is a code
/// fact the logic cannot read, so the precondition's model has an array too short for its `n`.
/// Such inputs were all discarded: `isEmpty`, with no branch to negate, got no test, and `peek`
/// never reached its non-empty side. The loop now lengthens the input's arrays until the code
/// facts hold; every input stays valid (the model checker and the code facts classify it).
#[test]
fn concolic_lengthens_arrays_until_the_code_facts_of_the_requires_hold() {
    let src = r#"
class Underflow {}
class Stack {
  Object[] a;
  int n;
  bool isEmpty()
    requires this.a != null & 0 <= this.n & this.n <= this.a.length & this.a.length >= 2
  {
    return this.n == 0;
  }
  Object peek()
    requires this.a != null & 0 <= this.n & this.n <= this.a.length & this.a.length >= 2
  {
    if (this.n == 0) throw new Underflow();
    return this.a[this.n - 1];
  }
}
"#;
    let a = heaplab_syntax::analyze(&heaplab_syntax::SourceFile::new("stack.hl", src));
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    let cfg = ConcolicConfig { max_runs: 40, ..ConcolicConfig::default() };
    for (target, directions) in [("Stack.isEmpty", 0), ("Stack.peek", 2)] {
        let r = try_concolic_run(&a, target, &cfg).expect("concolic runs");
        let tests = &r.generation.tests;
        assert!(!tests.is_empty(), "{target}: no test ({:?})", r.stats);
        for t in tests {
            assert!(t.validity.is_valid(), "{target}: {} is {:?}", t.name, t.validity);
            assert!(t.input.heap.render().contains("Object[]"), "{target}: {}", t.name);
        }
        assert!(r.stats.code_fact_repairs > 0, "{target}: {:?}", r.stats);
        assert_eq!(covered(&r.generation, true).len(), directions, "{target}");
    }
}

/// Methods whose missing directions need a larger phase-2 budget than the test's default
/// (measured: AvlTree.insert's double rotations lie deep in a breadth-first frontier of ~4 000
/// nodes; it covers 40 of sl's 42 directions after 600 calls, all 42 after 2 000.
/// AATree.remove, which needed 1 000 calls, covers sl's 40 after 600 since preprocessing keeps
/// input objects apart). avlcmp.hl's insert (the object AVL of issue 19) covers 39 of sl's 43
/// directions after 2 000 calls and all 43 after 6 000 (about 60 runs, 48 s here); bstcmp.hl's
/// remove 26 of 29 after 200 runs and all after 400 (measured with the CLI's fill 0; 500 here).
/// (file and method, phase-2 calls, runs)
const LARGER_BUDGET: &[(&str, usize, usize)] = &[
    ("avl.hl AvlTree.insert", 2_000, 200),
    ("avlcmp.hl AvlTree.insert", 6_000, 200),
    ("bstcmp.hl BST.remove", 1_000, 500),
];

/// Methods whose runs get slow as the input arrays grow, with a smaller budget that still
/// covers sl's directions (file and method, phase-2 calls, runs). Each run of these solves its
/// nodes over array cells read at symbolic indexes (`a[hi]` with `hi = a.length - 1` walking
/// down, shellsort's halved gaps), and the logic's arithmetic search (`heaplab_logic::arith`,
/// the profile's top entry) grows steeply with the number of cells: measured in a release
/// build, partitionInt's 40 first runs take 3.4 s and its 80 first 15 s; shellsortInt's 7th
/// run alone 18 s. With the default 200 runs shellsort.hl took 740 s of this test in a debug
/// build, Vector.removeElementAt 130 s. sl's directions are covered within the first runs
/// (breadth first, short arrays: 10 for removeElementAt, 20 for insertElementAt).
const SMALLER_BUDGET: &[(&str, usize, usize)] = &[
    ("partition.hl partition", 60, 40),
    ("partition.hl partitionInt", 30, 20),
    ("shellsort.hl shellsort", 30, 20),
    ("shellsort.hl shellsortInt", 4, 3),
    ("vector.hl Vector.removeElementAt", 60, 40),
    ("vector.hl Vector.insertElementAt", 60, 40),
];

/// Methods checked at settings near `heaplab compare`'s own (the issue's "default bounds"):
/// phase 1 at depth 8 with up to 256 formulas, unconstrained integers 0, DFS (compare's order
/// was DFS when these budgets were measured; it is now DFS and BFS in turn, which
/// `heaplab-cli/tests/concolic_cmd.rs`'s `compare_sweep` checks at compare's 60 s clock), with a budget of
/// runs in place of the clock. (file and method, runs)
///
/// treemapcmp.hl's put (object-key red-black insertion behind `assume ordered`) needs phase 1's
/// deeper trees: the rebalancing cases want a red parent whose sibling, the uncle, exists and
/// is red (or black, for the rotations), under keys that order the new entry beneath it. At
/// this test's small settings (phase 1 at depth 3, BFS) 59 of sl's 86 directions are covered
/// after 200 runs / 600 calls, 85 after 800 / 6 000. At compare's settings all 86 are covered
/// after 350 runs (87 directions; 88 once the tree is exhausted, at 1 157 runs), and
/// `heaplab compare` prints 88/118 against sl's 86/118.
///
/// disjsets.hl's `DisjSetsFast.union` assumes a forest and two distinct roots `root1`, `root2`
/// (integer arguments): at the small settings the seeded fill rarely draws two roots, and 200
/// runs cover 18 of sl's 20 directions; at compare's (DFS, fill 0) 200 runs cover all 20.
const COMPARE_SETTINGS: &[(&str, usize)] =
    &[("treemapcmp.hl TreeMap.put", 350), ("disjsets.hl DisjSetsFast.union", 200)];

/// Methods where `concolic` covers less than `sl`: issue 16 would stay open for them
/// (validity and replay are still checked, and each must still miss something). None now.
const KNOWN_GAPS: &[&str] = &[];

/// Issue #16's acceptance over every example method with a `requires`: no invalid input
/// (model checker), every test replayed (generation fails otherwise), and branch coverage by
/// valid inputs at least `sl`'s at default bounds, measured the same way (replays, restricted to
/// the explorer's branch sites). Only [`KNOWN_GAPS`] are exempt from coverage (and must still
/// miss something): bstcmp.hl's `Comparable` elements, whose comparisons read the keys of
/// objects outside the precondition's footprint, are covered since phase 2 chooses those keys
/// (docs/symbolic.md, "concolic").
///
/// The methods are split in two halves (alternating), one test each, so that the two run on
/// two cores.
#[test]
fn concolic_inputs_are_valid_and_cover_what_sl_covers_even() {
    concolic_covers_what_sl_covers(0);
}

/// The other half of [`concolic_inputs_are_valid_and_cover_what_sl_covers_even`].
#[test]
fn concolic_inputs_are_valid_and_cover_what_sl_covers_odd() {
    concolic_covers_what_sl_covers(1);
}

fn concolic_covers_what_sl_covers(half: usize) {
    let mut failures = Vec::new();
    let mut methods = 0;
    let mut index = 0;
    // `CONCOLIC_ONLY=file.hl` measures one example file.
    let only = std::env::var("CONCOLIC_ONLY").ok();
    for file in common::example_files() {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if only.as_ref().is_some_and(|o| *o != name) {
            continue;
        }
        let a = common::load(&name);
        for target in targets_with_requires(&a) {
            index += 1;
            // `./build.sh test --quick`: every fourth method of each half (CI runs them all).
            if index % 2 != half || (common::quick() && index % 8 >= 2) {
                continue;
            }
            let key = format!("{name} {target}");
            eprint!("{name:<16} {target:<28} ");
            let started = std::time::Instant::now();
            // Phase 1 at depth 3 (at most 48 formulas: AVL's third level alone has hundreds of
            // slow ones) with CSF's seeded random fill in [-32, 31] (what BST.remove needs to
            // reproduce the paper), then the loop under a deterministic budget of runs
            // and solver calls. No time bound: at a load average of 20 a 600 s one cut
            // AvlTree.insert short of `sl`'s coverage, and the counts bound every run anyway.
            let (calls, runs) = LARGER_BUDGET
                .iter()
                .chain(SMALLER_BUDGET)
                .find(|(t, _, _)| *t == key)
                .map_or((600, 200), |(_, c, r)| (*c, *r));
            let cfg = match COMPARE_SETTINGS.iter().find(|(t, _)| *t == key) {
                Some((_, runs)) => ConcolicConfig {
                    depth: 8,
                    order: concolic::SearchOrder::Dfs,
                    max_runs: *runs,
                    ..ConcolicConfig::default()
                },
                None => ConcolicConfig {
                    depth: 3,
                    max_formulas: 48,
                    ints: IntFill::Random { seed: 1, lo: -32, hi: 31 },
                    max_runs: runs,
                    max_phase2_calls: Some(calls),
                    ..ConcolicConfig::default()
                },
            };
            let r = match try_concolic_run(&a, &target, &cfg) {
                Ok(r) => r,
                Err(e) => panic!("{name} {target}: {e}"),
            };
            methods += 1;
            let mut config = Config::default();
            config.strategy = StrategyKind::Sl;
            let mut ex = common::explore(&a, &target, config);
            let sl = generate(&mut ex, &a.program, &a.info).expect("sl generation");
            let sl_cov = branches_taken(&ex, &sl.tests);
            let valid = r.generation.tests.iter().filter(|t| t.validity.is_valid());
            let cov = branches_taken(&ex, valid);
            for t in &r.generation.tests {
                if t.validity != Validity::Valid {
                    failures.push(format!("{name} {target}: {} is {:?}", t.name, t.validity));
                }
            }
            let missing: Vec<_> = sl_cov.difference(&cov).collect();
            let gap = KNOWN_GAPS.contains(&key.as_str());
            if missing.is_empty() == gap {
                failures.push(format!(
                    "{name} {target}: sl covers {missing:?}, concolic does not (listed: {gap})"
                ));
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
    assert!(
        methods > 20 || only.is_some(),
        "half of the example methods with a `requires` ({methods})"
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

/// CSF's motivating example (digest §7.6): BST.remove (examples/bst.hl's `remove` is the
/// paper's Fig. 1: the same eight branch sites in `removeAt` and `findMinAt`, 16 directions,
/// 15 feasible — `findMinAt`'s `t == null` is never true, since it is called on a non-null
/// right child and recurses on non-null left children). The branch the paper names as the
/// one phase 1 misses is the else of `findMin`'s `t.left == null` (its line 21): the
/// recursion, which needs a node with two children whose right child has a left child (four
/// nodes, one unfolding more than phase 1 makes).
///
/// Phase 1 at depth 3 solves the 2 + 4 + 16 formulas of levels 1..=3 — the paper's 22 tests —
/// with `x` drawn by CSF's seeded random fill in [-32, 31]. It covers 14 of the 15 feasible
/// directions and misses exactly the recursion; phase 2 covers it. Which directions are
/// feasible is measured independently by `sl`'s exhaustive exploration, coverage by replays.
/// `SEED` is one seed of the fill; no seed lets phase 1 reach the recursion (checked below on
/// several), since no formula of levels 1..=3 has four nodes.
const SEED: u64 = 2;

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
        depth: 3,
        max_runs: 80,
        order: concolic::SearchOrder::Bfs,
        ints: IntFill::Random { seed: SEED, lo: -32, hi: 31 },
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
    assert_eq!(r.stats.phase1_calls, 22, "depth 3: CSF's 22 formulas (Fig. 3 and one level more)");
    assert_eq!(r.stats.phase1_models, 22, "one model per satisfiable formula");
    let mut expected_p1 = feasible.clone();
    expected_p1.remove(&recursion[0]);
    assert_eq!(p1, expected_p1, "phase 1 covers 14 of 15, all but the findMin recursion");
    assert!(p2.contains(&recursion[0]), "phase 2 covers the findMin recursion");
    assert_eq!(p2, feasible, "phase 2 reaches every feasible direction");
    assert!(r.generation.tests.iter().all(|t| t.validity == Validity::Valid));
    // The event stream: a node left unexplored by one run is tried, solved to a model, and a
    // later run passes through it (the node is new to the tree when it does).
    use concolic::ConcolicEvent as E;
    let covered_later = r.events.iter().enumerate().any(|(i, e)| match e {
        E::TryNode { node } => {
            matches!(
                r.events[i + 1..].iter().find(|f| matches!(f, E::Solve { .. })),
                Some(E::Solve { outcome: "model" })
            ) && r.events[i..]
                .iter()
                .any(|f| matches!(f, E::Branch { node: n, new: true, .. } if n == node))
        }
        _ => false,
    });
    assert!(covered_later, "an unexplored node is covered by a later run");
    // A model's formula is said just before the model: `Solved`, then `Solve { model }`.
    for (i, e) in r.events.iter().enumerate() {
        let solved = matches!(e, E::Solved { formula } if !formula.is_empty());
        let next_is_model = matches!(r.events.get(i + 1), Some(E::Solve { outcome: "model" }));
        assert_eq!(solved, next_is_model, "event {i}: Solved and Solve {{ model }} go together");
    }
    // Replaying the events rebuilds the constraint tree as a front end draws it: every node a
    // run passes was explored; a node announced unexplored is later either passed by a run
    // (explored), or tried and pruned, or left. Nodes are explored only after they were
    // announced unexplored or passed for the first time, and pruned only after being tried.
    use std::collections::BTreeMap;
    #[derive(PartialEq, Debug, Clone, Copy)]
    enum St {
        Unexplored,
        Tried,
        Explored,
        Pruned,
    }
    let mut tree: BTreeMap<Vec<u16>, St> = BTreeMap::new();
    let mut unexplored_then_explored = 0;
    for e in &r.events {
        match e {
            E::Unexplored { node } => {
                assert_eq!(
                    tree.insert(node.clone(), St::Unexplored),
                    None,
                    "{node:?} announced once"
                );
            }
            E::TryNode { node } => {
                assert_eq!(tree.insert(node.clone(), St::Tried), Some(St::Unexplored), "{node:?}");
            }
            E::Deferred { node, .. } => {
                assert_eq!(tree.insert(node.clone(), St::Unexplored), Some(St::Tried), "{node:?}");
            }
            E::Pruned { node, .. } => {
                assert_eq!(tree.insert(node.clone(), St::Pruned), Some(St::Tried), "{node:?}");
            }
            E::Branch { node, new, .. } => {
                let before = tree.insert(node.clone(), St::Explored);
                assert_eq!(
                    *new,
                    before != Some(St::Explored),
                    "{node:?}: new iff not yet explored"
                );
                assert_ne!(before, Some(St::Pruned), "{node:?}: a pruned node is never reached");
                if before == Some(St::Tried) {
                    unexplored_then_explored += 1;
                }
            }
            _ => {}
        }
    }
    assert!(unexplored_then_explored > 0, "some unexplored node is covered by a later run");
    let left = tree.values().filter(|s| **s == St::Unexplored).count();
    assert_eq!(left, r.stats.unexplored_left, "unexplored nodes left");
    let pruned = tree.values().filter(|s| **s == St::Pruned).count();
    assert_eq!(pruned, r.stats.pruned_unsat + r.stats.pruned_unknown);
    let runs = r.events.iter().filter(|e| matches!(e, E::RunInput { .. })).count();
    assert_eq!(runs, r.stats.runs);
}

/// Phase 1 never reaches `findMin`'s recursion at depth 3, whatever the seed of the integer
/// fill: no formula of levels 1..=3 has the four nodes it needs (the reason the paper gives
/// for its one missed branch). Seeds change which equality branches phase 1 reaches, not this.
#[test]
fn bst_remove_phase1_misses_the_recursion_for_every_seed() {
    let a = common::load("bst.hl");
    let text =
        std::fs::read_to_string(format!("{}/../../examples/bst.hl", env!("CARGO_MANIFEST_DIR")))
            .expect("bst.hl");
    let lines = heaplab_testgen::coverage::Lines::new(
        &a.program,
        &heaplab_syntax::SourceFile::new("bst.hl".to_string(), text.clone()),
    );
    let line = text.lines().position(|l| l.contains("else if (t.left == null)")).expect("line") + 1;
    for seed in 0..8 {
        let cfg = ConcolicConfig {
            depth: 3,
            phase2: false,
            ints: IntFill::Random { seed, lo: -32, hi: 31 },
            ..ConcolicConfig::default()
        };
        let r = concolic_run(&a, "BST.remove", &cfg);
        assert_eq!(r.stats.phase1_models, 22);
        let reached = r
            .generation
            .tests
            .iter()
            .flat_map(|t| t.branches.iter())
            .any(|(s, d)| !*d && lines.at(*s).is_some_and(|(l, _)| l == line));
        assert!(!reached, "seed {seed}: phase 1 reached the findMin recursion");
        // The fill's range, or one of the input heap's own integers.
        for t in &r.generation.tests {
            let x = t.input.args[0].as_int().expect("int x");
            let heap_has =
                t.input.heap.objects().any(|(_, o)| {
                    o.fields.iter().any(|(_, v)| *v == heaplab_engine::Value::Int(x))
                });
            assert!((-32..=31).contains(&x) || heap_has, "seed {seed}: x = {x}");
        }
    }
}

/// A solved input reaches the node it was solved for when preprocessing keeps the run's input
/// objects apart: on dll.hl's header list `this.header` and `this.header.next` may resolve to
/// one cell of the empty list's unfolding, and without the disequality the model did (every
/// phase-2 run of `indexOf` missed its node, and the loop never found the argument among the
/// elements). Coverage is measured against `sl`'s replayed tests, as in the acceptance test.
#[test]
fn dll_index_of_runs_reach_their_nodes_and_find_the_argument() {
    let a = common::load("dll.hl");
    let mut config = Config::default();
    config.strategy = StrategyKind::Sl;
    let mut ex = common::explore(&a, "LinkedList.indexOf", config);
    let sl = generate(&mut ex, &a.program, &a.info).expect("sl generation");
    let sl_cov = branches_taken(&ex, &sl.tests);
    let cfg = ConcolicConfig {
        depth: 3,
        ints: IntFill::Random { seed: 1, lo: -32, hi: 31 },
        max_phase2_calls: Some(200),
        ..ConcolicConfig::default()
    };
    let r = concolic_run(&a, "LinkedList.indexOf", &cfg);
    assert!(r.stats.phase2_inputs > 0, "{:?}", r.stats);
    assert_eq!(r.stats.missed_target, 0, "{:?}", r.stats);
    let cov = branches_taken(&ex, r.generation.tests.iter().filter(|t| t.validity.is_valid()));
    let missing: Vec<_> = sl_cov.difference(&cov).collect();
    assert!(missing.is_empty(), "sl covers {missing:?}, concolic does not");
}

/// `generate_observed` shows each event as it is recorded, in order, with the tests generated
/// so far (what the page streams while the loop runs): the same events `generate` returns, and
/// at each `NewInput` the test it names is the newest.
#[test]
fn the_observer_sees_every_event_as_it_happens() {
    let a = common::load("sll.hl");
    let config = ConcolicConfig::default();
    let z3 = SmtSolver::new(Z3Process::new(ProcessConfig::default()));
    let mut oracle = SmtOracle::new(&z3);
    let mut seen = Vec::new();
    let mut tests_at_new_input = Vec::new();
    let r = concolic::generate_observed(
        &a.program,
        &a.info,
        "SLL.remove",
        &config,
        &mut oracle,
        common::solver(),
        &NoClock,
        &mut |e, g| {
            if let concolic::ConcolicEvent::NewInput { test } = e {
                assert_eq!(g.tests.last().map(|t| &t.name), Some(test), "the newest test");
                tests_at_new_input.push(g.tests.len());
            }
            seen.push(e.clone());
        },
    )
    .expect("SLL.remove");
    assert_eq!(seen, r.events);
    assert_eq!(tests_at_new_input, (1..=r.generation.tests.len()).collect::<Vec<_>>());
    let plain = concolic_run(&a, "SLL.remove", &config);
    assert_eq!((plain.events, plain.stats), (r.events, r.stats), "observing changes nothing");
}

/// bstcmp.hl's `Comparable` elements and `Comparator` are objects outside `tree`'s footprint;
/// every comparison reads their keys (and the comparator's `nullKey`). Phase 1's models leave
/// them at their defaults (null elements, key 0), so `assume isBst` rejects every tree with two
/// nodes or more and phase 1 alone misses `findMin`'s loop. Phase 2 chooses the keys the path
/// needs (the model's values are written into those objects): its inputs have trees of several
/// elements with distinct keys, each run reaches the node it was solved for, and together they
/// cover every direction `sl` covers, with valid inputs only.
#[test]
fn concolic_chooses_the_keys_of_elements_outside_the_footprint() {
    let a = common::load("bstcmp.hl");
    let target = "BST.findMin";
    let mut config = Config::default();
    config.strategy = StrategyKind::Sl;
    let mut ex = common::explore(&a, target, config);
    let sl = generate(&mut ex, &a.program, &a.info).expect("sl generation");
    let sl_cov = branches_taken(&ex, &sl.tests);
    let cfg = ConcolicConfig {
        depth: 3,
        ints: IntFill::Random { seed: 1, lo: -32, hi: 31 },
        ..ConcolicConfig::default()
    };
    let r = concolic_run(&a, target, &cfg);
    assert!(r.generation.tests.iter().all(|t| t.validity == Validity::Valid));
    assert_eq!(r.stats.missed_target, 0, "{:?}", r.stats);
    let by_phase = |phase: u8| -> BTreeSet<(NodeId, bool)> {
        let tests = r.generation.tests.iter().zip(&r.stats.phase_of_test);
        branches_taken(&ex, tests.filter(|(_, p)| **p <= phase).map(|(t, _)| t))
    };
    assert!(!by_phase(1).is_superset(&sl_cov), "phase 1 alone misses some of sl's directions");
    assert!(by_phase(2).is_superset(&sl_cov), "sl {sl_cov:?}, concolic {:?}", by_phase(2));
    let distinct_keys = |t: &heaplab_testgen::GeneratedTest| {
        let keys: BTreeSet<i64> = t
            .input
            .heap
            .objects()
            .filter(|(_, o)| o.class == "Comparable")
            .filter_map(|(id, _)| t.input.heap.field(id, "key").and_then(|v| v.as_int()))
            .collect();
        keys.len()
    };
    let several = r
        .generation
        .tests
        .iter()
        .zip(&r.stats.phase_of_test)
        .filter(|(t, p)| **p == 2 && distinct_keys(t) >= 2)
        .count();
    assert!(several > 0, "some phase-2 input has elements with distinct keys");
}

/// A root of the precondition that no atom mentions is outside the footprint even when its class
/// is claimed elsewhere (avlcmp.hl's `avl` claims its `Comparable` elements; insert's argument
/// `x` is such a root). Preprocessing used to drop an access to its key like an access nothing
/// covers, so no node comparing `x` with a claimed element had a model: concolic covered one of
/// the comparison's two directions. It now chooses `x`'s key and covers both, with valid inputs.
#[test]
fn concolic_chooses_the_key_of_an_argument_the_precondition_does_not_mention() {
    let source = "class N { Comparable e; N next; }\n\
                  int f(Comparator c, N n, Comparable x)\n\
                  \x20 requires exists Comparable e, N m, int k.\n\
                  \x20   n -> N { e: e, next: m } * e -> Comparable { key: k } & c != null & x != null\n\
                  {\n\
                  \x20 if (c.compare(x, n.e) < 0) return 1;\n\
                  \x20 return 0;\n\
                  }\n";
    let a = heaplab_syntax::analyze(&heaplab_syntax::SourceFile::new("t.hl", source));
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    let r = concolic_run(&a, "f", &ConcolicConfig::default());
    assert!(r.generation.tests.iter().all(|t| t.validity == Validity::Valid));
    let results: BTreeSet<String> =
        r.generation.tests.iter().map(|t| format!("{:?}", t.expected)).collect();
    assert_eq!(results.len(), 2, "both directions of the comparison: {results:?}");
}

/// Issue 32: at CSF's Experiment 1 settings (phase-1 depth 1, at most 200 runs) the loop runs
/// out of unexplored nodes on BST's recursive methods, within a count of solver calls, and its
/// valid inputs cover every direction `sl` covers. The constraint tree holds the program's
/// branches: the tests an `ensures` makes as it walks the output heap, and the untaken alias
/// choices of lazy initialization under a `requires` (the input generator decides which object
/// a reference is), are not nodes. Before, `insert` stopped at its 200 runs with 2,324 nodes
/// unexplored after 477 phase-2 calls, `remove` with 2,445 after 522.
#[test]
fn concolic_converges_on_bst_at_csf_settings() {
    let a = common::load("bst.hl");
    // The phase-2 calls each method may make: its tree has 106 and 199 nodes now; CSF's own
    // counts (6 for insert) are within 10 to 20 times, its `star.max_depth` being 1 or 2
    // where HeapLab unfolds 4 times along a formula.
    // With CSF's own per-method unfolding budget (its artifact's `star.max_depth`: 1 for
    // insert, 2 for remove) the calls are within 3 times CSF's: 6 for insert, 33 for BST's
    // eight methods together. The coverage is the same.
    for (target, max_calls, max_unfold) in [
        ("BST.insert", 80, 4),
        ("BST.remove", 160, 4),
        ("BST.insert", 18, 1),
        ("BST.remove", 99, 2),
    ] {
        let cfg =
            ConcolicConfig { depth: 1, max_runs: 200, max_unfold, ..ConcolicConfig::default() };
        converges_covering_sl(&a, target, &cfg, max_calls);
    }
}

/// Runs `concolic` on `target` and checks that it converged (no bound stopped it, no node left
/// unexplored) within `max_calls` phase-2 calls and covered every direction `sl` covers with
/// valid inputs.
fn converges_covering_sl(
    a: &heaplab_syntax::Analysis,
    target: &str,
    cfg: &ConcolicConfig,
    max_calls: usize,
) -> concolic::ConcolicRun {
    let r = concolic_run(a, target, cfg);
    assert_eq!(r.stats.stopped_by, None, "{target}: {:?}", r.stats);
    assert_eq!(r.stats.unexplored_left, 0, "{target}: {:?}", r.stats);
    assert!(r.stats.phase2_calls <= max_calls, "{target}: {:?}", r.stats);
    let mut config = Config::default();
    config.strategy = StrategyKind::Sl;
    let mut ex = common::explore(a, target, config);
    let sl = generate(&mut ex, &a.program, &a.info).expect("sl generation");
    let sl_cov = branches_taken(&ex, &sl.tests);
    let cov = branches_taken(&ex, r.generation.tests.iter().filter(|t| t.validity.is_valid()));
    assert!(cov.is_superset(&sl_cov), "{target}: sl {sl_cov:?}, concolic {cov:?}");
    r
}

/// dll.hl never compares an `Entry` with null (its loops stop at the header): a null choice of
/// `next`, `previous` or `header` can only dereference null, which `cdll` rules out, so it is
/// left to the precondition rather than made a node that costs a solver call to refute. At
/// CSF's settings these methods converge with fewer phase-2 calls than when every null choice
/// was a node (49, 41 and 5), and still cover every direction `sl` covers with valid inputs.
#[test]
fn null_choices_the_code_never_tests_are_left_to_the_precondition() {
    let a = common::load("dll.hl");
    for (target, max_calls) in
        [("LinkedList.addFirst", 40), ("LinkedList.removeFirst", 33), ("LinkedList.getFirst", 3)]
    {
        let cfg = ConcolicConfig { depth: 1, max_unfold: 2, ..ConcolicConfig::default() };
        let r = converges_covering_sl(&a, target, &cfg, max_calls);
        for t in &r.generation.tests {
            assert!(t.validity.is_valid(), "{target} {}: {:?}", t.name, t.validity);
        }
    }
}

/// dll.hl's `element` is an `Object`, a class without fields: where the code never compares
/// elements (`set`, `toArray`, `clone`: it stores, passes and returns them) its null, new and
/// alias choices decide no branch, so they are left to the input generator. These methods
/// converge at CSF's settings with fewer phase-2 calls than when those choices were nodes (51,
/// 41 and 30), and still cover every direction `sl` covers with valid inputs. `indexOf`
/// compares elements, and its choices stay nodes: it still needs its 36 calls.
#[test]
fn choices_of_values_the_code_never_compares_are_left_to_the_generator() {
    let a = common::load("dll.hl");
    let cfg = ConcolicConfig { depth: 1, max_unfold: 2, ..ConcolicConfig::default() };
    for (target, max_calls) in
        [("LinkedList.set", 30), ("LinkedList.toArray", 25), ("LinkedList.clone", 20)]
    {
        let r = converges_covering_sl(&a, target, &cfg, max_calls);
        for t in &r.generation.tests {
            assert!(t.validity.is_valid(), "{target} {}: {:?}", t.name, t.validity);
        }
    }
    let r = concolic_run(&a, "LinkedList.indexOf", &cfg);
    assert!(r.stats.phase2_calls >= 30, "indexOf: {} calls", r.stats.phase2_calls);
}

/// Iterative deepening of the unfolding budget (`first_unfold` 1, then one more where the
/// budget cut a node's formulas): under the same number of phase-2 solver calls it covers
/// more directions of TreeMap `remove` than a single budget of 4, which spends its calls on
/// deep formulas for nodes that shallow ones decide. Every node it puts off is tried again,
/// deeper, before the loop ends.
#[test]
fn deepening_the_unfolding_budget_covers_shallow_nodes_first() {
    let a = common::load("treemap.hl");
    let target = "TreeMap.remove";
    let run = |first_unfold: u32| {
        let cfg = ConcolicConfig {
            depth: 1,
            max_unfold: 4,
            first_unfold,
            max_phase2_calls: Some(200),
            ..ConcolicConfig::default()
        };
        let r = concolic_run(&a, target, &cfg);
        let cov = covered(&r.generation, true);
        (r, cov)
    };
    let (deep, deep_cov) = run(1);
    let (flat, flat_cov) = run(4);
    assert_eq!(deep.stats.stopped_by, Some("solver calls"), "{:?}", deep.stats);
    assert_eq!(flat.stats.stopped_by, Some("solver calls"), "{:?}", flat.stats);
    assert!(deep.stats.deepened > 0 && deep.stats.deepest_unfold > 1, "{:?}", deep.stats);
    assert_eq!(flat.stats.deepened, 0, "{:?}", flat.stats);
    assert!(
        deep_cov.len() > flat_cov.len(),
        "deepening {} directions, budget 4 {}",
        deep_cov.len(),
        flat_cov.len(),
    );
    for t in deep.generation.tests.iter().chain(&flat.generation.tests) {
        assert!(t.validity.is_valid(), "{}: {:?}", t.name, t.validity);
    }
}
