//! Which heap-shape alternatives of a guided run become nodes of the constraint tree.
//!
//! Under a `requires`, CSF's input generator decides which object a non-null reference is:
//! its constraint tree holds the program's branches only. Lazy initialization in the guided
//! run offers an alias of each earlier input object at every first access, and as nodes these
//! were mostly unsat and multiplied the branches below them (issue 32). So an alias choice
//! is left out of the tree when the precondition decides it: the reference's field is one the
//! precondition's points-to facts constrain, and both its object and the alias's target lie
//! in the precondition's footprint (reached from a root the `requires` mentions). The others
//! are the program's directions and stay nodes: a list's `Object element` (an existential used
//! nowhere else, so any object), or an argument the `requires` does not mention that the code
//! compares with an entry (dll.hl's `indexOf` and `inList`). Without a `requires` every alias
//! choice is a node (issue 30).

use heaplab_engine::symbolic::concolic::{fresh_choice, is_input_object, AliasChoice};
use heaplab_logic::formula::{SymHeap, Term};
use heaplab_logic::{Defs, Formula};
use std::collections::{BTreeMap, BTreeSet};

/// What the precondition decides about aliasing.
pub(super) struct ShapeRule {
    requires: bool,
    /// Fields whose values the precondition's points-to facts constrain.
    described: BTreeSet<String>,
    /// Roots (`this`, parameters) the precondition mentions.
    mentioned: BTreeSet<String>,
}

impl ShapeRule {
    pub(super) fn new(defs: &Defs, pre: &Formula, has_requires: bool) -> Self {
        let described = pre
            .disjuncts
            .iter()
            .chain(defs.preds.values().flat_map(|d| d.body.iter()))
            .flat_map(described_fields)
            .map(str::to_string)
            .collect();
        let mentioned = pre.disjuncts.iter().flat_map(SymHeap::free_vars).collect();
        ShapeRule { requires: has_requires, described, mentioned }
    }

    /// Is `choice` the precondition's to decide (left out of the tree), given where the run's
    /// objects came from?
    pub(super) fn decides(&self, choice: &AliasChoice, origins: &Origins) -> bool {
        let field_described =
            choice.reference.rsplit_once('.').is_some_and(|(_, f)| self.described.contains(f));
        let in_footprint = |path: &str| {
            let first = path.split('.').next().unwrap_or(path);
            match origins.root_of(first) {
                Some(root) => self.mentioned.contains(root),
                // An object no fork of the run created: the receiver, or one a single-child
                // initialization made beneath the footprint's roots.
                None if is_input_object(first) => true,
                None => self.mentioned.contains(first),
            }
        };
        self.requires
            && field_described
            && in_footprint(&choice.reference)
            && in_footprint(&choice.target)
    }
}

/// The root each input object of a run was first reached from, read off the taken choices'
/// labels (`e = fresh o2`: o2 from `e`; `o2.next = fresh o5`: o5 from o2's root). The
/// receiver and what lies beneath it are not recorded: `this` is made before any fork.
#[derive(Default)]
pub(super) struct Origins(BTreeMap<String, String>);

impl Origins {
    pub(super) fn record(&mut self, label: &str) {
        let Some((path, rhs)) = fresh_choice(label) else { return };
        let first = path.split('.').next().unwrap_or(path);
        // Beneath an object of unknown origin (the receiver) the new one's is unknown too.
        let root = match self.root_of(first) {
            Some(root) => root.to_string(),
            None if is_input_object(first) => return,
            None => first.to_string(),
        };
        self.0.insert(rhs.to_string(), root);
    }

    /// The root `name` came from: its own origin for an object, `None` for an object of
    /// unknown origin and for a root itself.
    fn root_of(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }
}

/// The fields whose values `sh`'s points-to facts constrain: all but those holding an
/// existential that occurs nowhere else in `sh` (cdll's `element`, any object at all).
fn described_fields(sh: &SymHeap) -> Vec<&str> {
    let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
    let terms = sh
        .points_to
        .iter()
        .flat_map(|pt| std::iter::once(&pt.ptr).chain(pt.fields.iter().map(|(_, t)| t)))
        .chain(sh.preds.iter().flat_map(|p| p.args.iter()));
    for t in terms {
        let mut acc = BTreeSet::new();
        t.free_vars(&mut acc);
        for v in acc {
            if let Some((e, _)) = sh.exists.iter().find(|(e, _)| *e == v) {
                *uses.entry(e.as_str()).or_default() += 1;
            }
        }
    }
    let mut in_pure = BTreeSet::new();
    for p in &sh.pure {
        p.free_vars(&mut in_pure);
    }
    let open = |t: &Term| match t {
        Term::Var(v) => {
            sh.exists.iter().any(|(e, _)| e == v)
                && uses.get(v.as_str()) == Some(&1)
                && !in_pure.contains(v)
        }
        _ => false,
    };
    sh.points_to
        .iter()
        .flat_map(|pt| pt.fields.iter())
        .filter(|(_, t)| !open(t))
        .map(|(f, _)| f.as_str())
        .collect()
}
