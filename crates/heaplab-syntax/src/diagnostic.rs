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

    /// `file:line:col: error: message`, then the source line and a caret under the span. A
    /// line longer than [`MAX_SHOWN_CHARS`] is shown as a window around the span, so a
    /// diagnostic's size does not grow with its line (a 1 MB one-line file).
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
            clip(&self.message, MAX_SHOWN_CHARS * 4)
        );
        let line = file.line_text(pos.line);
        let gutter = pos.line.to_string();
        let end = file.line_col(self.span.end);
        let width = if end.line == pos.line { end.col.saturating_sub(pos.col).max(1) } else { 1 };
        let (shown, col) = window(line, pos.col - 1);
        let width = width.min(shown.chars().count().saturating_sub(col).max(1));
        let _ = writeln!(out, "{gutter} | {shown}");
        let pad: String =
            shown.chars().take(col).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
        let _ = writeln!(out, "{} | {}{}", " ".repeat(gutter.len()), pad, "^".repeat(width));
        for note in &self.notes {
            let _ = writeln!(out, "{} = {}", " ".repeat(gutter.len()), note);
        }
        out
    }
}

/// The longest source line a diagnostic shows whole.
pub const MAX_SHOWN_CHARS: usize = 240;

/// The most diagnostics [`render_all`] shows; the rest are counted on one line.
pub const MAX_RENDERED: usize = 100;

/// `line` as shown: whole when short, else [`MAX_SHOWN_CHARS`] characters around column
/// `col` (0-based) with `...` where it was cut. Returns the shown text and `col` within it.
fn window(line: &str, col: usize) -> (String, usize) {
    let len = line.chars().count();
    if len <= MAX_SHOWN_CHARS {
        return (line.to_string(), col);
    }
    let start = col.saturating_sub(MAX_SHOWN_CHARS / 3).min(len.saturating_sub(MAX_SHOWN_CHARS));
    let mut shown: String = line.chars().skip(start).take(MAX_SHOWN_CHARS).collect();
    let mut col = col - start;
    if start > 0 {
        shown.insert_str(0, "...");
        col += 3;
    }
    if start + MAX_SHOWN_CHARS < len {
        shown.push_str("...");
    }
    (shown, col)
}

/// `text` cut to `max` characters, with `...` when cut.
fn clip(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if text.chars().count() <= max {
        text.into()
    } else {
        format!("{}...", text.chars().take(max).collect::<String>()).into()
    }
}

/// Renders a list of diagnostics, sorted by position, errors and warnings interleaved; after
/// [`MAX_RENDERED`] of them, one line counts the rest.
pub fn render_all(diags: &[Diagnostic], file: &SourceFile) -> String {
    let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
    sorted.sort_by_key(|d| (d.span.start, d.severity));
    let mut out: String = sorted.iter().take(MAX_RENDERED).map(|d| d.render(file)).collect();
    if sorted.len() > MAX_RENDERED {
        let rest = &sorted[MAX_RENDERED..];
        let errors = rest.iter().filter(|d| d.is_error()).count();
        let _ = writeln!(
            out,
            "{}: {} more diagnostics not shown ({errors} errors, {} warnings)",
            file.name,
            rest.len(),
            rest.len() - errors
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 21: a 1 MB one-line file made 2 GB of stderr, each diagnostic repeating the line.
    #[test]
    fn a_megabyte_line_of_errors_renders_in_kilobytes() {
        let text = "@ ".repeat(500_000);
        let file = SourceFile::new("big.hl", text);
        let analysis = crate::analyze(&file);
        assert!(analysis.diagnostics.len() > MAX_RENDERED);
        let shown = render_all(&analysis.diagnostics, &file);
        assert!(shown.len() < 64 * 1024, "{} bytes", shown.len());
        assert!(shown.contains("more diagnostics not shown"), "{}", &shown[shown.len() - 200..]);
    }

    #[test]
    fn a_long_line_shows_a_window_with_the_caret_under_the_span() {
        let text = format!("{}BAD{}", "a ".repeat(5_000), " b".repeat(5_000));
        let file = SourceFile::new("long.hl", text);
        let span = Span { start: 10_000, end: 10_003 };
        let shown = Diagnostic::error(span, "here").render(&file);
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines[0], "long.hl:1:10001: error: here");
        let (code, caret) = (lines[1], lines[2]);
        assert!(code.len() < MAX_SHOWN_CHARS + 20, "{code}");
        assert!(code.starts_with("1 | ...") && code.ends_with("..."), "{code}");
        let at = caret.find('^').expect("a caret");
        assert_eq!(&code[at..at + 3], "BAD", "{code}\n{caret}");
        assert_eq!(caret.matches('^').count(), 3);
    }

    #[test]
    fn short_lines_are_shown_whole() {
        let file = SourceFile::new("s.hl", "int x = ;\n");
        let shown = Diagnostic::error(Span { start: 8, end: 9 }, "m").render(&file);
        assert_eq!(shown, "s.hl:1:9: error: m\n1 | int x = ;\n  |         ^\n");
    }
}
