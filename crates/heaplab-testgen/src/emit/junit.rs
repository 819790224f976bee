//! JUnit 5 export: the HeapLab classes as Java, and one `@Test` per generated test.
//!
//! The translation keeps HeapLab's runtime semantics or refuses: `int` is `long` with
//! `Math.addExact` / `subtractExact` / `multiplyExact` / `negateExact`, so an overflow throws
//! `ArithmeticException("long overflow")` like HeapLab's `integer_overflow`; `/` goes through
//! `Functions.divide` (Java's `/`, plus the `Long.MIN_VALUE / -1` overflow Java ignores) and `%`
//! is Java's (same truncation, `/ by zero`); `assert e` throws `AssertionError`; `ensures` is
//! checked on return by a wrapper around the body (`old(e)` evaluated at entry into locals) and
//! throws `EnsuresViolation`; a null dereference is Java's own `NullPointerException` (field
//! stores and calls evaluate in Java's order, which the interpreter follows). Pure and other
//! top-level functions are static methods of `Functions`.
//!
//! What cannot be translated faithfully is an [`Untranslatable`] error (the program) or a
//! warning (one test left out), never a silent change.
//!
//! The Java must compile whatever the program's names and shape: a HeapLab name that Java
//! reserves, that the generated code itself uses (`Math`, `Long`, `Functions`, ...) or that
//! `Object` already declares (`equals`, `wait`, ...) gets a `$` suffix, which no HeapLab name
//! has, so renaming never makes two names one; names too long for a file name are shortened
//! with a hash; statements Java would reject as unreachable (after `return`, `break`,
//! `continue`, an endless `while`, inside a `while` whose condition Java folds to `false`) are
//! left out, since HeapLab never runs them either; classes with more fields than a Java
//! constructor takes are built with chained setters.

use crate::{Expected, GeneratedTest, Generation};
use heaplab_engine::symbolic::PathResult;
use heaplab_engine::{Heap, ObjId, Value};
use heaplab_syntax::ast::{
    BinOp, Block, ClassDecl, ErrorKind, Expr, ExprKind, FunctionDecl, Ints, Item, NodeId, Program,
    Stmt, StmtKind, TypeExpr, UnOp,
};
use heaplab_syntax::span::Span;
use heaplab_syntax::types::{CallTarget, ProgramInfo};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::fmt::Write;

/// The program uses constructs the Java translation cannot reproduce exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct Untranslatable(pub Vec<String>);

impl std::fmt::Display for Untranslatable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot translate to Java faithfully:\n  {}", self.0.join("\n  "))
    }
}

impl std::error::Error for Untranslatable {}

/// The Java files of one export (paths relative to the output folder) and what was left out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JavaFiles {
    /// `(relative path, contents)`: `bst/Node.java`, `bst/BSTInsertTest.java`, ...
    pub files: Vec<(String, String)>,
    /// Tests left out or names changed, one sentence each.
    pub warnings: Vec<String>,
}

/// What the export needs besides the generation.
pub struct JunitInput<'a> {
    pub program: &'a Program,
    pub info: &'a ProgramInfo,
    /// The source text (for the path comments and `ensures` messages).
    pub source: &'a str,
    /// The Java package (one per example, e.g. the file stem); `None`: the default package.
    pub package: Option<String>,
    /// The explorer's paths, indexed by [`GeneratedTest::path`] (for the decisions comment).
    pub paths: &'a [PathResult],
}

/// The helper class holding top-level functions and `divide`.
const FUNCTIONS: &str = "Functions";

const JAVA_KEYWORDS: &[&str] = &[
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "true",
    "false",
    "null",
    "var",
    "record",
    "yield",
    "_",
];

/// Contextual keywords Java forbids as type names, and `Object`'s methods, whose signatures a
/// HeapLab method of the same name would clash with.
const JAVA_RESTRICTED: &[&str] = &[
    "sealed",
    "permits",
    "when",
    "getClass",
    "hashCode",
    "equals",
    "toString",
    "notify",
    "notifyAll",
    "wait",
    "clone",
    "finalize",
];

/// Names the generated code refers to unqualified (a variable of one of these names would
/// obscure the class in `Math.addExact(..)`), and its own helper.
const RESERVED_CLASSES: &[&str] = &[
    FUNCTIONS,
    "EnsuresViolation",
    "Math",
    "Long",
    "Object",
    "String",
    "Boolean",
    "System",
    "AssertionError",
    "ArithmeticException",
    "NullPointerException",
    "ArrayIndexOutOfBoundsException",
    "NegativeArraySizeException",
    "RuntimeException",
    "Test",
    "Assertions",
    "org",
    "java",
    "divide",
];

/// Longest Java name the export writes (class names become file names, which most file systems
/// cap at 255 bytes).
const MAX_NAME: usize = 100;

/// The Java name of a HeapLab name, and why it changed (`None`: unchanged).
fn java_name(n: &str) -> (String, Option<String>) {
    if JAVA_KEYWORDS.contains(&n) || JAVA_RESTRICTED.contains(&n) || RESERVED_CLASSES.contains(&n) {
        return (
            format!("{n}$"),
            Some(format!("`{n}` is reserved in Java or by the export: renamed to `{n}$`")),
        );
    }
    if n.len() > MAX_NAME {
        let short = shorten(n);
        let msg = format!(
            "a name of {} characters is too long for Java files: shortened to `{short}`",
            n.len()
        );
        return (short, Some(msg));
    }
    (n.to_string(), None)
}

/// A long name cut to its first 80 characters plus a hash of the whole (so two long names that
/// share a prefix stay apart). HeapLab names are ASCII, so the cut is on a character boundary.
fn shorten(n: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in n.bytes() {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    let prefix: String = n.chars().take(80).collect();
    format!("{prefix}${hash:016x}")
}

/// Java source text for a `//` comment or a string: a backslash is doubled, so a `\u000a` in
/// the HeapLab source cannot become a line break in Java (which decodes `\u` escapes before
/// anything else), and the text is clipped.
fn java_text(s: &str, max: usize) -> String {
    let clipped: String = if s.chars().count() > max {
        s.chars().take(max.saturating_sub(3)).collect::<String>() + "..."
    } else {
        s.to_string()
    };
    clipped.replace('\\', "\\\\")
}

/// Translates the program and writes one test class for the generation.
pub fn junit(input: &JunitInput, gen: &Generation) -> Result<JavaFiles, Untranslatable> {
    let mut tr = Translator::new(input);
    let mut files = Vec::new();
    let classes: Vec<&ClassDecl> = input
        .program
        .items
        .iter()
        .filter_map(|i| if let Item::Class(c) = i { Some(c) } else { None })
        .collect();
    let functions: Vec<&FunctionDecl> = input
        .program
        .items
        .iter()
        .filter_map(|i| if let Item::Function(f) = i { Some(f) } else { None })
        .collect();
    for c in &classes {
        if c.name.name == "Object" && tr.builtin_object {
            continue;
        }
        let text = tr.class(c);
        let cname = tr.name(&c.name.name);
        files.push((tr.path(&format!("{cname}.java")), text));
    }
    let text = tr.functions_class(&functions);
    files.push((tr.path(&format!("{FUNCTIONS}.java")), text));
    files.push((tr.path("EnsuresViolation.java"), tr.ensures_violation()));
    let test_class = test_class_name(&gen.target);
    if classes.iter().any(|c| java_name(&c.name.name).0 == test_class) {
        tr.error(format!("the test class `{test_class}` would collide with a HeapLab class"));
    }
    let text = tr.test_class(&test_class, gen, false);
    files.push((tr.path(&format!("{test_class}.java")), text));
    // Error-revealing tests apart (Randoop's and EvoSuite's convention): they fail while the
    // bug is there, so the regression class stays green.
    if gen.tests.iter().any(GeneratedTest::reveals_bug) {
        let error_class = error_class_name(&test_class);
        if classes.iter().any(|c| java_name(&c.name.name).0 == error_class) {
            tr.error(format!("the test class `{error_class}` would collide with a HeapLab class"));
        }
        let text = tr.test_class(&error_class, gen, true);
        files.push((tr.path(&format!("{error_class}.java")), text));
    }
    if !tr.errors.is_empty() {
        return Err(Untranslatable(tr.errors));
    }
    Ok(JavaFiles { files, warnings: tr.warnings.into_iter().collect() })
}

/// `BST.insert` → `BSTInsertTest`; `add` → `AddTest`. One exploration covers one method, so
/// the test class is per method; the classes under test are shared by all of them.
pub fn test_class_name(target: &str) -> String {
    let (class, method) = heaplab_engine::symbolic::explorer::split_target(target);
    let class = class.map(|c| java_name(c).0).unwrap_or_default();
    let method = java_name(method).0;
    let mut cap = String::new();
    let mut chars = method.chars();
    if let Some(first) = chars.next() {
        cap.extend(first.to_uppercase());
        cap.push_str(chars.as_str());
    }
    let name = format!("{class}{cap}Test");
    if name.len() > MAX_NAME {
        shorten(&name)
    } else {
        name
    }
}

/// The class of the error-revealing tests next to a regression class: `BSTInsertTest` →
/// `BSTInsertErrorTest`.
pub fn error_class_name(test_class: &str) -> String {
    format!("{}ErrorTest", test_class.strip_suffix("Test").unwrap_or(test_class))
}

/// A Java package name for a file stem (`bst` → `bst`, `my-list` → `my_list`).
pub fn package_name(stem: &str) -> String {
    let mut s: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' })
        .collect();
    // The JVM refuses to load classes of a package named `java` ("Prohibited package name").
    if s.is_empty()
        || s.starts_with(|c: char| c.is_ascii_digit())
        || JAVA_KEYWORDS.contains(&s.as_str())
        || s == "java"
    {
        s.insert_str(0, "hl_");
    }
    if s.len() > MAX_NAME {
        s = shorten(&s).replace('$', "_");
    }
    s
}

struct Translator<'a> {
    input: &'a JunitInput<'a>,
    errors: Vec<String>,
    warnings: BTreeSet<String>,
    /// `NodeId` of each `old(e)` in the ensures being translated → its local.
    olds: HashMap<NodeId, String>,
    exprs: HashMap<NodeId, Span>,
    /// One entry per `while` being emitted: whether a reachable `break` leaves it.
    loops: Vec<bool>,
    /// The class of each `throw new X` statement, by the statement's node; these classes
    /// extend `RuntimeException` in Java.
    throws: HashMap<NodeId, String>,
    /// The classes named by `catch` clauses; they extend `RuntimeException` too.
    caught: BTreeSet<String>,
    /// The program's `Object` is HeapLab's built-in one (no fields, no methods): Java's own
    /// `java.lang.Object`, with no class file of its own.
    builtin_object: bool,
}

impl<'a> Translator<'a> {
    fn new(input: &'a JunitInput<'a>) -> Translator<'a> {
        let mut exprs = HashMap::new();
        for item in &input.program.items {
            let funcs: Vec<&FunctionDecl> = match item {
                Item::Class(c) => c.methods.iter().collect(),
                Item::Function(f) => vec![f],
                _ => continue,
            };
            // Decisions inside pure functions are specification checks, not the path.
            for f in funcs.into_iter().filter(|f| !f.is_pure) {
                index_block(&f.body, &mut exprs);
            }
        }
        let mut throws = HashMap::new();
        let mut caught = BTreeSet::new();
        for item in &input.program.items {
            let bodies: Vec<&Block> = match item {
                Item::Class(c) => c.methods.iter().map(|m| &m.body).collect(),
                Item::Function(f) => vec![&f.body],
                Item::Test(t) => vec![&t.body],
                _ => continue,
            };
            for body in bodies {
                collect_throws(body, &mut throws);
                collect_caught(body, &mut caught);
            }
        }
        Translator {
            input,
            errors: Vec::new(),
            warnings: BTreeSet::new(),
            olds: HashMap::new(),
            exprs,
            loops: Vec::new(),
            throws,
            caught,
            builtin_object: input.program.items.iter().any(|i| {
                matches!(i, Item::Class(c) if c.name.name == "Object" && c.fields.is_empty() && c.methods.is_empty())
            }),
        }
    }

    /// Whether the program's ints wrap (`java32` / `java64`) instead of being checked.
    fn wraps(&self) -> bool {
        self.input.program.ints != Ints::Checked
    }

    /// A wrapping result as Java computes it: a `long` under `java64`, narrowed to `int` (and
    /// widened back) under `java32`.
    fn narrow(&self, v: String) -> String {
        match self.input.program.ints {
            Ints::Java32 => format!("((long) (int) ({v}))"),
            _ => format!("({v})"),
        }
    }

    fn error(&mut self, msg: String) {
        if !self.errors.contains(&msg) {
            self.errors.push(msg);
        }
    }

    fn path(&self, file: &str) -> String {
        match &self.input.package {
            Some(p) => format!("{p}/{file}"),
            None => file.to_string(),
        }
    }

    fn header(&self) -> String {
        let mut out = String::from(super::JAVA_HEADER);
        if let Some(p) = &self.input.package {
            let _ = writeln!(out, "package {p};");
        }
        out.push('\n');
        out
    }

    /// The source of `span` on one line, safe inside a Java comment or string.
    fn text(&self, span: Span) -> String {
        let s = self.input.source.get(span.start as usize..span.end as usize).unwrap_or("");
        java_text(&s.split_whitespace().collect::<Vec<_>>().join(" "), 200)
    }

    fn line(&self, span: Span) -> usize {
        let end = (span.start as usize).min(self.input.source.len());
        self.input.source.as_bytes()[..end].iter().filter(|b| **b == b'\n').count() + 1
    }

    /// A HeapLab name as a Java identifier (see [`java_name`]), with a warning when it changes.
    fn name(&mut self, n: &str) -> String {
        if n == "Object" && self.builtin_object {
            return n.to_string();
        }
        let (name, warning) = java_name(n);
        if let Some(w) = warning {
            self.warnings.insert(w);
        }
        name
    }

    /// The Java element type of a HeapLab array class's element (`int` → `long`).
    fn elem_java(&mut self, elem: &str) -> String {
        match elem {
            "int" => "long".into(),
            "bool" => "boolean".into(),
            c => self.name(c),
        }
    }

    /// A type as [`Generation::return_type`] writes it (`Node`, `int[]`), in Java.
    fn written_type(&mut self, t: &str) -> String {
        match t.strip_suffix("[]") {
            Some(elem) => format!("{}[]", self.written_type(elem)),
            None => match t {
                "int" => "long".into(),
                "bool" => "boolean".into(),
                _ => self.name(t),
            },
        }
    }

    fn ty(&mut self, t: &TypeExpr) -> String {
        match t {
            TypeExpr::Int(_) => "long".into(),
            TypeExpr::Bool(_) => "boolean".into(),
            TypeExpr::Void(_) => "void".into(),
            TypeExpr::Class(c) => self.name(&c.name),
            TypeExpr::Array { elem, .. } => format!("{}[]", self.ty(elem)),
        }
    }

    fn class(&mut self, c: &ClassDecl) -> String {
        let mut out = self.header();
        let cname = self.name(&c.name.name);
        if self.throws.values().any(|t| *t == c.name.name) || self.caught.contains(&c.name.name) {
            // Thrown with `throw new X`: unchecked, as Java's NoSuchElementException.
            let _ = writeln!(out, "class {cname} extends RuntimeException {{");
        } else {
            let _ = writeln!(out, "class {cname} {{");
        }
        let mut params = Vec::new();
        let mut assigns = Vec::new();
        for f in &c.fields {
            let ty = self.ty(&f.ty);
            let name = self.name(&f.name.name);
            let _ = writeln!(out, "    {ty} {name};");
            params.push(format!("{ty} {name}"));
            assigns.push(format!("        this.{name} = {name};\n"));
        }
        if !c.fields.is_empty() {
            let _ = writeln!(out, "\n    {cname}() {{\n    }}\n");
            if self.uses_setters(&c.name.name) {
                for f in &c.fields {
                    let ty = self.ty(&f.ty);
                    let name = self.name(&f.name.name);
                    let _ = writeln!(
                        out,
                        "    {cname} set${name}({ty} value) {{\n        this.{name} = value;\n        return this;\n    }}\n"
                    );
                }
            } else {
                let _ = writeln!(
                    out,
                    "    {cname}({}) {{\n{}    }}",
                    params.join(", "),
                    assigns.concat()
                );
            }
        }
        for m in &c.methods {
            out.push('\n');
            out.push_str(&self.function(Some(&c.name.name), m));
        }
        out.push_str("}\n");
        out
    }

    /// Whether `new C { .. }` goes through chained setters: a Java method takes at most 255
    /// parameter slots (`long` takes two, and `this` one), too few for a constructor of every
    /// field of a large class.
    fn uses_setters(&self, class: &str) -> bool {
        let fields = self.input.info.class_fields.get(class).map_or(&[][..], |f| &f[..]);
        let slots: usize = fields
            .iter()
            .map(|(_, ty)| if matches!(ty, heaplab_syntax::types::Type::Int) { 2 } else { 1 })
            .sum();
        slots + 1 > 255
    }

    fn functions_class(&mut self, functions: &[&FunctionDecl]) -> String {
        let mut out = self.header();
        let _ = writeln!(out, "/** The program's top-level functions, and HeapLab's `/`. */");
        let _ = writeln!(out, "final class {FUNCTIONS} {{");
        let _ = writeln!(out, "    private {FUNCTIONS}() {{\n    }}\n");
        out.push_str(
            "    /** HeapLab's `/`: Java's (truncating, `/ by zero`), and Long.MIN_VALUE / -1 overflows. */\n    static long divide(long a, long b) {\n        if (a == Long.MIN_VALUE && b == -1L) {\n            throw new ArithmeticException(\"long overflow\");\n        }\n        return a / b;\n    }\n",
        );
        for f in functions {
            out.push('\n');
            out.push_str(&self.function(None, f));
        }
        out.push_str("}\n");
        out
    }

    fn ensures_violation(&self) -> String {
        let mut out = self.header();
        out.push_str(
            "/** An `ensures` clause was false on return (HeapLab's `ensures_failed`). */\nclass EnsuresViolation extends RuntimeException {\n    private static final long serialVersionUID = 1L;\n\n    EnsuresViolation(String message) {\n        super(message);\n    }\n}\n",
        );
        out
    }

    fn function(&mut self, class: Option<&str>, f: &FunctionDecl) -> String {
        let mut out = String::new();
        let is_static = if class.is_none() { "static " } else { "" };
        let ret = self.ty(&f.return_type);
        let name = self.name(&f.name.name);
        let params: Vec<String> = f
            .params
            .iter()
            .map(|p| format!("{} {}", self.ty(&p.ty), self.name(&p.name.name)))
            .collect();
        let args: Vec<String> = f.params.iter().map(|p| self.name(&p.name.name)).collect();
        for r in &f.requires {
            let _ = writeln!(out, "    // requires {}", self.text(r.span));
        }
        if f.ensures.is_empty() {
            let _ = writeln!(out, "    {is_static}{ret} {name}({}) {{", params.join(", "));
            self.method_body(&f.body, ret != "void", &mut out);
            out.push_str("    }\n");
            return out;
        }
        // ensures sees the parameters as the body left them; the wrapper sees the entry values.
        let assigned = assigned_vars(&f.body);
        for p in &f.params {
            if assigned.contains(p.name.name.as_str())
                && f.ensures.iter().any(|e| mentions_var(e, &p.name.name))
            {
                self.error(format!(
                    "`{}`: an `ensures` reads parameter `{}`, which the body assigns",
                    f.name.name, p.name.name
                ));
            }
        }
        let _ = writeln!(out, "    {is_static}{ret} {name}({}) {{", params.join(", "));
        let mut olds = Vec::new();
        for e in &f.ensures {
            collect_olds(e, &mut olds);
        }
        self.olds.clear();
        for (i, (id, inner)) in olds.iter().enumerate() {
            let local = format!("old${}", i + 1);
            let ty = match self.input.info.type_of(inner.id) {
                Some(heaplab_syntax::types::Type::Int) => "long".to_string(),
                Some(heaplab_syntax::types::Type::Bool) => "boolean".to_string(),
                Some(heaplab_syntax::types::Type::Class(c)) => self.name(c),
                _ => "Object".to_string(),
            };
            let value = self.expr(inner);
            let _ = writeln!(out, "        {ty} {local} = {value};");
            self.olds.insert(*id, local);
        }
        let call = format!("{name}$body({})", args.join(", "));
        if ret == "void" {
            let _ = writeln!(out, "        {call};");
        } else {
            let _ = writeln!(out, "        {ret} result = {call};");
        }
        let owner = class.map_or(String::new(), |c| format!("{c}."));
        for e in &f.ensures {
            let cond = self.expr(e);
            // The line makes an error-revealing test's failure name the clause it breaks.
            let msg = java_string(&format!(
                "{owner}{}: ensures {} (line {})",
                java_text(&f.name.name, 120),
                self.text(e.span),
                self.line(e.span)
            ));
            let _ = writeln!(
                out,
                "        if (!({cond})) {{\n            throw new EnsuresViolation({msg});\n        }}"
            );
        }
        self.olds.clear();
        if ret != "void" {
            out.push_str("        return result;\n");
        }
        out.push_str("    }\n\n");
        let _ = writeln!(out, "    private {is_static}{ret} {name}$body({}) {{", params.join(", "));
        self.method_body(&f.body, ret != "void", &mut out);
        out.push_str("    }\n");
        out
    }

    /// A method's statements. HeapLab's checker makes a non-void body return on every path,
    /// and the reachability rules here agree with it; should they ever not, the throw keeps
    /// javac's "missing return" away without changing what runs.
    fn method_body(&mut self, b: &Block, returns: bool, out: &mut String) {
        self.loops.clear();
        if self.block_body(b, 2, out) && returns {
            out.push_str("        throw new AssertionError(\"unreachable: no return\");\n");
        }
    }

    /// Emits the statements Java can reach; returns whether the block can complete normally
    /// (Java's rules, JLS 14.22).
    fn block_body(&mut self, b: &Block, depth: usize, out: &mut String) -> bool {
        for s in &b.stmts {
            if !self.stmt(s, depth, out) {
                return false;
            }
        }
        true
    }

    /// Emits one statement; returns whether it can complete normally.
    fn stmt(&mut self, s: &Stmt, depth: usize, out: &mut String) -> bool {
        let pad = "    ".repeat(depth);
        match &s.kind {
            StmtKind::Local { ty, name, init } => {
                let jt = self.ty(ty);
                let value = match init {
                    Some(e) => self.expr(e),
                    None => match ty {
                        TypeExpr::Int(_) => "0L".into(),
                        TypeExpr::Bool(_) => "false".into(),
                        _ => "null".into(),
                    },
                };
                let n = self.name(&name.name);
                let _ = writeln!(out, "{pad}{jt} {n} = {value};");
            }
            StmtKind::Assign { target, value } => {
                let v = self.expr(value);
                let n = self.name(&target.name);
                let _ = writeln!(out, "{pad}{n} = {v};");
            }
            StmtKind::FieldStore { object, field, value } => {
                let o = self.postfix_operand(object);
                let v = self.expr(value);
                let f = self.name(&field.name);
                let _ = writeln!(out, "{pad}{o}.{f} = {v};");
            }
            StmtKind::IndexStore { array, index, value } => {
                let a = self.postfix_operand(array);
                let i = self.index(index);
                let v = self.expr(value);
                let _ = writeln!(out, "{pad}{a}[{i}] = {v};");
            }
            StmtKind::Expr(e) => match &e.kind {
                ExprKind::Call { .. } | ExprKind::MethodCall { .. } | ExprKind::New { .. } => {
                    let v = self.expr(e);
                    let _ = writeln!(out, "{pad}{v};");
                }
                _ => self.error(format!(
                    "line {}: the expression statement `{}` is not a Java statement",
                    self.line(s.span),
                    self.text(s.span)
                )),
            },
            StmtKind::If { cond, then_branch, else_branch } => {
                let c = self.expr(cond);
                let _ = writeln!(out, "{pad}if ({c}) {{");
                let then_completes = self.block_body(then_branch, depth + 1, out);
                match else_branch {
                    Some(b)
                        if b.stmts.len() == 1 && matches!(b.stmts[0].kind, StmtKind::If { .. }) =>
                    {
                        let mut nested = String::new();
                        let else_completes = self.stmt(&b.stmts[0], depth, &mut nested);
                        let _ = write!(out, "{pad}}} else {}", nested.trim_start());
                        return then_completes || else_completes;
                    }
                    Some(b) => {
                        let _ = writeln!(out, "{pad}}} else {{");
                        let else_completes = self.block_body(b, depth + 1, out);
                        let _ = writeln!(out, "{pad}}}");
                        return then_completes || else_completes;
                    }
                    None => {
                        let _ = writeln!(out, "{pad}}}");
                    }
                }
            }
            StmtKind::While { cond, body } => {
                let constant = java_constant(cond);
                if constant == Some(JavaConst::Bool(false)) {
                    // Java rejects the body as unreachable; the loop does nothing.
                    return true;
                }
                let c = self.expr(cond);
                let _ = writeln!(out, "{pad}while ({c}) {{");
                self.loops.push(false);
                self.block_body(body, depth + 1, out);
                let breaks = self.loops.pop().unwrap_or(false);
                let _ = writeln!(out, "{pad}}}");
                return breaks || constant != Some(JavaConst::Bool(true));
            }
            StmtKind::Return(None) => {
                let _ = writeln!(out, "{pad}return;");
                return false;
            }
            StmtKind::Throw(e) => {
                let v = self.expr(e);
                let _ = writeln!(out, "{pad}throw {v};");
                return false;
            }
            StmtKind::Try { body, catches } => {
                let _ = writeln!(out, "{pad}try {{");
                let mut completes = self.block_body(body, depth + 1, out);
                for c in catches {
                    let class = self.name(&c.class.name);
                    let var = self.name(&c.name.name);
                    let _ = writeln!(out, "{pad}}} catch ({class} {var}) {{");
                    completes |= self.block_body(&c.body, depth + 1, out);
                }
                let _ = writeln!(out, "{pad}}}");
                return completes;
            }
            StmtKind::Return(Some(e)) => {
                let v = self.expr(e);
                let _ = writeln!(out, "{pad}return {v};");
                return false;
            }
            StmtKind::Break => {
                let _ = writeln!(out, "{pad}break;");
                if let Some(top) = self.loops.last_mut() {
                    *top = true;
                }
                return false;
            }
            StmtKind::Continue => {
                let _ = writeln!(out, "{pad}continue;");
                return false;
            }
            StmtKind::Assert(e) => {
                let c = self.expr(e);
                let msg = java_string(&format!(
                    "assert {} (line {})",
                    self.text(e.span),
                    self.line(s.span)
                ));
                let _ = writeln!(
                    out,
                    "{pad}if (!({c})) {{\n{pad}    throw new AssertionError({msg});\n{pad}}}"
                );
            }
            // A test whose run reaches a false `assume` fails in HeapLab (its setup does not
            // reach the code under test); in Java it fails the same way.
            StmtKind::Assume(e) => {
                let c = self.expr(e);
                let msg = java_string(&format!(
                    "assumption violated: assume {} (line {})",
                    self.text(e.span),
                    self.line(s.span)
                ));
                let _ = writeln!(
                    out,
                    "{pad}if (!({c})) {{\n{pad}    throw new AssertionError({msg});\n{pad}}}"
                );
            }
            StmtKind::Block(b) => {
                let _ = writeln!(out, "{pad}{{");
                let completes = self.block_body(b, depth + 1, out);
                let _ = writeln!(out, "{pad}}}");
                return completes;
            }
        }
        true
    }

    /// An operand that needs parentheses when it is itself an operator expression.
    fn operand(&mut self, e: &Expr) -> String {
        let s = self.expr(e);
        match &e.kind {
            ExprKind::Binary { op, .. }
                if !matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) =>
            {
                format!("({s})")
            }
            ExprKind::Cond { .. } => format!("({s})"),
            ExprKind::Unary { op: UnOp::Not, .. } => format!("({s})"),
            _ => s,
        }
    }

    fn postfix_operand(&mut self, e: &Expr) -> String {
        let s = self.expr(e);
        match &e.kind {
            ExprKind::Binary { .. } | ExprKind::Cond { .. } | ExprKind::Unary { .. } => {
                format!("({s})")
            }
            _ => s,
        }
    }

    /// Whether `e` has an array type (so `e.length` is Java's `length`, not a renamed field).
    fn is_array(&self, e: &Expr) -> bool {
        matches!(self.input.info.type_of(e.id), Some(heaplab_syntax::types::Type::Array(_)))
    }

    /// A HeapLab `int` used as a Java array index or length. A literal in `int` range is
    /// written as is; otherwise the `long` is clamped into `int` so an out-of-range value stays
    /// out of bounds (-1 below, `Integer.MAX_VALUE` above) instead of wrapping into range.
    fn index(&mut self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(n) if i32::try_from(*n).is_ok() => n.to_string(),
            _ => {
                format!("(int) Math.max(-1L, Math.min({}, (long) Integer.MAX_VALUE))", self.expr(e))
            }
        }
    }

    fn expr(&mut self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(n) => long_literal(*n),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Null => "null".into(),
            ExprKind::This => "this".into(),
            ExprKind::Result => "result".into(),
            ExprKind::Var(v) => self.name(&v.name),
            ExprKind::Field { object, field } if self.is_array(object) => {
                format!("{}.{}", self.postfix_operand(object), field.name)
            }
            ExprKind::Field { object, field } => {
                format!("{}.{}", self.postfix_operand(object), self.name(&field.name))
            }
            ExprKind::Index { array, index } => {
                format!("{}[{}]", self.postfix_operand(array), self.index(index))
            }
            ExprKind::NewArray { elem, len } => {
                let jt = self.ty(elem);
                format!("new {jt}[{}]", self.index(len))
            }
            ExprKind::ArrayLit { elem, elems } => {
                let jt = self.ty(elem);
                let vs: Vec<String> = elems.iter().map(|v| self.expr(v)).collect();
                format!("new {jt}[]{{{}}}", vs.join(", "))
            }
            ExprKind::Unary { op: UnOp::Neg, operand } if self.wraps() => {
                let v = format!("-({})", self.expr(operand));
                self.narrow(v)
            }
            ExprKind::Unary { op: UnOp::Neg, operand } => match &operand.kind {
                // `- -9223372036854775808` overflows in HeapLab: keep the exact negation.
                ExprKind::Int(n) => match n.checked_neg() {
                    Some(m) => long_literal(m),
                    None => format!("Math.negateExact({})", long_literal(*n)),
                },
                _ => format!("Math.negateExact({})", self.expr(operand)),
            },
            ExprKind::Unary { op: UnOp::Not, operand } => {
                format!("!{}", self.postfix_operand(operand))
            }
            ExprKind::Binary { op, lhs, rhs }
                if self.wraps()
                    && matches!(
                        op,
                        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Shl | BinOp::Shr
                    ) =>
            {
                // Java's own wrapping arithmetic; under `java32` each result is narrowed to
                // `int` (the operands are in its range), and a shift shifts an `int`.
                let (l, r) = (self.expr(lhs), self.expr(rhs));
                match op {
                    BinOp::Shl | BinOp::Shr if self.input.program.ints == Ints::Java32 => {
                        format!("((long) ((int) ({l}) {} {r}))", op.symbol())
                    }
                    _ => self.narrow(format!("({l}) {} ({r})", op.symbol())),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let exact = match op {
                    BinOp::Add => Some("Math.addExact"),
                    BinOp::Sub => Some("Math.subtractExact"),
                    BinOp::Mul => Some("Math.multiplyExact"),
                    BinOp::Div => Some("Functions.divide"),
                    _ => None,
                };
                if *op == BinOp::Shl {
                    // Checked like `*`: `x << c` overflows when `x * 2^c` does.
                    return format!(
                        "Math.multiplyExact({}, 1L << {})",
                        self.expr(lhs),
                        self.expr(rhs)
                    );
                }
                match exact {
                    Some(f) => format!("{f}({}, {})", self.expr(lhs), self.expr(rhs)),
                    None => format!("{} {} {}", self.operand(lhs), op.symbol(), self.operand(rhs)),
                }
            }
            ExprKind::Cond { cond, then_expr, else_expr } => format!(
                "{} ? {} : {}",
                self.operand(cond),
                self.operand(then_expr),
                self.operand(else_expr)
            ),
            ExprKind::Call { callee, args } => {
                let args: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                let name = self.name(&callee.name);
                match self.input.info.calls.get(&e.id) {
                    Some(CallTarget::Method { .. }) => format!("this.{name}({})", args.join(", ")),
                    _ => format!("{FUNCTIONS}.{name}({})", args.join(", ")),
                }
            }
            ExprKind::MethodCall { receiver, method, args } => {
                let r = self.postfix_operand(receiver);
                let args: Vec<String> = args.iter().map(|a| self.expr(a)).collect();
                format!("{r}.{}({})", self.name(&method.name), args.join(", "))
            }
            ExprKind::New { class, fields } => self.new_expr(e, &class.name, fields),
            ExprKind::Old(_) => match self.olds.get(&e.id) {
                Some(local) => local.clone(),
                None => {
                    self.error(format!("line {}: `old` outside `ensures`", self.line(e.span)));
                    "null".into()
                }
            },
            ExprKind::Wildcard => {
                self.error(format!("line {}: `_` outside a formula", self.line(e.span)));
                "null".into()
            }
        }
    }

    /// `new C { f: e, ... }` → `new C(...)` with every field in declaration order. HeapLab
    /// evaluates the initializers as written, so a reordering is refused when it could change
    /// which error comes first.
    fn new_expr(
        &mut self,
        e: &Expr,
        class: &str,
        inits: &[heaplab_syntax::ast::FieldInit],
    ) -> String {
        let cname = self.name(class);
        if inits.is_empty() {
            return format!("new {cname}()");
        }
        if self.uses_setters(class) {
            // Setters run in the order written, like HeapLab's initializers.
            let mut text = format!("new {cname}()");
            for i in inits {
                let f = self.name(&i.field.name);
                let v = self.expr(&i.value);
                let _ = write!(text, ".set${f}({v})");
            }
            return text;
        }
        let fields = self.input.info.class_fields.get(class).cloned().unwrap_or_default();
        let order: Vec<usize> = inits
            .iter()
            .filter_map(|i| fields.iter().position(|(f, _)| *f == i.field.name))
            .collect();
        let in_order = order.windows(2).all(|w| w[0] < w[1]);
        let effects = inits.iter().filter(|i| !is_simple(&i.value)).count();
        if !in_order && effects > 1 {
            self.error(format!(
                "line {}: `new {class} {{ .. }}` initializes fields out of declaration order with several calls or operations",
                self.line(e.span)
            ));
        }
        let args: Vec<String> = fields
            .iter()
            .map(|(f, ty)| match inits.iter().find(|i| i.field.name == *f) {
                Some(i) => self.expr(&i.value),
                None => match ty {
                    heaplab_syntax::types::Type::Int => "0L".into(),
                    heaplab_syntax::types::Type::Bool => "false".into(),
                    _ => "null".into(),
                },
            })
            .collect();
        format!("new {cname}({})", args.join(", "))
    }

    fn decisions(&self, t: &GeneratedTest) -> String {
        let Some(p) = PathResult::find(self.input.paths, t.path) else { return String::new() };
        let parts: Vec<String> = p
            .state
            .branches
            .iter()
            .filter_map(|(id, dir)| self.exprs.get(id).map(|span| (span, dir)))
            .map(|(span, dir)| {
                let text = java_text(&self.text(*span), 48);
                format!("line {} `{text}` {dir}", self.line(*span))
            })
            .collect();
        if parts.is_empty() {
            "no branch decisions".into()
        } else {
            parts.join(";\n    //   ")
        }
    }

    /// The regression class (`bugs` false) or the error-revealing class (`bugs` true).
    fn test_class(&mut self, test_class: &str, gen: &Generation, bugs: bool) -> String {
        let mut out = self.header();
        out.push_str("import static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Test;\n\n");
        let tests: Vec<&GeneratedTest> =
            gen.tests.iter().filter(|t| t.reveals_bug() == bugs).collect();
        let target = java_text(&gen.target, 200);
        if bugs {
            let _ = writeln!(
                out,
                "/**\n * {} error-revealing tests generated by `heaplab run` for {target}: on a valid input\n * the method breaks a contract. Each FAILS while the bug is there; its message names the\n * clause and line.\n */",
                tests.len()
            );
        } else {
            let _ = writeln!(
                out,
                "/** {} tests generated by `heaplab run` for {target}, each replayed by HeapLab's interpreter. */",
                tests.len()
            );
        }
        let _ = writeln!(out, "class {test_class} {{");
        let mut first = true;
        for t in tests {
            match self.test_method(gen, t) {
                Some(m) => {
                    if !first {
                        out.push('\n');
                    }
                    first = false;
                    out.push_str(&m);
                }
                None => {
                    let _ = writeln!(
                        out,
                        "    // {}: left out (expects {}, which Java cannot reproduce)",
                        java_text(&t.name, 200),
                        crate::concretize::describe_expected(&t.expected)
                    );
                }
            }
        }
        out.push_str("}\n");
        out
    }

    /// Locals for the input objects: the receiver after its class (`bst`), an object passed
    /// as an argument after the parameter (`n`), others after the class and a number (`node1`).
    /// `used` starts with the method's other locals and ends with every name taken.
    fn object_names(
        &mut self,
        gen: &Generation,
        t: &GeneratedTest,
        used: &mut BTreeSet<String>,
    ) -> BTreeMap<ObjId, String> {
        let mut names = BTreeMap::new();
        let params: Vec<String> = crate::find_function(self.input.program, &gen.target)
            .map(|(_, d)| d.params.iter().map(|p| p.name.name.clone()).collect())
            .unwrap_or_default();
        let params: Vec<String> = params.iter().map(|p| self.name(p)).collect();
        for (p, v) in params.iter().zip(&t.input.args) {
            if let Value::Ref(Some(id)) = v {
                if !names.contains_key(id) && !used.contains(p) {
                    used.insert(p.clone());
                    names.insert(*id, p.clone());
                }
            }
        }
        used.extend(params.iter().cloned());
        if let Some(r) = t.input.receiver {
            if let Some(o) = t.input.heap.get(r) {
                names.entry(r).or_insert_with(|| fresh(&local_base(&o.class), "Obj", used));
            }
        }
        for (id, o) in t.input.heap.objects() {
            if names.contains_key(&id) {
                continue;
            }
            let name = fresh(&local_base(&o.class), "", used);
            names.insert(id, name);
        }
        names
    }

    /// The exception class (and message) a test expects, `Some(None)` for a return, `None`
    /// (with a warning) when the test has no Java counterpart and is left out.
    #[allow(clippy::type_complexity)]
    fn expected_exception(
        &mut self,
        t: &GeneratedTest,
    ) -> Option<Option<(String, Option<&'static str>)>> {
        Some(match &t.expected {
            Expected::Returned(_) => None,
            Expected::Error(ErrorKind::Exception) => {
                // The replay's failing node is the `throw` (concolic has no explorer paths).
                let class = t.error_node.and_then(|n| self.throws.get(&n).cloned()).or_else(|| {
                    PathResult::find(self.input.paths, t.path).and_then(|p| match &p.outcome {
                        heaplab_engine::symbolic::PathOutcome::Error { node, .. } => {
                            self.throws.get(node).cloned()
                        }
                        _ => None,
                    })
                });
                match class {
                    Some(c) => Some((self.name(&c), None)),
                    None => {
                        self.warnings.insert(format!(
                            "{}: the exception's class is unknown; left out",
                            t.name
                        ));
                        return None;
                    }
                }
            }
            Expected::Error(ErrorKind::EnsuresFailed)
                if t.error_node == Some(heaplab_engine::ENSURES_FORMULA_NODE) =>
            {
                // The Java translation checks boolean `ensures` only: a predicate's shape is
                // checked by HeapLab's interpreter, not by the emitted Java.
                self.warnings.insert(format!(
                    "{}: breaks an ensures formula (a predicate), which the Java translation does not check; left out",
                    t.name
                ));
                return None;
            }
            Expected::Error(kind) => match exception_of(*kind) {
                Some((class, message)) => Some((class.to_string(), message)),
                None => {
                    self.warnings.insert(format!(
                        "{}: expects {}, which has no Java counterpart; left out",
                        t.name,
                        kind.keyword()
                    ));
                    return None;
                }
            },
        })
    }

    fn test_method(&mut self, gen: &Generation, t: &GeneratedTest) -> Option<String> {
        let exception = self.expected_exception(t)?;
        let mut out = String::new();
        let _ = writeln!(out, "    // path {}: {}", t.path, self.decisions(t));
        if t.k_cut {
            out.push_str("    // (the k bound cut a fresh-object choice on this path)\n");
        }
        let mut test_name = self.name(&t.name);
        let bug = t.reveals_bug();
        if bug {
            // The name and the comment say which clause breaks, and where.
            let (clause, line) = match &t.error_at {
                Some((span, _)) => (self.text(*span), self.line(*span)),
                None => (String::new(), 0),
            };
            let kind = match t.expected {
                Expected::Error(ErrorKind::RequiresFailed) => "Requires",
                _ => "Ensures",
            };
            let _ = writeln!(
                out,
                "    // Reveals a bug: on a valid input, the `{}` clause `{clause}` (line {line}) is false.",
                kind.to_lowercase()
            );
            test_name = format!("{test_name}_breaks{kind}Line{line}");
        }
        let _ = writeln!(out, "    @Test\n    void {test_name}() {{");
        let mut used: BTreeSet<String> = ["result".to_string()].into();
        let names = self.object_names(gen, t, &mut used);
        let thrown = fresh("thrown", "", &mut used);
        let value = |v: &Value| java_value(v, &names);
        for (id, o) in t.input.heap.objects() {
            let n = &names[&id];
            match o.elem_type() {
                Some(elem) => {
                    let jt = self.elem_java(elem);
                    let len = o.fields.len();
                    let _ = writeln!(out, "        {jt}[] {n} = new {jt}[{len}];");
                }
                None => {
                    let class = self.name(&o.class);
                    let _ = writeln!(out, "        {class} {n} = new {class}();");
                }
            }
        }
        for (id, o) in t.input.heap.objects() {
            for (f, v) in &o.fields {
                if matches!(v, Value::Int(0) | Value::Bool(false) | Value::Ref(None)) {
                    continue;
                }
                let place = match o.is_array() {
                    true => format!("{}[{f}]", names[&id]),
                    false => format!("{}.{}", names[&id], self.name(f)),
                };
                let _ = writeln!(out, "        {place} = {};", value(v));
            }
        }
        let (_, method) = heaplab_engine::symbolic::explorer::split_target(&gen.target);
        let method = self.name(method);
        let args: Vec<String> = t.input.args.iter().map(value).collect();
        let call = match t.input.receiver {
            Some(r) => format!("{}.{method}({})", names[&r], args.join(", ")),
            None => format!("{FUNCTIONS}.{method}({})", args.join(", ")),
        };
        let final_heap = self.final_asserts(&t.final_heap, &names, None);
        match (&t.expected, exception) {
            (Expected::Error(_), Some((class, _))) if bug => {
                // No assertThrows: the call's exception fails the test and its message names
                // the broken clause and line.
                let _ = writeln!(out, "        {call}; // throws {class}: the bug");
            }
            (Expected::Error(_), Some((class, message))) => match message {
                Some(m) => {
                    let _ = writeln!(
                        out,
                        "        {class} {thrown} = assertThrows({class}.class, () -> {call});\n        assertEquals({}, {thrown}.getMessage());",
                        java_string(m)
                    );
                }
                None => {
                    let _ = writeln!(out, "        assertThrows({class}.class, () -> {call});");
                }
            },
            (Expected::Returned(Value::Void), _) => {
                let _ = writeln!(out, "        {call};");
                out.push_str(&final_heap);
            }
            (Expected::Returned(v @ Value::Ref(Some(id))), _) if !names.contains_key(id) => {
                let ty = self.written_type(&gen.return_type);
                let _ = writeln!(out, "        {ty} result = {call};");
                out.push_str("        assertNotNull(result);\n");
                out.push_str(&self.final_asserts(&t.final_heap, &names, Some(v)));
            }
            (Expected::Returned(v), _) => {
                let line = match v {
                    Value::Bool(true) => format!("assertTrue({call})"),
                    Value::Bool(false) => format!("assertFalse({call})"),
                    Value::Ref(None) => format!("assertNull({call})"),
                    Value::Ref(Some(_)) => format!("assertSame({}, {call})", value(v)),
                    other => format!("assertEquals({}, {call})", value(other)),
                };
                let _ = writeln!(out, "        {line};");
                out.push_str(&final_heap);
            }
            (Expected::Error(_), None) => {}
        }
        out.push_str("    }\n");
        Some(out)
    }

    /// Assertions on every field of every object reachable from the inputs (and a new result)
    /// after the call; new objects are named by the path that reaches them (`bst.root.left`).
    fn final_asserts(
        &mut self,
        heap: &Heap,
        inputs: &BTreeMap<ObjId, String>,
        result: Option<&Value>,
    ) -> String {
        let mut out = String::new();
        let mut names = inputs.clone();
        let mut queue: VecDeque<ObjId> = inputs.keys().copied().collect();
        if let Some(Value::Ref(Some(id))) = result {
            names.insert(*id, "result".into());
            queue.push_back(*id);
        }
        while let Some(id) = queue.pop_front() {
            let Some(o) = heap.get(id) else { continue };
            let name = names[&id].clone();
            if o.is_array() {
                let _ = writeln!(out, "        assertEquals({}, {name}.length);", o.fields.len());
            }
            for (f, v) in &o.fields {
                // An array's cells are its fields `0`, `1`, …: Java's `a[i]`.
                let place = match o.is_array() {
                    true => format!("{name}[{f}]"),
                    false => format!("{name}.{}", self.name(f)),
                };
                let line = match v {
                    Value::Ref(Some(target)) => match names.get(target) {
                        Some(t) => format!("assertSame({t}, {place})"),
                        None => {
                            names.insert(*target, place.clone());
                            queue.push_back(*target);
                            format!("assertNotNull({place})")
                        }
                    },
                    Value::Ref(None) => format!("assertNull({place})"),
                    Value::Bool(true) => format!("assertTrue({place})"),
                    Value::Bool(false) => format!("assertFalse({place})"),
                    other => format!("assertEquals({}, {place})", java_value(other, &names)),
                };
                let _ = writeln!(out, "        {line};");
            }
        }
        out
    }
}

/// A local's name made from a class name (`BSTNode` → `bstnode`, `Node` → `node`), short and
/// never a reserved word.
fn local_base(class: &str) -> String {
    if let Some(elem) = class.strip_suffix("[]") {
        return format!("{}Arr", local_base(elem).trim_end_matches("Obj"));
    }
    let base = lower_first(&java_name(class).0.replace('$', ""));
    let base: String = base.chars().take(40).collect();
    if java_name(&base).1.is_some() || base.is_empty() {
        format!("{base}Obj")
    } else {
        base
    }
}

/// `base`, or `base` + `suffix`, or `base` + a number: the first that is not in `used` (then
/// it is).
fn fresh(base: &str, suffix: &str, used: &mut BTreeSet<String>) -> String {
    let mut candidates = vec![base.to_string()];
    if !suffix.is_empty() {
        candidates.push(format!("{base}{suffix}"));
    }
    let mut name = candidates.into_iter().find(|c| !used.contains(c));
    let mut i = 1;
    while name.is_none() {
        let c = format!("{base}{i}");
        if !used.contains(&c) {
            name = Some(c);
        }
        i += 1;
    }
    let name = name.unwrap_or_default();
    used.insert(name.clone());
    name
}

/// The Java exception class (and message, when the class alone is ambiguous) of an error.
fn exception_of(kind: ErrorKind) -> Option<(&'static str, Option<&'static str>)> {
    match kind {
        ErrorKind::NullDereference => Some(("NullPointerException", None)),
        ErrorKind::DivisionByZero => Some(("ArithmeticException", Some("/ by zero"))),
        ErrorKind::IntegerOverflow => Some(("ArithmeticException", Some("long overflow"))),
        ErrorKind::AssertFailed => Some(("AssertionError", None)),
        ErrorKind::IndexOutOfBounds => Some(("ArrayIndexOutOfBoundsException", None)),
        ErrorKind::NegativeArraySize => Some(("NegativeArraySizeException", None)),
        ErrorKind::EnsuresFailed => Some(("EnsuresViolation", None)),
        ErrorKind::RequiresFailed | ErrorKind::BoundExhausted | ErrorKind::Exception => None,
    }
}

fn java_value(v: &Value, names: &BTreeMap<ObjId, String>) -> String {
    match v {
        Value::Int(n) => long_literal(*n),
        Value::Bool(b) => b.to_string(),
        Value::Ref(None) => "null".into(),
        Value::Ref(Some(id)) => names.get(id).cloned().unwrap_or_else(|| "null".into()),
        Value::Void => "null".into(),
    }
}

fn long_literal(n: i64) -> String {
    if n == i64::MIN {
        "Long.MIN_VALUE".into()
    } else {
        format!("{n}L")
    }
}

fn java_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn lower_first(s: &str) -> String {
    if s.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) {
        return s.to_ascii_lowercase();
    }
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Literals, variables and `this`: nothing to evaluate that could fail or have an effect.
fn is_simple(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Null | ExprKind::This | ExprKind::Var(_)
    )
}

fn collect_olds<'e>(e: &'e Expr, acc: &mut Vec<(NodeId, &'e Expr)>) {
    if let ExprKind::Old(inner) = &e.kind {
        acc.push((e.id, inner));
        return;
    }
    for_each_child(e, &mut |c| collect_olds(c, acc));
}

fn mentions_var(e: &Expr, name: &str) -> bool {
    if let ExprKind::Var(v) = &e.kind {
        return v.name == name;
    }
    if matches!(e.kind, ExprKind::Old(_)) {
        return false;
    }
    let mut found = false;
    for_each_child(e, &mut |c| found |= mentions_var(c, name));
    found
}

fn for_each_child<'e>(e: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    match &e.kind {
        ExprKind::Field { object, .. } => f(object),
        ExprKind::Unary { operand, .. } => f(operand),
        ExprKind::Binary { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        ExprKind::Cond { cond, then_expr, else_expr } => {
            f(cond);
            f(then_expr);
            f(else_expr);
        }
        ExprKind::Call { args, .. } => args.iter().for_each(f),
        ExprKind::MethodCall { receiver, args, .. } => {
            f(receiver);
            args.iter().for_each(f);
        }
        ExprKind::New { fields, .. } => fields.iter().for_each(|i| f(&i.value)),
        ExprKind::Old(inner) => f(inner),
        _ => {}
    }
}

/// The class of every `catch (X e)` clause in `b` (Java needs them to be `Throwable` too).
fn collect_caught(b: &Block, acc: &mut BTreeSet<String>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::If { then_branch, else_branch, .. } => {
                collect_caught(then_branch, acc);
                if let Some(e) = else_branch {
                    collect_caught(e, acc);
                }
            }
            StmtKind::While { body, .. } | StmtKind::Block(body) => collect_caught(body, acc),
            StmtKind::Try { body, catches } => {
                collect_caught(body, acc);
                for c in catches {
                    acc.insert(c.class.name.clone());
                    collect_caught(&c.body, acc);
                }
            }
            _ => {}
        }
    }
}

/// The class of every `throw new X` in `b`, by the statement's node.
fn collect_throws(b: &Block, acc: &mut HashMap<NodeId, String>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Throw(Expr { kind: ExprKind::New { class, .. }, .. }) => {
                acc.insert(s.id, class.name.clone());
            }
            StmtKind::If { then_branch, else_branch, .. } => {
                collect_throws(then_branch, acc);
                if let Some(e) = else_branch {
                    collect_throws(e, acc);
                }
            }
            StmtKind::While { body, .. } | StmtKind::Block(body) => collect_throws(body, acc),
            StmtKind::Try { body, catches } => {
                collect_throws(body, acc);
                catches.iter().for_each(|c| collect_throws(&c.body, acc));
            }
            _ => {}
        }
    }
}

fn assigned_vars(b: &Block) -> BTreeSet<&str> {
    let mut acc = BTreeSet::new();
    fn walk<'b>(b: &'b Block, acc: &mut BTreeSet<&'b str>) {
        for s in &b.stmts {
            match &s.kind {
                StmtKind::Assign { target, .. } => {
                    acc.insert(target.name.as_str());
                }
                StmtKind::If { then_branch, else_branch, .. } => {
                    walk(then_branch, acc);
                    if let Some(e) = else_branch {
                        walk(e, acc);
                    }
                }
                StmtKind::While { body, .. } | StmtKind::Block(body) => walk(body, acc),
                StmtKind::Try { body, catches } => {
                    walk(body, acc);
                    catches.iter().for_each(|c| walk(&c.body, acc));
                }
                _ => {}
            }
        }
    }
    walk(b, &mut acc);
    acc
}

/// Every expression of a body by id (for the decisions comment).
fn index_block(b: &Block, acc: &mut HashMap<NodeId, Span>) {
    fn index_expr(e: &Expr, acc: &mut HashMap<NodeId, Span>) {
        acc.insert(e.id, e.span);
        for_each_child(e, &mut |c| index_expr(c, acc));
    }
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Local { init: Some(e), .. }
            | StmtKind::Assign { value: e, .. }
            | StmtKind::Expr(e)
            | StmtKind::Return(Some(e))
            | StmtKind::Throw(e)
            | StmtKind::Assert(e)
            | StmtKind::Assume(e) => index_expr(e, acc),
            StmtKind::FieldStore { object, value, .. } => {
                index_expr(object, acc);
                index_expr(value, acc);
            }
            StmtKind::If { cond, then_branch, else_branch } => {
                acc.insert(s.id, cond.span);
                index_expr(cond, acc);
                index_block(then_branch, acc);
                if let Some(e) = else_branch {
                    index_block(e, acc);
                }
            }
            StmtKind::While { cond, body } => {
                acc.insert(s.id, cond.span);
                index_expr(cond, acc);
                index_block(body, acc);
            }
            StmtKind::Block(body) => index_block(body, acc),
            StmtKind::Try { body, catches } => {
                index_block(body, acc);
                catches.iter().for_each(|c| index_block(&c.body, acc));
            }
            _ => {}
        }
    }
}

/// The value of a condition when Java treats its translation as a constant expression (JLS
/// 15.29): literals and operators on them, but not the `Math.*Exact` and `Functions.divide`
/// calls that `+ - * /` become, nor `null`. Java decides reachability with it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum JavaConst {
    Long(i64),
    Bool(bool),
}

fn java_constant(e: &Expr) -> Option<JavaConst> {
    use JavaConst::{Bool, Long};
    match &e.kind {
        ExprKind::Int(n) => Some(Long(*n)),
        ExprKind::Bool(b) => Some(Bool(*b)),
        ExprKind::Unary { op: UnOp::Neg, operand } => match &operand.kind {
            ExprKind::Int(n) => n.checked_neg().map(Long),
            _ => None,
        },
        ExprKind::Unary { op: UnOp::Not, operand } => match java_constant(operand)? {
            Bool(b) => Some(Bool(!b)),
            Long(_) => None,
        },
        ExprKind::Binary { op, lhs, rhs } => {
            let (l, r) = (java_constant(lhs)?, java_constant(rhs)?);
            match (op, l, r) {
                // javac does not fold a remainder by zero (it would throw).
                (BinOp::Mod, Long(a), Long(b)) if b != 0 => Some(Long(a.wrapping_rem(b))),
                (BinOp::Lt, Long(a), Long(b)) => Some(Bool(a < b)),
                (BinOp::Le, Long(a), Long(b)) => Some(Bool(a <= b)),
                (BinOp::Gt, Long(a), Long(b)) => Some(Bool(a > b)),
                (BinOp::Ge, Long(a), Long(b)) => Some(Bool(a >= b)),
                (BinOp::Eq, a, b) => Some(Bool(a == b)),
                (BinOp::Ne, a, b) => Some(Bool(a != b)),
                (BinOp::And, Bool(a), Bool(b)) => Some(Bool(a && b)),
                (BinOp::Or, Bool(a), Bool(b)) => Some(Bool(a || b)),
                _ => None,
            }
        }
        ExprKind::Cond { cond, then_expr, else_expr } => {
            let (c, t, f) =
                (java_constant(cond)?, java_constant(then_expr)?, java_constant(else_expr)?);
            match c {
                Bool(true) => Some(t),
                Bool(false) => Some(f),
                Long(_) => None,
            }
        }
        _ => None,
    }
}
