//! Separation logic for HeapLab: formulas, predicates, unfolding, satisfiability with models,
//! model checking and enumeration.
//!
//! Map of the crate:
//! - [`formula`]: the internal representation (symbolic heaps `∃v. κ ∧ π`, disjunctions,
//!   substitution with fresh renaming, printing); [`convert`] builds it from the AST.
//! - [`normalize`]: cheap syntactic simplification and contradiction detection.
//! - [`unfold`]: unfolding of predicate instances and JSF's least fixed point of base unfoldings.
//! - [`check`]: the model checker (concrete heap ⊨ formula), independent of the generator;
//!   references without a location are kept as equality classes (`check::refs`).
//! - [`invariant`]: integer facts every instance of a predicate implies (pruning the search).
//! - [`search`]: bounded breadth-first unfolding shared by [`sat`] and [`enumerate`].
//! - [`arith`]: the pure part in Rust: references by union-find, difference logic exactly;
//!   [`smt`] hands what remains to the SMT solver behind a [`PureOracle`].
//! - [`basepair`]: unsatisfiability proved without a depth bound (base pairs, Brotherston et
//!   al. 2014, with the invariants for the integers), where the bounded search is cut, and
//!   models built along the pairs' derivations; one predicate [`cluster`] at a time, each
//!   choice checked incrementally (`combine`), within the [`caps`];
//!   [`baseformula`]: S2S-style base formulas over the integer parameters (difference bounds
//!   per pair, by fixed point with widening), proving unsat and witnessing deep models; models
//!   beyond their exact rounds are grown from their summaries (`grow`); `build` holds the
//!   models built step by step.
//! - [`diagnostics`]: warnings about predicate definitions the checker cannot see.
//! - [`smtlib`]: SL-COMP's input format (separation logic in SMT-LIB) read into [`Defs`] and
//!   queries; [`halt`]: the caller's time and memory bounds, asked by every long loop.
//!
//! Invariant: no IO, no threads, no clocks (it compiles to wasm32); the only outside party is the
//! solver, reached through the [`PureOracle`] trait whose implementations (a z3 process in the
//! CLI and the tests) live outside this crate. The engine depends on this crate, never the
//! reverse.

pub mod arith;
pub mod baseformula;
pub mod basepair;
mod build;
pub mod caps;
pub mod check;
pub mod cluster;
pub mod code_facts;
mod combine;
pub mod convert;
pub mod diagnostics;
mod elements;
pub mod enumerate;
pub mod error;
pub mod formula;
mod grow;
pub mod halt;
pub mod invariant;
pub mod model;
pub mod normalize;
pub mod oracle;
pub mod sat;
pub mod search;
pub mod smt;
pub mod smtlib;
pub mod unfold;

pub use caps::{Cap, ProofCaps};
pub use check::{satisfies, satisfies_costed, satisfies_within, CheckCost, CheckLimits, Verdict};
pub use diagnostics::check_predicates;
pub use enumerate::{enumerate, enumerate_with, EnumConfig, Enumeration};
pub use error::{Error, Result};
pub use formula::{Defs, Formula, Fresh, PredDef, Sort, SymHeap, Term};
pub use halt::{Halt, Interrupt};
pub use model::{IntEquivalence, Model, Object, Value};
pub use oracle::{NoSolver, PureOracle};
pub use sat::{sat, sat_in_order, sat_with, solve, SatConfig, SatOutcome, SatResult};
pub use search::{Cut, Cuts, Order, SearchBounds};
pub use smt::SmtOracle;
pub use unfold::{lfp, Lfp, LfpLimits};
