//! Stepping tied to the source: every event and tree node carries the span of the instruction
//! its state was at, views list the locals of every frame, disjunct events carry their
//! instantiated formulas and solver events name inputs as the source does. Oracles: the source
//! text itself (a span must fall inside the construct that ran) and the program's names.

mod common;

use heaplab_engine::symbolic::{Config, Event, Explorer, NoClock, Placed, StrategyKind, ValView};
use heaplab_syntax::{Analysis, Span};

fn explorer(a: &Analysis, target: &str, strategy: StrategyKind) -> Explorer {
    let mut config = Config::default();
    config.strategy = strategy;
    config.bounds.k = 2;
    Explorer::new(&a.program, &a.info, target, config, common::solver(), Box::new(NoClock))
        .expect("method exists")
}

/// The byte range of `insertAt`'s declaration in bst.hl (from its signature to the next `}` at
/// the start of a line, indented by two).
fn insert_at(text: &str) -> (u32, u32) {
    let start = text.find("Node insertAt(int x, Node t)").expect("bst.hl has insertAt");
    let end = start + text[start..].find("\n  }").expect("insertAt ends");
    (start as u32, end as u32)
}

#[test]
fn every_event_and_node_has_a_span_and_insert_at_is_stepped_through() {
    let a = common::load("bst.hl");
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/bst.hl"))
            .expect("bst.hl");
    let (from, to) = insert_at(&text);
    let mut ex = explorer(&a, "BST.insert", StrategyKind::LazierSharp);
    ex.record_views(100_000);
    let (mut inside, mut events) = (0, 0);
    let mut seen_t = false;
    while let Some(Placed { event, span }) = ex.step_placed() {
        if matches!(event, Event::Stopped { .. }) {
            continue;
        }
        events += 1;
        let span: Span = span.unwrap_or_else(|| panic!("{event:?} has no span"));
        assert!(span.start <= span.end && (span.end as usize) <= text.len(), "{event:?}: {span:?}");
        if span.start > from && span.end <= to {
            inside += 1;
        }
        if let Event::SolverQuery { query, .. } = &event {
            assert!(
                !query.split(|c: char| !c.is_alphanumeric()).any(|w| {
                    w.len() > 1 && w.starts_with('x') && w[1..].chars().all(|c| c.is_ascii_digit())
                }),
                "a query names inputs by source names: {query}"
            );
        }
        // A state inside insertAt shows its parameter `t` as a local of the top frame.
        let state = match &event {
            Event::LazyInit { state, .. }
            | Event::Branch { state, .. }
            | Event::SolverQuery { state, .. } => *state,
            _ => continue,
        };
        if let Some(view) = ex.view(state) {
            if let Some(top) = view.frames.last().filter(|f| f.unit == "BST.insertAt") {
                let t = top.locals.iter().find(|(n, _)| n == "t");
                assert!(t.is_some(), "insertAt's frame has t: {top:?}");
                assert!(!matches!(t, Some((_, ValView::Unread))));
                seen_t = true;
            }
            assert!(view.frames.iter().all(|f| f.unit != "<driver>"));
        }
    }
    assert!(events > 50, "{events} events");
    assert!(inside > 10, "events inside insertAt: {inside}");
    assert!(seen_t, "a state inside insertAt showed its local t");
    for node in ex.tree().iter().skip(1) {
        assert!(node.span.is_some(), "node {} has a span", node.id.0);
    }
    assert_eq!(ex.tree().first().and_then(|n| n.span), None, "the root has none");
    // The counts are those of the run without looking (the same pins as symbolic_counts).
    assert_eq!(ex.stats().feasible, 21);
}

#[test]
fn disjunct_events_carry_the_instantiated_cases_of_bst() {
    let a = common::load("bst.hl");
    let mut ex = explorer(&a, "BST.insert", StrategyKind::Sl);
    let mut cases = Vec::new();
    while let Some(event) = ex.step() {
        if let Event::Disjuncts { children, formulas, .. } = event {
            assert_eq!(formulas.len(), children.len(), "{formulas:?}");
            cases.extend(formulas);
        }
    }
    assert!(!cases.is_empty());
    // The base case on the unfolded reference, and the node case with its subtrees and range.
    let base = cases.iter().find(|f| f.contains("== null")).expect("a base case");
    assert!(base.starts_with("emp"), "{base}");
    assert!(!base.contains(" t "), "t is instantiated: {base}");
    let node = cases.iter().find(|f| f.contains("-> Node")).expect("a node case");
    assert!(node.contains("* bst(l, lo, k) * bst(r, k, hi)"), "{node}");
    assert!(node.contains("lo < k") && node.contains("k < hi"), "{node}");
    assert!(!node.starts_with("t ->"), "t is instantiated: {node}");
}

/// Where each path of `target` ends, as the text the span starts with, per outcome kind.
fn path_end_places(file: &str, target: &str, strategy: StrategyKind) -> Vec<(String, String)> {
    use heaplab_engine::symbolic::PathOutcome;
    let a = common::load(file);
    let text =
        std::fs::read_to_string(format!("{}/../../examples/{file}", env!("CARGO_MANIFEST_DIR")))
            .expect("example");
    let mut ex = explorer(&a, target, strategy);
    let mut out = Vec::new();
    while let Some(Placed { event, span }) = ex.step_placed() {
        let Event::PathEnd { outcome, .. } = &event else { continue };
        let span = match outcome {
            PathOutcome::Discarded { span, .. } | PathOutcome::Error { span, .. } => *span,
            _ => span.unwrap_or_else(|| panic!("{event:?} has no span")),
        };
        let kind = match outcome {
            PathOutcome::Returned(_) => "returned",
            PathOutcome::Discarded { .. } => "discarded",
            _ => "other",
        };
        let line_start = text[..span.start as usize].rfind('\n').map_or(0, |i| i + 1);
        let line_end =
            text[span.start as usize..].find('\n').map_or(text.len(), |i| i + span.start as usize);
        out.push((kind.to_string(), text[line_start..line_end].trim().to_string()));
    }
    out
}

#[test]
fn a_returned_path_ends_at_its_return_and_a_pruned_one_where_its_state_was() {
    // SLL.remove has `ensures` clauses (checked at the closing brace, calling `member` and
    // `len`): each returned path still ends on the line of the `return` it took.
    for strategy in [StrategyKind::Sl, StrategyKind::LazierSharp] {
        let places = path_end_places("sll.hl", "SLL.remove", strategy);
        let returned: Vec<&String> =
            places.iter().filter(|(k, _)| k == "returned").map(|(_, l)| l).collect();
        assert!(returned.len() >= 4, "{strategy:?}: {places:?}");
        for line in &returned {
            assert!(line.contains("return"), "{strategy:?}: a returned path ends at `{line}`");
        }
        for line in ["return false;", "return true;"] {
            assert!(
                returned.iter().any(|l| l.ends_with(line)),
                "{strategy:?}: some path ends at `{line}`"
            );
        }
        // `sl` prunes resolutions that would violate `requires`: such a path ends inside the
        // predicate that rejected it, never at the file's first line (a comment).
        for (kind, line) in &places {
            assert!(
                !line.starts_with("//"),
                "{strategy:?}: a {kind} path ends on a comment: {line}"
            );
        }
    }
}
