//! Where a symheap run spends its time: per method of an example file, the run's wall time,
//! the path-condition queries that reached the path solver (count, conjuncts, time inside) and
//! the time outside it (the heap model and the executor).
//!
//! `cargo run --release -p heaplab-engine --example symprof -- examples/avl.hl [Method] [secs]`

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
    seen: std::collections::HashSet<Vec<usize>>,
    repeats: u64,
}

struct Timed {
    inner: Box<dyn PathSolver>,
    tally: Rc<RefCell<Tally>>,
}

impl PathSolver for Timed {
    fn check_with_model(&mut self, c: &[Sym], v: &[(u32, Sort)]) -> (SatAnswer, Option<Model>) {
        let t = Instant::now();
        let r = self.inner.check_with_model(c, v);
        let mut tally = self.tally.borrow_mut();
        tally.queries += 1;
        let key: Vec<usize> = c.iter().map(|s| s.addr()).collect();
        if !tally.seen.insert(key) {
            tally.repeats += 1;
        }
        tally.conjuncts += c.len() as u64;
        tally.nanos += t.elapsed().as_nanos();
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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = &args[0];
    let text = std::fs::read_to_string(path).expect("file");
    let a = analyze(&SourceFile::new(path.clone(), text));
    let secs: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let mut targets = a.program.targets();
    if let Some(m) = args.get(1).filter(|m| *m != "all") {
        targets.retain(|t| t == m || t.ends_with(&format!(".{m}")));
    }
    println!("| method | ms | stopped | paths | queries | conj/q | solver ms | outside ms | z3 sent | local | repeats |");
    for t in targets {
        let mut config = Config::default();
        config.strategy = StrategyKind::Symheap;
        config.bounds.k = 2;
        config.pre = PreMode::Assume;
        config.bounds.timeout_ms = Some(secs * 1000);
        config.bounds.max_paths = 3_000;
        config.bounds.max_states = 20_000;
        let tally = Rc::new(RefCell::new(Tally::default()));
        let solver = SmtPathSolver::new(SmtSolver::new(Z3Process::new(ProcessConfig::default())));
        let timed = Timed { inner: Box::new(solver), tally: Rc::clone(&tally) };
        let start = Instant::now();
        let Ok(mut ex) =
            Explorer::new(&a.program, &a.info, &t, config, Box::new(timed), Box::new(Wall(start)))
        else {
            continue;
        };
        ex.run_to_end();
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let tl = tally.borrow();
        let sms = tl.nanos as f64 / 1e6;
        let c = ex.solver_counts();
        println!(
            "| {t} | {ms:.0} | {:?} | {} | {} | {:.1} | {sms:.0} | {:.0} | {} | {} | {} |",
            ex.stopped(),
            ex.paths().len(),
            tl.queries,
            tl.conjuncts as f64 / tl.queries.max(1) as f64,
            ms - sms,
            c.sent,
            c.decided_locally,
            tl.repeats,
        );
    }
}
