//! Duels in the page (`heaplab duel`'s JS API): `duelProgram` writes the product program that
//! an `Exploration` then explores like any method; `duelProgress` counts, as the run goes, the
//! paths on which the student's method and the reference differ (so the page can stop after
//! the first clues); `duelVerdict`, once the exploration's tests exist, replays each input of
//! a differing path on the original program in the interpreter and returns the clues. The
//! logic is heaplab-session's `duel`.

use crate::explore::{to_js, to_js_failure, Exploration};
use heaplab_session::duel;
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

/// The product program of a duel (`DuelProgram`): explore `target` in `source`. Throws an
/// `Error` with `kind` `ProgramHasErrors` (the program does not check) or `Duel` (the two
/// cannot be compared: a missing method, different signatures, arrays).
#[wasm_bindgen(js_name = duelProgram, unchecked_return_type = "DuelProgram")]
pub fn duel_program(source: String, method: &str, reference: &str) -> Result<JsValue, JsValue> {
    to_js(&duel::duel_program(source, method, reference).map_err(|e| to_js_failure(&e))?)
}

/// How the paths of a duel's exploration ended so far (`DuelProgress`).
#[wasm_bindgen(js_name = duelProgress, unchecked_return_type = "DuelProgress")]
pub fn duel_progress(exploration: &Exploration, reference: &str) -> Result<JsValue, JsValue> {
    to_js(&duel::duel_progress(&*exploration.read()?, reference))
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
    let verdict = duel::duel_verdict(&*exploration.read()?, source, method, reference);
    to_js(&verdict.map_err(|e| to_js_failure(&e))?)
}
