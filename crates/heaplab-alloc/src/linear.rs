//! The general allocator behind the free lists: TLSF (the `rlsf` crate) on a memory that only
//! grows, as wasm's linear memory does, grown at least [`CHUNK`] at a time.
//!
//! Why not `rlsf::GlobalTlsf`: it grows the memory by just the pages the block at hand needs,
//! so a run whose memory keeps growing (the page's Run keeps a tree of millions of nodes)
//! grows it a little at almost every slice. In V8 each growth makes a new `ArrayBuffer` for the
//! whole memory, a young object that counts as external memory; the typed arrays each slice
//! then makes (its tree columns) find that much young external memory and force a scavenge or
//! two each time. `lazy` at k = 3 on TreeMap `put` in node: 79 of 79 slices grew the memory,
//! 200 collections. Growing by a chunk makes the growths a handful; the memory bound, which
//! reads the memory's size, sees a run at most one chunk early.

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::ptr::{self, NonNull};
use rlsf::{FlexSource, FlexTlsf};

/// The size of a memory page (wasm's), the unit memories grow by.
pub const PAGE: usize = 65_536;

/// Growing by less than this many bytes at once is rounded up to it (8 MiB).
pub const CHUNK: usize = 128 * PAGE;

/// A memory that grows at its end, page by page, and never shrinks.
pub trait Memory {
    /// Its size in pages.
    fn pages(&self) -> usize;
    /// Grows it by `pages`; the size in pages before, or `None` if it cannot grow so much.
    fn grow(&mut self, pages: usize) -> Option<usize>;
}

/// The memory of a wasm module: its linear memory.
#[cfg(target_arch = "wasm32")]
pub struct LinearMemory;

#[cfg(target_arch = "wasm32")]
impl Memory for LinearMemory {
    fn pages(&self) -> usize {
        core::arch::wasm32::memory_size(0)
    }

    fn grow(&mut self, pages: usize) -> Option<usize> {
        let before = core::arch::wasm32::memory_grow(0, pages);
        (before != usize::MAX).then_some(before)
    }
}

/// The allocator behind the free lists in wasm.
#[cfg(target_arch = "wasm32")]
pub type WasmTlsf = ChunkedTlsf<LinearMemory>;

#[cfg(target_arch = "wasm32")]
impl WasmTlsf {
    /// TLSF on the module's linear memory.
    pub const fn linear() -> WasmTlsf {
        ChunkedTlsf::new(LinearMemory)
    }
}

/// A [`FlexSource`] that grows `M` by at least [`CHUNK`], or by just what is needed where the
/// memory cannot grow that much (near the host's limit).
pub struct Chunks<M>(pub M);

impl<M: Memory> Chunks<M> {
    /// Grows the memory by at least `bytes` (a multiple of [`PAGE`]): the address where the
    /// new part starts and its length.
    fn grow_by(&mut self, bytes: usize) -> Option<(usize, usize)> {
        let needed = bytes.div_ceil(PAGE);
        let wanted = needed.max(CHUNK / PAGE);
        let (before, pages) = match self.0.grow(wanted) {
            Some(before) => (before, wanted),
            None => (self.0.grow(needed)?, needed),
        };
        Some((before.checked_mul(PAGE)?, pages.checked_mul(PAGE)?))
    }
}

// SAFETY: the blocks handed out are pages the memory just grew by, which nothing else owns; a
// block grows in place only where it ends at the memory's end, into pages just grown.
#[allow(unsafe_code)]
unsafe impl<M: Memory> FlexSource for Chunks<M> {
    unsafe fn alloc(&mut self, min_size: usize) -> Option<NonNull<[u8]>> {
        let (start, len) = self.grow_by(min_size)?;
        let start = NonNull::new(start as *mut u8)?;
        Some(NonNull::slice_from_raw_parts(start, len))
    }

    unsafe fn realloc_inplace_grow(
        &mut self,
        block: NonNull<[u8]>,
        min_new_len: usize,
    ) -> Option<usize> {
        let start = block.cast::<u8>().as_ptr() as usize;
        let end = start.checked_add(block.len())?;
        // Something else (another allocator, the host) may have grown the memory past it.
        if end != self.0.pages().checked_mul(PAGE)? {
            return None;
        }
        let more = min_new_len.checked_sub(block.len())?;
        let (_, len) = self.grow_by(more)?;
        Some(block.len() + len)
    }

    fn supports_realloc_inplace_grow(&self) -> bool {
        true
    }

    fn min_align(&self) -> usize {
        PAGE
    }
}

type Tlsf<M> =
    FlexTlsf<Chunks<M>, usize, usize, { usize::BITS as usize }, { usize::BITS as usize }>;

/// TLSF on `M` grown by chunks, as a global allocator for a single thread (see the module docs).
pub struct ChunkedTlsf<M: Memory>(UnsafeCell<Tlsf<M>>);

impl<M: Memory> ChunkedTlsf<M> {
    pub const fn new(memory: M) -> ChunkedTlsf<M> {
        ChunkedTlsf(UnsafeCell::new(FlexTlsf::new(Chunks(memory))))
    }
}

// SAFETY: without threads nothing can reach the allocator from two threads at once; the impl is
// only there so that a `static` can hold it on such a target.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[allow(unsafe_code)]
unsafe impl<M: Memory> Sync for ChunkedTlsf<M> {}

#[allow(unsafe_code)]
// SAFETY: each call has the allocator to itself (a single thread, and no call re-enters it);
// the blocks and layouts are the caller's, passed on as `FlexTlsf` asks.
unsafe impl<M: Memory> GlobalAlloc for ChunkedTlsf<M> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let tlsf = &mut *self.0.get();
        tlsf.allocate(layout).map_or(ptr::null_mut(), NonNull::as_ptr)
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        if let Some(block) = NonNull::new(block) {
            (*self.0.get()).deallocate(block, layout.align());
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let Some(block) = NonNull::new(block) else { return ptr::null_mut() };
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        (*self.0.get()).reallocate(block, new_layout).map_or(ptr::null_mut(), NonNull::as_ptr)
    }
}

#[cfg(test)]
#[allow(unsafe_code)]
mod tests {
    use super::*;

    /// A memory of up to `limit` pages inside one block of the system's allocator.
    struct Fake {
        base: *mut u8,
        pages: usize,
        limit: usize,
        growths: Vec<usize>,
    }

    impl Fake {
        fn new(limit: usize) -> Fake {
            let layout = Layout::from_size_align(limit * PAGE, PAGE).expect("a layout");
            // SAFETY: a non-zero size; freed in `drop` with the same layout.
            let base = unsafe { std::alloc::alloc(layout) };
            assert!(!base.is_null());
            Fake { base, pages: 0, limit, growths: Vec::new() }
        }
    }

    impl Drop for Fake {
        fn drop(&mut self) {
            let layout = Layout::from_size_align(self.limit * PAGE, PAGE).expect("a layout");
            // SAFETY: made in `new` with this layout.
            unsafe { std::alloc::dealloc(self.base, layout) };
        }
    }

    // The addresses `Chunks` computes are the fake's pages, offset by its base: page `p` of the
    // fake is at `base + p * PAGE`, and its size counts from address 0, as wasm's does.
    impl Memory for Fake {
        fn pages(&self) -> usize {
            self.base as usize / PAGE + self.pages
        }

        fn grow(&mut self, pages: usize) -> Option<usize> {
            if self.pages + pages > self.limit {
                return None;
            }
            let before = self.pages();
            self.pages += pages;
            self.growths.push(pages);
            Some(before)
        }
    }

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).expect("a valid layout")
    }

    /// Many blocks, growing and shrinking, keep their bytes and never overlap, and the memory
    /// grew by chunks: a few growths for tens of megabytes.
    #[test]
    fn blocks_keep_their_bytes_and_the_memory_grows_by_chunks() {
        let a = ChunkedTlsf::new(Fake::new(2048));
        let mut live: Vec<(*mut u8, Layout, u8)> = Vec::new();
        let mut next = crate::xorshift(0x9e37_79b9_7f4a_7c15);
        for round in 0..30_000u32 {
            let op = next() % 4;
            if op < 2 || live.is_empty() {
                let size = 1 + (next() as usize % 8_000);
                let l = layout(size, [1, 8, 16, 64][next() as usize % 4]);
                // SAFETY: a non-zero size; filled within it.
                let p = unsafe { a.alloc(l) };
                assert!(!p.is_null() && (p as usize).is_multiple_of(l.align()));
                unsafe { ptr::write_bytes(p, round as u8, size) };
                live.push((p, l, round as u8));
            } else {
                let (p, l, fill) = live.swap_remove(next() as usize % live.len());
                // SAFETY: each block is live and `l.size()` bytes long.
                let bytes = unsafe { std::slice::from_raw_parts(p, l.size()) };
                assert!(bytes.iter().all(|b| *b == fill), "a block lost its bytes");
                if op == 2 {
                    unsafe { a.dealloc(p, l) };
                } else {
                    let new_size = 1 + (next() as usize % 16_000);
                    // SAFETY: live, with its layout; filled within the new size.
                    let q = unsafe { a.realloc(p, l, new_size) };
                    assert!(!q.is_null());
                    let kept = unsafe { std::slice::from_raw_parts(q, l.size().min(new_size)) };
                    assert!(kept.iter().all(|b| *b == fill), "a moved block lost its bytes");
                    unsafe { ptr::write_bytes(q, fill, new_size) };
                    live.push((q, layout(new_size, l.align()), fill));
                }
            }
        }
        let mut ranges: Vec<(usize, usize)> =
            live.iter().map(|(p, l, _)| (*p as usize, *p as usize + l.size())).collect();
        ranges.sort();
        assert!(ranges.windows(2).all(|w| w[0].1 <= w[1].0), "overlapping blocks");
        let used: usize = live.iter().map(|(_, l, _)| l.size()).sum();
        // SAFETY: the allocator is not in use here.
        let fake = unsafe { &(*a.0.get()).source_ref().0 };
        assert!(used > 2 * CHUNK, "{used} bytes live");
        assert!(fake.growths.len() > 1, "{:?}", fake.growths);
        assert!(fake.growths.iter().all(|g| *g >= CHUNK / PAGE), "{:?}", fake.growths);
        for (p, l, _) in live {
            unsafe { a.dealloc(p, l) };
        }
    }

    /// Near the memory's limit a growth takes just what the block needs.
    #[test]
    fn near_its_limit_the_memory_grows_by_what_is_needed() {
        let chunk = CHUNK / PAGE;
        let a = ChunkedTlsf::new(Fake::new(chunk + 16));
        let (big, small) = (layout(CHUNK - PAGE, 8), layout(4 * PAGE, 8));
        // SAFETY: non-zero sizes, freed with their layouts.
        let first = unsafe { a.alloc(big) };
        assert!(!first.is_null());
        let second = unsafe { a.alloc(small) };
        assert!(!second.is_null(), "the last pages serve a block");
        let fake = unsafe { &(*a.0.get()).source_ref().0 };
        assert_eq!(fake.growths.len(), 2, "{:?}", fake.growths);
        // The first block takes a chunk and a little (TLSF rounds a request up to its class).
        assert!(fake.growths[0] >= chunk && fake.growths[1] < 16, "{:?}", fake.growths);
        let third = unsafe { a.alloc(layout(16 * PAGE, 8)) };
        assert!(third.is_null(), "past the limit, no block");
        unsafe {
            a.dealloc(first, big);
            a.dealloc(second, small);
        }
    }
}
