//! The program API used by the editor: diagnostics (`check`), the `test` blocks (`runTests`),
//! satisfiability of separation-logic formulas (`satQuery`), the methods one can explore
//! (`methods`) and, for the debug panel, how the parser understood the program (`syntaxDump`).
//! Each is a call of `heaplab_session::program`; see there for positions and failures.

use heaplab_session::program::{self, SatOptions};
use wasm_bindgen::prelude::*;

use crate::explore::{to_js, to_js_failure};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** A problem in the program. Offsets and columns count UTF-16 code units (JS string indices). */
export interface Diagnostic {
  line: number; col: number; endLine: number; endCol: number;
  /** 0-based offsets into the source. */
  from: number; to: number;
  severity: 'error' | 'warning' | 'note';
  message: string;
  notes: string[];
}
/** One `test` block run in the interpreter. */
export interface TestResult { name: string; line: number; passed: boolean; message: string }
export interface SatOptions {
  enumerate?: boolean; maxObjects?: number; depth?: number;
  /** Z3's replies by script; present = ask Z3 (see `pending`). */
  answers?: Record<string, string>;
}
export type SatAnswer =
  | { kind: 'pending'; script: string }
  | { kind: 'sat'; result: 'sat' | 'unsat' | 'unknown'; reason: string | null; model: string | null; diagnostics: string[] }
  | { kind: 'enumerate'; count: number; complete: boolean; maxObjects: number; maxDepth: number; models: string[]; diagnostics: string[] };
"#;

/// Whether pasted text looks like Java rather than HeapLab (the page's language auto-detection).
#[wasm_bindgen(js_name = looksLikeJava)]
pub fn looks_like_java(text: &str) -> bool {
    heaplab_java::looks_like_java(text)
}

/// Parses and type-checks `source`; returns every diagnostic: syntax, types, and (once those
/// are clean) what the logic finds wrong with the predicates, as `heaplab check` reports them.
#[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
pub fn check(source: &str, file: Option<String>) -> Result<JsValue, JsValue> {
    to_js(&program::check(source, file))
}

/// Runs every `test` block in the interpreter. Throws when the program has errors.
#[wasm_bindgen(js_name = runTests, unchecked_return_type = "TestResult[]")]
pub fn run_tests_js(source: &str, file: Option<String>) -> Result<JsValue, JsValue> {
    to_js(&program::run_test_blocks(source, file).map_err(|e| to_js_failure(&e))?)
}

/// Satisfiability (with a model) or enumeration of `formula` over the program's classes and
/// predicates, like `heaplab sat`. `options`: `{ enumerate?, maxObjects?, depth? }`.
#[wasm_bindgen(js_name = satQuery, unchecked_return_type = "SatAnswer")]
pub fn sat_query(
    source: &str,
    formula: &str,
    #[wasm_bindgen(unchecked_param_type = "SatOptions | undefined")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options: SatOptions = if options.is_undefined() || options.is_null() {
        SatOptions::default()
    } else {
        serde_wasm_bindgen::from_value(options).map_err(|e| {
            to_js_failure(&heaplab_session::fail("BadOptions", &format!("bad options: {e}")))
        })?
    };
    to_js(&program::sat_query(source, formula, &options).map_err(|e| to_js_failure(&e))?)
}

/// How the parser understood `source`, for the debug panel: the program pretty-printed (fully
/// parenthesized where it matters) and the syntax tree as Rust's debug dump. Works on programs
/// with errors too (the tree is whatever was recovered).
#[wasm_bindgen(js_name = syntaxDump, unchecked_return_type = "{ pretty: string; ast: string }")]
pub fn syntax_dump(source: &str) -> Result<JsValue, JsValue> {
    to_js(&program::syntax_dump(source))
}

/// The methods and functions of `source` (pure ones excluded: they are specification helpers),
/// in source order, for the page's method picker. Parses only: works on a program with errors.
/// A Java program lists its methods with their Java signatures, and also those the front end
/// left out (`leftOut`: the reason), which no exploration can start from.
#[wasm_bindgen(
    unchecked_return_type = "{ name: string; requires: boolean; params: string[]; line: number; signature?: string; leftOut?: string }[]"
)]
pub fn methods(source: &str, file: Option<String>) -> Result<JsValue, JsValue> {
    to_js(&program::methods(source, file))
}
