//! Source positions. A span is a pair of byte offsets into one source text; line and column are
//! computed only when a diagnostic is rendered, so trees stay plain values.

use std::fmt;

/// Half-open byte range `start..end` into the source text of one file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start: start as u32, end: end as u32 }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// One source file: its display name and text, with a line index for rendering positions.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

/// A 1-based line and column. `col` counts characters (Unicode scalar values), not bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub col: usize,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile { name: name.into(), text, line_starts }
    }

    /// Line and column of a byte offset; offsets past the end clamp to the end.
    /// The 1-based line of a byte offset: [`line_col`](Self::line_col) without counting the
    /// column's characters (the page asks it of every tree node).
    pub fn line(&self, offset: u32) -> usize {
        let offset = (offset as usize).min(self.text.len());
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }

    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = (offset as usize).min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let col = self.text.get(start..offset).map_or(offset - start, |s| s.chars().count());
        LineCol { line: line + 1, col: col + 1 }
    }

    /// The text of a 1-based line, without its newline.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else { return "" };
        let end = self.line_starts.get(line).map_or(self.text.len(), |&e| e - 1);
        self.text.get(start..end).unwrap_or("").trim_end_matches('\r')
    }

    /// The source text under a span (empty if the span is out of range).
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.start as usize..span.end as usize).unwrap_or("")
    }
}

#[cfg(test)]
mod tests {
    use super::SourceFile;

    /// `line` is `line_col`'s line at every offset, line starts and ends, multi-byte
    /// characters and past the end included.
    #[test]
    fn line_is_the_line_of_line_col() {
        let file = SourceFile::new("a.hl", "class A {\n  int é;\n\n}\nx");
        for offset in 0..=file.text.len() as u32 + 3 {
            assert_eq!(file.line(offset), file.line_col(offset).line, "offset {offset}");
        }
        assert_eq!(file.line(0), 1);
        assert_eq!(file.line(10), 2);
    }
}
