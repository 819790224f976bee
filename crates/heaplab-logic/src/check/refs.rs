//! What the facts say of references that have no location yet: equality classes, which are
//! not `null`, which differ. A heap-free predicate (a counter's gates, `x != null & emp`)
//! never gives its existentials a location, so without these classes its facts would stay
//! open until the end of the search and a wrong branch would only fail there; with them a
//! contradiction shows at the step that makes it, and a class that needs no particular
//! location never gets one (a new location outside the heap satisfies it).

use super::term::{FastMap, Id};
use crate::model::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The classes of the unbound references a fact has mentioned.
#[derive(Clone, Debug, Default)]
pub(super) struct Refs {
    /// A member's parent in its class (absent: a root).
    parent: FastMap<Id, Id>,
    /// Each root's members (itself included), for binding a class at once.
    members: BTreeMap<Id, Vec<Id>>,
    /// Roots known not to be `null`.
    nonnull: BTreeSet<Id>,
    /// Roots known to differ, both ways.
    ne: BTreeMap<Id, BTreeSet<Id>>,
    /// Values (locations, `null`) each root differs from.
    ne_val: BTreeMap<Id, BTreeSet<Value>>,
}

/// What a reference term stands for: a value, or an unbound class (its root).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Side {
    Value(Value),
    Class(Id),
}

impl Refs {
    pub fn len(&self) -> usize {
        self.members.len()
    }

    pub fn find(&self, v: Id) -> Id {
        self.root(v)
    }

    /// [`Refs::find`] without a copy: asked for every pair of an instance's arguments, where
    /// the copies were most of the model checker's time on a counter of 15 bits.
    pub fn root(&self, v: Id) -> Id {
        let mut cur = v;
        while let Some(&p) = self.parent.get(&cur) {
            cur = p;
        }
        cur
    }

    fn ensure(&mut self, r: Id) {
        self.members.entry(r).or_insert_with(|| vec![r]);
    }

    /// `a == b` for two classes; `false` when they are known to differ.
    pub fn union(&mut self, a: Id, b: Id) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return true;
        }
        if self.ne.get(&ra).is_some_and(|s| s.contains(&rb)) {
            return false;
        }
        self.ensure(ra);
        self.ensure(rb);
        // Keep the larger class as the root.
        let (root, child) =
            if self.members[&ra].len() >= self.members[&rb].len() { (ra, rb) } else { (rb, ra) };
        self.parent.insert(child, root);
        let moved = self.members.remove(&child).unwrap_or_default();
        self.members.entry(root).or_default().extend(moved);
        if self.nonnull.remove(&child) {
            self.nonnull.insert(root);
        }
        if let Some(set) = self.ne.remove(&child) {
            for other in set {
                if let Some(s) = self.ne.get_mut(&other) {
                    s.remove(&child);
                    s.insert(root);
                }
                self.ne.entry(root).or_default().insert(other);
            }
        }
        if let Some(vals) = self.ne_val.remove(&child) {
            self.ne_val.entry(root).or_default().extend(vals);
        }
        if self.nonnull.contains(&root)
            && self.ne_val.get(&root).is_some_and(|s| s.contains(&Value::Null))
        {
            self.ne_val.get_mut(&root).map(|s| s.remove(&Value::Null));
        }
        true
    }

    /// `a != b` for two classes; `false` when they are one class.
    pub fn differ(&mut self, a: Id, b: Id) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        self.ensure(ra);
        self.ensure(rb);
        self.ne.entry(ra).or_default().insert(rb);
        self.ne.entry(rb).or_default().insert(ra);
        true
    }

    /// `a != v` for a class and a value.
    pub fn differ_from(&mut self, a: Id, v: Value) {
        let r = self.find(a);
        self.ensure(r);
        if v == Value::Null {
            self.nonnull.insert(r);
        } else {
            self.ne_val.entry(r).or_default().insert(v);
        }
    }

    /// Gives `a`'s class the value `v`: the members to bind, or `None` when a fact forbids it.
    /// The class leaves the structure; the classes it differed from now differ from `v`.
    pub fn bind(&mut self, a: Id, v: &Value) -> Option<Vec<Id>> {
        let r = self.find(a);
        if *v == Value::Null && self.nonnull.contains(&r) {
            return None;
        }
        if self.ne_val.get(&r).is_some_and(|s| s.contains(v)) {
            return None;
        }
        let members = self.members.remove(&r).unwrap_or_else(|| vec![r]);
        for m in &members {
            self.parent.remove(m);
        }
        self.nonnull.remove(&r);
        self.ne_val.remove(&r);
        if let Some(set) = self.ne.remove(&r) {
            for other in set {
                if let Some(s) = self.ne.get_mut(&other) {
                    s.remove(&r);
                }
                self.differ_from(other, v.clone());
            }
        }
        Some(members)
    }

    /// Whether the class of root `r` is known not to be `null`.
    pub fn root_nonnull(&self, r: Id) -> bool {
        self.nonnull.contains(&r)
    }

    /// Whether the classes of roots `a` and `b` are known to differ.
    pub fn roots_differ(&self, a: Id, b: Id) -> bool {
        self.ne.get(&a).is_some_and(|s| s.contains(&b))
    }

    /// Whether the class of root `r` is known to differ from the location `v`.
    pub fn root_differs_from(&self, r: Id, v: &Value) -> bool {
        self.ne_val.get(&r).is_some_and(|s| s.contains(v))
    }

    /// Whether the class of root `r` is known to differ from no other class (it may differ
    /// from `null` or from values).
    pub fn alone(&self, r: Id) -> bool {
        self.ne.get(&r).is_none_or(BTreeSet::is_empty)
            && self.ne_val.get(&r).is_none_or(BTreeSet::is_empty)
    }

    /// The members of the class of root `r`.
    pub fn members_of(&self, r: Id) -> Vec<Id> {
        self.members.get(&r).cloned().unwrap_or_else(|| vec![r])
    }

    /// Forgets every variable `live` does not hold. A class with no live member goes, with
    /// its disequalities: its variables are existentials nothing mentions any more, which a
    /// new location outside the heap would satisfy whatever they differed from.
    pub fn retain(&mut self, live: &[Id]) {
        let live = |v: &Id| live.binary_search(v).is_ok();
        let mut dead_roots = Vec::new();
        let mut renamed: Vec<(Id, Id)> = Vec::new();
        for (root, members) in self.members.iter_mut() {
            members.retain(|m| live(m));
            match members.first() {
                None => dead_roots.push(*root),
                Some(first) if !live(root) => renamed.push((*root, *first)),
                Some(_) => {}
            }
        }
        for r in &dead_roots {
            self.members.remove(r);
            self.nonnull.remove(r);
            self.ne_val.remove(r);
            if let Some(set) = self.ne.remove(r) {
                for other in set {
                    if let Some(s) = self.ne.get_mut(&other) {
                        s.remove(r);
                    }
                }
            }
        }
        // A class whose root is dead gets a live member as its new root.
        for (old, new) in renamed {
            if let Some(m) = self.members.remove(&old) {
                self.members.insert(new, m);
            }
            if self.nonnull.remove(&old) {
                self.nonnull.insert(new);
            }
            if let Some(v) = self.ne_val.remove(&old) {
                self.ne_val.insert(new, v);
            }
            if let Some(set) = self.ne.remove(&old) {
                for other in &set {
                    if let Some(s) = self.ne.get_mut(other) {
                        s.remove(&old);
                        s.insert(new);
                    }
                }
                self.ne.insert(new, set);
            }
        }
        // Parents point straight at the roots again.
        self.parent.clear();
        for (root, members) in &self.members {
            for m in members {
                if m != root {
                    self.parent.insert(*m, *root);
                }
            }
        }
    }

    /// Whether the classes say `a == b` (`Some(true)`), `a != b` (`Some(false)`), or neither.
    pub fn equal(&self, a: &Side, b: &Side) -> Option<bool> {
        match (a, b) {
            (Side::Value(x), Side::Value(y)) => Some(x == y),
            (Side::Class(x), Side::Class(y)) => {
                let (rx, ry) = (self.root(*x), self.root(*y));
                if rx == ry {
                    Some(true)
                } else if self.ne.get(&rx).is_some_and(|s| s.contains(&ry)) {
                    Some(false)
                } else {
                    None
                }
            }
            (Side::Class(x), Side::Value(v)) | (Side::Value(v), Side::Class(x)) => {
                let r = self.root(*x);
                let differs = if *v == Value::Null {
                    self.nonnull.contains(&r)
                } else {
                    self.ne_val.get(&r).is_some_and(|s| s.contains(v))
                };
                differs.then_some(false)
            }
        }
    }
}
