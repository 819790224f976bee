//! Heap strategies: the part of a run that says how an input heap the program has not seen yet
//! is discovered (STYLE.md item 8: one trait, one registry table read by the CLI, wasm and UI).
//!
//! A strategy plugs into the heap model ([`super::heap`]) and the executor ([`super::exec`])
//! through [`HeapStrategy`]: one required question — an unknown reference of class `C` with
//! chain budget `m` (an input root, or a reference field read for the first time): which values
//! may it have? — and hooks with do-nothing defaults for strategies that do more. Each option
//! becomes its own successor state. The later resolution of Kiasan's abstract values (a symbolic
//! reference δ̂ becomes null or a symbolic location δ; δ becomes an existing input object or a
//! fresh one) belongs to the lazy-family heap model, so `lazy`, `lazier` and `lazier#` are
//! option tables only (digest §3.4): [`lazy`], [`lazier`], [`lazier_sharp`]. `sl` ([`sl`])
//! answers like lazier# and uses the hooks: first access to a covered reference, a predicate
//! call in a formula, the end of an unfolding, the disjuncts a body may take, path end.
//!
//! This module owns the registry and the trait. It never executes an instruction and never
//! decides which state runs next; strategies never see the worklist.

mod info;
pub mod lazier;
pub mod lazier_sharp;
pub mod lazy;
pub mod sl;
pub mod symheap;

pub use super::step::{Choice, HeapStrategy, Labels, Options, PathEnd};
pub use info::{Driver, StrategyInfo};

use super::code::Compiled;
use super::config::StrategyKind;

/// Every strategy, in menu order: the CLI's `--strategy` values and help, `heaplab compare`'s
/// and `heaplab bench`'s rows, the wasm `strategies()`, the page's menus, Compare rows and
/// "Learn more" all read this table.
pub const STRATEGIES: &[StrategyInfo] =
    &[lazy::INFO, lazier::INFO, lazier_sharp::INFO, sl::INFO, symheap::INFO, CONCOLIC];

/// Concolic StarFinder (CSF, papers 001/002): a registry row whose driver is its own, the
/// concolic loop of `heaplab_testgen::concolic` over the executor (`symbolic::concolic`).
pub const CONCOLIC: StrategyInfo = StrategyInfo {
    name: "concolic",
    driver: Driver::Concolic,
    paper: "Concolic StarFinder (CSF): concrete runs from models of the precondition, negating branches",
    description: "inputs from models of requires (phase 1), then runs on concrete inputs, solving for the branches not yet taken (phase 2)",
    learn: "Concrete runs: the first inputs are models of the precondition's unfoldings; each run follows one concrete input, and the next input is solved for a branch no run has taken yet. Every input satisfies requires. (Concolic StarFinder)",
    reads_requires: true,
    uses_depth: true,
    all_heaps: false,
};

/// Looks a strategy up by its registry name.
pub fn by_name(name: &str) -> Option<&'static StrategyInfo> {
    STRATEGIES.iter().find(|s| s.name == name)
}

/// The registry row of an explorer strategy.
pub fn info(kind: StrategyKind) -> &'static StrategyInfo {
    match STRATEGIES.iter().find(|s| s.kind() == Some(kind)) {
        Some(row) => row,
        None => &STRATEGIES[0],
    }
}

/// Builds the strategy of a registry row for a run over `code` (the program as compiled, before
/// the run adds its entry unit).
pub fn make(kind: StrategyKind, code: &Compiled) -> Box<dyn HeapStrategy> {
    match kind {
        StrategyKind::Lazy => Box::new(lazy::Lazy),
        StrategyKind::Lazier => Box::new(lazier::Lazier),
        StrategyKind::LazierSharp => Box::new(lazier_sharp::LazierSharp),
        StrategyKind::Sl => Box::new(sl::Sl::new(code)),
        StrategyKind::Symheap => Box::new(symheap::Symheap),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names_round_trip() {
        let code = Compiled::default();
        for row in STRATEGIES {
            assert_eq!(by_name(row.name), Some(row));
            let Some(kind) = row.kind() else { continue };
            assert_eq!(info(kind), row);
            assert_eq!(make(kind, &code).info(), row);
        }
        assert_eq!(by_name("concolic").map(|r| r.driver), Some(Driver::Concolic));
        assert_eq!(by_name("eager"), None);
    }
}
