//! `concolic` on a method without `requires` (issue 30 item 1): the input heap is arbitrary up
//! to `k`, as lazy initialization makes it, not the empty heap. A list's `findPrev` walks
//! `this.head`; from the empty heap alone concolic covered none of its loop's directions that
//! need a node. The oracle is the `lazy` explorer at the same `k`: the branch directions the
//! replayed concolic tests take are the ones lazy's tests take, no input is invalid, and the
//! heap shapes deeper than `k` are cut and counted, never silently dropped.

mod common;

use heaplab_engine::symbolic::{Config, StrategyKind};
use heaplab_logic::SmtOracle;
use heaplab_smt::{ProcessConfig, SmtSolver, Z3Process};
use heaplab_syntax::{analyze, Analysis, SourceFile};
use heaplab_testgen::concolic::{self, ConcolicConfig};
use heaplab_testgen::coverage::branches_taken;
use heaplab_testgen::{generate, Expected, Validity};

const FIND_PREV: &str = "
class Node { int val; Node next; }

class List {
  Node head;

  Node findPrev(int x) {
    Node prev = null;
    Node cur = this.head;
    while (cur != null && cur.val != x) {
      prev = cur;
      cur = cur.next;
    }
    if (cur == null) return null;
    return prev;
  }
}
";

fn concolic_at(a: &Analysis, target: &str, k: u32) -> concolic::ConcolicRun {
    let z3 = SmtSolver::new(Z3Process::new(ProcessConfig::default()));
    let mut oracle = SmtOracle::new(&z3);
    let cfg = ConcolicConfig { k, ..ConcolicConfig::default() };
    concolic::generate(
        &a.program,
        &a.info,
        target,
        &cfg,
        &mut oracle,
        common::solver(),
        &heaplab_engine::symbolic::NoClock,
    )
    .unwrap_or_else(|e| panic!("{target}: {e}"))
}

#[test]
fn find_prev_without_requires_covers_what_lazy_covers_at_the_same_k() {
    let a = analyze(&SourceFile::new("findprev.hl", FIND_PREV.to_string()));
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    let target = "List.findPrev";
    for k in [1, 2] {
        let mut config = Config::default();
        config.strategy = StrategyKind::Lazy;
        config.bounds.k = k;
        let mut ex = common::explore(&a, target, config);
        let lazy = generate(&mut ex, &a.program, &a.info).expect("lazy generation");
        let lazy_cov = branches_taken(&ex, &lazy.tests);
        let r = concolic_at(&a, target, k);
        // Without `requires` every input is valid; the model checker's verdict says so.
        let valid: Vec<_> =
            r.generation.tests.iter().filter(|t| t.validity == Validity::NoPrecondition).collect();
        assert_eq!(valid.len(), r.generation.tests.len(), "k = {k}: an input is not valid");
        let cov = branches_taken(&ex, valid.iter().copied());
        eprintln!(
            "k = {k}: lazy {}/{} directions ({} tests), concolic {} ({} tests, {} runs, {} pruned by k)",
            lazy_cov.len(),
            ex.branch_coverage().1,
            lazy.tests.len(),
            cov.len(),
            r.generation.tests.len(),
            r.stats.runs,
            r.stats.pruned_k,
        );
        assert_eq!(cov, lazy_cov, "k = {k}: concolic and lazy cover different directions");
        assert!(r.stats.stopped_by.is_none() && r.stats.unexplored_left == 0, "k = {k}");
        // The walk needs a node whose value is not `x` followed by one whose value is: a
        // predecessor is returned only from a list of two nodes, which `k = 1` cuts.
        let returns_prev = r.generation.tests.iter().any(|t| {
            matches!(&t.expected, Expected::Returned(heaplab_engine::Value::Ref(Some(_))))
        });
        assert_eq!(returns_prev, k >= 2, "k = {k}: a predecessor returned");
        if k == 1 {
            assert!(r.stats.pruned_k > 0, "k = 1 cuts the second node and counts it");
        }
    }
}
