//! Writes the JUnit export of random programs (fixed seeds) for javac:
//! `cargo run --release -p heaplab-testgen --example junit_corpus -- OUT COUNT`.
//!
//! tests/junit/run.sh compiles everything under OUT with one javac call and runs it with the
//! JUnit console: every export must compile, and every generated test (each one replayed by
//! HeapLab's interpreter already) must pass on the JVM. Programs come from
//! tests/programs/mod.rs, one package `g<seed>` each.

#[path = "../tests/programs/mod.rs"]
mod programs;

use heaplab_engine::symbolic::{Config, Explorer, NoClock, SmtPathSolver};
use heaplab_smt::{ProcessConfig, SmtSolver, Z3Process};
use heaplab_syntax::{analyze, SourceFile};
use heaplab_testgen::emit::junit::{junit, JunitInput};
use heaplab_testgen::generate;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(out), Some(count)) = (args.get(1), args.get(2).and_then(|c| c.parse::<u64>().ok()))
    else {
        eprintln!("usage: junit_corpus OUT COUNT");
        return ExitCode::from(2);
    };
    let out = PathBuf::from(out);
    let (mut invalid, mut untranslatable, mut failed, mut exported, mut tests) = (0, 0, 0, 0, 0);
    for seed in 0..count {
        let (text, target) = programs::random_program(seed);
        let a = analyze(&SourceFile::new(format!("g{seed}.hl"), text.clone()));
        if a.has_errors() {
            invalid += 1;
            if invalid <= 3 {
                eprintln!("seed {seed}: not a valid program: {:?}\n{text}", a.diagnostics);
            }
            continue;
        }
        let mut config = Config::default();
        config.bounds.k = 1;
        config.bounds.loop_iterations = 3;
        config.bounds.max_paths = 40;
        config.bounds.timeout_ms = Some(5_000);
        let solver =
            Box::new(SmtPathSolver::new(SmtSolver::new(Z3Process::new(ProcessConfig::default()))));
        let mut ex =
            match Explorer::new(&a.program, &a.info, &target, config, solver, Box::new(NoClock)) {
                Ok(ex) => ex,
                Err(err) => {
                    eprintln!("seed {seed}: {err}");
                    failed += 1;
                    continue;
                }
            };
        ex.run_to_end();
        let gen = match generate(&mut ex, &a.program, &a.info) {
            Ok(gen) => gen,
            Err(err) => {
                eprintln!("seed {seed}: test generation failed: {err}\n{text}");
                failed += 1;
                continue;
            }
        };
        let input = JunitInput {
            program: &a.program,
            info: &a.info,
            source: &text,
            package: Some(format!("g{seed}")),
            paths: ex.paths(),
        };
        match junit(&input, &gen) {
            Ok(files) => {
                for (path, contents) in files.files {
                    let path = out.join(path);
                    if let Some(dir) = path.parent() {
                        let _ = std::fs::create_dir_all(dir);
                    }
                    if let Err(err) = std::fs::write(&path, contents) {
                        eprintln!("seed {seed}: cannot write {}: {err}", path.display());
                        return ExitCode::FAILURE;
                    }
                }
                std::fs::write(out.join(format!("g{seed}.hl")), &text).ok();
                exported += 1;
                tests += gen.tests.len();
            }
            Err(err) => {
                untranslatable += 1;
                eprintln!("seed {seed}: {err}");
            }
        }
    }
    println!(
        "junit corpus: {count} programs, {invalid} invalid, {failed} failed, {untranslatable} untranslatable, {exported} exported with {tests} tests"
    );
    // The generator is meant to write valid programs, and a generation failure is a bug.
    if invalid * 10 > count || failed > 0 || exported * 2 < count {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
