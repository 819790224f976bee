//! The interpreter's limits: the bounds of one concrete run.

/// The interpreter's limits. A run that reaches one ends with
/// [`ErrorKind::BoundExhausted`](heaplab_syntax::ast::ErrorKind::BoundExhausted) naming it
/// (see [`RuntimeError::limit`](super::RuntimeError::limit)).
/// Not `#[non_exhaustive]`: callers write `Limits { steps, ..Limits::default() }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most steps one run may take; a step is one expression evaluated or one statement
    /// executed. Stops infinite loops. Default: 1 000 000.
    pub steps: u64,
    /// The most nested calls one run may make (the top-level test block or expression is not
    /// counted). Stops infinite recursion. Default: 1 000.
    pub call_depth: u32,
    /// The most heap cells (one per object plus one per field, [`Heap::cells`](super::Heap::cells)) the heap may
    /// hold; `new` past it ends the run. Stops a program from exhausting memory (in the page,
    /// a worker trap) well before the step limit would: a million steps can allocate a million
    /// objects of 500 fields. Default: 2 000 000 (some 150 MB).
    pub heap_cells: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { steps: 1_000_000, call_depth: 1_000, heap_cells: 2_000_000 }
    }
}
