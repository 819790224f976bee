//! Calls, object and array creation, casts and `instanceof`: the expressions whose meaning
//! depends on the file's declarations (overloads, constructors, erasure).

use super::build::{ident, unsupported_type, Fn, LExpr, LResult, Stop};
use super::expr::StaticRecv;
use super::{Const, FieldRef, Lowerer, Synth};
use crate::cst::{span_of, text_of};
use crate::decls::Scope;
use crate::types::{display, JType};
use heaplab_syntax::ast::*;
use heaplab_syntax::Span;
use tree_sitter::Node;

impl<'t> Lowerer<'t, '_> {
    pub fn args(&mut self, f: &mut Fn<'t>, node: Option<Node<'t>>) -> LResult<Vec<LExpr>> {
        let Some(node) = node else { return Ok(Vec::new()) };
        let mut cursor = node.walk();
        let nodes: Vec<Node<'t>> =
            node.named_children(&mut cursor).filter(|n| !crate::decls::is_comment(n)).collect();
        let mut out = Vec::new();
        for n in nodes {
            out.push(self.expr(f, n)?);
        }
        Ok(out)
    }

    pub fn call(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let span = span_of(&node);
        let Some(name_node) = node.child_by_field_name("name") else {
            return Err(f.problem(span, "this call", None));
        };
        let name = text_of(&name_node, self.text).to_string();
        let args_node = node.child_by_field_name("arguments");
        let Some(object) = node.child_by_field_name("object") else {
            let args = self.args(f, args_node)?;
            return self.call_method(f, f.class, None, &name, args, span, true);
        };
        match object.kind() {
            "this" => {
                let this = self.expr(f, object)?;
                let args = self.args(f, args_node)?;
                return self.call_method(f, f.class, Some(this), &name, args, span, false);
            }
            "super" => return self.super_call(f, &name, args_node, span),
            _ => {}
        }
        if let Some(recv) = self.static_receiver(f, object) {
            return match recv {
                StaticRecv::Class(c) => {
                    let args = self.args(f, args_node)?;
                    self.call_method(f, c, None, &name, args, span, false)
                }
                StaticRecv::Jdk(cls) => self.jdk_call(f, &cls, &name, args_node, span),
            };
        }
        let recv = self.expr(f, object)?;
        let args = self.args(f, args_node)?;
        match recv.ty.clone() {
            JType::Unsupported(_) => Err(Stop),
            JType::Class(c) => {
                let has_own = self.inherited_method(c, &name).is_some();
                if name == "equals" && args.len() == 1 && !has_own {
                    return self.identity_equals(f, recv, args, span);
                }
                self.call_method(f, c, Some(recv), &name, args, span, false)
            }
            JType::Object | JType::Comparable if name == "equals" && args.len() == 1 => {
                self.identity_equals(f, recv, args, span)
            }
            JType::Comparable if name == "compareTo" && args.len() == 1 => self.builtin_call(
                f,
                recv,
                "compareTo",
                args,
                &[JType::Comparable],
                JType::Int,
                span,
            ),
            JType::Comparable if name == "hashCode" && args.is_empty() => {
                self.hash_code(f, recv, heaplab_syntax::builtin::KEY, span)
            }
            JType::Object if name == "hashCode" && args.is_empty() => {
                self.synth.insert(Synth::ObjectHash);
                self.hash_code(f, recv, crate::HASH_FIELD, span)
            }
            JType::Comparator if name == "compare" && args.len() == 2 => {
                let params = [JType::Comparable, JType::Comparable];
                self.builtin_call(f, recv, "compare", args, &params, JType::Int, span)
            }
            JType::Object if name == "compareTo" => Err(f.problem(
                span,
                "`compareTo` on an element that is not `Comparable`",
                Some("declare the type parameter `extends Comparable<…>`"),
            )),
            t => {
                let shown = display(&t, self.decls);
                Err(f.problem(span, format!("calling `{name}` on a `{shown}`"), None))
            }
        }
    }

    /// A call of a method HeapLab provides on a built-in or synthesized class.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn builtin_call(
        &mut self,
        f: &mut Fn,
        recv: LExpr,
        method: &str,
        args: Vec<LExpr>,
        params: &[JType],
        ret: JType,
        span: Span,
    ) -> LResult<LExpr> {
        for (a, p) in args.iter().zip(params) {
            if !self.assignable(&a.ty, p) {
                let (x, y) = (display(&a.ty, self.decls), display(p, self.decls));
                return Err(f.problem(
                    a.expr.span,
                    format!("passing a `{x}` where a `{y}` is expected"),
                    None,
                ));
            }
        }
        if method == "compareTo" {
            self.synth.insert(Synth::CompareTo);
        }
        let owner = match &recv.ty {
            JType::Class(c) => self.decls.classes[*c].lowered.clone(),
            t => display(t, self.decls),
        };
        f.callees.insert(format!("{owner}.{method}"));
        let mut parts = vec![recv];
        parts.extend(args);
        let (pre, mut es) = self.sequence(f, parts)?;
        let receiver = es.remove(0);
        let e = self.e(
            ExprKind::MethodCall {
                receiver: Box::new(receiver),
                method: ident(method, span),
                args: es,
            },
            span,
        );
        Ok(LExpr { pre, expr: e, ty: ret })
    }

    /// The parameter types of a method or constructor of class `c`.
    pub fn param_types(&self, c: usize, m: usize) -> Vec<JType> {
        let method = &self.decls.classes[c].methods[m];
        let scope = Scope { class: Some(c), method_params: &method.type_params };
        method
            .params
            .iter()
            .map(|p| self.decls.resolve_type(p.type_node, p.extra_dims, scope, self.text))
            .collect()
    }

    pub fn return_type(&self, c: usize, m: usize) -> JType {
        let method = &self.decls.classes[c].methods[m];
        let scope = Scope { class: Some(c), method_params: &method.type_params };
        match method.ret {
            Some(t) => {
                let dims = method
                    .node
                    .child_by_field_name("dimensions")
                    .map_or(0, |d| text_of(&d, self.text).matches('[').count());
                self.decls.resolve_type(t, dims, scope, self.text)
            }
            None => JType::Void,
        }
    }

    /// The method or constructor of class `c` that Java picks for these arguments: by name and
    /// number of arguments, then by their static types.
    pub(super) fn resolve_overload(
        &self,
        c: usize,
        name: &str,
        ctor: bool,
        args: &[LExpr],
    ) -> Result<usize, &'static str> {
        let class = &self.decls.classes[c];
        let by_arity: Vec<usize> = (0..class.methods.len())
            .filter(|&i| {
                let m = &class.methods[i];
                m.is_ctor == ctor && (ctor || m.name == name) && m.params.len() == args.len()
            })
            .collect();
        if by_arity.is_empty() {
            let named = class.methods.iter().any(|m| m.is_ctor == ctor && (ctor || m.name == name));
            return Err(if named { "arity" } else { "none" });
        }
        let fits: Vec<usize> = by_arity
            .iter()
            .copied()
            .filter(|&i| {
                let ps = self.param_types(c, i);
                ps.iter().zip(args).all(|(p, a)| self.assignable(&a.ty, p))
            })
            .collect();
        match fits.as_slice() {
            [one] => Ok(*one),
            [] => Err("types"),
            many => {
                // The most specific: one whose parameters all have exactly the arguments' types.
                let exact: Vec<usize> = many
                    .iter()
                    .copied()
                    .filter(|&i| self.param_types(c, i).iter().zip(args).all(|(p, a)| *p == a.ty))
                    .collect();
                if let [one] = exact.as_slice() {
                    Ok(*one)
                } else {
                    Err("ambiguous")
                }
            }
        }
    }

    /// A call of a method of the file's class `c`. `implicit`: a bare `m(…)`, which may also
    /// name a static method of an enclosing class.
    #[allow(clippy::too_many_arguments)]
    fn call_method(
        &mut self,
        f: &mut Fn,
        c: usize,
        recv: Option<LExpr>,
        name: &str,
        args: Vec<LExpr>,
        span: Span,
        implicit: bool,
    ) -> LResult<LExpr> {
        let (mut class, mut found) = self.resolve_inherited(c, name, &args);
        if implicit {
            let mut cur = self.decls.classes[c].outer;
            while let (Err("none"), Some(o)) = (found, cur) {
                class = o;
                found = self.resolve_overload(o, name, false, &args);
                cur = self.decls.classes[o].outer;
            }
        }
        let m = match found {
            Ok(m) => m,
            Err(why) => {
                let shown = &self.decls.classes[c].name;
                let msg = match why {
                    "none" => format!("the method `{name}`, which `{shown}` does not declare"),
                    "arity" => format!("`{name}` with {} arguments", args.len()),
                    "ambiguous" => format!("an ambiguous call of `{name}`"),
                    _ => format!("`{name}` with arguments of these types"),
                };
                let hint = (why == "none").then_some(
                    "inherited and JDK methods are outside the subset (except `equals`, `compareTo`, `Math.max/min/abs`)",
                );
                return Err(f.problem(span, msg, hint));
            }
        };
        let params = self.param_types(class, m);
        let callee_key = if self.decls.classes[class].methods[m].is_static {
            self.static_fns.get(&(class, m)).cloned().unwrap_or_default()
        } else {
            format!(
                "{}.{}",
                self.decls.classes[class].lowered, self.decls.classes[class].methods[m].lowered
            )
        };
        if params.iter().any(|p| p.unsupported().is_some())
            || args.iter().any(|a| a.ty.unsupported().is_some())
        {
            if args.iter().any(|a| a.ty.unsupported().is_some()) {
                // The argument's declaration was the problem (already reported).
                return Err(Stop);
            }
            let callee = callee_key.rsplit('.').next().unwrap_or(&callee_key).to_string();
            return Err(f.problem_msg(
                span,
                format!("`{callee}` takes a parameter of a type outside HeapLab's Java subset"),
            ));
        }
        let ret = self.return_type(class, m);
        if ret.unsupported().is_some() {
            let shown = crate::types::display(&ret, self.decls);
            return Err(f.problem_msg(
                span,
                format!("`{name}` returns a `{shown}`, a type outside HeapLab's Java subset"),
            ));
        }
        let method = &self.decls.classes[class].methods[m];
        if method.is_static {
            let callee = self.static_fns.get(&(class, m)).cloned().unwrap_or_default();
            f.callees.insert(callee.clone());
            let mut parts = Vec::new();
            if let Some(r) = recv {
                if !r.pre.is_empty() {
                    return Err(f.problem(span, "a static call on a computed receiver", None));
                }
            }
            parts.extend(args);
            let (pre, es) = self.sequence(f, parts)?;
            let e = self.e(ExprKind::Call { callee: ident(&callee, span), args: es }, span);
            return Ok(LExpr { pre, expr: e, ty: ret });
        }
        if !crate::hierarchy::is_subtype(self.decls, f.class, class) && recv.is_none() {
            return Err(f.problem(
                span,
                format!("calling `{name}` of the enclosing instance"),
                Some("HeapLab reads an inner class as a record: pass what it needs as a parameter"),
            ));
        }
        let recv = match recv {
            Some(r) => r,
            None => {
                if f.is_static {
                    return Err(f.problem(span, "an instance method in a static method", None));
                }
                LExpr::pure(self.e(ExprKind::This, span), JType::Class(f.class))
            }
        };
        let lowered = self.virtual_name(class, m);
        self.method_call(f, class, lowered, recv, args, ret, span)
    }

    /// `recv.lowered(args)` on a method of class `class` (recorded as a callee), with the
    /// receiver and the arguments evaluated left to right as Java does.
    #[allow(clippy::too_many_arguments)]
    pub fn method_call(
        &mut self,
        f: &mut Fn,
        class: usize,
        lowered: String,
        recv: LExpr,
        args: Vec<LExpr>,
        ret: JType,
        span: Span,
    ) -> LResult<LExpr> {
        f.callees.insert(format!("{}.{lowered}", self.decls.classes[class].lowered));
        let mut parts = vec![recv];
        parts.extend(args);
        let (pre, mut es) = self.sequence(f, parts)?;
        let receiver = es.remove(0);
        let e = self.e(
            ExprKind::MethodCall {
                receiver: Box::new(receiver),
                method: ident(&lowered, span),
                args: es,
            },
            span,
        );
        Ok(LExpr { pre, expr: e, ty: ret })
    }

    /// `this.init(args)` as a statement: a constructor's call of another class's or its own
    /// other constructor (`super(…)`, `this(…)`); nothing when an argument does not lower.
    pub fn init_call(
        &mut self,
        f: &mut Fn,
        class: usize,
        init_name: String,
        args: Vec<LExpr>,
        span: Span,
    ) -> Vec<Stmt> {
        let this = LExpr::pure(self.e(ExprKind::This, span), JType::Class(f.class));
        match self.method_call(f, class, init_name, this, args, JType::Void, span) {
            Ok(call) => {
                let mut pre = call.pre;
                pre.push(self.s(StmtKind::Expr(call.expr), span));
                pre
            }
            Err(_) => Vec::new(),
        }
    }

    /// `Math.max(a, b)`, printing, and the rest of the JDK (outside the subset).
    fn jdk_call(
        &mut self,
        f: &mut Fn<'t>,
        cls: &str,
        name: &str,
        args_node: Option<Node<'t>>,
        span: Span,
    ) -> LResult<LExpr> {
        if crate::jdk::is_printing(cls, name) {
            // Printing is a no-op; its arguments are messages and are not evaluated.
            let unit = self.e(ExprKind::Int(0), span);
            return Ok(LExpr::pure(unit, JType::Void));
        }
        let math = crate::jdk::MATH_FUNCTIONS.iter().find(|(n, _)| *n == name);
        match (cls, math) {
            ("Math", Some(&(fname, arity))) => {
                let args = self.args(f, args_node)?;
                if args.len() != arity || args.iter().any(|a| a.ty != JType::Int) {
                    return Err(f.problem(
                        span,
                        format!("`Math.{name}` on values that are not `int`"),
                        None,
                    ));
                }
                self.synth.insert(Synth::Math(fname));
                let callee = format!("Math_{fname}");
                f.callees.insert(callee.clone());
                let (pre, es) = self.sequence(f, args)?;
                let e = self.e(ExprKind::Call { callee: ident(&callee, span), args: es }, span);
                Ok(LExpr { pre, expr: e, ty: JType::Int })
            }
            _ => Err(f.problem(
                span,
                format!("`{cls}.{name}(…)` from the Java library"),
                (cls == "StdIn").then_some("reading input is outside the subset"),
            )),
        }
    }

    /// `new C(args)`: a constructor of the file's classes (its factory function), a JDK
    /// exception, or `new Object()`.
    pub fn new_object(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let span = span_of(&node);
        let mut cursor = node.walk();
        if node.named_children(&mut cursor).any(|c| c.kind() == "class_body") {
            return Err(f.problem(span, "an anonymous class", None));
        }
        let Some(ty_node) = node.child_by_field_name("type") else {
            return Err(f.problem(span, "this `new`", None));
        };
        let scope = Scope { class: Some(f.class), method_params: &f.type_params };
        let ty = self.decls.resolve_type(ty_node, 0, scope, self.text);
        f.effects = true;
        match &ty {
            JType::Class(c) => {
                let c = *c;
                let class = &self.decls.classes[c];
                if class.kind != "class" || class.is_abstract {
                    return Err(f.problem(
                        span,
                        format!(
                            "creating an instance of the {}{} `{}`",
                            if class.is_abstract && class.kind == "class" {
                                "abstract "
                            } else {
                                ""
                            },
                            class.kind,
                            class.name
                        ),
                        None,
                    ));
                }
                if self.is_throwable(c) {
                    // An exception of the file's own: only its class matters to the outcome.
                    let e = self.e(
                        ExprKind::New { class: ident(&class.lowered, span), fields: Vec::new() },
                        span,
                    );
                    return Ok(LExpr::pure(e, ty));
                }
                let args = self.args(f, node.child_by_field_name("arguments"))?;
                let has_ctor = class.methods.iter().any(|m| m.is_ctor);
                if !has_ctor {
                    if !args.is_empty() {
                        return Err(f.problem(
                            span,
                            "a constructor with arguments that the class does not declare",
                            None,
                        ));
                    }
                    if let Some(fields) = self.trivial_new.get(&c).cloned() {
                        let lowered = class.lowered.clone();
                        let mut inits = Vec::new();
                        for (field, value) in fields {
                            let v = self.constant(value, span).expr;
                            inits.push(FieldInit { field: ident(&field, span), value: v });
                        }
                        let e = self
                            .e(ExprKind::New { class: ident(&lowered, span), fields: inits }, span);
                        return Ok(LExpr::pure(e, ty));
                    }
                }
                let m = match self.resolve_overload(c, "", true, &args) {
                    Ok(m) => Some(m),
                    Err(_) if !has_ctor => None,
                    Err(_) => {
                        return Err(f.problem(
                            span,
                            "a constructor call that matches no constructor",
                            None,
                        ))
                    }
                };
                let factory = self.factory_name(c, m);
                f.callees.insert(factory.clone());
                let (pre, es) = self.sequence(f, args)?;
                let e = self.e(ExprKind::Call { callee: ident(&factory, span), args: es }, span);
                Ok(LExpr { pre, expr: e, ty })
            }
            JType::Object => {
                let e = self
                    .e(ExprKind::New { class: ident("Object", span), fields: Vec::new() }, span);
                Ok(LExpr::pure(e, ty))
            }
            JType::Throwable(n) => {
                self.thrown.insert(n.clone());
                let e = self.e(ExprKind::New { class: ident(n, span), fields: Vec::new() }, span);
                Ok(LExpr::pure(e, ty))
            }
            JType::Unsupported(_) => Err(unsupported_type(f, &ty, span)),
            t => {
                let shown = display(t, self.decls);
                Err(f.problem(span, format!("creating a `{shown}`"), None))
            }
        }
    }

    /// `new T[n]` and `new T[]{…}`; `elem_override` is the element type of a generic array
    /// created as `(T[]) new Object[n]`.
    pub fn new_array(
        &mut self,
        f: &mut Fn<'t>,
        node: Node<'t>,
        elem_override: Option<JType>,
    ) -> LResult<LExpr> {
        let span = span_of(&node);
        let Some(ty_node) = node.child_by_field_name("type") else {
            return Err(f.problem(span, "this array creation", None));
        };
        let scope = Scope { class: Some(f.class), method_params: &f.type_params };
        let elem = match elem_override {
            Some(t) => t,
            None => self.decls.resolve_type(ty_node, 0, scope, self.text),
        };
        let mut cursor = node.walk();
        let dims: Vec<Node<'t>> = node.children_by_field_name("dimensions", &mut cursor).collect();
        let sized: Vec<Node<'t>> =
            dims.iter().copied().filter(|d| d.kind() == "dimensions_expr").collect();
        let extra: usize = dims
            .iter()
            .filter(|d| d.kind() == "dimensions")
            .map(|d| text_of(d, self.text).matches('[').count())
            .sum();
        let elem_expr = self.type_expr(f, &elem, span)?;
        if matches!(elem, JType::Array(_)) || sized.len() + extra != 1 {
            return Err(f.problem(span, "an array of arrays", None));
        }
        f.effects = true;
        let ty = JType::Array(Box::new(elem.clone()));
        if let Some(len_node) = sized.first().and_then(|d| d.named_child(0)) {
            let len = self.expr(f, len_node)?;
            if len.ty != JType::Int {
                return Err(f.problem(span, "an array length that is not an `int`", None));
            }
            let e = self.e(ExprKind::NewArray { elem: elem_expr, len: Box::new(len.expr) }, span);
            return Ok(LExpr { pre: len.pre, expr: e, ty });
        }
        let Some(init) = node.child_by_field_name("value") else {
            return Err(f.problem(span, "this array creation", None));
        };
        self.array_literal(f, init, elem, span)
    }

    /// `{e1, …}` as an array of `elem`.
    pub fn array_literal(
        &mut self,
        f: &mut Fn<'t>,
        init: Node<'t>,
        elem: JType,
        span: Span,
    ) -> LResult<LExpr> {
        let elem_expr = self.type_expr(f, &elem, span)?;
        let mut cursor = init.walk();
        let nodes: Vec<Node<'t>> =
            init.named_children(&mut cursor).filter(|n| !crate::decls::is_comment(n)).collect();
        let mut parts = Vec::new();
        for n in nodes {
            let e = self.expr(f, n)?;
            if !self.assignable(&e.ty, &elem) {
                return Err(f.problem(span_of(&n), "an array element of another type", None));
            }
            parts.push(e);
        }
        let (pre, es) = self.sequence(f, parts)?;
        f.effects = true;
        let e = self.e(ExprKind::ArrayLit { elem: elem_expr, elems: es }, span);
        Ok(LExpr { pre, expr: e, ty: JType::Array(Box::new(elem)) })
    }

    pub fn cast(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let span = span_of(&node);
        let (Some(ty_node), Some(value)) =
            (node.child_by_field_name("type"), node.child_by_field_name("value"))
        else {
            return Err(f.problem(span, "this cast", None));
        };
        let scope = Scope { class: Some(f.class), method_params: &f.type_params };
        let target = self.decls.resolve_type(ty_node, 0, scope, self.text);
        // `(T[]) new Object[n]`: the generic array idiom, an array of T's erasure.
        if let (JType::Array(elem), "array_creation_expression") = (&target, value.kind()) {
            return self.new_array(f, value, Some((**elem).clone()));
        }
        let v = self.expr(f, value)?;
        if target == JType::Int && v.ty == JType::Int {
            return match text_of(&ty_node, self.text) {
                "int" => Ok(v),
                t => Err(f.problem(span, format!("a narrowing cast to `{t}`"), None)),
            };
        }
        if let (JType::Int, JType::Long, "int") = (&target, &v.ty, text_of(&ty_node, self.text)) {
            return Ok(self.wrap_int(LExpr { ty: JType::Int, ..v }, span)); // the low 32 bits
        }
        if self.assignable(&v.ty, &target) {
            return Ok(LExpr { ty: target, ..v });
        }
        if let (JType::Class(a), JType::Class(b)) = (&v.ty, &target) {
            let fam = self.decls.classes[*a].family;
            if fam.is_some() && fam == self.decls.classes[*b].family {
                return self.downcast(f, v, *b, span);
            }
        }
        if let Some(u) = target.unsupported() {
            let _ = u;
            return Err(unsupported_type(f, &target, span));
        }
        let (a, b) = (display(&v.ty, self.decls), display(&target, self.decls));
        Err(f.problem(span, format!("a cast from `{a}` to `{b}`"), None))
    }

    pub fn instance_of(&mut self, f: &mut Fn<'t>, node: Node<'t>) -> LResult<LExpr> {
        let span = span_of(&node);
        let (Some(left), Some(right)) =
            (node.child_by_field_name("left"), node.child_by_field_name("right"))
        else {
            return Err(f.problem(span, "this `instanceof`", None));
        };
        let scope = Scope { class: Some(f.class), method_params: &f.type_params };
        let target = self.decls.resolve_type(right, 0, scope, self.text);
        let v = self.expr(f, left)?;
        if let (JType::Class(a), JType::Class(b)) = (&v.ty, &target) {
            let (a, b) = (*a, *b);
            let fam = self.decls.classes[a].family;
            if fam.is_some() && fam == self.decls.classes[b].family {
                let (mut pre, held) = self.held(f, v)?;
                let test = self.is_instance(held.clone(), b, span);
                // `x instanceof B b`: `b` is `x`, bound from here on (Java reads it only
                // where the test held).
                if let Some(name) = node.child_by_field_name("name") {
                    let java = text_of(&name, self.text).to_string();
                    let local = f.temp();
                    let ty = self.type_expr(f, &target, span)?;
                    pre.push(self.s(
                        StmtKind::Local { ty, name: ident(&local, span), init: Some(held) },
                        span,
                    ));
                    f.bind(&java, &local, target.clone());
                }
                return Ok(LExpr { pre, expr: test, ty: JType::Boolean });
            }
        }
        if node.child_by_field_name("name").is_some() {
            return Err(f.problem(span, "an `instanceof` pattern", None));
        }
        if v.ty != target {
            let (a, b) = (display(&v.ty, self.decls), display(&target, self.decls));
            return Err(f.problem(
                span,
                format!("`instanceof {b}` on a `{a}`"),
                Some(
                    "HeapLab has no subclasses: `x instanceof C` is `x != null` where `x` is a `C`",
                ),
            ));
        }
        let null = self.e(ExprKind::Null, span);
        let e = self.bin(BinOp::Ne, v.expr, null, span);
        Ok(LExpr { pre: v.pre, expr: e, ty: JType::Boolean })
    }

    /// The value of a constant expression (literals, constants, arithmetic on them).
    pub fn const_value(&self, f: &Fn, node: Node) -> Option<Const> {
        self.const_in(f.class, node, 0)
    }

    pub fn const_in(&self, class: usize, node: Node, depth: u32) -> Option<Const> {
        if depth > 64 {
            return None;
        }
        let text = text_of(&node, self.text);
        let int = |v: i64| Some(Const::Int(i64::from(v as i32)));
        match node.kind() {
            "parenthesized_expression" => self.const_in(class, node.named_child(0)?, depth + 1),
            "decimal_integer_literal" => {
                let v: i64 = text.replace('_', "").parse().ok()?;
                (v <= i64::from(i32::MAX)).then_some(Const::Int(v))
            }
            "hex_integer_literal" | "octal_integer_literal" | "binary_integer_literal" => {
                let raw = text.replace('_', "");
                if raw.ends_with(['l', 'L']) {
                    return None;
                }
                let (d, r) = match node.kind() {
                    "hex_integer_literal" => (&raw[2..], 16),
                    "binary_integer_literal" => (&raw[2..], 2),
                    _ => (&raw[1..], 8),
                };
                let v = u32::from_str_radix(d, r).ok()?;
                Some(Const::Int(i64::from(v as i32)))
            }
            "character_literal" => super::expr::char_value(text).map(Const::Int),
            "true" => Some(Const::Bool(true)),
            "false" => Some(Const::Bool(false)),
            "identifier" => match self.field(class, text, true) {
                Some((_, FieldRef::Constant(c))) => Some(c),
                _ => None,
            },
            "field_access" => {
                let o = node.child_by_field_name("object")?;
                let fld = text_of(&node.child_by_field_name("field")?, self.text);
                let otext = text_of(&o, self.text);
                match self.decls.find_class(otext, Some(class)) {
                    Some(c) => match self.field(c, fld, false) {
                        Some((_, FieldRef::Constant(k))) => Some(k),
                        _ => None,
                    },
                    None => crate::jdk::int_constant(otext, fld).map(Const::Int),
                }
            }
            "unary_expression" => {
                let operand = node.child_by_field_name("operand")?;
                let op = text_of(&node.child_by_field_name("operator")?, self.text);
                if op == "-" && operand.kind() == "decimal_integer_literal" {
                    let v: i64 = text_of(&operand, self.text).replace('_', "").parse().ok()?;
                    return (v <= 1 << 31).then(|| Const::Int(i64::from((-v) as i32)));
                }
                match (op, self.const_in(class, operand, depth + 1)?) {
                    ("-", Const::Int(v)) => int(v.wrapping_neg()),
                    ("+", Const::Int(v)) => int(v),
                    ("~", Const::Int(v)) => int(!v),
                    ("!", Const::Bool(b)) => Some(Const::Bool(!b)),
                    _ => None,
                }
            }
            "binary_expression" => {
                let l = self.const_in(class, node.child_by_field_name("left")?, depth + 1)?;
                let r = self.const_in(class, node.child_by_field_name("right")?, depth + 1)?;
                let op = text_of(&node.child_by_field_name("operator")?, self.text);
                match (l, r) {
                    (Const::Int(a), Const::Int(b)) => {
                        let (a32, b32) = (a as i32, b as i32);
                        match op {
                            "+" => int(i64::from(a32.wrapping_add(b32))),
                            "-" => int(i64::from(a32.wrapping_sub(b32))),
                            "*" => int(i64::from(a32.wrapping_mul(b32))),
                            "/" if b32 != 0 => int(i64::from(a32.wrapping_div(b32))),
                            "%" if b32 != 0 => int(i64::from(a32.wrapping_rem(b32))),
                            "<<" => int(i64::from(a32.wrapping_shl(b32 as u32 & 31))),
                            ">>" => int(i64::from(a32.wrapping_shr(b32 as u32 & 31))),
                            ">>>" => int(i64::from(((a32 as u32) >> (b32 as u32 & 31)) as i32)),
                            "&" => int(i64::from(a32 & b32)),
                            "|" => int(i64::from(a32 | b32)),
                            "^" => int(i64::from(a32 ^ b32)),
                            "<" => Some(Const::Bool(a < b)),
                            "<=" => Some(Const::Bool(a <= b)),
                            ">" => Some(Const::Bool(a > b)),
                            ">=" => Some(Const::Bool(a >= b)),
                            "==" => Some(Const::Bool(a == b)),
                            "!=" => Some(Const::Bool(a != b)),
                            _ => None,
                        }
                    }
                    (Const::Bool(a), Const::Bool(b)) => match op {
                        "&&" | "&" => Some(Const::Bool(a && b)),
                        "||" | "|" => Some(Const::Bool(a || b)),
                        "^" | "!=" => Some(Const::Bool(a != b)),
                        "==" => Some(Const::Bool(a == b)),
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        }
    }
}
