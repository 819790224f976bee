//! The abstract states of the nullness analysis: for each access path that a fact is known
//! of, whether it is `null`; a path absent from a state is unknown.

use std::collections::BTreeMap;

/// The longest field chain a fact is kept of (`p.current._next` is 2): longer paths are
/// unknown, which keeps the lattice finite.
pub const MAX_FIELDS: usize = 3;

/// The root `this` is spelled as the keyword, which no local or parameter can be named.
pub const THIS: &str = "this";

/// A local, a parameter or `this`, and a chain of fields read off it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Path {
    pub root: String,
    pub fields: Vec<String>,
}

impl Path {
    pub fn var(name: &str) -> Path {
        Path { root: name.to_string(), fields: Vec::new() }
    }

    /// `self.field`, or `None` past [`MAX_FIELDS`].
    pub fn field(&self, field: &str) -> Option<Path> {
        (self.fields.len() < MAX_FIELDS).then(|| {
            let mut fields = self.fields.clone();
            fields.push(field.to_string());
            Path { root: self.root.clone(), fields }
        })
    }

    /// The fields of `self` after `prefix`, when `prefix` is a prefix of it.
    fn suffix(&self, prefix: &Path) -> Option<&[String]> {
        (self.root == prefix.root && self.fields.starts_with(&prefix.fields))
            .then(|| &self.fields[prefix.fields.len()..])
    }
}

/// Whether a path is `null` (`true`) or not (`false`); unknown paths hold no fact.
pub type State = BTreeMap<Path, bool>;

/// A state, or `None` where no execution gets (bottom).
pub type Flow = Option<State>;

/// The least upper bound: a fact survives when both sides know it alike.
pub fn join(a: Flow, b: Flow) -> Flow {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => {
            Some(a.into_iter().filter(|(p, v)| b.get(p) == Some(v)).collect::<State>())
        }
    }
}

/// `flow` where `path` is null (`is_null`) or not; bottom when `flow` knows the opposite.
pub fn refine(flow: Flow, path: &Path, is_null: bool) -> Flow {
    let mut s = flow?;
    match s.get(path) {
        Some(v) if *v != is_null => None,
        _ => {
            s.insert(path.clone(), is_null);
            Some(s)
        }
    }
}

/// Forgets every fact whose path reads one of `fields` (`None`: every fact reading a field).
pub fn kill_fields(s: &mut State, fields: Option<&std::collections::BTreeSet<String>>) {
    s.retain(|p, _| match fields {
        None => p.fields.is_empty(),
        Some(f) => !p.fields.iter().any(|x| f.contains(x)),
    });
}

/// Forgets every fact rooted at `root` (an assignment to that local).
pub fn kill_root(s: &mut State, root: &str) {
    s.retain(|p, _| p.root != root);
}

/// The facts of `s` about `from` and the paths under it, re-rooted at `to` (the facts a
/// callee's parameter or an assigned local inherits from the value's path).
pub fn rebased(s: &State, from: &Path, to: &str) -> Vec<(Path, bool)> {
    s.iter()
        .filter_map(|(p, v)| {
            p.suffix(from).map(|rest| (Path { root: to.to_string(), fields: rest.to_vec() }, *v))
        })
        .collect()
}
