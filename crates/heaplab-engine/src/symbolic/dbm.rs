//! Local decisions for the common case: difference constraints.
//!
//! Path conditions of the papers' subjects are mostly comparisons between input integers and
//! constants (`x0 < x2`, `x3 <= 7`, the i64 range of every input). Such a conjunction is a system
//! of difference constraints `u - v <= c`, satisfiable over the integers exactly when its
//! constraint graph has no negative cycle. So:
//! - if the difference constraints among `pc && c` have a negative cycle, `pc && c` is unsat
//!   (a subset of the conjuncts is already contradictory);
//! - if they force `u - v = k` where a disequality says `u - v != k`, it is unsat too (the
//!   fully symbolic heap's guards are mostly (dis)equalities between references and null: an
//!   alias entry `r != null && r == c` against `c == null` on the path);
//! - if *every* conjunct is a difference constraint and there is no negative cycle, it is sat.
//!
//! Each conjunct (of `pc`, and of `c` itself) that is not made of such atoms is left out, which
//! only weakens the system, so both unsat rules stay exact. Anything else is left to the solver.
//! Weights are i128 so i64 bounds cannot overflow.
//!
//! The same graph gives a test its integers: a solution of a path's constraints is read off
//! its shortest distances ([`model`]), checked against every conjunct before it is used.

use super::term::{Node, Sort, Sym};
use rustc_hash::{FxHashMap, FxHashSet};

/// `u - v <= c`, with node 0 standing for the constant zero.
#[derive(Clone, Copy, Debug)]
struct Edge {
    u: u32,
    v: u32,
    c: i128,
}

/// A linear form `±var + k`: the variable and whether it is negated (`None` for a constant).
type Lin = (Option<(u32, bool)>, i128);

/// A linear form `var + k`.
fn linear(s: &Sym) -> Option<Lin> {
    linear_in(s, false)
}

/// [`linear`], and with `relaxed` also `-var + k`, and a remainder `e % m` read as `e` (Java's
/// wrapping of `int` arithmetic assumed not to wrap): only for a guess that is checked
/// afterwards ([`model`]). Without `relaxed` the forms are the exact decisions' as they were.
fn linear_in(s: &Sym, relaxed: bool) -> Option<Lin> {
    let neg = |(x, k): Lin| -> Option<Lin> {
        relaxed.then_some((x.map(|(id, negated)| (id, !negated)), -k))
    };
    let add = |(x, k1): Lin, (y, k2): Lin| match (x, y) {
        (x, None) | (None, x) => Some((x, k1 + k2)),
        _ => None,
    };
    match s.node() {
        Node::Int(n) => Some((None, i128::from(*n))),
        Node::Var(id, Sort::Int) => Some((Some((*id, false)), 0)),
        Node::Add(a, b) => add(linear_in(a, relaxed)?, linear_in(b, relaxed)?),
        Node::Sub(a, b) => match linear_in(b, relaxed)? {
            (None, k) => add(linear_in(a, relaxed)?, (None, -k)),
            b => add(linear_in(a, relaxed)?, neg(b)?),
        },
        Node::Neg(a) => neg(linear_in(a, relaxed)?),
        // Java's wrap of a value into its type's range, `((e % m) + m) % m` (Euclid's
        // remainder): `e` where it does not wrap.
        Node::Rem(a, m) if relaxed => match a.node() {
            Node::Add(inner, m2) if m2 == m => match inner.node() {
                Node::Rem(e, m3) if m3 == m => linear_in(e, relaxed),
                _ => linear_in(a, relaxed),
            },
            _ => linear_in(a, relaxed),
        },
        _ => None,
    }
}

fn node_of(v: Option<u32>) -> u32 {
    v.map_or(0, |id| id + 1)
}

/// `a - b` as `u - v + d` for two nodes (node 0 the constant zero), where the variables'
/// signs allow (`x - y`, `-x + y`, `-x`, a constant; not `x + y`).
fn difference((a, ka): Lin, (b, kb): Lin) -> Option<(u32, u32, i128)> {
    let node = |id: u32| node_of(Some(id));
    let (u, v) = match (a, b) {
        (None, None) => (0, 0),
        (Some((x, false)), None) => (node(x), 0),
        (Some((x, true)), None) => (0, node(x)),
        (None, Some((y, false))) => (0, node(y)),
        (None, Some((y, true))) => (node(y), 0),
        (Some((x, false)), Some((y, false))) => (node(x), node(y)),
        (Some((x, true)), Some((y, true))) => (node(y), node(x)),
        _ => return None,
    };
    Some((u, v, ka - kb))
}

/// `a - b <= c` for linear forms, when it is a difference constraint.
fn diff_le(a: Lin, b: Lin, c: i128, out: &mut Vec<Edge>) -> Option<()> {
    let (u, v, d) = difference(a, b)?;
    out.push(Edge { u, v, c: c - d });
    Some(())
}

/// A disequality `u - v != k` between two nodes (node 0 is the constant zero).
#[derive(Clone, Copy, Debug)]
struct Diseq {
    u: u32,
    v: u32,
    k: i128,
}

/// What a conjunction's atoms say: difference edges, and disequalities between linear forms.
#[derive(Default)]
struct Atoms {
    edges: Vec<Edge>,
    diseqs: Vec<Diseq>,
    /// Whether the forms of [`model`]'s guess are read too (see [`linear_in`]).
    relaxed: bool,
}

impl Atoms {
    fn mark(&self) -> (usize, usize) {
        (self.edges.len(), self.diseqs.len())
    }

    fn truncate(&mut self, (e, d): (usize, usize)) {
        self.edges.truncate(e);
        self.diseqs.truncate(d);
    }

    /// Adds `s` (negated unless `positive`) if it is a conjunction of atoms; `None` (with
    /// whatever it added left for the caller to truncate) if it is not.
    fn atom(&mut self, s: &Sym, positive: bool) -> Option<()> {
        let relaxed = self.relaxed;
        let linear = |s: &Sym| linear_in(s, relaxed);
        let out = &mut self.edges;
        match (s.node(), positive) {
            (Node::Not(inner), p) => self.atom(inner, !p),
            (Node::Lt(a, b), true) => diff_le(linear(a)?, linear(b)?, -1, out),
            (Node::Lt(a, b), false) => diff_le(linear(b)?, linear(a)?, 0, out),
            (Node::Le(a, b), true) => diff_le(linear(a)?, linear(b)?, 0, out),
            (Node::Le(a, b), false) => diff_le(linear(b)?, linear(a)?, -1, out),
            (Node::Eq(a, b), true) => {
                let (a, b) = (linear(a)?, linear(b)?);
                diff_le(a, b, 0, out)?;
                diff_le(b, a, 0, out)
            }
            (Node::Eq(a, b), false) => {
                // a != b: u - v + d != 0.
                let (u, v, d) = difference(linear(a)?, linear(b)?)?;
                self.diseqs.push(Diseq { u, v, k: -d });
                Some(())
            }
            (Node::And(a, b), true) | (Node::Or(a, b), false) => {
                self.atom(a, positive)?;
                self.atom(b, positive)
            }
            (Node::Bool(true), true) | (Node::Bool(false), false) => Some(()),
            _ => None,
        }
    }

    /// Adds the first alternative of the disjunction `s` that is a conjunction of atoms and
    /// keeps the edges satisfiable (AVL's `height == max(hl, hr) + 1` with its balance);
    /// `None` if there is none. A guess for [`model`]: another alternative might have been
    /// needed for a later constraint, which the check of the model then finds.
    fn some_alternative(&mut self, s: &Sym) -> Option<()> {
        let mut alternatives = vec![s];
        while let Some(a) = alternatives.pop() {
            if let Node::Or(x, y) = a.node() {
                alternatives.push(y);
                alternatives.push(x);
                continue;
            }
            let mark = self.mark();
            if self.atom(a, true).is_some() && Graph::of(&self.edges).is_some() {
                return Some(());
            }
            self.truncate(mark);
        }
        None
    }

    /// Adds each conjunct of `s` that is a conjunction of atoms; false if some were left out.
    fn conjuncts(&mut self, s: &Sym) -> bool {
        if let Node::And(a, b) = s.node() {
            let left = self.conjuncts(a);
            return self.conjuncts(b) && left;
        }
        let mark = self.mark();
        if self.atom(s, true).is_none() {
            self.truncate(mark);
            return false;
        }
        true
    }
}

/// The edges' constraint graph: the nodes they mention (node → row) and, for each row, the edges
/// out of it (`u - v <= c` is an edge `v → u` of weight `c`). The shortest path from `i` to `j`
/// bounds node `j` minus node `i`.
///
/// Why not every bound at once (Floyd–Warshall, as before): a symheap slice mentions a hundred
/// and more variables (references, their ranks, AVL's heights), and the cubic closure was a
/// third of AVL `insert` at k = 3 under symheap, to read a few pairs. Bellman–Ford finds a
/// negative cycle in rounds over the (sparse) edges, and the disequalities need the shortest
/// paths from their own nodes only.
struct Graph {
    index: FxHashMap<u32, usize>,
    out: Vec<Vec<(usize, i128)>>,
}

/// Shortest paths already computed, by the row they start (`out`) or end (`into`) at; and the
/// edges reversed (`reversed[u]` holds `(v, c)` for each edge `v → u`), made when first needed.
#[derive(Default)]
struct Paths {
    out: FxHashMap<usize, Vec<i128>>,
    into: FxHashMap<usize, Vec<i128>>,
    reversed: Option<Vec<Vec<(usize, i128)>>>,
}

impl Graph {
    /// The graph of `edges`; `None` if they have a negative cycle (they are unsat).
    fn of(edges: &[Edge]) -> Option<Graph> {
        let index = rows(edges);
        let mut out = vec![Vec::new(); index.len()];
        for e in edges {
            let (Some(&u), Some(&v)) = (index.get(&e.u), index.get(&e.v)) else { continue };
            match u == v {
                true if e.c < 0 => return None,
                true => {}
                false => out[v].push((u, e.c)),
            }
        }
        let graph = Graph { index, out };
        // From a source joined to every node by an edge of weight 0: without a negative cycle
        // the distances settle within n - 1 rounds, so a change in round n means one.
        let mut dist = vec![0; graph.out.len()];
        for _ in 0..graph.out.len() {
            if !relax(&graph.out, &mut dist) {
                return Some(graph);
            }
        }
        graph.out.is_empty().then_some(graph)
    }

    /// Whether the edges force `u - v = k`, contradicting the disequality `q`.
    fn forces(&self, q: &Diseq, paths: &mut Paths) -> bool {
        if q.u == q.v {
            return q.k == 0;
        }
        let (Some(&u), Some(&v)) = (self.index.get(&q.u), self.index.get(&q.v)) else {
            return false;
        };
        // u - v <= path(v → u) and v - u <= path(u → v): both at k means u - v = k. Both are
        // read at `v` (from it, and into it over the edges reversed): the disequalities of a
        // symheap slice are mostly `r != null`, all at the node of the constants.
        let from_v = paths.out.entry(v).or_insert_with(|| shortest(&self.out, v));
        if from_v[u] > q.k {
            return false;
        }
        let reversed = paths.reversed.get_or_insert_with(|| reversed(&self.out));
        let into_v = paths.into.entry(v).or_insert_with(|| shortest(reversed, v));
        into_v[u] <= -q.k
    }
}

/// The edges of `adjacency` the other way round (`into[u]` holds `(v, c)` for each `v → u`).
fn reversed(adjacency: &[Vec<(usize, i128)>]) -> Vec<Vec<(usize, i128)>> {
    let mut into = vec![Vec::new(); adjacency.len()];
    for (v, out) in adjacency.iter().enumerate() {
        for &(u, c) in out {
            into[u].push((v, c));
        }
    }
    into
}

/// A row for each node the edges mention, in the order they first appear.
fn rows(edges: &[Edge]) -> FxHashMap<u32, usize> {
    let mut index: FxHashMap<u32, usize> = FxHashMap::default();
    for e in edges {
        let n = index.len();
        index.entry(e.u).or_insert(n);
        let n = index.len();
        index.entry(e.v).or_insert(n);
    }
    index
}

/// One round of relaxing every edge of `adjacency` (`(head, weight)` by tail); whether a
/// distance fell.
fn relax(adjacency: &[Vec<(usize, i128)>], dist: &mut [i128]) -> bool {
    let mut fell = false;
    for (v, out) in adjacency.iter().enumerate() {
        if dist[v] >= INF {
            continue;
        }
        for &(u, c) in out {
            if dist[v] + c < dist[u] {
                dist[u] = dist[v] + c;
                fell = true;
            }
        }
    }
    fell
}

/// The shortest paths from row `s` over `adjacency`, which has no negative cycle.
fn shortest(adjacency: &[Vec<(usize, i128)>], s: usize) -> Vec<i128> {
    let mut dist = vec![INF; adjacency.len()];
    dist[s] = 0;
    for _ in 0..adjacency.len() {
        if !relax(adjacency, &mut dist) {
            break;
        }
    }
    dist
}

const INF: i128 = i128::MAX / 4;

/// The conjuncts of `pc` that share variables with `c`, transitively (KLEE's constraint
/// independence). Since `pc` is satisfiable, `pc && c` is satisfiable iff `slice && c` is.
pub fn slice(pc: &[Sym], c: &Sym) -> Vec<Sym> {
    // Every conjunct's variables in one buffer (`ends[i]` ends conjunct `i`'s): `sl` slices the
    // whole path condition for each arithmetic fact it checks, and a sorted vector per conjunct
    // per slice was a twentieth of an AVL `insert` run in wasm.
    let mut vars: Vec<(u32, Sort)> = Vec::new();
    let mut ends = Vec::with_capacity(pc.len());
    for p in pc {
        p.for_each_var(|id, sort| vars.push((id, sort)));
        ends.push(vars.len());
    }
    let mut wanted: FxHashSet<(u32, Sort)> = c.vars().into_iter().collect();
    let mut taken = vec![false; pc.len()];
    loop {
        let mut changed = false;
        let mut start = 0;
        for (i, &end) in ends.iter().enumerate() {
            let vs = &vars[start..end];
            start = end;
            if !taken[i] && vs.iter().any(|v| wanted.contains(v)) {
                taken[i] = true;
                changed = true;
                wanted.extend(vs.iter().copied());
            }
        }
        if !changed {
            break;
        }
    }
    pc.iter().zip(taken).filter(|(_, t)| *t).map(|(p, _)| p.clone()).collect()
}

/// Decides `pc && c` when difference reasoning suffices: `Some(false)` unsat, `Some(true)` sat,
/// `None` when the solver is needed.
pub fn decide(pc: &[Sym], c: &Sym) -> Option<bool> {
    // A disjunction `!(a && b)` / `a || b` is sat iff one side is.
    match c.node() {
        Node::Or(a, b) => return decide_or(pc, a, b),
        Node::Not(inner) => {
            if let Node::And(a, b) = inner.node() {
                return decide_or(pc, &Sym::not(a), &Sym::not(b));
            }
        }
        _ => {}
    }
    // Each conjunct that is not made of atoms is left out: the rest is weaker than `pc && c`,
    // so a contradiction among the rest is one of `pc && c`, and only a complete system says sat.
    let mut atoms = Atoms::default();
    let mut complete = true;
    for p in pc.iter().chain(std::iter::once(c)) {
        complete &= atoms.conjuncts(p);
    }
    let Some(graph) = Graph::of(&atoms.edges) else { return Some(false) };
    let mut paths = Paths::default();
    if atoms.diseqs.iter().any(|q| graph.forces(q, &mut paths)) {
        Some(false)
    } else if complete && atoms.diseqs.is_empty() {
        Some(true)
    } else {
        None
    }
}

/// Values of variables, as a solver's model holds them (booleans as 0 and 1).
pub type Values = std::collections::BTreeMap<(u32, Sort), i64>;

/// A model of `pc` over `vars`, without the solver, when `pc` is made of difference
/// constraints, Boolean literals, definitions (`size == l + r + 1`, [`definition`]) and
/// disjunctions of difference constraints. The constraints are solved on their graph, with the
/// disequalities kept ([`solve_keeping_apart`]); each disjunction takes its first alternative
/// that fits ([`Atoms::some_alternative`]), Java's `int` wrap is read as no wrap, and the
/// definitions are evaluated last. These are guesses: the model is returned only if every
/// conjunct of `pc` evaluates to true under it, and otherwise (`None`) the solver is asked.
///
/// Why: a test needs a model of its path's whole condition, and on the trees' methods that is
/// the order of the keys, their ranges, colours, sizes and heights; asking the decision
/// procedure for each was a third of a `lazier#` run on TreeMap at k = 3.
pub fn model(pc: &[Sym], vars: &[(u32, Sort)]) -> Option<Values> {
    let mut atoms = Atoms { relaxed: true, ..Atoms::default() };
    let mut literals: FxHashMap<u32, bool> = FxHashMap::default();
    let mut definitions: Vec<(u32, &Sym)> = Vec::new();
    for p in pc {
        for c in conjuncts_of(p) {
            if let Some((id, v)) = c.bool_literal() {
                if *literals.entry(id).or_insert(v) != v {
                    return None;
                }
            } else if let Some(d) = definition(c) {
                definitions.push(d);
            } else if let Node::Or(..) = c.node() {
                atoms.some_alternative(c)?;
            } else {
                atoms.atom(c, true)?;
            }
        }
    }
    let (graph, dist) = solve_keeping_apart(&mut atoms)?;
    let zero = graph.index.get(&0).map_or(0, |&r| dist[r]);
    let mut values = Values::new();
    for &(id, sort) in vars {
        let value = match sort {
            Sort::Bool => i64::from(literals.get(&id).copied().unwrap_or(false)),
            _ => match graph.index.get(&node_of(Some(id))) {
                Some(&r) => i64::try_from(dist[r] - zero).ok()?,
                None => 0,
            },
        };
        values.insert((id, sort), value);
    }
    // Each definition once its right side is known, in as many rounds as there are of them
    // (a size defined by sizes defined further down the tree).
    for _ in 0..definitions.len() {
        let mut changed = false;
        for &(id, rhs) in &definitions {
            let value = rhs.eval(&|id, sort| values.get(&(id, sort)).copied())?;
            changed |= values.insert((id, Sort::Int), value) != Some(value);
        }
        if !changed {
            break;
        }
    }
    let env = |id: u32, sort: Sort| values.get(&(id, sort)).copied();
    pc.iter().all(|c| c.eval(&env) == Some(1)).then_some(values)
}

/// A solution of the edges that also keeps the disequalities: where the solution makes
/// `u - v = k` against `u - v != k`, the edge `u - v <= k - 1` (or else `v - u <= -k - 1`)
/// joins the system and it is solved again. `None` when neither side fits (the solver then
/// decides, with the whole disjunction).
fn solve_keeping_apart(atoms: &mut Atoms) -> Option<(Graph, Vec<i128>)> {
    for _ in 0..=atoms.diseqs.len() {
        let graph = Graph::of(&atoms.edges)?;
        // Shortest distances `d` over the edges reversed, from a source joined to every node:
        // `d(v) <= d(u) + c` for each `u - v <= c`, so `x = -d` is a solution, and the least
        // one above the constant (node 0, shifted to 0): a test's keys come out 0, 1, 2 where
        // the distances over the edges themselves gave 0, -1, -2.
        let into = reversed(&graph.out);
        let mut dist = vec![0; graph.out.len()];
        while relax(&into, &mut dist) {}
        let dist: Vec<i128> = dist.iter().map(|d| -d).collect();
        let value = |n: u32| graph.index.get(&n).map_or(0, |&r| dist[r]);
        let zero = value(0);
        let broken = atoms.diseqs.iter().find(|q| {
            let (u, v) = (value(q.u) - zero, value(q.v) - zero);
            u - v == q.k
        });
        let Some(&q) = broken else { return Some((graph, dist)) };
        let below = Edge { u: q.u, v: q.v, c: q.k - 1 };
        atoms.edges.push(below);
        if Graph::of(&atoms.edges).is_none() {
            atoms.edges.pop();
            atoms.edges.push(Edge { u: q.v, v: q.u, c: -q.k - 1 });
        }
    }
    None
}

/// `x == e` (or `e == x`) for an integer variable `x` and an expression `e` without it that
/// is no difference constraint (`size == left.size + right.size + 1`): `x` is then given the
/// value of `e` after the difference constraints are solved.
fn definition(s: &Sym) -> Option<(u32, &Sym)> {
    let Node::Eq(a, b) = s.node() else { return None };
    if linear(a).is_some() && linear(b).is_some() {
        return None;
    }
    match s.as_definition()? {
        ((id, Sort::Int), e) => Some((id, e)),
        _ => None,
    }
}

/// The conjuncts of `s` (`a && b` split, all the way down).
fn conjuncts_of(s: &Sym) -> Vec<&Sym> {
    let mut out = Vec::new();
    let mut stack = vec![s];
    while let Some(s) = stack.pop() {
        match s.node() {
            Node::And(a, b) => {
                stack.push(b);
                stack.push(a);
            }
            _ => out.push(s),
        }
    }
    out
}

fn decide_or(pc: &[Sym], a: &Sym, b: &Sym) -> Option<bool> {
    match (decide(pc, a), decide(pc, b)) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (Some(false), Some(false)) => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows by node, and the bounds between them.
    type Bounds = (FxHashMap<u32, usize>, Vec<Vec<i128>>);

    /// Every bound by Floyd–Warshall (`d[i][j]` bounds node `j` minus node `i`, rows as in
    /// `Graph::of`), `None` on a negative cycle: the oracle of the graph's answers.
    fn closure(edges: &[Edge]) -> Option<Bounds> {
        let index = rows(edges);
        let n = index.len();
        let mut d = vec![vec![INF; n]; n];
        for (i, row) in d.iter_mut().enumerate() {
            row[i] = 0;
        }
        for e in edges {
            let (u, v) = (index[&e.u], index[&e.v]);
            d[v][u] = d[v][u].min(e.c);
        }
        for k in 0..n {
            for i in 0..n {
                for j in 0..n {
                    if d[i][k] < INF && d[k][j] < INF {
                        d[i][j] = d[i][j].min(d[i][k] + d[k][j]);
                    }
                }
            }
        }
        (0..n).all(|i| d[i][i] >= 0).then_some((index, d))
    }

    /// Random systems of a few nodes: the graph finds a negative cycle exactly when the
    /// closure does, and forces exactly the disequalities the closure's bounds force.
    #[test]
    fn the_graph_answers_as_the_closure_does() {
        let mut next = crate::symbolic::xorshift(0x2545_f491_4f6c_dd1d);
        let (mut cycles, mut forced) = (0, 0);
        for _ in 0..3000 {
            let nodes = 1 + next(7) as u32;
            let edges: Vec<Edge> = (0..next(12))
                .map(|_| Edge {
                    u: next(nodes as u64) as u32,
                    v: next(nodes as u64) as u32,
                    c: next(10) as i128 - 2,
                })
                .collect();
            let closure = closure(&edges);
            let graph = Graph::of(&edges);
            assert_eq!(graph.is_some(), closure.is_some(), "{edges:?}");
            let (Some(graph), Some((index, d))) = (graph, closure) else {
                cycles += 1;
                continue;
            };
            let mut paths = Paths::default();
            for _ in 0..8 {
                let q = Diseq {
                    u: next(nodes as u64) as u32,
                    v: next(nodes as u64) as u32,
                    k: next(7) as i128 - 3,
                };
                let expected = match (index.get(&q.u), index.get(&q.v)) {
                    _ if q.u == q.v => q.k == 0,
                    (Some(&u), Some(&v)) => d[v][u] <= q.k && d[u][v] <= -q.k,
                    _ => false,
                };
                assert_eq!(graph.forces(&q, &mut paths), expected, "{edges:?} {q:?}");
                forced += usize::from(expected);
            }
        }
        // Both answers occur often enough for the comparison to mean something.
        assert!(cycles > 300 && forced > 300, "{cycles} cycles, {forced} forced");
    }

    fn x(i: u32) -> Sym {
        Sym::var(i, Sort::Int)
    }

    #[test]
    fn orders_and_bounds() {
        let pc = vec![Sym::lt(&x(0), &x(1)), Sym::lt(&x(1), &x(2))];
        assert_eq!(decide(&pc, &Sym::lt(&x(2), &x(0))), Some(false));
        assert_eq!(decide(&pc, &Sym::lt(&x(0), &x(2))), Some(true));
        assert_eq!(decide(&pc, &Sym::eq(&x(0), &x(1))), Some(false));
        let max = Sym::int(i64::MAX);
        let pc = vec![Sym::le(&x(0), &max)];
        let r = Sym::add(&x(0), &Sym::int(1));
        assert_eq!(decide(&pc, &Sym::not(&Sym::le(&r, &max))), Some(true));
        let pc = vec![Sym::lt(&x(0), &Sym::int(5))];
        assert_eq!(decide(&pc, &Sym::not(&Sym::le(&r, &max))), Some(false));
        // Not a difference constraint: left to the solver.
        assert_eq!(decide(&pc, &Sym::lt(&Sym::mul(&x(0), &x(1)), &Sym::int(3))), None);
    }

    #[test]
    fn disequalities_the_constraints_force_are_unsat() {
        let null = Sym::int(0);
        let ne = |a: &Sym, b: &Sym| Sym::not(&Sym::eq(a, b));
        // An alias entry `x2 != null && x3 == x2` against `x2 == null` on the path.
        let pc =
            vec![Sym::eq(&x(2), &null), Sym::or(&Sym::lt(&x(5), &x(6)), &Sym::eq(&x(5), &x(7)))];
        let entry = Sym::and(&ne(&x(2), &null), &Sym::eq(&x(3), &x(2)));
        assert_eq!(decide(&pc, &entry), Some(false));
        // Forced through a chain of equalities, and by two bounds that meet.
        let pc = vec![Sym::eq(&x(1), &null), Sym::eq(&x(2), &x(1))];
        assert_eq!(decide(&pc, &ne(&x(2), &null)), Some(false));
        let pc = vec![Sym::le(&x(1), &x(2)), Sym::le(&x(2), &x(1))];
        assert_eq!(decide(&pc, &ne(&x(1), &x(2))), Some(false));
        let pc = vec![Sym::le(&x(1), &Sym::int(4)), Sym::lt(&Sym::int(3), &x(1))];
        assert_eq!(decide(&pc, &ne(&x(1), &Sym::int(4))), Some(false));
        // Not forced: a disequality leaves the answer to the solver (even where it holds, since
        // disequalities together can be unsat: x in [0, 1], x != 0, x != 1).
        let pc = vec![Sym::le(&x(1), &x(2))];
        assert_eq!(decide(&pc, &ne(&x(1), &x(2))), None);
        let pc = vec![Sym::le(&null, &x(1)), Sym::le(&x(1), &Sym::int(1)), ne(&x(1), &null)];
        assert_eq!(decide(&pc, &ne(&x(1), &Sym::int(1))), None);
        // `x != x + 1` says nothing.
        assert_eq!(decide(&[], &ne(&x(1), &Sym::add(&x(1), &Sym::int(1)))), None);
    }

    /// Every conjunct of `pc` holds under `values`.
    fn holds(pc: &[Sym], values: &Values) -> bool {
        pc.iter().all(|c| c.eval(&|id, sort| values.get(&(id, sort)).copied()) == Some(1))
    }

    fn ints(n: u32) -> Vec<(u32, Sort)> {
        (0..n).map(|i| (i, Sort::Int)).collect()
    }

    /// The shapes of a tree method's path condition get a model of every variable without the
    /// solver: ranges and orders, disequalities, flags, a size defined by its children's, a
    /// height as one of the alternatives of a balanced node, `int` arithmetic wrapped.
    #[test]
    fn models_of_orders_sizes_heights_and_flags() {
        let (lo, hi) = (Sym::int(i64::from(i32::MIN)), Sym::int(i64::from(i32::MAX)));
        let ne = |a: &Sym, b: &Sym| Sym::not(&Sym::eq(a, b));
        let mut pc: Vec<Sym> =
            (0..6).flat_map(|i| [Sym::le(&lo, &x(i)), Sym::le(&x(i), &hi)]).collect();
        // Keys: x1 < x0 <= x2, x0 != x2; a flag b7 and not b8.
        pc.extend([Sym::lt(&x(1), &x(0)), Sym::not(&Sym::lt(&x(2), &x(0))), ne(&x(0), &x(2))]);
        pc.extend([Sym::var(7, Sort::Bool), Sym::not(&Sym::var(8, Sort::Bool))]);
        // A size: x3 == x4 + x5 + 1, children's sizes at least 0.
        let one = Sym::int(1);
        pc.push(Sym::eq(&x(3), &Sym::add(&x(4), &Sym::add(&x(5), &one))));
        pc.extend([Sym::le(&Sym::int(0), &x(4)), Sym::le(&Sym::int(0), &x(5))]);
        // A height: x6 is one more than the larger of x4 and x5, which differ by at most one.
        let alt =
            |a: &Sym, b: &Sym, h: &Sym| Sym::and(&Sym::eq(a, b), &Sym::eq(h, &Sym::add(a, &one)));
        let balanced = Sym::or(
            &Sym::or(&alt(&x(4), &x(5), &x(6)), &alt(&x(4), &Sym::add(&x(5), &one), &x(6))),
            &alt(&Sym::add(&x(4), &one), &x(5), &x(6)),
        );
        pc.push(balanced);
        // A balance written `1 - x4 != 2` (so x4 != -1).
        pc.push(ne(&Sym::sub(&one, &x(4)), &Sym::int(2)));
        // Java's `int` wrap of `x5 - 1`, which must be 4 (a variable a definition reads: one
        // that a definition gives, and some other constraint too, is left to the solver).
        let m = Sym::int(1 << 32);
        let half = Sym::int(1 << 31);
        let shifted = Sym::add(&Sym::sub(&x(5), &one), &half);
        let wrapped = Sym::sub(&Sym::rem(&Sym::add(&Sym::rem(&shifted, &m), &m), &m), &half);
        pc.push(Sym::eq(&Sym::int(4), &wrapped));
        let mut vars = ints(7);
        vars.extend([(7, Sort::Bool), (8, Sort::Bool)]);
        let values = model(&pc, &vars).expect("a model");
        assert!(holds(&pc, &values), "{values:?}");
        assert_eq!(values.len(), vars.len());
        assert_eq!((values[&(7, Sort::Bool)], values[&(8, Sort::Bool)]), (1, 0));
        assert_eq!(values[&(5, Sort::Int)], 5);
        // Unsatisfiable or outside the shapes: no model (the solver decides).
        let unsat = vec![Sym::lt(&x(0), &x(1)), Sym::lt(&x(1), &x(0))];
        assert_eq!(model(&unsat, &ints(2)), None);
        let forced = vec![Sym::le(&x(0), &x(1)), Sym::le(&x(1), &x(0)), ne(&x(0), &x(1))];
        assert_eq!(model(&forced, &ints(2)), None);
        let product = vec![Sym::eq(&Sym::mul(&x(0), &x(1)), &Sym::int(6))];
        assert_eq!(model(&product, &ints(2)), None);
    }

    /// Random systems of orders, bounds and disequalities over a few variables: every model
    /// found satisfies its system, and a system of orders and bounds alone that has a solution
    /// (by search over a small box, which such a system with bounds on every variable has
    /// when it has any) always gets one.
    #[test]
    fn models_satisfy_their_systems_and_orders_always_get_one() {
        let mut next = crate::symbolic::xorshift(0x9e37_79b9_7f4a_7c15);
        let (mut found, mut orders_only) = (0, 0);
        for _ in 0..2000 {
            let n = 1 + next(4) as u32;
            let mut pc: Vec<Sym> = (0..n)
                .flat_map(|i| [Sym::le(&Sym::int(-3), &x(i)), Sym::le(&x(i), &Sym::int(3))])
                .collect();
            let with_diseqs = next(2) == 0;
            for _ in 0..next(5) {
                let (mut a, mut b) = (x(next(n as u64) as u32), x(next(n as u64) as u32));
                if next(3) == 0 {
                    // Both sides negated (`1 - a < 2 - b`): still a difference constraint.
                    a = Sym::sub(&Sym::int(1), &a);
                    b = Sym::sub(&Sym::int(2), &b);
                }
                let b = Sym::add(&b, &Sym::int(next(3) as i64 - 1));
                pc.push(match next(if with_diseqs { 4 } else { 3 }) {
                    0 => Sym::lt(&a, &b),
                    1 => Sym::le(&a, &b),
                    2 => Sym::eq(&a, &b),
                    _ => Sym::not(&Sym::eq(&a, &b)),
                });
            }
            let got = model(&pc, &ints(n));
            if let Some(values) = &got {
                assert!(holds(&pc, values), "{pc:?} {values:?}");
                found += 1;
            }
            if !with_diseqs {
                let solvable = (0..7i64.pow(n)).any(|mut code| {
                    let values: Values = (0..n)
                        .map(|i| {
                            let v = code % 7 - 3;
                            code /= 7;
                            ((i, Sort::Int), v)
                        })
                        .collect();
                    holds(&pc, &values)
                });
                assert_eq!(got.is_some(), solvable, "{pc:?}");
                orders_only += 1;
            }
        }
        assert!(found > 500 && orders_only > 500, "{found} models, {orders_only} without !=");
    }
}
