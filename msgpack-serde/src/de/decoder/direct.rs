//! Our decoder behind a deserializer, found for a type read directly
//! (`de/direct.rs`): the type reads itself from the rest of the input and
//! a copy of the limit counts, taken back when it succeeds; when it gives up,
//! nothing is read and the serde path decodes the value and reports
//! every error, at its offset. So a value, and every error, are the serde
//! path's, which `tests/tests/derive_direct_read.rs` checks.

use std::marker::PhantomData;

use super::ours::{on_our_decoder, OnDecoder};
use super::Decoder;
use crate::de::direct::{Counts, DirectRead, DirectReader};

impl<M> Decoder<'_, M> {
    /// Tries no direct read before `offset`, where one over the same
    /// input gave up (a slice [`Deserializer`](crate::Deserializer)'s
    /// value, tried directly by a decoder of its own: `ours.rs`).
    #[inline]
    pub(crate) fn direct_from(mut self, offset: usize) -> Self {
        self.direct_from = offset;
        self
    }

    /// Where a direct read gave up, or 0.
    #[inline]
    pub(super) fn gave_up_at(&self) -> usize {
        self.direct_from
    }

    /// A `T` read directly from the reader when it takes the bytes there;
    /// otherwise `None`, nothing read.
    ///
    /// A read is not tried where one gave up past its start: the serde
    /// path that reads that value again reaches the values inside it, and
    /// each that holds the place where the read gave up would give up
    /// there again (those that end before it are not tried either, which
    /// keeps the rule one comparison). So the direct reads of a decode
    /// go over each byte at most once, besides the serde path's reads,
    /// whatever the input.
    #[inline(always)]
    fn direct<T: DirectRead>(&mut self) -> Option<T> {
        if self.human_readable || self.reader.position() < self.direct_from {
            return None;
        }
        let mut counts = Counts {
            depth_left: self.depth_left,
            values_left: self.values_left,
            owed: self.owed,
        };
        let rest = self.reader.remaining();
        let (value, left) = read_value(rest, &mut counts);
        let Some(value) = value else {
            self.direct_from = self.reader.input().len() - left;
            return None;
        };
        // A value read directly closes the containers it opens, each
        // close setting the owed count back to what it was before.
        debug_assert_eq!(
            (counts.owed, counts.depth_left),
            (self.owed, self.depth_left)
        );
        self.reader.consume(rest.len() - left);
        self.values_left = counts.values_left;
        Some(value)
    }
}

/// `T` read directly from `rest`, in one function of its own whatever
/// the deserializer (types read directly inline their fields' reads, and
/// each other's); and how many bytes are left where the read stopped.
#[inline(never)]
fn read_value<T: DirectRead>(rest: &[u8], counts: &mut Counts) -> (Option<T>, usize) {
    let mut reader = DirectReader { rest, counts };
    let value = T::read_direct(&mut reader);
    (value, reader.rest.len())
}

/// What a derived type read directly calls first: the value read
/// directly when `deserializer` is our decoder and the bytes at its
/// reader allow it (see `Decoder::direct`); `None`, nothing read,
/// otherwise. Inlined always only when optimized: a debug build would
/// keep its locals in the frame of the `deserialize` it is called from,
/// at every level of a recursive type's serde path.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn read_direct<D, T: DirectRead + 'static>(deserializer: &mut D) -> Option<T> {
    if !T::reads_direct() {
        return None;
    }
    on_our_decoder(deserializer, ReadDirect(PhantomData))
}

/// `Decoder::direct` for a `T`.
struct ReadDirect<T>(PhantomData<T>);

impl<T: DirectRead + 'static> OnDecoder for ReadDirect<T> {
    type Output = T;

    #[inline(always)]
    fn on<M>(self, decoder: &mut Decoder<'_, M>) -> Option<T> {
        decoder.direct()
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use serde::{Deserialize, Deserializer};

    use super::read_direct;
    use crate::de::direct::{DirectRead, DirectReader};

    /// Which way a value was read.
    #[derive(Debug, PartialEq)]
    enum Path {
        Direct,
        Serde,
    }

    thread_local! {
        /// The direct reads of a `Probe` tried on this thread.
        static TRIED: Cell<usize> = const { Cell::new(0) };
    }

    /// A byte: read directly from a positive fixint alone, through serde
    /// from any integer; saying which.
    #[derive(Debug, PartialEq)]
    struct Probe(Path, u8);

    impl DirectRead for Probe {
        fn reads_direct() -> bool {
            true
        }

        fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<Probe> {
            TRIED.set(TRIED.get() + 1);
            let (&byte, rest) = reader.rest.split_first()?;
            if byte > 0x7f {
                return None;
            }
            reader.rest = rest;
            Some(Probe(Path::Direct, byte))
        }
    }

    impl<'de> Deserialize<'de> for Probe {
        fn deserialize<D: Deserializer<'de>>(mut deserializer: D) -> Result<Self, D::Error> {
            if let Some(probe) = read_direct(&mut deserializer) {
                return Ok(probe);
            }
            Ok(Probe(Path::Serde, u8::deserialize(deserializer)?))
        }
    }

    /// Probes in an array, read directly as one when they all are.
    #[derive(Debug, PartialEq)]
    struct Probes(Vec<Probe>);

    impl DirectRead for Probes {
        fn reads_direct() -> bool {
            true
        }

        fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<Probes> {
            Vec::read_direct(reader).map(Probes)
        }
    }

    impl<'de> Deserialize<'de> for Probes {
        fn deserialize<D: Deserializer<'de>>(mut deserializer: D) -> Result<Self, D::Error> {
            if let Some(probes) = read_direct(&mut deserializer) {
                return Ok(probes);
            }
            Vec::deserialize(deserializer).map(Probes)
        }
    }

    #[test]
    fn our_decoder_reads_directly_what_it_can() {
        let probe: Probe = crate::from_slice(&[0x05]).unwrap();
        assert_eq!(probe, Probe(Path::Direct, 5));
        let probe: Probe = crate::from_slice(&[0xcc, 0x05]).unwrap();
        assert_eq!(probe, Probe(Path::Serde, 5));
        let probes: Probes = crate::from_reader(&[0x91, 0x07][..]).unwrap();
        assert_eq!(probes, Probes(vec![Probe(Path::Direct, 7)]));
        // Another deserializer, or a human-readable one: serde.
        let probe: Probe = serde_json::from_str("5").unwrap();
        assert_eq!(probe, Probe(Path::Serde, 5));
        let mut de = crate::Deserializer::from_slice(&[0x05]).human_readable(true);
        assert_eq!(Probe::deserialize(&mut de).unwrap(), Probe(Path::Serde, 5));
    }

    #[test]
    fn no_direct_read_is_tried_again_inside_one_that_gave_up() {
        // The array is tried directly and gives up at the uint 8 (offset
        // 2). serde reads it again: the first probe, before that offset,
        // is not tried again; the second, which starts there, is and gives
        // up at once; the third, after it, is read directly.
        TRIED.set(0);
        let probes: Probes = crate::from_slice(&[0x93, 0x01, 0xcc, 0x02, 0x03]).unwrap();
        let expected = [
            Probe(Path::Serde, 1),
            Probe(Path::Serde, 2),
            Probe(Path::Direct, 3),
        ];
        assert_eq!(probes.0, expected);
        assert_eq!(TRIED.get(), 2 + 2);
        // The same through a slice `Deserializer`, whose value is tried
        // by a decoder of its own and read again by another: then a
        // value after it, tried directly.
        TRIED.set(0);
        let mut de = crate::Deserializer::from_slice(&[0x93, 0x01, 0xcc, 0x02, 0x03, 0x04]);
        assert_eq!(
            Probes::deserialize(&mut de).unwrap(),
            Probes(expected.into())
        );
        assert_eq!(TRIED.get(), 2 + 2);
        assert_eq!(Probe::deserialize(&mut de).unwrap(), Probe(Path::Direct, 4));
        de.end().unwrap();
    }

    #[test]
    fn a_slice_deserializers_values_are_read_directly_one_after_another() {
        let mut de = crate::Deserializer::from_slice(&[0x05, 0xcc, 0x06, 0x92, 0x07, 0x08]);
        assert_eq!(Probe::deserialize(&mut de).unwrap(), Probe(Path::Direct, 5));
        assert_eq!(Probe::deserialize(&mut de).unwrap(), Probe(Path::Serde, 6));
        let probes = Probes(vec![Probe(Path::Direct, 7), Probe(Path::Direct, 8)]);
        assert_eq!(Probes::deserialize(&mut de).unwrap(), probes);
        assert_eq!(de.byte_offset(), 6);
        de.end().unwrap();
        // Under its limits: an array over the value limit is refused,
        // by the serde path.
        let limits = crate::Limits::default().max_values(2);
        let mut de = crate::Deserializer::from_slice(&[0x92, 0x07, 0x08]).with_limits(limits);
        let error = Probes::deserialize(&mut de).unwrap_err();
        assert_eq!(
            error.to_string(),
            "more values than the limit of 2 at offset 0"
        );
    }
}
