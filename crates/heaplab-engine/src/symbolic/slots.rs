//! A few thousand slots in front of a hash table, each holding the entry last found there.
//!
//! Why: a run asks its tree for the same few thousand labels and places once per node, millions
//! of times; in wasm each hash table lookup (its probing) cost more than the rest of keeping the
//! node. A slot, picked by the key's hash, is one comparison; the table behind it answers only
//! when the slot holds another key.

use std::hash::{Hash, Hasher};

/// The last value found for a key, in one of [`Slots::LEN`] slots by the key's hash.
pub struct Slots<K, V> {
    slots: Vec<Option<(K, V)>>,
}

impl<K, V> Default for Slots<K, V> {
    fn default() -> Self {
        Slots { slots: Vec::new() }
    }
}

impl<K: Copy + Eq + Hash, V: Copy> Slots<K, V> {
    const BITS: u32 = 12;
    pub const LEN: usize = 1 << Self::BITS;

    /// The value put last for `key`, if its slot still holds it.
    pub fn get(&self, key: &K) -> Option<V> {
        match self.slots.get(Self::slot(key)) {
            Some(Some((seen, value))) if seen == key => Some(*value),
            _ => None,
        }
    }

    /// Remembers `value` for `key`, in place of whatever its slot held.
    pub fn put(&mut self, key: K, value: V) {
        if self.slots.is_empty() {
            self.slots.resize(Self::LEN, None);
        }
        let slot = Self::slot(&key);
        self.slots[slot] = Some((key, value));
    }

    /// The top bits of the key's hash ([`Mix`]), which mix all of it.
    fn slot(key: &K) -> usize {
        let mut mix = Mix::default();
        key.hash(&mut mix);
        (mix.0 >> (32 - Self::BITS)) as usize
    }
}

/// FxHash's mixing on 32 bits, the same natively and in wasm: `rustc_hash`'s hasher is as wide
/// as a `usize`, so the top bits of its 64-bit result are all zero in wasm.
#[derive(Default)]
struct Mix(u32);

impl Mix {
    fn add(&mut self, word: u32) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x9E37_79B9);
    }
}

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(4) {
            let mut word = [0u8; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u32::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(n.into());
    }

    fn write_u32(&mut self, n: u32) {
        self.add(n);
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n as u32);
        self.add((n >> 32) as u32);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A slot answers for the key put last in it, and for no other key.
    #[test]
    fn a_slot_answers_for_its_last_key_only() {
        let mut slots: Slots<(u32, u32), u32> = Slots::default();
        assert_eq!(slots.get(&(1, 2)), None);
        let keys: Vec<(u32, u32)> =
            (0..3 * Slots::<(u32, u32), u32>::LEN as u32).map(|i| (i, i.wrapping_mul(7))).collect();
        for (i, key) in keys.iter().enumerate() {
            slots.put(*key, i as u32);
            assert_eq!(slots.get(key), Some(i as u32));
        }
        // More keys than slots: some were replaced, and none answers with another's value.
        let kept = keys.iter().enumerate().filter(|(i, k)| {
            let got = slots.get(k);
            assert!(got.is_none() || got == Some(*i as u32), "{k:?}: {got:?}");
            got.is_some()
        });
        // Spread over the slots: thrice as many keys as slots leave most slots holding one.
        let kept = kept.count();
        let len = Slots::<(u32, u32), u32>::LEN;
        assert!(kept > len / 2 && kept <= len, "{kept} of {len} slots");
    }
}
