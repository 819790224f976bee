//! Importing JSF/CSF predicate files. Every `test_data/jsf/ok/*.jsf` (real predicate files
//! quoted in the paper digests) must import without errors, and its translation must parse and
//! type-check cleanly as HeapLab; its `.expected` holds the import's warnings followed by the
//! translation. Every `err/*.jsf` must produce errors; its `.expected` holds the rendered
//! diagnostics and the translation of what was recovered. A missing `.expected` is written;
//! `UPDATE_EXPECT=1` rewrites them all (review the diff). Also: a bounded no-panic fuzz over
//! the test files (truncations, byte mutations, token soup).

#![allow(clippy::unwrap_used)]

use heaplab_syntax::diagnostic::render_all;
use heaplab_syntax::jsf::{self, import, import_jsf, looks_like_jsf, translate};
use heaplab_syntax::{analyze, pretty, Diagnostic, SourceFile};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn test_data(suite: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/jsf").join(suite)
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// The text a case's `.expected` holds, or why the case failed.
fn check(name: &str, text: &str, expect_errors: bool) -> Result<String, String> {
    let (hl, diags) = translate(text);
    let file = SourceFile::new(name, text);
    let rendered = render_all(&diags, &file);
    let has_errors = diags.iter().any(Diagnostic::is_error);
    if expect_errors && !has_errors {
        return Err(format!("{name}: expected import errors, got none"));
    }
    if !expect_errors {
        if has_errors {
            return Err(format!("{name}: unexpected import errors:\n{rendered}"));
        }
        let out = SourceFile::new(format!("{name}.hl"), hl.as_str());
        let analysis = analyze(&out);
        if !analysis.diagnostics.is_empty() {
            return Err(format!(
                "{name}: the translation does not check cleanly:\n{}\n{hl}",
                render_all(&analysis.diagnostics, &out)
            ));
        }
    }
    Ok(format!("{rendered}--- HeapLab ---\n{hl}"))
}

fn run_suite(suite: &str, expect_errors: bool) -> usize {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let cases = files(&test_data(suite), "jsf");
    assert!(!cases.is_empty(), "no test files in {suite}");
    let mut failures = Vec::new();
    for path in &cases {
        let name = file_name(path);
        let text = std::fs::read_to_string(path).unwrap();
        let actual = match check(&name, &text, expect_errors) {
            Ok(actual) => actual,
            Err(msg) => {
                failures.push(msg);
                continue;
            }
        };
        let expected_path = path.with_extension("expected");
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if !update => {
                if expected != actual {
                    failures.push(format!(
                        "{name}: output differs from {}\n--- expected\n{expected}--- actual\n{actual}",
                        file_name(&expected_path)
                    ));
                }
            }
            _ => std::fs::write(&expected_path, &actual).unwrap(),
        }
    }
    assert!(failures.is_empty(), "{} case(s) failed:\n{}", failures.len(), failures.join("\n"));
    cases.len()
}

#[test]
fn ok_cases() {
    assert!(run_suite("ok", false) >= 20);
}

#[test]
fn err_cases() {
    run_suite("err", true);
}

// ---- API ------------------------------------------------------------------------------------

#[test]
fn positional_fields_and_inferred_types() {
    let text = "data Node {int val; Node next}\n\
                pred lseg(x, y) == x = y || x::Node<_, n> * lseg(n, y) & n != x";
    let (program, diags) = import_jsf(text);
    assert!(diags.is_empty(), "{diags:?}");
    let printed = pretty::program(&program);
    assert!(printed.contains("class Node {\n  int val;\n  Node next;\n}"), "{printed}");
    assert!(printed.contains("pred lseg(Node x, Node y) :="), "{printed}");
    assert!(printed.contains("exists Node n. x -> Node { val: _, next: n } * lseg(n, y)"));
}

#[test]
fn types_flow_through_predicate_arguments_in_both_directions() {
    // `outer`'s parameter is typed only by `inner`, which is defined later; `inner`'s second
    // parameter is typed only by the use in `outer`.
    let text = "pred outer(a, k) == inner(a, k) & k < 3\n\
                pred inner(t, m) == t::Cell<m>\n\
                data Cell {int v}";
    let (program, diags) = import_jsf(text);
    assert!(diags.is_empty(), "{diags:?}");
    let printed = pretty::program(&program);
    assert!(printed.contains("pred outer(Cell a, int k)"), "{printed}");
    assert!(printed.contains("pred inner(Cell t, int m)"), "{printed}");
}

#[test]
fn preconditions_become_requires() {
    let text = std::fs::read_to_string(test_data("ok").join("jsf_tll.jsf")).unwrap();
    let (imported, diags) = import(&text);
    assert!(diags.is_empty(), "{diags:?}");
    let [pre] = imported.preconditions.as_slice() else { panic!("one precondition") };
    assert_eq!(pre.method.name, "positiveLeafCount");
    let vars: Vec<String> = pre
        .free_vars
        .iter()
        .map(|p| format!("{} {}", pretty::type_expr(&p.ty), p.name.name))
        .collect();
    assert_eq!(vars, ["Node p", "Node lr", "Node ll"]);
    assert_eq!(
        pretty::formula(&pre.requires(&[])),
        "exists Node p, Node lr, Node ll. tll(this.root, p, lr, ll)"
    );
    assert_eq!(
        pretty::formula(&pre.requires(&["p"])),
        "exists Node lr, Node ll. tll(this.root, p, lr, ll)"
    );

    let text = std::fs::read_to_string(test_data("ok").join("jsf_biginteger.jsf")).unwrap();
    let (imported, diags) = import(&text);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(imported.properties, [("star.max_depth".to_string(), "4".to_string())]);
    let pre = &imported.preconditions[0];
    assert_eq!(pretty::formula(&pre.requires(&["x", "y"])), "precondition(x, y)");
}

#[test]
fn boolean_fields_read_jsf_0_1_encoding() {
    let text = "data E {int k; boolean red}\npred p(x) == x::E<_, c> & c = 1 || x = null";
    let (hl, diags) = translate(text);
    assert!(diags.is_empty(), "{diags:?}");
    assert!(hl.contains("exists bool c. x -> E { k: _, red: c } & c == true"), "{hl}");
}

#[test]
fn keywords_are_renamed() {
    let text = "data Node {int result; Node next}\npred test(old) == old::Node<new, _> & new > 0";
    let (hl, diags) = translate(text);
    assert!(diags.is_empty(), "{diags:?}");
    assert!(hl.contains("pred test_(Node old_) := exists int new_. old_ -> Node { result_: new_, next: _ } & new_ > 0;"), "{hl}");
    let analysis = analyze(&SourceFile::new("t.hl", hl.as_str()));
    assert!(analysis.diagnostics.is_empty(), "{:?}", analysis.diagnostics);
}

#[test]
fn diagnostics_point_into_the_jsf_text() {
    let text = "data Node {int val; Node next}\npred sll(root) ==\n  root = null || root::Node<v> * sll(next)";
    let (_, diags) = import(text);
    let file = SourceFile::new("a.jsf", text);
    let d = diags.iter().find(|d| d.message.contains("has 2 fields")).unwrap();
    let pos = file.line_col(d.span.start);
    assert_eq!((pos.line, pos.col), (3, 18));
    assert_eq!(file.slice(d.span), "root::Node<v>");
    assert_eq!(d.message, "`Node` has 2 fields (val, next), but this points-to lists 1");

    let (_, diags) = import("pred p(x) == x = null\n");
    assert_eq!(diags.len(), 1);
    assert!(diags[0].message.contains("cannot infer the type of parameter `x` of `p`"));
    let pos = SourceFile::new("b.jsf", "pred p(x) == x = null\n").line_col(diags[0].span.start);
    assert_eq!((pos.line, pos.col), (1, 8));
    assert!(diags[0].notes.iter().any(|n| n.contains("pred p(Node x, ...)")));
}

#[test]
fn detection() {
    for path in files(&test_data("ok"), "jsf").iter().chain(&files(&test_data("err"), "jsf")) {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(looks_like_jsf(&text), "{} not detected as JSF", file_name(path));
    }
    let hl_dirs = [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/parser/ok"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples"),
    ];
    let mut seen = 0;
    for dir in hl_dirs {
        for path in files(&dir, "hl") {
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(!looks_like_jsf(&text), "{} detected as JSF", path.display());
            seen += 1;
        }
    }
    assert!(seen > 0);
    assert!(!looks_like_jsf(""));
    assert!(looks_like_jsf("star.predicate=pred p(x) == x = null"));
}

// ---- Fuzz -----------------------------------------------------------------------------------

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Imports `text`; fails (with the input) on a panic, a span outside the text, or a
/// translation that does not parse.
fn survive(text: &str) -> Result<(), String> {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let (hl, diags) = translate(text);
        let _ = looks_like_jsf(text);
        (hl, diags)
    }));
    let Ok((hl, diags)) = result else { return Err(format!("panic on {text:?}")) };
    for d in &diags {
        if d.span.start > d.span.end || d.span.end as usize > text.len() {
            return Err(format!("span {:?} outside the text for {text:?}: {}", d.span, d.message));
        }
    }
    let (_, syntax) = heaplab_syntax::parse(&SourceFile::new("t.hl", hl.as_str()));
    if !syntax.is_empty() {
        return Err(format!("translation of {text:?} does not parse: {syntax:?}\n{hl}"));
    }
    Ok(())
}

fn corpus() -> Vec<String> {
    files(&test_data("ok"), "jsf")
        .iter()
        .chain(&files(&test_data("err"), "jsf"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

#[test]
fn fuzz_truncations() {
    let mut failures = Vec::new();
    for text in corpus() {
        let boundaries: Vec<usize> =
            (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        let step = (boundaries.len() / 150).max(1);
        for &cut in boundaries.iter().step_by(step) {
            if let Err(e) = survive(&text[..cut]) {
                failures.push(e);
            }
            if let Err(e) = survive(&text[cut..]) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures[..failures.len().min(5)].join("\n"));
}

#[test]
fn fuzz_mutations_and_token_soup() {
    const SOUP: &[&str] = &[
        "data",
        "pred",
        "pre",
        "Node",
        "x",
        "y",
        "_",
        "null",
        "emp",
        "true",
        "this_root",
        "0",
        "1",
        "99999999999999999999",
        "::",
        "==",
        "=",
        "!=",
        "||",
        "|",
        "&",
        "&&",
        "*",
        "#",
        "+",
        "-",
        "/",
        "<",
        ">",
        "<=",
        ">=",
        "(",
        ")",
        "{",
        "}",
        ",",
        ";",
        "\n",
        "star.data=",
        "star.max_depth=3",
        "int",
        "boolean",
        "Object",
        "//c\n",
        "/*",
        "*/",
        "\\\n",
        "é",
    ];
    let corpus = corpus();
    let mut rng = Rng(0x5eed_1234_abcd_0042);
    let mut failures = Vec::new();
    for _ in 0..600 {
        let base = &corpus[rng.below(corpus.len())];
        let mut bytes = base.as_bytes().to_vec();
        for _ in 0..1 + rng.below(4) {
            if bytes.is_empty() {
                break;
            }
            let at = rng.below(bytes.len());
            match rng.below(3) {
                0 => {
                    bytes.remove(at);
                }
                1 => bytes.insert(at, b"<>(),:=|&*_#;{}"[rng.below(15)]),
                _ => {
                    let other = rng.below(bytes.len());
                    bytes.swap(at, other);
                }
            }
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Err(e) = survive(&text) {
            failures.push(e);
        }
    }
    for _ in 0..400 {
        let n = 1 + rng.below(40);
        let text: Vec<&str> = (0..n).map(|_| SOUP[rng.below(SOUP.len())]).collect();
        if let Err(e) = survive(&text.join(" ")) {
            failures.push(e);
        }
    }
    for depth in [50usize, 101, 1000, 20000] {
        let nested = format!("pred p(x) == {}x = 1{}", "(".repeat(depth), ")".repeat(depth));
        let minus = format!("pred p(x) == x = {}1", "-".repeat(depth));
        let atoms = format!("pred p(x) == {}x = 1", "(x = 1 * ".repeat(depth));
        for text in [nested, minus, atoms] {
            if let Err(e) = survive(&text) {
                failures.push(e.chars().take(300).collect());
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures[..failures.len().min(5)].join("\n"));
}

#[test]
fn jsf_module_is_reachable() {
    // The public items used by callers.
    let (imported, diags) = jsf::import("");
    assert!(diags.is_empty());
    assert!(imported.program.items.is_empty());
}
