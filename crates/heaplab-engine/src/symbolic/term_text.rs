//! The texts of a symbolic expression: infix for people (the views, labels and events) and
//! SMT-LIB2 for solver scripts and the SMT console.

use super::term::{Node, Sort, Sym};
use std::fmt;

impl Sym {
    /// SMT-LIB2 text (`(< x0 (+ x1 1))`). Division and remainder truncate toward zero, so they
    /// are spelled with `div` on absolute values; variables are `x<id>` (Int) and `b<id>` (Bool).
    pub fn to_smtlib(&self) -> String {
        let mut out = String::new();
        self.write_smtlib(&mut out);
        out
    }

    fn write_smtlib(&self, out: &mut String) {
        let bin = |op: &str, a: &Sym, b: &Sym, out: &mut String| {
            out.push('(');
            out.push_str(op);
            out.push(' ');
            a.write_smtlib(out);
            out.push(' ');
            b.write_smtlib(out);
            out.push(')');
        };
        match self.node() {
            Node::Int(n) if *n < 0 => out.push_str(&format!("(- {})", n.unsigned_abs())),
            Node::Int(n) => out.push_str(&n.to_string()),
            Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Node::Var(id, Sort::Int) => out.push_str(&format!("x{id}")),
            Node::Var(id, Sort::Bool) => out.push_str(&format!("b{id}")),
            Node::Add(a, b) => bin("+", a, b, out),
            Node::Sub(a, b) => bin("-", a, b, out),
            Node::Mul(a, b) => bin("*", a, b, out),
            Node::Div(..) if self.as_floor_div().is_some() => {
                if let Some((x, p)) = self.as_floor_div() {
                    out.push_str("(div ");
                    x.write_smtlib(out);
                    out.push_str(&format!(" {p})"));
                }
            }
            Node::Div(a, b) => {
                // trunc(a / b) = sign(a)·sign(b)·(|a| div |b|). The operands are bound once:
                // written out twice each, nested divisions (wrapped loop counters) would grow
                // the script exponentially.
                let (a, b) = (a.to_smtlib(), b.to_smtlib());
                out.push_str(&format!(
                    "(let ((n {a}) (d {b})) (let ((q (div (abs n) (abs d)))) (ite (= (< n 0) (< d 0)) q (- q))))"
                ));
            }
            Node::Rem(..) if self.as_floor_mod().is_some() => {
                if let Some((x, m)) = self.as_floor_mod() {
                    out.push_str("(mod ");
                    x.write_smtlib(out);
                    out.push_str(&format!(" {m})"));
                }
            }
            Node::Rem(a, b) => {
                // a - b·trunc(a / b): the sign of the dividend (bound once, as for Div).
                let (a, b) = (a.to_smtlib(), b.to_smtlib());
                out.push_str(&format!(
                    "(let ((n {a}) (d {b})) (let ((r (mod (abs n) (abs d)))) (ite (< n 0) (- r) r)))"
                ));
            }
            Node::Neg(a) => {
                out.push_str("(- ");
                a.write_smtlib(out);
                out.push(')');
            }
            Node::Lt(a, b) => bin("<", a, b, out),
            Node::Le(a, b) => bin("<=", a, b, out),
            Node::Eq(a, b) => bin("=", a, b, out),
            Node::And(a, b) => bin("and", a, b, out),
            Node::Or(a, b) => bin("or", a, b, out),
            Node::Not(a) => {
                out.push_str("(not ");
                a.write_smtlib(out);
                out.push(')');
            }
        }
    }
}

impl fmt::Debug for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Infix text, fully parenthesized where needed: `x1 < (x2 + 1)`.
impl fmt::Display for Sym {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.show_writing(&|out, id, sort| {
            out.push(match sort {
                Sort::Int => 'x',
                Sort::Bool => 'b',
            });
            push_unsigned(out, id.into());
        }))
    }
}

/// Writes a variable's name (its id and sort) at the end of a text.
pub type WriteName<'a> = &'a dyn Fn(&mut String, u32, Sort);

/// Appends `n` in decimal. Labels and names are written at every fork of a large run, where
/// `core::fmt` was most of a label's cost in wasm.
pub fn push_decimal(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    push_unsigned(out, n.unsigned_abs());
}

/// [`push_decimal`] of an unsigned number.
pub fn push_unsigned(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|d| char::from(*d)));
}

impl Sym {
    /// Infix text like [`Display`](fmt::Display), with every variable spelled by `name` (the
    /// heap view writes `o1.key` or `x` where the solver's text has `x3`).
    pub fn show_with(&self, name: &dyn Fn(u32, Sort) -> String) -> String {
        self.show_writing(&|out, id, sort| out.push_str(&name(id, sort)))
    }

    /// [`show_with`](Self::show_with), with `name` writing each variable's name into the text
    /// itself: a tree label names the variables of every condition a large run forks on, and a
    /// `String` per name was most of the label's cost.
    pub fn show_writing(&self, name: WriteName) -> String {
        let mut out = String::with_capacity(32);
        self.write_infix(&mut out, name);
        out
    }

    fn write_infix(&self, out: &mut String, name: WriteName) {
        // An operand, in parentheses unless it is `bare`.
        let part = |out: &mut String, s: &Sym, bare: bool| {
            if bare {
                return s.write_infix(out, name);
            }
            out.push('(');
            s.write_infix(out, name);
            out.push(')');
        };
        let bin = |out: &mut String, a: &Sym, op: &str, b: &Sym| {
            let bare = |s: &Sym| {
                matches!(
                    s.node(),
                    Node::Int(_) | Node::Bool(_) | Node::Var(..) | Node::Not(_) | Node::Neg(_)
                )
            };
            part(out, a, bare(a));
            out.push(' ');
            out.push_str(op);
            out.push(' ');
            part(out, b, bare(b));
        };
        match self.node() {
            Node::Int(n) => push_decimal(out, *n),
            Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Node::Var(id, sort) => name(out, *id, *sort),
            Node::Add(a, b) => bin(out, a, "+", b),
            Node::Sub(a, b) => bin(out, a, "-", b),
            Node::Mul(a, b) => bin(out, a, "*", b),
            Node::Div(a, b) => bin(out, a, "/", b),
            Node::Rem(a, b) => bin(out, a, "%", b),
            Node::Lt(a, b) => bin(out, a, "<", b),
            Node::Le(a, b) => bin(out, a, "<=", b),
            Node::Eq(a, b) => bin(out, a, "==", b),
            Node::And(a, b) => bin(out, a, "&&", b),
            Node::Or(a, b) => bin(out, a, "||", b),
            Node::Neg(a) => {
                out.push('-');
                part(out, a, matches!(a.node(), Node::Int(_) | Node::Var(..)));
            }
            Node::Not(a) => {
                out.push('!');
                part(out, a, matches!(a.node(), Node::Bool(_) | Node::Var(..)));
            }
        }
    }
}
