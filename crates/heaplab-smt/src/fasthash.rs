//! A fast, non-keyed hash for the tables the solver layer builds on every query (the literal
//! numbering of [`crate::lia`], the per-conjunct simplification memo and the duplicate check of
//! [`crate::term`]).
//!
//! Why not the standard library's: its SipHash resists hash flooding, which matters for
//! untrusted keys; these keys are terms the engine built, and SipHash costs several times more
//! per word (measured: a tenth of symheap's solver time went to hashing terms). Every table
//! that uses it still compares keys for equality, so a collision costs time, never an answer.

/// A multiplicative hash (one rotate, xor and multiply per word) for the procedure's own tables.
#[derive(Default, Clone, Copy)]
pub struct BuildFast;

impl std::hash::BuildHasher for BuildFast {
    type Hasher = FastHasher;
    fn build_hasher(&self) -> FastHasher {
        FastHasher(0)
    }
}

pub struct FastHasher(u64);

impl FastHasher {
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for FastHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.mix(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.mix(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.mix(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.mix(i as u64);
    }
    fn write_i128(&mut self, i: i128) {
        self.mix(i as u64);
        self.mix((i >> 64) as u64);
    }
}
