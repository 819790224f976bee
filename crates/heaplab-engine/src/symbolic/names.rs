//! The learner's names of a state's objects and open references (`o3` → `this.root.left`),
//! walked on the state itself.
//!
//! Why: a forking event names the ids its labels mention, and the page asks it of every fork
//! among the first 5,000 states. Building the state's [`HeapView`](super::view::HeapView) of
//! links (an id, class and field name string per object and field) and walking that was 2 ms
//! of a 13 ms `lazier#` run of BST `findMin` at k = 3 in the page. (The session's walk of a
//! whole view, `inspect::access_paths`, stays as the oracle its tests compare this with.)
//!
//! What: the same breadth-first walk as a walk of [`HeapView::links_of`] (the method's
//! parameters, then each frame's locals from the innermost, each group breadth first; an id
//! keeps the first path that reaches it; an array's cells in the order they were accessed,
//! each named by its index's text, `a[i + 1]`; at most [`MAX_NAMES`] ids), on typed ids,
//! spelling out only the wanted ones.
//!
//! [`HeapView::links_of`]: super::view::HeapView::links_of

use super::code::{Compiled, UnitId};
use super::show::Names;
use super::state::{PathState, SValue, State};
use super::view::is_driver;
use smallvec::SmallVec;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The walk names at most this many ids.
pub const MAX_NAMES: usize = 400;

/// An id of a view: an object (`o1` is index 0), an open reference (`ref2`), a location
/// (`loc1`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Id {
    Obj(usize),
    Ref(u32),
    Loc(u32),
}

impl Id {
    fn of(st: &State, v: &SValue) -> Option<Id> {
        // Most values a walk meets are integers: no copy of their term to learn that.
        if !v.is_reference() {
            return None;
        }
        match st.normalize(v) {
            SValue::Obj(o) => Some(Id::Obj(o)),
            SValue::SymRef(r) => Some(Id::Ref(r)),
            SValue::SymLoc(l) => Some(Id::Loc(l)),
            _ => None,
        }
    }

    /// Whether `st` has this id (an object, reference or location it made).
    fn exists_in(self, st: &State) -> bool {
        match self {
            Id::Obj(o) => o < st.heap.len(),
            Id::Ref(r) => (r as usize) < st.symrefs.len(),
            Id::Loc(l) => (l as usize) < st.symlocs.len(),
        }
    }

    /// The id a view's text names (`o3`, `ref2`, `loc1`), if it is one.
    fn parse(text: &str) -> Option<Id> {
        let num = |digits: &str| match digits.bytes().all(|b| b.is_ascii_digit()) {
            true => digits.parse::<u64>().ok(),
            false => None,
        };
        if let Some(d) = text.strip_prefix("ref") {
            return num(d).and_then(|n| u32::try_from(n).ok()).map(Id::Ref);
        }
        if let Some(d) = text.strip_prefix("loc") {
            return num(d).and_then(|n| u32::try_from(n).ok()).map(Id::Loc);
        }
        let n = num(text.strip_prefix('o')?)?;
        (n >= 1).then(|| Id::Obj(n as usize - 1))
    }
}

/// The ids a walk has reached, one bit each: objects, then open references, then locations.
struct Seen {
    bits: SmallVec<[u64; 4]>,
    refs_at: usize,
    locs_at: usize,
}

impl Seen {
    fn new(st: &State) -> Seen {
        let refs_at = st.heap.len();
        let locs_at = refs_at + st.symrefs.len();
        let words = (locs_at + st.symlocs.len()).div_ceil(64);
        Seen { bits: SmallVec::from_elem(0, words), refs_at, locs_at }
    }

    /// Marks `id` reached; false if it was already.
    fn insert(&mut self, id: Id) -> bool {
        let i = match id {
            Id::Obj(o) => o,
            Id::Ref(r) => self.refs_at + r as usize,
            Id::Loc(l) => self.locs_at + l as usize,
        };
        // The ids come from the state's own values, so within its lists; one that were not
        // would count as new each time, and the walk stops at MAX_NAMES ids anyway.
        let Some(word) = self.bits.get_mut(i / 64) else { return true };
        let bit = 1u64 << (i % 64);
        let new = *word & bit == 0;
        *word |= bit;
        new
    }
}

/// How an id was first reached: from a variable, or by a field (an array's cell: `[i]`) of the
/// id reached `.0`-th.
enum Via<'a> {
    Start(&'a str),
    Field(usize, Cow<'a, str>),
}

/// The access path of each id of `wanted` that the walk reaches (see the module docs).
pub fn access_paths(
    st: &State,
    code: &Compiled,
    method: UnitId,
    wanted: &[&str],
) -> BTreeMap<String, String> {
    // Only ids the state has can be reached: a fork's children's labels mention objects that
    // only the children have (`o3.left = fresh o8`), and waiting for those walked every value.
    let want: SmallVec<[Id; 8]> =
        wanted.iter().filter_map(|w| Id::parse(w)).filter(|id| id.exists_in(st)).collect();
    if want.is_empty() {
        return BTreeMap::new();
    }
    // Cells are named by their index's text, in the names the views give variables.
    let names = st.heap.iter().any(|o| o.array.is_some()).then(|| Names::of(st));
    let params = code.units.get(method).map(|u| u.params.as_slice()).unwrap_or_default();
    // The walk's lists are short (a few objects at a bound k) and live on the stack: allocating
    // them was a good part of naming a fork in wasm, and the page names 1,500 forks in a Run of
    // TreeMap `remove` at k = 3.
    let roots: SmallVec<[(&str, &SValue); 8]> =
        params.iter().zip(&st.roots).map(|((n, _), v)| (n.as_str(), v)).collect();
    let mut locals: SmallVec<[(&str, &SValue); 8]> = SmallVec::new();
    for f in st.frames.iter().rev() {
        let Some(unit) = code.units.get(f.unit) else { continue };
        if is_driver(unit) {
            continue;
        }
        let named = unit.slot_names.iter().zip(&f.locals).filter(|(n, _)| !n.is_empty());
        let refs = named.filter_map(|(n, v)| Some((n.as_str(), v.as_ref()?)));
        locals.extend(refs.filter(|(_, v)| v.is_reference()));
    }
    let mut reached: SmallVec<[(Id, Via); 16]> = SmallVec::new();
    let mut seen = Seen::new(st);
    // Breadth first: a list read from `head` on (emptied between the two walks).
    let mut queue: SmallVec<[(Via, &SValue); 32]> = SmallVec::new();
    let mut found = 0;
    'walks: for start in [roots, locals] {
        queue.clear();
        queue.extend(start.into_iter().map(|(n, v)| (Via::Start(n), v)));
        let mut head = 0;
        while let Some((via, value)) = queue.get_mut(head) {
            let (via, value) = (std::mem::replace(via, Via::Start("")), *value);
            head += 1;
            if reached.len() >= MAX_NAMES || found == want.len() {
                break 'walks;
            }
            let Some(id) = Id::of(st, value) else { continue };
            if !seen.insert(id) {
                continue;
            }
            reached.push((id, via));
            found += usize::from(want.contains(&id));
            let Some(obj) = (match id {
                Id::Obj(o) => st.heap.get(o),
                _ => None,
            }) else {
                continue;
            };
            let at = reached.len() - 1;
            match (&obj.array, &names) {
                (Some(a), Some(names)) => {
                    queue.extend(a.cells.iter().map(|(i, v)| {
                        (Via::Field(at, Cow::Owned(format!("[{}]", names.show(i)))), v)
                    }))
                }
                _ => {
                    let fields = obj.fields.iter().filter_map(|(f, v)| Some((f, v.as_ref()?)));
                    let fields = fields.filter(|(_, v)| v.is_reference());
                    queue.extend(
                        fields.map(|(f, v)| (Via::Field(at, Cow::Borrowed(f.as_str())), v)),
                    );
                }
            }
        }
    }
    // Written into one string, outermost first: a format per step was a fifth of the walk.
    fn path(reached: &[(Id, Via)], i: usize) -> String {
        let mut steps = Vec::new();
        let mut at = i;
        let start = loop {
            match &reached[at].1 {
                Via::Start(name) => break *name,
                Via::Field(parent, step) => {
                    steps.push(step);
                    at = *parent;
                }
            }
        };
        let mut out = String::from(start);
        for step in steps.iter().rev() {
            if !step.starts_with('[') {
                out.push('.');
            }
            out.push_str(step);
        }
        out
    }
    let name = |id: Id| match id {
        Id::Obj(o) => PathState::obj_name(o),
        Id::Ref(r) => format!("ref{r}"),
        Id::Loc(l) => format!("loc{l}"),
    };
    let named = reached.iter().enumerate().filter(|(_, (id, _))| want.contains(id));
    named.map(|(i, (id, _))| (name(*id), path(&reached, i))).collect()
}

#[cfg(test)]
mod tests {
    use super::Id;

    #[test]
    fn ids_parse_as_views_write_them() {
        assert_eq!(Id::parse("o1"), Some(Id::Obj(0)));
        assert_eq!(Id::parse("o12"), Some(Id::Obj(11)));
        assert_eq!(Id::parse("ref3"), Some(Id::Ref(3)));
        assert_eq!(Id::parse("loc0"), Some(Id::Loc(0)));
        for bad in ["o0", "o", "ref", "o1a", "x1", "loc-1", "o+1"] {
            assert_eq!(Id::parse(bad), None, "{bad}");
        }
    }
}
