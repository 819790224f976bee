//! `lazier#` (Kiasan §3.1.3): the first read of an unknown reference does not branch at all; it
//! yields a symbolic reference δ̂ whose null-ness and identity are split off when the program
//! dereferences, compares or null-tests it (the lazy-family heap's resolution,
//! [`crate::symbolic::heap::lazy`]).
//!
//! An option table; no per-path data, no hooks.

use super::Driver;
use super::{Choice, HeapStrategy, Options, StrategyInfo};
use crate::symbolic::config::StrategyKind;
use crate::symbolic::heap::{lazy::LazyHeap, HeapModel};
use crate::symbolic::state::State;
use std::rc::Rc;

pub const INFO: StrategyInfo = StrategyInfo {
    name: "lazier#",
    driver: Driver::Explorer(StrategyKind::LazierSharp),
    paper: "Kiasan (Deng 2007) §3.1.3",
    description: "first read: symbolic reference, no branch; null split at dereference, comparison or null test",
    learn: "The first read decides nothing; whether the reference is null is decided when the program follows or tests it. Fewest cases of the three. (Kiasan thesis, section 3.1.3)",
    reads_requires: false,
    uses_depth: false,
    all_heaps: false,
};

/// `lazier#`: a symbolic reference, no branch.
pub struct LazierSharp;

impl HeapStrategy for LazierSharp {
    fn info(&self) -> &'static StrategyInfo {
        &INFO
    }

    fn heap_model(&self) -> Rc<dyn HeapModel> {
        Rc::new(LazyHeap)
    }

    fn options(&self, _state: &State, _class: &str, _budget: i64) -> Options {
        Options { choices: vec![Choice::SymRef], k_cut: false }
    }
}
