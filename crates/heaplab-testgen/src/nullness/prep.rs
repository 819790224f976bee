//! What the nullness analysis knows of a program before it runs: its functions, which of them a
//! call may reach, the fields each may store (transitively), the boolean functions that are
//! a null test, and the facts a `requires` states.

use crate::nullness::state::{Path, State, THIS};
use heaplab_syntax::ast::{
    Atom, BinOp, Block, Expr, ExprKind, FunctionDecl, Item, Program, Stmt, StmtKind,
};
use std::collections::BTreeSet;

/// A function of the program: its class (`None` at top level) and declaration.
pub struct Func<'p> {
    pub class: Option<&'p str>,
    pub decl: &'p FunctionDecl,
}

/// A call as written: `f(…)` or `e.m(…)`.
pub enum CallName<'a> {
    Plain(&'a str),
    Method(&'a str),
}

/// Every function and method of `program`.
pub fn functions(program: &Program) -> Vec<Func<'_>> {
    let mut out = Vec::new();
    for item in &program.items {
        match item {
            Item::Class(c) => out.extend(
                c.methods.iter().map(|m| Func { class: Some(c.name.name.as_str()), decl: m }),
            ),
            Item::Function(f) => out.push(Func { class: None, decl: f }),
            _ => {}
        }
    }
    out
}

/// The functions a call in a body of `class` may run, as `feasible::code_sites` resolves them:
/// `e.m(…)` any class's `m` (dynamic dispatch can only add targets), `f(…)` the current
/// class's `f` and a top-level `f`. Empty: a built-in or a predicate (nothing known).
pub fn resolve(funcs: &[Func<'_>], class: Option<&str>, call: &CallName<'_>) -> Vec<usize> {
    funcs
        .iter()
        .enumerate()
        .filter(|(_, f)| match call {
            CallName::Method(m) => f.class.is_some() && f.decl.name.name == *m,
            CallName::Plain(m) => f.decl.name.name == *m && (f.class.is_none() || f.class == class),
        })
        .map(|(i, _)| i)
        .collect()
}

/// The fields a function may store into, itself or through its callees; `all` when it calls
/// something unknown (then it may store anything).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mods {
    pub all: bool,
    pub fields: BTreeSet<String>,
}

/// Each function's [`Mods`], to a fixpoint over the call graph (specifications included, in
/// case one calls a function that stores).
pub fn mod_sets(funcs: &[Func<'_>]) -> Vec<Mods> {
    let mut direct = Vec::new();
    let mut calls = Vec::new();
    for f in funcs {
        let mut w = Walk::default();
        w.block(&f.decl.body);
        spec_exprs(f.decl).into_iter().for_each(|e| w.expr(e));
        let mut mods = Mods { all: false, fields: w.stores };
        let mut targets = BTreeSet::new();
        for c in &w.calls {
            let name = match c {
                (true, m) => CallName::Method(m),
                (false, m) => CallName::Plain(m),
            };
            let r = resolve(funcs, f.class, &name);
            mods.all |= r.is_empty();
            targets.extend(r);
        }
        direct.push(mods);
        calls.push(targets);
    }
    let mut mods = direct;
    loop {
        let mut changed = false;
        for i in 0..mods.len() {
            for &j in &calls[i] {
                if j == i {
                    continue;
                }
                let (all, fields) = (mods[j].all, mods[j].fields.clone());
                let m = &mut mods[i];
                let before = (m.all, m.fields.len());
                m.all |= all;
                m.fields.extend(fields);
                changed |= before != (m.all, m.fields.len());
            }
        }
        if !changed {
            return mods;
        }
    }
}

/// The expressions of a function's `requires` and `ensures`: evaluated where the function is
/// called or returns, so the calls in them run too.
pub fn spec_exprs(f: &FunctionDecl) -> Vec<&Expr> {
    let mut out: Vec<&Expr> = f.ensures.iter().collect();
    for formula in f.requires.iter().chain(&f.ensures_formulas) {
        for heap in &formula.disjuncts {
            for atom in &heap.atoms {
                match atom {
                    Atom::Pure(e) => out.push(e),
                    Atom::PointsTo { pointer, fields, .. } => {
                        out.push(pointer);
                        out.extend(fields.iter().map(|f| &f.value));
                    }
                    Atom::Pred { args, .. } => out.extend(args),
                    Atom::Emp(_) => {}
                }
            }
        }
    }
    out
}

/// A boolean function that returns one null test of a path off `this` or a parameter, which
/// it never assigns, storing nothing: `isPastEnd()` is `this.current == null`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// `None`: `this`; `Some(i)`: the i-th parameter.
    pub param: Option<usize>,
    pub fields: Vec<String>,
    /// The function returns `true` exactly when the path is null (`==`) or when it is not.
    pub true_when_null: bool,
}

/// The summary of `f`, if it is such a function; `mods` its [`Mods`].
pub fn summary(f: &Func<'_>, mods: &Mods) -> Option<Summary> {
    if mods.all || !mods.fields.is_empty() {
        return None;
    }
    let mut w = Walk::default();
    w.block(&f.decl.body);
    let mut found: Option<Summary> = None;
    for ret in &w.returns {
        let (path, true_when_null) = null_test(ret.as_ref()?)?;
        let param = if path.root == THIS {
            f.class?;
            None
        } else {
            let i = f.decl.params.iter().position(|p| p.name.name == path.root)?;
            if w.assigned.contains(&path.root) {
                return None;
            }
            Some(i)
        };
        let s = Summary { param, fields: path.fields, true_when_null };
        if found.as_ref().is_some_and(|f| *f != s) {
            return None;
        }
        found = Some(s);
    }
    found
}

/// `p == null`, `null == p`, `p != null`, `null != p` for a path `p`: the path and whether the
/// test holds exactly when it is null.
pub fn null_test(e: &Expr) -> Option<(Path, bool)> {
    let ExprKind::Binary { op, lhs, rhs } = &e.kind else { return None };
    let eq = match op {
        BinOp::Eq => true,
        BinOp::Ne => false,
        _ => return None,
    };
    let other = match (&lhs.kind, &rhs.kind) {
        (_, ExprKind::Null) => lhs,
        (ExprKind::Null, _) => rhs,
        _ => return None,
    };
    Some((syntactic_path(other)?, eq))
}

/// A chain of field reads off a variable or `this`, as a path.
pub fn syntactic_path(e: &Expr) -> Option<Path> {
    match &e.kind {
        ExprKind::This => Some(Path::var(THIS)),
        ExprKind::Var(v) => Some(Path::var(&v.name)),
        ExprKind::Field { object, field } => syntactic_path(object)?.field(&field.name),
        _ => None,
    }
}

/// The facts every model of a function's `requires` has: `this` is not null (a method's
/// receiver), and a path off `this` or a parameter is null or not when every disjunct of a
/// clause says so (a pure `p != null` / `p == null`, a points-to `p -> C{…}`, a field `null`
/// in one). Existential variables are never roots.
pub fn requires_facts(f: &Func<'_>) -> State {
    let mut state = State::new();
    if f.class.is_some() {
        state.insert(Path::var(THIS), false);
    }
    let roots: BTreeSet<&str> =
        f.decl.params.iter().map(|p| p.name.name.as_str()).chain(f.class.map(|_| THIS)).collect();
    for formula in &f.decl.requires {
        let mut clause: Option<State> = None;
        for heap in &formula.disjuncts {
            let bound: BTreeSet<&str> = heap.exists.iter().map(|p| p.name.name.as_str()).collect();
            let mut facts = State::new();
            let mut add = |p: Path, v: bool| {
                if roots.contains(p.root.as_str()) && !bound.contains(p.root.as_str()) {
                    facts.insert(p, v);
                }
            };
            for atom in &heap.atoms {
                match atom {
                    Atom::PointsTo { pointer, fields, .. } => {
                        let Some(p) = syntactic_path(pointer) else { continue };
                        for init in fields {
                            if matches!(init.value.kind, ExprKind::Null) {
                                if let Some(q) = p.field(&init.field.name) {
                                    add(q, true);
                                }
                            }
                        }
                        add(p, false);
                    }
                    Atom::Pure(e) => conjuncts(e)
                        .into_iter()
                        .filter_map(null_test)
                        .for_each(|(p, is_null)| add(p, is_null)),
                    _ => {}
                }
            }
            clause = Some(match clause {
                None => facts,
                Some(c) => c.into_iter().filter(|(p, v)| facts.get(p) == Some(v)).collect(),
            });
        }
        for (p, v) in clause.unwrap_or_default() {
            // Clauses that disagree would make the `requires` unsatisfiable; keeping the first
            // fact proves less, never more.
            state.entry(p).or_insert(v);
        }
    }
    state
}

fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Binary { op: BinOp::And, lhs, rhs } => {
            let mut v = conjuncts(lhs);
            v.extend(conjuncts(rhs));
            v
        }
        _ => vec![e],
    }
}

/// What a body holds: the fields it stores, the calls it makes (`true`: `e.m(…)`), its
/// `return` values and the locals and parameters it assigns.
#[derive(Default)]
struct Walk {
    stores: BTreeSet<String>,
    calls: Vec<(bool, String)>,
    returns: Vec<Option<Expr>>,
    assigned: BTreeSet<String>,
}

impl Walk {
    fn block(&mut self, b: &Block) {
        b.stmts.iter().for_each(|s| self.stmt(s));
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Local { name, init, .. } => {
                self.assigned.insert(name.name.clone());
                init.iter().for_each(|e| self.expr(e));
            }
            StmtKind::Assign { target, value } => {
                self.assigned.insert(target.name.clone());
                self.expr(value);
            }
            StmtKind::FieldStore { object, field, value } => {
                self.stores.insert(field.name.clone());
                self.expr(object);
                self.expr(value);
            }
            StmtKind::IndexStore { array, index, value } => {
                [array, index, value].into_iter().for_each(|e| self.expr(e))
            }
            StmtKind::Expr(e) | StmtKind::Assert(e) | StmtKind::Assume(e) | StmtKind::Throw(e) => {
                self.expr(e)
            }
            StmtKind::Return(e) => {
                e.iter().for_each(|e| self.expr(e));
                self.returns.push(e.clone());
            }
            StmtKind::If { cond, then_branch, else_branch } => {
                self.expr(cond);
                self.block(then_branch);
                else_branch.iter().for_each(|b| self.block(b));
            }
            StmtKind::While { cond, body } => {
                self.expr(cond);
                self.block(body);
            }
            StmtKind::Block(b) => self.block(b),
            StmtKind::Try { body, catches } => {
                self.block(body);
                for c in catches {
                    self.assigned.insert(c.name.name.clone());
                    self.block(&c.body);
                }
            }
            StmtKind::Break | StmtKind::Continue => {}
        }
    }

    /// Nesting is capped by the parser, so recursion is safe.
    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Call { callee, .. } => self.calls.push((false, callee.name.clone())),
            ExprKind::MethodCall { method, .. } => self.calls.push((true, method.name.clone())),
            _ => {}
        }
        e.kind.children().into_iter().for_each(|c| self.expr(c));
    }
}

/// Whether an expression makes a call anywhere in it (so it may store fields before the
/// value it reads is used).
pub fn has_call(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Call { .. } | ExprKind::MethodCall { .. })
        || e.kind.children().into_iter().any(has_call)
}
