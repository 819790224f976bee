//! The Java examples (`examples/java/*.java`, twins of six `.hl` subjects with the same classes
//! and methods) explore exactly as their `.hl` twins: `heaplab bench --suite examples/java` and
//! the bench of the twins give, on every row they share, the same paths, tests, invalid inputs
//! and branch coverage under every strategy the bench runs; and `concolic` agrees on a sample.
//! So the Java front end's lowering keeps every branch of the code it reads.
//!
//! CI runs it at k = 1; `HEAPLAB_TWINS_K=2` runs the bench's default bound (about a minute in
//! a release build).

mod common;
use common::{heaplab, text, workspace_root};
use std::collections::BTreeMap;

/// The `.hl` twins of `examples/java/*.java`.
const TWINS: &[&str] = &["bst.hl", "sll.hl", "stack.hl", "avl.hl", "treemap.hl", "aatree.hl"];

type Row = (u64, u64, u64, u64, u64);

fn bench_rows(suite: &str, k: &str) -> BTreeMap<(String, String), Row> {
    let out = heaplab(&[
        "bench",
        "--suite",
        suite,
        "--k",
        k,
        "--timeout-ms",
        "600000",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "bench --suite {suite}: {}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("bench JSON");
    let mut rows = BTreeMap::new();
    for r in doc["rows"].as_array().expect("rows") {
        let s = &r["summary"];
        let n = |k: &str| s[k].as_u64().unwrap_or(u64::MAX);
        let key = (
            s["method"].as_str().unwrap_or("").to_string(),
            s["strategy"].as_str().unwrap_or("").to_string(),
        );
        rows.insert(
            key,
            (
                n("paths"),
                n("tests"),
                n("invalid_inputs"),
                n("branches_covered"),
                n("branches_total"),
            ),
        );
    }
    rows
}

#[test]
fn java_twins_explore_as_their_hl_twins() {
    let k = std::env::var("HEAPLAB_TWINS_K").unwrap_or_else(|_| "1".into());
    let dir = std::env::temp_dir().join(format!("heaplab-twins-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    for t in TWINS {
        std::fs::copy(workspace_root().join("examples").join(t), dir.join(t)).expect("copy twin");
    }
    let java = bench_rows("examples/java", &k);
    let hl = bench_rows(dir.to_str().expect("utf-8 path"), &k);
    let _ = std::fs::remove_dir_all(&dir);
    let mut shared = 0;
    let mut differ = Vec::new();
    for (key, row) in &java {
        let Some(twin) = hl.get(key) else { continue };
        shared += 1;
        if row != twin {
            differ.push(format!("{} {}: java {row:?}, hl {twin:?}", key.0, key.1));
        }
    }
    let strategies: std::collections::BTreeSet<&str> =
        java.keys().map(|(_, s)| s.as_str()).collect();
    assert!(strategies.len() >= 5, "the bench ran only {strategies:?}");
    assert!(shared >= 150, "only {shared} rows shared: are the twins' names the same?");
    assert!(
        differ.is_empty(),
        "{} of {shared} shared rows differ (paths, tests, invalid, covered, total):\n{}",
        differ.len(),
        differ.join("\n")
    );
}

#[test]
fn concolic_agrees_on_a_sample_of_the_twins() {
    let summary = |file: &str, method: &str| {
        let out = heaplab(&[
            "run",
            file,
            "--method",
            method,
            "--strategy",
            "concolic",
            "--k",
            "1",
            "--timeout-ms",
            "600000",
            "--format",
            "json",
        ]);
        assert!(out.status.success(), "{file} {method}: {}", text(&out.stderr));
        let s: serde_json::Value = serde_json::from_slice(&out.stdout).expect("run JSON");
        ["tests", "invalid_inputs", "branches_covered", "branches_total"].map(|k| s[k].as_u64())
    };
    for (java, hl, method) in [
        ("examples/java/BST.java", "examples/bst.hl", "BST.findMin"),
        ("examples/java/Stack.java", "examples/stack.hl", "Stack.topAndPop"),
        ("examples/java/SLL.java", "examples/sll.hl", "SLL.remove"),
    ] {
        assert_eq!(summary(java, method), summary(hl, method), "{method} under concolic");
    }
}
