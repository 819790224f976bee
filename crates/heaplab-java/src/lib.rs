//! HeapLab's Java front end: a `.java` file of the course subset, with JML-style specs in
//! comments, lowered to the same checked program (`heaplab_syntax::Analysis`) that a `.hl`
//! file gives, with every span pointing into the Java text. See `docs/java.md` for the subset.
//!
//! Invariant: like heaplab-syntax, it knows nothing of solvers or execution, never fails
//! (syntax errors, constructs outside the subset and spec problems are diagnostics) and never
//! panics on any input.
//!
//! The pipeline: tree-sitter's Java grammar (`cst`), the declarations (`decls`), which type
//! parameters are compared (`infer`), the lowering of bodies (`lower`), the JML comments
//! (`spec`), then heaplab-syntax's checker on the result. [`JavaMap`] keeps the Java names
//! for display and for JUnit tests of the original class.

mod cst;
mod decls;
mod hierarchy;
mod infer;
pub mod jdk;
mod lower;
mod map;
mod names;
mod spec;
mod synth;
mod type_args;
mod types;

pub use map::{JavaClass, JavaField, JavaMap, JavaMethod, JavaType, TAG_FIELD};

/// The hidden `int` field of HeapLab's `Object` element that its `hashCode()` returns: an
/// unknown chosen per object and the same on every call (Java's contract for an object whose
/// `equals` is identity). No Java class can declare a field of `Object`, so the name is free.
pub const HASH_FIELD: &str = "hashCode";

use decls::Scope;
use heaplab_syntax::ast::*;
use heaplab_syntax::{Analysis, Diagnostic, SourceFile, Span};
use lower::{Lowered, Lowerer, Synth};
use std::collections::{BTreeMap, BTreeSet};
use types::JType;

/// A Java file read: the lowered program with its analysis, and the Java names behind it.
pub struct JavaProgram {
    pub analysis: Analysis,
    pub map: JavaMap,
}

/// Whether a file's text is Java rather than HeapLab (for a file without a telling extension,
/// and to say so when a `.hl` file does not parse).
pub fn looks_like_java(text: &str) -> bool {
    let code = text.lines().map(str::trim_start).filter(|l| {
        !l.is_empty() && !l.starts_with("//") && !l.starts_with('*') && !l.starts_with("/*")
    });
    for line in code.take(20) {
        let first = line.split_whitespace().next().unwrap_or("");
        if matches!(
            first,
            "package" | "import" | "public" | "private" | "protected" | "final" | "abstract"
        ) || line.starts_with('@')
        {
            return true;
        }
    }
    false
}

/// Parses, lowers and checks a Java file.
pub fn analyze(file: &SourceFile) -> JavaProgram {
    let text = file.text.as_str();
    let Some(tree) = cst::parse(text) else {
        let d = Diagnostic::error(
            Span::default(),
            "internal error: the Java grammar could not be loaded",
        );
        let analysis = Analysis {
            program: Program::default(),
            info: Default::default(),
            diagnostics: vec![d],
        };
        return JavaProgram { analysis, map: JavaMap::default() };
    };
    let root = tree.root_node();
    let mut diags = cst::syntax_errors(root, text);
    let mut decls = decls::collect(root, text);
    diags.extend(hierarchy::link(&mut decls, text));
    infer::comparable_params(&mut decls, text);
    let mut l = Lowerer::new(&decls, text, root);
    let (mut classes, mut functions, d) = lower::lower_all(&mut l);
    diags.extend(d);
    let specs = attach_specs(&mut l, &mut functions, &mut diags);
    let synthesized = synthesized_keys(&l.synth);
    let bad = lower::unexplorable(&functions, &synthesized);
    lower::drop_unrunnable_asserts(&mut functions, &bad, &synthesized, &mut diags);
    report_left_out(&l, &functions, &bad, &specs.with_spec, &mut diags);
    mark_pure(&mut functions, &specs.callees, &bad, &mut diags);
    let map = java_map(&l, &functions, &bad, &specs.with_spec);
    let mut items: Vec<Item> = Vec::new();
    let mut free = Vec::new();
    for f in functions.into_iter().filter(|f| !bad.contains_key(&f.key())) {
        match &f.class {
            Some(c) => {
                if let Some(class) = classes.iter_mut().find(|k| k.name.name == *c) {
                    class.methods.push(f.decl);
                }
            }
            None => free.push(f.decl),
        }
    }
    let eof = Span::new(text.len(), text.len());
    synth::synthesize(&mut l, &mut classes, &mut free, eof);
    items.extend(classes.into_iter().map(Item::Class));
    items.extend(free.into_iter().map(Item::Function));
    items.extend(specs.preds.into_iter().map(Item::Predicate));
    let ints = if l.longs { Ints::Java64 } else { Ints::Java32 };
    let mut program = Program { items, ints };
    synth::add_builtins(&mut l, &mut program, eof);
    diags.append(&mut l.diags);
    let has_errors = diags.iter().any(Diagnostic::is_error);
    let (info, semantic) = heaplab_syntax::check(&program);
    if !has_errors {
        diags.extend(semantic);
    }
    diags.sort_by_key(|d| (d.span.start, d.severity));
    diags.dedup();
    JavaProgram { analysis: Analysis { program, info, diagnostics: diags }, map }
}

struct Specs {
    preds: Vec<PredicateDecl>,
    /// Keys of the functions that carry a `requires` or `ensures`.
    with_spec: BTreeSet<String>,
    /// What spec expressions call (must be side-effect free), with the spec's span.
    callees: Vec<(String, Span)>,
}

/// Parses every JML comment: predicates first (any clause may use any predicate), then each
/// method's `requires` and `ensures`.
fn attach_specs(l: &mut Lowerer, functions: &mut [Lowered], diags: &mut Vec<Diagnostic>) -> Specs {
    let text = l.text;
    let comments = spec::all_comments(l.decls);
    let nodes: Vec<_> = comments.iter().map(|c| c.node).collect();
    let file = spec::rewrite_file(text, &nodes, diags);
    let parsed: Vec<(usize, Vec<spec::Clause>)> = comments
        .iter()
        .enumerate()
        .map(|(i, c)| {
            (
                i,
                spec::clauses(
                    file.get(c.node.start_byte()..c.node.end_byte()).unwrap_or(""),
                    c.node.start_byte(),
                ),
            )
        })
        .collect();
    let mut out = Specs { preds: Vec::new(), with_spec: BTreeSet::new(), callees: Vec::new() };
    let mut pred_names = BTreeSet::new();
    for (_, clauses) in &parsed {
        for c in clauses.iter().filter(|c| c.keyword == "pred") {
            let body = file.get(c.body.start as usize..c.body.end as usize).unwrap_or("");
            if let Some(name) =
                body.split(|ch: char| ch == '(' || ch.is_whitespace()).find(|s| !s.is_empty())
            {
                pred_names.insert(name.to_string());
            }
        }
    }
    for (i, clauses) in &parsed {
        let comment = &comments[*i];
        for c in clauses {
            if spec::reported_in(diags, c.body) {
                continue;
            }
            match c.keyword.as_str() {
                "pred" => {
                    if let Some(p) = l.spec_pred(&file, c, comment.class, &pred_names, diags) {
                        if out.preds.iter().any(|q| q.name.name == p.name.name) {
                            diags.push(Diagnostic::error(
                                p.name.span,
                                format!("the predicate `{}` is declared twice", p.name.name),
                            ));
                        } else {
                            out.preds.push(p);
                        }
                    }
                }
                "requires" | "ensures" => {
                    let Some((ci, mi)) = comment.method else {
                        diags.push(Diagnostic::warning(
                            c.keyword_span,
                            format!(
                                "this `{}` is not directly above a method, so it is not used",
                                c.keyword
                            ),
                        ));
                        continue;
                    };
                    attach_clause(l, functions, &file, c, ci, mi, &pred_names, &mut out, diags);
                }
                "pure" | "spec_public" | "nullable" | "non_null" | "helper" => {}
                other => {
                    let shown: String = other.chars().take(30).collect();
                    diags.push(
                        Diagnostic::warning(
                            c.keyword_span,
                            format!("JML clause `{shown}` is not used by HeapLab"),
                        )
                        .with_note("HeapLab reads `requires`, `ensures` and `pred`"),
                    );
                }
            }
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn attach_clause(
    l: &mut Lowerer,
    functions: &mut [Lowered],
    file: &str,
    c: &spec::Clause,
    ci: usize,
    mi: usize,
    preds: &BTreeSet<String>,
    out: &mut Specs,
    diags: &mut Vec<Diagnostic>,
) {
    let method = &l.decls.classes[ci].methods[mi];
    if method.is_ctor {
        diags.push(
            Diagnostic::warning(c.keyword_span, "specifications of constructors are not used yet")
                .with_note(
                "put the spec on the methods; HeapLab builds inputs without running constructors",
            ),
        );
        return;
    }
    let Some(idx) = functions
        .iter()
        .position(|f| f.origin == Some((ci, mi)) && (f.class.is_some() != method.is_static))
    else {
        return;
    };
    let types = l.param_types(ci, mi);
    let bound: Vec<(String, JType)> =
        method.params.iter().map(|p| p.name.clone()).zip(types).collect();
    let mut cx = spec::SpecCx {
        class: Some(ci),
        bound,
        preds,
        callees: BTreeSet::new(),
        is_static: method.is_static,
        result: Some(l.return_type(ci, mi)),
    };
    let key = functions[idx].key();
    if c.keyword == "requires" {
        if let Some(f) = l.spec_formula(file, c.body, &mut cx, diags) {
            functions[idx].decl.requires.push(f);
        }
    } else if spec::mentions_pred(file, c.body, cx.preds) {
        // `ensures bst(this.root)`: a predicate is a postcondition, checked at exit on the
        // heap the method leaves (the same invariant as the `requires`, written once).
        if let Some(f) = l.spec_formula(file, c.body, &mut cx, diags) {
            // `ensures list(this.head) & size == \old(size) + 1`: the `\old` facts are
            // expressions of their own.
            let (f, with_old) = f.split_old();
            let decl = &mut functions[idx].decl;
            decl.ensures_formulas.extend(f);
            decl.ensures.extend(with_old);
        }
    } else if let Some(e) = l.spec_expr(file, c.body, &mut cx, diags) {
        functions[idx].decl.ensures.push(e);
    }
    out.with_spec.insert(key);
    out.callees.extend(cx.callees.into_iter().map(|k| (k, c.body)));
}

fn synthesized_keys(synth: &BTreeSet<Synth>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for s in synth {
        match s {
            Synth::Math(f) => out.insert(format!("Math_{f}")),
            Synth::Equals(c) => out.insert(format!("{c}.equals")),
            Synth::CompareTo => out.insert("Comparable.compareTo".to_string()),
            Synth::ObjectHash => false,
        };
    }
    out.insert("Comparator.compare".to_string());
    out
}

/// How a lowered function is named to a Java user.
fn java_display(l: &Lowerer, f: &Lowered) -> String {
    if let (Some(c), None) = (f.ctor_of, f.origin) {
        return format!("the constructor `{}()`", l.decls.classes[c].name);
    }
    match f.origin {
        Some((c, m)) => {
            let class = &l.decls.classes[c];
            let method = &class.methods[m];
            if method.is_ctor {
                format!("the constructor `{}({})`", class.name, param_list(l, c, m))
            } else {
                format!("`{}.{}`", class.name, method.name)
            }
        }
        None => format!("`{}`", f.key()),
    }
}

fn param_list(l: &Lowerer, c: usize, m: usize) -> String {
    let method = &l.decls.classes[c].methods[m];
    method
        .params
        .iter()
        .map(|p| cst::text_of(&p.type_node, l.text).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn report_left_out(
    l: &Lowerer,
    functions: &[Lowered],
    bad: &BTreeMap<String, Option<String>>,
    with_spec: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) {
    let by_key: BTreeMap<String, &Lowered> = functions.iter().map(|f| (f.key(), f)).collect();
    for f in functions {
        let key = f.key();
        let Some(cause) = bad.get(&key) else { continue };
        // A constructor is two functions (its `init` and its factory): report it once.
        if f.class.is_none() && f.ctor_of.is_some() {
            continue;
        }
        let spec = with_spec.contains(&key);
        let who = java_display(l, f);
        let make = |span: Span, msg: String| {
            if spec {
                Diagnostic::error(span, msg)
            } else {
                Diagnostic::warning(span, msg)
            }
        };
        let consequence = if spec {
            format!("{who} has a specification, so it must be in the subset")
        } else {
            format!("{who} is left out: it cannot be explored (the rest of the class still is)")
        };
        // A method with a syntax error was reported by the parser; its lowering adds nothing.
        let broken = f.origin.is_some_and(|(c, m)| l.decls.classes[c].methods[m].node.has_error());
        match cause {
            None if broken => {}
            None => {
                for p in &f.problems {
                    let mut d = make(p.span, p.message.clone()).with_note(consequence.clone());
                    if let Some(h) = &p.hint {
                        d = d.with_note(h.clone());
                    }
                    diags.push(d);
                }
            }
            Some(callee) => {
                let shown = by_key
                    .get(callee)
                    .map_or_else(|| format!("`{callee}`"), |g| java_display(l, g));
                diags.push(
                    make(
                        f.decl.name.span,
                        format!("{who} calls {shown}, which HeapLab cannot run"),
                    )
                    .with_note(consequence),
                );
            }
        }
    }
}

/// Functions that specs call (and what they call) are `pure`: they must not change the heap.
fn mark_pure(
    functions: &mut [Lowered],
    callees: &[(String, Span)],
    bad: &BTreeMap<String, Option<String>>,
    diags: &mut Vec<Diagnostic>,
) {
    let index: BTreeMap<String, usize> =
        functions.iter().enumerate().map(|(i, f)| (f.key(), i)).collect();
    for (root, span) in callees {
        let mut stack = vec![root.clone()];
        let mut seen = BTreeSet::new();
        while let Some(k) = stack.pop() {
            if !seen.insert(k.clone()) {
                continue;
            }
            let Some(&i) = index.get(&k) else { continue };
            if bad.contains_key(&k) {
                continue;
            }
            if functions[i].effects {
                let via = if k == *root { String::new() } else { format!(" (through `{k}`)") };
                diags.push(Diagnostic::error(*span, format!("a specification calls `{root}`, which changes the heap{via}"))
                    .with_note("specifications may call only methods that neither store to fields nor allocate"));
                break;
            }
            functions[i].decl.is_pure = true;
            stack.extend(functions[i].callees.iter().cloned());
        }
    }
}

fn java_map(
    l: &Lowerer,
    functions: &[Lowered],
    bad: &BTreeMap<String, Option<String>>,
    with_spec: &BTreeSet<String>,
) -> JavaMap {
    let decls = l.decls;
    let mut map = JavaMap {
        package: decls.package.clone(),
        messages: l.messages.clone(),
        ..JavaMap::default()
    };
    for (ci, class) in decls.classes.iter().enumerate() {
        // An interface of a hierarchy is listed too: `--method Shape.area` names its dispatcher.
        if class.kind != "class" && !(class.kind == "interface" && class.family.is_some()) {
            continue;
        }
        // Its own fields and those it inherits, the topmost class's first.
        let mut chain = vec![ci];
        while let Some(p) = chain.last().and_then(|&k| decls.classes[k].parent) {
            if chain.contains(&p) || chain.len() > 64 {
                break;
            }
            chain.push(p);
        }
        let mut fields = Vec::new();
        for (k, f) in chain
            .iter()
            .rev()
            .flat_map(|&k| decls.classes[k].fields.iter().map(move |f| (k, f)))
            .filter(|(_, f)| !f.is_static)
        {
            let scope = Scope { class: Some(k), method_params: &[] };
            let Some(ty) = l.field_types.get(&(k, f.name.clone())) else { continue };
            let declared = cst::text_of(&f.type_node, l.text);
            let base = declared.split('<').next().unwrap_or(declared).trim();
            fields.push(JavaField {
                name: f.name.clone(),
                lowered: names::ident(&f.name),
                ty: decls.java_erasure(ty, Some(base), scope),
            });
        }
        map.classes.push(JavaClass {
            lowered: class.lowered.clone(),
            name: class.name.clone(),
            source_name: decls.java_name(ci),
            binary_name: decls.binary_name(ci),
            is_inner: !class.is_static,
            is_throwable: l.is_throwable(ci),
            fields,
            tag: class.family.and_then(|fi| decls.families[fi].tag(ci)),
            is_abstract: class.family.is_some() && class.is_abstract,
        });
        for (mi, m) in class.methods.iter().enumerate() {
            let f = functions.iter().find(|f| {
                f.origin == Some((ci, mi)) && (f.class.is_none() == (m.is_static || m.is_ctor))
            });
            let Some(f) = f else { continue };
            let key = f.key();
            let mscope = Scope { class: Some(ci), method_params: &m.type_params };
            let params = m
                .params
                .iter()
                .zip(l.param_types(ci, mi))
                .map(|(p, t)| {
                    let d = cst::text_of(&p.type_node, l.text);
                    (
                        p.name.clone(),
                        decls.java_erasure(
                            &t,
                            Some(d.split('<').next().unwrap_or(d).trim()),
                            mscope,
                        ),
                    )
                })
                .collect();
            let ret = match m.ret {
                Some(r) => {
                    let d = cst::text_of(&r, l.text);
                    decls.java_erasure(
                        &l.return_type(ci, mi),
                        Some(d.split('<').next().unwrap_or(d).trim()),
                        mscope,
                    )
                }
                None => JavaType::Void,
            };
            let left_out = bad.get(&key).map(|cause| match cause {
                None => {
                    f.problems.first().map_or("outside the subset".into(), |p| p.message.clone())
                }
                Some(c) => format!("it calls `{c}`, which HeapLab cannot run"),
            });
            map.methods.push(JavaMethod {
                class: class.name.clone(),
                lowered_class: class.lowered.clone(),
                name: if m.is_ctor { class.name.clone() } else { m.name.clone() },
                signature: format!(
                    "{}({})",
                    if m.is_ctor { &class.name } else { &m.name },
                    param_list(l, ci, mi)
                ),
                target: key.clone(),
                is_static: m.is_static,
                is_ctor: m.is_ctor,
                has_spec: with_spec.contains(&key),
                left_out,
                params,
                ret,
                name_span: m.name_span,
            });
        }
    }
    for t in &l.thrown {
        if let Some(j) = jdk::throwable(t) {
            map.jdk_exceptions.push((t.clone(), format!("{}.{}", j.package, j.name)));
        }
    }
    map
}
