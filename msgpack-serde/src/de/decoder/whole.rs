//! Whole structs read at once: a struct of floats that `#[derive(MsgPack)]`
//! reads from the bytes our encoder writes for it (a fixed pattern of
//! header, keys and markers around the floats' bytes), with one bounds
//! check, when the decoder is ours; anything else goes through serde.
//!
//! The limits are those the serde path applies to the same container
//! (depth, values, the owed count), checked, not charged differently:
//! when one would fail, the whole read declines and the serde path
//! reports the error, at its offset. So a value, and every error, are
//! the serde path's, which `tests/tests/derive_whole.rs` checks.
//!
//! This module holds the cast that finds our decoder behind the
//! deserializer's type.

#![allow(unsafe_code)]

use super::{Borrowed, Copied, Decoder};

impl<M> Decoder<'_, M> {
    /// The container of `values` values (map keys and values, or array
    /// elements) at the reader, read by `read` from its `L` bytes, when
    /// they are there, the limits allow it and `read` takes them;
    /// otherwise `None`, nothing read.
    #[inline(always)]
    fn whole<T, const L: usize>(
        &mut self,
        values: u32,
        read: impl FnOnce(&[u8; L]) -> Option<T>,
    ) -> Option<T> {
        let rest = self.reader.remaining();
        let bytes = rest.first_chunk::<L>()?;
        // `open`'s checks, after a one-byte header: one more level, the
        // values within the value limit, and within what the rest of the
        // input could hold beside what enclosing containers still owe.
        // Reading the container pays back what it claims, so only the
        // value limit is charged.
        let values_fit = values as usize <= self.values_left;
        let owed_fit = self.owed.claimed(values as u64, rest.len() - 1).is_some();
        if self.depth_left == 0 || !values_fit || !owed_fit {
            return None;
        }
        let value = read(bytes)?;
        self.reader.consume(L);
        self.values_left -= values as usize;
        Some(value)
    }
}

/// What a derived struct of floats calls first: `read` given the `L`
/// bytes at the reader when `deserializer` is our decoder (borrowing or
/// copying) and the container they start (of `values` values) is within
/// its limits, its value returned and the bytes consumed when `read`
/// takes them; `None`, nothing read, otherwise.
#[inline(always)]
pub fn read_whole<D, T, const L: usize>(
    deserializer: &mut D,
    values: u32,
    read: impl FnOnce(&[u8; L]) -> Option<T>,
) -> Option<T> {
    // The type tests are constants: all but the one that holds fold away.
    let id = typeid::of::<D>();
    if id == typeid::of::<&mut Decoder<'_, Borrowed>>() {
        // SAFETY: `D` is `&'x mut Decoder<'a, Borrowed>` for some `'x`
        // and `'a`: the ids are equal, and they differ only in
        // lifetimes. The cast names others, but nothing borrowed leaves
        // this call: `read` sees the bytes for its duration and gives
        // back a `T` that cannot borrow them (it is chosen by the
        // caller, for any lifetime of the bytes), and only counts and
        // the position are written.
        let decoder =
            unsafe { &mut **(deserializer as *mut D).cast::<&mut Decoder<'_, Borrowed>>() };
        decoder.whole(values, read)
    } else if id == typeid::of::<&mut Decoder<'_, Copied>>() {
        // SAFETY: as above, for `Copied`.
        let decoder = unsafe { &mut **(deserializer as *mut D).cast::<&mut Decoder<'_, Copied>>() };
        decoder.whole(values, read)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Deserializer};

    use super::read_whole;
    use crate::Limits;

    /// Which way a value was read.
    #[derive(Debug, PartialEq)]
    enum Path {
        Whole,
        Serde,
    }

    /// Two small integers, read whole when they are `[a, b]` as two
    /// fixints, through serde otherwise.
    #[derive(Debug, PartialEq)]
    struct Pair(Path, u8, u8);

    impl<'de> Deserialize<'de> for Pair {
        fn deserialize<D: Deserializer<'de>>(mut deserializer: D) -> Result<Self, D::Error> {
            let whole = read_whole::<_, _, 3>(&mut deserializer, 2, |bytes| match *bytes {
                [0x92, a @ 0..=0x7f, b @ 0..=0x7f] => Some((a, b)),
                _ => None,
            });
            if let Some((a, b)) = whole {
                return Ok(Pair(Path::Whole, a, b));
            }
            let (a, b) = <(u8, u8)>::deserialize(deserializer)?;
            Ok(Pair(Path::Serde, a, b))
        }
    }

    fn with_limits<'de, T: Deserialize<'de>>(bytes: &'de [u8], limits: Limits) -> crate::Result<T> {
        crate::de::from_slice_with_limits(bytes, limits)
    }

    #[test]
    fn our_decoder_hands_over_the_bytes() {
        let pair: Pair = crate::from_slice(&[0x92, 0x01, 0x02]).unwrap();
        assert_eq!(pair, Pair(Path::Whole, 1, 2));
        let pairs: Vec<Pair> =
            crate::from_slice(&[0x92, 0x92, 0x01, 0x02, 0x92, 0x03, 0x04]).unwrap();
        assert_eq!(pairs, [Pair(Path::Whole, 1, 2), Pair(Path::Whole, 3, 4)]);
        // From a reader, the decoder over each framed value copies.
        let input: &[u8] = &[0x91, 0x92, 0x05, 0x06];
        let pairs: Vec<Pair> = crate::from_reader(input).unwrap();
        assert_eq!(pairs, [Pair(Path::Whole, 5, 6)]);
    }

    #[test]
    fn other_bytes_and_other_deserializers_take_the_serde_path() {
        let pair: Pair = crate::from_slice(&[0x92, 0xcc, 0x80, 0x02]).unwrap();
        assert_eq!(pair, Pair(Path::Serde, 0x80, 2));
        let pair: Pair = serde_json::from_str("[1, 2]").unwrap();
        assert_eq!(pair, Pair(Path::Serde, 1, 2));
        // Too short to hold the pattern: the serde path reports the end.
        let error = crate::from_slice::<Pair>(&[0x92, 0x01]).unwrap_err();
        assert_eq!(error.to_string(), "unexpected end of input at offset 2");
    }

    #[test]
    fn a_read_the_limits_refuse_is_the_serde_paths_error() {
        // Depth: the pair is one level below the vector.
        let bytes = [0x91, 0x92, 0x01, 0x02];
        let error = with_limits::<Vec<Pair>>(&bytes, Limits::default().max_depth(1)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "nesting exceeds the depth limit of 1 at offset 1"
        );
        let pairs = with_limits::<Vec<Pair>>(&bytes, Limits::default().max_depth(2)).unwrap();
        assert_eq!(pairs, [Pair(Path::Whole, 1, 2)]);
        // Values: the pair is three of them.
        let bytes = [0x92, 0x01, 0x02];
        let error = with_limits::<Pair>(&bytes, Limits::default().max_values(2)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "more values than the limit of 2 at offset 0"
        );
        let pair = with_limits::<Pair>(&bytes, Limits::default().max_values(3)).unwrap();
        assert_eq!(pair, Pair(Path::Whole, 1, 2));
        // What the enclosing array still owes must fit beside the pair:
        // three elements declared, one pair's bytes given.
        let bytes = [0x93, 0x92, 0x01, 0x02];
        let error = crate::from_slice::<Vec<Pair>>(&bytes).unwrap_err();
        let serde_error = crate::from_slice::<Vec<(u8, u8)>>(&bytes).unwrap_err();
        assert_eq!(error.to_string(), serde_error.to_string());
        assert_eq!(error.to_string(), "unexpected end of input at offset 4");
    }
}
