//! Lowering every class of the file: its HeapLab class (or, for a class hierarchy, the one class
//! of its family), its methods and constructors, the dispatchers of a family, and the methods
//! left out because the class extends a JDK class or implements a JDK interface.

use super::build::{ident, Problem};
use super::{Lowered, Lowerer};
use crate::cst::span_of;
use heaplab_syntax::ast::*;
use heaplab_syntax::Diagnostic;

/// Lowers every class of the file. Returns the functions (with their problems) and the
/// classes' HeapLab declarations (fields only; methods are attached after the unexplorable
/// ones are left out).
pub fn lower_all<'t>(l: &mut Lowerer<'t, '_>) -> (Vec<ClassDecl>, Vec<Lowered>, Vec<Diagnostic>) {
    let mut classes = Vec::new();
    let mut functions = Vec::new();
    let mut diags = Vec::new();
    for c in 0..l.decls.classes.len() {
        let class = &l.decls.classes[c];
        let family = class.family;
        if class.kind != "class" && !(class.kind == "interface" && family.is_some()) {
            diags.push(
                Diagnostic::warning(class.name_span, format!("the {} `{}` is outside HeapLab's Java subset and is left out", class.kind, class.name))
                    .with_note("HeapLab reads classes: write it as a class, or keep it out of the explored code"),
            );
            continue;
        }
        let throwable = l.is_throwable(c);
        let outside = class.outside.clone();
        if let Some((span, what)) = &class.jdk_interface {
            diags.push(
                Diagnostic::warning(*span, format!("{what} is outside HeapLab's Java subset"))
                    .with_note(format!(
                        "`{}`'s methods are explored as plain methods; code that uses it as that interface is not",
                        class.name
                    )),
            );
        }
        match family {
            Some(fi) if l.decls.families[fi].members.first() == Some(&c) => {
                let fields = l.family_fields(fi, class.name_span);
                classes.push(ClassDecl {
                    name: ident(&class.lowered, class.name_span),
                    fields,
                    methods: Vec::new(),
                    span: span_of(&class.node),
                });
            }
            Some(_) => {}
            None => {
                let mut fields = Vec::new();
                for fd in class.fields.iter().filter(|fd| !fd.is_static) {
                    if let Some(ty) = l.field_types.get(&(c, fd.name.clone())) {
                        if let Some(t) = crate::types::erase(ty, l.decls, span_of(&fd.type_node)) {
                            fields.push(FieldDecl {
                                ty: t,
                                name: ident(&crate::names::ident(&fd.name), fd.name_span),
                                span: fd.span,
                            });
                        }
                    }
                }
                classes.push(ClassDecl {
                    name: ident(&class.lowered, class.name_span),
                    fields,
                    methods: Vec::new(),
                    span: span_of(&class.node),
                });
            }
        }
        if throwable {
            continue;
        }
        let is_class = class.kind == "class";
        let has_ctor = class.methods.iter().any(|m| m.is_ctor);
        let start = functions.len();
        for m in 0..l.decls.classes[c].methods.len() {
            let method = &l.decls.classes[c].methods[m];
            if method.is_ctor {
                let (init, factory) = l.constructor(c, Some(m));
                functions.push(init);
                // An abstract class is never instantiated: its constructor only runs as `super(…)`.
                if !l.decls.classes[c].is_abstract {
                    functions.push(factory);
                }
            } else if family.is_some() && method.body.is_none() && !method.is_static {
                // An abstract method: its dispatcher stands for it.
            } else {
                functions.push(l.method(c, m));
            }
        }
        if is_class && !has_ctor && !l.trivial_new.contains_key(&c) {
            let (init, factory) = l.constructor(c, None);
            functions.push(init);
            if !l.decls.classes[c].is_abstract {
                functions.push(factory);
            }
        }
        // A JDK superclass or interface (other than an exception's): the class is left out.
        if let Some((span, what)) = outside {
            for f in &mut functions[start..] {
                f.problems.push(Problem {
                    span,
                    message: format!("{what} is outside HeapLab's Java subset"),
                    hint: Some("HeapLab reads inheritance among the file's own classes".into()),
                });
            }
        }
        if let Some(fi) = family {
            if l.decls.families[fi].members.last() == Some(&c) {
                let dispatchers = l.dispatchers(fi);
                // A body that a dispatcher stands for is reached only through it.
                for d in &dispatchers {
                    for f in
                        functions.iter_mut().filter(|f| f.origin.is_some() && f.origin == d.origin)
                    {
                        f.origin = None;
                    }
                }
                functions.extend(dispatchers);
            }
        }
    }
    (classes, functions, diags)
}
