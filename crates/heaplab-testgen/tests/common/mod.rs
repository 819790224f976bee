//! Shared helpers of the symbolic-execution tests: load an example, run the explorer with a real
//! z3 (no fake solver: an engine test must mean what it says).

#![allow(dead_code)]

use heaplab_engine::symbolic::{
    Config, Explorer, NoClock, PathSolver, SmtPathSolver, StrategyKind,
};
use heaplab_smt::{ProcessConfig, SmtSolver, Z3Process};
use heaplab_syntax::{analyze, Analysis, SourceFile};

/// The real solver: z3 through `heaplab_smt` (frontend with local decisions and cache).
pub fn solver() -> Box<dyn PathSolver> {
    Box::new(SmtPathSolver::new(SmtSolver::new(Z3Process::new(ProcessConfig::default()))))
}

pub fn load(example: &str) -> Analysis {
    let path = format!("{}/../../examples/{example}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("example exists");
    let a = analyze(&SourceFile::new(example.to_string(), text));
    assert!(!a.has_errors(), "{example}: {:?}", a.diagnostics);
    a
}

pub fn explore(a: &Analysis, target: &str, config: Config) -> Explorer {
    let mut ex = Explorer::new(&a.program, &a.info, target, config, solver(), Box::new(NoClock))
        .expect("method exists");
    ex.run_to_end();
    ex
}

/// Every `examples/*.hl` file, sorted by path.
pub fn example_files() -> Vec<std::path::PathBuf> {
    let dir = format!("{}/../../examples", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hl"))
        .collect();
    files.sort();
    files
}

/// `./build.sh test --quick` (`HEAPLAB_QUICK` set): the long tests run a fixed fraction of their
/// cases, chosen by count (CI runs them all).
pub fn quick() -> bool {
    std::env::var_os("HEAPLAB_QUICK").is_some()
}

/// `f` over `jobs` on two threads, the results in the jobs' order. The example-wide tests are
/// long and each is the only test of its binary, which the test runner would run on one core.
pub fn on_two_threads<J: Sync, R: Send>(jobs: &[J], f: impl Fn(&J) -> R + Sync) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let worker = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = jobs.get(i) else { break };
            done.push((i, f(job)));
        }
        done
    };
    let mut all = std::thread::scope(|s| {
        let other = s.spawn(worker);
        let mut mine = worker();
        mine.extend(other.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        mine
    });
    all.sort_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

/// (example file name, method) of every example, with the methods `select` picks; under
/// `./build.sh test --quick` every fourth of them (CI runs them all).
pub fn example_methods(select: impl Fn(&Analysis) -> Vec<String>) -> Vec<(String, String)> {
    let mut jobs = Vec::new();
    for file in example_files() {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        for target in select(&load(&name)) {
            jobs.push((name.clone(), target));
        }
    }
    if quick() {
        jobs = jobs.into_iter().step_by(4).collect();
    }
    jobs
}

/// The bounds of the example-wide tests under `strategy`: k = 2, 100 paths, 4 loop iterations,
/// call depth 16, no time bound (counts only, so every machine checks the same runs).
pub fn example_config(strategy: StrategyKind) -> Config {
    let mut config = Config::default();
    config.strategy = strategy;
    config.bounds.k = 2;
    config.bounds.max_paths = 100;
    config.bounds.timeout_ms = None;
    config.bounds.loop_iterations = 4;
    config.bounds.call_depth = 16;
    config
}
