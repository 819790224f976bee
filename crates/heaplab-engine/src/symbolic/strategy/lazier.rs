//! `lazier` (Kiasan §3.1.2): the first read of an unknown reference branches only on `null`
//! versus a symbolic location δ; which object δ is gets decided when the program dereferences or
//! compares it (the lazy-family heap's resolution, [`crate::symbolic::heap::lazy`]).
//!
//! An option table; no per-path data, no hooks.

use super::Driver;
use super::{Choice, HeapStrategy, Options, StrategyInfo};
use crate::symbolic::config::StrategyKind;
use crate::symbolic::heap::{lazy::LazyHeap, HeapModel};
use crate::symbolic::state::State;
use std::rc::Rc;

pub const INFO: StrategyInfo = StrategyInfo {
    name: "lazier",
    driver: Driver::Explorer(StrategyKind::Lazier),
    paper: "Kiasan (Deng 2007) §3.1.2",
    description:
        "first read: null | symbolic location; aliasing decided at dereference or comparison",
    learn: "The first read only decides null or \"some object\"; which object it is gets decided when the program compares or follows the reference. (Kiasan thesis, section 3.1.2)",
    reads_requires: false,
    uses_depth: false,
    all_heaps: false,
};

/// `lazier`: null or a symbolic location.
pub struct Lazier;

impl HeapStrategy for Lazier {
    fn info(&self) -> &'static StrategyInfo {
        &INFO
    }

    fn heap_model(&self) -> Rc<dyn HeapModel> {
        Rc::new(LazyHeap)
    }

    fn options(&self, _state: &State, _class: &str, _budget: i64) -> Options {
        Options { choices: vec![Choice::Null, Choice::SymLoc], k_cut: false }
    }
}
