//! Inheritance among the file's classes: each hierarchy (classes linked by `extends` and by
//! `implements` of the file's interfaces) becomes one HeapLab class, a *family*, holding the
//! union of its members' fields and a hidden integer field [`TAG_FIELD`] that says which
//! concrete class an object is. HeapLab has no subclassing, so this is how lazy initialization
//! of a field typed with the base class explores every concrete subclass (as JBSE does):
//! the tag is one more symbolic field, and virtual dispatch, `instanceof` and casts branch
//! on it.
//!
//! Tags: the concrete classes of a family in declaration order get 0, 1, 2, …; an object whose
//! tag is none of 1, 2, … is of the first concrete class (so every integer names exactly one
//! class and no input needs a constraint on the tag; `new` writes the class's own number).
//!
//! Methods: a method that every concrete class resolves to the same body keeps its name; when
//! subclasses override it, each body is `name_Class` and `name` is a dispatcher that branches
//! on the tag (built by `lower::dispatch`). A body that only some concrete classes reach
//! starts with `assume` that `this` is an instance of its class, so exploring `Add.eval`
//! explores Add's (and its subclasses').

use crate::cst::text_of;
use crate::decls::Decls;
use heaplab_syntax::Diagnostic;
use std::collections::BTreeMap;

/// The hidden field of a family's objects that holds their class's tag.
pub const TAG_FIELD: &str = "__class";

/// One hierarchy of the file's classes, lowered to one HeapLab class.
#[derive(Clone, Debug)]
pub struct Family {
    /// Its HeapLab class name (the first root's).
    pub lowered: String,
    pub members: Vec<usize>,
    /// The concrete classes; a class's tag is its position here.
    pub concrete: Vec<usize>,
    /// The virtual methods whose bodies differ between concrete classes.
    pub dispatch: Vec<Dispatch>,
    /// Bodies that only some concrete classes reach: (class, method) → those classes.
    pub partial: BTreeMap<(usize, usize), Vec<usize>>,
}

/// A virtual method dispatched on the tag.
#[derive(Clone, Debug)]
pub struct Dispatch {
    pub name: String,
    pub arity: usize,
    /// What callers call: the dispatcher's name.
    pub call: String,
    /// A declaration of it, highest in the hierarchy (whose signature the dispatcher takes);
    /// an abstract one is the dispatcher's origin.
    pub decl: (usize, usize),
    /// For each concrete class, the body it runs.
    pub impls: Vec<(usize, (usize, usize))>,
}

impl Family {
    /// The tag of concrete class `c`.
    pub fn tag(&self, c: usize) -> Option<i64> {
        self.concrete.iter().position(|&k| k == c).map(|i| i as i64)
    }
}

fn simple_name(node: &tree_sitter::Node, text: &str) -> String {
    let t = text_of(node, text);
    let t = t.split('<').next().unwrap_or(t).trim();
    t.rsplit('.').next().unwrap_or(t).to_string()
}

/// Links each class to its superclass and interfaces among the file's classes and groups them
/// into families; renames the members, their methods and constructors so they can share one
/// HeapLab class.
/// Sets each class's superclass and interfaces among the file's classes, and what it takes
/// from outside the subset (a JDK superclass or interface).
fn link_classes(decls: &mut Decls, text: &str) {
    let throwable = |decls: &Decls, c: usize| {
        let mut k = c;
        for _ in 0..64 {
            let Some(sup) = decls.classes[k].superclass else { return false };
            let name = simple_name(&sup, text);
            if crate::jdk::throwable(&name).is_some() {
                return true;
            }
            match decls.find_class(&name, decls.classes[k].outer.or(Some(k))) {
                Some(p) if p != k => k = p,
                _ => return false,
            }
        }
        false
    };
    let n = decls.classes.len();
    for c in 0..n {
        let class = &decls.classes[c];
        if !matches!(class.kind, "class" | "interface") {
            continue;
        }
        let outer = class.outer;
        let parent = class.superclass.and_then(|s| {
            let name = simple_name(&s, text);
            decls.find_class(&name, outer.or(Some(c))).filter(|&p| p != c)
        });
        let parent = parent.filter(|&p| decls.classes[p].kind == "class");
        let mut interfaces = Vec::new();
        for node in decls.classes[c].interface_nodes.clone() {
            let name = simple_name(&node, text);
            match decls.find_class(&name, outer.or(Some(c))) {
                Some(i) if decls.classes[i].kind == "interface" && i != c => interfaces.push(i),
                Some(_) => {}
                // `Comparable` and `Iterable` are read; marker interfaces add no behaviour.
                None if matches!(
                    name.as_str(),
                    "Comparable" | "Iterable" | "Cloneable" | "Serializable" | "RandomAccess"
                ) => {}
                None => {
                    let what = format!("implementing the JDK interface `{}`", text_of(&node, text));
                    decls.classes[c]
                        .jdk_interface
                        .get_or_insert((crate::cst::span_of(&node), what));
                }
            }
        }
        if let (Some(sup), None) = (decls.classes[c].superclass, parent) {
            if !throwable(decls, c) {
                let what = format!("extending the JDK class `{}`", text_of(&sup, text));
                decls.classes[c].outside = Some((crate::cst::span_of(&sup), what));
            }
        }
        decls.classes[c].parent = parent;
        decls.classes[c].interfaces = interfaces;
    }
}

pub fn link(decls: &mut Decls, text: &str) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    link_classes(decls, text);
    let n = decls.classes.len();
    // A class whose chain of superclasses leaves the file (a JDK class) is no family member:
    // exceptions stay as they are, other JDK superclasses are reported by the lowering.
    let extends_jdk = |decls: &Decls, mut c: usize| {
        for _ in 0..64 {
            let class = &decls.classes[c];
            match (class.parent, class.superclass) {
                (Some(p), _) => c = p,
                (None, Some(_)) => return true,
                (None, None) => return false,
            }
        }
        true
    };
    let mut comp: Vec<usize> = (0..n).collect();
    fn find(comp: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while comp[r] != r {
            r = comp[r];
        }
        comp[x] = r;
        r
    }
    for c in 0..n {
        if extends_jdk(decls, c) {
            continue;
        }
        let mut links: Vec<usize> = decls.classes[c].interfaces.clone();
        links.extend(decls.classes[c].parent);
        for k in links {
            if extends_jdk(decls, k) {
                continue;
            }
            let (a, b) = (find(&mut comp, c), find(&mut comp, k));
            comp[a.max(b)] = a.min(b);
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for c in 0..n {
        let r = find(&mut comp, c);
        groups.entry(r).or_default().push(c);
    }
    for members in groups.into_values().filter(|m| m.len() > 1) {
        let fi = decls.families.len();
        let root = members
            .iter()
            .copied()
            .find(|&c| decls.classes[c].parent.is_none() && decls.classes[c].interfaces.is_empty())
            .unwrap_or(members[0]);
        let lowered = decls.classes[root].lowered.clone();
        let concrete: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&c| decls.classes[c].kind == "class" && !decls.classes[c].is_abstract)
            .collect();
        let mut family = Family {
            lowered: lowered.clone(),
            members: members.clone(),
            concrete,
            dispatch: Vec::new(),
            partial: BTreeMap::new(),
        };
        plan_methods(decls, &mut family, &mut diags);
        for &m in &members {
            decls.classes[m].family = Some(fi);
            decls.classes[m].lowered = lowered.clone();
        }
        decls.families.push(family);
    }
    diags
}

/// `(name, arity)` of an instance method.
fn key(decls: &Decls, c: usize, m: usize) -> Option<(String, usize)> {
    let method = &decls.classes[c].methods[m];
    (!method.is_ctor && !method.is_static).then(|| (method.name.clone(), method.params.len()))
}

/// The body class `c` runs for `key`: its own, else its superclass's, else an interface's
/// default method.
pub fn resolve(decls: &Decls, c: usize, name: &str, arity: usize) -> Option<(usize, usize)> {
    let mut cur = Some(c);
    let mut seen = 0;
    while let Some(k) = cur {
        seen += 1;
        if seen > 64 {
            return None;
        }
        let class = &decls.classes[k];
        let own = class
            .methods
            .iter()
            .position(|m| !m.is_ctor && !m.is_static && m.name == name && m.params.len() == arity);
        if let Some(m) = own.filter(|&m| class.methods[m].body.is_some()) {
            return Some((k, m));
        }
        cur = class.parent;
    }
    let mut stack = vec![c];
    let mut steps = 0;
    while let Some(k) = stack.pop() {
        steps += 1;
        if steps > 256 {
            break;
        }
        let class = &decls.classes[k];
        for &i in &class.interfaces {
            let iface = &decls.classes[i];
            if let Some(m) = iface.methods.iter().position(|m| {
                m.name == name && m.params.len() == arity && m.body.is_some() && !m.is_static
            }) {
                return Some((i, m));
            }
            stack.push(i);
        }
        stack.extend(class.parent);
    }
    None
}

/// Names the members' methods and constructors so that they can live in one class, and plans
/// the dispatchers.
fn plan_methods(decls: &mut Decls, family: &mut Family, diags: &mut Vec<Diagnostic>) {
    let mut keys: Vec<(String, usize)> = Vec::new();
    let mut decl_of: BTreeMap<(String, usize), (usize, usize)> = BTreeMap::new();
    for &c in &family.members {
        for m in 0..decls.classes[c].methods.len() {
            if let Some(k) = key(decls, c, m) {
                if !keys.contains(&k) {
                    keys.push(k.clone());
                }
                // The declaration highest up (fewest ancestors) gives the dispatcher's signature.
                let depth = |d: &Decls, mut x: usize| {
                    let mut n = 0;
                    while let Some(p) = d.classes[x].parent {
                        n += 1;
                        x = p;
                        if n > 64 {
                            break;
                        }
                    }
                    n + usize::from(d.classes[x].kind == "class")
                };
                let better =
                    decl_of.get(&k).is_none_or(|&(oc, _)| depth(decls, c) < depth(decls, oc));
                if better {
                    decl_of.insert(k, (c, m));
                }
            }
        }
    }
    let arities = |name: &str| keys.iter().filter(|(n, _)| n == name).count();
    for (name, arity) in &keys {
        let base = crate::names::ident(name);
        let base = if arities(name) > 1 { format!("{base}_{arity}") } else { base };
        let impls: Vec<(usize, (usize, usize))> = family
            .concrete
            .iter()
            .filter_map(|&c| resolve(decls, c, name, *arity).map(|i| (c, i)))
            .collect();
        let mut bodies: Vec<(usize, usize)> = Vec::new();
        for &c in &family.members {
            for m in 0..decls.classes[c].methods.len() {
                if key(decls, c, m).as_ref() == Some(&(name.clone(), *arity))
                    && decls.classes[c].methods[m].body.is_some()
                {
                    bodies.push((c, m));
                }
            }
        }
        let same_arity = family.members.iter().any(|&c| {
            decls.classes[c]
                .methods
                .iter()
                .filter(|m| {
                    !m.is_ctor && !m.is_static && m.name == *name && m.params.len() == *arity
                })
                .count()
                > 1
        });
        if same_arity {
            let (c, m) = decl_of[&(name.clone(), *arity)];
            diags.push(Diagnostic::error(
                decls.classes[c].methods[m].name_span,
                format!("overloads of `{name}` with {arity} parameters in a class hierarchy are outside HeapLab's Java subset"),
            ).with_note("give the overloads different names or numbers of parameters"));
        }
        let mut distinct: Vec<(usize, usize)> = impls.iter().map(|(_, i)| *i).collect();
        distinct.sort_unstable();
        distinct.dedup();
        let dispatched = distinct.len() > 1 || bodies.len() > 1;
        for &(c, m) in &bodies {
            // `this` is an instance of the declaring class (a subclass reaches the body through
            // `super.m()` too).
            let reached: Vec<usize> =
                family.concrete.iter().copied().filter(|&k| is_subtype(decls, k, c)).collect();
            if reached.len() != family.concrete.len() {
                family.partial.insert((c, m), reached);
            }
            decls.classes[c].methods[m].lowered = if dispatched {
                format!("{base}_{}", crate::names::ident(&decls.classes[c].name))
            } else {
                base.clone()
            };
        }
        // Abstract declarations are never lowered themselves: the dispatcher stands for them.
        for &c in &family.members {
            for m in 0..decls.classes[c].methods.len() {
                let method = &decls.classes[c].methods[m];
                if method.body.is_none()
                    && key(decls, c, m).as_ref() == Some(&(name.clone(), *arity))
                {
                    decls.classes[c].methods[m].lowered = base.clone();
                }
            }
        }
        if dispatched {
            family.dispatch.push(Dispatch {
                name: name.clone(),
                arity: *arity,
                call: base,
                decl: decl_of[&(name.clone(), *arity)],
                impls,
            });
        }
    }
    // Constructors: one `init_Class…` per member.
    for &c in &family.members {
        let cname = crate::names::ident(&decls.classes[c].name);
        for m in decls.classes[c].methods.iter_mut().filter(|m| m.is_ctor) {
            let suffix = m.lowered.strip_prefix("init").unwrap_or("").to_string();
            m.lowered = format!("init_{cname}{suffix}");
        }
    }
}

/// The implicit constructor's `init` name of class `c`.
pub fn implicit_init(decls: &Decls, c: usize) -> String {
    match decls.classes[c].family {
        Some(_) => format!("init_{}", crate::names::ident(&decls.classes[c].name)),
        None => "init".to_string(),
    }
}

/// `sub` is `sup` or a subtype of it among the file's classes.
pub fn is_subtype(decls: &Decls, sub: usize, sup: usize) -> bool {
    let mut stack = vec![sub];
    let mut steps = 0;
    while let Some(k) = stack.pop() {
        if k == sup {
            return true;
        }
        steps += 1;
        if steps > 256 {
            return false;
        }
        stack.extend(decls.classes[k].parent);
        stack.extend(decls.classes[k].interfaces.iter().copied());
    }
    false
}

/// The concrete classes of the family that are subtypes of `c` (what `instanceof c` accepts).
pub fn concrete_below(decls: &Decls, c: usize) -> Vec<usize> {
    let Some(fi) = decls.classes[c].family else { return vec![c] };
    decls.families[fi].concrete.iter().copied().filter(|&k| is_subtype(decls, k, c)).collect()
}
