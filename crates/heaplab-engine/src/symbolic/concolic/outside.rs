//! The objects of a concolic input outside the precondition's footprint, and how a model gets
//! the values a path needs in them: fields read ([`Unclaimed`]) and input arrays
//! ([`ArrayCells`]). [`super::preprocess`] names them by free variables of their own; after
//! `sat` the loop writes the model's values into those objects.

use crate::symbolic::state::MAX_INPUT_ARRAY_LEN;
use heaplab_logic::{Model, Value as LValue};

/// An input array the path read (an array is always outside the footprint: formulas cannot
/// index it). The formula names the array, its length and each cell the path read (index and
/// value) by free variables of their own; [`ArrayCells::fill`] builds the array from the model:
/// that length, those cells, every other cell the element type's default. The path condition
/// keeps the read indexes distinct and within the length, as lazy initialization of arrays
/// (Kiasan's accumulator) does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayCells {
    /// The free variable equal to the array.
    pub object: String,
    /// The element type (`int`, `bool` or a class).
    pub elem: String,
    /// The free variable equal to its length.
    pub len: String,
    /// (index, value) free variables of each cell read.
    pub cells: Vec<(String, String)>,
}

impl ArrayCells {
    /// Gives each array of `arrays` that the model made an empty array outside the footprint
    /// its length and cells.
    pub fn fill(model: &mut Model, arrays: &[ArrayCells]) {
        for a in arrays {
            let Some(LValue::Ref(o)) = model.store.get(&a.object) else { continue };
            let o = *o;
            let Some(LValue::Int(len)) = model.store.get(&a.len) else { continue };
            if !model.unclaimed.contains(&o) || !(0..=MAX_INPUT_ARRAY_LEN).contains(len) {
                continue;
            }
            let default = match a.elem.as_str() {
                "int" => LValue::Int(0),
                "bool" => LValue::Bool(false),
                _ => LValue::Null,
            };
            let mut cells = vec![default; *len as usize];
            for (index, value) in &a.cells {
                if let (Some(LValue::Int(i)), Some(v)) =
                    (model.store.get(index), model.store.get(value))
                {
                    if let Some(slot) = usize::try_from(*i).ok().and_then(|i| cells.get_mut(i)) {
                        *slot = v.clone();
                    }
                }
            }
            if let Some(ob) = model.objects.get_mut(o).filter(|ob| ob.class.ends_with("[]")) {
                ob.fields =
                    cells.into_iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect();
            }
        }
    }
}

/// A field of an object the precondition says nothing about (outside its footprint: the
/// `Comparable` elements of a `tree`, a `Comparator`), which the path read: the formula names
/// the object and the field's value by two free variables of its own, so that the model gives
/// both and [`Unclaimed::fill`] writes the value into the input. CSF's Algorithm 2 drops such a
/// formula (lines 15–16: nothing covers the access); HeapLab's semantics gives an object outside
/// the footprint arbitrary field values (docs/language.md, "Formula semantics"), so the path
/// may choose them, as `sl` and lazy initialization do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unclaimed {
    /// The free variable equal to the object.
    pub object: String,
    pub field: String,
    /// The free variable equal to the field's value (an `int` or `bool`).
    pub value: String,
}

impl Unclaimed {
    /// Writes the value of each cell into the model's object, when the model made that object
    /// one outside the footprint (a default-valued object of [`Model::unclaimed`]).
    pub fn fill(model: &mut Model, cells: &[Unclaimed]) {
        for c in cells {
            let (Some(LValue::Ref(o)), Some(v)) =
                (model.store.get(&c.object), model.store.get(&c.value).cloned())
            else {
                continue;
            };
            let o = *o;
            if !model.unclaimed.contains(&o) {
                continue;
            }
            if let Some(slot) = model
                .objects
                .get_mut(o)
                .and_then(|ob| ob.fields.iter_mut().find(|(f, _)| *f == c.field).map(|(_, v)| v))
            {
                *slot = v;
            }
        }
    }
}
