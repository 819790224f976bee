//! Fuzzing, bounded for CI: one seeded target per entry point reachable from here (parser and
//! checker, interpreter, `sat`, explorer per strategy, the emitters), each a fixed number of
//! cases (a count, never a time budget, so a slow machine checks as much as a fast one; an
//! eighth of them under `./build.sh test --quick`), plus the hostile inputs of issue 21 as
//! regression cases. Seeds are fixed, so a failure names a seed that reproduces it.
//!
//! The properties: nothing panics; diagnostics stay small; an explorer's tests replay (a
//! mismatch is an `Err` from generation) and every feasible path is a test, unknown, or out of
//! time; the `.hl` export checks clean and its tests pass in the interpreter; a model `sat`
//! returns satisfies its formula by the model checker.

mod common;
mod programs;

use heaplab_engine::symbolic::{strategy, Config, Explorer, NoClock, PreMode};
use heaplab_engine::{eval_call, run_tests, Limits};
use heaplab_logic::convert::parse_query;
use heaplab_logic::{
    sat, satisfies, CheckLimits, Defs, NoSolver, SatResult, SearchBounds, Verdict,
};
use heaplab_syntax::diagnostic::render_all;
use heaplab_syntax::parser::parse_expr_with_base;
use heaplab_syntax::{analyze, SourceFile};
use heaplab_testgen::emit::junit::{junit, JunitInput};
use heaplab_testgen::{emit, generate};
use programs::{random_program, Rng};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

/// Runs `case` for seeds `0..cases` (an eighth of them, at least 10, under `--quick`); fails
/// with the seed of the first panic or failed property. Returns how many cases ran.
fn fuzz(name: &str, cases: u64, mut case: impl FnMut(u64) -> Result<(), String>) -> u64 {
    let cases = if common::quick() { (cases / 8).max(10) } else { cases };
    let start = Instant::now();
    for seed in 0..cases {
        match catch_unwind(AssertUnwindSafe(|| case(seed))) {
            Ok(Ok(())) => {}
            Ok(Err(msg)) => panic!("{name}, seed {seed}: {msg}"),
            Err(_) => panic!("{name}, seed {seed}: panicked"),
        }
    }
    // The time is printed for people tuning the counts; nothing depends on it.
    eprintln!("{name}: {cases} cases in {:?}", start.elapsed());
    cases
}

/// Mutates `text` a few times: deletions, duplications, swaps, hostile tokens.
fn mutate(text: &str, rng: &mut Rng) -> String {
    const TOKENS: &[&str] = &[
        "-9223372036854775808",
        "- -9223372036854775808",
        "9223372036854775808",
        "((((",
        "}}}",
        "{",
        "old(",
        "result",
        "_",
        "#",
        "->",
        ":=",
        "\0",
        "\u{feff}",
        "é",
        "\r\n",
        "/*",
        "*/",
        "//",
        "new",
        "null.",
        "this",
        "while (true) {",
        "requires",
        "ensures",
        "pred",
        "exists",
        "class",
        ";",
        ",",
        ".",
        "'",
        "\"",
        "\\u000a",
    ];
    let mut bytes: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let len = bytes.len().max(1);
        let at = rng.below(len).min(bytes.len());
        match rng.below(4) {
            0 => {
                let end = (at + rng.below(20)).min(bytes.len());
                bytes.drain(at..end);
            }
            1 => {
                let end = (at + rng.below(40)).min(bytes.len());
                let copy: Vec<char> = bytes[at..end].to_vec();
                let to = rng.below(bytes.len().max(1)).min(bytes.len());
                bytes.splice(to..to, copy);
            }
            _ => {
                let token = rng.pick(TOKENS);
                bytes.splice(at..at, token.chars());
            }
        }
    }
    bytes.into_iter().collect()
}

fn examples() -> Vec<String> {
    common::example_files().iter().map(|p| std::fs::read_to_string(p).expect("example")).collect()
}

/// Inputs that broke HeapLab once (issue 21) or are shaped to: they must analyze without a
/// panic and render small.
fn hostile_inputs() -> Vec<String> {
    vec![
        "@ ".repeat(200_000),
        format!("int f() {{ return {}1{}; }}", "(".repeat(5_000), ")".repeat(5_000)),
        format!("int f() {{ return {}1; }}", "1 + ".repeat(128)),
        format!("int f() {{ return {}1; }}", "-".repeat(5_000)),
        format!("class {} {{ }}", "A".repeat(1 << 20)),
        "int f() { return - -9223372036854775808; }".to_string(),
        "int f() { return 9223372036854775808; }".to_string(),
        "\0\0\0".to_string(),
        "class A { A a; int f() requires this -> A { a: _ } * this -> A { a: _ } { return 1; } }"
            .to_string(),
    ]
}

#[test]
fn parser_and_checker_survive_mutated_and_hostile_programs() {
    for text in hostile_inputs() {
        let file = SourceFile::new("hostile.hl", text);
        let a = analyze(&file);
        let shown = render_all(&a.diagnostics, &file);
        assert!(shown.len() < 256 * 1024, "{} bytes of diagnostics", shown.len());
    }
    let mut sources = examples();
    sources.extend((0..20).map(|s| random_program(1000 + s).0));
    fuzz("parser+checker", 4000, |seed| {
        let mut rng = Rng::new(seed);
        let base = rng.pick(&sources).clone();
        let text = mutate(&base, &mut rng);
        let file = SourceFile::new("mutant.hl", text);
        let a = analyze(&file);
        let shown = render_all(&a.diagnostics, &file);
        if shown.len() > 256 * 1024 {
            return Err(format!("{} bytes of diagnostics", shown.len()));
        }
        Ok(())
    });
}

#[test]
fn interpreter_runs_random_programs_within_its_limits() {
    let mut returned = 0;
    fuzz("interpreter", 2000, |seed| {
        let (text, target) = random_program(seed);
        let file = SourceFile::new("g.hl", text);
        let a = analyze(&file);
        if a.has_errors() {
            return Err(render_all(&a.diagnostics, &file));
        }
        let (class, method) = target.split_once('.').expect("Class.method");
        let mut rng = Rng::new(seed ^ 0xABCD);
        let params = a
            .program
            .items
            .iter()
            .find_map(|i| match i {
                heaplab_syntax::ast::Item::Class(c) if c.name.name == class => {
                    c.methods.iter().find(|m| m.name.name == method).map(|m| m.params.clone())
                }
                _ => None,
            })
            .unwrap_or_default();
        let args: Vec<String> = params
            .iter()
            .map(|p| match p.ty {
                heaplab_syntax::ast::TypeExpr::Bool(_) => rng.pick(&["true", "false"]).to_string(),
                _ => rng
                    .pick(&["0", "1", "-1", "9223372036854775807", "-9223372036854775808", "1001"])
                    .to_string(),
            })
            .collect();
        let call = format!("new {class}.{method}({})", args.join(", "));
        let (expr, diags) = parse_expr_with_base(&call, 1_000_000_000);
        let expr = expr.ok_or_else(|| format!("the call does not parse: {diags:?}"))?;
        let limits = Limits { steps: 50_000, call_depth: 50, ..Limits::default() };
        let (outcome, _) =
            eval_call(&a.program, &a.info, &expr, limits).map_err(|e| format!("{call}: {e}"))?;
        if matches!(outcome, heaplab_engine::Outcome::Returned(_)) {
            returned += 1;
        }
        Ok(())
    });
    eprintln!("interpreter: {returned} calls returned");
    assert!(returned > 300, "only {returned} calls returned a value");
}

/// Paths of every strategy replay in the interpreter, every feasible path is accounted for, and
/// the `.hl` export checks clean and passes `run_tests`; JUnit and JSON emit without a panic.
#[test]
fn explorer_per_strategy_and_emitters_agree_with_the_interpreter() {
    // The registry rows the explorer runs (the concolic driver has its own tests).
    let strategies: Vec<_> = strategy::STRATEGIES.iter().filter(|s| s.kind().is_some()).collect();
    fuzz("explorer+emitters", 240, |seed| {
        let (text, target) = random_program(500 + seed);
        let a = analyze(&SourceFile::new("g.hl", text.clone()));
        if a.has_errors() {
            return Err(format!("{:?}", a.diagnostics));
        }
        let info = strategies[seed as usize % strategies.len()];
        let mut config = Config::default();
        config.strategy = info.kind().unwrap_or(config.strategy);
        config.pre = if info.reads_requires { PreMode::Assume } else { PreMode::Ignore };
        config.bounds.k = 1;
        config.bounds.loop_iterations = 2;
        config.bounds.max_paths = 30;
        config.bounds.max_states = 2_000;
        let mut ex = Explorer::new(
            &a.program,
            &a.info,
            &target,
            config,
            common::solver(),
            Box::new(NoClock),
        )
        .map_err(|e| e.to_string())?;
        ex.run_to_end();
        let feasible = ex.paths().iter().filter(|p| p.outcome.is_feasible()).count();
        let gen =
            generate(&mut ex, &a.program, &a.info).map_err(|e| format!("{}: {e}", info.name))?;
        let untested = gen.unknown.len() + gen.out_of_time.len() + gen.out_of_memory.len();
        if gen.tests.len() + untested != feasible {
            return Err(format!("{} feasible paths, {} tests", feasible, gen.tests.len()));
        }
        let hl = emit::hl(&text, &gen);
        let file = SourceFile::new("emitted.hl", hl);
        let b = analyze(&file);
        if b.has_errors() {
            return Err(render_all(&b.diagnostics, &file));
        }
        for result in run_tests(&b.program, &b.info, Limits::default()) {
            if !result.passed {
                return Err(format!("{}: emitted test `{}` fails", info.name, result.name));
            }
        }
        let _ = emit::json(&gen);
        let input = JunitInput {
            program: &a.program,
            info: &a.info,
            source: &text,
            package: None,
            paths: ex.paths(),
        };
        let _ = junit(&input, &gen);
        Ok(())
    });
}

/// The integers where arithmetic breaks: the ends of both int ranges and their neighbours.
const EDGES: [i64; 11] = [
    i64::MIN,
    i64::MIN + 1,
    -2_147_483_649,
    -2_147_483_648,
    -1,
    0,
    1,
    2_147_483_647,
    2_147_483_648,
    i64::MAX - 1,
    i64::MAX,
];

/// The same under `ints java32`.
const EDGES32: [i64; 7] = [-2_147_483_648, -2_147_483_647, -1, 0, 1, 2_147_483_646, 2_147_483_647];

/// A literal HeapLab reads as `v` (the least int is the negation of a literal too large, so it
/// is written as a difference).
fn literal(v: i64) -> String {
    match v {
        i64::MIN => "(-9223372036854775807 - 1)".to_string(),
        -2_147_483_648 => "(-2147483647 - 1)".to_string(),
        _ => v.to_string(),
    }
}

/// A method over two ints whose `requires` compares linear terms with edge constants and whose
/// body, on one path, applies `*`, `/` or `%` to two chosen edge values (`i64::MIN % -1`, the
/// remainder that overflows in Rust, among them), with `ints java32` or mathematical integers.
fn edge_program(rng: &mut Rng) -> (String, [i64; 2]) {
    let java32 = rng.chance(50);
    let ints = if java32 { "ints java32;\n" } else { "" };
    let edges: &[i64] = if java32 { &EDGES32 } else { &EDGES };
    let chosen = [*rng.pick(edges), *rng.pick(edges)];
    let (ea, eb) = (literal(chosen[0]), literal(chosen[1]));
    let mut edge = || literal(*rng.pick(edges));
    let (c1, c2, c3) = (edge(), edge(), edge());
    let ops = ["+", "-", "*", "/", "%"];
    let cmp = ["<", "<=", "==", "!="];
    let (o1, o2) = (rng.pick(&["+", "-"]), rng.pick(&["+", "-"]));
    let (k, c) = (rng.pick(&cmp), rng.pick(&cmp));
    let (o3, o4) = (rng.pick(&ops), rng.pick(&ops));
    let text = format!(
        "{ints}int m(int a, int b)\n    requires a {o1} {c1} {k} b {o2} {c2} | 3 # a {c} {c3}\n{{\n    \
         if (a == {ea}) {{ if (b == {eb}) {{ return a {o3} b; }} }}\n    return b {o4} a;\n}}\n"
    );
    (text, chosen)
}

/// Edge integers in preconditions and bodies (issue 30 item 3): no strategy, precondition check
/// (assumed, or ignored and each input classified by the model checker), replay or export
/// panics, and every emitted test passes in the interpreter.
#[test]
fn edge_integers_in_preconditions_and_arithmetic_never_panic() {
    let strategies: Vec<_> = strategy::STRATEGIES.iter().filter(|s| s.kind().is_some()).collect();
    let (mut tests, mut on_edge) = (0, 0);
    let cases = fuzz("edge integers", 400, |seed| {
        let mut rng = Rng::new(9_000 + seed);
        let (text, chosen) = edge_program(&mut rng);
        let a = analyze(&SourceFile::new("edge.hl", text.clone()));
        if a.has_errors() {
            return Err(format!(
                "{text}\n{}",
                render_all(&a.diagnostics, &SourceFile::new("edge.hl", text.clone()))
            ));
        }
        let info = strategies[seed as usize % strategies.len()];
        let mut config = Config::default();
        config.strategy = info.kind().unwrap_or(config.strategy);
        config.pre = if seed % 2 == 0 { PreMode::Assume } else { PreMode::Ignore };
        config.bounds.max_paths = 40;
        let mut ex =
            Explorer::new(&a.program, &a.info, "m", config, common::solver(), Box::new(NoClock))
                .map_err(|e| e.to_string())?;
        ex.run_to_end();
        let gen = generate(&mut ex, &a.program, &a.info)
            .map_err(|e| format!("{}: {e}\n{text}", info.name))?;
        tests += gen.tests.len();
        // The path through both `if`s: its test calls `m` with the two chosen edge values.
        let edge_args = chosen.map(heaplab_engine::Value::Int);
        on_edge += gen.tests.iter().filter(|t| t.input.args == edge_args).count();
        let file = SourceFile::new("emitted.hl", emit::hl(&text, &gen));
        let b = analyze(&file);
        if b.has_errors() {
            return Err(render_all(&b.diagnostics, &file));
        }
        for result in run_tests(&b.program, &b.info, Limits::default()) {
            if !result.passed {
                return Err(format!("{}: emitted test `{}` fails\n{text}", info.name, result.name));
            }
        }
        Ok(())
    });
    eprintln!("edge integers: {tests} tests, {on_edge} through both ifs");
    assert!(tests as u64 >= cases, "the programs are too often infeasible: {tests} tests");
    assert!(on_edge > 0, "no test reached the arithmetic on edge values");
}

/// Random formulas over sll.hl's classes and predicates: `sat` never panics, and each model it
/// returns satisfies the formula by the model checker (an independent procedure).
#[test]
fn sat_models_satisfy_their_random_formulas() {
    let text = std::fs::read_to_string(
        common::example_files().into_iter().find(|p| p.ends_with("sll.hl")).expect("sll.hl"),
    )
    .expect("read");
    let a = analyze(&SourceFile::new("sll.hl", text));
    let (defs, errors) = Defs::from_program(&a.program);
    assert!(errors.is_empty(), "{errors:?}");
    const ATOMS: &[&str] = &[
        "x -> Node { elem: a, next: y }",
        "y -> Node { elem: b, next: null }",
        "x == null",
        "x != null",
        "x == y",
        "emp",
        "sll(x)",
        "lseg(x, y)",
        "sll(y)",
        "a < b",
        "a == b + 1",
        "lseg(y, x)",
        "y -> Node { elem: a, next: x }",
        "a > 9223372036854775806",
    ];
    let (mut parsed, mut models) = (0, 0);
    fuzz("sat", 1000, |seed| {
        let mut rng = Rng::new(seed);
        let mut parts = Vec::new();
        for _ in 0..1 + rng.below(3) {
            parts.push(rng.pick(ATOMS).to_string());
        }
        let mut formula = parts[0].clone();
        for p in &parts[1..] {
            formula = format!("{formula} {} {p}", rng.pick(&["*", "&", "|"]));
        }
        let f = match parse_query(&defs, &formula, &[]) {
            Ok(f) => f,
            Err(e) if seed < 3 => return Err(format!("`{formula}`: {e}")),
            Err(_) => return Ok(()),
        };
        parsed += 1;
        let bounds = SearchBounds { max_depth: 3, max_objects: 3, max_states: 5_000 };
        let Ok(SatResult::Sat(model)) = sat(&defs, &f, bounds, &mut NoSolver) else {
            return Ok(());
        };
        models += 1;
        match satisfies(&defs, &model, &f, CheckLimits::default()) {
            Ok(Verdict::Fails) => {
                Err(format!("`{formula}`: the model fails the formula:\n{model}"))
            }
            _ => Ok(()),
        }
    });
    eprintln!("sat: {parsed} formulas parsed, {models} models checked");
    assert!(parsed > 300 && models > 150, "{parsed} parsed, {models} models");
}
