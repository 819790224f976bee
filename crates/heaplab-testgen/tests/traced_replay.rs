//! The interpreter's optional trace (what the page's Replay steps through) observes a run
//! without changing it: replaying every generated test of a few examples with the trace on
//! ends in the same outcome, final heap and step count as the untraced replay (the oracle), and
//! the trace ends inside the tested function.

mod common;

use heaplab_engine::symbolic::explorer::split_target;
use heaplab_engine::symbolic::{Config, StrategyKind};
use heaplab_engine::{Interpreter, Limits, Outcome};
use heaplab_testgen::{generate, Expected, GeneratedTest};

fn run(
    a: &heaplab_syntax::Analysis,
    target: &str,
    t: &GeneratedTest,
    traced: bool,
) -> (Outcome, heaplab_engine::Heap, u64, Option<heaplab_engine::Trace>) {
    let mut interp = Interpreter::new(&a.program, &a.info, Limits::default());
    interp.set_heap(t.input.heap.clone());
    if traced {
        interp.trace_next_run(100_000);
    }
    let (_, name) = split_target(target);
    let outcome = match t.input.receiver {
        Some(r) => interp.call_method(r, name, &t.input.args),
        None => interp.call_function(name, &t.input.args),
    }
    .expect("the replay runs");
    let trace = interp.take_trace();
    let steps = interp.steps();
    (outcome, interp.into_heap(), steps, trace)
}

fn traced_equals_untraced(example: &str, target: &str, strategy: StrategyKind) -> (usize, usize) {
    let a = common::load(example);
    let mut config = Config::default();
    config.strategy = strategy;
    config.bounds.k = 2;
    let mut ex = common::explore(&a, target, config);
    let g = generate(&mut ex, &a.program, &a.info).expect("every test replays");
    assert!(!g.tests.is_empty(), "{example} {target}: no tests");
    let mut errors = 0;
    for t in &g.tests {
        let (plain, plain_heap, plain_steps, none) = run(&a, target, t, false);
        assert!(none.is_none());
        let (traced, traced_heap, traced_steps, trace) = run(&a, target, t, true);
        assert_eq!(traced, plain, "{}: outcome", t.name);
        assert_eq!(traced_heap, plain_heap, "{}: final heap", t.name);
        assert_eq!(traced_steps, plain_steps, "{}: steps", t.name);
        let trace = trace.expect("tracing was on");
        assert!(!trace.truncated);
        assert!(!trace.events.is_empty(), "{}: a call runs at least one statement", t.name);
        let (_, name) = split_target(target);
        assert!(trace.events.iter().all(|e| e.frames.len() >= 2), "{}: inside the call", t.name);
        assert_eq!(trace.events[0].frames[1].function, name);
        // The first event shows the input heap, untouched.
        assert_eq!(trace.events[0].heap, t.input.heap, "{}", t.name);
        match (&t.expected, &plain) {
            (Expected::Error(k), Outcome::Error(e)) => {
                assert_eq!(*k, e.kind);
                errors += 1;
            }
            (Expected::Returned(v), Outcome::Returned(w)) => assert_eq!(v, w),
            (e, o) => panic!("{}: expected {e:?}, replay gave {o:?}", t.name),
        }
    }
    (g.tests.len(), errors)
}

#[test]
fn bst_insert_lazy_and_sl_traced_replays_match() {
    for s in [StrategyKind::Lazy, StrategyKind::Sl] {
        let (n, _) = traced_equals_untraced("bst.hl", "BST.insert", s);
        assert!(n > 0);
    }
}

#[test]
fn sll_and_stack_traced_replays_match_including_errors() {
    let mut errors = 0;
    for (ex, target) in [("sll.hl", "SLL.remove"), ("stack.hl", "Stack.topAndPop")] {
        let (n, e) = traced_equals_untraced(ex, target, StrategyKind::Lazy);
        eprintln!("{ex} {target}: {n} tests, {e} ending in an error");
        errors += e;
    }
    assert!(errors > 0, "some replay ends in an error");
}
