//! The page's Run, a slice at a time: [`Run::advance_slice`] steps for a time budget and keeps
//! only what the tree shows, [`Run::finish_slice`] adds the slice's new nodes as columns
//! ([`TreeColumns`]) with the path ends of those nodes folded into them.

use heaplab_engine::symbolic::{Clock, Event, Placed};
use heaplab_syntax::Span;
use rustc_hash::{FxHashMap, FxHasher};
use std::collections::hash_map::Entry;
use std::hash::{Hash, Hasher};

use crate::events::JsEvent;
use crate::exploration::{Next, Run, VIEW_LIMIT};
use crate::tree_columns::TreeColumns;
use crate::Failure;

/// What the page's Run takes at once (`runSlice`): the events the tree shows, the tree nodes
/// created since the page's last slice (as columns), how many solver queries were only
/// counted, and whether exploration is over.
///
/// The path end of a node the slice made is folded into that node (see
/// [`Run::finish_slice`]): most nodes of a large run are leaves that end within the slice that
/// made them (`lazy` at k = 3: over 60 % of the events, millions of discarded paths on TreeMap
/// `put`), and their events would say again what their nodes say.
pub struct Slice {
    /// The first node the page does not have: nodes from here on are new in the slice.
    pub tree_from: usize,
    pub events: Vec<JsEvent>,
    /// The path ends of new nodes, folded into them: node and the end's line.
    pub folded: Vec<(u32, Option<u32>)>,
    /// Discarded paths that ended in new nodes past the view limit without an event (see
    /// `Explorer::fold_discarded_ends`): node and where the path ended.
    quiet_ends: Vec<(u32, Span)>,
    /// Forks of states from this id on are not events (see [`Run::advance_slice`]).
    forks_before: u32,
    /// The last event, when it is not in `events` (a folded path end, or a fork past
    /// `forks_before`): the page says the slice's last event in words, so it stays an event.
    last_left: Option<(Placed, Left)>,
    pub nodes: TreeColumns,
    pub queries: u64,
    pub over: bool,
    /// The events with `names`, by a hash of them (see [`Slice::push`]).
    names_at: FxHashMap<u64, u32>,
}

/// Why the slice's last event was left out of its events.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Left {
    /// A path end folded into its node (the last entry of `folded`).
    Folded,
    /// A fork past the view limit.
    Fork,
}

/// How many events a slice takes between two readings of the clock (see
/// [`Run::advance_slice`]).
const CLOCK_EVERY: u32 = 32;

impl Slice {
    /// A slice for a page that has the nodes before `tree_from`.
    pub fn for_nodes_from(tree_from: usize) -> Slice {
        Slice {
            tree_from,
            events: Vec::new(),
            folded: Vec::new(),
            quiet_ends: Vec::new(),
            forks_before: VIEW_LIMIT as u32,
            last_left: None,
            nodes: TreeColumns::default(),
            queries: 0,
            over: false,
            names_at: FxHashMap::default(),
        }
    }

    /// Adds an event; its `names`, when an earlier event of the slice has the same, become a
    /// reference to that event (`same_names_as`), which the page follows when it reads them.
    fn push(&mut self, mut js: JsEvent) {
        if let Some(names) = &js.names {
            // A hash of the ids and of each name's length and end, cheaper than of the whole:
            // names that differ mostly differ there, and two that collide only miss being
            // shared (equal names are compared in full).
            let mut hasher = FxHasher::default();
            for (id, name) in names {
                id.hash(&mut hasher);
                name.len().hash(&mut hasher);
                name.as_bytes()[name.len().saturating_sub(8)..].hash(&mut hasher);
            }
            let at = self.events.len() as u32;
            match self.names_at.entry(hasher.finish()) {
                Entry::Occupied(earlier) => {
                    let same = self.events.get(*earlier.get() as usize);
                    if same.is_some_and(|e| e.names.as_ref() == Some(names)) {
                        js.same_names_as = Some(*earlier.get());
                        js.names = None;
                    }
                }
                Entry::Vacant(slot) => {
                    slot.insert(at);
                }
            }
        }
        self.events.push(js);
    }
}

impl Default for Slice {
    /// A slice that folds nothing and keeps every event (a duel shows no tree).
    fn default() -> Slice {
        Slice { forks_before: u32::MAX, ..Slice::for_nodes_from(usize::MAX) }
    }
}

/// Why [`Run::advance_slice`] returned.
pub enum SliceStop {
    Over,
    /// The time slice ended, or a query waits for Z3 where there is none.
    Paused,
    /// These scripts need Z3's replies before the run can go on.
    Resolve(Vec<String>),
}

impl Run {
    /// Steps until exploration is over, the working clock passes `end_ms`, a step needs Z3's
    /// replies, or (without Z3, `has_z3` false) a query only Z3 could answer was left open, so
    /// that the page stops on it with the tree up to it; with `until_path_end`, also after the
    /// first path that ends (a duel counts its clues path by path, whatever the machine's
    /// speed). Events the tree shows go into `slice`; solver queries are only counted.
    ///
    /// A fork of a state past the first [`VIEW_LIMIT`] is no event: its children are in the
    /// columns with their labels, and what the event adds (the option each child took, for the
    /// heap view's highlight, and the names of the objects) is for nodes whose heap is kept,
    /// which these are not. `lazy` at k = 3 on AVL `insert` made 45 MB of such events, a fifth
    /// of the page's Run. Nor is the end of a discarded path there that ended in one of the
    /// slice's new nodes (the node says its outcome, and takes the end's line); a slice that
    /// stops at each path end keeps them all as events.
    pub fn advance_slice(
        &mut self,
        slice: &mut Slice,
        end_ms: u64,
        has_z3: bool,
        until_path_end: bool,
    ) -> Result<SliceStop, Failure> {
        // A slice only counts its queries, and writes no case's formula: the page shows it with
        // the case's node view (`JsHeapView::case_formula`).
        self.set_event_text(true, false);
        self.explorer.set_case_formulas(false);
        let fold_from = match until_path_end {
            true => u32::MAX,
            false => u32::try_from(slice.tree_from).unwrap_or(u32::MAX),
        };
        self.explorer.fold_discarded_ends(fold_from);
        // The clock is read every CLOCK_EVERY events: read after each, it was 1.5 % of the
        // page's Run of TreeMap `put` (a call out to the host's clock however coarse the
        // reading), and a slice runs over its end by a few microseconds at most.
        let mut events = 0u32;
        let stop = loop {
            let next = match self.advance() {
                Ok(next) => next,
                Err(e) => break Err(e),
            };
            let placed = match next {
                Next::Event(placed) => placed,
                Next::Resolve(scripts) => break Ok(SliceStop::Resolve(scripts)),
                Next::Explored => break Ok(SliceStop::Over),
            };
            let path_ended = matches!(placed.event, Event::PathEnd { .. });
            match placed.event {
                Event::SolverQuery { .. } => {
                    slice.queries += 1;
                    if !has_z3 && self.unanswered() > 0 {
                        break Ok(SliceStop::Paused);
                    }
                }
                Event::PathEnd { state, .. } if state.0 as usize >= slice.tree_from => {
                    slice.folded.push((state.0, self.event_line(&placed)));
                    slice.last_left = Some((placed, Left::Folded));
                }
                Event::LazyInit { state, .. }
                | Event::Branch { state, .. }
                | Event::Disjuncts { state, .. }
                    if state.0 >= slice.forks_before =>
                {
                    slice.last_left = Some((placed, Left::Fork));
                }
                _ => {
                    slice.push(self.event_js(&placed));
                    slice.last_left = None;
                }
            }
            events = events.wrapping_add(1);
            let time_up = || events.is_multiple_of(CLOCK_EVERY) && self.clock.now_ms() >= end_ms;
            if (until_path_end && path_ended) || time_up() {
                break Ok(SliceStop::Paused);
            }
        };
        // A step taken alone (the page's Step) reports every end.
        self.explorer.fold_discarded_ends(u32::MAX);
        slice.quiet_ends.append(&mut self.explorer.take_folded_ends());
        stop
    }

    /// Ends a slice for the page: the tree nodes from `slice.tree_from` on, with the path ends
    /// folded into them. A node carries its end already (outcome, colour, text, path) and takes
    /// the end's line, the last line a state has. The slice's last event stays an event
    /// whatever it is: the page says it in words as what the engine did last.
    pub fn finish_slice(&self, slice: &mut Slice) {
        slice.nodes = self.tree_columns(slice.tree_from);
        let last = slice.last_left.take().map(|(placed, left)| {
            if left == Left::Folded {
                slice.folded.pop();
            }
            placed
        });
        for (node, line) in slice.folded.drain(..) {
            if let (Some(at), Some(line)) = (slice.nodes.at(node), line) {
                slice.nodes.set_line(at, line);
            }
        }
        for (node, span) in slice.quiet_ends.drain(..) {
            if let Some(at) = slice.nodes.at(node) {
                slice.nodes.set_line(at, self.line_of(span));
            }
        }
        if let Some(placed) = last {
            slice.push(self.event_js(&placed));
        }
    }

    /// The tree nodes with ids `start..` as columns (see [`TreeColumns`]); the same nodes as
    /// [`Run::tree_nodes`].
    pub fn tree_columns(&self, start: usize) -> TreeColumns {
        let tree = self.explorer.tree();
        let mut columns = TreeColumns::starting_at(start as u32);
        columns.reserve(tree.len().saturating_sub(start));
        // A large slice's nodes share a few thousand looks (label and place) and nearly all of
        // them end in one of two texts (a discarded path the run did not keep): each is
        // converted once, where converting each node's was most of a `lazy` Run's columns.
        let mut looks: Vec<Option<(u32, u32)>> = vec![None; tree.looks()];
        let mut unkept: [Option<u32>; 2] = [None; 2];
        for (n, look) in tree.iter_with_looks_from(start) {
            let (label, line) = match looks.get(look).copied().flatten() {
                Some(seen) => seen,
                None => {
                    let label = columns.label_string((n.label, tree.label(&n)));
                    let seen = (label, n.span.map_or(0, |s| self.line_of(s)));
                    if let Some(slot) = looks.get_mut(look) {
                        *slot = Some(seen);
                    }
                    seen
                }
            };
            let end = match (n.path, n.discarded) {
                (None, Some(precondition)) => {
                    let slot = &mut unkept[usize::from(precondition)];
                    *slot.get_or_insert_with(|| columns.end_id(self.end_of(&n)))
                }
                _ => columns.end_id(self.end_of(&n)),
            };
            columns.push_interned(n.parent.map(|p| p.0), n.path, line, label, end);
        }
        columns
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Details, JsTreeNode};
    use crate::exploration::{Request, VIEW_LIMIT};

    fn bst_run() -> Run {
        let source = include_str!("../../../examples/bst.hl").to_string();
        let request =
            Request::from_json(r#"{"strategy": "lazier#", "bounds": {"k": 2}, "views": false}"#)
                .unwrap_or_else(|e| panic!("{}", e.message));
        Run::new(source, "BST.insert".into(), request, false, || 0.0)
            .unwrap_or_else(|e| panic!("{}", e.message))
    }

    /// `lazy` at k = 3 on BST `insert` of `Object` elements (1.2 M states to its end), cut at
    /// 8,000 states: past the view limit of 5,000.
    fn large_lazy_run(now: fn() -> f64) -> Run {
        let source = include_str!("../../../examples/bstcmp.hl").to_string();
        let request = r#"{"strategy": "lazy", "bounds": {"k": 3, "max_states": 8000}}"#;
        let request = Request::from_json(request).unwrap_or_else(|e| panic!("{}", e.message));
        let mut run = Run::new(source, "BST.insert".into(), request, false, now)
            .unwrap_or_else(|e| panic!("{}", e.message));
        run.enter().unwrap_or_else(|e| panic!("{}", e.message));
        run
    }

    /// A slice asked to stop at path ends (the duel's clue count) ends after each path, and
    /// only there; without it, a slice whose time never runs out goes to the end.
    #[test]
    fn a_slice_can_end_at_each_path_end() {
        let mut run = bst_run();
        let (mut slices, mut ends) = (0, 0);
        loop {
            let mut slice = Slice::default();
            let stop = run.advance_slice(&mut slice, u64::MAX, false, true).expect("runs");
            let ended = slice.events.iter().filter(|e| e.kind == "pathEnd").count();
            ends += ended;
            slices += 1;
            match stop {
                SliceStop::Over => break,
                SliceStop::Paused => assert_eq!(ended, 1, "a paused slice ends one path"),
                SliceStop::Resolve(_) => panic!("no Z3 query in BST"),
            }
        }
        let paths = run.explorer.paths().len();
        assert!(paths > 20, "{paths} paths");
        assert_eq!(ends, paths);
        assert_eq!(slices, paths + 1, "one slice per path, and the one that finds the end");

        let mut whole = bst_run();
        let mut slice = Slice::default();
        let stop = whole.advance_slice(&mut slice, u64::MAX, false, false).expect("runs");
        assert!(matches!(stop, SliceStop::Over));
        assert_eq!(slice.events.iter().filter(|e| e.kind == "pathEnd").count(), paths);
    }

    /// The path ends of a slice's own nodes travel in those nodes (outcome and line); the ends
    /// of nodes an earlier slice made, and the slice's last event, stay events. The oracle is
    /// the same run in a slice that folds nothing.
    #[test]
    fn a_slice_folds_the_ends_of_its_own_nodes_into_them() {
        let ends_of = |events: &[JsEvent]| -> Vec<(u32, Option<u32>)> {
            let ends = events.iter().filter(|e| e.kind == "pathEnd");
            ends.map(|e| (e.node.expect("a path end has a node"), e.line)).collect()
        };
        let kinds = |events: &[JsEvent]| -> Vec<String> {
            events.iter().map(|e| format!("{} {:?} {:?}", e.kind, e.node, e.line)).collect()
        };
        let mut whole = Slice::default();
        bst_run().advance_slice(&mut whole, u64::MAX, false, false).expect("runs");
        let ends = ends_of(&whole.events);

        let mut run = bst_run();
        let mut slice = Slice::for_nodes_from(0);
        run.advance_slice(&mut slice, u64::MAX, false, false).expect("runs");
        run.finish_slice(&mut slice);
        assert_eq!(ends.len(), run.explorer.paths().len());
        let last_is_end = whole.events.last().is_some_and(|e| e.kind == "pathEnd");
        let mut expected: Vec<JsEvent> = whole.events;
        let last = expected.pop();
        expected.retain(|e| e.kind != "pathEnd");
        expected.extend(last);
        assert_eq!(kinds(&slice.events), kinds(&expected));
        assert_eq!(ends_of(&slice.events).len(), usize::from(last_is_end));
        // The columns hold the nodes `tree_nodes` gives, but for the lines the ends moved in.
        let objects = serde_json::to_value(run.tree_nodes(0)).expect("nodes serialize");
        let objects = objects.as_array().expect("an array");
        assert_eq!(slice.nodes.len(), objects.len());
        let mut moved = 0;
        for (at, object) in objects.iter().enumerate() {
            let mut node = slice.nodes.node_json(at);
            if node["line"] != object["line"] {
                let end = ends.iter().find(|(n, _)| *n as usize == at);
                assert_eq!(
                    end.and_then(|(_, line)| *line),
                    node["line"].as_u64().map(|l| l as u32)
                );
                node["line"] = object["line"].clone();
                moved += 1;
            }
            assert_eq!(&node, object, "node {at}");
        }
        assert!(moved > 0, "some path ends at another line than its node was made");
        for (i, (node, line)) in ends.iter().enumerate() {
            let n = slice.nodes.node_json(*node as usize);
            assert!(
                n["outcome"].is_string() && n["text"].is_string(),
                "node {node} carries its end"
            );
            if let (Some(line), false) = (line, last_is_end && i + 1 == ends.len()) {
                assert_eq!(n["line"], *line, "node {node} is at its end's line");
            }
        }

        // Slices that end at each path end: each one's end is its last event, and stays one,
        // whether its node is new (most) or an earlier slice's.
        let mut run = bst_run();
        let (mut seen, mut older) = (0usize, 0);
        loop {
            let mut slice = Slice::for_nodes_from(seen);
            let stop = run.advance_slice(&mut slice, u64::MAX, false, true).expect("runs");
            run.finish_slice(&mut slice);
            let ends = ends_of(&slice.events);
            match stop {
                SliceStop::Over => assert!(ends.is_empty()),
                _ => {
                    assert_eq!(ends.len(), 1);
                    assert_eq!(slice.events.last().map(|e| e.kind), Some("pathEnd"));
                    older += usize::from((ends[0].0 as usize) < seen);
                }
            }
            seen += slice.nodes.len();
            if matches!(stop, SliceStop::Over) {
                break;
            }
        }
        assert!(older > 0, "some path ended in a later slice than its node");
    }

    /// The page's slices leave out the forks of states past the first VIEW_LIMIT (their nodes
    /// still come, in the columns); a slice that folds nothing (a duel's) keeps them. The
    /// oracle is the same run in a slice of the latter kind.
    #[test]
    fn forks_past_the_view_limit_are_no_events_in_the_pages_slices() {
        let new_run = || large_lazy_run(|| 0.0);
        let is_fork = |e: &JsEvent| matches!(e.kind, "lazyInit" | "branch" | "disjuncts");
        let mut all = Slice::default();
        new_run().advance_slice(&mut all, u64::MAX, false, false).expect("runs");
        let forks = |events: &[JsEvent], past: bool| -> Vec<String> {
            let wanted =
                |e: &&JsEvent| is_fork(e) && (e.node.unwrap_or(0) as usize >= VIEW_LIMIT) == past;
            events
                .iter()
                .filter(wanted)
                .map(|e| format!("{} {:?} {:?}", e.kind, e.node, e.line))
                .collect()
        };
        assert!(!forks(&all.events, true).is_empty(), "the run forks past the limit");
        // A lazy initialization says its options within the limit only (its children's labels
        // say them everywhere).
        let mut past = 0;
        for e in &all.events {
            if let Details::LazyInit { options, children, .. } = &e.details {
                let within = (e.node.unwrap_or(0) as usize) < VIEW_LIMIT;
                let expected = if within { children.len() } else { 0 };
                assert_eq!(options.len(), expected, "node {:?}", e.node);
                past += usize::from(!within);
            }
        }
        assert!(past > 0, "lazy initializations past the limit");

        let mut run = new_run();
        let (mut seen, mut slices, mut kept) = (0usize, 0, Vec::new());
        loop {
            let mut slice = Slice::for_nodes_from(seen);
            // A few hundred events a slice, so that some slices end in a fork past the limit.
            let stop = run.advance_slice(&mut slice, u64::MAX, false, true).expect("runs");
            run.finish_slice(&mut slice);
            let last = slice.events.pop();
            assert!(forks(&slice.events, true).is_empty(), "slice {slices}: a fork past the limit");
            kept.extend(slice.events.into_iter().chain(last));
            seen += slice.nodes.len();
            slices += 1;
            if matches!(stop, SliceStop::Over) {
                break;
            }
        }
        assert_eq!(seen, run.explorer.tree().len(), "the columns bring every node");
        assert_eq!(forks(&kept, false), forks(&all.events, false), "the forks within the limit");
    }

    /// Past the first VIEW_LIMIT nodes a discarded path is not kept in `paths` (the page's
    /// views stop there too); its node still says how it ended: in the tree, in the columns
    /// and in its event, and the summary counts it.
    #[test]
    fn discarded_paths_past_the_view_limit_end_in_their_nodes() {
        let mut run = large_lazy_run(|| 0.0);
        let mut slice = Slice::default();
        run.advance_slice(&mut slice, u64::MAX, false, false).expect("runs");
        let mut unkept_events: Vec<u32> = slice
            .events
            .iter()
            .filter(|e| matches!(e.details, Details::PathEnd { path: None, .. }))
            .filter_map(|e| e.node)
            .collect();
        unkept_events.sort();
        let columns = run.tree_columns(0);
        run.explored = true;
        while !run.try_generate().expect("tests").is_empty() {}

        let nodes = run.tree_nodes(0);
        assert!(nodes.len() > VIEW_LIMIT, "{} nodes", nodes.len());
        let discarded: Vec<&JsTreeNode> =
            nodes.iter().filter(|n| n.outcome == Some("discarded")).collect();
        let (kept, unkept): (Vec<&JsTreeNode>, Vec<&JsTreeNode>) =
            discarded.iter().partition(|n| n.path.is_some());
        assert!(!unkept.is_empty());
        assert!(kept.iter().all(|n| (n.id as usize) < VIEW_LIMIT));
        assert_eq!(unkept.iter().map(|n| n.id).collect::<Vec<_>>(), unkept_events);
        for n in &unkept {
            assert!(n.id as usize >= VIEW_LIMIT, "node {}", n.id);
            // The `requires` formula, or bstcmp's executable `assume isBst(..)`.
            let texts = [Some("precondition does not hold"), Some("assumption does not hold")];
            assert!(texts.contains(&n.text.as_deref()), "node {}: {:?}", n.id, n.text);
            assert!(run.view(n.id).is_none(), "node {}", n.id);
            let column = columns.node_json(n.id as usize);
            assert_eq!(
                (&column["outcome"], &column["colour"]),
                (&"discarded".into(), &"grey".into())
            );
        }
        let summary = run.summary();
        let on_requires =
            discarded.iter().filter(|n| n.text.as_deref() == Some("precondition does not hold"));
        assert_eq!(summary.paths_precondition_discarded as usize, on_requires.count());
        assert!(summary.tests > 0);
    }

    /// The columns convert each look and each unkept end once (`tree_columns`); every node
    /// still reads back as the tree says it, node by node (`tree_nodes`): before the view
    /// limit, past it, and from a start in the middle.
    #[test]
    fn columns_say_what_the_tree_says_node_by_node() {
        let mut run = large_lazy_run(|| 0.0);
        run.advance_slice(&mut Slice::default(), u64::MAX, false, false).expect("runs");
        let nodes = run.tree_nodes(0);
        assert!(nodes.len() > VIEW_LIMIT, "{} nodes", nodes.len());
        for start in [0, VIEW_LIMIT - 3, nodes.len() - 1] {
            let columns = run.tree_columns(start);
            assert_eq!(columns.len(), nodes.len() - start);
            for n in &nodes[start..] {
                let expected = serde_json::to_value(n).expect("json");
                assert_eq!(columns.node_json(n.id as usize - start), expected, "node {}", n.id);
            }
        }
    }

    /// What the page makes of its batches (store.js `growTree`): a node's end from its column
    /// or its `pathEnd` event, its line from the latest event that has one, else its column's.
    fn page_nodes(columns: &[TreeColumns], events: &[JsEvent]) -> Vec<serde_json::Value> {
        let mut nodes: Vec<serde_json::Value> =
            columns.iter().flat_map(|c| (0..c.len()).map(|at| c.node_json(at))).collect();
        for e in events {
            let Some(node) = e.node.and_then(|n| nodes.get_mut(n as usize)) else { continue };
            if let Some(line) = e.line {
                node["line"] = line.into();
            }
            if let Details::PathEnd { path, outcome, colour, text, .. } = &e.details {
                node["path"] = serde_json::json!(path);
                node["outcome"] = (*outcome).into();
                node["colour"] = (*colour).into();
                node["text"] = text.as_str().into();
            }
        }
        nodes
    }

    thread_local! {
        static TICKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// A clock that moves 50 µs at each reading: slices of a few steps, whatever the machine.
    fn ticking() -> f64 {
        TICKS.with(|t| {
            t.set(t.get() + 1);
            t.get() as f64 * 0.05
        })
    }

    /// Past the view limit the page's slices bring the discarded paths that end in their own
    /// nodes in those nodes alone, not as events: the page ends up with the same tree (each
    /// node's end and line) as from every event of the run. Slices of a few steps each, so
    /// that many nodes end in a later slice than the one that brought them.
    #[test]
    fn discarded_ends_past_the_view_limit_come_in_their_nodes_alone() {
        let new_run = || large_lazy_run(ticking);
        let mut run = new_run();
        let mut all = Slice::default();
        run.advance_slice(&mut all, u64::MAX, false, false).expect("runs");
        // Forks past the limit are no events in the page's slices either (see
        // `forks_past_the_view_limit_are_no_events_in_the_pages_slices`).
        let fork_past = |e: &JsEvent| {
            matches!(e.kind, "lazyInit" | "branch" | "disjuncts")
                && e.node.is_some_and(|n| n as usize >= VIEW_LIMIT)
        };
        all.events.retain(|e| !fork_past(e));
        let expected = page_nodes(&[run.tree_columns(0)], &all.events);
        let is_unkept_end = |e: &JsEvent| matches!(e.details, Details::PathEnd { path: None, .. });
        let unkept = all.events.iter().filter(|e| is_unkept_end(e)).count();
        assert!(unkept > 1000, "{unkept} discarded paths past the limit");

        let mut run = new_run();
        let (mut columns, mut events, mut seen) = (Vec::new(), Vec::new(), 0);
        let (mut slices, mut quiet) = (0, 0);
        loop {
            let mut slice = Slice::for_nodes_from(seen);
            let end = run.clock.now_ms() + 1;
            let stop = run.advance_slice(&mut slice, end, false, false).expect("runs");
            quiet += slice.quiet_ends.len();
            run.finish_slice(&mut slice);
            seen += slice.nodes.len();
            slices += 1;
            columns.push(std::mem::take(&mut slice.nodes));
            events.append(&mut slice.events);
            if matches!(stop, SliceStop::Over) {
                break;
            }
        }
        let unkept_events = events.iter().filter(|e| is_unkept_end(e)).count();
        assert!(quiet > unkept / 2, "{quiet} of {unkept} ends came in their nodes alone");
        assert_eq!(unkept_events + quiet, unkept, "each end once, as an event or in its node");
        assert!(
            slices > 20 && unkept_events > 0,
            "{slices} slices, {unkept_events} ends as events"
        );
        // An inner node's line is its latest event's, and a slice's last event stays one even
        // when it is a fork past the limit: those lines may differ, an end's may not.
        let ended = |mut n: serde_json::Value| {
            if n["outcome"].is_null() {
                n["line"] = serde_json::Value::Null;
            }
            n
        };
        let got = page_nodes(&columns, &events);
        assert_eq!(got.len(), expected.len());
        for (got, expected) in got.into_iter().zip(expected) {
            assert_eq!(ended(got), ended(expected));
        }
    }

    /// A run of `method` of `source` with the `request` JSON, entered, on a clock at 0.
    fn entered_run(source: &str, method: &str, request: &str) -> Run {
        let request = Request::from_json(request).unwrap_or_else(|e| panic!("{}", e.message));
        let mut run = Run::new(source.into(), method.into(), request, false, || 0.0)
            .unwrap_or_else(|e| panic!("{}", e.message));
        run.enter().unwrap_or_else(|e| panic!("{}", e.message));
        run
    }

    /// A run's slices leave the cases' formulas out of their `disjuncts` events, and each
    /// case's node view carries its own. The oracle is the same run stepped, whose events carry
    /// them (`sl` on BST `insert` unfolds `bst` into its two cases at every fork).
    #[test]
    fn a_case_formula_comes_with_its_nodes_view() {
        let sl_run = || {
            let bounds = r#"{"strategy": "sl", "bounds": {"k": 2}}"#;
            entered_run(include_str!("../../../examples/bst.hl"), "BST.insert", bounds)
        };
        let mut stepped = sl_run();
        stepped.set_event_text(true, false);
        let mut expected = Vec::new();
        while let Next::Event(placed) = stepped.advance().expect("steps") {
            if let Details::Disjuncts { children, formulas } = stepped.event_js(&placed).details {
                assert_eq!(children.len(), formulas.len(), "a stepped fork says its cases");
                expected.extend(children.into_iter().zip(formulas));
            }
        }
        assert!(expected.len() >= 4, "{} cases", expected.len());
        assert!(expected.iter().any(|(_, f)| f.contains("-> Node {")), "{expected:?}");

        let mut run = sl_run();
        let mut slice = Slice::for_nodes_from(0);
        let stop = run.advance_slice(&mut slice, u64::MAX, false, false).expect("runs");
        assert!(matches!(stop, SliceStop::Over));
        for e in &slice.events {
            if let Details::Disjuncts { formulas, .. } = &e.details {
                assert!(formulas.is_empty(), "a slice writes no formula");
            }
        }
        for (node, formula) in expected {
            let view = serde_json::to_value(run.view(node)).expect("a view serializes");
            assert_eq!(view["caseFormula"], formula.as_str(), "node {node}");
        }
        // A node that is no case has none.
        let root = serde_json::to_value(run.view(0)).expect("a view serializes");
        assert!(root.get("caseFormula").is_none());
    }

    /// A slice sends each fork's names once: an event whose names an earlier event of the
    /// slice has carries that event's index instead, and following it gives the names the
    /// event has on its own (the oracle: the same run stepped).
    #[test]
    fn a_slice_sends_each_names_once() {
        let tree_map = || {
            let bounds = r#"{"strategy": "lazier#", "bounds": {"k": 2}}"#;
            entered_run(include_str!("../../../examples/treemap.hl"), "TreeMap.put", bounds)
        };
        let mut stepped = tree_map();
        stepped.set_event_text(true, false);
        let mut expected = std::collections::BTreeMap::new();
        while let Next::Event(placed) = stepped.advance().expect("steps") {
            let js = stepped.event_js(&placed);
            if let (Some(node), Some(names)) = (js.node, js.names) {
                expected.insert(node, names);
            }
        }
        let mut run = tree_map();
        let mut slice = Slice::for_nodes_from(0);
        run.advance_slice(&mut slice, u64::MAX, false, false).expect("runs");
        let (mut sent, mut shared) = (Vec::new(), 0);
        for e in &slice.events {
            let names = match (&e.names, e.same_names_as) {
                (Some(names), None) => {
                    assert!(!sent.contains(&names), "node {:?}: names sent twice", e.node);
                    sent.push(names);
                    names
                }
                (None, Some(at)) => {
                    shared += 1;
                    let earlier = &slice.events[at as usize];
                    assert!(earlier.same_names_as.is_none(), "a reference to a reference");
                    earlier.names.as_ref().expect("the earlier event has names")
                }
                (None, None) => continue,
                (Some(_), Some(_)) => panic!("node {:?}: names and a reference", e.node),
            };
            let node = e.node.expect("a fork has a node");
            assert_eq!(Some(names), expected.get(&node), "node {node}");
        }
        let named = sent.len() + shared;
        assert_eq!(named, expected.len(), "every fork with names");
        assert!(shared > named / 2, "{shared} of {named} forks share their names");
    }
}
