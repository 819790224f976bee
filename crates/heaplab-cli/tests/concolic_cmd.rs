//! `heaplab run --strategy concolic` and the `concolic` row of `heaplab compare` (issue 16):
//! the emitted `.hl` tests pass under `heaplab test` (an independent replay), no input violates
//! `requires`, and the solver column is CSF's `#Calls`.

use std::path::Path;
use std::process::Command;

fn heaplab(args: &[&str]) -> (bool, String, String) {
    heaplab_bin(env!("CARGO_BIN_EXE_heaplab"), args)
}

fn heaplab_bin(bin: &str, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(bin)
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .output()
        .expect("the heaplab binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn run_concolic_emits_valid_tests_that_pass() {
    let dir = std::env::temp_dir().join(format!("heaplab-concolic-{}", std::process::id()));
    let out = dir.to_str().expect("utf-8 temp dir");
    let (ok, stdout, stderr) = heaplab(&[
        "run",
        "examples/sll.hl",
        "--method",
        "SLL.remove",
        "--strategy",
        "concolic",
        "--depth",
        "1",
        "--format",
        "json",
        "--emit",
        "hl",
        "--out",
        out,
    ]);
    assert!(ok, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    assert_eq!(json["strategy"], "concolic");
    assert_eq!(json["invalid_inputs"], 0);
    // sll has two disjuncts: CSF's phase-1 #Calls at depth 1.
    let cc = &json["concolic"];
    assert_eq!(cc["phase1_calls"], 2);
    assert!(cc["phase2_calls"].as_u64().expect("phase2_calls") > 0);
    assert!(json["tests"].as_u64().expect("tests") > cc["phase1_inputs"].as_u64().unwrap_or(0));
    let file = dir.join("sll_SLL_remove_tests.hl");
    let (ok, stdout, stderr) = heaplab(&["test", file.to_str().expect("utf-8")]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stdout.contains(" 0 failed"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_lists_concolic_with_its_phase_calls() {
    let (ok, stdout, stderr) = heaplab(&[
        "compare",
        "examples/sll.hl",
        "--method",
        "SLL.remove",
        "--strategies",
        "sl,concolic",
        "--format",
        "json",
    ]);
    assert!(ok, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    let rows = json["strategies"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    let (sl, cc) = (&rows[0], &rows[1]);
    assert_eq!(cc["strategy"], "concolic");
    assert_eq!(cc["invalid_inputs"], 0);
    assert!(cc["concolic"]["phase1_calls"].as_u64().expect("phase1_calls") > 0);
    assert!(sl["concolic"].is_null());
    let valid = |r: &serde_json::Value| r["branches_covered_valid"].as_u64().expect("covered");
    assert!(valid(cc) >= valid(sl), "concolic covers at least sl's directions on SLL.remove");
}

/// `heaplab csf-table` on a folder holding only the stack (stackli.hl, SIR's StackLi): one row,
/// CSF's numbers as the paper prints them next to ours; at depth 1 phase 1 makes one call per
/// disjunct of `stack` (2) per method, CSF's rule for its `#Calls`; no input is invalid.
#[test]
fn csf_table_puts_csf_row_next_to_ours() {
    let dir = std::env::temp_dir().join(format!("heaplab-csf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::copy("../../examples/stackli.hl", dir.join("stackli.hl")).expect("copy stackli.hl");
    // Written into its section of a document, as `./build.sh bench` does to docs/symbolic.md.
    let doc = dir.join("doc.md");
    let before = "# Doc\n\ntext before\n\n<!-- csf-table:begin -->\nstale\n<!-- csf-table:end -->\n\ntext after\n";
    std::fs::write(&doc, before).expect("write doc");
    let (ok, _, stderr) = heaplab(&[
        "csf-table",
        "--examples",
        dir.to_str().expect("utf-8"),
        "--timeout-ms",
        "5000",
        "--into",
        doc.to_str().expect("utf-8"),
    ]);
    assert!(ok, "{stderr}");
    let written = std::fs::read_to_string(&doc).expect("read doc");
    assert!(written.starts_with("# Doc\n\ntext before\n\n<!-- csf-table:begin -->\n| Subject |"));
    assert!(written.ends_with("<!-- csf-table:end -->\n\ntext after\n"), "{written}");
    assert!(!written.contains("stale"));
    let stdout = written;
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("| Stack |")).collect();
    assert_eq!(rows.len(), 1, "{stdout}");
    let cells: Vec<&str> = rows[0].split('|').map(str::trim).collect();
    // | Stack | methods | CSF tests | CSF cov | CSF calls | CSF T | tests (invalid) | kept | cov |
    //   cov of feasible | sl | calls | T |
    assert_eq!(&cells[3..7], &["18", "100", "16/2", "7"], "CSF's Table 1 row");
    let methods: usize = cells[2].parse().expect("methods");
    assert!(cells[7].ends_with("(0)"), "no invalid input: {}", cells[7]);
    let tests: usize = cells[7].split(' ').next().and_then(|n| n.parse().ok()).expect("tests");
    let kept: usize = cells[8].parse().expect("kept");
    assert!(0 < kept && kept <= tests, "{}", rows[0]);
    assert!(cells[10].contains(" infeasible"), "covered/feasible: {}", cells[10]);
    // The stack reaches every feasible direction: no unknown count, and no list naming one.
    assert!(!cells[10].contains("unknown"), "{}", cells[10]);
    assert!(!stdout.contains("Unknown directions"), "{stdout}");
    let p1: usize = cells[12].split('/').next().and_then(|n| n.parse().ok()).expect("p1 calls");
    assert_eq!(p1, 2 * methods, "one phase-1 call per disjunct of stack per method");
    assert!(!stdout.contains("| BST |"), "only the subjects the folder holds");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--into` a document without the marker lines fails at once, naming the file and the markers,
/// and leaves the document as it was.
#[test]
fn csf_table_into_a_document_without_markers_says_so() {
    let dir = std::env::temp_dir().join(format!("heaplab-csf-nomark-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let doc = dir.join("doc.md");
    std::fs::write(&doc, "# Doc\nno section here\n").expect("write doc");
    let (ok, _, stderr) =
        heaplab(&["csf-table", "--examples", "examples", "--into", doc.to_str().expect("utf-8")]);
    assert!(!ok);
    assert!(stderr.contains("doc.md") && stderr.contains("<!-- csf-table:begin -->"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&doc).expect("read"), "# Doc\nno section here\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The methods and functions of an example that have a `requires`, as `heaplab bench` lists them.
fn targets_with_requires(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("read example");
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("example.hl");
    heaplab_syntax::analyze(&heaplab_syntax::SourceFile::new(name, &text))
        .program
        .targets_with_requires()
}

/// Issue 16's first done-when item, literally: for every example method with a `requires`,
/// `heaplab compare FILE --method M --strategies sl,concolic` (concolic at its default
/// settings: DFS, phase-1 depth 8, fill 0, 10 000 runs, 60 s) must print 0 invalid inputs for
/// `concolic` and `branches_covered_valid` at least `sl`'s. Every test is replayed (a replay
/// mismatch fails the command). Minutes per method at worst, so it runs only with
/// `CONCOLIC_COMPARE_SWEEP=1`, on the release binary:
///
/// `CONCOLIC_COMPARE_SWEEP=1 nice cargo test --release -p heaplab-cli --test concolic_cmd
/// compare_sweep -- --nocapture` (or `tests/bench/concolic-sweep.sh`); `ONLY=file.hl` (comma
/// separated) sweeps those files, `ONLY_METHOD=Class.method` one method. It prints one row per
/// method as it goes and the whole table at the end (also written to
/// `tests/artifacts/concolic-sweep.md`), then fails naming every method that misses.
/// `HEAPLAB_BIN=path` runs another build of the binary (a copy, so that the worktree can be
/// rebuilt while the sweep runs).
#[test]
fn compare_sweep() {
    if std::env::var_os("CONCOLIC_COMPARE_SWEEP").is_none() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let only: Option<Vec<String>> =
        std::env::var("ONLY").ok().map(|o| o.split(',').map(|s| s.trim().to_string()).collect());
    let only_method = std::env::var("ONLY_METHOD").ok();
    let bin = std::env::var("HEAPLAB_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_heaplab").into());
    let mut files: Vec<_> = std::fs::read_dir(root.join("examples"))
        .expect("examples/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hl"))
        .collect();
    files.sort();
    let header = "| file | method | sl br_valid | concolic br_valid | invalid | tests | runs | p1/p2 calls | time (s) | stopped by |\n|---|---|---|---|---|---|---|---|---|---|\n";
    let mut table = String::from(header);
    let mut failures = Vec::new();
    let mut methods = 0;
    eprint!("{header}");
    for path in files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if only.as_ref().is_some_and(|o| !o.contains(&name)) {
            continue;
        }
        for target in targets_with_requires(&path) {
            if only_method.as_ref().is_some_and(|m| *m != target) {
                continue;
            }
            methods += 1;
            let file = format!("examples/{name}");
            let (ok, stdout, stderr) = heaplab_bin(
                &bin,
                &[
                    "compare",
                    &file,
                    "--method",
                    &target,
                    "--strategies",
                    "sl,concolic",
                    "--format",
                    "json",
                ],
            );
            let json: Option<serde_json::Value> =
                if ok { serde_json::from_str(&stdout).ok() } else { None };
            let rows = json.as_ref().and_then(|j| j["strategies"].as_array());
            let (Some(sl), Some(cc)) = (
                rows.and_then(|r| r.iter().find(|r| r["strategy"] == "sl")),
                rows.and_then(|r| r.iter().find(|r| r["strategy"] == "concolic")),
            ) else {
                let why = stderr.lines().last().unwrap_or("no output").to_string();
                let row = format!("| {name} | {target} | error: {why} |||||||\n");
                eprint!("{row}");
                table.push_str(&row);
                failures.push(format!("{name} {target}: {why}"));
                continue;
            };
            let n = |v: &serde_json::Value| v.as_u64().unwrap_or(0);
            let (sl_cov, cc_cov) =
                (n(&sl["branches_covered_valid"]), n(&cc["branches_covered_valid"]));
            let invalid = n(&cc["invalid_inputs"]);
            let total = n(&cc["branches_total"]);
            let stopped = cc["concolic"]["stopped_by"].as_str().unwrap_or("exhausted");
            let row = format!(
                "| {name} | {target} | {sl_cov}/{total} | {cc_cov}/{total} | {invalid} | {} | {} | {}/{} | {:.1} | {stopped} |\n",
                n(&cc["tests"]),
                n(&cc["concolic"]["runs"]),
                n(&cc["concolic"]["phase1_calls"]),
                n(&cc["concolic"]["phase2_calls"]),
                n(&cc["time_ms"]) as f64 / 1000.0,
            );
            eprint!("{row}");
            table.push_str(&row);
            if invalid > 0 || cc_cov < sl_cov {
                failures.push(format!(
                    "{name} {target}: concolic {cc_cov} against sl {sl_cov}, {invalid} invalid"
                ));
            }
        }
    }
    let _ = std::fs::create_dir_all(root.join("tests/artifacts"));
    let _ = std::fs::write(root.join("tests/artifacts/concolic-sweep.md"), &table);
    println!("{table}");
    assert!(methods > 0, "no method matched ONLY / ONLY_METHOD");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A method that returns an array (issue 30): `concolic`'s emitted `.hl` declares the result
/// with its type and passes `heaplab test`; its JUnit export compiles next to the exported
/// classes and every test passes on the JVM.
#[test]
fn array_results_are_emitted_with_their_type() {
    let dir = std::env::temp_dir().join(format!("heaplab-concolic-array-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = |emit: &str| {
        let out = dir.join(emit);
        let out = out.to_str().expect("utf-8 temp dir").to_string();
        let args = ["run", "examples/dll.hl", "--method", "LinkedList.toArray"];
        let (ok, stdout, stderr) = heaplab(
            &[&args[..], &["--strategy", "concolic", "--emit", emit, "--out", &out]].concat(),
        );
        assert!(ok, "{stdout}{stderr}");
        std::path::PathBuf::from(out)
    };
    let hl_dir = run("hl");
    let hl = std::fs::read_dir(&hl_dir).expect("emitted").flatten().map(|e| e.path()).next();
    let hl = hl.expect("a .hl file");
    let source = std::fs::read_to_string(&hl).expect("readable");
    assert!(source.contains("Object[] r = o1.toArray();"), "{source}");
    let (ok, stdout, stderr) = heaplab(&["test", hl.to_str().expect("utf-8")]);
    assert!(ok && stdout.contains(" 0 failed"), "{stdout}{stderr}");

    let junit_dir = run("junit");
    let sources: Vec<_> = walk(&junit_dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    assert!(sources.iter().any(|p| p.ends_with("LinkedListToArrayTest.java")), "{sources:?}");
    let jar = "/usr/share/java/junit-platform-console-standalone.jar";
    let classes = junit_dir.join("classes");
    let javac = Command::new("javac")
        .args(["-nowarn", "-d"])
        .arg(&classes)
        .args(["-cp", jar])
        .args(&sources)
        .output()
        .expect("javac runs (./build.sh setup installs a JDK)");
    assert!(javac.status.success(), "{}", String::from_utf8_lossy(&javac.stderr));
    let java = Command::new("java")
        .args(["-ea", "-jar", jar, "--class-path"])
        .arg(&classes)
        .args(["--scan-class-path", "--disable-banner", "--details=summary"])
        .output()
        .expect("java runs");
    let report = String::from_utf8_lossy(&java.stdout).into_owned();
    assert!(java.status.success() && report.contains(" 0 tests failed"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = entry.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// The program's implicit checks are branches of concolic's constraint tree: a failing
/// `assert` and an overflow are found, as `lazy` finds them, and the emitted tests expect them.
#[test]
fn implicit_checks_are_negated() {
    let file = "crates/heaplab-cli/tests/data/implicit_checks.hl";
    for strategy in ["concolic", "lazy"] {
        let dir = std::env::temp_dir()
            .join(format!("heaplab-implicit-{}-{strategy}", std::process::id()));
        let out = dir.to_string_lossy().into_owned();
        let args =
            ["run", file, "--method", "A.f", "--strategy", strategy, "--emit", "hl", "--out", &out];
        let (ok, stdout, stderr) = heaplab(&args);
        assert!(ok && stdout.contains("errors found: 2"), "{strategy}: {stdout}{stderr}");
        let emitted =
            std::fs::read_dir(&dir).expect("emitted").flatten().next().expect("a file").path();
        let source = std::fs::read_to_string(&emitted).expect("readable");
        for kind in ["assert_failed", "integer_overflow"] {
            assert!(
                source.contains(&format!("expects {kind}")),
                "{strategy}: no {kind} test\n{source}"
            );
        }
        let (ok, stdout, stderr) = heaplab(&["test", emitted.to_str().expect("utf-8")]);
        assert!(ok && stdout.contains(" 0 failed"), "{strategy}: {stdout}{stderr}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `--max-array-length` (declared once in the engine's bound table, read by the concolic loop):
/// insertion sort's constraint tree has a node per array length, so a longer bound gives more
/// runs, tests and covered directions.
#[test]
fn the_array_length_bound_reaches_the_concolic_loop() {
    let run = |n: &str| -> serde_json::Value {
        let out = heaplab(&[
            "run",
            "examples/isortarr.hl",
            "--method",
            "insertionSort",
            "--strategy",
            "concolic",
            "--max-array-length",
            n,
            "--format",
            "json",
        ]);
        let (ok, stdout, stderr) = out;
        assert!(ok, "{stderr}");
        serde_json::from_str(&stdout).expect("JSON")
    };
    let (short, long) = (run("1"), run("3"));
    let n = |v: &serde_json::Value, k: &str| v[k].as_u64().unwrap_or(0);
    // Every generated test, before the default minimization keeps a cover.
    assert!(n(&long, "tests_generated") > n(&short, "tests_generated"), "{short} vs {long}");
    assert!(n(&long, "branches_covered") > n(&short, "branches_covered"), "{short} vs {long}");
    assert!(long["concolic"]["runs"].as_u64() > short["concolic"]["runs"].as_u64());
}

/// `--max-unfold` (the bound table's, read by the concolic loop) caps how deep a node's
/// formulas unfold the precondition: BST `remove` needs a second unfolding for the nodes under
/// a removed node's children, so at 1 no node is tried deeper, at 4 some are, with more solver
/// calls.
#[test]
fn the_unfolding_bound_reaches_the_concolic_loop() {
    let run = |n: &str| -> serde_json::Value {
        let (ok, stdout, stderr) = heaplab(&[
            "run",
            "examples/bst.hl",
            "--method",
            "BST.remove",
            "--strategy",
            "concolic",
            "--depth",
            "1",
            "--max-unfold",
            n,
            "--format",
            "json",
        ]);
        assert!(ok, "{stderr}");
        serde_json::from_str(&stdout).expect("JSON")
    };
    let (one, four) = (run("1"), run("4"));
    let c = |v: &serde_json::Value, k: &str| v["concolic"][k].as_u64().unwrap_or(0);
    assert_eq!((c(&one, "deepened"), c(&one, "deepest_unfold")), (0, 1), "{one}");
    assert!(c(&four, "deepened") > 0 && c(&four, "deepest_unfold") > 1, "{four}");
    assert!(c(&four, "phase2_calls") > c(&one, "phase2_calls"), "{one} vs {four}");
    assert_eq!(c(&four, "unexplored_left"), 0, "{four}");
}
