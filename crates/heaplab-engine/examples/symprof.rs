//! Where a symheap run spends its time: per method (those with a `requires`, as `heaplab bench`
//! runs them, k = 2 unless given, the bench's bounds), the exploration's wall and CPU time, its
//! paths, the path-condition queries that reached the path solver (count, how many were unsat,
//! conjuncts, time inside, the unsat ones' share) and the time outside it (the heap model and
//! the executor), the questions the executor answered without the solver (`exec/answers.rs`:
//! the same question / unsat on a subset / a known model) and the solver layer's counts (Z3
//! sent, decided in Rust).
//!
//! `cargo run --release -p heaplab-engine --example symprof -- examples/avl.hl [Method|all]
//! [secs] [k]` (issue 32 measures k = 3)
//!
//! CPU time is this thread's (Linux `schedstat`), less sensitive to a loaded machine than wall
//! time; z3's own time is in neither column (its calls are counted).

use heaplab_engine::symbolic::{
    Clock, Config, Explorer, Model, PathSolver, PreMode, SatAnswer, SmtPathSolver, SolverCounts,
    Sort, StrategyKind, Sym,
};
use heaplab_smt::{ProcessConfig, SmtSolver, Z3Process};
use heaplab_syntax::{analyze, SourceFile};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

#[derive(Default)]
struct Tally {
    queries: u64,
    conjuncts: u64,
    nanos: u128,
    /// Queries answered unsat, and the time inside them.
    unsat: u64,
    unsat_nanos: u128,
}

impl Tally {
    fn add(&mut self, c: &[Sym], t: Instant, answer: SatAnswer) {
        let nanos = t.elapsed().as_nanos();
        self.queries += 1;
        self.conjuncts += c.len() as u64;
        self.nanos += nanos;
        if answer == SatAnswer::Unsat {
            self.unsat += 1;
            self.unsat_nanos += nanos;
        }
    }
}

struct Timed {
    inner: Box<dyn PathSolver>,
    tally: Rc<RefCell<Tally>>,
}

impl PathSolver for Timed {
    fn check_with_model(&mut self, c: &[Sym], v: &[(u32, Sort)]) -> (SatAnswer, Option<Model>) {
        let t = Instant::now();
        let r = self.inner.check_with_model(c, v);
        self.tally.borrow_mut().add(c, t, r.0);
        r
    }
    fn check_keeping_model(&mut self, c: &[Sym]) -> (SatAnswer, Option<Model>) {
        let t = Instant::now();
        let r = self.inner.check_keeping_model(c);
        self.tally.borrow_mut().add(c, t, r.0);
        r
    }
    fn counts(&self) -> SolverCounts {
        self.inner.counts()
    }
    fn note_local(&mut self) {
        self.inner.note_local()
    }
    fn set_time_left(&mut self, ms: Option<u64>) {
        self.inner.set_time_left(ms)
    }
}

struct Wall(Instant);

impl Clock for Wall {
    fn now_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

/// CPU time of this thread in milliseconds (0 where `/proc` is missing).
fn cpu_ms() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse::<f64>().ok()))
        .map_or(0.0, |ns| ns / 1e6)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: symprof FILE.hl [Method|all] [secs] [k]");
        return;
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let a = analyze(&SourceFile::new(path.clone(), text));
    let secs: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let k: u32 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2);
    let mut targets = a.program.targets_with_requires();
    if let Some(m) = args.get(1).filter(|m| *m != "all") {
        targets.retain(|t| t == m || t.ends_with(&format!(".{m}")));
    }
    let file = std::path::Path::new(path).file_name().map(|n| n.to_string_lossy().into_owned());
    let file = file.unwrap_or_default();
    println!("| file | method | wall ms | cpu ms | stopped | paths | solver queries | unsat | conj/q | solver ms | unsat ms | outside ms | answered here: same / unsat ⊂ / model | z3 sent | decided in Rust |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for t in targets {
        let mut config = Config::default();
        config.strategy = StrategyKind::Symheap;
        config.bounds.k = k;
        config.pre = PreMode::Assume;
        config.bounds.timeout_ms = Some(secs * 1000);
        let tally = Rc::new(RefCell::new(Tally::default()));
        let solver = SmtPathSolver::new(SmtSolver::new(Z3Process::new(ProcessConfig::default())));
        let timed = Timed { inner: Box::new(solver), tally: Rc::clone(&tally) };
        let start = Instant::now();
        let cpu0 = cpu_ms();
        let Ok(mut ex) =
            Explorer::new(&a.program, &a.info, &t, config, Box::new(timed), Box::new(Wall(start)))
        else {
            continue;
        };
        ex.run_to_end();
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let cpu = cpu_ms() - cpu0;
        let tl = tally.borrow();
        let sms = tl.nanos as f64 / 1e6;
        let c = ex.solver_counts();
        let s = ex.stats();
        let known = ex.answer_counts();
        let stopped = ex.stopped().map_or("-".to_string(), |b| format!("{b:?}"));
        println!(
            "| {file} | {t} | {ms:.0} | {cpu:.0} | {stopped} | {} | {} | {} | {:.1} | {:.0} | {:.0} | {:.0} | {} / {} / {} + {} | {} | {} |",
            s.feasible + s.infeasible + s.bounded,
            tl.queries,
            tl.unsat,
            tl.conjuncts as f64 / tl.queries.max(1) as f64,
            sms,
            tl.unsat_nanos as f64 / 1e6,
            ms - sms,
            known.repeated,
            known.unsat_subset,
            known.model,
            known.repaired,
            c.sent,
            c.decided_locally,
        );
    }
}
