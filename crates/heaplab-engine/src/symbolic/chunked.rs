//! A vector that grows in fixed chunks and never moves what it holds.
//!
//! Why: a run's per-state records (the tree's nodes, or only the parents) number in the
//! millions; a `Vec` doubles by tens of megabytes at once, past a memory bound the run was
//! within, and copies every element again at each step (in the page, writing fresh memory is
//! most of the cost of keeping a node).

/// Elements `0..len()` in chunks of [`Chunked::CHUNK`] elements, allocated whole.
pub struct Chunked<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked { chunks: Vec::new(), len: 0 }
    }
}

impl<T> Chunked<T> {
    /// Elements per chunk: a power of two (an index splits by shift and mask), at most 256 KiB
    /// of them.
    pub const CHUNK: usize = {
        let n = (1 << 18) / if size_of::<T>() == 0 { 1 } else { size_of::<T>() };
        if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        }
    };

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, value: T) {
        if self.len.is_multiple_of(Self::CHUNK) {
            self.chunks.push(Vec::with_capacity(Self::CHUNK));
        }
        if let Some(chunk) = self.chunks.last_mut() {
            chunk.push(value);
            self.len += 1;
        }
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        self.chunks.get(i / Self::CHUNK)?.get(i % Self::CHUNK)
    }

    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        self.chunks.get_mut(i / Self::CHUNK)?.get_mut(i % Self::CHUNK)
    }

    /// Keeps the first `len` elements.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        let chunks = len.div_ceil(Self::CHUNK);
        self.chunks.truncate(chunks);
        if let Some(chunk) = self.chunks.last_mut() {
            chunk.truncate(len - (chunks - 1) * Self::CHUNK);
        }
        self.len = len;
    }

    pub fn clear(&mut self) {
        self.chunks.clear();
        self.len = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is pushed reads back at its index, across chunk boundaries and after truncation.
    #[test]
    fn elements_read_back_at_their_index() {
        let mut v: Chunked<u64> = Chunked::default();
        let n = 2 * Chunked::<u64>::CHUNK + 5;
        (0..n as u64).for_each(|i| v.push(i * 3));
        assert_eq!(v.len(), n);
        assert!((0..n).all(|i| v.get(i) == Some(&(i as u64 * 3))));
        assert_eq!(v.get(n), None);
        if let Some(x) = v.get_mut(Chunked::<u64>::CHUNK) {
            *x = 7;
        }
        assert_eq!(v.get(Chunked::<u64>::CHUNK), Some(&7));
        let c = Chunked::<u64>::CHUNK;
        for len in [2 * c + 1, 2 * c, c + 3, c, 1, 0] {
            v.truncate(len);
            assert_eq!(v.len(), len);
            assert_eq!(v.get(len), None);
            assert!(len == 0 || v.get(len - 1).is_some());
        }
        v.push(9);
        assert_eq!((v.len(), v.get(0)), (1, Some(&9)));
    }
}
