//! A row of the strategy registry.

use crate::symbolic::config::StrategyKind;

/// One row of the strategy registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrategyInfo {
    /// The name users type (`--strategy lazier#`).
    pub name: &'static str,
    pub kind: StrategyKind,
    /// Where it comes from.
    pub paper: &'static str,
    /// One line for menus and `--help`.
    pub description: &'static str,
}
