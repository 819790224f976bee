//! The product program of a duel: the program text with one generated method that copies the
//! input, runs the reference on the copy and the student's method on the original, and asserts
//! that the two ended alike (same exception class, same return value, isomorphic final heaps
//! from the roots).
//!
//! The generated code is HeapLab source, so every strategy explores it unchanged. The checking
//! method goes inside the student's class on the line of the class's closing brace (no new line:
//! every line of the program keeps its number); the helpers (association lists, copy and
//! isomorphism functions, one set per class the inputs can reach) are appended after the
//! program. Copies and comparisons keep an association list of the objects met, so sharing and
//! cycles in the input are copied and compared faithfully.

use super::DuelError;
use crate::{find_function, type_as_written};
use heaplab_syntax::ast::{ClassDecl, FunctionDecl, Item, Program, TypeExpr};
use heaplab_syntax::lexer::{lex, TokenKind};
use std::collections::BTreeSet;
use std::fmt::Write;

/// Every generated name starts with this (case-insensitively); a program may not use it.
pub const PREFIX: &str = "hlduel";
/// The generated checking method (or function).
pub const CHECK: &str = "hlduel_check";

/// How the generated method calls the reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefCall {
    /// A method of the student's class, called on the copy of the receiver.
    Method,
    /// A top-level function whose first parameter is the receiver.
    FunctionWithReceiver,
    /// A top-level function (the student's method is a function too).
    Function,
}

/// The program to explore for a duel.
#[derive(Clone, Debug)]
pub struct Product {
    /// The program with the generated code.
    pub source: String,
    /// What to explore: `Class.hlduel_check`, or `hlduel_check` for functions.
    pub target: String,
    /// The student's method (`Class.method` or a function name).
    pub method: String,
    /// The reference (`Class.method` or a function name).
    pub reference: String,
    pub call: RefCall,
    /// Where the generated code starts: the checking method's first byte. Every error whose
    /// span starts at or after [`Product::helpers_at`], or inside the checking method, is in
    /// generated code.
    pub check_span: (usize, usize),
    /// Where the appended helpers start.
    pub helpers_at: usize,
}

impl Product {
    /// Whether a byte offset of [`Product::source`] is inside the generated code.
    pub fn is_generated(&self, offset: usize) -> bool {
        offset >= self.helpers_at || (self.check_span.0..self.check_span.1).contains(&offset)
    }
}

/// The text of a span (empty when the span is not in `text`).
fn text_of(text: &str, span: heaplab_syntax::Span) -> &str {
    text.get(span.start as usize..span.end as usize).unwrap_or("")
}

/// A class is built in when the parser appended it (an empty span at the end of the text):
/// `Object`, `Comparable`, `Comparator`. Their objects are elements from outside: they are
/// shared between the two runs, not copied, and compared by identity.
fn is_builtin(c: &ClassDecl) -> bool {
    c.span.start == c.span.end
}

fn class<'p>(program: &'p Program, name: &str) -> Option<&'p ClassDecl> {
    program.items.iter().find_map(|i| match i {
        Item::Class(c) if c.name.name == name => Some(c),
        _ => None,
    })
}

/// The classes whose objects the inputs (and the returned value) can reach, in a stable order.
fn reachable_classes<'p>(
    program: &'p Program,
    roots: &[&TypeExpr],
) -> Result<Vec<&'p ClassDecl>, DuelError> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut order = Vec::new();
    let mut work: Vec<(String, String)> = Vec::new();
    for t in roots {
        match t {
            TypeExpr::Class(c) => work.push((c.name.clone(), String::new())),
            TypeExpr::Array { .. } => {
                return Err(DuelError::Unsupported(
                    "duels compare objects and values; a parameter or result that is an array is not supported yet".into(),
                ))
            }
            _ => {}
        }
    }
    while let Some((name, via)) = work.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        let Some(c) = class(program, &name) else { continue };
        order.push(c);
        for f in &c.fields {
            match &f.ty {
                TypeExpr::Class(d) => work.push((d.name.clone(), format!("{name}.{}", f.name.name))),
                TypeExpr::Array { .. } => {
                    return Err(DuelError::Unsupported(format!(
                        "duels compare objects and values; the field `{name}.{}` is an array, which is not supported yet{}",
                        f.name.name,
                        if via.is_empty() { String::new() } else { format!(" (reached through `{via}`)") }
                    )))
                }
                _ => {}
            }
        }
    }
    order.sort_by(|a, b| a.name.name.cmp(&b.name.name));
    Ok(order)
}

/// The classes a `throw new X` of the program can throw.
fn thrown_classes(source: &str) -> Vec<String> {
    let (tokens, _) = lex(source);
    let mut out = BTreeSet::new();
    for w in tokens.windows(3) {
        if w[0].kind == TokenKind::Throw
            && w[1].kind == TokenKind::New
            && w[2].kind == TokenKind::Ident
        {
            out.insert(text_of(source, w[2].span).to_string());
        }
    }
    out.into_iter().collect()
}

/// `text` with identifier `from` renamed `to` where it names a variable (not after `.`, not
/// before `(` or `:`), token by token.
fn rename(text: &str, from: &str, to: &str) -> String {
    let (tokens, _) = lex(text);
    let mut out = String::new();
    let mut at = 0;
    for (i, t) in tokens.iter().enumerate() {
        if t.kind != TokenKind::Ident || text_of(text, t.span) != from {
            continue;
        }
        let after_dot = i > 0 && tokens[i - 1].kind == TokenKind::Dot;
        let next = tokens.get(i + 1).map(|n| n.kind);
        if after_dot || matches!(next, Some(TokenKind::LParen) | Some(TokenKind::Colon)) {
            continue;
        }
        out.push_str(&text[at..t.span.start as usize]);
        out.push_str(to);
        at = t.span.end as usize;
    }
    out.push_str(&text[at..]);
    out
}

fn describe_signature(params: &[(String, String)], ret: &str) -> String {
    let list: Vec<&str> = params.iter().map(|(t, _)| t.as_str()).collect();
    format!("({}) returning {ret}", list.join(", "))
}

fn default_value(t: &TypeExpr) -> &'static str {
    match t {
        TypeExpr::Int(_) => "0",
        TypeExpr::Bool(_) => "false",
        _ => "null",
    }
}

/// Builds the product program of `method` (the student's) against `reference`.
pub fn build(
    program: &Program,
    source: &str,
    method: &str,
    reference: &str,
) -> Result<Product, DuelError> {
    let (tokens, _) = lex(source);
    if let Some(t) = tokens.iter().find(|t| {
        t.kind == TokenKind::Ident
            && text_of(source, t.span).to_ascii_lowercase().starts_with(PREFIX)
    }) {
        return Err(DuelError::Reserved(text_of(source, t.span).to_string()));
    }
    let sides = sides(program, method, reference)?;
    let Sides { m_class, m_decl, r_decl, call, .. } = sides;
    let (requires, names) = precondition(source, &sides);

    let receiver_ty =
        m_class.and_then(|mc| class(program, mc)).map(|c| TypeExpr::Class(c.name.clone()));
    let mut root_types: Vec<&TypeExpr> = m_decl.params.iter().map(|p| &p.ty).collect();
    root_types.extend(receiver_ty.as_ref());
    root_types.push(&m_decl.return_type);
    let classes = reachable_classes(program, &root_types)?;
    let user: Vec<&ClassDecl> = classes.iter().copied().filter(|c| !is_builtin(c)).collect();
    let copied = |t: &TypeExpr| -> Option<String> {
        match t {
            TypeExpr::Class(c) if user.iter().any(|u| u.name.name == c.name) => {
                Some(c.name.clone())
            }
            _ => None,
        }
    };
    let check = check_method(CheckParts {
        m_class,
        m_decl,
        r_decl,
        call,
        names: &names,
        requires: &requires,
        exceptions: &thrown_classes(source),
        copied: &copied,
    });
    let helpers = helpers(&user, method, reference);
    let (text, target, check_span, helpers_at) =
        assemble(program, source, m_class, &check, &helpers)?;
    Ok(Product {
        source: text,
        target,
        method: method.to_string(),
        reference: reference.to_string(),
        call,
        check_span,
        helpers_at,
    })
}

/// The two methods of a duel and how the reference is called.
struct Sides<'p> {
    m_class: Option<&'p str>,
    m_decl: &'p FunctionDecl,
    r_decl: &'p FunctionDecl,
    call: RefCall,
    /// The student's parameters and the reference's that correspond to them, as (type, name).
    m_sig: Vec<(String, String)>,
    r_sig: Vec<(String, String)>,
}

/// Finds both methods and checks that they can be compared (same parameter types after the
/// receiver, same return type).
fn sides<'p>(program: &'p Program, method: &str, reference: &str) -> Result<Sides<'p>, DuelError> {
    let (m_class, m_decl) = find_function(program, method)
        .ok_or_else(|| DuelError::NotFound { role: "method", name: method.to_string() })?;
    let (r_class, r_decl) = find_function(program, reference)
        .ok_or_else(|| DuelError::NotFound { role: "reference", name: reference.to_string() })?;
    if method == reference {
        return Err(DuelError::Mismatch(format!(
            "the method and the reference are both `{method}`: a duel compares two different methods"
        )));
    }
    // The reference's parameters that correspond to the student's (the receiver aside).
    let (call, r_params): (RefCall, &[heaplab_syntax::ast::Param]) = match (m_class, r_class) {
        (Some(mc), Some(rc)) if mc == rc => (RefCall::Method, &r_decl.params),
        (Some(mc), Some(rc)) => {
            return Err(DuelError::Mismatch(format!(
                "the reference `{reference}` is a method of {rc}, but `{method}` is a method of {mc}: write the reference as a method of {mc}, or as a function whose first parameter is a {mc}"
            )))
        }
        (Some(mc), None) => match r_decl.params.first().map(|p| &p.ty) {
            Some(TypeExpr::Class(c)) if c.name == mc => {
                (RefCall::FunctionWithReceiver, &r_decl.params[1..])
            }
            _ => {
                return Err(DuelError::Mismatch(format!(
                    "the reference `{reference}` is a function, so its first parameter must be the {mc} that `{method}` runs on (`{reference}({mc} self, ...)`)"
                )))
            }
        },
        (None, Some(_)) => {
            return Err(DuelError::Mismatch(format!(
                "`{method}` is a function, so the reference `{reference}` must be a function too"
            )))
        }
        (None, None) => (RefCall::Function, &r_decl.params),
    };
    let written = |ps: &[heaplab_syntax::ast::Param]| -> Vec<(String, String)> {
        ps.iter().map(|p| (type_as_written(&p.ty), p.name.name.clone())).collect()
    };
    let (m_sig, r_sig) = (written(&m_decl.params), written(r_params));
    let (m_ret, r_ret) =
        (type_as_written(&m_decl.return_type), type_as_written(&r_decl.return_type));
    let m_types: Vec<&String> = m_sig.iter().map(|(t, _)| t).collect();
    let r_types: Vec<&String> = r_sig.iter().map(|(t, _)| t).collect();
    if m_types != r_types || m_ret != r_ret {
        return Err(DuelError::Mismatch(format!(
            "`{method}` takes {} but the reference `{reference}` takes {}: they must match to be compared",
            describe_signature(&m_sig, &m_ret),
            describe_signature(&r_sig, &r_ret)
        )));
    }
    Ok(Sides { m_class, m_decl, r_decl, call, m_sig, r_sig })
}

/// The generated method's `requires` clauses and parameter names: the reference's (it defines
/// the valid inputs; its receiver parameter becomes `this`), else the student's.
fn precondition(source: &str, sides: &Sides) -> (Vec<String>, Vec<String>) {
    let Sides { m_decl, r_decl, call, m_sig, r_sig, .. } = sides;
    if !r_decl.requires.is_empty() {
        let mut texts: Vec<String> =
            r_decl.requires.iter().map(|f| text_of(source, f.span).to_string()).collect();
        if *call == RefCall::FunctionWithReceiver {
            let receiver = &r_decl.params[0].name.name;
            texts = texts.iter().map(|t| rename(t, receiver, "this")).collect();
        }
        (texts, r_sig.iter().map(|(_, n)| n.clone()).collect())
    } else {
        let texts = m_decl.requires.iter().map(|f| text_of(source, f.span).to_string()).collect();
        (texts, m_sig.iter().map(|(_, n)| n.clone()).collect())
    }
}

/// The product's text: the checking method before the closing brace of the student's class,
/// on its line (a function's: after the program), then the helpers. Returns the text, the
/// target, the checking method's byte range and where the appended helpers start.
fn assemble(
    program: &Program,
    source: &str,
    m_class: Option<&str>,
    check: &str,
    helpers: &str,
) -> Result<(String, String, (usize, usize), usize), DuelError> {
    let (mut text, check_span, target) = match m_class {
        Some(mc) => {
            let c = class(program, mc)
                .ok_or_else(|| DuelError::NotFound { role: "class", name: mc.to_string() })?;
            let close = source[..c.span.end as usize]
                .rfind('}')
                .filter(|&i| i >= c.span.start as usize)
                .ok_or_else(|| {
                    DuelError::Mismatch(format!("the class {mc} has no closing brace"))
                })?;
            let mut text = String::with_capacity(source.len() + check.len() + helpers.len() + 64);
            text.push_str(&source[..close]);
            let start = text.len();
            text.push(' ');
            text.push_str(check);
            text.push(' ');
            let end = text.len();
            text.push_str(&source[close..]);
            (text, (start, end), format!("{mc}.{CHECK}"))
        }
        None => (source.to_string(), (0, 0), CHECK.to_string()),
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let helpers_at = text.len();
    if m_class.is_none() {
        text.push_str(check);
        text.push('\n');
    }
    text.push_str(helpers);
    let check_span = if m_class.is_none() { (helpers_at, text.len()) } else { check_span };
    Ok((text, target, check_span, helpers_at))
}

struct CheckParts<'a> {
    m_class: Option<&'a str>,
    m_decl: &'a FunctionDecl,
    r_decl: &'a FunctionDecl,
    call: RefCall,
    /// The checking method's parameter names (those its `requires` uses).
    names: &'a [String],
    requires: &'a [String],
    exceptions: &'a [String],
    /// The class of a type whose objects are copied (a class of the program), else `None`.
    copied: &'a dyn Fn(&TypeExpr) -> Option<String>,
}

/// The checking method, on one line.
fn check_method(p: CheckParts) -> String {
    let CheckParts { m_class, m_decl, r_decl, call, names, requires, exceptions, copied } = p;
    let mut s = String::new();
    let params: Vec<String> = m_decl
        .params
        .iter()
        .zip(names)
        .map(|(p, n)| format!("{} {n}", type_as_written(&p.ty)))
        .collect();
    let _ = write!(s, "void {CHECK}({})", params.join(", "));
    for r in requires {
        let _ = write!(s, " requires {}", r.replace(['\n', '\r'], " "));
    }
    s.push_str(" { HlduelMap hlduel_m = new HlduelMap;");
    // Copies of the object inputs, made before either method runs; the maps share one list, so
    // objects reachable from several inputs are copied once.
    let mut r_args = Vec::new();
    if let Some(mc) = m_class {
        let _ = write!(s, " {mc} hlduel_this = hlduel_copy_{mc}(this, hlduel_m);");
    }
    for (p, n) in m_decl.params.iter().zip(names) {
        match copied(&p.ty) {
            Some(c) => {
                let _ = write!(s, " {c} hlduel_c_{n} = hlduel_copy_{c}({n}, hlduel_m);");
                r_args.push(format!("hlduel_c_{n}"));
            }
            None => r_args.push(n.clone()),
        }
    }
    let m_args = names.join(", ");
    let r_args = r_args.join(", ");
    let r_name = &r_decl.name.name;
    let m_name = &m_decl.name.name;
    let r_call = match call {
        RefCall::Method => format!("hlduel_this.{r_name}({r_args})"),
        RefCall::FunctionWithReceiver if r_args.is_empty() => format!("{r_name}(hlduel_this)"),
        RefCall::FunctionWithReceiver => format!("{r_name}(hlduel_this, {r_args})"),
        RefCall::Function => format!("{r_name}({r_args})"),
    };
    let m_call = match m_class {
        Some(_) => format!("this.{m_name}({m_args})"),
        None => format!("{m_name}({m_args})"),
    };
    let ret = &m_decl.return_type;
    let returns = !matches!(ret, TypeExpr::Void(_));
    let ret_ty = type_as_written(ret);
    // The reference runs first, on the copy: when it fails with a runtime error the path ends
    // there (see docs/symbolic.md, "Duels").
    for (who, call_text) in [("r", &r_call), ("m", &m_call)] {
        let _ = write!(s, " int hlduel_e{who} = 0;");
        if returns {
            let _ = write!(s, " {ret_ty} hlduel_v{who} = {};", default_value(ret));
        }
        let body =
            if returns { format!("hlduel_v{who} = {call_text};") } else { format!("{call_text};") };
        if exceptions.is_empty() {
            let _ = write!(s, " {body}");
        } else {
            let _ = write!(s, " try {{ {body} }}");
            for (i, x) in exceptions.iter().enumerate() {
                let _ = write!(s, " catch ({x} hlduel_x) {{ hlduel_e{who} = {}; }}", i + 1);
            }
        }
    }
    s.push_str(" assert hlduel_em == hlduel_er; HlduelMap hlduel_iso = new HlduelMap;");
    if let Some(mc) = m_class {
        let _ = write!(s, " assert hlduel_eq_{mc}(this, hlduel_this, hlduel_iso);");
    }
    for (p, n) in m_decl.params.iter().zip(names) {
        if let Some(c) = copied(&p.ty) {
            let _ = write!(s, " assert hlduel_eq_{c}({n}, hlduel_c_{n}, hlduel_iso);");
        }
    }
    if returns {
        match copied(ret) {
            Some(c) => {
                let _ = write!(
                    s,
                    " if (hlduel_em == 0) {{ assert hlduel_eq_{c}(hlduel_vm, hlduel_vr, hlduel_iso); }}"
                );
            }
            None => s.push_str(" if (hlduel_em == 0) { assert hlduel_vm == hlduel_vr; }"),
        }
    }
    s.push_str(" }");
    s
}

/// The association lists and the copy and isomorphism functions of `classes`.
fn helpers(classes: &[&ClassDecl], method: &str, reference: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n// Generated by HeapLab to compare {method} with the reference {reference}: copies of the input, and\n// the comparison of the two final heaps (not part of the program)."
    );
    s.push_str("class HlduelMap {");
    for c in classes {
        let n = &c.name.name;
        let _ = write!(s, " HlduelPair_{n} hlduel_{n};");
    }
    s.push_str(" }\n");
    let is_copied = |t: &TypeExpr| match t {
        TypeExpr::Class(d) => classes.iter().any(|c| c.name.name == d.name),
        _ => false,
    };
    for c in classes {
        let n = &c.name.name;
        let _ = writeln!(s, "class HlduelPair_{n} {{ {n} from; {n} to; HlduelPair_{n} next; }}");
        let _ = writeln!(
            s,
            "{n} hlduel_find_{n}(HlduelPair_{n} p, {n} a) {{ if (p == null) return null; if (p.from == a) return p.to; return hlduel_find_{n}(p.next, a); }}"
        );
        let _ = writeln!(
            s,
            "bool hlduel_has_{n}(HlduelPair_{n} p, {n} b) {{ if (p == null) return false; if (p.to == b) return true; return hlduel_has_{n}(p.next, b); }}"
        );
        // The copy: a fresh object per input object, fields copied (objects of the program's
        // classes recursively, elements of the built-in classes shared).
        let _ = write!(
            s,
            "{n} hlduel_copy_{n}({n} a, HlduelMap m) {{ if (a == null) return null; {n} f = hlduel_find_{n}(m.hlduel_{n}, a); if (f != null) return f; {n} c = new {n}; m.hlduel_{n} = new HlduelPair_{n} {{ from: a, to: c, next: m.hlduel_{n} }};"
        );
        for f in &c.fields {
            let field = &f.name.name;
            match &f.ty {
                TypeExpr::Class(d) if is_copied(&f.ty) => {
                    let _ = write!(s, " c.{field} = hlduel_copy_{}(a.{field}, m);", d.name);
                }
                _ => {
                    let _ = write!(s, " c.{field} = a.{field};");
                }
            }
        }
        s.push_str(" return c; }\n");
        // The isomorphism: a bijection between the objects met from corresponding roots, with
        // equal values and corresponding references in every field.
        let _ = write!(
            s,
            "bool hlduel_eq_{n}({n} a, {n} b, HlduelMap m) {{ if (a == null || b == null) return a == b; {n} f = hlduel_find_{n}(m.hlduel_{n}, a); if (f != null) return f == b; if (hlduel_has_{n}(m.hlduel_{n}, b)) return false; m.hlduel_{n} = new HlduelPair_{n} {{ from: a, to: b, next: m.hlduel_{n} }}; return true"
        );
        for f in &c.fields {
            let field = &f.name.name;
            match &f.ty {
                TypeExpr::Class(d) if is_copied(&f.ty) => {
                    let _ = write!(s, " && hlduel_eq_{}(a.{field}, b.{field}, m)", d.name);
                }
                _ => {
                    let _ = write!(s, " && a.{field} == b.{field}");
                }
            }
        }
        s.push_str("; }\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::rename;

    #[test]
    fn rename_touches_variables_only() {
        assert_eq!(
            rename("exists int lo. bst(self.root, lo, self) & self.self == 1", "self", "this"),
            "exists int lo. bst(this.root, lo, this) & this.self == 1"
        );
        assert_eq!(rename("t -> Node { t: 1 } * t(t)", "t", "u"), "u -> Node { t: 1 } * t(u)");
    }
}
