//! Satisfiability: models for satisfiable queries (re-checked by the model checker), `Unsat`
//! only when every branch closes, `Unknown` when a bound is hit.
mod common;

use heaplab_logic::{sat, satisfies, CheckLimits, Model, SatResult, SearchBounds, Sort, Verdict};

fn run(text: &str) -> SatResult {
    run_with(text, SearchBounds::default(), &[])
}

fn run_with(text: &str, bounds: SearchBounds, known: &[(String, Sort)]) -> SatResult {
    let defs = common::defs();
    let f = heaplab_logic::convert::parse_query(&defs, text, known).expect("query");
    let res = sat(&defs, &f, bounds, &mut common::solver()).expect("sat");
    if let SatResult::Sat(m) = &res {
        let v = satisfies(&defs, m, &f, CheckLimits::default()).expect("check");
        assert_eq!(v, Verdict::Holds, "model of `{text}` rejected by the model checker:\n{m}");
    }
    res
}

fn model(text: &str) -> Model {
    match run(text) {
        SatResult::Sat(m) => m,
        other => panic!("`{text}`: expected sat, got {other:?}"),
    }
}

#[test]
fn smallest_model_first() {
    let m = model("sll(x)");
    assert!(m.objects.is_empty());
    let m = model("sll(x) & x != null");
    assert_eq!(m.objects.len(), 1);
    let m = model("lseg(x, y) & x != y");
    assert_eq!(m.objects.len(), 1);
}

#[test]
fn satisfiable_structures() {
    assert_eq!(model("cdll(h, 2)").objects.len(), 3);
    assert_eq!(model("exists int lo, int hi. bst(t, lo, hi) & t != null").objects.len(), 1);
    assert_eq!(model("exists int lo, int hi. avl(t, lo, hi, 3)").objects.len(), 4);
    assert!(model("rbb(t, 2)").objects.len() >= 3);
    assert_eq!(model("tll(x, ll, null) & x != ll").objects.len(), 3);
    let m = model("sorted(x, 3) & x != null");
    assert_eq!(m.objects.len(), 1);
}

#[test]
fn field_reads_in_formulas() {
    let this = [("this".to_string(), Sort::Ref("Holder".into()))];
    let res = run_with(
        "exists int lo, int hi. bst(this.root, lo, hi) & this.root != null",
        SearchBounds::default(),
        &this,
    );
    let SatResult::Sat(m) = res else { panic!("{res:?}") };
    assert_eq!(m.objects.len(), 2);
    // Reading x.val allocates x separately from sorted(x, 5)'s own cell: contradiction.
    assert_eq!(run("sorted(x, 5) & x != null & x.val < 5"), SatResult::Unsat);
}

#[test]
fn unsatisfiable_queries_are_proved() {
    assert_eq!(run("x -> L { next: null } * y -> L { next: null } & x == y"), SatResult::Unsat);
    assert_eq!(run("null -> L { next: null }"), SatResult::Unsat);
    assert_eq!(run("sll(x) * sll(x) & x != null"), SatResult::Unsat);
    assert_eq!(
        run("exists int lo, int hi. bst(x, lo, hi) & x != null & hi <= lo + 1"),
        SatResult::Unsat
    );
    assert_eq!(run("cdll(h, 0) & h == null"), SatResult::Unsat);
    assert_eq!(run("exists int lo, int hi. avl(t, lo, hi, 2) & t == null"), SatResult::Unsat);
    assert_eq!(run("rbb(t, 1) & t == null"), SatResult::Unsat);
}

#[test]
fn bounds_give_unknown_never_a_wrong_unsat() {
    // No base case: no finite model, proved by the base pairs whatever the bounds.
    assert_eq!(run("never(x)"), SatResult::Unsat);
    assert_eq!(run("loop(x)"), SatResult::Unsat);
    // Satisfiable, but only beyond the bounds: the base formulas over the integer parameters
    // find it (a witness of 6 cells, checked by the model checker in `run_with`); the
    // unknowns that remain name the bound (tests/base_formula.rs).
    let small = SearchBounds { max_depth: 2, max_objects: 2, max_states: 10_000 };
    let res = run_with("cdll(h, 5)", small, &[]);
    assert!(matches!(&res, SatResult::Sat(m) if m.objects.len() == 6), "{res:?}");
    // Deep recursion with a tiny state budget stops quickly, and the rest is proved.
    let tiny = SearchBounds { max_depth: 1000, max_objects: 1000, max_states: 500 };
    assert_eq!(run_with("tree(x) & x != null & never(y)", tiny, &[]), SatResult::Unsat);
}

/// Default bounds on an exponential search: finishes (quickly), and the base pairs prove it.
#[test]
fn exponential_search_stays_bounded() {
    let res = run("tree(x) * tree(y) * never(z)");
    assert_eq!(res, SatResult::Unsat);
}

/// A disjunction may not merge two cells: separation is part of the pure check.
#[test]
fn disjunctions_respect_separation() {
    assert_eq!(
        run("x -> L { next: null } * y -> L { next: null } & (x == y || x == null)"),
        SatResult::Unsat
    );
    let m = model("x -> L { val: v, next: null } * y -> L { next: null } & (x == y || v > 3)");
    assert_eq!(m.objects.len(), 2);
}

/// Arithmetic outside difference logic goes to z3.
#[test]
fn the_solver_decides_general_arithmetic() {
    let m = model("x -> L { val: v, next: null } & 2 * v == 6");
    assert_eq!(m.store.get("v"), Some(&heaplab_logic::Value::Int(3)));
    assert_eq!(run("x -> L { val: v, next: null } & 2 * v == 7"), SatResult::Unsat);
    assert_eq!(model("sized(t, 3) & a + b == n & a == 1").objects.len(), 3);
    // No integer n with n + n == 1: the bound stops the search, and the base pairs (with z3
    // on the arithmetic) prove it at every depth.
    let small = SearchBounds { max_depth: 3, max_objects: 4, max_states: 10_000 };
    assert_eq!(run_with("sized(t, n) & n + n == 1", small, &[]), SatResult::Unsat);
}

/// The standard semantics (docs/language.md): a formula describes exactly its footprint, and a
/// non-null reference may point outside it. `one(x) * q(x)` is satisfiable with `x` dangling
/// (both instances claim nothing); the model gives `x` an object outside the footprint, and the
/// model checker accepts it. Issue #20's wrong answer (it used to be `unsat`).
#[test]
fn references_may_point_outside_the_footprint() {
    let m = model("one(x) * q(x)");
    let Some(heaplab_logic::Value::Ref(o)) = m.store.get("x") else { panic!("{m}") };
    assert!(m.unclaimed.contains(o), "{m}");
    assert_eq!(m.objects.len(), 1);
    assert_eq!(run("one(x) * q(x) & x == null"), SatResult::Unsat);
    // A single cell whose `next` is neither null nor the cell itself: it points outside.
    let m = model("x -> L { next: y } & y != null & y != x");
    assert_eq!(m.unclaimed.len(), 1, "{m}");
    // Elements that no predicate describes.
    let m = model("exists Elem d, EL n. x -> EL { data: d, next: n } * elist(n) & d != null");
    assert_eq!(m.unclaimed.len(), 1, "{m}");
    // Separation still holds: two cells are never the same location.
    assert_eq!(run("x -> L { next: y } * y -> L { next: null } & x == y"), SatResult::Unsat);
}

/// An array is a reference the logic cannot look into: a non-null one in a model is an object
/// of class `T[]` outside the footprint, with no cells (the concolic driver fills them in), and
/// the model checker accepts it.
#[test]
fn a_non_null_array_is_an_empty_array_outside_the_footprint() {
    let this = [("this".to_string(), Sort::Ref("Buf".into()))];
    let res = run_with("this.cells != null", SearchBounds::default(), &this);
    let SatResult::Sat(m) = res else { panic!("{res:?}") };
    let arrays: Vec<usize> =
        (0..m.objects.len()).filter(|i| m.objects[*i].class == "int[]").collect();
    assert_eq!(arrays.len(), 1, "{m}");
    assert!(m.objects[arrays[0]].fields.is_empty(), "{m}");
    assert!(m.unclaimed.contains(&arrays[0]), "{m}");
}

/// Issue 31's reproducer through `sat`: the model of existentials that share a dangling
/// location is accepted by the model checker (it used to be an internal error).
#[test]
fn existentials_sharing_a_dangling_location_have_a_checked_model() {
    assert!(matches!(run("exists L x1, L x2. x1 == x2 & x2 != null"), SatResult::Sat(_)));
    assert!(matches!(
        run("exists L x1, L x2, L x3. x1 == x2 & x2 != null & x3 == x1 & y == x3 & sll(y)"),
        SatResult::Sat(_)
    ));
    assert_eq!(run("exists L x1, L x2. x1 == x2 & x2 != null & x1 == null"), SatResult::Unsat);
}
