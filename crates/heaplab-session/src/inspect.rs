//! JS shapes of what the page inspects in an exploration: the heap view of a tree node
//! (`HeapView` in the TypeScript types of heaplab-wasm's `explore.rs`) and the line coverage of the
//! generated tests. Conversions only; the engine and `heaplab_testgen` compute everything.

use heaplab_engine::symbolic::view::{HeapView, SymKind, ValView};
use heaplab_engine::symbolic::view_symheap::{SymHeapView, Worlds};
use heaplab_syntax::Span;
use heaplab_testgen::coverage::LineCoverage;
use serde::Serialize;

#[derive(Serialize)]
#[serde(tag = "kind")]
pub enum JsVal {
    #[serde(rename = "null")]
    Null,
    #[serde(rename = "void")]
    Void,
    #[serde(rename = "obj")]
    Obj { id: String },
    #[serde(rename = "symref")]
    SymRef { id: String },
    #[serde(rename = "symloc")]
    SymLoc { id: String },
    #[serde(rename = "unread")]
    Unread,
    #[serde(rename = "int")]
    Int { text: String },
    #[serde(rename = "bool")]
    Bool { text: String },
}

fn val(v: &ValView) -> JsVal {
    match v {
        ValView::Null => JsVal::Null,
        ValView::Void => JsVal::Void,
        ValView::Obj(id) => JsVal::Obj { id: id.clone() },
        ValView::SymRef(id) => JsVal::SymRef { id: id.clone() },
        ValView::SymLoc(id) => JsVal::SymLoc { id: id.clone() },
        ValView::Unread => JsVal::Unread,
        ValView::Int(text) => JsVal::Int { text: text.clone() },
        ValView::Bool(text) => JsVal::Bool { text: text.clone() },
    }
}

#[derive(Serialize)]
pub struct JsNamed {
    name: String,
    value: JsVal,
}

fn named(items: &[(String, ValView)]) -> Vec<JsNamed> {
    items.iter().map(|(name, v)| JsNamed { name: name.clone(), value: val(v) }).collect()
}

#[derive(Serialize)]
pub struct JsObjectView {
    id: String,
    class: String,
    origin: &'static str,
    fields: Vec<JsNamed>,
}

#[derive(Serialize)]
pub struct JsSymbolic {
    id: String,
    kind: &'static str,
    class: String,
}

#[derive(Serialize)]
pub struct JsPredicate {
    text: String,
    name: String,
    root: Option<String>,
    depth: u32,
}

#[derive(Serialize)]
pub struct JsOutcome {
    kind: &'static str,
    text: String,
}

#[derive(Serialize)]
pub struct JsFrame {
    unit: String,
    line: Option<u32>,
    locals: Vec<JsNamed>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsHeapView {
    node: u32,
    label: String,
    /// For a child of a fork into a predicate's cases: the case it took, instantiated.
    #[serde(skip_serializing_if = "Option::is_none")]
    case_formula: Option<String>,
    at: &'static str,
    objects: Vec<JsObjectView>,
    roots: Vec<JsNamed>,
    frames: Vec<JsFrame>,
    symbolic: Vec<JsSymbolic>,
    predicates: Vec<JsPredicate>,
    path_condition: Vec<String>,
    returned: Option<JsVal>,
    outcome: Option<JsOutcome>,
    symheap: Option<JsSymHeap>,
}

#[derive(Serialize)]
pub struct JsEntry {
    guard: String,
    loc: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsRef {
    id: String,
    input: Option<String>,
    copy_of: Option<String>,
    class: String,
    entries: Vec<JsEntry>,
}

#[derive(Serialize)]
pub struct JsLoc {
    id: String,
    class: String,
    origin: &'static str,
    fields: Vec<JsNamed>,
}

#[derive(Serialize)]
pub struct JsSymHeap {
    refs: Vec<JsRef>,
    locs: Vec<JsLoc>,
}

fn symheap(s: &SymHeapView) -> JsSymHeap {
    JsSymHeap {
        refs: s
            .refs
            .iter()
            .map(|r| JsRef {
                id: r.id.clone(),
                input: r.input.clone(),
                copy_of: r.copy_of.clone(),
                class: r.class.clone(),
                entries: r
                    .entries
                    .iter()
                    .map(|e| JsEntry { guard: e.guard.clone(), loc: e.loc.clone() })
                    .collect(),
            })
            .collect(),
        locs: s
            .locs
            .iter()
            .map(|l| JsLoc {
                id: l.id.clone(),
                class: l.class.clone(),
                origin: if l.input { "input" } else { "new" },
                fields: named(&l.fields),
            })
            .collect(),
    }
}

#[derive(Serialize)]
pub struct JsWorlds {
    /// Per world, the entry index of each reference of `symheap.refs`, in order.
    worlds: Vec<Vec<usize>>,
    more: bool,
    note: Option<String>,
}

pub fn worlds(w: &Worlds) -> JsWorlds {
    JsWorlds {
        worlds: w.worlds.iter().map(|w| w.choice.clone()).collect(),
        more: w.more,
        note: w.note.clone(),
    }
}

/// A Java program's heap picture in its Java names: each object's class as the Java file names
/// it, and without the hidden field [`heaplab_java::TAG_FIELD`] that says which class of a
/// hierarchy an object is (the class name says it). While that tag is still symbolic the
/// object keeps the hierarchy's name (its root class) and the field, the one thing that is
/// known of its class.
pub fn java_names(v: &mut JsHeapView, map: &heaplab_java::JavaMap) {
    let rename = |class: &mut String, fields: &mut Vec<JsNamed>| {
        let tag =
            fields.iter().find(|f| f.name == heaplab_java::TAG_FIELD).map(|f| match &f.value {
                JsVal::Int { text } => text.parse::<i64>().ok(),
                _ => None,
            });
        let java = match tag {
            Some(None) => return,
            Some(t) => map.class_tagged(class, t),
            None => map.class(class),
        };
        if let Some(c) = java {
            *class = c.name.clone();
        }
        fields.retain(|f| f.name != heaplab_java::TAG_FIELD);
    };
    for o in &mut v.objects {
        rename(&mut o.class, &mut o.fields);
    }
    if let Some(s) = &mut v.symheap {
        for l in &mut s.locs {
            rename(&mut l.class, &mut l.fields);
        }
    }
}

/// `line` maps a span of the program to its 1-based line.
pub fn heap_view(v: &HeapView, line: impl Fn(Span) -> u32) -> JsHeapView {
    JsHeapView {
        node: v.node.0,
        label: v.label.clone(),
        case_formula: v.case_formula.clone(),
        at: v.at.name(),
        objects: v
            .objects
            .iter()
            .map(|o| JsObjectView {
                id: o.id.clone(),
                class: o.class.clone(),
                origin: if o.input { "input" } else { "new" },
                fields: named(&o.fields),
            })
            .collect(),
        roots: named(&v.roots),
        frames: v
            .frames
            .iter()
            .map(|f| JsFrame {
                unit: f.unit.clone(),
                line: f.span.map(&line),
                locals: named(&f.locals),
            })
            .collect(),
        symbolic: v
            .symbolic
            .iter()
            .map(|s| JsSymbolic {
                id: s.id.clone(),
                kind: match s.kind {
                    SymKind::SymRef => "symref",
                    SymKind::SymLoc => "symloc",
                },
                class: s.class.clone(),
            })
            .collect(),
        predicates: v
            .predicates
            .iter()
            .map(|p| JsPredicate {
                text: p.text.clone(),
                name: p.name.clone(),
                root: p.root.clone(),
                depth: p.depth,
            })
            .collect(),
        path_condition: v.path_condition.clone(),
        returned: v.returned.as_ref().map(val),
        outcome: v.outcome.as_ref().map(|o| JsOutcome { kind: o.kind, text: o.text.clone() }),
        symheap: v.symheap.as_ref().map(symheap),
    }
}

#[derive(Serialize)]
pub struct JsBranch {
    line: usize,
    column: usize,
    covered: [bool; 2],
}

#[derive(Serialize)]
pub struct JsCoverage {
    executable: Vec<usize>,
    covered: Vec<usize>,
    branches: Vec<JsBranch>,
}

pub fn coverage(c: &LineCoverage) -> JsCoverage {
    JsCoverage {
        executable: c.executable.clone(),
        covered: c.covered.clone(),
        branches: c
            .branches
            .iter()
            .map(|b| JsBranch { line: b.line, column: b.column, covered: b.covered })
            .collect(),
    }
}

/// The learner's name of every object, open reference and location of `v`: the variable or
/// field path that reaches it (`this.root.left`), from the method's inputs first (breadth first,
/// so the shortest path wins), then from the locals of the call stack, innermost frame first.
/// Ids no path reaches are left out (the page keeps the engine's name for them).
pub fn access_paths(v: &HeapView) -> std::collections::BTreeMap<String, String> {
    access_paths_of(v, None)
}

/// [`access_paths`] of the ids in `wanted` only (all of them for `None`): each has the name the
/// whole map gives it. The walk stops once every wanted id is named, and a path is spelled out
/// only for the ids returned. The engine names a forking event's ids by the same walk on the
/// state itself (`heaplab_engine::symbolic::names`); this walk of a view is the oracle the
/// tests compare it with.
pub fn access_paths_of(
    v: &HeapView,
    wanted: Option<&std::collections::BTreeSet<String>>,
) -> std::collections::BTreeMap<String, String> {
    use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
    const MAX_NAMES: usize = 400;
    /// How an id was first reached: from a variable, or by a field of the id reached `.0`-th.
    #[derive(Clone, Copy)]
    enum Via<'a> {
        Start(&'a str),
        Field(usize, &'a str),
    }
    let objects: HashMap<&str, &heaplab_engine::symbolic::view::ObjView> =
        v.objects.iter().map(|o| (o.id.as_str(), o)).collect();
    let mut reached: Vec<(&str, Via)> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut found = 0;
    let all_found = |found: usize| wanted.is_some_and(|w| found == w.len());
    let starts = [
        v.roots.iter().map(|(n, val)| (n.as_str(), val)).collect::<Vec<_>>(),
        v.frames
            .iter()
            .rev()
            .flat_map(|f| f.locals.iter().map(|(n, val)| (n.as_str(), val)))
            .collect(),
    ];
    'walks: for start in starts {
        let mut queue: VecDeque<(Via, &ValView)> =
            start.into_iter().map(|(n, val)| (Via::Start(n), val)).collect();
        while let Some((via, value)) = queue.pop_front() {
            if reached.len() >= MAX_NAMES || all_found(found) {
                break 'walks;
            }
            let id = match value {
                ValView::Obj(id) | ValView::SymRef(id) | ValView::SymLoc(id) => id.as_str(),
                _ => continue,
            };
            if !seen.insert(id) {
                continue;
            }
            reached.push((id, via));
            found += usize::from(wanted.is_some_and(|w| w.contains(id)));
            if let Some(o) = objects.get(id) {
                let at = reached.len() - 1;
                queue.extend(o.fields.iter().map(|(field, fv)| (Via::Field(at, field), fv)));
            }
        }
    }
    fn path(reached: &[(&str, Via)], i: usize) -> String {
        match reached[i].1 {
            Via::Start(name) => name.to_string(),
            Via::Field(parent, field) => {
                let mut out = path(reached, parent);
                if !field.starts_with('[') {
                    out.push('.');
                }
                out.push_str(field);
                out
            }
        }
    }
    let mut names = BTreeMap::new();
    for (i, (id, _)) in reached.iter().enumerate() {
        if wanted.is_none_or(|w| w.contains(*id)) {
            names.insert(id.to_string(), path(&reached, i));
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use heaplab_syntax::SourceFile;

    /// Names by the shortest path from the inputs first, then from the locals; a cell by its
    /// index; only the wanted ids when asked, each with the name the whole map gives it.
    #[test]
    fn access_paths_name_by_the_shortest_path_and_only_the_wanted() {
        use heaplab_engine::symbolic::events::ViewAt;
        use heaplab_engine::symbolic::view::{FrameView, ObjView};
        use heaplab_engine::symbolic::StateId;
        let obj = |id: &str, fields: &[(&str, ValView)]| ObjView {
            id: id.into(),
            class: "Node".into(),
            input: true,
            fields: fields.iter().map(|(f, v)| (f.to_string(), v.clone())).collect(),
        };
        let o = |id: &str| ValView::Obj(id.into());
        let objects = vec![
            obj("o1", &[("root", o("o2"))]),
            obj("o2", &[("left", o("o3")), ("right", ValView::SymRef("ref1".into()))]),
            obj("o3", &[("left", o("o2")), ("key", ValView::Int("x".into()))]),
            obj("o4", &[("[0]", o("o5"))]),
            obj("o5", &[]),
        ];
        let frame = FrameView {
            unit: "BST.insert".into(),
            span: None,
            locals: vec![("t".into(), o("o3")), ("a".into(), o("o4"))],
        };
        let roots = vec![("this".into(), o("o1"))];
        let view = HeapView::of_shape(StateId(0), ViewAt::Fork, objects, roots, vec![frame]);
        let all = access_paths(&view);
        let expect = [
            ("o1", "this"),
            ("o2", "this.root"),
            ("o3", "this.root.left"),
            ("ref1", "this.root.right"),
            ("o4", "a"),
            ("o5", "a[0]"),
        ];
        let expect: std::collections::BTreeMap<String, String> =
            expect.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        assert_eq!(all, expect);
        let wanted: std::collections::BTreeSet<String> =
            ["o3", "o5", "o9"].iter().map(|s| s.to_string()).collect();
        let some = access_paths_of(&view, Some(&wanted));
        assert_eq!(some.len(), 2);
        assert_eq!(some["o3"], "this.root.left");
        assert_eq!(some["o5"], "a[0]");
    }

    fn int(name: &str, text: &str) -> JsNamed {
        JsNamed { name: name.into(), value: JsVal::Int { text: text.into() } }
    }

    fn object(id: &str, class: &str, fields: Vec<JsNamed>) -> JsObjectView {
        JsObjectView { id: id.into(), class: class.into(), origin: "input", fields }
    }

    /// `IntList.java`'s hierarchy (abstract `IntList`, `Empty`, `Cons`) is one HeapLab class
    /// with a tag field: an object whose tag is known shows its Java class, without the tag; one
    /// whose tag is still symbolic keeps both.
    #[test]
    fn hierarchy_objects_show_their_java_class_and_no_tag() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/java/course/IntList.java");
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let map = heaplab_java::analyze(&SourceFile::new("IntList.java", text)).map;
        let tag_of = |name: &str| map.classes.iter().find(|c| c.name == name).and_then(|c| c.tag);
        let (Some(empty), Some(cons)) = (tag_of("Empty"), tag_of("Cons")) else {
            panic!("IntList.java's classes: {:?}", map.classes)
        };
        let lowered = map.classes.iter().find(|c| c.name == "Cons").map(|c| c.lowered.clone());
        let lowered = lowered.unwrap_or_default();
        let tag = heaplab_java::TAG_FIELD;
        let mut v = JsHeapView {
            node: 0,
            label: String::new(),
            case_formula: None,
            at: "start",
            objects: vec![
                object("o1", &lowered, vec![int(tag, &cons.to_string()), int("head", "3")]),
                object("o2", &lowered, vec![int(tag, &empty.to_string())]),
                object("o3", &lowered, vec![int(tag, "o3.__class"), int("head", "h")]),
            ],
            roots: Vec::new(),
            frames: Vec::new(),
            symbolic: Vec::new(),
            predicates: Vec::new(),
            path_condition: Vec::new(),
            returned: None,
            outcome: None,
            symheap: None,
        };
        java_names(&mut v, &map);
        let shown: Vec<(&str, Vec<&str>)> = v
            .objects
            .iter()
            .map(|o| (o.class.as_str(), o.fields.iter().map(|f| f.name.as_str()).collect()))
            .collect();
        let expected =
            vec![("Cons", vec!["head"]), ("Empty", vec![]), (lowered.as_str(), vec![tag, "head"])];
        assert_eq!(shown, expected);
    }
}
