//! Generated tests, their input heaps and JUnit files in their JS shapes.

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
    /// By field name (a JSON object with sorted keys): a sorted list rather than a map, which
    /// the page's Run made for every object of every test.
    #[serde(serialize_with = "as_map")]
    pub fields: Vec<(String, JsHeapValue)>,
}

fn as_map<S: serde::Serializer>(
    pairs: &[(String, JsHeapValue)],
    out: S,
) -> Result<S::Ok, S::Error> {
    out.collect_map(pairs.iter().map(|(k, v)| (k, v)))
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
            fields: {
                // An object's field names are distinct (declared fields, or an array's cells).
                let mut fields: Vec<_> =
                    o.fields.iter().map(|(f, v)| (f.clone(), heap_value(v))).collect();
                fields.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                fields
            },
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
    let (outcome, expected) = outcome_of(t);
    JsTest {
        name: t.name.clone(),
        path: t.path,
        outcome,
        expected,
        validity: validity_name(&t.validity),
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

/// A test's outcome and expected value as the page names them.
pub(crate) fn outcome_of(t: &GeneratedTest) -> (&'static str, String) {
    match &t.expected {
        Expected::Returned(v) => ("returned", t.input.heap.display_value(v)),
        Expected::Error(kind) => ("error", kind.keyword().to_string()),
    }
}

pub(crate) fn validity_name(v: &Validity) -> &'static str {
    match v {
        Validity::Assumed => "assumed",
        Validity::Valid => "valid",
        Validity::Invalid => "invalid",
        Validity::Unknown(_) => "unknown",
        Validity::NoPrecondition => "no_precondition",
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

#[cfg(test)]
mod tests {
    use super::*;

    /// An object's fields are a JSON object with sorted keys, whatever their declaration order,
    /// as a map of them gave; an array's cells too (`"10"` before `"2"`).
    #[test]
    fn fields_are_written_as_a_sorted_map() {
        let mut heap = Heap::new();
        let node = heap.alloc("Node", vec![]);
        let fields = vec![
            ("value".to_string(), Value::Int(1 << 60)),
            ("left".to_string(), Value::Ref(Some(node))),
            ("key".to_string(), Value::Int(-3)),
            ("right".to_string(), Value::Ref(None)),
            ("red".to_string(), Value::Bool(true)),
        ];
        heap.alloc("Entry", fields);
        heap.alloc_array("int", (0..11).map(Value::Int).collect());
        let text = serde_json::to_string(&objects(&heap)).expect("serializes");
        assert_eq!(
            text,
            concat!(
                r#"[{"id":"o1","class":"Node","fields":{}},"#,
                r#"{"id":"o2","class":"Entry","fields":{"key":-3.0,"left":{"ref":"o1"},"#,
                r#""red":true,"right":null,"value":"1152921504606846976"}},"#,
                r#"{"id":"o3","class":"int[]","fields":{"0":0.0,"1":1.0,"10":10.0,"2":2.0,"#,
                r#""3":3.0,"4":4.0,"5":5.0,"6":6.0,"7":7.0,"8":8.0,"9":9.0}}]"#
            )
        );
    }
}
