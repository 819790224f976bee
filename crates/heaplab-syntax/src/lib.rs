//! HeapLab's front end: lexer, parser, AST, type checker, pretty-printer and diagnostics.
//!
//! Invariant: this crate knows nothing of solvers, heaps or execution. Parsing never fails: it
//! returns a (possibly partial) tree plus diagnostics, and no input makes it panic.
//!
//! Entry points: [`parse`], [`check`], [`pretty::program`], and [`analyze`] which does both.

pub mod ast;
pub mod builtin;
pub mod check;
pub mod diagnostic;
pub mod jsf;
pub mod lexer;
pub mod parser;
pub mod pretty;
pub mod span;
pub mod types;

pub use diagnostic::{Diagnostic, Severity};
pub use span::{SourceFile, Span};

/// Parses one file. Always returns a tree; syntax errors are in the diagnostics.
pub fn parse(file: &SourceFile) -> (ast::Program, Vec<Diagnostic>) {
    parser::parse_program(&file.text)
}

/// Type-checks a parsed program: resolves names and computes the type of every expression.
pub fn check(program: &ast::Program) -> (types::ProgramInfo, Vec<Diagnostic>) {
    check::check_program(program)
}

/// The result of reading one file: its tree, what the checker learned, and every diagnostic
/// (syntax first, then semantic), sorted by position.
pub struct Analysis {
    pub program: ast::Program,
    pub info: types::ProgramInfo,
    pub diagnostics: Vec<Diagnostic>,
}

impl Analysis {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Parse and check. The checker runs even after syntax errors, on whatever tree was recovered,
/// so a student sees every problem at once.
pub fn analyze(file: &SourceFile) -> Analysis {
    let (program, mut diagnostics) = parse(file);
    let (info, semantic) = check(&program);
    diagnostics.extend(semantic);
    diagnostics.sort_by_key(|d| (d.span.start, d.severity));
    Analysis { program, info, diagnostics }
}
