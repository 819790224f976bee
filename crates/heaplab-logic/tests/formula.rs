//! Conversion from the AST, substitution, normalisation and printing.
mod common;

use heaplab_logic::formula::{Fresh, Subst, SymHeap, Term};
use heaplab_logic::normalize::normalize;
use heaplab_logic::unfold::unfold_at;
use heaplab_logic::Sort;

fn heap(text: &str, known: &[(String, Sort)]) -> SymHeap {
    let defs = common::defs();
    let f = heaplab_logic::convert::parse_query(&defs, text, known).expect("query");
    assert_eq!(f.disjuncts.len(), 1);
    f.disjuncts[0].clone()
}

#[test]
fn field_reads_become_points_to() {
    let this = [("this".to_string(), Sort::Ref("Holder".into()))];
    let h = heap("exists int lo, int hi. bst(this.root, lo, hi)", &this);
    assert_eq!(h.points_to.len(), 1);
    assert_eq!(h.points_to[0].ptr, Term::var("this"));
    let root = h.points_to[0].field("root").expect("root field").clone();
    assert_eq!(h.preds[0].args[0], root);
    // An explicit points-to for the same object is reused instead of adding a second cell.
    let h = heap("this -> Holder { root: r } * bst(this.root, 0, 9)", &this);
    assert_eq!(h.points_to.len(), 1);
    let h = normalize(h).expect("satisfiable");
    assert_eq!(h.preds[0].args[0], Term::var("r"));
}

#[test]
fn wildcards_and_unlisted_fields_are_fresh_existentials() {
    let h = heap("x -> L { next: _ }", &[]);
    assert_eq!(h.exists.len(), 2);
    let names: Vec<&String> = h.exists.iter().map(|(v, _)| v).collect();
    assert_ne!(names[0], names[1]);
    assert!(h.to_string().starts_with("exists "), "{h}");
}

#[test]
fn substitution_is_capture_free() {
    let h = heap("exists L n. x -> L { val: 1, next: n }", &[]);
    let mut fresh = Fresh::new();
    fresh.avoid(h.all_vars().iter());
    // Substituting x := n must not let the existential n capture it.
    let s: Subst = [("x".to_string(), Term::var("n"))].into_iter().collect();
    let out = h.subst(&s, &mut fresh);
    let pt = &out.points_to[0];
    assert_eq!(pt.ptr, Term::var("n"));
    assert_ne!(pt.field("next"), Some(&Term::var("n")), "{out}");
    // The bound variable itself is never substituted.
    let s: Subst = [("n".to_string(), Term::Null)].into_iter().collect();
    assert_eq!(h.subst(&s, &mut fresh), h);
}

#[test]
fn normalisation_detects_contradictions() {
    assert!(normalize(heap("x -> L { next: null } * x -> L { next: null }", &[])).is_none());
    assert!(
        normalize(heap("x -> L { next: null } * y -> L { next: null } & x == y", &[])).is_none()
    );
    assert!(normalize(heap("null -> L { next: null }", &[])).is_none());
    assert!(normalize(heap("sll(x) & x == null & x != null", &[])).is_none());
    assert!(normalize(heap("emp & 1 < 0", &[])).is_none());
    let h = normalize(heap("exists L y. emp * x -> L { next: y } & y == null", &[])).expect("sat");
    assert_eq!(h.to_string(), "exists int val'1. x -> L { val: val'1, next: null }");
}

#[test]
fn unfolding_renames_existentials() {
    let defs = common::defs();
    let h = heap("bst(t, 0, 10)", &[]);
    let mut fresh = Fresh::new();
    let out = unfold_at(&defs, &h, 0, &mut fresh);
    assert_eq!(out.len(), 2);
    let rec = &out[1];
    assert_eq!(rec.preds.len(), 2);
    assert!(rec.preds.iter().all(|p| p.depth == 1));
    let again = unfold_at(&defs, rec, 0, &mut fresh);
    let mut names: Vec<&String> = again[1].exists.iter().map(|(v, _)| v).collect();
    let before = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), before, "existentials must stay distinct");
    assert_eq!(out[0].to_string(), "emp & t == null");
}
