//! The model checker on hand-built heaps.
mod common;

use heaplab_logic::{satisfies, satisfies_costed, CheckLimits, Model, Object, Value, Verdict};
use std::collections::BTreeMap;

fn node(key: i64, left: Value, right: Value) -> Object {
    Object {
        class: "Node".into(),
        fields: vec![
            ("key".into(), Value::Int(key)),
            ("left".into(), left),
            ("right".into(), right),
        ],
    }
}

fn l(val: i64, next: Value) -> Object {
    Object {
        class: "L".into(),
        fields: vec![("val".into(), Value::Int(val)), ("next".into(), next)],
    }
}

fn verdict(text: &str, m: &Model) -> Verdict {
    let defs = common::defs();
    let f = common::query(&defs, text);
    satisfies(&defs, m, &f, CheckLimits::default()).expect("check")
}

fn store(pairs: &[(&str, Value)]) -> BTreeMap<String, Value> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

#[test]
fn lists() {
    let two = Model {
        objects: vec![l(1, Value::Ref(1)), l(2, Value::Null)],
        store: store(&[("x", Value::Ref(0))]),
        ..Default::default()
    };
    assert_eq!(verdict("sll(x)", &two), Verdict::Holds);
    assert_eq!(verdict("sorted(x, 0)", &two), Verdict::Holds);
    assert_eq!(verdict("sorted(x, 2)", &two), Verdict::Fails);
    // Starting in the middle leaves a cell outside the footprint: it is unclaimed, which the
    // semantics allows (the formula says nothing about it).
    let mid = Model { store: store(&[("x", Value::Ref(1))]), ..two.clone() };
    assert_eq!(verdict("sll(x)", &mid), Verdict::Holds);
    assert_eq!(verdict("sll(x)", &mid.restrict_to_reachable(&["x"])), Verdict::Holds);
    // But a cell cannot be claimed twice: `sll(x) * sll(x)` needs two disjoint lists.
    assert_eq!(verdict("sll(x) * sll(x)", &mid), Verdict::Fails);
    // A cycle is not a list.
    let cyc = Model {
        objects: vec![l(1, Value::Ref(1)), l(2, Value::Ref(0))],
        store: store(&[("x", Value::Ref(0))]),
        ..Default::default()
    };
    assert_eq!(verdict("sll(x)", &cyc), Verdict::Fails);
    // The empty segment claims nothing: the cycle lies outside its footprint.
    assert_eq!(verdict("lseg(x, x)", &cyc), Verdict::Holds);
    // The cycle as a cell and a segment back to it claims both cells once each.
    assert_eq!(
        verdict("exists L n. x -> L { next: n } * lseg(n, x) & n != x", &cyc),
        Verdict::Holds
    );
    assert_eq!(verdict("exists L n. x -> L { next: n } * lseg(n, null)", &cyc), Verdict::Fails);
    let seg = Model { store: store(&[("x", Value::Ref(0)), ("y", Value::Null)]), ..two };
    assert_eq!(verdict("lseg(x, y)", &seg), Verdict::Holds);
}

#[test]
fn bst_with_existential_bounds() {
    // 2 at the root, 1 left, 3 right.
    let objects = vec![
        node(2, Value::Ref(1), Value::Ref(2)),
        node(1, Value::Null, Value::Null),
        node(3, Value::Null, Value::Null),
    ];
    let good = Model { objects, store: store(&[("x", Value::Ref(0))]), ..Default::default() };
    assert_eq!(verdict("exists int lo, int hi. bst(x, lo, hi)", &good), Verdict::Holds);
    assert_eq!(verdict("bst(x, 0, 4)", &good), Verdict::Holds);
    assert_eq!(verdict("bst(x, 1, 4)", &good), Verdict::Fails);
    let mut bad = good.clone();
    bad.objects[1] = node(5, Value::Null, Value::Null);
    assert_eq!(verdict("exists int lo, int hi. bst(x, lo, hi)", &bad), Verdict::Fails);
    // Sharing a child is not a tree.
    let shared = Model {
        objects: vec![node(2, Value::Ref(1), Value::Ref(1)), node(1, Value::Null, Value::Null)],
        store: store(&[("x", Value::Ref(0))]),
        ..Default::default()
    };
    assert_eq!(verdict("exists int lo, int hi. bst(x, lo, hi)", &shared), Verdict::Fails);
}

#[test]
fn bad_models_are_errors_not_panics() {
    let defs = common::defs();
    let f = common::query(&defs, "sll(x)");
    let empty = Model::default();
    assert!(satisfies(&defs, &empty, &f, CheckLimits::default()).is_err());
    let dangling = Model {
        objects: vec![l(1, Value::Ref(7))],
        store: store(&[("x", Value::Ref(0))]),
        ..Default::default()
    };
    assert!(satisfies(&defs, &dangling, &f, CheckLimits::default()).is_err());
}

#[test]
fn search_is_bounded() {
    let defs = common::defs();
    // `loop(x) := loop(x)` has no finite model: the instance comes back unchanged along a chain
    // of unfoldings that claims nothing, so that branch is cut, and the answer is a proof.
    let f = common::query(&defs, "loop(x)");
    let m = Model { objects: vec![], store: store(&[("x", Value::Null)]), ..Default::default() };
    let v = satisfies(&defs, &m, &f, CheckLimits { max_steps: 1000, ..CheckLimits::default() })
        .expect("check");
    assert_eq!(v, Verdict::Fails);
    // A long list with a small step budget: unknown, naming the bound.
    let n = 200;
    let objects = (0..n)
        .map(|i| l(i as i64, if i + 1 < n { Value::Ref(i + 1) } else { Value::Null }))
        .collect();
    let long = Model { objects, store: store(&[("x", Value::Ref(0))]), ..Default::default() };
    let f = common::query(&defs, "sll(x)");
    let v = satisfies(&defs, &long, &f, CheckLimits { max_steps: 100, ..CheckLimits::default() })
        .expect("check");
    assert!(matches!(&v, Verdict::Unknown(why) if why.contains("100 steps")), "{v:?}");
}

/// Long lists must not exhaust the stack or the budget.
#[test]
fn long_lists() {
    let n = 3000;
    let objects = (0..n)
        .map(|i| l(i as i64, if i + 1 < n { Value::Ref(i + 1) } else { Value::Null }))
        .collect();
    let m = Model { objects, store: store(&[("x", Value::Ref(0))]), ..Default::default() };
    assert_eq!(verdict("sll(x)", &m), Verdict::Holds);
    assert_eq!(verdict("sorted(x, 0)", &m), Verdict::Holds);
}

/// Issue 31's reproducer: existentials may share a location outside the footprint. The empty
/// model satisfies `exists L x1, L x2. x1 == x2 & x2 != null` (both name one dangling
/// location); the checker used to offer each existential a new location of its own only.
#[test]
fn existentials_may_share_a_dangling_location() {
    let empty = Model::default();
    assert_eq!(verdict("exists L x1, L x2. x1 == x2 & x2 != null", &empty), Verdict::Holds);
    assert_eq!(
        verdict("exists L x1, L x2, L x3. x1 == x3 & x2 == x3 & x1 != null & x2 != x1", &empty),
        Verdict::Fails
    );
    // Shared with an object of the heap, or distinct from every one of them.
    let one = Model { objects: vec![l(1, Value::Null)], ..Default::default() };
    assert_eq!(
        verdict("exists L x1, L x2, L x3. x1 == x2 & x2 != null & x3 != x1 & x3 != null", &one),
        Verdict::Holds
    );
    assert_eq!(verdict("exists L x1, L x2. x1 -> L { next: x2 } & x2 == x1", &one), Verdict::Fails);
}

/// What the checker keeps of a state when it branches: the arguments of the instance being
/// unfolded are still needed by its disjuncts (dropping `y`'s location there once made
/// `nulls(y)` hold of a non-null `y`: its `y == null` lies deeper than the checker's
/// look-ahead, so the branch is made before the contradiction shows).
#[test]
fn a_branching_unfolding_keeps_its_arguments() {
    let m = Model {
        objects: vec![l(1, Value::Null)],
        store: store(&[("x", Value::Ref(0))]),
        unclaimed: [0].into(),
    };
    assert_eq!(verdict("exists L y. y == x & nulls(y)", &m), Verdict::Fails);
    assert_eq!(verdict("exists L y. y == x & one(y) & nulls(x)", &m), Verdict::Fails);
    let null = Model { store: store(&[("x", Value::Null)]), ..Default::default() };
    assert_eq!(verdict("exists L y. y == x & nulls(y)", &null), Verdict::Holds);
}

/// A counter built from gates, counted down from all ones to zero through its 2^5 states on
/// an empty heap (the bits are `null` = 0 and dangling = 1). An and-gate whose inputs are
/// both 0 has two disjuncts that hold at once; the checker used to branch there, leaving a
/// copy of its state on the stack at every step of the count, so that at 12 bits (SL-COMP's
/// succ-circuit12) the states outgrew their memory bound. A disjunct that already holds is
/// now taken alone: the count runs on one state, within a few kilobytes.
#[test]
fn a_disjunct_that_already_holds_is_taken_without_branching() {
    let program = r#"
class B { B f; }
pred zero(B x) := x == null;
pred one(B x) := x != null;
pred flip(B a, B b) := zero(a) * one(b) | one(a) * zero(b);
pred both(B a, B b, B c) := zero(a) * zero(c) | zero(b) * zero(c) | one(a) * one(b) * one(c);
pred differ(B a, B b, B c) :=
    zero(a) * zero(b) * zero(c) | zero(a) * one(b) * one(c)
  | one(a) * zero(b) * one(c) | one(a) * one(b) * zero(c);
// y = x + 1 (the carry out of the last bit is dropped).
pred inc(B x1, B x2, B x3, B x4, B x5, B y1, B y2, B y3, B y4, B y5) :=
    exists B c3, B c4, B c5.
      flip(x1, y1) * differ(x1, x2, y2) * both(x1, x2, c3) * differ(c3, x3, y3)
    * both(c3, x3, c4) * differ(c4, x4, y4) * both(c4, x4, c5) * differ(c5, x5, y5);
pred down(B y1, B y2, B y3, B y4, B y5) :=
    zero(y1) * zero(y2) * zero(y3) * zero(y4) * zero(y5)
  | exists B x1, B x2, B x3, B x4, B x5.
      inc(x1, x2, x3, x4, x5, y1, y2, y3, y4, y5) * down(x1, x2, x3, x4, x5);
"#;
    let (parsed, diags) = heaplab_syntax::parser::parse_program(program);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    let (defs, errors) = heaplab_logic::Defs::from_program(&parsed);
    assert!(errors.is_empty(), "{errors:?}");
    let small = CheckLimits { max_steps: 1_000_000, max_pending_bytes: 32 << 10 };
    let check = |text: &str| {
        let f = common::query(&defs, text);
        satisfies(&defs, &Model::default(), &f, small).expect("check")
    };
    let ones = "exists B a, B b, B c, B d, B e. down(a, b, c, d, e) & a != null & b != null \
                & c != null & d != null & e != null";
    assert_eq!(check(ones), Verdict::Holds);
    // Taking a disjunct that holds must not take facts it does not have: an and-gate with an
    // input 0 and the output 1 holds in no way, and one whose inputs are both 1 needs output 1.
    let gate = "exists B a, B b, B c. both(a, b, c) & a == null & c != null";
    assert_eq!(check(gate), Verdict::Fails);
    let gate = "exists B a, B b, B c. both(a, b, c) & a != null & b != null & c == null";
    assert_eq!(check(gate), Verdict::Fails);
    let gate = "exists B a, B b, B c. both(a, b, c) & a == null & b == null & c == null";
    assert_eq!(check(gate), Verdict::Holds);
}

/// A counter in the style of SL-COMP's succ-rec family, of `n` bits on an empty heap (`null` is
/// 0, a dangling location 1): `succK(x, y)` says `y = x + 1` over K bits, recursing on the
/// higher bits when the lowest carries; `down(y)` counts from `y` down to zero.
fn succ_rec_counter(n: usize) -> String {
    fn bits(v: &str, from: usize, to: usize) -> Vec<String> {
        (from..=to).map(|i| format!("{v}{i}")).collect()
    }
    fn typed(v: &str, to: usize) -> Vec<String> {
        bits(v, 1, to).iter().map(|b| format!("B {b}")).collect()
    }
    let mut p = String::from(
        "class B { B f; }\npred zero(B x) := x == null;\npred one(B x) := x != null;\n\
         pred succ1(B x1, B y1) := zero(x1) * one(y1);\n",
    );
    for k in 2..=n {
        let params = [typed("x", k), typed("y", k)].concat();
        let same: Vec<String> = (2..=k).map(|i| format!("x{i} == y{i}")).collect();
        let higher = [bits("x", 2, k), bits("y", 2, k)].concat();
        p += &format!(
            "pred succ{k}({}) := zero(x1) * one(y1) & {} | succ{}({}) * one(x1) * zero(y1);\n",
            params.join(", "),
            same.join(" & "),
            k - 1,
            higher.join(", "),
        );
    }
    let zeros: Vec<String> = bits("y", 1, n).iter().map(|b| format!("zero({b})")).collect();
    let (xs, ys) = (bits("x", 1, n).join(", "), bits("y", 1, n).join(", "));
    p += &format!(
        "pred down({}) := {} | exists {}. succ{n}({xs}, {ys}) * down({xs});\n",
        typed("y", n).join(", "),
        zeros.join(" * "),
        typed("x", n).join(", "),
    );
    p
}

/// The count of a 6-bit succ-rec counter from all ones down to zero (64 states) within 450
/// steps, instantiating at most 200 body disjuncts. It took 609 before predicates defined by facts alone (`zero`, `one`) were expanded
/// where a body is instantiated rather than unfolded one step each; SL-COMP's succ-rec17 and
/// succ-rec18 are the same count at 17 and 18 bits.
#[test]
fn a_counter_is_checked_within_a_step_budget() {
    let program = succ_rec_counter(6);
    let (parsed, diags) = heaplab_syntax::parser::parse_program(&program);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    let (defs, errors) = heaplab_logic::Defs::from_program(&parsed);
    assert!(errors.is_empty(), "{errors:?}");
    let budget = CheckLimits { max_steps: 450, ..CheckLimits::default() };
    let check = |text: &str| {
        let f = common::query(&defs, text);
        satisfies(&defs, &Model::default(), &f, budget).expect("check")
    };
    let ones = "exists B a, B b, B c, B d, B e, B f. down(a, b, c, d, e, f) & a != null \
                & b != null & c != null & d != null & e != null & f != null";
    assert_eq!(check(ones), Verdict::Holds);
    // Only the disjuncts of the instances unfolded are instantiated; those looked into to
    // choose (each standing disjunct of up to 64 waiting instances, two levels down) are
    // read compiled through the arguments. Instantiating each of those was most of the
    // time of SL-COMP's succ-rec17/18 (issue 31).
    let f = common::query(&defs, ones);
    let (v, cost) =
        satisfies_costed(&defs, &Model::default(), &f, budget, &mut heaplab_logic::halt::never)
            .expect("check");
    assert_eq!(v, Verdict::Holds);
    // 307 steps, 183 instantiated, 844 read: every disjunct read was instantiated before.
    assert!(cost.steps <= 450 && cost.instantiated <= 200 && cost.read >= 800, "{cost:?}");
    // The expanded facts still refute: no number is its own successor, and 1 (a dangling
    // location in the lowest bit, the rest null) is not the successor of 1.
    assert_eq!(check("exists B a, B b. succ2(a, b, a, b)"), Verdict::Fails);
    let one = "exists B a, B b, B c, B d. succ2(a, b, c, d) & a != null & b == null \
               & c != null & d == null";
    assert_eq!(check(one), Verdict::Fails);
    // A model outside what the formula allows: `x` bound to `null` in the store where the
    // successor of 0 needs a dangling location.
    let zero = Model { store: [("x".to_string(), Value::Null)].into(), ..Default::default() };
    let f = common::query(&defs, "exists B a. succ1(a, x)");
    assert_eq!(satisfies(&defs, &zero, &f, budget).expect("check"), Verdict::Fails);
}

/// An 8-bit succ-rec counter (256 states, the succ-rec17/18 count of SL-COMP at a size a test
/// affords): only the instances of a predicate that can meet itself again (`down`, once per
/// state) are keyed for the loop cut; the `succK` gates, which recurse into `succK-1` and never
/// back, are not. Keying every unfolded instance (three per state on average) was an eighth of
/// the checker's time on succ-rec17. The model is checked in the same steps as before.
#[test]
fn only_instances_that_can_recur_are_keyed_for_the_loop_cut() {
    let program = succ_rec_counter(8);
    let (parsed, diags) = heaplab_syntax::parser::parse_program(&program);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    let (defs, errors) = heaplab_logic::Defs::from_program(&parsed);
    assert!(errors.is_empty(), "{errors:?}");
    let vars: Vec<String> = (1..=8).map(|i| format!("b{i}")).collect();
    let ones = format!(
        "exists {}. down({}) & {}",
        vars.iter().map(|v| format!("B {v}")).collect::<Vec<_>>().join(", "),
        vars.join(", "),
        vars.iter().map(|v| format!("{v} != null")).collect::<Vec<_>>().join(" & "),
    );
    let f = common::query(&defs, &ones);
    let budget = CheckLimits { max_steps: 2_000, ..CheckLimits::default() };
    let (v, cost) =
        satisfies_costed(&defs, &Model::default(), &f, budget, &mut heaplab_logic::halt::never)
            .expect("check");
    assert_eq!(v, Verdict::Holds);
    // 256 counts down, one `down` each; every `succK` unfolded along the way (about 2 per
    // count) is left unkeyed: 1263 steps, 757 instantiated, 256 keyed (758 before).
    eprintln!("COST {cost:?}");
    assert!(cost.keyed <= 257, "{cost:?}");
    assert!(cost.instantiated > 2 * cost.keyed, "{cost:?}");
    // Counting from 255 to 0 still refutes a wrong start: 256 is not a number of 8 bits, and
    // a `down` whose bits must all be zero and one at once has no model.
    let clash = format!("{ones} & b1 == null");
    assert_eq!(
        satisfies(&defs, &Model::default(), &common::query(&defs, &clash), budget).expect("check"),
        Verdict::Fails
    );
}
