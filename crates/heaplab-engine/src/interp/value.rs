//! Runtime values. They are small `Copy` data: an object is referred to by its [`ObjId`], an
//! index into the [`Heap`](super::Heap), so values never borrow the heap.

use std::fmt;

/// An object's identity: its index in the heap, in allocation order.
///
/// Displayed 1-based as `o1`, `o2`, … (so `ObjId(0)` prints as `o1`), the labels students see in
/// heap pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjId(pub u32);

impl ObjId {
    /// The position of the object in [`Heap::objects`](super::Heap::objects).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for ObjId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "o{}", u64::from(self.0) + 1)
    }
}

/// A HeapLab value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Int(i64),
    Bool(bool),
    /// A reference; `Ref(None)` is `null`.
    Ref(Option<ObjId>),
    /// What a `void` function returns; never stored in a variable or field.
    Void,
}

impl Value {
    /// The `null` reference.
    pub const NULL: Value = Value::Ref(None);

    pub fn as_int(self) -> Option<i64> {
        match self {
            Value::Int(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_bool(self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// `Some(r)` for a reference (`r` is `None` for null), `None` for ints, bools and void.
    pub fn as_ref(self) -> Option<Option<ObjId>> {
        match self {
            Value::Ref(r) => Some(r),
            _ => None,
        }
    }

    pub fn is_null(self) -> bool {
        self == Value::NULL
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Ref(None) => write!(f, "null"),
            Value::Ref(Some(id)) => write!(f, "{id}"),
            Value::Void => write!(f, "void"),
        }
    }
}
