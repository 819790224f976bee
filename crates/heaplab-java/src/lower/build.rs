//! Building HeapLab AST nodes: fresh node ids, temporaries, and the per-function state the
//! lowering of statements and expressions shares.

use super::Lowerer;
use crate::types::{erase, JType};
use heaplab_syntax::ast::*;
use heaplab_syntax::Span;
use std::collections::{BTreeSet, HashSet};

/// A construct outside the subset, found while lowering one function.
#[derive(Clone, Debug)]
pub struct Problem {
    pub span: Span,
    /// What is wrong, in the user's words ("a lambda expression is outside …").
    pub message: String,
    /// The way around, when there is one.
    pub hint: Option<String>,
}

/// Lowering of the current expression or statement stopped at a [`Problem`] (already recorded).
#[derive(Debug)]
pub struct Stop;

pub type LResult<T> = Result<T, Stop>;

/// A local variable in scope: its Java name, its HeapLab name and type.
#[derive(Clone, Debug)]
pub struct Local {
    pub java: String,
    pub lowered: String,
    pub ty: JType,
}

/// What a `continue` inside a loop must run first: the update of a `for` (or the index step of
/// a for-each), or the condition of a `do`-`while`. `None` for a plain `while`.
#[derive(Clone)]
pub enum LoopKind<'t> {
    While,
    For {
        updates: Vec<tree_sitter::Node<'t>>,
    },
    /// The temporary holding the index.
    ForEach {
        index: String,
    },
    DoWhile {
        cond: tree_sitter::Node<'t>,
    },
    /// A `switch` lowered inside `while (true)`: a `continue` of the loop around it sets the
    /// flag `resume` and leaves the switch; `used` says whether one did.
    Switch {
        resume: String,
        used: bool,
    },
}

/// The state of the function being lowered.
pub struct Fn<'t> {
    pub class: usize,
    pub is_static: bool,
    pub type_params: Vec<crate::decls::TypeParam>,
    pub scopes: Vec<Vec<Local>>,
    /// Every identifier written in the Java body, so temporaries never take one.
    pub reserved: HashSet<String>,
    pub temps: u32,
    pub problems: Vec<Problem>,
    /// The functions and methods it calls (HeapLab names: `Class.method` or `function`).
    pub callees: BTreeSet<String>,
    pub loops: Vec<LoopKind<'t>>,
    /// The switch expressions being lowered, innermost last (what `yield` assigns).
    pub yields: Vec<super::switch::Yield>,
    pub ret: JType,
    /// It stores to a field or array cell, or allocates (so it cannot be `pure`).
    pub effects: bool,
    /// Each `assert` statement (by node id) with what its condition calls: an assert that
    /// calls a method HeapLab cannot run is dropped, not the whole method (Java runs asserts
    /// only with `-ea`; they check, they do not act).
    pub asserts: Vec<(NodeId, BTreeSet<String>)>,
    /// A statement was given up (its problem may have been recorded at a declaration it uses).
    pub stopped: bool,
    /// Lowering a spec's helper calls: the names `this` reads are fields, never locals.
    pub depth: u32,
}

impl<'t> Fn<'t> {
    pub fn new(class: usize, is_static: bool, ret: JType) -> Fn<'t> {
        Fn {
            class,
            is_static,
            type_params: Vec::new(),
            scopes: vec![Vec::new()],
            reserved: HashSet::new(),
            temps: 0,
            problems: Vec::new(),
            callees: BTreeSet::new(),
            loops: Vec::new(),
            yields: Vec::new(),
            ret,
            effects: false,
            asserts: Vec::new(),
            stopped: false,
            depth: 0,
        }
    }

    pub fn lookup(&self, java: &str) -> Option<&Local> {
        self.scopes.iter().rev().flat_map(|s| s.iter().rev()).find(|l| l.java == java)
    }

    pub fn push(&mut self) {
        self.scopes.push(Vec::new());
    }

    pub fn pop(&mut self) {
        self.scopes.pop();
    }

    pub fn bind(&mut self, java: &str, lowered: &str, ty: JType) {
        if let Some(s) = self.scopes.last_mut() {
            s.push(Local { java: java.to_string(), lowered: lowered.to_string(), ty });
        }
    }

    /// Records a construct outside the subset and stops the current expression.
    pub fn problem(
        &mut self,
        span: Span,
        construct: impl Into<String>,
        hint: Option<&str>,
    ) -> Stop {
        let message = format!("{} is outside HeapLab's Java subset", construct.into());
        self.problems.push(Problem { span, message, hint: hint.map(str::to_string) });
        Stop
    }

    /// Records a problem with its whole message.
    pub fn problem_msg(&mut self, span: Span, message: String) -> Stop {
        self.problems.push(Problem { span, message, hint: None });
        Stop
    }

    /// Records a name this file does not declare (javac would reject it too).
    pub fn unknown(&mut self, span: Span, what: &str) -> Stop {
        let message = format!("cannot find {what} in this file");
        let hint = Some("HeapLab reads one file: the classes it uses must be in it".to_string());
        self.problems.push(Problem { span, message, hint });
        Stop
    }

    /// A fresh temporary's name.
    pub fn temp(&mut self) -> String {
        loop {
            self.temps += 1;
            let name = format!("tmp_{}", self.temps);
            if !self.reserved.contains(&name) {
                return name;
            }
        }
    }
}

/// An expression lowered: the statements that must run first, the pure remainder, its type.
pub struct LExpr {
    pub pre: Vec<Stmt>,
    pub expr: Expr,
    pub ty: JType,
}

impl LExpr {
    pub fn pure(expr: Expr, ty: JType) -> LExpr {
        LExpr { pre: Vec::new(), expr, ty }
    }
}

impl Lowerer<'_, '_> {
    pub fn id(&mut self) -> NodeId {
        let id = NodeId(self.next_id);
        self.next_id += 1;
        id
    }

    pub fn e(&mut self, kind: ExprKind, span: Span) -> Expr {
        Expr { id: self.id(), kind, span }
    }

    pub fn s(&mut self, kind: StmtKind, span: Span) -> Stmt {
        Stmt { id: self.id(), kind, span }
    }

    pub fn var(&mut self, name: &str, span: Span) -> Expr {
        self.e(ExprKind::Var(ident(name, span)), span)
    }

    pub fn this_field(&mut self, field: &str, span: Span) -> Expr {
        let this = self.e(ExprKind::This, span);
        self.e(ExprKind::Field { object: Box::new(this), field: ident(field, span) }, span)
    }

    pub fn bin(&mut self, op: BinOp, lhs: Expr, rhs: Expr, span: Span) -> Expr {
        self.e(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span)
    }

    pub fn not(&mut self, operand: Expr, span: Span) -> Expr {
        self.e(ExprKind::Unary { op: UnOp::Not, operand: Box::new(operand) }, span)
    }

    /// The HeapLab type of `ty`, or a problem naming it.
    pub fn type_expr(&mut self, f: &mut Fn, ty: &JType, span: Span) -> LResult<TypeExpr> {
        match erase(ty, self.decls, span) {
            Some(t) => Ok(t),
            None => Err(unsupported_type(f, ty, span)),
        }
    }

    /// Declares a temporary holding `value` (of type `ty`) and returns a read of it.
    pub fn spill(
        &mut self,
        f: &mut Fn,
        pre: &mut Vec<Stmt>,
        value: Expr,
        ty: &JType,
    ) -> LResult<Expr> {
        let span = value.span;
        let name = f.temp();
        let ty_expr = self.type_expr(f, ty, span)?;
        let stmt = self
            .s(StmtKind::Local { ty: ty_expr, name: ident(&name, span), init: Some(value) }, span);
        pre.push(stmt);
        Ok(self.var(&name, span))
    }

    /// Lowered parts evaluated left to right: every part whose value a later part's statements
    /// could change (anything but a literal, `this` or a local they do not assign) is held in
    /// a temporary first, so Java's evaluation order is kept.
    pub fn sequence(&mut self, f: &mut Fn, parts: Vec<LExpr>) -> LResult<(Vec<Stmt>, Vec<Expr>)> {
        let mut later_pre: Vec<bool> = vec![false; parts.len()];
        let mut any = false;
        for i in (0..parts.len()).rev() {
            later_pre[i] = any;
            any |= !parts[i].pre.is_empty();
        }
        let mut later_assigned: Vec<HashSet<String>> = vec![HashSet::new(); parts.len()];
        let mut acc = HashSet::new();
        for i in (0..parts.len()).rev() {
            later_assigned[i] = acc.clone();
            for s in &parts[i].pre {
                assigned_locals(s, &mut acc);
            }
        }
        let mut pre = Vec::new();
        let mut out = Vec::new();
        for (i, part) in parts.into_iter().enumerate() {
            pre.extend(part.pre);
            let stable = match &part.expr.kind {
                ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Null | ExprKind::This => true,
                ExprKind::Var(v) => !later_assigned[i].contains(&v.name),
                _ => false,
            };
            if later_pre[i] && !stable {
                let e = self.spill(f, &mut pre, part.expr, &part.ty)?;
                out.push(e);
            } else {
                out.push(part.expr);
            }
        }
        Ok((pre, out))
    }
}

pub fn ident(name: &str, span: Span) -> Ident {
    Ident { name: name.to_string(), span }
}

pub fn block(stmts: Vec<Stmt>, span: Span) -> Block {
    Block { stmts, span }
}

/// The locals a statement assigns, anywhere inside it.
pub fn assigned_locals(s: &Stmt, acc: &mut HashSet<String>) {
    match &s.kind {
        StmtKind::Assign { target, .. } => {
            acc.insert(target.name.clone());
        }
        StmtKind::If { then_branch, else_branch, .. } => {
            then_branch.stmts.iter().for_each(|s| assigned_locals(s, acc));
            if let Some(b) = else_branch {
                b.stmts.iter().for_each(|s| assigned_locals(s, acc));
            }
        }
        StmtKind::While { body, .. } | StmtKind::Block(body) => {
            body.stmts.iter().for_each(|s| assigned_locals(s, acc))
        }
        StmtKind::Try { body, catches } => {
            body.stmts.iter().for_each(|s| assigned_locals(s, acc));
            for c in catches {
                c.body.stmts.iter().for_each(|s| assigned_locals(s, acc));
            }
        }
        _ => {}
    }
}

/// The problem of a type outside the subset, with the way around where there is one.
pub fn unsupported_type(f: &mut Fn, ty: &JType, span: Span) -> Stop {
    let name = ty.unsupported().unwrap_or("this type").to_string();
    let base = name.split('<').next().unwrap_or("").trim().to_string();
    let hint = match base.as_str() {
        "double" | "float" => Some("floating point is outside the subset; use `int`"),
        "String" => Some("strings are allowed only as exception and assertion messages"),
        "Integer" | "Character" | "Long" | "Boolean" => Some(
            "boxed numbers are outside the subset; use `int`, or a type parameter for elements",
        ),
        "Iterator" | "Iterable" | "ListIterator" => {
            Some("iterators are outside the subset; walk the structure with a loop")
        }
        _ => None,
    };
    let construct = if name == "null" {
        "a value of no type".to_string()
    } else if matches!(ty, JType::Array(t) if matches!(**t, JType::Array(_))) {
        "an array of arrays".to_string()
    } else {
        format!("the type `{name}`")
    };
    f.problem(span, construct, hint)
}
