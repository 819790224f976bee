//! A small S-expression reader for solver replies and for terms written as text.
//!
//! It never panics and bounds nesting depth, because its input comes from outside (Z3's output,
//! JSON from the page).

use crate::error::{Result, SolverError};

/// Deepest nesting accepted; deeper input is rejected rather than risking the stack.
const MAX_DEPTH: usize = 256;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Sexp {
    /// A symbol, numeral or keyword; `|quoted|` symbols are stored without the bars.
    Atom(String),
    /// A string literal, unescaped.
    Str(String),
    List(Vec<Sexp>),
}

impl Sexp {
    pub(crate) fn atom(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a) => Some(a),
            _ => None,
        }
    }
    pub(crate) fn list(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(l) => Some(l),
            _ => None,
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
enum Token {
    Open,
    Close,
    Atom(String),
    Str(String),
}

fn tokenize(text: &str) -> Result<Vec<Token>> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' => tokens.push(Token::Open),
            ')' => tokens.push(Token::Close),
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => {}
            '|' => {
                let mut s = String::new();
                loop {
                    match chars.next() {
                        Some('|') => break,
                        Some(c) => s.push(c),
                        None => return Err(SolverError::Malformed("unterminated |symbol|".into())),
                    }
                }
                tokens.push(Token::Atom(s));
            }
            '"' => {
                // SMT-LIB 2.6 escapes a quote by doubling it; Z3 also prints `\"` in messages.
                let mut s = String::new();
                loop {
                    match chars.next() {
                        Some('"') if chars.peek() == Some(&'"') => {
                            chars.next();
                            s.push('"');
                        }
                        Some('"') => break,
                        Some('\\') if matches!(chars.peek(), Some('"') | Some('\\')) => {
                            if let Some(c) = chars.next() {
                                s.push(c);
                            }
                        }
                        Some(c) => s.push(c),
                        None => return Err(SolverError::Malformed("unterminated string".into())),
                    }
                }
                tokens.push(Token::Str(s));
            }
            c => {
                let mut s = String::from(c);
                while let Some(&n) = chars.peek() {
                    if n.is_whitespace() || matches!(n, '(' | ')' | '|' | '"' | ';') {
                        break;
                    }
                    s.push(n);
                    chars.next();
                }
                tokens.push(Token::Atom(s));
            }
        }
    }
    Ok(tokens)
}

/// Parses all top-level S-expressions in `text`.
pub(crate) fn parse_all(text: &str) -> Result<Vec<Sexp>> {
    let tokens = tokenize(text)?;
    let mut stack: Vec<Vec<Sexp>> = vec![Vec::new()];
    for tok in tokens {
        match tok {
            Token::Open => {
                if stack.len() > MAX_DEPTH {
                    return Err(SolverError::Malformed(format!("nesting deeper than {MAX_DEPTH}")));
                }
                stack.push(Vec::new());
            }
            Token::Close => {
                if stack.len() < 2 {
                    return Err(SolverError::Malformed("unbalanced ')'".into()));
                }
                let done = stack.pop().unwrap_or_default();
                if let Some(top) = stack.last_mut() {
                    top.push(Sexp::List(done));
                }
            }
            Token::Atom(a) => {
                if let Some(top) = stack.last_mut() {
                    top.push(Sexp::Atom(a));
                }
            }
            Token::Str(s) => {
                if let Some(top) = stack.last_mut() {
                    top.push(Sexp::Str(s));
                }
            }
        }
    }
    if stack.len() != 1 {
        return Err(SolverError::Malformed("unbalanced '(' (missing ')')".into()));
    }
    Ok(stack.pop().unwrap_or_default())
}

/// Checks that a script is lexically complete (balanced, no open string or `|symbol|`), so it
/// cannot swallow the transport's sentinel and hang the solver waiting for more input.
pub(crate) fn check_balanced(text: &str) -> Result<()> {
    let mut depth: i64 = 0;
    for tok in tokenize(text)? {
        match tok {
            Token::Open => depth += 1,
            Token::Close => {
                depth -= 1;
                if depth < 0 {
                    return Err(SolverError::Malformed("unbalanced ')'".into()));
                }
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(SolverError::Malformed("unbalanced '(' (missing ')')".into()));
    }
    Ok(())
}
