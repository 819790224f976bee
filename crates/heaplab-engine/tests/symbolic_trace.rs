//! Event traces as data (STYLE.md item 4): `test_data/symbolic/NAME.expected` holds the event
//! stream of one run; a missing file is written, `UPDATE_EXPECT=1` rewrites them all for review
//! in the diff. The swap traces are Kiasan's Fig. 3.2–3.4 in our notation, and every trace is
//! also checked against the independent oracle of its path count.

mod common;

use heaplab_engine::symbolic::{Config, Event, Explorer, NoClock, StrategyKind};
use std::fmt::Write;
use std::path::PathBuf;

fn trace(example: &str, target: &str, strategy: StrategyKind, k: u32) -> (String, u64) {
    let a = common::load(example);
    let mut config = Config::default();
    config.strategy = strategy;
    config.bounds.k = k;
    let mut ex =
        Explorer::new(&a.program, &a.info, target, config, common::solver(), Box::new(NoClock))
            .expect("target exists");
    let mut out = String::new();
    while let Some(e) = ex.step() {
        let line = match e {
            Event::Start { state, method } => format!("[{}] start {method}", state.0),
            Event::LazyInit { state, target, options, children, k_cut, .. } => {
                let opts: Vec<String> = options
                    .iter()
                    .zip(&children)
                    .map(|(o, c)| format!("{o} -> [{}]", c.0))
                    .collect();
                format!(
                    "[{}] lazy-init {target}: {}{}",
                    state.0,
                    opts.join(" | "),
                    if k_cut { " (k)" } else { "" }
                )
            }
            Event::Branch { state, condition, children, .. } => {
                let dirs: Vec<String> =
                    children.iter().map(|(d, c)| format!("{d} -> [{}]", c.0)).collect();
                format!("[{}] branch {condition}: {}", state.0, dirs.join(" | "))
            }
            Event::Disjuncts { state, children, .. } => {
                let kids: Vec<String> = children.iter().map(|c| format!("[{}]", c.0)).collect();
                format!("[{}] disjuncts {}", state.0, kids.join(" | "))
            }
            Event::SlModel { state, formula, model } => {
                format!("[{}] model of {formula}: {model}", state.0)
            }
            // Whether a query was decided locally or sent is an optimization detail.
            Event::SolverQuery { .. } | Event::SolverPending => continue,
            Event::PathEnd { state, path: Some(path), .. } => {
                let p = &ex.paths()[path];
                format!("[{}] path {path}: {}", state.0, p.describe())
            }
            Event::PathEnd { state, path: None, outcome } => {
                format!("[{}] path not kept: {}", state.0, outcome.summary())
            }
            Event::Stopped { bound } => format!("stopped by {bound}"),
        };
        let _ = writeln!(out, "{line}");
    }
    (out, ex.stats().feasible)
}

fn check(name: &str, actual: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("test_data/symbolic/{name}.expected"));
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    match std::fs::read_to_string(&path) {
        Ok(expected) if !update => {
            assert_eq!(actual, expected, "{name}: rerun with UPDATE_EXPECT=1 to accept")
        }
        _ => std::fs::write(&path, actual).expect("write expectation"),
    }
}

#[test]
fn swap_traces() {
    for (strategy, name, paths) in [
        (StrategyKind::Lazy, "swap_lazy", 20),
        (StrategyKind::Lazier, "swap_lazier", 6),
        (StrategyKind::LazierSharp, "swap_lazier_sharp", 2),
    ] {
        let (t, feasible) = trace("swap.hl", "Node.swap", strategy, 2);
        assert_eq!(feasible, paths, "{name}");
        check(name, &t);
    }
}

#[test]
fn bst_insert_k1_trace() {
    let (t, feasible) = trace("bst.hl", "BST.insert", StrategyKind::LazierSharp, 1);
    assert_eq!(feasible, 4);
    check("bst_insert_lazier_sharp_k1", &t);
}
