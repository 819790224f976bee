//! `throw` and `try`/`catch` in the symbolic executor, on examples/underflow.hl (Weiss's StackLi
//! with its Underflow exception): every heap strategy reaches the same outcomes, a caught
//! exception never ends a path, an uncaught one ends it at its `throw`, and the value a `catch`
//! computes from the caught object is the interpreter's (each path's returned value is pinned).

mod common;

use heaplab_engine::symbolic::{Config, PathOutcome, SValue, StrategyKind, STRATEGIES};
use std::collections::BTreeMap;

/// Outcome class (with the line of an error, the constant of a return) → number of paths.
fn outcomes(target: &str, strategy: StrategyKind) -> BTreeMap<String, usize> {
    let a = common::load("underflow.hl");
    let mut config = Config::default();
    config.strategy = strategy;
    config.bounds.k = 3;
    let ex = common::explore(&a, target, config);
    let text = std::fs::read_to_string(format!(
        "{}/../../examples/underflow.hl",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example");
    let line = |at: u32| text[..at as usize].matches('\n').count() + 1;
    let mut out = BTreeMap::new();
    for p in ex.paths() {
        let class = match &p.outcome {
            PathOutcome::Returned(SValue::Int(v)) => match v.as_int() {
                Some(n) => format!("returned {n}"),
                None => "returned".to_string(),
            },
            PathOutcome::Returned(_) => "returned".to_string(),
            PathOutcome::Error { kind, span, message, .. } => {
                format!("{} at line {}: {message}", kind.keyword(), line(span.start))
            }
            PathOutcome::Bounded { bound, .. } => format!("bounded by {bound:?}"),
            _ => continue,
        };
        *out.entry(class).or_insert(0) += 1;
    }
    out
}

fn expect(pairs: &[(&str, usize)]) -> BTreeMap<String, usize> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

#[test]
fn every_strategy_reaches_the_same_caught_and_uncaught_outcomes() {
    let cases = [
        ("Stack.pop", expect(&[("exception at line 35: `Underflow` thrown", 1), ("returned", 3)])),
        // The callee's Underflow is caught: no path ends with an exception; the empty stack
        // returns the default (a symbolic parameter).
        ("Stack.popOr", expect(&[("returned", 4)])),
        // The loop ends only through the caught Underflow: one path per stack depth 0..k.
        (
            "Stack.drain",
            expect(&[("returned 0", 1), ("returned 1", 1), ("returned 2", 1), ("returned 3", 1)]),
        ),
        // Zero or one element: the inner or outer catch, then an uncaught EmptyPair.
        (
            "Stack.popPair",
            expect(&[
                ("exception at line 96: `EmptyPair` thrown", 2),
                ("integer_overflow at line 89: the result leaves the int range", 2),
                ("returned", 2),
            ]),
        ),
        // The caught object's field says which operation underflowed.
        ("Stack.whichUnderflow", expect(&[("returned 0", 3), ("returned 1", 1)])),
    ];
    for (target, want) in cases {
        for (s, kind) in STRATEGIES.iter().filter_map(|s| Some((s, s.kind()?))) {
            let got = outcomes(target, kind);
            assert_eq!(got, want, "{target} under {}", s.name);
        }
    }
}
