//! What the checker records in `ProgramInfo`, which the interpreter, the symbolic executor and
//! the logic crate rely on: a type for every expression, a target for every call, a target for
//! every predicate atom, and the fields of every class in declaration order.

use heaplab_syntax::ast::*;
use heaplab_syntax::types::{CallTarget, ProgramInfo, Type};
use heaplab_syntax::{analyze, Analysis, SourceFile};
use std::fs;
use std::path::Path;

fn analyze_text(text: &str) -> Analysis {
    let analysis = analyze(&SourceFile::new("info.hl", text));
    assert!(analysis.diagnostics.is_empty(), "{:?}", analysis.diagnostics);
    analysis
}

/// Collects every expression of a program, in formulas too.
#[derive(Default)]
struct Exprs<'a> {
    all: Vec<&'a Expr>,
}

impl<'a> Exprs<'a> {
    fn program(&mut self, p: &'a Program) {
        for item in &p.items {
            match item {
                Item::Class(c) => c.methods.iter().for_each(|m| self.function(m)),
                Item::Function(f) => self.function(f),
                Item::Predicate(p) => self.formula(&p.body),
                Item::Test(t) => self.block(&t.body),
            }
        }
    }

    fn function(&mut self, f: &'a FunctionDecl) {
        f.requires.iter().for_each(|r| self.formula(r));
        f.ensures.iter().for_each(|e| self.expr(e));
        self.block(&f.body);
    }

    fn formula(&mut self, f: &'a Formula) {
        for atom in f.disjuncts.iter().flat_map(|d| &d.atoms) {
            match atom {
                Atom::Emp(_) => {}
                Atom::PointsTo { pointer, fields, .. } => {
                    self.expr(pointer);
                    fields.iter().for_each(|f| self.expr(&f.value));
                }
                Atom::Pred { args, .. } => args.iter().for_each(|a| self.expr(a)),
                Atom::Pure(e) => self.expr(e),
            }
        }
    }

    fn block(&mut self, b: &'a Block) {
        b.stmts.iter().for_each(|s| self.stmt(s));
    }

    fn stmt(&mut self, s: &'a Stmt) {
        match &s.kind {
            StmtKind::Local { init, .. } => init.iter().for_each(|e| self.expr(e)),
            StmtKind::Assign { value, .. } => self.expr(value),
            StmtKind::FieldStore { object, value, .. } => {
                self.expr(object);
                self.expr(value);
            }
            StmtKind::IndexStore { array, index, value } => {
                self.expr(array);
                self.expr(index);
                self.expr(value);
            }
            StmtKind::Expr(e) | StmtKind::Assert(e) | StmtKind::Assume(e) => self.expr(e),
            StmtKind::If { cond, then_branch, else_branch } => {
                self.expr(cond);
                self.block(then_branch);
                else_branch.iter().for_each(|b| self.block(b));
            }
            StmtKind::While { cond, body } => {
                self.expr(cond);
                self.block(body);
            }
            StmtKind::Return(e) => e.iter().for_each(|e| self.expr(e)),
            StmtKind::Throw(e) => self.expr(e),
            StmtKind::Try { body, catches } => {
                self.block(body);
                catches.iter().for_each(|c| self.block(&c.body));
            }
            StmtKind::Break | StmtKind::Continue => {}
            StmtKind::Block(b) => self.block(b),
        }
    }

    fn expr(&mut self, e: &'a Expr) {
        self.all.push(e);
        match &e.kind {
            ExprKind::Field { object, .. } => self.expr(object),
            ExprKind::Unary { operand, .. } | ExprKind::Old(operand) => self.expr(operand),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::Cond { cond, then_expr, else_expr } => {
                self.expr(cond);
                self.expr(then_expr);
                self.expr(else_expr);
            }
            ExprKind::Call { args, .. } => args.iter().for_each(|a| self.expr(a)),
            ExprKind::MethodCall { receiver, args, .. } => {
                self.expr(receiver);
                args.iter().for_each(|a| self.expr(a));
            }
            ExprKind::New { fields, .. } => fields.iter().for_each(|f| self.expr(&f.value)),
            _ => {}
        }
    }
}

fn assert_complete(name: &str, program: &Program, info: &ProgramInfo) {
    let mut exprs = Exprs::default();
    exprs.program(program);
    assert!(!exprs.all.is_empty(), "{name}: no expressions parsed");
    for e in exprs.all {
        let ty = info.type_of(e.id);
        assert!(ty.is_some(), "{name}: no type for {:?} at {:?}", e.kind, e.span);
        assert_ne!(ty, Some(&Type::Error), "{name}: error type at {:?}", e.span);
        if matches!(e.kind, ExprKind::Call { .. } | ExprKind::MethodCall { .. }) {
            assert!(info.calls.contains_key(&e.id), "{name}: unresolved call at {:?}", e.span);
        }
    }
}

/// In every well-typed case, every expression has a type (never `Error`) and every call a target.
#[test]
fn every_expression_of_ok_cases_is_typed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/check/ok");
    let mut count = 0;
    for entry in fs::read_dir(root).expect("ok cases") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "hl") {
            let analysis = analyze_text(&fs::read_to_string(&path).expect("readable"));
            assert_complete(&path.display().to_string(), &analysis.program, &analysis.info);
            count += 1;
        }
    }
    assert!(count > 0);
}

const PROGRAM: &str = "
class Node { int key; Node next; bool mark; }

pred lseg(Node x, Node y) := x == y | exists Node n. x -> Node { next: n, key: _ } * lseg(n, y);

pure bool small(int k) { return k < 10; }

class List {
  Node head;

  pure int size() { return count(this.head); }

  int twice()
    requires lseg(this.head, null) & small(1)
    ensures result == 2 * size()
  {
    return size() + this.size();
  }
}

pure int count(Node n) { return n == null ? 0 : 1 + count(n.next); }
";

fn find(program: &Program, pred: impl Fn(&Expr) -> bool) -> Vec<&Expr> {
    let mut exprs = Exprs::default();
    exprs.program(program);
    exprs.all.into_iter().filter(|e| pred(e)).collect()
}

#[test]
fn calls_are_resolved() {
    let analysis = analyze_text(PROGRAM);
    let info = &analysis.info;
    let method = |m: &str| CallTarget::Method { class: "List".into(), method: m.into() };
    let targets: Vec<(String, &CallTarget)> = find(&analysis.program, |e| {
        matches!(e.kind, ExprKind::Call { .. } | ExprKind::MethodCall { .. })
    })
    .into_iter()
    .map(|e| {
        let name = match &e.kind {
            ExprKind::Call { callee, .. } => callee.name.clone(),
            ExprKind::MethodCall { method, .. } => method.name.clone(),
            _ => unreachable!(),
        };
        (name, &info.calls[&e.id])
    })
    .collect();
    let expected = [
        ("count", CallTarget::Function("count".into())),
        ("size", method("size")),
        ("size", method("size")),
        ("size", method("size")),
        ("count", CallTarget::Function("count".into())),
    ];
    assert_eq!(targets.len(), expected.len(), "{targets:?}");
    for ((name, target), (want_name, want)) in targets.iter().zip(&expected) {
        assert_eq!(name, want_name);
        assert_eq!(*target, want);
    }
}

#[test]
fn predicate_atoms_are_resolved_by_span() {
    let analysis = analyze_text(PROGRAM);
    let mut resolved: Vec<(String, CallTarget)> = Vec::new();
    let mut walk = |f: &Formula| {
        for atom in f.disjuncts.iter().flat_map(|d| &d.atoms) {
            if let Atom::Pred { name, span, .. } = atom {
                resolved.push((name.name.clone(), analysis.info.atom_targets[span].clone()));
            }
        }
    };
    for item in &analysis.program.items {
        match item {
            Item::Predicate(p) => walk(&p.body),
            Item::Class(c) => c.methods.iter().flat_map(|m| &m.requires).for_each(&mut walk),
            _ => {}
        }
    }
    assert_eq!(
        resolved,
        [
            ("lseg".to_string(), CallTarget::Predicate("lseg".into())),
            ("lseg".to_string(), CallTarget::Predicate("lseg".into())),
            ("small".to_string(), CallTarget::Function("small".into())),
        ]
    );
}

#[test]
fn types_and_fields() {
    let analysis = analyze_text(PROGRAM);
    let info = &analysis.info;
    assert_eq!(
        info.class_fields["Node"],
        [
            ("key".to_string(), Type::Int),
            ("next".to_string(), Type::Class("Node".into())),
            ("mark".to_string(), Type::Bool)
        ]
    );
    assert_eq!(info.class_fields["List"], [("head".to_string(), Type::Class("Node".into()))]);
    let wildcard = find(&analysis.program, |e| matches!(e.kind, ExprKind::Wildcard));
    assert_eq!(wildcard.len(), 1);
    assert_eq!(info.type_of(wildcard[0].id), Some(&Type::Int), "`_` gets its field's type");
    let nulls = find(&analysis.program, |e| matches!(e.kind, ExprKind::Null));
    assert!(nulls.iter().all(|e| info.type_of(e.id) == Some(&Type::Null)));
    let results = find(&analysis.program, |e| matches!(e.kind, ExprKind::Result));
    assert_eq!(info.type_of(results[0].id), Some(&Type::Int));
    assert_complete("PROGRAM", &analysis.program, info);
}
