//! A body's data frames joined into one buffer, as request bodies and the
//! responses the layer re-encodes are read.

use bytes::Bytes;

/// The bytes of a body read so far. Most bodies arrive in one frame,
/// which is kept as it is, without a copy; later frames are joined into
/// one buffer, which grows by doubling, as a `Vec` does, but never past the
/// length the body declared while it keeps to it, nor ever past the limit.
#[derive(Debug)]
pub(crate) struct Frames {
    read: Read,
    /// The length the body declared (a hint), or the limit.
    expected: usize,
    /// The most the body may hold, which the caller checks before each
    /// frame.
    limit: usize,
}

/// What has arrived.
#[derive(Debug)]
enum Read {
    Nothing,
    One(Bytes),
    /// Two frames or more, the first copied in (and dropped).
    Joined(Vec<u8>),
}

impl Frames {
    /// Bytes for a body of at most `limit` bytes, expected to be
    /// `expected` long. Nothing is reserved before a second frame needs it.
    pub(crate) fn new(expected: Option<usize>, limit: usize) -> Frames {
        Frames {
            read: Read::Nothing,
            expected: expected.map_or(limit, |expected| expected.min(limit)),
            limit,
        }
    }

    /// How many bytes have arrived.
    pub(crate) fn len(&self) -> usize {
        match &self.read {
            Read::Nothing => 0,
            Read::One(first) => first.len(),
            Read::Joined(joined) => joined.len(),
        }
    }

    /// Adds a frame, which the caller has checked keeps the body within
    /// the limit.
    pub(crate) fn push(&mut self, data: Bytes) {
        if data.is_empty() {
            return;
        }
        self.read = match std::mem::replace(&mut self.read, Read::Nothing) {
            Read::Nothing => Read::One(data),
            Read::One(first) => {
                let mut joined = Vec::new();
                self.reserve(&mut joined, first.len() + data.len());
                joined.extend_from_slice(&first);
                joined.extend_from_slice(&data);
                Read::Joined(joined)
            }
            Read::Joined(mut joined) => {
                self.reserve(&mut joined, data.len());
                joined.extend_from_slice(&data);
                Read::Joined(joined)
            }
        };
    }

    /// Makes room for `more` bytes: twice the capacity, but no more than
    /// the expected length while the body keeps to it, nor than the limit,
    /// and never less than is needed.
    fn reserve(&self, joined: &mut Vec<u8>, more: usize) {
        let needed = joined.len() + more;
        if needed <= joined.capacity() {
            return;
        }
        let cap = if needed <= self.expected {
            self.expected
        } else {
            self.limit
        };
        let doubled = joined.capacity().saturating_mul(2).min(cap);
        joined.reserve_exact(doubled.max(needed) - joined.len());
    }

    /// The whole body.
    pub(crate) fn into_bytes(self) -> Bytes {
        match self.read {
            Read::Nothing => Bytes::new(),
            Read::One(first) => first,
            Read::Joined(joined) => Bytes::from(joined),
        }
    }

    /// The room the joined buffer has (0 before a second frame).
    #[cfg(any(test, feature = "fuzzing"))]
    pub(crate) fn capacity(&self) -> usize {
        match &self.read {
            Read::Joined(joined) => joined.capacity(),
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_frame_is_kept_without_a_copy() {
        let data = Bytes::from_static(b"abc");
        let mut frames = Frames::new(None, 3);
        frames.push(data.clone());
        let body = frames.into_bytes();
        assert_eq!(body, data);
        assert_eq!(body.as_ptr(), data.as_ptr());
    }

    #[test]
    fn frames_join_in_order() {
        let mut frames = Frames::new(None, usize::MAX);
        for part in [&b"ab"[..], b"", b"cde", b"f"] {
            frames.push(Bytes::copy_from_slice(part));
        }
        assert_eq!(frames.len(), 6);
        assert_eq!(frames.into_bytes(), &b"abcdef"[..]);
    }

    #[test]
    fn the_buffer_never_holds_more_than_the_limit() {
        // 1000 frames of 1000 bytes under a limit of 1,000,000: doubling
        // alone would have reached 1,048,576 or more.
        let limit = 1_000_000;
        let mut frames = Frames::new(None, limit);
        for _ in 0..1000 {
            frames.push(Bytes::from(vec![7u8; 1000]));
            assert!(frames.capacity() <= limit);
        }
        assert_eq!(frames.capacity(), limit);
        assert_eq!(frames.into_bytes().len(), limit);
    }

    #[test]
    fn past_a_wrong_declared_length_the_limit_still_holds() {
        // Declared 1 byte, then 64 KiB frames up to a limit of 10 MiB.
        let limit = 10 << 20;
        let mut frames = Frames::new(Some(1), limit);
        while frames.len() < limit {
            frames.push(Bytes::from(vec![1u8; 64 << 10]));
            assert!(frames.capacity() <= limit, "{}", frames.capacity());
        }
        assert_eq!(frames.len(), limit);
    }

    #[test]
    fn a_declared_length_is_reserved_no_further() {
        let mut frames = Frames::new(Some(6), 100);
        frames.push(Bytes::from_static(b"ab"));
        frames.push(Bytes::from_static(b"cd"));
        assert_eq!(frames.capacity(), 4);
        frames.push(Bytes::from_static(b"ef"));
        assert_eq!(frames.capacity(), 6);
        assert_eq!(frames.into_bytes(), &b"abcdef"[..]);
    }

    #[test]
    fn empty_frames_change_nothing() {
        let data = Bytes::from_static(b"abc");
        let mut frames = Frames::new(Some(3), 3);
        for part in [Bytes::new(), data.clone(), Bytes::new()] {
            frames.push(part);
        }
        assert_eq!(frames.into_bytes().as_ptr(), data.as_ptr());
    }
}
