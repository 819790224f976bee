//! Random HeapLab programs from a seed, for the generated-program tests: the JUnit corpus
//! (examples/junit_corpus.rs, compiled by javac in tests/junit/run.sh) and the fuzz tests.
//!
//! Each program is one class with int, bool and self-typed fields, one method `m` under test
//! and a top-level helper function. Names are drawn from pools full of what broke the Java
//! export (Java keywords, `Math`, `e`, `Object`'s methods, names of 300 characters), bodies mix
//! locals, field stores, branches, loops (bounded by a counter, endless with `break`, or never
//! entered), early returns with dead code after them, asserts, allocation and nullable field
//! reads, and integer literals at the edges of i64 (`- -9223372036854775808` included).
//! Programs are meant to type-check; callers count the ones that do not.

#![allow(dead_code)]

/// xorshift64*: small, seeded, the same on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn long_name(prefix: &str) -> String {
    format!("{prefix}{}", "x".repeat(300))
}

const CLASS_NAMES: &[&str] =
    &["Node", "byte", "Math", "Long", "Functions", "Test", "EnsuresViolation", "Object", "e"];
const VAR_NAMES: &[&str] = &[
    "e",
    "Math",
    "Long",
    "thrown",
    "old1",
    "byte",
    "char",
    "hashCode",
    "wait",
    "org",
    "java",
    "divide",
    "Functions",
    "x",
    "y",
    "mBody",
    "node",
    "value",
    "goto",
    "String",
];
const METHOD_NAMES: &[&str] = &["m", "equals", "wait", "toString", "byte", "divide", "hashCode"];
const INT_LITERALS: &[&str] = &[
    "0",
    "1",
    "2",
    "7",
    "-1",
    "100",
    "9223372036854775807",
    "-9223372036854775808",
    "- -9223372036854775808",
    "-9223372036854775807",
    "4611686018427387904",
];

#[derive(Clone, Copy, PartialEq)]
enum Ty {
    Int,
    Bool,
    Obj,
}

struct Gen<'r> {
    rng: &'r mut Rng,
    class: String,
    /// (name, type) of the class's fields.
    fields: Vec<(String, Ty)>,
    helper: String,
    /// Locals and parameters in scope (name, type); names are unique per method.
    scope: Vec<(String, Ty)>,
    taken: Vec<String>,
    loop_depth: usize,
    /// Statements left to write (bounds the program's size).
    budget: usize,
}

impl Gen<'_> {
    fn fresh(&mut self) -> String {
        for _ in 0..4 {
            let n = self.rng.pick(VAR_NAMES).to_string();
            if !self.taken.contains(&n) && n != self.class && n != self.helper {
                self.taken.push(n.clone());
                return n;
            }
        }
        let n = if self.rng.chance(5) {
            long_name(&format!("v{}", self.taken.len()))
        } else {
            format!("v{}", self.taken.len())
        };
        self.taken.push(n.clone());
        n
    }

    fn of(&self, ty: Ty) -> Vec<String> {
        self.scope.iter().filter(|(_, t)| *t == ty).map(|(n, _)| n.clone()).collect()
    }

    fn field(&mut self, ty: Ty) -> Option<String> {
        let fs: Vec<String> =
            self.fields.iter().filter(|(_, t)| *t == ty).map(|(n, _)| n.clone()).collect();
        (!fs.is_empty()).then(|| self.rng.pick(&fs).clone())
    }

    fn int(&mut self, depth: u32) -> String {
        let vars = self.of(Ty::Int);
        match self.rng.below(if depth == 0 { 3 } else { 9 }) {
            0 => self.rng.pick(INT_LITERALS).to_string(),
            1 if !vars.is_empty() => self.rng.pick(&vars).clone(),
            2 => match self.field(Ty::Int) {
                Some(f) if self.rng.chance(30) => match self.field(Ty::Obj) {
                    Some(o) => format!("this.{o}.{f}"),
                    None => format!("this.{f}"),
                },
                Some(f) => format!("this.{f}"),
                None => "3".into(),
            },
            3 => {
                let op = *self.rng.pick(&["+", "-", "*", "/", "%"]);
                format!(
                    "({} {op} {})",
                    self.int(depth.saturating_sub(1)),
                    self.int(depth.saturating_sub(1))
                )
            }
            // `- -1`, not `--1`: `--` is the decrement operator.
            4 => format!("- {}", self.int(depth.saturating_sub(1))),
            5 => format!(
                "({} ? {} : {})",
                self.boolean(depth.saturating_sub(1)),
                self.int(depth.saturating_sub(1)),
                self.int(depth.saturating_sub(1))
            ),
            6 => {
                let arg = self.int(depth.saturating_sub(1));
                format!("{}({arg})", self.helper)
            }
            _ => self.rng.pick(INT_LITERALS).to_string(),
        }
    }

    fn boolean(&mut self, depth: u32) -> String {
        let vars = self.of(Ty::Bool);
        match self.rng.below(if depth == 0 { 2 } else { 8 }) {
            0 => self.rng.pick(&["true", "false", "1 < 2", "2 % 2 == 1", "1 % 0 == 0"]).to_string(),
            1 if !vars.is_empty() => self.rng.pick(&vars).clone(),
            2 => {
                let op = *self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
                format!(
                    "{} {op} {}",
                    self.int(depth.saturating_sub(1)),
                    self.int(depth.saturating_sub(1))
                )
            }
            3 => {
                let op = *self.rng.pick(&["&&", "||"]);
                format!(
                    "({} {op} {})",
                    self.boolean(depth.saturating_sub(1)),
                    self.boolean(depth.saturating_sub(1))
                )
            }
            4 => format!("!({})", self.boolean(depth.saturating_sub(1))),
            5 => match self.field(Ty::Bool) {
                Some(f) => format!("this.{f}"),
                None => "true".into(),
            },
            6 => match self.field(Ty::Obj) {
                Some(f) => format!("this.{f} == null"),
                None => "false".into(),
            },
            _ => format!(
                "{} == {}",
                self.int(depth.saturating_sub(1)),
                self.int(depth.saturating_sub(1))
            ),
        }
    }

    fn block(&mut self, indent: usize, max: usize) -> String {
        let mut out = String::new();
        let mark = self.scope.len();
        let n = 1 + self.rng.below(max);
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            out.push_str(&self.stmt(indent));
        }
        self.scope.truncate(mark);
        out
    }

    fn stmt(&mut self, indent: usize) -> String {
        let pad = "  ".repeat(indent);
        match self.rng.below(12) {
            0 | 1 => {
                let n = self.fresh();
                let s = if self.rng.chance(70) {
                    let v = self.int(2);
                    self.scope.push((n.clone(), Ty::Int));
                    format!("{pad}int {n} = {v};\n")
                } else {
                    let v = self.boolean(2);
                    self.scope.push((n.clone(), Ty::Bool));
                    format!("{pad}bool {n} = {v};\n")
                };
                s
            }
            2 => {
                let vars = self.of(Ty::Int);
                if vars.is_empty() {
                    return format!("{pad}assert {};\n", self.boolean(1));
                }
                let v = self.rng.pick(&vars).clone();
                format!("{pad}{v} = {};\n", self.int(2))
            }
            3 => match self.field(Ty::Int) {
                Some(f) => format!("{pad}this.{f} = {};\n", self.int(2)),
                None => String::new(),
            },
            4 | 5 => {
                let c = self.boolean(2);
                let then = self.block(indent + 1, 3);
                if self.rng.chance(50) {
                    let other = self.block(indent + 1, 3);
                    format!("{pad}if ({c}) {{\n{then}{pad}}} else {{\n{other}{pad}}}\n")
                } else {
                    format!("{pad}if ({c}) {{\n{then}{pad}}}\n")
                }
            }
            6 => {
                self.loop_depth += 1;
                let s = match self.rng.below(3) {
                    0 => {
                        let i = self.fresh();
                        let body = self.block(indent + 1, 3);
                        format!("{pad}int {i} = 0;\n{pad}while ({i} < 2) {{\n{pad}  {i} = {i} + 1;\n{body}{pad}}}\n")
                    }
                    1 => {
                        let c = self.rng.pick(&["false", "1 > 2", "!true"]).to_string();
                        let body = self.block(indent + 1, 2);
                        format!("{pad}while ({c}) {{\n{body}{pad}}}\n")
                    }
                    _ => {
                        let c = self.rng.pick(&["true", "1 < 2", "0 == 0"]).to_string();
                        let exit = self.boolean(1);
                        let body = self.block(indent + 1, 2);
                        format!("{pad}while ({c}) {{\n{body}{pad}  if ({exit}) {{\n{pad}    break;\n{pad}  }}\n{pad}  break;\n{pad}}}\n")
                    }
                };
                self.loop_depth -= 1;
                s
            }
            7 => format!("{pad}return {};\n", self.int(2)),
            8 if self.loop_depth > 0 => {
                format!("{pad}{};\n", self.rng.pick(&["break", "continue"]))
            }
            9 => format!("{pad}assert {};\n", self.boolean(2)),
            10 => {
                let n = self.fresh();
                let init = match self.field(Ty::Int) {
                    Some(f) => format!(" {{ {f}: {} }}", self.int(1)),
                    None => String::new(),
                };
                self.scope.push((n.clone(), Ty::Obj));
                let class = self.class.clone();
                let store = match self.field(Ty::Obj) {
                    Some(f) if self.rng.chance(50) => format!("{pad}this.{f} = {n};\n"),
                    _ => String::new(),
                };
                format!("{pad}{class} {n} = new {class}{init};\n{store}")
            }
            _ => {
                let vars = self.of(Ty::Int);
                match vars.first() {
                    Some(v) => format!("{pad}{v} = {}({v});\n", &self.helper),
                    None => format!("{pad}assert {};\n", self.boolean(1)),
                }
            }
        }
    }
}

/// A program and the target of its method under test (`Class.method`).
pub fn random_program(seed: u64) -> (String, String) {
    random_program_with(seed, false)
}

/// [`random_program`]'s program, with (when `requires` is set and the draw says so) a
/// `requires` on the method over its fields and parameters: null or non-null reference fields,
/// bounds on integers, a boolean field. The program is otherwise the same as
/// [`random_program`]'s for the seed (the clause is drawn from a generator of its own).
pub fn random_program_with(seed: u64, requires: bool) -> (String, String) {
    let mut rng = Rng::new(seed);
    let class = if rng.chance(8) { long_name("K") } else { rng.pick(CLASS_NAMES).to_string() };
    let method = if rng.chance(8) { long_name("m") } else { rng.pick(METHOD_NAMES).to_string() };
    let mut helper = rng.pick(&["divide", "Math", "helper", "Long", "twice"]).to_string();
    if helper == method {
        helper = "twice".into();
    }
    let mut g = Gen {
        rng: &mut rng,
        class: class.clone(),
        fields: Vec::new(),
        helper: helper.clone(),
        scope: Vec::new(),
        taken: vec![method.clone()],
        loop_depth: 0,
        budget: 14,
    };
    let nfields = 1 + g.rng.below(4);
    for _ in 0..nfields {
        let n = g.fresh();
        let ty = *g.rng.pick(&[Ty::Int, Ty::Int, Ty::Bool, Ty::Obj]);
        g.fields.push((n, ty));
    }
    g.taken.clear();
    g.taken.push(method.clone());
    let mut fields = String::new();
    for (n, ty) in &g.fields {
        let t = match ty {
            Ty::Int => "int".to_string(),
            Ty::Bool => "bool".to_string(),
            Ty::Obj => class.clone(),
        };
        fields.push_str(&format!("  {t} {n};\n"));
    }
    let mut params = Vec::new();
    for _ in 0..g.rng.below(3) {
        let n = g.fresh();
        let ty = if g.rng.chance(70) { Ty::Int } else { Ty::Bool };
        params.push(format!("{} {n}", if ty == Ty::Int { "int" } else { "bool" }));
        g.scope.push((n, ty));
    }
    let ensures = match g.field(Ty::Int) {
        Some(f) if g.rng.chance(30) => format!("\n    ensures result != old(this.{f}) || true"),
        _ => String::new(),
    };
    let body = g.block(2, 6);
    let tail = g.int(1);
    let pre = if requires { random_requires(seed, &g.fields, &params) } else { String::new() };
    let program = format!(
        "int {helper}(int a) {{\n  if (a > 1000) {{\n    return a;\n  }}\n  return a + 1;\n}}\n\nclass {class} {{\n{fields}\n  int {method}({}){pre}{ensures}\n  {{\n{body}    return {tail};\n  }}\n}}\n",
        params.join(", ")
    );
    (program, format!("{class}.{method}"))
}

/// A `requires` clause (with its leading newline) for two programs in three, or nothing.
fn random_requires(seed: u64, fields: &[(String, Ty)], params: &[String]) -> String {
    let mut rng = Rng::new(seed ^ 0x7e9u64.wrapping_mul(0x1000_0001));
    if rng.chance(33) {
        return String::new();
    }
    let mut facts = Vec::new();
    for (f, ty) in fields {
        if !rng.chance(60) {
            continue;
        }
        facts.push(match ty {
            Ty::Obj if rng.chance(50) => format!("this.{f} != null"),
            Ty::Obj => format!("this.{f} == null"),
            Ty::Int => format!("this.{f} {} {}", rng.pick(&[">=", "<", "!="]), rng.below(5)),
            Ty::Bool if rng.chance(50) => format!("this.{f}"),
            Ty::Bool => format!("!this.{f}"),
        });
    }
    for p in params {
        if let Some(n) = p.strip_prefix("int ") {
            if rng.chance(50) {
                facts.push(format!("{n} {} {}", rng.pick(&[">", "<=", "!="]), rng.below(5)));
            }
        }
    }
    if facts.is_empty() {
        return String::new();
    }
    format!("\n    requires {}", facts.join(" && "))
}
