//! What makes a Z3 call cheaper, measured on the query corpus with a native `z3 -in` process:
//! one script per call (today's transport), batches of scripts per call
//! ([`heaplab_smt::batch_script`]), and incremental solving along a path (the query's prefix
//! asserted once, only its last conjunct pushed and checked). Prints a markdown table.
//!
//! Usage: `cargo run --release -p heaplab-smt --example z3_call_costs -- [CORPUS] [N]`
//! (default: `crates/heaplab-smt/tests/corpus/queries.jsonl`, all queries).
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use heaplab_smt::print::write_term;
use heaplab_smt::{batch_script, build_script, parse_sort, parse_term, quote_symbol, Term, Var};

/// A bare `z3 -in` driver: write text, read lines up to a sentinel.
struct Z3 {
    _child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Z3 {
    fn start() -> Z3 {
        let mut child = Command::new("z3")
            .arg("-in")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("z3 on PATH");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Z3 { _child: child, stdin, stdout }
    }

    /// Sends `text`, then waits for the sentinel; returns the time of the round trip.
    fn round_trip(&mut self, text: &str) -> Duration {
        let start = Instant::now();
        write!(self.stdin, "{text}\n(echo \"cost-done\")\n").unwrap();
        self.stdin.flush().unwrap();
        let mut line = String::new();
        loop {
            line.clear();
            self.stdout.read_line(&mut line).unwrap();
            if line.trim() == "cost-done" || line.is_empty() {
                return start.elapsed();
            }
        }
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or("crates/heaplab-smt/tests/corpus/queries.jsonl".into());
    let limit: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(usize::MAX);
    let text = std::fs::read_to_string(&path).expect("the corpus");
    let queries: Vec<(Vec<Var>, Vec<Term>)> = text
        .lines()
        .take(limit)
        .map(|l| {
            let j: serde_json::Value = serde_json::from_str(l).unwrap();
            let vars: Vec<Var> = j["vars"]
                .as_object()
                .unwrap()
                .iter()
                .map(|(n, s)| Var::new(n.clone(), parse_sort(s.as_str().unwrap()).unwrap()))
                .collect();
            let terms = j["assert"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| parse_term(a.as_str().unwrap(), &vars).unwrap())
                .collect();
            (vars, terms)
        })
        .collect();
    let scripts: Vec<String> = queries.iter().map(|(_, t)| build_script(t, &[], 10_000)).collect();
    let n = scripts.len();
    let mut z3 = Z3::start();
    z3.round_trip("(check-sat)");

    // The machine is shared: every configuration runs `ROUNDS` times, interleaved, and the
    // fastest round counts.
    const ROUNDS: usize = 3;
    let one = |s: &str| format!("(push 1)\n{s}\n(pop 1)");
    let mut best = [Duration::MAX; 5];
    let mut m = 0;
    for _ in 0..ROUNDS {
        let t: Duration = scripts.iter().map(|s| z3.round_trip(&one(s))).sum();
        best[0] = best[0].min(t);
        for (k, size) in [(1, 8), (2, 64)] {
            let t: Duration = scripts.chunks(size).map(|c| z3.round_trip(&batch_script(c))).sum();
            best[k] = best[k].min(t);
        }
        let (full, incr, count) = incremental(&mut z3, &queries, &scripts);
        best[3] = best[3].min(full);
        best[4] = best[4].min(incr);
        m = count;
    }
    let rows = [
        ("one script per call", n, best[0]),
        ("batches of 8 per call", n.div_ceil(8), best[1]),
        ("batches of 64 per call", n.div_ceil(64), best[2]),
    ];
    let (full, incr) = (best[3], best[4]);
    println!(
        "| {n} corpus queries, native z3 (best of {ROUNDS}) | calls | total ms | ms per query |"
    );
    println!("|---|---|---|---|");
    for (what, calls, t) in rows {
        let ms = t.as_secs_f64() * 1000.0;
        println!("| {what} | {calls} | {ms:.1} | {:.3} |", ms / n as f64);
    }
    let (f, i) = (full.as_secs_f64() * 1000.0, incr.as_secs_f64() * 1000.0);
    println!(
        "| whole query (for the incremental comparison) | {m} | {f:.1} | {:.3} |",
        f / m as f64
    );
    println!(
        "| incremental: prefix asserted before, last conjunct pushed | {m} | {i:.1} | {:.3} |",
        i / m as f64
    );
}

/// Times each query whole and incrementally (the prefix, all conjuncts but the last, asserted
/// outside the timing); returns both totals and the number of queries.
fn incremental(
    z3: &mut Z3,
    queries: &[(Vec<Var>, Vec<Term>)],
    scripts: &[String],
) -> (Duration, Duration, usize) {
    let one = |s: &str| format!("(push 1)\n{s}\n(pop 1)");
    let (mut full, mut incr, mut m) = (Duration::ZERO, Duration::ZERO, 0);
    for ((vars, terms), script) in queries.iter().zip(scripts) {
        let Some((last, prefix)) = terms.split_last() else { continue };
        m += 1;
        full += z3.round_trip(&one(script));
        let mut setup = String::from("(push 1)\n");
        for v in vars {
            setup.push_str(&format!(
                "(declare-fun {} () {})\n",
                quote_symbol(&v.name),
                v.sort.smt_name()
            ));
        }
        for p in prefix {
            setup.push_str("(assert ");
            write_term(&mut setup, p);
            setup.push_str(")\n");
        }
        z3.round_trip(&setup);
        let mut step = String::from("(push 1)\n(assert ");
        write_term(&mut step, last);
        step.push_str(")\n(check-sat)\n(pop 1)");
        incr += z3.round_trip(&step);
        z3.round_trip("(pop 1)");
    }
    (full, incr, m)
}
