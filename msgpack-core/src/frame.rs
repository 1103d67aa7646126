//! Finding where each value of a byte stream ends, as the bytes arrive.

use alloc::vec::Vec;

use crate::marker::fix_scalar_payload;
use crate::{Error, ErrorKind, Family, Length, Limits, Marker, Owed};

/// Finds where each MessagePack value of a stream ends, fed the bytes as
/// they arrive, in chunks of any size.
///
/// A value cut off by the end of a chunk is not scanned again: the framer
/// keeps where it stopped (a header's first bytes, the payload bytes still
/// to skip, the values the open containers still owe, how deep they
/// nest), so the work is linear in the bytes, however they are split. It
/// copies nothing but a cut-off header (at most five bytes): the caller
/// keeps the bytes, and decodes the value once the framer has found its
/// end.
///
/// Limits hold before anything is buffered: a header that declares more
/// than the [frame size limit](Framer::max_len) is refused as soon as it
/// is read, and depth and value count are counted as
/// [`Value::decode`](crate::Value::decode) counts them. A stream size
/// limit ([`Limits::max_bytes`]) counts every byte since the framer
/// started. Errors carry the stream offset. After an error the stream
/// cannot be resynchronised: every later call returns the same error.
///
/// ```
/// use msgpack_core::{Framed, Framer, Limits};
///
/// let mut framer = Framer::new(Limits::default());
/// // ["ab", 7] and the first byte of the next value, in two chunks.
/// assert_eq!(framer.feed(&[0x92, 0xa2, b'a'])?, Framed::NeedMore);
/// assert_eq!(framer.feed(&[b'b', 0x07, 0xc0])?, Framed::Value { len: 5, used: 2 });
/// assert_eq!(framer.offset(), 5); // the next value starts here
/// assert_eq!(framer.feed(&[0xc0])?, Framed::Value { len: 1, used: 1 });
///
/// let mut framer = Framer::new(Limits::default()).max_len(1024);
/// let error = framer.feed(&[0xdb, 0xff, 0xff, 0xff, 0xff]).unwrap_err(); // a 4 GiB str
/// assert_eq!(error.to_string(), "value exceeds the frame size limit of 1024 bytes at offset 0");
/// # Ok::<(), msgpack_core::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Framer {
    limits: Limits,
    max_len: usize,
    /// Stream offset of the current value's first byte.
    start: usize,
    /// Bytes of the current value fed so far.
    len: usize,
    /// Values still to read: the value itself before its marker, then
    /// every element its open containers still owe.
    owed: Owed,
    /// Values counted against the value limit.
    values: usize,
    /// Elements each open container still owes, innermost last; kept only
    /// under a depth limit, so never deeper than it.
    open: Vec<u64>,
    /// Payload bytes still to skip.
    skip: u64,
    /// A header cut off by the end of a chunk: its marker and the length
    /// field's first bytes.
    header: [u8; 5],
    /// How many bytes of `header` are held (0: none).
    held: usize,
    /// The error that ended the stream.
    failed: Option<Error>,
}

/// What [`Framer::feed`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framed {
    /// A whole value of `len` bytes ends after the first `used` bytes of
    /// the chunk (the rest belongs to the values after it).
    Value {
        /// The value's length, counting the bytes of earlier chunks.
        len: usize,
        /// How many bytes of this chunk belong to it.
        used: usize,
    },
    /// The value goes on past this chunk: every byte of it was used.
    NeedMore,
}

impl Framer {
    /// A framer at the start of a stream, with these depth, value-count and
    /// stream size limits and no frame size limit.
    ///
    /// ```
    /// use msgpack_core::{Framed, Framer, Limits};
    ///
    /// let mut framer = Framer::new(Limits::new().max_depth(1));
    /// assert_eq!(framer.feed(&[0x91, 0x01]), Ok(Framed::Value { len: 2, used: 2 })); // [1]
    /// let error = framer.feed(&[0x91, 0x91, 0x01]).unwrap_err(); // [[1]]
    /// assert_eq!(error.to_string(), "nesting exceeds the depth limit of 1 at offset 3");
    /// ```
    pub fn new(limits: Limits) -> Framer {
        Framer {
            limits,
            max_len: usize::MAX,
            start: 0,
            len: 0,
            owed: Owed::new(1),
            values: 1,
            open: Vec::new(),
            skip: 0,
            header: [0; 5],
            held: 0,
            failed: None,
        }
    }

    /// Sets the frame size limit: the most bytes one value may take.
    ///
    /// ```
    /// use msgpack_core::{Framer, Limits};
    ///
    /// let mut framer = Framer::new(Limits::default()).max_len(4);
    /// let error = framer.feed(&[0x94]).unwrap_err(); // [_, _, _, _] needs at least 5 bytes
    /// assert_eq!(error.to_string(), "value exceeds the frame size limit of 4 bytes at offset 0");
    /// ```
    #[must_use]
    pub fn max_len(mut self, max_len: usize) -> Framer {
        self.max_len = max_len;
        self
    }

    /// The stream offset of the next byte to feed.
    ///
    /// ```
    /// use msgpack_core::{Framer, Limits};
    ///
    /// let mut framer = Framer::new(Limits::default());
    /// framer.feed(&[0xa3, b'a']).unwrap();
    /// assert_eq!(framer.offset(), 2);
    /// ```
    pub fn offset(&self) -> usize {
        self.start + self.len
    }

    /// The stream offset where the value being framed starts.
    ///
    /// ```
    /// use msgpack_core::{Framer, Limits};
    ///
    /// let mut framer = Framer::new(Limits::default());
    /// framer.feed(&[0x01, 0x92, 0x01]).unwrap();
    /// framer.feed(&[0x92, 0x01]).unwrap(); // the rest after the first value
    /// assert_eq!(framer.value_start(), 1);
    /// ```
    pub fn value_start(&self) -> usize {
        self.start
    }

    /// Whether part of a value has been fed: a stream that ends now ends
    /// inside a value.
    ///
    /// ```
    /// use msgpack_core::{Framer, Limits};
    ///
    /// let mut framer = Framer::new(Limits::default());
    /// assert!(!framer.in_value());
    /// framer.feed(&[0xcd, 0x01]).unwrap(); // a uint 16, one byte short
    /// assert!(framer.in_value());
    /// ```
    pub fn in_value(&self) -> bool {
        self.len > 0
    }

    /// The fewest bytes that can end the value being framed (1 between
    /// values): a reader that reads no more than this at a time never
    /// reads past the value.
    ///
    /// ```
    /// use msgpack_core::{Framer, Limits};
    ///
    /// let mut framer = Framer::new(Limits::default());
    /// assert_eq!(framer.least_needed(), 1);
    /// framer.feed(&[0x92, 0xa3]).unwrap(); // [a 3-byte string, one more value]
    /// assert_eq!(framer.least_needed(), 4);
    /// framer.feed(&[b'a', b'b', b'c', 0xda, 0x00]).unwrap(); // ..., a str 16, its length half read
    /// assert_eq!(framer.least_needed(), 1);
    /// ```
    pub fn least_needed(&self) -> usize {
        let least = if self.held > 0 {
            // The value whose header is cut off is still owed.
            let width = field_width(Marker::from_u8(self.header[0]));
            (1 + width - self.held) as u64 + self.owed.get() - 1
        } else {
            self.skip.saturating_add(self.owed.get())
        };
        usize::try_from(least).unwrap_or(usize::MAX)
    }

    /// Moves past a whole value of `len` bytes that the caller framed
    /// itself (by decoding it in place), between values: the stream offset
    /// moves on, and the limits are the caller's to have checked.
    ///
    /// ```
    /// use msgpack_core::{Framed, Framer, Limits};
    ///
    /// let mut framer = Framer::new(Limits::default());
    /// framer.skipped(3);
    /// assert_eq!(framer.feed(&[0xc1]).unwrap_err().to_string(), "reserved marker 0xc1 at offset 3");
    /// ```
    pub fn skipped(&mut self, len: usize) {
        debug_assert!(!self.in_value(), "skipped inside a value");
        self.start += len;
    }

    /// Forgets what has been fed of the value being framed, back to where
    /// it starts: for a caller that found the value's end another way once
    /// all of it had arrived (by decoding it in place), which then moves
    /// past it with [`skipped`](Self::skipped).
    ///
    /// ```
    /// use msgpack_core::{Framed, Framer, Limits};
    ///
    /// let mut framer = Framer::new(Limits::default());
    /// framer.feed(&[0x92, 0x01]).unwrap(); // [1, ...
    /// framer.rewind();
    /// assert!(!framer.in_value());
    /// framer.skipped(3); // [1, 2], decoded by the caller
    /// assert_eq!(framer.feed(&[0xc0]).unwrap(), Framed::Value { len: 1, used: 1 });
    /// assert_eq!(framer.offset(), 4);
    /// ```
    pub fn rewind(&mut self) {
        self.len = 0;
        self.owed = Owed::new(1);
        self.values = 1;
        self.open.clear();
        self.skip = 0;
        self.held = 0;
    }

    /// Frames the next bytes of the stream. Returns where the value being
    /// framed ends, if it ends in `chunk`; the caller feeds the rest of
    /// the chunk again for the next value.
    ///
    /// ```
    /// use msgpack_core::{Framed, Framer, Limits};
    ///
    /// let stream = [0x92, 0x01, 0x02, 0xa1, b'x']; // [1, 2] "x"
    /// let mut framer = Framer::new(Limits::default());
    /// let mut lens = Vec::new();
    /// for byte in stream.chunks(1) {
    ///     if let Framed::Value { len, .. } = framer.feed(byte)? {
    ///         lens.push(len);
    ///     }
    /// }
    /// assert_eq!(lens, [3, 2]);
    /// # Ok::<(), msgpack_core::Error>(())
    /// ```
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Framed, Error> {
        if let Some(error) = self.failed {
            return Err(error);
        }
        let framed = self.scan(chunk);
        if let Err(error) = framed {
            self.failed = Some(error);
        }
        framed
    }

    fn scan(&mut self, chunk: &[u8]) -> Result<Framed, Error> {
        let mut pos = 0;
        if self.held > 0 {
            pos = self.finish_header(chunk)?;
            if self.held > 0 {
                return Ok(self.need_more(chunk));
            }
        }
        loop {
            if self.skip > 0 {
                let left = (chunk.len() - pos) as u64;
                if left < self.skip {
                    self.skip -= left;
                    return Ok(self.need_more(chunk));
                }
                pos += self.skip as usize;
                self.skip = 0;
            }
            if self.owed.get() == 0 {
                return Ok(self.value_done(pos));
            }
            let Some(&byte) = chunk.get(pos) else {
                return Ok(self.need_more(chunk));
            };
            let at = self.len + pos;
            if let Some(payload) = fix_scalar_payload(byte).filter(|_| at > 0) {
                self.fix_header(payload, at)?;
                pos += 1;
                continue;
            }
            let marker = Marker::from_u8(byte);
            let width = field_width(marker);
            match chunk.get(pos + 1..pos + 1 + width) {
                Some(field) => {
                    self.header(marker, field, at)?;
                    pos += 1 + width;
                }
                None => {
                    // Cut off: keep the marker and what there is of the field.
                    let held = chunk.len() - pos;
                    self.header[..held].copy_from_slice(&chunk[pos..]);
                    self.held = held;
                    self.check_header(at, width)?;
                    return Ok(self.need_more(chunk));
                }
            }
        }
    }

    /// Completes a header cut off by the last chunk from the start of
    /// `chunk`; returns how many bytes of it that took.
    fn finish_header(&mut self, chunk: &[u8]) -> Result<usize, Error> {
        let marker = Marker::from_u8(self.header[0]);
        let width = field_width(marker);
        let take = (1 + width - self.held).min(chunk.len());
        self.header[self.held..self.held + take].copy_from_slice(&chunk[..take]);
        self.held += take;
        if self.held == 1 + width {
            self.held = 0;
            // The header began before this chunk, at the end of what was fed.
            let at = self.len - (1 + width - take);
            let header = self.header;
            self.header(marker, &header[1..1 + width], at)?;
        }
        Ok(take)
    }

    /// What `header` does for a fixint or a fixstr (`payload` its string's
    /// length, 0 for an integer) past the value's first byte, where no
    /// value limit applies and only a payload adds to the size: without a
    /// look at the marker's family or length field, so that the walk over
    /// most values does not wait on those lookups.
    #[inline(always)]
    fn fix_header(&mut self, payload: u64, at: usize) -> Result<(), Error> {
        self.owed.pay(1);
        self.count_in_open_container();
        self.skip = payload;
        if payload == 0 {
            return Ok(());
        }
        self.check_len(at, 1 + payload)
    }

    /// Reads one value's header (`field` is its length field), at `at`
    /// bytes into the value: what it owes, and the limits.
    #[inline(always)]
    fn header(&mut self, marker: Marker, field: &[u8], at: usize) -> Result<(), Error> {
        self.check_header(at, field.len())?;
        self.owed.pay(1);
        let tracks_depth = self.count_in_open_container();
        let len = match marker.length() {
            Length::Fixed(len) => len,
            Length::Field(_) => Length::Field(field.len()).of(field),
        } as u64;
        match marker.family() {
            Family::Array | Family::Map => {
                let count = len << (marker.family() == Family::Map) as u32;
                self.open_container(count, at, tracks_depth)?;
            }
            Family::Str | Family::Bin => self.skip = len,
            Family::Ext => self.skip = len + 1,
            Family::Reserved => {
                return Err(self.error(ErrorKind::ReservedMarker, at));
            }
            _ => self.skip = marker.header_len() as u64,
        }
        let adds_nothing = field.is_empty()
            && self.skip == 0
            && !matches!(marker.family(), Family::Array | Family::Map);
        if at > 0 && adds_nothing {
            // One byte, counted among those owed when the last header was
            // checked: the least the value needs is unchanged. (A value's
            // first byte starts the count.)
            return Ok(());
        }
        self.check_len(at, (1 + field.len() as u64) + self.skip)
    }

    /// Counts a value against the innermost open container, closing those
    /// it has filled, when depth is tracked; whether it is.
    #[inline(always)]
    fn count_in_open_container(&mut self) -> bool {
        let tracks_depth = self.limits.depth() != usize::MAX;
        if tracks_depth {
            while self.open.last() == Some(&0) {
                self.open.pop();
            }
            if let Some(left) = self.open.last_mut() {
                *left -= 1;
            }
        }
        tracks_depth
    }

    /// What a header at `at`, with a length field of `width` bytes, is
    /// held to before its field is read: the value limit of 0, and the
    /// size limits for the value so far, the marker and its field, and a
    /// byte for every value still owed. Checked whether the field has
    /// arrived or not, so that a value ends with the same error however
    /// its bytes were cut: a header over the stream size limit is refused
    /// for that even when its length would break the frame size limit too.
    #[inline(always)]
    fn check_header(&self, at: usize, width: usize) -> Result<(), Error> {
        if at == 0 && self.limits.values() == 0 {
            // The value itself counts.
            return Err(self.error(ErrorKind::ValueLimitExceeded { limit: 0 }, at));
        }
        if width > 0 {
            // The marker is among the values owed, each counted as a byte.
            self.check_len(at, width as u64)?;
        }
        Ok(())
    }

    /// Opens a container of `count` values at `at`: depth and value limits.
    #[inline]
    fn open_container(&mut self, count: u64, at: usize, tracks_depth: bool) -> Result<(), Error> {
        if tracks_depth {
            if self.open.len() >= self.limits.depth() {
                let limit = self.limits.depth();
                return Err(self.error(ErrorKind::DepthLimitExceeded { limit }, at));
            }
            self.open.push(count);
        }
        self.values = self
            .values
            .saturating_add(usize::try_from(count).unwrap_or(usize::MAX));
        if self.values > self.limits.values() {
            let limit = self.limits.values();
            return Err(self.error(ErrorKind::ValueLimitExceeded { limit }, at));
        }
        self.owed.add(count);
        Ok(())
    }

    /// Fails if the value, whose header at `at` takes `header` bytes with
    /// its payload, cannot fit the limits with the values still owed.
    #[inline]
    fn check_len(&self, at: usize, header: u64) -> Result<(), Error> {
        let least = (at as u64)
            .saturating_add(header)
            .saturating_add(self.owed.get());
        if least > self.max_len as u64 {
            let limit = self.max_len;
            return Err(self.error(ErrorKind::FrameLimitExceeded { limit }, at));
        }
        if (self.start as u64).saturating_add(least) > self.limits.bytes() as u64 {
            let limit = self.limits.bytes();
            return Err(Error::new(ErrorKind::SizeLimitExceeded { limit }, limit));
        }
        Ok(())
    }

    /// The value ended `pos` bytes into the chunk: ready for the next.
    fn value_done(&mut self, pos: usize) -> Framed {
        let len = self.len + pos;
        self.start += len;
        self.len = 0;
        self.owed = Owed::new(1);
        self.values = 1;
        self.open.clear();
        Framed::Value { len, used: pos }
    }

    /// The whole chunk belongs to the value being framed.
    fn need_more(&mut self, chunk: &[u8]) -> Framed {
        self.len += chunk.len();
        Framed::NeedMore
    }

    #[cold]
    fn error(&self, kind: ErrorKind, at: usize) -> Error {
        Error::new(kind, self.start + at)
    }
}

/// The width of the length field after `marker`: the bytes a header needs
/// before the framer knows what the value owes.
#[inline]
fn field_width(marker: Marker) -> usize {
    match marker.length() {
        Length::Fixed(_) => 0,
        Length::Field(width) => width,
    }
}

#[cfg(test)]
mod tests;
