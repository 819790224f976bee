//! A row of the strategy registry: everything a front end lists about a strategy (its name,
//! source, one-line description, the paragraph of the page's "Learn more") and what it takes
//! (which driver runs it, whether it reads `requires` itself, which bounds and modes concern
//! it), so that no front end tests a strategy's name.

use crate::symbolic::config::StrategyKind;

/// Who runs a strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Driver {
    /// The explorer, with this heap strategy.
    Explorer(StrategyKind),
    /// Its own driver: Concolic StarFinder's loop (`heaplab_testgen::concolic`), which runs the
    /// executor along concrete inputs.
    Concolic,
}

impl Driver {
    /// `explorer` or `concolic_loop`, as the wasm API and the page name the driver.
    pub fn name(self) -> &'static str {
        match self {
            Driver::Explorer(_) => "explorer",
            Driver::Concolic => "concolic_loop",
        }
    }
}

/// One row of the strategy registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrategyInfo {
    /// The name users type (`--strategy lazier#`).
    pub name: &'static str,
    pub driver: Driver,
    /// Where it comes from.
    pub paper: &'static str,
    /// One line for menus and `--help`.
    pub description: &'static str,
    /// A paragraph for a newcomer (the page's "Learn more").
    pub learn: &'static str,
    /// It explores only inputs that satisfy `requires`, whatever `pre` says (`sl`, `concolic`):
    /// `heaplab compare` runs it with `pre assume` and the others with `pre ignore`.
    pub reads_requires: bool,
    /// The `depth` bound concerns it (`sl`'s unfolding depth, `concolic`'s phase-1 depth).
    pub uses_depth: bool,
    /// The all-heaps mode (a test for every distinct input heap of a path) concerns it.
    pub all_heaps: bool,
}

impl StrategyInfo {
    /// The explorer's strategy kind, for a row the explorer runs.
    pub fn kind(&self) -> Option<StrategyKind> {
        match self.driver {
            Driver::Explorer(kind) => Some(kind),
            Driver::Concolic => None,
        }
    }
}
