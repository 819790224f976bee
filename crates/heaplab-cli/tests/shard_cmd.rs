//! `heaplab run --shard I/N` and `heaplab merge`: the three shards of a run, merged, give the
//! unsharded run's summary (paths by kind, tests, invalid inputs, errors, coverage, bounds,
//! the errors found), under every strategy with an explorer tree; each shard explores only part
//! of the tree; wrong sets of shards are refused with a message.

mod common;

use common::{heaplab, text, workspace_root};
use serde_json::Value;
use std::path::PathBuf;

fn run_json(file: &str, method: &str, strategy: &str, k: &str, shard: Option<&str>) -> Value {
    let path = workspace_root().join(file);
    let path = path.to_str().expect("utf-8 path");
    let mut args =
        vec!["run", path, "--method", method, "--strategy", strategy, "--k", k, "--format", "json"];
    if let Some(s) = shard {
        args.extend(["--shard", s]);
    }
    let out = heaplab(&args);
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{file} {method} {strategy} {shard:?}: {}",
        text(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("run prints JSON")
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("heaplab-shard-{}-{name}", std::process::id()))
}

fn merge(parts: &[Value], tag: &str) -> std::process::Output {
    let files: Vec<PathBuf> = parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let f = temp(&format!("{tag}-{i}.json"));
            std::fs::write(
                &f,
                serde_json::to_string(p).expect("the shard test's own files and JSON"),
            )
            .expect("the shard test's own files and JSON");
            f
        })
        .collect();
    let mut args = vec!["merge", "--format", "json"];
    args.extend(files.iter().map(|f| f.to_str().expect("the shard test's own files and JSON")));
    let out = heaplab(&args);
    for f in files {
        let _ = std::fs::remove_file(f);
    }
    out
}

/// The errors found, without the generated tests' names (numbered per shard).
fn findings(v: &Value) -> Vec<String> {
    let mut out: Vec<String> = v["findings"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| {
                    format!(
                        "{} {}:{} valid={} breaks={}",
                        f["kind"], f["line"], f["column"], f["valid_input"], f["breaks_contract"]
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Keys that are the run's results, not its cost: states, solver calls and time grow with the
/// prefix every shard explores.
// `feasibility` is left out of a merged summary (docs/cli.md: no shard can prove a direction
// infeasible for the whole run); the test checks it is null there.
const COST: &[&str] = &["states", "solver_calls", "time_ms", "findings", "shard", "feasibility"];

#[test]
fn three_shards_merged_are_the_whole_run() {
    let cases = [
        ("examples/bst.hl", "BST.insert", "2"),
        ("examples/sll.hl", "SLL.insert", "3"),
        ("examples/underflow.hl", "Stack.popPair", "2"),
        ("examples/treemap.hl", "TreeMap.put", "2"),
    ];
    let mut split_somewhere = false;
    for (file, method, k) in cases {
        for strategy in ["lazy", "lazier", "lazier#", "sl", "symheap"] {
            let whole = run_json(file, method, strategy, k, None);
            let parts: Vec<Value> = (1..=3)
                .map(|i| run_json(file, method, strategy, k, Some(&format!("{i}/3"))))
                .collect();
            let out = merge(&parts, "ok");
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
            let merged: Value = serde_json::from_slice(&out.stdout).expect("merge prints JSON");
            let case = format!("{file} {method} {strategy}");
            for (key, value) in whole.as_object().expect("the shard test's own files and JSON") {
                if !COST.contains(&key.as_str()) {
                    assert_eq!(&merged[key], value, "{case}: `{key}`");
                }
            }
            assert_eq!(findings(&merged), findings(&whole), "{case}: findings");
            assert!(merged.get("shard").is_none(), "{case}: a merged summary is whole");
            assert!(merged["feasibility"].is_null(), "{case}: feasibility is not merged");
            let paths =
                |v: &Value| v["paths"].as_u64().expect("the shard test's own files and JSON");
            assert!(paths(&whole) > 0, "{case}");
            // A slice's paths are its own: their sum is the whole run's (checked above); a tree
            // large enough to split gives every shard less than all of it.
            if paths(&whole) >= 60 && parts.iter().all(|p| paths(p) < paths(&whole)) {
                split_somewhere = true;
            }
            for (i, p) in parts.iter().enumerate() {
                assert_eq!(p["shard"]["index"], i as u64 + 1, "{case}");
                assert_eq!(p["shard"]["count"], 3, "{case}");
            }
        }
    }
    assert!(split_somewhere, "no run was split between the shards");
}

#[test]
fn wrong_sets_of_shards_are_refused() {
    let (file, method) = ("examples/bst.hl", "BST.insert");
    let parts: Vec<Value> =
        (1..=3).map(|i| run_json(file, method, "lazier#", "2", Some(&format!("{i}/3")))).collect();

    let out = merge(&parts[..2], "missing");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("shards missing: 3/3"), "{}", text(&out.stderr));

    let twice = [parts[0].clone(), parts[0].clone(), parts[1].clone()];
    let out = merge(&twice, "twice");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("shard 1/3 is given twice"), "{}", text(&out.stderr));

    let other = run_json(file, method, "sl", "2", Some("3/3"));
    let out = merge(&[parts[0].clone(), parts[1].clone(), other], "other");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("strategy is `sl`"), "{}", text(&out.stderr));

    let whole = run_json(file, method, "lazier#", "2", None);
    let out = merge(&[whole], "whole");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a slice"), "{}", text(&out.stderr));

    let path = workspace_root().join(file);
    for bad in ["0/3", "4/3", "1/0", "two"] {
        let out = heaplab(&[
            "run",
            path.to_str().expect("the shard test's own files and JSON"),
            "--method",
            method,
            "--shard",
            bad,
        ]);
        assert_eq!(out.status.code(), Some(2), "--shard {bad}");
        assert!(text(&out.stderr).contains("is not a shard"), "{}", text(&out.stderr));
    }
    let out = heaplab(&[
        "run",
        path.to_str().expect("the shard test's own files and JSON"),
        "--method",
        method,
        "--strategy",
        "concolic",
        "--shard",
        "1/2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("concolic"), "{}", text(&out.stderr));
}

#[test]
fn a_sharded_bench_merges_into_the_whole_bench() {
    let suite = temp("suite");
    std::fs::create_dir_all(&suite).expect("the shard test's own files and JSON");
    for f in ["bst.hl", "sll.hl"] {
        std::fs::copy(workspace_root().join("examples").join(f), suite.join(f))
            .expect("the shard test's own files and JSON");
    }
    let bench = |shard: Option<&str>| -> Value {
        let mut args = vec![
            "bench",
            "--suite",
            suite.to_str().expect("the shard test's own files and JSON"),
            "--strategies",
            "lazy,lazier#,sl",
            "--timeout-ms",
            "60000",
            "--format",
            "json",
        ];
        if let Some(s) = shard {
            args.extend(["--shard", s]);
        }
        let out = heaplab(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        serde_json::from_slice(&out.stdout).expect("bench prints JSON")
    };
    let whole = bench(None);
    let parts: Vec<Value> = (1..=3).map(|i| bench(Some(&format!("{i}/3")))).collect();
    let out = merge(&parts, "bench");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let merged: Value = serde_json::from_slice(&out.stdout).expect("merge prints JSON");
    let rows = |v: &Value| -> Vec<String> {
        v["rows"]
            .as_array()
            .expect("the shard test's own files and JSON")
            .iter()
            .map(|r| {
                let s = &r["summary"];
                format!(
                    "{} {} {} {} paths={} tests={} invalid={} covered={}",
                    r["item"],
                    s["file"],
                    s["method"],
                    s["strategy"],
                    s["paths"],
                    s["tests"],
                    s["invalid_inputs"],
                    s["branches_covered"]
                )
            })
            .collect()
    };
    assert!(rows(&whole).len() >= 9, "{:?}", rows(&whole));
    assert_eq!(rows(&merged), rows(&whole));
    // Each slice holds every third row.
    for (i, p) in parts.iter().enumerate() {
        for r in p["rows"].as_array().expect("the shard test's own files and JSON") {
            assert_eq!(
                r["item"].as_u64().expect("the shard test's own files and JSON") % 3,
                i as u64
            );
        }
    }
    let _ = std::fs::remove_dir_all(&suite);
}
