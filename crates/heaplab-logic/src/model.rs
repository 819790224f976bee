//! Concrete models: a finite heap of objects plus a store. This is the logic's own type; the
//! engine converts it to its runtime heap (the logic must not depend on the engine).
//!
//! Models are *closed*: every reference is `null` or an object of the heap, as in a Java heap.
//! The objects a formula's footprint does not claim (a reference pointing outside it) are
//! listed in [`Model::unclaimed`]: the formula says nothing about their fields.
//! [`Model::canonical`] gives a string that is equal for two models exactly when they are the
//! same up to renaming objects (and, optionally, up to an order-preserving renaming of the
//! integers), which is how enumeration reports each model once.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;

/// How integers count when comparing models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntEquivalence {
    /// Models with different integers are different.
    Exact,
    /// Order-isomorphic models are the same (Kiasan's relation R): only the relative order and
    /// equalities of the integers matter.
    UpToOrder,
    /// Integers are ignored: only the shape matters.
    Ignore,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Null,
    /// An object, by index into `Model::objects`.
    Ref(usize),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object {
    pub class: String,
    /// Every field of the class, in declaration order.
    pub fields: Vec<(String, Value)>,
}

impl Object {
    /// An object of `class` with the default value of each field (`null`, 0, false).
    pub fn with_defaults(class: &str, fields: &[(String, crate::formula::Sort)]) -> Object {
        use crate::formula::Sort;
        let fields = fields
            .iter()
            .map(|(f, s)| {
                let v = match s {
                    Sort::Int => Value::Int(0),
                    Sort::Bool => Value::Bool(false),
                    Sort::Ref(_) => Value::Null,
                };
                (f.clone(), v)
            })
            .collect();
        Object { class: class.to_string(), fields }
    }

    pub fn field(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(f, _)| f == name).map(|(_, v)| v)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    pub objects: Vec<Object>,
    /// Free variable → value.
    pub store: BTreeMap<String, Value>,
    /// Objects outside the formula's footprint (a model built by `sat` marks the dangling
    /// references it gave objects; the model checker does not need the mark).
    pub unclaimed: BTreeSet<usize>,
}

impl Model {
    /// The objects reachable from the store values of `roots` (all store variables when `roots`
    /// is empty), in breadth-first order.
    pub fn reachable(&self, roots: &[&str]) -> Vec<usize> {
        let mut seen = BTreeSet::new();
        let mut order = Vec::new();
        let mut queue = VecDeque::new();
        let starts: Vec<&Value> = if roots.is_empty() {
            self.store.values().collect()
        } else {
            roots.iter().filter_map(|r| self.store.get(*r)).collect()
        };
        for v in starts {
            if let Value::Ref(o) = v {
                queue.push_back(*o);
            }
        }
        while let Some(o) = queue.pop_front() {
            if o >= self.objects.len() || !seen.insert(o) {
                continue;
            }
            order.push(o);
            for (_, v) in &self.objects[o].fields {
                if let Value::Ref(p) = v {
                    queue.push_back(*p);
                }
            }
        }
        order
    }

    /// The model restricted to the objects reachable from `roots` (see [`Model::reachable`]),
    /// renumbered. Use it before [`crate::check::satisfies`] when the heap may contain cells the
    /// formula does not talk about (the check itself is exact).
    pub fn restrict_to_reachable(&self, roots: &[&str]) -> Model {
        let keep = self.reachable(roots);
        self.renumber(&keep)
    }

    /// Keeps the objects `keep` (in that order); references to dropped objects become `null`.
    fn renumber(&self, keep: &[usize]) -> Model {
        let index: BTreeMap<usize, usize> = keep.iter().enumerate().map(|(i, o)| (*o, i)).collect();
        let map = |v: &Value| match v {
            Value::Ref(o) => index.get(o).map_or(Value::Null, |i| Value::Ref(*i)),
            v => v.clone(),
        };
        Model {
            objects: keep
                .iter()
                .map(|o| {
                    let obj = &self.objects[*o];
                    Object {
                        class: obj.class.clone(),
                        fields: obj.fields.iter().map(|(f, v)| (f.clone(), map(v))).collect(),
                    }
                })
                .collect(),
            store: self.store.iter().map(|(k, v)| (k.clone(), map(v))).collect(),
            unclaimed: self.unclaimed.iter().filter_map(|o| index.get(o).copied()).collect(),
        }
    }

    /// A canonical text for the model modulo object renaming: objects are numbered in
    /// breadth-first order from the store (variables in name order), then the unreachable ones
    /// by their contents. `ints` says how integers are compared (exactly, up to an
    /// order-preserving renaming, or not at all).
    pub fn canonical(&self, ints: IntEquivalence) -> String {
        let ints_up_to_order = ints == IntEquivalence::UpToOrder;
        let mut keep = self.reachable(&[]);
        let mut rest: Vec<usize> = (0..self.objects.len()).filter(|o| !keep.contains(o)).collect();
        rest.sort_by_key(|o| format!("{:?}", self.objects[*o]));
        keep.extend(rest);
        let m = self.renumber(&keep);
        let ranks: BTreeMap<i64, usize> = if ints_up_to_order {
            let mut ints = BTreeSet::new();
            m.store
                .values()
                .chain(m.objects.iter().flat_map(|o| o.fields.iter().map(|(_, v)| v)))
                .for_each(|v| {
                    if let Value::Int(i) = v {
                        ints.insert(*i);
                    }
                });
            ints.into_iter().enumerate().map(|(r, i)| (i, r)).collect()
        } else {
            BTreeMap::new()
        };
        let show = |v: &Value| match v {
            Value::Int(_) if ints == IntEquivalence::Ignore => "#".to_string(),
            Value::Int(i) if ints_up_to_order => format!("#{}", ranks.get(i).copied().unwrap_or(0)),
            v => format!("{v}"),
        };
        let mut s = String::new();
        for (k, v) in &m.store {
            s.push_str(&format!("{k}={};", show(v)));
        }
        for (i, o) in m.objects.iter().enumerate() {
            let mark = if m.unclaimed.contains(&i) { "~" } else { "" };
            s.push_str(&format!("o{i}{mark}:{}{{", o.class));
            for (f, v) in &o.fields {
                s.push_str(&format!("{f}={},", show(v)));
            }
            s.push('}');
        }
        s
    }

    /// Replaces integers by their rank (0, 1, 2, …) among the model's integers, keeping order.
    pub fn with_ranked_ints(&self) -> Model {
        let mut ints = BTreeSet::new();
        for v in self
            .store
            .values()
            .chain(self.objects.iter().flat_map(|o| o.fields.iter().map(|(_, v)| v)))
        {
            if let Value::Int(i) = v {
                ints.insert(*i);
            }
        }
        let ranks: BTreeMap<i64, i64> = ints.into_iter().zip(0..).collect();
        let map = |v: &Value| match v {
            Value::Int(i) => Value::Int(ranks.get(i).copied().unwrap_or(*i)),
            v => v.clone(),
        };
        Model {
            objects: self
                .objects
                .iter()
                .map(|o| Object {
                    class: o.class.clone(),
                    fields: o.fields.iter().map(|(f, v)| (f.clone(), map(v))).collect(),
                })
                .collect(),
            store: self.store.iter().map(|(k, v)| (k.clone(), map(v))).collect(),
            unclaimed: self.unclaimed.clone(),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Null => write!(f, "null"),
            Value::Ref(o) => write!(f, "@{o}"),
        }
    }
}

/// Text drawing: the store on one line, then one line per object.
impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let store: Vec<String> = self.store.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        writeln!(
            f,
            "store: {}",
            if store.is_empty() { "(empty)".to_string() } else { store.join(", ") }
        )?;
        if self.objects.is_empty() {
            writeln!(f, "heap: (empty)")?;
        }
        for (i, o) in self.objects.iter().enumerate() {
            let fields: Vec<String> = o.fields.iter().map(|(n, v)| format!("{n}: {v}")).collect();
            let note = if self.unclaimed.contains(&i) { "  (outside the footprint)" } else { "" };
            writeln!(f, "  @{i} = {} {{ {} }}{note}", o.class, fields.join(", "))?;
        }
        Ok(())
    }
}
