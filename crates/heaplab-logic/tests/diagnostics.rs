//! Predicate warnings the checker cannot give.
mod common;

use heaplab_logic::diagnostics::check_predicates;
use heaplab_logic::Defs;

#[test]
fn predicate_warnings() {
    let src = r#"
class L { int val; L next; }
pred sll(L x) := x == null | exists L n. x -> L { next: n } * sll(n);
pred never(L x) := exists L n. x -> L { next: n } * never(n);
pred uses_never(L x) := x == null & never(x) | x == null & x != null;
pred contradictory(L x) := x == null & x != null | exists L n. x -> L { next: n } * sll(n) & x == null;
pred dead(L x, int k) := x == null & k > 0 | x == null & k < 0 & k > 0 | exists L n. x -> L { next: n } * dead(n, k) & k > 0;
"#;
    let (program, diags) = heaplab_syntax::parser::parse_program(src);
    assert!(diags.is_empty(), "{diags:?}");
    let (defs, errors) = Defs::from_program(&program);
    assert!(errors.is_empty(), "{errors:?}");
    let warnings = check_predicates(&program, &defs, &mut common::solver());
    let msgs: Vec<String> = warnings.iter().map(|d| d.message.clone()).collect();
    let has = |s: &str| msgs.iter().any(|m| m.contains(s));
    assert!(has("predicate `never` never reaches a base case"), "{msgs:#?}");
    assert!(!has("predicate `sll`"), "{msgs:#?}");
    // uses_never: productive via its second disjunct, which is contradictory; the first needs
    // `never`, which has no finite model: the whole predicate is unsatisfiable.
    assert!(has("predicate `uses_never` can never be satisfied"), "{msgs:#?}");
    assert!(has("predicate `contradictory` can never be satisfied"), "{msgs:#?}");
    assert!(has("this disjunct of `dead` can never hold"), "{msgs:#?}");
    assert_eq!(msgs.iter().filter(|m| m.contains("`dead`")).count(), 1, "{msgs:#?}");
}
