//! The explorer as a stepper: bounds name themselves, events form a tree, search orders agree,
//! bad input is an error rather than a panic.

mod common;

use heaplab_engine::symbolic::{
    Bound, Config, Event, Explorer, NoClock, PathOutcome, PathResult, SearchOrder, StateId,
    StrategyKind,
};
use heaplab_syntax::ast::ErrorKind;
use heaplab_syntax::{analyze, Analysis, SourceFile};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;

fn program(text: &str) -> Analysis {
    let a = analyze(&SourceFile::new("test.hl", text));
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    a
}

fn explorer(a: &Analysis, target: &str, config: Config) -> Explorer {
    Explorer::new(&a.program, &a.info, target, config, common::solver(), Box::new(NoClock))
        .expect("target exists")
}

const LOOPS: &str = "
class Node { int key; Node next; }
int spin(int x) { while (true) { x = x; } return x; }
int forever(int x) { return forever(x); }
int walk(Node n) { int c = 0; while (n != null) { c = c + 1; n = n.next; } return c; }
int divide(int a, int b) { return a / b; }
";

#[test]
fn infinite_loop_stops_at_the_loop_bound() {
    let a = program(LOOPS);
    let mut config = Config::default();
    config.bounds.loop_iterations = 5;
    let mut ex = explorer(&a, "spin", config);
    ex.run_to_end();
    let outcomes: Vec<_> = ex.paths().iter().map(|p| p.outcome.clone()).collect();
    assert_eq!(outcomes.len(), 1);
    assert!(matches!(outcomes[0], PathOutcome::Bounded { bound: Bound::Loop, .. }), "{outcomes:?}");
    assert_eq!(ex.stats().bounded, 1);
}

#[test]
fn unbounded_recursion_stops_at_the_call_depth() {
    let a = program(LOOPS);
    let mut ex = explorer(&a, "forever", Config::default());
    ex.run_to_end();
    assert!(ex
        .paths()
        .iter()
        .all(|p| matches!(p.outcome, PathOutcome::Bounded { bound: Bound::CallDepth, .. })));
    assert_eq!(ex.paths().len(), 1);
}

/// A loop that discovers the heap is bounded by k, not by the loop bound: lists of length
/// 0..=k, plus the path where k cuts a longer list (reported with the k flag).
#[test]
fn heap_walking_loop_is_bounded_by_k() {
    let a = program(LOOPS);
    for strategy in [StrategyKind::Lazy, StrategyKind::Lazier, StrategyKind::LazierSharp] {
        let mut config = Config::default();
        config.strategy = strategy;
        config.bounds.k = 3;
        config.bounds.loop_iterations = 1;
        let mut ex = explorer(&a, "walk", config);
        ex.run_to_end();
        assert!(ex.stats().k_cut, "{strategy:?}");
        let returned: BTreeSet<String> = ex
            .paths()
            .iter()
            .filter(|p| matches!(p.outcome, PathOutcome::Returned(_)))
            .map(|p| p.describe())
            .collect();
        // Acyclic lists of length 0..=3 (lazy and lazier also find cyclic ones, which loop
        // until the loop bound since a cycle materializes nothing new).
        for n in 0..=3 {
            assert!(returned.contains(&format!("returned {n}")), "{strategy:?}: {returned:?}");
        }
    }
}

#[test]
fn division_by_symbolic_zero_is_an_error_path() {
    let a = program(LOOPS);
    let mut ex = explorer(&a, "divide", Config::default());
    ex.run_to_end();
    let kinds: BTreeSet<_> = ex
        .paths()
        .iter()
        .map(|p| match &p.outcome {
            PathOutcome::Error { kind, .. } => Some(*kind),
            _ => None,
        })
        .collect();
    assert!(kinds.contains(&Some(ErrorKind::DivisionByZero)));
    assert!(kinds.contains(&Some(ErrorKind::IntegerOverflow)), "i64::MIN / -1");
    assert!(kinds.contains(&None));
}

#[test]
fn unknown_method_is_an_error_not_a_panic() {
    let a = program(LOOPS);
    let res = Explorer::new(
        &a.program,
        &a.info,
        "Node.nope",
        Config::default(),
        common::solver(),
        Box::new(NoClock),
    );
    assert!(res.is_err());
    let res = Explorer::new(
        &a.program,
        &a.info,
        "Nope.x",
        Config::default(),
        common::solver(),
        Box::new(NoClock),
    );
    assert!(res.is_err());
    let res = Explorer::new(
        &a.program,
        &a.info,
        "",
        Config::default(),
        common::solver(),
        Box::new(NoClock),
    );
    assert!(res.is_err());
}

/// Events describe a tree: every state but the root has a parent that appeared before; every
/// path ends exactly once; lazy-init events list their options with one child each.
#[test]
fn events_form_a_tree() {
    let a = common::load("bst.hl");
    let mut ex = explorer(&a, "BST.insert", Config::default());
    let mut seen: BTreeSet<StateId> = BTreeSet::new();
    let mut ends = 0;
    let mut lazy_inits = 0;
    while let Some(e) = ex.step() {
        match e {
            Event::Start { state, .. } => {
                seen.insert(state);
            }
            Event::LazyInit { state, options, children, .. } => {
                assert!(seen.contains(&state));
                assert_eq!(options.len(), children.len());
                seen.extend(children);
                lazy_inits += 1;
            }
            Event::Branch { state, children, .. } => {
                assert!(seen.contains(&state));
                seen.extend(children.iter().map(|(_, c)| *c));
            }
            Event::Disjuncts { state, children, .. } => {
                assert!(seen.contains(&state));
                seen.extend(children);
            }
            Event::PathEnd { state, .. } => {
                assert!(seen.contains(&state));
                ends += 1;
            }
            Event::SlModel { state, .. } => assert!(seen.contains(&state)),
            Event::SolverQuery { .. } | Event::Stopped { .. } | Event::SolverPending => {}
        }
    }
    assert!(lazy_inits > 0);
    assert_eq!(ends, ex.paths().len());
    for node in ex.tree().iter() {
        if let Some(p) = node.parent {
            assert!(p < node.id);
        }
    }
    assert_eq!(ex.tree().len() as u64, ex.stats().states);
}

/// `next_path` is built on `step` and the orders find the same paths.
#[test]
fn dfs_and_bfs_find_the_same_outcomes() {
    let a = common::load("bst.hl");
    let mut outcomes = Vec::new();
    for order in [SearchOrder::Dfs, SearchOrder::Bfs] {
        let mut config = Config::default();
        config.order = order;
        let mut ex = explorer(&a, "BST.insert", config);
        let mut found = Vec::new();
        while let Some(p) = ex.next_path() {
            if p.outcome.is_feasible() {
                found.push(p.describe());
            }
        }
        found.sort();
        outcomes.push(found);
    }
    assert_eq!(outcomes[0].len(), 21);
    assert_eq!(outcomes[0], outcomes[1]);
}

/// Max paths: the run stops, and the states still pending are reported as bounded.
#[test]
fn max_paths_stops_and_reports() {
    let a = common::load("bst.hl");
    let mut config = Config::default();
    config.bounds.max_paths = 5;
    let mut ex = explorer(&a, "BST.insert", config);
    ex.run_to_end();
    assert_eq!(ex.stopped(), Some(Bound::MaxPaths));
    assert!(ex.stats().bounded > 0);
    assert!(ex.stats().feasible <= 5);
}

/// Runs `target` to its end over [`common::Deferred`] (every query first answered pending,
/// then resolved as the page's loop does); `None` where the strategy cannot run it. Returns the
/// explorer and how many steps were undone.
fn run_deferred(a: &Analysis, target: &str, config: Config) -> Option<(Explorer, usize)> {
    let shared = Rc::new(RefCell::new(common::Shared {
        inner: common::solver(),
        answers: Default::default(),
        outstanding: None,
    }));
    let solver = Box::new(common::Deferred(Rc::clone(&shared)));
    let mut ex =
        Explorer::new(&a.program, &a.info, target, config, solver, Box::new(NoClock)).ok()?;
    let mut pendings = 0;
    while let Some(e) = ex.step() {
        if e == Event::SolverPending {
            pendings += 1;
            shared.borrow_mut().resolve();
        }
    }
    Some((ex, pendings))
}

fn outcomes(ex: &Explorer) -> Vec<String> {
    ex.paths().iter().map(|p| format!("{:?}", p.outcome)).collect()
}

#[test]
fn asynchronous_solver_steps_are_undone_and_retried() {
    let a = common::load("bst.hl");
    let (ex, pendings) = run_deferred(&a, "BST.insert", Config::default()).expect("target exists");
    assert!(pendings > 0);
    assert_eq!(ex.stats().feasible, 21);
    let mut sync = explorer(&a, "BST.insert", Config::default());
    sync.run_to_end();
    assert_eq!(ex.tree().len(), sync.tree().len());
    assert_eq!(ex.paths().len(), sync.paths().len());
}

/// Under an asynchronous solver the explorer keeps a copy of the state only before steps that
/// may ask (`Explorer::may_ask`); a step it judged to ask nothing that did would trip a debug
/// assertion here, as every query of these runs is first answered `Pending`. The runs cover each
/// strategy over fields, arrays, arithmetic guards, reference comparisons, order keys, loops,
/// preconditions and `sl`'s path-end models (AVL `find`, whose heights the solver decides;
/// TreeMap `get`, whose models at `Halt` a pending answer once dropped with their paths), and
/// must end as the synchronous runs do.
#[test]
fn asynchronous_runs_end_as_synchronous_ones_under_every_strategy() {
    let targets = [
        ("bst.hl", "BST.remove"),
        ("binaryheap.hl", "BinaryHeap.deleteMin"),
        ("counters.hl", "Counter.halveAll"),
        ("stackar.hl", "StackAr.push"),
        ("treemapcmp.hl", "TreeMap.get"),
        ("wrap64.hl", "Counted.absSum"),
        ("hash32.hl", "mid"),
        ("sll.hl", "SLL.length"),
        ("avl.hl", "AvlTree.find"),
        ("treemap.hl", "TreeMap.get"),
    ];
    let strategies = [
        StrategyKind::Lazy,
        StrategyKind::Lazier,
        StrategyKind::LazierSharp,
        StrategyKind::Sl,
        StrategyKind::Symheap,
    ];
    for (file, method) in targets {
        let a = common::load(file);
        for strategy in strategies {
            let mut config = Config::default();
            config.strategy = strategy;
            config.bounds.max_states = 3_000;
            let Some((ex, _)) = run_deferred(&a, method, config) else {
                continue;
            };
            let sync = common::explore(&a, method, config);
            let what = format!("{file} {method} {strategy:?}");
            assert_eq!(ex.stopped(), sync.stopped(), "{what}");
            assert_eq!(ex.tree().len(), sync.tree().len(), "{what}");
            assert_eq!(ex.stats().feasible, sync.stats().feasible, "{what}");
            assert_eq!(ex.stats().infeasible, sync.stats().infeasible, "{what}");
            assert_eq!(outcomes(&ex), outcomes(&sync), "{what}");
        }
    }
}

/// Overflow guards the difference reasoning cannot settle (a product, a difference of
/// inputs) reach the solver; asked first, such a step is undone without a copy of its state and
/// must run again with its operands in their order.
#[test]
fn asynchronous_overflow_guards_are_retried_with_their_operands() {
    let a = program(
        "int area(int x, int y) { int d = x * y - x; if (d > 7) { return d - y; } return y - d; }",
    );
    let (ex, pendings) = run_deferred(&a, "area", Config::default()).expect("target exists");
    assert!(pendings > 0);
    let mut sync = explorer(&a, "area", Config::default());
    sync.run_to_end();
    assert_eq!(outcomes(&ex), outcomes(&sync));
    assert_eq!(ex.tree().len(), sync.tree().len());
}

/// A path the precondition discards keeps what the summary reads of it (its branch directions)
/// and, only where a front end records views (the page's tree view), its final heap: in a run
/// without views (the CLI) hundreds of thousands of such paths held their whole states, and
/// memory, not the state bound, ended `lazy` at k = 3 on AVL `insert`.
#[test]
fn discarded_paths_keep_their_heap_only_for_a_tree_view() {
    let a = common::load("sll.hl");
    let discarded = |views: bool| {
        let mut ex = explorer(&a, "SLL.length", Config::default());
        if views {
            ex.record_views(1000);
        }
        ex.run_to_end();
        let dropped: Vec<_> = ex
            .paths()
            .iter()
            .filter(|p| matches!(p.outcome, PathOutcome::Discarded { .. }))
            .map(|p| (p.state.heap.len(), p.state.branches.iter().count(), p.state.id))
            .collect();
        (ex, dropped)
    };
    let (bare, without) = discarded(false);
    let (shown, with) = discarded(true);
    assert!(!without.is_empty(), "the precondition discarded no path");
    assert_eq!(without.len(), with.len());
    // The same paths, with the same branch directions, either way.
    for ((_, b0, id0), (_, b1, id1)) in without.iter().zip(&with) {
        assert_eq!((b0, id0), (b1, id1));
    }
    assert!(without.iter().all(|(objects, _, _)| *objects == 0), "{without:?}");
    assert!(with.iter().any(|(objects, _, _)| *objects > 0), "{with:?}");
    // The tree view still draws the heap a discarded path ended with.
    let (_, _, id) = with.iter().find(|(objects, _, _)| *objects > 0).expect("a heap");
    assert!(shown.view(*id).is_some_and(|v| !v.objects.is_empty()));
    assert_eq!(bare.stats().infeasible, shown.stats().infeasible);
}

/// Events of states past the views a front end keeps (the page keeps the first 5,000) carry no
/// formulas, as they carry no view: within the limit the texts are those of a run that keeps
/// no views, past it they are empty, and nothing else about the run changes.
#[test]
fn formulas_are_written_only_for_the_states_whose_views_are_kept() {
    let a = common::load("bst.hl");
    // Each Disjuncts / SlModel event: its state, and whether it carries its text.
    let run = |limit: usize| {
        let mut config = Config::default();
        config.strategy = StrategyKind::Sl;
        let mut ex = explorer(&a, "BST.remove", config);
        ex.record_views(limit);
        let mut texts = Vec::new();
        while let Some(e) = ex.step() {
            match &e {
                Event::Disjuncts { state, formulas, .. } => {
                    texts.push((state.0, formulas.concat()));
                }
                Event::SlModel { state, formula, .. } => texts.push((state.0, formula.clone())),
                _ => {}
            }
        }
        (
            texts,
            ex.stats().states,
            ex.tree().iter().map(|n| ex.tree().label(&n).to_string()).collect::<Vec<_>>(),
        )
    };
    let (all, states, labels) = run(0);
    let limit = (states / 2) as usize;
    let (cut, states_cut, labels_cut) = run(limit);
    assert_eq!((states, &labels), (states_cut, &labels_cut));
    assert_eq!(all.len(), cut.len());
    let (mut before, mut past) = (0, 0);
    for ((id, text), (id_cut, text_cut)) in all.iter().zip(&cut) {
        assert_eq!(id, id_cut);
        assert!(!text.is_empty(), "state {id} has no text without views");
        if (*id as usize) < limit {
            assert_eq!(text, text_cut, "state {id}, within the limit");
            before += 1;
        } else {
            assert_eq!(text_cut, "", "state {id}, past the limit of {limit}");
            past += 1;
        }
    }
    assert!(before > 0 && past > 0, "{before} events within the limit, {past} past it");
}

/// Events without their text (issue 32, "no work for nobody"): with detail off, `Disjuncts`
/// and `SlModel` events carry no formula and solver queries no text; with only the query text
/// off (the page's slices), queries carry none and formulas stay; with only the formulas off
/// (a run whose events nobody reads), formulas go and the tree's labels stay. The run is
/// otherwise the same: the same events in the same order, the same paths and counts.
#[test]
fn events_without_detail_carry_no_formulas_and_change_nothing_else() {
    let a = common::load("bst.hl");
    let run = |detail: bool, formulas: bool, query_text: bool| {
        let mut config = Config::default();
        config.strategy = StrategyKind::Sl;
        let mut ex = explorer(&a, "BST.find", config);
        ex.set_event_detail(detail);
        ex.set_event_formulas(formulas);
        ex.set_query_text(query_text);
        let mut events = Vec::new();
        let mut text = 0usize;
        let mut queries = 0usize;
        while let Some(e) = ex.step() {
            text += match &e {
                Event::Disjuncts { formulas, .. } => formulas.iter().map(String::len).sum(),
                Event::SlModel { formula, .. } => formula.len(),
                _ => 0,
            };
            if let Event::SolverQuery { query, .. } = &e {
                queries += query.len();
            }
            let kind =
                format!("{e:?}").split([' ', '{', '(']).next().unwrap_or_default().to_string();
            events.push(kind);
        }
        let outcomes: Vec<String> = ex.paths().iter().map(|p| p.describe()).collect();
        let counts = (ex.stats().states, ex.stats().feasible, ex.stats().infeasible);
        let labels: Vec<String> =
            ex.tree().iter().map(|n| ex.tree().label(&n).to_string()).collect();
        (events, text, queries, outcomes, counts, labels)
    };
    let (e1, text1, q1, o1, c1, l1) = run(true, true, true);
    let (e0, text0, q0, o0, c0, _) = run(false, true, true);
    let (eq, textq, qq, oq, cq, lq) = run(true, true, false);
    let (ef, textf, qf, of, cf, lf) = run(true, false, true);
    assert!(text1 > 0 && q1 > 0, "the detailed run formatted no formula or query");
    assert_eq!((text0, q0), (0, 0), "formulas or queries were formatted with detail off");
    assert_eq!((textq, qq), (text1, 0), "query text off: formulas stay, queries go");
    assert_eq!((textf, qf), (0, q1), "formulas off: formulas go, queries stay");
    assert!(l1.iter().any(|l| l.starts_with("disjunct")), "{l1:?}");
    assert_eq!(l1, lq);
    assert_eq!(l1, lf, "formulas off changed the tree's labels");
    assert!(e1.iter().any(|k| k == "Disjuncts") && e1.iter().any(|k| k == "SlModel"), "{e1:?}");
    assert!(e1.iter().any(|k| k == "SolverQuery"), "{e1:?}");
    for (e, o, c) in [(&e0, &o0, &c0), (&eq, &oq, &cq), (&ef, &of, &cf)] {
        assert_eq!(&e1, e);
        assert_eq!(&o1, o);
        assert_eq!(&c1, c);
    }
}

/// A run kept for its summary only (issue 32, `lazy` at k = 3 on TreeMap `put`): a front end
/// that reads no event and no tree keeps only the counts of discarded paths, and the run is
/// otherwise the same: the same counts, the same feasible and bounded paths under the same
/// numbers (so the same test names), one `PathEnd` per kept path. A front end that records
/// views keeps every path.
#[test]
fn discarded_paths_left_out_keep_their_counts_and_the_other_paths() {
    let a = common::load("sll.hl");
    let run = |keep: bool, views: bool| {
        let mut ex = explorer(&a, "SLL.length", Config::default());
        ex.set_summary_only(!keep);
        if views {
            ex.record_views(1000);
        }
        let mut ends = 0;
        while let Some(e) = ex.step() {
            if let Event::PathEnd { path, .. } = e {
                // The event names the path just kept.
                assert_eq!(path, Some(ex.paths().len() - 1));
                ends += 1;
            }
        }
        (ex, ends)
    };
    let is_discarded = |o: &PathOutcome| matches!(o, PathOutcome::Discarded { .. });
    let (kept, kept_ends) = run(true, false);
    let (left, left_ends) = run(false, false);
    let (viewed, _) = run(false, true);
    let discarded = kept.paths().iter().filter(|p| is_discarded(&p.outcome)).count();
    assert!(discarded > 0, "the precondition discarded no path");
    assert_eq!(kept.stats(), left.stats());
    assert_eq!(kept_ends, kept.paths().len());
    assert_eq!(left_ends, left.paths().len());
    assert_eq!(left.paths().len() + discarded, kept.paths().len());
    let others: Vec<(usize, String)> = kept
        .paths()
        .iter()
        .filter(|p| !is_discarded(&p.outcome))
        .map(|p| (p.index, p.describe()))
        .collect();
    let left_paths: Vec<(usize, String)> =
        left.paths().iter().map(|p| (p.index, p.describe())).collect();
    assert_eq!(others, left_paths);
    // Found by number wherever they sit.
    for (index, text) in &others {
        let p = PathResult::find(left.paths(), *index).expect("a kept path");
        assert_eq!(&p.describe(), text);
    }
    assert!(left.paths().iter().all(|p| PathResult::find(left.paths(), p.index).is_some()));
    // No tree either: each state's parent only.
    assert_eq!(kept.tree().len() as u64, kept.stats().states);
    assert!(left.tree().is_empty());
    // With views recorded, nothing is left out.
    assert_eq!(viewed.paths().len(), kept.paths().len());
}

/// A lazy-initialization child's label (`o1.left = fresh o2`) comes from a table keyed by the
/// object, field and option it says (issue 32, the page's Run): each label still says its own
/// fork's target and option. Checked on every lazy fork of a `lazy` run of TreeMap `put`, whose
/// forks read the same fields of the same objects along thousands of paths, against the fork's
/// event (whose target is written at the fork) and the object count of the child's state.
#[test]
fn lazy_children_are_labelled_by_their_own_fork() {
    let a = common::load("treemap.hl");
    let mut config = Config::default();
    config.strategy = StrategyKind::Lazy;
    config.bounds.k = 3;
    let mut ex = explorer(&a, "TreeMap.put", config);
    let mut forks = Vec::new();
    while let Some(e) = ex.step() {
        if let Event::LazyInit { target, options, children, .. } = e {
            forks.push((target, options, children));
        }
    }
    let tree = ex.tree();
    let label = |id: heaplab_engine::symbolic::StateId| {
        tree.get(id.0 as usize).map(|n| tree.label(&n).to_string()).expect("a node")
    };
    let fields = forks.iter().filter(|(target, ..)| target.contains('.')).count();
    assert!(fields > 300, "{fields} forks on fields");
    for (target, options, children) in &forks {
        assert_eq!(options.len(), children.len());
        let distinct: BTreeSet<&String> = options.iter().collect();
        assert_eq!(distinct.len(), options.len(), "{target}: {options:?}");
        for (option, child) in options.iter().zip(children) {
            assert_eq!(label(*child), format!("{target} = {option}"), "node {child:?}");
            let named = option.strip_prefix("fresh ").unwrap_or(option);
            assert!(named == "null" || named.starts_with('o'), "{target}: {option}");
        }
        // A fresh object is the newest of its child: numbered after every alias offered.
        let number =
            |o: &str| o.trim_start_matches("fresh o").trim_start_matches('o').parse::<u32>();
        let fresh: Vec<u32> = options
            .iter()
            .filter(|o| o.starts_with("fresh "))
            .filter_map(|o| number(o).ok())
            .collect();
        let aliases: Vec<u32> =
            options.iter().filter(|o| o.starts_with('o')).filter_map(|o| number(o).ok()).collect();
        assert!(fresh.len() <= 1, "{target}: {options:?}");
        assert!(fresh.iter().all(|f| aliases.iter().all(|a| a < f)), "{target}: {options:?}");
    }
}
