//! A body's data frames joined into one buffer, as request bodies and the
//! responses the layer re-encodes are read.

use bytes::Bytes;

/// The bytes of a body read so far. Most bodies arrive in one frame,
/// which is kept as it is, without a copy; later frames are joined into
/// one buffer, which grows by doubling, as a `Vec` does, but never past
/// the most the body may hold.
#[derive(Debug, Default)]
pub(crate) struct Frames {
    first: Bytes,
    joined: Vec<u8>,
    /// The most the buffer may hold: what it will be asked to hold at the
    /// most (the size limit), or the length declared up front.
    most: usize,
}

impl Frames {
    /// Bytes for a body of at most `most` bytes. The buffer is not
    /// reserved before a second frame needs it.
    pub(crate) fn at_most(most: usize) -> Frames {
        Frames {
            most,
            ..Frames::default()
        }
    }

    /// How many bytes have arrived.
    pub(crate) fn len(&self) -> usize {
        if self.joined.is_empty() {
            self.first.len()
        } else {
            self.joined.len() // the first frame included
        }
    }

    /// Adds a frame. The caller checks the limit before each one; past
    /// `most` (a declared length that was wrong), the buffer doubles.
    pub(crate) fn push(&mut self, data: Bytes) {
        if data.is_empty() {
            return;
        }
        if self.first.is_empty() {
            self.first = data;
            return;
        }
        if self.joined.is_empty() {
            self.grow(self.first.len() + data.len());
            self.joined.extend_from_slice(&self.first);
        }
        self.grow(self.joined.len() + data.len());
        self.joined.extend_from_slice(&data);
    }

    /// Makes room for `needed` bytes: twice the capacity, but no more than
    /// `most` while `needed` is within it, and never less than `needed`.
    fn grow(&mut self, needed: usize) {
        if needed <= self.joined.capacity() {
            return;
        }
        let doubled = self.joined.capacity().saturating_mul(2);
        let capped = if needed <= self.most {
            doubled.min(self.most)
        } else {
            doubled
        };
        self.joined
            .reserve_exact(capped.max(needed) - self.joined.len());
    }

    /// The whole body.
    pub(crate) fn into_bytes(self) -> Bytes {
        if self.joined.is_empty() {
            self.first
        } else {
            Bytes::from(self.joined)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_frame_is_kept_without_a_copy() {
        let data = Bytes::from_static(b"abc");
        let mut frames = Frames::at_most(3);
        frames.push(data.clone());
        let body = frames.into_bytes();
        assert_eq!(body, data);
        assert_eq!(body.as_ptr(), data.as_ptr());
    }

    #[test]
    fn frames_join_in_order() {
        let mut frames = Frames::at_most(usize::MAX);
        for part in [&b"ab"[..], b"", b"cde", b"f"] {
            frames.push(Bytes::copy_from_slice(part));
        }
        assert_eq!(frames.len(), 6);
        assert_eq!(frames.into_bytes(), &b"abcdef"[..]);
    }

    #[test]
    fn the_buffer_never_holds_more_than_the_most() {
        // 1000 frames of 1000 bytes under a limit of 1,000,000: doubling
        // alone would have reached 1,048,576 or more.
        let most = 1_000_000;
        let mut frames = Frames::at_most(most);
        for _ in 0..1000 {
            frames.push(Bytes::from(vec![7u8; 1000]));
            assert!(frames.joined.capacity() <= most);
        }
        assert_eq!(frames.joined.capacity(), most);
        assert_eq!(frames.into_bytes().len(), most);
    }

    #[test]
    fn past_a_wrong_most_the_buffer_doubles() {
        let mut frames = Frames::at_most(2);
        frames.push(Bytes::from_static(b"abc"));
        frames.push(Bytes::from_static(b"def"));
        assert_eq!(frames.joined.capacity(), 6);
        frames.push(Bytes::from_static(b"g"));
        assert_eq!(frames.joined.capacity(), 12);
        assert_eq!(frames.into_bytes(), &b"abcdefg"[..]);
    }

    #[test]
    fn empty_frames_change_nothing() {
        let data = Bytes::from_static(b"abc");
        let mut frames = Frames::at_most(3);
        for part in [Bytes::new(), data.clone(), Bytes::new()] {
            frames.push(part);
        }
        assert_eq!(frames.into_bytes().as_ptr(), data.as_ptr());
    }
}
