//! The query corpus: every distinct query a [`crate::SolverFrontend`] receives, recorded when a
//! [`QueryLog`] is attached (`heaplab bench --dump-queries FILE`), written as JSON lines.
//!
//! Queries are kept after the frontend's normalization, with variables renamed `v0, v1, ...` in
//! order of first occurrence, so the same path condition met on another path (other symbol
//! numbers) or under another strategy is one entry. A line has the shape of a case of the
//! conformance corpus: `{"vars": {name: sort}, "assert": [smt], "want": [name], "from": label}`,
//! where `from` names the first run that sent the query.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write;

use crate::print::write_term;
use crate::term::{Sort, Term, Var};

/// Distinct queries in first-seen order.
#[derive(Debug, Default)]
pub struct QueryLog {
    seen: HashSet<String>,
    lines: Vec<String>,
    origin: String,
    /// Queries recorded, duplicates included.
    pub received: u64,
}

impl QueryLog {
    pub fn new() -> QueryLog {
        QueryLog::default()
    }

    /// Labels the queries recorded from now on (e.g. `bst.hl BST.insert lazy`).
    pub fn set_origin(&mut self, origin: impl Into<String>) {
        self.origin = origin.into();
    }

    /// Distinct queries so far.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Records one query (normalized conjuncts and wanted variables).
    pub fn record(&mut self, conjuncts: &[Term], want: &[Var]) {
        self.received += 1;
        let (assertions, want, sorts) = canonical(conjuncts, want);
        let mut key = String::from("{\"vars\":{");
        for (i, (name, sort)) in sorts.iter().enumerate() {
            if i > 0 {
                key.push(',');
            }
            let sort = match sort {
                Sort::Bool => "Bool",
                Sort::Int => "Int",
                Sort::Ref => "Ref",
            };
            let _ = write!(key, "{}:\"{sort}\"", json_string(name));
        }
        key.push_str("},\"assert\":[");
        for (i, a) in assertions.iter().enumerate() {
            if i > 0 {
                key.push(',');
            }
            let mut text = String::new();
            write_term(&mut text, a);
            key.push_str(&json_string(&text));
        }
        key.push_str("],\"want\":[");
        for (i, v) in want.iter().enumerate() {
            if i > 0 {
                key.push(',');
            }
            key.push_str(&json_string(&v.name));
        }
        key.push(']');
        if self.seen.insert(key.clone()) {
            self.lines.push(format!("{key},\"from\":{}}}", json_string(&self.origin)));
        }
    }

    /// One JSON object per line.
    pub fn to_jsonl(&self) -> String {
        let mut out = String::new();
        for l in &self.lines {
            out.push_str(l);
            out.push('\n');
        }
        out
    }
}

fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The query with variables renamed `v0..` by first occurrence, re-sorted; the sorts by name.
fn canonical(conjuncts: &[Term], want: &[Var]) -> (Vec<Term>, Vec<Var>, BTreeMap<String, Sort>) {
    let mut order: Vec<Var> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    fn visit(t: &Term, order: &mut Vec<Var>, index: &mut HashMap<String, usize>) {
        // First occurrence in the printed text, hence a walk rather than collect_vars (sorted).
        t.visit_vars(&mut |v| {
            if !index.contains_key(&v.name) {
                index.insert(v.name.clone(), order.len());
                order.push(v.clone());
            }
        });
    }
    for c in conjuncts {
        visit(c, &mut order, &mut index);
    }
    for v in want {
        if !index.contains_key(&v.name) {
            index.insert(v.name.clone(), order.len());
            order.push(v.clone());
        }
    }
    let renamed: HashMap<String, Var> = order
        .iter()
        .enumerate()
        .map(|(i, v)| (v.name.clone(), Var::new(format!("v{i}"), v.sort)))
        .collect();
    let set: BTreeSet<Term> = conjuncts.iter().map(|c| rename(c, &renamed)).collect();
    let want: Vec<Var> = want.iter().filter_map(|v| renamed.get(&v.name).cloned()).collect();
    let sorts = renamed.values().map(|v| (v.name.clone(), v.sort)).collect();
    (set.into_iter().collect(), want, sorts)
}

fn rename(t: &Term, map: &HashMap<String, Var>) -> Term {
    let r = |x: &Term| rename(x, map);
    let b = |x: &Term| Box::new(rename(x, map));
    match t {
        Term::Bool(_) | Term::Int(_) | Term::Null => t.clone(),
        Term::Var(v) => Term::Var(map.get(&v.name).cloned().unwrap_or_else(|| v.clone())),
        Term::Add(ts) => Term::Add(ts.iter().map(r).collect()),
        Term::Distinct(ts) => Term::Distinct(ts.iter().map(r).collect()),
        Term::And(ts) => Term::And(ts.iter().map(r).collect()),
        Term::Or(ts) => Term::Or(ts.iter().map(r).collect()),
        Term::Sub(x, y) => Term::Sub(b(x), b(y)),
        Term::Neg(x) => Term::Neg(b(x)),
        Term::Mul(c, x) => Term::Mul(*c, b(x)),
        Term::Div(x, c) => Term::Div(b(x), *c),
        Term::Mod(x, c) => Term::Mod(b(x), *c),
        Term::NonLinear(op, x, y) => Term::NonLinear(*op, b(x), b(y)),
        Term::Cmp(op, x, y) => Term::Cmp(*op, b(x), b(y)),
        Term::Eq(x, y) => Term::Eq(b(x), b(y)),
        Term::Not(x) => Term::Not(b(x)),
        Term::Implies(x, y) => Term::Implies(b(x), b(y)),
        Term::Ite(c, x, y) => Term::Ite(b(c), b(x), b(y)),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn renamed_copies_are_one_entry() {
        let mut log = QueryLog::new();
        log.set_origin("a");
        let (p, q) = (Var::reference("x7"), Var::reference("x9"));
        log.record(&[Term::ne(&p, Term::Null)], std::slice::from_ref(&p));
        log.set_origin("b");
        log.record(&[Term::ne(&q, Term::Null)], std::slice::from_ref(&q));
        log.record(&[Term::ne(&q, Term::Null)], &[]);
        assert_eq!(log.len(), 2);
        assert_eq!(log.received, 3);
        let text = log.to_jsonl();
        assert!(text.starts_with(
            "{\"vars\":{\"v0\":\"Ref\"},\"assert\":[\"(not (= v0 0))\"],\"want\":[\"v0\"],\"from\":\"a\"}\n"
        ), "{text}");
    }
}
