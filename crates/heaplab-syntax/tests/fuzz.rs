//! Bounded no-panic fuzzing of the front end: token soup from a seeded PRNG, every prefix
//! length of the examples and test files (sampled), random byte mutations, and pathological
//! nesting. For every input, parsing (program, expression, formula), checking and printing must
//! not panic, every diagnostic span must lie inside the text, and the printed recovered tree
//! must parse again cleanly. Deterministic (fixed seeds) and fast (a few seconds in debug).

#![allow(clippy::unwrap_used)]

use heaplab_syntax::parser::{parse_expr, parse_formula, parse_program};
use heaplab_syntax::{check::check_program, pretty, Diagnostic};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// xorshift64*: small, seeded, good enough to shuffle tokens.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const ALPHABET: &[&str] = &[
    "class",
    "pred",
    "pure",
    "test",
    "expects",
    "requires",
    "ensures",
    "exists",
    "emp",
    "int",
    "bool",
    "void",
    "if",
    "else",
    "while",
    "return",
    "break",
    "continue",
    "assert",
    "assume",
    "new",
    "null",
    "true",
    "false",
    "this",
    "result",
    "old",
    "+",
    "-",
    "*",
    "/",
    "%",
    "#",
    "<",
    "<=",
    ">",
    ">=",
    "==",
    "!=",
    "&&",
    "||",
    "!",
    "?",
    ":",
    "=",
    "->",
    ":=",
    "|",
    "&",
    ".",
    ",",
    ";",
    "(",
    ")",
    "{",
    "}",
    "(",
    ")",
    "{",
    "}",
    "x",
    "y",
    "Node",
    "next",
    "f",
    "_",
    "0",
    "1",
    "42",
    "9223372036854775807",
    "9223372036854775808",
    "99999999999999999999",
    "null_dereference",
    "\n",
    "//",
    "/*",
    "*/",
    "é",
    "@",
    "\u{1F600}",
    "\t",
];

fn corpus() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dirs: Vec<PathBuf> = vec![
        root.join("../../examples"),
        root.join("test_data/parser/ok"),
        root.join("test_data/parser/err"),
    ];
    let mut files = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths.into_iter().filter(|p| p.extension().is_some_and(|x| x == "hl")) {
            if let Ok(text) = std::fs::read_to_string(&p) {
                files.push((p.display().to_string(), text));
            }
        }
    }
    files
}

fn spans_inside(diags: &[Diagnostic], text: &str) -> Result<(), String> {
    for d in diags {
        if d.span.start > d.span.end || d.span.end as usize > text.len() {
            return Err(format!(
                "span {:?} outside text of length {}: {}",
                d.span,
                text.len(),
                d.message
            ));
        }
    }
    Ok(())
}

/// Everything that must hold for any input; `Err` describes the violation.
fn exercise(text: &str) -> Result<(), String> {
    let res = catch_unwind(AssertUnwindSafe(|| {
        let (program, diags) = parse_program(text);
        spans_inside(&diags, text)?;
        let (_info, semantic) = check_program(&program);
        spans_inside(&semantic, text)?;
        let printed = pretty::program(&program);
        let (_, again) = parse_program(&printed);
        if !again.is_empty() {
            return Err(format!("printed recovered tree does not parse: {again:?}\n{printed}"));
        }
        let (_, diags) = parse_expr(text);
        spans_inside(&diags, text)?;
        let (formula, diags) = parse_formula(text);
        spans_inside(&diags, text)?;
        if let Some(f) = formula {
            let _ = pretty::formula(&f);
        }
        Ok(())
    }));
    match res {
        Ok(r) => r,
        Err(_) => Err("panicked".to_string()),
    }
}

fn assert_all(inputs: impl IntoIterator<Item = String>) {
    let mut failures = Vec::new();
    for text in inputs {
        if let Err(msg) = exercise(&text) {
            if failures.len() < 5 {
                failures.push(format!("input {text:?}: {msg}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn token_soup() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let inputs = (0..1500).map(|_| {
        let len = rng.below(60);
        let mut s = String::new();
        for _ in 0..len {
            s.push_str(ALPHABET[rng.below(ALPHABET.len())]);
            if rng.below(3) > 0 {
                s.push(' ');
            }
        }
        s
    });
    assert_all(inputs.collect::<Vec<_>>());
}

#[test]
fn prefixes_of_every_file() {
    let mut inputs = Vec::new();
    for (_, text) in corpus() {
        let steps = 60.min(text.len().max(1));
        for i in 0..=steps {
            let mut cut = text.len() * i / steps;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            inputs.push(text[..cut].to_string());
        }
    }
    assert_all(inputs);
}

#[test]
fn byte_mutations() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let noise = b"(){};.,*#&|-><=!?:_x1 \n/";
    let mut inputs = Vec::new();
    for (_, text) in corpus() {
        for _ in 0..12 {
            let mut bytes = text.clone().into_bytes();
            for _ in 0..1 + rng.below(4) {
                if bytes.is_empty() {
                    break;
                }
                let at = rng.below(bytes.len());
                match rng.below(3) {
                    0 => bytes[at] = noise[rng.below(noise.len())],
                    1 => {
                        bytes.remove(at);
                    }
                    _ => bytes.insert(at, noise[rng.below(noise.len())]),
                }
            }
            inputs.push(String::from_utf8_lossy(&bytes).into_owned());
        }
    }
    assert_all(inputs);
}

#[test]
fn pathological_nesting() {
    let n = 5000;
    let inputs = vec![
        format!("int f() {{ return {}1{}; }}", "(".repeat(n), ")".repeat(n)),
        format!("int f() {{ return {}1; }}", "(".repeat(n)),
        format!("void f() {}{}", "{".repeat(n), "}".repeat(n)),
        format!("void f() {}", "{".repeat(n)),
        format!("bool f() {{ return {}true; }}", "!".repeat(n)),
        format!("int f() {{ return {}1; }}", "-".repeat(n)),
        format!("int f() {{ return {}1; }}", "a ? b : ".repeat(n)),
        format!("int f() {{ return {}; }}", vec!["1"; n].join(" + ")),
        format!("int f() {{ return a{}; }}", ".b".repeat(n)),
        format!("void f() {{ {} x = 1; }}", "if (x) ".repeat(n)),
        format!("void f() {{ {} x = 1; }}", "while (x) ".repeat(n)),
        format!("pred p(int x) := {}x == 1{};", "(".repeat(n), ")".repeat(n)),
        format!("pred p(int x) := {}x == 1;", "(".repeat(n)),
        format!("pred p(int x) := {}emp;", "exists int a. (".repeat(n)),
        format!("void f() {{ x = {}1; }}", "new C { f: ".repeat(n)),
        format!("void f() {{ x = {}; }}", "g(".repeat(n)),
        "(".repeat(n),
        "{".repeat(n),
        "/*".repeat(n),
    ];
    assert_all(inputs);
}
