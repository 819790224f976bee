//! Repository hygiene as an ordinary test: the crate layering of ARCHITECTURE.md, and no
//! `#[ignore]` or `#[should_panic]` anywhere (a test either runs and asserts, or does not exist).

use std::fs;
use std::path::{Path, PathBuf};

/// Layer of each crate; a crate may depend only on crates of a strictly lower layer.
/// `heaplab-smt` is a leaf (it knows nothing of HeapLab programs), see ARCHITECTURE.md.
const LAYERS: &[(&str, u32)] = &[
    // The wasm engine's global allocator; it knows no other crate.
    ("heaplab-alloc", 0),
    ("heaplab-syntax", 0),
    ("heaplab-smt", 0),
    ("heaplab-logic", 1),
    // The Java front end lowers to heaplab-syntax's program; it knows nothing above it.
    ("heaplab-java", 1),
    ("heaplab-engine", 2),
    ("heaplab-testgen", 3),
    // The report vocabulary (serde types and their schema) both front ends print and return.
    ("heaplab-report", 4),
    // What a front end runs (sessions, listings, the shapes they return), shared by both.
    ("heaplab-session", 5),
    ("heaplab-cli", 6),
    ("heaplab-wasm", 6),
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

/// Every file under `dir`, recursively.
fn all_files(dir: &Path, acc: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            all_files(&path, acc);
        } else {
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

#[path = "tidy/modgraph.rs"]
mod modgraph;

/// The crates whose module graph must stay acyclic (issue 28): shared types sit in leaf
/// modules, printing next to what it prints, so a module can be read knowing only those below.
const ACYCLIC_CRATES: &[&str] =
    &["heaplab-engine", "heaplab-logic", "heaplab-smt", "heaplab-session"];

#[test]
fn module_graphs_are_acyclic() {
    let mut problems = Vec::new();
    for krate in ACYCLIC_CRATES {
        let src = workspace_root().join("crates").join(krate).join("src");
        let graph = modgraph::read_crate(&src);
        assert!(graph.modules.len() > 3, "{krate}: read only {} modules", graph.modules.len());
        let edges = graph.edges();
        for component in modgraph::cycles(&edges) {
            let mut lines = vec![format!("{krate}: {} modules in one circle:", component.len())];
            for m in &component {
                for (t, why) in edges[m].iter().filter(|(t, _)| component.contains(t)) {
                    let (from, to) = (modgraph::name(m), modgraph::name(t));
                    lines.push(format!("  {from} -> {to}: {}", why.join(", ")));
                }
            }
            problems.push(lines.join("\n"));
        }
    }
    assert!(problems.is_empty(), "module import circles:\n{}", problems.join("\n"));
}

#[path = "tidy/sizes.rs"]
mod sizes;

/// Lines a source file may have before it needs a reason.
const FILE_BUDGET: usize = 800;
/// Lines a function may have before it needs a reason.
const FN_BUDGET: usize = 120;

/// Source files over [`FILE_BUDGET`], with why (paths under `crates/`).
const LONG_FILES: &[(&str, &str)] = &[
    ("heaplab-syntax/src/parser.rs", "one recursive-descent parser with recovery: the rules share the token cursor and the recovery sets"),
    ("heaplab-syntax/src/jsf.rs", "the whole JSF/CSF importer (its own lexer, parser and translation), kept apart from the .hl parser"),
    ("heaplab-testgen/src/emit/junit.rs", "the JUnit 5 emitter: Java statement and expression printing plus the test class around them"),
    ("heaplab-logic/src/check/mod.rs", "the model checker's search with its counters and loop cut (issue 31); splitting it is left for a later change"),
    ("heaplab-logic/src/smtlib/mod.rs", "the SL-COMP reader: declarations, definitions and formulas of one format"),
];

/// Functions over [`FN_BUDGET`], with why: (file under `crates/`, function name, reason).
const LONG_FNS: &[(&str, &str, &str)] = &[
    (
        "heaplab-testgen/src/concolic/mod.rs",
        "generate_observed",
        "CSF's generation loop (Algorithm 1) as one loop over its phases",
    ),
    (
        "heaplab-logic/src/baseformula.rs",
        "decide_formula",
        "the base-formula fixed point: rounds, widening and witnesses share the per-pair tables",
    ),
    (
        "heaplab-cli/src/commands/compare.rs",
        "run",
        "one row per strategy built and printed in each format",
    ),
    (
        "heaplab-cli/src/commands/csf_table.rs",
        "run",
        "CSF's Table 1: one row per subject, both sides measured and printed",
    ),
    (
        "heaplab-syntax/src/jsf.rs",
        "run",
        "the JSF translation driver: one arm per declaration form",
    ),
    (
        "heaplab-syntax/src/check/expr.rs",
        "expr_kind",
        "one match over every expression kind (the checker's typing rules)",
    ),
    (
        "heaplab-testgen/src/emit/junit.rs",
        "stmt",
        "one match over every statement kind (Java printing)",
    ),
    (
        "heaplab-engine/src/symbolic/heap/symheap_arrays.rs",
        "access",
        "an array access over every location the reference may denote, in one pass over its parts",
    ),
    ("heaplab-syntax/src/lexer.rs", "lex", "one match over every token's first character"),
    ("heaplab-syntax/src/jsf.rs", "tokenize", "one match over every JSF token's first character"),
    (
        "heaplab-logic/src/elements.rs",
        "cluster",
        "one cluster's fixed point: exact rounds, then widening and congruences, sharing the round's tables",
    ),
    (
        "heaplab-logic/src/smtlib/mod.rs",
        "formula_list",
        "one match over the heads of SL-COMP's formulas (`_ emp`, `sep`, `pto`, `and`, `or`, `not`, `exists`, applications)",
    ),
    (
        "heaplab-logic/src/check/mod.rs",
        "step",
        "one search step of the checker: propagate, unfold the most constrained instance, place a points-to, accept the unclaimed rest, all branching on one state",
    ),
    (
        "heaplab-logic/src/check/mod.rs",
        "solve_pure",
        "values for the unknowns of the pure facts: booleans and references by candidates, integers from single-variable bounds, one branch point",
    ),
    (
        "heaplab-syntax/src/check/body.rs",
        "stmt",
        "one match over every statement kind (the checker's rules)",
    ),
    (
        "heaplab-engine/src/symbolic/view_symheap.rs",
        "of",
        "a symheap view: references, locations and arrays in one walk over the guarded sets",
    ),
    (
        "heaplab-session/src/event_convert.rs",
        "event_js_unplaced",
        "one arm per event kind; issue 28 item 2 replaces it by serde",
    ),
    (
        "heaplab-engine/src/symbolic/heap/symheap_model.rs",
        "concretize",
        "paper 003 §5: one world's BFS numbering, fields and arrays in one pass",
    ),
    ("heaplab-smt/src/term.rs", "simplify", "one match over every term constructor"),
];

/// Lines of Rust `heaplab-wasm/src` may have (issue 28 item 5): the wasm crate converts JS values
/// to the shared types and back, awaits the host's Z3, and declares the API's TypeScript; what
/// a call computes lives in `heaplab-session`, shared with the CLI. Under it, not at it.
const WASM_BUDGET: usize = 1_200;

#[test]
fn the_wasm_crate_stays_thin() {
    // Every file under src/, not only the Rust: declarations moved into an included file count.
    let mut files = Vec::new();
    all_files(&workspace_root().join("crates/heaplab-wasm/src"), &mut files);
    assert!(!files.is_empty(), "found no heaplab-wasm sources; is the workspace root right?");
    let lines = sizes::total_lines(&files);
    assert!(
        lines < WASM_BUDGET,
        "heaplab-wasm/src has {lines} lines (budget {WASM_BUDGET}): move what is not wasm-specific \
         into heaplab-session (or the crate that owns it) and call it from there"
    );
}

#[test]
fn the_wasm_size_check_counts_every_line() {
    // The checker itself must be able to fail: two files of 700 lines are over the budget.
    let dir = std::env::temp_dir().join(format!("heaplab-tidy-wasm-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("temp dir");
    let mut files = Vec::new();
    for name in ["a.rs", "b.rs"] {
        let path = dir.join(name);
        fs::write(&path, "fn x() {}\n".repeat(700)).expect("write");
        files.push(path);
    }
    let lines = sizes::total_lines(&files);
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(lines, 1_400);
    assert!(lines >= WASM_BUDGET);
}

#[test]
fn sizes_stay_within_budget_or_say_why() {
    let crates = workspace_root().join("crates");
    let mut files = Vec::new();
    for entry in fs::read_dir(&crates).expect("crates/ exists").flatten() {
        rust_files(&entry.path().join("src"), &mut files);
    }
    assert!(files.len() > 50, "found only {} source files", files.len());
    let mut problems = Vec::new();
    let (mut long_files, mut long_fns) = (Vec::new(), Vec::new());
    for file in &files {
        let rel = file.strip_prefix(&crates).unwrap_or(file).to_string_lossy().replace('\\', "/");
        let text = fs::read_to_string(file).unwrap_or_default();
        let lines = text.lines().count();
        if lines > FILE_BUDGET {
            long_files.push(rel.clone());
            if !LONG_FILES.iter().any(|(f, _)| *f == rel) {
                problems.push(format!("{rel}: {lines} lines (budget {FILE_BUDGET}): split it, or list it in LONG_FILES with why"));
            }
        }
        for f in sizes::functions(&text) {
            if f.lines > FN_BUDGET {
                long_fns.push((rel.clone(), f.name.clone()));
                if !LONG_FNS.iter().any(|(p, n, _)| *p == rel && *n == f.name) {
                    problems.push(format!("{rel}:{}: fn {} has {} lines (budget {FN_BUDGET}): split it, or list it in LONG_FNS with why", f.line, f.name, f.lines));
                }
            }
        }
    }
    for (f, _) in LONG_FILES {
        if !long_files.iter().any(|l| l == f) {
            problems.push(format!("{f} is within budget now: take it out of LONG_FILES"));
        }
    }
    for (p, n, _) in LONG_FNS {
        if !long_fns.iter().any(|(lp, ln)| lp == p && ln == n) {
            problems.push(format!(
                "{p}: fn {n} is within budget (or gone) now: take it out of LONG_FNS"
            ));
        }
    }
    assert!(problems.is_empty(), "size budgets:\n{}", problems.join("\n"));
}

#[test]
fn size_and_cycle_checks_can_fail() {
    // A function of 3 lines with braces in a string and a char literal that must not count.
    let src = "pub(crate) fn a() {\n    let s = \"}\"; let c = '{';\n}\nfn b();\n";
    let fns = sizes::functions(src);
    assert_eq!(fns.len(), 1);
    assert_eq!((fns[0].name.as_str(), fns[0].lines), ("a", 3));
    // Two modules naming each other form one circle; a re-export through a facade does not.
    let dir = std::env::temp_dir().join(format!("heaplab-tidy-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("src/f")).expect("temp dir");
    let write = |p: &str, t: &str| fs::write(dir.join(p), t).expect("write");
    write("src/lib.rs", "mod a;\nmod b;\nmod f;\n");
    write("src/a.rs", "use crate::b::B;\npub struct A;\n");
    write("src/b.rs", "pub struct B(crate::a::A);\n");
    write("src/f/mod.rs", "mod x;\nmod y;\npub use x::X;\n");
    write("src/f/x.rs", "pub struct X;\n");
    write("src/f/y.rs", "use super::X;\npub struct Y(X);\n");
    let graph = modgraph::read_crate(&dir.join("src"));
    let circles = modgraph::cycles(&graph.edges());
    let _ = fs::remove_dir_all(&dir);
    let names: Vec<Vec<String>> =
        circles.iter().map(|c| c.iter().map(|m| modgraph::name(m)).collect()).collect();
    assert_eq!(names, vec![vec!["a".to_string(), "b".to_string()]]);
}

/// The backticked words of a markdown line (`a`, `b c` → ["a", "b c"]).
fn backticked(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// The modules ARCHITECTURE.md's "Module map" lists, by crate: `### heaplab-x (...)` headings,
/// then `- \`path.rs\` — ...` lines.
fn listed_modules(architecture: &str) -> std::collections::BTreeMap<String, Vec<String>> {
    let mut out: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let start = match architecture.find("\n## Module map") {
        Some(i) => i + 1,
        None if architecture.starts_with("## Module map") => 0,
        None => return out,
    };
    let section = &architecture[start..];
    let end = section[3..].find("\n## ").map_or(section.len(), |e| e + 3);
    let mut krate = None;
    for line in section[..end].lines() {
        if let Some(rest) = line.strip_prefix("### ") {
            krate = rest.split_whitespace().next().map(str::to_string);
        } else if let (Some(k), Some(item)) = (&krate, line.strip_prefix("- ")) {
            if let Some(path) = backticked(item).first() {
                out.entry(k.clone()).or_default().push(path.to_string());
            }
        }
    }
    out
}

/// Issue 28 item 7: ARCHITECTURE.md's crate table names every crate of `crates/` (and no other),
/// its CLI row every subcommand of `heaplab` (and no other), and its module map every source
/// file of every crate (and no other).
#[test]
fn architecture_lists_what_exists() {
    let root = workspace_root();
    let architecture = fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut problems = Vec::new();
    // Crates: the table rows `| layer | \`heaplab-x\` | ... |`.
    let table: Vec<String> = architecture
        .lines()
        .filter(|l| l.starts_with("| ") && l.chars().nth(2).is_some_and(|c| c.is_ascii_digit()))
        .filter_map(|l| backticked(l).first().map(|s| s.to_string()))
        .collect();
    let mut crates: Vec<String> = fs::read_dir(root.join("crates"))
        .expect("crates/")
        .flatten()
        .filter(|e| e.path().join("Cargo.toml").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    crates.sort();
    for c in &crates {
        if !table.contains(c) {
            problems.push(format!("crate {c} is missing from ARCHITECTURE.md's crate table"));
        }
    }
    for c in &table {
        if !crates.contains(c) {
            problems.push(format!("ARCHITECTURE.md's crate table names {c}, which does not exist"));
        }
    }
    // CLI commands: the `heaplab-cli` row against the variants of `enum Command` in main.rs.
    let cli_row = architecture.lines().find(|l| l.starts_with("| ") && l.contains("`heaplab-cli`"));
    let listed: Vec<&str> =
        cli_row.map(|l| backticked(l).into_iter().skip(2).collect()).unwrap_or_default();
    let main = fs::read_to_string(root.join("crates/heaplab-cli/src/main.rs")).unwrap_or_default();
    let commands = command_names(&main);
    assert!(commands.len() >= 5, "read only {commands:?} from main.rs");
    for c in &commands {
        if !listed.contains(&c.as_str()) {
            problems
                .push(format!("`heaplab {c}` is missing from ARCHITECTURE.md's heaplab-cli row"));
        }
    }
    for c in &listed {
        if !commands.iter().any(|x| x == c) {
            problems.push(format!("ARCHITECTURE.md's heaplab-cli row names `{c}`, not a command"));
        }
    }
    // Modules: the module map against every crate's `src/`.
    let listed = listed_modules(&architecture);
    for c in &crates {
        let src = root.join("crates").join(c).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let files: Vec<String> = files
            .iter()
            .filter_map(|f| f.strip_prefix(&src).ok())
            .map(|f| f.to_string_lossy().replace('\\', "/"))
            .collect();
        let mapped = listed.get(c).cloned().unwrap_or_default();
        for f in &files {
            if !mapped.contains(f) {
                problems
                    .push(format!("{c}: module {f} is missing from ARCHITECTURE.md's module map"));
            }
        }
        for m in &mapped {
            if !files.contains(m) {
                problems.push(format!(
                    "{c}: ARCHITECTURE.md's module map lists {m}, which does not exist"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "ARCHITECTURE.md is out of date:\n{}", problems.join("\n"));
}

/// The subcommands of `heaplab` (clap's kebab-case of `enum Command`'s variants).
fn command_names(main: &str) -> Vec<String> {
    let Some(start) = main.find("enum Command {") else { return Vec::new() };
    let body = &main[start..];
    let body = &body[..body.find("\n}").unwrap_or(body.len())];
    body.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//") && !l.starts_with('#'))
        // `Check(args)`, `Completions {`, `Man,`: the variant's name.
        .filter_map(|l| l.split(|c: char| !c.is_alphanumeric() && c != '_').next())
        .filter(|v| v.chars().next().is_some_and(char::is_uppercase))
        .map(|v| {
            let mut out = String::new();
            for (i, ch) in v.chars().enumerate() {
                if ch.is_uppercase() && i > 0 {
                    out.push('-');
                }
                out.push(ch.to_ascii_lowercase());
            }
            out
        })
        .collect()
}

#[test]
fn architecture_check_sees_a_missing_command() {
    let main = "enum Command {\n    /// Doc.\n    Check(a::Args),\n    CsfTable(b::Args),\n    Completions {\n        shell: S,\n    },\n    Man,\n}\n";
    assert_eq!(command_names(main), ["check", "csf-table", "completions", "man"]);
    let map = "## Module map\n\n### heaplab-x (`x`)\n\n- `lib.rs` — The crate.\n\n## Next\n";
    assert_eq!(listed_modules(map).get("heaplab-x").map(Vec::len), Some(1));
}
