//! SMT-LIB2 printing: terms, symbols and the one script shape every query uses.

use std::collections::BTreeSet;
use std::fmt::{self, Write};

use crate::term::{Term, Var};

impl fmt::Display for Term {
    /// SMT-LIB2 syntax, the same text the solver receives.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_term(&mut s, self);
        f.write_str(&s)
    }
}

/// Characters allowed in an SMT-LIB2 simple symbol besides letters and digits.
const SYMBOL_PUNCT: &str = "~!@$%^&*_-+=<>.?/";

/// Names that must not be declared as they are: SMT-LIB reserved words and the core and
/// arithmetic symbols of Z3. Quoting does not help (`|and|` *is* `and`), so such names are
/// mangled with a trailing `%` (see [`quote_symbol`]).
const RESERVED: &[&str] = &[
    "_",
    "!",
    "as",
    "let",
    "exists",
    "forall",
    "match",
    "par",
    "BINARY",
    "DECIMAL",
    "HEXADECIMAL",
    "NUMERAL",
    "STRING",
    "true",
    "false",
    "not",
    "and",
    "or",
    "xor",
    "=>",
    "=",
    "distinct",
    "ite",
    "+",
    "-",
    "*",
    "/",
    "div",
    "mod",
    "rem",
    "abs",
    "<",
    "<=",
    ">",
    ">=",
    "to_real",
    "to_int",
    "is_int",
    "pi",
    "euler",
    "^",
    "null",
];

/// The SMT-LIB2 spelling of a variable name.
///
/// Simple names print as they are; anything else is quoted as `|...|`. A quoted symbol cannot
/// contain `|` or `\`, so those (and `%`, to keep the mapping injective) are written as `%XX`
/// hex escapes, and a reserved or built-in name gets a trailing `%`. Since `%` appears in the
/// output only through these rules, distinct names always print as distinct symbols.
pub fn quote_symbol(name: &str) -> String {
    let reserved = RESERVED.contains(&name);
    let simple = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || (SYMBOL_PUNCT.contains(c) && c != '%'))
        && !reserved;
    if simple {
        return name.to_string();
    }
    let mut out = String::with_capacity(name.len() + 3);
    out.push('|');
    for c in name.chars() {
        match c {
            '|' | '\\' | '%' => {
                let _ = write!(out, "%{:02X}", c as u32);
            }
            c => out.push(c),
        }
    }
    if reserved {
        out.push('%');
    }
    out.push('|');
    out
}

/// The content of the symbol Z3 will echo back for `name` (quotes stripped), used to match
/// `get-value` replies to variables.
pub(crate) fn symbol_content(name: &str) -> String {
    let q = quote_symbol(name);
    match q.strip_prefix('|').and_then(|s| s.strip_suffix('|')) {
        Some(inner) => inner.to_string(),
        None => q,
    }
}

fn write_int(out: &mut String, v: i64) {
    if v < 0 {
        // `unsigned_abs` keeps i64::MIN printable.
        let _ = write!(out, "(- {})", v.unsigned_abs());
    } else {
        let _ = write!(out, "{v}");
    }
}

fn write_app(out: &mut String, op: &str, args: &[&Term]) {
    out.push('(');
    out.push_str(op);
    for a in args {
        out.push(' ');
        write_term(out, a);
    }
    out.push(')');
}

fn write_nary(out: &mut String, op: &str, args: &[Term], empty: &str) {
    if args.is_empty() {
        out.push_str(empty);
        return;
    }
    let refs: Vec<&Term> = args.iter().collect();
    if refs.len() == 1 && op != "distinct" {
        write_term(out, refs[0]);
        return;
    }
    write_app(out, op, &refs);
}

/// Appends the SMT-LIB2 text of `t` to `out`.
pub fn write_term(out: &mut String, t: &Term) {
    match t {
        Term::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Term::Int(v) => write_int(out, *v),
        Term::Null => out.push('0'),
        Term::Var(v) => out.push_str(&quote_symbol(&v.name)),
        Term::Add(ts) => write_nary(out, "+", ts, "0"),
        Term::Sub(a, b) => write_app(out, "-", &[a, b]),
        Term::Neg(a) => write_app(out, "-", &[a]),
        Term::Mul(c, a) => {
            out.push_str("(* ");
            write_int(out, *c);
            out.push(' ');
            write_term(out, a);
            out.push(')');
        }
        Term::Div(a, c) | Term::Mod(a, c) => {
            out.push_str(if matches!(t, Term::Div(..)) { "(div " } else { "(mod " });
            write_term(out, a);
            out.push(' ');
            write_int(out, *c);
            out.push(')');
        }
        Term::NonLinear(op, a, b) => write_app(out, op.smt_name(), &[a, b]),
        Term::Cmp(op, a, b) => write_app(out, op.smt_name(), &[a, b]),
        Term::Eq(a, b) => write_app(out, "=", &[a, b]),
        // `distinct` needs two arguments; with fewer it is trivially true.
        Term::Distinct(ts) if ts.len() < 2 => out.push_str("true"),
        Term::Distinct(ts) => write_nary(out, "distinct", ts, "true"),
        Term::Not(a) => write_app(out, "not", &[a]),
        Term::And(ts) => write_nary(out, "and", ts, "true"),
        Term::Or(ts) => write_nary(out, "or", ts, "false"),
        Term::Implies(a, b) => write_app(out, "=>", &[a, b]),
        Term::Ite(c, a, b) => write_app(out, "ite", &[c, a, b]),
    }
}

/// The script for one satisfiability query.
///
/// Shape (the response parser relies on it): timeout option, declarations, assertions,
/// `(check-sat)`, then `(get-value ...)` when values are wanted, then
/// `(get-info :reason-unknown)`. Transports run every script in its own `push` scope, so the
/// script never pushes or pops. Variables are declared once each, sorted, so equal queries
/// print equal text (the cache key of [`crate::SolverFrontend`]).
pub fn build_script(assertions: &[Term], want: &[Var], timeout_ms: u32) -> String {
    let mut vars: BTreeSet<Var> = want.iter().cloned().collect();
    for a in assertions {
        a.collect_vars(&mut vars);
    }
    let mut out = String::new();
    let _ = writeln!(out, "(set-option :timeout {timeout_ms})");
    // Two variables with one name but different sorts would be a bug upstream; declaring the
    // name once keeps the script valid and lets Z3 report the sort mismatch.
    let mut declared = BTreeSet::new();
    for v in &vars {
        if declared.insert(v.name.as_str()) {
            let _ =
                writeln!(out, "(declare-fun {} () {})", quote_symbol(&v.name), v.sort.smt_name());
        }
    }
    for a in assertions {
        out.push_str("(assert ");
        write_term(&mut out, a);
        out.push_str(")\n");
    }
    out.push_str("(check-sat)\n");
    if !want.is_empty() {
        out.push_str("(get-value (");
        for (i, v) in want.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&quote_symbol(&v.name));
        }
        out.push_str("))\n");
    }
    out.push_str("(get-info :reason-unknown)\n");
    out
}

/// The line that separates the replies of a batch (see [`batch_script`]).
pub const BATCH_SEPARATOR: &str = "heaplab-batch-end";

/// Several scripts as one text for one transport call: each in its own `(push 1)` ... `(pop 1)`
/// scope (so they cannot see each other, as separate calls could not), each followed by an
/// `echo` of [`BATCH_SEPARATOR`]. [`split_batch_reply`] cuts the reply back into one per script.
/// One call instead of many saves the per-call cost of the transport (a round trip to Z3 wasm).
pub fn batch_script(scripts: &[String]) -> String {
    let mut out = String::new();
    for s in scripts {
        let _ = write!(out, "(push 1)\n{s}\n(pop 1)\n(echo \"{BATCH_SEPARATOR}\")\n");
    }
    out
}

/// The replies of a batch, one per script, or `None` when the reply does not have one
/// separator per script (the transport failed in the middle).
pub fn split_batch_reply(reply: &str, scripts: usize) -> Option<Vec<String>> {
    let mut out = Vec::with_capacity(scripts);
    let mut current = String::new();
    for line in reply.lines() {
        if line.trim() == BATCH_SEPARATOR {
            out.push(std::mem::take(&mut current));
        } else {
            current.push_str(line);
            current.push('\n');
        }
    }
    (out.len() == scripts && current.trim().is_empty()).then_some(out)
}
