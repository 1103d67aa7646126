//! The hasher of the connection's maps: FNV-1a, unkeyed.
//!
//! std's SipHash is keyed against inputs chosen to collide, which costs
//! about 150 instructions a lookup, two lookups a call. These maps need no
//! key: the peer never chooses what goes in them. Msgids are ours, and
//! method names are registered by the server's code; the peer's names are
//! only looked up, and a lookup visits one group of entries, however the
//! name hashes.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A map hashed with [`Fnv`].
pub(crate) type FnvMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;

/// FNV-1a, 64-bit.
pub(crate) struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn hashes_as_fnv_1a() {
        // The published FNV-1a 64 test vectors.
        let fnv = |bytes: &[u8]| {
            let mut hasher = Fnv::default();
            hasher.write(bytes);
            hasher.finish()
        };
        assert_eq!(fnv(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv(b"foobar"), 0x8594_4171_f739_67e8);
        // Consecutive msgids land apart (hashbrown takes the top 7 bits
        // as a tag, the low ones for the bucket).
        let build = BuildHasherDefault::<Fnv>::default();
        let (a, b) = (build.hash_one(1u32), build.hash_one(2u32));
        assert_ne!(a >> 57, b >> 57);
        assert_ne!(a & 0xff, b & 0xff);
    }
}
