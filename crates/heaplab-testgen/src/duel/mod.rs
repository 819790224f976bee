//! Duels (Pex4Fun / Code Hunt, for heap programs): does a student's method behave like a
//! reference on every valid input up to the bounds, and if not, on which inputs (the clues)?
//!
//! How (see docs/symbolic.md, "Duels"):
//! 1. [`product::build`] writes a *product program*: one generated method with the reference's
//!    `requires` that copies its inputs, runs the reference on the copy and the student's
//!    method on the original, then asserts they ended alike: the same exception class (or none),
//!    the same return value, and final heaps isomorphic from the roots (`this`, the object
//!    parameters, a returned object).
//! 2. A front end explores that method like any other (every strategy, every bound); a path
//!    that ends in an error where the reference was not running ([`classify`] reads the call
//!    stack of the path's final state) is a difference for every input of the path. The front
//!    end may stop after a few.
//! 3. [`verdict`] takes the generated tests (one concrete input per path) and replays each
//!    input of an error path on the *original* program in the interpreter, once for the
//!    student's method and once for the reference, each on its own copy of the heap, and
//!    compares the two runs in Rust ([`compare`]): this oracle does not share any code with the
//!    generated comparison. An input on which they differ is a clue, with the differences in
//!    words (`this.root.right is null after yours, a Node after the reference`).
//!
//! What "no difference up to the bounds" covers: every input the exploration reached, that is
//! within `k` (the copy reads every object of the input) and the other bounds the run names.
//! Where the reference itself fails with a runtime error, the path ends before the student's
//! method runs: there the two are compared on the one input of each such path only (counted in
//! [`Verdict::reference_failures`]).

pub mod compare;
pub mod product;

pub use compare::{describe_value, Behaviour};
pub use product::{build, Product, RefCall};

use crate::concretize::PreChecker;
use crate::{GeneratedTest, Generation, Input, Validity};
use heaplab_engine::symbolic::code::{Compiled, UnitKind};
use heaplab_engine::symbolic::{PathOutcome, PathResult, PreMode};
use heaplab_syntax::ast::Program;
use heaplab_syntax::types::ProgramInfo;
use heaplab_syntax::SourceFile;

/// Why a duel cannot be set up (the program itself checks).
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum DuelError {
    #[error("there is no {role} `{name}` in the program")]
    NotFound { role: &'static str, name: String },
    #[error("{0}")]
    Mismatch(String),
    #[error("{0}")]
    Unsupported(String),
    #[error("the name `{0}` is reserved for the code HeapLab generates for duels (names starting with `hlduel`); rename it")]
    Reserved(String),
}

/// How one path of the product program ended, for the duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathKind {
    /// Every check passed: the two agree on every input of the path.
    Agree,
    /// A check failed, or the student's method failed after the reference completed: they
    /// differ on every input of the path.
    Differ,
    /// The reference failed with a runtime error (the student's method did not run on the
    /// path): compared on the path's one input only.
    ReferenceFails,
    /// No verdict: the path was cut by a bound, discarded by `requires`, or the engine could
    /// not run it.
    Open,
}

/// The kind of a path of the product program (`compiled`: the explorer's code; `reference`:
/// [`Product::reference`]).
pub fn classify(reference: &str, compiled: &Compiled, path: &PathResult) -> PathKind {
    match &path.outcome {
        PathOutcome::Returned(_) => PathKind::Agree,
        PathOutcome::Error { .. } => {
            let running = path.state.frames.iter().any(|f| {
                matches!(compiled.units.get(f.unit).map(|u| &u.kind),
                    Some(UnitKind::Function { class, name }) if target_name(class.as_deref(), name) == reference)
            });
            if running {
                PathKind::ReferenceFails
            } else {
                PathKind::Differ
            }
        }
        _ => PathKind::Open,
    }
}

fn target_name(class: Option<&str>, name: &str) -> String {
    match class {
        Some(c) => format!("{c}.{name}"),
        None => name.to_string(),
    }
}

/// One input on which the student's method and the reference differ.
#[derive(Clone, Debug)]
pub struct Clue {
    /// The generated test of the product program that holds the input.
    pub test: String,
    pub path: usize,
    pub input: Input,
    /// The input in words, one root a line (`this = BST { root: null }`, `x = 0`).
    pub input_text: Vec<String>,
    /// How the student's method ended, in words.
    pub student: String,
    /// How the reference ended, in words.
    pub reference: String,
    /// What differs, most important first.
    pub differences: Vec<String>,
    /// Whether the input satisfies `requires`, by the model checker.
    pub validity: Validity,
}

/// What a duel found.
#[derive(Clone, Debug, Default)]
pub struct Verdict {
    pub clues: Vec<Clue>,
    /// Paths on which the two agree for every input.
    pub agreeing_paths: usize,
    /// Paths ending in a runtime error of the reference, compared on one input each.
    pub reference_failures: usize,
    /// Paths the exploration called different whose input the interpreter ran alike: a
    /// disagreement between the engine and the interpreter (a bug), never a clue.
    pub unconfirmed: Vec<String>,
}

impl Verdict {
    pub fn differ(&self) -> bool {
        !self.clues.is_empty()
    }
}

/// Replays the input of every test of an error path on the original program (`program`,
/// `info`), the student's method and the reference each on its own copy, and keeps the inputs
/// on which they differ as clues.
#[allow(clippy::too_many_arguments)]
pub fn verdict(
    program: &Program,
    info: &ProgramInfo,
    source: &str,
    product: &Product,
    product_program: &Program,
    product_info: &ProgramInfo,
    compiled: &Compiled,
    paths: &[PathResult],
    generation: &Generation,
) -> Verdict {
    let mut v = Verdict::default();
    let file = SourceFile::new("input.hl", source.to_string());
    let checker = PreChecker::new(product_program, product_info, &product.target, PreMode::Ignore);
    let kinds: Vec<PathKind> =
        paths.iter().map(|p| classify(&product.reference, compiled, p)).collect();
    v.agreeing_paths = kinds.iter().filter(|k| **k == PathKind::Agree).count();
    v.reference_failures = kinds.iter().filter(|k| **k == PathKind::ReferenceFails).count();
    for test in &generation.tests {
        let kind = paths.iter().position(|p| p.index == test.path).map(|i| kinds[i]);
        if !matches!(kind, Some(PathKind::Differ | PathKind::ReferenceFails)) {
            continue;
        }
        match clue(program, info, &file, product, test, checker.classify(&test.input)) {
            Some(c) => v.clues.push(c),
            None if kind == Some(PathKind::Differ) => v.unconfirmed.push(test.name.clone()),
            None => {}
        }
    }
    v
}

/// The clue of one input, when the two runs differ on it.
fn clue(
    program: &Program,
    info: &ProgramInfo,
    file: &SourceFile,
    product: &Product,
    test: &GeneratedTest,
    validity: Validity,
) -> Option<Clue> {
    let names = compare::root_names(program, &product.method);
    let roots = compare::named_roots(&test.input, &names);
    let run =
        |target: &str, role| compare::run(program, info, target, role, product.call, &test.input);
    let student = run(&product.method, compare::Role::Student);
    let reference = run(&product.reference, compare::Role::Reference);
    let differences = compare::differences(program, &test.input, &names, &student, &reference);
    if differences.is_empty() {
        return None;
    }
    Some(Clue {
        test: test.name.clone(),
        path: test.path,
        input: test.input.clone(),
        input_text: compare::describe_input(&test.input, &names),
        student: student.describe(file, &roots),
        reference: reference.describe(file, &roots),
        differences,
        validity,
    })
}
