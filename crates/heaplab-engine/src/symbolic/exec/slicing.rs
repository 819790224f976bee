//! A question's slice of the path condition: the conjuncts that share variables with its
//! condition, transitively (KLEE's constraint independence, as
//! [`crate::symbolic::dbm::slice`]), after leaving out the definitions nothing reads; kept for
//! the path condition asked about last, whose successors share most of it
//! ([`super::answers::Answers::question`]).

use crate::symbolic::term::{Sort, Sym};
use rustc_hash::FxHashMap;

/// A variable of the path condition.
pub(super) type Var = (u32, Sort);

/// A question: the slice (in path-condition order) and its addresses.
#[derive(Clone)]
pub struct Question {
    pub slice: Vec<Sym>,
    pub(super) addrs: Vec<usize>,
}

/// The conjuncts of the path condition last asked about, with their variables as indices into
/// a question's dense tables, and the variable each defines ([`definition_var`]), in order.
///
/// Why: consecutive questions are mostly about one path condition or one sharing most of its
/// prefix (a read asks about each entry of a guarded set; a child's path condition extends its
/// parent's): TreeMap `put` `symheap` at k = 3 asked 58 % of its questions of the very path
/// condition of the one before, and 97 % of the conjuncts asked about were in the last one's
/// prefix. Only the conjuncts after the shared prefix are looked up. Dense indices of the
/// variables met (rather than the variables' own ids, in the thousands on long paths) keep a
/// question's tables as small as its path condition.
#[derive(Default)]
pub(super) struct LastPath {
    conjuncts: Vec<Sym>,
    /// Conjunct `i`'s variables are `vars[ends[i - 1]..ends[i]]`.
    vars: Vec<u32>,
    ends: Vec<usize>,
    defined: Vec<Option<u32>>,
    /// Each variable met's dense index (variables of conjuncts no longer here keep theirs).
    index: FxHashMap<Var, u32>,
    /// The last question about these conjuncts, by its condition's variables (the slice
    /// depends on nothing else): a branch asks about a condition and then its negation.
    question: Option<(Vec<Var>, Question)>,
}

impl LastPath {
    /// Conjunct `i`'s variables, as dense indices.
    fn vars(&self, i: usize) -> &[u32] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.vars[start..self.ends[i]]
    }

    fn dense(&mut self, v: Var) -> u32 {
        let next = self.index.len() as u32;
        *self.index.entry(v).or_insert(next)
    }

    fn truncate(&mut self, n: usize) {
        if n < self.conjuncts.len() {
            self.question = None;
        }
        self.conjuncts.truncate(n);
        self.ends.truncate(n);
        self.defined.truncate(n);
        self.vars.truncate(self.ends.last().copied().unwrap_or(0));
    }

    /// Keeps the longest prefix of the conjuncts that `pc` shares; its length.
    pub(super) fn keep_prefix(&mut self, pc: &[Sym]) -> usize {
        let mut shared =
            self.conjuncts.iter().zip(pc).take_while(|(a, b)| a.addr() == b.addr()).count();
        // Indices of variables no conjunct has any more: start again when they are most.
        if self.index.len() > 2 * self.vars.len() + 256 {
            self.index.clear();
            shared = 0;
        }
        self.truncate(shared);
        if shared < pc.len() {
            self.question = None;
        }
        shared
    }

    /// Adds a conjunct, with its variables and the variable it defines.
    pub(super) fn push(&mut self, p: &Sym, vars: &[Var], defined: Option<Var>) {
        for v in vars {
            let k = self.dense(*v);
            self.vars.push(k);
        }
        self.ends.push(self.vars.len());
        let d = defined.map(|v| self.dense(v));
        self.defined.push(d);
        self.conjuncts.push(p.clone());
    }

    /// The conjuncts (`pc`, as kept here) that share variables with a condition whose
    /// variables are `wanted`, transitively, in order, by union-find over the dense indices.
    pub(super) fn question(&mut self, pc: &[Sym], wanted: Vec<Var>) -> Question {
        if let Some((vars, q)) = &self.question {
            if *vars == wanted {
                return q.clone();
            }
        }
        let (unread, dense) = self.unread(&wanted);
        let n = self.index.len() + wanted.len();
        let mut parent: Vec<u32> = (0..n as u32).collect();
        fn find(parent: &mut [u32], mut i: u32) -> u32 {
            while parent[i as usize] != i {
                parent[i as usize] = parent[parent[i as usize] as usize];
                i = parent[i as usize];
            }
            i
        }
        let union = |parent: &mut Vec<u32>, vs: &[u32]| {
            let Some(first) = vs.first() else { return };
            let a = find(parent, *first);
            for v in &vs[1..] {
                let b = find(parent, *v);
                if a != b {
                    parent[b as usize] = a;
                }
            }
        };
        for (i, skip) in unread.iter().enumerate() {
            if !skip {
                union(&mut parent, self.vars(i));
            }
        }
        union(&mut parent, &dense);
        let root = find(&mut parent, dense[0]);
        let mut slice = Vec::new();
        let mut addrs = Vec::new();
        for (i, (p, skip)) in pc.iter().zip(&unread).enumerate() {
            if *skip {
                continue;
            }
            if let Some(first) = self.vars(i).first() {
                if find(&mut parent, *first) == root {
                    slice.push(p.clone());
                    addrs.push(p.addr());
                }
            }
        }
        let q = Question { slice, addrs };
        self.question = Some((wanted, q.clone()));
        q
    }

    /// Which conjuncts a question about a condition with variables `wanted` leaves out
    /// ([`unread_definitions`]), and the dense indices of `wanted` (after the conjuncts').
    pub(super) fn unread(&self, wanted: &[Var]) -> (Vec<bool>, Vec<u32>) {
        let mut n = self.index.len() as u32;
        let wanted: Vec<u32> = wanted
            .iter()
            .map(|v| {
                self.index.get(v).copied().unwrap_or_else(|| {
                    n += 1;
                    n - 1
                })
            })
            .collect();
        (unread_definitions(self, &wanted, n as usize), wanted)
    }
}

/// Which conjuncts of `pc` are definitions nothing reads: `v == e` where the variable `v`
/// occurs in no other conjunct of `pc`, not in `e` and not in the condition (`wanted`, its
/// variables), after leaving out the definitions found so (`symheap` names its guards
/// `b == g` and reads few of them). Leaving them out keeps the answer: whatever satisfies
/// the rest, `v` can take the value of `e`. And they no longer tie their variables into one
/// slice. (`heaplab_smt`'s frontend sets such definitions aside too, on the terms it gets;
/// done here, on the path condition, they are neither converted nor sent.)
fn unread_definitions(pc: &LastPath, wanted: &[u32], n: usize) -> Vec<bool> {
    let defined = &pc.defined;
    let mut unread = vec![false; defined.len()];
    if defined.iter().all(Option::is_none) {
        return unread;
    }
    // In how many conjuncts (the condition counting as one more) each variable occurs, and
    // the conjunct defining it, by dense index.
    let mut count = vec![0u32; n];
    for v in pc.vars.iter().chain(wanted) {
        count[*v as usize] += 1;
    }
    let mut by_var = vec![usize::MAX; n];
    for (i, d) in defined.iter().enumerate() {
        if let Some(v) = d {
            by_var[*v as usize] = i;
        }
    }
    let mut work: Vec<usize> = (0..defined.len()).filter(|&i| defined[i].is_some()).collect();
    while let Some(i) = work.pop() {
        let Some(v) = defined[i] else { continue };
        if unread[i] || count[v as usize] != 1 {
            continue;
        }
        unread[i] = true;
        for u in pc.vars(i) {
            let n = &mut count[*u as usize];
            *n -= 1;
            // A variable of `e` read only by its own definition now: that one may go too.
            if *n == 1 && by_var[*u as usize] != usize::MAX {
                work.push(by_var[*u as usize]);
            }
        }
    }
    unread
}

/// `v` when `c` is a definition `v == e` ([`Sym::as_definition`]).
pub(super) fn definition_var(c: &Sym) -> Option<Var> {
    c.as_definition().map(|(v, _)| v)
}
