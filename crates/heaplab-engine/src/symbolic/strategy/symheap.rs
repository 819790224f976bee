//! `symheap` (paper 003, digest seed-003): the input heap stays fully symbolic. A reference is
//! a guarded value set of locations; reading a field never branches, and the path forks only
//! where the program compares references, tests for null or dereferences a reference that may
//! be null — one path per feasible branch sequence rather than one per heap shape. A
//! precondition's points-to atoms pick the object they describe, as lazy initialization does
//! (see `heap/symheap_forks.rs`).
//!
//! The strategy is only a registry row and the choice of heap model
//! ([`crate::symbolic::heap::symheap`]); it lists no lazy-initialization options and uses no
//! other hook.

use super::Driver;
use super::{HeapStrategy, Options, StrategyInfo};
use crate::symbolic::config::StrategyKind;
use crate::symbolic::heap::symheap::SymHeap;
use crate::symbolic::heap::HeapModel;
use crate::symbolic::state::State;
use std::rc::Rc;

pub const INFO: StrategyInfo = StrategyInfo {
    name: "symheap",
    driver: Driver::Explorer(StrategyKind::Symheap),
    paper: "Precise heap summaries (paper 003, VMCAI 2016 successor); creator-only alias rule",
    description:
        "guarded value sets: no fork on reads, forks only on ==, null tests, null dereference and a requires' points-to",
    learn: "The input heap stays symbolic: a reference holds a set of possible objects, each under a condition, so reading a field never branches; the run splits only where the program compares references or tests for null, and where the precondition (requires) describes an object, to pick which one it is. One path stands for many input heaps. (Precise heap summaries, paper 003)",
    reads_requires: false,
    uses_depth: false,
    all_heaps: true,
};

/// `symheap`: the fully symbolic heap.
pub struct Symheap;

impl HeapStrategy for Symheap {
    fn info(&self) -> &'static StrategyInfo {
        &INFO
    }

    fn options(&self, _state: &State, _class: &str, _budget: i64) -> Options {
        Options { choices: Vec::new(), k_cut: false }
    }

    fn heap_model(&self) -> Rc<dyn HeapModel> {
        Rc::new(SymHeap)
    }
}
