//! The caps of the decision procedures that `sat` asks when its bounded search is cut (the
//! base pairs of [`crate::basepair`], the base formulas of [`crate::baseformula`], and the
//! unfolding of a witness into a model). They are options, like the search's bounds: each cap
//! keeps one procedure's work finite on a hard input, and an answer left open by a cap names
//! it ([`Cap`]), so a user can raise exactly that one.
//!
//! Every cap is counted per predicate cluster (the predicates that call one another), so the
//! predicates of a file that the query does not reach cost nothing, and one hard cluster does
//! not take the budget of another.

use std::fmt;

/// The caps; see each field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProofCaps {
    /// Base pairs of one predicate, at most. Default: 262 144.
    pub max_pairs: usize,
    /// Consistency checks of base pairs in one cluster, at most. Default: 10 000 000.
    pub max_checks: usize,
    /// Exact rounds of the base formulas before they widen. Default: 64.
    pub max_rounds: usize,
    /// Base elements (a pair with integer bounds) of one predicate, at most. Default: 400.
    pub max_elements: usize,
    /// Consistency checks of base elements in one query, at most. Default: 40 000.
    pub max_element_checks: usize,
    /// Instances unfolded into a model (a witness, or a model built from the integer
    /// summaries), at most. Default: 2 000 000.
    pub max_unfoldings: usize,
}

impl Default for ProofCaps {
    fn default() -> Self {
        ProofCaps {
            max_pairs: 262_144,
            max_checks: 10_000_000,
            max_rounds: 64,
            max_elements: 400,
            max_element_checks: 40_000,
            max_unfoldings: 2_000_000,
        }
    }
}

/// A cap that stopped a procedure, with its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap {
    Pairs(usize),
    Checks(usize),
    Rounds(usize),
    Elements(usize),
    ElementChecks(usize),
    Unfoldings(usize),
}

impl Cap {
    /// The command-line option that raises it.
    pub fn option(&self) -> &'static str {
        match self {
            Cap::Pairs(_) => "--max-pairs",
            Cap::Checks(_) => "--max-pair-checks",
            Cap::Rounds(_) => "--max-rounds",
            Cap::Elements(_) => "--max-elements",
            Cap::ElementChecks(_) => "--max-element-checks",
            Cap::Unfoldings(_) => "--max-unfoldings",
        }
    }
}

impl fmt::Display for Cap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, n) = match self {
            Cap::Pairs(n) => ("base pairs per predicate", n),
            Cap::Checks(n) => ("consistency checks of base pairs per cluster", n),
            Cap::Rounds(n) => ("exact rounds of the base formulas", n),
            Cap::Elements(n) => ("base elements per predicate", n),
            Cap::ElementChecks(n) => ("consistency checks of base elements", n),
            Cap::Unfoldings(n) => ("unfoldings of a model", n),
        };
        write!(f, "the cap on {what} ({n}, {})", self.option())
    }
}
