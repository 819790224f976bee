//! A small stack bytecode that the symbolic explorer runs.
//!
//! Why bytecode and not the AST: the explorer must clone, pause and resume a path at any point,
//! and a lazy-initialization choice re-executes the *same* instruction in each successor (Kiasan's
//! invisible steps keep the program counter). With a flat instruction list a state is plain data
//! (frames with a program counter, locals and an operand stack), so forking is a `clone` and a
//! step is one instruction. Separation-logic formulas (`requires`, predicate bodies) compile to
//! the same code, with a nondeterministic `Fork` per disjunction, so evaluating a precondition
//! "like Kiasan's repOK" uses exactly the same machinery, strategies and bounds as the method.
//!
//! The compiler trusts the type checker's
//! [`ProgramInfo`](heaplab_syntax::types::ProgramInfo) for types and call targets; anything it
//! cannot make sense of becomes an [`Instr::Invalid`] that ends the path with an engine error
//! instead of a panic.

mod bytecode;
mod compile;

pub use bytecode::{
    Compiled, Const, Handler, Instr, OperandKind, Slot, SlotType, Unit, UnitId, UnitKind,
};
pub use compile::{compile, compile_for, compile_merging};
