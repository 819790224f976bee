//! The `symheap` heap view (issue 15): references with their guarded value sets, guards in
//! source names, and the concrete worlds the view offers, each checked with z3 (the
//! independent oracle: the world's guards are satisfiable with the path condition, and no
//! second entry of a reference can hold with the chosen one).

mod common;

use heaplab_engine::symbolic::view::HeapView;
use heaplab_engine::symbolic::{Config, Explorer, NoClock, SatAnswer, StrategyKind, Sym};

fn run(target: &str) -> (Explorer, Vec<HeapView>) {
    run_in("heapsummary.hl", target, 3)
}

fn run_in(file: &str, target: &str, k: u32) -> (Explorer, Vec<HeapView>) {
    let a = common::load(file);
    let mut config = Config::default();
    config.strategy = StrategyKind::Symheap;
    config.bounds.k = k;
    let mut ex =
        Explorer::new(&a.program, &a.info, target, config, common::solver(), Box::new(NoClock))
            .expect("method exists");
    ex.record_views(10_000);
    ex.run_to_end();
    let views = ex.tree().iter().filter_map(|n| ex.view(n.id)).collect();
    (ex, views)
}

#[test]
fn references_hold_guarded_sets_named_by_their_inputs() {
    let (_, views) = run("LinkedList.run1");
    let sym: Vec<_> = views.iter().filter_map(|v| v.symheap.as_ref()).collect();
    assert!(!sym.is_empty(), "a symheap run has symheap views");
    assert!(views.iter().all(|v| v.objects.is_empty() && v.symbolic.is_empty()));
    // `node.elem` may be null, a new Data or the one `this.data0` denotes: one reference, more
    // than one guarded location.
    let aliased = sym
        .iter()
        .flat_map(|s| &s.refs)
        .find(|r| r.entries.iter().filter(|e| e.loc.is_some()).count() >= 2 && r.class == "Data");
    let aliased = aliased.expect("a reference with two guarded locations");
    assert!(aliased.entries.iter().any(|e| e.loc.is_none()), "{aliased:?}");
    let mut copies = 0;
    let mut fresh = 0;
    for s in &sym {
        for r in &s.refs {
            // A copy (contains' `root`) has the entries of the input it copies.
            if let Some(of) = &r.copy_of {
                copies += 1;
                let input = s.refs.iter().find(|i| i.input.as_ref() == Some(of));
                if let Some(input) = input {
                    let guards = |r: &heaplab_engine::symbolic::view_symheap::RefView| {
                        r.entries
                            .iter()
                            .map(|e| (e.guard.clone(), e.loc.clone()))
                            .collect::<Vec<_>>()
                    };
                    assert_eq!(guards(r), guards(input), "{} copies {of}", r.id);
                }
            }
            // An input reference's null entry reads as that input being null, or as "always"
            // where the path fixed it to null (its set has that entry alone).
            if let Some(name) = &r.input {
                let null = r.entries.iter().find(|e| e.loc.is_none());
                if let Some(e) = null {
                    if e.guard == "always" {
                        assert_eq!(r.entries.len(), 1, "{r:?}");
                    } else {
                        assert_eq!(e.guard, format!("{name} == null"), "{r:?}");
                    }
                }
                // Its other entries (of a set with more than one) read as it being new (at most
                // one) or being another input (an alias).
                let new = format!("{name} is new");
                for e in r.entries.iter().filter(|e| e.loc.is_some() && e.guard != "always") {
                    fresh += usize::from(e.guard == new);
                    let alias = e.guard.starts_with(&format!("{name} == "));
                    assert!(e.guard == new || alias, "{r:?}");
                }
                let news = r.entries.iter().filter(|e| e.guard == new).count();
                assert!(news <= 1, "{r:?}");
            }
            for e in &r.entries {
                assert!(!e.guard.contains("guard"), "named guards are expanded: {}", e.guard);
                if let Some(l) = &e.loc {
                    assert!(s.locs.iter().any(|o| &o.id == l), "{l} is drawn");
                }
            }
        }
    }
    assert!(copies > 0, "contains' parameters copy this.head and this.data0");
    assert!(fresh > 0, "some input reference has a new location");
}

#[test]
fn worlds_are_distinct_models_checked_by_z3() {
    let (_, views) = run("LinkedList.run1");
    check_worlds(&views);
}

/// An array location lists its length and one row per accessed cell; a reference cell holds
/// a drawn reference; the worlds of states with arrays are models too (index equality is part
/// of their guards).
#[test]
fn array_locations_list_their_cells() {
    let (_, views) = run_in("isortcmp.hl", "insertionSort", 2);
    let mut arrays = 0;
    let mut reference_cells = 0;
    for v in &views {
        let Some(s) = &v.symheap else { continue };
        for l in s.locs.iter().filter(|l| l.class == "Comparable[]") {
            arrays += 1;
            assert_eq!(l.fields.first().map(|(f, _)| f.as_str()), Some("length"), "{l:?}");
            for (name, value) in &l.fields[1..] {
                assert!(name.starts_with('['), "{name}");
                if let heaplab_engine::symbolic::view::ValView::SymRef(r) = value {
                    assert!(s.refs.iter().any(|x| &x.id == r), "{r} is drawn");
                    reference_cells += 1;
                }
            }
        }
    }
    assert!(arrays > 0 && reference_cells > 0, "{arrays} arrays, {reference_cells} cells");
    check_worlds(&views);
}

/// Every view's worlds: distinct, each satisfiable with its path condition by z3 and exclusive.
fn check_worlds(views: &[HeapView]) {
    let mut z3 = common::solver();
    let mut several = 0;
    let mut slowest = 0;
    for v in views {
        let Some(s) = &v.symheap else { continue };
        let t = std::time::Instant::now();
        let found = s.worlds();
        slowest = slowest.max(t.elapsed().as_millis());
        // A search cut by its query budget still lists the worlds it found, and says so.
        assert!(!found.worlds.is_empty(), "node {:?}: no world ({:?})", v.node, found.note);
        assert!(found.note.is_none() || found.more, "{:?}", found.note);
        if found.worlds.len() > 1 {
            several += 1;
        }
        for (i, w) in found.worlds.iter().enumerate() {
            assert_eq!(w.choice.len(), s.refs.len());
            assert!(found.worlds[..i].iter().all(|o| o.choice != w.choice), "distinct");
            let mut q: Vec<Sym> = s.path_condition().to_vec();
            for (r, &c) in s.refs.iter().zip(&w.choice) {
                q.push(r.entries[c].cond().clone());
            }
            assert_eq!(z3.check(&q), SatAnswer::Sat, "node {:?} world {i}", v.node);
            // Exclusive: with the world's guards, no other entry of any reference holds.
            for (r, &c) in s.refs.iter().zip(&w.choice) {
                for (j, e) in r.entries.iter().enumerate() {
                    if j != c && e.loc != r.entries[c].loc {
                        let mut q2 = q.clone();
                        q2.push(e.cond().clone());
                        assert_eq!(z3.check(&q2), SatAnswer::Unsat, "{} entry {j}", r.id);
                    }
                }
            }
        }
    }
    assert!(several > 0, "some state has more than one world");
    eprintln!("slowest world search: {slowest} ms");
}
