//! From the AST to the logic's own formulas.
//!
//! What conversion makes explicit:
//! - `e.f` inside a formula reads a field, so it implies `e` is allocated. Each distinct read
//!   becomes a fresh existential `v` plus a points-to `e -> C { f: v, .. }`; when the same heap
//!   already has an explicit points-to for `e`, the read is that points-to's field instead (a
//!   second points-to for `e` would make the heap contradictory).
//! - `_` and unlisted fields of a points-to become fresh existentials of the field's sort.
//! - `&&` chains are flattened, `>`/`>=` flipped, a bare boolean `b` becomes `b == true`.
//!
//! Sorts come from declarations (class fields, predicate parameters, `exists` binders and the
//! caller's free variables), not from the checker's tables, so a formula typed on the command
//! line converts the same way as one inside a program.

use crate::error::{Error, Result};
use crate::formula::{
    CmpOp, Defs, Formula, Fresh, PointsTo, PredApp, PredDef, Pure, Sort, SymHeap, Term, Var,
};
use heaplab_syntax::ast::{self, Atom, BinOp, ExprKind, Item, TypeExpr, UnOp};
use heaplab_syntax::Span;
use std::collections::{BTreeMap, BTreeSet};

/// Converts a declared type. `void` is not a sort.
pub fn sort_of_type(ty: &TypeExpr) -> Result<Sort> {
    match ty {
        TypeExpr::Int(_) => Ok(Sort::Int),
        TypeExpr::Bool(_) => Ok(Sort::Bool),
        TypeExpr::Class(id) => Ok(Sort::Ref(id.name.clone())),
        TypeExpr::Void(span) => Err(Error::convert(*span, "`void` is not a type of values")),
        // An array is a reference the logic cannot look into: its sort names a "class" `T[]`
        // that no points-to can describe (no program class is spelled with brackets).
        TypeExpr::Array { .. } => Ok(Sort::Ref(heaplab_syntax::pretty::type_expr(ty))),
    }
}

impl Defs {
    /// Collects classes and predicates of a program. Predicates whose body cannot be converted
    /// are left out and reported; the others are still usable.
    pub fn from_program(program: &ast::Program) -> (Defs, Vec<Error>) {
        let mut defs = Defs::default();
        let mut errors = Vec::new();
        for item in &program.items {
            if let Item::Class(c) = item {
                let mut fields = Vec::new();
                for f in &c.fields {
                    match sort_of_type(&f.ty) {
                        Ok(s) => fields.push((f.name.name.clone(), s)),
                        Err(e) => errors.push(e),
                    }
                }
                defs.classes.insert(c.name.name.clone(), fields);
            }
        }
        // Signatures first, so bodies can refer to predicates declared later.
        let mut decls = Vec::new();
        for item in &program.items {
            if let Item::Predicate(p) = item {
                let mut params = Vec::new();
                for prm in &p.params {
                    match sort_of_type(&prm.ty) {
                        Ok(s) => params.push((prm.name.name.clone(), s)),
                        Err(e) => errors.push(e),
                    }
                }
                defs.preds.insert(
                    p.name.name.clone(),
                    PredDef { name: p.name.name.clone(), params, body: Vec::new() },
                );
                decls.push(p);
            }
        }
        let mut bodies = BTreeMap::new();
        for p in decls {
            let Some(def) = defs.preds.get(&p.name.name) else { continue };
            let mut fresh = Fresh::new();
            match convert_formula(&defs, &p.body, &def.params, &mut fresh) {
                Ok(f) => {
                    bodies.insert(p.name.name.clone(), f.disjuncts);
                }
                Err(e) => errors.push(e),
            }
        }
        for (name, body) in bodies {
            if let Some(def) = defs.preds.get_mut(&name) {
                def.body = body;
            }
        }
        // Predicates whose body failed to convert would otherwise look unsatisfiable.
        defs.preds.retain(|_, d| !d.body.is_empty());
        defs.invariants = crate::invariant::invariants(&defs);
        (defs, errors)
    }
}

/// Converts a formula whose free variables are `free` (e.g. `this` and the parameters of a
/// method, or a predicate's parameters).
pub fn convert_formula(
    defs: &Defs,
    formula: &ast::Formula,
    free: &[(Var, Sort)],
    fresh: &mut Fresh,
) -> Result<Formula> {
    let mut disjuncts = Vec::new();
    for sh in &formula.disjuncts {
        disjuncts.push(convert_heap(defs, sh, free, fresh)?);
    }
    Ok(Formula { free: free.to_vec(), disjuncts })
}

struct HeapBuilder<'a> {
    defs: &'a Defs,
    scope: BTreeMap<Var, Sort>,
    fresh: &'a mut Fresh,
    exists: Vec<(Var, Sort)>,
    /// Field reads `(object var, field)` → the fresh variable standing for the value.
    reads: BTreeMap<(Var, String), Var>,
}

fn convert_heap(
    defs: &Defs,
    sh: &ast::SymbolicHeap,
    free: &[(Var, Sort)],
    fresh: &mut Fresh,
) -> Result<SymHeap> {
    let mut scope: BTreeMap<Var, Sort> = free.iter().cloned().collect();
    let mut exists = Vec::new();
    for p in &sh.exists {
        let s = sort_of_type(&p.ty)?;
        scope.insert(p.name.name.clone(), s.clone());
        exists.push((p.name.name.clone(), s));
    }
    let mut b = HeapBuilder { defs, scope, fresh, exists, reads: BTreeMap::new() };
    let mut out = SymHeap::default();
    for atom in &sh.atoms {
        match atom {
            Atom::Emp(_) => {}
            Atom::PointsTo { pointer, class, fields, span } => {
                let Some(layout) = defs.classes.get(&class.name) else {
                    return Err(Error::convert(
                        class.span,
                        format!("unknown class `{}`", class.name),
                    ));
                };
                let ptr = b.term(pointer)?;
                let mut terms = Vec::new();
                for (fname, fsort) in layout {
                    let given = fields.iter().find(|fi| &fi.field.name == fname);
                    let t = match given {
                        Some(fi) => b.term_of_sort(&fi.value, fsort)?,
                        None => b.new_exists(fname, fsort.clone()),
                    };
                    terms.push((fname.clone(), t));
                }
                if let Some(fi) =
                    fields.iter().find(|fi| layout.iter().all(|(f, _)| f != &fi.field.name))
                {
                    return Err(Error::convert(
                        fi.field.span,
                        format!("class `{}` has no field `{}`", class.name, fi.field.name),
                    ));
                }
                let _ = span;
                out.points_to.push(PointsTo { ptr, class: class.name.clone(), fields: terms });
            }
            Atom::Pred { name, args, span } => {
                let Some(def) = defs.preds.get(&name.name) else {
                    return Err(Error::convert(
                        name.span,
                        format!("unknown predicate `{}`", name.name),
                    ));
                };
                if def.params.len() != args.len() {
                    return Err(Error::convert(
                        *span,
                        format!(
                            "predicate `{}` takes {} argument(s) but {} were given",
                            name.name,
                            def.params.len(),
                            args.len()
                        ),
                    ));
                }
                let sorts: Vec<Sort> = def.params.iter().map(|(_, s)| s.clone()).collect();
                let mut targs = Vec::new();
                for (a, s) in args.iter().zip(&sorts) {
                    targs.push(b.term_of_sort(a, s)?);
                }
                out.preds.push(PredApp { name: name.name.clone(), args: targs, depth: 0 });
            }
            Atom::Pure(e) => b.pure(e)?.conjuncts_into(&mut out.pure),
        }
    }
    // Desugar field reads: reuse an explicit points-to for the object when there is one.
    let mut by_object: BTreeMap<Var, Vec<(String, Var)>> = BTreeMap::new();
    for ((obj, field), v) in &b.reads {
        by_object.entry(obj.clone()).or_default().push((field.clone(), v.clone()));
    }
    for (obj, reads) in by_object {
        let existing = out.points_to.iter().position(|pt| pt.ptr.as_var() == Some(obj.as_str()));
        match existing {
            Some(i) => {
                for (field, v) in reads {
                    if let Some(t) = out.points_to[i].field(&field) {
                        out.pure.push(Pure::eq(Term::Var(v), t.clone()));
                    }
                }
            }
            None => {
                let Some(Sort::Ref(class)) = b.scope.get(&obj).cloned() else { continue };
                let layout = defs.classes.get(&class).cloned().unwrap_or_default();
                let mut fields = Vec::new();
                for (fname, fsort) in layout {
                    let t = match reads.iter().find(|(f, _)| *f == fname) {
                        Some((_, v)) => Term::Var(v.clone()),
                        None => b.new_exists(&fname, fsort.clone()),
                    };
                    fields.push((fname, t));
                }
                out.points_to.push(PointsTo { ptr: Term::Var(obj), class, fields });
            }
        }
    }
    out.exists = b.exists;
    Ok(out)
}

impl HeapBuilder<'_> {
    fn new_exists(&mut self, base: &str, sort: Sort) -> Term {
        let v = self.fresh.var(base);
        self.scope.insert(v.clone(), sort.clone());
        self.exists.push((v.clone(), sort));
        Term::Var(v)
    }

    fn sort_of(&self, t: &Term) -> Option<Sort> {
        match t {
            Term::Var(v) => self.scope.get(v).cloned(),
            Term::Null => None,
            Term::Bool(_) => Some(Sort::Bool),
            _ => Some(Sort::Int),
        }
    }

    /// A term where `_` is allowed and becomes a fresh existential of `sort`.
    fn term_of_sort(&mut self, e: &ast::Expr, sort: &Sort) -> Result<Term> {
        if matches!(e.kind, ExprKind::Wildcard) {
            return Ok(self.new_exists("_", sort.clone()));
        }
        self.term(e)
    }

    fn term(&mut self, e: &ast::Expr) -> Result<Term> {
        Ok(match &e.kind {
            ExprKind::Int(i) => Term::Int(*i),
            ExprKind::Bool(b) => Term::Bool(*b),
            ExprKind::Null => Term::Null,
            ExprKind::This => self.var("this", e.span)?,
            // An `ensures` formula's `result`: the caller binds it like a parameter.
            ExprKind::Result => self.var("result", e.span)?,
            ExprKind::Var(id) => self.var(&id.name, id.span)?,
            ExprKind::Field { object, field } => {
                let obj = self.term(object)?;
                let Term::Var(ov) = &obj else {
                    return Err(Error::convert(object.span, "only a variable's fields can be read in a formula"));
                };
                let Some(Sort::Ref(class)) = self.scope.get(ov).cloned() else {
                    return Err(Error::convert(object.span, format!("`{ov}` is not an object reference")));
                };
                let Some(fsort) = self.defs.field_sort(&class, &field.name).cloned() else {
                    return Err(Error::convert(
                        field.span,
                        format!("class `{class}` has no field `{}`", field.name),
                    ));
                };
                let key = (ov.clone(), field.name.clone());
                if let Some(v) = self.reads.get(&key) {
                    return Ok(Term::Var(v.clone()));
                }
                let v = self.fresh.var(&field.name);
                self.scope.insert(v.clone(), fsort.clone());
                self.exists.push((v.clone(), fsort));
                self.reads.insert(key, v.clone());
                Term::Var(v)
            }
            ExprKind::Unary { op: UnOp::Neg, operand } => Term::Neg(Box::new(self.term(operand)?)),
            ExprKind::Binary { op, lhs, rhs } => {
                let (a, b) = (self.term(lhs)?, self.term(rhs)?);
                match op {
                    BinOp::Add => Term::Add(Box::new(a), Box::new(b)),
                    BinOp::Sub => Term::Sub(Box::new(a), Box::new(b)),
                    BinOp::Mul => {
                        if !a.is_ground() && !b.is_ground() {
                            return Err(Error::convert(e.span, "formulas are linear: one factor of `#` must be a constant"));
                        }
                        Term::Mul(Box::new(a), Box::new(b))
                    }
                    _ => {
                        return Err(Error::convert(
                            e.span,
                            format!("`{}` is not supported inside a formula term", op.symbol()),
                        ))
                    }
                }
            }
            ExprKind::Wildcard => {
                return Err(Error::convert(e.span, "`_` is only allowed as a field value or predicate argument"))
            }
            _ => {
                return Err(Error::convert(
                    e.span,
                    "this expression is not supported inside a formula (use variables, fields, null, integers, + - and constant #)",
                ))
            }
        })
    }

    fn var(&self, name: &str, span: Span) -> Result<Term> {
        if self.scope.contains_key(name) {
            Ok(Term::Var(name.to_string()))
        } else {
            Err(Error::convert(span, format!("unbound variable `{name}` in formula")))
        }
    }

    fn pure(&mut self, e: &ast::Expr) -> Result<Pure> {
        Ok(match &e.kind {
            ExprKind::Bool(b) => Pure::Const(*b),
            ExprKind::Unary { op: UnOp::Not, operand } => Pure::Not(Box::new(self.pure(operand)?)),
            ExprKind::Binary { op: BinOp::And, lhs, rhs } => {
                Pure::And(vec![self.pure(lhs)?, self.pure(rhs)?])
            }
            ExprKind::Binary { op: BinOp::Or, lhs, rhs } => {
                Pure::Or(vec![self.pure(lhs)?, self.pure(rhs)?])
            }
            ExprKind::Binary { op, lhs, rhs }
                if matches!(
                    op,
                    BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
                ) =>
            {
                let (a, b) = (self.term(lhs)?, self.term(rhs)?);
                match op {
                    BinOp::Eq => Pure::Cmp(CmpOp::Eq, a, b),
                    BinOp::Ne => Pure::Cmp(CmpOp::Ne, a, b),
                    BinOp::Lt => Pure::Cmp(CmpOp::Lt, a, b),
                    BinOp::Le => Pure::Cmp(CmpOp::Le, a, b),
                    BinOp::Gt => Pure::Cmp(CmpOp::Lt, b, a),
                    _ => Pure::Cmp(CmpOp::Le, b, a),
                }
            }
            ExprKind::Var(_) | ExprKind::Field { .. } => {
                let t = self.term(e)?;
                if self.sort_of(&t) != Some(Sort::Bool) {
                    return Err(Error::convert(e.span, "a pure fact must be a boolean"));
                }
                Pure::Cmp(CmpOp::Eq, t, Term::Bool(true))
            }
            ExprKind::Call { callee, .. } => {
                return Err(Error::convert(
                    callee.span,
                    format!(
                    "calls of pure functions (`{}`) are not supported in formulas by the logic yet",
                    callee.name
                ),
                ))
            }
            _ => {
                return Err(Error::convert(e.span, "this is not a pure fact the logic understands"))
            }
        })
    }
}

/// Infers sorts for the free variables of a formula typed on the command line, from how they
/// are used: predicate arguments take the parameter's sort, points-to pointers the class, field
/// values the field's sort, arithmetic comparisons `int`, and `x == y` copies a known sort.
/// Variables in `known` keep their sorts. Returns the variables in order of first appearance.
pub fn infer_free_sorts(
    defs: &Defs,
    formula: &ast::Formula,
    known: &[(Var, Sort)],
) -> Result<Vec<(Var, Sort)>> {
    Ok(infer_free_sorts_noting(defs, formula, known)?.0)
}

/// [`infer_free_sorts`], with a warning for each group of variables that only meet one another
/// in (dis)equalities and were typed `int` for want of anything else to go by.
pub fn infer_free_sorts_noting(
    defs: &Defs,
    formula: &ast::Formula,
    known: &[(Var, Sort)],
) -> Result<(Vec<(Var, Sort)>, Notes)> {
    let mut notes = Vec::new();
    let mut order: Vec<(Var, Span)> = Vec::new();
    let mut sorts: BTreeMap<Var, Sort> = known.iter().cloned().collect();
    for sh in &formula.disjuncts {
        let bound: Vec<&str> = sh.exists.iter().map(|p| p.name.name.as_str()).collect();
        let seen = |e: &ast::Expr, order: &mut Vec<(Var, Span)>| {
            collect_vars(e, &mut |name, span| {
                if !bound.contains(&name) && !order.iter().any(|(n, _)| n == name) {
                    order.push((name.to_string(), span));
                }
            })
        };
        for atom in &sh.atoms {
            match atom {
                Atom::Emp(_) => {}
                Atom::PointsTo { pointer, fields, .. } => {
                    seen(pointer, &mut order);
                    fields.iter().for_each(|f| seen(&f.value, &mut order));
                }
                Atom::Pred { args, .. } => args.iter().for_each(|a| seen(a, &mut order)),
                Atom::Pure(e) => seen(e, &mut order),
            }
        }
    }
    // Fixpoint over the uses; every round either learns a sort or stops. Variables that only
    // meet each other in (dis)equalities learn nothing from their uses: a group of them gets a
    // default sort (`default_group`) and the fixpoint goes on.
    loop {
        let before = sorts.len();
        for sh in &formula.disjuncts {
            for atom in &sh.atoms {
                match atom {
                    Atom::PointsTo { pointer, class, fields, .. } => {
                        learn(&mut sorts, pointer, Sort::Ref(class.name.clone()));
                        for f in fields {
                            if let Some(s) = defs.field_sort(&class.name, &f.field.name) {
                                learn(&mut sorts, &f.value, s.clone());
                            }
                        }
                    }
                    Atom::Pred { name, args, .. } => {
                        if let Some(def) = defs.preds.get(&name.name) {
                            for (a, (_, s)) in args.iter().zip(&def.params) {
                                learn(&mut sorts, a, s.clone());
                            }
                        }
                    }
                    Atom::Pure(e) => learn_pure(defs, &mut sorts, e),
                    Atom::Emp(_) => {}
                }
            }
        }
        if sorts.len() == before
            && !default_group(defs, formula, &order, &mut sorts, &mut notes)
                .map_err(|(span, msg)| Error::convert(span, msg))?
        {
            break;
        }
    }
    let mut out = Vec::new();
    for (name, span) in order {
        match sorts.get(&name) {
            Some(s) => out.push((name, s.clone())),
            None => {
                return Err(Error::convert(
                    span,
                    format!("cannot infer the type of `{name}`; bind it with `exists T {name}.`"),
                ))
            }
        }
    }
    Ok((out, notes))
}

/// Warnings about a query that still converts (a front end shows them).
pub type Notes = Vec<heaplab_syntax::Diagnostic>;

/// Gives a default sort to one group of unsorted variables that are compared with one another
/// by `==`/`!=` (connected by those comparisons): a reference when the group is compared with
/// `null` (the program's class, when it has exactly one), else `int`. Returns whether a sort
/// was given; `Err` when the group needs a class and the program has several.
fn default_group(
    defs: &Defs,
    formula: &ast::Formula,
    order: &[(Var, Span)],
    sorts: &mut BTreeMap<Var, Sort>,
    notes: &mut Vec<heaplab_syntax::Diagnostic>,
) -> std::result::Result<bool, (Span, String)> {
    // Edges between plain operands of equalities, `None` standing for `null`.
    let mut edges: Vec<(Option<String>, Option<String>)> = Vec::new();
    fn operand(e: &ast::Expr) -> Option<Option<String>> {
        match &e.kind {
            ExprKind::Var(id) => Some(Some(id.name.clone())),
            ExprKind::This => Some(Some("this".into())),
            ExprKind::Null => Some(None),
            _ => None,
        }
    }
    fn walk(e: &ast::Expr, edges: &mut Vec<(Option<String>, Option<String>)>) {
        match &e.kind {
            ExprKind::Binary { op: BinOp::And | BinOp::Or, lhs, rhs } => {
                walk(lhs, edges);
                walk(rhs, edges);
            }
            ExprKind::Binary { op: BinOp::Eq | BinOp::Ne, lhs, rhs } => {
                if let (Some(a), Some(b)) = (operand(lhs), operand(rhs)) {
                    edges.push((a, b));
                }
            }
            ExprKind::Unary { op: UnOp::Not, operand } => walk(operand, edges),
            _ => {}
        }
    }
    for sh in &formula.disjuncts {
        for atom in &sh.atoms {
            if let Atom::Pure(e) = atom {
                walk(e, &mut edges);
            }
        }
    }
    // A variable compared with nothing stays unsorted (reported as not inferable).
    let in_edge =
        |v: &str| edges.iter().any(|(a, b)| a.as_deref() == Some(v) || b.as_deref() == Some(v));
    let Some((start, span)) =
        order.iter().find(|(v, _)| !sorts.contains_key(v) && in_edge(v)).cloned()
    else {
        return Ok(false);
    };
    let mut group = BTreeSet::from([start.clone()]);
    let mut with_null = false;
    loop {
        let before = group.len();
        for (a, b) in &edges {
            for (x, y) in [(a, b), (b, a)] {
                if x.as_ref().is_some_and(|x| group.contains(x)) {
                    match y {
                        None => with_null = true,
                        Some(y) if !sorts.contains_key(y) => {
                            group.insert(y.clone());
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        if group.len() == before {
            break;
        }
    }
    let sort = if with_null {
        let mut classes = defs.classes.keys();
        match (classes.next(), classes.next()) {
            (Some(c), None) => Sort::Ref(c.clone()),
            _ => {
                return Err((
                    span,
                    format!(
                        "cannot infer the class of `{start}`; bind it with `exists T {start}.`"
                    ),
                ))
            }
        }
    } else {
        let names: Vec<String> = group.iter().map(|v| format!("`{v}`")).collect();
        notes.push(
            heaplab_syntax::Diagnostic::warning(
                span,
                format!(
                    "{} {} only compared with one another: typed `int`",
                    names.join(", "),
                    if names.len() == 1 { "is" } else { "are" }
                ),
            )
            .with_note(format!("for references, bind them: `exists T {start}.`")),
        );
        Sort::Int
    };
    for v in group {
        sorts.insert(v, sort.clone());
    }
    Ok(true)
}

fn collect_vars(e: &ast::Expr, f: &mut dyn FnMut(&str, Span)) {
    match &e.kind {
        ExprKind::Var(id) => f(&id.name, id.span),
        ExprKind::This => f("this", e.span),
        ExprKind::Field { object, .. } => collect_vars(object, f),
        ExprKind::Unary { operand, .. } => collect_vars(operand, f),
        ExprKind::Binary { lhs, rhs, .. } => {
            collect_vars(lhs, f);
            collect_vars(rhs, f);
        }
        _ => {}
    }
}

fn learn(sorts: &mut BTreeMap<Var, Sort>, e: &ast::Expr, s: Sort) {
    let name = match &e.kind {
        ExprKind::Var(id) => id.name.as_str(),
        ExprKind::This => "this",
        _ => return,
    };
    sorts.entry(name.to_string()).or_insert(s);
}

fn expr_sort(defs: &Defs, sorts: &BTreeMap<Var, Sort>, e: &ast::Expr) -> Option<Sort> {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Binary { op: BinOp::Add | BinOp::Sub | BinOp::Mul, .. } => {
            Some(Sort::Int)
        }
        ExprKind::Unary { op: UnOp::Neg, .. } => Some(Sort::Int),
        ExprKind::Bool(_) => Some(Sort::Bool),
        ExprKind::Var(id) => sorts.get(&id.name).cloned(),
        ExprKind::This => sorts.get("this").cloned(),
        ExprKind::Field { object, field } => match expr_sort(defs, sorts, object)? {
            Sort::Ref(c) => defs.field_sort(&c, &field.name).cloned(),
            _ => None,
        },
        _ => None,
    }
}

fn learn_pure(defs: &Defs, sorts: &mut BTreeMap<Var, Sort>, e: &ast::Expr) {
    match &e.kind {
        ExprKind::Binary { op, lhs, rhs } => match op {
            BinOp::And | BinOp::Or => {
                learn_pure(defs, sorts, lhs);
                learn_pure(defs, sorts, rhs);
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                learn_int(sorts, lhs);
                learn_int(sorts, rhs);
            }
            BinOp::Eq | BinOp::Ne => {
                let (ls, rs) = (expr_sort(defs, sorts, lhs), expr_sort(defs, sorts, rhs));
                if ls == Some(Sort::Int) || rs == Some(Sort::Int) {
                    learn_int(sorts, lhs);
                    learn_int(sorts, rhs);
                    return;
                }
                if let Some(s) = expr_sort(defs, sorts, rhs) {
                    learn(sorts, lhs, s);
                }
                if let Some(s) = expr_sort(defs, sorts, lhs) {
                    learn(sorts, rhs, s);
                }
            }
            _ => {}
        },
        ExprKind::Unary { op: UnOp::Not, operand } => learn_pure(defs, sorts, operand),
        ExprKind::Var(_) => learn(sorts, e, Sort::Bool),
        _ => {}
    }
}

fn learn_int(sorts: &mut BTreeMap<Var, Sort>, e: &ast::Expr) {
    match &e.kind {
        ExprKind::Binary { lhs, rhs, .. } => {
            learn_int(sorts, lhs);
            learn_int(sorts, rhs);
        }
        ExprKind::Unary { operand, .. } => learn_int(sorts, operand),
        _ => learn(sorts, e, Sort::Int),
    }
}

/// Parses and converts a formula written as text (the CLI's `--formula`). Free variables are
/// implicitly existential in the sense of satisfiability but are reported in the model's store;
/// their sorts are inferred ([`infer_free_sorts`]) unless given in `known`.
pub fn parse_query(defs: &Defs, text: &str, known: &[(Var, Sort)]) -> Result<Formula> {
    Ok(parse_query_noting(defs, text, known)?.0)
}

/// [`parse_query`], with the warnings of [`infer_free_sorts_noting`] (a front end shows them).
pub fn parse_query_noting(
    defs: &Defs,
    text: &str,
    known: &[(Var, Sort)],
) -> Result<(Formula, Notes)> {
    let (parsed, diags) = heaplab_syntax::parser::parse_formula(text);
    if let Some(d) = diags.iter().find(|d| d.is_error()) {
        return Err(Error::convert(d.span, d.message.clone()));
    }
    let Some(parsed) = parsed else {
        return Err(Error::convert(Span::default(), "empty formula"));
    };
    let (free, notes) = infer_free_sorts_noting(defs, &parsed, known)?;
    let mut fresh = Fresh::new();
    Ok((convert_formula(defs, &parsed, &free, &mut fresh)?, notes))
}
