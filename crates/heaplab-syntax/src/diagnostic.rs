//! Diagnostics: what the front end (and later passes) report about a user's program.
//! A diagnostic is data; `render` turns it into `file:line:col: error: message`, the source line
//! and a caret underline, the format every HeapLab front end shows.

use crate::span::{SourceFile, Span};
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// One problem found in a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub span: Span,
    pub message: String,
    /// Extra hint lines shown after the underline ("did you mean `next`?").
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, span, message: message.into(), notes: Vec::new() }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, span, message: message.into(), notes: Vec::new() }
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `file:line:col: error: message`, then the source line and a caret under the span.
    pub fn render(&self, file: &SourceFile) -> String {
        let pos = file.line_col(self.span.start);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}:{}:{}: {}: {}",
            file.name,
            pos.line,
            pos.col,
            self.severity.label(),
            self.message
        );
        let line = file.line_text(pos.line);
        let gutter = pos.line.to_string();
        let _ = writeln!(out, "{gutter} | {line}");
        let end = file.line_col(self.span.end);
        let width = if end.line == pos.line { end.col.saturating_sub(pos.col).max(1) } else { 1 };
        let pad: String =
            line.chars().take(pos.col - 1).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
        let _ = writeln!(out, "{} | {}{}", " ".repeat(gutter.len()), pad, "^".repeat(width));
        for note in &self.notes {
            let _ = writeln!(out, "{} = {}", " ".repeat(gutter.len()), note);
        }
        out
    }
}

/// Renders a list of diagnostics, sorted by position, errors and warnings interleaved.
pub fn render_all(diags: &[Diagnostic], file: &SourceFile) -> String {
    let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
    sorted.sort_by_key(|d| (d.span.start, d.severity));
    sorted.iter().map(|d| d.render(file)).collect()
}
