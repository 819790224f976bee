//! Every predicate of the example programs converts, has a finite model, no unreachable
//! disjunct, and a least fixed point; each satisfiable instance's model passes the checker.
mod common;

use heaplab_logic::formula::{PredApp, SymHeap, Term};
use heaplab_logic::{
    check_predicates, lfp, sat, satisfies, CheckLimits, Defs, Formula, LfpLimits, SatResult,
    SearchBounds, Verdict,
};

#[test]
fn example_predicates() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("examples")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "hl"));
    files.sort();
    let mut preds = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read");
        let (program, _) = heaplab_syntax::parser::parse_program(&text);
        let (defs, errors) = Defs::from_program(&program);
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        let warnings = check_predicates(&program, &defs, &mut common::solver());
        assert!(warnings.is_empty(), "{}: {warnings:?}", path.display());
        let res = lfp(&defs, LfpLimits::default());
        for (name, e) in &res.preds {
            assert!(!e.contexts.is_empty(), "{}: {name}", path.display());
        }
        for def in defs.preds.values() {
            preds += 1;
            let args = def.params.iter().map(|(v, _)| Term::Var(v.clone())).collect();
            let f = Formula {
                free: def.params.clone(),
                disjuncts: vec![SymHeap {
                    preds: vec![PredApp { name: def.name.clone(), args, depth: 0 }],
                    ..SymHeap::default()
                }],
            };
            let r = sat(&defs, &f, SearchBounds::default(), &mut common::solver()).expect("sat");
            let SatResult::Sat(m) = r else {
                panic!("{}: {} not sat: {r:?}", path.display(), def.name)
            };
            let v = satisfies(&defs, &m, &f, CheckLimits::default()).expect("check");
            assert_eq!(v, Verdict::Holds, "{}: {}\n{m}", path.display(), def.name);
        }
    }
    assert!(preds >= 10, "{preds}");
}
