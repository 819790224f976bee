//! `concolic` against the explorer's strategies on random programs (issue 30 item 1): whenever
//! the concolic loop reports no bound hit, its outcomes (returned, or each kind of runtime
//! error, on inputs that satisfy `requires`) contain every outcome `lazy` and `sl` find at the
//! same `k`. A run stopped by a bound is not compared, and the count of those is printed.
//! CI runs it on the first 100 programs (DEFAULT_CASES); `HEAPLAB_DIFFERENTIAL=N` runs N.
//!
//! Before concolic built input heaps for methods without `requires`, 23 of 300 programs missed
//! an outcome, all of one kind: the outcome needed an input object (`assert this.org == null`
//! failing, a field read past a `null` concolic's input had where lazy's had an object).
//! Concolic now explores the heap shapes of such a method as lazy initialization does, up to
//! the same `k` (see heaplab-engine's `concolic::preprocess`). Measured after that change: 0 of
//! 300 programs miss an outcome (300 compared, none stopped by a bound; 2.6 s in the debug
//! build), and 0 of 1,000 (998 compared, 2 stopped by a bound). Concolic runs at the
//! explorer's `k` = 1 here, so it explores no deeper heap than `lazy` does.
//!
//! Two programs in three then got a random `requires` (`programs::random_program_with`: null
//! or non-null reference fields, integer bounds, boolean fields). That found misses of one
//! kind (3 in 1,000 programs): an overflow on an integer field of an object a `requires`
//! leaves open. Seed 290: `- this.s.j` overflowing under `requires !this.x && this.j >= 1 &&
//! j > 4`; 502 and 767 the same with `requires ... && this.wait != null` (`this.wait.hashCode
//! - 100`) and `requires this.org == null && this.value != null` (`- this.value.thrown`). The
//! `requires` claims `this` (a points-to with a field variable for `s`) but leaves the object
//! in `this.s` open; nothing covers that variable, so Algorithm 2 (lines 15–16) dropped every
//! formula that reads `this.s.j`. Preprocessing now tries such a node a second time with the
//! open object outside the footprint when every formula was dropped (only then, so the inputs
//! of the `requires` examples in `tests/concolic.rs` stay the ones Algorithm 2 gives), and the
//! three programs are compared like any other (KNOWN_MISSES is empty; a seed listed there
//! must miss, so the list cannot go stale). `HEAPLAB_DIFFERENTIAL_SEEDS=290,502,767` runs them.

mod common;
mod programs;

use heaplab_engine::symbolic::{Config, Explorer, NoClock, StrategyKind};
use heaplab_logic::SmtOracle;
use heaplab_smt::{ProcessConfig, SmtSolver, Z3Process};
use heaplab_syntax::{analyze, SourceFile};
use heaplab_testgen::concolic::{self, ConcolicConfig};
use heaplab_testgen::{generate, Expected, Generation, Validity};
use std::collections::BTreeSet;

/// Programs checked by default: a size that runs in CI (the larger sweep is opt-in).
const DEFAULT_CASES: u64 = 100;

/// Seeds where concolic is known to miss an outcome (see the header), compared run or not.
const KNOWN_MISSES: &[u64] = &[];

fn outcomes(g: &Generation) -> BTreeSet<String> {
    g.tests
        .iter()
        .filter(|t| t.validity != Validity::Invalid)
        .map(|t| match &t.expected {
            Expected::Returned(_) => "returned".to_string(),
            Expected::Error(k) => k.keyword().to_string(),
        })
        .collect()
}

#[test]
fn concolic_finds_every_outcome_the_explorer_finds() {
    let cases = std::env::var("HEAPLAB_DIFFERENTIAL")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(DEFAULT_CASES);
    // `HEAPLAB_DIFFERENTIAL_SEEDS=290,502` runs those programs only (to study one miss).
    let seeds: Vec<u64> = match std::env::var("HEAPLAB_DIFFERENTIAL_SEEDS") {
        Ok(list) => list.split(',').filter_map(|s| s.trim().parse().ok()).collect(),
        Err(_) => (0..cases).collect(),
    };
    let (mut compared, mut stopped, mut missed, mut known_missed) = (0, 0, Vec::new(), 0);
    for seed in seeds {
        let (text, target) = programs::random_program_with(7_000 + seed, true);
        let a = analyze(&SourceFile::new("g.hl", text.clone()));
        assert!(!a.has_errors(), "seed {seed}: {:?}", a.diagnostics);
        let mut found = BTreeSet::new();
        let mut explorer_complete = true;
        for kind in [StrategyKind::Lazy, StrategyKind::Sl] {
            let mut config = Config::default();
            config.strategy = kind;
            config.bounds.k = 1;
            config.bounds.loop_iterations = 2;
            config.bounds.max_paths = 60;
            config.bounds.max_states = 4_000;
            let mut ex = Explorer::new(
                &a.program,
                &a.info,
                &target,
                config,
                common::solver(),
                Box::new(NoClock),
            )
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            ex.run_to_end();
            explorer_complete &= ex.stopped().is_none();
            let g = generate(&mut ex, &a.program, &a.info)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            found.extend(outcomes(&g));
        }
        let z3 = SmtSolver::new(Z3Process::new(ProcessConfig::default()));
        let mut oracle = SmtOracle::new(&z3);
        let cfg = ConcolicConfig { max_runs: 200, k: 1, ..ConcolicConfig::default() };
        let r = concolic::generate(
            &a.program,
            &a.info,
            &target,
            &cfg,
            &mut oracle,
            common::solver(),
            &NoClock,
        )
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        if r.stats.stopped_by.is_some() || !explorer_complete {
            stopped += 1;
            continue;
        }
        compared += 1;
        let ours = outcomes(&r.generation);
        let lacking: Vec<_> = found.difference(&ours).cloned().collect();
        let known = KNOWN_MISSES.contains(&seed);
        if !lacking.is_empty() {
            known_missed += usize::from(known);
        }
        // A known miss that is found now fails too: the list (and the header) must follow.
        if lacking.is_empty() == known {
            missed.push(format!(
                "seed {seed} ({target}): concolic lacks {lacking:?}, has {ours:?} (listed as \
                 known: {known})\n{text}"
            ));
        }
    }
    eprintln!(
        "concolic differential: {compared} compared, {stopped} stopped by a bound, {} known \
         misses, {} unexpected",
        known_missed,
        missed.len()
    );
    assert!(missed.is_empty(), "{}", missed.join("\n\n"));
}
