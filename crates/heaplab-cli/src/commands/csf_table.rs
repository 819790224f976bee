//! `heaplab csf-table`: CSF's Table 1 (papers 001/002, digest seed-001-002 §7.4) next to
//! HeapLab's `concolic` on the same subjects, as a markdown table (issue 16).
//!
//! For each subject CSF evaluated that `examples/` holds, every method with a `requires` (or,
//! where the file has more, those that are CSF's) is run under `concolic` at CSF's Experiment 1 settings (phase-1 depth 1, then the concolic loop),
//! each capped in time. A row sums the subject's methods: tests, tests with an invalid input
//! (the model checker, never the generator, decides), branch directions covered by valid inputs
//! over all directions at the explorer's branch sites (infeasible ones included, which CSF
//! excludes), the same for `sl` at its default bounds (the reference), phase-1 / phase-2 solver
//! calls (CSF's `#Calls`) and time. CSF's numbers are the
//! paper's, copied as printed. `--into docs/symbolic.md` (what `./build.sh bench` runs) puts the
//! table between two marker lines of that document, so the table lives in one place.

use super::{load, WallClock};
use anyhow::Context;
use heaplab_engine::symbolic::{Clock, Config, Explorer, PreMode, SmtPathSolver, StrategyKind};
use heaplab_logic::SmtOracle;
use heaplab_smt::{SmtSolver, Z3Process};
use heaplab_testgen::concolic::{self, ConcolicConfig};
use heaplab_testgen::coverage::{branches_taken, Lines};
use heaplab_testgen::{feasible, minimize};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The folder holding the examples.
    #[arg(long, default_value = "examples")]
    examples: PathBuf,
    /// Cap per method in milliseconds (phase 1 and the concolic loop together).
    #[arg(long, default_value_t = 10_000)]
    timeout_ms: u64,
    /// Phase-1 unfolding depth (CSF's Experiment 1 uses 1).
    #[arg(long, default_value_t = 1)]
    depth: u32,
    /// Every method's unfolding budget, instead of CSF's per-method `star.max_depth`.
    #[arg(long, value_name = "N")]
    max_unfold: Option<u32>,
    /// Each node tried with its whole budget at once (CSF's way), instead of 1 first and
    /// deeper only where the budget cut its formulas.
    #[arg(long)]
    no_deepening: bool,
    /// Write to this file instead of stdout.
    #[arg(long, conflicts_with = "into")]
    out: Option<PathBuf>,
    /// Put the table into this markdown file, between the lines `<!-- csf-table:begin -->` and
    /// `<!-- csf-table:end -->` (what `./build.sh bench` does to docs/symbolic.md); the rest of
    /// the file is kept as it is.
    #[arg(long)]
    into: Option<PathBuf>,
    /// The z3 executable.
    #[arg(long, default_value = "z3")]
    z3: String,
}

/// One of CSF's Table 1 rows: subject, tests, coverage (%), phase-1 / phase-2 calls, time (s).
struct CsfRow {
    subject: &'static str,
    file: &'static str,
    /// The methods of `file` that are CSF's (digest §7.2), as `Class.method`; empty: every
    /// method with a `requires`.
    methods: &'static [&'static str],
    tests: u32,
    cov: u32,
    calls: (u32, u32),
    time_s: u32,
}

/// CSF's Table 1, the subjects HeapLab's examples have (Experiment 1), as the paper prints them.
const CSF: &[CsfRow] = &[
    CsfRow {
        subject: "BST",
        file: "bst.hl",
        methods: &[],
        tests: 47,
        cov: 100,
        calls: (16, 33),
        time_s: 14,
    },
    CsfRow {
        subject: "AVL",
        file: "avl.hl",
        methods: &[],
        tests: 62,
        cov: 100,
        calls: (36, 654),
        time_s: 274,
    },
    CsfRow {
        subject: "AAT",
        file: "aatree.hl",
        methods: &[],
        tests: 46,
        cov: 99,
        calls: (21, 352),
        time_s: 277,
    },
    CsfRow {
        subject: "RBT",
        file: "treemap.hl",
        methods: &[],
        tests: 133,
        cov: 99,
        calls: (14, 1106),
        time_s: 2403,
    },
    // CSF's DLL (SIR's DoubleLinkedList, the JDK's LinkedList with `Object` elements) is
    // dll.hl; its `addI` / `removeI` are dll.hl's `addAt` / `removeAt` (peek and poll are not
    // CSF's).
    CsfRow {
        subject: "DLL",
        file: "dll.hl",
        methods: &DLL_METHODS,
        tests: 75,
        cov: 100,
        calls: (40, 58),
        time_s: 32,
    },
    // CSF's SLL is SIR's MyLinkedList with its ten methods: mylist.hl.
    CsfRow {
        subject: "SLL",
        file: "mylist.hl",
        methods: &[],
        tests: 29,
        cov: 100,
        calls: (21, 8),
        time_s: 11,
    },
    // CSF's Stack is SIR's StackLi with its eight methods: stackli.hl (stack.hl is the int one).
    CsfRow {
        subject: "Stack",
        file: "stackli.hl",
        methods: &[],
        tests: 18,
        cov: 100,
        calls: (16, 2),
        time_s: 7,
    },
    // CSF's Tll subject is its one method, positiveLeafCount (linkedleaves.hl has two more).
    CsfRow {
        subject: "Tll",
        file: "linkedleaves.hl",
        methods: &["Tll.positiveLeafCount"],
        tests: 6,
        cov: 100,
        calls: (2, 4),
        time_s: 2,
    },
    CsfRow {
        subject: "SUSHI",
        file: "sushi.hl",
        methods: &[],
        tests: 5,
        cov: 100,
        calls: (3, 38),
        time_s: 8,
    },
    CsfRow {
        subject: "Gantt",
        file: "gantt.hl",
        methods: &[],
        tests: 22,
        cov: 100,
        calls: (2, 156),
        time_s: 25,
    },
];

/// CSF's 20 DLL methods (digest §7.2) as dll.hl names them.
const DLL_METHODS: [&str; 20] = [
    "LinkedList.add",
    "LinkedList.addFirst",
    "LinkedList.addAt",
    "LinkedList.addLast",
    "LinkedList.clear",
    "LinkedList.clone",
    "LinkedList.contains",
    "LinkedList.get",
    "LinkedList.getFirst",
    "LinkedList.getLast",
    "LinkedList.inList",
    "LinkedList.indexOf",
    "LinkedList.lastIndexOf",
    "LinkedList.remove",
    "LinkedList.removeFirst",
    "LinkedList.removeAt",
    "LinkedList.removeLast",
    "LinkedList.set",
    "LinkedList.size",
    "LinkedList.toArray",
];

/// CSF's unfolding budget of a method's phase 2 (its artifact's per-method `star.max_depth`,
/// digest §4.6): how often a node's formula may unfold a predicate instance to cover the cells
/// its path reads. 1 for most methods, more for the deep rebalancing ones. The digest names
/// DLL's methods with 2 only as "several", so all of DLL's get 2 (the larger budget).
fn csf_max_unfold(subject: &str, target: &str) -> u32 {
    let method = target.rsplit('.').next().unwrap_or(target);
    match (subject, method) {
        ("BST", "remove") | ("AVL", "insert" | "minElement") | ("RBT", "containsValue") => 2,
        ("DLL", _) => 2,
        ("AAT", "remove") | ("Tll", _) => 3,
        ("RBT", "put" | "remove") | ("Gantt", "rollbackTransaction") => 4,
        ("SUSHI", _) => 5,
        _ => 1,
    }
}

#[derive(Default)]
struct Ours {
    methods: usize,
    tests: usize,
    /// Tests the minimized suite keeps.
    kept: usize,
    invalid: usize,
    covered: usize,
    /// The methods' own directions (specifications left out), those `concolic` covered with
    /// valid inputs, those proved infeasible (by `sl` or `concolic` running complete, or by the
    /// nullness analysis) and
    /// those neither covered nor proved.
    directions: usize,
    own_covered: usize,
    infeasible: usize,
    unknown: usize,
    sl_covered: usize,
    total: usize,
    p1: usize,
    p2: usize,
    stopped: usize,
    time_ms: u64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // The document `--into` writes to, checked before the minutes the table takes.
    let into = match &args.into {
        Some(p) => {
            let doc = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read `{}`", p.display()))?;
            splice(&doc, "").map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
            Some((p, doc))
        }
        None => None,
    };
    let start = || -> anyhow::Result<SmtSolver<Z3Process>> {
        let z3 = super::started_z3(&args.z3)?;
        Ok(SmtSolver::new(z3))
    };
    let logic_z3 = start()?;
    let mut out = String::new();
    // The directions left unknown, named `Subject method line:column then|else`, listed
    // under the table so a reader can check each by hand.
    let mut unknown_named: Vec<String> = Vec::new();
    writeln!(
        out,
        "| Subject | Methods | CSF #Tests | CSF Cov.(%) | CSF #Calls | CSF T(s) | HeapLab #Tests (invalid) | HeapLab kept | HeapLab Cov. | HeapLab Cov. of feasible | `sl` Cov. | HeapLab #Calls | HeapLab T(s) |"
    )?;
    writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")?;
    for row in CSF {
        let path = args.examples.join(row.file);
        let Ok(loaded) = load(&path) else {
            continue;
        };
        anyhow::ensure!(
            !loaded.analysis.has_errors(),
            "`{}` has errors: run heaplab check",
            path.display()
        );
        let program = &loaded.analysis.program;
        let info = &loaded.analysis.info;
        let lines = Lines::new(program, &loaded.file);
        let mut ours = Ours::default();
        let all = targets(program);
        for name in row.methods {
            anyhow::ensure!(
                all.iter().any(|t| t == name),
                "`{}` has no method `{name}` with a `requires`",
                path.display()
            );
        }
        let chosen =
            all.into_iter().filter(|t| row.methods.is_empty() || row.methods.contains(&t.as_str()));
        for target in chosen {
            let mut oracle = SmtOracle::new(&logic_z3);
            // `sl` at the default bounds (its own time bound): the reference column, and the
            // branch sites both rows are counted at.
            let mut config = Config::default();
            config.strategy = StrategyKind::Sl;
            config.pre = PreMode::Assume;
            let sl_start = std::time::Instant::now();
            let mut sites = Explorer::new(
                program,
                info,
                &target,
                config,
                Box::new(SmtPathSolver::new(start()?)),
                Box::new(WallClock::since(sl_start)),
            )
            .map_err(|e| anyhow::anyhow!("{e} (in `{}`)", path.display()))?;
            sites.run_to_end();
            let sl = heaplab_testgen::generate(&mut sites, program, info)
                .with_context(|| format!("sl on `{target}` failed"))?;
            ours.sl_covered +=
                branches_taken(&sites, sl.tests.iter().filter(|t| t.validity.is_valid())).len();
            let budget = args.max_unfold.unwrap_or_else(|| csf_max_unfold(row.subject, &target));
            let cfg = ConcolicConfig {
                depth: args.depth,
                timeout_ms: Some(args.timeout_ms),
                max_unfold: budget,
                first_unfold: if args.no_deepening { budget } else { 1 },
                ..ConcolicConfig::default()
            };
            let clock = WallClock::new();
            let r = concolic::generate(
                program,
                info,
                &target,
                &cfg,
                &mut oracle,
                Box::new(SmtPathSolver::new(start()?)),
                &clock,
            )
            .with_context(|| format!("concolic on `{target}` failed"))?;
            ours.time_ms += clock.elapsed_ms();
            let g = &r.generation;
            let valid = g.tests.iter().filter(|t| t.validity.is_valid());
            // Coverage of the feasible: a direction is proved infeasible when either run was
            // complete and never took it, or the nullness analysis decides it (both runs ask
            // it); what concolic leaves uncovered otherwise is unknown.
            let by_concolic = feasible::of_concolic(program, &sites, g, &r.stats);
            let by_sl = feasible::of_exploration(program, &sites, &sl);
            let infeasible: BTreeSet<_> = by_concolic
                .infeasible
                .union(&by_sl.infeasible)
                .filter(|d| !by_concolic.covered.contains(d))
                .collect();
            ours.directions += by_concolic.directions.len();
            ours.own_covered += by_concolic.covered.len();
            ours.infeasible += infeasible.len();
            ours.unknown +=
                by_concolic.directions.len() - by_concolic.covered.len() - infeasible.len();
            for (site, then) in by_concolic.unknown.iter().filter(|d| !infeasible.contains(d)) {
                let (line, column) = lines.at(*site).unwrap_or((0, 0));
                let side = if *then { "then" } else { "else" };
                unknown_named.push(format!("{} `{target}` {line}:{column} {side}", row.subject));
            }
            ours.kept += minimize::cover(&g.tests).len();
            ours.methods += 1;
            ours.tests += g.tests.len();
            ours.invalid += g.invalid_inputs();
            ours.covered += branches_taken(&sites, valid).len();
            ours.total += sites.branch_coverage().1;
            ours.p1 += r.stats.phase1_calls;
            ours.p2 += r.stats.phase2_calls;
            ours.stopped += usize::from(r.stats.stopped_by.is_some());
            eprintln!(
                "{:<6} {target:<28} {} tests, p1/p2 {}/{}, {} ms",
                row.subject,
                g.tests.len(),
                r.stats.phase1_calls,
                r.stats.phase2_calls,
                clock.now_ms()
            );
        }
        writeln!(
            out,
            "| {} | {} | {} | {} | {}/{} | {} | {} ({}) | {} | {}/{} ({:.0}%) | {} | {} | {}/{} | {:.1}{} |",
            row.subject,
            ours.methods,
            row.tests,
            row.cov,
            row.calls.0,
            row.calls.1,
            row.time_s,
            ours.tests,
            ours.invalid,
            ours.kept,
            ours.covered,
            ours.total,
            100.0 * ours.covered as f64 / ours.total.max(1) as f64,
            feasible_cell(&ours),
            ours.sl_covered,
            ours.p1,
            ours.p2,
            ours.time_ms as f64 / 1000.0,
            if ours.stopped > 0 {
                format!(" ({} stopped by a bound)", ours.stopped)
            } else {
                String::new()
            }
        )?;
    }
    writeln!(
        out,
        "\nHeapLab: `concolic` at phase-1 depth {}, {}, {}, at most {} ms and 200 runs per \
         method (\"stopped \
         by a bound\": methods the runs or time bound stopped; CSF stops when no unexplored \
         node is left), on this machine. Coverage counts branch directions covered by valid \
         inputs over all directions at the explorer's branch sites, infeasible ones included \
         (CSF's excludes them). Coverage of feasible counts the methods' own directions \
         (their `ensures` and the functions only specifications call left out) covered by \
         valid inputs over those not proved infeasible; a direction is proved infeasible only \
         when `sl` or `concolic` ran complete (no bound cut a path, no node left unexplored) \
         and never took it, or when the static nullness analysis finds its null test decided \
         by `requires` and the branches before it, and is *unknown* when it is neither \
         covered nor proved, so the \
         percentage is a lower bound while any is unknown. HeapLab kept: the tests a greedy \
         set cover keeps with the same directions and outcomes (`heaplab run --minimize`, the \
         default for `concolic`); #Tests counts every generated test. The `sl` column is `sl` at the default bounds, the directions \
         HeapLab's exhaustive strategy covers with valid inputs. HeapLab's subjects are its \
         own ports (method sets differ from CSF's where the Methods column does; DLL is dll.hl \
         restricted to CSF's 20 methods, SLL is mylist.hl, SIR's MyLinkedList, Stack is \
         stackli.hl, SIR's StackLi, Tll its positiveLeafCount). Generated by `heaplab \
         csf-table` (`./build.sh bench`).",
        args.depth,
        match args.max_unfold {
            Some(n) => format!("an unfolding budget of {n} for every method's phase 2"),
            None => "CSF's per-method unfolding budget of phase 2 (its artifact's \
                     `star.max_depth`: 1, and 2 to 5 for the rebalancing methods, DLL, Tll and \
                     SUSHI)"
                .to_string(),
        },
        if args.no_deepening {
            "each node tried with the whole budget at once (CSF's way)"
        } else {
            "each node tried with 1 unfolding first and one more each time the budget cut its \
             formulas (HeapLab's iterative deepening)"
        },
        args.timeout_ms
    )?;
    if !unknown_named.is_empty() {
        writeln!(
            out,
            "\nUnknown directions (neither covered nor proved infeasible; line:column of the \
             branch in the subject's file): {}.",
            unknown_named.join("; ")
        )?;
    }
    match (&args.out, into) {
        (Some(p), _) => {
            std::fs::write(p, &out).with_context(|| format!("cannot write `{}`", p.display()))?
        }
        (None, Some((p, doc))) => {
            let spliced =
                splice(&doc, &out).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
            std::fs::write(p, spliced).with_context(|| format!("cannot write `{}`", p.display()))?
        }
        (None, None) => print!("{out}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// `covered/feasible (pct%)`, the proved-infeasible count and the unknown one: feasible is
/// every own direction not proved infeasible, so while some are unknown it is an upper bound
/// and the percentage a lower one.
fn feasible_cell(o: &Ours) -> String {
    let feasible = o.directions - o.infeasible;
    let pct = 100.0 * o.own_covered as f64 / feasible.max(1) as f64;
    let mut cell = format!("{}/{feasible} ({pct:.0}%), {} infeasible", o.own_covered, o.infeasible);
    if o.unknown > 0 {
        cell.push_str(&format!(", {} unknown", o.unknown));
    }
    cell
}

/// The line that opens the generated section of a document (`--into`).
pub const BEGIN: &str = "<!-- csf-table:begin -->";
/// The line that closes it.
pub const END: &str = "<!-- csf-table:end -->";

/// `doc` with the lines between its [`BEGIN`] and [`END`] lines replaced by `table`. Each
/// marker must be a line of its own, once, `BEGIN` first; the error names the line at fault.
pub fn splice(doc: &str, table: &str) -> Result<String, String> {
    let at = |marker: &str| -> Result<(usize, usize), String> {
        let mut found = doc.match_indices(marker).filter(|(i, _)| {
            let starts = *i == 0 || doc.as_bytes()[i - 1] == b'\n';
            let rest = &doc[i + marker.len()..];
            starts && (rest.is_empty() || rest.starts_with('\n') || rest.starts_with("\r\n"))
        });
        let Some((i, _)) = found.next() else {
            return Err(format!(
                "no line `{marker}` (the generated table goes between `{BEGIN}` and `{END}`)"
            ));
        };
        let line = doc[..i].matches('\n').count() + 1;
        if let Some((j, _)) = found.next() {
            let again = doc[..j].matches('\n').count() + 1;
            return Err(format!("line {again}: a second `{marker}` (the first is on line {line})"));
        }
        Ok((i, line))
    };
    let (begin, begin_line) = at(BEGIN)?;
    let (end, end_line) = at(END)?;
    if end < begin {
        return Err(format!("line {end_line}: `{END}` comes before `{BEGIN}` (line {begin_line})"));
    }
    let body_start = begin + BEGIN.len();
    let mut out = String::with_capacity(doc.len() + table.len());
    out.push_str(&doc[..body_start]);
    out.push('\n');
    out.push_str(table.trim_end_matches('\n'));
    out.push('\n');
    out.push_str(&doc[end..]);
    Ok(out)
}

/// The methods and functions of `program` that have a `requires`.
fn targets(program: &heaplab_syntax::ast::Program) -> Vec<String> {
    program.targets_with_requires()
}

#[cfg(test)]
mod tests {
    use super::{splice, BEGIN, END};

    #[test]
    fn splice_replaces_only_the_section() {
        let doc = format!("# Title\ntext\n{BEGIN}\nold table\nold note\n{END}\nafter\n");
        let out = splice(&doc, "| a |\n|---|\n").expect("spliced");
        assert_eq!(out, format!("# Title\ntext\n{BEGIN}\n| a |\n|---|\n{END}\nafter\n"));
        // Splicing again is stable: the generated section is the only thing that changes.
        assert_eq!(splice(&out, "| a |\n|---|\n").expect("again"), out);
    }

    #[test]
    fn splice_refuses_missing_repeated_or_reversed_markers() {
        let missing = splice("# no markers\n", "t").expect_err("no markers");
        assert!(missing.contains(BEGIN), "{missing}");
        let twice = splice(&format!("{BEGIN}\n{END}\n{BEGIN}\n"), "t").expect_err("twice");
        assert!(twice.starts_with("line 3:"), "{twice}");
        let reversed = splice(&format!("x\n{END}\n{BEGIN}\n"), "t").expect_err("reversed");
        assert!(reversed.starts_with("line 2:"), "{reversed}");
        // A marker quoted inside a line is not a marker.
        let quoted = splice(&format!("see `{BEGIN}` and `{END}`\n"), "t").expect_err("quoted");
        assert!(quoted.contains("no line"), "{quoted}");
    }
}
