//! Our decoder behind a deserializer, found for a type read whole
//! (`de/whole.rs`): when the bytes at the reader are in the type's
//! pattern and the limits the serde path applies to them allow it, the
//! value is read from them at once; otherwise nothing is read and the
//! serde path decodes the value and reports every error, at its offset.
//! So a value, and every error, are the serde path's, which
//! `tests/tests/derive_whole.rs` checks.

use std::marker::PhantomData;

use super::ours::{on_our_decoder, OnDecoder};
use super::Decoder;
use crate::de::direct::{Counts, DirectReader};
use crate::de::whole::Whole;

impl<M> Decoder<'_, M> {
    /// A `T` read whole from the bytes at the reader, when they are in
    /// its pattern and the limits allow what the serde path would charge
    /// for them (see `DirectReader::whole`); otherwise `None`, nothing
    /// read. A human-readable decoder's serde path may read keys by name:
    /// it takes that path.
    #[inline(always)]
    fn whole<T: Whole>(&mut self) -> Option<T> {
        if self.human_readable {
            return None;
        }
        let mut counts = Counts {
            depth_left: self.depth_left,
            values_left: self.values_left,
            owed: self.owed,
        };
        let rest = self.reader.remaining();
        let mut reader = DirectReader {
            rest,
            counts: &mut counts,
        };
        let value = reader.whole()?;
        let left = reader.rest.len();
        self.reader.consume(rest.len() - left);
        self.values_left = counts.values_left;
        Some(value)
    }
}

/// What a derived type read whole calls first: the value read whole
/// when `deserializer` is our decoder and the bytes at its reader allow
/// it (see `Decoder::whole`); `None`, nothing read, otherwise.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn read_whole<D, T: Whole + 'static>(deserializer: &mut D) -> Option<T> {
    on_our_decoder(deserializer, ReadWhole(PhantomData))
}

/// `Decoder::whole` for a `T`.
struct ReadWhole<T>(PhantomData<T>);

impl<T: Whole + 'static> OnDecoder for ReadWhole<T> {
    type Output = T;

    #[inline(always)]
    fn on<M>(self, decoder: &mut Decoder<'_, M>) -> Option<T> {
        decoder.whole()
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Deserializer};

    use super::read_whole;
    use crate::de::whole::{Layout, Whole, WholeBytes};
    use crate::Limits;

    /// Which way a value was read.
    #[derive(Debug, PartialEq)]
    enum Path {
        Whole,
        Serde,
    }

    /// Two floats, `[a, b]`: read whole by our decoder when it can, by
    /// serde's tuple otherwise, and saying which.
    #[derive(Debug, PartialEq)]
    struct Pair(Path, f32, f32);

    impl Whole for Pair {
        fn layout() -> Option<Layout> {
            Layout::array(2)
                .field(f32::layout())?
                .field(f32::layout())?
                .finish()
        }

        fn read(bytes: &mut WholeBytes<'_>) -> Option<Self> {
            bytes.byte(0x92)?;
            Some(Pair(Path::Whole, f32::read(bytes)?, f32::read(bytes)?))
        }
    }

    impl<'de> Deserialize<'de> for Pair {
        fn deserialize<D: Deserializer<'de>>(mut deserializer: D) -> Result<Self, D::Error> {
            if let Some(pair) = read_whole(&mut deserializer) {
                return Ok(pair);
            }
            let (a, b) = <(f32, f32)>::deserialize(deserializer)?;
            Ok(Pair(Path::Serde, a, b))
        }
    }

    /// `[1.0, 2.0]` as our encoder writes it.
    const PAIR: [u8; 11] = [0x92, 0xca, 0x3f, 0x80, 0, 0, 0xca, 0x40, 0, 0, 0];

    fn with_limits<'de, T: Deserialize<'de>>(bytes: &'de [u8], limits: Limits) -> crate::Result<T> {
        crate::de::from_slice_with_limits(bytes, limits)
    }

    #[test]
    fn the_layout_counts_what_the_serde_path_charges() {
        let pair = Pair::layout().unwrap();
        assert_eq!(
            (pair.len(), pair.values(), pair.depth(), pair.reach()),
            (11, 2, 1, 3)
        );
        // `{1: [a, b], 300: [c, d]}`: the map's header reaches 1 + 4;
        // the first pair's, 3 + 2 + the map's 2 still owed (key 300 and
        // its pair) = 7; the second pair's, 17 + 2 = 19, the most.
        let map = Layout::map(2)
            .key(1)
            .field(Some(pair))
            .unwrap()
            .key(300)
            .field(Some(pair))
            .unwrap()
            .finish()
            .unwrap();
        assert_eq!(
            (map.len(), map.values(), map.depth()),
            (1 + 1 + 11 + 3 + 11, 4 + 2 + 2, 2)
        );
        assert_eq!(map.reach(), 19);
        // With a float for the second field, the first pair's header is
        // the tightest.
        let first = Layout::map(2)
            .key(1)
            .field(Some(pair))
            .unwrap()
            .key(2)
            .field(f32::layout())
            .unwrap()
            .finish()
            .unwrap();
        assert_eq!(first.reach(), 7);
        // Items that do not fill the header: no layout.
        let short = Layout::map(2).key(1).field(Some(pair)).unwrap();
        assert_eq!(short.finish(), None);
        assert_eq!(Layout::array(1).finish(), None);
    }

    #[test]
    fn our_decoder_hands_over_the_bytes() {
        let pair: Pair = crate::from_slice(&PAIR).unwrap();
        assert_eq!(pair, Pair(Path::Whole, 1.0, 2.0));
        let bytes = [&[0x92][..], &PAIR, &PAIR].concat();
        let pairs: Vec<Pair> = crate::from_slice(&bytes).unwrap();
        assert_eq!(
            pairs,
            [Pair(Path::Whole, 1.0, 2.0), Pair(Path::Whole, 1.0, 2.0)]
        );
        // From a reader, the decoder over each framed value copies.
        let bytes = [&[0x91][..], &PAIR].concat();
        let pairs: Vec<Pair> = crate::from_reader(&bytes[..]).unwrap();
        assert_eq!(pairs, [Pair(Path::Whole, 1.0, 2.0)]);
        // At the front of a stream's buffer, with the bytes it took.
        let bytes = [&PAIR[..], &[0xc0]].concat();
        let mut len = 0;
        let pair: Pair = crate::de::from_slice_front(&bytes, Limits::default(), &mut len).unwrap();
        assert_eq!((pair, len), (Pair(Path::Whole, 1.0, 2.0), PAIR.len()));
    }

    #[test]
    fn other_bytes_and_other_deserializers_take_the_serde_path() {
        // A float as an integer.
        let pair: Pair = crate::from_slice(&[0x92, 0x01, 0xca, 0x40, 0, 0, 0]).unwrap();
        assert_eq!(pair, Pair(Path::Serde, 1.0, 2.0));
        let pair: Pair = serde_json::from_str("[1, 2]").unwrap();
        assert_eq!(pair, Pair(Path::Serde, 1.0, 2.0));
        // A human-readable decoder.
        let bytes = [&[0x91][..], &PAIR].concat();
        let mut de = crate::Deserializer::from_slice(&bytes).human_readable(true);
        let pairs = Vec::<Pair>::deserialize(&mut de).unwrap();
        assert_eq!(pairs, [Pair(Path::Serde, 1.0, 2.0)]);
        // Too short to hold the pattern: the serde path reports the end.
        let error = crate::from_slice::<Pair>(&PAIR[..10]).unwrap_err();
        assert_eq!(error.to_string(), "unexpected end of input at offset 10");
    }

    #[test]
    fn a_read_the_limits_refuse_is_the_serde_paths_error() {
        // Depth: the pair is one level below the vector.
        let bytes = [&[0x91][..], &PAIR].concat();
        let error = with_limits::<Vec<Pair>>(&bytes, Limits::default().max_depth(1)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "nesting exceeds the depth limit of 1 at offset 1"
        );
        let pairs = with_limits::<Vec<Pair>>(&bytes, Limits::default().max_depth(2)).unwrap();
        assert_eq!(pairs, [Pair(Path::Whole, 1.0, 2.0)]);
        // Values: the pair is three of them.
        let error = with_limits::<Pair>(&PAIR, Limits::default().max_values(2)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "more values than the limit of 2 at offset 0"
        );
        let pair = with_limits::<Pair>(&PAIR, Limits::default().max_values(3)).unwrap();
        assert_eq!(pair, Pair(Path::Whole, 1.0, 2.0));
        // What the enclosing array still owes must fit beside the pair's
        // two elements in the ten bytes after its header: eight do (the
        // pair is read, then the array ends short), nine do not (the
        // serde path stops at the pair's header), and either way the
        // error is the serde path's.
        for declared in 8..=11 {
            let bytes = [&[0xdc, 0x00, declared][..], &PAIR].concat();
            let error = crate::from_slice::<Vec<Pair>>(&bytes).unwrap_err();
            let serde_error = crate::from_slice::<Vec<(f32, f32)>>(&bytes).unwrap_err();
            assert_eq!(error.to_string(), serde_error.to_string());
            assert_eq!(error.to_string(), "unexpected end of input at offset 14");
        }
    }
}
