//! Every bound of a symbolic run, declared once (issue 28 item 1): its field, type and default,
//! the option name users type (`--call-depth`, `"call_depth"` in the page's and the wasm API's
//! options), the help text of the CLI and the words the page shows. From the one table below
//! the macro makes
//! - [`Bounds`], the engine's struct (a field per bound, read by the explorer),
//! - its `Default`,
//! - [`BOUNDS`], the table of [`BoundSpec`]s the front ends build their flags, controls and
//!   defaults from,
//! - [`BoundOptions`], the all-optional serde part of [`Options`](super::options::Options)
//!   (with its JSON Schema).
//!
//! Adding a bound is one entry here plus its use in the engine.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One bound as users see it: what the CLI, the wasm API and the page list.
#[derive(Clone, Copy, Debug)]
pub struct BoundSpec {
    /// The option name (`call_depth`); the CLI flag is `--call-depth`.
    pub name: &'static str,
    /// The CLI's help text.
    pub help: &'static str,
    /// The page's short label (`loops`).
    pub label: &'static str,
    /// The page's tooltip.
    pub title: &'static str,
    /// The page has a control for it (the others keep their defaults there).
    pub on_page: bool,
    /// Whether 0 turns the bound off.
    pub zero_is_off: bool,
    /// Reads the bound from a [`Bounds`] (0 for off).
    pub get: fn(&Bounds) -> u64,
    /// Sets the bound in a [`Bounds`] (0 turns off a bound that can be off).
    pub set: fn(&mut Bounds, u64),
}

/// How a bound's field stores the number users type: an integer, or `None` for "no limit"
/// (typed as 0).
pub trait BoundValue: Copy {
    const ZERO_IS_OFF: bool;
    fn to_u64(self) -> u64;
    fn from_u64(v: u64) -> Self;
}

impl BoundValue for u32 {
    const ZERO_IS_OFF: bool = false;
    fn to_u64(self) -> u64 {
        self.into()
    }
    fn from_u64(v: u64) -> u32 {
        u32::try_from(v).unwrap_or(u32::MAX)
    }
}

impl BoundValue for u64 {
    const ZERO_IS_OFF: bool = false;
    fn to_u64(self) -> u64 {
        self
    }
    fn from_u64(v: u64) -> u64 {
        v
    }
}

impl BoundValue for Option<u64> {
    const ZERO_IS_OFF: bool = true;
    fn to_u64(self) -> u64 {
        self.unwrap_or(0)
    }
    fn from_u64(v: u64) -> Option<u64> {
        (v > 0).then_some(v)
    }
}

macro_rules! bounds {
    ($(
        $(#[doc = $doc:literal])*
        $field:ident: $ty:ty = $default:expr,
            name $name:literal, page $page:literal, label $label:literal, title $title:literal,
            help $help:literal;
    )*) => {
        /// The bounds of one run (declared in [`bounds`](self), one entry per bound).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        pub struct Bounds {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        impl Default for Bounds {
            fn default() -> Bounds {
                Bounds { $( $field: $default, )* }
            }
        }

        /// Every bound, in the order the CLI's help and the page list them.
        pub const BOUNDS: &[BoundSpec] = &[$(
            BoundSpec {
                name: $name,
                help: $help,
                label: $label,
                title: $title,
                on_page: $page,
                zero_is_off: <$ty as BoundValue>::ZERO_IS_OFF,
                get: |b: &Bounds| BoundValue::to_u64(b.$field),
                set: |b: &mut Bounds, v: u64| b.$field = <$ty as BoundValue>::from_u64(v),
            },
        )*];

        /// The bounds as options: each one optional, named as users type it (0 turns off a
        /// bound that can be off).
        #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
        #[serde(deny_unknown_fields)]
        pub struct BoundOptions {
            $(
                #[doc = $help]
                #[serde(rename = $name, default, skip_serializing_if = "Option::is_none")]
                pub $field: Option<u64>,
            )*
        }

        impl BoundOptions {
            /// Writes the bounds given here into `bounds`, leaving the others.
            pub fn apply(&self, bounds: &mut Bounds) {
                $( if let Some(v) = self.$field { bounds.$field = <$ty as BoundValue>::from_u64(v); } )*
            }

            /// The value given for the bound named `name` (`None`: not given or no such bound).
            pub fn get(&self, name: &str) -> Option<u64> {
                match name {
                    $( $name => self.$field, )*
                    _ => None,
                }
            }

            /// Gives the bound named `name`; false when there is no such bound.
            pub fn set(&mut self, name: &str, value: u64) -> bool {
                match name {
                    $( $name => { self.$field = Some(value); true } )*
                    _ => false,
                }
            }
        }
    };
}

bounds! {
    /// Kiasan's reference-chain bound. Input roots (`this`, reference parameters) have budget
    /// `k`; an object materialized from a field of an object with budget `m` gets `m − 1` and may
    /// only be created when `m > 0`. Null and aliasing are always allowed. With the receiver at
    /// `k` its fields start at `k − 1`, so a BST explored with `k` has height `< k`.
    /// Default: 2.
    k: u32 = 2,
        name "k", page true, label "k",
        title "How many objects deep the input may reach: k = 2 allows chains of two objects from each input reference",
        help "Kiasan's reference-chain bound (the receiver has k, its fields k-1, ...)";
    /// The most iterations per loop (per call) that materialize nothing (Kiasan §3.2: loops that
    /// do discover the heap are bounded by `k`). Default: 10.
    loop_iterations: u32 = 10,
        name "loop", page true, label "loops",
        title "How many times a loop may run without reading a new input object before the path is cut",
        help "Loop iterations (per loop and call) that materialize no heap object";
    /// The deepest call nesting, counting the method under test as 1. Default: 32.
    call_depth: u32 = 32,
        name "call_depth", page false, label "calls",
        title "How deep calls may nest (the method under test is 1)",
        help "Deepest call nesting";
    /// `sl` only: the deepest predicate unfolding (JSF's `max_depth`); instances of `requires`
    /// have depth 1. Default: 8.
    depth: u32 = 8,
        name "depth", page true, label "depth",
        title "For sl: how many times a predicate of the precondition may be unfolded along one chain",
        help "`sl` only: deepest predicate unfolding (JSF's max_depth)";
    /// Stop after this many paths have ended (returned, failed or bounded; paths discarded by
    /// `assume` or the precondition do not count). Default: 10 000.
    max_paths: u64 = 10_000,
        name "max_paths", page true, label "paths",
        title "Stop after this many path ends (paths whose input breaks the precondition do not count)",
        help "Stop after this many (non-discarded) paths";
    /// Stop after this many states (tree nodes). Paths discarded by `requires` do not count
    /// toward `max_paths`, so without this bound a precondition that rejects almost every
    /// input (lazy on a tree with linked leaves) grows the tree until memory runs out.
    /// Default: 200 000.
    max_states: u64 = 200_000,
        name "max_states", page true, label "states",
        title "Stop after this many states (the circles of the tree)",
        help "Stop after this many states (nodes of the exploration tree), discarded paths included";
    /// Stop exploring after this many milliseconds of the run's [`Clock`](super::Clock);
    /// `None` for no limit. Default: `Some(60_000)`.
    timeout_ms: Option<u64> = Some(60_000),
        name "timeout_ms", page true, label "time (ms)",
        title "Stop after this many milliseconds of work (0: no limit); time spent paused does not count",
        help "The whole run's time bound in milliseconds, exploration, test generation, replay and export together (0: no limit); exploration gets the first three quarters";
    /// Stop once the run holds this many megabytes more than when it started, as counted by
    /// the front end's meters ([`crate::memory`]): exploration stops at three quarters of it,
    /// test generation at all of it; `None` for no limit, and no
    /// effect where no meter is installed. Default: `Some(1024)`, so that a run on a 2-core
    /// laptop or in a browser tab (whose wasm memory ends at 2–4 GB) stops with its results
    /// instead of exhausting memory.
    max_memory_mb: Option<u64> = Some(DEFAULT_MAX_MEMORY_MB),
        name "max_memory_mb", page false, label "memory (MB)",
        title "Stop once the run holds this many more megabytes than at its start (0: no limit)",
        help "The whole run's memory bound in megabytes beyond what the process held at its start, exploration, test generation and replay together (0: no limit); exploration gets the first three quarters";
    /// The most instructions one path may execute (a last-resort guard). Default: 1 000 000.
    steps_per_path: u64 = 1_000_000,
        name "steps_per_path", page false, label "steps per path",
        title "The most instructions one path may run (a last-resort guard)",
        help "The most instructions one path may execute";
    /// Stop after this many questions about path conditions (sent to the solver, decided
    /// locally or answered from the cache): a bound on a run's work that, unlike `timeout_ms`,
    /// stops it at the same point on every machine (tests bound by it). `None` for no limit.
    /// Default: none.
    max_questions: Option<u64> = None,
        name "max_questions", page false, label "questions",
        title "Stop after this many questions about path conditions (0: no limit)",
        help "Stop after this many questions about path conditions (0: no limit)";
    /// All-heaps mode ([`Config::all_heaps`](super::Config::all_heaps)): the most models asked
    /// per path (each is one input heap or an isomorphic duplicate). Default: 256.
    heaps_per_path: u32 = 256,
        name "heaps_per_path", page false, label "heaps per path",
        title "Every-input-heap mode: the most models asked per path",
        help "All-heaps mode: the most models asked per path";
    /// `concolic` only: the longest input array its phase 2 solves for. A loop over an array's cells
    /// makes a constraint tree with a node for every length, and a concolic search lengthens
    /// the array by one cell per run; this keeps the tree finite (longer nodes are unsat). The
    /// explorer bounds arrays by `k` instead (Kiasan). Default: 8.
    max_array_length: u32 = 8,
        name "max_array_length", page false, label "array length",
        title "concolic: the longest input array its phase 2 solves for",
        help "`concolic` only: the longest input array its phase 2 solves for";
    /// `concolic` only: the most predicate unfoldings along one formula when a node of its
    /// constraint tree is turned into formulas over the precondition (CSF's `star.max_depth`).
    /// A node is tried with 1 first and with one more each time the budget cut its formulas
    /// and the rest had no model, up to this. Default: 4.
    max_unfold: u32 = 4,
        name "max_unfold", page true, label "unfold",
        title "concolic: how many times a node's formula may unfold the precondition's predicates",
        help "`concolic` only: the most predicate unfoldings along one formula of a constraint-tree node (CSF's star.max_depth); nodes are tried with 1 first, then deeper";
}

/// The default of [`Bounds::max_memory_mb`].
pub const DEFAULT_MAX_MEMORY_MB: u64 = 1024;

impl BoundSpec {
    /// The bound named `name`.
    pub fn by_name(name: &str) -> Option<&'static BoundSpec> {
        BOUNDS.iter().find(|b| b.name == name)
    }

    /// Its value in the default [`Bounds`] (0 for "no limit" where a bound may be off).
    pub fn default_value(&self) -> u64 {
        (self.get)(&Bounds::default())
    }

    /// The CLI flag (`--call-depth`) without its dashes.
    pub fn flag(&self) -> String {
        self.name.replace('_', "-")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads_and_writes_the_struct() {
        let defaults = Bounds::default();
        for spec in BOUNDS {
            assert_eq!((spec.get)(&defaults), spec.default_value(), "{}", spec.name);
            let mut b = defaults;
            (spec.set)(&mut b, 7);
            assert_eq!((spec.get)(&b), 7, "{}", spec.name);
            let mut opts = BoundOptions::default();
            assert!(opts.set(spec.name, 7));
            assert_eq!(opts.get(spec.name), Some(7));
            let mut c = defaults;
            opts.apply(&mut c);
            assert_eq!(b, c, "{}", spec.name);
        }
        assert!(!BoundOptions::default().set("no_such_bound", 1));
        let names: std::collections::BTreeSet<_> = BOUNDS.iter().map(|b| b.name).collect();
        assert_eq!(names.len(), BOUNDS.len(), "bound names are unique");
    }
}
