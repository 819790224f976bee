//! The generated tests as the JSON text of their [`JsTest`](crate::tests_view::JsTest)s,
//! written from the generation itself.
//!
//! Why: the page's Run sends its tests as JSON text, and building a `JsTest` first made a
//! string for every object's id and class, every field's name and every reference (some
//! 12,000 for TreeMap `put`'s 331 tests at k = 3) only to write and drop them. These borrowed
//! views write the same text; `tests_view` keeps the owned shapes for the callers that hold
//! tests (duels, concolic runs, `tests()`), and its serialization is these views' oracle.

use heaplab_engine::{Heap, ObjId, Value};
use heaplab_testgen::coverage::Lines;
use heaplab_testgen::{emit, GeneratedTest, Generation};
use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use crate::tests_view::{outcome_of, validity_name};

/// One test as [`test_js_with`](crate::tests_view::test_js_with)'s `JsTest` serializes.
pub struct TestJson<'a> {
    pub generation: &'a Generation,
    pub lines: Option<&'a Lines>,
    pub test: &'a GeneratedTest,
    /// With the `test` block (`hl`).
    pub block: bool,
}

impl Serialize for TestJson<'_> {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        let t = self.test;
        let (outcome, expected) = outcome_of(t);
        let mut m = out.serialize_struct("JsTest", 9)?;
        m.serialize_field("name", &t.name)?;
        m.serialize_field("path", &t.path)?;
        m.serialize_field("outcome", outcome)?;
        m.serialize_field("expected", &expected)?;
        m.serialize_field("validity", validity_name(&t.validity))?;
        m.serialize_field("kCut", &t.k_cut)?;
        if self.block {
            m.serialize_field("hl", &emit::test_block(self.generation, t))?;
        }
        m.serialize_field("lines", &self.lines.map(|l| l.of_test(t)).unwrap_or_default())?;
        m.serialize_field("input", &InputJson(t))?;
        m.end()
    }
}

/// `JsInput`: the receiver, the arguments and the input heap's objects.
struct InputJson<'a>(&'a GeneratedTest);

impl Serialize for InputJson<'_> {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        let input = &self.0.input;
        let mut m = out.serialize_struct("JsInput", 3)?;
        m.serialize_field("receiver", &input.receiver.map(Id))?;
        m.serialize_field("args", &Values(&input.args))?;
        m.serialize_field("objects", &Objects(&input.heap))?;
        m.end()
    }
}

/// An object id as its text (`o3`).
#[derive(Clone, Copy)]
struct Id(ObjId);

impl Serialize for Id {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        out.collect_str(&self.0)
    }
}

struct Values<'a>(&'a [Value]);

impl Serialize for Values<'_> {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        out.collect_seq(self.0.iter().map(ValueJson))
    }
}

/// A value as `JsHeapValue` writes it: a number (a string past 2^53), a boolean, `null`, or
/// `{ "ref": "o3" }`.
struct ValueJson<'a>(&'a Value);

impl Serialize for ValueJson<'_> {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        const SAFE: i64 = 1 << 53;
        match self.0 {
            Value::Int(i) if (-SAFE..=SAFE).contains(i) => out.serialize_f64(*i as f64),
            Value::Int(i) => out.collect_str(i),
            Value::Bool(b) => out.serialize_bool(*b),
            Value::Ref(Some(o)) => {
                let mut m = out.serialize_map(Some(1))?;
                m.serialize_entry("ref", &Id(*o))?;
                m.end()
            }
            Value::Ref(None) | Value::Void => out.serialize_none(),
        }
    }
}

/// `JsObject`s: id, class, and the fields as a map with sorted keys.
struct Objects<'a>(&'a Heap);

impl Serialize for Objects<'_> {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        let mut seq = out.serialize_seq(None)?;
        for (id, o) in self.0.objects() {
            seq.serialize_element(&ObjectJson { id, class: &o.class, fields: &o.fields })?;
        }
        seq.end()
    }
}

struct ObjectJson<'a> {
    id: ObjId,
    class: &'a str,
    fields: &'a [(String, Value)],
}

impl Serialize for ObjectJson<'_> {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        // An object's field names are distinct (declared fields, or an array's cells).
        let mut fields: Vec<&(String, Value)> = self.fields.iter().collect();
        fields.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut m = out.serialize_struct("JsObject", 3)?;
        m.serialize_field("id", &Id(self.id))?;
        m.serialize_field("class", self.class)?;
        m.serialize_field("fields", &Fields(&fields))?;
        m.end()
    }
}

struct Fields<'a>(&'a [&'a (String, Value)]);

impl Serialize for Fields<'_> {
    fn serialize<S: Serializer>(&self, out: S) -> Result<S::Ok, S::Error> {
        out.collect_map(self.0.iter().map(|(name, v)| (name, ValueJson(v))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests_view::heap_value;

    /// A run's tests as text are the text of its `JsTest`s, with and without their blocks:
    /// trees of objects (BST, TreeMap), arrays (a binary heap's), errors and values.
    #[test]
    fn a_runs_tests_are_written_as_their_owned_shapes() {
        use crate::exploration::{Request, Run};
        let runs = [
            (include_str!("../../../examples/bst.hl"), "BST.remove"),
            (include_str!("../../../examples/treemap.hl"), "TreeMap.put"),
            (include_str!("../../../examples/binaryheap.hl"), "IntHeap.insert"),
        ];
        for (source, method) in runs {
            let request = Request::from_json(r#"{"strategy": "lazier#", "bounds": {"k": 2}}"#)
                .unwrap_or_else(|e| panic!("{}", e.message));
            let mut run = Run::new(source.into(), method.into(), request, false, || 0.0)
                .unwrap_or_else(|e| panic!("{}", e.message));
            run.enter().unwrap_or_else(|e| panic!("{}", e.message));
            while let crate::exploration::Next::Event(_) = run.advance().expect("runs") {}
            run.explored = true;
            assert!(run.try_generate().expect("tests").is_empty(), "no Z3 question");
            let tests = run.tests_with(false);
            assert!(tests.len() > 3, "{method}: {} tests", tests.len());
            assert!(tests.iter().any(|t| t.input.objects.len() > 1), "{method}: objects");
            let arrays =
                tests.iter().flat_map(|t| &t.input.objects).any(|o| o.class.ends_with("[]"));
            assert_eq!(arrays, method == "IntHeap.insert", "{method}: arrays");
            for blocks in [false, true] {
                let owned = crate::json_text(&run.tests_with(blocks)).expect("owned");
                let written = run.tests_text(blocks).expect("written");
                assert_eq!(written, owned, "{method}, blocks {blocks}");
            }
        }
    }

    /// Every kind of value is written as `JsHeapValue` writes it, big integers included.
    #[test]
    fn values_are_written_as_the_owned_shape_writes_them() {
        let values = [
            Value::Int(0),
            Value::Int(-7),
            Value::Int(1 << 53),
            Value::Int((1 << 53) + 1),
            Value::Int(i64::MIN),
            Value::Bool(true),
            Value::Ref(None),
            Value::Void,
            Value::Ref(Some(ObjId(11))),
        ];
        for v in &values {
            let owned = serde_json::to_string(&heap_value(v)).expect("owned");
            let borrowed = serde_json::to_string(&ValueJson(v)).expect("borrowed");
            assert_eq!(borrowed, owned, "{v:?}");
        }
    }
}
