//! Models built step by step from the procedures' summaries: every class of a disjunct's
//! choice gets a location (a parameter's, `null`'s, or a new one), points-to allocate their
//! cells, and the locations no cell claims become objects outside the footprint. Used along
//! the base pairs' derivations ([`crate::basepair`]) and by [`crate::grow`].

use crate::combine::{Choice, Prepared};
use crate::formula::{Defs, Sort, SymHeap, Term, Var};
use crate::model::{Model, Object, Value};
use std::collections::BTreeMap;

/// A location of a model under construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Loc {
    Null,
    At(u32),
}

/// The heap of a model built along derivations: locations with their classes, and the cells
/// allocated so far.
#[derive(Default)]
pub(crate) struct Builder {
    /// The class of each location.
    classes: Vec<String>,
    /// The object at each allocated location.
    cells: BTreeMap<u32, Object>,
}

impl Builder {
    /// A location for every class of `c` (indexed by root node): `null`'s, a parameter's
    /// (`params`: node and location), or a new one. `None` when two parameters of different
    /// locations share a class.
    pub fn locate(
        &mut self,
        p: &Prepared,
        sorts: &BTreeMap<Var, Sort>,
        c: &Choice,
        params: &[(usize, Loc)],
    ) -> Option<Vec<Loc>> {
        let mut values: Vec<Option<Loc>> = vec![None; p.nodes];
        values[0] = Some(Loc::Null);
        for (n, l) in params {
            let r = c.find(*n);
            match values[r] {
                Some(v) if v != *l => return None,
                _ => values[r] = Some(*l),
            }
        }
        for n in 1..p.nodes {
            let r = c.find(n);
            if values[r].is_none() {
                let class = p.names[n]
                    .as_ref()
                    .and_then(|v| match sorts.get(v) {
                        Some(Sort::Ref(cl)) => Some(cl.clone()),
                        _ => None,
                    })
                    .unwrap_or_default();
                self.classes.push(class);
                values[r] = Some(Loc::At(self.classes.len() as u32 - 1));
            }
        }
        // Indexed by root node, as callers read it (`values[c.find(n)]`).
        Some(values.into_iter().map(|v| v.unwrap_or(Loc::Null)).collect())
    }

    /// Allocates the points-to of `d` at their locations, integer fields valued by `int_of`;
    /// `false` if a location is taken or null.
    pub fn allocate(
        &mut self,
        defs: &Defs,
        d: &SymHeap,
        p: &Prepared,
        c: &Choice,
        values: &[Loc],
        int_of: &dyn Fn(&Term) -> i64,
    ) -> bool {
        let node_of = |t: &Term| -> Option<usize> {
            match t {
                Term::Null => Some(0),
                Term::Var(v) => p.names.iter().position(|n| n.as_ref() == Some(v)),
                _ => None,
            }
        };
        for pt in &d.points_to {
            let Some(n) = node_of(&pt.ptr) else { return false };
            let Loc::At(l) = values[c.find(n)] else { return false };
            if self.cells.contains_key(&l) {
                return false;
            }
            let mut fields = Vec::new();
            for (f, t) in &pt.fields {
                let v = match defs.field_sort(&pt.class, f) {
                    Some(Sort::Ref(_)) => match node_of(t) {
                        Some(m) => self.value(values[c.find(m)]),
                        None => Value::Null,
                    },
                    Some(Sort::Bool) => Value::Bool(matches!(t, Term::Bool(true))),
                    _ => Value::Int(int_of(t)),
                };
                fields.push((f.clone(), v));
            }
            if let Some(cl) = self.classes.get_mut(l as usize) {
                *cl = pt.class.clone();
            }
            self.cells.insert(l, Object { class: pt.class.clone(), fields });
        }
        true
    }

    /// A location as a model value: locations are numbered as they come (objects are
    /// renumbered by [`Builder::finish`]).
    pub fn value(&self, l: Loc) -> Value {
        match l {
            Loc::Null => Value::Null,
            Loc::At(i) => Value::Ref(i as usize),
        }
    }

    /// The model: allocated cells first, then one object outside the footprint for each other
    /// location a value names.
    pub fn finish(self, defs: &Defs, store: BTreeMap<String, Value>) -> Model {
        let mut used: std::collections::BTreeSet<usize> = std::collections::BTreeSet::new();
        for v in
            store.values().chain(self.cells.values().flat_map(|o| o.fields.iter().map(|(_, v)| v)))
        {
            if let Value::Ref(i) = v {
                used.insert(*i);
            }
        }
        let mut number: BTreeMap<usize, usize> = BTreeMap::new();
        for l in self.cells.keys() {
            let k = number.len();
            number.insert(*l as usize, k);
        }
        let mut dangling = Vec::new();
        for l in &used {
            if !number.contains_key(l) {
                let k = number.len();
                number.insert(*l, k);
                dangling.push(*l);
            }
        }
        let renumber = |v: &Value| match v {
            Value::Ref(i) => number.get(i).map_or(Value::Null, |k| Value::Ref(*k)),
            v => v.clone(),
        };
        let mut objects: Vec<Object> = self
            .cells
            .values()
            .map(|o| Object {
                class: o.class.clone(),
                fields: o.fields.iter().map(|(f, v)| (f.clone(), renumber(v))).collect(),
            })
            .collect();
        let mut unclaimed = std::collections::BTreeSet::new();
        for l in dangling {
            let class = self.classes.get(l).cloned().unwrap_or_default();
            unclaimed.insert(objects.len());
            objects.push(match defs.classes.get(&class) {
                Some(fields) => Object::with_defaults(&class, fields),
                None => Object { class, fields: Vec::new() },
            });
        }
        let store = store.iter().map(|(k, v)| (k.clone(), renumber(v))).collect();
        Model { objects, store, unclaimed }
    }
}
