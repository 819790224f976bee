//! Issue 21's reproducers for `heaplab run` and `heaplab compare`, through the real binary: an
//! unknown solver answer marks a path unknown and the run goes on, the time bound covers test
//! generation, generated `.hl` test names never clash, bad strategy names cost no run.

mod common;

use common::{heaplab, text};
use std::path::PathBuf;

/// A scratch folder for one test, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("heaplab-hostile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("mkdir");
        Scratch(dir)
    }

    fn file(&self, name: &str, text: &str) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("write");
        path.display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn nonlinear_path_conditions_are_unknown_and_the_run_goes_on() {
    let dir = Scratch::new("cubes");
    let file = dir.file(
        "cubes.hl",
        "int cubes(int a, int b, int c) {\n  if (a > 0 && b > 0 && a#a#a + b#b#b == c#c#c) {\n    return 1;\n  }\n  return 0;\n}\n",
    );
    let out = heaplab(&["run", &file, "--method", "cubes", "--format", "json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let (feasible, tests, unknown) = (
        v["paths_feasible"].as_u64().expect("feasible"),
        v["tests"].as_u64().expect("tests"),
        v["paths_unknown"].as_u64().expect("unknown"),
    );
    assert!(unknown > 0, "{v}");
    assert!(tests > 0, "the decidable paths still get tests: {v}");
    assert_eq!(tests + unknown, feasible, "{v}");
    let out = heaplab(&["run", &file, "--method", "cubes"]);
    assert!(text(&out.stdout).contains("unknown: "), "{}", text(&out.stdout));
    let out = heaplab(&[
        "compare",
        &file,
        "--method",
        "cubes",
        "--strategies",
        "lazy",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(v["strategies"][0]["paths_unknown"].as_u64().expect("unknown") > 0, "{v}");
}

#[test]
fn the_time_bound_covers_test_generation() {
    let dir = Scratch::new("twenty");
    let params: Vec<String> = (0..20).map(|i| format!("int x{i}")).collect();
    let ifs: String =
        (0..20).map(|i| format!("  if (x{i} > {i}) {{\n    s = s + 1;\n  }}\n")).collect();
    let file = dir.file(
        "twenty.hl",
        &format!("int twenty({}) {{\n  int s = 0;\n{ifs}  return s;\n}}\n", params.join(", ")),
    );
    // 2^20 paths and no path or state bound that could stop the run first: at the default
    // 10,000 paths a test build at opt-level 1 explored and generated them all within 2 s
    // (1.2 s), so the test passed only on a slow machine. An opt-level 1 build explores some
    // 100,000 paths in 1.5 s and is stopped generating their tests; a release build's memory
    // bound (1 GB) comes only after some 280,000 paths and 26 s.
    let out = heaplab(&[
        "run",
        &file,
        "--method",
        "twenty",
        "--timeout-ms",
        "2000",
        "--max-paths",
        "100000000",
        "--max-states",
        "1000000000",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // The bound stopped the run and says so; how long that took is the bench's business, not a
    // test's (a loaded machine is slower, issue 28).
    assert!(stdout.contains("stopped by: timeout"), "{stdout}");
}

/// `sl` completes a path's input with a model search at the path end; at k = 4 one search on
/// AvlTree.findMin took seconds and once carried a 1 s run to 3.8 s. The search now asks the
/// run's deadline and ends its path on the time bound, which the summary names. No wall time
/// is asserted (issue 28): the oracle is the bound the run reports.
#[test]
fn the_time_bound_covers_sl_model_search() {
    for method in ["AvlTree.findMin", "AvlTree.findMax"] {
        let out = heaplab(&[
            "run",
            "examples/avl.hl",
            "--method",
            method,
            "--strategy",
            "sl",
            "--k",
            "4",
            "--timeout-ms",
            "3000",
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(stdout.contains("stopped by: timeout"), "{method}: {stdout}");
    }
}

/// `heaplab run FILE --method M --strategy concolic --timeout-ms 3000` says the time bound
/// stopped it (no wall time asserted: issue 28).
fn concolic_stops_in_time(file: &str, method: &str) {
    let out = heaplab(&[
        "run",
        file,
        "--method",
        method,
        "--strategy",
        "concolic",
        "--timeout-ms",
        "3000",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("stopped by: time"), "{stdout}");
}

/// The concolic loop's solver searches ask the time bound too, and the loop leaves a tenth of
/// it for its last replay and the output: TreeMap.remove once took 1.10 s of a 1 s bound.
#[test]
fn the_time_bound_covers_the_concolic_loop() {
    concolic_stops_in_time("examples/treemap.hl", "TreeMap.remove");
}

/// One guided run asks the time bound too: shellsort with `gap >>= 1` asks the solver at every
/// fork about the other direction, over cells read at symbolic indexes and a quotient per
/// shift, and a single run took seconds; the loop asked the bound only between runs and a
/// 20 s bound took 30 s.
#[test]
fn the_time_bound_covers_one_guided_run() {
    let dir = Scratch::new("shellshift");
    let text_of = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shellsort.hl"),
    )
    .expect("shellsort.hl");
    let shifted = text_of.replace("a.length / 2", "a.length >> 1").replace("gap /= 2", "gap >>= 1");
    assert_ne!(shifted, text_of, "shellsort.hl halves its gap with `/ 2`");
    concolic_stops_in_time(&dir.file("shellshift.hl", &shifted), "shellsort");
}

#[test]
fn generated_test_names_never_clash_with_the_programs_tests() {
    let dir = Scratch::new("names");
    let file = dir.file(
        "f.hl",
        "int f(int x) {\n  if (x > 0) {\n    return 1;\n  }\n  return 0;\n}\n\ntest gen_f_0 {\n  assert f(1) == 1;\n}\n\ntest gen_f_1 {\n  assert f(0) == 0;\n}\n",
    );
    let out_dir = dir.0.join("out");
    let out = heaplab(&[
        "run",
        &file,
        "--method",
        "f",
        "--emit",
        "hl",
        "--out",
        &out_dir.display().to_string(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let emitted = out_dir.join("f_f_tests.hl").display().to_string();
    // The checker is the oracle: a duplicate test name is an error there.
    let out = heaplab(&["check", &emitted]);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    let out = heaplab(&["test", &emitted]);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
}

#[test]
fn compare_checks_every_strategy_name_before_running_any() {
    let out = heaplab(&[
        "compare",
        "examples/bst.hl",
        "--method",
        "BST.insert",
        "--strategies",
        "lazy,lazier,nonsense",
    ]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown strategy `nonsense`"), "{}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "rows were computed: {}", text(&out.stdout));
}

#[test]
fn an_endless_input_file_is_refused_with_a_clear_error() {
    let out = heaplab(&["check", "/dev/zero"]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("`/dev/zero` is larger than 8 MB"), "{err}");
}

#[test]
fn a_megabyte_line_of_errors_makes_kilobytes_of_stderr() {
    let dir = Scratch::new("oneline");
    let file = dir.file("big.hl", &"@ ".repeat(500_000));
    let out = heaplab(&["check", &file]);
    assert!(!out.status.success());
    assert!(out.stderr.len() < 64 * 1024, "{} bytes of stderr", out.stderr.len());
    assert!(text(&out.stderr).contains("more diagnostics not shown"));
}

#[test]
fn exec_call_rejects_what_the_checker_would() {
    let dir = Scratch::new("exec");
    let file = dir.file(
        "n.hl",
        "class Node {\n  int elem;\n  Node next;\n}\n\nint len(Node n) {\n  if (n == null) {\n    return 0;\n  }\n  return 1 + len(n.next);\n}\n",
    );
    let out = heaplab(&["exec", &file, "--call", "len(new Node { elem: 1, elem: 2 })"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--call:1:25: error: field `elem` is initialized twice"));
    let out = heaplab(&["exec", &file, "--call", "1 + old(len(null))"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("--call:1:5: error: `old(..)` is only allowed in an `ensures`")
    );
    let out = heaplab(&["exec", &file, "--call", "len(new Node { elem: 1, next: new Node })"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "2");
}

/// An array longer than the interpreter's heap limit can hold (2 000 000 cells) cannot be
/// replayed: before the `array_length` bound, test generation failed with a replay mismatch
/// (`new int[n]` under `n > 100000000` got the model n = 100000001). Now such a path is cut as
/// bounded, every other path still gets a test that replays, under every strategy.
#[test]
fn arrays_beyond_the_heap_limit_cut_the_path_and_the_rest_replays() {
    let dir = Scratch::new("bigarray");
    let file = dir.file(
        "big.hl",
        "int big(int n)\n  requires n >= 0\n{\n  if (n > 100000000) {\n    int[] a = new int[n];\n    return a.length;\n  }\n  if (n > 10) {\n    int[] b = new int[n];\n    b[n - 1] = 7;\n    return b[n - 1];\n  }\n  return 0;\n}\n\nint literal() {\n  int[] a = new int[3000000];\n  return a.length;\n}\n",
    );
    for strategy in ["lazy", "lazier#", "sl", "symheap"] {
        let out =
            heaplab(&["run", &file, "--method", "big", "--strategy", strategy, "--format", "json"]);
        assert!(out.status.success(), "{strategy}: {}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        // n <= 10 and 10 < n <= 1 000 000 return; n > 1 000 000 in either branch is cut.
        assert_eq!(v["tests"], 2, "{strategy}: {v}");
        assert_eq!(v["paths_bounded"], 2, "{strategy}: {v}");
        assert_eq!(v["bounds_hit"], serde_json::json!(["array_length"]), "{strategy}: {v}");
    }
    let out = heaplab(&["run", &file, "--method", "literal"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("1 bounded (by array_length)"), "{}", text(&out.stdout));
}
