//! The `sl` strategy (JSF): predicate instances of `requires` unfold on first access.

mod common;

use heaplab_engine::symbolic::{
    Bound, Config, Event, Explorer, ForkKind, NoClock, PathOutcome, StrategyKind,
};

fn sl(k: u32) -> Config {
    let mut config = Config::default();
    config.strategy = StrategyKind::Sl;
    config.bounds.k = k;
    config
}

/// isEmpty only tests `root == null`: one unfolding of `bst(root)` decides it, the rest of the
/// tree stays folded, so there are two paths whatever k is (lazier# needs one per tree).
#[test]
fn is_empty_unfolds_once() {
    let a = common::load("bst.hl");
    for k in 1..=3 {
        let ex = common::explore(&a, "BST.isEmpty", sl(k));
        assert_eq!(ex.stats().feasible, 2, "k = {k}");
        assert_eq!(ex.stats().bounded, 0);
    }
}

/// insert walks one branch of the tree: the same cases as lazier# (c_k).
#[test]
fn insert_counts_match_lazier_sharp() {
    let a = common::load("bst.hl");
    for (k, n) in [(1, 4), (2, 21)] {
        let ex = common::explore(&a, "BST.insert", sl(k));
        assert_eq!(ex.stats().feasible, n, "k = {k}");
        let mut sharp = sl(k);
        sharp.strategy = StrategyKind::LazierSharp;
        let other = common::explore(&a, "BST.insert", sharp);
        assert_eq!(ex.branch_coverage(), other.branch_coverage());
    }
}

/// Every unfolding is an event (a fork of kind `Disjunct` naming the instance).
#[test]
fn unfoldings_are_events() {
    let a = common::load("bst.hl");
    let mut ex = heaplab_engine::symbolic::Explorer::new(
        &a.program,
        &a.info,
        "BST.insert",
        sl(2),
        common::solver(),
        Box::new(heaplab_engine::symbolic::NoClock),
    )
    .expect("method exists");
    let mut unfolds = 0;
    while let Some(e) = ex.step() {
        if let Event::LazyInit { target, kind: ForkKind::Disjunct, .. } = &e {
            assert!(target.starts_with("unfold bst("), "{target}");
            unfolds += 1;
        }
    }
    assert!(unfolds > 0);
}

/// The unfolding depth bound cuts paths and names itself.
#[test]
fn depth_bound_is_reported() {
    let a = common::load("bst.hl");
    let mut config = sl(3);
    config.bounds.depth = 1;
    let ex = common::explore(&a, "BST.insert", config);
    assert!(ex
        .paths()
        .iter()
        .any(|p| matches!(p.outcome, PathOutcome::Bounded { bound: Bound::Depth, .. })));
}

/// JSF's motivating example: only pairs of lists of the same length reach the loop, so `y.val`
/// is never read from null.
#[test]
fn addlists_only_valid_pairs() {
    let a = common::load("addlists.hl");
    let ex = common::explore(&a, "add", sl(3));
    assert!(ex.stats().feasible > 0);
    for p in ex.paths() {
        if let PathOutcome::Error { kind, .. } = &p.outcome {
            assert_ne!(kind.keyword(), "null_dereference", "{}", p.describe());
        }
    }
}

/// Regression: an unfolding that fails inside its body (here `l1 + 1` overflowing in
/// `aaLevel`) used to end the path as a program error while the body's frame was still
/// running, and the completion of the remaining instances then resumed that frame with its
/// operands already popped (internal errors). A failing operation in a formula now means the
/// formula does not hold.
#[test]
fn aatree_insert_has_no_internal_errors() {
    let a = common::load("aatree.hl");
    let ex = common::explore(&a, "AATree.insert", sl(2));
    assert_eq!(ex.stats().internal_errors, 0);
    assert!(ex.stats().feasible > 0);
}

/// Regression: arithmetic in a predicate body (`h == hl + 1`) that overflows is not an
/// `integer_overflow` of the method (the interpreter never evaluates it): AVL insert and
/// TreeMap put have exactly the paths of lazier# (Kiasan's counts) and no overflow error.
#[test]
fn overflow_in_a_predicate_body_is_not_a_program_error() {
    for (file, method, n) in [("avl.hl", "AvlTree.insert", 21), ("treemap.hl", "TreeMap.put", 28)] {
        let a = common::load(file);
        let ex = common::explore(&a, method, sl(2));
        assert_eq!(ex.stats().internal_errors, 0, "{method}");
        assert_eq!(ex.stats().feasible, n, "{method}");
        for p in ex.paths() {
            if let PathOutcome::Error { kind, .. } = &p.outcome {
                assert_ne!(kind.keyword(), "integer_overflow", "{method}: {}", p.describe());
            }
        }
    }
}

/// Regression: a predicate body reads the *input* value of a field, not what the program wrote.
/// `this.b` is not covered by `big(this.a)`, so it is initialized as by lazier# and the program
/// writes `val` of that object; `this.a` may alias it, and then `big`'s `v > 10` is about the
/// input `val`, not the 5 written since. Reading the current value lost that path.
#[test]
fn unfolding_reads_input_values() {
    let src = "class Node { int val; Node next; }
pred big(Node x) := x == null | exists int v, Node n. x -> Node { val: v, next: n } & v > 10;
class C {
  Node a;
  Node b;
  int m()
    requires big(this.a)
  {
    Node q = this.b;
    if (q != null) { q.val = 5; }
    Node p = this.a;
    if (p == null) return 0;
    return p.val;
  }
}
";
    let a = heaplab_syntax::analyze(&heaplab_syntax::SourceFile::new(
        "alias.hl".to_string(),
        src.to_string(),
    ));
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    let ex = common::explore(&a, "C.m", sl(2));
    let mut sharp = sl(2);
    sharp.strategy = StrategyKind::LazierSharp;
    let other = common::explore(&a, "C.m", sharp);
    assert_eq!(ex.stats().internal_errors, 0);
    assert_eq!(ex.stats().feasible, other.stats().feasible);
    assert_eq!(ex.stats().feasible, 5);
}

fn analyze(name: &str, src: &str) -> heaplab_syntax::Analysis {
    let a = heaplab_syntax::analyze(&heaplab_syntax::SourceFile::new(
        name.to_string(),
        src.to_string(),
    ));
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    a
}

/// Every event of a full run.
fn events(a: &heaplab_syntax::Analysis, target: &str, config: Config) -> (Vec<Event>, Explorer) {
    let mut ex =
        Explorer::new(&a.program, &a.info, target, config, common::solver(), Box::new(NoClock))
            .expect("method exists");
    let mut out = Vec::new();
    while let Some(e) = ex.step() {
        out.push(e);
    }
    (out, ex)
}

fn unfold_targets(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::LazyInit { target, kind: ForkKind::Disjunct, .. } => Some(target.clone()),
            _ => None,
        })
        .collect()
}

/// JSF's `enum` rule: `size > 0` in `requires` rules out `lst`'s empty disjunct (its base
/// unfolding says `n == 0`) before it runs, so the unfolding has one disjunct left and the one
/// path reads `head.val` from an object.
#[test]
fn enum_prunes_a_disjunct_the_path_condition_rules_out() {
    let a = analyze(
        "lst.hl",
        "class Node { int val; Node next; }
pred lst(Node x, int n) := x == null & n == 0
  | exists int v, Node m, int k. x -> Node { val: v, next: m } * lst(m, k) & n == k + 1;
class L {
  Node head;
  int size;
  int first()
    requires lst(this.head, this.size) & this.size > 0
  {
    return this.head.val;
  }
}
",
    );
    let (events, ex) = events(&a, "L.first", sl(2));
    let unfolds = unfold_targets(&events);
    // `lst(this.head, this.size)` at the access, then the rest of the list at path end.
    assert!(unfolds[0].starts_with("unfold lst("), "{unfolds:#?}");
    assert!(
        unfolds[0].contains("enum pruned disjunct 1 (the path condition contradicts n == 0)"),
        "{}",
        unfolds[0]
    );
    assert!(ex.stats().sl_pruned >= 1);
    assert_eq!(ex.stats().feasible, 1);
    let ok: Vec<_> = ex.paths().iter().filter(|p| p.outcome.is_feasible()).collect();
    assert!(matches!(ok[0].outcome, PathOutcome::Returned(_)), "{}", ok[0].describe());
}

/// The pointer half of `enum`: in the circular list, an instance whose parameter would have to be
/// a cell of its own while its argument is the header (claimed already) loses that disjunct
/// without running it; in the AA tree, so does one whose parameter would be a cell while its
/// argument is null (the sentinel of `aat(root, null)`). The paths that become tests are the
/// ones `sl` found before the rule.
#[test]
fn enum_prunes_by_separation_and_nullness() {
    let a = common::load("cdll.hl");
    let (evs, ex) = events(&a, "LinkedList.add", sl(2));
    let unfolds = unfold_targets(&evs).join("\n");
    assert!(unfolds.contains("is described already"), "{unfolds}");
    assert_eq!(ex.stats().internal_errors, 0);
    assert_eq!(ex.stats().feasible, 3);
    let a = common::load("aatree.hl");
    let (evs, ex) = events(&a, "AATree.isEmpty", sl(2));
    let unfolds = unfold_targets(&evs).join("\n");
    assert!(unfolds.contains("is allocated, but it is null"), "{unfolds}");
    assert_eq!(ex.stats().internal_errors, 0);
    assert_eq!(ex.stats().feasible, 3);
}

/// The AA tree under `enum`: disjuncts pruned by level facts, resolutions decided by the
/// formula (`t == nn` with `nn` known), and still the 15 valid cases at k = 2. When no disjunct
/// is left (`aat(root, null)`: the sentinel must be a cell), the unfolding is an event with no
/// child that says why, and the path ends there.
#[test]
fn enum_on_the_aa_tree_keeps_every_case() {
    let a = common::load("aatree.hl");
    let (events, ex) = events(&a, "AATree.insert", sl(2));
    assert!(events.iter().any(|e| matches!(e,
        Event::LazyInit { target, children, kind: ForkKind::Disjunct, .. }
            if children.is_empty() && target.contains("nn is allocated, but it is null"))));
    assert!(ex.stats().sl_pruned > 0);
    assert!(ex.stats().sl_decided > 0);
    assert_eq!(ex.stats().feasible, 15);
    assert_eq!(ex.stats().internal_errors, 0);
}

/// Issue #6, item 3: a path that ends with instances still folded gets its input from a model of
/// the remaining formula (the logic's satisfiability procedure), said by an event just before
/// the path ends; on the BST none is left to running the bodies.
#[test]
fn path_end_inputs_come_from_models() {
    let a = common::load("bst.hl");
    let (evs, ex) = events(&a, "BST.find", sl(2));
    let mut models = 0;
    for (i, e) in evs.iter().enumerate() {
        if let Event::SlModel { state, formula, model } = e {
            models += 1;
            assert!(formula.starts_with("bst("), "{formula}");
            assert!(!model.is_empty());
            let next = evs[i + 1..].iter().find(|e| !matches!(e, Event::SolverQuery { .. }));
            assert!(
                matches!(next, Some(Event::PathEnd { state: s, .. }) if s == state),
                "the path ends right after its model: {next:?}"
            );
        }
    }
    assert!(models > 0);
    assert_eq!(ex.stats().sl_models, models);
    assert_eq!(ex.stats().sl_run_completions, 0);
}

/// An AVL height the path has fixed can rule out any completion: the predicates' invariants
/// (`-1 <= h`) prove that and the path is discarded; a completion that needs more levels than
/// the roots' budgets allow ends bounded by `k`, never by another bound.
#[test]
fn avl_completions_without_model_are_discarded_or_bounded_by_k() {
    let a = common::load("avl.hl");
    let (_, ex) = events(&a, "AvlTree.find", sl(2));
    assert!(ex.stats().sl_models > 0);
    assert!(ex.stats().sl_no_model > 0);
    assert_eq!(ex.stats().sl_run_completions, 0);
    let bounds: Vec<_> = ex
        .paths()
        .iter()
        .filter_map(|p| match &p.outcome {
            PathOutcome::Bounded { bound, .. } => Some(*bound),
            _ => None,
        })
        .collect();
    assert!(!bounds.is_empty() && bounds.iter().all(|b| *b == Bound::K), "{bounds:?}");
    assert!(ex.stats().k_cut);
}

/// A list under a header whose elements the formula claims (`o -> Object {}`, CSF's
/// `element::Object<>`), searched for an argument (SIR MyLinkedList's `find`, examples/mylist.hl).
const HEADER_LIST: &str = "class Node { Object e; Node next; }
pred list(Node x) := x == null
  | exists Object o, Node n. x -> Node { e: o, next: n } * o -> Object {} * list(n);
class L {
  Node header;
  bool find(Object x)
    requires exists Node n. this.header -> Node { e: _, next: n } * list(n)
  {
    Node p = this.header.next;
    while (p != null) {
      if (p.e == x) return true;
      p = p.next;
    }
    return false;
  }
}";

/// At k = 2 the first node under the header has budget 0, so its element (one more link) can be
/// no fresh object; lazy initialization, which resolves `x` before the method runs, still has
/// the input where that element *is* `x`, and reaches `return true` with it. `sl` resolves `x`
/// only when the method compares it, after `list`'s points-to has claimed the element: the
/// points-to found no object to claim and the path ended bounded by k, so `sl` had the empty
/// list alone (1 path, `return true` never reached). Now the cut element may be the object
/// that `x`, not yet resolved, is made to denote (`HeapStrategy::k_cut_adopts_pending`).
#[test]
fn a_claimed_element_cut_by_k_may_be_an_unresolved_argument() {
    let a = analyze("header.hl", HEADER_LIST);
    let found = |ex: &Explorer| {
        ex.paths().iter().any(|p| {
            matches!(&p.outcome, PathOutcome::Returned(heaplab_engine::symbolic::SValue::Bool(b))
                if b.as_bool() == Some(true))
        })
    };
    let ex = common::explore(&a, "L.find", sl(2));
    assert_eq!(ex.stats().feasible, 2, "the empty list and the one-node list holding x");
    assert_eq!(ex.stats().bounded, 0);
    assert!(found(&ex), "x is the element of the first node");
    // Lazy reaches the same input (and more, invalid ones among them).
    let mut lazy = sl(2);
    lazy.strategy = StrategyKind::Lazy;
    lazy.pre = heaplab_engine::symbolic::PreMode::Ignore;
    assert!(found(&common::explore(&a, "L.find", lazy)));
    // The rule is `sl`'s: lazier# --pre assume claims the element while `requires` runs, before
    // x, and keeps Kiasan's cut (its counts are pinned in symbolic_counts.rs).
    let mut sharp = sl(2);
    sharp.strategy = StrategyKind::LazierSharp;
    assert!(!found(&common::explore(&a, "L.find", sharp)));
}
