//! Arrays in the lazy heap (Kiasan's accumulator, digest seed-004a §5): the outcomes of one
//! access, local arrays with default cells, negative sizes, reference cells initialized per
//! strategy, and the array bound k. Counts are checked against the rules by hand.

mod common;

use heaplab_engine::symbolic::{Bound, Config, PathOutcome, StrategyKind};
use heaplab_syntax::ast::ErrorKind;
use heaplab_syntax::{analyze, SourceFile};

const SRC: &str = "
class Node { int key; }

int get(int[] a, int i) requires a != null { return a[i]; }

int twice(int[] a, int i, int j) requires a != null {
  int x = a[i];
  return a[j];
}

int local(int n, int i) {
  int[] b = new int[n];
  b[0] = 5;
  return b[i];
}

int lit(int i) {
  int[] b = new int[]{4, 5, 6};
  return b[i];
}

Node first(Node[] ns) requires ns != null { return ns[0]; }

int len(int[] a) { return a.length; }
";

/// (feasible paths, error kinds of the error paths, paths bounded by k).
fn run(target: &str, strategy: StrategyKind, k: u32) -> (u64, Vec<ErrorKind>, usize) {
    let a = analyze(&SourceFile::new("arrays.hl", SRC));
    assert!(!a.has_errors(), "{:?}", a.diagnostics);
    let mut config = Config::default();
    config.strategy = strategy;
    config.bounds.k = k;
    let ex = common::explore(&a, target, config);
    let mut errors = Vec::new();
    let mut bounded = 0;
    for p in ex.paths() {
        eprintln!("{}", p.describe());
        match &p.outcome {
            PathOutcome::Error { kind, .. } => errors.push(*kind),
            PathOutcome::Bounded { bound: Bound::K, .. } => bounded += 1,
            PathOutcome::Internal { message, .. } => panic!("internal: {message}"),
            _ => {}
        }
    }
    errors.sort();
    (ex.stats().feasible, errors, bounded)
}

#[test]
fn one_read_is_out_of_bounds_or_a_new_cell() {
    let (n, errors, _) = run("get", StrategyKind::LazierSharp, 2);
    assert_eq!((n, errors), (2, vec![ErrorKind::IndexOutOfBounds]));
}

/// The second read: out of bounds, the first cell (i == j), or a second cell (i != j).
#[test]
fn a_second_read_compares_with_the_accessed_cell() {
    let (n, errors, bounded) = run("twice", StrategyKind::LazierSharp, 2);
    assert_eq!((n, &errors, bounded), (4, &vec![ErrorKind::IndexOutOfBounds; 2], 0));
    // k = 1: the second distinct cell is beyond the array bound.
    let (n, _, bounded) = run("twice", StrategyKind::LazierSharp, 1);
    assert_eq!((n, bounded), (3, 1));
}

/// `new int[n]`: negative size; then `b[0] = 5` (out of bounds when n == 0); then `b[i]`:
/// out of bounds, the written cell (5) or another cell (its default 0).
#[test]
fn local_arrays_have_default_cells_and_reject_negative_sizes() {
    let (n, errors, _) = run("local", StrategyKind::LazierSharp, 2);
    assert_eq!(
        errors,
        vec![
            ErrorKind::IndexOutOfBounds,
            ErrorKind::IndexOutOfBounds,
            ErrorKind::NegativeArraySize
        ]
    );
    assert_eq!(n, 5);
    // A literal's cells are all known: out of bounds or one of the three.
    let (n, errors, _) = run("lit", StrategyKind::LazierSharp, 1);
    assert_eq!((n, errors), (4, vec![ErrorKind::IndexOutOfBounds]));
}

/// A reference cell is initialized like a reference field (besides the out-of-bounds path):
/// lazier# leaves it a symbolic reference, lazier forks on null and a symbolic location, lazy
/// on null and a fresh node (no other node to alias).
#[test]
fn reference_cells_follow_the_strategy() {
    assert_eq!(run("first", StrategyKind::LazierSharp, 2).0, 2);
    assert_eq!(run("first", StrategyKind::Lazier, 2).0, 3);
    assert_eq!(run("first", StrategyKind::Lazy, 2).0, 3);
}

/// A null array is a null dereference (no `requires`), its length an input otherwise.
#[test]
fn length_of_a_possibly_null_array() {
    let (n, errors, _) = run("len", StrategyKind::Lazy, 2);
    assert_eq!((n, errors), (2, vec![ErrorKind::NullDereference]));
}

/// The view of a path's final state shows an array as its length and accessed cells.
#[test]
fn views_show_length_and_cells() {
    let a = analyze(&SourceFile::new("arrays.hl", SRC));
    let mut config = Config::default();
    config.strategy = StrategyKind::LazierSharp;
    let ex = common::explore(&a, "twice", config);
    let path = ex
        .paths()
        .iter()
        .find(|p| matches!(p.outcome, PathOutcome::Returned(_)) && p.state.pc.len() > 6)
        .expect("a returning path");
    let view = ex.view(path.state.id).expect("view of a path end");
    let arr = view.objects.iter().find(|o| o.class == "int[]").expect("the array");
    let names: Vec<&str> = arr.fields.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(names.first(), Some(&"length"), "{names:?}");
    assert!(names.len() >= 2 && names[1..].iter().all(|n| n.starts_with('[')), "{names:?}");
}
