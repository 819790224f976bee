//! Choosing a base pair for each instance of a disjunct, consistently: the inner loop of the
//! base-pair fixed point ([`crate::basepair`]) and of the models built from it.
//!
//! A disjunct is prepared once: its reference terms become nodes (`null` is node 0), its
//! reference (dis)equalities and the cells of its points-to become the starting facts, and
//! everything else (integers, disjunctions) is kept aside for a check at the end of a choice.
//! The choice is then made instance by instance with a union-find that can be undone: each
//! pair adds its equalities (unions), disequalities and allocated arguments (cells), and a
//! choice that merges two classes said to differ, a cell with `null`, or two cells is dropped
//! at once, with every choice below it. Equality logic has no other consequences, so for the
//! references this check is exact; what is kept aside is asked of the pure procedure (and the
//! solver) only when a whole choice stands.

use crate::formula::{CmpOp, Pure, Sort, SymHeap, Term, Var};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// One side of a (dis)equality in a pair: `null` or a reference parameter (by index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Rep {
    Null,
    Param(u16),
}

/// A base pair over a predicate's parameters.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Pair {
    /// For each parameter (reference ones; `None` for the others): its class, named by `null`
    /// or by the first parameter in it.
    pub rep: Vec<Option<Rep>>,
    /// Disequalities between classes (ordered pairs of representatives), sorted.
    pub ne: Vec<(Rep, Rep)>,
    /// Classes that are allocated cells, sorted.
    pub alloc: Vec<Rep>,
}

/// A disjunct ready for choices.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    /// Number of nodes (node 0 is `null`).
    pub nodes: usize,
    /// The variable of each reference node (index 0: none).
    pub names: Vec<Option<Var>>,
    eq: Vec<(usize, usize)>,
    ne: Vec<(usize, usize)>,
    cells: Vec<usize>,
    /// Facts beyond reference (dis)equalities, decided when a choice is complete.
    pub other: Vec<Pure>,
    /// Per instance: for each parameter of its predicate, the argument's node (`None` for a
    /// non-reference parameter).
    pub args: Vec<Vec<Option<usize>>>,
    /// The node of each projection variable that is a reference (`None` for the others).
    pub proj: Vec<Option<usize>>,
}

fn is_ref(t: &Term, sorts: &BTreeMap<Var, Sort>) -> bool {
    match t {
        Term::Null => true,
        Term::Var(v) => matches!(sorts.get(v), Some(Sort::Ref(_))),
        _ => false,
    }
}

impl Prepared {
    /// Prepares `d`, whose variables have `sorts`, for projection on `proj` (a predicate's
    /// parameters; empty for a query). `param_refs[i]` says which parameters of the `i`-th
    /// instance's predicate are references.
    pub fn new(
        d: &SymHeap,
        sorts: &BTreeMap<Var, Sort>,
        proj: &[(Var, Sort)],
        param_refs: &[Vec<bool>],
    ) -> Prepared {
        let mut index: BTreeMap<Var, usize> = BTreeMap::new();
        let mut names: Vec<Option<Var>> = vec![None];
        let mut node = |t: &Term, names: &mut Vec<Option<Var>>| -> usize {
            match t {
                Term::Var(v) => *index.entry(v.clone()).or_insert_with(|| {
                    names.push(Some(v.clone()));
                    names.len() - 1
                }),
                _ => 0,
            }
        };
        let proj_nodes: Vec<Option<usize>> = proj
            .iter()
            .map(|(v, s)| {
                matches!(s, Sort::Ref(_)).then(|| node(&Term::Var(v.clone()), &mut names))
            })
            .collect();
        let mut flat = Vec::new();
        for p in &d.pure {
            p.clone().conjuncts_into(&mut flat);
        }
        let (mut eq, mut ne, mut other) = (Vec::new(), Vec::new(), Vec::new());
        for p in flat {
            match &p {
                Pure::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b)
                    if is_ref(a, sorts) && is_ref(b, sorts) =>
                {
                    let (x, y) = (node(a, &mut names), node(b, &mut names));
                    if *op == CmpOp::Eq {
                        eq.push((x, y));
                    } else {
                        ne.push((x, y));
                    }
                }
                _ => other.push(p),
            }
        }
        let cells = d.points_to.iter().map(|pt| node(&pt.ptr, &mut names)).collect();
        let args = d
            .preds
            .iter()
            .zip(param_refs)
            .map(|(app, refs)| {
                app.args.iter().zip(refs).map(|(a, r)| r.then(|| node(a, &mut names))).collect()
            })
            .collect();
        // Reference variables that occur only in fields still name locations.
        for pt in &d.points_to {
            for (_, t) in &pt.fields {
                if is_ref(t, sorts) {
                    node(t, &mut names);
                }
            }
        }
        Prepared { nodes: names.len(), names, eq, ne, cells, other, args, proj: proj_nodes }
    }
}

/// Each predicate's disjuncts, prepared, with the sorts of their variables.
pub(crate) type PreparedBodies =
    std::collections::BTreeMap<String, Vec<(Prepared, BTreeMap<Var, Sort>)>>;

/// The state of a choice in progress: classes with an undo log, disequalities and cells.
#[derive(Clone)]
pub(crate) struct Choice {
    parent: Vec<u32>,
    rank: Vec<u8>,
    /// (child made a non-root, whether the new root's rank grew)
    undo: Vec<(u32, bool)>,
    pub ne: Vec<(usize, usize)>,
    pub cells: Vec<usize>,
    stamp: Vec<u32>,
    epoch: u32,
}

/// How far a choice had got, to undo back to.
#[derive(Clone, Copy)]
pub(crate) struct Mark {
    undo: usize,
    ne: usize,
    cells: usize,
}

impl Choice {
    /// The starting facts of `p`; `None` when they contradict already.
    pub fn start(p: &Prepared) -> Option<Choice> {
        let mut c = Choice {
            parent: (0..p.nodes as u32).collect(),
            rank: vec![0; p.nodes],
            undo: Vec::new(),
            ne: p.ne.clone(),
            cells: p.cells.clone(),
            stamp: vec![0; p.nodes],
            epoch: 0,
        };
        for &(a, b) in &p.eq {
            c.union(a, b);
        }
        c.consistent().then_some(c)
    }

    pub fn find(&self, mut x: usize) -> usize {
        while self.parent[x] as usize != x {
            x = self.parent[x] as usize;
        }
        x
    }

    /// Merges the classes; returns whether they were different.
    pub fn union(&mut self, a: usize, b: usize) -> bool {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        // `null` stays the root of its class, so "is it null" is one `find`.
        if rb != 0 && (ra == 0 || self.rank[ra] >= self.rank[rb]) {
            std::mem::swap(&mut ra, &mut rb);
        }
        // Now `rb` becomes the root.
        let grew = self.rank[ra] == self.rank[rb];
        if grew {
            self.rank[rb] = self.rank[rb].saturating_add(1);
        }
        self.parent[ra] = rb as u32;
        self.undo.push((ra as u32, grew));
        true
    }

    pub fn mark(&self) -> Mark {
        Mark { undo: self.undo.len(), ne: self.ne.len(), cells: self.cells.len() }
    }

    pub fn undo_to(&mut self, m: Mark) {
        while self.undo.len() > m.undo {
            let Some((child, grew)) = self.undo.pop() else { break };
            let root = self.parent[child as usize] as usize;
            self.parent[child as usize] = child;
            if grew {
                self.rank[root] = self.rank[root].saturating_sub(1);
            }
        }
        self.ne.truncate(m.ne);
        self.cells.truncate(m.cells);
    }

    /// No disequality inside a class, no cell in `null`'s class, no two cells in one class.
    pub fn consistent(&mut self) -> bool {
        for i in 0..self.ne.len() {
            let (a, b) = self.ne[i];
            if self.find(a) == self.find(b) {
                return false;
            }
        }
        self.cells_apart(0)
    }

    /// No cell is `null` or another cell (the cells before `from` were checked already, but a
    /// union may have merged them since: callers pass 0 then).
    fn cells_apart(&mut self, from: usize) -> bool {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        let e = self.epoch;
        for i in 0..self.cells.len() {
            let r = self.find(self.cells[i]);
            if (i >= from && r == 0) || self.stamp[r] == e {
                return false;
            }
            self.stamp[r] = e;
        }
        true
    }

    /// Adds `pair`'s facts about the arguments `args`; returns whether the choice is still
    /// consistent (undo to a mark taken before, either way).
    pub fn apply(&mut self, pair: &Pair, args: &[Option<usize>]) -> bool {
        let node = |r: Rep| -> usize {
            match r {
                Rep::Null => 0,
                Rep::Param(j) => args.get(j as usize).copied().flatten().unwrap_or(0),
            }
        };
        let mut merged = false;
        for (i, r) in pair.rep.iter().enumerate() {
            if let (Some(r), Some(Some(a))) = (r, args.get(i)) {
                if *r != Rep::Param(i as u16) {
                    merged |= self.union(*a, node(*r));
                }
            }
        }
        let (ne0, cells0) = (self.ne.len(), self.cells.len());
        for &(x, y) in &pair.ne {
            self.ne.push((node(x), node(y)));
        }
        for &r in &pair.alloc {
            self.cells.push(node(r));
        }
        if merged {
            return self.consistent();
        }
        for i in ne0..self.ne.len() {
            let (a, b) = self.ne[i];
            if self.find(a) == self.find(b) {
                return false;
            }
        }
        self.cells.len() == cells0 || self.cells_apart(cells0)
    }

    /// The pair this choice gives the projection variables of `p`: their classes, the
    /// disequalities and allocated cells among them and `null`.
    pub fn project(&self, p: &Prepared) -> Pair {
        let nil = 0;
        // Root → its representative: `null`, or the first projection variable in it.
        let mut rep_of: BTreeMap<usize, Rep> = BTreeMap::new();
        rep_of.insert(nil, Rep::Null);
        let mut rep = Vec::with_capacity(p.proj.len());
        for (i, n) in p.proj.iter().enumerate() {
            rep.push(n.map(|n| *rep_of.entry(self.find(n)).or_insert(Rep::Param(i as u16))));
        }
        let mut alloc: Vec<Rep> = Vec::new();
        for &c in &self.cells {
            if let Some(r) = rep_of.get(&self.find(c)) {
                alloc.push(*r);
            }
        }
        alloc.sort();
        alloc.dedup();
        let mut ne: Vec<(Rep, Rep)> = Vec::new();
        for &(a, b) in &self.ne {
            if let (Some(x), Some(y)) = (rep_of.get(&self.find(a)), rep_of.get(&self.find(b))) {
                ne.push((*x.min(y), *x.max(y)));
            }
        }
        // Cells are not null and differ from one another.
        for (i, a) in alloc.iter().enumerate() {
            ne.push((Rep::Null.min(*a), Rep::Null.max(*a)));
            for b in &alloc[i + 1..] {
                ne.push((*a.min(b), *a.max(b)));
            }
        }
        ne.sort();
        ne.dedup();
        Pair { rep, ne, alloc }
    }
}

/// Candidate lists shorter than this are tried in full, without their index.
const INDEX_FROM: usize = 32;

/// What a pair says of one parameter's nullness, or the choice of one argument's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Status {
    Unknown,
    Null,
    NonNull,
}

impl Pair {
    /// Its status for each parameter (non-references: unknown).
    fn statuses(&self) -> Vec<Status> {
        self.rep
            .iter()
            .map(|r| match r {
                Some(Rep::Null) => Status::Null,
                Some(r) if self.alloc.contains(r) || self.ne.contains(&(Rep::Null, *r)) => {
                    Status::NonNull
                }
                _ => Status::Unknown,
            })
            .collect()
    }
}

impl Choice {
    /// The nullness the choice so far gives each of `args` (`None`: not a reference).
    fn statuses(&self, args: &[Option<usize>]) -> Vec<Status> {
        let mut nonnull: std::collections::BTreeSet<usize> =
            self.cells.iter().map(|c| self.find(*c)).collect();
        for &(a, b) in &self.ne {
            let (ra, rb) = (self.find(a), self.find(b));
            if ra == 0 {
                nonnull.insert(rb);
            } else if rb == 0 {
                nonnull.insert(ra);
            }
        }
        args.iter()
            .map(|a| match a.map(|n| self.find(n)) {
                Some(0) => Status::Null,
                Some(r) if nonnull.contains(&r) => Status::NonNull,
                _ => Status::Unknown,
            })
            .collect()
    }
}

/// One index of [`SigIndex`]: how far the list is indexed, the ids by their statuses at the
/// positions, and the ids with an unknown status there.
type ByPositions = (usize, std::collections::HashMap<Vec<Status>, Vec<u32>>, Vec<u32>);

/// The pairs of one predicate indexed by the nullness of some of their parameters, built as
/// lookups ask for them and extended as the list grows.
#[derive(Default)]
pub(crate) struct SigIndex {
    /// Each pair's statuses, computed once.
    sigs: Vec<Vec<Status>>,
    /// Per set of positions (a bit mask): how far the list is indexed, the pairs whose statuses
    /// at those positions are all known (by them), and the others (tried always).
    maps: std::collections::HashMap<u64, ByPositions>,
}

impl SigIndex {
    /// The ids in `lo..hi` whose statuses agree with the known `statuses` (`None`: nothing is
    /// known, every id is a candidate).
    fn lookup<C: Candidate>(
        &mut self,
        list: &[C],
        statuses: &[Status],
        lo: usize,
        hi: usize,
    ) -> Option<Vec<u32>> {
        let positions: Vec<usize> =
            (0..statuses.len().min(64)).filter(|i| statuses[*i] != Status::Unknown).collect();
        if positions.is_empty() {
            return None;
        }
        while self.sigs.len() < hi {
            let sig = list[self.sigs.len()].pair().statuses();
            self.sigs.push(sig);
        }
        let mask = positions.iter().fold(0u64, |m, i| m | (1 << i));
        let (built, exact, wild) = self.maps.entry(mask).or_default();
        while *built < hi {
            let sig = &self.sigs[*built];
            let key: Vec<Status> =
                positions.iter().map(|i| sig.get(*i).copied().unwrap_or(Status::Unknown)).collect();
            if key.contains(&Status::Unknown) {
                wild.push(*built as u32);
            } else {
                exact.entry(key).or_default().push(*built as u32);
            }
            *built += 1;
        }
        let want: Vec<Status> = positions.iter().map(|i| statuses[*i]).collect();
        let mut ids: Vec<u32> = exact.get(&want).cloned().unwrap_or_default();
        ids.extend(wild.iter().copied().filter(|id| {
            let sig = &self.sigs[*id as usize];
            positions.iter().all(|i| {
                let (p, a) = (sig.get(*i).copied().unwrap_or(Status::Unknown), statuses[*i]);
                p == Status::Unknown || p == a
            })
        }));
        ids.retain(|id| (lo..hi).contains(&(*id as usize)));
        ids.sort_unstable();
        Some(ids)
    }
}

/// Why a computation stopped early: the caller's bound, or a cap.
pub(crate) enum Stop {
    Halt(crate::halt::Halt),
    Cap(crate::caps::Cap),
}

/// What each instance may take: a pair, or something carrying one.
pub(crate) trait Candidate {
    fn pair(&self) -> &Pair;
}

impl Candidate for Pair {
    fn pair(&self) -> &Pair {
        self
    }
}

/// The work a search may do: checks counted against a cap, the caller's interrupt asked at
/// each one.
pub(crate) struct Budget<'a, 'i> {
    pub checks: &'a mut usize,
    pub max: usize,
    pub cap: fn(usize) -> crate::caps::Cap,
    pub interrupt: &'a mut crate::halt::Interrupt<'i>,
}

impl Budget<'_, '_> {
    fn spend(&mut self) -> Option<Stop> {
        *self.checks += 1;
        if *self.checks > self.max {
            return Some(Stop::Cap((self.cap)(self.max)));
        }
        (self.interrupt)().map(Stop::Halt)
    }
}

/// Called with the state and the candidate ids of each choice consistent for the references;
/// returns whether to go on.
pub(crate) type Leaf<'a> = dyn FnMut(&Choice, &[u32]) -> crate::error::Result<bool> + 'a;

/// Every choice of a candidate in `lists[k][ranges[k]]` for each instance `k` of the prepared
/// disjunct that is consistent for the references, the instance with the fewest candidates
/// first; `leaf` decides the rest and says whether to go on.
pub(crate) fn search<C: Candidate>(
    prepared: &Prepared,
    lists: &[&[C]],
    ranges: &[(usize, usize)],
    budget: &mut Budget<'_, '_>,
    leaf: &mut Leaf<'_>,
) -> crate::error::Result<Result<(), Stop>> {
    let Some(choice) = Choice::start(prepared) else { return Ok(Ok(())) };
    search_from(prepared, choice, lists, ranges, &[], budget, leaf)
}

/// [`search`] from a choice already begun (with facts of the caller's: the arguments' values),
/// with an index of the candidates of some instances (`indexes[k]`, by their arguments'
/// nullness): where the choice so far says which arguments are `null`, only the pairs that
/// agree are tried (a counter's successor relation has a pair per value, and a value fixes
/// its successor).
pub(crate) fn search_from<C: Candidate>(
    prepared: &Prepared,
    mut choice: Choice,
    lists: &[&[C]],
    ranges: &[(usize, usize)],
    indexes: &[Option<&RefCell<SigIndex>>],
    budget: &mut Budget<'_, '_>,
    leaf: &mut Leaf<'_>,
) -> crate::error::Result<Result<(), Stop>> {
    if ranges.iter().any(|(l, h)| l >= h) {
        return Ok(Ok(()));
    }
    let mut order: Vec<usize> = (0..ranges.len()).collect();
    order.sort_by_key(|k| ranges[*k].1 - ranges[*k].0);
    let mut ids = vec![0u32; ranges.len()];
    let mut s = Walk { prepared, lists, ranges, order: &order, indexes, budget, leaf };
    Ok(s.go(0, &mut choice, &mut ids)?.map(|_| ()))
}

struct Walk<'a, 'b, 'c, 'i, C> {
    prepared: &'a Prepared,
    lists: &'a [&'a [C]],
    ranges: &'a [(usize, usize)],
    order: &'a [usize],
    indexes: &'a [Option<&'a RefCell<SigIndex>>],
    budget: &'a mut Budget<'b, 'i>,
    leaf: &'a mut Leaf<'c>,
}

impl<C: Candidate> Walk<'_, '_, '_, '_, C> {
    fn go(
        &mut self,
        depth: usize,
        choice: &mut Choice,
        ids: &mut [u32],
    ) -> crate::error::Result<Result<bool, Stop>> {
        if depth == self.order.len() {
            return Ok(Ok((self.leaf)(choice, ids)?));
        }
        let k = self.order[depth];
        let (lo, hi) = self.ranges[k];
        let indexed = match self.indexes.get(k).copied().flatten() {
            Some(index) if hi - lo > INDEX_FROM => {
                let statuses = choice.statuses(&self.prepared.args[k]);
                index.borrow_mut().lookup(self.lists[k], &statuses, lo, hi)
            }
            _ => None,
        };
        let all: Vec<u32>;
        let ids_to_try: &[u32] = match &indexed {
            Some(v) => v,
            None => {
                all = (lo as u32..hi as u32).collect();
                &all
            }
        };
        for &id in ids_to_try {
            let id = id as usize;
            if let Some(stop) = self.budget.spend() {
                return Ok(Err(stop));
            }
            let mark = choice.mark();
            if choice.apply(self.lists[k][id].pair(), &self.prepared.args[k]) {
                ids[k] = id as u32;
                let next = self.go(depth + 1, choice, ids)?;
                if !matches!(next, Ok(true)) {
                    choice.undo_to(mark);
                    return Ok(next);
                }
            }
            choice.undo_to(mark);
        }
        Ok(Ok(true))
    }
}
