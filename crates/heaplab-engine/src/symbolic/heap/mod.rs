//! The heap model: what a reference is, what an object is, and how the executor's heap
//! operations act on them. The executor asks; the model answers with a value, a decision, or
//! successor states (a fork where the heap is not known enough to answer).
//!
//! [`HeapModel`] is the interface, shaped after the digest of paper 003 §10: read a field,
//! write a field, allocate, compare two references, test for null, claim a cell for a points-to
//! atom, give an unknown reference its values (input roots and existentials), and turn a path's
//! final state into a concrete test input ([`ConcreteInput`]). Its first implementation is the
//! lazy family's heap ([`lazy`]): materialized objects plus Kiasan's symbolic references and
//! locations, with the strategy's option table deciding what an unknown reference may be
//! (dereference and resolution in `resolve.rs`, arrays in `arrays.rs`). The second is the fully
//! symbolic heap of `symheap` ([`symheap`]: guarded value sets, issue 15; its `HeapModel` in
//! `symheap_model.rs`, its arrays in [`symheap_arrays`]): nothing outside a model matches on the
//! representation of a reference, and a model's per-path data lives in
//! [`State::ext`](super::state::State::ext) as a strategy's does. The trait itself is in
//! `super::step`, beside the context `Cx` it takes.
//!
//! Owns: the representation and resolution of references. Never touches: the worklist, the order
//! of states, instructions other than the heap operations, or which strategy is running (a model
//! asks the strategy's option table and hooks, through [`Cx::strategy`](super::step::Cx::strategy)).

mod arrays;
pub mod concrete;
pub mod lazy;
mod propagate;
mod resolve;
pub mod symheap;
pub mod symheap_arrays;
mod symheap_forks;
mod symheap_model;
pub mod worlds;

pub use super::step::{ConcreteInput, HeapModel, RootOption, NO_ARRAYS};
