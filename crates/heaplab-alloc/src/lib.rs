//! The wasm engine's global allocator: free lists by size class in front of a general
//! allocator.
//!
//! Why: a symbolic run forks and drops states by the hundred thousand, each a few dozen small
//! blocks (frames, path conditions, value vectors), and in wasm the general allocator (TLSF)
//! spent a third of a `lazy` run finding and splitting blocks for them. Here a block of up to
//! [`MAX_SMALL`] bytes is taken from and given back to a singly linked list of blocks of its
//! size class: a load and a store each. Blocks aligned to 16 (anything holding an `i128`,
//! which the decision procedure's coefficients are) have classes of their own; larger blocks,
//! and blocks aligned beyond 16, go to the general allocator as before.
//!
//! A freed small block stays on its list for the next block of its class; it is never given
//! back to the general allocator. The memory a run holds is therefore at most what its peak of
//! each class needed, which is what the engine's memory bound already measures (the size of
//! the linear memory, which neither allocator ever shrinks).
//!
//! It is for a single thread: the lists are plain cells, which is sound where there are no
//! threads (wasm32 without the `atomics` feature, the only target it is installed on).
//!
//! ```
//! use heaplab_alloc::SizeClasses;
//! use std::alloc::{GlobalAlloc, Layout, System};
//!
//! let a = SizeClasses::new(System);
//! let layout = Layout::from_size_align(24, 8).expect("a layout");
//! // SAFETY (of the example): the layout has a non-zero size; the block is freed once, with
//! // the layout it was made with.
//! #[allow(unsafe_code)]
//! unsafe {
//!     let p = a.alloc(layout);
//!     a.dealloc(p, layout);
//!     // The next block of that class is the one just freed.
//!     assert_eq!(a.alloc(layout), p);
//!     a.dealloc(p, layout);
//! }
//! ```

pub mod linear;

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::ptr;

/// The largest block, in bytes, served from the free lists. A limit of 1,024 rather than 256
/// took 3 % off a `symheap` run of BST `insert` (k = 2) in node and 2 % off TreeMap `put` under
/// `lazier#` (k = 3), with no more memory held after a `lazy` run of 800,000 states: enough of
/// a run's blocks lie between the two that TLSF's search for them showed. 4,096 gained nothing.
pub const MAX_SMALL: usize = 1024;

/// Classes are multiples of this many bytes, which is also their blocks' alignment.
const GRAIN: usize = 8;

const CLASSES: usize = MAX_SMALL / GRAIN;

/// The alignment of `i128` in wasm32: blocks aligned so are multiples of it, in classes after
/// the others. Without them every linear form of the decision procedure went to the general
/// allocator (its search for a block was 8 % of a `symheap` run in wasm).
const WIDE: usize = 16;

const WIDE_CLASSES: usize = MAX_SMALL / WIDE;

/// A global allocator that serves small blocks from free lists by size class and the rest from
/// `inner` (see the crate's documentation).
pub struct SizeClasses<A> {
    inner: A,
    /// The first free block of each class; each free block starts with the next one's address.
    free: [Cell<*mut u8>; CLASSES + WIDE_CLASSES],
}

// SAFETY: without threads nothing can reach the lists from two threads at once; the impl is
// only there so that a `static` can hold the allocator on such a target.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[allow(unsafe_code)]
unsafe impl<A: Sync> Sync for SizeClasses<A> {}

impl<A> SizeClasses<A> {
    pub const fn new(inner: A) -> SizeClasses<A> {
        SizeClasses { inner, free: [const { Cell::new(ptr::null_mut()) }; CLASSES + WIDE_CLASSES] }
    }
}

/// The class of a block of `layout`, if the free lists serve it.
fn class(layout: Layout) -> Option<usize> {
    let size = layout.size().max(1);
    match layout.align() {
        _ if size > MAX_SMALL => None,
        a if a <= GRAIN => Some(size.div_ceil(GRAIN) - 1),
        WIDE => Some(CLASSES + size.div_ceil(WIDE) - 1),
        _ => None,
    }
}

/// The layout the general allocator gives every block of class `c`.
fn class_layout(c: usize) -> Layout {
    let (size, align) = match c.checked_sub(CLASSES) {
        None => ((c + 1) * GRAIN, GRAIN),
        Some(w) => ((w + 1) * WIDE, WIDE),
    };
    // size <= MAX_SMALL with a power-of-two alignment: always a valid layout.
    Layout::from_size_align(size, align).unwrap_or(Layout::new::<u64>())
}

#[allow(unsafe_code)]
// SAFETY: every block a free list holds was made by `inner` with its class's layout, is at
// least GRAIN bytes and at least GRAIN-aligned (room for the next block's address), and at least
// as aligned as any layout of its class asks; it is on one list
// at most, since the caller frees a block once; blocks of other sizes go to `inner` unchanged.
unsafe impl<A: GlobalAlloc> GlobalAlloc for SizeClasses<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let Some(c) = class(layout) else { return self.inner.alloc(layout) };
        let head = self.free[c].get();
        if head.is_null() {
            return self.inner.alloc(class_layout(c));
        }
        self.free[c].set(head.cast::<*mut u8>().read());
        head
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        let Some(c) = class(layout) else { return self.inner.dealloc(block, layout) };
        block.cast::<*mut u8>().write(self.free[c].get());
        self.free[c].set(block);
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        match (class(layout), class(new_layout)) {
            (None, None) => self.inner.realloc(block, layout, new_size),
            // The block already has room for its class's size.
            (Some(a), Some(b)) if a == b => block,
            _ => {
                let new = self.alloc(new_layout);
                if !new.is_null() {
                    ptr::copy_nonoverlapping(block, new, layout.size().min(new_size));
                    self.dealloc(block, layout);
                }
                new
            }
        }
    }
}

/// A deterministic pseudo-random source for the tests (xorshift64).
#[cfg(test)]
fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

#[cfg(test)]
#[allow(unsafe_code)]
mod tests {
    use super::*;
    use std::alloc::System;
    use std::collections::HashSet;

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).expect("a valid layout")
    }

    /// Sizes map to the classes that hold them, and only small blocks aligned to at most 16
    /// have one; a class's blocks are as aligned as its layouts ask.
    #[test]
    fn classes_hold_their_sizes() {
        assert_eq!(class(layout(1, 1)), Some(0));
        assert_eq!(class(layout(8, 8)), Some(0));
        assert_eq!(class(layout(9, 4)), Some(1));
        assert_eq!(class(layout(MAX_SMALL, 8)), Some(CLASSES - 1));
        assert_eq!(class(layout(MAX_SMALL + 1, 8)), None);
        assert_eq!(class(layout(32, 16)), Some(CLASSES + 1));
        assert_eq!(class(layout(MAX_SMALL, 16)), Some(CLASSES + WIDE_CLASSES - 1));
        assert_eq!(class(layout(MAX_SMALL + 1, 16)), None);
        assert_eq!(class(layout(32, 32)), None);
        for (align, grain) in [(8, GRAIN), (16, WIDE)] {
            for size in 1..=MAX_SMALL {
                let c = class(layout(size, align)).expect("small");
                let made = class_layout(c);
                assert!(made.size() >= size && made.size() < size + grain, "{size}/{align}");
                assert_eq!(made.align(), align);
            }
        }
    }

    /// Live blocks never overlap and keep what was written into them, through frees, reuse and
    /// reallocations across classes and to and from large sizes.
    #[test]
    fn live_blocks_keep_their_bytes_and_never_overlap() {
        let a = SizeClasses::new(System);
        // (block, layout, fill byte)
        let mut live: Vec<(*mut u8, Layout, u8)> = Vec::new();
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let check = |live: &[(*mut u8, Layout, u8)]| {
            let mut ranges: Vec<(usize, usize)> =
                live.iter().map(|(p, l, _)| (*p as usize, *p as usize + l.size())).collect();
            ranges.sort();
            assert!(ranges.windows(2).all(|w| w[0].1 <= w[1].0), "overlapping blocks");
            for (p, l, fill) in live {
                // SAFETY: each block is live and `l.size()` bytes long.
                let bytes = unsafe { std::slice::from_raw_parts(*p, l.size()) };
                assert!(bytes.iter().all(|b| b == fill), "a block lost its bytes");
            }
        };
        for round in 0..20_000u32 {
            let op = next() % 3;
            if op == 0 || live.is_empty() {
                let size = 1 + (next() as usize % (2 * MAX_SMALL));
                let align = [1, 2, 4, 8, 16, 32][next() as usize % 6];
                let l = layout(size, align);
                let fill = round as u8;
                // SAFETY: a non-zero size; the block is filled within its size.
                let p = unsafe { a.alloc(l) };
                assert!(!p.is_null() && (p as usize).is_multiple_of(align));
                unsafe { ptr::write_bytes(p, fill, size) };
                live.push((p, l, fill));
            } else {
                let i = next() as usize % live.len();
                let (p, l, fill) = live.swap_remove(i);
                if op == 1 {
                    // SAFETY: live, freed once with its layout.
                    unsafe { a.dealloc(p, l) };
                } else {
                    let new_size = 1 + (next() as usize % (2 * MAX_SMALL));
                    // SAFETY: live, with its layout; the new block is filled past the old size.
                    let q = unsafe { a.realloc(p, l, new_size) };
                    assert!(!q.is_null());
                    let nl = layout(new_size, l.align());
                    unsafe { ptr::write_bytes(q, fill, new_size) };
                    live.push((q, nl, fill));
                }
            }
            if round % 1000 == 0 {
                check(&live);
            }
        }
        check(&live);
        for (p, l, _) in live {
            // SAFETY: live, freed once with its layout.
            unsafe { a.dealloc(p, l) };
        }
    }

    /// A freed block is the next one of its class, and the lists keep every block they are
    /// given: freeing n blocks of a class and asking n again makes no new one.
    #[test]
    fn freed_blocks_are_reused_by_their_class() {
        let a = SizeClasses::new(System);
        let l = layout(40, 8);
        let made: Vec<*mut u8> = (0..100).map(|_| unsafe { a.alloc(l) }).collect();
        for p in &made {
            unsafe { a.dealloc(*p, l) };
        }
        // A block of 33..40 bytes is of the same class.
        let again: HashSet<*mut u8> = (0..100).map(|_| unsafe { a.alloc(layout(33, 4)) }).collect();
        assert_eq!(again, made.iter().copied().collect());
        for p in again {
            unsafe { a.dealloc(p, l) };
        }
    }
}
