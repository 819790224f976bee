//! The search driver's record of a run: the worklist and the state running now, the tree of
//! states, the events not yet handed out, the finished paths, the totals and the views. It is
//! the [`Sink`] the executor reports to during a step.

use crate::symbolic::chunked::Chunked;
use crate::symbolic::code::UnitId;
use crate::symbolic::config::{Bound, SearchOrder};
use crate::symbolic::disjuncts::DisjunctTexts;
use crate::symbolic::events::{ChoiceKey, Event, Label, LabelId, Placed, RunStats, ViewAt};
use crate::symbolic::exec::Sink;
use crate::symbolic::outcome::{PathOutcome, PathResult};
use crate::symbolic::shard::Shard;
use crate::symbolic::slots::Slots;
use crate::symbolic::state::{State, StateId};
use crate::symbolic::tree::Tree;
use crate::symbolic::view::Snapshots;
use heaplab_syntax::Span;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::rc::Rc;

/// A lazy-initialization child's labels: the field name its key stands for, the node's label
/// and the option's.
pub type ChoiceLabels = (Box<str>, LabelId, Rc<str>);

/// See the module docs.
pub struct Record {
    pub order: SearchOrder,
    pub worklist: VecDeque<State>,
    pub current: Option<State>,
    pub pending: VecDeque<Placed>,
    /// The source of the instruction being executed: placed on the events and tree nodes the
    /// step reports (set by the driver before each step).
    pub at: Option<Span>,
    /// The last step of the method under test's own frame outside its `ensures` checks: the
    /// state and its place, so that the run's driver (the code around the method under test,
    /// placed at its declaration) keeps the place of the `return` that led there: a path that
    /// returns ends at its `return` (see `Explorer::place_of`).
    pub last: Option<(StateId, Span)>,
    /// The driver's unit (see `entry`).
    pub entry: Option<UnitId>,
    pub next_id: u32,
    /// The tree, with its labels' texts.
    pub tree: Tree,
    /// The labels of lazy-initialization children by what they say ([`ChoiceKey`]): the field
    /// name, the child's label and the option's.
    pub choice_labels: FxHashMap<ChoiceKey, ChoiceLabels>,
    /// The node labels of `choice_labels` found last ([`Slots`]): in wasm the table's lookup
    /// (and the check of the field's name) for each of a `lazy` run's million children was a
    /// percent of the page's Run. A key's field is an address in the compiled code, which keeps
    /// each name in one place for the whole run, so a key the table checked once stays right.
    pub choice_slots: Slots<ChoiceKey, LabelId>,
    /// `disjunct 1`, `disjunct 2`, ... as written so far.
    pub disjunct_labels: Vec<LabelId>,
    pub paths: Vec<PathResult>,
    pub stats: RunStats,
    pub stopped: Option<Bound>,
    /// While a step runs with an asynchronous solver, the states it adds to the worklist wait
    /// here, so that undoing the step (a pending answer) can drop them.
    pub staged: Option<Vec<State>>,
    /// The states of tree nodes that are gone, as they were when their view was asked for
    /// (see `Explorer::record_views`); made views only when looked at.
    pub views: Snapshots<(State, ViewAt)>,
    /// The slice of the tree this run explores (`heaplab run --shard`), if not all of it.
    pub shard: Option<Shard>,
    /// Events carry their formulas and models ([`Sink::detailed`]).
    pub detail: bool,
    /// With `detail`, `Disjuncts` and `SlModel` events carry their formulas (see
    /// `Explorer::set_event_formulas`).
    pub formulas: bool,
    /// With `formulas`, `Disjuncts` events carry their cases' formulas (see
    /// `Explorer::set_case_formulas`).
    pub case_formulas: bool,
    /// Solver-query events carry the query's text ([`Sink::query_text`]).
    pub query_text: bool,
    /// The disjunct formulas written so far ([`Sink::disjunct_texts`]).
    pub disjunct_texts: DisjunctTexts,
    /// The run keeps only what its summary and test generation read (see
    /// `Explorer::set_summary_only`): no record of a discarded path, and `parents` instead of
    /// `tree`.
    pub summary_only: bool,
    /// Each state's parent, by id, while `summary_only` (the tree is empty then).
    pub parents: Parents,
    /// Paths ended so far, kept or not: the next path's [`PathResult::index`].
    pub ended: usize,
    /// Discarded paths past the views' limit that end in nodes from this id on are no event:
    /// they go to `folded_ends` (see `Explorer::fold_discarded_ends`). `u32::MAX`: none.
    pub fold_from: u32,
    /// The node and the place of each such end, in the order they ended.
    pub folded_ends: Vec<(u32, Span)>,
}

impl Record {
    pub fn new(order: SearchOrder, shard: Option<Shard>) -> Record {
        Record {
            order,
            worklist: VecDeque::new(),
            current: None,
            pending: VecDeque::new(),
            at: None,
            last: None,
            entry: None,
            next_id: 0,
            tree: Tree::default(),
            choice_labels: FxHashMap::default(),
            choice_slots: Slots::default(),
            disjunct_labels: Vec::new(),
            paths: Vec::new(),
            stats: RunStats::default(),
            stopped: None,
            staged: None,
            views: Snapshots::default(),
            shard,
            detail: true,
            formulas: true,
            case_formulas: true,
            query_text: true,
            disjunct_texts: DisjunctTexts::default(),
            summary_only: false,
            parents: Parents::default(),
            ended: 0,
            fold_from: u32::MAX,
            folded_ends: Vec::new(),
        }
    }

    /// Adds a state to the worklist: the front for depth first, the back for breadth first.
    pub fn push_state(&mut self, s: State) {
        if let Some(staged) = &mut self.staged {
            staged.push(s);
            return;
        }
        match self.order {
            SearchOrder::Dfs => self.worklist.push_front(s),
            SearchOrder::Bfs => self.worklist.push_back(s),
        }
    }

    /// Adds the children of a fork; depth first explores the first child first.
    pub fn push_fork(&mut self, children: Vec<State>) {
        match self.order {
            SearchOrder::Dfs => children.into_iter().rev().for_each(|c| self.push_state(c)),
            SearchOrder::Bfs => children.into_iter().for_each(|c| self.push_state(c)),
        }
    }
}

impl Record {
    /// Whether the view of a discarded path that ends in node `id` is kept: where views are
    /// recorded, for the nodes within their limit, as the views of inner nodes are.
    pub fn keeps_discarded_view(&self, id: StateId) -> bool {
        self.views.recording() && (id.0 as usize) < self.views.limit()
    }

    /// The parent of state `id`, whichever way the run keeps its tree.
    pub fn parent_of(&self, id: StateId) -> Option<StateId> {
        match self.summary_only {
            true => self.parents.get(id.0 as usize),
            false => self.tree.parent(id.0 as usize),
        }
    }

    /// Switches between keeping the tree and keeping parents only, carrying the nodes made so
    /// far (the entry's) across; nodes rebuilt from parents have no label or place.
    pub fn set_summary_only(&mut self, on: bool) {
        if on && !self.summary_only {
            self.parents = Parents::default();
            (0..self.tree.len()).for_each(|i| self.parents.push(self.tree.parent(i)));
            self.tree.clear();
        } else if !on && self.summary_only {
            let parents = std::mem::take(&mut self.parents);
            self.tree.clear();
            let empty = self.tree.labels.empty();
            (0..parents.len()).for_each(|i| self.tree.push(parents.get(i), empty, None));
        }
        self.summary_only = on;
    }

    /// The children of a fork that this run explores (all of them unless sharded).
    pub fn split(&self, children: Vec<State>) -> Vec<State> {
        match &self.shard {
            Some(shard) => shard.split(children, |s| &mut s.shard),
            None => children,
        }
    }
}

impl Sink for Record {
    fn node(&mut self, parent: Option<StateId>, label: Label) -> StateId {
        let id = StateId(self.next_id);
        self.next_id += 1;
        let span = parent.and(self.at);
        // Labels are for the tree view and traces; a run without detail (CLI `run` without
        // `--trace`, `compare`, `bench`) keeps millions of nodes and shows none of them.
        if self.summary_only {
            // 4 bytes a state instead of a node's 64: `lazy` at k = 3 makes millions, and the
            // tree's doubling alone went past a 60 MB bound in one step.
            self.parents.push(parent);
        } else {
            let label = match (self.detail, label) {
                (true, Label::Text(text)) => self.tree.labels.intern(text),
                (true, Label::Known(id)) => id,
                (false, _) => self.tree.labels.empty(),
            };
            self.tree.push(parent, label, span);
        }
        self.stats.states += 1;
        id
    }

    fn event(&mut self, event: Event) {
        self.pending.push_back(Placed { event, span: self.at });
    }

    fn choice_label(
        &mut self,
        key: ChoiceKey,
        field: &str,
        option: bool,
        make: &mut dyn FnMut() -> (String, String),
    ) -> (Label, String) {
        if let (false, Some(label)) = (option, self.choice_slots.get(&key)) {
            return (Label::Known(label), String::new());
        }
        if let Some((name, label, text)) = self.choice_labels.get(&key) {
            if **name == *field {
                self.choice_slots.put(key, *label);
                return (
                    Label::Known(*label),
                    if option { text.to_string() } else { String::new() },
                );
            }
        }
        let (label, option) = make();
        let label = self.tree.labels.intern(label);
        self.choice_labels.insert(key, (field.into(), label, Rc::from(option.as_str())));
        self.choice_slots.put(key, label);
        (Label::Known(label), option)
    }

    fn disjunct_label(&mut self, i: usize) -> Label {
        if !self.labels() {
            return Label::Text(String::new());
        }
        while self.disjunct_labels.len() <= i {
            let label = format!("disjunct {}", self.disjunct_labels.len() + 1);
            self.disjunct_labels.push(self.tree.labels.intern(label));
        }
        Label::Known(self.disjunct_labels[i])
    }

    fn snapshot(&mut self, st: &State, at: ViewAt) {
        if self.views.wants(st.id) {
            self.views.put(st.id, (st.clone(), at));
        }
    }

    fn snapshot_owned(&mut self, st: State, at: ViewAt) {
        if self.views.wants(st.id) {
            self.views.put(st.id, (st, at));
        }
    }

    fn keep_view(&mut self, st: &State, at: ViewAt) {
        self.views.put(st.id, (st.clone(), at));
    }

    fn stats(&mut self) -> &mut RunStats {
        &mut self.stats
    }

    /// A sharded run counts what a state above the split depth pruned once, in its owner.
    fn pruned(&mut self, st: &State, directions: u64) {
        if self.shard.is_none_or(|shard| shard.owns(st.shard)) {
            self.stats.infeasible += directions;
        }
    }

    fn record(&mut self, mut st: State, mut outcome: PathOutcome) {
        // A path that ended above the split depth is explored by every shard and belongs to one.
        if self.shard.is_some_and(|shard| !shard.owns(st.shard)) {
            return;
        }
        // A heap model that prunes a resolution (`sl`: one that would violate the
        // precondition) knows no source position: the path ends where its state was.
        if let (PathOutcome::Discarded { span, .. }, Some(at)) = (&mut outcome, self.at) {
            if *span == Span::default() {
                *span = at;
            }
        }
        match &outcome {
            PathOutcome::Returned(_) | PathOutcome::Error { .. } => {
                self.stats.feasible += 1;
            }
            PathOutcome::Bounded { .. } => self.stats.bounded += 1,
            PathOutcome::Discarded { precondition, .. } => {
                self.stats.infeasible += 1;
                if *precondition {
                    self.stats.precondition_discarded += 1;
                }
            }
            PathOutcome::Internal { .. } => self.stats.internal_errors += 1,
        }
        if st.k_cut {
            self.stats.k_cut = true;
        }
        let index = self.ended;
        self.ended += 1;
        if matches!(outcome, PathOutcome::Discarded { .. })
            && self.summary_only
            && !self.views.recording()
        {
            // No one listens for this path (no views, no events read), and a discarded path
            // gives no test: its counts above are all a summary reads of it. A precondition
            // that rejects most inputs (TreeMap `put` under `lazy` at k = 3: 99.7 % of its
            // paths) kept a record and a boxed state per path, three quarters of the run's
            // memory.
            return;
        }
        if matches!(outcome, PathOutcome::Discarded { .. }) {
            // A discarded path yields no test; its frames (locals, operand stacks) are dead
            // weight, and a precondition that rejects most inputs leaves hundreds of thousands.
            // Its heap and path condition are dead weight too, but where a front end shows
            // states for the first nodes (see `keeps_discarded_view`). Past those, a front end
            // that shows the tree reads only the outcome, which the node keeps: `lazy` at k = 3
            // on TreeMap `put` discards 99.7 % of millions of paths, and a record and a state
            // each made the page's run 20 % slower than the bare engine's and took gigabytes.
            if self.keeps_discarded_view(st.id) {
                st.frames = Default::default();
            } else if self.views.recording() {
                self.views.full = true;
                if let (PathOutcome::Discarded { precondition, span }, true) =
                    (&outcome, (st.id.0 as usize) < self.tree.len())
                {
                    self.tree.set_discarded(st.id.0 as usize, *precondition);
                    if st.id.0 >= self.fold_from {
                        self.folded_ends.push((st.id.0, *span));
                        return;
                    }
                    let event = Event::PathEnd { state: st.id, path: None, outcome };
                    self.pending.push_back(Placed { event, span: self.at });
                    return;
                }
                st.shed_for_summary();
            } else {
                st.shed_for_summary();
            }
        }
        // Where the path sits in `paths` (its `index` too unless discarded paths were left out).
        let position = self.paths.len();
        self.tree.set_path(st.id.0 as usize, position);
        let event = Event::PathEnd { state: st.id, path: Some(position), outcome: outcome.clone() };
        self.pending.push_back(Placed { event, span: self.at });
        self.paths.push(PathResult { index, outcome, state: Box::new(st) });
    }

    fn push(&mut self, st: State) {
        self.push_state(st);
    }

    fn stopped(&self) -> bool {
        self.stopped.is_some()
    }

    fn labels(&self) -> bool {
        self.detail && !self.summary_only
    }

    fn detailed(&self) -> bool {
        self.detail && self.formulas
    }

    fn detailed_at(&self, st: StateId) -> bool {
        self.detailed() && (!self.views.recording() || (st.0 as usize) < self.views.limit())
    }

    fn case_formulas_at(&self, st: StateId) -> bool {
        self.case_formulas && self.detailed_at(st)
    }

    fn query_text(&self) -> bool {
        self.detail && self.query_text
    }

    fn disjunct_texts(&mut self) -> Option<&mut DisjunctTexts> {
        Some(&mut self.disjunct_texts)
    }
}

/// States' parents by id: 4 bytes a state, in chunks ([`Chunked`]).
#[derive(Default)]
pub struct Parents(Chunked<u32>);

/// The root's parent.
const NONE: u32 = u32::MAX;

impl Parents {
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn push(&mut self, parent: Option<StateId>) {
        self.0.push(parent.map_or(NONE, |p| p.0));
    }

    pub fn get(&self, id: usize) -> Option<StateId> {
        let p = *self.0.get(id)?;
        (p != NONE).then_some(StateId(p))
    }

    pub fn truncate(&mut self, len: usize) {
        self.0.truncate(len);
    }
}
