//! The global environment: every class, top-level function and predicate, collected before any
//! body is checked so that declarations may appear in any order (a predicate can mention a class
//! declared below it, functions can be mutually recursive).
//!
//! Duplicates are reported here, once; the first declaration of a name wins and later ones are
//! still checked internally (so their own mistakes are reported) but never resolved to.

use super::suggest::did_you_mean;
use super::Checker;
use crate::ast::{ClassDecl, FunctionDecl, Ident, Item, Param, PredicateDecl, Program, TypeExpr};
use crate::diagnostic::Diagnostic;
use crate::types::Type;
use std::collections::HashMap;

/// The signature of a function or method.
#[derive(Clone, Debug)]
pub(super) struct FnSig {
    pub name: String,
    pub params: Vec<Type>,
    pub ret: Type,
    pub is_pure: bool,
}

#[derive(Clone, Debug, Default)]
pub(super) struct ClassSig {
    /// Fields in declaration order (the first of duplicated names only).
    pub fields: Vec<(String, Type)>,
    /// Methods in declaration order (the first of duplicated names only).
    pub methods: Vec<FnSig>,
}

impl ClassSig {
    pub fn field(&self, name: &str) -> Option<&Type> {
        self.fields.iter().find(|(f, _)| f == name).map(|(_, t)| t)
    }

    pub fn method(&self, name: &str) -> Option<&FnSig> {
        self.methods.iter().find(|m| m.name == name)
    }
}

#[derive(Clone, Debug)]
pub(super) struct PredSig {
    pub params: Vec<Type>,
}

#[derive(Debug, Default)]
pub(super) struct Globals {
    pub classes: HashMap<String, ClassSig>,
    /// Class names in declaration order, for stable suggestions.
    pub class_order: Vec<String>,
    pub functions: HashMap<String, FnSig>,
    /// Function names in declaration order.
    pub function_order: Vec<String>,
    pub preds: HashMap<String, PredSig>,
    /// Predicate names in declaration order.
    pub pred_order: Vec<String>,
}

/// What a declared type is used for; chooses the wording of the `void` error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TypeUse {
    Return,
    Field,
    Param,
    Local,
    Existential,
}

impl Checker {
    /// Pass 1: class names, so that every type name can be resolved. Pass 2: fields, methods,
    /// functions, predicates and tests, reporting duplicates and unknown types.
    pub(super) fn collect(&mut self, program: &Program) {
        for item in &program.items {
            if let Item::Class(class) = item {
                let name = &class.name.name;
                if name.is_empty() {
                    continue;
                }
                if self.globals.classes.contains_key(name) {
                    self.diags.push(Diagnostic::error(
                        class.name.span,
                        format!(
                            "duplicate class `{name}`: a class with this name is already declared"
                        ),
                    ));
                } else {
                    self.globals.classes.insert(name.clone(), ClassSig::default());
                    self.globals.class_order.push(name.clone());
                }
            }
        }
        let mut seen_classes: Vec<&str> = Vec::new();
        let mut tests: HashMap<&str, ()> = HashMap::new();
        for item in &program.items {
            match item {
                Item::Class(class) => {
                    // Only the first declaration of a class defines its members.
                    let first = !seen_classes.contains(&class.name.name.as_str());
                    seen_classes.push(&class.name.name);
                    self.collect_class(class, first);
                }
                Item::Function(f) => {
                    let sig = self.signature(f);
                    let name = &f.name.name;
                    if name.is_empty() {
                        continue;
                    }
                    if let Some(what) = self.top_level_kind(name) {
                        self.diags.push(Diagnostic::error(
                            f.name.span,
                            format!("duplicate name `{name}`: {what} with this name is already declared"),
                        ));
                    } else {
                        self.globals.functions.insert(name.clone(), sig);
                        self.globals.function_order.push(name.clone());
                    }
                }
                Item::Predicate(p) => self.collect_pred(p),
                Item::Test(t) => {
                    let name = t.name.name.as_str();
                    if name.is_empty() {
                        continue;
                    }
                    if tests.insert(name, ()).is_some() {
                        self.diags.push(Diagnostic::error(
                            t.name.span,
                            format!("duplicate test `{name}`: a test with this name is already declared"),
                        ));
                    }
                }
            }
        }
        for (name, sig) in &self.globals.classes {
            self.info.class_fields.insert(name.clone(), sig.fields.clone());
        }
    }

    /// Top-level functions and predicates share one namespace: a bare `p(x)` in a formula could
    /// be either, so the two may not have the same name.
    fn top_level_kind(&self, name: &str) -> Option<&'static str> {
        if self.globals.functions.contains_key(name) {
            Some("a function")
        } else if self.globals.preds.contains_key(name) {
            Some("a predicate")
        } else {
            None
        }
    }

    fn collect_class(&mut self, class: &ClassDecl, first: bool) {
        let class_name = &class.name.name;
        let mut sig = ClassSig::default();
        for field in &class.fields {
            let ty = self.resolve_type(&field.ty, TypeUse::Field, true);
            let name = &field.name.name;
            if name.is_empty() {
                continue;
            }
            if sig.field(name).is_some() {
                self.diags.push(Diagnostic::error(
                    field.name.span,
                    format!("duplicate field `{name}` in class `{class_name}`"),
                ));
            } else {
                sig.fields.push((name.clone(), ty));
            }
        }
        for method in &class.methods {
            let msig = self.signature(method);
            let name = &method.name.name;
            if name.is_empty() {
                continue;
            }
            if sig.method(name).is_some() {
                self.diags.push(Diagnostic::error(
                    method.name.span,
                    format!("duplicate method `{name}` in class `{class_name}`"),
                ));
            } else {
                sig.methods.push(msig);
            }
        }
        if first {
            if let Some(slot) = self.globals.classes.get_mut(class_name) {
                *slot = sig;
            }
        }
    }

    fn collect_pred(&mut self, p: &PredicateDecl) {
        let params = self.param_types(&p.params, true);
        let name = &p.name.name;
        if name.is_empty() {
            return;
        }
        if let Some(what) = self.top_level_kind(name) {
            self.diags.push(Diagnostic::error(
                p.name.span,
                format!("duplicate name `{name}`: {what} with this name is already declared"),
            ));
        } else {
            self.globals.preds.insert(name.clone(), PredSig { params });
            self.globals.pred_order.push(name.clone());
        }
    }

    /// Resolves a function's signature, reporting unknown types and duplicate parameters.
    fn signature(&mut self, f: &FunctionDecl) -> FnSig {
        let ret = self.resolve_type(&f.return_type, TypeUse::Return, true);
        let params = self.param_types(&f.params, true);
        FnSig { name: f.name.name.clone(), params, ret, is_pure: f.is_pure }
    }

    /// Parameter types; with `report`, also unknown types and duplicate names (done once, at
    /// collection time; body checking resolves the same parameters again quietly).
    pub(super) fn param_types(&mut self, params: &[Param], report: bool) -> Vec<Type> {
        let mut names: Vec<&str> = Vec::new();
        let mut types = Vec::new();
        for p in params {
            types.push(self.resolve_type(&p.ty, TypeUse::Param, report));
            let name = p.name.name.as_str();
            if report && !name.is_empty() && names.contains(&name) {
                self.diags
                    .push(Diagnostic::error(p.name.span, format!("duplicate parameter `{name}`")));
            }
            names.push(name);
        }
        types
    }

    /// The type a `TypeExpr` denotes. Unknown class names become `Type::Error` (with a
    /// "did you mean" note when `report` is set); `void` is only allowed as a return type.
    pub(super) fn resolve_type(&mut self, ty: &TypeExpr, usage: TypeUse, report: bool) -> Type {
        match ty {
            TypeExpr::Int(_) => Type::Int,
            TypeExpr::Bool(_) => Type::Bool,
            TypeExpr::Void(span) => {
                if usage == TypeUse::Return {
                    return Type::Void;
                }
                if report {
                    let what = match usage {
                        TypeUse::Field => "a field",
                        TypeUse::Param => "a parameter",
                        TypeUse::Local => "a local variable",
                        TypeUse::Existential => "an existential variable",
                        TypeUse::Return => "a return type",
                    };
                    self.diags.push(Diagnostic::error(
                        *span,
                        format!("{what} cannot have type `void`; use `int`, `bool` or a class"),
                    ));
                }
                Type::Error
            }
            TypeExpr::Class(id) => self.resolve_class_name(id, report),
            TypeExpr::Array { elem, .. } => match self.resolve_type(elem, usage, report) {
                Type::Error => Type::Error,
                Type::Array(_) => {
                    if report {
                        self.diags.push(Diagnostic::error(
                            ty.span(),
                            "arrays of arrays are not supported",
                        ));
                    }
                    Type::Error
                }
                t => Type::Array(Box::new(t)),
            },
        }
    }

    fn resolve_class_name(&mut self, id: &Ident, report: bool) -> Type {
        if self.globals.classes.contains_key(&id.name) {
            return Type::Class(id.name.clone());
        }
        if report && !id.name.is_empty() {
            self.unknown_class(id, "type");
        }
        Type::Error
    }

    /// Reports `unknown {what} `X`` with a suggestion among the declared classes.
    pub(super) fn unknown_class(&mut self, id: &Ident, what: &str) {
        let candidates = self.globals.class_order.iter().map(String::as_str);
        let mut d = Diagnostic::error(id.span, format!("unknown {what} `{}`", id.name));
        if let Some(note) = did_you_mean(&id.name, candidates) {
            d = d.with_note(note);
        } else if what == "type" {
            // Students coming from Java or C write `Integer`, `boolean`, `long`.
            let primitive = match id.name.to_ascii_lowercase().as_str() {
                "int" | "integer" | "long" => Some("int"),
                "bool" | "boolean" => Some("bool"),
                _ => None,
            };
            if let Some(p) = primitive {
                d = d.with_note(format!("did you mean `{p}`?"));
            }
        }
        self.diags.push(d);
    }
}
