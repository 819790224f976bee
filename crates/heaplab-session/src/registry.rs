//! The strategy registry and the bound table as the page lists them (`StrategyInfoJs`,
//! `BoundJs`): rows read from the engine's one declaration of each.

use heaplab_engine::symbolic::{bounds::BOUNDS, strategy};
use serde::Serialize;

/// A registry row as the page reads it (`StrategyInfoJs`).
#[derive(Serialize)]
pub struct StrategyRow {
    pub name: &'static str,
    /// `explorer` or `concolic_loop` (its own driver: `concolicRun`).
    pub driver: &'static str,
    pub source: &'static str,
    pub description: &'static str,
    pub learn: &'static str,
    pub reads_requires: bool,
    pub uses_depth: bool,
    pub all_heaps: bool,
}

/// The strategy registry in menu order: every list the page shows (the strategy menu, the
/// Compare tab's rows, "Learn more") reads it.
pub fn strategies() -> Vec<StrategyRow> {
    strategy::STRATEGIES
        .iter()
        .map(|s| StrategyRow {
            name: s.name,
            driver: s.driver.name(),
            source: s.paper,
            description: s.description,
            learn: s.learn,
            reads_requires: s.reads_requires,
            uses_depth: s.uses_depth,
            all_heaps: s.all_heaps,
        })
        .collect()
}

/// A bound as the page shows it (`BoundJs`).
#[derive(Serialize)]
pub struct BoundRow {
    pub name: &'static str,
    pub label: &'static str,
    pub title: &'static str,
    pub help: &'static str,
    pub default: u64,
    pub zero_is_off: bool,
}

/// Every bound, declared once in the engine (`heaplab_engine::symbolic::bounds`): its name in
/// `options.bounds`, the page's label and tooltip, the CLI's help, the default.
pub fn bounds() -> Vec<BoundRow> {
    BOUNDS
        .iter()
        .map(|b| BoundRow {
            name: b.name,
            label: b.label,
            title: b.title,
            help: b.help,
            default: b.default_value(),
            zero_is_off: b.zero_is_off,
        })
        .collect()
}
