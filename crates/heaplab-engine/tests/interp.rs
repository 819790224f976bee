//! The concrete interpreter on real HeapLab source: every runtime error kind with its span,
//! contracts, control flow, limits, test-block expectations, and the heap API.

use heaplab_engine::{
    eval_call, run_tests, Error, Heap, Interpreter, LimitKind, Limits, Outcome, TestResult, Value,
};
use heaplab_syntax::ast::{ErrorKind, Expectation};
use heaplab_syntax::diagnostic::render_all;
use heaplab_syntax::parser::parse_expr_with_base;
use heaplab_syntax::{analyze, Analysis, SourceFile};

struct Loaded {
    file: SourceFile,
    analysis: Analysis,
}

/// Parses and checks `src`, failing the test on any diagnostic error.
fn load(src: &str) -> Loaded {
    let file = SourceFile::new("t.hl", src);
    let analysis = analyze(&file);
    assert!(!analysis.has_errors(), "{}", render_all(&analysis.diagnostics, &file));
    Loaded { file, analysis }
}

fn tests_of(l: &Loaded) -> Vec<TestResult> {
    run_tests(&l.analysis.program, &l.analysis.info, Limits::default())
}

/// Runs the single test block of `src`.
fn single(src: &str) -> (Loaded, TestResult) {
    let l = load(src);
    let mut results = tests_of(&l);
    assert_eq!(results.len(), 1, "expected exactly one test block");
    let r = results.remove(0);
    (l, r)
}

/// Runs the single test of `src`, which must end with a runtime error of `kind`; returns the
/// source text under the error's span and its description.
fn error_in(src: &str, kind: ErrorKind) -> (String, String) {
    let (l, r) = single(src);
    match &r.outcome {
        Ok(Outcome::Error(e)) if e.kind == kind => {
            (l.file.slice(e.span).to_string(), e.describe(&l.file))
        }
        other => panic!("expected {kind:?}, got {other:?}"),
    }
}

/// Evaluates `expr` against the declarations of `src` on a fresh heap.
fn eval_with(src: &str, expr: &str, limits: Limits) -> (Outcome, Heap) {
    let l = load(src);
    let (e, diags) = parse_expr_with_base(expr, 1_000_000_000);
    assert!(diags.is_empty(), "{diags:?}");
    let e = e.expect("expression parses");
    eval_call(&l.analysis.program, &l.analysis.info, &e, limits).expect("no internal error")
}

fn eval(src: &str, expr: &str) -> Outcome {
    eval_with(src, expr, Limits::default()).0
}

const LIST: &str = "
class Node { int key; Node next; }

int length(Node n) {
  int k = 0;
  while (n != null) { k = k + 1; n = n.next; }
  return k;
}

int sum(int a, int b) { return a + b; }
";

// ---- arithmetic ----------------------------------------------------------------------------

#[test]
fn division_truncates_toward_zero_like_java() {
    assert_eq!(eval(LIST, "-7 / 2"), Outcome::Returned(Value::Int(-3)));
    assert_eq!(eval(LIST, "-7 % 2"), Outcome::Returned(Value::Int(-1)));
    assert_eq!(eval(LIST, "7 % -2"), Outcome::Returned(Value::Int(1)));
    assert_eq!(eval(LIST, "7 / -2"), Outcome::Returned(Value::Int(-3)));
    assert_eq!(eval(LIST, "(0 - 9223372036854775807 - 1) % -1"), Outcome::Returned(Value::Int(0)));
    assert_eq!(eval(LIST, "2 + 3 * 4 - 10 / 3"), Outcome::Returned(Value::Int(11)));
    assert_eq!(eval(LIST, "3 # 4"), Outcome::Returned(Value::Int(12)));
}

#[test]
fn integer_overflow_is_an_error_with_the_operation_span() {
    let (text, msg) = error_in(
        "test t { int x = 9223372036854775807; int y = x + 1; }",
        ErrorKind::IntegerOverflow,
    );
    assert_eq!(text, "x + 1");
    assert!(msg.starts_with("integer overflow at 1:47:"), "{msg}");
    let (text, _) = error_in(
        "test t { int m = 0 - 9223372036854775807 - 1; int z = -m; }",
        ErrorKind::IntegerOverflow,
    );
    assert_eq!(text, "-m");
    let (text, _) = error_in(
        "test t { int m = 0 - 9223372036854775807 - 1; int z = m / -1; }",
        ErrorKind::IntegerOverflow,
    );
    assert_eq!(text, "m / -1");
    let (text, _) =
        error_in("test t { int m = 3037000500; int z = m * m; }", ErrorKind::IntegerOverflow);
    assert_eq!(text, "m * m");
}

#[test]
fn division_by_zero() {
    let (text, msg) =
        error_in("test t { int a = 1; int b = 0; int c = a / b; }", ErrorKind::DivisionByZero);
    assert_eq!(text, "a / b");
    assert!(msg.starts_with("division by zero at 1:40"), "{msg}");
    let (text, _) =
        error_in("test t { int a = 1; int c = a % (a - 1); }", ErrorKind::DivisionByZero);
    assert_eq!(text, "a % (a - 1)");
}

// ---- null dereference ----------------------------------------------------------------------

#[test]
fn null_dereference_on_read_write_and_call() {
    let src = "class Node { int key; Node next; int get() { return this.key; } }\n";
    let (text, msg) = error_in(
        &format!("{src}test t {{\n  Node n = null;\n  int k = n.key;\n}}"),
        ErrorKind::NullDereference,
    );
    assert_eq!(text, "n.key");
    assert_eq!(msg, "null dereference at 4:11: reading field `key` of null");

    let (text, msg) = error_in(
        &format!("{src}test t {{ Node n = new Node; n.next.key = 3; }}"),
        ErrorKind::NullDereference,
    );
    assert!(text.starts_with("n.next.key = 3"), "{text}");
    assert!(msg.contains("writing field `key` of null"), "{msg}");

    let (text, msg) = error_in(
        &format!("{src}test t {{ Node n = new Node; int k = n.next.get(); }}"),
        ErrorKind::NullDereference,
    );
    assert_eq!(text, "n.next.get()");
    assert!(msg.contains("calling method `get` on null"), "{msg}");
}

// ---- assert / assume -----------------------------------------------------------------------

#[test]
fn assert_failed_points_at_the_statement() {
    let (text, msg) =
        error_in("test t {\n  int x = 1;\n  assert x == 2;\n}", ErrorKind::AssertFailed);
    assert!(text.starts_with("assert x == 2"), "{text}");
    assert!(msg.starts_with("assertion failed at 3:3"), "{msg}");
}

#[test]
fn assume_false_stops_without_an_error_and_fails_the_test() {
    let (l, r) = single("test t { int x = 1; assume x == 2; assert false; }");
    assert!(matches!(r.outcome, Ok(Outcome::AssumptionViolated { .. })), "{:?}", r.outcome);
    assert!(!r.passed);
    assert!(r.describe(&l.file).contains("assumption violated at 1:21"), "{}", r.describe(&l.file));
    assert!(r.message.contains("does not reach"), "{}", r.message);
    assert_eq!(r.outcome.as_ref().ok().and_then(Outcome::error_kind), None);
}

// ---- throw, for, updates, shifts ------------------------------------------------------------

#[test]
fn an_uncaught_throw_ends_the_run_naming_the_class_after_the_object_is_built() {
    let src = "class Gone {}\nclass Box { int v; }\nint take(Box b) {\n  if (b.v == 0) throw new Gone();\n  return b.v;\n}\n";
    let (text, msg) = error_in(
        &format!("{src}test t {{\n  Box b = new Box;\n  int x = take(b);\n}}"),
        ErrorKind::Exception,
    );
    assert_eq!(text, "throw new Gone();");
    assert!(msg.starts_with("uncaught exception at 4:17: `Gone` thrown"), "{msg}");
    // Building the exception object fails first: a null dereference, not an exception.
    let (_, msg) = error_in(
        "class E { int v; }\nclass B { int w; }\ntest t {\n  B b = null;\n  throw new E { v: b.w };\n}",
        ErrorKind::NullDereference,
    );
    assert!(msg.contains("5:"), "{msg}");
}

#[test]
fn catch_takes_the_innermost_clause_of_the_class_across_calls_and_restores_the_frame() {
    let src = "class Gone { int v; }\nclass Other {}\nint deep(int n) {\n  if (n == 0) throw new Gone { v: 7 };\n  int r = 1 + deep(n - 1);\n  return r;\n}\nint wrap(int n) {\n  int k = 5;\n  try {\n    try {\n      k = deep(n);\n    } catch (Other o) {\n      k = -1;\n    }\n  } catch (Gone g) {\n    k = k * 100 + g.v;\n  }\n  return k;\n}\n";
    // `deep(3)` throws four frames down; the inner `catch (Other o)` does not match; the outer
    // one runs in `wrap`'s frame with `k` as it was (5) and the object's field.
    assert_eq!(eval(src, "wrap(3)"), Outcome::Returned(Value::Int(507)));
    let (_, r) = single(&format!(
        "{src}test t {{\n  int s = 0;\n  for (int i = 0; i < 3; i++) {{\n    try {{\n      if (i == 1) throw new Other();\n      s += 1;\n    }} catch (Other o) {{\n      s += 10;\n    }}\n  }}\n  assert s == 12;\n}}"
    ));
    assert!(r.passed, "{:?}", r.outcome);
    // A class no clause names is uncaught, at the `throw`.
    let (text, msg) = error_in(
        "class A {}\nclass B {}\ntest t {\n  try {\n    throw new B();\n  } catch (A a) {\n  }\n}",
        ErrorKind::Exception,
    );
    assert_eq!(text, "throw new B();");
    assert!(msg.contains("5:5") && msg.contains("`B` thrown"), "{msg}");
    // A throw inside a `catch` block is not caught by the same `try`.
    let (_, msg) = error_in(
        "class A {}\ntest t {\n  try {\n    throw new A();\n  } catch (A a) {\n    throw new A();\n  }\n}",
        ErrorKind::Exception,
    );
    assert!(msg.contains("6:5"), "{msg}");
}

#[test]
fn try_catch_mistakes_are_diagnosed_with_a_location() {
    for (src, needle) in [
        ("class A {}\ntest t { try { } catch (Nope n) { } }", "unknown class `Nope` in `catch`"),
        ("class A {}\ntest t { try { } }", "expected `catch (X e) { … }` after the `try` block"),
        (
            "class A {}\ntest t { try { } catch (A a) { } catch (A b) { } }",
            "`A` is already caught by an earlier `catch`",
        ),
        ("class A {}\ntest t { int a = 0; try { } catch (A a) { } }", "`a` is already declared"),
        ("class A {}\ntest t { try { } catch (A) { } }", "a name for the caught exception"),
    ] {
        let file = SourceFile::new("t.hl", src);
        let a = analyze(&file);
        let text = render_all(&a.diagnostics, &file);
        assert!(a.has_errors() && text.contains(needle), "{src}: {text}");
        assert!(text.contains("t.hl:2:"), "{text}");
    }
}

#[test]
fn for_loops_updates_and_shifts_compute_as_in_java() {
    let (_, r) = single(
        "test t {\n  int s = 0;\n  for (int i = 0; i < 10; i++) { if (i % 2 == 0) s += i; else s -= 1; }\n  assert s == 20 - 5;\n  int m = -7;\n  m >>= 1;\n  assert m == -4 && (-8 >> 2) == -2 && (5 >> 1) == 2 && (3 << 2) == 12;\n  int j = 10;\n  j--; j *= 3; j /= 2; j %= 5;\n  assert j == 3;\n}",
    );
    assert!(r.passed, "{:?}", r.outcome);
    let (_, msg) = error_in(
        "test t {\n  int x = 4611686018427387904;\n  x <<= 1;\n}",
        ErrorKind::IntegerOverflow,
    );
    assert!(msg.contains("3:"), "{msg}");
}

#[test]
fn java_ints_wrap_as_java_int_and_long() {
    let (_, r) = single(
        "ints java32;\ntest t {\n  int m = 2147483647;\n  m++;\n  assert m == -2147483647 - 1;\n  assert -m == m && m / -1 == m && m - 1 == 2147483647;\n  assert 65536 * 65536 == 0 && (1 << 33) == 2 && (-8 >> 33) == -4 && 7 % -1 == 0;\n}",
    );
    assert!(r.passed, "{:?}", r.outcome);
    let (_, r) = single(
        "ints java64;\ntest t {\n  int m = 9223372036854775807;\n  m += 1;\n  assert m == -9223372036854775808;\n  assert -m == m && m / -1 == m && m * 2 == 0;\n  assert (3 << 62) == -4611686018427387904;\n}",
    );
    assert!(r.passed, "{:?}", r.outcome);
    let (_, msg) = error_in(
        "ints java64;\ntest t {\n  int z = 0;\n  int x = 1 / z;\n}",
        ErrorKind::DivisionByZero,
    );
    assert!(msg.contains("4:"), "{msg}");
}

// ---- contracts -----------------------------------------------------------------------------

const COUNTER: &str = "
class Counter {
  int n;
  void inc() ensures this.n == old(this.n) + 1 { this.n = this.n + 1; }
  void bad() ensures this.n == old(this.n) + 1 { this.n = this.n + 2; }
  int twice(int x) ensures result == 2 * x { return x + x; }
  int wrong(int x) ensures result == 2 * x { return x; }
}
";

#[test]
fn ensures_with_old_and_result() {
    let (_, r) = single(&format!(
        "{COUNTER}test ok {{ Counter c = new Counter; c.inc(); c.inc(); assert c.n == 2; \
         assert c.twice(21) == 42; }}"
    ));
    assert!(r.passed, "{}", r.message);

    let (text, msg) = error_in(
        &format!("{COUNTER}test t {{ Counter c = new Counter {{ n: 5 }}; c.bad(); }}"),
        ErrorKind::EnsuresFailed,
    );
    assert_eq!(text, "this.n == old(this.n) + 1");
    assert!(msg.contains("`bad`"), "{msg}");

    let (text, _) = error_in(
        &format!("{COUNTER}test t {{ Counter c = new Counter; int r = c.wrong(3); }}"),
        ErrorKind::EnsuresFailed,
    );
    assert_eq!(text, "result == 2 * x");
    // `ensures` of a call that returns the right value through a zero passes.
    let (_, r) =
        single(&format!("{COUNTER}test t {{ Counter c = new Counter; assert c.wrong(0) == 0; }}"));
    assert!(r.passed, "{}", r.message);
}

#[test]
fn requires_is_not_evaluated_by_the_interpreter() {
    let (_, r) =
        single("int f(int x) requires x > 0 { return x; }\n test t { assert f(0 - 5) == 0 - 5; }");
    assert!(r.passed, "{}", r.message);
}

// ---- control flow --------------------------------------------------------------------------

#[test]
fn loops_with_break_and_continue() {
    let src = "
int odd_sum(int n) {
  int i = 0; int s = 0;
  while (true) {
    i = i + 1;
    if (i > n) break;
    if (i % 2 == 0) continue;
    s = s + i;
  }
  return s;
}
int pairs(int n) {
  int count = 0; int i = 0;
  while (i < n) {
    int j = 0;
    while (true) { if (j >= i) break; j = j + 1; count = count + 1; }
    i = i + 1;
  }
  return count;
}
";
    assert_eq!(eval(src, "odd_sum(10)"), Outcome::Returned(Value::Int(25)));
    assert_eq!(eval(src, "odd_sum(0)"), Outcome::Returned(Value::Int(0)));
    assert_eq!(eval(src, "pairs(5)"), Outcome::Returned(Value::Int(10)));
}

#[test]
fn short_circuit_skips_the_right_operand() {
    let src = "
class Node { int key; Node next; }
bool t1(Node n) { return n != null && n.key == 1; }
bool t2(Node n) { return n == null || n.key == 1; }
int boom() { return 1 / 0; }
bool t3() { return false && boom() == 1; }
bool t4() { return true || boom() == 1; }
bool t5() { return true && boom() == 1; }
";
    assert_eq!(eval(src, "t1(null)"), Outcome::Returned(Value::Bool(false)));
    assert_eq!(eval(src, "t2(null)"), Outcome::Returned(Value::Bool(true)));
    assert_eq!(eval(src, "t1(new Node { key: 1 })"), Outcome::Returned(Value::Bool(true)));
    assert_eq!(eval(src, "t3()"), Outcome::Returned(Value::Bool(false)));
    assert_eq!(eval(src, "t4()"), Outcome::Returned(Value::Bool(true)));
    assert_eq!(eval(src, "t5()").error_kind(), Some(ErrorKind::DivisionByZero));
    assert_eq!(eval(src, "1 < 2 ? 10 : boom()"), Outcome::Returned(Value::Int(10)));
}

#[test]
fn recursion_and_methods_resolve_bare_calls_to_the_class_first() {
    let src = "
class Node { int key; Node left; Node right;
  int size() { return 1 + sz(this.left) + sz(this.right); }
  int sz(Node t) { if (t == null) return 0; return t.size(); }
}
int sz(Node t) { return 1000; }
int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
";
    assert_eq!(eval(src, "fact(20)"), Outcome::Returned(Value::Int(2432902008176640000)));
    assert_eq!(eval(src, "fact(21)").error_kind(), Some(ErrorKind::IntegerOverflow));
    assert_eq!(
        eval(src, "new Node { left: new Node, right: new Node { left: new Node } }.size()"),
        Outcome::Returned(Value::Int(4))
    );
}

// ---- limits --------------------------------------------------------------------------------

const DEPTH: &str = "
int depth(int n) { if (n == 0) return 0; return 1 + depth(n - 1); }
int forever(int n) { return forever(n + 1); }
";

#[test]
fn deep_recursion_within_the_call_depth_is_fine_even_on_a_small_native_stack() {
    // 1000 nested calls (depth(999) .. depth(0)) on a 256 KiB thread: the interpreter does not
    // recurse natively, so this also holds on wasm32.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| eval(DEPTH, "depth(999)"))
        .expect("spawn");
    assert_eq!(handle.join().expect("no panic"), Outcome::Returned(Value::Int(999)));
}

#[test]
fn infinite_recursion_exhausts_the_call_depth() {
    for expr in ["forever(0)", "depth(1000)"] {
        match eval(DEPTH, expr) {
            Outcome::Error(e) => {
                assert_eq!(e.kind, ErrorKind::BoundExhausted);
                assert_eq!(e.limit, Some(LimitKind::CallDepth));
                assert!(e.message.contains("call depth limit of 1000"), "{}", e.message);
            }
            other => panic!("{other:?}"),
        }
    }
    let limits = Limits { call_depth: 5000, ..Limits::default() };
    assert_eq!(eval_with(DEPTH, "depth(4999)", limits).0, Outcome::Returned(Value::Int(4999)));
}

#[test]
fn infinite_loop_exhausts_the_step_limit() {
    let (text, msg) = error_in("test t { while (true) { } }", ErrorKind::BoundExhausted);
    assert!(!text.is_empty());
    assert!(msg.contains("step limit of 1000000"), "{msg}");
    let (l, r) =
        single("test t expects bound_exhausted { int i = 0; while (true) { i = i + 1; } }");
    assert!(r.passed, "{}", r.describe(&l.file));
    match r.outcome {
        Ok(Outcome::Error(e)) => assert_eq!(e.limit, Some(LimitKind::Steps)),
        other => panic!("{other:?}"),
    }
    assert!(r.steps > 1_000_000);
    let limits = Limits { steps: 100, ..Limits::default() };
    let (outcome, _) = eval_with(LIST, "length(new Node { next: new Node })", limits);
    assert_eq!(outcome, Outcome::Returned(Value::Int(2)));
}

#[test]
fn deeply_nested_expressions_do_not_overflow_the_native_stack() {
    // The parser refuses chains this long ("expression nested too deeply"), so the tree is
    // built by hand: the interpreter must not depend on the parser's limit for its safety.
    use heaplab_syntax::ast::{BinOp, Expr, ExprKind, NodeId};
    use heaplab_syntax::Span;
    let handle = std::thread::Builder::new()
        .stack_size(8 * 1024 * 1024)
        .spawn(move || {
            let one =
                |id: u32| Expr { id: NodeId(id), kind: ExprKind::Int(1), span: Span::default() };
            let mut expr = one(1_000_000_000);
            for i in 1..20_000u32 {
                let id = 1_000_000_000 + 2 * i;
                let kind = ExprKind::Binary {
                    op: BinOp::Add,
                    lhs: Box::new(expr),
                    rhs: Box::new(one(id + 1)),
                };
                expr = Expr { id: NodeId(id), kind, span: Span::default() };
            }
            let l = load(LIST);
            let (outcome, _) =
                eval_call(&l.analysis.program, &l.analysis.info, &expr, Limits::default())
                    .expect("no internal error");
            // Dropping a 20 000-deep tree recurses too; leak it rather than test Box's drop.
            std::mem::forget(expr);
            outcome
        })
        .expect("spawn");
    assert_eq!(handle.join().expect("no panic"), Outcome::Returned(Value::Int(20_000)));
}

// ---- test blocks ---------------------------------------------------------------------------

#[test]
fn test_block_expectations() {
    let src = "
class Node { int key; Node next; }
test completes { Node n = new Node { key: 1 }; assert n.key == 1; }
test fails_assert { assert 1 == 2; }
test npe expects null_dereference { Node n = null; int k = n.key; }
test npe_missing expects null_dereference { Node n = new Node; int k = n.key; }
test wrong_kind expects null_dereference { int z = 0; int k = 1 / z; }
test div expects division_by_zero { int z = 0; int k = 1 % z; }
test asserts expects assert_failed { assert false; }
test req expects requires_failed { }
";
    let l = load(src);
    let results = tests_of(&l);
    let summary: Vec<(&str, bool)> = results.iter().map(|r| (r.name.as_str(), r.passed)).collect();
    assert_eq!(
        summary,
        [
            ("completes", true),
            ("fails_assert", false),
            ("npe", true),
            ("npe_missing", false),
            ("wrong_kind", false),
            ("div", true),
            ("asserts", true),
            ("req", false),
        ]
    );
    assert_eq!(results[2].expected, Expectation::Error(ErrorKind::NullDereference));
    assert!(results[0].message.is_empty());
    assert_eq!(results[0].describe(&l.file), "passed");
    assert_eq!(
        results[1].describe(&l.file),
        "assertion failed at 4:21: the asserted condition is false"
    );
    assert_eq!(results[3].message, "expected null_dereference but the test completed");
    assert!(
        results[4].describe(&l.file).starts_with(
            "expected null_dereference but got division by zero at 7:63: 1 / 0 divides by zero"
        ),
        "{}",
        results[4].describe(&l.file)
    );
    assert_eq!(l.file.line_col(results[2].span.start).line, 5);
}

// ---- heap, coverage and the API for later passes --------------------------------------------

#[test]
fn eval_call_returns_the_final_heap() {
    let (outcome, heap) =
        eval_with(LIST, "new Node { key: 3, next: new Node { key: 4 } }", Limits::default());
    let Outcome::Returned(v) = outcome else { panic!("{outcome:?}") };
    assert_eq!(heap.display_value(&v), "o2 (Node)");
    assert_eq!(heap.render(), "o1: Node { key: 4, next: null }\no2: Node { key: 3, next: o1 }\n");
    assert_eq!(eval(LIST, "sum(3, 4)"), Outcome::Returned(Value::Int(7)));
    assert_eq!(eval(LIST, "length(new Node { key: 1 })"), Outcome::Returned(Value::Int(1)));
    assert_eq!(Heap::new().render(), "(empty heap)\n");
}

#[test]
fn call_method_on_a_built_heap_and_inspect_the_result() {
    let src = "
class Node { int key; Node next; }
class Stack {
  Node top;
  void push(int x) ensures this.top.key == x { this.top = new Node { key: x, next: this.top }; }
  int pop() { int k = this.top.key; this.top = this.top.next; return k; }
}
";
    let l = load(src);
    let mut interp = Interpreter::new(&l.analysis.program, &l.analysis.info, Limits::default());
    let heap = interp.heap_mut();
    let n = heap.alloc("Node", vec![("key".into(), Value::Int(7)), ("next".into(), Value::NULL)]);
    let s = heap.alloc("Stack", vec![("top".into(), Value::Ref(Some(n)))]);
    assert_eq!(interp.call_method(s, "push", &[Value::Int(9)]), Ok(Outcome::Returned(Value::Void)));
    let top = interp.heap().field(s, "top").and_then(Value::as_ref).flatten().expect("non-null");
    assert_eq!(interp.heap().field(top, "key"), Some(Value::Int(9)));
    assert_eq!(interp.heap().field(top, "next"), Some(Value::Ref(Some(n))));
    assert_eq!(interp.call_method(s, "pop", &[]), Ok(Outcome::Returned(Value::Int(9))));
    assert_eq!(interp.call_method(s, "pop", &[]), Ok(Outcome::Returned(Value::Int(7))));
    assert_eq!(
        interp.call_method(s, "pop", &[]).map(|o| o.error_kind()),
        Ok(Some(ErrorKind::NullDereference))
    );
    assert!(interp.coverage().statements.len() >= 4);

    // Errors of the caller are `Err`, not outcomes.
    assert_eq!(
        interp.call_method(s, "peek", &[]),
        Err(Error::UnknownMethod { class: "Stack".into(), method: "peek".into() })
    );
    assert!(matches!(interp.call_method(s, "push", &[]), Err(Error::ArgumentCount { .. })));
    assert!(matches!(interp.call_function("nope", &[]), Err(Error::UnknownFunction(_))));
    let fresh = interp.alloc_default("Stack").expect("class exists");
    assert_eq!(interp.heap().field(fresh, "top"), Some(Value::NULL));
}

#[test]
fn coverage_records_statements_and_branch_directions() {
    let src = "
int abs(int x) { if (x < 0) { return -x; } return x; }
";
    let l = load(src);
    let mut interp = Interpreter::new(&l.analysis.program, &l.analysis.info, Limits::default());
    assert_eq!(
        interp.call_function("abs", &[Value::Int(-3)]),
        Ok(Outcome::Returned(Value::Int(3)))
    );
    let first = interp.coverage().clone();
    assert_eq!(first.branches.len(), 1);
    assert!(first.branches.iter().all(|(_, taken)| *taken));
    assert_eq!(interp.call_function("abs", &[Value::Int(3)]), Ok(Outcome::Returned(Value::Int(3))));
    let both = interp.take_coverage();
    assert_eq!(both.branches.len(), 2);
    assert_eq!(both.statements.len(), 3);
    assert!(interp.coverage().statements.is_empty());
}

#[test]
fn unchecked_programs_give_internal_errors_not_panics() {
    // Only parsed: the checker is bypassed, so names resolve dynamically.
    let src = "
class C { int v; int get() { return helper(); } int helper() { return this.v; } }
int top() { return missing(1); }
int noreturn(int x) { if (x > 0) { return 1; } }
test uses_dynamic_resolution { C c = new C { v: 4 }; assert c.get() == 4; }
test unknown { int k = top(); }
test bad_field { C c = new C; int k = c.nope; }
test bad_var { int k = nowhere; }
test falls_off { int k = noreturn(0); }
";
    let file = SourceFile::new("t.hl", src);
    let (program, diags) = heaplab_syntax::parse(&file);
    assert!(diags.is_empty(), "{diags:?}");
    let info = Default::default();
    let results = run_tests(&program, &info, Limits::default());
    assert!(results[0].passed, "{}", results[0].message);
    for r in &results[1..] {
        assert!(!r.passed);
        assert!(matches!(r.outcome, Err(Error::Internal { .. })), "{}: {:?}", r.name, r.outcome);
        assert!(r.message.starts_with("internal error"), "{}", r.message);
    }
}

/// Issue 21: a million steps of `new` on a class of 500 fields would hold some 500 million
/// fields (in the page, a worker trap "unreachable"); the heap limit ends the run first.
#[test]
fn allocating_wide_objects_stops_at_the_heap_limit() {
    let fields: String = (0..500).map(|i| format!("int f{i}; ")).collect();
    let src = format!(
        "class Wide {{ {fields}Wide next; }}\n\
         int grow(int n) {{ Wide w = null; int i = 0; \
         while (i < n) {{ w = new Wide {{ next: w }}; i = i + 1; }} return i; }}"
    );
    match eval(&src, "grow(1000000)") {
        Outcome::Error(e) => {
            assert_eq!(e.kind, ErrorKind::BoundExhausted);
            assert_eq!(e.limit, Some(LimitKind::HeapCells));
            assert!(e.message.contains("heap limit of 2000000 cells"), "{}", e.message);
        }
        other => panic!("{other:?}"),
    }
    // Under the limit the same program runs to the end; the limit counts every cell.
    assert_eq!(eval(&src, "grow(3000)"), Outcome::Returned(Value::Int(3000)));
    let (outcome, heap) = eval_with(&src, "grow(4)", Limits::default());
    assert_eq!(outcome, Outcome::Returned(Value::Int(4)));
    assert_eq!(heap.cells(), 4 * 502);
    let limits = Limits { heap_cells: 4 * 502 - 1, ..Limits::default() };
    match eval_with(&src, "grow(4)", limits).0 {
        Outcome::Error(e) => assert_eq!(e.limit, Some(LimitKind::HeapCells)),
        other => panic!("{other:?}"),
    }
}
