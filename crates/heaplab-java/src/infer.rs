//! Which unbounded type parameters are really `Comparable`: course code often declares
//! `MinPQ<Key>` and compares with `((Comparable<Key>) pq[i]).compareTo(pq[j])`, or passes keys
//! to a `Comparator`. Such a parameter is erased to `Comparable`, as Kiasan treats elements the
//! code compares.
//!
//! A syntactic pass over the method bodies: the receiver of `compareTo`, the operand of a cast
//! to `Comparable`, and the arguments of `compare` are traced to the declaration of the local,
//! parameter or field they read, and a type parameter named there is marked.

use crate::cst::text_of;
use crate::decls::Decls;
use tree_sitter::Node;

pub fn comparable_params(decls: &mut Decls, text: &str) {
    let mut marks: Vec<(usize, Option<usize>, String)> = Vec::new();
    for (ci, class) in decls.classes.iter().enumerate() {
        for (mi, m) in class.methods.iter().enumerate() {
            let Some(body) = m.body else { continue };
            let mut compared = Vec::new();
            compared_operands(body, text, &mut compared);
            for operand in compared {
                if let Some((name, owner)) = declared_type(decls, ci, mi, operand, text) {
                    // A field's type parameter is its own class's (`t.element` of a nested
                    // `Node<T>` marks `Node`'s `T`), a local's or parameter's the method's.
                    let mi = (owner == ci).then_some(mi);
                    marks.push((owner, mi, name));
                }
            }
        }
    }
    for (ci, mi, name) in marks {
        mark(decls, ci, mi, &name);
    }
    through_type_arguments(decls, text);
}

/// A generic class instantiated with a `Comparable` argument (`Node<Key>` where `Key` is
/// compared, `Node<Comparable>`) compares its own parameter: `Node`'s `T` is marked too, until
/// nothing changes. Course code keeps elements in a nested `Node<T>` whose methods return
/// them (`node.getElement()`) to the code that compares them.
fn through_type_arguments(decls: &mut Decls, text: &str) {
    let tops: Vec<Node> =
        decls.classes.iter().filter(|c| c.outer.is_none()).map(|c| c.node).collect();
    let mut uses: Vec<Node> = Vec::new();
    for top in tops {
        let mut stack = vec![top];
        while let Some(n) = stack.pop() {
            if n.kind() == "generic_type" {
                uses.push(n);
            }
            let mut cursor = n.walk();
            stack.extend(n.named_children(&mut cursor));
        }
    }
    // Each round marks at least one more parameter or stops; there are finitely many.
    loop {
        let mut marks: Vec<(usize, usize)> = Vec::new();
        for &g in &uses {
            let Some(base) = g.named_child(0) else { continue };
            let (class, method) = enclosing(decls, g);
            let Some(target) = decls.find_class(text_of(&base, text), class) else { continue };
            let Some(args) = g.named_child(1).filter(|a| a.kind() == "type_arguments") else {
                continue;
            };
            let mut cursor = args.walk();
            let args: Vec<Node> = args.named_children(&mut cursor).collect();
            for (i, arg) in args.iter().enumerate() {
                let param = &decls.classes[target].type_params;
                if param.get(i).is_none_or(|p| p.comparable) {
                    continue;
                }
                let method_params = match method {
                    Some((c, m)) => decls.classes[c].methods[m].type_params.as_slice(),
                    None => &[],
                };
                let scope = crate::decls::Scope { class, method_params };
                let name = text_of(arg, text);
                let is_cmp = match decls.find_type_param(name, scope) {
                    Some(p) => p.comparable,
                    None => name.starts_with("Comparable"),
                };
                if is_cmp {
                    marks.push((target, i));
                }
            }
        }
        if marks.is_empty() {
            return;
        }
        for (c, i) in marks {
            decls.classes[c].type_params[i].comparable = true;
        }
    }
}

/// The innermost class (and method of it) whose declaration holds `n`.
fn enclosing(decls: &Decls, n: Node) -> (Option<usize>, Option<(usize, usize)>) {
    let mut method = None;
    let mut cur = n.parent();
    while let Some(p) = cur {
        if method.is_none() {
            for (ci, c) in decls.classes.iter().enumerate() {
                if let Some(mi) = c.methods.iter().position(|m| m.node == p) {
                    method = Some((ci, mi));
                }
            }
        }
        if let Some(ci) = decls.classes.iter().position(|c| c.node == p) {
            return (Some(ci), method);
        }
        cur = p.parent();
    }
    (None, method)
}

/// Marks type parameter `name` as seen from method `mi` of class `ci`.
fn mark(decls: &mut Decls, ci: usize, mi: Option<usize>, name: &str) {
    if let Some(mi) = mi {
        if let Some(p) =
            decls.classes[ci].methods[mi].type_params.iter_mut().find(|p| p.name == name)
        {
            p.comparable = true;
            return;
        }
    }
    let mut cur = Some(ci);
    while let Some(c) = cur {
        if let Some(p) = decls.classes[c].type_params.iter_mut().find(|p| p.name == name) {
            p.comparable = true;
            return;
        }
        cur = decls.classes[c].outer;
    }
}

/// The expressions a body compares: `x` in `x.compareTo(y)`, `y` too, `x` in
/// `(Comparable<K>) x`, and `a`, `b` in `c.compare(a, b)`.
fn compared_operands<'t>(node: Node<'t>, text: &str, out: &mut Vec<Node<'t>>) {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "method_invocation" => {
                let name = n.child_by_field_name("name").map(|x| text_of(&x, text));
                let args: Vec<Node> = n
                    .child_by_field_name("arguments")
                    .map(|a| {
                        let mut c = a.walk();
                        a.named_children(&mut c).collect()
                    })
                    .unwrap_or_default();
                match name {
                    Some("compareTo") => {
                        if let Some(o) = n.child_by_field_name("object") {
                            out.push(o);
                        }
                        out.extend(args);
                    }
                    Some("compare") if args.len() == 2 => out.extend(args),
                    _ => {}
                }
            }
            "cast_expression" => {
                let is_cmp = n
                    .child_by_field_name("type")
                    .is_some_and(|t| text_of(&t, text).trim_start().starts_with("Comparable"));
                if let (true, Some(v)) = (is_cmp, n.child_by_field_name("value")) {
                    out.push(v);
                }
            }
            _ => {}
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
}

/// The base type name (no type arguments, no `[]`) declared for what `e` reads, and the class
/// whose declaration names it (the method's own class for a local or parameter, the field's
/// class for a field).
fn declared_type(
    decls: &Decls,
    ci: usize,
    mi: usize,
    e: Node,
    text: &str,
) -> Option<(String, usize)> {
    let (name, strip, owner) = declared_name(decls, ci, mi, e, text)?;
    let base = name.split('<').next().unwrap_or(&name).trim().to_string();
    let dims = name.matches("[]").count();
    (dims == strip).then_some((base.trim_end_matches("[]").to_string(), owner))
}

/// The declared type of what `e` reads, the array levels `e` strips off (`a[i]` strips one),
/// and the class whose declaration it is.
fn declared_name(
    decls: &Decls,
    ci: usize,
    mi: usize,
    e: Node,
    text: &str,
) -> Option<(String, usize, usize)> {
    match e.kind() {
        "parenthesized_expression" => declared_name(decls, ci, mi, e.named_child(0)?, text),
        "cast_expression" => declared_name(decls, ci, mi, e.child_by_field_name("value")?, text),
        "array_access" => {
            let (n, s, owner) =
                declared_name(decls, ci, mi, e.child_by_field_name("array")?, text)?;
            Some((n, s + 1, owner))
        }
        "identifier" => {
            let name = text_of(&e, text);
            let m = &decls.classes[ci].methods[mi];
            if let Some(p) = m.params.iter().find(|p| p.name == name) {
                let t = text_of(&p.type_node, text).to_string() + &"[]".repeat(p.extra_dims);
                return Some((t, 0, ci));
            }
            if let Some(t) = m.body.and_then(|b| local_type(b, name, text)) {
                return Some((t, 0, ci));
            }
            field_type(decls, Some(ci), name, text).map(|(t, owner)| (t, 0, owner))
        }
        "field_access" => {
            let f = text_of(&e.child_by_field_name("field")?, text);
            field_type(decls, None, f, text).map(|(t, owner)| (t, 0, owner))
        }
        _ => None,
    }
}

/// The declared type of local `name` somewhere in `body` (Java forbids two visible locals of
/// one name, so the first declaration found is the one).
fn local_type(body: Node, name: &str, text: &str) -> Option<String> {
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "local_variable_declaration" => {
                let ty = n.child_by_field_name("type")?;
                let mut c = n.walk();
                for d in n.children_by_field_name("declarator", &mut c) {
                    if d.child_by_field_name("name").is_some_and(|x| text_of(&x, text) == name) {
                        return Some(text_of(&ty, text).to_string());
                    }
                }
            }
            "enhanced_for_statement"
                if n.child_by_field_name("name").is_some_and(|x| text_of(&x, text) == name) =>
            {
                return Some(text_of(&n.child_by_field_name("type")?, text).to_string());
            }
            _ => {}
        }
        let mut cursor = n.walk();
        stack.extend(n.children(&mut cursor));
    }
    None
}

/// The declared type of field `name` and the class declaring it: of class `ci` or a class
/// around it, or (`None`) of any class of the file.
fn field_type(decls: &Decls, ci: Option<usize>, name: &str, text: &str) -> Option<(String, usize)> {
    let render = |f: &crate::decls::Field| {
        text_of(&f.type_node, text).to_string() + &"[]".repeat(f.extra_dims)
    };
    match ci {
        Some(ci) => {
            let mut cur = Some(ci);
            while let Some(c) = cur {
                if let Some(f) = decls.classes[c].fields.iter().find(|f| f.name == name) {
                    return Some((render(f), c));
                }
                cur = decls.classes[c].outer;
            }
            None
        }
        None => decls
            .classes
            .iter()
            .enumerate()
            .find_map(|(c, k)| k.fields.iter().find(|f| f.name == name).map(|f| (render(f), c))),
    }
}
