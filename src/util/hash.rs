//! The one fast hasher of the crate, for maps whose keys come from the configuration, state
//! or graph being processed (never from an adversary that could choose collisions).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-style multiply-xor hashing for the build's own string and id maps: their keys come
/// from the configuration and state being built, not from an adversary, and SipHash costs
/// several times more per key.
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // `split_first_chunk`, not `chunks_exact` + `try_into`: no iterator state and no panic
        // path, which the wasm module (built for size) did not inline: this was a sixth of
        // ProviderTransformer's time at 100,000 resources. Same values.
        let mut h = self.0;
        let mut rest = bytes;
        while let Some((c, r)) = rest.split_first_chunk::<8>() {
            h = (h ^ u64::from_le_bytes(*c)).wrapping_mul(0x100_0000_01b3).rotate_left(29);
            rest = r;
        }
        for &b in rest {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        self.0 = h;
    }
    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0 ^ u64::from(i)).wrapping_mul(0x100_0000_01b3);
    }
    fn write_u32(&mut self, i: u32) {
        self.0 = (self.0 ^ u64::from(i)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0 ^ i).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn finish(&self) -> u64 {
        // Fold the high bits down: hash tables index by the low ones.
        self.0 ^ (self.0 >> 32)
    }
}

pub type FastBuild = BuildHasherDefault<FastHasher>;
/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, FastBuild>;
/// A `HashSet` with [`FastHasher`].
pub type FastSet<K> = HashSet<K, FastBuild>;

#[cfg(test)]
mod tests {
    use super::*;

    /// The values every map's iteration order depends on: the word-at-a-time loop gives what
    /// the plain per-chunk definition gives, for every length around the 8-byte steps.
    #[test]
    fn write_matches_its_definition() {
        fn reference(seed: u64, bytes: &[u8]) -> u64 {
            let mut h = seed;
            let mut chunks = bytes.chunks_exact(8);
            for c in &mut chunks {
                let mut w = [0u8; 8];
                w.copy_from_slice(c);
                h = (h ^ u64::from_le_bytes(w)).wrapping_mul(0x100_0000_01b3).rotate_left(29);
            }
            for &b in chunks.remainder() {
                h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
            h
        }
        let text: Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(37).wrapping_add(11)).collect();
        for len in 0..text.len() {
            for seed in [0, 0x9E37_79B9_7F4A_7C15] {
                let mut h = FastHasher(seed);
                h.write(&text[..len]);
                assert_eq!(h.0, reference(seed, &text[..len]), "length {len}");
            }
        }
    }
}
