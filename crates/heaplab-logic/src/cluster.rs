//! Predicate clusters: the strongly connected components of the call graph among the predicates
//! a query reaches, callees first. The fixed points of [`crate::basepair`] and
//! [`crate::baseformula`] run one cluster at a time on the finished results of the clusters it
//! calls, so predicates the query does not reach cost nothing, and a cluster that hits a cap
//! leaves the others exact.

use crate::formula::{Defs, Formula, SymHeap};
use std::collections::{BTreeMap, BTreeSet};

/// The predicates reachable from `roots` (instances in these heaps), grouped into clusters in
/// an order where every cluster comes after the clusters it calls.
pub fn clusters<'a>(defs: &Defs, roots: impl IntoIterator<Item = &'a SymHeap>) -> Vec<Vec<String>> {
    let mut reach: BTreeSet<String> = BTreeSet::new();
    let mut work: Vec<String> = Vec::new();
    for d in roots {
        for app in &d.preds {
            if defs.preds.contains_key(&app.name) && reach.insert(app.name.clone()) {
                work.push(app.name.clone());
            }
        }
    }
    while let Some(p) = work.pop() {
        for c in callees(defs, &p) {
            if reach.insert(c.clone()) {
                work.push(c);
            }
        }
    }
    tarjan(defs, &reach)
}

/// The clusters of every predicate of `defs`.
pub fn all_clusters(defs: &Defs) -> Vec<Vec<String>> {
    let all: BTreeSet<String> = defs.preds.keys().cloned().collect();
    tarjan(defs, &all)
}

/// The clusters reached from a formula's disjuncts.
pub fn of_formula(defs: &Defs, f: &Formula) -> Vec<Vec<String>> {
    clusters(defs, &f.disjuncts)
}

fn callees(defs: &Defs, p: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if let Some(def) = defs.preds.get(p) {
        for d in &def.body {
            for app in &d.preds {
                if defs.preds.contains_key(&app.name) {
                    out.insert(app.name.clone());
                }
            }
        }
    }
    out
}

/// Tarjan's algorithm without recursion (predicate chains may be long), restricted to `nodes`.
/// Components come out callees first, which is the order the fixed points need.
fn tarjan(defs: &Defs, nodes: &BTreeSet<String>) -> Vec<Vec<String>> {
    let names: Vec<&String> = nodes.iter().collect();
    let id: BTreeMap<&str, usize> =
        names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let succ: Vec<Vec<usize>> = names
        .iter()
        .map(|n| callees(defs, n).iter().filter_map(|c| id.get(c.as_str()).copied()).collect())
        .collect();
    let n = names.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        // (node, next successor to look at)
        let mut calls = vec![(start, 0usize)];
        index[start] = next;
        low[start] = next;
        next += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut i)) = calls.last_mut() {
            if let Some(&w) = succ[v].get(*i) {
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp.push(names[w].clone());
                    if w == v {
                        break;
                    }
                }
                comp.sort();
                out.push(comp);
            }
        }
    }
    out
}
