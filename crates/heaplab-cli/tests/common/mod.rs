//! What the end-to-end tests share: running the real `heaplab` binary from the workspace root,
//! as a user would, and reading what it printed.

// Each test file is its own crate and uses only some of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `heaplab ARGS...` in the workspace root and waits for it.
pub fn heaplab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heaplab"))
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("the heaplab binary runs")
}

/// The folder with `examples/` and `Cargo.lock`.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The JUnit 5 console that `./build.sh setup` installs (Debian's junit5 package).
pub const JUNIT_JAR: &str = "/usr/share/java/junit-platform-console-standalone.jar";

/// Compiles `files` with `javac` into `classes`, then runs the JUnit 5 console on them with
/// `select` (e.g. `["--select-class", "pkg.FooTest"]`) and `-ea`, so the classes' own asserts
/// run: (tests found, tests failed, the console's report). A failed compilation fails the test.
pub fn junit_console(classes: &Path, files: &[PathBuf], select: &[&str]) -> (u32, u32, String) {
    let out = Command::new("javac")
        .args(["-nowarn", "-d"])
        .arg(classes)
        .args(["-cp", JUNIT_JAR])
        .args(files)
        .output()
        .expect("javac runs (./build.sh setup installs a JDK)");
    assert!(out.status.success(), "javac failed in {}:\n{}", classes.display(), text(&out.stderr));
    let out = Command::new("java")
        .args(["-ea", "-jar", JUNIT_JAR, "--class-path"])
        .arg(classes)
        .args(select)
        .args(["--disable-banner", "--details=tree"])
        .output()
        .expect("java runs");
    let report = text(&out.stdout) + &text(&out.stderr);
    // The console's summary has lines like `[         3 tests failed          ]`.
    let count = |what: &str| -> u32 {
        report
            .lines()
            .find(|l| l.contains(&format!("tests {what}")))
            .and_then(|l| l.trim_start_matches(['[', ' ']).split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no `tests {what}` line:\n{report}"))
    };
    (count("found"), count("failed"), report)
}

/// `heaplab run SOURCE --method CLASS.METHOD --strategy S --k 2 --emit junit --out DIR` with
/// `extra` flags, for a course class under `examples/java/course`: the run succeeds with no
/// invalid input and no internal error, and gives some test. Returns the number of tests.
pub fn run_course_method(
    source: &str,
    method: &str,
    strategy: &str,
    out_dir: &str,
    extra: &[&str],
) -> u64 {
    let args = [
        "run",
        source,
        "--method",
        method,
        "--strategy",
        strategy,
        "--k",
        "2",
        "--format",
        "json",
        "--emit",
        "junit",
        "--out",
        out_dir,
    ];
    let out = heaplab(&[&args[..], extra].concat());
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{method} {strategy}: {stdout}{}", text(&out.stderr));
    let r: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{method} {strategy}: {e}\n{stdout}"));
    assert_eq!(r["invalid_inputs"], 0, "{method} {strategy}: {r}");
    assert_eq!(r["internal_errors"], 0, "{method} {strategy}: {r}");
    let n = r["tests"].as_u64().unwrap_or_default();
    assert!(n > 0, "{method} {strategy}: no tests");
    n
}

/// Compiles the JUnit tests exported into `dir/course` with the unmodified `source` and runs
/// them on the JUnit 5 console: (found, failed, report).
pub fn course_junit(dir: &Path, source: &str) -> (u32, u32, String) {
    let mut files = vec![workspace_root().join(source)];
    for e in std::fs::read_dir(dir.join("course")).expect("the export's folder").flatten() {
        files.push(e.path());
    }
    junit_console(&dir.join("classes"), &files, &["--select-package", "course"])
}

/// The six strategies, as the CLI names them.
pub const STRATEGIES: [&str; 6] = ["lazy", "lazier", "lazier#", "sl", "symheap", "concolic"];

/// Explores `methods` of the course class `source` (class `class`) under every strategy with
/// `run_course_method` (`extra(strategy, method)` adds flags), calls `check(strategy, dir)` on
/// each strategy's export folder, then compiles its JUnit tests next to the unmodified class and
/// requires them all found and passing. Two strategies run at once (one thread each): a test
/// binary runs its tests one after another when it has only one, and these are long.
pub fn course_class_under_every_strategy(
    tag: &str,
    source: &str,
    class: &str,
    methods: &[&str],
    extra: impl Fn(&str, &str) -> Vec<&'static str> + Sync,
    check: impl Fn(&str, &Path) + Sync,
) {
    let root = std::env::temp_dir().join(format!("heaplab-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let one = |strategy: &str| {
        let dir = root.join(strategy.replace('#', "sharp"));
        let out_dir = dir.to_string_lossy().to_string();
        let mut tests = 0;
        for m in methods {
            let method = format!("{class}.{m}");
            tests += run_course_method(source, &method, strategy, &out_dir, &extra(strategy, m));
        }
        check(strategy, &dir);
        let (found, failed, report) = course_junit(&dir, source);
        assert!(found as u64 >= tests && failed == 0, "{strategy}: {tests} generated\n{report}");
    };
    let (left, right) = STRATEGIES.split_at(STRATEGIES.len() / 2);
    std::thread::scope(|s| {
        let other = s.spawn(|| right.iter().for_each(|st| one(st)));
        left.iter().for_each(|st| one(st));
        if let Err(panic) = other.join() {
            std::panic::resume_unwind(panic);
        }
    });
    let _ = std::fs::remove_dir_all(&root);
}
