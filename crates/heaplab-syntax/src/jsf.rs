//! Importing predicate files written for Java StarFinder (JSF) and Concolic StarFinder (CSF).
//!
//! Those tools write data types and separation-logic predicates in their own syntax:
//!
//! ```text
//! data Node {int val; Node next}
//! pred sll(root) == root = null || root::Node<_,next> * sll(next)
//! pre add == sll(x) * sll(y)
//! ```
//!
//! [`import`] translates such a file into HeapLab items: every `data` becomes a `class`, every
//! `pred` a HeapLab predicate whose parameter and existential types are inferred (JSF writes
//! none), positional points-to `x::Node<a,b>` becomes `x -> Node { val: a, next: b }`, and
//! every `pre m == F` becomes a [`Precondition`] a caller can attach to method `m` as a
//! `requires`. [`translate`] does the whole conversion to HeapLab source text once.
//!
//! Type inference is unification over the whole file: a variable's type comes from points-to
//! atoms (`x::Node<..>` makes `x` a `Node`, and each argument gets its field's type), from
//! arithmetic and ordering (`a < b`, `a + 1`: ints), from equalities (`a = b`: same type) and
//! from predicate arguments (an argument has the type of the parameter, and the parameter the
//! type of the argument, in every use). A parameter nothing determines is reported with a hint
//! to annotate it (`pred p(Node x, y) == ...`, an extension of the JSF syntax).
//!
//! The importer never panics; spans in diagnostics (and in the returned tree) are byte offsets
//! into the JSF text. See `docs/language.md`, "Importing JSF/CSF predicates".

use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::lexer::TokenKind;
use crate::span::Span;
use std::collections::HashMap;
use std::fmt::Write;

// ---- Public API -----------------------------------------------------------------------------

/// Everything a JSF/CSF file contains, in HeapLab terms.
#[derive(Clone, Debug, PartialEq)]
pub struct JsfImport {
    /// Classes (one per `data`, plus any the file uses without declaring), then predicates.
    pub program: Program,
    /// The `pre m == F` items, in source order.
    pub preconditions: Vec<Precondition>,
    /// Other `key=value` lines of a `.jpf` property file (`star.max_depth=4`), in order.
    pub properties: Vec<(String, String)>,
}

/// `pre m == F`: the precondition of method `m`. JSF names the receiver's fields `this_f`; they
/// are translated to `this.f`. Other variables are either parameters of `m` or implicitly
/// existential; only the caller knows which, see [`Precondition::requires`].
#[derive(Clone, Debug, PartialEq)]
pub struct Precondition {
    pub method: Ident,
    pub formula: Formula,
    /// The variables of the formula other than `this_f`, in order of first use, with their
    /// inferred types (`int` when nothing determines one; a warning says so).
    pub free_vars: Vec<Param>,
    pub span: Span,
}

impl Precondition {
    /// The formula as a `requires` clause for a method whose parameters are named
    /// `method_params`: every other free variable is bound by `exists` in each disjunct that
    /// uses it.
    pub fn requires(&self, method_params: &[&str]) -> Formula {
        let mut formula = self.formula.clone();
        for disjunct in &mut formula.disjuncts {
            let mut used = Vec::new();
            for atom in &disjunct.atoms {
                atom_vars(atom, &mut used);
            }
            let mut bound: Vec<Param> = self
                .free_vars
                .iter()
                .filter(|p| {
                    used.contains(&p.name.name) && !method_params.contains(&p.name.name.as_str())
                })
                .cloned()
                .collect();
            bound.append(&mut disjunct.exists);
            disjunct.exists = bound;
        }
        formula
    }
}

/// Translates a JSF/CSF predicate file. Always returns a result; problems are diagnostics.
pub fn import(text: &str) -> (JsfImport, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut properties = Vec::new();
    let tokens = tokenize(text, &mut diags, &mut properties);
    let items = Parser { toks: tokens, pos: 0, diags: &mut diags, depth: 0 }.file();
    let mut tr = Translator::new(&mut diags);
    let (program, preconditions) = tr.run(&items);
    diags.sort_by_key(|d| (d.span.start, d.severity));
    (JsfImport { program, preconditions, properties }, diags)
}

/// Translates a JSF/CSF predicate file into HeapLab classes and predicates (the
/// preconditions are dropped; use [`import`] to get them).
pub fn import_jsf(text: &str) -> (Program, Vec<Diagnostic>) {
    let (imported, diags) = import(text);
    (imported.program, diags)
}

/// Converts a JSF/CSF file to HeapLab source text. Preconditions and tool settings become
/// comments at the end (`// pre add: requires precondition(x, y)`).
pub fn translate(text: &str) -> (String, Vec<Diagnostic>) {
    let (imported, diags) = import(text);
    let mut out = crate::pretty::program(&imported.program);
    if !imported.preconditions.is_empty() || !imported.properties.is_empty() {
        if !out.is_empty() && !out.ends_with("\n\n") {
            out.push('\n');
        }
        out.push_str("// Preconditions and settings from the JSF/CSF file:\n");
    }
    for pre in &imported.preconditions {
        let _ = write!(
            out,
            "// pre {}: requires {}",
            pre.method.name,
            crate::pretty::formula(&pre.formula)
        );
        if !pre.free_vars.is_empty() {
            let vars: Vec<String> = pre
                .free_vars
                .iter()
                .map(|p| format!("{} {}", crate::pretty::type_expr(&p.ty), p.name.name))
                .collect();
            let _ = write!(out, "  (parameters or exists: {})", vars.join(", "));
        }
        out.push('\n');
    }
    for (key, value) in &imported.properties {
        let _ = writeln!(out, "// {key}={value}");
    }
    (out, diags)
}

/// Whether `text` looks like a JSF/CSF file rather than HeapLab: it has a `data T {`
/// declaration, a `pred p(..) ==` or `pre m ==` header, an `x::T<` points-to, or a `star.`
/// property line.
pub fn looks_like_jsf(text: &str) -> bool {
    let mut diags = Vec::new();
    let mut props = Vec::new();
    let toks = tokenize(text, &mut diags, &mut props);
    if props.iter().any(|(k, _)| k.starts_with("star.")) || text.contains("star.predicate=") {
        return true;
    }
    let ident = |i: usize| matches!(toks.get(i).map(|t| &t.tok), Some(Tok::Ident(_)));
    let is = |i: usize, t: &Tok| toks.get(i).map(|x| &x.tok) == Some(t);
    for i in 0..toks.len() {
        match &toks[i].tok {
            Tok::Ident(w) if w == "data" && ident(i + 1) && is(i + 2, &Tok::LBrace) => return true,
            Tok::Ident(w) if w == "pre" && ident(i + 1) && is(i + 2, &Tok::EqEq) => return true,
            Tok::Ident(w) if w == "pred" && ident(i + 1) && is(i + 2, &Tok::LParen) => {
                let close = toks[i..].iter().position(|t| t.tok == Tok::RParen);
                if close.is_some_and(|c| is(i + c + 1, &Tok::EqEq)) {
                    return true;
                }
            }
            Tok::ColonColon if i > 0 && ident(i - 1) && ident(i + 1) && is(i + 2, &Tok::Lt) => {
                return true
            }
            _ => {}
        }
    }
    false
}

/// HeapLab spelling of a JSF name: keywords get a trailing `_` (`result` → `result_`).
fn hl_name(name: &str) -> String {
    if TokenKind::keyword(name).is_some() {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

fn atom_vars(atom: &Atom, acc: &mut Vec<String>) {
    match atom {
        Atom::Emp(_) => {}
        Atom::PointsTo { pointer, fields, .. } => {
            expr_vars(pointer, acc);
            fields.iter().for_each(|f| expr_vars(&f.value, acc));
        }
        Atom::Pred { args, .. } => args.iter().for_each(|a| expr_vars(a, acc)),
        Atom::Pure(e) => expr_vars(e, acc),
    }
}

fn expr_vars(e: &Expr, acc: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Var(id) if !acc.contains(&id.name) => acc.push(id.name.clone()),
        ExprKind::Field { object, .. } | ExprKind::Unary { operand: object, .. } => {
            expr_vars(object, acc)
        }
        ExprKind::Binary { lhs, rhs, .. } => {
            expr_vars(lhs, acc);
            expr_vars(rhs, acc);
        }
        ExprKind::Call { args, .. } => args.iter().for_each(|a| expr_vars(a, acc)),
        _ => {}
    }
}

// ---- Tokens ---------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Int(i64),
    ColonColon,
    EqEq,
    OrOr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Hash,
    Slash,
    Star,
    Amp,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Comma,
    Semi,
    Eof,
}

impl Tok {
    fn describe(&self) -> String {
        let s = match self {
            Tok::Ident(name) => return format!("`{name}`"),
            Tok::Int(n) => return format!("`{n}`"),
            Tok::Eof => return "the end of the file".to_string(),
            Tok::ColonColon => "::",
            Tok::EqEq => "==",
            Tok::OrOr => "||",
            Tok::Eq => "=",
            Tok::Ne => "!=",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Hash => "#",
            Tok::Slash => "/",
            Tok::Star => "*",
            Tok::Amp => "&",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::Comma => ",",
            Tok::Semi => ";",
        };
        format!("`{s}`")
    }
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    span: Span,
}

/// Property keys whose value is JSF text (the rest of a `.jpf` file's lines are settings).
const JSF_KEYS: [&str; 3] = ["star.data", "star.predicate", "star.precondition"];

fn tokenize(
    text: &str,
    diags: &mut Vec<Diagnostic>,
    props: &mut Vec<(String, String)>,
) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    let eol = |from: usize| text[from..].find('\n').map_or(text.len(), |n| from + n);
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'\\' if matches!(bytes.get(i + 1), Some(b'\n' | b'\r')) => {
                // A property file's line continuation.
                i += if bytes.get(i + 1) == Some(&b'\r') { 3 } else { 2 };
                continue;
            }
            _ => {}
        }
        if line_start {
            line_start = false;
            // Property-file comments and `key=value` lines.
            if c == b'#' || c == b'!' {
                i = eol(i);
                continue;
            }
            let mut j = i;
            while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || b"_.".contains(&bytes[j]))
            {
                j += 1;
            }
            let key = &text[i..j];
            let mut k = j;
            while k < bytes.len() && (bytes[k] == b' ' || bytes[k] == b'\t') {
                k += 1;
            }
            if key.contains('.') && bytes.get(k) == Some(&b'=') && bytes.get(k + 1) != Some(&b'=') {
                if JSF_KEYS.contains(&key) {
                    i = k + 1;
                } else {
                    let end = eol(k + 1);
                    props.push((key.to_string(), text[k + 1..end].trim().to_string()));
                    i = end;
                }
                continue;
            }
        }
        if text[i..].starts_with("//") {
            i = eol(i);
            continue;
        }
        if text[i..].starts_with("/*") {
            match text[i + 2..].find("*/") {
                Some(n) => i = i + 2 + n + 2,
                None => {
                    diags.push(Diagnostic::error(
                        Span::new(i, i + 2),
                        "unterminated comment: `/*` has no matching `*/`",
                    ));
                    i = text.len();
                }
            }
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            toks.push(Token {
                tok: Tok::Ident(text[start..i].to_string()),
                span: Span::new(start, i),
            });
            continue;
        }
        if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let value = text[start..i].parse::<i64>().unwrap_or_else(|_| {
                diags.push(Diagnostic::error(
                    Span::new(start, i),
                    "integer literal too large (HeapLab integers are 64-bit)",
                ));
                0
            });
            toks.push(Token { tok: Tok::Int(value), span: Span::new(start, i) });
            continue;
        }
        let two = text.get(i..i + 2).unwrap_or("");
        let (tok, len) = match two {
            "::" => (Some(Tok::ColonColon), 2),
            "==" => (Some(Tok::EqEq), 2),
            "||" => (Some(Tok::OrOr), 2),
            "!=" => (Some(Tok::Ne), 2),
            "<=" => (Some(Tok::Le), 2),
            ">=" => (Some(Tok::Ge), 2),
            "&&" => (Some(Tok::Amp), 2),
            _ => {
                let t = match c {
                    b'=' => Some(Tok::Eq),
                    b'<' => Some(Tok::Lt),
                    b'>' => Some(Tok::Gt),
                    b'+' => Some(Tok::Plus),
                    b'-' => Some(Tok::Minus),
                    b'#' => Some(Tok::Hash),
                    b'/' => Some(Tok::Slash),
                    b'*' => Some(Tok::Star),
                    b'&' => Some(Tok::Amp),
                    b'(' => Some(Tok::LParen),
                    b')' => Some(Tok::RParen),
                    b'{' => Some(Tok::LBrace),
                    b'}' => Some(Tok::RBrace),
                    b',' => Some(Tok::Comma),
                    b';' => Some(Tok::Semi),
                    _ => None,
                };
                let len = text[i..].chars().next().map_or(1, char::len_utf8);
                (t, len)
            }
        };
        i += len;
        match tok {
            Some(tok) => toks.push(Token { tok, span: Span::new(start, i) }),
            None => diags.push(Diagnostic::error(
                Span::new(start, i),
                format!("unexpected character `{}` in a JSF file", &text[start..i]),
            )),
        }
    }
    toks.push(Token { tok: Tok::Eof, span: Span::new(text.len(), text.len()) });
    toks
}

// ---- Parsed JSF items ----------------------------------------------------------------------

#[derive(Clone, Debug)]
enum JTerm {
    Var(String, Span),
    Int(i64, Span),
    Null(Span),
    Bool(bool, Span),
    Wild(Span),
    Neg(Box<JTerm>, Span),
    Bin(BinOp, Box<JTerm>, Box<JTerm>, Span),
}

impl JTerm {
    fn span(&self) -> Span {
        match self {
            JTerm::Var(_, s)
            | JTerm::Int(_, s)
            | JTerm::Null(s)
            | JTerm::Bool(_, s)
            | JTerm::Wild(s)
            | JTerm::Neg(_, s)
            | JTerm::Bin(_, _, _, s) => *s,
        }
    }
}

#[derive(Clone, Debug)]
enum JAtom {
    Emp(Span),
    PointsTo { ptr: JTerm, class: (String, Span), args: Vec<JTerm>, span: Span },
    Pred { name: (String, Span), args: Vec<JTerm>, span: Span },
    Cmp { op: BinOp, lhs: JTerm, rhs: JTerm, span: Span },
    Bool(bool, Span),
}

#[derive(Clone, Debug)]
struct JDisj {
    atoms: Vec<JAtom>,
    span: Span,
}

#[derive(Clone, Debug)]
struct JParam {
    ty: Option<(String, Span)>,
    name: String,
    span: Span,
}

#[derive(Clone, Debug)]
enum JItem {
    Data { name: (String, Span), fields: Vec<((String, Span), (String, Span))>, span: Span },
    Pred { name: (String, Span), params: Vec<JParam>, body: Vec<JDisj>, span: Span },
    Pre { method: (String, Span), body: Vec<JDisj>, span: Span },
}

// ---- Parser ---------------------------------------------------------------------------------

const MAX_DEPTH: u32 = 100;

struct Parser<'a> {
    toks: Vec<Token>,
    pos: usize,
    diags: &'a mut Vec<Diagnostic>,
    depth: u32,
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        self.peek_at(0)
    }

    fn peek_at(&self, n: usize) -> &Tok {
        let last = self.toks.len() - 1;
        &self.toks[(self.pos + n).min(last)].tok
    }

    fn span(&self) -> Span {
        let last = self.toks.len() - 1;
        self.toks[self.pos.min(last)].span
    }

    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1).min(self.toks.len() - 1)].span
    }

    fn bump(&mut self) -> Token {
        let last = self.toks.len() - 1;
        let t = self.toks[self.pos.min(last)].clone();
        if self.pos < last {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == tok {
            self.bump();
            true
        } else {
            false
        }
    }

    fn error_here(&mut self, expected: &str) {
        let found = self.peek().describe();
        self.diags
            .push(Diagnostic::error(self.span(), format!("expected {expected}, found {found}")));
    }

    fn expect(&mut self, tok: &Tok, expected: &str) -> Option<Span> {
        if self.peek() == tok {
            Some(self.bump().span)
        } else {
            self.error_here(expected);
            None
        }
    }

    fn ident(&mut self, expected: &str) -> Option<(String, Span)> {
        if let Tok::Ident(name) = self.peek() {
            let name = name.clone();
            Some((name, self.bump().span))
        } else {
            self.error_here(expected);
            None
        }
    }

    fn is_word(&self, n: usize, word: &str) -> bool {
        matches!(self.peek_at(n), Tok::Ident(w) if w == word)
    }

    fn at_item_start(&self) -> bool {
        let next_ident = matches!(self.peek_at(1), Tok::Ident(_));
        next_ident
            && ((self.is_word(0, "data") && self.peek_at(2) == &Tok::LBrace)
                || (self.is_word(0, "pred") && self.peek_at(2) == &Tok::LParen)
                || (self.is_word(0, "pre") && self.peek_at(2) == &Tok::EqEq))
    }

    /// Skips to the next `;` or item start.
    fn recover(&mut self) {
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Semi => {
                    self.bump();
                    return;
                }
                _ if self.at_item_start() => return,
                _ => {
                    self.bump();
                }
            }
        }
    }

    fn file(mut self) -> Vec<JItem> {
        let mut items = Vec::new();
        loop {
            let start = self.pos;
            let item = match self.peek() {
                Tok::Eof => break,
                Tok::Semi => {
                    self.bump();
                    continue;
                }
                _ if self.is_word(0, "data") => self.data(),
                _ if self.is_word(0, "pred") => self.pred(),
                _ if self.is_word(0, "pre") => self.pre(),
                _ => {
                    self.error_here("`data`, `pred` or `pre`");
                    None
                }
            };
            match item {
                Some((item, clean)) => {
                    items.push(item);
                    if clean {
                        self.end_of_item();
                    } else {
                        self.recover();
                    }
                }
                None => self.recover(),
            }
            if self.pos == start {
                self.bump();
            }
        }
        items
    }

    /// After an item: `;`, the next item, or the end of the file.
    fn end_of_item(&mut self) {
        if self.eat(&Tok::Semi) || self.peek() == &Tok::Eof || self.at_item_start() {
            return;
        }
        self.error_here("`*`, `&`, `||`, `;` or the next `pred`");
        self.recover();
    }

    fn data(&mut self) -> Option<(JItem, bool)> {
        let start = self.bump().span;
        let name = self.ident("the name of the data type")?;
        self.expect(&Tok::LBrace, "`{` after the data type's name")?;
        let mut fields = Vec::new();
        let mut clean = true;
        while !matches!(self.peek(), Tok::RBrace | Tok::Eof) {
            match self.field() {
                Some(f) => fields.push(f),
                None => {
                    // Keep the fields read so far; skip the rest of the declaration.
                    clean = false;
                    while !matches!(self.peek(), Tok::RBrace | Tok::Eof) && !self.at_item_start() {
                        self.bump();
                    }
                    break;
                }
            }
        }
        let end = if self.peek() == &Tok::RBrace { self.bump().span } else { self.prev_span() };
        if clean
            && end == self.prev_span()
            && self.toks[self.pos.saturating_sub(1)].tok != Tok::RBrace
        {
            self.error_here("`}`");
            clean = false;
        }
        Some((JItem::Data { name, fields, span: start.to(end) }, clean))
    }

    fn field(&mut self) -> Option<((String, Span), (String, Span))> {
        let ty = self.ident("a field type (`int`, `boolean` or a data type)")?;
        let field = self.ident("a field name")?;
        if !self.eat(&Tok::Semi) && self.peek() != &Tok::RBrace {
            self.error_here("`;` or `}` after the field");
            // `int a Node b`: a forgotten `;`; keep reading fields.
            if !matches!(self.peek(), Tok::Ident(_)) {
                return None;
            }
        }
        Some((ty, field))
    }

    fn pred(&mut self) -> Option<(JItem, bool)> {
        let start = self.bump().span;
        let name = self.ident("the predicate's name")?;
        self.expect(&Tok::LParen, "`(` after the predicate's name")?;
        let mut params = Vec::new();
        if self.peek() != &Tok::RParen {
            loop {
                let first = self.ident("a parameter name")?;
                let param = if let Tok::Ident(_) = self.peek() {
                    let name = self.ident("a parameter name")?;
                    JParam { ty: Some(first), name: name.0, span: name.1 }
                } else {
                    JParam { ty: None, name: first.0, span: first.1 }
                };
                params.push(param);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
        }
        self.expect(&Tok::RParen, "`,` or `)` in the parameter list")?;
        self.expect(&Tok::EqEq, "`==` before the predicate's body")?;
        let (body, clean) = self.formula();
        let span = start.to(self.prev_span());
        Some((JItem::Pred { name, params, body, span }, clean))
    }

    fn pre(&mut self) -> Option<(JItem, bool)> {
        let start = self.bump().span;
        let method = self.ident("the method's name")?;
        self.expect(&Tok::EqEq, "`==` after the method's name")?;
        let (body, clean) = self.formula();
        let span = start.to(self.prev_span());
        if body.is_empty() {
            return None;
        }
        Some((JItem::Pre { method, body, span }, clean))
    }

    /// `disj ('||' disj)*`. Returns the disjuncts parsed and whether parsing went cleanly.
    fn formula(&mut self) -> (Vec<JDisj>, bool) {
        let mut disjuncts = Vec::new();
        loop {
            match self.disjunct() {
                Some(d) => disjuncts.push(d),
                None => return (disjuncts, false),
            }
            if !self.eat(&Tok::OrOr) {
                return (disjuncts, true);
            }
        }
    }

    fn disjunct(&mut self) -> Option<JDisj> {
        let start = self.span();
        let mut atoms = self.atom()?;
        while matches!(self.peek(), Tok::Star | Tok::Amp) {
            self.bump();
            atoms.extend(self.atom()?);
        }
        Some(JDisj { atoms, span: start.to(self.prev_span()) })
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.diags.push(Diagnostic::error(self.span(), "formula nested too deeply"));
            None
        } else {
            Some(())
        }
    }

    /// Whether the `(` at the cursor opens an arithmetic term (`(a+1) = b`) rather than a
    /// parenthesized formula.
    fn paren_is_term(&self) -> bool {
        let mut depth = 0usize;
        let mut i = self.pos;
        while i < self.toks.len() {
            match self.toks[i].tok {
                Tok::LParen => depth += 1,
                Tok::RParen => {
                    depth -= 1;
                    if depth == 0 {
                        return matches!(
                            self.toks.get(i + 1).map(|t| &t.tok),
                            Some(
                                Tok::Eq
                                    | Tok::EqEq
                                    | Tok::Ne
                                    | Tok::Lt
                                    | Tok::Le
                                    | Tok::Gt
                                    | Tok::Ge
                                    | Tok::Plus
                                    | Tok::Minus
                                    | Tok::Hash
                                    | Tok::Slash
                            )
                        );
                    }
                }
                Tok::Eof => return false,
                _ => {}
            }
            i += 1;
        }
        false
    }

    fn atom(&mut self) -> Option<Vec<JAtom>> {
        self.enter()?;
        let result = self.atom_inner();
        self.depth -= 1;
        result
    }

    fn atom_inner(&mut self) -> Option<Vec<JAtom>> {
        let start = self.span();
        match self.peek().clone() {
            Tok::Ident(w) if w == "emp" && !matches!(self.peek_at(1), Tok::ColonColon) => {
                self.bump();
                return Some(vec![JAtom::Emp(start)]);
            }
            Tok::Ident(name) if self.peek_at(1) == &Tok::LParen => {
                self.bump();
                self.bump();
                let args = self.terms(&Tok::RParen)?;
                let end = self.expect(&Tok::RParen, "`,` or `)` after the arguments")?;
                return Some(vec![JAtom::Pred { name: (name, start), args, span: start.to(end) }]);
            }
            Tok::LParen if !self.paren_is_term() => {
                self.bump();
                let (inner, clean) = self.formula();
                if !clean {
                    return None;
                }
                let end = self.expect(&Tok::RParen, "`)`")?;
                if inner.len() != 1 {
                    self.diags.push(
                        Diagnostic::error(
                            start.to(end),
                            "a disjunction (`||`) inside parentheses is not supported",
                        )
                        .with_note("write each alternative as a separate top-level disjunct"),
                    );
                    return None;
                }
                return inner.into_iter().next().map(|d| d.atoms);
            }
            _ => {}
        }
        let lhs = self.term()?;
        let op = match self.peek() {
            Tok::ColonColon => {
                self.bump();
                let class = self.ident("a data type name after `::`")?;
                self.expect(&Tok::Lt, "`<` after the data type (`x::Node<a, b>`)")?;
                let args = self.terms(&Tok::Gt)?;
                let end = self.expect(&Tok::Gt, "`,` or `>` after the fields")?;
                if matches!(lhs, JTerm::Wild(_)) {
                    self.diags.push(Diagnostic::error(lhs.span(), "`_` cannot point to an object"));
                    return None;
                }
                return Some(vec![JAtom::PointsTo { ptr: lhs, class, args, span: start.to(end) }]);
            }
            Tok::Eq | Tok::EqEq => BinOp::Eq,
            Tok::Ne => BinOp::Ne,
            Tok::Lt => BinOp::Lt,
            Tok::Le => BinOp::Le,
            Tok::Gt => BinOp::Gt,
            Tok::Ge => BinOp::Ge,
            _ => {
                if let JTerm::Bool(b, s) = lhs {
                    return Some(vec![JAtom::Bool(b, s)]);
                }
                self.error_here("`::`, `=`, `!=`, `<`, `<=`, `>` or `>=` after the term");
                return None;
            }
        };
        self.bump();
        let rhs = self.term()?;
        let span = start.to(rhs.span());
        Some(vec![JAtom::Cmp { op, lhs, rhs, span }])
    }

    /// Comma-separated terms up to (not including) `close`; possibly none.
    fn terms(&mut self, close: &Tok) -> Option<Vec<JTerm>> {
        let mut out = Vec::new();
        if self.peek() == close {
            return Some(out);
        }
        loop {
            out.push(self.term()?);
            if !self.eat(&Tok::Comma) {
                return Some(out);
            }
        }
    }

    fn term(&mut self) -> Option<JTerm> {
        self.enter()?;
        let result = self.additive();
        self.depth -= 1;
        result
    }

    fn additive(&mut self) -> Option<JTerm> {
        let mut lhs = self.multiplicative()?;
        loop {
            let op = match self.peek() {
                Tok::Plus => BinOp::Add,
                Tok::Minus => BinOp::Sub,
                _ => return Some(lhs),
            };
            self.bump();
            let rhs = self.multiplicative()?;
            let span = lhs.span().to(rhs.span());
            lhs = JTerm::Bin(op, Box::new(lhs), Box::new(rhs), span);
        }
    }

    fn multiplicative(&mut self) -> Option<JTerm> {
        let mut lhs = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Hash => BinOp::Mul,
                Tok::Slash => BinOp::Div,
                _ => return Some(lhs),
            };
            self.bump();
            let rhs = self.unary()?;
            let span = lhs.span().to(rhs.span());
            lhs = JTerm::Bin(op, Box::new(lhs), Box::new(rhs), span);
        }
    }

    fn unary(&mut self) -> Option<JTerm> {
        let start = self.span();
        match self.peek().clone() {
            Tok::Minus => {
                self.bump();
                self.enter()?;
                let operand = self.unary();
                self.depth -= 1;
                let operand = operand?;
                let span = start.to(operand.span());
                Some(JTerm::Neg(Box::new(operand), span))
            }
            Tok::Int(n) => {
                self.bump();
                Some(JTerm::Int(n, start))
            }
            Tok::Ident(name) => {
                self.bump();
                Some(match name.as_str() {
                    "null" => JTerm::Null(start),
                    "true" => JTerm::Bool(true, start),
                    "false" => JTerm::Bool(false, start),
                    "_" => JTerm::Wild(start),
                    _ => JTerm::Var(name, start),
                })
            }
            Tok::LParen => {
                self.bump();
                let inner = self.term()?;
                self.expect(&Tok::RParen, "`)`")?;
                Some(inner)
            }
            _ => {
                self.error_here("a variable, a number, `null` or `_`");
                None
            }
        }
    }
}

// ---- Type inference and translation ---------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq)]
enum Ty {
    Int,
    Bool,
    /// Some reference (compared with `null`), class not yet known.
    Ref,
    Class(String),
}

impl Ty {
    fn show(&self) -> String {
        match self {
            Ty::Int => "int".into(),
            Ty::Bool => "bool".into(),
            Ty::Ref => "a reference".into(),
            Ty::Class(c) => hl_name(c),
        }
    }

    fn merge(&self, other: &Ty) -> Option<Ty> {
        match (self, other) {
            (a, b) if a == b => Some(a.clone()),
            (Ty::Ref, Ty::Class(c)) | (Ty::Class(c), Ty::Ref) => Some(Ty::Class(c.clone())),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
enum TyRef {
    Slot(usize),
    Known(Ty),
    Unknown,
}

struct FieldInfo {
    name: Option<String>,
    slot: usize,
}

struct ClassInfo {
    name: String,
    declared: bool,
    /// Where it was declared or first used.
    span: Span,
    /// `None` for an undeclared class until its first points-to fixes the arity.
    fields: Option<Vec<FieldInfo>>,
    /// For undeclared classes: the variables written at each position of each points-to, with
    /// whether the variable is a parameter (used to name the fields).
    uses: Vec<Vec<Option<(String, bool)>>>,
    /// The HeapLab field names, fixed when the class declaration is built.
    names: Vec<String>,
    /// Some field's type was not determined and defaulted to `int`.
    defaulted: bool,
}

struct PredSig {
    slots: Vec<usize>,
}

/// Variable scope of one disjunct (of a predicate) or of one whole precondition.
#[derive(Default)]
struct Scope {
    vars: HashMap<String, usize>,
    params: Vec<String>,
    /// Non-parameter variables in order of first use, with that use's span.
    locals: Vec<(String, usize, Span)>,
    /// In a precondition: `this_f` means field `f` of the receiver.
    in_pre: bool,
    fresh: usize,
}

struct Translator<'a> {
    diags: &'a mut Vec<Diagnostic>,
    parent: Vec<usize>,
    ty: Vec<Option<Ty>>,
    /// What a slot stands for, for messages.
    what: Vec<String>,
    classes: Vec<ClassInfo>,
    class_index: HashMap<String, usize>,
    preds: HashMap<String, PredSig>,
    next_id: u32,
}

impl<'a> Translator<'a> {
    fn new(diags: &'a mut Vec<Diagnostic>) -> Translator<'a> {
        Translator {
            diags,
            parent: Vec::new(),
            ty: Vec::new(),
            what: Vec::new(),
            classes: Vec::new(),
            class_index: HashMap::new(),
            preds: HashMap::new(),
            next_id: 0,
        }
    }

    fn new_slot(&mut self, what: String, ty: Option<Ty>) -> usize {
        self.parent.push(self.parent.len());
        self.ty.push(ty);
        self.what.push(what);
        self.parent.len() - 1
    }

    fn find(&mut self, mut s: usize) -> usize {
        while self.parent[s] != s {
            self.parent[s] = self.parent[self.parent[s]];
            s = self.parent[s];
        }
        s
    }

    fn resolved(&mut self, s: usize) -> Option<Ty> {
        let r = self.find(s);
        self.ty[r].clone()
    }

    fn conflict(&mut self, span: Span, what: &str, a: &Ty, b: &Ty) {
        self.diags.push(Diagnostic::error(
            span,
            format!("type mismatch: {what} is used both as {} and as {}", a.show(), b.show()),
        ));
    }

    fn set(&mut self, s: usize, t: Ty, span: Span) {
        let r = self.find(s);
        match self.ty[r].clone() {
            None => self.ty[r] = Some(t),
            Some(old) => match old.merge(&t) {
                Some(m) => self.ty[r] = Some(m),
                None => {
                    let what = self.what[s].clone();
                    self.conflict(span, &what, &old, &t);
                }
            },
        }
    }

    fn union(&mut self, a: usize, b: usize, span: Span) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return;
        }
        let merged = match (self.ty[ra].clone(), self.ty[rb].clone()) {
            (Some(x), Some(y)) => match x.merge(&y) {
                Some(m) => Some(m),
                None => {
                    let what = format!("{} (and {})", self.what[a], self.what[b]);
                    self.conflict(span, &what, &x, &y);
                    return;
                }
            },
            (x, y) => x.or(y),
        };
        self.parent[rb] = ra;
        self.ty[ra] = merged;
    }

    fn unify(&mut self, a: &TyRef, b: &TyRef, span: Span) {
        match (a, b) {
            (TyRef::Slot(x), TyRef::Slot(y)) => self.union(*x, *y, span),
            (TyRef::Slot(s), TyRef::Known(t)) | (TyRef::Known(t), TyRef::Slot(s)) => {
                self.set(*s, t.clone(), span)
            }
            (TyRef::Known(x), TyRef::Known(y)) if x.merge(y).is_none() => {
                self.diags.push(Diagnostic::error(
                    span,
                    format!("type mismatch: {} compared with {}", x.show(), y.show()),
                ));
            }
            _ => {}
        }
    }

    /// The class named `name`, declaring an empty, undeclared one on first reference.
    fn class(&mut self, name: &str, span: Span) -> usize {
        if let Some(&i) = self.class_index.get(name) {
            return i;
        }
        self.classes.push(ClassInfo {
            name: name.to_string(),
            declared: false,
            span,
            fields: None,
            uses: Vec::new(),
            names: Vec::new(),
            defaulted: false,
        });
        self.class_index.insert(name.to_string(), self.classes.len() - 1);
        self.classes.len() - 1
    }

    fn type_name(&mut self, name: &str, span: Span) -> Ty {
        match name {
            "int" | "long" | "short" | "byte" | "char" => Ty::Int,
            "bool" | "boolean" => Ty::Bool,
            "float" | "double" => {
                self.diags.push(Diagnostic::warning(
                    span,
                    format!("HeapLab has no floating-point numbers; `{name}` is treated as `int`"),
                ));
                Ty::Int
            }
            _ => {
                self.class(name, span);
                Ty::Class(name.to_string())
            }
        }
    }

    fn run(&mut self, items: &[JItem]) -> (Program, Vec<Precondition>) {
        // Pass 1: data declarations and predicate signatures.
        for item in items {
            if let JItem::Data { name, span, .. } = item {
                if self.class_index.get(&name.0).is_some_and(|&i| self.classes[i].declared) {
                    self.diags.push(Diagnostic::error(
                        name.1,
                        format!("data type `{}` is declared twice", name.0),
                    ));
                    continue;
                }
                let i = self.class(&name.0, name.1);
                self.classes[i].declared = true;
                self.classes[i].span = *span;
            }
        }
        let mut declared_data = HashMap::new();
        for item in items {
            if let JItem::Data { name, fields, .. } = item {
                if declared_data.contains_key(&name.0) {
                    continue;
                }
                let mut infos: Vec<FieldInfo> = Vec::new();
                for ((ty, ty_span), (field, field_span)) in fields {
                    if infos.iter().any(|f| f.name.as_deref() == Some(field.as_str())) {
                        self.diags.push(Diagnostic::error(
                            *field_span,
                            format!("field `{field}` is declared twice in `{}`", name.0),
                        ));
                        continue;
                    }
                    let t = self.type_name(ty, *ty_span);
                    let slot = self.new_slot(format!("field `{}.{field}`", name.0), Some(t));
                    infos.push(FieldInfo { name: Some(field.clone()), slot });
                }
                let i = self.class(&name.0, name.1);
                self.classes[i].fields = Some(infos);
                declared_data.insert(name.0.clone(), ());
            }
        }
        for item in items {
            if let JItem::Pred { name, params, .. } = item {
                if self.preds.contains_key(&name.0) {
                    self.diags.push(Diagnostic::error(
                        name.1,
                        format!("predicate `{}` is defined twice", name.0),
                    ));
                    continue;
                }
                let mut slots = Vec::new();
                for (k, p) in params.iter().enumerate() {
                    if params[..k].iter().any(|q| q.name == p.name) {
                        self.diags.push(Diagnostic::error(
                            p.span,
                            format!("parameter `{}` appears twice", p.name),
                        ));
                    }
                    let t = p.ty.as_ref().map(|(t, s)| self.type_name(t, *s));
                    slots.push(self.new_slot(format!("parameter `{}` of `{}`", p.name, name.0), t));
                }
                self.preds.insert(name.0.clone(), PredSig { slots });
            }
        }

        // Pass 2: constraints from every formula.
        let mut scopes: Vec<Vec<Scope>> = Vec::new();
        let mut weak: Vec<usize> = Vec::new();
        let mut seen = HashMap::new();
        for item in items {
            match item {
                JItem::Pred { name, params, body, .. } => {
                    let duplicate = seen.insert(name.0.clone(), ()).is_some();
                    let mut per = Vec::new();
                    for d in body {
                        let mut scope = Scope::default();
                        if !duplicate {
                            if let Some(sig) = self.preds.get(&name.0) {
                                for (p, &s) in params.iter().zip(&sig.slots) {
                                    scope.vars.insert(p.name.clone(), s);
                                    scope.params.push(p.name.clone());
                                }
                            }
                        }
                        for a in &d.atoms {
                            self.constrain_atom(a, &mut scope, &name.0, &mut weak);
                        }
                        per.push(scope);
                    }
                    scopes.push(per);
                }
                JItem::Pre { method, body, .. } => {
                    let mut scope = Scope { in_pre: true, ..Scope::default() };
                    for d in body {
                        for a in &d.atoms {
                            self.constrain_atom(
                                a,
                                &mut scope,
                                &format!("pre {}", method.0),
                                &mut weak,
                            );
                        }
                    }
                    scopes.push(vec![scope]);
                }
                JItem::Data { .. } => {}
            }
        }
        for s in weak {
            if self.resolved(s).is_none() {
                self.set(s, Ty::Int, Span::default());
            }
        }
        // Fields of undeclared classes that nothing types are ints (the class's warning says
        // so), and so is every variable written there.
        for c in 0..self.classes.len() {
            if self.classes[c].declared {
                continue;
            }
            let slots: Vec<usize> =
                self.classes[c].fields.iter().flatten().map(|f| f.slot).collect();
            for s in slots {
                if self.final_type(s).is_none() {
                    self.set(s, Ty::Int, Span::default());
                    self.classes[c].defaulted = true;
                }
            }
        }

        // Pass 3: build the HeapLab items.
        let mut program = Program::default();
        let mut pres = Vec::new();
        let mut classes = Vec::new();
        for i in 0..self.classes.len() {
            classes.push(self.class_decl(i));
        }
        program.items.extend(classes.into_iter().map(Item::Class));
        let mut scopes = scopes.into_iter();
        let mut emitted = HashMap::new();
        for item in items {
            match item {
                JItem::Pred { name, params, body, span } => {
                    let Some(per) = scopes.next() else { continue };
                    if emitted.insert(name.0.clone(), ()).is_some() {
                        continue;
                    }
                    let decl = self.pred_decl(name, params, body, per, *span);
                    program.items.push(Item::Predicate(decl));
                }
                JItem::Pre { method, body, span } => {
                    let Some(mut per) = scopes.next() else { continue };
                    let scope = per.pop().unwrap_or_default();
                    pres.push(self.precondition(method, body, &scope, *span));
                }
                JItem::Data { .. } => {}
            }
        }
        (program, pres)
    }

    fn var_slot(&mut self, name: &str, span: Span, scope: &mut Scope, owner: &str) -> usize {
        if let Some(&s) = scope.vars.get(name) {
            return s;
        }
        let s = self.new_slot(format!("`{name}` (in `{owner}`)"), None);
        scope.vars.insert(name.to_string(), s);
        scope.locals.push((name.to_string(), s, span));
        s
    }

    fn term_type(&mut self, t: &JTerm, scope: &mut Scope, owner: &str) -> TyRef {
        match t {
            JTerm::Var(name, span) => {
                if scope.in_pre && name.starts_with("this_") && name.len() > 5 {
                    TyRef::Unknown
                } else {
                    TyRef::Slot(self.var_slot(name, *span, scope, owner))
                }
            }
            JTerm::Int(..) => TyRef::Known(Ty::Int),
            JTerm::Null(_) => TyRef::Known(Ty::Ref),
            JTerm::Bool(..) => TyRef::Known(Ty::Bool),
            JTerm::Wild(_) => TyRef::Unknown,
            JTerm::Neg(inner, span) => {
                self.no_wildcard(inner);
                let it = self.term_type(inner, scope, owner);
                self.unify(&it, &TyRef::Known(Ty::Int), *span);
                TyRef::Known(Ty::Int)
            }
            JTerm::Bin(_, l, r, span) => {
                for side in [l, r] {
                    self.no_wildcard(side);
                    let st = self.term_type(side, scope, owner);
                    self.unify(&st, &TyRef::Known(Ty::Int), *span);
                }
                TyRef::Known(Ty::Int)
            }
        }
    }

    fn no_wildcard(&mut self, t: &JTerm) {
        if let JTerm::Wild(span) = t {
            self.diags.push(Diagnostic::error(*span, "`_` cannot be used in arithmetic"));
        }
    }

    /// A `_` outside a points-to stands for a fresh existential.
    fn name_wildcard(t: &JTerm, scope: &mut Scope) -> JTerm {
        match t {
            JTerm::Wild(span) => {
                scope.fresh += 1;
                JTerm::Var(format!("_{}", scope.fresh), *span)
            }
            other => other.clone(),
        }
    }

    fn constrain_atom(&mut self, a: &JAtom, scope: &mut Scope, owner: &str, weak: &mut Vec<usize>) {
        match a {
            JAtom::Emp(_) | JAtom::Bool(..) => {}
            JAtom::PointsTo { ptr, class, args, span } => {
                let pt = self.term_type(ptr, scope, owner);
                let ci = self.class(&class.0, class.1);
                self.unify(&pt, &TyRef::Known(Ty::Class(class.0.clone())), ptr.span());
                if self.classes[ci].fields.is_none() {
                    let mut infos = Vec::new();
                    for k in 0..args.len() {
                        let slot = self.new_slot(format!("field {} of `{}`", k + 1, class.0), None);
                        infos.push(FieldInfo { name: None, slot });
                    }
                    self.classes[ci].fields = Some(infos);
                }
                if !self.classes[ci].declared {
                    let use_: Vec<Option<(String, bool)>> = args
                        .iter()
                        .map(|t| match t {
                            JTerm::Var(n, _) => Some((n.clone(), scope.params.contains(n))),
                            _ => None,
                        })
                        .collect();
                    self.classes[ci].uses.push(use_);
                }
                let slots: Vec<usize> =
                    self.classes[ci].fields.iter().flatten().map(|f| f.slot).collect();
                if slots.len() != args.len() {
                    let names: Vec<String> = self.classes[ci]
                        .fields
                        .iter()
                        .flatten()
                        .enumerate()
                        .map(|(k, f)| f.name.clone().unwrap_or_else(|| format!("f{}", k + 1)))
                        .collect();
                    self.diags.push(Diagnostic::error(
                        *span,
                        format!(
                            "`{}` has {}, but this points-to lists {}",
                            class.0,
                            match slots.len() {
                                0 => "no fields".to_string(),
                                1 => format!("1 field ({})", names.join(", ")),
                                n => format!("{n} fields ({})", names.join(", ")),
                            },
                            args.len()
                        ),
                    ));
                }
                for (arg, slot) in args.iter().zip(slots) {
                    let at = self.term_type(arg, scope, owner);
                    self.unify(&at, &TyRef::Slot(slot), arg.span());
                }
            }
            JAtom::Pred { name, args, span } => {
                let args: Vec<JTerm> = args.iter().map(|t| Self::name_wildcard(t, scope)).collect();
                let sig = self.preds.get(&name.0).map(|s| s.slots.clone());
                let arg_types: Vec<TyRef> =
                    args.iter().map(|t| self.term_type(t, scope, owner)).collect();
                match sig {
                    None => self
                        .diags
                        .push(Diagnostic::error(name.1, format!("unknown predicate `{}`", name.0))),
                    Some(slots) => {
                        if slots.len() != args.len() {
                            self.diags.push(Diagnostic::error(
                                *span,
                                format!(
                                    "`{}` takes {} argument{}, but {} {} given",
                                    name.0,
                                    slots.len(),
                                    if slots.len() == 1 { "" } else { "s" },
                                    args.len(),
                                    if args.len() == 1 { "is" } else { "are" }
                                ),
                            ));
                        }
                        for ((t, arg), slot) in arg_types.iter().zip(&args).zip(slots) {
                            self.unify(t, &TyRef::Slot(slot), arg.span());
                        }
                    }
                }
            }
            JAtom::Cmp { op, lhs, rhs, span } => {
                let lhs = Self::name_wildcard(lhs, scope);
                let rhs = Self::name_wildcard(rhs, scope);
                let lt = self.term_type(&lhs, scope, owner);
                let rt = self.term_type(&rhs, scope, owner);
                match op {
                    BinOp::Eq | BinOp::Ne => {
                        // `color = 1` may compare a boolean field with JSF's 0/1 encoding.
                        match (&lt, &rhs, &rt, &lhs) {
                            (TyRef::Slot(s), JTerm::Int(0 | 1, _), _, _)
                            | (_, _, TyRef::Slot(s), JTerm::Int(0 | 1, _)) => weak.push(*s),
                            _ => self.unify(&lt, &rt, *span),
                        }
                    }
                    _ => {
                        self.unify(&lt, &TyRef::Known(Ty::Int), lhs.span());
                        self.unify(&rt, &TyRef::Known(Ty::Int), rhs.span());
                    }
                }
            }
        }
    }

    // ---- Building the tree ----

    fn id(&mut self) -> NodeId {
        self.next_id += 1;
        NodeId(self.next_id)
    }

    fn expr(&mut self, kind: ExprKind, span: Span) -> Expr {
        Expr { id: self.id(), kind, span }
    }

    fn type_expr(t: &Ty, span: Span) -> TypeExpr {
        match t {
            Ty::Int | Ty::Ref => TypeExpr::Int(span),
            Ty::Bool => TypeExpr::Bool(span),
            Ty::Class(c) => TypeExpr::Class(Ident { name: hl_name(c), span }),
        }
    }

    /// The type of a slot; `None` when nothing determined a class or primitive.
    fn final_type(&mut self, s: usize) -> Option<Ty> {
        self.resolved(s).filter(|t| *t != Ty::Ref)
    }

    fn class_decl(&mut self, i: usize) -> ClassDecl {
        let span = self.classes[i].span;
        let declared = self.classes[i].declared;
        let slots: Vec<(Option<String>, usize)> =
            self.classes[i].fields.iter().flatten().map(|f| (f.name.clone(), f.slot)).collect();
        let mut names: Vec<String> = Vec::new();
        for (k, (name, _)) in slots.iter().enumerate() {
            let chosen = match name {
                Some(n) => hl_name(n),
                None => self.field_name_from_uses(i, k, &names),
            };
            names.push(chosen);
        }
        self.classes[i].names = names.clone();
        let mut fields = Vec::new();
        let mut unresolved = self.classes[i].defaulted;
        for ((_, slot), name) in slots.iter().zip(&names) {
            let ty = match self.final_type(*slot) {
                Some(t) => Self::type_expr(&t, span),
                None => {
                    unresolved = true;
                    TypeExpr::Int(span)
                }
            };
            fields.push(FieldDecl { ty, name: Ident { name: name.clone(), span }, span });
        }
        let decl = ClassDecl {
            name: Ident { name: hl_name(&self.classes[i].name), span },
            fields,
            methods: Vec::new(),
            span,
        };
        if !declared {
            let shown: Vec<String> = decl
                .fields
                .iter()
                .map(|f| format!("{} {};", crate::pretty::type_expr(&f.ty), f.name.name))
                .collect();
            let mut d = Diagnostic::warning(
                span,
                format!(
                    "no `data` declaration for `{}`; assumed `data {} {{{}}}` from its uses",
                    self.classes[i].name,
                    self.classes[i].name,
                    if shown.is_empty() { String::new() } else { format!(" {} ", shown.join(" ")) }
                ),
            )
            .with_note("add a `data` declaration to choose the field names and types");
            if unresolved {
                d = d.with_note("fields whose type nothing determines are assumed to be `int`");
            }
            self.diags.push(d);
        }
        decl
    }

    /// Names field `k` of an undeclared class after the variables its points-to atoms write at
    /// that position: preferably one that is not a predicate parameter; `f1`, `f2`, … otherwise.
    fn field_name_from_uses(&self, class: usize, k: usize, taken: &[String]) -> String {
        let uses = &self.classes[class].uses;
        for allow_params in [false, true] {
            for u in uses {
                if let Some(Some((name, is_param))) = u.get(k) {
                    let name = hl_name(name);
                    if (allow_params || !is_param) && !taken.contains(&name) {
                        return name;
                    }
                }
            }
        }
        let mut n = k + 1;
        while taken.contains(&format!("f{n}")) {
            n += 100;
        }
        format!("f{n}")
    }

    fn pred_decl(
        &mut self,
        name: &(String, Span),
        params: &[JParam],
        body: &[JDisj],
        scopes: Vec<Scope>,
        span: Span,
    ) -> PredicateDecl {
        let slots = self.preds.get(&name.0).map(|s| s.slots.clone()).unwrap_or_default();
        let mut hl_params = Vec::new();
        for (p, &s) in params.iter().zip(&slots) {
            let ty = match self.resolved(s) {
                Some(Ty::Ref) | None => {
                    let is_ref = self.resolved(s) == Some(Ty::Ref);
                    let mut d = Diagnostic::error(
                        p.span,
                        format!("cannot infer the type of parameter `{}` of `{}`", p.name, name.0),
                    );
                    if is_ref {
                        d = d.with_note("it is compared with `null`, but no points-to or predicate argument says which data type it is");
                    }
                    d = d.with_note(format!(
                        "annotate it in the header: `pred {}(Node {}, ...)`",
                        name.0, p.name
                    ));
                    self.diags.push(d);
                    TypeExpr::Int(p.span)
                }
                Some(t) => Self::type_expr(&t, p.span),
            };
            hl_params.push(Param { ty, name: Ident { name: hl_name(&p.name), span: p.span } });
        }
        let mut disjuncts = Vec::new();
        for (d, scope) in body.iter().zip(scopes) {
            disjuncts.push(self.heap(d, &scope, &name.0));
        }
        if disjuncts.is_empty() {
            let f = self.expr(ExprKind::Bool(false), span);
            disjuncts.push(SymbolicHeap { exists: Vec::new(), atoms: vec![Atom::Pure(f)], span });
        }
        PredicateDecl {
            name: Ident { name: hl_name(&name.0), span: name.1 },
            params: hl_params,
            body: Formula { disjuncts, span },
            span,
        }
    }

    fn heap(&mut self, d: &JDisj, scope: &Scope, owner: &str) -> SymbolicHeap {
        let mut exists = Vec::new();
        for (name, slot, span) in &scope.locals {
            let ty = match self.final_type(*slot) {
                Some(t) => Self::type_expr(&t, *span),
                None => {
                    self.diags.push(
                        Diagnostic::error(
                            *span,
                            format!("cannot infer the type of `{name}` in `{owner}`"),
                        )
                        .with_note("use it in a points-to, a comparison with a number, or as an argument whose type is known"),
                    );
                    TypeExpr::Int(*span)
                }
            };
            exists.push(Param { ty, name: Ident { name: hl_name(name), span: *span } });
        }
        let mut fresh = 0;
        let atoms = self.atoms(&d.atoms, scope, &mut fresh);
        SymbolicHeap { exists, atoms, span: d.span }
    }

    fn atoms(&mut self, atoms: &[JAtom], scope: &Scope, fresh: &mut usize) -> Vec<Atom> {
        let mut out = Vec::new();
        for a in atoms {
            let atom = match a {
                JAtom::Emp(s) => Atom::Emp(*s),
                JAtom::Bool(b, s) => Atom::Pure(self.expr(ExprKind::Bool(*b), *s)),
                JAtom::PointsTo { ptr, class, args, span } => {
                    let pointer = self.term(ptr, scope, false);
                    let ci = self.class_index.get(&class.0).copied();
                    let names = ci.map(|ci| self.classes[ci].names.clone()).unwrap_or_default();
                    let mut fields = Vec::new();
                    for (arg, fname) in args.iter().zip(&names) {
                        let value = self.term(arg, scope, true);
                        fields.push(FieldInit {
                            field: Ident { name: fname.clone(), span: arg.span() },
                            value,
                        });
                    }
                    Atom::PointsTo {
                        pointer,
                        class: Ident { name: hl_name(&class.0), span: class.1 },
                        fields,
                        span: *span,
                    }
                }
                JAtom::Pred { name, args, span } => {
                    let args = args.iter().map(|t| self.top_term(t, scope, fresh)).collect();
                    Atom::Pred {
                        name: Ident { name: hl_name(&name.0), span: name.1 },
                        args,
                        span: *span,
                    }
                }
                JAtom::Cmp { op, lhs, rhs, span } => {
                    let mut l = self.top_term(lhs, scope, fresh);
                    let mut r = self.top_term(rhs, scope, fresh);
                    if matches!(op, BinOp::Eq | BinOp::Ne) {
                        self.bool_literal(lhs, &mut r, scope);
                        self.bool_literal(rhs, &mut l, scope);
                    }
                    let kind = ExprKind::Binary { op: *op, lhs: Box::new(l), rhs: Box::new(r) };
                    Atom::Pure(self.expr(kind, *span))
                }
            };
            out.push(atom);
        }
        out
    }

    /// `color = 1` with a `bool` `color`: JSF writes booleans as 0/1.
    fn bool_literal(&mut self, var: &JTerm, lit: &mut Expr, scope: &Scope) {
        let (JTerm::Var(name, _), ExprKind::Int(n @ (0 | 1))) = (var, &lit.kind) else {
            return;
        };
        let Some(&slot) = scope.vars.get(name) else { return };
        if self.resolved(slot) == Some(Ty::Bool) {
            lit.kind = ExprKind::Bool(*n == 1);
        }
    }

    /// A predicate argument or a side of a comparison: a `_` there is a fresh existential.
    fn top_term(&mut self, t: &JTerm, scope: &Scope, fresh: &mut usize) -> Expr {
        if let JTerm::Wild(span) = t {
            *fresh += 1;
            return self
                .expr(ExprKind::Var(Ident { name: format!("_{fresh}"), span: *span }), *span);
        }
        self.term(t, scope, false)
    }

    fn term(&mut self, t: &JTerm, scope: &Scope, in_points_to: bool) -> Expr {
        let kind = match t {
            JTerm::Var(name, span) => {
                if scope.in_pre && name.starts_with("this_") && name.len() > 5 {
                    let this = self.expr(ExprKind::This, *span);
                    ExprKind::Field {
                        object: Box::new(this),
                        field: Ident { name: hl_name(&name[5..]), span: *span },
                    }
                } else {
                    ExprKind::Var(Ident { name: hl_name(name), span: *span })
                }
            }
            JTerm::Int(n, _) => ExprKind::Int(*n),
            JTerm::Null(_) => ExprKind::Null,
            JTerm::Bool(b, _) => ExprKind::Bool(*b),
            JTerm::Wild(span) => {
                let _ = span;
                if in_points_to {
                    ExprKind::Wildcard
                } else {
                    // Reported when the constraints were collected.
                    ExprKind::Int(0)
                }
            }
            JTerm::Neg(inner, _) => {
                let operand = self.term(inner, scope, false);
                ExprKind::Unary { op: UnOp::Neg, operand: Box::new(operand) }
            }
            JTerm::Bin(op, l, r, _) => {
                let lhs = self.term(l, scope, false);
                let rhs = self.term(r, scope, false);
                ExprKind::Binary { op: *op, lhs: Box::new(lhs), rhs: Box::new(rhs) }
            }
        };
        self.expr(kind, t.span())
    }

    fn precondition(
        &mut self,
        method: &(String, Span),
        body: &[JDisj],
        scope: &Scope,
        span: Span,
    ) -> Precondition {
        let mut free_vars = Vec::new();
        for (name, slot, vspan) in &scope.locals {
            let ty = match self.final_type(*slot) {
                Some(t) => Self::type_expr(&t, *vspan),
                None => {
                    self.diags.push(Diagnostic::warning(
                        *vspan,
                        format!(
                            "cannot infer the type of `{name}` in the precondition of `{}`; assuming `int`",
                            method.0
                        ),
                    ));
                    TypeExpr::Int(*vspan)
                }
            };
            free_vars.push(Param { ty, name: Ident { name: hl_name(name), span: *vspan } });
        }
        let mut disjuncts = Vec::new();
        let mut fresh = 0;
        for d in body {
            let atoms = self.atoms(&d.atoms, scope, &mut fresh);
            disjuncts.push(SymbolicHeap { exists: Vec::new(), atoms, span: d.span });
        }
        Precondition {
            method: Ident { name: method.0.clone(), span: method.1 },
            formula: Formula { disjuncts, span },
            free_vars,
            span,
        }
    }
}
