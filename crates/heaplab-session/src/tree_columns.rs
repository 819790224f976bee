//! Tree nodes as columns, the form in which the page's Run takes a slice's new nodes.
//!
//! A large run makes hundreds of thousands of nodes (`lazy` at k = 3: about 800,000 for AVL
//! `insert`). As objects, each node would be serialized to JSON in Rust, parsed into a JS object
//! in the engine's worker and copied again by structured clone into the page: about 134 bytes
//! and three conversions per node. As columns, each field is one typed array the worker hands to
//! the page without a copy, and the strings (labels, outcomes, colours, texts), which repeat
//! from node to node, are each stored once in a table the columns index.

use heaplab_engine::symbolic::LabelId;
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// A label not interned yet (see `TreeColumns::labels`).
const NONE: u32 = u32::MAX;

/// A path end's outcome, colour and text, as entries of [`TreeColumns::strings`] (0 for none).
pub type EndStrings = (u32, u32, u32);

/// Nodes with ids `first`, `first + 1`, ...: entry `i` of each column belongs to node
/// `first + i`. String columns index [`TreeColumns::strings`], whose entry 0 stands for none.
#[derive(Debug)]
pub struct TreeColumns {
    pub first: u32,
    /// The parent's id; -1 for the root.
    pub parent: Vec<i32>,
    /// The index of the path that ends in the node; -1 while it runs or where it forked.
    pub path: Vec<i32>,
    /// The node's 1-based line; 0 for none.
    pub line: Vec<u32>,
    pub label: Vec<u32>,
    pub outcome: Vec<u32>,
    pub colour: Vec<u32>,
    pub text: Vec<u32>,
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

impl Default for TreeColumns {
    fn default() -> Self {
        TreeColumns::starting_at(0)
    }
}

impl TreeColumns {
    pub fn starting_at(first: u32) -> Self {
        TreeColumns {
            first,
            parent: Vec::new(),
            path: Vec::new(),
            line: Vec::new(),
            label: Vec::new(),
            outcome: Vec::new(),
            colour: Vec::new(),
            text: Vec::new(),
            strings: vec![String::new()],
            index: FxHashMap::default(),
            statics: Vec::new(),
            labels: Vec::new(),
        }
    }

    /// Room for `more` nodes: a large slice's columns grew by doubling, copying each column
    /// again at every step.
    pub fn reserve(&mut self, more: usize) {
        let columns = [&mut self.line, &mut self.label, &mut self.outcome, &mut self.colour];
        for column in columns.into_iter().chain([&mut self.text]) {
            column.reserve(more);
        }
        self.parent.reserve(more);
        self.path.reserve(more);
    }

    pub fn len(&self) -> usize {
        self.parent.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
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
        let end = self.end_strings(end);
        self.push_interned(parent, path, line.unwrap_or(0), label, end);
    }

    /// [`push`](Self::push) of a node whose label and end are in [`strings`](Self::strings)
    /// already ([`label_string`](Self::label_string), [`end_strings`](Self::end_strings)):
    /// a large slice's nodes share a few labels, lines and ends, which its maker converts
    /// once.
    pub fn push_interned(
        &mut self,
        parent: Option<u32>,
        path: Option<usize>,
        line: u32,
        label: u32,
        (outcome, colour, text): EndStrings,
    ) {
        self.parent.push(parent.map_or(-1, |p| p as i32));
        self.path.push(path.map_or(-1, |p| p as i32));
        self.line.push(line);
        self.label.push(label);
        self.outcome.push(outcome);
        self.colour.push(colour);
        self.text.push(text);
    }

    /// A path end's outcome, colour and text as entries of [`strings`](Self::strings).
    pub fn end_strings(
        &mut self,
        end: Option<(&'static str, &'static str, Cow<'static, str>)>,
    ) -> EndStrings {
        match end {
            Some((outcome, colour, text)) => {
                let text = match text {
                    Cow::Borrowed(text) => self.intern_static(text),
                    Cow::Owned(text) => self.intern(&text),
                };
                (self.intern_static(outcome), self.intern_static(colour), text)
            }
            None => (0, 0, 0),
        }
    }

    /// The entry of node `id`, if it is among these.
    pub fn at(&self, id: u32) -> Option<usize> {
        let at = id.checked_sub(self.first)? as usize;
        (at < self.len()).then_some(at)
    }

    /// Node `first + at` as the page rebuilds it from the columns: the JSON of a
    /// [`crate::events::JsTreeNode`] (`treeSince`'s objects).
    pub fn node_json(&self, at: usize) -> serde_json::Value {
        let string = |i: u32| (i != 0).then(|| self.strings[i as usize].clone());
        serde_json::json!({
            "id": self.first + at as u32,
            "parent": u32::try_from(self.parent[at]).ok(),
            "label": self.strings[self.label[at] as usize],
            "path": usize::try_from(self.path[at]).ok(),
            "outcome": string(self.outcome[at]),
            "colour": string(self.colour[at]),
            "text": string(self.text[at]),
            "line": (self.line[at] != 0).then_some(self.line[at]),
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
