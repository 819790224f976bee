//! Class hierarchies in the lowered program (see `crate::hierarchy`): the family's one class
//! with the union of the members' fields and the tag, tag tests (`instanceof`, casts, the
//! `assume` of a body only some classes reach), and the dispatchers of overridden methods.

use super::build::{block, ident, Fn, LExpr, LResult};
use super::{Lowered, Lowerer};
use crate::cst::span_of;
use crate::hierarchy::{is_subtype, TAG_FIELD};
use crate::types::JType;
use crate::Scope;
use heaplab_syntax::ast::*;
use heaplab_syntax::Span;
use std::collections::BTreeSet;
use tree_sitter::Node;

impl<'t> Lowerer<'t, '_> {
    /// Java's assignment conversion in the subset: identity, `null` to a reference, and a class
    /// of the file to one of its superclasses or interfaces.
    pub fn assignable(&self, from: &JType, to: &JType) -> bool {
        match (from, to) {
            // Only within a family are two classes one HeapLab class (exceptions of the file
            // extending each other stay apart).
            (JType::Class(a), JType::Class(b)) => {
                a == b
                    || (self.decls.classes[*a].family.is_some()
                        && self.decls.classes[*a].family == self.decls.classes[*b].family
                        && is_subtype(self.decls, *a, *b))
            }
            (JType::Array(a), JType::Array(b)) => self.assignable(a, b),
            _ => from.assignable_to(to),
        }
    }

    /// `obj.__class` is the tag of one of `classes` (concrete classes of one family). The
    /// first concrete class owns every tag the others do not, so a set holding it is written
    /// as the complement.
    pub fn tag_test(&mut self, obj: Expr, classes: &[usize], span: Span) -> Expr {
        let Some(fi) = classes.first().and_then(|&c| self.decls.classes[c].family) else {
            return self.e(ExprKind::Bool(true), span);
        };
        let family = &self.decls.families[fi];
        let (inside, op, join, tags): (bool, BinOp, BinOp, Vec<i64>) = if classes
            .contains(&family.concrete[0])
        {
            let rest = family
                .concrete
                .iter()
                .filter(|c| !classes.contains(c))
                .filter_map(|&c| family.tag(c))
                .collect();
            (false, BinOp::Ne, BinOp::And, rest)
        } else {
            (true, BinOp::Eq, BinOp::Or, classes.iter().filter_map(|&c| family.tag(c)).collect())
        };
        let mut out: Option<Expr> = None;
        for t in tags {
            let o = obj.clone();
            let field = self
                .e(ExprKind::Field { object: Box::new(o), field: ident(TAG_FIELD, span) }, span);
            let lit = self.e(ExprKind::Int(t), span);
            let test = self.bin(op, field, lit, span);
            out = Some(match out {
                Some(prev) => self.bin(join, prev, test, span),
                None => test,
            });
        }
        out.unwrap_or_else(|| self.e(ExprKind::Bool(!inside), span))
    }

    /// `v instanceof C`: not null and of a concrete class below `C`. `v` must be a variable
    /// or `this` (it is read twice).
    pub fn is_instance(&mut self, v: Expr, c: usize, span: Span) -> Expr {
        let below = crate::hierarchy::concrete_below(self.decls, c);
        let null = self.e(ExprKind::Null, span);
        let o = v.clone();
        let not_null = self.bin(BinOp::Ne, o, null, span);
        if self.decls.classes[c].family.is_none() {
            return not_null;
        }
        let all = self.decls.families[self.decls.classes[c].family.unwrap_or(0)].concrete.len();
        if below.len() == all {
            return not_null;
        }
        let test = self.tag_test(v, &below, span);
        self.bin(BinOp::And, not_null, test, span)
    }

    /// A value held in a variable (spilled when it is not one already).
    pub fn held(&mut self, f: &mut Fn, v: LExpr) -> LResult<(Vec<Stmt>, Expr)> {
        let mut pre = v.pre;
        let e = match v.expr.kind {
            ExprKind::Var(_) | ExprKind::This | ExprKind::Null => v.expr,
            _ => self.spill(f, &mut pre, v.expr, &v.ty)?,
        };
        Ok((pre, e))
    }

    /// `(C) v` for a downcast within a family: a `ClassCastException` unless `v` is null or
    /// a `C`.
    pub fn downcast(&mut self, f: &mut Fn, v: LExpr, c: usize, span: Span) -> LResult<LExpr> {
        let (mut pre, e) = self.held(f, v)?;
        let null = self.e(ExprKind::Null, span);
        let is_null = self.bin(BinOp::Eq, e.clone(), null, span);
        let ok = self.is_instance(e.clone(), c, span);
        let fine = self.bin(BinOp::Or, is_null, ok, span);
        let bad = self.not(fine, span);
        self.thrown.insert("ClassCastException".into());
        let new = self.e(
            ExprKind::New { class: ident("ClassCastException", span), fields: Vec::new() },
            span,
        );
        let throw = self.s(StmtKind::Throw(new), span);
        let check = self.s(
            StmtKind::If { cond: bad, then_branch: block(vec![throw], span), else_branch: None },
            span,
        );
        pre.push(check);
        Ok(LExpr { pre, expr: e, ty: JType::Class(c) })
    }

    /// `assume this` is one of `classes`: the first statement of a body that only they reach.
    pub fn assume_this(&mut self, classes: &[usize], span: Span) -> Stmt {
        let this = self.e(ExprKind::This, span);
        let test = self.tag_test(this, classes, span);
        self.s(StmtKind::Assume(test), span)
    }

    /// The fields of a family's class: every member's instance fields (a name two members
    /// declare with one type is one field) and the tag.
    pub fn family_fields(&mut self, fi: usize, span: Span) -> Vec<FieldDecl> {
        let mut out: Vec<FieldDecl> = Vec::new();
        let members = self.decls.families[fi].members.clone();
        for c in members {
            for fd in self.decls.classes[c].fields.iter().filter(|fd| !fd.is_static) {
                let Some(ty) = self.field_types.get(&(c, fd.name.clone())) else { continue };
                let Some(t) = crate::types::erase(ty, self.decls, span_of(&fd.type_node)) else {
                    continue;
                };
                let name = crate::names::ident(&fd.name);
                match out.iter().find(|o| o.name.name == name) {
                    Some(o) if o.ty == t => {}
                    Some(_) => self.diags.push(
                        heaplab_syntax::Diagnostic::error(
                            fd.name_span,
                            format!(
                                "the field `{}` is declared with another type in a related class",
                                fd.name
                            ),
                        )
                        .with_note("a class hierarchy is one HeapLab class: give the fields different names"),
                    ),
                    None => out.push(FieldDecl {
                        ty: t,
                        name: ident(&name, fd.name_span),
                        span: fd.span,
                    }),
                }
            }
        }
        out.push(FieldDecl { ty: TypeExpr::Int(span), name: ident(TAG_FIELD, span), span });
        out
    }

    /// The dispatchers of a family's overridden methods: `m(args)` branches on the tag to the
    /// body each class runs.
    pub fn dispatchers(&mut self, fi: usize) -> Vec<Lowered> {
        let mut out = Vec::new();
        let family = self.decls.families[fi].clone();
        for d in &family.dispatch {
            if d.impls.is_empty() {
                continue;
            }
            let (dc, dm) = d.decl;
            let method = &self.decls.classes[dc].methods[dm];
            let span = method.name_span;
            let abstract_decl = method.body.is_none();
            let ret = self.return_type(dc, dm);
            let mut f = self.new_fn(dc, false, ret.clone(), None);
            let params = self.params(&mut f, dc, dm);
            let return_type = match crate::types::erase(&ret, self.decls, span) {
                Some(t) => t,
                None => {
                    super::build::unsupported_type(&mut f, &ret, span);
                    TypeExpr::Void(span)
                }
            };
            // Group the concrete classes by the body they run, in order of first appearance.
            let mut groups: Vec<((usize, usize), Vec<usize>)> = Vec::new();
            for &(c, body) in &d.impls {
                match groups.iter_mut().find(|(b, _)| *b == body) {
                    Some((_, cs)) => cs.push(c),
                    None => groups.push((body, vec![c])),
                }
            }
            // The group of the first concrete class goes last: its test is the complement.
            if let Some(i) = groups.iter().position(|(_, cs)| cs.contains(&family.concrete[0])) {
                let g = groups.remove(i);
                groups.push(g);
            }
            let mut callees = BTreeSet::new();
            let mut chain: Option<Block> = None;
            for ((bc, bm), classes) in groups.iter().rev() {
                let name = self.decls.classes[*bc].methods[*bm].lowered.clone();
                callees.insert(format!("{}.{name}", family.lowered));
                let args: Vec<Expr> = params.iter().map(|p| self.var(&p.name.name, span)).collect();
                let this = self.e(ExprKind::This, span);
                let call = self.e(
                    ExprKind::MethodCall {
                        receiver: Box::new(this),
                        method: ident(&name, span),
                        args,
                    },
                    span,
                );
                let stmts = if ret == JType::Void {
                    vec![self.s(StmtKind::Expr(call), span), self.s(StmtKind::Return(None), span)]
                } else {
                    vec![self.s(StmtKind::Return(Some(call)), span)]
                };
                let here = block(stmts, span);
                chain = Some(match chain {
                    None => here,
                    Some(rest) => {
                        let this = self.e(ExprKind::This, span);
                        let cond = self.tag_test(this, classes, span);
                        let s = self.s(
                            StmtKind::If { cond, then_branch: here, else_branch: Some(rest) },
                            span,
                        );
                        block(vec![s], span)
                    }
                });
            }
            let decl = FunctionDecl {
                is_pure: false,
                return_type,
                name: ident(&d.call, span),
                params,
                requires: Vec::new(),
                ensures: Vec::new(),
                ensures_formulas: Vec::new(),
                body: chain.unwrap_or_else(|| block(Vec::new(), span)),
                span,
            };
            // The dispatcher stands for the Java method `dc.dm` (what `--method` explores and a
            // spec is attached to) unless that body is exactly what every class below `dc` runs.
            let below = crate::hierarchy::concrete_below(self.decls, dc);
            let exact = below.iter().all(|k| d.impls.iter().any(|(c, b)| c == k && *b == (dc, dm)));
            let origin = (abstract_decl || !exact).then_some((dc, dm));
            let mut l = self.finish(Some(family.lowered.clone()), decl, f, origin);
            l.callees = callees;
            out.push(l);
        }
        out
    }

    /// `super(args)`: a call of the superclass constructor's `init` on `this`.
    pub(super) fn super_init(
        &mut self,
        f: &mut Fn<'t>,
        c: usize,
        args: Vec<LExpr>,
        span: Span,
    ) -> Vec<Stmt> {
        let Some(p) = self.decls.classes[c].parent else { return Vec::new() };
        let parent = &self.decls.classes[p];
        let has_ctor = parent.methods.iter().any(|m| m.is_ctor);
        let init_name = if has_ctor {
            match self.resolve_overload(p, "", true, &args) {
                Ok(m) => parent.methods[m].lowered.clone(),
                Err(_) => {
                    f.problem(span, "a `super(…)` call that matches no constructor", None);
                    return Vec::new();
                }
            }
        } else if args.is_empty() {
            crate::hierarchy::implicit_init(self.decls, p)
        } else {
            f.problem(span, "a `super(…)` call with arguments the superclass does not take", None);
            return Vec::new();
        };
        self.init_call(f, p, init_name, args, span)
    }

    /// The method named `name` that class `c` declares or inherits from the file's classes.
    pub(super) fn inherited_method(&self, c: usize, name: &str) -> Option<(usize, usize)> {
        let mut cur = Some(c);
        for _ in 0..64 {
            let k = cur?;
            let class = &self.decls.classes[k];
            if let Some(m) = class.methods.iter().position(|m| !m.is_ctor && m.name == name) {
                return Some((k, m));
            }
            cur = class.parent;
        }
        None
    }

    /// What a virtual call of method `m` of class `c` calls: the dispatcher when subclasses
    /// override it, else its one body.
    pub(crate) fn virtual_name(&self, c: usize, m: usize) -> String {
        let method = &self.decls.classes[c].methods[m];
        if let Some(fi) = self.decls.classes[c].family {
            let arity = method.params.len();
            if let Some(d) = self.decls.families[fi]
                .dispatch
                .iter()
                .find(|d| d.name == method.name && d.arity == arity)
            {
                return d.call.clone();
            }
        }
        method.lowered.clone()
    }

    /// `super.m(args)`: the body the superclass runs, called without dispatch.
    pub(super) fn super_call(
        &mut self,
        f: &mut Fn<'t>,
        name: &str,
        args_node: Option<Node<'t>>,
        span: Span,
    ) -> LResult<LExpr> {
        let Some(p) = self.decls.classes[f.class].parent else {
            return Err(f.problem(span, format!("`super.{name}(…)` of a JDK class"), None));
        };
        if f.is_static {
            return Err(f.problem(span, "`super` in a static method", None));
        }
        let args = self.args(f, args_node)?;
        let Some((bc, bm)) = crate::hierarchy::resolve(self.decls, p, name, args.len()) else {
            return Err(f.problem(
                span,
                format!("`super.{name}(…)` of a method the superclass does not implement"),
                None,
            ));
        };
        let params = self.param_types(bc, bm);
        if !params.iter().zip(&args).all(|(p, a)| self.assignable(&a.ty, p)) {
            return Err(f.problem(
                span,
                format!("`super.{name}` with arguments of these types"),
                None,
            ));
        }
        let ret = self.return_type(bc, bm);
        let lowered = self.decls.classes[bc].methods[bm].lowered.clone();
        let this = LExpr::pure(self.e(ExprKind::This, span), JType::Class(f.class));
        self.method_call(f, bc, lowered, this, args, ret, span)
    }

    /// The method `name` of class `c` for these arguments, or the one it inherits from the
    /// nearest superclass (then interface) of the file declaring it: (class, overload result).
    pub(super) fn resolve_inherited(
        &self,
        c: usize,
        name: &str,
        args: &[LExpr],
    ) -> (usize, Result<usize, &'static str>) {
        let found = self.resolve_overload(c, name, false, args);
        let mut up: Vec<usize> = self.decls.classes[c].parent.into_iter().collect();
        up.extend(self.decls.classes[c].interfaces.iter().copied());
        let mut steps = 0;
        while let (Err("none"), Some(k)) = (found, up.first().copied()) {
            up.remove(0);
            steps += 1;
            if steps > 64 {
                break;
            }
            if let Ok(m) = self.resolve_overload(k, name, false, args) {
                return (k, Ok(m));
            }
            up.extend(self.decls.classes[k].parent);
            up.extend(self.decls.classes[k].interfaces.iter().copied());
        }
        (c, found)
    }

    /// `x -> C { … }` for a class `C` of a hierarchy says `x` is a `C` (see
    /// `crate::hierarchy`): the tag field `C`'s number, or, for the first concrete class, which
    /// owns every other number, facts that the tag is none of the others'. An abstract class
    /// fixes nothing.
    pub(crate) fn class_tag(
        &mut self,
        c: usize,
        pointer: &Expr,
        fields: &mut Vec<FieldInit>,
        span: Span,
    ) -> Vec<Expr> {
        let Some(fi) = self.decls.classes[c].family else { return Vec::new() };
        let family = &self.decls.families[fi];
        let Some(tag) = family.tag(c) else { return Vec::new() };
        let tag_ident = Ident { name: crate::hierarchy::TAG_FIELD.to_string(), span };
        if tag != 0 {
            let value = Expr { id: self.id(), kind: ExprKind::Int(tag), span };
            fields.push(FieldInit { field: tag_ident, value });
            return Vec::new();
        }
        let others: Vec<i64> = (1..family.concrete.len() as i64).collect();
        let mut out = Vec::new();
        for t in others {
            let read = Expr {
                id: self.id(),
                kind: ExprKind::Field {
                    object: Box::new(pointer.clone()),
                    field: tag_ident.clone(),
                },
                span,
            };
            let lit = Expr { id: self.id(), kind: ExprKind::Int(t), span };
            out.push(Expr {
                id: self.id(),
                kind: ExprKind::Binary { op: BinOp::Ne, lhs: Box::new(read), rhs: Box::new(lit) },
                span,
            });
        }
        out
    }

    /// The Java field whose HeapLab name is `lowered`, of class `c` or inherited by it.
    pub(crate) fn field_named(&self, c: usize, lowered: &str) -> Option<&crate::decls::Field<'t>> {
        let mut k = c;
        for _ in 0..64 {
            let class = &self.decls.classes[k];
            if let Some(f) = class.fields.iter().find(|f| crate::names::ident(&f.name) == lowered) {
                return Some(f);
            }
            k = class.parent?;
        }
        None
    }

    /// The concrete classes a value of static type `ty` may have, when that is not every
    /// class of its family (a field, parameter or local typed with a subclass).
    fn narrow_classes(&self, ty: &JType) -> Option<Vec<usize>> {
        let JType::Class(c) = ty else { return None };
        let fi = self.decls.classes[*c].family?;
        let below = crate::hierarchy::concrete_below(self.decls, *c);
        (below.len() < self.decls.families[fi].concrete.len()).then_some(below)
    }

    /// A field read typed with a subclass: the input cannot hold another class there (Java's
    /// types say so), so the path assumes it; a lazily initialized `Cons next` is a `Cons`.
    pub(super) fn narrowed(&mut self, f: &mut Fn, v: LExpr) -> LResult<LExpr> {
        let cell = matches!(v.expr.kind, ExprKind::Index { .. });
        if !matches!(v.expr.kind, ExprKind::Field { .. }) && !cell {
            return Ok(v);
        }
        if self.longs && v.ty == JType::Int {
            // At 64 bits (a file with `long`) an `int` field or array cell of the input is
            // still an `int`.
            let span = v.expr.span;
            let (mut pre, held) = self.held(f, v)?;
            pre.push(self.assume_int(held.clone(), span));
            return Ok(LExpr { pre, expr: held, ty: JType::Int });
        }
        if cell {
            return Ok(v);
        }
        let Some(classes) = self.narrow_classes(&v.ty) else { return Ok(v) };
        let span = v.expr.span;
        let ty = v.ty.clone();
        let (mut pre, held) = self.held(f, v)?;
        let s = self.assume_of(held.clone(), &classes, span);
        pre.push(s);
        Ok(LExpr { pre, expr: held, ty })
    }

    /// Before `++`, `--` or `op=` reads a field or array cell typed `int` (the first read of
    /// an input's field may be this one): the `assume` that it holds an `int`, at 64 bits.
    pub(super) fn assume_place_int(&mut self, read: Expr, ty: &JType) -> Option<Stmt> {
        let place = matches!(read.kind, ExprKind::Field { .. } | ExprKind::Index { .. });
        (self.longs && *ty == JType::Int && place).then(|| {
            let span = read.span;
            self.assume_int(read, span)
        })
    }

    /// `assume` an `int` input is in Java's `int` range (the program runs at 64 bits).
    fn assume_int(&mut self, v: Expr, span: Span) -> Stmt {
        let both = self.in_int_range(v, span);
        self.s(StmtKind::Assume(both), span)
    }

    /// A points-to's facts that its `int` fields hold `int`s, at 64 bits (a file with `long`):
    /// an input the precondition builds is a Java object too, and a test that sets an `int`
    /// field past its range does not compile.
    pub(crate) fn int_field_facts(
        &mut self,
        c: usize,
        fields: &[FieldInit],
        span: Span,
    ) -> Vec<Expr> {
        if !self.longs {
            return Vec::new();
        }
        let scope = Scope { class: Some(c), method_params: &[] };
        let is_int = |name: &str| {
            self.field_named(c, name).is_some_and(|f| {
                let ty = self.decls.resolve_type(f.type_node, f.extra_dims, scope, self.text);
                ty == JType::Int
            })
        };
        let ints: Vec<Expr> =
            fields.iter().filter(|fi| is_int(&fi.field.name)).map(|fi| fi.value.clone()).collect();
        ints.into_iter()
            .map(|v| {
                let v = self.refresh(&v);
                self.in_int_range(v, span)
            })
            .collect()
    }

    /// `MIN <= v && v <= MAX` for Java's `int`.
    pub(crate) fn in_int_range(&mut self, v: Expr, span: Span) -> Expr {
        let lo = self.e(ExprKind::Int(i64::from(i32::MIN)), span);
        let hi = self.e(ExprKind::Int(i64::from(i32::MAX)), span);
        let again = self.refresh(&v);
        let above = self.bin(BinOp::Le, lo, again, span);
        let below = self.bin(BinOp::Le, v, hi, span);
        self.bin(BinOp::And, above, below, span)
    }

    /// `assume v == null || v is one of classes`.
    fn assume_of(&mut self, v: Expr, classes: &[usize], span: Span) -> Stmt {
        let null = self.e(ExprKind::Null, span);
        let is_null = self.bin(BinOp::Eq, v.clone(), null, span);
        let test = self.tag_test(v, classes, span);
        let either = self.bin(BinOp::Or, is_null, test, span);
        self.s(StmtKind::Assume(either), span)
    }

    /// The `assume`s at the top of a method for its parameters typed with a subclass.
    pub(super) fn narrow_params(&mut self, params: &[Param], types: &[JType]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for (p, t) in params.iter().zip(types) {
            if self.longs && *t == JType::Int {
                let v = self.var(&p.name.name, p.name.span);
                out.push(self.assume_int(v, p.name.span));
            }
            if let Some(classes) = self.narrow_classes(t) {
                let v = self.var(&p.name.name, p.name.span);
                out.push(self.assume_of(v, &classes, p.name.span));
            }
        }
        out
    }
}
