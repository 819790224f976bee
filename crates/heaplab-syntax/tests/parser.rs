//! Data-driven parser tests. Every `test_data/parser/ok/NNNN_name.hl` must parse without
//! diagnostics; its `.expected` is the pretty-printed program. Every `err/` file must produce
//! diagnostics; its `.expected` is the rendered diagnostics followed by the recovered tree. A
//! missing `.expected` is written; `UPDATE_EXPECT=1` rewrites them all (review the diff).
//!
//! The round-trip property (printing then parsing gives the same tree, modulo spans and ids) is
//! checked on every `ok` file and on every `examples/*.hl` that parses cleanly.

#![allow(clippy::unwrap_used)]

use heaplab_syntax::ast::{Expr, ExprKind, Item, NodeId, Program, StmtKind};
use heaplab_syntax::diagnostic::render_all;
use heaplab_syntax::parser::{parse_expr, parse_expr_with_base, parse_formula, parse_program};
use heaplab_syntax::{pretty, SourceFile};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn test_data(suite: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/parser").join(suite)
}

fn hl_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "hl"))
        .collect();
    files.sort();
    files
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// The one helper every case goes through: the text a case's `.expected` holds.
fn check(name: &str, text: &str, expect_errors: bool) -> Result<String, String> {
    let (program, diags) = parse_program(text);
    let file = SourceFile::new(name, text);
    let rendered = render_all(&diags, &file);
    if expect_errors {
        if diags.is_empty() {
            return Err(format!("{name}: expected syntax errors, got none"));
        }
        Ok(format!("{rendered}--- recovered tree ---\n{}", pretty::program(&program)))
    } else if !diags.is_empty() {
        Err(format!("{name}: unexpected diagnostics:\n{rendered}"))
    } else {
        Ok(pretty::program(&program))
    }
}

fn run_suite(suite: &str, expect_errors: bool) {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let files = hl_files(&test_data(suite));
    assert!(!files.is_empty(), "no test files in {suite}");
    let mut failures = Vec::new();
    for path in files {
        let name = file_name(&path);
        let text = std::fs::read_to_string(&path).unwrap();
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
}

#[test]
fn ok_cases() {
    run_suite("ok", false);
}

#[test]
fn err_cases() {
    run_suite("err", true);
}

// ---- Round trip ---------------------------------------------------------------------------

/// The `Debug` form of a tree with every span (`12..34`) and id (`NodeId(5)`) blanked, so two
/// trees compare equal when they differ only there.
fn strip(program: &Program) -> String {
    let debug = format!("{program:?}");
    let bytes = debug.as_bytes();
    let mut out = String::with_capacity(debug.len());
    let mut i = 0;
    while i < bytes.len() {
        if debug[i..].starts_with("NodeId(") {
            let close = debug[i..].find(')').unwrap();
            out.push_str("NodeId(_)");
            i += close + 1;
            continue;
        }
        if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) {
            let mut j = i;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            if debug[j..].starts_with("..") {
                let mut k = j + 2;
                while k < bytes.len() && bytes[k].is_ascii_digit() {
                    k += 1;
                }
                if k > j + 2 {
                    out.push('S');
                    i = k;
                    continue;
                }
            }
            out.push_str(&debug[i..j]);
            i = j;
            continue;
        }
        let ch = debug[i..].chars().next().unwrap();
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// Checks the round trip on one clean source; returns a failure message.
fn round_trip(name: &str, text: &str) -> Option<String> {
    let (first, diags) = parse_program(text);
    if !diags.is_empty() {
        return None;
    }
    let printed = pretty::program(&first);
    let (second, diags) = parse_program(&printed);
    if !diags.is_empty() {
        let file = SourceFile::new(format!("pretty({name})"), printed.as_str());
        return Some(format!(
            "{name}: printed program does not parse:\n{}",
            render_all(&diags, &file)
        ));
    }
    if strip(&first) != strip(&second) {
        return Some(format!("{name}: tree changed by printing; printed:\n{printed}"));
    }
    let reprinted = pretty::program(&second);
    if reprinted != printed {
        return Some(format!("{name}: printing is not idempotent:\n{printed}\n---\n{reprinted}"));
    }
    None
}

#[test]
fn round_trip_test_data() {
    let failures: Vec<String> = hl_files(&test_data("ok"))
        .into_iter()
        .filter_map(|p| round_trip(&file_name(&p), &std::fs::read_to_string(&p).unwrap()))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn round_trip_examples() {
    // The examples are written alongside this crate; test whatever is there.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let failures: Vec<String> = hl_files(&dir)
        .into_iter()
        .filter_map(|p| round_trip(&file_name(&p), &std::fs::read_to_string(&p).ok()?))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---- API and invariants ---------------------------------------------------------------------

fn collect_ids(e: &Expr, acc: &mut Vec<NodeId>) {
    acc.push(e.id);
    match &e.kind {
        ExprKind::Field { object, .. } => collect_ids(object, acc),
        ExprKind::Unary { operand, .. } | ExprKind::Old(operand) => collect_ids(operand, acc),
        ExprKind::Binary { lhs, rhs, .. } => {
            collect_ids(lhs, acc);
            collect_ids(rhs, acc);
        }
        ExprKind::Cond { cond, then_expr, else_expr } => {
            collect_ids(cond, acc);
            collect_ids(then_expr, acc);
            collect_ids(else_expr, acc);
        }
        ExprKind::Call { args, .. } => args.iter().for_each(|a| collect_ids(a, acc)),
        ExprKind::MethodCall { receiver, args, .. } => {
            collect_ids(receiver, acc);
            args.iter().for_each(|a| collect_ids(a, acc));
        }
        ExprKind::New { fields, .. } => fields.iter().for_each(|f| collect_ids(&f.value, acc)),
        _ => {}
    }
}

#[test]
fn expression_ids_are_unique_and_based() {
    let (e, diags) = parse_expr("a.f(1, 2) + (b ? -c : old(d)) * new C { x: 3 }.x");
    assert!(diags.is_empty(), "{diags:?}");
    let mut ids = Vec::new();
    collect_ids(&e.unwrap(), &mut ids);
    let unique: HashSet<_> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len());
    assert!(ids.iter().all(|id| id.0 >= 1_000_000_000));

    let (e, _) = parse_expr_with_base("x + 1", 7);
    let mut ids = Vec::new();
    collect_ids(&e.unwrap(), &mut ids);
    assert!(ids.iter().all(|id| (7..10).contains(&id.0)), "{ids:?}");
}

#[test]
fn program_ids_are_unique() {
    let text = std::fs::read_to_string(test_data("ok").join("0002_statements.hl")).unwrap();
    let (program, _) = parse_program(&text);
    let debug = format!("{program:?}");
    let ids: Vec<&str> = debug.match_indices("NodeId(").map(|(i, _)| &debug[i..]).collect();
    let ids: Vec<&str> = ids.iter().map(|s| &s[..s.find(')').unwrap()]).collect();
    let unique: HashSet<_> = ids.iter().collect();
    assert!(ids.len() > 50);
    assert_eq!(unique.len(), ids.len());
}

#[test]
fn standalone_expression_and_formula() {
    let (e, diags) = parse_expr("insert(3)");
    assert!(diags.is_empty());
    assert!(matches!(e.unwrap().kind, ExprKind::Call { .. }));

    let (e, diags) = parse_expr("1 + 2 )");
    assert!(e.is_none());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].message, "unexpected `)` after the expression");

    let (f, diags) = parse_formula("exists Node n. x -> Node { next: n } * list(n) | x == null");
    assert!(diags.is_empty());
    let f = f.unwrap();
    assert_eq!(f.disjuncts.len(), 2);
    assert_eq!(pretty::formula(&f), "exists Node n. x -> Node { next: n } * list(n) | x == null");

    let (f, diags) = parse_formula("x * ");
    assert!(f.is_none());
    assert!(!diags.is_empty());
}

#[test]
fn missing_semicolon_points_at_end_of_line() {
    let text = "void f() {\n  int x = 1\n  x = 2;\n}\n";
    let (program, diags) = parse_program(text);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].message, "expected `;`, found `x`");
    let pos = SourceFile::new("a.hl", text).line_col(diags[0].span.start);
    assert_eq!((pos.line, pos.col), (2, 12));
    let Item::Function(f) = &program.items[0] else { panic!("not a function") };
    assert_eq!(f.body.stmts.len(), 2);
    assert!(matches!(f.body.stmts[1].kind, StmtKind::Assign { .. }));
}

#[test]
fn deep_nesting_is_a_diagnostic() {
    for depth in [120usize, 128, 300, 5000] {
        let text = format!("int f() {{ return {}1{}; }}", "(".repeat(depth), ")".repeat(depth));
        let (_, diags) = parse_program(&text);
        let too_deep = diags.iter().any(|d| d.message == "expression nested too deeply");
        assert_eq!(too_deep, depth >= 128, "depth {depth}: {diags:?}");
        let text = format!("bool f() {{ return {}true; }}", "!".repeat(depth));
        let _ = parse_program(&text);
        let text = format!("pred p(int x) := {}x == 1{};", "(".repeat(depth), ")".repeat(depth));
        let _ = parse_program(&text);
    }
}

/// Issue #21, item 11: the nesting limit counts nesting, not length. A flat sum or conjunction
/// of hundreds of terms in a formula is accepted (it is built balanced); parentheses nested 128
/// deep are not.
#[test]
fn flat_chains_in_formulas_are_not_nesting() {
    for n in [128usize, 1000] {
        let sum = vec!["x"; n].join(" + ");
        let text = format!("pred p(int x) := {sum} == 0 & {};", vec!["x > 0"; n].join(" && "));
        let (_, diags) = parse_program(&text);
        assert!(diags.is_empty(), "{n} terms: {diags:?}");
        let (f, diags) = heaplab_syntax::parser::parse_formula(&format!("{sum} == {n}"));
        assert!(diags.is_empty() && f.is_some(), "{n} terms: {diags:?}");
    }
    let deep = format!("pred p(int x) := {}x{} == 0;", "(x + ".repeat(130), ")".repeat(130));
    let (_, diags) = parse_program(&deep);
    assert!(diags.iter().any(|d| d.message == "expression nested too deeply"), "{diags:?}");
}

/// Issue 33: `expects bug KIND` marks an error-revealing test; `bug` stays an ordinary name
/// elsewhere (and `expects bug` with no kind is an error with a place, not a panic).
#[test]
fn expects_bug_marks_an_error_revealing_test() {
    use heaplab_syntax::ast::{ErrorKind, Expectation, Item};
    let text = "int bug(int bug) { return bug; }\n\
                test t expects bug ensures_failed { int bug = 1; assert bug == 1; }\n\
                test u expects null_dereference { }\n";
    let a = heaplab_syntax::analyze(&heaplab_syntax::SourceFile::new("b.hl", text));
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    let tests: Vec<_> = a
        .program
        .items
        .iter()
        .filter_map(|i| if let Item::Test(t) = i { Some(t) } else { None })
        .collect();
    assert_eq!(tests[0].expect, Expectation::Error(ErrorKind::EnsuresFailed));
    assert!(tests[0].bug && !tests[1].bug);
    let printed = heaplab_syntax::pretty::program(&a.program);
    assert!(printed.contains("test t expects bug ensures_failed {"), "{printed}");
    assert!(printed.contains("test u expects null_dereference {"), "{printed}");
    let bad = "test v expects bug { }\n";
    let b = heaplab_syntax::analyze(&heaplab_syntax::SourceFile::new("c.hl", bad));
    assert!(b.has_errors());
}
