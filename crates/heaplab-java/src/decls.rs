//! The declarations of a Java file: its classes (top-level, nested and inner), their fields,
//! methods and constructors, and the JML comments in front of them. Collected once from the
//! tree-sitter tree, before any body is lowered, so that names resolve in any order (a method
//! may call one declared below it, a class may name a nested class of another).

use crate::cst::{span_of, text_of};
use crate::types::{JType, Names};
use heaplab_syntax::Span;
use tree_sitter::Node;

/// One class, interface, enum or record of the file.
pub struct Class<'t> {
    pub node: Node<'t>,
    pub name: String,
    pub name_span: Span,
    /// The class this one is declared in.
    pub outer: Option<usize>,
    /// Top-level, or a `static` nested class (no enclosing instance).
    pub is_static: bool,
    /// `class`, `interface`, `enum`, `record` or `annotation`.
    pub kind: &'static str,
    pub type_params: Vec<TypeParam>,
    /// The `extends` clause's type.
    pub superclass: Option<Node<'t>>,
    pub fields: Vec<Field<'t>>,
    /// Methods and constructors in source order.
    pub methods: Vec<Method<'t>>,
    /// The class's name in the HeapLab program (its simple name unless that is taken; the
    /// family's name for a class in a hierarchy, see `hierarchy`).
    pub lowered: String,
    /// `abstract class`, or an interface.
    pub is_abstract: bool,
    /// The `implements` (or an interface's `extends`) clause's types.
    pub interface_nodes: Vec<Node<'t>>,
    /// The file's class it extends (set by `hierarchy::link`).
    pub parent: Option<usize>,
    /// The file's interfaces it implements or extends (set by `hierarchy::link`).
    pub interfaces: Vec<usize>,
    /// Its hierarchy in `Decls::families`, when it extends or is extended by a class of the
    /// file (or implements one of its interfaces).
    pub family: Option<usize>,
    /// A JDK class it extends (other than an exception): what it names and where; its
    /// methods are outside the subset.
    pub outside: Option<(heaplab_syntax::Span, String)>,
    /// A JDK interface it implements (other than `Comparable`, `Iterable` and the marker
    /// interfaces): what it names and where. Its methods are explored as plain methods; the
    /// class used as that interface is outside the subset (a warning says so).
    pub jdk_interface: Option<(heaplab_syntax::Span, String)>,
}

/// A type parameter, erased to `Comparable` when bounded by it or compared, else `Object`.
#[derive(Clone, Debug)]
pub struct TypeParam {
    pub name: String,
    /// Erased to `Comparable` in HeapLab: declared so, or compared by the code.
    pub comparable: bool,
    /// Declared `extends Comparable<…>`: Java's own erasure (what reflection sees).
    pub declared_comparable: bool,
}

pub struct Field<'t> {
    pub name: String,
    pub name_span: Span,
    pub type_node: Node<'t>,
    /// `int a[]` style dimensions on the declarator.
    pub extra_dims: usize,
    pub init: Option<Node<'t>>,
    pub is_static: bool,
    pub is_final: bool,
    pub span: Span,
}

pub struct Method<'t> {
    pub node: Node<'t>,
    pub name: String,
    pub name_span: Span,
    pub is_static: bool,
    pub is_ctor: bool,
    pub type_params: Vec<TypeParam>,
    pub params: Vec<Param<'t>>,
    /// Variable arity (`int... xs`): outside the subset.
    pub varargs: bool,
    /// The return type (`None` for a constructor).
    pub ret: Option<Node<'t>>,
    pub body: Option<Node<'t>>,
    /// The JML comments (`//@ …`, `/*@ … @*/`) directly above it.
    pub specs: Vec<Node<'t>>,
    /// Its name in the HeapLab program (overloads are numbered).
    pub lowered: String,
}

pub struct Param<'t> {
    pub name: String,
    pub name_span: Span,
    pub type_node: Node<'t>,
    pub extra_dims: usize,
}

/// Everything collected from one file.
pub struct Decls<'t> {
    pub classes: Vec<Class<'t>>,
    /// `package a.b;`, if any.
    pub package: Option<String>,
    /// JML comments outside any method's spec (predicates, stray clauses), with the class
    /// whose body holds them.
    pub loose_specs: Vec<(Option<usize>, Node<'t>)>,
    /// The class hierarchies of the file (`hierarchy::link`).
    pub families: Vec<crate::hierarchy::Family>,
}

impl Names for Decls<'_> {
    fn class_name(&self, index: usize) -> &str {
        self.classes.get(index).map_or("?", |c| c.lowered.as_str())
    }
}

pub fn is_comment(n: &Node) -> bool {
    matches!(n.kind(), "line_comment" | "block_comment")
}

/// A JML annotation comment: `//@ …` or `/*@ … @*/`.
pub fn is_jml(n: &Node, text: &str) -> bool {
    is_comment(n) && {
        let t = text_of(n, text);
        t.starts_with("//@") || t.starts_with("/*@")
    }
}

/// Collects the declarations of a parsed file.
pub fn collect<'t>(root: Node<'t>, text: &str) -> Decls<'t> {
    let mut decls =
        Decls { classes: Vec::new(), package: None, loose_specs: Vec::new(), families: Vec::new() };
    let mut cursor = root.walk();
    for child in root.named_children(&mut cursor) {
        match child.kind() {
            "package_declaration" => {
                let mut c = child.walk();
                let name = child
                    .named_children(&mut c)
                    .find(|n| matches!(n.kind(), "scoped_identifier" | "identifier"));
                decls.package = name.map(|n| text_of(&n, text).replace(char::is_whitespace, ""));
            }
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "annotation_type_declaration" => {
                collect_class(&mut decls, child, None, text);
            }
            _ if is_jml(&child, text) => decls.loose_specs.push((None, child)),
            _ => {}
        }
    }
    name_classes(&mut decls);
    name_methods(&mut decls);
    decls
}

fn modifiers_of<'a>(node: &Node, text: &'a str) -> Vec<&'a str> {
    let mut cursor = node.walk();
    let Some(mods) = node.children(&mut cursor).find(|c| c.kind() == "modifiers") else {
        return Vec::new();
    };
    let mut c = mods.walk();
    mods.children(&mut c)
        .filter(|m| !matches!(m.kind(), "annotation" | "marker_annotation"))
        .map(|m| text.get(m.start_byte()..m.end_byte()).unwrap_or(""))
        .collect()
}

fn type_params(node: Option<Node>, text: &str) -> Vec<TypeParam> {
    let Some(node) = node else { return Vec::new() };
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|n| n.kind() == "type_parameter")
        .map(|p| {
            let mut c = p.walk();
            let name = p
                .named_children(&mut c)
                .find(|n| n.kind() == "type_identifier")
                .map_or(String::new(), |n| text_of(&n, text).to_string());
            let mut c = p.walk();
            let comparable = p
                .named_children(&mut c)
                .any(|n| n.kind() == "type_bound" && text_of(&n, text).contains("Comparable"));
            TypeParam { name, comparable, declared_comparable: comparable }
        })
        .collect()
}

fn collect_class<'t>(decls: &mut Decls<'t>, node: Node<'t>, outer: Option<usize>, text: &str) {
    let kind = match node.kind() {
        "class_declaration" => "class",
        "interface_declaration" => "interface",
        "enum_declaration" => "enum",
        "record_declaration" => "record",
        _ => "annotation",
    };
    let name_node = node.child_by_field_name("name");
    let mods = modifiers_of(&node, text);
    let index = decls.classes.len();
    decls.classes.push(Class {
        node,
        name: name_node.map_or(String::new(), |n| text_of(&n, text).to_string()),
        name_span: name_node.map_or_else(|| span_of(&node), |n| span_of(&n)),
        outer,
        // Interfaces, enums and records nested in a class are implicitly static.
        is_static: outer.is_none() || mods.contains(&"static") || kind != "class",
        kind,
        type_params: type_params(node.child_by_field_name("type_parameters"), text),
        superclass: node.child_by_field_name("superclass").and_then(|s| s.named_child(0)),
        fields: Vec::new(),
        methods: Vec::new(),
        lowered: String::new(),
        is_abstract: kind == "interface" || mods.contains(&"abstract"),
        interface_nodes: interface_nodes(node),
        parent: None,
        interfaces: Vec::new(),
        family: None,
        outside: None,
        jdk_interface: None,
    });
    let Some(body) = node.child_by_field_name("body") else { return };
    let mut pending: Vec<Node<'t>> = Vec::new();
    let mut cursor = body.walk();
    for member in body.named_children(&mut cursor) {
        if is_jml(&member, text) {
            pending.push(member);
            continue;
        }
        if is_comment(&member) {
            continue;
        }
        match member.kind() {
            "field_declaration" => {
                collect_fields(&mut decls.classes[index], member, text);
            }
            "method_declaration"
            | "constructor_declaration"
            | "compact_constructor_declaration" => {
                let specs = std::mem::take(&mut pending);
                let method = collect_method(member, specs, text);
                decls.classes[index].methods.push(method);
            }
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "annotation_type_declaration" => {
                collect_class(decls, member, Some(index), text);
            }
            _ => {}
        }
        decls.loose_specs.extend(pending.drain(..).map(|n| (Some(index), n)));
    }
    decls.loose_specs.extend(pending.into_iter().map(|n| (Some(index), n)));
}

/// The types of `implements A, B` (a class) or `extends A, B` (an interface).
fn interface_nodes(node: Node) -> Vec<Node> {
    let mut out = Vec::new();
    let mut cursor = node.walk();
    for c in node.named_children(&mut cursor) {
        if matches!(c.kind(), "super_interfaces" | "extends_interfaces") {
            let mut c2 = c.walk();
            for list in c.named_children(&mut c2).filter(|n| n.kind() == "type_list") {
                let mut c3 = list.walk();
                out.extend(list.named_children(&mut c3));
            }
        }
    }
    out
}

fn dims_of(node: &Node, text: &str) -> usize {
    node.child_by_field_name("dimensions").map_or(0, |d| text_of(&d, text).matches('[').count())
}

fn collect_fields<'t>(class: &mut Class<'t>, node: Node<'t>, text: &str) {
    let mods = modifiers_of(&node, text);
    let Some(type_node) = node.child_by_field_name("type") else { return };
    let mut cursor = node.walk();
    for d in node.children_by_field_name("declarator", &mut cursor) {
        let Some(name) = d.child_by_field_name("name") else { continue };
        class.fields.push(Field {
            name: text_of(&name, text).to_string(),
            name_span: span_of(&name),
            type_node,
            extra_dims: dims_of(&d, text),
            init: d.child_by_field_name("value"),
            is_static: mods.contains(&"static"),
            is_final: mods.contains(&"final"),
            span: span_of(&d),
        });
    }
}

fn collect_method<'t>(node: Node<'t>, specs: Vec<Node<'t>>, text: &str) -> Method<'t> {
    let mods = modifiers_of(&node, text);
    let name_node = node.child_by_field_name("name");
    let mut params = Vec::new();
    let mut varargs = false;
    if let Some(list) = node.child_by_field_name("parameters") {
        let mut cursor = list.walk();
        for p in list.named_children(&mut cursor) {
            match p.kind() {
                "formal_parameter" => {
                    let (Some(ty), Some(name)) =
                        (p.child_by_field_name("type"), p.child_by_field_name("name"))
                    else {
                        continue;
                    };
                    params.push(Param {
                        name: text_of(&name, text).to_string(),
                        name_span: span_of(&name),
                        type_node: ty,
                        extra_dims: dims_of(&p, text),
                    });
                }
                "spread_parameter" => varargs = true,
                _ => {}
            }
        }
    }
    let is_ctor = node.kind() != "method_declaration";
    Method {
        node,
        name: name_node.map_or(String::new(), |n| text_of(&n, text).to_string()),
        name_span: name_node.map_or_else(|| span_of(&node), |n| span_of(&n)),
        is_static: mods.contains(&"static"),
        is_ctor,
        type_params: type_params(node.child_by_field_name("type_parameters"), text),
        params,
        varargs,
        ret: if is_ctor { None } else { node.child_by_field_name("type") },
        body: node.child_by_field_name("body"),
        specs,
        lowered: String::new(),
    }
}

/// Names reserved in the HeapLab program: its built-in classes and the JDK throwables.
fn reserved(name: &str) -> bool {
    matches!(name, "Object" | "Comparable" | "Comparator") || crate::jdk::throwable(name).is_some()
}

/// A class keeps its simple name unless another class of the file (or a built-in) has it;
/// then it is `Outer_Inner`.
fn name_classes(decls: &mut Decls) {
    let simple: Vec<String> = decls.classes.iter().map(|c| c.name.clone()).collect();
    for i in 0..decls.classes.len() {
        let name = &simple[i];
        let clash = simple.iter().filter(|n| *n == name).count() > 1 || reserved(name);
        let mut lowered = crate::names::ident(name);
        if clash {
            let mut cur = decls.classes[i].outer;
            while let Some(o) = cur {
                lowered = format!("{}_{lowered}", crate::names::ident(&simple[o]));
                cur = decls.classes[o].outer;
            }
            if reserved(&lowered) {
                lowered.push_str("_user");
            }
        }
        decls.classes[i].lowered = lowered;
    }
}

/// Methods keep their names unless overloaded (then `name_N` for N parameters, or
/// `name_N_k` when two overloads have the same arity); constructors are `init` likewise.
fn name_methods(decls: &mut Decls) {
    for class in &mut decls.classes {
        let base: Vec<String> = class
            .methods
            .iter()
            .map(|m| if m.is_ctor { "init".to_string() } else { crate::names::ident(&m.name) })
            .collect();
        for i in 0..class.methods.len() {
            let same: Vec<usize> =
                (0..class.methods.len()).filter(|&j| base[j] == base[i]).collect();
            let arity = class.methods[i].params.len();
            class.methods[i].lowered = if same.len() == 1 {
                base[i].clone()
            } else {
                let same_arity: Vec<usize> = same
                    .iter()
                    .copied()
                    .filter(|&j| class.methods[j].params.len() == arity)
                    .collect();
                if same_arity.len() == 1 {
                    format!("{}_{arity}", base[i])
                } else {
                    let k = same_arity.iter().position(|&j| j == i).unwrap_or(0) + 1;
                    format!("{}_{arity}_{k}", base[i])
                }
            };
        }
    }
}

/// Where a type name is looked up: a class (and the classes around it) and a method's own
/// type parameters.
#[derive(Clone, Copy)]
pub struct Scope<'a> {
    pub class: Option<usize>,
    pub method_params: &'a [TypeParam],
}

impl<'t> Decls<'t> {
    /// The class named `name` as seen from `scope`: a nested class of the current class or of
    /// one around it, then a top-level class.
    pub fn find_class(&self, name: &str, from: Option<usize>) -> Option<usize> {
        let mut cur = from;
        while let Some(c) = cur {
            if self.classes[c].name == name {
                return Some(c);
            }
            if let Some(i) = self.classes.iter().position(|k| k.outer == Some(c) && k.name == name)
            {
                return Some(i);
            }
            cur = self.classes[c].outer;
        }
        self.classes.iter().position(|k| k.outer.is_none() && k.name == name)
    }

    /// A type parameter visible from `scope`.
    pub fn find_type_param<'s>(&'s self, name: &str, scope: Scope<'s>) -> Option<&'s TypeParam> {
        if let Some(p) = scope.method_params.iter().find(|p| p.name == name) {
            return Some(p);
        }
        let mut cur = scope.class;
        while let Some(c) = cur {
            if let Some(p) = self.classes[c].type_params.iter().find(|p| p.name == name) {
                return Some(p);
            }
            cur = self.classes[c].outer;
        }
        None
    }

    /// The type a type node denotes, with `dims` extra array dimensions.
    pub fn resolve_type(&self, node: Node, dims: usize, scope: Scope, text: &str) -> JType {
        let mut ty = self.resolve_base(node, scope, text);
        for _ in 0..dims {
            ty = JType::Array(Box::new(ty));
        }
        ty
    }

    fn resolve_base(&self, node: Node, scope: Scope, text: &str) -> JType {
        let written = || JType::Unsupported(text_of(&node, text).to_string());
        match node.kind() {
            "integral_type" => match text_of(&node, text) {
                "int" | "short" | "byte" | "char" => JType::Int,
                "long" => JType::Long,
                _ => written(),
            },
            "boolean_type" => JType::Boolean,
            "void_type" => JType::Void,
            "array_type" => {
                let Some(elem) = node.child_by_field_name("element") else { return written() };
                self.resolve_type(elem, dims_of(&node, text), scope, text)
            }
            "generic_type" => match node.named_child(0) {
                Some(base) => self.resolve_base(base, scope, text),
                None => written(),
            },
            "type_identifier" => self.resolve_name_in(text_of(&node, text), scope),
            "scoped_type_identifier" => {
                // `Outer.Inner` or `java.util.NoSuchElementException`: the last name decides,
                // looked up among the file's classes first.
                let full = text_of(&node, text).replace(char::is_whitespace, "");
                let full = strip_type_args(&full);
                let last = full.rsplit('.').next().unwrap_or("");
                match self.classes.iter().position(|c| c.name == last) {
                    Some(i) => JType::Class(i),
                    None => match self.resolve_name_in(last, scope) {
                        JType::Unsupported(_) => JType::Unsupported(full),
                        t => t,
                    },
                }
            }
            _ => written(),
        }
    }

    pub fn resolve_name_in(&self, name: &str, scope: Scope) -> JType {
        if let Some(p) = self.find_type_param(name, scope) {
            return if p.comparable { JType::Comparable } else { JType::Object };
        }
        if let Some(c) = self.find_class(name, scope.class) {
            return JType::Class(c);
        }
        match name {
            "Object" => JType::Object,
            "Comparable" => JType::Comparable,
            "Comparator" => JType::Comparator,
            _ if crate::jdk::throwable(name).is_some() => JType::Throwable(name.to_string()),
            _ => JType::Unsupported(name.to_string()),
        }
    }
}

/// `Map.Entry<K, V>` → `Map.Entry`.
fn strip_type_args(s: &str) -> String {
    let mut depth = 0;
    s.chars()
        .filter(|&c| {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                _ => {}
            }
            depth == 0 && c != '>'
        })
        .collect()
}

impl Decls<'_> {
    /// The Java erasure of a declared type (from the declared bounds, not HeapLab's
    /// inferences): `declared` is the type as written, `ty` what HeapLab resolved it to.
    pub fn java_erasure(
        &self,
        ty: &JType,
        declared: Option<&str>,
        scope: Scope,
    ) -> crate::map::JavaType {
        use crate::map::JavaType as J;
        match (ty, declared) {
            (JType::Comparable, Some(name)) => match self.find_type_param(name, scope) {
                Some(p) if !p.declared_comparable => J::Object,
                _ => J::Comparable,
            },
            (JType::Comparable, None) => J::Comparable,
            (JType::Array(t), d) => {
                let inner = d.map(|d| d.trim_end().trim_end_matches("[]").trim_end());
                J::Array(Box::new(self.java_erasure(t, inner, scope)))
            }
            (JType::Class(c), _) => {
                J::Class { binary: self.binary_name(*c), source: self.java_name(*c) }
            }
            (JType::Int, Some(d)) if matches!(d.trim(), "char" | "short" | "byte") => {
                J::Int(d.trim().to_string())
            }
            (JType::Int, _) => J::Int("int".into()),
            (JType::Long, _) => J::Int("long".into()),
            (JType::Boolean, _) => J::Boolean,
            (JType::Object, _) => J::Object,
            (JType::Comparator, _) => J::Comparator,
            (JType::Throwable(n), _) => J::Throwable(
                crate::jdk::throwable(n).map_or(n.clone(), |t| format!("{}.{}", t.package, t.name)),
            ),
            (JType::Void | JType::Null | JType::Unsupported(_), _) => J::Void,
        }
    }

    /// `Outer.Inner` for a nested class, as Java source names it.
    pub fn java_name(&self, c: usize) -> String {
        let mut name = self.classes[c].name.clone();
        let mut cur = self.classes[c].outer;
        while let Some(o) = cur {
            name = format!("{}.{name}", self.classes[o].name);
            cur = self.classes[o].outer;
        }
        name
    }

    /// `pkg.Outer$Inner`: the name `Class.forName` takes.
    pub fn binary_name(&self, c: usize) -> String {
        let mut name = self.classes[c].name.clone();
        let mut cur = self.classes[c].outer;
        while let Some(o) = cur {
            name = format!("{}${name}", self.classes[o].name);
            cur = self.classes[o].outer;
        }
        match &self.package {
            Some(p) => format!("{p}.{name}"),
            None => name,
        }
    }
}
