//! Shared helpers: a program with the textbook predicates, and query parsing.
#![allow(dead_code)]

use heaplab_logic::arith::PureResult;
use heaplab_logic::convert::parse_query;
use heaplab_logic::formula::Pure;
use heaplab_logic::{Defs, Formula, PureOracle, SmtOracle, Sort};
use heaplab_smt::{ProcessConfig, SmtSolver, Z3Process};
use std::collections::BTreeMap;

pub const PROGRAM: &str = r#"
class T { T left; T right; }
class Node { int key; Node left; Node right; }
class L { int val; L next; }
class D { int val; D next; D prev; }
class A { int key; A left; A right; int height; }
class R { int key; R left; R right; bool black; }
class Leaf { Leaf left; Leaf right; Leaf next; }
class Holder { Node root; }
class Buf { int size; int[] cells; }

pred tree(T t) := t == null | exists T l, T r. t -> T { left: l, right: r } * tree(l) * tree(r);

pred bst(Node t, int lo, int hi) :=
    t == null
  | exists int k, Node l, Node r.
      t -> Node { key: k, left: l, right: r } * bst(l, lo, k) * bst(r, k, hi) & lo < k & k < hi;

pred sll(L x) := x == null | exists L n. x -> L { next: n } * sll(n);

pred lseg(L x, L y) := x == y | exists L n. x -> L { next: n } * lseg(n, y) & x != y;

pred sorted(L x, int lo) := x == null | exists int v, L n. x -> L { val: v, next: n } * sorted(n, v) & lo <= v;

// Circular doubly linked list with header h and size elements.
pred cdll(D h, int size) :=
    h -> D { next: h, prev: h } & size == 0
  | exists D nx, D last. h -> D { next: nx, prev: last } * nndll(nx, h, h, last, size) & size > 0;
pred nndll(D cur, D prev, D header, D last, int size) :=
    cur -> D { next: header, prev: prev } & last == cur & size == 1
  | exists D nx, int s1. cur -> D { next: nx, prev: prev } * nndll(nx, cur, header, last, s1) & size == s1 + 1;

pred avl(A t, int lo, int hi, int h) :=
    t == null & h == 0
  | exists int e, A l, A r, int hl, int hr.
      t -> A { key: e, left: l, right: r, height: h } * avl(l, lo, e, hl) * avl(r, e, hi, hr)
      & lo < e & e < hi & hl - hr <= 1 & hr - hl <= 1 & h == hl + 1 & hr <= hl
  | exists int e, A l, A r, int hl, int hr.
      t -> A { key: e, left: l, right: r, height: h } * avl(l, lo, e, hl) * avl(r, e, hi, hr)
      & lo < e & e < hi & hr == hl + 1 & h == hr + 1;

// Red-black tree with black height bh (nulls count 0); black == true.
pred rb(R t, int bh) := t == null & bh == 0
  | exists int k, R l, R r, int b1. t -> R { left: l, right: r, black: true } * rb(l, b1) * rb(r, b1) & bh == b1 + 1
  | exists R l, R r. t -> R { left: l, right: r, black: false } * rbb(l, bh) * rbb(r, bh);
pred rbb(R t, int bh) := t == null & bh == 0
  | exists R l, R r, int b1. t -> R { left: l, right: r, black: true } * rb(l, b1) * rb(r, b1) & bh == b1 + 1;

// Tree with linked leaves: every inner node has two children; leaves are linked left to right
// from ll (leftmost) to lr (the leaf after the rightmost).
pred tll(Leaf cur, Leaf ll, Leaf lr) :=
    cur -> Leaf { left: null, right: null, next: lr } & cur == ll
  | exists Leaf l, Leaf r, Leaf z. cur -> Leaf { left: l, right: r, next: null } * tll(l, ll, z) * tll(r, z, lr);

// Sizes are not difference constraints: the solver decides them.
pred sized(Node t, int n) := t == null & n == 0
  | exists Node l, Node r, int nl, int nr. t -> Node { left: l, right: r } * sized(l, nl) * sized(r, nr) & n == nl + nr + 1;

// Reach their base cases through pure facts only (issue #20's wrong answer).
pred one(L x) := x != null;
pred q(L x) := x != null | exists L n. x -> L { next: n } * q(n) & x == null;

// A list whose nodes hold elements no predicate describes.
class Elem { int v; }
class EL { Elem data; EL next; }
pred elist(EL x) := x == null | exists Elem d, EL n. x -> EL { data: d, next: n } * elist(n);

pred never(L x) := exists L n. x -> L { next: n } * never(n);
// Two disjuncts that say the same, deeper than the checker looks ahead: unfolding it branches.
pred nulls(L x) := deep1(x) | deep1(x);
pred deep1(L x) := deep2(x);
pred deep2(L x) := deep3(x);
pred deep3(L x) := x == null;
pred loop(L x) := loop(x);
"#;

pub fn defs() -> Defs {
    let (program, diags) = heaplab_syntax::parser::parse_program(PROGRAM);
    assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
    let (defs, errors) = Defs::from_program(&program);
    assert!(errors.is_empty(), "{errors:?}");
    defs
}

pub fn query(defs: &Defs, text: &str) -> Formula {
    match parse_query(defs, text, &[]) {
        Ok(f) => f,
        Err(e) => panic!("query `{text}`: {e}"),
    }
}

/// The pure-part oracle of the tests: z3 through `heaplab_smt` (no fake solver).
pub fn solver() -> Z3 {
    Z3 { solver: SmtSolver::new(Z3Process::new(ProcessConfig::default())) }
}

/// Owns a z3 process and answers through [`SmtOracle`].
pub struct Z3 {
    solver: SmtSolver<Z3Process>,
}

impl PureOracle for Z3 {
    fn check(
        &mut self,
        facts: &[Pure],
        sorts: &BTreeMap<String, Sort>,
    ) -> heaplab_logic::Result<PureResult> {
        SmtOracle::new(&self.solver).check(facts, sorts)
    }
}
