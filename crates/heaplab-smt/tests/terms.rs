//! Terms, printing, response parsing and the evaluator: pure Rust, no solver.
#![allow(clippy::unwrap_used, clippy::cloned_ref_to_slice_refs)]

use heaplab_smt::{
    build_script, eval, parse_check_response, parse_model, parse_term, parse_values, quote_symbol,
    Answer, Model, SolverError, Term, Value, Var,
};

#[test]
fn symbols_are_quoted_only_when_needed_and_stay_distinct() {
    assert_eq!(quote_symbol("x"), "x");
    assert_eq!(quote_symbol("this.next"), "this.next");
    assert_eq!(quote_symbol("a b"), "|a b|");
    assert_eq!(quote_symbol("1st"), "|1st|");
    assert_eq!(quote_symbol(""), "||");
    assert_eq!(quote_symbol("and"), "|and%|");
    assert_eq!(quote_symbol("x|y"), "|x%7Cy|");
    assert_eq!(quote_symbol("x%7Cy"), "|x%257Cy|");
    let names = ["and", "and%", "x|y", "x%7Cy", "a\\b", "a b", "x"];
    let printed: std::collections::BTreeSet<String> =
        names.iter().map(|n| quote_symbol(n)).collect();
    assert_eq!(printed.len(), names.len());
}

#[test]
fn terms_print_as_smtlib() {
    let x = Var::int("x");
    let p = Var::reference("p");
    let t = Term::and([
        Term::ne(&p, Term::Null),
        Term::le(Term::add([Term::mul(-2, &x), Term::Int(-5)]), Term::div(&x, 3)),
        Term::implies(Term::Bool(true), Term::eq(Term::modulo(&x, 2), 1)),
    ]);
    assert_eq!(
        t.to_string(),
        "(and (not (= p 0)) (<= (+ (* (- 2) x) (- 5)) (div x 3)) (=> true (= (mod x 2) 1)))"
    );
    assert_eq!(Term::and([]).to_string(), "true");
    assert_eq!(Term::distinct([Term::Int(1)]).to_string(), "true");
    assert_eq!(Term::Int(i64::MIN).to_string(), "(- 9223372036854775808)");
}

#[test]
fn script_declares_refs_as_int() {
    let p = Var::reference("p");
    let b = Var::bool("b");
    let s = build_script(&[Term::eq(&p, Term::Null)], &[p.clone(), b], 500);
    assert_eq!(
        s,
        "(set-option :timeout 500)\n(declare-fun b () Bool)\n(declare-fun p () Int)\n\
         (assert (= p 0))\n(check-sat)\n(get-value (p b))\n(get-info :reason-unknown)\n"
    );
}

#[test]
fn responses_parse() {
    let x = Var::int("x");
    let ab = Var::int("a b");
    let b = Var::bool("b");
    let want = [x.clone(), ab.clone(), b.clone()];
    let sat = "sat\n((x 4)\n (|a b| (- 3))\n (b true))\n(:reason-unknown \"\")\n";
    match parse_check_response(sat, &want).unwrap() {
        Answer::Sat(m) => {
            assert_eq!(m.int(&x), Some(4));
            assert_eq!(m.int(&ab), Some(-3));
            assert_eq!(m.bool(&b), Some(true));
        }
        other => panic!("{other:?}"),
    }
    let unsat =
        "unsat\n(error \"line 5 column 10: model is not available\")\n(:reason-unknown \"\")\n";
    assert_eq!(parse_check_response(unsat, &want), Ok(Answer::Unsat));
    let unknown = "unknown\n(error \"x\")\n(:reason-unknown \"timeout\")\n";
    assert_eq!(parse_check_response(unknown, &want), Ok(Answer::Unknown("timeout".into())));
    let err = "(error \"line 3 column 8: unknown constant y\")\nsat\n";
    assert_eq!(
        parse_check_response(err, &[]),
        Err(SolverError::SolverReported("line 3 column 8: unknown constant y".into()))
    );
    let quoted = "(error \"say \"\"hi\"\" \\\"there\\\"\")\n";
    assert_eq!(
        parse_check_response(quoted, &[]),
        Err(SolverError::SolverReported("say \"hi\" \"there\"".into()))
    );
    assert!(matches!(parse_check_response("", &[]), Err(SolverError::Malformed(_))));
    assert!(matches!(
        parse_check_response("sat\n((x oops))", &[x.clone()]),
        Err(SolverError::Malformed(_))
    ));
    assert!(matches!(
        parse_check_response("sat\n((y 1))", &[x.clone()]),
        Err(SolverError::Malformed(_))
    ));
}

#[test]
fn get_value_and_get_model_parse() {
    let x = Var::int("x");
    let ab = Var::int("a b");
    let free = Var::bool("free");
    let m = parse_values("((x (- 5)) (|a b| 7))", &[x.clone(), ab.clone()]).unwrap();
    assert_eq!((m.int(&x), m.int(&ab)), (Some(-5), Some(7)));
    let z3_old = "(\n  (define-fun |a b| () Int\n    (- 3))\n  (define-fun x () Int\n    4)\n)\n";
    let z3_new = "(model (define-fun x () Int 4) (define-fun |a b| () Int (- 3)) (define-fun f ((y Int)) Int y))";
    for text in [z3_old, z3_new] {
        let m = parse_model(text, &[x.clone(), ab.clone(), free.clone()]).unwrap();
        assert_eq!(m.int(&x), Some(4));
        assert_eq!(m.int(&ab), Some(-3));
        // Not in Z3's model: any value is a correct completion.
        assert_eq!(m.bool(&free), Some(false));
    }
    assert!(matches!(
        parse_values("(error \"no model\")", &[x.clone()]),
        Err(SolverError::SolverReported(_))
    ));
    assert!(matches!(
        parse_values("((x 99999999999999999999))", &[x]),
        Err(SolverError::Malformed(_))
    ));
}

#[test]
fn garbage_never_panics() {
    let x = Var::int("x");
    let inputs = [
        "(",
        ")",
        "((((",
        "|open",
        "\"open",
        "sat (",
        "sat\n((x",
        "sat\n(((x 1)))",
        "(error)",
        "(error 5)",
        "unsat )",
        ";only a comment",
        "sat\n((x (- (- 1))))",
        "sat\n((x (- true)))",
    ];
    for text in inputs {
        let _ = parse_check_response(text, &[x.clone()]);
        let _ = parse_values(text, &[x.clone()]);
        let _ = parse_model(text, &[x.clone()]);
        let _ = parse_term(text, &[x.clone()]);
    }
    let deep = "(".repeat(100_000);
    assert!(parse_check_response(&deep, &[]).is_err());
    let deep_term = format!("{}x{}", "(not ".repeat(100_000), ")".repeat(100_000));
    assert!(parse_term(&deep_term, &[Var::bool("x")]).is_err());
}

#[test]
fn parse_term_round_trips() {
    let vars = [Var::int("x"), Var::int("y"), Var::reference("p"), Var::bool("b")];
    for text in [
        "(and (not (= p 0)) (<= (+ (* (- 2) x) (- 5)) (div x 3)))",
        "(=> b (= (mod x 2) 1))",
        "(ite b x (- y))",
        "(distinct x y 3)",
        "(or (< x y) (>= x y) (> x 0))",
    ] {
        assert_eq!(parse_term(text, &vars).unwrap().to_string(), text);
    }
    assert_eq!(parse_term("(= x y 1)", &vars).unwrap().to_string(), "(and (= x y) (= y 1))");
    assert_eq!(parse_term("(* x 3)", &vars).unwrap().to_string(), "(* 3 x)");
    assert_eq!(parse_term("(- x y 1)", &vars).unwrap().to_string(), "(- (- x y) 1)");
    assert!(matches!(parse_term("(* x y)", &vars), Err(SolverError::Malformed(_))));
    assert!(matches!(parse_term("(> z 1)", &vars), Err(SolverError::Malformed(_))));
    assert!(matches!(parse_term("x y", &vars), Err(SolverError::Malformed(_))));
}

#[test]
fn simplify_folds_and_preserves_meaning() {
    let x = Var::int("x");
    let b = Var::bool("b");
    let cases = [
        (Term::add([Term::Int(2), Term::Int(3), x.term(), Term::Int(-5)]), "x"),
        (Term::lt(Term::mul(0, &x), 1), "true"),
        (Term::and([b.term(), Term::not(&b)]), "false"),
        (Term::or([Term::Bool(false), Term::and([Term::Bool(true), b.term()])]), "b"),
        (Term::eq(&x, &x), "true"),
        (Term::eq(Term::Null, Term::Int(0)), "true"),
        (Term::distinct([x.term(), Term::Int(1), x.term()]), "false"),
        (Term::ite(Term::Bool(false), 1, &x), "x"),
        (Term::div(Term::Int(-7), 5), "(- 2)"),
        (Term::modulo(Term::Int(-7), 5), "3"),
        (Term::implies(Term::Bool(false), &b), "true"),
        (Term::add([Term::Int(i64::MAX), Term::Int(1)]), "(+ 1 9223372036854775807)"),
        (Term::div(&x, 0), "(div x 0)"),
    ];
    for (t, want) in cases {
        assert_eq!(t.simplify().to_string(), want, "simplify {t}");
    }
}

#[test]
fn eval_follows_smtlib_semantics() {
    let x = Var::int("x");
    let b = Var::bool("b");
    let mut m = Model::new();
    m.insert(&x, Value::Int(-7));
    m.insert(&b, Value::Bool(true));
    assert_eq!(eval(&Term::div(&x, 5), &m), Ok(Value::Int(-2)));
    assert_eq!(eval(&Term::modulo(&x, 5), &m), Ok(Value::Int(3)));
    assert_eq!(eval(&Term::modulo(&x, -5), &m), Ok(Value::Int(3)));
    assert_eq!(eval(&Term::ite(&b, Term::neg(&x), 0), &m), Ok(Value::Int(7)));
    assert_eq!(eval(&Term::eq(Term::Null, 0), &m), Ok(Value::Bool(true)));
    assert!(matches!(eval(&Term::div(&x, 0), &m), Err(SolverError::Eval(_))));
    assert!(matches!(eval(&Term::and([x.term()]), &m), Err(SolverError::Eval(_))));
    assert!(matches!(eval(&Term::Var(Var::int("y")), &m), Err(SolverError::Eval(_))));
    assert!(matches!(eval(&Term::mul(i64::MAX, &x), &m), Err(SolverError::Eval(_))));
    assert_eq!(m.satisfies(&[Term::lt(&x, 0), b.term()]), Ok(true));
}

#[test]
fn extreme_integers_in_a_model_are_read_back() {
    let x = heaplab_smt::Var::int("x");
    let y = heaplab_smt::Var::int("y");
    let text = "((x (- 9223372036854775808)) (y 9223372036854775807))";
    let model = heaplab_smt::parse_values(text, &[x.clone(), y.clone()]).expect("values parse");
    assert_eq!(model.int(&x), Some(i64::MIN));
    assert_eq!(model.int(&y), Some(i64::MAX));
    // One past the range is a typed error, not a wrong value or a panic.
    let z = heaplab_smt::Var::int("z");
    assert!(heaplab_smt::parse_values("((z (- 9223372036854775809)))", &[z]).is_err());
}
