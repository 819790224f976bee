//! Replays a query dump (`heaplab bench --dump-queries FILE`, the format of
//! `tests/corpus/queries.jsonl`) through the Rust procedure alone: how many it decides, why the
//! others are outside its fragment, its CPU time over all of them and the slowest queries. For
//! measuring changes to `lia` on the queries a run really asks (no Z3 involved).
//!
//! `cargo run --release -p heaplab-smt --example lia_replay -- FILE [FROM] [--splits N]
//! [--outside]`
//!
//! `FROM` keeps the queries whose `from` (the run that first sent them) contains it;
//! `--splits` sets the procedure's theory-check budget (default: `Limits::default()`'s);
//! `--outside` also prints the line of each query the procedure leaves to Z3.

use heaplab_smt::lia::{self, Decision, Limits};
use heaplab_smt::{parse_sort, parse_term, Term, Var};
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::time::Instant;

/// CPU time of this thread in milliseconds (Linux `schedstat`; 0 elsewhere).
fn cpu_ms() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse::<f64>().ok()))
        .map_or(0.0, |ns| ns / 1e6)
}

/// The assertions of one dumped query.
fn query(line: &str) -> Option<(String, Vec<Term>)> {
    let j: Json = serde_json::from_str(line).ok()?;
    let vars: Vec<Var> = j["vars"]
        .as_object()?
        .iter()
        .map(|(n, s)| Some(Var::new(n.clone(), parse_sort(s.as_str()?).ok()?)))
        .collect::<Option<_>>()?;
    let assertions = j["assert"]
        .as_array()?
        .iter()
        .map(|a| parse_term(a.as_str()?, &vars).ok())
        .collect::<Option<_>>()?;
    Some((j["from"].as_str().unwrap_or("").to_string(), assertions))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: lia_replay FILE [FROM] [--splits N] [--outside]");
        return;
    };
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut limits = Limits::default();
    let mut from = String::new();
    let mut list_outside = false;
    let mut rest = args[1..].iter();
    while let Some(a) = rest.next() {
        match a.as_str() {
            "--splits" => limits.splits = rest.next().and_then(|n| n.parse().ok()).unwrap_or(64),
            "--outside" => list_outside = true,
            other => from = other.to_string(),
        }
    }
    let queries: Vec<(usize, Vec<Term>)> = text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| query(l).map(|q| (i + 1, q)))
        .filter(|(_, (f, _))| f.contains(&from))
        .map(|(i, (_, a))| (i, a))
        .collect();
    let mut outside: BTreeMap<String, usize> = BTreeMap::new();
    let (mut sat, mut unsat) = (0, 0);
    let mut slowest = Vec::new();
    let cpu0 = cpu_ms();
    for (line, a) in &queries {
        let t = Instant::now();
        match lia::decide_with(a, &[], limits) {
            Decision::Sat(_) => sat += 1,
            Decision::Unsat => unsat += 1,
            Decision::Outside(why) => {
                if list_outside {
                    println!("outside: line {line} ({why})");
                }
                *outside.entry(why).or_default() += 1;
            }
        }
        slowest.push((t.elapsed().as_secs_f64() * 1000.0, *line, a.len()));
    }
    let cpu = cpu_ms() - cpu0;
    println!(
        "{} queries: {sat} sat, {unsat} unsat, outside {outside:?}; {cpu:.0} ms CPU",
        queries.len()
    );
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (ms, line, n) in slowest.iter().take(5) {
        println!("  line {line}: {ms:.2} ms wall, {n} conjuncts");
    }
}
