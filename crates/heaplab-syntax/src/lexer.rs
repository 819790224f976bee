//! The lexer: turns source text into tokens with byte-offset spans.
//!
//! Why a separate pass: the parser needs arbitrary lookahead (`IDENT IDENT` starts a declaration,
//! a parenthesized formula is tried speculatively), which is cheapest over a token vector.
//! The lexer never fails and never panics: an unknown character or an integer literal that does
//! not fit in an `int` becomes a diagnostic, and lexing goes on. The token list always ends with
//! one `Eof` token whose span is the empty span at the end of the text.

use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The kinds of token. Keywords and punctuation have one kind each; identifiers and integer
/// literals keep their text in the source (see [`Token::span`]) and, for integers, their value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Ident,
    /// A decimal literal; its value is [`Token::value`].
    Int,
    /// `_` alone: the wildcard.
    Underscore,
    // Keywords.
    Class,
    Pred,
    Pure,
    Test,
    Expects,
    Requires,
    Ensures,
    Exists,
    Emp,
    IntKw,
    BoolKw,
    Void,
    If,
    Else,
    While,
    For,
    Throw,
    Try,
    Catch,
    Return,
    Break,
    Continue,
    Assert,
    Assume,
    New,
    Null,
    True,
    False,
    This,
    Result,
    Old,
    // Operators and punctuation.
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Hash,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `++`
    PlusPlus,
    /// `--`
    MinusMinus,
    /// A compound assignment `op=` (`+=`, `-=`, `*=`, `/=`, `%=`, `<<=`, `>>=`); the operator is
    /// [`Token::value`] as an index into [`COMPOUND_OPS`].
    CompoundAssign,
    Lt,
    Le,
    Gt,
    Ge,
    EqEq,
    Ne,
    AndAnd,
    OrOr,
    Bang,
    Question,
    Colon,
    Assign,
    Arrow,
    ColonEq,
    Pipe,
    Amp,
    Dot,
    Comma,
    Semi,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    /// End of input (always the last token).
    Eof,
}

impl TokenKind {
    /// The keyword spelled `s`, if it is one.
    pub fn keyword(s: &str) -> Option<TokenKind> {
        use TokenKind::*;
        Some(match s {
            "class" => Class,
            "pred" => Pred,
            "pure" => Pure,
            "test" => Test,
            "expects" => Expects,
            "requires" => Requires,
            "ensures" => Ensures,
            "exists" => Exists,
            "emp" => Emp,
            "int" => IntKw,
            "bool" => BoolKw,
            "void" => Void,
            "if" => If,
            "else" => Else,
            "while" => While,
            "for" => For,
            "throw" => Throw,
            "try" => Try,
            "catch" => Catch,
            "return" => Return,
            "break" => Break,
            "continue" => Continue,
            "assert" => Assert,
            "assume" => Assume,
            "new" => New,
            "null" => Null,
            "true" => True,
            "false" => False,
            "this" => This,
            "result" => Result,
            "old" => Old,
            _ => return None,
        })
    }

    /// How the token is named in a message: the fixed spelling in backticks, or a description
    /// for identifiers, literals and the end of input.
    pub fn describe(self) -> &'static str {
        use TokenKind::*;
        match self {
            Ident => "an identifier",
            Int => "an integer",
            Underscore => "`_`",
            Class => "`class`",
            Pred => "`pred`",
            Pure => "`pure`",
            Test => "`test`",
            Expects => "`expects`",
            Requires => "`requires`",
            Ensures => "`ensures`",
            Exists => "`exists`",
            Emp => "`emp`",
            IntKw => "`int`",
            BoolKw => "`bool`",
            Void => "`void`",
            If => "`if`",
            Else => "`else`",
            While => "`while`",
            For => "`for`",
            Throw => "`throw`",
            Try => "`try`",
            Catch => "`catch`",
            Return => "`return`",
            Break => "`break`",
            Continue => "`continue`",
            Assert => "`assert`",
            Assume => "`assume`",
            New => "`new`",
            Null => "`null`",
            True => "`true`",
            False => "`false`",
            This => "`this`",
            Result => "`result`",
            Old => "`old`",
            Plus => "`+`",
            Minus => "`-`",
            Star => "`*`",
            Slash => "`/`",
            Percent => "`%`",
            Hash => "`#`",
            Shl => "`<<`",
            Shr => "`>>`",
            PlusPlus => "`++`",
            MinusMinus => "`--`",
            CompoundAssign => "a compound assignment",
            Lt => "`<`",
            Le => "`<=`",
            Gt => "`>`",
            Ge => "`>=`",
            EqEq => "`==`",
            Ne => "`!=`",
            AndAnd => "`&&`",
            OrOr => "`||`",
            Bang => "`!`",
            Question => "`?`",
            Colon => "`:`",
            Assign => "`=`",
            Arrow => "`->`",
            ColonEq => "`:=`",
            Pipe => "`|`",
            Amp => "`&`",
            Dot => "`.`",
            Comma => "`,`",
            Semi => "`;`",
            LParen => "`(`",
            RParen => "`)`",
            LBrace => "`{`",
            RBrace => "`}`",
            LBracket => "`[`",
            RBracket => "`]`",
            Eof => "end of file",
        }
    }
}

/// One token. Identifier text is `text[span]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    /// The value of an `Int` token (0 for other kinds, and for a literal too large, which is
    /// reported). It may be `i64::MAX + 1`: only the parser knows whether a `-` precedes it.
    pub value: u64,
}

/// The operators of compound assignments, by the spelling before `=`; a `CompoundAssign`
/// token's [`Token::value`] indexes this table.
pub const COMPOUND_OPS: [&str; 7] = ["+", "-", "*", "/", "%", "<<", ">>"];

/// The magnitude of `i64::MIN`, the largest literal the lexer accepts (for `-9223372036854775808`).
pub const MAX_LITERAL: u64 = 1 << 63;

/// Splits `text` into tokens. Always ends with an `Eof` token; never panics.
pub fn lex(text: &str) -> (Vec<Token>, Vec<Diagnostic>) {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut diags = Vec::new();
    let mut i = 0;
    // Start of a run of unknown characters, reported as one diagnostic.
    let mut unknown_start: Option<usize> = None;

    while i < bytes.len() {
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        let start = i;
        let single = |kind| (kind, 1);
        let tok = match b {
            b' ' | b'\t' | b'\r' | b'\n' | b'\x0c' => {
                i += 1;
                flush_unknown(text, &mut unknown_start, start, &mut diags);
                continue;
            }
            b'/' if next == Some(b'/') => {
                flush_unknown(text, &mut unknown_start, start, &mut diags);
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if next == Some(b'*') => {
                flush_unknown(text, &mut unknown_start, start, &mut diags);
                match text.get(i + 2..).and_then(|rest| rest.find("*/")) {
                    Some(off) => i = i + 2 + off + 2,
                    None => {
                        diags.push(Diagnostic::error(
                            Span::new(i, i + 2),
                            "unterminated block comment: `/*` has no matching `*/`",
                        ));
                        i = bytes.len();
                    }
                }
                continue;
            }
            b'A'..=b'Z' | b'a'..=b'z' | b'_' => {
                let mut j = i + 1;
                while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'_') {
                    j += 1;
                }
                let word = text.get(i..j).unwrap_or("");
                let kind = if word == "_" {
                    TokenKind::Underscore
                } else {
                    TokenKind::keyword(word).unwrap_or(TokenKind::Ident)
                };
                (kind, j - i)
            }
            b'0'..=b'9' => {
                let mut j = i;
                let mut value: Option<u64> = Some(0);
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    let digit = u64::from(bytes[j] - b'0');
                    value = value
                        .and_then(|v| v.checked_mul(10))
                        .and_then(|v| v.checked_add(digit))
                        .filter(|&v| v <= MAX_LITERAL);
                    j += 1;
                }
                flush_unknown(text, &mut unknown_start, start, &mut diags);
                let value = match value {
                    Some(v) => v,
                    None => {
                        diags.push(Diagnostic::error(
                            Span::new(i, j),
                            "integer literal is too large: an `int` holds at most 9223372036854775807",
                        ));
                        0
                    }
                };
                tokens.push(Token { kind: TokenKind::Int, span: Span::new(i, j), value });
                i = j;
                continue;
            }
            _ if compound_op(bytes, i).is_some() => {
                flush_unknown(text, &mut unknown_start, start, &mut diags);
                let (index, len) = compound_op(bytes, i).unwrap_or((0, 2));
                let span = Span::new(i, i + len);
                tokens.push(Token { kind: TokenKind::CompoundAssign, span, value: index as u64 });
                i += len;
                continue;
            }
            b'+' if next == Some(b'+') => (TokenKind::PlusPlus, 2),
            b'+' => single(TokenKind::Plus),
            b'-' if next == Some(b'>') => (TokenKind::Arrow, 2),
            b'-' if next == Some(b'-') => (TokenKind::MinusMinus, 2),
            b'-' => single(TokenKind::Minus),
            b'*' => single(TokenKind::Star),
            b'/' => single(TokenKind::Slash),
            b'%' => single(TokenKind::Percent),
            b'#' => single(TokenKind::Hash),
            b'<' if next == Some(b'<') => (TokenKind::Shl, 2),
            b'<' if next == Some(b'=') => (TokenKind::Le, 2),
            b'<' => single(TokenKind::Lt),
            b'>' if next == Some(b'>') => (TokenKind::Shr, 2),
            b'>' if next == Some(b'=') => (TokenKind::Ge, 2),
            b'>' => single(TokenKind::Gt),
            b'=' if next == Some(b'=') => (TokenKind::EqEq, 2),
            b'=' => single(TokenKind::Assign),
            b'!' if next == Some(b'=') => (TokenKind::Ne, 2),
            b'!' => single(TokenKind::Bang),
            b'&' if next == Some(b'&') => (TokenKind::AndAnd, 2),
            b'&' => single(TokenKind::Amp),
            b'|' if next == Some(b'|') => (TokenKind::OrOr, 2),
            b'|' => single(TokenKind::Pipe),
            b'?' => single(TokenKind::Question),
            b':' if next == Some(b'=') => (TokenKind::ColonEq, 2),
            b':' => single(TokenKind::Colon),
            b'.' => single(TokenKind::Dot),
            b',' => single(TokenKind::Comma),
            b';' => single(TokenKind::Semi),
            b'(' => single(TokenKind::LParen),
            b')' => single(TokenKind::RParen),
            b'{' => single(TokenKind::LBrace),
            b'}' => single(TokenKind::RBrace),
            b'[' => single(TokenKind::LBracket),
            b']' => single(TokenKind::RBracket),
            _ => {
                // Unknown: skip one whole character (never split a UTF-8 sequence).
                let len = text.get(i..).and_then(|s| s.chars().next()).map_or(1, char::len_utf8);
                unknown_start.get_or_insert(i);
                i += len;
                continue;
            }
        };
        flush_unknown(text, &mut unknown_start, start, &mut diags);
        let (kind, len) = tok;
        tokens.push(Token { kind, span: Span::new(i, i + len), value: 0 });
        i += len;
    }
    flush_unknown(text, &mut unknown_start, bytes.len(), &mut diags);
    tokens.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(bytes.len(), bytes.len()),
        value: 0,
    });
    (tokens, diags)
}

/// The compound assignment operator (`+=`, `<<=`, ...) at byte `i`, as its index into
/// [`COMPOUND_OPS`] and its length in bytes.
fn compound_op(bytes: &[u8], i: usize) -> Option<(usize, usize)> {
    let rest = bytes.get(i..)?;
    COMPOUND_OPS.iter().enumerate().find_map(|(index, op)| {
        let op = op.as_bytes();
        (rest.starts_with(op)
            && rest.get(op.len()) == Some(&b'=')
            && rest.get(op.len() + 1) != Some(&b'='))
        .then_some((index, op.len() + 1))
    })
}

/// Reports the run of unknown characters that ends at `end`, if any.
fn flush_unknown(text: &str, start: &mut Option<usize>, end: usize, diags: &mut Vec<Diagnostic>) {
    let Some(s) = start.take() else { return };
    let run = text.get(s..end).unwrap_or("");
    let shown: String = run.chars().flat_map(char::escape_debug).collect();
    let message = if run.chars().count() == 1 {
        format!("unexpected character `{shown}`")
    } else {
        format!("unexpected characters `{shown}`")
    };
    diags.push(Diagnostic::error(Span::new(s, end), message));
}
