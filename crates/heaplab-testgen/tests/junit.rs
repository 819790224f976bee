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
    assert!(node.contains("Node old1 = n.data;"), "{node}");
    assert!(node.contains("throw new EnsuresViolation(\"Node.swap: ensures"), "{node}");
    assert!(node.contains("private void swapBody(Node n) {"), "{node}");
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
    assert!(test.contains("assertEquals(\"/ by zero\", e.getMessage());"), "{test}");
    assert!(test.contains("assertEquals(\"long overflow\", e.getMessage());"), "{test}");
}

#[test]
fn assume_is_reported_not_translated() {
    let source = "class C {\n  int v;\n  int f(int x)\n    requires this -> C { v: _ }\n  {\n    assume x > 0;\n    return x;\n  }\n}\n";
    let a = analyze_text(source);
    let err = export(&a, source, "C.f").expect_err("assume has no Java counterpart");
    assert!(err.to_string().contains("`assume x > 0` has no Java counterpart"), "{err}");
}
