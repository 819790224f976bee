//! The errors a run found, as the run summary lists them (`findings`): each test that ended in
//! an error, where and why, whether its input is valid and whether it breaks a contract, and
//! its input and call on one line (the counterexample a grader or a script reads without
//! parsing text). One builder for every driver: the explorer's runs pass their paths (the
//! place of an error the replay did not name), `concolic`'s none.

use crate::summary::FindingReport;
use heaplab_engine::symbolic::{PathOutcome, PathResult};
use heaplab_syntax::SourceFile;
use heaplab_testgen::Generation;

/// Every test that ended in an error: its kind, place, message and name, and whether it breaks
/// a contract on a valid input (what the exit code reports).
pub fn findings(
    file: &SourceFile,
    paths: &[PathResult],
    generation: &Generation,
) -> Vec<FindingReport> {
    let mut out = Vec::new();
    for t in &generation.tests {
        let heaplab_testgen::Expected::Error(kind) = t.expected else { continue };
        // The replayed call's place and words; the explored path's when replay has none.
        let (span, message) =
            match (&t.error_at, PathResult::find(paths, t.path).map(|p| &p.outcome)) {
                (Some((span, message)), _) => (*span, message.clone()),
                (None, Some(PathOutcome::Error { span, message, .. })) => (*span, message.clone()),
                _ => continue,
            };
        let pos = file.line_col(span.start);
        let valid = t.validity.is_valid();
        out.push(FindingReport {
            test: t.name.clone(),
            kind: kind.keyword().to_string(),
            line: pos.line as u32,
            column: pos.col as u32,
            message,
            valid_input: valid,
            breaks_contract: t.reveals_bug(),
            input: counterexample(generation, t),
        });
    }
    out
}

/// A test's input and call on one line: the statements of its `.hl` test block, without the
/// block, its comments and its assertions.
fn counterexample(generation: &Generation, t: &heaplab_testgen::GeneratedTest) -> String {
    let block = heaplab_testgen::emit::test_block(generation, t);
    let lines: Vec<&str> = block
        .lines()
        .map(str::trim)
        .filter(|l| !(l.starts_with("//") || l.starts_with("test ") || l.starts_with("assert")))
        .filter(|l| !l.is_empty() && *l != "}")
        .collect();
    lines.join(" ")
}
