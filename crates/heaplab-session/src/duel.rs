//! Duels (`heaplab duel` in the page): [`duel_program`] writes the product program that a
//! [`Run`] then explores like any method; [`duel_progress`] counts, as the run goes, the paths on
//! which the student's method and the reference differ (so the page can stop after the first
//! clues); [`duel_verdict`], once the run's tests exist, replays each input of a differing path
//! on the original program in the interpreter and returns the clues.

use heaplab_engine::symbolic::PathOutcome;
use heaplab_syntax::SourceFile;
use heaplab_testgen::duel::{self, PathKind};
use serde::Serialize;

use crate::exploration::{checked, Run};
use crate::tests_view::{test_js, JsTest};
use crate::{fail, Failure};

#[derive(Serialize)]
pub struct JsProgram {
    pub source: String,
    pub target: String,
}

/// The product program of a duel (`DuelProgram` in the page): explore `target` in `source`. Fails with `ProgramHasErrors` (the program does not check) or `Duel` (the two
/// cannot be compared: a missing method, different signatures, arrays).
pub fn duel_program(source: String, method: &str, reference: &str) -> Result<JsProgram, Failure> {
    let file = SourceFile::new("input.hl", source.clone());
    let analysis = checked(&file)?;
    let product = duel::build(&analysis.program, &source, method, reference)
        .map_err(|e| fail("Duel", &e.to_string()))?;
    Ok(JsProgram { source: product.source, target: product.target })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsProgress {
    pub differ: usize,
    pub agree: usize,
    pub reference_fails: usize,
    pub open: usize,
}

/// How the paths of a duel's exploration ended so far (`DuelProgress`).
pub fn duel_progress(r: &Run, reference: &str) -> JsProgress {
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
    p
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsClue {
    pub test: JsTest,
    pub roots: Vec<String>,
    pub input_text: Vec<String>,
    pub student: String,
    pub reference: String,
    pub differences: Vec<String>,
    input_satisfies_requires: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsVerdict {
    differ: bool,
    pub clues: Vec<JsClue>,
    pub agreeing_paths: usize,
    pub reference_failures: usize,
    pub unconfirmed: Vec<String>,
    k_cut: bool,
    pub bounds_hit: Vec<&'static str>,
}

/// The clues of a finished duel exploration (`DuelVerdict`): `source` is the original program
/// (without the generated code), `method` and `reference` as given to `duelProgram`. Throws
/// `NotFinished` before the exploration's tests exist.
pub fn duel_verdict(
    r: &Run,
    source: String,
    method: &str,
    reference: &str,
) -> Result<JsVerdict, Failure> {
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
    Ok(JsVerdict {
        differ: verdict.differ(),
        clues,
        agreeing_paths: verdict.agreeing_paths,
        reference_failures: verdict.reference_failures,
        unconfirmed: verdict.unconfirmed,
        k_cut: r.explorer.stats().k_cut,
        bounds_hit,
    })
}
