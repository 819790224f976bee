//! Arrays in the concrete interpreter: allocation with defaults, literals, bounds-checked reads
//! and writes (`index_out_of_bounds`), negative sizes, null arrays, `length`, the heap limit, and
//! test blocks that expect the new error kinds.

use heaplab_engine::{eval_call, run_tests, LimitKind, Limits, Outcome, TestResult, Value};
use heaplab_syntax::ast::ErrorKind;
use heaplab_syntax::diagnostic::render_all;
use heaplab_syntax::parser::parse_expr_with_base;
use heaplab_syntax::{analyze, SourceFile};

const SORT: &str = "
class Sorter {
  int[] data;
}

void isort(int[] a) {
  for (int i = 1; i < a.length; i++) {
    int j = i;
    int b = a[j];
    while (j > 0 && a[j - 1] > b) {
      a[j] = a[j - 1];
      j--;
    }
    a[j] = b;
  }
}

int sum(int[] a) {
  int s = 0;
  for (int i = 0; i < a.length; i++) {
    s += a[i];
  }
  return s;
}

int at(int[] a, int i) {
  return a[i];
}

void put(int[] a, int i, int v) {
  a[i] = v;
}

int[] make(int n) {
  return new int[n];
}

Sorter[] links(int n) {
  Sorter[] s = new Sorter[n];
  s[0] = new Sorter { data: new int[]{7} };
  return s;
}
";

fn run(expr: &str, limits: Limits) -> (Outcome, heaplab_engine::Heap) {
    let file = SourceFile::new("t.hl", SORT);
    let analysis = analyze(&file);
    assert!(!analysis.has_errors(), "{}", render_all(&analysis.diagnostics, &file));
    let (e, diags) = parse_expr_with_base(expr, 1_000_000_000);
    assert!(diags.is_empty(), "{diags:?}");
    let e = e.expect("expression parses");
    eval_call(&analysis.program, &analysis.info, &e, limits).expect("no internal error")
}

fn error_kind(expr: &str) -> (ErrorKind, String) {
    match run(expr, Limits::default()).0 {
        Outcome::Error(e) => (e.kind, e.message),
        other => panic!("{expr}: expected an error, got {other:?}"),
    }
}

#[test]
fn new_arrays_hold_defaults_and_literals_their_values() {
    assert_eq!(
        run("sum(new int[]{3, 4, 5})", Limits::default()).0,
        Outcome::Returned(Value::Int(12))
    );
    assert_eq!(run("sum(new int[4])", Limits::default()).0, Outcome::Returned(Value::Int(0)));
    assert_eq!(run("sum(new int[0])", Limits::default()).0, Outcome::Returned(Value::Int(0)));
    assert_eq!(
        run("at(new int[]{3, 4, 5}, 2)", Limits::default()).0,
        Outcome::Returned(Value::Int(5))
    );
    let (out, heap) = run("links(2)", Limits::default());
    let Outcome::Returned(Value::Ref(Some(id))) = out else { panic!("{out:?}") };
    assert_eq!(heap.array_len(id), Some(2));
    assert_eq!(heap.cell(id, 1), Some(Value::NULL));
    assert!(heap.render().contains("Sorter[] [o"), "{}", heap.render());
}

#[test]
fn out_of_bounds_reads_and_writes_are_an_outcome() {
    let (k, m) = error_kind("at(new int[]{1, 2}, 2)");
    assert_eq!(k, ErrorKind::IndexOutOfBounds);
    assert_eq!(m, "reading cell 2 of an array of length 2");
    assert_eq!(error_kind("at(new int[]{1, 2}, -1)").0, ErrorKind::IndexOutOfBounds);
    assert_eq!(error_kind("at(new int[0], 0)").0, ErrorKind::IndexOutOfBounds);
    let (k, m) = error_kind("put(new int[3], 3, 1)");
    assert_eq!(k, ErrorKind::IndexOutOfBounds);
    assert_eq!(m, "writing cell 3 of an array of length 3");
}

#[test]
fn null_arrays_and_negative_sizes() {
    assert_eq!(error_kind("at(null, 0)").0, ErrorKind::NullDereference);
    assert_eq!(error_kind("put(null, 0, 1)").0, ErrorKind::NullDereference);
    assert_eq!(error_kind("sum(null)").0, ErrorKind::NullDereference);
    let (k, m) = error_kind("make(-1)");
    assert_eq!(k, ErrorKind::NegativeArraySize);
    assert_eq!(m, "allocating an array of length -1");
}

#[test]
fn a_huge_array_hits_the_heap_limit_before_allocating() {
    let limits = Limits { heap_cells: 100, ..Limits::default() };
    match run("make(1000000000000)", limits).0 {
        Outcome::Error(e) => {
            assert_eq!(e.kind, ErrorKind::BoundExhausted);
            assert_eq!(e.limit, Some(LimitKind::HeapCells));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(run("sum(make(98))", limits).0, Outcome::Returned(Value::Int(0)));
}

#[test]
fn insertion_sort_sorts_and_tests_expect_array_errors() {
    let src = format!(
        "{SORT}
test sorts {{
  int[] a = new int[]{{5, 1, 4, 1}};
  isort(a);
  assert a[0] == 1 && a[1] == 1 && a[2] == 4 && a[3] == 5;
  a[3] -= 2;
  a[3]++;
  assert a[3] == 4 && a.length == 4;
}}
test oob expects index_out_of_bounds {{
  int[] a = new int[2];
  a[2] = 1;
}}
test neg expects negative_array_size {{
  int[] a = new int[-3];
}}
"
    );
    let file = SourceFile::new("t.hl", &src);
    let analysis = analyze(&file);
    assert!(!analysis.has_errors(), "{}", render_all(&analysis.diagnostics, &file));
    let results: Vec<TestResult> = run_tests(&analysis.program, &analysis.info, Limits::default());
    assert_eq!(results.len(), 3);
    for r in &results {
        assert!(r.passed, "{}: {:?}", r.name, r.outcome);
    }
}
