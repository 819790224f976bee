//! JML-style specifications in comments: `//@ requires F;`, `//@ ensures E;`, the block form
//! `/*@ … @*/`, and `//@ pred p(T x, …) := F;`.
//!
//! The comment text is rewritten in place, keeping every byte offset (`\result` → ` result`,
//! `\old` → ` old`, `boolean` → `bool   `, the comment markers to spaces), and parsed by
//! heaplab-syntax's own formula and expression parser, so spans point into the Java file and
//! diagnostics show the Java line. Java names are then resolved: a bare field `f` is
//! `this.f`, a constant is its value, a method call names the lowered (possibly renamed
//! overload) method, class and type-parameter names are erased as in code.

use crate::decls::{Decls, Scope};
use crate::lower::{Const, FieldRef, Lowerer};
use crate::types::{erase, JType};
use heaplab_syntax::ast::*;
use heaplab_syntax::{Diagnostic, Span};
use std::collections::BTreeSet;
use tree_sitter::Node;

/// One clause of a JML comment.
pub struct Clause {
    pub keyword: String,
    pub keyword_span: Span,
    /// The clause's body, after the keyword, before the `;`.
    pub body: Span,
}

/// The JML comment's text with the same byte length, comment markers and JML escapes
/// rewritten to what heaplab-syntax reads. Problems (JML features outside what HeapLab reads)
/// are reported with their position.
pub fn rewrite(comment: &str, start: usize, diags: &mut Vec<Diagnostic>) -> String {
    let mut b: Vec<u8> = comment.as_bytes().to_vec();
    let blank = |b: &mut Vec<u8>, from: usize, len: usize| {
        for x in b.iter_mut().skip(from).take(len) {
            *x = b' ';
        }
    };
    if comment.starts_with("//@") {
        blank(&mut b, 0, 3);
    } else if comment.starts_with("/*@") {
        blank(&mut b, 0, 3);
        let n = b.len();
        if comment.ends_with("@*/") && n >= 6 {
            blank(&mut b, n - 3, 3);
        } else if comment.ends_with("*/") && n >= 5 {
            blank(&mut b, n - 2, 2);
        }
        // A leading `@` (after blanks) on a continuation line is JML's margin.
        let mut line_start = true;
        for x in b.iter_mut() {
            match *x {
                b'\n' => line_start = true,
                b' ' | b'\t' | b'\r' => {}
                b'@' if line_start => {
                    *x = b' ';
                    line_start = false;
                }
                b'*' if line_start => {
                    // Javadoc-style margins `*` are blanked too, but not `*` inside a formula.
                    line_start = false;
                }
                _ => line_start = false,
            }
        }
    }
    let mut out = String::from_utf8(b).unwrap_or_else(|_| " ".repeat(comment.len()));
    for (from, to) in [("\\result", " result"), ("\\old", " old")] {
        out = out.replace(from, to);
    }
    out = replace_word(&out, "boolean", "bool   ");
    out = crate::type_args::blank_type_arguments(&out);
    for bad in ["\\forall", "\\exists", "\\num_of", "\\sum", "==>", "<==>", "\\nothing", "\\fresh"]
    {
        let mut from = 0;
        while let Some(i) = out[from..].find(bad) {
            let at = start + from + i;
            diags.push(
                Diagnostic::error(
                    Span::new(at, at + bad.len()),
                    format!("JML's `{bad}` is not part of HeapLab's specifications"),
                )
                .with_note(match bad {
                    "==>" | "<==>" => "write `!a || b` for an implication",
                    "\\exists" => "write `exists T x. F` at the start of a formula",
                    _ => {
                        "state it with a predicate (`//@ pred …`) or a boolean method of the class"
                    }
                }),
            );
            from += i + bad.len();
        }
    }
    out
}

fn replace_word(s: &str, word: &str, with: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let is_id = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < s.len() {
        if s[i..].starts_with(word)
            && (i == 0 || !is_id(bytes[i - 1]))
            && bytes.get(i + word.len()).is_none_or(|c| !is_id(*c))
        {
            out.push_str(with);
            i += word.len();
        } else {
            let c = s[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The clauses of a rewritten comment (offsets absolute: the comment starts at `start`).
pub fn clauses(rewritten: &str, start: usize) -> Vec<Clause> {
    let mut out = Vec::new();
    let bytes = rewritten.as_bytes();
    let mut depth = 0i32;
    let mut clause_start = 0;
    for (i, &c) in bytes.iter().enumerate() {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b';' if depth <= 0 => {
                push_clause(&mut out, rewritten, clause_start, i, start);
                clause_start = i + 1;
                depth = 0;
            }
            _ => {}
        }
    }
    push_clause(&mut out, rewritten, clause_start, bytes.len(), start);
    out
}

fn push_clause(out: &mut Vec<Clause>, text: &str, from: usize, to: usize, base: usize) {
    let Some(seg) = text.get(from..to) else { return };
    let lead = seg.len() - seg.trim_start().len();
    let trimmed = seg.trim();
    if trimmed.is_empty() {
        return;
    }
    let kw_len =
        trimmed.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(trimmed.len());
    let keyword = trimmed[..kw_len].to_string();
    let kw_start = base + from + lead;
    let body_start = kw_start + kw_len;
    let body_end = base + from + lead + trimmed.len();
    out.push(Clause {
        keyword,
        keyword_span: Span::new(kw_start, kw_start + kw_len),
        body: Span::new(body_start, body_end),
    });
}

/// Text of the same byte offsets as the file: blanks, then `body`.
/// Whether the clause at `span` calls one of the predicates (`name(` as a whole word): then it
/// is a separation-logic formula, not a boolean expression.
pub fn mentions_pred(rewritten_file: &str, span: Span, preds: &BTreeSet<String>) -> bool {
    let text = rewritten_file.get(span.start as usize..span.end as usize).unwrap_or("");
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    preds.iter().any(|p| {
        text.match_indices(p.as_str()).any(|(i, _)| {
            let before = text[..i].chars().next_back().is_none_or(|c| !word(c) && c != '.');
            let after = text[i + p.len()..].trim_start().starts_with('(');
            before && after
        })
    })
}

fn padded(rewritten_file: &str, span: Span) -> String {
    let (a, b) = (span.start as usize, span.end as usize);
    let mut s = " ".repeat(a);
    s.push_str(rewritten_file.get(a..b).unwrap_or(""));
    s
}

/// The file's text with every JML comment rewritten (the rest unchanged): what spec clauses
/// are parsed from. JML features HeapLab does not read are reported (a clause holding one is
/// not parsed further: [`reported_in`]).
pub fn rewrite_file(text: &str, comments: &[Node], diags: &mut Vec<Diagnostic>) -> String {
    let mut out = text.to_string();
    for c in comments {
        let (a, b) = (c.start_byte(), c.end_byte());
        let Some(orig) = text.get(a..b) else { continue };
        let r = rewrite(orig, a, diags);
        if r.len() == orig.len() {
            out.replace_range(a..b, &r);
        }
    }
    out
}

/// What spec expressions are resolved against.
pub struct SpecCx<'a> {
    pub class: Option<usize>,
    /// Names bound here (parameters, predicate parameters, existentials): Java name, type.
    pub bound: Vec<(String, JType)>,
    pub preds: &'a BTreeSet<String>,
    /// The methods spec calls reach (keys as in `Lowered::key`).
    pub callees: BTreeSet<String>,
    pub is_static: bool,
    /// The method's return type (what `\result` is).
    pub result: Option<JType>,
}

impl SpecCx<'_> {
    fn lookup(&self, name: &str) -> Option<&JType> {
        self.bound.iter().rev().find(|(n, _)| n == name).map(|(_, t)| t)
    }
}

impl<'t> Lowerer<'t, '_> {
    /// Parses a predicate clause `name(T x, …) := F` into a declaration.
    pub fn spec_pred(
        &mut self,
        file: &str,
        clause: &Clause,
        class: Option<usize>,
        preds: &BTreeSet<String>,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<PredicateDecl> {
        let span = Span { start: clause.keyword_span.start, end: clause.body.end };
        let mut text = padded(file, span);
        text.push(';');
        let (program, ds) = heaplab_syntax::parser::parse_program(&text);
        let base = self.next_id;
        diags.extend(ds);
        let Some(Item::Predicate(mut p)) = program.items.into_iter().next() else { return None };
        // The parser numbered from 0: renumber into the program's id space.
        renumber_formula(&mut p.body, base, &mut self.next_id);
        let mut cx = SpecCx {
            class,
            bound: Vec::new(),
            preds,
            callees: BTreeSet::new(),
            is_static: true,
            result: None,
        };
        for param in &mut p.params {
            let ty = self.spec_type(&param.ty, class, diags);
            cx.bound.push((param.name.name.clone(), ty.clone()));
            if let Some(t) = erase(&ty, self.decls, param.ty.span()) {
                param.ty = t;
            }
            param.name.name = crate::names::ident(&param.name.name);
        }
        self.resolve_formula(&mut cx, &mut p.body, diags);
        p.span = span;
        Some(p)
    }

    pub fn spec_formula(
        &mut self,
        file: &str,
        body: Span,
        cx: &mut SpecCx,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Formula> {
        let text = padded(file, body);
        let (f, ds) = heaplab_syntax::parser::parse_formula_with_base(&text, self.next_id);
        let had_errors = ds.iter().any(Diagnostic::is_error);
        diags.extend(ds);
        let mut f = f.filter(|_| !had_errors)?;
        bump_ids_formula(&f, &mut self.next_id);
        self.resolve_formula(cx, &mut f, diags);
        Some(f)
    }

    pub fn spec_expr(
        &mut self,
        file: &str,
        body: Span,
        cx: &mut SpecCx,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Expr> {
        let text = padded(file, body);
        let (e, ds) = heaplab_syntax::parser::parse_expr_with_base(&text, self.next_id);
        let had_errors = ds.iter().any(Diagnostic::is_error);
        diags.extend(ds);
        let mut e = e.filter(|_| !had_errors)?;
        bump_ids_expr(&e, &mut self.next_id);
        self.resolve_expr(cx, &mut e);
        Some(self.guard_olds(cx, e))
    }

    /// A Java type name written in a spec (`Node`, `Item`, `int`, `bool`).
    fn spec_type(&self, t: &TypeExpr, class: Option<usize>, diags: &mut Vec<Diagnostic>) -> JType {
        match t {
            TypeExpr::Int(_) => JType::Int,
            TypeExpr::Bool(_) => JType::Boolean,
            TypeExpr::Void(_) => JType::Void,
            TypeExpr::Array { elem, .. } => {
                JType::Array(Box::new(self.spec_type(elem, class, diags)))
            }
            TypeExpr::Class(id) => {
                let scope = Scope { class, method_params: &[] };
                let ty = self.decls.resolve_name_in(&id.name, scope);
                if let JType::Unsupported(n) = &ty {
                    diags.push(Diagnostic::error(
                        id.span,
                        format!("unknown type `{n}` in a specification"),
                    ));
                }
                ty
            }
        }
    }

    fn resolve_formula(&mut self, cx: &mut SpecCx, f: &mut Formula, diags: &mut Vec<Diagnostic>) {
        for d in &mut f.disjuncts {
            let mark = cx.bound.len();
            for p in &mut d.exists {
                let ty = self.spec_type(&p.ty, cx.class, diags);
                cx.bound.push((p.name.name.clone(), ty.clone()));
                if let Some(t) = erase(&ty, self.decls, p.ty.span()) {
                    p.ty = t;
                }
                p.name.name = crate::names::ident(&p.name.name);
            }
            let mut tag_facts = Vec::new();
            for atom in &mut d.atoms {
                match atom {
                    Atom::Emp(_) => {}
                    Atom::PointsTo { pointer, class, fields, span } => {
                        self.resolve_expr(cx, pointer);
                        let scope = Scope { class: cx.class, method_params: &[] };
                        let mut of_class = None;
                        match self.decls.resolve_name_in(&class.name, scope) {
                            JType::Class(c) => {
                                of_class = Some(c);
                                class.name = self.decls.classes[c].lowered.clone();
                                tag_facts.extend(self.class_tag(c, pointer, fields, *span));
                            }
                            JType::Object => class.name = "Object".into(),
                            JType::Comparable => class.name = "Comparable".into(),
                            _ => diags.push(Diagnostic::error(
                                class.span,
                                format!("unknown class `{}` in a points-to", class.name),
                            )),
                        }
                        for fi in fields.iter_mut() {
                            fi.field.name = crate::names::ident(&fi.field.name);
                            self.resolve_expr(cx, &mut fi.value);
                        }
                        if let Some(c) = of_class {
                            tag_facts.extend(self.int_field_facts(c, fields, *span));
                        }
                    }
                    Atom::Pred { name, args, span } if !cx.preds.contains(&name.name) => {
                        // `isBST()` at atom level: not a predicate, a call of a method.
                        let call = Expr {
                            id: self.id(),
                            kind: ExprKind::Call {
                                callee: name.clone(),
                                args: std::mem::take(args),
                            },
                            span: *span,
                        };
                        let mut call = call;
                        self.resolve_expr(cx, &mut call);
                        *atom = Atom::Pure(call);
                    }
                    Atom::Pred { args, .. } => {
                        for a in args {
                            self.resolve_expr(cx, a);
                        }
                    }
                    Atom::Pure(e) => self.resolve_expr(cx, e),
                }
            }
            d.atoms.extend(tag_facts.into_iter().map(Atom::Pure));
            cx.bound.truncate(mark);
        }
    }

    /// Resolves Java names in a spec expression, in place.
    pub fn resolve_expr(&mut self, cx: &mut SpecCx, e: &mut Expr) {
        let span = e.span;
        match &mut e.kind {
            ExprKind::Var(v) => {
                if cx.lookup(&v.name).is_some() {
                    v.name = crate::names::ident(&v.name);
                    return;
                }
                let Some(c) = cx.class else { return };
                match self.field(c, &v.name, true) {
                    Some((owner, FieldRef::Instance(_))) if owner == c && !cx.is_static => {
                        let f = crate::names::ident(&v.name);
                        let this = Expr { id: self.id(), kind: ExprKind::This, span };
                        e.kind = ExprKind::Field {
                            object: Box::new(this),
                            field: Ident { name: f, span },
                        };
                    }
                    Some((_, FieldRef::Constant(k))) => {
                        e.kind = match k {
                            Const::Int(i) => ExprKind::Int(i),
                            Const::Bool(b) => ExprKind::Bool(b),
                        }
                    }
                    _ => {}
                }
            }
            ExprKind::Field { object, field } => {
                self.resolve_expr(cx, object);
                field.name = crate::names::ident(&field.name);
            }
            ExprKind::Call { callee, args } => {
                for a in args.iter_mut() {
                    self.resolve_expr(cx, a);
                }
                if cx.preds.contains(&callee.name) {
                    return;
                }
                let Some(c) = cx.class else { return };
                let Some((owner, m)) = self.spec_method(c, &callee.name, args.len()) else {
                    return;
                };
                let method = &self.decls.classes[owner].methods[m];
                if method.is_static {
                    let name = self.static_fns.get(&(owner, m)).cloned().unwrap_or_default();
                    cx.callees.insert(name.clone());
                    callee.name = name;
                } else if crate::hierarchy::is_subtype(self.decls, c, owner) && !cx.is_static {
                    let lowered = self.virtual_name(owner, m);
                    cx.callees.insert(format!("{}.{lowered}", self.decls.classes[c].lowered));
                    let this = Expr { id: self.id(), kind: ExprKind::This, span };
                    let args = std::mem::take(args);
                    e.kind = ExprKind::MethodCall {
                        receiver: Box::new(this),
                        method: Ident { name: lowered, span: callee.span },
                        args,
                    };
                }
            }
            ExprKind::MethodCall { receiver, method, args } => {
                self.resolve_expr(cx, receiver);
                for a in args.iter_mut() {
                    self.resolve_expr(cx, a);
                }
                if let Some(JType::Class(c)) = self.spec_expr_type(cx, receiver) {
                    if let Some((owner, m)) = self.spec_method(c, &method.name, args.len()) {
                        let lowered = self.virtual_name(owner, m);
                        cx.callees
                            .insert(format!("{}.{lowered}", self.decls.classes[owner].lowered));
                        method.name = lowered;
                    }
                }
            }
            _ => {
                let mut kids: Vec<&mut Expr> = children_mut(e);
                for k in kids.iter_mut() {
                    self.resolve_expr(cx, k);
                }
            }
        }
    }

    /// The method `name` with `arity` parameters of class `c` (or of a class around it, for a
    /// static one).
    fn spec_method(&self, c: usize, name: &str, arity: usize) -> Option<(usize, usize)> {
        let mut cur = Some(c);
        while let Some(k0) = cur {
            // The class, then the superclasses of the file it inherits from.
            let mut up = Some(k0);
            let mut steps = 0;
            while let (Some(k), true) = (up, steps < 64) {
                steps += 1;
                let class = &self.decls.classes[k];
                if let Some(m) = class
                    .methods
                    .iter()
                    .position(|m| !m.is_ctor && m.name == name && m.params.len() == arity)
                {
                    return Some((k, m));
                }
                up = class.parent;
            }
            cur = self.decls.classes[k0].outer;
        }
        None
    }

    /// The Java type of a (resolved) spec expression, where it is simple to tell.
    /// JML evaluates `\old(e)` at entry; where `e` would throw there (a null dereference, an
    /// index out of bounds, a division by zero), the clause is not checked on that path: each
    /// `\old(e)` becomes `\old(ok ? e : default)` and the clause `!\old(ok) || clause`, with
    /// `ok` the conditions under which `e` does not throw.
    fn guard_olds(&mut self, cx: &SpecCx, e: Expr) -> Expr {
        let mut oks = Vec::new();
        let e = self.guard_olds_in(cx, e, &mut oks);
        let span = e.span;
        let Some(all) = self.conjoin(oks, span) else { return e };
        let old_all = self.mk(ExprKind::Old(Box::new(all)), span);
        let not = self.mk(ExprKind::Unary { op: UnOp::Not, operand: Box::new(old_all) }, span);
        self.mk(ExprKind::Binary { op: BinOp::Or, lhs: Box::new(not), rhs: Box::new(e) }, span)
    }

    fn guard_olds_in(&mut self, cx: &SpecCx, mut e: Expr, oks: &mut Vec<Expr>) -> Expr {
        if let ExprKind::Old(inner) = e.kind {
            let span = e.span;
            let mut conds = Vec::new();
            self.throw_conditions(&inner, &mut conds);
            let (Some(ok), Some(default)) =
                (self.conjoin(conds, span), self.default_of(cx, &inner))
            else {
                return Expr { kind: ExprKind::Old(inner), ..e };
            };
            oks.push(self.copy(&ok));
            let guarded = self.mk(
                ExprKind::Cond {
                    cond: Box::new(ok),
                    then_expr: inner,
                    else_expr: Box::new(default),
                },
                span,
            );
            return Expr { kind: ExprKind::Old(Box::new(guarded)), ..e };
        }
        for c in children_mut(&mut e) {
            let taken = std::mem::replace(
                c,
                Expr { id: NodeId(u32::MAX), kind: ExprKind::Null, span: Span::default() },
            );
            *c = self.guard_olds_in(cx, taken, oks);
        }
        e
    }

    /// The conditions under which evaluating `e` throws nothing, in evaluation order.
    fn throw_conditions(&mut self, e: &Expr, out: &mut Vec<Expr>) {
        let span = e.span;
        let non_null = |l: &mut Self, x: &Expr| {
            let x = l.copy(x);
            let null = l.mk(ExprKind::Null, span);
            l.mk(ExprKind::Binary { op: BinOp::Ne, lhs: Box::new(x), rhs: Box::new(null) }, span)
        };
        match &e.kind {
            ExprKind::Field { object, .. } => {
                self.throw_conditions(object, out);
                if !matches!(object.kind, ExprKind::This) {
                    out.push(non_null(self, object));
                }
            }
            ExprKind::MethodCall { receiver, args, .. } => {
                self.throw_conditions(receiver, out);
                if !matches!(receiver.kind, ExprKind::This) {
                    out.push(non_null(self, receiver));
                }
                args.iter().for_each(|a| self.throw_conditions(a, out));
            }
            ExprKind::Index { array, index } => {
                self.throw_conditions(array, out);
                out.push(non_null(self, array));
                self.throw_conditions(index, out);
                let (i1, i2, a) = (self.copy(index), self.copy(index), self.copy(array));
                let zero = self.mk(ExprKind::Int(0), span);
                let len = self.mk(
                    ExprKind::Field {
                        object: Box::new(a),
                        field: Ident { name: "length".into(), span },
                    },
                    span,
                );
                out.push(self.mk(
                    ExprKind::Binary { op: BinOp::Le, lhs: Box::new(zero), rhs: Box::new(i1) },
                    span,
                ));
                out.push(self.mk(
                    ExprKind::Binary { op: BinOp::Lt, lhs: Box::new(i2), rhs: Box::new(len) },
                    span,
                ));
            }
            ExprKind::Binary { op: BinOp::Div | BinOp::Mod, lhs, rhs } => {
                self.throw_conditions(lhs, out);
                self.throw_conditions(rhs, out);
                let (d, zero) = (self.copy(rhs), self.mk(ExprKind::Int(0), span));
                out.push(self.mk(
                    ExprKind::Binary { op: BinOp::Ne, lhs: Box::new(d), rhs: Box::new(zero) },
                    span,
                ));
            }
            // Short-circuit operators and `?:` evaluate their operands conditionally: guarding
            // them whole would be wrong, so `\old` over them stays unguarded.
            ExprKind::Binary { op: BinOp::And | BinOp::Or, .. } | ExprKind::Cond { .. } => {
                out.push(self.mk(ExprKind::Bool(false), span));
            }
            k => {
                for c in k.children() {
                    self.throw_conditions(c, out);
                }
            }
        }
    }

    /// `c1 && c2 && …`; `None` for no condition (or one that cannot be stated).
    fn conjoin(&mut self, conds: Vec<Expr>, span: Span) -> Option<Expr> {
        if conds.iter().any(|c| matches!(c.kind, ExprKind::Bool(false))) {
            return None;
        }
        conds.into_iter().reduce(|a, b| {
            self.mk(ExprKind::Binary { op: BinOp::And, lhs: Box::new(a), rhs: Box::new(b) }, span)
        })
    }

    /// A value of `e`'s type that evaluates without effects (`0`, `false`, `null`).
    fn default_of(&mut self, cx: &SpecCx, e: &Expr) -> Option<Expr> {
        let span = e.span;
        let kind = match &e.kind {
            ExprKind::Binary { op, .. } => match op {
                BinOp::Add
                | BinOp::Sub
                | BinOp::Mul
                | BinOp::Div
                | BinOp::Mod
                | BinOp::Shl
                | BinOp::Shr => ExprKind::Int(0),
                _ => ExprKind::Bool(false),
            },
            ExprKind::Unary { op: UnOp::Neg, .. } | ExprKind::Int(_) => ExprKind::Int(0),
            ExprKind::Unary { op: UnOp::Not, .. } | ExprKind::Bool(_) => ExprKind::Bool(false),
            ExprKind::Field { field, .. } if field.name == "length" => ExprKind::Int(0),
            _ => match self.spec_expr_type(cx, e)? {
                JType::Int => ExprKind::Int(0),
                JType::Boolean => ExprKind::Bool(false),
                t if t.is_reference() => ExprKind::Null,
                _ => return None,
            },
        };
        Some(self.mk(kind, span))
    }

    fn mk(&mut self, kind: ExprKind, span: Span) -> Expr {
        Expr { id: self.id(), kind, span }
    }

    /// A copy of an expression with fresh node ids.
    fn copy(&mut self, e: &Expr) -> Expr {
        let mut c = e.clone();
        self.renumber(&mut c);
        c
    }

    fn renumber(&mut self, e: &mut Expr) {
        e.id = self.id();
        for c in children_mut(e) {
            self.renumber(c);
        }
    }

    fn spec_expr_type(&self, cx: &SpecCx, e: &Expr) -> Option<JType> {
        match &e.kind {
            ExprKind::This => cx.class.map(JType::Class),
            ExprKind::Result => cx.result.clone(),
            ExprKind::Var(v) => cx
                .bound
                .iter()
                .rev()
                .find(|(n, _)| crate::names::ident(n) == v.name)
                .map(|(_, t)| t.clone()),
            ExprKind::Field { object, field } => match self.spec_expr_type(cx, object)? {
                JType::Class(c) => {
                    let java = self.field_named(c, &field.name)?;
                    match self.field(c, &java.name, false)? {
                        (_, FieldRef::Instance(t)) => Some(t),
                        _ => None,
                    }
                }
                _ => None,
            },
            _ => None,
        }
    }
}

fn children_mut(e: &mut Expr) -> Vec<&mut Expr> {
    match &mut e.kind {
        ExprKind::Field { object, .. } => vec![object],
        ExprKind::Index { array, index } => vec![array, index],
        ExprKind::NewArray { len, .. } => vec![len],
        ExprKind::ArrayLit { elems, .. } => elems.iter_mut().collect(),
        ExprKind::Unary { operand, .. } => vec![operand],
        ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::Cond { cond, then_expr, else_expr } => vec![cond, then_expr, else_expr],
        ExprKind::Call { args, .. } => args.iter_mut().collect(),
        ExprKind::MethodCall { receiver, args, .. } => {
            let mut v: Vec<&mut Expr> = vec![receiver];
            v.extend(args.iter_mut());
            v
        }
        ExprKind::New { fields, .. } => fields.iter_mut().map(|f| &mut f.value).collect(),
        ExprKind::Old(inner) => vec![inner],
        _ => Vec::new(),
    }
}

fn max_id_expr(e: &Expr, max: &mut u32) {
    *max = (*max).max(e.id.0);
    for c in e.kind.children() {
        max_id_expr(c, max);
    }
}

fn formula_exprs(f: &Formula) -> Vec<&Expr> {
    let mut out = Vec::new();
    for d in &f.disjuncts {
        for a in &d.atoms {
            match a {
                Atom::Emp(_) => {}
                Atom::PointsTo { pointer, fields, .. } => {
                    out.push(pointer);
                    out.extend(fields.iter().map(|f| &f.value));
                }
                Atom::Pred { args, .. } => out.extend(args.iter()),
                Atom::Pure(e) => out.push(e),
            }
        }
    }
    out
}

fn bump_ids_expr(e: &Expr, next: &mut u32) {
    let mut max = *next;
    max_id_expr(e, &mut max);
    *next = (*next).max(max + 1);
}

fn bump_ids_formula(f: &Formula, next: &mut u32) {
    let mut max = *next;
    for e in formula_exprs(f) {
        max_id_expr(e, &mut max);
    }
    *next = (*next).max(max + 1);
}

fn renumber_expr(e: &mut Expr, base: u32, next: &mut u32) {
    e.id = NodeId(base + e.id.0);
    *next = (*next).max(e.id.0 + 1);
    for c in children_mut(e) {
        renumber_expr(c, base, next);
    }
}

fn renumber_formula(f: &mut Formula, base: u32, next: &mut u32) {
    for d in &mut f.disjuncts {
        for a in &mut d.atoms {
            match a {
                Atom::Emp(_) => {}
                Atom::PointsTo { pointer, fields, .. } => {
                    renumber_expr(pointer, base, next);
                    for fi in fields {
                        renumber_expr(&mut fi.value, base, next);
                    }
                }
                Atom::Pred { args, .. } => {
                    for a in args {
                        renumber_expr(a, base, next);
                    }
                }
                Atom::Pure(e) => renumber_expr(e, base, next),
            }
        }
    }
}

/// The JML comments of the file with the class and method they belong to.
pub struct SpecComment<'t> {
    pub node: Node<'t>,
    pub class: Option<usize>,
    pub method: Option<(usize, usize)>,
}

pub fn all_comments<'t>(decls: &Decls<'t>) -> Vec<SpecComment<'t>> {
    let mut out = Vec::new();
    for (class, node) in &decls.loose_specs {
        out.push(SpecComment { node: *node, class: *class, method: None });
    }
    for (ci, c) in decls.classes.iter().enumerate() {
        for (mi, m) in c.methods.iter().enumerate() {
            for s in &m.specs {
                out.push(SpecComment { node: *s, class: Some(ci), method: Some((ci, mi)) });
            }
        }
    }
    out.sort_by_key(|c| c.node.start_byte());
    out
}

/// Whether a diagnostic of `diags` already points inside `span` (a JML feature reported by
/// [`rewrite`]), so parsing the clause would only repeat it.
pub fn reported_in(diags: &[Diagnostic], span: Span) -> bool {
    diags.iter().any(|d| d.span.start >= span.start && d.span.end <= span.end)
}
