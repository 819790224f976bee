//! Shared helpers of the symbolic-execution tests: load an example, run the explorer with a real
//! z3 (no fake solver: an engine test must mean what it says).

#![allow(dead_code)]

use heaplab_engine::symbolic::{Config, Explorer, NoClock, PathSolver, SmtPathSolver};
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
