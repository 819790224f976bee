//! The lazy family's concretization (digest seed-004a §6.2–6.4): a path's final state and a
//! model of its path condition become a concrete input heap, the roots' values, and the values
//! the interpreter should end with.
//!
//! The input heap is built from the input journal of the path's *final* state, so everything the
//! path discovered is there and nothing else: objects in the order they were materialized, each
//! field as first read (resolved through the final state's resolution table), other fields at
//! their defaults. Unresolved symbolic references are `null` (Kiasan's default-lazier) and each
//! unresolved symbolic location is a distinct fresh object (default-sym-map is injective).

use super::ConcreteInput;
use crate::interp::{Heap, ObjId, Value};
use crate::symbolic::code::{Compiled, SlotType};
use crate::symbolic::solve::Model;
use crate::symbolic::state::{Origin, SValue, State, MAX_INPUT_ARRAY_LEN};
use crate::symbolic::term::Sort;
use heaplab_syntax::builtin::KEY;
use std::collections::BTreeMap;

/// See the module docs; `returned` is the value the path returned, if it did.
pub fn concretize(
    code: &Compiled,
    st: &State,
    model: &Model,
    returned: Option<&SValue>,
) -> ConcreteInput {
    let mut b = Builder {
        st,
        code,
        model,
        heap: Heap::new(),
        map: BTreeMap::new(),
        locs: BTreeMap::new(),
        refs: BTreeMap::new(),
    };
    // Input objects first (in materialization order), with default fields; an input array
    // with its length from the model and default cells.
    for (idx, o) in st.heap.iter().enumerate() {
        if o.is_input() {
            let id = match &o.array {
                Some(a) => {
                    let len = b.int(&a.len).clamp(0, MAX_INPUT_ARRAY_LEN) as usize;
                    let elem = o.class.strip_suffix("[]").unwrap_or("int");
                    let cell = default_of(&a.elem);
                    b.heap.alloc_array(elem, vec![cell; len])
                }
                None => b.alloc_default(&o.class),
            };
            b.map.insert(idx, id);
        }
    }
    // Journaled field values.
    for (idx, o) in st.heap.iter().enumerate() {
        let Some(&id) = b.map.get(&idx) else { continue };
        for (f, v) in &o.input {
            let cv = b.value(v);
            b.heap.set_field(id, f, cv);
        }
        // Journaled cells of an input array (their indexes are distinct and in bounds).
        for (t, v) in o.array.iter().flat_map(|a| &a.input) {
            let (i, cv) = (b.int(t), b.value(v));
            if let Ok(i) = usize::try_from(i) {
                b.heap.set_cell(id, i, cv);
            }
        }
    }
    let roots: Vec<Value> = st.roots.iter().map(|v| b.value(v)).collect();
    let input_heap = b.heap.clone();
    // Objects allocated by `new` get the ids the interpreter will give them.
    let mut next = input_heap.len() as u32;
    for (idx, o) in st.heap.iter().enumerate() {
        if o.origin == Origin::New {
            b.map.insert(idx, ObjId(next));
            next += 1;
        }
    }
    let returned = returned.map(|v| b.value(v));
    let mut final_fields = Vec::new();
    for (idx, o) in st.heap.iter().enumerate() {
        let Some(&id) = b.map.get(&idx) else { continue };
        for (f, v) in &o.fields {
            if let Some(v) = v {
                final_fields.push((id, f.clone(), b.value(v)));
            }
        }
    }
    ConcreteInput { heap: input_heap, roots, returned, final_fields }
}

struct Builder<'a> {
    st: &'a State,
    code: &'a Compiled,
    model: &'a Model,
    heap: Heap,
    map: BTreeMap<usize, ObjId>,
    /// Unresolved symbolic location → its fresh object.
    locs: BTreeMap<u32, ObjId>,
    /// Unresolved symbolic reference with an order key → its element object.
    refs: BTreeMap<u32, ObjId>,
}

/// The value an untouched cell of an element type holds.
fn default_of(t: &SlotType) -> Value {
    match t {
        SlotType::Int => Value::Int(0),
        SlotType::Bool => Value::Bool(false),
        _ => Value::NULL,
    }
}

impl Builder<'_> {
    /// An integer symbol's value in the model.
    fn int(&self, s: &crate::symbolic::term::Sym) -> i64 {
        let env = |id: u32, sort: Sort| Some(self.model.get(id, sort).unwrap_or(0));
        s.eval(&env).unwrap_or(0)
    }

    /// A new object of `class` with every field at its default.
    fn alloc_default(&mut self, class: &str) -> ObjId {
        let fields = self
            .code
            .classes
            .get(class)
            .map(|fs| {
                fs.iter()
                    .map(|(f, t)| {
                        let d = match t {
                            SlotType::Int => Value::Int(0),
                            SlotType::Bool => Value::Bool(false),
                            _ => Value::NULL,
                        };
                        (f.clone(), d)
                    })
                    .collect()
            })
            .unwrap_or_default();
        self.heap.alloc(class, fields)
    }

    fn value(&mut self, v: &SValue) -> Value {
        let env = |id: u32, sort: Sort| Some(self.model.get(id, sort).unwrap_or(0));
        match self.st.normalize(v) {
            SValue::Int(s) => Value::Int(s.eval(&env).unwrap_or(0)),
            SValue::Bool(s) => Value::Bool(s.eval(&env).unwrap_or(0) != 0),
            SValue::Null => Value::NULL,
            SValue::SymRef(r) => {
                // A δ̂ a comparison gave a key stands for an element with that key (null has a
                // key of its own, which the comparisons may contradict); any other is null.
                let Some(k) = self.st.pending_order_key(&SValue::SymRef(r)) else {
                    return Value::NULL;
                };
                let key = k.eval(&env).unwrap_or(0);
                if let Some(id) = self.refs.get(&r) {
                    return Value::Ref(Some(*id));
                }
                let class =
                    self.st.symrefs.get(r as usize).map(|i| i.class.clone()).unwrap_or_default();
                let id = self.alloc_default(&class);
                self.heap.set_field(id, KEY, Value::Int(key));
                self.refs.insert(r, id);
                Value::Ref(Some(id))
            }
            SValue::Obj(o) => Value::Ref(self.map.get(&o).copied()),
            SValue::SymLoc(l) => {
                if let Some(id) = self.locs.get(&l) {
                    return Value::Ref(Some(*id));
                }
                let class =
                    self.st.symlocs.get(l as usize).map(|i| i.class.clone()).unwrap_or_default();
                let key = self.st.pending_order_key(&SValue::SymLoc(l)).map(|k| k.eval(&env));
                let id = self.alloc_default(&class);
                if let Some(k) = key {
                    self.heap.set_field(id, KEY, Value::Int(k.unwrap_or(0)));
                }
                self.locs.insert(l, id);
                Value::Ref(Some(id))
            }
            SValue::Void => Value::Void,
        }
    }
}
