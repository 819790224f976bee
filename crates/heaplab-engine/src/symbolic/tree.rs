//! The exploration tree as a run keeps it: one small fixed-size record per state ([`Tree`]),
//! its label as an index into the run's label texts ([`LabelTexts`]), read back as
//! [`TreeNode`]s. Plain data; the search driver's record fills it.
//!
//! `lazy` at k = 3 on TreeMap `put` makes millions of nodes, every one of which the page's Run
//! keeps for the tree view: a node of owned fields (a shared text, `Option`s of words) took 44
//! bytes in wasm32 and the vector's doubling copied all of them again and again, a quarter of
//! what the Run added to the bare exploration. A node here is 12 bytes in chunks that never
//! move ([`Chunked`]): its parent, its end, and its *look*, the pair of label and place it
//! shares with many others (`o1.left = null` at line 12), stored once. The bytes matter more than the work: in
//! the page, writing fresh memory costs about 5 ns a byte (the engine's linear memory grows
//! into pages the system has to supply), more than the lookup of a look.

use crate::symbolic::chunked::Chunked;
use crate::symbolic::slots::Slots;
use crate::symbolic::state::StateId;
use heaplab_syntax::Span;
use rustc_hash::FxHashMap;
use std::fmt;
use std::rc::Rc;

/// A label's place in the run's [`LabelTexts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct LabelId(pub u32);

/// A tree node's label as a step gives it: a text, or one the sink holds already
/// ([`Sink::choice_label`](super::step::Sink::choice_label)).
pub enum Label {
    Text(String),
    Known(LabelId),
}

impl From<String> for Label {
    fn from(text: String) -> Label {
        Label::Text(text)
    }
}

/// The tree's labels, each text stored once. A large run's labels repeat (`o1.left = null`,
/// `!(x0 < x1)`): a `String` per node was most of the tree's memory, and the page's Run took
/// the texts apart again to send each once. Id 0 is the empty label.
#[derive(Debug)]
pub struct LabelTexts {
    ids: FxHashMap<Rc<str>, LabelId>,
    texts: Vec<Rc<str>>,
}

impl Default for LabelTexts {
    fn default() -> LabelTexts {
        let empty: Rc<str> = Rc::from("");
        let ids = FxHashMap::from_iter([(Rc::clone(&empty), LabelId(0))]);
        LabelTexts { ids, texts: vec![empty] }
    }
}

impl LabelTexts {
    /// The id of the text equal to `label`.
    pub fn intern(&mut self, label: String) -> LabelId {
        if let Some(&id) = self.ids.get(label.as_str()) {
            return id;
        }
        let id = LabelId(self.texts.len() as u32);
        let text: Rc<str> = Rc::from(label);
        self.ids.insert(Rc::clone(&text), id);
        self.texts.push(text);
        id
    }

    /// The empty label (a node whose label nobody reads).
    pub fn empty(&self) -> LabelId {
        LabelId(0)
    }

    /// The text of label `id` (empty for an id these texts never gave).
    pub fn text(&self, id: LabelId) -> &str {
        self.texts.get(id.0 as usize).map_or("", |t| t)
    }
}

/// One node of the exploration tree, as [`Tree::get`] reads it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeNode {
    pub id: StateId,
    pub parent: Option<StateId>,
    /// What distinguishes this state from its siblings (`root = null`, `x0 < x1`, ...), in the
    /// tree's [`LabelTexts`] ([`Tree::label`]).
    pub label: LabelId,
    /// The path that ended in this state, if any.
    pub path: Option<usize>,
    /// A discarded path the run did not keep in `paths` ended here (past the view limit, where
    /// views are recorded): `Some(precondition)`, as `PathOutcome::Discarded` says it.
    pub discarded: Option<bool>,
    /// Where the state was created: the source of the instruction its parent was executing
    /// (the method's declaration for the states of the entry). `None` for the root.
    pub span: Option<Span>,
}

/// A node as stored: `u32::MAX` for no parent; `look` indexes `Tree::looks`; `end` is 0 while
/// nothing ended here, 1 and 2 for a discarded path not kept (assumption, precondition), `3 + p`
/// for path `p`.
#[derive(Clone, Copy)]
struct Packed {
    parent: u32,
    look: u32,
    end: u32,
}

/// A node's label and place (`u32::MAX` for none), as `Tree::looks` keeps them.
type Look = (LabelId, (u32, u32));

const NONE: u32 = u32::MAX;
const PATHS_FROM: u32 = 3;

/// The exploration tree: node `i` is state `i`, parents before children. See the module docs.
#[derive(Default)]
pub struct Tree {
    nodes: Chunked<Packed>,
    pub labels: LabelTexts,
    /// Each distinct pair of label and place, once.
    looks: Vec<Look>,
    look_ids: FxHashMap<Look, u32>,
    /// The looks found last ([`Slots`]): a run's nodes share a few thousand looks, and in
    /// wasm a lookup in `look_ids` for each node was a tenth of what the page's Run adds to a
    /// `lazy` exploration.
    recent: Slots<Look, u32>,
}

impl Tree {
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Appends the node of state `len()`.
    pub fn push(&mut self, parent: Option<StateId>, label: LabelId, span: Option<Span>) {
        let look = (label, span.map_or((NONE, NONE), |s| (s.start, s.end)));
        let look = match self.recent.get(&look) {
            Some(id) => id,
            None => {
                let id = match self.look_ids.get(&look) {
                    Some(&id) => id,
                    None => {
                        let id = self.looks.len() as u32;
                        self.looks.push(look);
                        self.look_ids.insert(look, id);
                        id
                    }
                };
                self.recent.put(look, id);
                id
            }
        };
        let packed = Packed { parent: parent.map_or(NONE, |p| p.0), look, end: 0 };
        self.nodes.push(packed);
    }

    /// Node `i`, if the tree has it.
    pub fn get(&self, i: usize) -> Option<TreeNode> {
        self.get_with_look(i).map(|(node, _)| node)
    }

    /// Node `i` and its look: the index of its pair of label and place, which many nodes share
    /// (below [`looks`](Self::looks)), so that a reader converting many nodes can convert each
    /// pair once.
    pub fn get_with_look(&self, i: usize) -> Option<(TreeNode, usize)> {
        let p = self.nodes.get(i)?;
        let (path, discarded) = match p.end {
            0 => (None, None),
            1 => (None, Some(false)),
            2 => (None, Some(true)),
            // A path number past 32 bits (never within a memory bound) is not stored.
            NONE => (None, None),
            n => (Some((n - PATHS_FROM) as usize), None),
        };
        let (label, (start, end)) = self.looks.get(p.look as usize).copied()?;
        let node = TreeNode {
            id: StateId(i as u32),
            parent: (p.parent != NONE).then_some(StateId(p.parent)),
            label,
            path,
            discarded,
            span: (start != NONE).then_some(Span { start, end }),
        };
        Some((node, p.look as usize))
    }

    /// How many distinct looks the nodes have (each below this number).
    pub fn looks(&self) -> usize {
        self.looks.len()
    }

    /// The parent of node `i`.
    pub fn parent(&self, i: usize) -> Option<StateId> {
        let p = self.nodes.get(i)?;
        (p.parent != NONE).then_some(StateId(p.parent))
    }

    /// The text of a node's label.
    pub fn label(&self, node: &TreeNode) -> &str {
        self.labels.text(node.label)
    }

    /// Path `path` (its place in `Explorer::paths`) ended in node `i`.
    pub fn set_path(&mut self, i: usize, path: usize) {
        let end = u32::try_from(path).ok().and_then(|p| p.checked_add(PATHS_FROM));
        self.set_end(i, end.unwrap_or(NONE));
    }

    /// A discarded path that the run did not keep ended in node `i`.
    pub fn set_discarded(&mut self, i: usize, precondition: bool) {
        self.set_end(i, 1 + u32::from(precondition));
    }

    fn set_end(&mut self, i: usize, end: u32) {
        if let Some(p) = self.nodes.get_mut(i) {
            p.end = end;
        }
    }

    /// Keeps the first `len` nodes.
    pub fn truncate(&mut self, len: usize) {
        self.nodes.truncate(len);
    }

    /// Removes every node (the label texts and looks stay).
    pub fn clear(&mut self) {
        self.nodes.clear();
    }

    /// The nodes from `start` on, in order.
    pub fn iter_from(&self, start: usize) -> impl Iterator<Item = TreeNode> + '_ {
        (start..self.len()).filter_map(|i| self.get(i))
    }

    /// The nodes from `start` on with their looks ([`get_with_look`](Self::get_with_look)).
    pub fn iter_with_looks_from(
        &self,
        start: usize,
    ) -> impl Iterator<Item = (TreeNode, usize)> + '_ {
        (start..self.len()).filter_map(|i| self.get_with_look(i))
    }

    pub fn iter(&self) -> impl Iterator<Item = TreeNode> + '_ {
        self.iter_from(0)
    }

    pub fn first(&self) -> Option<TreeNode> {
        self.get(0)
    }
}

/// Two trees are equal when their nodes are, labels compared by text.
impl PartialEq for Tree {
    fn eq(&self, other: &Tree) -> bool {
        self.len() == other.len()
            && self.iter().zip(other.iter()).all(|(a, b)| {
                TreeNode { label: b.label, ..a } == b && self.label(&a) == other.label(&b)
            })
    }
}

impl fmt::Debug for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let labelled = |n: TreeNode| (n, self.labels.text(n.label).to_string());
        f.debug_list().entries(self.iter().map(labelled)).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHUNK: usize = Chunked::<Packed>::CHUNK;

    /// What is stored is what is read back, across chunk boundaries and after truncation.
    #[test]
    fn nodes_read_back_as_pushed() {
        assert_eq!(std::mem::size_of::<Packed>(), 12, "a node's bytes are its cost");
        let mut tree = Tree::default();
        let a = tree.labels.intern("o1.left = null".into());
        let n = 2 * CHUNK + 5;
        for i in 0..n {
            let parent = (i > 0).then_some(StateId((i / 2) as u32));
            let span = (i % 3 != 0).then(|| Span::new(i, i + 7));
            tree.push(parent, if i % 2 == 0 { a } else { tree.labels.empty() }, span);
        }
        tree.set_path(CHUNK, 41);
        tree.set_discarded(CHUNK + 1, true);
        tree.set_discarded(CHUNK + 2, false);
        assert_eq!(tree.len(), n);
        let node = |i: usize| tree.get(i).expect("pushed");
        assert_eq!(node(0).parent, None);
        assert_eq!(node(0).span, None);
        for i in [CHUNK - 1, CHUNK, CHUNK + 4, CHUNK + 5, n - 1] {
            assert_eq!(node(i).parent, Some(StateId((i / 2) as u32)));
            assert_eq!(node(i).span, (i % 3 != 0).then(|| Span::new(i, i + 7)));
        }
        assert_eq!((node(CHUNK).path, node(CHUNK).discarded), (Some(41), None));
        assert_eq!(node(CHUNK + 1).discarded, Some(true));
        assert_eq!(node(CHUNK + 2).discarded, Some(false));
        assert_eq!(tree.label(&node(2 * CHUNK)), "o1.left = null");
        assert_eq!(tree.label(&node(1)), "");
        assert_eq!(tree.iter().count(), n);
        for len in [2 * CHUNK + 1, 2 * CHUNK, CHUNK + 3, 1, 0] {
            tree.truncate(len);
            assert_eq!((tree.len(), tree.iter().count()), (len, len));
            assert!(tree.get(len).is_none());
        }
        tree.push(None, a, None);
        assert_eq!(tree.get(0).map(|n| n.label), Some(a));
    }
}
