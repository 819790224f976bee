//! Every method of every example under every strategy: each generated test replays in the
//! interpreter (generation fails otherwise), and the strategies agree on which outcomes are
//! reachable when no run was cut short. `ALL_EXAMPLES_ONLY=a.hl,b.hl` runs only those example
//! files (the count of methods compared is then not asserted).

mod common;

use heaplab_engine::symbolic::{Clock, Explorer, StrategyKind, STRATEGIES};
use heaplab_syntax::SourceFile;
use heaplab_testgen::coverage::Lines;
use heaplab_testgen::{generate, Expected, Validity};
use std::collections::BTreeSet;

struct TestClock(std::time::Instant);

impl Clock for TestClock {
    fn now_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

/// `symheap`'s work bound here, in questions about path conditions.
const SYMHEAP_QUESTIONS: u64 = 400;
/// All-heaps mode's models per path here.
const ALL_HEAPS_PER_PATH: u32 = 16;

fn targets(a: &heaplab_syntax::Analysis) -> Vec<String> {
    a.program.targets()
}

/// What one method's runs under every strategy found.
#[derive(Default)]
struct Found {
    runs: usize,
    compared: usize,
    all_heaps: usize,
    disagreements: Vec<String>,
}

#[test]
fn every_example_method_replays_under_every_strategy() {
    let only = std::env::var("ALL_EXAMPLES_ONLY").ok();
    let jobs: Vec<_> = common::example_methods(targets)
        .into_iter()
        .filter(|(name, _)| only.as_ref().is_none_or(|o| o.split(',').any(|x| x.trim() == name)))
        .collect();
    let found = common::on_two_threads(&jobs, |(name, target)| {
        let mut found = Found::default();
        method_under_every_strategy(name, target, &mut found);
        found
    });
    let runs: usize = found.iter().map(|f| f.runs).sum();
    let compared: usize = found.iter().map(|f| f.compared).sum();
    let all_heaps: usize = found.iter().map(|f| f.all_heaps).sum();
    let disagreements: Vec<&String> = found.iter().flat_map(|f| &f.disagreements).collect();
    eprintln!(
        "{runs} runs, {compared} methods compared across strategies, {all_heaps} symheap tests in all-heaps mode"
    );
    let least = if common::quick() { 5 } else { 20 };
    assert!(only.is_some() || compared > least, "most methods finish within the bounds");
    assert!(disagreements.is_empty(), "{disagreements:#?}");
}

/// Runs `target` of the example `name` under every strategy: its tests replay, its coverage is
/// consistent, and the strategies whose runs were complete agree on the reachable outcomes.
fn method_under_every_strategy(name: &str, target: &str, found: &mut Found) {
    let a = common::load(name);
    let file = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(file).expect("example");
    let lines = Lines::new(&a.program, &SourceFile::new(name.to_string(), text));
    let mut reachable: Vec<(StrategyKind, BTreeSet<String>, bool)> = Vec::new();
    for (s, kind) in STRATEGIES.iter().filter_map(|s| Some((s, s.kind()?))) {
        let mut config = common::example_config(kind);
        if kind == StrategyKind::Symheap {
            // Its cost is in solver questions, not steps: a count of them keeps CI short
            // and stops every run at the same point on every machine (a run it stops
            // is not compared; its tests still replay). Calibrated on the examples: at
            // 400 questions the whole test took 400 s of CPU on a loaded machine and
            // compared 166 methods across strategies; the 3 s wall-clock budget it
            // replaces compared 192, a different set on each machine.
            config.bounds.max_questions = Some(SYMHEAP_QUESTIONS);
            config.bounds.heaps_per_path = ALL_HEAPS_PER_PATH;
        }
        let ex = Explorer::new(
            &a.program,
            &a.info,
            target,
            config,
            common::solver(),
            Box::new(TestClock(std::time::Instant::now())),
        );
        let mut ex = match ex {
            Ok(ex) => ex,
            Err(e) => panic!("{name} {target} {}: {e}", s.name),
        };
        // A deterministic budget (lazy's aliasing makes some precondition explorations
        // huge); a run cut here is not compared.
        let mut cut = false;
        while ex.step().is_some() {
            if ex.stats().steps > 200_000 {
                cut = true;
                break;
            }
        }
        assert_eq!(ex.stats().internal_errors, 0, "{name} {target} {}: internal error", s.name);
        let g = generate(&mut ex, &a.program, &a.info)
            .unwrap_or_else(|e| panic!("{name} {target} {}: {e}", s.name));
        found.runs += 1;
        // Replayed statements lie in the method or what it calls; the branch sites are
        // the explorer's, with its count of covered directions.
        let cov = lines.coverage(&a.program, &ex, &g);
        let at = format!("{name} {target} {}", s.name);
        assert!(cov.covered.iter().all(|l| cov.executable.contains(l)), "{at}: {cov:?}");
        let taken: usize =
            cov.branches.iter().map(|b| b.covered.iter().filter(|c| **c).count()).sum();
        assert_eq!((taken, cov.branches.len() * 2), ex.branch_coverage(), "{at}");
        let outcomes: BTreeSet<String> = g
            .tests
            .iter()
            .filter(|t| t.validity != Validity::Invalid)
            .map(|t| match &t.expected {
                Expected::Returned(_) => "returned".to_string(),
                Expected::Error(k) => k.keyword().to_string(),
            })
            .collect();
        let complete = !cut && ex.stopped().is_none() && ex.stats().bounded == 0;
        if kind == StrategyKind::Symheap && !cut && ex.stopped().is_none() {
            // All-heaps mode (issue 15 item 4): every input heap of every path is a
            // test that replays, with the same outcomes as one heap per path.
            ex.set_all_heaps(true);
            // CI time: at most ALL_HEAPS_PER_PATH models per path (a path cut by it
            // says so, `heaps_cut`).
            let all = generate(&mut ex, &a.program, &a.info)
                .unwrap_or_else(|e| panic!("{at} --all-heaps: {e}"));
            let kinds = |g: &heaplab_testgen::Generation| -> BTreeSet<String> {
                g.tests
                    .iter()
                    .map(|t| match &t.expected {
                        Expected::Returned(_) => "returned".to_string(),
                        Expected::Error(k) => k.keyword().to_string(),
                    })
                    .collect()
            };
            assert!(all.tests.len() >= g.tests.len(), "{at} --all-heaps");
            if all.heaps_cut() == 0 && all.unknown.is_empty() && all.out_of_time.is_empty() {
                assert_eq!(kinds(&all), kinds(&g), "{at} --all-heaps");
            }
            found.all_heaps += all.tests.len();
        }
        reachable.push((kind, outcomes, complete));
    }
    let complete: Vec<_> = reachable.iter().filter(|r| r.2).collect();
    if complete.len() == reachable.len() {
        found.compared += 1;
    }
    if let Some(first) = complete.first() {
        for r in &complete[1..] {
            if r.1 != first.1 {
                found.disagreements.push(format!(
                    "{name} {target}: {:?} {:?} vs {:?} {:?}",
                    first.0, first.1, r.0, r.1
                ));
            }
        }
    }
}
