//! Issue 33, item 2 (Done-when 2): the suite generated for a correct stack of `Object`s kills a
//! `pop` that returns the wrong element, under every strategy. `sl`, `lazier#` and `symheap`
//! used to build every unconstrained element as `null`, so their tests could not tell which
//! element `pop` returned; now such an element is a fresh distinct object ([`distinct`]).
//!
//! Oracles: the interpreter runs the generated `.hl` tests against the correct program (all
//! pass) and against the mutant (at least one fails); the model checker classifies every input
//! against `requires` (`--pre ignore`-style classification: every input must be valid).
//!
//! [`distinct`]: heaplab_testgen::distinct

mod common;

use heaplab_engine::run_tests;
use heaplab_engine::symbolic::{Config, NoClock, PreMode, StrategyKind};
use heaplab_logic::SmtOracle;
use heaplab_smt::{ProcessConfig, SmtSolver, Z3Process};
use heaplab_syntax::{analyze, Analysis, SourceFile};
use heaplab_testgen::concolic::{self, ConcolicConfig};
use heaplab_testgen::concretize::PreChecker;
use heaplab_testgen::{emit, generate, Generation, Validity};

const STACK: &str = r#"
class Node { Object item; Node next; }

class Stack {
  Node top;

  void push(Object x)
    requires stack(this.top)
  {
    this.top = new Node { item: x, next: this.top };
  }

  // The most recently pushed element, removed; null on an empty stack.
  Object pop()
    requires stack(this.top)
    ensures old(this.top) == null || depth(this.top) == old(depth(this.top)) - 1
  {
    if (this.top == null) return null;
    Object item = this.top.item;
    this.top = this.top.next;
    return item;
  }
}

pred stack(Node x) := x == null | exists Object i, Node n. x -> Node { item: i, next: n } * stack(n);

pure int depth(Node x) {
  if (x == null) return 0;
  return 1 + depth(x.next);
}
"#;

/// The mutant: `pop` returns the next node's element when there is a next node.
fn mutant() -> String {
    let m = STACK.replace(
        "    Object item = this.top.item;\n",
        "    Object item = this.top.item;\n    if (this.top.next != null) item = this.top.next.item;\n",
    );
    assert_ne!(m, STACK);
    m
}

fn analysis(text: &str) -> Analysis {
    let a = analyze(&SourceFile::new("stack.hl".to_string(), text.to_string()));
    assert!(!a.has_errors(), "{:?}\n{text}", a.diagnostics);
    a
}

fn suite(a: &Analysis, strategy: &str) -> Generation {
    let target = "Stack.pop";
    if strategy == "concolic" {
        let z3 = SmtSolver::new(Z3Process::new(ProcessConfig::default()));
        let mut oracle = SmtOracle::new(&z3);
        let config = ConcolicConfig::default();
        return concolic::generate(
            &a.program,
            &a.info,
            target,
            &config,
            &mut oracle,
            common::solver(),
            &NoClock,
        )
        .expect("concolic generation")
        .generation;
    }
    let mut config = Config::default();
    config.strategy = match strategy {
        "lazy" => StrategyKind::Lazy,
        "lazier" => StrategyKind::Lazier,
        "lazier#" => StrategyKind::LazierSharp,
        "sl" => StrategyKind::Sl,
        _ => StrategyKind::Symheap,
    };
    let mut ex = common::explore(a, target, config);
    generate(&mut ex, &a.program, &a.info).expect("generation")
}

/// (passed, failed) of the suite's `.hl` tests run against `program`.
fn run_against(program: &str, gen: &Generation) -> (usize, usize) {
    let text = emit::hl(program, gen);
    let a = analysis(&text);
    let results = run_tests(&a.program, &a.info, heaplab_engine::Limits::default());
    let passed = results.iter().filter(|r| r.passed).count();
    (passed, results.len() - passed)
}

#[test]
fn the_correct_stacks_suite_kills_a_pop_returning_the_wrong_element_under_every_strategy() {
    let correct = analysis(STACK);
    let checker = PreChecker::new(&correct.program, &correct.info, "Stack.pop", PreMode::Ignore);
    let mutant = mutant();
    for strategy in ["sl", "lazier#", "symheap", "lazy", "lazier", "concolic"] {
        let gen = suite(&correct, strategy);
        assert!(!gen.tests.is_empty(), "{strategy}: no tests");
        for t in &gen.tests {
            assert_eq!(checker.classify(&t.input), Validity::Valid, "{strategy}: {}", t.name);
        }
        let (passed, failed) = run_against(STACK, &gen);
        assert_eq!((passed, failed), (gen.tests.len(), 0), "{strategy}: against the correct stack");
        let (_, failed) = run_against(&mutant, &gen);
        assert!(failed >= 1, "{strategy}: the mutant survives {} tests", gen.tests.len());
        // The element that came back is asserted by identity: some test returns an input object.
        let distinct = gen.tests.iter().any(|t| {
            matches!(t.expected, heaplab_testgen::Expected::Returned(heaplab_engine::Value::Ref(Some(id))) if id.index() < t.input.heap.len())
        });
        assert!(distinct, "{strategy}: no test returns an input element");
    }
}

/// A path that needs an element `null` or aliased keeps it so: `contains` compares the elements
/// with its argument, and each filled input still takes the path it was generated for (the
/// generation's replay and the filling's replay agree; all tests pass on the same program).
#[test]
fn aliasing_and_null_facts_of_the_path_are_kept() {
    let program = STACK.replace(
        "pred stack",
        "class Finder {\n  bool has(Stack s, Object x)\n    requires stack(s.top)\n  {\n    Node p = s.top;\n    while (p != null) {\n      if (p.item == x) return true;\n      p = p.next;\n    }\n    return false;\n  }\n}\n\npred stack",
    );
    let a = analysis(&program);
    let checker = PreChecker::new(&a.program, &a.info, "Finder.has", PreMode::Ignore);
    for strategy in [StrategyKind::Sl, StrategyKind::LazierSharp, StrategyKind::Symheap] {
        let mut config = Config::default();
        config.strategy = strategy;
        let mut ex = common::explore(&a, "Finder.has", config);
        let gen = generate(&mut ex, &a.program, &a.info).expect("generation");
        let returned = |b: bool| {
            gen.tests.iter().any(|t| {
                t.expected == heaplab_testgen::Expected::Returned(heaplab_engine::Value::Bool(b))
            })
        };
        assert!(returned(true) && returned(false), "{strategy:?}: both outcomes");
        for t in &gen.tests {
            assert_eq!(checker.classify(&t.input), Validity::Valid, "{strategy:?}: {}", t.name);
        }
        let (passed, failed) = run_against(&program, &gen);
        assert_eq!((passed, failed), (gen.tests.len(), 0), "{strategy:?}");
    }
}
