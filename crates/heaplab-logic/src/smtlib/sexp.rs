//! S-expressions with their byte spans, for the SMT-LIB reader. Input comes from files of
//! anyone's making, so reading never panics, keeps nesting within [`MAX_DEPTH`] (an explicit
//! stack, not recursion) and reports every problem with its position.

use heaplab_syntax::Span;

/// Deepest nesting accepted (the benchmarks nest a dozen levels).
pub const MAX_DEPTH: usize = 1_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sexp {
    /// A symbol, keyword or numeral; `|quoted|` symbols without their bars.
    Atom(String, Span),
    /// A string literal, unescaped.
    Str(String, Span),
    List(Vec<Sexp>, Span),
}

impl Sexp {
    pub fn span(&self) -> Span {
        match self {
            Sexp::Atom(_, s) | Sexp::Str(_, s) | Sexp::List(_, s) => *s,
        }
    }

    pub fn atom(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a, _) => Some(a),
            _ => None,
        }
    }

    pub fn list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(l, _) => Some(l),
            _ => None,
        }
    }

    /// The head symbol of a list (`sep` in `(sep a b)`).
    pub fn head(&self) -> Option<&str> {
        self.list()?.first()?.atom()
    }
}

/// A reading error: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub span: Span,
    pub message: String,
}

fn error(start: usize, end: usize, message: impl Into<String>) -> ReadError {
    ReadError { span: Span::new(start, end), message: message.into() }
}

/// Every top-level S-expression of `text`.
pub fn parse_all(text: &str) -> Result<Vec<Sexp>, ReadError> {
    let bytes = text.as_bytes();
    let mut i = 0;
    // Open lists: their start offset and the items read so far.
    let mut stack: Vec<(usize, Vec<Sexp>)> = Vec::new();
    let mut top = Vec::new();
    while i < bytes.len() {
        let c = bytes[i];
        let item = match c {
            b'(' => {
                if stack.len() >= MAX_DEPTH {
                    return Err(error(i, i + 1, format!("nesting deeper than {MAX_DEPTH} levels")));
                }
                stack.push((i, Vec::new()));
                i += 1;
                continue;
            }
            b')' => {
                let Some((start, items)) = stack.pop() else {
                    return Err(error(i, i + 1, "`)` without a matching `(`"));
                };
                i += 1;
                Sexp::List(items, Span::new(start, i))
            }
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            c if c.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            b'|' => {
                let start = i;
                i += 1;
                let from = i;
                while i < bytes.len() && bytes[i] != b'|' {
                    i += 1;
                }
                if i >= bytes.len() {
                    return Err(error(start, start + 1, "`|` symbol without its closing `|`"));
                }
                let name = text[from..i].to_string();
                i += 1;
                Sexp::Atom(name, Span::new(start, i))
            }
            b'"' => {
                let start = i;
                i += 1;
                let mut s = String::new();
                loop {
                    if i >= bytes.len() {
                        return Err(error(
                            start,
                            start + 1,
                            "string literal without its closing `\"`",
                        ));
                    }
                    if bytes[i] == b'"' {
                        if bytes.get(i + 1) == Some(&b'"') {
                            s.push('"');
                            i += 2;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    let Some(ch) = text[i..].chars().next() else { break };
                    s.push(ch);
                    i += ch.len_utf8();
                }
                Sexp::Str(s, Span::new(start, i))
            }
            _ => {
                let start = i;
                while i < bytes.len() {
                    let b = bytes[i];
                    if b.is_ascii_whitespace() || matches!(b, b'(' | b')' | b';' | b'"' | b'|') {
                        break;
                    }
                    i += 1;
                }
                // `i` stops at ASCII bytes only, so the slice ends on a character boundary.
                Sexp::Atom(text[start..i].to_string(), Span::new(start, i))
            }
        };
        match stack.last_mut() {
            Some((_, items)) => items.push(item),
            None => top.push(item),
        }
    }
    if let Some((start, _)) = stack.last() {
        return Err(error(*start, *start + 1, "`(` without a matching `)`"));
    }
    Ok(top)
}
