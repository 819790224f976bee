//! Generated tests, their input heaps and JUnit files in their JS shapes.

use std::collections::BTreeMap;

use heaplab_engine::{Heap, ObjId, Value};
use heaplab_testgen::coverage::Lines;
use heaplab_testgen::{emit, Expected, GeneratedTest, Generation, Validity};
use serde::Serialize;

#[derive(Serialize)]
#[serde(untagged)]
pub enum JsHeapValue {
    Int(f64),
    Big(String),
    Bool(bool),
    Null(Option<()>),
    Ref { r#ref: String },
}

pub fn heap_value(v: &Value) -> JsHeapValue {
    const SAFE: i64 = 1 << 53;
    match v {
        Value::Int(i) if (-SAFE..=SAFE).contains(i) => JsHeapValue::Int(*i as f64),
        Value::Int(i) => JsHeapValue::Big(i.to_string()),
        Value::Bool(b) => JsHeapValue::Bool(*b),
        Value::Ref(Some(o)) => JsHeapValue::Ref { r#ref: o.to_string() },
        Value::Ref(None) | Value::Void => JsHeapValue::Null(None),
    }
}

#[derive(Serialize)]
pub struct JsObject {
    pub id: String,
    pub class: String,
    pub fields: BTreeMap<String, JsHeapValue>,
}

#[derive(Serialize)]
pub struct JsInput {
    pub receiver: Option<String>,
    pub args: Vec<JsHeapValue>,
    pub objects: Vec<JsObject>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsTest {
    pub name: String,
    pub path: usize,
    pub outcome: &'static str,
    pub expected: String,
    pub validity: &'static str,
    pub k_cut: bool,
    /// The `test` block; `None` where the caller gets the blocks apart
    /// ([`crate::exploration::Run::test_blocks`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hl: Option<String>,
    pub lines: Vec<usize>,
    pub input: JsInput,
}

pub fn objects(heap: &Heap) -> Vec<JsObject> {
    heap.objects()
        .map(|(id, o): (ObjId, _)| JsObject {
            id: id.to_string(),
            class: o.class.clone(),
            fields: o.fields.iter().map(|(f, v)| (f.clone(), heap_value(v))).collect(),
        })
        .collect()
}

pub fn test_js(generation: &Generation, lines: Option<&Lines>, t: &GeneratedTest) -> JsTest {
    test_js_with(generation, lines, t, true)
}

/// [`test_js`], with its `test` block only when `block` is set.
pub fn test_js_with(
    generation: &Generation,
    lines: Option<&Lines>,
    t: &GeneratedTest,
    block: bool,
) -> JsTest {
    let (outcome, expected) = match &t.expected {
        Expected::Returned(v) => ("returned", t.input.heap.display_value(v)),
        Expected::Error(kind) => ("error", kind.keyword().to_string()),
    };
    JsTest {
        name: t.name.clone(),
        path: t.path,
        outcome,
        expected,
        validity: match t.validity {
            Validity::Assumed => "assumed",
            Validity::Valid => "valid",
            Validity::Invalid => "invalid",
            Validity::Unknown(_) => "unknown",
            Validity::NoPrecondition => "no_precondition",
        },
        k_cut: t.k_cut,
        hl: block.then(|| emit::test_block(generation, t)),
        lines: lines.map(|l| l.of_test(t)).unwrap_or_default(),
        input: JsInput {
            receiver: t.input.receiver.map(|r| r.to_string()),
            args: t.input.args.iter().map(heap_value).collect(),
            objects: objects(&t.input.heap),
        },
    }
}

#[derive(Serialize)]
pub struct JsFile {
    pub name: String,
    pub text: String,
}

#[derive(Serialize)]
pub struct JsJunit {
    pub files: Vec<JsFile>,
    pub warnings: Vec<String>,
}
