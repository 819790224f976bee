//! The parser: a hand-written recursive descent over the token vector of [`crate::lexer`], with
//! precedence climbing for binary operators. The grammar is `docs/language.md`.
//!
//! Why hand-written: students' programs are half-typed most of the time, and we want every
//! syntax error in one go with a message that says what to do. So parsing never fails: each
//! function returns `Err(Reported)` after pushing a diagnostic, and the statement, member and
//! item loops skip to a synchronisation point (`;`, `}`, the next item) and carry on. A missing
//! `;` is reported at the end of the previous token and then treated as if it were there, so it
//! yields exactly one diagnostic.
//!
//! Invariants: no input panics or hangs (every loop consumes a token or exits; nesting is capped
//! at [`MAX_DEPTH`]); `NodeId`s are unique per parse and increase in parse order (a statement
//! gets its id when it starts, an expression when it is complete).

use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::lexer::{lex, Token, TokenKind, COMPOUND_OPS, MAX_LITERAL};
use crate::span::Span;

/// Parses a whole file. Always returns a program; syntax errors are in the diagnostics.
pub fn parse_program(text: &str) -> (Program, Vec<Diagnostic>) {
    let mut p = Parser::new(text, 0);
    let program = p.program();
    (program, p.diags)
}

/// The first `NodeId` of standalone expressions and formulas (`--call`, `--formula`), far above
/// any program's ids so the two never collide.
pub const STANDALONE_ID_BASE: u32 = 1_000_000_000;

/// Parses one expression (the whole text). Ids start at [`STANDALONE_ID_BASE`].
pub fn parse_expr(text: &str) -> (Option<Expr>, Vec<Diagnostic>) {
    parse_expr_with_base(text, STANDALONE_ID_BASE)
}

/// Parses one expression whose `NodeId`s start at `base`.
pub fn parse_expr_with_base(text: &str, base: u32) -> (Option<Expr>, Vec<Diagnostic>) {
    let mut p = Parser::new(text, base);
    let e = p.expr().ok();
    let e = e.filter(|_| p.expect_end("expression"));
    (e, p.diags)
}

/// Parses one separation-logic formula (the whole text). Ids start at [`STANDALONE_ID_BASE`].
pub fn parse_formula(text: &str) -> (Option<Formula>, Vec<Diagnostic>) {
    parse_formula_with_base(text, STANDALONE_ID_BASE)
}

/// Parses one formula whose `NodeId`s start at `base`.
pub fn parse_formula_with_base(text: &str, base: u32) -> (Option<Formula>, Vec<Diagnostic>) {
    let mut p = Parser::new(text, base);
    let f = p.formula().ok();
    let f = f.filter(|_| p.expect_end("formula"));
    (f, p.diags)
}

/// How deeply expressions, formulas and statements may nest before the parser gives up on that
/// construct (with the diagnostic "expression nested too deeply", or "block ..."), so no input overflows the
/// stack. One level costs up to ~9 KiB of stack in a debug build, so 128 levels fit easily in a
/// 2 MiB test thread and in the 1 MiB stack of wasm (where frames are much smaller).
pub const MAX_DEPTH: u32 = 128;

/// The marker of an error that has already been reported.
#[derive(Debug)]
struct Reported;

type PResult<T> = Result<T, Reported>;

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    diags: Vec<Diagnostic>,
    next_id: u32,
    depth: u32,
    /// In a formula atom, `*` is the separating conjunction unless its left operand is an
    /// integer literal. Cleared inside parentheses, argument lists and braces.
    star_separates: bool,
    /// Inside a formula: nothing there is run, and its integers are mathematical, so a chain of
    /// `+`, `&&` or `||` means the same however it is grouped.
    in_formula: bool,
    /// Counts consumed tokens that only make sense in a formula (`->`, `emp`, `exists`, `|`,
    /// separating `*`, `&`), to decide whether a parenthesized atom was really a formula.
    formula_tokens: u32,
    /// Spans of the lexer's diagnostics (skipped characters, bad literals).
    lex_errors: Vec<Span>,
    /// The names declared with `pred` anywhere in the text: a bare call of one in an `ensures`
    /// is a predicate instance, so that clause is a formula.
    pred_names: std::collections::HashSet<String>,
}

use TokenKind as T;

impl<'a> Parser<'a> {
    fn new(text: &'a str, base: u32) -> Parser<'a> {
        let (tokens, diags) = lex(text);
        let lex_errors = diags.iter().map(|d| d.span).collect();
        let pred_names = tokens
            .windows(2)
            .filter(|w| w[0].kind == T::Pred && w[1].kind == T::Ident)
            .filter_map(|w| text.get(w[1].span.start as usize..w[1].span.end as usize))
            .map(str::to_string)
            .collect();
        Parser {
            pred_names,
            lex_errors,
            text,
            tokens,
            pos: 0,
            diags,
            next_id: base,
            depth: 0,
            star_separates: false,
            in_formula: false,
            formula_tokens: 0,
        }
    }

    // ---- Token access -------------------------------------------------------------------

    fn token(&self) -> Token {
        self.nth_token(0)
    }

    fn nth_token(&self, n: usize) -> Token {
        let eof =
            Token { kind: T::Eof, span: Span::new(self.text.len(), self.text.len()), value: 0 };
        self.tokens.get(self.pos + n).or(self.tokens.last()).copied().unwrap_or(eof)
    }

    fn peek(&self) -> TokenKind {
        self.token().kind
    }

    fn peek_at(&self, n: usize) -> TokenKind {
        self.nth_token(n).kind
    }

    fn at(&self, kind: TokenKind) -> bool {
        self.peek() == kind
    }

    /// Consumes the current token (never moves past `Eof`).
    fn bump(&mut self) -> Token {
        let tok = self.token();
        if tok.kind != T::Eof {
            self.pos += 1;
        }
        tok
    }

    fn eat(&mut self, kind: TokenKind) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn start(&self) -> u32 {
        self.token().span.start
    }

    /// End of the last consumed token (0 at the start).
    fn prev_end(&self) -> u32 {
        match self.pos.checked_sub(1).and_then(|i| self.tokens.get(i)) {
            Some(t) => t.span.end,
            None => 0,
        }
    }

    fn span_from(&self, start: u32) -> Span {
        Span { start, end: self.prev_end().max(start) }
    }

    fn slice(&self, span: Span) -> &'a str {
        self.text.get(span.start as usize..span.end as usize).unwrap_or("")
    }

    /// The current token as a message names it: "`}`", "`foo`", "end of file".
    fn found(&self) -> String {
        let tok = self.token();
        match tok.kind {
            T::Ident | T::Int => {
                let s = self.slice(tok.span);
                if s.chars().count() > 30 {
                    let short: String = s.chars().take(30).collect();
                    format!("`{short}...`")
                } else {
                    format!("`{s}`")
                }
            }
            kind => kind.describe().to_string(),
        }
    }

    /// Whether a newline separates the current token from the previous one.
    fn at_line_start(&self) -> bool {
        let start = self.start() as usize;
        let prev = self.prev_end() as usize;
        self.pos == 0 || self.text.get(prev..start).is_some_and(|gap| gap.contains('\n'))
    }

    // ---- Diagnostics ----------------------------------------------------------------------

    /// Records an error, unless one was already reported at the same place (one mistake, one
    /// message).
    fn error(&mut self, span: Span, message: impl Into<String>) -> Reported {
        let dup = self.diags.last().is_some_and(|d| d.span.start == span.start && d.is_error());
        // Characters the lexer skipped just before this token were already reported; the
        // parser's complaint about the gap they left would say the same thing twice.
        let gap = Span { start: self.prev_end(), end: self.start() };
        let skipped = self.lex_errors.iter().any(|s| gap.start <= s.start && s.end <= gap.end);
        if !dup && !skipped {
            self.diags.push(Diagnostic::error(span, message));
        }
        Reported
    }

    fn error_here(&mut self, message: impl Into<String>) -> Reported {
        let span = self.token().span;
        self.error(span, message)
    }

    fn expected(&mut self, what: &str) -> Reported {
        let msg = format!("expected {what}, found {}", self.found());
        self.error_here(msg)
    }

    fn expect(&mut self, kind: TokenKind) -> PResult<Token> {
        if self.at(kind) {
            Ok(self.bump())
        } else {
            Err(self.expected(kind.describe()))
        }
    }

    /// Expects a `;`. When it is missing, the error points just after the previous token (the
    /// line where the `;` belongs), and parsing goes on as if it were there when the next token
    /// can begin something new; otherwise the caller skips ahead.
    fn expect_semi(&mut self) -> PResult<()> {
        if self.eat(T::Semi) {
            return Ok(());
        }
        let end = self.prev_end();
        let msg = format!("expected `;`, found {}", self.found());
        self.error(Span { start: end, end }, msg);
        if can_start_stmt(self.peek())
            || matches!(self.peek(), T::RBrace | T::Eof | T::Class | T::Pred | T::Test | T::Pure)
        {
            Ok(())
        } else {
            Err(Reported)
        }
    }

    fn expect_end(&mut self, what: &str) -> bool {
        if self.at(T::Eof) {
            true
        } else {
            let msg = format!("unexpected {} after the {what}", self.found());
            self.error_here(msg);
            false
        }
    }

    fn ident(&mut self, what: &str) -> PResult<Ident> {
        if self.at(T::Ident) {
            let tok = self.bump();
            Ok(Ident { name: self.slice(tok.span).to_string(), span: tok.span })
        } else {
            Err(self.expected(what))
        }
    }

    fn new_id(&mut self) -> NodeId {
        let id = NodeId(self.next_id);
        self.next_id = self.next_id.wrapping_add(1);
        id
    }

    fn enter(&mut self, what: &str) -> PResult<()> {
        if self.depth >= MAX_DEPTH {
            let msg = format!("{what} nested too deeply");
            return Err(self.error_here(msg));
        }
        self.depth += 1;
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn with_star_mode<R>(&mut self, separates: bool, f: impl FnOnce(&mut Self) -> R) -> R {
        let old = self.star_separates;
        self.star_separates = separates;
        let res = f(self);
        self.star_separates = old;
        res
    }

    // ---- Recovery -------------------------------------------------------------------------

    /// After an error in a statement or class member: skips to just after the next `;`, or to
    /// the next `}` of the enclosing block (not consumed), or past a `{ ... }` skipped whole.
    fn recover_stmt(&mut self) {
        let mut depth = 0u32;
        loop {
            match self.peek() {
                T::Eof => return,
                T::Semi if depth == 0 => {
                    self.bump();
                    return;
                }
                T::RBrace if depth == 0 => return,
                T::Class | T::Pred | T::Test | T::Pure if depth == 0 => return,
                T::LBrace | T::LParen => {
                    depth += 1;
                    self.bump();
                }
                kind @ (T::RBrace | T::RParen) => {
                    depth = depth.saturating_sub(1);
                    self.bump();
                    if kind == T::RBrace && depth == 0 {
                        return;
                    }
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// After an error at item level: skips to the next `class`, `pred`, `test`, `pure`, or a
    /// `type IDENT` at the start of a line outside braces.
    fn recover_item(&mut self) {
        let mut depth = 0u32;
        let start = self.pos;
        loop {
            let kind = self.peek();
            let moved = self.pos > start;
            match kind {
                T::Eof => return,
                T::Class | T::Pred | T::Test | T::Pure if moved => return,
                T::IntKw | T::BoolKw | T::Void | T::Ident
                    if moved
                        && depth == 0
                        && self.peek_at(1) == T::Ident
                        && self.at_line_start() =>
                {
                    return
                }
                T::LBrace => depth += 1,
                T::RBrace => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.bump();
        }
    }

    // ---- Items ----------------------------------------------------------------------------

    fn program(&mut self) -> Program {
        let mut items = Vec::new();
        let mut ints: Option<Ints> = None;
        while !self.at(T::Eof) {
            let before = self.pos;
            if self.at_ints_decl() {
                self.ints_decl(&mut ints);
                continue;
            }
            match self.item() {
                Ok(item) => items.push(item),
                Err(Reported) => self.recover_item(),
            }
            if self.pos == before {
                self.bump();
            }
        }
        self.builtin_object(&mut items);
        self.builtin_order(&mut items);
        Program { items, ints: ints.unwrap_or_default() }
    }

    /// `Object`, the type of unconstrained elements (Java's `java.lang.Object`: no fields, only
    /// identity), is declared for a program that names it without declaring it: a `class Object
    /// {}` is appended, with an empty span at the end of the file, so every later pass treats it
    /// as an ordinary class (lazy initialization lets `Object` references alias, `==` compares
    /// identities) and the pretty-printer shows it.
    fn builtin_object(&mut self, items: &mut Vec<Item>) {
        let named = |t: &Token| t.kind == T::Ident && self.slice(t.span) == "Object";
        let declared = items.iter().any(|i| matches!(i, Item::Class(c) if c.name.name == "Object"));
        if declared || !self.tokens.iter().any(named) {
            return;
        }
        let end = self.tokens.last().map_or(0, |t| t.span.end);
        let span = Span { start: end, end };
        items.push(Item::Class(ClassDecl {
            name: Ident { name: "Object".to_string(), span },
            fields: Vec::new(),
            methods: Vec::new(),
            span,
        }));
    }

    /// `Comparable` and `Comparator` (Kiasan's elements that compare, see [`crate::builtin`]) are
    /// declared together for a program that names either without declaring it, as `Object` is.
    fn builtin_order(&mut self, items: &mut Vec<Item>) {
        use crate::builtin::{COMPARABLE, COMPARATOR};
        let named =
            |t: &Token| t.kind == T::Ident && matches!(self.slice(t.span), COMPARABLE | COMPARATOR);
        let declared = items.iter().any(
            |i| matches!(i, Item::Class(c) if c.name.name == COMPARABLE || c.name.name == COMPARATOR),
        );
        if declared || !self.tokens.iter().any(named) {
            return;
        }
        let end = self.tokens.last().map_or(0, |t| t.span.end);
        let span = Span { start: end, end };
        let classes = crate::builtin::order_classes(span, &mut || self.new_id());
        items.extend(classes.into_iter().map(Item::Class));
    }

    /// `ints MODE;` at top level (`ints` is not a keyword: only this shape is the declaration).
    fn at_ints_decl(&self) -> bool {
        self.at(T::Ident)
            && self.slice(self.token().span) == "ints"
            && self.peek_at(1) == T::Ident
            && self.peek_at(2) == T::Semi
    }

    fn ints_decl(&mut self, ints: &mut Option<Ints>) {
        let start = self.start();
        self.bump();
        let mode = self.bump();
        self.bump();
        let word = self.slice(mode.span);
        match Ints::from_keyword(word) {
            Some(_) if ints.is_some() => {
                self.error(self.span_from(start), "the integer semantics is declared twice");
            }
            Some(m) => *ints = Some(m),
            None => {
                let known: Vec<String> =
                    Ints::ALL.iter().map(|i| format!("`{}`", i.keyword())).collect();
                let msg = format!(
                    "unknown integer semantics `{word}`; expected one of {}",
                    known.join(", ")
                );
                self.error(mode.span, msg);
            }
        }
    }

    fn item(&mut self) -> PResult<Item> {
        match self.peek() {
            T::Class => self.class().map(Item::Class),
            T::Pred => self.predicate().map(Item::Predicate),
            T::Test => self.test().map(Item::Test),
            T::Pure | T::IntKw | T::BoolKw | T::Void | T::Ident => {
                let start = self.start();
                let is_pure = self.eat(T::Pure);
                let ty = self.ty()?;
                let name = self.ident("a function name")?;
                self.function_rest(start, is_pure, ty, name).map(Item::Function)
            }
            _ => Err(self.expected("`class`, `pred`, `test` or a function")),
        }
    }

    fn class(&mut self) -> PResult<ClassDecl> {
        let start = self.start();
        self.expect(T::Class)?;
        let name = self.ident("a class name")?;
        self.expect(T::LBrace)?;
        let mut fields = Vec::new();
        let mut methods = Vec::new();
        loop {
            match self.peek() {
                T::RBrace => {
                    self.bump();
                    break;
                }
                T::Eof | T::Class | T::Pred | T::Test => {
                    let msg = format!(
                        "expected `}}` to close class `{}`, found {}",
                        name.name,
                        self.found()
                    );
                    self.error_here(msg);
                    break;
                }
                _ => {
                    let before = self.pos;
                    if self.member(&mut fields, &mut methods).is_err() {
                        self.recover_stmt();
                    }
                    if self.pos == before && !self.at(T::RBrace) {
                        self.bump();
                    }
                }
            }
        }
        Ok(ClassDecl { name, fields, methods, span: self.span_from(start) })
    }

    fn member(
        &mut self,
        fields: &mut Vec<FieldDecl>,
        methods: &mut Vec<FunctionDecl>,
    ) -> PResult<()> {
        let start = self.start();
        let pure_span = self.token().span;
        let is_pure = self.eat(T::Pure);
        if !is_pure && !matches!(self.peek(), T::IntKw | T::BoolKw | T::Void | T::Ident) {
            return Err(self.expected("a field or method declaration"));
        }
        let ty = self.ty()?;
        let name = self.ident("a field or method name")?;
        if self.at(T::LParen) {
            methods.push(self.function_rest(start, is_pure, ty, name)?);
            return Ok(());
        }
        if is_pure {
            self.error(pure_span, "`pure` applies only to functions, not to fields");
        }
        fields.push(FieldDecl { ty: ty.clone(), name: name.clone(), span: self.span_from(start) });
        while self.eat(T::Comma) {
            let fstart = self.start();
            let name = self.ident("a field name")?;
            fields.push(FieldDecl { ty: ty.clone(), name, span: self.span_from(fstart) });
        }
        self.expect_semi()
    }

    fn function_rest(
        &mut self,
        start: u32,
        is_pure: bool,
        return_type: TypeExpr,
        name: Ident,
    ) -> PResult<FunctionDecl> {
        let params = self.params()?;
        let mut requires = Vec::new();
        let mut ensures = Vec::new();
        let mut ensures_formulas = Vec::new();
        loop {
            if self.eat(T::Requires) {
                requires.push(self.formula()?);
            } else if self.eat(T::Ensures) {
                match self.ensures_clause()? {
                    Ok(e) => ensures.push(e),
                    Err(f) => {
                        let (f, with_old) = f.split_old();
                        ensures_formulas.extend(f);
                        ensures.extend(with_old);
                    }
                }
            } else {
                break;
            }
        }
        if !self.at(T::LBrace) {
            return Err(self.expected("`{` to start the function body"));
        }
        let body = self.block()?;
        Ok(FunctionDecl {
            is_pure,
            return_type,
            name,
            params,
            requires,
            ensures,
            ensures_formulas,
            body,
            span: self.span_from(start),
        })
    }

    /// An `ensures` clause: an expression (`Ok`), or a formula (`Err`) when it is one — a bare
    /// instance of a predicate of the file (`ensures bst(this.root, lo, hi)`), or text that is
    /// no expression (`exists …`, a points-to, `*` between heap parts).
    fn ensures_clause(&mut self) -> PResult<Result<Expr, Formula>> {
        let saved = (self.pos, self.diags.len(), self.next_id, self.formula_tokens);
        let e = self.expr();
        let ends = matches!(self.token().kind, T::Requires | T::Ensures | T::LBrace | T::Eof);
        if let (Ok(e), true, true) = (&e, ends, self.diags.len() == saved.1) {
            if let ExprKind::Call { callee, args } = &e.kind {
                if self.pred_names.contains(&callee.name) {
                    let atom =
                        Atom::Pred { name: callee.clone(), args: args.clone(), span: e.span };
                    let heap = SymbolicHeap { exists: Vec::new(), atoms: vec![atom], span: e.span };
                    return Ok(Err(Formula { disjuncts: vec![heap], span: e.span }));
                }
            }
        }
        if e.is_ok() && ends && self.diags.len() == saved.1 {
            return e.map(Ok);
        }
        self.pos = saved.0;
        self.diags.truncate(saved.1);
        self.next_id = saved.2;
        self.formula_tokens = saved.3;
        self.formula().map(Err)
    }

    fn params(&mut self) -> PResult<Vec<Param>> {
        self.expect(T::LParen)?;
        let mut params = Vec::new();
        if self.eat(T::RParen) {
            return Ok(params);
        }
        loop {
            params.push(self.param()?);
            if !self.eat(T::Comma) {
                break;
            }
        }
        if !self.at(T::RParen) {
            return Err(self.expected("`,` or `)` in the parameter list"));
        }
        self.bump();
        Ok(params)
    }

    fn param(&mut self) -> PResult<Param> {
        let ty = self.ty()?;
        let name = self.ident("a parameter name")?;
        Ok(Param { ty, name })
    }

    fn ty(&mut self) -> PResult<TypeExpr> {
        let tok = self.token();
        let ty = match tok.kind {
            T::IntKw => TypeExpr::Int(tok.span),
            T::BoolKw => TypeExpr::Bool(tok.span),
            T::Void => TypeExpr::Void(tok.span),
            T::Ident => {
                TypeExpr::Class(Ident { name: self.slice(tok.span).to_string(), span: tok.span })
            }
            _ => return Err(self.expected("a type")),
        };
        self.bump();
        self.array_suffix(ty)
    }

    /// `T` followed by any number of `[]`: each makes an array type.
    fn array_suffix(&mut self, mut ty: TypeExpr) -> PResult<TypeExpr> {
        while self.at(T::LBracket) && self.peek_at(1) == T::RBracket {
            self.bump();
            self.bump();
            let span = self.span_from(ty.span().start);
            if matches!(ty, TypeExpr::Void(_)) {
                return Err(self.error(
                    span,
                    "`void[]` is not a type: arrays hold `int`, `bool` or references",
                ));
            }
            ty = TypeExpr::Array { elem: Box::new(ty), span };
        }
        Ok(ty)
    }

    /// `T x` (a local declaration) starts here: a type name then a name, or `T[]`.
    fn at_local_decl(&self) -> bool {
        match self.peek() {
            T::IntKw | T::BoolKw => true,
            T::Ident => {
                self.peek_at(1) == T::Ident
                    || (self.peek_at(1) == T::LBracket && self.peek_at(2) == T::RBracket)
            }
            _ => false,
        }
    }

    fn predicate(&mut self) -> PResult<PredicateDecl> {
        let start = self.start();
        self.expect(T::Pred)?;
        let name = self.ident("a predicate name")?;
        let params = self.params()?;
        if !self.at(T::ColonEq) {
            return Err(self.expected("`:=` before the predicate body"));
        }
        self.bump();
        let body = self.formula()?;
        self.expect_semi()?;
        Ok(PredicateDecl { name, params, body, span: self.span_from(start) })
    }

    fn test(&mut self) -> PResult<TestDecl> {
        let start = self.start();
        self.expect(T::Test)?;
        let name = self.ident("a test name")?;
        let mut expect = Expectation::Pass;
        let mut bug = false;
        if self.eat(T::Expects) {
            let mut kind = self.ident("an error kind after `expects`")?;
            // `bug` is contextual (no keyword): it can still name variables elsewhere.
            if kind.name == "bug" && !self.at(T::LBrace) {
                bug = true;
                kind = self.ident("an error kind after `expects bug`")?;
            }
            match ErrorKind::from_keyword(&kind.name) {
                Some(k) => expect = Expectation::Error(k),
                None => {
                    let all: Vec<String> =
                        ErrorKind::ALL.iter().map(|k| format!("`{}`", k.keyword())).collect();
                    let msg = format!(
                        "unknown error kind `{}`; expected one of {}",
                        kind.name,
                        all.join(", ")
                    );
                    self.error(kind.span, msg);
                }
            }
        }
        if !self.at(T::LBrace) {
            return Err(self.expected("`{` to start the test body"));
        }
        let body = self.block()?;
        Ok(TestDecl { name, expect, bug, body, span: self.span_from(start) })
    }

    // ---- Statements -----------------------------------------------------------------------

    fn block(&mut self) -> PResult<Block> {
        let start = self.start();
        self.expect(T::LBrace)?;
        let mut stmts = Vec::new();
        loop {
            match self.peek() {
                T::RBrace => {
                    self.bump();
                    break;
                }
                T::Eof | T::Class | T::Pred | T::Test | T::Pure => {
                    let msg = format!("expected `}}` to close the block, found {}", self.found());
                    self.error_here(msg);
                    break;
                }
                _ => {
                    let before = self.pos;
                    match self.stmt() {
                        Ok(s) => stmts.push(s),
                        Err(Reported) => self.recover_stmt(),
                    }
                    if self.pos == before && !self.at(T::RBrace) {
                        self.bump();
                    }
                }
            }
        }
        Ok(Block { stmts, span: self.span_from(start) })
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        self.enter("block")?;
        let res = self.stmt_inner();
        self.leave();
        res
    }

    fn stmt_inner(&mut self) -> PResult<Stmt> {
        let start = self.start();
        let id = self.new_id();
        let kind = match self.peek() {
            T::LBrace => StmtKind::Block(self.block()?),
            T::If => {
                self.bump();
                let cond = self.paren_cond("if")?;
                let then_branch = self.branch()?;
                let else_branch = if self.eat(T::Else) { Some(self.branch()?) } else { None };
                StmtKind::If { cond, then_branch, else_branch }
            }
            T::While => {
                self.bump();
                let cond = self.paren_cond("while")?;
                let body = self.branch()?;
                StmtKind::While { cond, body }
            }
            T::For => self.for_stmt(start)?,
            T::Return => {
                self.bump();
                let value = if self.at(T::Semi) || !can_start_expr(self.peek()) {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect_semi()?;
                StmtKind::Return(value)
            }
            T::Throw => {
                self.bump();
                let e = self.expr()?;
                self.expect_semi()?;
                StmtKind::Throw(e)
            }
            T::Try => self.try_stmt()?,
            T::Break => {
                self.bump();
                self.expect_semi()?;
                StmtKind::Break
            }
            T::Continue => {
                self.bump();
                self.expect_semi()?;
                StmtKind::Continue
            }
            T::Assert | T::Assume => {
                let is_assert = self.bump().kind == T::Assert;
                let e = self.expr()?;
                self.expect_semi()?;
                if is_assert {
                    StmtKind::Assert(e)
                } else {
                    StmtKind::Assume(e)
                }
            }
            T::Void => self.local()?,
            _ if self.at_local_decl() => self.local()?,
            kind if can_start_expr(kind) => {
                let kind = self.simple_stmt()?;
                self.expect_semi()?;
                kind
            }
            _ => return Err(self.expected("a statement")),
        };
        Ok(Stmt { id, kind, span: self.span_from(start) })
    }

    /// An expression statement, an assignment `x = e` / `e.f = e`, a compound assignment
    /// `x op= e`, or `x++` / `x--`, without its `;` (a `for` header reuses it).
    fn simple_stmt(&mut self) -> PResult<StmtKind> {
        let target = self.expr()?;
        let op = match self.peek() {
            T::PlusPlus | T::MinusMinus => {
                let tok = self.bump();
                let op = if tok.kind == T::PlusPlus { BinOp::Add } else { BinOp::Sub };
                let one = self.mk(ExprKind::Int(1), tok.span);
                return self.update(target, op, one);
            }
            T::CompoundAssign => {
                let tok = self.bump();
                let op = match COMPOUND_OPS.get(tok.value as usize).copied() {
                    Some("+") => BinOp::Add,
                    Some("-") => BinOp::Sub,
                    Some("*") => BinOp::Mul,
                    Some("/") => BinOp::Div,
                    Some("%") => BinOp::Mod,
                    Some("<<") => BinOp::Shl,
                    _ => BinOp::Shr,
                };
                Some(op)
            }
            T::Assign => {
                self.bump();
                None
            }
            _ => return Ok(StmtKind::Expr(target)),
        };
        let value = self.expr()?;
        match op {
            Some(op) => self.update(target, op, value),
            None => self.assign(target, value),
        }
    }

    /// `target = value` as a variable or field store.
    fn assign(&mut self, target: Expr, value: Expr) -> PResult<StmtKind> {
        match target.kind {
            ExprKind::Var(name) => Ok(StmtKind::Assign { target: name, value }),
            ExprKind::Field { object, field } => {
                Ok(StmtKind::FieldStore { object: *object, field, value })
            }
            ExprKind::Index { array, index } => {
                Ok(StmtKind::IndexStore { array: *array, index: *index, value })
            }
            _ => Err(self.error(
                target.span,
                "cannot assign to this expression: only a variable `x`, a field `e.f` or an array cell `a[i]` can be assigned",
            )),
        }
    }

    /// `target op= value` (and `target++`, `target--`) as the assignment
    /// `target = target op value`. The target is read once more; it is a variable or a field
    /// path, so reading it again has no effect of its own (a call in the path is rejected).
    fn update(&mut self, target: Expr, op: BinOp, value: Expr) -> PResult<StmtKind> {
        if !is_path(&target) {
            return Err(self.error(
                target.span,
                "cannot update this expression: `++`, `--` and `op=` apply to a variable `x`, a field path `e.f` or a cell `a[i]` (no call inside)",
            ));
        }
        let read = self.fresh_copy(&target);
        let span = target.span.to(value.span);
        let rhs = self.mk(ExprKind::Binary { op, lhs: Box::new(read), rhs: Box::new(value) }, span);
        self.assign(target, rhs)
    }

    /// A copy of a path expression with fresh node ids (ids stay unique per parse).
    fn fresh_copy(&mut self, e: &Expr) -> Expr {
        let kind = match &e.kind {
            ExprKind::Field { object, field } => {
                ExprKind::Field { object: Box::new(self.fresh_copy(object)), field: field.clone() }
            }
            ExprKind::Index { array, index } => ExprKind::Index {
                array: Box::new(self.fresh_copy(array)),
                index: Box::new(self.fresh_copy(index)),
            },
            ExprKind::Binary { op, lhs, rhs } => ExprKind::Binary {
                op: *op,
                lhs: Box::new(self.fresh_copy(lhs)),
                rhs: Box::new(self.fresh_copy(rhs)),
            },
            ExprKind::Unary { op, operand } => {
                ExprKind::Unary { op: *op, operand: Box::new(self.fresh_copy(operand)) }
            }
            other => other.clone(),
        };
        self.mk(kind, e.span)
    }

    /// `for (init; cond; update) body`, read as `{ init; while (cond) { body update } }`.
    /// `continue` directly in the body would skip the update, so it is rejected there.
    fn for_stmt(&mut self, start: u32) -> PResult<StmtKind> {
        self.bump();
        self.expect(T::LParen)?;
        let init_start = self.start();
        let init = if self.at(T::Semi) {
            None
        } else {
            let id = self.new_id();
            let kind =
                if self.at_local_decl() { self.local_no_semi()? } else { self.simple_stmt()? };
            Some(Stmt { id, kind, span: self.span_from(init_start) })
        };
        self.expect_semi()?;
        let cond = if self.at(T::Semi) {
            let span = self.token().span;
            self.mk(ExprKind::Bool(true), span)
        } else {
            self.with_star_mode(false, Self::expr)?
        };
        self.expect_semi()?;
        let update_start = self.start();
        let update = if self.at(T::RParen) {
            None
        } else {
            let id = self.new_id();
            let kind = self.simple_stmt()?;
            Some(Stmt { id, kind, span: self.span_from(update_start) })
        };
        if !self.at(T::RParen) {
            return Err(self.expected("`)` to close the `for` header"));
        }
        self.bump();
        let mut body = self.branch()?;
        if let Some(span) = first_continue(&body) {
            // Reported, but the loop parses fine: no recovery needed.
            self.error(
                span,
                "`continue` inside a `for` loop is not supported (it would skip the update): use a `while` loop",
            );
        }
        if let Some(update) = update {
            body.stmts.push(update);
        }
        let whole = self.span_from(start);
        let loop_stmt =
            Stmt { id: self.new_id(), kind: StmtKind::While { cond, body }, span: whole };
        let stmts = init.into_iter().chain(std::iter::once(loop_stmt)).collect();
        Ok(StmtKind::Block(Block { stmts, span: whole }))
    }

    fn local_no_semi(&mut self) -> PResult<StmtKind> {
        let ty = self.ty()?;
        let name = self.ident("a variable name")?;
        let init = if self.eat(T::Assign) { Some(self.expr()?) } else { None };
        Ok(StmtKind::Local { ty, name, init })
    }

    fn local(&mut self) -> PResult<StmtKind> {
        let kind = self.local_no_semi()?;
        self.expect_semi()?;
        Ok(kind)
    }

    fn paren_cond(&mut self, keyword: &str) -> PResult<Expr> {
        if !self.at(T::LParen) {
            return Err(self.expected(&format!("`(` after `{keyword}`")));
        }
        self.bump();
        let cond = self.with_star_mode(false, Self::expr)?;
        if !self.at(T::RParen) {
            return Err(self.expected("`)` to close the condition"));
        }
        self.bump();
        Ok(cond)
    }

    /// `try { … } catch (X e) { … } …` (at least one `catch`; each names one class).
    fn try_stmt(&mut self) -> PResult<StmtKind> {
        self.bump();
        let body = self.block()?;
        let mut catches = Vec::new();
        while self.at(T::Catch) {
            let start = self.start();
            self.bump();
            if !self.at(T::LParen) {
                return Err(self.expected("`(` after `catch`"));
            }
            self.bump();
            let class = self.ident("the exception class caught, as in `catch (X e)`")?;
            let name = self.ident("a name for the caught exception, as in `catch (X e)`")?;
            if !self.at(T::RParen) {
                return Err(self.expected("`)` to close the `catch` clause"));
            }
            self.bump();
            let body = self.block()?;
            catches.push(Catch { class, name, body, span: self.span_from(start) });
        }
        if catches.is_empty() {
            return Err(self.expected("`catch (X e) { … }` after the `try` block"));
        }
        Ok(StmtKind::Try { body, catches })
    }

    /// The body of `if`, `else` or `while`: a block, or one statement wrapped in a block.
    fn branch(&mut self) -> PResult<Block> {
        if self.at(T::LBrace) {
            return self.block();
        }
        let stmt = self.stmt()?;
        Ok(Block { span: stmt.span, stmts: vec![stmt] })
    }

    // ---- Expressions ----------------------------------------------------------------------

    fn expr(&mut self) -> PResult<Expr> {
        self.enter("expression")?;
        let res = self.ternary();
        self.leave();
        res
    }

    fn ternary(&mut self) -> PResult<Expr> {
        let cond = self.binary(1)?;
        if !self.at(T::Question) {
            return Ok(cond);
        }
        self.bump();
        let then_expr = self.expr()?;
        if !self.at(T::Colon) {
            return Err(self.expected("`:` in the conditional expression `c ? a : b`"));
        }
        self.bump();
        let else_expr = self.expr()?;
        let span = cond.span.to(else_expr.span);
        Ok(self.mk(
            ExprKind::Cond {
                cond: Box::new(cond),
                then_expr: Box::new(then_expr),
                else_expr: Box::new(else_expr),
            },
            span,
        ))
    }

    fn mk(&mut self, kind: ExprKind, span: Span) -> Expr {
        Expr { id: self.new_id(), kind, span }
    }

    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        // Each operator of a chain deepens the (left-leaning) tree by one, so it counts towards
        // the nesting limit like a parenthesis: later passes recurse over the tree.
        let outer = self.depth;
        let res = self.binary_chain(min_prec);
        self.depth = outer;
        res
    }

    fn binary_chain(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        loop {
            let kind = self.peek();
            let Some((op, prec)) = binop(kind) else { break };
            if prec < min_prec {
                break;
            }
            if kind == T::Star && self.star_separates && !is_int_literal(&lhs) {
                break;
            }
            if self.in_formula && matches!(op, BinOp::And | BinOp::Or | BinOp::Add) {
                lhs = self.balanced_chain(lhs, op, prec)?;
                continue;
            }
            self.enter("expression")?;
            self.bump();
            let rhs = self.binary(prec + 1)?;
            let span = lhs.span.to(rhs.span);
            lhs = self.mk(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span);
            if prec == REL_PREC && binop(self.peek()).is_some_and(|(_, p)| p == REL_PREC) {
                let msg = "comparisons cannot be chained: write `a < b && b < c`";
                return Err(self.error_here(msg));
            }
        }
        Ok(lhs)
    }

    /// A run `a op b op c …` of `+`, `&&` or `||` in a formula, where grouping does not change
    /// the meaning (nothing is evaluated left to right; integers are mathematical), built as a
    /// balanced tree. The nesting limit then counts its depth, the logarithm of its length: one
    /// level more each time the run doubles. (In program code a chain stays left-leaning, as
    /// Java evaluates it, and each operator counts one level.)
    fn balanced_chain(&mut self, first: Expr, op: BinOp, prec: u8) -> PResult<Expr> {
        let mut operands = vec![first];
        while binop(self.peek()).is_some_and(|(o, p)| o == op && p == prec) {
            if operands.len().is_power_of_two() {
                self.enter("expression")?;
            }
            self.bump();
            operands.push(self.binary(prec + 1)?);
        }
        Ok(self.balance(operands, op))
    }

    fn balance(&mut self, mut operands: Vec<Expr>, op: BinOp) -> Expr {
        if operands.len() == 1 {
            return operands.pop().expect("one operand");
        }
        let right = operands.split_off(operands.len() / 2);
        let (lhs, rhs) = (self.balance(operands, op), self.balance(right, op));
        let span = lhs.span.to(rhs.span);
        self.mk(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span)
    }

    fn unary(&mut self) -> PResult<Expr> {
        let op = match self.peek() {
            T::Bang => UnOp::Not,
            T::Minus => UnOp::Neg,
            _ => return self.postfix(),
        };
        let start = self.start();
        self.bump();
        // `-9223372036854775808` is the one literal whose magnitude alone does not fit.
        if op == UnOp::Neg && self.at(T::Int) && self.token().value == MAX_LITERAL {
            let tok = self.bump();
            return Ok(self.mk(ExprKind::Int(i64::MIN), Span { start, end: tok.span.end }));
        }
        self.enter("expression")?;
        let operand = self.unary();
        self.leave();
        let operand = operand?;
        let span = Span { start, end: operand.span.end };
        Ok(self.mk(ExprKind::Unary { op, operand: Box::new(operand) }, span))
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let outer = self.depth;
        let res = self.postfix_chain();
        self.depth = outer;
        res
    }

    fn postfix_chain(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        while self.at(T::Dot) || self.at(T::LBracket) {
            self.enter("expression")?;
            if self.eat(T::LBracket) {
                let index = self.with_star_mode(false, Self::expr)?;
                if !self.at(T::RBracket) {
                    return Err(self.expected("`]` to close the index"));
                }
                self.bump();
                let span = self.span_from(e.span.start);
                e = self.mk(ExprKind::Index { array: Box::new(e), index: Box::new(index) }, span);
                continue;
            }
            self.bump();
            let name = self.ident("a field or method name after `.`")?;
            if self.at(T::LParen) {
                let args = self.args()?;
                let span = self.span_from(e.span.start);
                e = self
                    .mk(ExprKind::MethodCall { receiver: Box::new(e), method: name, args }, span);
            } else {
                let span = e.span.to(name.span);
                e = self.mk(ExprKind::Field { object: Box::new(e), field: name }, span);
            }
        }
        Ok(e)
    }

    fn primary(&mut self) -> PResult<Expr> {
        let tok = self.token();
        let simple = match tok.kind {
            T::Int => {
                let value = match i64::try_from(tok.value) {
                    Ok(v) => v,
                    Err(_) => {
                        self.error(
                            tok.span,
                            "integer literal is too large: an `int` holds at most 9223372036854775807",
                        );
                        0
                    }
                };
                Some(ExprKind::Int(value))
            }
            T::True => Some(ExprKind::Bool(true)),
            T::False => Some(ExprKind::Bool(false)),
            T::Null => Some(ExprKind::Null),
            T::This => Some(ExprKind::This),
            T::Result => Some(ExprKind::Result),
            T::Underscore => Some(ExprKind::Wildcard),
            _ => None,
        };
        if let Some(kind) = simple {
            self.bump();
            return Ok(self.mk(kind, tok.span));
        }
        match tok.kind {
            T::Ident => {
                let name = self.ident("a name")?;
                if self.at(T::LParen) {
                    let args = self.args()?;
                    let span = self.span_from(tok.span.start);
                    Ok(self.mk(ExprKind::Call { callee: name, args }, span))
                } else {
                    Ok(self.mk(ExprKind::Var(name), tok.span))
                }
            }
            T::Old => {
                self.bump();
                self.expect(T::LParen)?;
                let inner = self.with_star_mode(false, Self::expr)?;
                self.expect(T::RParen)?;
                let span = self.span_from(tok.span.start);
                Ok(self.mk(ExprKind::Old(Box::new(inner)), span))
            }
            T::LParen => {
                self.bump();
                let mut inner = self.with_star_mode(false, Self::expr)?;
                if !self.at(T::RParen) {
                    return Err(self.expected("`)`"));
                }
                self.bump();
                inner.span = self.span_from(tok.span.start);
                Ok(inner)
            }
            T::New if self.new_array_ahead() => self.new_array(),
            T::New => {
                self.bump();
                let class = self.ident("a class name after `new`")?;
                // `new X()` (Java's spelling, no constructor arguments) is `new X`.
                if self.at(T::LParen) && self.peek_at(1) == T::RParen {
                    self.bump();
                    self.bump();
                }
                let fields = if self.at(T::LBrace) { self.field_inits()? } else { Vec::new() };
                let span = self.span_from(tok.span.start);
                Ok(self.mk(ExprKind::New { class, fields }, span))
            }
            _ => Err(self.expected("an expression")),
        }
    }

    /// `new int[`, `new bool[` or `new C[` is next.
    fn new_array_ahead(&self) -> bool {
        matches!(self.peek_at(1), T::IntKw | T::BoolKw | T::Ident) && self.peek_at(2) == T::LBracket
    }

    /// `new T[n]` or `new T[]{e, ...}` (the `new` is next).
    fn new_array(&mut self) -> PResult<Expr> {
        let start = self.start();
        self.bump();
        let tok = self.bump();
        let elem = match tok.kind {
            T::IntKw => TypeExpr::Int(tok.span),
            T::BoolKw => TypeExpr::Bool(tok.span),
            _ => TypeExpr::Class(Ident { name: self.slice(tok.span).to_string(), span: tok.span }),
        };
        self.expect(T::LBracket)?;
        if self.eat(T::RBracket) {
            if self.at(T::LBracket) {
                return Err(self.error_here("arrays of arrays are not supported"));
            }
            self.expect(T::LBrace)?;
            let elems = self.with_star_mode(false, |p| {
                let mut elems = Vec::new();
                if p.eat(T::RBrace) {
                    return Ok(elems);
                }
                loop {
                    elems.push(p.expr()?);
                    if !p.eat(T::Comma) {
                        break;
                    }
                }
                if !p.at(T::RBrace) {
                    return Err(p.expected("`,` or `}` in the array's elements"));
                }
                p.bump();
                Ok(elems)
            })?;
            let span = self.span_from(start);
            return Ok(self.mk(ExprKind::ArrayLit { elem, elems }, span));
        }
        let len = self.with_star_mode(false, Self::expr)?;
        if !self.at(T::RBracket) {
            return Err(self.expected("`]` after the array's length"));
        }
        self.bump();
        if self.at(T::LBracket) {
            return Err(self.error_here("arrays of arrays are not supported"));
        }
        let span = self.span_from(start);
        Ok(self.mk(ExprKind::NewArray { elem, len: Box::new(len) }, span))
    }

    fn args(&mut self) -> PResult<Vec<Expr>> {
        self.expect(T::LParen)?;
        self.with_star_mode(false, |p| {
            let mut args = Vec::new();
            if p.eat(T::RParen) {
                return Ok(args);
            }
            loop {
                args.push(p.expr()?);
                if !p.eat(T::Comma) {
                    break;
                }
            }
            if !p.at(T::RParen) {
                return Err(p.expected("`,` or `)` in the argument list"));
            }
            p.bump();
            Ok(args)
        })
    }

    /// `{ f: e, ... }` after `new C` or a points-to.
    fn field_inits(&mut self) -> PResult<Vec<FieldInit>> {
        self.expect(T::LBrace)?;
        self.with_star_mode(false, |p| {
            let mut fields = Vec::new();
            if p.eat(T::RBrace) {
                return Ok(fields);
            }
            loop {
                let field = p.ident("a field name")?;
                if !p.at(T::Colon) {
                    return Err(p.expected("`:` after the field name"));
                }
                p.bump();
                let value = p.expr()?;
                fields.push(FieldInit { field, value });
                if !p.eat(T::Comma) {
                    break;
                }
            }
            if !p.at(T::RBrace) {
                return Err(p.expected("`,` or `}` after a field value"));
            }
            p.bump();
            Ok(fields)
        })
    }

    // ---- Formulas -------------------------------------------------------------------------

    fn formula(&mut self) -> PResult<Formula> {
        let outer = self.in_formula;
        self.in_formula = true;
        let res = self.formula_inner();
        self.in_formula = outer;
        res
    }

    fn formula_inner(&mut self) -> PResult<Formula> {
        let start = self.start();
        let mut disjuncts = vec![self.heap()?];
        while self.at(T::Pipe) {
            self.bump();
            self.formula_tokens += 1;
            disjuncts.push(self.heap()?);
        }
        Ok(Formula { disjuncts, span: self.span_from(start) })
    }

    fn heap(&mut self) -> PResult<SymbolicHeap> {
        let start = self.start();
        let mut exists = Vec::new();
        if self.eat(T::Exists) {
            self.formula_tokens += 1;
            loop {
                exists.push(self.param()?);
                if !self.eat(T::Comma) {
                    break;
                }
            }
            if !self.at(T::Dot) {
                return Err(self.expected("`,` or `.` after the variables of `exists`"));
            }
            self.bump();
        }
        let mut atoms = Vec::new();
        self.atom(&mut atoms, &mut exists)?;
        while matches!(self.peek(), T::Star | T::Amp) {
            self.bump();
            self.formula_tokens += 1;
            self.atom(&mut atoms, &mut exists)?;
        }
        Ok(SymbolicHeap { exists, atoms, span: self.span_from(start) })
    }

    fn atom(&mut self, atoms: &mut Vec<Atom>, exists: &mut Vec<Param>) -> PResult<()> {
        self.enter("expression")?;
        let res = self.atom_inner(atoms, exists);
        self.leave();
        res
    }

    fn atom_inner(&mut self, atoms: &mut Vec<Atom>, exists: &mut Vec<Param>) -> PResult<()> {
        if self.at(T::Emp) {
            let tok = self.bump();
            self.formula_tokens += 1;
            atoms.push(Atom::Emp(tok.span));
            return Ok(());
        }
        if self.at(T::LParen) && self.paren_formula(atoms, exists)? {
            return Ok(());
        }
        let e = self.with_star_mode(true, Self::expr)?;
        if self.at(T::Arrow) {
            self.bump();
            self.formula_tokens += 1;
            let class = self.ident("a class name after `->`")?;
            if !self.at(T::LBrace) {
                return Err(self.expected("`{` after the class of a points-to"));
            }
            let fields = self.field_inits()?;
            let span = self.span_from(e.span.start);
            atoms.push(Atom::PointsTo { pointer: e, class, fields, span });
            return Ok(());
        }
        match e.kind {
            ExprKind::Call { callee, args } => {
                atoms.push(Atom::Pred { name: callee, args, span: e.span })
            }
            kind => atoms.push(Atom::Pure(Expr { kind, ..e })),
        }
        Ok(())
    }

    /// Tries `( formula )` as an atom. On success its single heap is spliced into the current
    /// one and `Ok(true)` is returned. If the parentheses turn out to open an ordinary
    /// expression (`(a + b) < c`), the parser is rewound and `Ok(false)` returned.
    fn paren_formula(&mut self, atoms: &mut Vec<Atom>, exists: &mut Vec<Param>) -> PResult<bool> {
        let saved = (self.pos, self.diags.len(), self.next_id, self.formula_tokens);
        let open = self.bump();
        let inner = self.formula();
        let closes = self.at(T::RParen)
            && matches!(
                self.peek_at(1),
                T::Star
                    | T::Amp
                    | T::Pipe
                    | T::RParen
                    | T::Semi
                    | T::Eof
                    | T::LBrace
                    | T::Requires
                    | T::Ensures
            );
        let clean = inner.is_ok() && self.diags.len() == saved.1 && closes;
        let committed = self.formula_tokens > saved.3;
        if !clean && !committed {
            self.pos = saved.0;
            self.diags.truncate(saved.1);
            self.next_id = saved.2;
            self.formula_tokens = saved.3;
            return Ok(false);
        }
        let inner = inner?;
        if !self.at(T::RParen) {
            return Err(self.expected("`)` to close the parenthesized formula"));
        }
        self.bump();
        if inner.disjuncts.len() > 1 {
            self.error(
                Span { start: open.span.start, end: self.prev_end() },
                "a parenthesized formula must be a single heap: `|` is only allowed at the top level",
            );
        }
        if let Some(heap) = inner.disjuncts.into_iter().next() {
            exists.extend(heap.exists);
            atoms.extend(heap.atoms);
        }
        Ok(true)
    }
}

const REL_PREC: u8 = 4;

/// Binary operators with their precedence (higher binds tighter).
fn binop(kind: TokenKind) -> Option<(BinOp, u8)> {
    Some(match kind {
        T::OrOr => (BinOp::Or, 1),
        T::AndAnd => (BinOp::And, 2),
        T::EqEq => (BinOp::Eq, 3),
        T::Ne => (BinOp::Ne, 3),
        T::Lt => (BinOp::Lt, REL_PREC),
        T::Le => (BinOp::Le, REL_PREC),
        T::Gt => (BinOp::Gt, REL_PREC),
        T::Ge => (BinOp::Ge, REL_PREC),
        T::Shl => (BinOp::Shl, 5),
        T::Shr => (BinOp::Shr, 5),
        T::Plus => (BinOp::Add, 6),
        T::Minus => (BinOp::Sub, 6),
        T::Star | T::Hash => (BinOp::Mul, 7),
        T::Slash => (BinOp::Div, 7),
        T::Percent => (BinOp::Mod, 7),
        _ => return None,
    })
}

/// A variable or a field path `x.f.g` (what `++`, `--` and `op=` may update).
fn is_path(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::This => true,
        ExprKind::Field { object, .. } => is_path(object),
        ExprKind::Index { array, index } => is_path(array) && is_plain_read(index),
        _ => false,
    }
}

/// An index expression that can be evaluated twice with the same result and no effect of its
/// own: variables, fields, cells, literals and arithmetic over them.
fn is_plain_read(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) => true,
        ExprKind::Binary { lhs, rhs, .. } => is_plain_read(lhs) && is_plain_read(rhs),
        ExprKind::Unary { operand, .. } => is_plain_read(operand),
        _ => is_path(e),
    }
}

/// The span of a `continue` in `block` that belongs to the enclosing loop (not to a nested
/// `while`).
fn first_continue(block: &Block) -> Option<Span> {
    block.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::Continue => Some(s.span),
        StmtKind::If { then_branch, else_branch, .. } => {
            first_continue(then_branch).or_else(|| else_branch.as_ref().and_then(first_continue))
        }
        StmtKind::Block(b) => first_continue(b),
        _ => None,
    })
}

fn is_int_literal(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Int(_))
}

fn can_start_expr(kind: TokenKind) -> bool {
    matches!(
        kind,
        T::Ident
            | T::Int
            | T::Underscore
            | T::True
            | T::False
            | T::Null
            | T::This
            | T::Result
            | T::Old
            | T::New
            | T::LParen
            | T::Bang
            | T::Minus
    )
}

fn can_start_stmt(kind: TokenKind) -> bool {
    can_start_expr(kind)
        || matches!(
            kind,
            T::IntKw
                | T::BoolKw
                | T::Void
                | T::If
                | T::While
                | T::For
                | T::Throw
                | T::Try
                | T::Return
                | T::Break
                | T::Continue
                | T::Assert
                | T::Assume
                | T::LBrace
        )
}
