//! Duels in the page (`heaplab duel`'s JS API): `duelProgram` writes the product program that
//! an `Exploration` then explores like any method; `duelProgress` counts, as the run goes, the
//! paths on which the student's method and the reference differ (so the page can stop after
//! the first clues); `duelVerdict`, once the exploration's tests exist, replays each input of
//! a differing path on the original program in the interpreter and returns the clues.

use crate::explore::{checked, fail, test_js, to_js, Exploration, JsTest};
use heaplab_engine::symbolic::PathOutcome;
use heaplab_syntax::SourceFile;
use heaplab_testgen::duel::{self, PathKind};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS: &str = r#"
export interface DuelProgram { source: string; target: string; }
export interface DuelProgress { differ: number; agree: number; referenceFails: number; open: number; }
export interface DuelClue {
  test: GeneratedTestJs; roots: string[]; inputText: string[]; student: string; reference: string;
  differences: string[]; inputSatisfiesRequires: boolean;
}
export interface DuelVerdict {
  differ: boolean; clues: DuelClue[]; agreeingPaths: number; referenceFailures: number;
  unconfirmed: string[]; kCut: boolean; boundsHit: string[];
}
"#;

#[derive(Serialize)]
struct JsProgram {
    source: String,
    target: String,
}

/// The product program of a duel (`DuelProgram`): explore `target` in `source`. Throws an
/// `Error` with `kind` `ProgramHasErrors` (the program does not check) or `Duel` (the two
/// cannot be compared: a missing method, different signatures, arrays).
#[wasm_bindgen(js_name = duelProgram, unchecked_return_type = "DuelProgram")]
pub fn duel_program(source: String, method: &str, reference: &str) -> Result<JsValue, JsValue> {
    let file = SourceFile::new("input.hl", source.clone());
    let analysis = checked(&file)?;
    let product = duel::build(&analysis.program, &source, method, reference)
        .map_err(|e| fail("Duel", &e.to_string()))?;
    to_js(&JsProgram { source: product.source, target: product.target })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsProgress {
    differ: usize,
    agree: usize,
    reference_fails: usize,
    open: usize,
}

/// How the paths of a duel's exploration ended so far (`DuelProgress`).
#[wasm_bindgen(js_name = duelProgress, unchecked_return_type = "DuelProgress")]
pub fn duel_progress(exploration: &Exploration, reference: &str) -> Result<JsValue, JsValue> {
    let r = exploration.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
    let compiled = r.explorer.compiled();
    let mut p = JsProgress { differ: 0, agree: 0, reference_fails: 0, open: 0 };
    for path in r.explorer.paths() {
        match duel::classify(reference, compiled, path) {
            PathKind::Differ => p.differ += 1,
            PathKind::Agree => p.agree += 1,
            PathKind::ReferenceFails => p.reference_fails += 1,
            PathKind::Open => p.open += 1,
        }
    }
    to_js(&p)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsClue {
    test: JsTest,
    roots: Vec<String>,
    input_text: Vec<String>,
    student: String,
    reference: String,
    differences: Vec<String>,
    input_satisfies_requires: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsVerdict {
    differ: bool,
    clues: Vec<JsClue>,
    agreeing_paths: usize,
    reference_failures: usize,
    unconfirmed: Vec<String>,
    k_cut: bool,
    bounds_hit: Vec<&'static str>,
}

/// The clues of a finished duel exploration (`DuelVerdict`): `source` is the original program
/// (without the generated code), `method` and `reference` as given to `duelProgram`. Throws
/// `NotFinished` before the exploration's tests exist.
#[wasm_bindgen(js_name = duelVerdict, unchecked_return_type = "DuelVerdict")]
pub fn duel_verdict(
    exploration: &Exploration,
    source: String,
    method: &str,
    reference: &str,
) -> Result<JsValue, JsValue> {
    let r = exploration.run.try_borrow().map_err(|_| fail("Busy", "the exploration is in use"))?;
    let Some(generation) = &r.generation else {
        return Err(fail("NotFinished", "the duel's exploration has not generated its tests yet"));
    };
    let file = SourceFile::new("input.hl", source.clone());
    let original = checked(&file)?;
    let product = duel::build(&original.program, &source, method, reference)
        .map_err(|e| fail("Duel", &e.to_string()))?;
    let compiled = r.explorer.compiled();
    let verdict = duel::verdict(
        &original.program,
        &original.info,
        &source,
        &product,
        &r.analysis.program,
        &r.analysis.info,
        compiled,
        r.explorer.paths(),
        generation,
    );
    let roots = duel::compare::root_names(&original.program, method);
    let mut bounds_hit: Vec<&'static str> = r
        .explorer
        .paths()
        .iter()
        .filter_map(|p| match &p.outcome {
            PathOutcome::Bounded { bound, .. } => Some(bound.name()),
            _ => None,
        })
        .collect();
    if let Some(b) = r.explorer.stopped() {
        bounds_hit.push(b.name());
    }
    bounds_hit.sort_unstable();
    bounds_hit.dedup();
    let clues = verdict
        .clues
        .iter()
        .filter_map(|c| {
            let t = generation.tests.iter().find(|t| t.name == c.test)?;
            Some(JsClue {
                test: test_js(generation, None, t),
                roots: roots.clone(),
                input_text: c.input_text.clone(),
                student: c.student.clone(),
                reference: c.reference.clone(),
                differences: c.differences.clone(),
                input_satisfies_requires: c.validity.is_valid(),
            })
        })
        .collect();
    to_js(&JsVerdict {
        differ: verdict.differ(),
        clues,
        agreeing_paths: verdict.agreeing_paths,
        reference_failures: verdict.reference_failures,
        unconfirmed: verdict.unconfirmed,
        k_cut: r.explorer.stats().k_cut,
        bounds_hit,
    })
}
