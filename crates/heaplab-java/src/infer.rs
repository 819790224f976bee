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
                if let Some(name) = declared_type(decls, ci, mi, operand, text) {
                    marks.push((ci, Some(mi), name));
                }
            }
        }
    }
    for (ci, mi, name) in marks {
        mark(decls, ci, mi, &name);
    }
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

/// The base type name (no type arguments, no `[]`) declared for what `e` reads, with the
/// number of array levels `e` strips off (`a[i]` strips one).
fn declared_type(decls: &Decls, ci: usize, mi: usize, e: Node, text: &str) -> Option<String> {
    let (name, strip) = declared_name(decls, ci, mi, e, text)?;
    let base = name.split('<').next().unwrap_or(&name).trim().to_string();
    let dims = name.matches("[]").count();
    (dims == strip).then_some(base.trim_end_matches("[]").to_string())
}

fn declared_name(
    decls: &Decls,
    ci: usize,
    mi: usize,
    e: Node,
    text: &str,
) -> Option<(String, usize)> {
    match e.kind() {
        "parenthesized_expression" => declared_name(decls, ci, mi, e.named_child(0)?, text),
        "cast_expression" => declared_name(decls, ci, mi, e.child_by_field_name("value")?, text),
        "array_access" => {
            let (n, s) = declared_name(decls, ci, mi, e.child_by_field_name("array")?, text)?;
            Some((n, s + 1))
        }
        "identifier" => {
            let name = text_of(&e, text);
            let m = &decls.classes[ci].methods[mi];
            if let Some(p) = m.params.iter().find(|p| p.name == name) {
                let t = text_of(&p.type_node, text).to_string() + &"[]".repeat(p.extra_dims);
                return Some((t, 0));
            }
            if let Some(t) = m.body.and_then(|b| local_type(b, name, text)) {
                return Some((t, 0));
            }
            field_type(decls, Some(ci), name, text).map(|t| (t, 0))
        }
        "field_access" => {
            let f = text_of(&e.child_by_field_name("field")?, text);
            field_type(decls, None, f, text).map(|t| (t, 0))
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

/// The declared type of field `name`: of class `ci` or a class around it, or (`None`) of any
/// class of the file.
fn field_type(decls: &Decls, ci: Option<usize>, name: &str, text: &str) -> Option<String> {
    let render = |f: &crate::decls::Field| {
        text_of(&f.type_node, text).to_string() + &"[]".repeat(f.extra_dims)
    };
    match ci {
        Some(ci) => {
            let mut cur = Some(ci);
            while let Some(c) = cur {
                if let Some(f) = decls.classes[c].fields.iter().find(|f| f.name == name) {
                    return Some(render(f));
                }
                cur = decls.classes[c].outer;
            }
            None
        }
        None => {
            decls.classes.iter().flat_map(|c| c.fields.iter()).find(|f| f.name == name).map(render)
        }
    }
}
