//! What a HeapLab front end runs, shared by the command line and wasm: each front end only
//! converts its input into these calls and their results into its output.
//!
//! Results are serde types in the JS API's spelling (camelCase keys): wasm returns them as they
//! are, the CLI prints them. Failures are a [`Failure`]: a kind the page can branch on and a
//! message that says where.
//!
//! Modules:
//! - [`exploration`]: a stepped symbolic run of one method ([`exploration::Run`]): the explorer
//!   over the [`replay_solver`], test generation, the summary, the tree, views and coverage;
//!   [`events`] are the JS shapes of its events and tree ([`event_convert`] builds them);
//!   [`clock`] is its time bound; [`slice`] runs it a time slice at a time for the page's Run,
//!   and [`tree_columns`] carries a slice's new nodes to the page.
//! - [`replay_solver`]: the explorer's solver over a host that answers later (Z3 wasm).
//! - [`tests_view`]: generated tests, heaps and JUnit files in their JS shapes; [`junit`]: the
//!   JUnit 5 export, for `heaplab run --emit junit` and the page.
//! - [`registry`]: the strategy registry and the bound table as the page lists them.
//! - [`inspect`]: heap views, symheap worlds and coverage in their JS shapes.
//! - [`program`]: loading and checking a program (HeapLab or Java), diagnostics in UTF-16
//!   positions, the methods one can explore, its `test` blocks, `sat` questions.
//! - [`concolic`], [`duel`], [`replay`]: the concolic driver's pass loop, a duel's program
//!   and verdict, the concrete replay of a generated test.

pub mod clock;
pub mod concolic;
pub mod duel;
pub mod event_convert;
pub mod events;
pub mod exploration;
pub mod inspect;
pub mod junit;
pub mod program;
pub mod registry;
pub mod replay;
pub mod replay_solver;
pub mod slice;
pub mod solver_check;
pub mod tests_json;
pub mod tests_view;
pub mod tree_columns;

/// Why a call failed: `kind` names the failure for the page (`BadOptions`, `ProgramHasErrors`,
/// `UnknownMethod`, `TestGeneration`, `Untranslatable`, `Internal`, ...), `message` says what
/// and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub kind: &'static str,
    pub message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// A [`Failure`] of `kind`.
pub fn fail(kind: &'static str, message: &str) -> Failure {
    Failure { kind, message: message.to_string() }
}

/// `value` as JSON text: what a front end hands on as one string (the page's worker posts the
/// Run's events and tests on as text, one copy where objects are cloned at both ends).
pub fn json_text<T: serde::Serialize>(value: &T) -> Result<String, Failure> {
    serde_json::to_string(value).map_err(|e| fail("Internal", &e.to_string()))
}
