//! `lazy` (Khurshid, Pasareanu, Visser 2003; Kiasan §3.1): the first read of an unknown
//! reference branches at once over every value it may have — `null`, each input object of its
//! class, and a fresh object while the chain budget allows one.
//!
//! An option table over the lazy-family heap ([`crate::symbolic::heap::lazy`]); it owns no
//! per-path data and uses none of the strategy hooks.

use super::Driver;
use super::{Choice, HeapStrategy, Options, StrategyInfo};
use crate::symbolic::config::StrategyKind;
use crate::symbolic::heap::{lazy::LazyHeap, HeapModel};
use crate::symbolic::state::State;
use std::rc::Rc;

pub const INFO: StrategyInfo = StrategyInfo {
    name: "lazy",
    driver: Driver::Explorer(StrategyKind::Lazy),
    paper: "Khurshid, Pasareanu, Visser 2003 (JPF); Kiasan (Deng 2007) §3.1",
    description: "first read of a reference: null | each compatible input object | fresh object",
    learn: "The first time the program reads a reference nobody has set, HeapLab tries every possibility: null, each object of that type seen so far, and a new object. (Khurshid, Păsăreanu and Visser 2003; Kiasan thesis, section 3.1)",
    reads_requires: false,
    uses_depth: false,
    all_heaps: false,
};

/// `lazy`: branch at once over every possible target.
pub struct Lazy;

impl HeapStrategy for Lazy {
    fn info(&self) -> &'static StrategyInfo {
        &INFO
    }

    fn heap_model(&self) -> Rc<dyn HeapModel> {
        Rc::new(LazyHeap)
    }

    fn options(&self, state: &State, class: &str, budget: i64) -> Options {
        let mut choices = vec![Choice::Null];
        choices.extend(state.alias_candidates(class).into_iter().map(Choice::Alias));
        let k_cut = budget < 0;
        if !k_cut {
            choices.push(Choice::Fresh);
        }
        Options { choices, k_cut }
    }
}
