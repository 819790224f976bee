//! The JUnit export's text, without a JVM (tests/junit/run.sh compiles and runs every example's
//! export with javac and the JUnit 5 console).

mod common;

use heaplab_engine::symbolic::{Config, Explorer, NoClock};
use heaplab_syntax::{analyze, Analysis, SourceFile};
use heaplab_testgen::emit::junit::{junit, JavaFiles, JunitInput, Untranslatable};
use heaplab_testgen::generate;

fn export(a: &Analysis, source: &str, target: &str) -> Result<JavaFiles, Untranslatable> {
    let mut config = Config::default();
    config.bounds.k = 2;
    let mut ex = common::explore(a, target, config);
    let gen = generate(&mut ex, &a.program, &a.info).expect("generation");
    let input = JunitInput {
        program: &a.program,
        info: &a.info,
        source,
        package: Some("p".into()),
        paths: ex.paths(),
    };
    junit(&input, &gen)
}

fn file<'f>(files: &'f JavaFiles, name: &str) -> &'f str {
    files.files.iter().find(|(p, _)| p == name).map(|(_, t)| t.as_str()).unwrap_or_else(|| {
        panic!("no {name} in {:?}", files.files.iter().map(|(p, _)| p).collect::<Vec<_>>())
    })
}

fn analyze_text(text: &str) -> Analysis {
    let a = analyze(&SourceFile::new("t.hl", text));
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    a
}

#[test]
fn swap_exports_old_locals_ensures_wrapper_and_named_inputs() {
    let path = format!("{}/../../examples/swap.hl", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).expect("swap.hl");
    let a = common::load("swap.hl");
    let files = export(&a, &source, "Node.swap").expect("translatable");
    let node = file(&files, "p/Node.java");
    assert!(node.contains("Node old$1 = n.data;"), "{node}");
    assert!(node.contains("throw new EnsuresViolation(\"Node.swap: ensures"), "{node}");
    assert!(node.contains("private void swap$body(Node n) {"), "{node}");
    let test = file(&files, "p/NodeSwapTest.java");
    assert!(test.contains("class NodeSwapTest {"), "{test}");
    assert!(test.contains("Node node = new Node();"), "{test}");
    assert!(test.contains("@Test"), "{test}");
    assert!(files.warnings.is_empty(), "{:?}", files.warnings);
}

#[test]
fn arithmetic_is_exact_and_errors_are_asserted_by_class_and_message() {
    let source = "class C {\n  int v;\n  int f(int x)\n    requires this -> C { v: _ }\n  {\n    return (this.v + x) / x;\n  }\n}\n";
    let a = analyze_text(source);
    let mut ex = Explorer::new(
        &a.program,
        &a.info,
        "C.f",
        Config::default(),
        common::solver(),
        Box::new(NoClock),
    )
    .expect("method");
    ex.run_to_end();
    let gen = generate(&mut ex, &a.program, &a.info).expect("generation");
    let input =
        JunitInput { program: &a.program, info: &a.info, source, package: None, paths: ex.paths() };
    let files = junit(&input, &gen).expect("translatable");
    let c = file(&files, "C.java");
    assert!(c.contains("return Functions.divide(Math.addExact(this.v, x), x);"), "{c}");
    let test = file(&files, "CFTest.java");
    assert!(test.contains("assertEquals(\"/ by zero\", thrown.getMessage());"), "{test}");
    assert!(test.contains("assertEquals(\"long overflow\", thrown.getMessage());"), "{test}");
}

/// `assume e` fails a HeapLab test whose run reaches it false, so Java throws AssertionError.
#[test]
fn assume_becomes_an_assertion_error() {
    let source = "class C {\n  int v;\n  int f(int x)\n    requires this -> C { v: _ }\n  {\n    assume x > 0;\n    return x;\n  }\n}\n";
    let a = analyze_text(source);
    let files = export(&a, source, "C.f").expect("translatable");
    let c = file(&files, "p/C.java");
    assert!(c.contains("if (!(x > 0L)) {"), "{c}");
    assert!(
        c.contains("throw new AssertionError(\"assumption violated: assume x > 0 (line 6)\");"),
        "{c}"
    );
}

/// Issue 21's reproducers: each produced Java that javac rejects (tests/junit/run.sh compiles
/// the same shapes, from random programs, on a JVM).
#[test]
fn reserved_and_clashing_names_get_a_dollar_suffix() {
    let source = "int divide(int a) {\n  return a;\n}\n\nclass byte {\n  int Math;\n  byte e;\n  int wait(int e, int Long)\n  {\n    this.Math = divide(e) + Long;\n    return this.Math;\n  }\n}\n";
    let a = analyze_text(source);
    let files = export(&a, source, "byte.wait").expect("translatable");
    let class = file(&files, "p/byte$.java");
    assert!(class.contains("class byte$ {"), "{class}");
    assert!(class.contains("long Math$;"), "{class}");
    assert!(class.contains("long wait$(long e, long Long$) {"), "{class}");
    assert!(class.contains("this.Math$ = Math.addExact(Functions.divide$(e), Long$);"), "{class}");
    let functions = file(&files, "p/Functions.java");
    assert!(functions.contains("static long divide$(long a) {"), "{functions}");
    let test = file(&files, "p/byte$Wait$Test.java");
    assert!(test.contains("byte$ byteObj = new byte$();"), "{test}");
    assert!(!files.warnings.is_empty());
}

#[test]
fn min_value_negated_keeps_its_overflow_and_dead_code_is_left_out() {
    let source = "class C {\n  int v;\n  int f(int x)\n  {\n    while (false) {\n      x = 1;\n    }\n    while (1 < 2) {\n      if (x > 0) {\n        return - -9223372036854775808;\n      }\n      break;\n      x = 3;\n    }\n    return x;\n    this.v = 4;\n  }\n}\n";
    let a = analyze_text(source);
    let files = export(&a, source, "C.f").expect("translatable");
    let c = file(&files, "p/C.java");
    assert!(c.contains("return Math.negateExact(Long.MIN_VALUE);"), "{c}");
    assert!(!c.contains("x = 1L;"), "a never-entered loop stays: {c}");
    assert!(!c.contains("x = 3L;"), "a statement after break stays: {c}");
    assert!(!c.contains("this.v = 4L;"), "a statement after return stays: {c}");
    assert!(c.contains("while (1L < 2L) {"), "{c}");
    let test = file(&files, "p/CFTest.java");
    assert!(test.contains("assertEquals(\"long overflow\", thrown.getMessage());"), "{test}");
}

#[test]
fn long_names_are_shortened_and_large_classes_use_setters() {
    let long = format!("K{}", "x".repeat(300));
    let fields: String = (0..130).map(|i| format!("  int f{i};\n")).collect();
    let source = format!(
        "class {long} {{\n{fields}  int m()\n  {{\n    {long} o = new {long} {{ f3: 1, f1: 2 }};\n    return o.f1;\n  }}\n}}\n"
    );
    let a = analyze_text(&source);
    let files = export(&a, &source, &format!("{long}.m")).expect("translatable");
    for (path, _) in &files.files {
        assert!(path.len() < 130, "{path}");
    }
    let class = files
        .files
        .iter()
        .find(|(p, t)| p.starts_with("p/Kxxx") && t.contains("set$f1"))
        .map(|(_, t)| t.as_str())
        .expect("the class, with setters");
    assert!(class.contains("().set$f3(1L).set$f1(2L);"), "{class}");
}

#[test]
fn thrown_classes_extend_runtime_exception_and_tests_assert_the_thrown_class() {
    let source = "class Empty {}\nclass Node { int v; Node next; }\nclass S {\n  Node top;\n  int pop()\n    requires this -> S { top: _ }\n  {\n    if (this.top == null) throw new Empty();\n    int v = this.top.v;\n    this.top = this.top.next;\n    return v;\n  }\n}\n";
    let a = analyze_text(source);
    let files = export(&a, source, "S.pop").expect("translatable");
    let empty = file(&files, "p/Empty.java");
    assert!(empty.contains("class Empty extends RuntimeException {"), "{empty}");
    let s = file(&files, "p/S.java");
    assert!(s.contains("throw new Empty();"), "{s}");
    let test = file(&files, "p/SPopTest.java");
    assert!(test.contains("assertThrows(Empty.class, () -> s.pop());"), "{test}");
    assert!(files.warnings.is_empty(), "{:?}", files.warnings);
}

/// A method returning a new array: the test's local has the Java array type (`long[]` for
/// `int[]`), not `void` (the generation's return type once lost arrays).
#[test]
fn a_returned_new_array_has_its_java_type() {
    let source = "int[] pair(int x)\n  requires true\n{\n  return new int[]{x, x};\n}\n\nObject[] none(int n)\n  requires 0 <= n & n < 2\n{\n  return new Object[n];\n}\n";
    let a = analyze_text(source);
    let ints = export(&a, source, "pair").expect("translatable");
    let test = file(&ints, "p/PairTest.java");
    assert!(test.contains("long[] result = Functions.pair("), "{test}");
    let objects = export(&a, source, "none").expect("translatable");
    let test = file(&objects, "p/NoneTest.java");
    assert!(test.contains("Object[] result = Functions.none("), "{test}");
    assert!(ints.warnings.is_empty() && objects.warnings.is_empty(), "{:?}", ints.warnings);
}

/// A program's own class named like an exception the export asserts for a built-in failure
/// (`ArrayIndexOutOfBoundsException` for `index_out_of_bounds`, as vector.hl declares the JDK's)
/// is renamed, so the test's `assertThrows` names Java's class, which the JVM throws for the
/// bad index, and the program's throw its own.
#[test]
fn a_class_named_like_a_builtin_failure_is_renamed() {
    let source = "class ArrayIndexOutOfBoundsException {}\nint at(int[] a, int i)\n  requires a != null\n{\n  if (i > 5) throw new ArrayIndexOutOfBoundsException();\n  return a[i];\n}\n";
    let a = analyze_text(source);
    let files = export(&a, source, "at").expect("translatable");
    let own = file(&files, "p/ArrayIndexOutOfBoundsException$.java");
    assert!(
        own.contains("class ArrayIndexOutOfBoundsException$ extends RuntimeException {"),
        "{own}"
    );
    let test = file(&files, "p/AtTest.java");
    assert!(test.contains("assertThrows(ArrayIndexOutOfBoundsException.class,"), "{test}");
    assert!(test.contains("assertThrows(ArrayIndexOutOfBoundsException$.class,"), "{test}");
    assert!(!files.warnings.is_empty());
}
