//! The concrete heap: a plain value listing objects by [`ObjId`].
//!
//! It is deliberately independent of the interpreter: test generation builds heaps from solver
//! models with [`Heap::alloc`], the interpreter runs a method on them, and the logic crate's model
//! checker or the test emitters inspect the result with [`Heap::objects`] and [`Heap::field`].
//! Fields are kept in declaration order so rendering and emitted tests are stable.

use super::value::{ObjId, Value};
use std::fmt;

/// One object: its class and its fields (name and value) in declaration order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object {
    pub class: String,
    pub fields: Vec<(String, Value)>,
}

impl Object {
    /// Whether this object is an array: its class is the array type (`int[]`, `Node[]`) and its
    /// fields are its cells, named `0`, `1`, … in order (see [`Heap::alloc_array`]).
    pub fn is_array(&self) -> bool {
        self.class.ends_with("[]")
    }

    /// The element type of an array (`int` for `int[]`).
    pub fn elem_type(&self) -> Option<&str> {
        self.class.strip_suffix("[]")
    }

    /// The cells of an array in index order (empty for an object).
    pub fn cells(&self) -> impl Iterator<Item = Value> + '_ {
        self.fields.iter().filter(|_| self.is_array()).map(|(_, v)| *v)
    }

    /// The value of a field, or `None` if the object has no such field.
    pub fn field(&self, name: &str) -> Option<Value> {
        self.fields.iter().find(|(f, _)| f == name).map(|(_, v)| *v)
    }
}

/// All objects allocated so far. Objects are never freed (runs are short).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Heap {
    objects: Vec<Object>,
    /// Objects plus fields allocated so far (see [`Heap::cells`]).
    cells: u64,
}

impl Heap {
    pub fn new() -> Heap {
        Heap::default()
    }

    /// Adds an object and returns its id (ids are assigned in allocation order from `ObjId(0)`).
    pub fn alloc(&mut self, class: impl Into<String>, fields: Vec<(String, Value)>) -> ObjId {
        let id = ObjId(self.objects.len() as u32);
        self.cells += 1 + fields.len() as u64;
        self.objects.push(Object { class: class.into(), fields });
        id
    }

    /// Adds an array of element type `elem` (`int`, `bool` or a class name) holding `cells`.
    /// An array is an [`Object`] of class `elem[]` whose fields are its cells named by index, so
    /// every heap walk (rendering, model checking, emitters) sees it without a special case.
    pub fn alloc_array(&mut self, elem: &str, cells: Vec<Value>) -> ObjId {
        let fields = cells.into_iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect();
        self.alloc(format!("{elem}[]"), fields)
    }

    /// The length of array `id`; `None` if it is not an array.
    pub fn array_len(&self, id: ObjId) -> Option<usize> {
        self.get(id).filter(|o| o.is_array()).map(|o| o.fields.len())
    }

    /// Cell `index` of array `id`; `None` if it is not an array or the index is out of range.
    pub fn cell(&self, id: ObjId, index: usize) -> Option<Value> {
        let o = self.get(id).filter(|o| o.is_array())?;
        o.fields.get(index).map(|(_, v)| *v)
    }

    /// Stores into cell `index` of array `id`; `false` (nothing changes) when out of range.
    pub fn set_cell(&mut self, id: ObjId, index: usize, value: Value) -> bool {
        let Some(o) = self.objects.get_mut(id.index()).filter(|o| o.is_array()) else {
            return false;
        };
        match o.fields.get_mut(index) {
            Some(slot) => {
                slot.1 = value;
                true
            }
            None => false,
        }
    }

    /// Grows array `id` to `len` cells, the new ones holding `fill` (an array is never
    /// shortened); `false` when `id` is not an array.
    pub fn grow_array(&mut self, id: ObjId, len: usize, fill: Value) -> bool {
        let Some(o) = self.objects.get_mut(id.index()).filter(|o| o.is_array()) else {
            return false;
        };
        while o.fields.len() < len {
            o.fields.push((o.fields.len().to_string(), fill));
            self.cells += 1;
        }
        true
    }

    /// The heap's size in cells: one per object and one per field (the interpreter's heap
    /// limit, [`Limits::heap_cells`](super::Limits::heap_cells), counts these).
    pub fn cells(&self) -> u64 {
        self.cells
    }

    pub fn len(&self) -> usize {
        self.objects.len()
    }

    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    pub fn get(&self, id: ObjId) -> Option<&Object> {
        self.objects.get(id.index())
    }

    /// The class name of an object.
    pub fn class_of(&self, id: ObjId) -> Option<&str> {
        self.get(id).map(|o| o.class.as_str())
    }

    /// The value of field `name` of object `id`; `None` if either does not exist.
    pub fn field(&self, id: ObjId, name: &str) -> Option<Value> {
        self.get(id)?.field(name)
    }

    /// Stores `value` into field `name` of object `id`. Returns `false` (and changes nothing)
    /// if the object or the field does not exist.
    pub fn set_field(&mut self, id: ObjId, name: &str, value: Value) -> bool {
        let Some(object) = self.objects.get_mut(id.index()) else { return false };
        match object.fields.iter_mut().find(|(f, _)| f == name) {
            Some(slot) => {
                slot.1 = value;
                true
            }
            None => false,
        }
    }

    /// Every object with its id, in allocation order.
    pub fn objects(&self) -> impl Iterator<Item = (ObjId, &Object)> + '_ {
        self.objects.iter().enumerate().map(|(i, o)| (ObjId(i as u32), o))
    }

    /// The heap as the model checker reads it: every object in allocation order (a reference is
    /// its object's index), `store` as the formula's variables, cut to what they reach. The
    /// interpreter's `ensures` check and test generation's `requires` check both read it.
    pub fn logic_model<'r>(
        &self,
        store: impl IntoIterator<Item = (&'r str, Value)>,
    ) -> heaplab_logic::Model {
        let mut model = heaplab_logic::Model::default();
        for o in &self.objects {
            model.objects.push(heaplab_logic::Object {
                class: o.class.clone(),
                fields: o.fields.iter().map(|(f, v)| (f.clone(), logic_value(v))).collect(),
            });
        }
        let mut roots = Vec::new();
        for (name, v) in store {
            model.store.insert(name.to_string(), logic_value(&v));
            roots.push(name);
        }
        model.restrict_to_reachable(&roots)
    }

    /// One object as text: `o1: Node { key: 3, left: null, right: o2 }`.
    pub fn render_object(&self, id: ObjId) -> String {
        match self.get(id) {
            None => format!("{id}: <no such object>"),
            Some(o) if o.is_array() => {
                let cells: Vec<String> = o.cells().map(|v| v.to_string()).collect();
                format!("{id}: {} [{}]", o.class, cells.join(", "))
            }
            Some(o) if o.fields.is_empty() => format!("{id}: {} {{}}", o.class),
            Some(o) => {
                let fields: Vec<String> =
                    o.fields.iter().map(|(name, value)| format!("{name}: {value}")).collect();
                format!("{id}: {} {{ {} }}", o.class, fields.join(", "))
            }
        }
    }

    /// The whole heap, one object per line (each line ends with a newline);
    /// `(empty heap)` when nothing was allocated.
    pub fn render(&self) -> String {
        if self.objects.is_empty() {
            return "(empty heap)\n".to_string();
        }
        let mut out = String::new();
        for (id, _) in self.objects() {
            out.push_str(&self.render_object(id));
            out.push('\n');
        }
        out
    }

    /// A value for a person: like its `Display`, plus the class of a referenced object
    /// (`o1 (Node)`).
    pub fn display_value(&self, value: &Value) -> String {
        match value {
            Value::Ref(Some(id)) => match self.class_of(*id) {
                Some(class) => format!("{id} ({class})"),
                None => format!("{id} (dangling)"),
            },
            other => other.to_string(),
        }
    }
}

impl fmt::Display for Heap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

/// A value as the model checker reads it.
fn logic_value(v: &Value) -> heaplab_logic::Value {
    match v {
        Value::Int(n) => heaplab_logic::Value::Int(*n),
        Value::Bool(b) => heaplab_logic::Value::Bool(*b),
        Value::Ref(Some(id)) => heaplab_logic::Value::Ref(id.index()),
        _ => heaplab_logic::Value::Null,
    }
}
