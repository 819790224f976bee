//! The type checker: resolves every name in a parsed program and computes the type of every
//! expression, so that later passes (interpreter, symbolic executor, logic) can trust the tree
//! and read [`ProgramInfo`] instead of re-resolving names.
//!
//! Why it is shaped this way:
//! - It must run on whatever tree the parser recovered, so it never panics and never assumes a
//!   name is non-empty or a list is well-formed; odd input only yields fewer facts.
//! - A student should see every real mistake at once but no echoes of one mistake, so an error
//!   produces [`Type::Error`], which is compatible with everything and silences later checks on
//!   the same value.
//! - Messages name the offending thing and the fix (`did you mean `next`?`), with the span of
//!   exactly that name or expression.
//!
//! Layout: `env` collects declarations (classes, functions, predicates) before any body is
//! checked; `body` checks functions, tests and statements; `expr` checks expressions; `formula`
//! checks separation-logic formulas (`requires`, predicate bodies); `suggest` finds close names.

mod body;
mod env;
mod expr;
mod formula;
mod suggest;

pub use suggest::{levenshtein, suggest};

use crate::ast::Program;
use crate::diagnostic::Diagnostic;
use crate::types::{ProgramInfo, Type};
use env::Globals;

/// Checks a whole program. Always returns what it could learn, plus every diagnostic found
/// (unsorted; [`crate::analyze`] sorts them together with the syntax errors).
pub fn check_program(p: &Program) -> (ProgramInfo, Vec<Diagnostic>) {
    let mut checker = Checker { ints: p.ints, ..Checker::default() };
    checker.collect(p);
    checker.check_items(p);
    (checker.info, checker.diags)
}

/// The state of one run of the checker: the global declarations, the facts learned so far and
/// the diagnostics reported.
#[derive(Default)]
struct Checker {
    globals: Globals,
    info: ProgramInfo,
    diags: Vec<Diagnostic>,
    /// The program's integer semantics (literals must fit its range).
    ints: crate::ast::Ints,
}

/// Where an expression is being checked. Decides which constructs are allowed (`result`, `old`,
/// `_`, calls to impure functions, allocation) and how variables resolve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// A function, method or test body.
    Code,
    /// An `ensures` clause: `result` and `old(e)` are allowed, calls must be pure.
    Ensures,
    /// A `requires` formula.
    Requires,
    /// An `ensures` that is a formula: as `requires`, and `result` is in scope.
    EnsuresFormula,
    /// The body of a predicate.
    PredBody,
}

impl Mode {
    fn is_formula(self) -> bool {
        matches!(self, Mode::Requires | Mode::EnsuresFormula | Mode::PredBody)
    }
}

/// The context of one body being checked: the enclosing class and function, the scopes of local
/// names, and how deep in loops and `old(…)` we are.
struct Ctx {
    /// The class whose method this is (`this` and bare method calls resolve against it).
    class: Option<String>,
    /// The function, method, test or predicate name, for messages.
    owner: String,
    /// Declared return type (`void` for tests and predicates).
    ret: Type,
    /// Inside the body of a `pure` function.
    is_pure: bool,
    /// Inside a `test` block.
    is_test: bool,
    mode: Mode,
    /// Innermost scope last; each holds names in declaration order (for suggestions).
    scopes: Vec<Vec<(String, Type)>>,
    loops: usize,
}

impl Ctx {
    fn new(class: Option<String>, owner: &str, ret: Type, is_pure: bool, mode: Mode) -> Ctx {
        Ctx {
            class,
            owner: owner.to_string(),
            ret,
            is_pure,
            is_test: false,
            mode,
            scopes: vec![Vec::new()],
            loops: 0,
        }
    }

    fn push(&mut self) {
        self.scopes.push(Vec::new());
    }

    fn pop(&mut self) {
        self.scopes.pop();
    }

    fn lookup(&self, name: &str) -> Option<&Type> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    }

    /// Every visible name, innermost first, for suggestions.
    fn visible(&self) -> Vec<&str> {
        self.scopes.iter().rev().flat_map(|s| s.iter().rev()).map(|(n, _)| n.as_str()).collect()
    }

    /// Adds a name to the innermost scope.
    fn bind(&mut self, name: &str, ty: Type) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.to_string(), ty));
        } else {
            self.scopes.push(vec![(name.to_string(), ty)]);
        }
    }
}

/// "1 argument", "2 arguments".
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::*;
    use crate::span::Span;

    fn id(name: &str, at: usize) -> Ident {
        Ident { name: name.to_string(), span: Span::new(at, at + name.len()) }
    }

    fn e(n: u32, kind: ExprKind) -> Expr {
        Expr { id: NodeId(n), kind, span: Span::new(n as usize, n as usize + 1) }
    }

    fn s(n: u32, kind: StmtKind) -> Stmt {
        Stmt { id: NodeId(n), kind, span: Span::new(n as usize, n as usize + 1) }
    }

    fn block(stmts: Vec<Stmt>) -> Block {
        Block { stmts, span: Span::default() }
    }

    fn node_class() -> Item {
        Item::Class(ClassDecl {
            name: id("Node", 0),
            fields: vec![
                FieldDecl {
                    ty: TypeExpr::Int(Span::default()),
                    name: id("key", 10),
                    span: Span::default(),
                },
                FieldDecl {
                    ty: TypeExpr::Class(id("Node", 20)),
                    name: id("next", 30),
                    span: Span::default(),
                },
            ],
            methods: vec![],
            span: Span::default(),
        })
    }

    fn function(name: &str, ret: TypeExpr, params: Vec<Param>, body: Vec<Stmt>) -> Item {
        Item::Function(FunctionDecl {
            is_pure: false,
            return_type: ret,
            name: id(name, 100),
            params,
            requires: vec![],
            ensures: vec![],
            ensures_formulas: vec![],
            body: block(body),
            span: Span::default(),
        })
    }

    fn messages(p: &Program) -> Vec<String> {
        check_program(p).1.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn empty_program_is_fine() {
        let (info, diags) = check_program(&Program::default());
        assert!(diags.is_empty());
        assert!(info.expr_types.is_empty());
    }

    #[test]
    fn field_typo_and_types_are_recorded() {
        let n = Param { ty: TypeExpr::Class(id("Node", 200)), name: id("n", 210) };
        let read = e(
            1,
            ExprKind::Field {
                object: Box::new(e(2, ExprKind::Var(id("n", 300)))),
                field: id("nxt", 310),
            },
        );
        let good = e(
            3,
            ExprKind::Field {
                object: Box::new(e(4, ExprKind::Var(id("n", 400)))),
                field: id("key", 410),
            },
        );
        let body = vec![
            s(10, StmtKind::Expr(read)),
            s(
                11,
                StmtKind::Local {
                    ty: TypeExpr::Int(Span::default()),
                    name: id("x", 500),
                    init: Some(e(5, ExprKind::Bool(true))),
                },
            ),
            s(12, StmtKind::Return(Some(good))),
        ];
        let p = Program {
            items: vec![node_class(), function("f", TypeExpr::Int(Span::default()), vec![n], body)],
            ..Program::default()
        };
        let (info, diags) = check_program(&p);
        let msgs: Vec<&str> = diags.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            msgs,
            ["unknown field `nxt` on `Node`", "mismatched types: expected `int`, found `bool`"]
        );
        assert_eq!(diags[0].notes, ["did you mean `next`?"]);
        assert_eq!(diags[0].span, Span::new(310, 313));
        assert_eq!(info.type_of(NodeId(2)), Some(&Type::Class("Node".into())));
        assert_eq!(info.type_of(NodeId(1)), Some(&Type::Error));
        assert_eq!(info.type_of(NodeId(3)), Some(&Type::Int));
        assert_eq!(info.field_type("Node", "next"), Some(&Type::Class("Node".into())));
    }

    #[test]
    fn missing_return_and_unknown_type() {
        let p = Program {
            items: vec![function("g", TypeExpr::Class(id("Nod", 7)), vec![], vec![])],
            ..Program::default()
        };
        assert_eq!(messages(&p), ["unknown type `Nod`"]);
        let p = Program {
            items: vec![
                node_class(),
                function("g", TypeExpr::Int(Span::default()), vec![], vec![]),
            ],
            ..Program::default()
        };
        assert_eq!(messages(&p), ["missing return: `g` must return `int` on every path"]);
    }
}
