//! Native half of `./build.sh bench` (see `tests/bench/run.sh`).
//!
//! Generates a fixed batch of path-condition-shaped queries (reference (dis)equalities and
//! integer comparisons, sat and unsat), writes it as JSON for the wasm half, runs it through
//! `SolverFrontend` over a `z3` process and prints one JSON line of measurements.
//!
//! Usage: `cargo run --release -p heaplab-smt --example bench_solver -- [--emit FILE] [--n N]`

use std::collections::BTreeSet;
use std::time::Instant;

use heaplab_smt::{
    block_on, Answer, Query, SmtSolver, Solver, SolverFrontend, Term, Var, Z3Process,
};

/// A small deterministic generator, so both backends see the same batch on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

fn literal(rng: &mut Lcg, refs: &[Var], ints: &[Var]) -> Term {
    let pick = |rng: &mut Lcg, vs: &[Var]| vs[rng.below(vs.len() as u64) as usize].term();
    let c = rng.below(20) as i64 - 5;
    match rng.below(8) {
        0 => Term::ne(pick(rng, refs), Term::Null),
        1 => Term::eq(pick(rng, refs), pick(rng, refs)),
        2 => Term::ne(pick(rng, refs), pick(rng, refs)),
        3 => Term::lt(pick(rng, ints), pick(rng, ints)),
        4 => Term::ge(pick(rng, ints), c),
        5 => Term::eq(pick(rng, ints), Term::add([pick(rng, ints), Term::Int(c)])),
        6 => Term::le(Term::add([pick(rng, ints), pick(rng, ints)]), c),
        _ => Term::implies(Term::eq(pick(rng, refs), Term::Null), Term::gt(pick(rng, ints), c)),
    }
}

/// Query `i` of the batch: 3 to 7 literals, as a path condition grows along a path.
fn batch(n: usize) -> Vec<(Vec<Var>, Query)> {
    let mut rng = Lcg(0x04ea_91ab);
    (0..n)
        .map(|i| {
            let refs: Vec<Var> = (0..4).map(|k| Var::reference(format!("p{k}_{i}"))).collect();
            let ints: Vec<Var> = (0..3).map(|k| Var::int(format!("x{k}_{i}"))).collect();
            let len = 3 + rng.below(5);
            let lits: Vec<Term> = (0..len).map(|_| literal(&mut rng, &refs, &ints)).collect();
            let mut used = BTreeSet::new();
            lits.iter().for_each(|t| t.collect_vars(&mut used));
            let vars: Vec<Var> = used.into_iter().collect();
            (vars.clone(), Query::new(lits).want(vars))
        })
        .collect()
}

fn to_json(batch: &[(Vec<Var>, Query)]) -> String {
    let mut out = String::from("[\n");
    for (i, (vars, q)) in batch.iter().enumerate() {
        let vars: Vec<String> =
            vars.iter().map(|v| format!("\"{}\": \"{:?}\"", v.name, v.sort)).collect();
        let asserts: Vec<String> = q.assertions.iter().map(|t| format!("\"{t}\"")).collect();
        let sep = if i + 1 < batch.len() { "," } else { "" };
        out.push_str(&format!(
            "  {{ \"vars\": {{ {} }}, \"assert\": [{}] }}{sep}\n",
            vars.join(", "),
            asserts.join(", ")
        ));
    }
    out.push_str("]\n");
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1));
    let n: usize = arg("--n").map(|s| s.parse()).transpose()?.unwrap_or(200);
    let queries = batch(n);
    if let Some(path) = arg("--emit") {
        std::fs::write(path, to_json(&queries))?;
    }
    let process = Z3Process::default();
    process.start()?;
    let solver = SolverFrontend::new(SmtSolver::new(process));
    let (mut sat, mut unsat) = (0, 0);
    let start = Instant::now();
    for (_, q) in &queries {
        match block_on(solver.check(q))? {
            Answer::Sat(_) => sat += 1,
            Answer::Unsat => unsat += 1,
            Answer::Unknown(r) => return Err(format!("unexpected unknown: {r}").into()),
        }
    }
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let s = solver.stats();
    println!(
        "{{\"backend\":\"native (z3 process)\",\"queries\":{n},\"sat\":{sat},\"unsat\":{unsat},\"totalMs\":{ms:.3},\"solverCalls\":{},\"decidedLocally\":{},\"cacheHits\":{},\"solverTimeMs\":{:.3}}}",
        s.solver_calls, s.decided_locally, s.cache_hits, s.solver_time_ms
    );
    Ok(())
}
