//! Lowering: the Java file's declarations to a HeapLab `Program` whose spans point into the Java
//! text.
//!
//! Each Java class becomes a HeapLab class with its instance fields; instance methods stay
//! methods, static methods become top-level functions, and a constructor becomes an instance
//! method `init` (field initializers, then its body) with a factory function `C_new` that
//! allocates and calls it, so `new C(args)` is an ordinary call. A method with a construct
//! outside the subset, or one that calls such a method, is left out of the program with a
//! warning (an error when it has a spec): the rest of the class still explores.

mod assign;
mod build;
mod call;
mod classes;
mod expr;
mod family;
mod hash;
mod stmt;
mod switch;

pub use build::Problem;
use build::{block, ident, Fn};
pub use classes::lower_all;

use crate::cst::{span_of, text_of};
use crate::decls::{Decls, Scope};
use crate::types::JType;
use heaplab_syntax::ast::*;
use heaplab_syntax::{Diagnostic, Span};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use tree_sitter::Node;

/// How deeply statements and expressions may nest (as in the `.hl` parser), so no input
/// overflows the stack.
pub const MAX_DEPTH: u32 = 128;

/// The value of a `static final` constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Const {
    Int(i64),
    Bool(bool),
}

/// What a field name denotes.
#[derive(Clone, Debug)]
pub enum FieldRef {
    Instance(JType),
    Constant(Const),
    /// A `static` field that is not a constant (outside the subset).
    StaticVar,
    /// An instance field of a type outside the subset: any use is a problem.
    Dropped(JType),
}

/// Functions and methods HeapLab adds for the Java library the subset covers.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Synth {
    /// `Math.max`, `Math.min`, `Math.abs` as `Math_max`, …
    Math(&'static str),
    /// `equals` as identity on this class (`Object`, `Comparable`, or a class without its own).
    Equals(String),
    /// `Comparable.compareTo`: the order of the elements' keys.
    CompareTo,
    /// `hashCode()` of an `Object` element: its hidden [`crate::HASH_FIELD`].
    ObjectHash,
}

/// One lowered function or method, before the ones that cannot run are left out.
pub struct Lowered {
    /// The class it belongs to (HeapLab name), `None` for a top-level function.
    pub class: Option<String>,
    pub decl: FunctionDecl,
    pub problems: Vec<Problem>,
    pub callees: BTreeSet<String>,
    pub effects: bool,
    /// The Java method or constructor it comes from (class index, method index).
    pub origin: Option<(usize, usize)>,
    /// Its `assert` statements and what they call (see `Fn::asserts`).
    pub asserts: Vec<(NodeId, BTreeSet<String>)>,
    /// For a constructor's `init` method and factory function: the class it constructs.
    pub ctor_of: Option<usize>,
}

impl Lowered {
    /// `Class.method` or `function`: the key calls refer to it by.
    pub fn key(&self) -> String {
        match &self.class {
            Some(c) => format!("{c}.{}", self.decl.name.name),
            None => self.decl.name.name.clone(),
        }
    }
}

pub struct Lowerer<'t, 'a> {
    pub decls: &'a Decls<'t>,
    /// The file writes the type `long`: the program runs under `ints java64` and each `int`
    /// result is wrapped to 32 bits by the lowering (`wrap_int`).
    pub longs: bool,
    pub text: &'a str,
    pub next_id: u32,
    pub diags: Vec<Diagnostic>,
    pub constants: HashMap<(usize, String), Const>,
    /// Instance fields whose type is in the subset, with that type.
    pub field_types: HashMap<(usize, String), JType>,
    pub dropped_fields: HashMap<(usize, String), JType>,
    /// The function name of each static method.
    pub static_fns: HashMap<(usize, usize), String>,
    /// Classes without a constructor whose instance fields start as constants: `new C()` is
    /// HeapLab's `new C { f: v }`.
    pub trivial_new: HashMap<usize, Vec<(String, Const)>>,
    /// JDK exception classes the program throws or catches.
    pub thrown: BTreeSet<String>,
    /// Every exception class named in the file (JDK and the file's own), by simple name.
    pub throwable_universe: Vec<String>,
    pub synth: BTreeSet<Synth>,
    /// Messages of `throw` and `assert`, by statement span, for display.
    pub messages: Vec<(Span, String)>,
}

impl<'t, 'a> Lowerer<'t, 'a> {
    pub fn new(decls: &'a Decls<'t>, text: &'a str, root: Node<'t>) -> Lowerer<'t, 'a> {
        let mut l = Lowerer {
            decls,
            longs: mentions_long(root, text),
            text,
            next_id: 0,
            diags: Vec::new(),
            constants: HashMap::new(),
            field_types: HashMap::new(),
            dropped_fields: HashMap::new(),
            static_fns: HashMap::new(),
            trivial_new: HashMap::new(),
            thrown: BTreeSet::new(),
            throwable_universe: Vec::new(),
            synth: BTreeSet::new(),
            messages: Vec::new(),
        };
        l.collect_constants();
        l.collect_fields();
        l.name_static_functions();
        l.collect_throwables(root);
        l.collect_trivial_new();
        l
    }

    /// What `name` denotes as a field of class `c` (or, when `outer`, of a class around it);
    /// an instance field may be inherited from a superclass of the file.
    pub fn field(&self, c: usize, name: &str, outer: bool) -> Option<(usize, FieldRef)> {
        let mut cur = Some(c);
        while let Some(k0) = cur {
            let k = self.declaring(k0, name);
            let key = (k, name.to_string());
            if let Some(v) = self.constants.get(&key) {
                return Some((k, FieldRef::Constant(*v)));
            }
            if let Some(t) = self.field_types.get(&key) {
                return Some((k, FieldRef::Instance(t.clone())));
            }
            if let Some(t) = self.dropped_fields.get(&key) {
                return Some((k, FieldRef::Dropped(t.clone())));
            }
            if self.decls.classes[k].fields.iter().any(|f| f.name == name && f.is_static) {
                return Some((k, FieldRef::StaticVar));
            }
            if !outer {
                return None;
            }
            cur = self.decls.classes[k0].outer;
        }
        None
    }

    /// The class that declares field `name` for class `c`: `c` itself or the nearest
    /// superclass of the file declaring it (`c` when none does).
    fn declaring(&self, c: usize, name: &str) -> usize {
        let mut a = c;
        for _ in 0..64 {
            if self.decls.classes[a].fields.iter().any(|f| f.name == name) {
                return a;
            }
            match self.decls.classes[a].parent {
                Some(p) => a = p,
                None => break,
            }
        }
        c
    }

    fn collect_constants(&mut self) {
        // Constants may refer to constants declared later: a few rounds reach them all.
        for _ in 0..4 {
            let mut changed = false;
            for (ci, class) in self.decls.classes.iter().enumerate() {
                for field in class.fields.iter().filter(|f| f.is_static && f.is_final) {
                    let key = (ci, field.name.clone());
                    if self.constants.contains_key(&key) {
                        continue;
                    }
                    if let Some(v) = field.init.and_then(|i| self.const_in(ci, i, 0)) {
                        self.constants.insert(key, v);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn collect_fields(&mut self) {
        for (ci, class) in self.decls.classes.iter().enumerate() {
            let scope = Scope { class: Some(ci), method_params: &[] };
            for field in class.fields.iter().filter(|f| !f.is_static) {
                let ty =
                    self.decls.resolve_type(field.type_node, field.extra_dims, scope, self.text);
                let ok = crate::types::erase(&ty, self.decls, field.span).is_some();
                let key = (ci, field.name.clone());
                if ok {
                    self.field_types.insert(key, ty);
                } else {
                    self.dropped_fields.insert(key, ty);
                }
            }
        }
    }

    /// A static method keeps its name as a top-level function unless another static method of
    /// the file has it; then it is `Class_method`.
    fn name_static_functions(&mut self) {
        let mut count: HashMap<String, usize> = HashMap::new();
        for class in &self.decls.classes {
            for m in class.methods.iter().filter(|m| m.is_static && !m.is_ctor) {
                *count.entry(m.lowered.clone()).or_default() += 1;
            }
        }
        for (ci, class) in self.decls.classes.iter().enumerate() {
            for (mi, m) in class.methods.iter().enumerate() {
                if !m.is_static || m.is_ctor {
                    continue;
                }
                let unique = count.get(&m.lowered) == Some(&1) && !m.lowered.starts_with("Math_");
                let name = if unique {
                    m.lowered.clone()
                } else {
                    format!("{}_{}", class.lowered, m.lowered)
                };
                self.static_fns.insert((ci, mi), name);
            }
        }
    }

    fn collect_throwables(&mut self, root: Node<'t>) {
        let mut names = BTreeSet::new();
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            if matches!(n.kind(), "type_identifier" | "identifier") {
                let t = text_of(&n, self.text);
                if crate::jdk::throwable(t).is_some() {
                    names.insert(t.to_string());
                }
            }
            let mut cursor = n.walk();
            stack.extend(n.children(&mut cursor));
        }
        for (ci, c) in self.decls.classes.iter().enumerate() {
            if self.is_throwable(ci) {
                names.insert(c.name.clone());
            }
        }
        self.throwable_universe = names.into_iter().collect();
    }

    fn collect_trivial_new(&mut self) {
        for (ci, class) in self.decls.classes.iter().enumerate() {
            if class.methods.iter().any(|m| m.is_ctor)
                || class.superclass.is_some()
                || class.family.is_some()
            {
                continue;
            }
            let mut inits = Vec::new();
            let mut trivial = true;
            for field in class.fields.iter().filter(|f| !f.is_static) {
                let Some(init) = field.init else { continue };
                match self.const_in(ci, init, 0) {
                    Some(v) => inits.push((crate::names::ident(&field.name), v)),
                    None if init.kind() == "null_literal" => {}
                    None => trivial = false,
                }
            }
            if trivial {
                self.trivial_new.insert(ci, inits);
            }
        }
    }

    /// Class `c` extends a JDK throwable (directly or through the file's classes).
    pub fn is_throwable(&self, c: usize) -> bool {
        let mut cur = c;
        for _ in 0..32 {
            let class = &self.decls.classes[cur];
            let Some(sup) = class.superclass else { return false };
            let scope = Scope { class: class.outer, method_params: &[] };
            match self.decls.resolve_type(sup, 0, scope, self.text) {
                JType::Throwable(_) => return true,
                JType::Class(d) => cur = d,
                _ => return false,
            }
        }
        false
    }

    pub fn is_throwable_name(&self, name: &str) -> bool {
        self.decls.classes.iter().enumerate().any(|(i, c)| c.name == name && self.is_throwable(i))
    }

    /// The superclass (simple name) of a throwable, JDK or the file's own.
    fn super_of(&self, name: &str) -> Option<String> {
        if let Some(ci) = self.decls.classes.iter().position(|c| c.name == name) {
            let class = &self.decls.classes[ci];
            let sup = class.superclass?;
            let t = text_of(&sup, self.text);
            let t = t.split('<').next().unwrap_or(t).trim();
            return Some(t.rsplit('.').next().unwrap_or(t).to_string());
        }
        crate::jdk::throwable(name).and_then(|t| t.superclass).map(str::to_string)
    }

    /// `sub` is `sup` or extends it.
    pub fn extends(&self, sub: &str, sup: &str) -> bool {
        let mut cur = Some(sub.to_string());
        for _ in 0..32 {
            match cur {
                Some(c) if c == sup => return true,
                Some(c) => cur = self.super_of(&c),
                None => return false,
            }
        }
        false
    }

    /// The factory function of a constructor (`None`: the implicit one).
    pub fn factory_name(&self, c: usize, m: Option<usize>) -> String {
        let class = &self.decls.classes[c];
        // In a hierarchy the constructors are `init_Class…` and the factories `Class_new…`.
        let (prefix, owner) = match class.family {
            Some(_) => {
                (crate::hierarchy::implicit_init(self.decls, c), crate::names::ident(&class.name))
            }
            None => ("init".to_string(), class.lowered.clone()),
        };
        let suffix = m
            .and_then(|m| {
                class.methods[m].lowered.strip_prefix(prefix.as_str()).map(str::to_string)
            })
            .unwrap_or_default();
        format!("{owner}_new{suffix}")
    }

    fn new_fn(&self, c: usize, is_static: bool, ret: JType, body: Option<Node<'t>>) -> Fn<'t> {
        let mut f = Fn::new(c, is_static, ret);
        if let Some(b) = body {
            let mut stack = vec![b];
            while let Some(n) = stack.pop() {
                if n.kind() == "identifier" {
                    f.reserved.insert(crate::names::ident(text_of(&n, self.text)));
                }
                let mut cursor = n.walk();
                stack.extend(n.children(&mut cursor));
            }
        }
        f
    }

    /// The parameters of method `m` of class `c`, bound in `f`.
    fn params(&mut self, f: &mut Fn<'t>, c: usize, m: usize) -> Vec<Param> {
        let method = &self.decls.classes[c].methods[m];
        if method.varargs {
            f.problem(
                span_of(&method.node),
                "a variable-arity parameter (`T... xs`)",
                Some("take an array `T[]`"),
            );
        }
        let types = self.param_types(c, m);
        let mut out = Vec::new();
        for (p, ty) in method.params.iter().zip(types) {
            let lowered = crate::names::ident(&p.name);
            let span = span_of(&p.type_node);
            match crate::types::erase(&ty, self.decls, span) {
                Some(t) => out.push(Param { ty: t, name: ident(&lowered, p.name_span) }),
                None => {
                    build::unsupported_type(f, &ty, span);
                }
            }
            f.bind(&p.name, &lowered, ty);
        }
        out
    }

    fn finish(
        &self,
        class: Option<String>,
        decl: FunctionDecl,
        mut f: Fn,
        origin: Option<(usize, usize)>,
    ) -> Lowered {
        if f.stopped && f.problems.is_empty() {
            f.problems.push(Problem {
                span: decl.name.span,
                message: "a value of a type outside HeapLab's Java subset".into(),
                hint: None,
            });
        }
        Lowered {
            class,
            decl,
            problems: f.problems,
            callees: f.callees,
            effects: f.effects,
            origin,
            asserts: f.asserts,
            ctor_of: None,
        }
    }

    /// A method of the file (instance method, or static method as a function).
    pub fn method(&mut self, c: usize, m: usize) -> Lowered {
        let method = &self.decls.classes[c].methods[m];
        let ret = self.return_type(c, m);
        let mut f = self.new_fn(c, method.is_static, ret.clone(), method.body);
        f.type_params = method.type_params.clone();
        let params = self.params(&mut f, c, m);
        let ret_span = method.ret.map_or(method.name_span, |r| span_of(&r));
        let return_type = match crate::types::erase(&ret, self.decls, ret_span) {
            Some(t) => t,
            None => {
                build::unsupported_type(&mut f, &ret, ret_span);
                TypeExpr::Void(ret_span)
            }
        };
        let body = match method.body {
            Some(b) => {
                let mut body = self.block_of(&mut f, b);
                let types = self.param_types(c, m);
                let narrow = self.narrow_params(&params, &types);
                body.stmts.splice(0..0, narrow);
                let fam = self.decls.classes[c].family;
                if let Some(reached) =
                    fam.and_then(|fi| self.decls.families[fi].partial.get(&(c, m)).cloned())
                {
                    let s = self.assume_this(&reached, method.name_span);
                    body.stmts.insert(0, s);
                }
                body
            }
            None => {
                f.problem(method.name_span, "a method without a body", None);
                block(Vec::new(), span_of(&method.node))
            }
        };
        let (name, class) = if method.is_static {
            (self.static_fns.get(&(c, m)).cloned().unwrap_or_default(), None)
        } else {
            (method.lowered.clone(), Some(self.decls.classes[c].lowered.clone()))
        };
        let decl = FunctionDecl {
            is_pure: false,
            return_type,
            name: ident(&name, method.name_span),
            params,
            requires: Vec::new(),
            ensures: Vec::new(),
            ensures_formulas: Vec::new(),
            body,
            span: span_of(&method.node),
        };
        self.finish(class, decl, f, Some((c, m)))
    }

    /// `this.f = init;` for each instance field with an initializer, in declaration order.
    fn field_inits(&mut self, f: &mut Fn<'t>, c: usize) -> Vec<Stmt> {
        let mut out = Vec::new();
        let fields: Vec<_> = self.decls.classes[c]
            .fields
            .iter()
            .filter(|fd| !fd.is_static && fd.init.is_some())
            .map(|fd| (fd.name.clone(), fd.init, fd.span))
            .collect();
        for (name, init, span) in fields {
            let Some(init) = init else { continue };
            let ty = match self.field(c, &name, false) {
                Some((_, FieldRef::Instance(t))) => t,
                Some((_, FieldRef::Dropped(t))) => {
                    build::unsupported_type(f, &t, span);
                    continue;
                }
                _ => continue,
            };
            let value = if init.kind() == "array_initializer" {
                match ty.clone() {
                    JType::Array(elem) => self.array_literal(f, init, *elem, span_of(&init)),
                    _ => Err(f.problem(
                        span,
                        "an array initializer for a value that is not an array",
                        None,
                    )),
                }
            } else {
                self.expr(f, init)
            };
            let Ok(v) = value else { continue };
            if !self.assignable(&v.ty, &ty) {
                f.problem(span, format!("initializing the field `{name}` with another type"), None);
                continue;
            }
            out.extend(v.pre);
            f.effects = true;
            let this = self.e(ExprKind::This, span);
            let lowered = crate::names::ident(&name);
            out.push(self.s(
                StmtKind::FieldStore { object: this, field: ident(&lowered, span), value: v.expr },
                span,
            ));
        }
        out
    }

    /// A constructor: the instance method `init` and its factory function.
    pub fn constructor(&mut self, c: usize, m: Option<usize>) -> (Lowered, Lowered) {
        let class = &self.decls.classes[c];
        let class_name = class.lowered.clone();
        let (node, name_span, body, init_name) = match m {
            Some(m) => {
                let method = &class.methods[m];
                (Some(method.node), method.name_span, method.body, method.lowered.clone())
            }
            None => (None, class.name_span, None, crate::hierarchy::implicit_init(self.decls, c)),
        };
        let span = node.map_or(class.name_span, |n| span_of(&n));
        let mut f = self.new_fn(c, false, JType::Void, body);
        if let Some(m) = m {
            f.type_params = self.decls.classes[c].methods[m].type_params.clone();
        }
        // Field initializers cannot see the constructor's parameters: lowered before binding.
        let mut first: Option<Node<'t>> = None;
        if let Some(b) = body {
            let mut cursor = b.walk();
            first = b.named_children(&mut cursor).find(|n| !crate::decls::is_comment(n));
        }
        let chained = first.filter(|n| n.kind() == "explicit_constructor_invocation");
        let calls_this = chained
            .and_then(|n| n.child_by_field_name("constructor"))
            .is_some_and(|k| k.kind() == "this");
        // Java's order: the superclass's constructor, the field initializers, the body.
        let has_parent = self.decls.classes[c].parent.is_some();
        let mut stmts = match chained {
            None if has_parent => self.super_init(&mut f, c, Vec::new(), span),
            _ => Vec::new(),
        };
        let inits = if calls_this { Vec::new() } else { self.field_inits(&mut f, c) };
        let params = match m {
            Some(m) => self.params(&mut f, c, m),
            None => Vec::new(),
        };
        if let Some(inv) = chained {
            stmts.extend(self.chained_constructor(&mut f, c, inv));
        }
        stmts.extend(inits);
        if let Some(b) = body {
            f.push();
            let mut cursor = b.walk();
            let children: Vec<Node<'t>> = b.named_children(&mut cursor).collect();
            for child in children {
                if Some(child) == chained {
                    continue;
                }
                stmts.extend(self.stmt(&mut f, child));
            }
            f.pop();
        }
        let init = FunctionDecl {
            is_pure: false,
            return_type: TypeExpr::Void(name_span),
            name: ident(&init_name, name_span),
            params: params.clone(),
            requires: Vec::new(),
            ensures: Vec::new(),
            ensures_formulas: Vec::new(),
            body: block(stmts, span),
            span,
        };
        let mut init = self.finish(Some(class_name.clone()), init, f, m.map(|m| (c, m)));
        init.ctor_of = Some(c);
        let factory = self.factory(c, m, &class_name, &init_name, &params, name_span, span);
        (init, factory)
    }

    /// `C C_new(params) { C o = new C; o.init(params); return o; }` (in a hierarchy, `new C`
    /// writes the class's tag).
    #[allow(clippy::too_many_arguments)]
    fn factory(
        &mut self,
        c: usize,
        m: Option<usize>,
        class_name: &str,
        init_name: &str,
        params: &[Param],
        name_span: Span,
        span: Span,
    ) -> Lowered {
        let factory_name = self.factory_name(c, m);
        let o = "o";
        let ty = TypeExpr::Class(ident(class_name, name_span));
        let mut tag = Vec::new();
        if let Some(t) = self.decls.classes[c].family.and_then(|fi| self.decls.families[fi].tag(c))
        {
            let value = self.e(ExprKind::Int(t), name_span);
            tag.push(FieldInit { field: ident(crate::hierarchy::TAG_FIELD, name_span), value });
        }
        let new =
            self.e(ExprKind::New { class: ident(class_name, name_span), fields: tag }, name_span);
        let decl = self.s(
            StmtKind::Local { ty: ty.clone(), name: ident(o, name_span), init: Some(new) },
            name_span,
        );
        let args: Vec<Expr> = params.iter().map(|p| self.var(&p.name.name, name_span)).collect();
        let recv = self.var(o, name_span);
        let call = self.e(
            ExprKind::MethodCall {
                receiver: Box::new(recv),
                method: ident(init_name, name_span),
                args,
            },
            name_span,
        );
        let call = self.s(StmtKind::Expr(call), name_span);
        let ret = self.var(o, name_span);
        let ret = self.s(StmtKind::Return(Some(ret)), name_span);
        let factory = FunctionDecl {
            is_pure: false,
            return_type: ty,
            name: ident(&factory_name, name_span),
            params: params
                .iter()
                .map(|p| Param { ty: p.ty.clone(), name: p.name.clone() })
                .collect(),
            requires: Vec::new(),
            ensures: Vec::new(),
            ensures_formulas: Vec::new(),
            body: block(vec![decl, call, ret], span),
            span,
        };
        let mut callees = BTreeSet::new();
        callees.insert(format!("{class_name}.{init_name}"));
        Lowered {
            class: None,
            decl: factory,
            problems: Vec::new(),
            callees,
            effects: true,
            origin: m.map(|m| (c, m)),
            asserts: Vec::new(),
            ctor_of: Some(c),
        }
    }

    /// `this(args)` as a call of the other constructor's `init`; `super(…)` of `Object` or of a
    /// JDK exception does nothing HeapLab keeps.
    fn chained_constructor(&mut self, f: &mut Fn<'t>, c: usize, inv: Node<'t>) -> Vec<Stmt> {
        let span = span_of(&inv);
        let is_this = inv.child_by_field_name("constructor").is_some_and(|k| k.kind() == "this");
        if !is_this {
            if self.decls.classes[c].parent.is_none() {
                return Vec::new();
            }
            let Ok(args) = self.args(f, inv.child_by_field_name("arguments")) else {
                return Vec::new();
            };
            return self.super_init(f, c, args, span);
        }
        let Ok(args) = self.args(f, inv.child_by_field_name("arguments")) else {
            return Vec::new();
        };
        let class = &self.decls.classes[c];
        let ctor = (0..class.methods.len()).find(|&i| {
            let m = &class.methods[i];
            m.is_ctor
                && m.params.len() == args.len()
                && self.param_types(c, i).iter().zip(&args).all(|(p, a)| self.assignable(&a.ty, p))
        });
        let Some(ctor) = ctor else {
            f.problem(span, "a `this(…)` call that matches no constructor", None);
            return Vec::new();
        };
        let init_name = class.methods[ctor].lowered.clone();
        self.init_call(f, c, init_name, args, span)
    }
}

/// The keys of the functions that cannot run: those with a problem, and those calling one
/// (with the callee that decided it).
pub fn unexplorable(
    functions: &[Lowered],
    synthesized: &BTreeSet<String>,
) -> BTreeMap<String, Option<String>> {
    let known: BTreeSet<String> = functions.iter().map(Lowered::key).collect();
    let mut bad: BTreeMap<String, Option<String>> =
        functions.iter().filter(|f| !f.problems.is_empty()).map(|f| (f.key(), None)).collect();
    loop {
        let mut changed = false;
        for f in functions {
            let key = f.key();
            if bad.contains_key(&key) {
                continue;
            }
            let culprit = f.callees.iter().find(|c| {
                bad.contains_key(*c) || (!known.contains(*c) && !synthesized.contains(*c))
            });
            if let Some(c) = culprit {
                bad.insert(key, Some(c.clone()));
                changed = true;
            }
        }
        if !changed {
            return bad;
        }
    }
}

/// Drops the `assert` statements that call a function HeapLab cannot run, with a warning each.
pub fn drop_unrunnable_asserts(
    functions: &mut [Lowered],
    bad: &BTreeMap<String, Option<String>>,
    synthesized: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) {
    let known: BTreeSet<String> = functions.iter().map(Lowered::key).collect();
    for f in functions.iter_mut() {
        let mut drop = Vec::new();
        for (id, callees) in &f.asserts {
            let culprit = callees.iter().find(|c| {
                bad.contains_key(*c) || (!known.contains(*c) && !synthesized.contains(*c))
            });
            if let Some(c) = culprit {
                drop.push((*id, c.clone()));
            } else {
                f.callees.extend(callees.iter().cloned());
            }
        }
        for (id, callee) in drop {
            if let Some(span) = remove_stmt(&mut f.decl.body, id) {
                diags.push(
                    Diagnostic::warning(span, "HeapLab does not check this `assert`")
                        .with_note(format!("it calls `{callee}`, which HeapLab cannot run")),
                );
            }
        }
    }
}

fn remove_stmt(b: &mut Block, id: NodeId) -> Option<Span> {
    if let Some(i) = b.stmts.iter().position(|s| s.id == id) {
        return Some(b.stmts.remove(i).span);
    }
    for s in &mut b.stmts {
        let found = match &mut s.kind {
            StmtKind::If { then_branch, else_branch, .. } => remove_stmt(then_branch, id)
                .or_else(|| else_branch.as_mut().and_then(|e| remove_stmt(e, id))),
            StmtKind::While { body, .. } | StmtKind::Block(body) => remove_stmt(body, id),
            StmtKind::Try { body, catches } => remove_stmt(body, id)
                .or_else(|| catches.iter_mut().find_map(|c| remove_stmt(&mut c.body, id))),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Whether the file writes the type `long` anywhere.
fn mentions_long(root: Node, text: &str) -> bool {
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.kind() == "integral_type" && text_of(&n, text) == "long" {
            return true;
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
    false
}
