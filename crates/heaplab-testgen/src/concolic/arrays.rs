//! Inputs repaired for the `requires`' facts over arrays, which the logic cannot read.

use crate::Input;
use heaplab_engine::{ObjId, Value};

/// `input` with its arrays lengthened to a common length (the shortest that works, up to
/// `max_len`), the new cells holding their type's default, so that `holds` (the `requires`'
/// code facts) is true; `None` when no length works or the input has no array.
///
/// The logic has no array atoms, so a model of the precondition's formula says nothing about
/// the facts over arrays that the loop checks apart (`this.n <= this.a.length`, a
/// `validParents()` loop over the cells): phase 1's input for a resizing-array stack has
/// arrays too short for its `n`, and every such input was discarded, so a method without a
/// branch got no test at all. Padding with defaults is the smallest change to the model; the
/// input is then run, replayed and classified like any other.
pub(super) fn lengthen_arrays(
    input: &Input,
    max_len: i64,
    holds: impl Fn(&Input) -> bool,
) -> Option<Input> {
    let arrays: Vec<(ObjId, Value)> = input
        .heap
        .objects()
        .filter(|(_, o)| o.is_array())
        .map(|(id, o)| {
            let fill = match o.elem_type() {
                Some("int") => Value::Int(0),
                Some("bool") => Value::Bool(false),
                _ => Value::Ref(None),
            };
            (id, fill)
        })
        .collect();
    if arrays.is_empty() {
        return None;
    }
    let shortest = arrays.iter().filter_map(|(id, _)| input.heap.array_len(*id)).min()?;
    (shortest + 1..=usize::try_from(max_len).unwrap_or(0)).find_map(|len| {
        let mut longer = input.clone();
        for (id, fill) in &arrays {
            longer.heap.grow_array(*id, len, *fill);
        }
        holds(&longer).then_some(longer)
    })
}
