//! A program as the editor sees it: loading (HeapLab or Java), diagnostics (`check`), the
//! `test` blocks (`runTests`), satisfiability of separation-logic formulas (`satQuery`), the
//! methods one can explore, and how the parser understood the program (`syntaxDump`).
//!
//! Positions are UTF-16, as CodeMirror and every JS string count them: `from`/`to` are 0-based
//! offsets into the source, `line` is 1-based and `col` is a 1-based UTF-16 column. Results are
//! flat camelCase serde types; a failure of the caller (a program that does not check, a
//! malformed formula) is a [`Failure`].
//!
//! Formulas are decided by heaplab-logic's own procedure (difference logic exactly, everything
//! else bounded and reported as `unknown`), or with Z3's replies by restart and replay (see
//! [`SatOptions::answers`]).
//!
//! Every entry point that takes a source reads it through [`analyze`]: a file name ending in
//! `.java` goes through heaplab-java (spans into the Java text), anything else is HeapLab.

use heaplab_engine::{run_tests, Limits, Outcome};
use heaplab_logic::convert::parse_query;
use heaplab_logic::{
    enumerate, sat, Defs, EnumConfig, IntEquivalence, NoSolver, PureOracle, SatResult,
    SearchBounds, SmtOracle,
};
use heaplab_smt::{BoxFuture, SmtSolver, SolverError, Transport};
use heaplab_syntax::{Analysis, Diagnostic, Severity, SourceFile};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::HashMap;

use crate::{fail, Failure};

/// One diagnostic, positioned for an editor.
#[derive(Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct JsDiagnostic {
    pub line: u32,
    pub col: u32,
    pub end_line: u32,
    pub end_col: u32,
    pub from: u32,
    pub to: u32,
    /// `error`, `warning` or `note`.
    pub severity: &'static str,
    pub message: String,
    pub notes: Vec<String>,
}

/// The result of one `test` block.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsTestResult {
    pub name: String,
    /// 1-based line of the `test` keyword.
    pub line: u32,
    pub passed: bool,
    /// Why it failed, or how it ended when that is worth saying (an expected runtime error).
    pub message: String,
}

/// Options of `satQuery`; every field is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SatOptions {
    /// Enumerate every model instead of finding one.
    pub enumerate: bool,
    /// The program's file name (`Program.java` reads Java), as the other entry points take it.
    pub file: Option<String>,
    /// The most objects in a model. Default: heaplab-logic's bound for `sat`, 3 for enumeration.
    pub max_objects: Option<usize>,
    /// Maximum nesting of predicate unfoldings. Default: as `heaplab sat`.
    pub depth: Option<u32>,
    /// Z3's replies so far, by SMT-LIB script. When present, the pure parts the logic cannot
    /// decide by itself go to Z3: a query without a reply ends the call with `kind: "pending"`
    /// and its script; the caller runs it on Z3 and calls again with the reply added. Without
    /// it, undecided arithmetic makes the answer `unknown` (or the enumeration incomplete).
    pub answers: Option<HashMap<String, String>>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum SatOutput {
    /// Z3 must answer `script` before the search can go on.
    Pending { script: String },
    /// `result` is `sat`, `unsat` or `unknown` (with `reason`); `model` is the model as text.
    Sat {
        result: &'static str,
        reason: Option<String>,
        model: Option<String>,
        diagnostics: Vec<String>,
    },
    #[serde(rename_all = "camelCase")]
    Enumerate {
        count: usize,
        complete: bool,
        max_objects: usize,
        max_depth: u32,
        models: Vec<String>,
        diagnostics: Vec<String>,
    },
}

/// The one loading function every entry point that takes a source goes through: a file whose
/// name ends in `.java` is read by the Java front end (lowered to the checked program, spans
/// into the Java text), anything else as HeapLab. A `.hl` program with errors that looks like
/// Java says so on its first error, as `heaplab check` does.
pub fn analyze(file: &SourceFile) -> Analysis {
    if is_java_name(&file.name) {
        return heaplab_java::analyze(file).analysis;
    }
    let mut analysis = heaplab_syntax::analyze(file);
    if analysis.has_errors() && heaplab_java::looks_like_java(&file.text) {
        if let Some(first) = analysis.diagnostics.iter_mut().find(|d| d.is_error()) {
            first.notes.push(
                "this looks like Java: name the program `.java` (or switch the language to Java)"
                    .into(),
            );
        }
    }
    analysis
}

/// Whether a file name (or the page's `lang` option, `java`) names a Java source.
pub fn is_java_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("java")
        || name.rsplit_once('.').is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("java"))
}

/// Whether pasted text looks like Java rather than HeapLab (the page's language auto-detection).
pub fn looks_like_java(text: &str) -> bool {
    heaplab_java::looks_like_java(text)
}

/// The page's name for a source: the file name it gave, or `program.hl`.
pub fn file_name(file: Option<String>) -> String {
    match file {
        Some(f) if f.eq_ignore_ascii_case("java") => "Program.java".to_string(),
        Some(f) if !f.is_empty() => f,
        _ => "program.hl".to_string(),
    }
}

/// Parses and type-checks `source`; returns every diagnostic: syntax, types, and (once those
/// are clean) what the logic finds wrong with the predicates, as `heaplab check` reports them.
pub fn check(source: &str, file: Option<String>) -> Vec<JsDiagnostic> {
    let file = SourceFile::new(file_name(file), source);
    let mut analysis = analyze(&file);
    add_predicate_diagnostics(&mut analysis);
    diagnostics(&analysis.diagnostics, source)
}

/// Adds what the logic finds wrong with the predicates of a program that checks (as `heaplab
/// check` and the editor report it): definitions it cannot convert (errors) and suspicious but
/// legal ones (warnings: no base case, never satisfiable, unreachable disjunct), decided
/// without Z3; the diagnostics are then in source order.
pub fn add_predicate_diagnostics(analysis: &mut Analysis) {
    if analysis.has_errors() {
        return;
    }
    let (defs, errors) = Defs::from_program(&analysis.program);
    analysis.diagnostics.extend(errors.iter().map(heaplab_logic::Error::to_diagnostic));
    if errors.is_empty() {
        let checked = heaplab_logic::check_predicates(&analysis.program, &defs, &mut NoSolver);
        analysis.diagnostics.extend(checked);
    }
    analysis.diagnostics.sort_by_key(|d| (d.span.start, d.severity));
}

/// Runs every `test` block in the interpreter. Throws when the program has errors.
pub fn run_test_blocks(source: &str, file: Option<String>) -> Result<Vec<JsTestResult>, Failure> {
    let file = SourceFile::new(file_name(file), source);
    let analysis = checked_for_editor(&file)?;
    let results = run_tests(&analysis.program, &analysis.info, Limits::default());
    let out: Vec<JsTestResult> = results
        .into_iter()
        .map(|r| {
            let message = if !r.passed {
                r.describe(&file)
            } else {
                match &r.outcome {
                    Ok(o @ Outcome::Error(_)) => format!("as expected: {}", o.describe(&file)),
                    _ => String::new(),
                }
            };
            JsTestResult {
                name: r.name,
                line: file.line_col(r.span.start).line as u32,
                passed: r.passed,
                message,
            }
        })
        .collect();
    Ok(out)
}

/// Satisfiability (with a model) or enumeration of `formula` over the program's classes and
/// predicates, like `heaplab sat`. `options`: `{ enumerate?, maxObjects?, depth? }`.
pub fn sat_query(source: &str, formula: &str, options: &SatOptions) -> Result<SatOutput, Failure> {
    let file = SourceFile::new(file_name(options.file.clone()), source);
    let analysis = checked_for_editor(&file)?;
    let (defs, errors) = Defs::from_program(&analysis.program);
    let diagnostics: Vec<String> =
        errors.iter().map(|e| e.to_diagnostic().render(&file).trim_end().to_string()).collect();
    let formula_file = SourceFile::new("formula", formula);
    let parsed = parse_query(&defs, formula, &[]).map_err(|e| {
        // An unknown name applied like a predicate is said as such, not as the type of its
        // arguments that could then not be inferred.
        let d = unknown_predicate(&analysis.program, &defs, formula).unwrap_or(e.to_diagnostic());
        fail("BadFormula", d.render(&formula_file).trim_end())
    })?;
    let mut out =
        decide(&defs, &parsed, options, diagnostics).map_err(|e| fail("Logic", &e.to_string()))?;
    // A predicate without a base case explains an `unknown` (the bounds cut every search) and
    // an `unsat` that came without a reason (the base-pair procedure proved it).
    if let SatOutput::Sat { result, reason, .. } = &mut out {
        if *result == "unknown" || (*result == "unsat" && reason.is_none()) {
            if let Some(name) = without_finite_model(&defs, &parsed) {
                *result = "unsat";
                *reason = Some(format!(
                    "predicate `{name}` never reaches a base case, so it has no finite model: no bound would find one"
                ));
            }
        }
    }
    Ok(out)
}

/// The first name in `formula` applied like a predicate (`name(`) that is neither a predicate
/// nor a function of the program, as a diagnostic at its place in the formula.
fn unknown_predicate(
    program: &heaplab_syntax::ast::Program,
    defs: &Defs,
    formula: &str,
) -> Option<Diagnostic> {
    use heaplab_syntax::ast::Item;
    let mut functions: Vec<&str> = Vec::new();
    for item in &program.items {
        match item {
            Item::Function(f) => functions.push(&f.name.name),
            Item::Class(c) => functions.extend(c.methods.iter().map(|m| m.name.name.as_str())),
            _ => {}
        }
    }
    const WORDS: &[&str] = &["exists", "old", "emp", "null", "true", "false", "int", "bool"];
    let bytes = formula.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let name = &formula[start..i];
            // `t.next(` would be a field; `exists int lo. bst(` is a binder's dot.
            let preceded_by_dot = formula[..start].ends_with('.');
            let called = formula[i..].trim_start().starts_with('(');
            if called
                && !preceded_by_dot
                && !WORDS.contains(&name)
                && !defs.preds.contains_key(name)
                && !functions.contains(&name)
            {
                let known: Vec<&str> = defs.preds.keys().map(String::as_str).collect();
                let note = if known.is_empty() {
                    "the program declares no predicate (`pred name(...) := ...;`)".to_string()
                } else {
                    format!("the program's predicates: {}", known.join(", "))
                };
                return Some(
                    Diagnostic::error(
                        heaplab_syntax::Span::new(start, i),
                        format!("unknown predicate `{name}`"),
                    )
                    .with_note(note),
                );
            }
        } else {
            i += 1;
        }
    }
    None
}

/// A predicate that makes every disjunct of `formula` impossible in a finite heap: one without
/// a base case (every unfolding needs another instance), if each disjunct uses such a one.
fn without_finite_model(defs: &Defs, formula: &heaplab_logic::Formula) -> Option<String> {
    let productive = heaplab_logic::diagnostics::productive(defs);
    let mut first = None;
    for d in &formula.disjuncts {
        let stuck = d.preds.iter().find(|p| !productive.contains(&p.name))?;
        first.get_or_insert_with(|| stuck.name.clone());
    }
    first
}

/// Runs the search, with Z3's replies when `options.answers` is given (see [`ReplayTransport`]).
fn decide(
    defs: &Defs,
    formula: &heaplab_logic::Formula,
    options: &SatOptions,
    diagnostics: Vec<String>,
) -> heaplab_logic::Result<SatOutput> {
    match &options.answers {
        None => search(defs, formula, options, &mut NoSolver, diagnostics),
        Some(answers) => {
            let solver = SmtSolver::new(ReplayTransport { answers, missing: RefCell::new(None) });
            let res = {
                let mut oracle = SmtOracle::new(&solver);
                search(defs, formula, options, &mut oracle, diagnostics)
            };
            match solver.transport().missing.take() {
                Some(script) => Ok(SatOutput::Pending { script }),
                None => res,
            }
        }
    }
}

/// Runs `sat` or `enumerate` as `options` say, with the given oracle for pure facts.
fn search(
    defs: &Defs,
    formula: &heaplab_logic::Formula,
    options: &SatOptions,
    oracle: &mut dyn PureOracle,
    diagnostics: Vec<String>,
) -> heaplab_logic::Result<SatOutput> {
    Ok(if options.enumerate {
        let n = options.max_objects.unwrap_or(3);
        let bounds = SearchBounds {
            max_depth: options.depth.unwrap_or(n.max(1) as u32),
            max_objects: n,
            ..SearchBounds::default()
        };
        let cfg = EnumConfig { bounds, ints: IntEquivalence::UpToOrder, ..EnumConfig::default() };
        let res = enumerate(defs, formula, cfg, oracle)?;
        SatOutput::Enumerate {
            count: res.models.len(),
            complete: !res.incomplete,
            max_objects: n,
            max_depth: bounds.max_depth,
            models: res.models.iter().map(|m| m.to_string()).collect(),
            diagnostics,
        }
    } else {
        let defaults = SearchBounds::default();
        let bounds = SearchBounds {
            max_depth: options.depth.unwrap_or(defaults.max_depth),
            max_objects: options.max_objects.unwrap_or(defaults.max_objects),
            ..defaults
        };
        let res = sat(defs, formula, bounds, oracle)?;
        let (result, reason, model) = match res {
            SatResult::Sat(m) => ("sat", None, Some(m.to_string())),
            SatResult::Unsat => ("unsat", None, None),
            SatResult::Unknown(why) => ("unknown", Some(why), None),
        };
        SatOutput::Sat { result, reason, model, diagnostics }
    })
}

/// A transport that answers from Z3's earlier replies and records the first script it has no
/// reply for. Its futures are ready at once, so the logic's synchronous search can use it; the
/// search stops at the first missing reply (a transport error) and is run again once JS has
/// asked Z3.
struct ReplayTransport<'a> {
    answers: &'a HashMap<String, String>,
    missing: RefCell<Option<String>>,
}

impl Transport for ReplayTransport<'_> {
    fn run<'a>(&'a self, script: &'a str) -> BoxFuture<'a, heaplab_smt::Result<String>> {
        let reply = match self.answers.get(script) {
            Some(reply) => Ok(reply.clone()),
            None => {
                self.missing.borrow_mut().get_or_insert_with(|| script.to_string());
                Err(SolverError::Io("waiting for Z3".into()))
            }
        };
        Box::pin(std::future::ready(reply))
    }
}

/// How the parser understood `source`, for the debug panel: the program pretty-printed (fully
/// parenthesized where it matters) and the syntax tree as Rust's debug dump. Works on programs
/// with errors too (the tree is whatever was recovered).
pub fn syntax_dump(source: &str) -> SyntaxDump {
    let (program, _) = heaplab_syntax::parse(&SourceFile::new("program.hl", source));
    SyntaxDump { pretty: heaplab_syntax::pretty::program(&program), ast: format!("{program:#?}") }
}

/// How the parser understood a program (see [`syntax_dump`]).
#[derive(Serialize)]
pub struct SyntaxDump {
    pub pretty: String,
    pub ast: String,
}

/// The analysis of a program that checks, or an error naming how many problems it has.
pub fn checked_for_editor(file: &SourceFile) -> Result<Analysis, Failure> {
    let analysis = analyze(file);
    let errors = analysis.diagnostics.iter().filter(|d| d.is_error()).count();
    if errors > 0 {
        let plural = if errors == 1 { "" } else { "s" };
        return Err(fail(
            "ProgramHasErrors",
            &format!(
            "The program has {errors} error{plural}; fix {} first (they are underlined in the editor).",
                if errors == 1 { "it" } else { "them" }
            ),
        ));
    }
    Ok(analysis)
}

/// Converts diagnostics to editor positions.
pub fn diagnostics(diags: &[Diagnostic], source: &str) -> Vec<JsDiagnostic> {
    let index = Utf16Index::new(source);
    diags
        .iter()
        .map(|d| {
            let start = index.position(d.span.start as usize);
            let end = index.position((d.span.end as usize).max(d.span.start as usize));
            JsDiagnostic {
                line: start.line,
                col: start.col,
                end_line: end.line,
                end_col: end.col,
                from: start.offset,
                to: end.offset,
                severity: match d.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Note => "note",
                },
                message: d.message.clone(),
                notes: d.notes.clone(),
            }
        })
        .collect()
}

/// A UTF-16 position: 0-based offset, 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Position {
    offset: u32,
    line: u32,
    col: u32,
}

/// Maps byte offsets of one text to UTF-16 positions.
struct Utf16Index<'a> {
    text: &'a str,
    /// Byte offset where each line starts.
    line_starts: Vec<usize>,
}

impl<'a> Utf16Index<'a> {
    fn new(text: &'a str) -> Utf16Index<'a> {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Utf16Index { text, line_starts }
    }

    /// The position of a byte offset; offsets past the end or inside a character move back to
    /// the nearest character boundary.
    fn position(&self, byte: usize) -> Position {
        let mut byte = byte.min(self.text.len());
        while !self.text.is_char_boundary(byte) {
            byte -= 1;
        }
        let line = self.line_starts.partition_point(|&s| s <= byte).saturating_sub(1);
        let line_start = self.line_starts.get(line).copied().unwrap_or(0);
        let utf16 = |s: &str| s.encode_utf16().count() as u32;
        Position {
            offset: utf16(&self.text[..byte]),
            line: line as u32 + 1,
            col: utf16(&self.text[line_start..byte]) + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_positions_count_surrogate_pairs_twice() {
        // "é" is 2 bytes / 1 UTF-16 unit; "😀" is 4 bytes / 2 units.
        let text = "é😀x\nab";
        let index = Utf16Index::new(text);
        assert_eq!(index.position(0), Position { offset: 0, line: 1, col: 1 });
        assert_eq!(index.position(6), Position { offset: 3, line: 1, col: 4 });
        assert_eq!(index.position(8), Position { offset: 5, line: 2, col: 1 });
        // Inside a character: back to its start. Past the end: the end.
        assert_eq!(index.position(3), Position { offset: 1, line: 1, col: 2 });
        assert_eq!(index.position(99), Position { offset: 7, line: 2, col: 3 });
    }

    #[test]
    fn logic_questions_go_to_z3_by_replay() {
        let source = "class Node { int key; Node next; }\n";
        let analysis = analyze(&SourceFile::new("t.hl", source));
        let (defs, _) = Defs::from_program(&analysis.program);
        let formula = parse_query(&defs, "x + y == 10 & x - y == 4", &[]).expect("parses");
        let mut options = SatOptions { answers: Some(HashMap::new()), ..SatOptions::default() };
        // No replies yet: the search stops at its first question to Z3.
        let script = match decide(&defs, &formula, &options, Vec::new()) {
            Ok(SatOutput::Pending { script }) => script,
            other => panic!("expected a question for Z3, got {other:?}"),
        };
        assert!(script.contains("(check-sat)"), "{script}");
        // With Z3's reply the search finishes and believes it.
        options.answers.get_or_insert_with(HashMap::new).insert(script, "unsat\n".into());
        match decide(&defs, &formula, &options, Vec::new()) {
            Ok(SatOutput::Sat { result, .. }) => assert_eq!(result, "unsat"),
            other => panic!("expected an answer, got {other:?}"),
        }
        // Without Z3 the Rust procedure decides the same linear facts itself (x = 7, y = 3).
        options.answers = None;
        match decide(&defs, &formula, &options, Vec::new()) {
            Ok(SatOutput::Sat { result, .. }) => assert_eq!(result, "sat"),
            other => panic!("expected sat, got {other:?}"),
        }
    }

    #[test]
    fn type_error_is_reported_where_it_is() {
        let source = "// ü\nint f() { return true; }\n";
        let analysis = analyze(&SourceFile::new("t.hl", source));
        let diags = diagnostics(&analysis.diagnostics, source);
        assert!(!diags.is_empty(), "a bool returned from an int function is an error");
        let d = &diags[0];
        assert_eq!((d.severity, d.line), ("error", 2));
        let text: String = source.encode_utf16().collect::<Vec<_>>()
            [d.from as usize..d.to as usize]
            .iter()
            .map(|&u| char::from_u32(u as u32).unwrap_or('?'))
            .collect();
        assert!(text.contains("true"), "the span covers the returned expression: {text:?}");
    }

    #[test]
    fn an_unknown_predicate_is_named_at_its_place() {
        let source = "class Node { Node next; }\npred ls(Node x) := x == null | exists Node y. x -> Node { next: y } * ls(y);\n";
        let analysis = analyze(&SourceFile::new("t.hl", source));
        let (defs, _) = Defs::from_program(&analysis.program);
        let formula = "exists Node y. lss(x) * ls(y)";
        assert!(parse_query(&defs, formula, &[]).is_err());
        let d = unknown_predicate(&analysis.program, &defs, formula).expect("lss is unknown");
        assert_eq!(d.message, "unknown predicate `lss`");
        assert_eq!(&formula[d.span.start as usize..d.span.end as usize], "lss");
        let shown = d.render(&SourceFile::new("formula", formula));
        assert!(shown.contains("the program's predicates: ls"), "{shown}");
        assert!(shown.lines().count() >= 3, "the caret stays on its own line: {shown}");
        // Known predicates and binder dots are not mistaken for unknown ones.
        assert!(unknown_predicate(&analysis.program, &defs, "exists Node y. ls(y)").is_none());
    }

    #[test]
    fn a_predicate_without_base_case_is_proved_to_have_no_finite_model() {
        let source = "class Node { Node next; }\n\
            pred inf(Node x) := exists Node y. x -> Node { next: y } * inf(y);\n\
            pred ls(Node x) := x == null | exists Node y. x -> Node { next: y } * ls(y);\n";
        let analysis = analyze(&SourceFile::new("t.hl", source));
        let (defs, errors) = Defs::from_program(&analysis.program);
        assert!(errors.is_empty(), "{errors:?}");
        let inf = parse_query(&defs, "inf(x)", &[]).expect("parses");
        assert_eq!(without_finite_model(&defs, &inf).as_deref(), Some("inf"));
        let either = parse_query(&defs, "inf(x) | ls(x)", &[]).expect("parses");
        assert_eq!(without_finite_model(&defs, &either), None, "the ls disjunct has models");
        // The bounded search alone says only that the bound was reached.
        let options = SatOptions::default();
        match decide(&defs, &inf, &options, Vec::new()) {
            Ok(SatOutput::Sat { result, .. }) => assert_ne!(result, "sat"),
            other => panic!("expected an answer, got {other:?}"),
        }
    }
}

/// One method or function of the program, for the page's method picker.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExplorableJs {
    /// `Class.method` or the function's name, as `heaplab run --method` takes it.
    pub name: String,
    /// It has a `requires`: the strategies explore only inputs that satisfy it.
    pub requires: bool,
    /// The parameters' names (without `this`), e.g. to label a test's arguments.
    pub params: Vec<String>,
    /// 1-based line of the declaration.
    pub line: u32,
    /// In a Java program: how Java names it, `LinkedStack.push(Item)` (overloads differ here,
    /// while `name` is the lowered `Class.put_3`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// In a Java program: why the method cannot be explored (it is listed, not explorable).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_out: Option<String>,
}

/// The methods and functions of `source` (pure ones excluded: they are specification helpers),
/// in source order, for the page's method picker. Parses only: works on a program with errors.
/// A Java program lists its methods with their Java signatures, and also those the front end
/// left out (`leftOut`: the reason), which no exploration can start from.
pub fn methods(source: &str, file: Option<String>) -> Vec<ExplorableJs> {
    let file = SourceFile::new(file_name(file), source);
    if is_java_name(&file.name) {
        return java_methods(&file);
    }
    let analysis = analyze(&file);
    let line = |f: &heaplab_syntax::ast::FunctionDecl| file.line_col(f.span.start).line as u32;
    let mut out = Vec::new();
    for (class, f) in lowered_functions(&analysis.program) {
        if f.is_pure {
            continue;
        }
        out.push(ExplorableJs {
            name: match class {
                Some(c) => format!("{c}.{}", f.name.name),
                None => f.name.name.clone(),
            },
            requires: !f.requires.is_empty(),
            params: f.params.iter().map(|p| p.name.name.clone()).collect(),
            line: line(f),
            signature: None,
            left_out: None,
        });
    }
    out
}

/// Every method and function of a checked program with its class's name, in source order.
fn lowered_functions(
    program: &heaplab_syntax::ast::Program,
) -> Vec<(Option<&str>, &heaplab_syntax::ast::FunctionDecl)> {
    let mut out = Vec::new();
    for item in &program.items {
        match item {
            heaplab_syntax::ast::Item::Class(c) => {
                out.extend(c.methods.iter().map(|m| (Some(c.name.name.as_str()), m)))
            }
            heaplab_syntax::ast::Item::Function(f) => out.push((None, f)),
            _ => {}
        }
    }
    out
}

/// A Java program's methods, from the front end's map: the explorable ones (their lowered
/// function says `requires` and the parameters) and the left-out ones with their reason.
fn java_methods(file: &SourceFile) -> Vec<ExplorableJs> {
    let java = heaplab_java::analyze(file);
    let lowered = lowered_functions(&java.analysis.program);
    let mut out = Vec::new();
    for m in java.map.methods.iter().filter(|m| !m.is_ctor) {
        let signature = Some(format!("{}.{}", m.class, m.signature));
        let line = file.line_col(m.name_span.start).line as u32;
        if let Some(why) = &m.left_out {
            out.push(ExplorableJs {
                name: m.target.clone(),
                requires: m.has_spec,
                params: m.params.iter().map(|(p, _)| p.clone()).collect(),
                line,
                signature,
                left_out: Some(why.clone()),
            });
            continue;
        }
        let target = |(class, f): &&(Option<&str>, &heaplab_syntax::ast::FunctionDecl)| match class
        {
            Some(c) => m.target == format!("{c}.{}", f.name.name),
            None => m.target == f.name.name,
        };
        let Some((_, f)) = lowered.iter().find(target) else { continue };
        if f.is_pure {
            continue;
        }
        out.push(ExplorableJs {
            name: m.target.clone(),
            requires: !f.requires.is_empty(),
            params: m.params.iter().map(|(p, _)| p.clone()).collect(),
            line,
            signature,
            left_out: None,
        });
    }
    out
}
