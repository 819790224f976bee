//! Heap views of tree nodes: what a person sees of a state must match what the explorer did
//! (the field a lazy initialization set, the reference a resolution decided, the predicate an
//! unfolding opened), with variables named by their origin and no internal noise.

mod common;

use heaplab_engine::symbolic::view::{HeapView, SymKind, ValView};
use heaplab_engine::symbolic::ViewAt;
use heaplab_engine::symbolic::{
    Config, Event, Explorer, ForkKind, NoClock, PathOutcome, PathSolver, StateId, StrategyKind,
    TreeNode,
};
use heaplab_syntax::Analysis;
use std::cell::RefCell;
use std::rc::Rc;

fn config(strategy: StrategyKind, k: u32) -> Config {
    let mut c = Config::default();
    c.strategy = strategy;
    c.bounds.k = k;
    c
}

fn explorer(a: &Analysis, target: &str, config: Config, solver: Box<dyn PathSolver>) -> Explorer {
    Explorer::new(&a.program, &a.info, target, config, solver, Box::new(NoClock))
        .expect("target exists")
}

fn field<'v>(view: &'v HeapView, obj: &str, name: &str) -> &'v ValView {
    let o =
        view.objects.iter().find(|o| o.id == obj).unwrap_or_else(|| panic!("{obj} in {view:?}"));
    &o.fields.iter().find(|(f, _)| f == name).unwrap_or_else(|| panic!("{obj}.{name}")).1
}

/// What a lazy-initialization option label says the field now holds.
fn option_value(option: &str) -> ValView {
    let id = option.trim_start_matches("fresh ").to_string();
    match option {
        "null" => ValView::Null,
        _ if id.starts_with("ref") => ValView::SymRef(id),
        _ if id.starts_with("loc") => ValView::SymLoc(id),
        _ => ValView::Obj(id),
    }
}

fn has_open(view: &HeapView, id: &str) -> bool {
    view.symbolic.iter().any(|s| s.id == id)
}

/// Steps `ex` to the end; after every fork checks the parent's and the children's views.
fn check_forks(ex: &mut Explorer) -> usize {
    let mut checked = 0;
    while let Some(e) = ex.step() {
        let Event::LazyInit { state, target, options, children, kind, .. } = &e else { continue };
        let parent = ex.view(*state).expect("a forked node keeps its view");
        assert_eq!(parent.at, ViewAt::Fork);
        assert_eq!(parent.node, *state);
        for (option, child) in options.iter().zip(children) {
            let view = ex.view(*child).expect("a new child is live");
            assert_eq!(view.node, *child);
            assert_eq!(view.at, ViewAt::Live, "children wait in the worklist");
            match kind {
                ForkKind::LazyInit => {
                    if let Some((obj, name)) = target.split_once('.') {
                        assert_eq!(field(&parent, obj, name), &ValView::Unread, "{target}");
                        assert_eq!(field(&view, obj, name), &option_value(option), "{target}");
                        checked += 1;
                    }
                }
                ForkKind::Resolve => {
                    assert!(has_open(&parent, target), "{target} open before: {parent:?}");
                    assert!(!has_open(&view, target), "{target} decided in {option}");
                    if option.starts_with("loc") {
                        assert!(has_open(&view, option));
                    }
                    checked += 1;
                }
                _ => {}
            }
        }
    }
    checked
}

#[test]
fn children_of_lazy_initialization_show_the_initialized_field() {
    let a = common::load("bst.hl");
    for strategy in [StrategyKind::Lazy, StrategyKind::Lazier, StrategyKind::LazierSharp] {
        let mut ex = explorer(&a, "BST.insert", config(strategy, 2), common::solver());
        ex.record_views(100_000);
        let checked = check_forks(&mut ex);
        assert!(checked > 0, "{strategy:?}: some fork was checked");
        assert!(!ex.views_full());
    }
}

#[test]
fn lazy_fresh_object_appears_with_unread_fields() {
    let a = common::load("bst.hl");
    let mut ex = explorer(&a, "BST.insert", config(StrategyKind::Lazy, 2), common::solver());
    ex.record_views(100_000);
    let mut seen = false;
    while let Some(e) = ex.step() {
        let Event::LazyInit { target, options, children, .. } = &e else { continue };
        if target != "o1.root" {
            continue;
        }
        assert_eq!(options, &["null", "fresh o2"]);
        let view = ex.view(children[1]).expect("live child");
        let o2 = view.objects.iter().find(|o| o.id == "o2").expect("o2 exists");
        assert!(o2.input);
        assert_eq!(o2.class, "Node");
        let names: Vec<&str> = o2.fields.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(names, ["key", "left", "right"], "declaration order");
        assert!(o2.fields.iter().all(|(_, v)| *v == ValView::Unread));
        seen = true;
    }
    assert!(seen);
}

#[test]
fn roots_and_path_conditions_use_source_names() {
    let a = common::load("bst.hl");
    let mut ex = explorer(&a, "BST.insert", config(StrategyKind::LazierSharp, 2), common::solver());
    ex.run_to_end();
    let mut mentions_both = false;
    for p in ex.paths().iter().filter(|p| p.outcome.is_feasible()) {
        let view = ex.view(p.state.id).expect("ended paths are always viewable");
        assert_eq!(view.at, ViewAt::End);
        assert_eq!(view.outcome.as_ref().map(|o| o.kind), Some("returned"));
        assert_eq!(
            view.roots,
            vec![
                ("this".to_string(), ValView::Obj("o1".into())),
                ("x".into(), ValView::Int("x".into()))
            ]
        );
        assert_eq!(view.returned, Some(ValView::Void));
        for fact in &view.path_condition {
            assert!(!fact.contains("9223372036854775807"), "range noise: {fact}");
            let raw = fact.split(|c: char| !c.is_alphanumeric() && c != '.' && c != '\'');
            for word in raw {
                let numbered = word.len() > 1
                    && (word.starts_with('x') || word.starts_with('b'))
                    && word[1..].chars().all(|c| c.is_ascii_digit());
                assert!(!numbered, "raw variable in {fact}");
            }
        }
        let text = view.path_condition.join(" & ");
        if text.contains("x < o2.key") || text.contains("x >= o2.key") {
            mentions_both = true;
        }
        // The precondition's existentials keep their names.
        if !view.path_condition.is_empty() {
            assert!(text.contains("lo") && text.contains("hi"), "{text}");
        }
    }
    assert!(mentions_both);
}

#[test]
fn sl_views_show_folded_instances() {
    let a = common::load("bst.hl");
    let mut ex = explorer(&a, "BST.insert", config(StrategyKind::Sl, 2), common::solver());
    ex.record_views(100_000);
    let mut first = None;
    let mut unfolds = 0;
    while let Some(e) = ex.step() {
        let Event::LazyInit { state, kind: ForkKind::Disjunct, children, .. } = &e else {
            continue;
        };
        let parent = ex.view(*state).expect("fork view");
        let child = ex.view(children[0]).expect("live child");
        assert!(!parent.predicates.is_empty(), "the unfolded instance is still in the parent");
        assert_eq!(child.predicates.len() + 1, parent.predicates.len());
        for p in &parent.predicates {
            assert_eq!(p.name, "bst");
            assert!(p.depth >= 1);
            assert!(p.text.starts_with("bst("), "{}", p.text);
        }
        first.get_or_insert(parent.predicates[0].clone());
        unfolds += 1;
    }
    assert!(unfolds > 0);
    let first = first.expect("an unfolding");
    assert_eq!(first.text, "bst(ref0, lo, hi)");
    assert_eq!(first.root.as_deref(), Some("ref0"));
    assert_eq!(first.depth, 1);
}

#[test]
fn views_are_opt_in_and_bounded() {
    let a = common::load("bst.hl");
    let mut off =
        explorer(&a, "BST.insert", config(StrategyKind::LazierSharp, 1), common::solver());
    off.run_to_end();
    let inner: Vec<StateId> =
        off.tree().iter().filter(|n| n.path.is_none()).map(|n| n.id).collect();
    assert!(!inner.is_empty());
    assert!(inner.iter().all(|id| off.view(*id).is_none()), "no views unless recorded");
    assert!(off.tree().iter().filter(|n| n.path.is_some()).all(|n| off.view(n.id).is_some()));
    assert!(off.view(StateId(u32::MAX)).is_none());

    let mut small =
        explorer(&a, "BST.insert", config(StrategyKind::LazierSharp, 1), common::solver());
    small.record_views(2);
    small.run_to_end();
    let kept = inner.iter().filter(|id| small.view(**id).is_some()).count();
    assert!(kept <= 2);
    assert!(small.views_full());
}

/// A discarded path keeps its heap for a view only within the view limit, as inner nodes do.
/// Past it the run keeps no record of the path, only its outcome in the tree node, and the
/// node has no view (rather than an empty heap). The counts, the other paths and the tree do
/// not change.
#[test]
fn discarded_paths_keep_their_views_within_the_limit() {
    let a = common::load("bst.hl");
    let run = |limit: usize| {
        let mut ex = explorer(&a, "BST.insert", config(StrategyKind::Lazy, 2), common::solver());
        ex.record_views(limit);
        let mut unkept = Vec::new();
        while let Some(e) = ex.step() {
            if let Event::PathEnd { state, path: None, outcome } = e {
                assert!(matches!(outcome, PathOutcome::Discarded { .. }), "{outcome:?}");
                unkept.push(state);
            }
        }
        (ex, unkept)
    };
    let ((all, none), (some, mut unkept)) = (run(1_000_000), run(40));
    unkept.sort();
    assert!(!all.views_full() && some.views_full() && none.is_empty());
    assert_eq!(format!("{:?}", all.stats()), format!("{:?}", some.stats()));
    let kept = |ex: &Explorer| -> Vec<String> {
        let p = ex.paths().iter();
        p.map(|p| format!("{} {} {:?}", p.index, p.outcome.summary(), p.state.id)).collect()
    };
    let all_discarded = |n: &TreeNode| {
        n.path.is_some_and(|p| matches!(all.paths()[p].outcome, PathOutcome::Discarded { .. }))
    };
    let discarded: Vec<StateId> = all.tree().iter().filter(all_discarded).map(|n| n.id).collect();
    let (within, past): (Vec<StateId>, Vec<StateId>) =
        discarded.iter().partition(|id| (id.0 as usize) < 40);
    assert!(!within.is_empty() && !past.is_empty(), "{} and {}", within.len(), past.len());
    assert_eq!(unkept, past);
    let mut expected = kept(&all);
    expected.retain(|k| !past.iter().any(|id| k.ends_with(&format!(" {id:?}"))));
    assert_eq!(kept(&some), expected);
    for id in within {
        let (whole, kept) = (all.view(id).expect("a view"), some.view(id).expect("a view"));
        assert!(!kept.objects.is_empty() || !kept.path_condition.is_empty(), "node {id:?}");
        assert_eq!(format!("{whole:?}"), format!("{kept:?}"), "node {id:?}");
    }
    for id in past {
        assert!(all.view(id).is_some(), "node {id:?}");
        assert!(some.view(id).is_none(), "node {id:?}");
        let node = some.tree().get(id.0 as usize).expect("a node");
        assert_eq!((node.path, node.discarded), (None, Some(true)), "node {id:?}");
    }
    let labels = |ex: &Explorer| -> Vec<String> {
        ex.tree()
            .iter()
            .map(|n| format!("{:?} {:?} {}", n.id, n.parent, ex.tree().label(&n)))
            .collect()
    };
    assert_eq!(labels(&all), labels(&some));
}

/// With an asynchronous solver steps are undone and redone: every node's view must be the one a
/// synchronous run shows for the same node.
#[test]
fn undone_steps_leave_no_views_behind() {
    let a = common::load("bst.hl");
    for strategy in [StrategyKind::Lazier, StrategyKind::Sl] {
        let shared = Rc::new(RefCell::new(common::Shared {
            inner: common::solver(),
            answers: Default::default(),
            outstanding: None,
        }));
        let deferred = Box::new(common::Deferred(Rc::clone(&shared)));
        let mut ex = explorer(&a, "BST.insert", config(strategy, 2), deferred);
        ex.record_views(100_000);
        let mut pendings = 0;
        while let Some(e) = ex.step() {
            if e == Event::SolverPending {
                pendings += 1;
                shared.borrow_mut().resolve();
                for n in ex.tree().iter() {
                    if let Some(v) = ex.view(n.id) {
                        assert_eq!(v.node, n.id);
                    }
                }
            }
        }
        assert!(pendings > 0);
        let mut sync = explorer(&a, "BST.insert", config(strategy, 2), common::solver());
        sync.record_views(100_000);
        sync.run_to_end();
        assert_eq!(ex.tree(), sync.tree());
        for n in sync.tree().iter() {
            assert_eq!(ex.view(n.id), sync.view(n.id), "node {}", n.id.0);
        }
    }
}

#[test]
fn open_references_are_listed_with_their_class() {
    let a = common::load("bst.hl");
    let mut ex = explorer(&a, "BST.insert", config(StrategyKind::LazierSharp, 2), common::solver());
    ex.record_views(100_000);
    let mut seen = false;
    while let Some(e) = ex.step() {
        if let Event::LazyInit { state, target, .. } = &e {
            let view = ex.view(*state).expect("fork view");
            let open = view.symbolic.iter().find(|s| &s.id == target).expect("listed");
            assert_eq!(
                open.kind,
                if target.starts_with("ref") { SymKind::SymRef } else { SymKind::SymLoc }
            );
            assert_eq!(open.class, "Node");
            seen = true;
        }
    }
    assert!(seen);
}
