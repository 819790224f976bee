//! The Java front end keeps Java's meaning: every `static` method `t_*()` of the files in
//! `crates/heaplab-java/test_data/run/` is run by the JVM (`javac` + `java -ea`) and by
//! HeapLab's interpreter on the lowered program, and the two must agree on the value returned
//! or the exception thrown (a null dereference is Java's `NullPointerException`, an uncaught
//! `throw` the exception's class, and so on). The JVM is the independent oracle for the
//! lowering of effects in expressions, wrapping `int` arithmetic, constructors, overloading and
//! exceptions.

#![allow(clippy::unwrap_used)]

use heaplab_engine::{Interpreter, Limits, Outcome, Value};
use heaplab_syntax::ast::ErrorKind;
use heaplab_syntax::SourceFile;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../heaplab-java/test_data/run");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    files.sort();
    files
}

/// The `static int|boolean t_*()` methods of a Java file, in order.
fn test_methods(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let rest =
                l.strip_prefix("static int ").or_else(|| l.strip_prefix("static boolean "))?;
            let name = rest.split('(').next()?;
            (name.starts_with("t_") && rest.contains("()")).then(|| name.to_string())
        })
        .collect()
}

/// What HeapLab's interpreter makes of each method, in the JVM driver's format.
fn heaplab_results(path: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap();
    let file = SourceFile::new(path.display().to_string(), text.clone());
    let java = heaplab_java::analyze(&file);
    let errors: Vec<_> = java.analysis.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{}: {errors:?}", path.display());
    let class = path.file_stem().unwrap().to_str().unwrap();
    let mut out = BTreeMap::new();
    for m in test_methods(&text) {
        let target = java
            .map
            .find_target(&format!("{class}.{m}"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .target
            .clone();
        let a = &java.analysis;
        let mut interp = Interpreter::new(&a.program, &a.info, Limits::default());
        let outcome = interp.call_function(&target, &[]).unwrap();
        let shown = match outcome {
            Outcome::Returned(Value::Int(n)) => n.to_string(),
            Outcome::Returned(Value::Bool(b)) => b.to_string(),
            Outcome::Returned(v) => format!("{v:?}"),
            Outcome::Error(e) => {
                let class = match e.kind {
                    ErrorKind::NullDereference => "java.lang.NullPointerException".to_string(),
                    ErrorKind::DivisionByZero => "java.lang.ArithmeticException".to_string(),
                    ErrorKind::IndexOutOfBounds => {
                        "java.lang.ArrayIndexOutOfBoundsException".to_string()
                    }
                    ErrorKind::NegativeArraySize => {
                        "java.lang.NegativeArraySizeException".to_string()
                    }
                    ErrorKind::AssertFailed => "java.lang.AssertionError".to_string(),
                    ErrorKind::Exception => {
                        // "`Class` thrown", the HeapLab class: its Java name from the map.
                        let lowered = e.message.split('`').nth(1).unwrap_or("").to_string();
                        match java.map.jdk_exceptions.iter().find(|(l, _)| *l == lowered) {
                            Some((_, fqn)) => fqn.clone(),
                            None => java
                                .map
                                .class(&lowered)
                                .map_or(lowered.clone(), |c| c.binary_name.clone()),
                        }
                    }
                    k => k.keyword().to_string(),
                };
                format!("!{class}")
            }
            Outcome::AssumptionViolated { .. } => "assume".to_string(),
        };
        out.insert(m, shown);
    }
    out
}

/// What the JVM makes of each method: a driver calls them by reflection.
fn jvm_results(files: &[PathBuf]) -> BTreeMap<String, String> {
    let dir = std::env::temp_dir().join(format!("heaplab-java-semantics-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut calls = String::new();
    for f in files {
        let class = f.file_stem().unwrap().to_str().unwrap();
        for m in test_methods(&std::fs::read_to_string(f).unwrap()) {
            calls.push_str(&format!("        run(\"{class}\", \"{m}\");\n"));
        }
    }
    let driver = format!(
        "import java.lang.reflect.*;\npublic class RunAll {{\n    static void run(String c, String m) throws Exception {{\n        Method x = Class.forName(c).getDeclaredMethod(m);\n        x.setAccessible(true);\n        String r;\n        try {{ r = String.valueOf(x.invoke(null)); }}\n        catch (InvocationTargetException e) {{ r = \"!\" + e.getCause().getClass().getName(); }}\n        System.out.println(c + \".\" + m + \"=\" + r);\n    }}\n    public static void main(String[] a) throws Exception {{\n{calls}    }}\n}}\n"
    );
    std::fs::write(dir.join("RunAll.java"), driver).unwrap();
    let mut javac = Command::new("javac");
    javac.arg("-nowarn").arg("-d").arg(&dir).arg(dir.join("RunAll.java")).args(files);
    let out = javac.output().expect("javac runs (./build.sh setup installs a JDK)");
    assert!(out.status.success(), "javac failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new("java").arg("-ea").arg("-cp").arg(&dir).arg("RunAll").output().unwrap();
    assert!(out.status.success(), "java failed:\n{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
        .collect()
}

#[test]
fn lowered_java_runs_as_the_jvm_runs_it() {
    let files = cases();
    assert!(files.len() >= 3, "the run cases are missing");
    let jvm = jvm_results(&files);
    let mut compared = 0;
    let mut differences = Vec::new();
    for f in &files {
        let class = f.file_stem().unwrap().to_str().unwrap();
        for (m, got) in heaplab_results(f) {
            let key = format!("{class}.{m}");
            let want = jvm.get(&key).cloned().unwrap_or_else(|| "<missing>".into());
            compared += 1;
            if *got != want {
                differences.push(format!("{key}: JVM {want}, HeapLab {got}"));
            }
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {compared} differ:\n{}",
        differences.len(),
        differences.join("\n")
    );
    assert!(compared >= 25, "only {compared} methods compared");
}
