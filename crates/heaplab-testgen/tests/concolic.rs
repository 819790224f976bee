//! Issue #16 (`concolic`, Concolic StarFinder), checked against independent oracles: the logic's
//! model checker judges every input (a `PreChecker`, which never calls `sat`), the interpreter
//! replays every test, and coverage is compared with `sl`'s replayed tests at default bounds.

mod common;

use heaplab_engine::symbolic::{Config, NoClock, StrategyKind};
use heaplab_logic::SmtOracle;
use heaplab_smt::{ProcessConfig, SmtSolver, Z3Process};
use heaplab_syntax::ast::{Item, NodeId};
use heaplab_testgen::concolic::{self, ConcolicConfig, IntFill};
use heaplab_testgen::{Generation, Validity};
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

/// Prints what each phase covers on BST.remove (exploration aid; asserts validity).
#[test]
fn bst_remove_phase2_report() {
    let a = common::load("bst.hl");
    let text =
        std::fs::read_to_string(format!("{}/../../examples/bst.hl", env!("CARGO_MANIFEST_DIR")))
            .expect("bst.hl");
    let lines = heaplab_testgen::coverage::Lines::new(
        &a.program,
        &heaplab_syntax::SourceFile::new("bst.hl".to_string(), text),
    );
    let mut config = Config::default();
    config.strategy = StrategyKind::Sl;
    let ex = heaplab_engine::symbolic::Explorer::new(
        &a.program,
        &a.info,
        "BST.remove",
        config,
        common::solver(),
        Box::new(NoClock),
    )
    .expect("BST.remove");
    let sites = ex.branch_sites().clone();
    for depth in 1..=3 {
        for order in [concolic::SearchOrder::Dfs, concolic::SearchOrder::Bfs] {
            let cfg = ConcolicConfig { depth, max_runs: 60, order, ..ConcolicConfig::default() };
            let r = concolic_run(&a, "BST.remove", &cfg);
            let p1: BTreeSet<_> = r
                .generation
                .tests
                .iter()
                .zip(&r.stats.phase_of_test)
                .filter(|(_, p)| **p == 1)
                .flat_map(|(t, _)| t.branches.iter().copied())
                .filter(|(s, _)| sites.contains(s))
                .collect();
            let all: BTreeSet<_> = covered(&r.generation, true)
                .into_iter()
                .filter(|(s, _)| sites.contains(s))
                .collect();
            let missing: Vec<_> = all.difference(&p1).map(|(s, d)| (lines.at(*s), *d)).collect();
            let never: Vec<_> = sites
                .iter()
                .flat_map(|s| [(*s, false), (*s, true)])
                .filter(|b| !all.contains(b))
                .map(|(s, d)| (lines.at(s), d))
                .collect();
            eprintln!("depth {depth} {order:?}: sites {} p1 {} all {} p1-missing {missing:?} never {never:?} tests {} p1 calls {} p2 calls {} runs {}", sites.len()*2, p1.len(), all.len(), r.generation.tests.len(), r.stats.phase1_calls, r.stats.phase2_calls, r.stats.runs);
            for t in &r.generation.tests {
                assert_eq!(t.validity, Validity::Valid, "{}", t.name);
            }
        }
    }
}
