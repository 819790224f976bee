//! An append-only list that the states of one exploration share (issue 21).
//!
//! A state's symbolic variables only ever grow, and every fork used to copy them whole, so
//! memory grew as states × variables. A [`SharedList`] is a chain of chunks: cloning it copies
//! one pointer, and appending writes into the last chunk while this list alone holds it, or
//! starts a new chunk after it otherwise (the shared chunks never change). So each element is
//! stored once for all the states whose paths share it.

use std::fmt;
use std::rc::Rc;

/// See the module docs.
pub struct SharedList<T> {
    last: Option<Rc<Chunk<T>>>,
    len: usize,
}

struct Chunk<T> {
    prev: Option<Rc<Chunk<T>>>,
    /// The index of `items[0]` in the list.
    start: usize,
    items: Vec<T>,
}

impl<T> SharedList<T> {
    pub fn new() -> SharedList<T> {
        SharedList { last: None, len: 0 }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, item: T) {
        let start = self.len;
        self.len += 1;
        if let Some(chunk) = self.last.as_mut().and_then(Rc::get_mut) {
            chunk.items.push(item);
            return;
        }
        let prev = self.last.take();
        self.last = Some(Rc::new(Chunk { prev, start, items: vec![item] }));
    }

    /// The element at `idx`.
    pub fn get(&self, idx: usize) -> Option<&T> {
        let mut chunk = self.last.as_deref();
        while let Some(c) = chunk {
            if idx >= c.start {
                return c.items.get(idx - c.start);
            }
            chunk = c.prev.as_deref();
        }
        None
    }

    /// Calls `f` on the elements of each chunk of this list that `seen` does not hold yet
    /// (the newest first) and adds those chunks to it. A scan of many lists that share their
    /// beginnings (the paths of one exploration) so visits each element once: a chunk seen
    /// before came with the chunks before it. `seen` holds what it saw, so those chunks stay
    /// as they were (a list appends into a chunk only while it alone holds it).
    pub fn for_each_unseen(&self, seen: &mut Seen<T>, mut f: impl FnMut(&T)) {
        let mut chunk = self.last.as_ref();
        while let Some(c) = chunk {
            if !seen.addresses.insert(Rc::as_ptr(c) as usize) {
                return;
            }
            seen.held.push(Rc::clone(c));
            c.items.iter().for_each(&mut f);
            chunk = c.prev.as_ref();
        }
    }

    /// The elements in the order they were pushed.
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        let mut chunks = Vec::new();
        let mut chunk = self.last.as_deref();
        while let Some(c) = chunk {
            chunks.push(&c.items);
            chunk = c.prev.as_deref();
        }
        chunks.into_iter().rev().flatten()
    }
}

/// The chunks a scan of lists has visited ([`SharedList::for_each_unseen`]).
pub struct Seen<T> {
    addresses: rustc_hash::FxHashSet<usize>,
    held: Vec<Rc<Chunk<T>>>,
}

impl<T> Default for Seen<T> {
    fn default() -> Seen<T> {
        Seen { addresses: Default::default(), held: Vec::new() }
    }
}

impl<T> Clone for SharedList<T> {
    fn clone(&self) -> SharedList<T> {
        SharedList { last: self.last.clone(), len: self.len }
    }
}

impl<T> Default for SharedList<T> {
    fn default() -> SharedList<T> {
        SharedList::new()
    }
}

impl<T> Drop for SharedList<T> {
    /// Unlinks the chain iteratively: a long chain dropped recursively could overflow the stack.
    fn drop(&mut self) {
        let mut next = self.last.take();
        while let Some(rc) = next {
            next = match Rc::try_unwrap(rc) {
                Ok(mut chunk) => chunk.prev.take(),
                Err(_) => None,
            };
        }
    }
}

impl<T: fmt::Debug> fmt::Debug for SharedList<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: PartialEq> PartialEq for SharedList<T> {
    fn eq(&self, other: &SharedList<T>) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl<T> FromIterator<T> for SharedList<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> SharedList<T> {
        let mut list = SharedList::new();
        for item in items {
            list.push(item);
        }
        list
    }
}

#[cfg(test)]
mod tests {
    use super::{Seen, SharedList};

    /// A scan of lists that share their beginnings visits each element once, and what it
    /// visits is everything the lists hold; a list that grows after a scan keeps what the scan
    /// saw as it was, so the next scan visits only the new elements.
    #[test]
    fn a_scan_of_shared_lists_visits_each_element_once() {
        let mut root: SharedList<u32> = (0..3).collect();
        let mut lists = Vec::new();
        for branch in 0..4u32 {
            let mut l = root.clone();
            for i in 0..=branch {
                l.push(100 * (branch + 1) + i);
            }
            lists.push(l);
        }
        root.push(7);
        lists.push(root);
        let mut seen = Seen::default();
        let mut visited = Vec::new();
        for l in &lists {
            l.for_each_unseen(&mut seen, |&x| visited.push(x));
        }
        let mut all: Vec<u32> = lists.iter().flat_map(|l| l.iter().copied()).collect();
        all.sort_unstable();
        all.dedup();
        visited.sort_unstable();
        assert_eq!(visited, all);
        let grown = &mut lists[0];
        grown.push(55);
        let mut again = Vec::new();
        for l in &lists {
            l.for_each_unseen(&mut seen, |&x| again.push(x));
        }
        assert_eq!(again, [55]);
        assert_eq!(lists[0].iter().copied().collect::<Vec<_>>(), [0, 1, 2, 100, 55]);
    }

    #[test]
    fn clones_share_their_past_and_diverge_after() {
        let mut parent: SharedList<u32> = (0..3).collect();
        let mut a = parent.clone();
        let mut b = parent.clone();
        a.push(10);
        a.push(11);
        b.push(20);
        parent.push(30);
        assert_eq!(a.iter().copied().collect::<Vec<_>>(), [0, 1, 2, 10, 11]);
        assert_eq!(b.iter().copied().collect::<Vec<_>>(), [0, 1, 2, 20]);
        assert_eq!(parent.iter().copied().collect::<Vec<_>>(), [0, 1, 2, 30]);
        assert_eq!((a.len(), b.len(), parent.len()), (5, 4, 4));
        for (i, want) in [0, 1, 2, 10, 11].into_iter().enumerate() {
            assert_eq!(a.get(i), Some(&want));
        }
        assert_eq!(a.get(5), None);
        assert_eq!(b.get(3), Some(&20));
        drop(parent);
        // Alone again, `b` appends in place and still reads its shared past.
        b.push(21);
        assert_eq!(b.iter().copied().collect::<Vec<_>>(), [0, 1, 2, 20, 21]);
        assert_ne!(a, b);
        assert_eq!(a.clone(), a);
    }

    #[test]
    fn a_long_chain_drops_without_recursion() {
        let mut list = SharedList::new();
        let mut keep = Vec::new();
        for i in 0..200_000u32 {
            keep.push(list.clone());
            list.push(i);
            if keep.len() > 1 {
                keep.remove(0);
            }
        }
        drop(keep);
        assert_eq!(list.len(), 200_000);
        assert_eq!(list.get(123_456), Some(&123_456));
    }
}
