//! The duel's oracle: the student's method and the reference run in the interpreter on one
//! input, each on its own copy of the input heap, and their ends compared in Rust: how each
//! ended (returned, exception class, runtime error kind), the returned value, and the final
//! heaps from the roots (a bijection between the objects reached from corresponding roots,
//! with equal values in every field; objects of the built-in element classes must be the same
//! input object, as Java's identity). Differences are said in a learner's words: each object is
//! named by the variable or field path that reaches it (`this.root.left`).

use super::RefCall;
use crate::{find_function, Input};
use heaplab_engine::interp::kind_text;
use heaplab_engine::{Heap, Interpreter, Limits, ObjId, Outcome, Value};
use heaplab_syntax::ast::{ErrorKind, Item, Program};
use heaplab_syntax::types::ProgramInfo;
use heaplab_syntax::SourceFile;
use std::collections::{BTreeSet, HashMap, VecDeque};

/// At most this many differences are said per clue (the shallowest first).
const MAX_DIFFERENCES: usize = 3;

/// Which side of the duel runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Student,
    Reference,
}

/// How one run ended, with its final heap.
#[derive(Clone, Debug)]
pub struct Behaviour {
    /// `Err`: the interpreter could not call the method (it does not exist, ...).
    pub outcome: Result<Outcome, String>,
    pub heap: Heap,
}

impl Behaviour {
    /// How the run ended, in words: `returns 3`, `returns normally`, `throws Dup`, `fails
    /// with a null dereference at line 12 (reading field `key` of null)`.
    pub fn describe(&self, file: &SourceFile, roots: &[(String, Value)]) -> String {
        match &self.outcome {
            Err(e) => format!("could not run: {e}"),
            Ok(Outcome::Returned(Value::Void)) => "returns normally".to_string(),
            Ok(Outcome::Returned(v)) => {
                format!(
                    "returns {}",
                    describe_value(&self.heap, *v, "result", roots, &mut HashMap::new())
                )
            }
            Ok(Outcome::Error(e)) if e.kind == ErrorKind::Exception => {
                format!("throws {}", e.message.trim_end_matches(" thrown").trim_matches('`'))
            }
            Ok(Outcome::Error(e)) => format!(
                "fails with {} at line {} ({})",
                article(kind_text(e.kind)),
                file.line_col(e.span.start).line,
                e.message
            ),
            Ok(Outcome::AssumptionViolated { span, .. }) => {
                format!(
                    "stops at an `assume` that is false (line {})",
                    file.line_col(span.start).line
                )
            }
        }
    }
}

fn article(words: &str) -> String {
    if words.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {words}")
    } else {
        format!("a {words}")
    }
}

/// The names of the student's method's inputs, in the order of [`Input`]'s receiver and
/// arguments: `this` (for a method), then its parameters.
pub fn root_names(program: &Program, method: &str) -> Vec<String> {
    let mut names = Vec::new();
    if let Some((class, decl)) = find_function(program, method) {
        if class.is_some() {
            names.push("this".to_string());
        }
        names.extend(decl.params.iter().map(|p| p.name.name.clone()));
    }
    names
}

/// The input's roots with their names (`this`, then the parameters).
pub fn named_roots(input: &Input, names: &[String]) -> Vec<(String, Value)> {
    let values =
        input.receiver.map(|r| Value::Ref(Some(r))).into_iter().chain(input.args.iter().copied());
    names.iter().cloned().zip(values).collect()
}

/// Runs `target` on a copy of `input`'s heap. The student's method takes the input as it is;
/// the reference is called as the product program calls it (`call`).
pub fn run(
    program: &Program,
    info: &ProgramInfo,
    target: &str,
    role: Role,
    call: RefCall,
    input: &Input,
) -> Behaviour {
    let mut interp = Interpreter::new(program, info, Limits::default());
    interp.set_heap(input.heap.clone());
    let (_, name) = heaplab_engine::symbolic::explorer::split_target(target);
    let outcome = match (role, call, input.receiver) {
        (Role::Reference, RefCall::FunctionWithReceiver, Some(r)) => {
            let mut args = vec![Value::Ref(Some(r))];
            args.extend(input.args.iter().copied());
            interp.call_function(name, &args)
        }
        (_, RefCall::Function, _) | (_, _, None) => interp.call_function(name, &input.args),
        (_, _, Some(r)) => interp.call_method(r, name, &input.args),
    };
    let outcome = outcome.map_err(|e| e.to_string());
    Behaviour { outcome, heap: interp.into_heap() }
}

/// The classes the parser added (an empty span): their objects are elements from outside,
/// equal only when they are the same input object.
fn builtin_classes(program: &Program) -> BTreeSet<String> {
    program
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Class(c) if c.span.start == c.span.end => Some(c.name.name.clone()),
            _ => None,
        })
        .collect()
}

/// What differs between the student's run and the reference's on `input` (empty: they agree).
pub fn differences(
    program: &Program,
    input: &Input,
    names: &[String],
    student: &Behaviour,
    reference: &Behaviour,
) -> Vec<String> {
    let (m, r) = match (&student.outcome, &reference.outcome) {
        (Err(e), _) | (_, Err(e)) => {
            return vec![format!("the interpreter could not run both: {e}")]
        }
        (Ok(m), Ok(r)) => (m, r),
    };
    let mut roots: Vec<(String, Value, Value)> =
        named_roots(input, names).into_iter().map(|(n, v)| (n, v, v)).collect();
    match (m, r) {
        (Outcome::Returned(a), Outcome::Returned(b)) => {
            if *a != Value::Void || *b != Value::Void {
                roots.push(("result".to_string(), *a, *b));
            }
        }
        (Outcome::Error(a), Outcome::Error(b)) if a.kind == b.kind => {
            if a.kind == ErrorKind::Exception && a.message != b.message {
                return vec![format!(
                    "yours {}, the reference {}",
                    exception_words(&a.message),
                    exception_words(&b.message)
                )];
            }
            // The same runtime error ends both runs: they agree (the product program stops at
            // the reference's, so neither compares heaps there). After the same exception
            // both heaps are compared below.
            if a.kind != ErrorKind::Exception {
                return Vec::new();
            }
        }
        _ => {
            return vec![format!("yours {}, the reference {}", ending(m), ending(r))];
        }
    }
    compare_heaps(program, input, &student.heap, &reference.heap, roots)
}

fn exception_words(message: &str) -> String {
    format!("throws {}", message.trim_end_matches(" thrown").trim_matches('`'))
}

/// How a run ended, briefly.
fn ending(o: &Outcome) -> String {
    match o {
        Outcome::Returned(_) => "returns".to_string(),
        Outcome::Error(e) if e.kind == ErrorKind::Exception => exception_words(&e.message),
        Outcome::Error(e) => format!("fails with {}", article(kind_text(e.kind))),
        Outcome::AssumptionViolated { .. } => "stops at a false `assume`".to_string(),
    }
}

/// Breadth-first over corresponding roots, so the shallowest differences come first.
fn compare_heaps(
    program: &Program,
    input: &Input,
    hm: &Heap,
    hr: &Heap,
    roots: Vec<(String, Value, Value)>,
) -> Vec<String> {
    let builtin = builtin_classes(program);
    let input_objects = input.heap.len();
    let mut m2r: HashMap<ObjId, ObjId> = HashMap::new();
    let mut r2m: HashMap<ObjId, ObjId> = HashMap::new();
    // The first path that reached each object, on each side.
    let mut path_m: HashMap<ObjId, String> = HashMap::new();
    let mut path_r: HashMap<ObjId, String> = HashMap::new();
    let mut out = Vec::new();
    let mut queue: VecDeque<(String, Value, Value)> = roots.into();
    while let Some((path, a, b)) = queue.pop_front() {
        if out.len() >= MAX_DIFFERENCES {
            break;
        }
        match (a, b) {
            (Value::Ref(None), Value::Ref(None)) => {}
            (Value::Ref(x), Value::Ref(y)) if x.is_none() || y.is_none() => out.push(format!(
                "{path} is {} after yours, {} after the reference",
                kind_of(hm, x),
                kind_of(hr, y)
            )),
            (Value::Ref(Some(x)), Value::Ref(Some(y))) => {
                let (cx, cy) = (hm.class_of(x).unwrap_or("?"), hr.class_of(y).unwrap_or("?"));
                if cx != cy {
                    out.push(format!(
                        "{path} is {} after yours, {} after the reference",
                        article(cx),
                        article(cy)
                    ));
                    continue;
                }
                if builtin.contains(cx) {
                    if x != y || x.index() >= input_objects {
                        out.push(format!(
                            "{path} is a different {cx} after yours than after the reference"
                        ));
                    }
                    continue;
                }
                match (m2r.get(&x), r2m.get(&y)) {
                    (Some(&y2), _) if y2 == y => continue,
                    (Some(_), _) => {
                        out.push(format!(
                            "after yours {path} is the object at {}; after the reference it is not",
                            path_m[&x]
                        ));
                        continue;
                    }
                    (None, Some(&x2)) => {
                        let _ = x2;
                        out.push(format!(
                            "after the reference {path} is the object at {}; after yours it is not",
                            path_r[&y]
                        ));
                        continue;
                    }
                    (None, None) => {}
                }
                m2r.insert(x, y);
                r2m.insert(y, x);
                path_m.insert(x, path.clone());
                path_r.insert(y, path.clone());
                let (Some(ox), Some(oy)) = (hm.get(x), hr.get(y)) else { continue };
                if ox.is_array() && ox.fields.len() != oy.fields.len() {
                    out.push(format!(
                        "{path} has length {} after yours, {} after the reference",
                        ox.fields.len(),
                        oy.fields.len()
                    ));
                    continue;
                }
                for (field, va) in &ox.fields {
                    let vb = oy.field(field).unwrap_or(Value::Void);
                    let sub = if ox.is_array() {
                        format!("{path}[{field}]")
                    } else {
                        format!("{path}.{field}")
                    };
                    queue.push_back((sub, *va, vb));
                }
            }
            (x, y) if x != y => {
                out.push(format!("{path} is {x} after yours, {y} after the reference"))
            }
            _ => {}
        }
    }
    out
}

/// `null` or `a Node`.
fn kind_of(heap: &Heap, r: Option<ObjId>) -> String {
    match r {
        None => "null".to_string(),
        Some(id) => article(heap.class_of(id).unwrap_or("object")),
    }
}

/// The input in words, one root a line: `this = BST { root: Node { key: 1, left: null, right:
/// null } }`, `x = 2`. An object met a second time is named by the path that first reached it.
pub fn describe_input(input: &Input, names: &[String]) -> Vec<String> {
    let mut seen = HashMap::new();
    named_roots(input, names)
        .into_iter()
        .map(|(name, v)| {
            let text = describe_value(&input.heap, v, &name, &[], &mut seen);
            format!("{name} = {text}")
        })
        .collect()
}

/// A value in words, objects nested (`Node { key: 1, left: null }`); an object already shown
/// is named by its path (`the same object as this.root`). `roots`: names of objects known
/// before (the input's roots), used instead of re-describing them.
pub fn describe_value(
    heap: &Heap,
    v: Value,
    path: &str,
    roots: &[(String, Value)],
    seen: &mut HashMap<ObjId, String>,
) -> String {
    const MAX_OBJECTS: usize = 40;
    let Value::Ref(Some(id)) = v else { return v.to_string() };
    if let Some((name, _)) = roots.iter().find(|(_, r)| *r == v) {
        return format!("the input {name}");
    }
    if let Some(p) = seen.get(&id) {
        return format!("(the same object as {p})");
    }
    if seen.len() >= MAX_OBJECTS {
        return "…".to_string();
    }
    seen.insert(id, path.to_string());
    let Some(obj) = heap.get(id) else { return "?".to_string() };
    let mut parts = Vec::new();
    for (field, value) in &obj.fields {
        let sub =
            if obj.is_array() { format!("{path}[{field}]") } else { format!("{path}.{field}") };
        let text = describe_value(heap, *value, &sub, roots, seen);
        parts.push(if obj.is_array() { text } else { format!("{field}: {text}") });
    }
    if obj.is_array() {
        format!("{} {{{}}}", obj.class, parts.join(", "))
    } else if parts.is_empty() {
        obj.class.clone()
    } else {
        format!("{} {{ {} }}", obj.class, parts.join(", "))
    }
}
