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
//!
//! A null choice is the program's direction only where the code tests such a value for null:
//! lazy initialization makes the reference null at the read, so `if (t.left == null)` forks
//! there and not at the test. Where the code never compares a value of the field's type with
//! null (dll.hl's entries, aatree.hl's nodes under their sentinel), the null choice can only
//! end in a null dereference the precondition decides: with the field described and its
//! object in the footprint it is left out like an alias choice. These were most of DLL's and
//! AAT's solver calls, nearly all unsat.
//!
//! A value the code can neither read nor tell apart is no direction at all: a field whose class
//! has no fields (`Object`), where the code compares no value of that class (`==`, `!=`, with
//! null or anything else), behaves the same whether it is null, a new object or an earlier
//! one. All its choices, the new object included, are left to the input generator when its
//! object lies in the footprint (dll.hl's `element` in every method but those that search for
//! an element: 133 of DLL's 600 calls).

use crate::feasible::for_each_code_expr;
use heaplab_engine::symbolic::concolic::{fresh_choice, is_input_object, ShapeChoice};
use heaplab_logic::formula::{SymHeap, Term};
use heaplab_logic::{Defs, Formula};
use heaplab_syntax::ast::{BinOp, ExprKind, FunctionDecl, Program};
use heaplab_syntax::types::{ProgramInfo, Type};
use std::collections::{BTreeMap, BTreeSet};

/// What the precondition decides about aliasing.
pub(super) struct ShapeRule {
    requires: bool,
    /// Fields whose values the precondition's points-to facts constrain.
    described: BTreeSet<String>,
    /// Roots (`this`, parameters) the precondition mentions.
    mentioned: BTreeSet<String>,
    /// Fields of a type the explored code compares with null somewhere.
    null_tested: BTreeSet<String>,
    /// Fields of a class without fields whose values the explored code never compares.
    opaque: BTreeSet<String>,
}

/// The explored method, for the null tests of its code.
pub(super) struct Code<'p> {
    pub program: &'p Program,
    pub info: &'p ProgramInfo,
    pub class: Option<&'p str>,
    pub method: &'p FunctionDecl,
}

impl ShapeRule {
    pub(super) fn new(
        defs: &Defs,
        pre: &Formula,
        has_requires: bool,
        code: Option<Code<'_>>,
    ) -> Self {
        let described = pre
            .disjuncts
            .iter()
            .chain(defs.preds.values().flat_map(|d| d.body.iter()))
            .flat_map(described_fields)
            .map(str::to_string)
            .collect();
        let mentioned = pre.disjuncts.iter().flat_map(SymHeap::free_vars).collect();
        ShapeRule {
            requires: has_requires,
            described,
            mentioned,
            null_tested: code.as_ref().map(null_tested).unwrap_or_default(),
            opaque: code.as_ref().map(opaque).unwrap_or_default(),
        }
    }

    /// Is `choice` the precondition's to decide (left out of the tree), given where the run's
    /// objects came from?
    pub(super) fn decides(&self, choice: &ShapeChoice, origins: &Origins) -> bool {
        let field = choice.reference.rsplit_once('.').map(|(_, f)| f);
        let field_described = field.is_some_and(|f| self.described.contains(f));
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
        if !self.requires || !in_footprint(&choice.reference) {
            return false;
        }
        if field.is_some_and(|f| self.opaque.contains(f)) {
            return true;
        }
        let target_decided = match &choice.target {
            // A new object is the program's direction (a loop goes on, a search goes down).
            Some(_) if choice.fresh => false,
            Some(target) => in_footprint(target),
            None => field.is_some_and(|f| !self.null_tested.contains(f)),
        };
        field_described && target_decided
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

/// The fields (of any class) whose type the explored code compares with null: `x == null`,
/// `e.f != null`, `null == t` with `x`, `e.f`, `t` of that type. By type, not by access path,
/// since a value read from a field reaches its test through locals and parameters
/// (`insert(t.left, k)` then `if (t == null)`).
fn null_tested(code: &Code<'_>) -> BTreeSet<String> {
    let mut types = BTreeSet::new();
    for_each_code_expr(code.program, code.class, code.method, &mut |e| {
        let ExprKind::Binary { op: BinOp::Eq | BinOp::Ne, lhs, rhs } = &e.kind else { return };
        let other = match (&lhs.kind, &rhs.kind) {
            (ExprKind::Null, _) => rhs,
            (_, ExprKind::Null) => lhs,
            _ => return,
        };
        if let Some(t) = code.info.type_of(other.id).and_then(type_key) {
            types.insert(t);
        }
    });
    code.info
        .class_fields
        .values()
        .flatten()
        .filter(|(_, t)| type_key(t).is_some_and(|k| types.contains(&k)))
        .map(|(f, _)| f.clone())
        .collect()
}

/// The fields whose class has no fields of its own (`Object`) and whose values the explored
/// code never compares: not with null, not with each other, not with anything. Such a value
/// can only be stored, passed and returned, so which object it is decides no branch.
fn opaque(code: &Code<'_>) -> BTreeSet<String> {
    let mut compared = BTreeSet::new();
    for_each_code_expr(code.program, code.class, code.method, &mut |e| {
        let ExprKind::Binary { op: BinOp::Eq | BinOp::Ne, lhs, rhs } = &e.kind else { return };
        for side in [lhs, rhs] {
            if let Some(t) = code.info.type_of(side.id).and_then(type_key) {
                compared.insert(t);
            }
        }
    });
    let fieldless = |c: &str| code.info.class_fields.get(c).is_none_or(|fields| fields.is_empty());
    code.info
        .class_fields
        .values()
        .flatten()
        .filter(|(_, t)| match t {
            Type::Class(c) => fieldless(c) && !compared.contains(c),
            _ => false,
        })
        .map(|(f, _)| f.clone())
        .collect()
}

/// A reference type's key: its class, or `[]` for every array type.
fn type_key(t: &Type) -> Option<String> {
    match t {
        Type::Class(c) => Some(c.clone()),
        Type::Array(_) => Some("[]".to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use heaplab_syntax::{analyze, SourceFile};

    fn tested(src: &str, target: &str) -> BTreeSet<String> {
        let a = analyze(&SourceFile::new("t.hl".to_string(), src.to_string()));
        assert!(!a.has_errors(), "{:?}", a.diagnostics);
        let (class, method) = crate::find_function(&a.program, target).expect("target");
        null_tested(&Code { program: &a.program, info: &a.info, class, method })
    }

    fn opaque_fields(src: &str, target: &str) -> BTreeSet<String> {
        let a = analyze(&SourceFile::new("t.hl".to_string(), src.to_string()));
        assert!(!a.has_errors(), "{:?}", a.diagnostics);
        let (class, method) = crate::find_function(&a.program, target).expect("target");
        opaque(&Code { program: &a.program, info: &a.info, class, method })
    }

    const BAG: &str = "class Entry { Object element; Entry next; Item item; }\n\
        class Item { int v; }\n\
        class Bag {\n  Entry head;\n\
        Object first() { return this.head.element; }\n\
        void put(Object o) { this.head.element = o; }\n\
        bool has(Object o) { return this.head.element == o; }\n\
        bool viaHelper(Object o) { return same(this.head, o); }\n\
        bool same(Entry e, Object o) { return o != null && e.element == o; }\n\
        }\n";

    /// A field of a class without fields is opaque until the code compares such values, with
    /// null or with each other, itself or through a callee; a field of a class with fields
    /// (`item`) never is.
    #[test]
    fn fields_nobody_compares_or_reads_are_opaque() {
        let element: BTreeSet<String> = ["element".to_string()].into_iter().collect();
        assert_eq!(opaque_fields(BAG, "Bag.first"), element);
        assert_eq!(opaque_fields(BAG, "Bag.put"), element);
        assert!(opaque_fields(BAG, "Bag.has").is_empty());
        assert!(opaque_fields(BAG, "Bag.viaHelper").is_empty());
    }

    const LIST: &str = "class Item { int v; }\n\
        class Node { Node next; Node prev; Item item; }\n\
        class List {\n  Node head;\n\
        int walk() { int n = 0; Node x = this.head; while (x != null) { n++; x = x.next; } return n; }\n\
        int first() { return this.head.item.v; }\n\
        int viaHelper() { return isLast(this.head); }\n\
        int isLast(Node n) { if (null == n.next) return 1; return 0; }\n\
        pure bool noItem(Node n) { return n.item == null; }\n\
        int checked() ensures noItem(this.head) { return this.head.item.v; }\n\
        }\n";

    /// A test of a local (`x != null`) counts for every field of its type, whichever field the
    /// value came from; fields of an untested type do not count.
    #[test]
    fn a_null_test_marks_every_field_of_the_tested_type() {
        let fields = tested(LIST, "List.walk");
        assert_eq!(fields, ["head", "next", "prev"].map(String::from).into_iter().collect());
    }

    #[test]
    fn code_without_a_null_test_marks_nothing() {
        assert!(tested(LIST, "List.first").is_empty());
    }

    /// A callee's test (`null == n.next`, either side) counts; a test only an `ensures` runs
    /// does not, since those branches are not the method's.
    #[test]
    fn callees_count_and_specifications_do_not() {
        assert_eq!(tested(LIST, "List.viaHelper").len(), 3);
        assert!(tested(LIST, "List.checked").is_empty());
    }
}
