//! Emitters: HeapLab `test` blocks and JSON, as strings (front ends write the files).
//!
//! The `.hl` file is the original program text followed by the generated tests, so
//! `heaplab test FILE` runs them against the original classes with no import mechanism. Each test
//! builds its input with `new` (primitive fields first, then reference fields with field stores,
//! which also handles cycles), makes the call, and asserts the return value and every field of
//! every object reachable from the inputs and the result afterwards. Error outcomes become
//! `test name expects KIND { ... }`.

pub mod junit;
pub mod junit_java;

use crate::{Expected, GeneratedTest, Generation, Validity};
use heaplab_engine::{Heap, ObjId, Value};
use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write;

/// An integer literal HeapLab can parse: `i64::MIN` has no literal of its own, and under
/// `ints java32` neither has `i32::MIN` (`-2147483648` negates the out-of-range 2147483648,
/// as in Java), so both are written as a subtraction.
fn int_literal(n: i64) -> String {
    if n == i64::MIN {
        "(-9223372036854775807 - 1)".to_string()
    } else if n == i64::from(i32::MIN) {
        "(-2147483647 - 1)".to_string()
    } else {
        n.to_string()
    }
}

fn value_text(v: &Value, names: &BTreeMap<ObjId, String>) -> String {
    match v {
        Value::Int(n) => int_literal(*n),
        Value::Bool(b) => b.to_string(),
        Value::Ref(None) => "null".into(),
        Value::Ref(Some(id)) => names.get(id).cloned().unwrap_or_else(|| id.to_string()),
        Value::Void => "void".into(),
    }
}

/// The statements that build `heap` (one local per object, named like the object: `o1`).
fn build_input(heap: &Heap, out: &mut String) {
    let names: BTreeMap<ObjId, String> =
        heap.objects().map(|(id, _)| (id, id.to_string())).collect();
    for (id, o) in heap.objects() {
        if let Some(elem) = o.elem_type() {
            // Reference cells start null and are stored below, like reference fields.
            let cells: Vec<String> = o
                .cells()
                .map(|v| match v {
                    Value::Ref(_) => "null".to_string(),
                    v => value_text(&v, &names),
                })
                .collect();
            let _ = writeln!(out, "  {} {id} = new {elem}[]{{{}}};", o.class, cells.join(", "));
            continue;
        }
        let prims: Vec<String> = o
            .fields
            .iter()
            .filter(|(_, v)| matches!(v, Value::Int(_) | Value::Bool(_)))
            .filter(|(_, v)| !matches!(v, Value::Int(0) | Value::Bool(false)))
            .map(|(f, v)| format!("{f}: {}", value_text(v, &names)))
            .collect();
        if prims.is_empty() {
            let _ = writeln!(out, "  {} {id} = new {};", o.class, o.class);
        } else {
            let _ =
                writeln!(out, "  {} {id} = new {} {{ {} }};", o.class, o.class, prims.join(", "));
        }
    }
    for (id, o) in heap.objects() {
        for (f, v) in &o.fields {
            if let Value::Ref(Some(_)) = v {
                let target = if o.is_array() { format!("{id}[{f}]") } else { format!("{id}.{f}") };
                let _ = writeln!(out, "  {target} = {};", value_text(v, &names));
            }
        }
    }
}

/// Assertions on every field of every object reachable from the inputs (and `r`) afterwards.
fn assert_final(heap: &Heap, input_len: usize, result: Option<&Value>, out: &mut String) {
    let mut names: BTreeMap<ObjId, String> = BTreeMap::new();
    let mut queue = VecDeque::new();
    for (id, _) in heap.objects().take(input_len) {
        names.insert(id, id.to_string());
        queue.push_back(id);
    }
    if let Some(Value::Ref(Some(id))) = result {
        if let std::collections::btree_map::Entry::Vacant(e) = names.entry(*id) {
            e.insert("r".to_string());
            queue.push_back(*id);
        }
    }
    while let Some(id) = queue.pop_front() {
        let Some(o) = heap.get(id) else { continue };
        let name = names.get(&id).cloned().unwrap_or_default();
        if o.is_array() {
            let _ = writeln!(out, "  assert {name}.length == {};", o.fields.len());
        }
        for (f, v) in &o.fields {
            // An array's cells are its fields `0`, `1`, …: read as `a[i]`.
            let place = if o.is_array() { format!("{name}[{f}]") } else { format!("{name}.{f}") };
            match v {
                Value::Ref(Some(target)) => match names.get(target) {
                    Some(t) => {
                        let _ = writeln!(out, "  assert {place} == {t};");
                    }
                    None => {
                        names.insert(*target, place.clone());
                        queue.push_back(*target);
                        let _ = writeln!(out, "  assert {place} != null;");
                    }
                },
                other => {
                    let _ = writeln!(out, "  assert {place} == {};", value_text(other, &names));
                }
            }
        }
    }
}

/// One `test` block.
pub fn test_block(gen: &Generation, t: &GeneratedTest) -> String {
    let return_type = gen.return_type.as_str();
    let mut out = String::new();
    let header = match &t.expected {
        Expected::Returned(_) => format!("test {} {{\n", t.name),
        Expected::Error(kind) => format!("test {} expects {} {{\n", t.name, kind.keyword()),
    };
    let _ = writeln!(
        out,
        "// path {}{}{}",
        t.path,
        validity_note(&t.validity),
        if t.k_cut { " (k bound reached)" } else { "" }
    );
    out.push_str(&header);
    build_input(&t.input.heap, &mut out);
    let names: BTreeMap<ObjId, String> =
        t.input.heap.objects().map(|(id, _)| (id, id.to_string())).collect();
    let args: Vec<String> = t.input.args.iter().map(|v| value_text(v, &names)).collect();
    let (_, method) = heaplab_engine::symbolic::explorer::split_target(&gen.target);
    let call = match t.input.receiver {
        Some(r) => format!("{r}.{method}({})", args.join(", ")),
        None => format!("{method}({})", args.join(", ")),
    };
    match &t.expected {
        Expected::Error(_) => {
            let _ = writeln!(out, "  {call};");
        }
        Expected::Returned(Value::Void) => {
            let _ = writeln!(out, "  {call};");
            assert_final(&t.final_heap, t.input.heap.len(), None, &mut out);
        }
        Expected::Returned(v) => {
            let _ = writeln!(out, "  {return_type} r = {call};");
            match v {
                Value::Ref(Some(id)) if (id.index()) < t.input.heap.len() => {
                    let _ = writeln!(out, "  assert r == {id};");
                }
                Value::Ref(Some(_)) => {
                    let _ = writeln!(out, "  assert r != null;");
                }
                other => {
                    let _ = writeln!(out, "  assert r == {};", value_text(other, &BTreeMap::new()));
                }
            }
            assert_final(&t.final_heap, t.input.heap.len(), Some(v), &mut out);
        }
    }
    out.push_str("}\n");
    out
}

fn validity_note(v: &Validity) -> &'static str {
    match v {
        Validity::Invalid => ": input violates `requires`",
        Validity::Valid => ": input satisfies `requires`",
        Validity::Unknown(_) => ": `requires` not decided for this input",
        _ => "",
    }
}

/// The original program followed by every generated test: runnable with `heaplab test`.
pub fn hl(source: &str, gen: &Generation) -> String {
    let mut out = source.to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "\n// ---- {} tests generated by `heaplab run` for {} ----\n",
        gen.tests.len(),
        gen.target
    );
    for t in &gen.tests {
        out.push_str(&test_block(gen, t));
        out.push('\n');
    }
    out
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_value(v: &Value) -> String {
    match v {
        Value::Int(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Ref(None) => "null".into(),
        Value::Ref(Some(id)) => format!("{{\"ref\":{}}}", json_string(&id.to_string())),
        Value::Void => "\"void\"".into(),
    }
}

fn json_heap(heap: &Heap) -> String {
    let objs: Vec<String> = heap
        .objects()
        .map(|(id, o)| {
            let fields: Vec<String> = o
                .fields
                .iter()
                .map(|(f, v)| format!("{}:{}", json_string(f), json_value(v)))
                .collect();
            format!(
                "{{\"id\":{},\"class\":{},\"fields\":{{{}}}}}",
                json_string(&id.to_string()),
                json_string(&o.class),
                fields.join(",")
            )
        })
        .collect();
    format!("[{}]", objs.join(","))
}

/// Every test as one JSON document: `{"target": ..., "tests": [...]}`.
pub fn json(gen: &Generation) -> String {
    let tests: Vec<String> = gen
        .tests
        .iter()
        .map(|t| {
            let expected = match &t.expected {
                Expected::Returned(v) => format!("{{\"kind\":\"returned\",\"value\":{}}}", json_value(v)),
                Expected::Error(k) => format!("{{\"kind\":\"error\",\"error\":{}}}", json_string(k.keyword())),
            };
            let validity = match &t.validity {
                Validity::Assumed => "\"assumed\"".to_string(),
                Validity::Valid => "\"valid\"".to_string(),
                Validity::Invalid => "\"invalid\"".to_string(),
                Validity::NoPrecondition => "\"no_precondition\"".to_string(),
                Validity::Unknown(why) => format!("{{\"unknown\":{}}}", json_string(why)),
            };
            let receiver = t.input.receiver.map_or("null".to_string(), |r| json_string(&r.to_string()));
            let args: Vec<String> = t.input.args.iter().map(json_value).collect();
            format!(
                "{{\"name\":{},\"path\":{},\"input\":{{\"heap\":{},\"receiver\":{},\"args\":[{}]}},\"expected\":{},\"final_heap\":{},\"validity\":{},\"k_bound_reached\":{}}}",
                json_string(&t.name),
                t.path,
                json_heap(&t.input.heap),
                receiver,
                args.join(","),
                expected,
                json_heap(&t.final_heap),
                validity,
                t.k_cut
            )
        })
        .collect();
    format!("{{\"target\":{},\"tests\":[\n{}\n]}}\n", json_string(&gen.target), tests.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::int_literal;
    use heaplab_syntax::{analyze, SourceFile};

    /// The extreme integers' literals check clean under each `ints` mode that has them (a bare
    /// `-2147483648` is an error under `java32`).
    #[test]
    fn extreme_integer_literals_check_under_every_ints_mode() {
        for (mode, n) in [
            ("java32", i64::from(i32::MIN)),
            ("java32", i64::from(i32::MAX)),
            ("java64", i64::MIN),
            ("java64", i64::MAX),
            ("java64", i64::from(i32::MIN)),
        ] {
            let lit = int_literal(n);
            let text = format!("ints {mode};\ntest t {{ int x = {lit}; assert x == {lit}; }}\n");
            let a = analyze(&SourceFile::new("t.hl".to_string(), text.clone()));
            assert!(!a.has_errors(), "{text}: {:?}", a.diagnostics);
        }
        assert_eq!(int_literal(-5), "-5");
    }
}
