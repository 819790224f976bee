//! Repository hygiene as an ordinary test: the crate layering of ARCHITECTURE.md, and no
//! `#[ignore]` or `#[should_panic]` anywhere (a test either runs and asserts, or does not exist).

use std::fs;
use std::path::{Path, PathBuf};

/// Layer of each crate; a crate may depend only on crates of a strictly lower layer.
/// `heaplab-smt` is a leaf (it knows nothing of HeapLab programs), see ARCHITECTURE.md.
const LAYERS: &[(&str, u32)] = &[
    ("heaplab-syntax", 0),
    ("heaplab-smt", 0),
    ("heaplab-logic", 1),
    // The Java front end lowers to heaplab-syntax's program; it knows nothing above it.
    ("heaplab-java", 1),
    ("heaplab-engine", 2),
    ("heaplab-testgen", 3),
    ("heaplab-cli", 4),
    ("heaplab-wasm", 4),
];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn layer(name: &str) -> Option<u32> {
    LAYERS.iter().find(|(n, _)| *n == name).map(|(_, l)| *l)
}

/// The heaplab crates named in a manifest's dependency tables (`heaplab-x.workspace = true`,
/// `heaplab-x = { path = ... }`).
fn heaplab_deps(manifest: &str) -> Vec<String> {
    let mut in_deps = false;
    let mut deps = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_deps = line.contains("dependencies");
            continue;
        }
        if in_deps && line.starts_with("heaplab-") {
            if let Some(name) = line.split(['.', ' ', '=']).next() {
                deps.push(name.to_string());
            }
        }
    }
    deps
}

#[test]
fn crate_dependencies_point_one_way() {
    let crates = workspace_root().join("crates");
    let mut problems = Vec::new();
    let mut seen = 0;
    for entry in fs::read_dir(&crates).expect("crates/ exists").flatten() {
        let dir = entry.path();
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        let Ok(manifest) = fs::read_to_string(dir.join("Cargo.toml")) else { continue };
        seen += 1;
        let Some(own) = layer(&name) else {
            problems.push(format!("{name} has no layer in tidy.rs LAYERS (add it, with a reason)"));
            continue;
        };
        for dep in heaplab_deps(&manifest) {
            match layer(&dep) {
                Some(l) if l < own => {}
                Some(_) => problems.push(format!("{name} depends on {dep}: a backwards edge")),
                None => problems.push(format!("{name} depends on unknown crate {dep}")),
            }
        }
    }
    assert!(seen >= 3, "found only {seen} crates; is the workspace root right?");
    assert!(problems.is_empty(), "layering problems:\n{}", problems.join("\n"));
}

#[test]
fn layering_check_sees_a_backwards_edge() {
    // The checker itself must be able to fail: a manifest of the syntax crate naming the engine.
    let manifest = "[package]\nname = \"x\"\n[dependencies]\nheaplab-engine.workspace = true\n";
    assert_eq!(heaplab_deps(manifest), vec!["heaplab-engine".to_string()]);
    assert!(layer("heaplab-engine") > layer("heaplab-syntax"));
}

fn rust_files(dir: &Path, acc: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, acc);
        } else if path.extension().is_some_and(|e| e == "rs") {
            acc.push(path);
        }
    }
}

#[test]
fn no_ignored_or_should_panic_tests() {
    let mut files = Vec::new();
    rust_files(&workspace_root().join("crates"), &mut files);
    assert!(!files.is_empty(), "found no Rust sources; is the workspace root right?");
    // Built from parts so this file does not match itself.
    let banned = [format!("#[{}", "ignore"), format!("#[{}", "should_panic")];
    let mut hits = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            if banned.iter().any(|b| line.trim_start().starts_with(b.as_str())) {
                hits.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(hits.is_empty(), "banned test attributes:\n{}", hits.join("\n"));
}
