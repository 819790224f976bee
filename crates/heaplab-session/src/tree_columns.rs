//! Tree nodes as rows of numbers, the form in which the page's Run takes a slice's new nodes.
//!
//! A large run makes hundreds of thousands of nodes (`lazy` at k = 3: about 800,000 for AVL
//! `insert`). As objects, each node would be serialized to JSON in Rust, parsed into a JS object
//! in the engine's worker and copied again by structured clone into the page: about 134 bytes
//! and three conversions per node. As rows, a node is five numbers in one typed array the
//! worker hands to the page without a copy, and the strings (labels, outcomes, colours, texts),
//! which repeat from node to node, are each stored once in a table the rows index; a path's
//! end (outcome, colour and text) is stored once in a table of ends, which most nodes share
//! (a discarded path's). A column per field would be seven arrays to fill per node and to copy
//! per slice, a tenth of what the page's Run adds to a large `lazy` exploration.

use heaplab_engine::symbolic::LabelId;
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// A label not interned yet (see `TreeColumns::labels`).
const NONE: u32 = u32::MAX;

/// How many numbers a node's row has: see [`TreeColumns::rows`].
pub const ROW: usize = 5;

/// A path end's outcome, colour and text, as entries of [`TreeColumns::strings`].
pub type EndStrings = [u32; 3];

/// Nodes with ids `first`, `first + 1`, ...: row `i` belongs to node `first + i`.
#[derive(Debug)]
pub struct TreeColumns {
    pub first: u32,
    /// Each node's parent's id (-1 for the root), the index of the path that ends in the node
    /// (-1 while it runs or where it forked), its 1-based line (0 for none), its label (an
    /// entry of `strings`) and its end (0 for none, else `ends[end - 1]`); -1 as `u32`.
    pub rows: Vec<[u32; ROW]>,
    /// The ends the rows name: outcome, colour and text, each an entry of `strings`.
    pub ends: Vec<EndStrings>,
    end_ids: FxHashMap<EndStrings, u32>,
    /// Entry 0 stands for none.
    pub strings: Vec<String>,
    index: FxHashMap<String, u32>,
    /// The outcomes, colours and discarded paths' texts (a handful of `&'static str`), by
    /// address: most nodes of a large run end a path, and hashing these twice a node costs a
    /// tenth of the columns.
    statics: Vec<((usize, usize), u32)>,
    /// The strings of the tree's labels, by the label's id in the run ([`LabelTexts`]), `NONE`
    /// where not interned yet: hashing each node's label text was a tenth of a large Run's
    /// columns.
    ///
    /// [`LabelTexts`]: heaplab_engine::symbolic::LabelTexts
    labels: Vec<u32>,
}

/// The fields of a row.
const PARENT: usize = 0;
const PATH: usize = 1;
const LINE: usize = 2;
const LABEL: usize = 3;
const END: usize = 4;

impl Default for TreeColumns {
    fn default() -> Self {
        TreeColumns::starting_at(0)
    }
}

impl TreeColumns {
    pub fn starting_at(first: u32) -> Self {
        TreeColumns {
            first,
            rows: Vec::new(),
            ends: Vec::new(),
            end_ids: FxHashMap::default(),
            strings: vec![String::new()],
            index: FxHashMap::default(),
            statics: Vec::new(),
            labels: Vec::new(),
        }
    }

    /// Room for `more` nodes: a large slice's rows grew by doubling, copying them again at
    /// every step.
    pub fn reserve(&mut self, more: usize) {
        self.rows.reserve(more);
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Appends node `first + len()`: its parent, label, path, the end of that path (outcome,
    /// colour and text) and its line.
    pub fn push(
        &mut self,
        parent: Option<u32>,
        label: (LabelId, &str),
        path: Option<usize>,
        end: Option<(&'static str, &'static str, Cow<'static, str>)>,
        line: Option<u32>,
    ) {
        let label = self.label_string(label);
        let end = self.end_id(end);
        self.push_interned(parent, path, line.unwrap_or(0), label, end);
    }

    /// [`push`](Self::push) of a node whose label and end are interned already
    /// ([`label_string`](Self::label_string), [`end_id`](Self::end_id)): a large slice's
    /// nodes share a few labels, lines and ends, which its maker converts once.
    pub fn push_interned(
        &mut self,
        parent: Option<u32>,
        path: Option<usize>,
        line: u32,
        label: u32,
        end: u32,
    ) {
        let parent = parent.unwrap_or(u32::MAX);
        // A path number past 31 bits (never within a memory bound) is not shown.
        let path = path.and_then(|p| u32::try_from(p).ok()).filter(|p| *p < 1 << 31);
        self.rows.push([parent, path.unwrap_or(u32::MAX), line, label, end]);
    }

    /// A path end as an entry of [`ends`](Self::ends) plus one (0 for none).
    pub fn end_id(&mut self, end: Option<(&'static str, &'static str, Cow<'static, str>)>) -> u32 {
        let Some((outcome, colour, text)) = end else { return 0 };
        let text = match text {
            Cow::Borrowed(text) => self.intern_static(text),
            Cow::Owned(text) => self.intern(&text),
        };
        let strings = [self.intern_static(outcome), self.intern_static(colour), text];
        if let Some(&id) = self.end_ids.get(&strings) {
            return id;
        }
        self.ends.push(strings);
        let id = self.ends.len() as u32;
        self.end_ids.insert(strings, id);
        id
    }

    /// The entry of node `id`, if it is among these.
    pub fn at(&self, id: u32) -> Option<usize> {
        let at = id.checked_sub(self.first)? as usize;
        (at < self.len()).then_some(at)
    }

    /// Sets the line of row `at` (a path end folded into its node takes the end's line).
    pub fn set_line(&mut self, at: usize, line: u32) {
        if let Some(row) = self.rows.get_mut(at) {
            row[LINE] = line;
        }
    }

    /// Node `first + at` as the page rebuilds it from the rows: the JSON of a
    /// [`crate::events::JsTreeNode`] (`treeSince`'s objects).
    pub fn node_json(&self, at: usize) -> serde_json::Value {
        let row = self.rows[at];
        let end = row[END].checked_sub(1).map(|e| self.ends[e as usize]);
        let string = |i: usize| end.map(|end| self.strings[end[i] as usize].clone());
        let some = |n: u32| (n != u32::MAX).then_some(n);
        serde_json::json!({
            "id": self.first + at as u32,
            "parent": some(row[PARENT]),
            "label": self.strings[row[LABEL] as usize],
            "path": some(row[PATH]),
            "outcome": string(0),
            "colour": string(1),
            "text": string(2),
            "line": (row[LINE] != 0).then_some(row[LINE]),
        })
    }

    fn intern_static(&mut self, s: &'static str) -> u32 {
        let address = (s.as_ptr() as usize, s.len());
        if let Some(&(_, i)) = self.statics.iter().find(|(a, _)| *a == address) {
            return i;
        }
        let i = self.intern(s);
        self.statics.push((address, i));
        i
    }

    /// A label of the run's tree as an entry of [`strings`](Self::strings).
    pub fn label_string(&mut self, (id, text): (LabelId, &str)) -> u32 {
        let at = id.0 as usize;
        match self.labels.get(at) {
            Some(&i) if i != NONE => i,
            _ => {
                let i = self.intern(text);
                if self.labels.len() <= at {
                    self.labels.resize(at + 1, NONE);
                }
                self.labels[at] = i;
                i
            }
        }
    }

    fn intern(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.strings.len() as u32;
        self.strings.push(s.to_string());
        self.index.insert(s.to_string(), i);
        i
    }
}
