//! The query corpus (`tests/corpus/queries.jsonl`: every distinct query the example suite sends
//! to the solver layer, dumped by `heaplab bench --dump-queries`) through the Rust decision
//! procedure and through a real `z3` process. Fails on any disagreement: the procedure says sat
//! and Z3 unsat or the reverse, or a model of the procedure does not satisfy the assertions.
//! Prints the share the procedure decides (`cargo test -p heaplab-smt --test corpus --
//! --nocapture`; `./build.sh bench` shows it).
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use heaplab_smt::lia::{self, Decision};
use heaplab_smt::{
    block_on, parse_sort, parse_term, Answer, Query, SmtSolver, Solver, Term, Var, Z3Process,
};
use serde_json::Value as Json;

struct Case {
    line: usize,
    from: String,
    assertions: Vec<Term>,
    want: Vec<Var>,
}

fn corpus() -> Vec<Case> {
    let text = include_str!("corpus/queries.jsonl");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let j: Json = serde_json::from_str(l).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
            let vars: Vec<Var> = j["vars"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(n, s)| Var::new(n.clone(), parse_sort(s.as_str().unwrap()).unwrap()))
                .collect();
            let assertions = j["assert"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| parse_term(a.as_str().unwrap(), &vars).unwrap())
                .collect();
            let by_name: BTreeMap<&str, &Var> = vars.iter().map(|v| (v.name.as_str(), v)).collect();
            let want = j["want"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| (*by_name[n.as_str().unwrap()]).clone())
                .collect();
            Case {
                line: i + 1,
                from: j["from"].as_str().unwrap_or("").to_string(),
                assertions,
                want,
            }
        })
        .collect()
}

#[test]
fn rust_procedure_agrees_with_z3_on_the_corpus() {
    let cases = corpus();
    assert!(cases.len() > 500, "the corpus has {} queries", cases.len());
    let z3 = SmtSolver::new(Z3Process::default());
    let (mut sat, mut unsat) = (0usize, 0usize);
    let mut outside: BTreeMap<String, usize> = BTreeMap::new();
    let mut disagreements = Vec::new();
    let mut rust_time = std::time::Duration::ZERO;
    let mut z3_time = std::time::Duration::ZERO;
    for case in &cases {
        let start = std::time::Instant::now();
        let rust = lia::decide(&case.assertions, &case.want);
        rust_time += start.elapsed();
        let start = std::time::Instant::now();
        let query = Query::new(case.assertions.clone()).want(case.want.clone());
        let answer = block_on(z3.check(&query)).unwrap();
        z3_time += start.elapsed();
        let what = match (&rust, &answer) {
            (Decision::Sat(m), Answer::Sat(_)) => {
                sat += 1;
                let ok = m.satisfies_exact(&case.assertions) == Ok(true)
                    && case.want.iter().all(|v| m.get(v).is_some());
                (!ok).then(|| format!("the procedure's model {m:?} does not satisfy the query"))
            }
            (Decision::Unsat, Answer::Unsat) => {
                unsat += 1;
                None
            }
            (Decision::Outside(why), _) => {
                *outside.entry(why.clone()).or_default() += 1;
                None
            }
            (Decision::Sat(_), other) => Some(format!("procedure sat, z3 {other:?}")),
            (Decision::Unsat, other) => Some(format!("procedure unsat, z3 {other:?}")),
        };
        if let Some(w) = what {
            disagreements.push(format!("line {} ({}): {w}", case.line, case.from));
        }
    }
    let decided = sat + unsat;
    println!(
        "query corpus: {} queries; the Rust procedure decided {} ({:.1}%: {} sat with re-checked models, {} unsat) in {:.1} ms, z3 took {:.1} ms for all; outside the fragment: {:?}; disagreements: {}",
        cases.len(),
        decided,
        100.0 * decided as f64 / cases.len() as f64,
        sat,
        unsat,
        rust_time.as_secs_f64() * 1000.0,
        z3_time.as_secs_f64() * 1000.0,
        outside,
        disagreements.len()
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// Java's wrapping `int` arithmetic and `>>` as the engine writes them: one Euclidean `mod` per
/// wrap and one `div` per shift (AVL trees' heights, hash32.hl's sums and midpoint, counters.hl,
/// JDK `LinkedList.entry`'s `size >> 1` in dll.hl, sushi.hl). The query's range facts bound each
/// quotient (`lia/bounds.rs`), so the procedure decides these itself; spelled out with
/// truncating division under sign tests, or without the bounds, branch and bound gave up on
/// them and every such query went to Z3. (Agreement with Z3 is checked above.)
#[test]
fn wrapped_int_arithmetic_is_decided_in_rust() {
    let sources = ["avl.hl", "hash32.hl", "counters.hl", "dll.hl", "sushi.hl"];
    let wrapped: Vec<Case> = corpus()
        .into_iter()
        .filter(|c| sources.iter().any(|s| c.from.starts_with(s)))
        .filter(|c| {
            let text: Vec<String> = c.assertions.iter().map(|a| a.to_string()).collect();
            let has = |p: &str| text.iter().any(|t| t.contains(p));
            // The form the engine writes now; avl.hl's older queries spelled each wrap with
            // truncating division, and the bounds decide those too.
            let euclidean = (has("(mod ") || has("(div ")) && !has("(- (div (- ");
            euclidean || (c.from.starts_with("avl.hl") && has("4294967296"))
        })
        .collect();
    assert!(wrapped.len() >= 300, "the corpus has {} wrapped queries", wrapped.len());
    assert_decided_in_rust(&wrapped);
}

/// Fails, naming each, unless the procedure decides every one of `cases` (sat or unsat).
fn assert_decided_in_rust(cases: &[Case]) {
    let outside: Vec<String> = cases
        .iter()
        .filter_map(|c| match lia::decide(&c.assertions, &c.want) {
            Decision::Outside(why) => Some(format!("line {} ({}): {why}", c.line, c.from)),
            _ => None,
        })
        .collect();
    assert!(
        outside.is_empty(),
        "{} of {} outside:\n{}",
        outside.len(),
        cases.len(),
        outside.join("\n")
    );
}

/// symheap's path conditions name each large guard (`b = g`, `g` a disjunction of the worlds a
/// reference may denote), so a query is a hundred and more disjunctions that the search splits
/// one theory point at a time. BST's `insert` and `remove` over comparable keys (bstcmp.hl) have
/// queries that need up to a few hundred splits; under a budget of 64 they went to Z3 (17 Z3
/// queries over the example bench, each 10 to 30 ms in the page). Every symheap query of the
/// corpus is decided in Rust.
#[test]
fn symheap_guard_disjunctions_are_decided_in_rust() {
    let symheap: Vec<Case> =
        corpus().into_iter().filter(|c| c.from.ends_with(" symheap")).collect();
    assert!(symheap.len() >= 700, "the corpus has {} symheap queries", symheap.len());
    assert_decided_in_rust(&symheap);
}

/// A context prepared once ([`lia::Context`]) answers every question as [`lia::decide`] answers
/// the context and the question together: on each corpus query with a few conjuncts, the
/// context is all but the last, asked in a row the last, its negation and the first (which
/// the context states); each model satisfies the context and the question. Every fourth such
/// query, to keep the debug build's `cargo test` short. A context made by extending one of
/// the first half of the conjuncts with the rest ([`lia::Context::extend`]) answers alike.
#[test]
fn a_prepared_context_answers_as_the_whole_query_does() {
    let cases = corpus();
    let (mut compared, mut hits, mut extended_alike) = (0usize, 0usize, 0usize);
    let mut disagreements = Vec::new();
    let chosen = cases.iter().filter(|c| c.assertions.len() >= 3 && c.want.is_empty());
    for case in chosen.step_by(4) {
        let (context, last) = case.assertions.split_at(case.assertions.len() - 1);
        let questions = [last[0].clone(), Term::not(last[0].clone()), context[0].clone()];
        let mut prepared = match lia::Context::new(context.to_vec()) {
            Ok(p) => p,
            Err(Decision::Unsat) => {
                // The context alone is unsat: so is every question of it.
                assert_eq!(lia::decide(context, &[]), Decision::Unsat, "line {}", case.line);
                continue;
            }
            Err(_) => continue,
        };
        let half = context.len() / 2;
        let mut extended = lia::Context::new(context[..half].to_vec())
            .and_then(|c| c.extend(&context[half..]))
            .ok();
        for q in questions {
            let mut whole = context.to_vec();
            whole.push(q.clone());
            let expected = lia::decide(&whole, &[]);
            let got = prepared.decide(std::slice::from_ref(&q), lia::Limits::for_want(&[]));
            if let Decision::Sat(m) = &got {
                assert_eq!(m.satisfies_exact(&whole), Ok(true), "line {}: {q:?}", case.line);
            }
            let limits = lia::Limits::for_want(&[]);
            match extended.as_mut().map(|e| e.decide(std::slice::from_ref(&q), limits)) {
                Some(Decision::Sat(m)) => {
                    assert_eq!(m.satisfies_exact(&whole), Ok(true), "line {}: {q:?}", case.line);
                    assert!(!matches!(expected, Decision::Unsat), "line {}: {q:?}", case.line);
                    extended_alike += usize::from(matches!(expected, Decision::Sat(_)));
                }
                Some(Decision::Unsat) => {
                    assert!(!matches!(expected, Decision::Sat(_)), "line {}: {q:?}", case.line);
                    extended_alike += usize::from(expected == Decision::Unsat);
                }
                _ => {}
            }
            match (&expected, &got) {
                (Decision::Sat(_), Decision::Sat(_)) | (Decision::Unsat, Decision::Unsat) => {
                    hits += 1
                }
                (Decision::Outside(_), _) | (_, Decision::Outside(_)) => {}
                _ => disagreements.push(format!(
                    "line {} ({}): whole {expected:?}, context {got:?}",
                    case.line, case.from
                )),
            }
            compared += 1;
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    assert!(compared > 1000 && hits * 10 > compared * 9, "{hits} of {compared} decided alike");
    assert!(extended_alike * 10 > hits * 9, "extended contexts: {extended_alike} of {hits}");
    println!(
        "prepared contexts: {hits} of {compared} questions decided alike; \
         extended: {extended_alike}"
    );
}
