//! Heap strategies: how the explorer discovers an input heap it does not know yet
//! (STYLE.md item 8: one trait, one registry table read by the CLI, wasm and UI).
//!
//! A strategy is asked one question: an unknown reference of class `C` with chain budget `m`
//! (an input root, or a reference field read for the first time) — which values may it have?
//! Each option becomes its own successor state. The later resolution of Kiasan's abstract values
//! (a symbolic reference δ̂ becomes null or a symbolic location δ; δ becomes an existing input
//! object or a fresh one) is shared by every strategy and lives in the explorer, so `lazy`,
//! `lazier` and `lazier#` differ only in the options listed here (digest §3.4).
//!
//! Adding a strategy (`sl`, `symheap`, `concolic` in later issues) means one impl and one row
//! in [`STRATEGIES`]; hooks they need beyond [`HeapStrategy::options`] get default methods.

use super::config::StrategyKind;
use super::state::{ObjIdx, State};

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

/// Every strategy, in menu order.
pub const STRATEGIES: &[StrategyInfo] = &[
    StrategyInfo {
        name: "lazy",
        kind: StrategyKind::Lazy,
        paper: "Khurshid, Pasareanu, Visser 2003 (JPF); Kiasan (Deng 2007) §3.1",
        description: "first read of a reference: null | each compatible input object | fresh object",
    },
    StrategyInfo {
        name: "lazier",
        kind: StrategyKind::Lazier,
        paper: "Kiasan (Deng 2007) §3.1.2",
        description: "first read: null | symbolic location; aliasing decided at dereference or comparison",
    },
    StrategyInfo {
        name: "lazier#",
        kind: StrategyKind::LazierSharp,
        paper: "Kiasan (Deng 2007) §3.1.3",
        description: "first read: symbolic reference, no branch; null split at dereference, comparison or null test",
    },
    StrategyInfo {
        name: "sl",
        kind: StrategyKind::Sl,
        paper: "Java StarFinder (JSF, arXiv 1712.06025): lazy initialization with separation logic",
        description: "predicates of `requires` unfold when the program first accesses a reference they cover; other references as lazier#",
    },
];

/// Looks a strategy up by its registry name.
pub fn by_name(name: &str) -> Option<&'static StrategyInfo> {
    STRATEGIES.iter().find(|s| s.name == name)
}

/// The registry row of a strategy.
pub fn info(kind: StrategyKind) -> &'static StrategyInfo {
    match kind {
        StrategyKind::Lazy => &STRATEGIES[0],
        StrategyKind::Lazier => &STRATEGIES[1],
        StrategyKind::LazierSharp => &STRATEGIES[2],
        StrategyKind::Sl => &STRATEGIES[3],
    }
}

/// A value an unknown reference may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Null,
    /// An existing input object.
    Alias(ObjIdx),
    /// A fresh input object (allowed only when the budget is not negative).
    Fresh,
    /// A fresh symbolic location δ (non-null, identity open).
    SymLoc,
    /// A fresh symbolic reference δ̂ (null-ness and identity open).
    SymRef,
}

/// What a strategy answers for one unknown reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub choices: Vec<Choice>,
    /// The k bound removed the [`Choice::Fresh`] option.
    pub k_cut: bool,
}

/// A heap strategy (see the module docs).
pub trait HeapStrategy {
    fn info(&self) -> &'static StrategyInfo;

    /// The options for an unknown reference of `class` whose object would get chain budget
    /// `budget` (a fresh object needs `budget >= 0`).
    fn options(&self, state: &State, class: &str, budget: i64) -> Options;
}

/// Builds the strategy of a registry row.
pub fn make(kind: StrategyKind) -> Box<dyn HeapStrategy> {
    match kind {
        StrategyKind::Lazy => Box::new(Lazy),
        StrategyKind::Lazier => Box::new(Lazier),
        StrategyKind::LazierSharp => Box::new(LazierSharp),
        StrategyKind::Sl => Box::new(Sl),
    }
}

/// `lazy`: branch at once over every possible target.
struct Lazy;

impl HeapStrategy for Lazy {
    fn info(&self) -> &'static StrategyInfo {
        info(StrategyKind::Lazy)
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

/// `lazier`: null or a symbolic location.
struct Lazier;

impl HeapStrategy for Lazier {
    fn info(&self) -> &'static StrategyInfo {
        info(StrategyKind::Lazier)
    }

    fn options(&self, _state: &State, _class: &str, _budget: i64) -> Options {
        Options { choices: vec![Choice::Null, Choice::SymLoc], k_cut: false }
    }
}

/// `lazier#`: a symbolic reference, no branch.
struct LazierSharp;

impl HeapStrategy for LazierSharp {
    fn info(&self) -> &'static StrategyInfo {
        info(StrategyKind::LazierSharp)
    }

    fn options(&self, _state: &State, _class: &str, _budget: i64) -> Options {
        Options { choices: vec![Choice::SymRef], k_cut: false }
    }
}

/// `sl`: references no predicate instance covers are initialized as by lazier#; the unfolding
/// of covered ones lives in the explorer (see [`super::sl`]).
struct Sl;

impl HeapStrategy for Sl {
    fn info(&self) -> &'static StrategyInfo {
        info(StrategyKind::Sl)
    }

    fn options(&self, _state: &State, _class: &str, _budget: i64) -> Options {
        Options { choices: vec![Choice::SymRef], k_cut: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names_round_trip() {
        for row in STRATEGIES {
            assert_eq!(by_name(row.name), Some(row));
            assert_eq!(info(row.kind), row);
            assert_eq!(make(row.kind).info(), row);
        }
        assert_eq!(by_name("eager"), None);
    }
}
