//! Predicate warnings the checker cannot give.
mod common;

use heaplab_logic::diagnostics::check_predicates;
use heaplab_logic::Defs;

#[test]
fn predicate_warnings() {
    let src = r#"
class L { int val; L next; }
pred sll(L x) := x == null | exists L n. x -> L { next: n } * sll(n);
pred never(L x) := exists L n. x -> L { next: n } * never(n);
pred uses_never(L x) := x == null & never(x) | x == null & x != null;
pred contradictory(L x) := x == null & x != null | exists L n. x -> L { next: n } * sll(n) & x == null;
pred dead(L x, int k) := x == null & k > 0 | x == null & k < 0 & k > 0 | exists L n. x -> L { next: n } * dead(n, k) & k > 0;
pred counter(L a, L b, L c) :=
    a != null & b != null & c != null & a == null
  | exists L a1. counter(a1, b, c) & a == null & a1 != null
  | exists L a1, L b1. counter(a1, b1, c) & a != null & b == null & a1 == null & b1 != null
  | exists L a1, L b1, L c1. counter(a1, b1, c1) & a != null & b != null & c == null & a1 == null & b1 == null & c1 != null;
"#;
    let (program, diags) = heaplab_syntax::parser::parse_program(src);
    assert!(diags.is_empty(), "{diags:?}");
    let (defs, errors) = Defs::from_program(&program);
    assert!(errors.is_empty(), "{errors:?}");
    let warnings = check_predicates(&program, &defs, &mut common::solver());
    let msgs: Vec<String> = warnings.iter().map(|d| d.message.clone()).collect();
    let has = |s: &str| msgs.iter().any(|m| m.contains(s));
    assert!(has("predicate `never` never reaches a base case"), "{msgs:#?}");
    assert!(!has("predicate `sll`"), "{msgs:#?}");
    // uses_never: productive via its second disjunct, which is contradictory; the first needs
    // `never`, which has no finite model: the whole predicate is unsatisfiable.
    assert!(has("predicate `uses_never` can never be satisfied"), "{msgs:#?}");
    assert!(has("predicate `contradictory` can never be satisfied"), "{msgs:#?}");
    assert!(has("this disjunct of `dead` can never hold"), "{msgs:#?}");
    // counter: only its base case is contradictory on its own, and the search is cut before
    // it could close the counting disjuncts; the base pairs show no unfolding is consistent.
    assert!(has("predicate `counter` can never be satisfied"), "{msgs:#?}");
    assert_eq!(msgs.iter().filter(|m| m.contains("`dead`")).count(), 1, "{msgs:#?}");
}

/// CPU time of the current thread, from /proc (Linux); `None` elsewhere.
fn thread_cpu() -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which is in parentheses): utime and stime are the 12th and
    // 13th, in clock ticks of 1/100 s.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(std::time::Duration::from_millis(ticks * 10))
}

/// 60 predicates with 6 disjuncts each, many parameters, recursive and contradictory
/// disjuncts, under 200 lines.
fn many_predicates() -> String {
    let mut src = String::from("class N { N l; N r; int v; }\n");
    for i in 0..60 {
        let (j, k) = ((i + 1) % 60, (i + 7) % 60);
        let refs = "N x0, N x1, N x2, N x3, N x4, N x5";
        src.push_str(&format!(
            "pred p{i}({refs}, int a, int b, int c) := a < b & b < c & c < a | x0 -> N {{ l: x1, r: x2, v: a }} * x3 -> N {{ l: x4, r: x5, v: b }} & a + b == c & a - b == c & b > 0 & a != c\n  \
             | exists N u, int d. x0 -> N {{ l: u, r: x5, v: d }} * p{j}(u, x1, x2, x3, x4, x5, d, b, c) * p{k}(x1, u, x3, x2, x5, x4, a, d, c) & a < d & (d != b || c < 9) | a == b & b != a + 0\n  \
             | x0 == x1 & x1 != x2 & a > c & c > b & b > a | exists N u. x0 -> N {{ l: u, r: u, v: c }} * p{j}(x1, u, x2, x3, x4, x5, c, b, a) & b < a & a - c <= 2;\n"
        ));
    }
    src
}

/// Issue #21, item 8: predicate diagnostics and invariants take time polynomial in the program,
/// within a budget, so `heaplab check` on a program under 200 lines answers in well under a
/// second (it took minutes). The one timed test the issue asks for; measured in CPU time of
/// this thread so a loaded machine does not make it flaky, and generous: the work is about a
/// fifth of the bound in a debug build.
#[test]
fn many_predicates_are_checked_within_a_second() {
    let src = many_predicates();
    assert!(src.lines().count() < 200);
    let started = std::time::Instant::now();
    let cpu = thread_cpu();
    let a = heaplab_syntax::analyze(&heaplab_syntax::SourceFile::new("many.hl", src));
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    let (defs, errors) = Defs::from_program(&a.program);
    assert!(errors.is_empty(), "{errors:?}");
    let warnings = check_predicates(&a.program, &defs, &mut heaplab_logic::NoSolver);
    let spent = match (cpu, thread_cpu()) {
        (Some(before), Some(after)) => after - before,
        _ => started.elapsed(),
    };
    // The pure contradictions are found (the budget goes to the cheap questions first).
    let contradictions = warnings.iter().filter(|d| d.message.contains("can never hold")).count();
    eprintln!(
        "{} warnings ({contradictions} contradictory disjuncts) in {spent:?} of CPU",
        warnings.len()
    );
    assert!(contradictions >= 60, "{contradictions} warnings");
    assert!(spent.as_millis() < 1000, "{spent:?}");
}
