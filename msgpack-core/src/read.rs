//! A zero-copy cursor over MessagePack input.

use crate::{Error, ErrorKind, Limits};

/// Reads MessagePack from a byte slice without copying: strings, binary
/// data and extension payloads are handed out as slices of the input.
///
/// The typed reads (`read_int`, `read_str`, ...) are in
/// [`decode`](crate::decode); whole values are read with
/// [`Value::decode`](crate::Value::decode) and
/// [`ValueRef::decode`](crate::ValueRef::decode). Every read checks the
/// remaining input first: a truncated value is an
/// [`UnexpectedEof`](ErrorKind::UnexpectedEof) error, never a panic.
///
/// ```
/// use msgpack_core::Reader;
///
/// let input = [0x82, 0xa1, b'a', 0x01, 0xa1, b'b', 0xc3];
/// let mut reader = Reader::new(&input);
/// assert_eq!(reader.read_map_len(), Ok(2));
/// assert_eq!(reader.read_str(), Ok("a"));
/// assert_eq!(reader.read_int::<i32>(), Ok(1));
/// reader.skip().unwrap(); // "b"
/// assert_eq!(reader.read_bool(), Ok(true));
/// assert_eq!(reader.finish(), Ok(()));
/// ```
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    input: &'a [u8],
    /// Never past the end: `pos <= input.len()`, which every method that
    /// moves it keeps (see [`remaining`](Self::remaining)).
    pos: usize,
    limits: Limits,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `input`, with the default [`Limits`].
    ///
    /// ```
    /// use msgpack_core::{Limits, Reader};
    ///
    /// let mut reader = Reader::new(&[0xc3]);
    /// assert_eq!(reader.limits(), Limits::default());
    /// assert_eq!(reader.read_bool(), Ok(true));
    /// assert!(reader.is_empty());
    /// ```
    #[inline]
    pub const fn new(input: &'a [u8]) -> Reader<'a> {
        Reader {
            input,
            pos: 0,
            limits: Limits::new(),
        }
    }

    /// A reader at the start of `input` that decodes whole values under
    /// `limits`. Fails at once if `input` exceeds the size limit.
    ///
    /// ```
    /// use msgpack_core::{Limits, Reader, Value};
    ///
    /// let input = [0x91, 0x91, 0xc0]; // [[nil]]
    /// let mut reader = Reader::with_limits(&input, Limits::new().max_depth(1)).unwrap();
    /// let error = Value::decode(&mut reader).unwrap_err();
    /// assert_eq!(error.to_string(), "nesting exceeds the depth limit of 1 at offset 1");
    /// let error = Reader::with_limits(&input, Limits::new().max_bytes(2)).unwrap_err();
    /// assert_eq!(error.to_string(), "input exceeds the size limit of 2 bytes at offset 2");
    /// ```
    #[inline]
    pub fn with_limits(input: &'a [u8], limits: Limits) -> Result<Reader<'a>, Error> {
        if input.len() > limits.bytes() {
            let limit = limits.bytes();
            return Err(Error::new(ErrorKind::SizeLimitExceeded { limit }, limit));
        }
        Ok(Reader {
            input,
            pos: 0,
            limits,
        })
    }

    /// The limits whole-value decoding applies.
    ///
    /// ```
    /// use msgpack_core::{Limits, Reader};
    ///
    /// let reader = Reader::with_limits(&[], Limits::new().max_depth(4)).unwrap();
    /// assert_eq!(reader.limits().depth(), 4);
    /// ```
    #[inline]
    pub const fn limits(&self) -> Limits {
        self.limits
    }

    /// The offset of the next byte to read.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xa2, b'h', b'i', 0xc0]);
    /// reader.read_str().unwrap();
    /// assert_eq!(reader.position(), 3);
    /// ```
    #[inline]
    pub const fn position(&self) -> usize {
        self.pos
    }

    /// The whole input this reader was made with.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0x01, 0x02]);
    /// reader.skip().unwrap();
    /// assert_eq!(reader.input(), [0x01, 0x02]); // all of it, read or not
    /// ```
    #[inline]
    pub const fn input(&self) -> &'a [u8] {
        self.input
    }

    /// The input not read yet.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0x01, 0x02, 0x03]);
    /// reader.skip().unwrap();
    /// assert_eq!(reader.remaining(), [0x02, 0x03]);
    /// ```
    #[inline]
    pub fn remaining(&self) -> &'a [u8] {
        // Unchecked, each read of a derived struct's fields loses a bounds
        // check that cannot fail, and its panic path: the compiler cannot
        // see the invariant below.
        debug_assert!(self.pos <= self.input.len());
        // SAFETY: `pos <= input.len()`. Both fields are private to this
        // module, and no code outside this file can write them. `pos`
        // starts at 0; each method here that moves it forward moves it past
        // bytes it has just found in the input (`take_byte`, `take`,
        // `take_array`, `take_str`, `read_short_key`) or to at most the end
        // (`consume`), and `rewind` only moves it back. A new method that
        // writes `pos` must keep this.
        unsafe { self.input.get_unchecked(self.pos..) }
    }

    /// How many bytes are left to read.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xcd, 0x01, 0x2c, 0xc0]);
    /// reader.read_int::<u16>().unwrap();
    /// assert_eq!(reader.remaining_len(), 1);
    /// ```
    #[inline]
    pub const fn remaining_len(&self) -> usize {
        self.input.len() - self.pos
    }

    /// Whether all input has been read.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xc0]);
    /// assert!(!reader.is_empty());
    /// reader.read_nil().unwrap();
    /// assert!(reader.is_empty());
    /// ```
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.pos == self.input.len()
    }

    /// Succeeds if all input has been read; otherwise a
    /// [`TrailingBytes`](ErrorKind::TrailingBytes) error at the first unread byte.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xc0, 0xc0]);
    /// reader.read_nil().unwrap();
    /// let error = reader.finish().unwrap_err();
    /// assert_eq!(error.to_string(), "trailing bytes after the value at offset 1");
    /// ```
    #[inline]
    pub fn finish(&self) -> Result<(), Error> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(self.error(ErrorKind::TrailingBytes))
        }
    }

    /// An error of `kind` at the current position.
    ///
    /// ```
    /// use msgpack_core::{ErrorKind, Reader};
    ///
    /// let mut reader = Reader::new(&[0xa1, b'x', 0xd4, 0x05, 0x00]);
    /// reader.read_str().unwrap();
    /// let error = reader.error(ErrorKind::InvalidTimestamp); // the caller's own check
    /// assert_eq!(error.to_string(), "invalid timestamp at offset 2");
    /// ```
    #[cold]
    pub fn error(&self, kind: ErrorKind) -> Error {
        Error::new(kind, self.pos)
    }

    /// An end-of-input error at the end of the input, where more bytes
    /// were needed.
    #[cold]
    pub(crate) fn eof(&self) -> Error {
        Error::new(ErrorKind::UnexpectedEof, self.input.len())
    }

    /// The next byte, without consuming it.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let reader = Reader::new(&[0xc3]);
    /// assert_eq!(reader.peek_byte(), Ok(0xc3));
    /// assert_eq!(reader.position(), 0);
    /// assert!(Reader::new(&[]).peek_byte().unwrap_err().is_eof());
    /// ```
    #[inline(always)]
    pub fn peek_byte(&self) -> Result<u8, Error> {
        match self.input.get(self.pos) {
            Some(&byte) => Ok(byte),
            None => Err(self.eof()),
        }
    }

    /// Consumes one raw byte.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0x2a]);
    /// assert_eq!(reader.take_byte(), Ok(0x2a));
    /// let error = reader.take_byte().unwrap_err();
    /// assert_eq!(error.to_string(), "unexpected end of input at offset 1");
    /// ```
    #[inline(always)]
    pub fn take_byte(&mut self) -> Result<u8, Error> {
        let byte = self.peek_byte()?;
        self.pos += 1;
        Ok(byte)
    }

    /// Moves past `len` bytes the caller has already looked at in
    /// [`remaining`](Self::remaining): a parser that matched a form on
    /// the bytes at hand consumes them without a second bounds check and
    /// its error path. Stops at the end of the input if fewer remain
    /// (a debug build panics: the caller did not look).
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xcd, 0x01, 0x2c, 0xc0]);
    /// if let [0xcd, high, low, ..] = *reader.remaining() {
    ///     assert_eq!(u16::from_be_bytes([high, low]), 300);
    ///     reader.consume(3);
    /// }
    /// assert_eq!(reader.remaining(), [0xc0]);
    /// ```
    #[inline(always)]
    pub fn consume(&mut self, len: usize) {
        debug_assert!(len <= self.remaining_len(), "consumed past the end");
        self.pos = self.input.len().min(self.pos.saturating_add(len));
    }

    /// Consumes `len` raw bytes and returns them, borrowed from the input.
    /// Fails without consuming anything when fewer remain.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xd6, 0x07, 1, 2, 3, 4]); // fixext 4 of type 7
    /// assert_eq!(reader.read_ext_meta().unwrap().len, 4);
    /// assert_eq!(reader.take(4), Ok(&[1, 2, 3, 4][..]));
    /// assert!(reader.take(1).unwrap_err().is_eof());
    /// ```
    #[inline(always)]
    pub fn take(&mut self, len: usize) -> Result<&'a [u8], Error> {
        match self.remaining().get(..len) {
            Some(bytes) => {
                self.pos += len;
                Ok(bytes)
            }
            None => Err(self.eof()),
        }
    }

    /// Consumes a string's header of `head` bytes and its `len` bytes of
    /// text, and returns the text. Nothing is consumed when fewer bytes
    /// remain (an [`UnexpectedEof`](ErrorKind::UnexpectedEof) error) or
    /// the text is not UTF-8 (an [`InvalidUtf8`](ErrorKind::InvalidUtf8)
    /// error at the header). The header is skipped, not checked: the
    /// caller has read it ([`read_short_str`](Self::read_short_str) reads
    /// a fixstr or str 8 through here).
    ///
    /// When 32 bytes remain and the header and text fit in them (any
    /// fixstr, a str 8 of up to 30 bytes), one test that they remain and
    /// one mask over them find the text ASCII, whatever its length; a
    /// longer text, one that is not ASCII, or one in the input's last 32
    /// bytes is read with a bounds test each and
    /// [`str_from_utf8`](crate::decode::str_from_utf8).
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut input = vec![0xa2, b'h', b'i', 0xd9, 0x01, 0xff];
    /// input.resize(40, 0xc0); // nils after them
    /// let mut reader = Reader::new(&input);
    /// assert_eq!(reader.take_str(1, 2), Ok("hi")); // a fixstr of 2
    /// let error = reader.take_str(2, 1).unwrap_err(); // a str 8 of 1
    /// assert_eq!(error.to_string(), "invalid UTF-8 in string at offset 3");
    /// assert!(reader.take_str(2, 40).unwrap_err().is_eof());
    /// assert_eq!(reader.position(), 3);
    /// ```
    #[inline(always)]
    pub fn take_str(&mut self, head: usize, len: usize) -> Result<&'a str, Error> {
        if let Some(window) = self.remaining().first_chunk::<32>() {
            if let Some(text) = crate::text::ascii_in_window(window, head, len) {
                self.pos += head + len;
                return Ok(text);
            }
        }
        // Longer than the window, not ASCII, or near the input's end.
        let start = self.pos;
        let Some(bytes) = self
            .remaining()
            .get(head..)
            .and_then(|rest| rest.get(..len))
        else {
            return Err(self.eof());
        };
        match crate::text::str_from_utf8(bytes) {
            Ok(text) => {
                self.pos = start + head + len;
                Ok(text)
            }
            Err(_) => Err(Error::new(ErrorKind::InvalidUtf8, start)),
        }
    }

    /// Reads a fixstr of up to 15 ASCII bytes, the form field names take,
    /// with one test of its text (the decoders' keys come here first);
    /// `None`, reading nothing, for anything else, and near the input's
    /// end (16 bytes from the header on must remain), where
    /// [`read_short_str`](Self::read_short_str) reads it.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut input = vec![0xa2, b'i', b'd', 0x2a];
    /// input.resize(32, 0xc0); // nils after them
    /// let mut reader = Reader::new(&input);
    /// assert_eq!(reader.read_short_key(), Some("id"));
    /// assert_eq!(reader.read_short_key(), None); // 42
    /// assert_eq!(reader.position(), 3);
    /// assert_eq!(Reader::new(&[0xa2, b'i', b'd']).read_short_key(), None); // near the end
    /// ```
    #[inline(always)]
    pub fn read_short_key(&mut self) -> Option<&'a str> {
        let window = self.remaining().first_chunk::<16>()?;
        let (text, taken) = crate::text::short_key(window)?;
        self.pos += taken;
        Some(text)
    }

    /// Consumes `N` raw bytes as an array.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0x00, 0x01, 0x02]);
    /// assert_eq!(reader.take_array::<2>(), Ok([0x00, 0x01]));
    /// assert!(reader.take_array::<2>().unwrap_err().is_eof());
    /// assert_eq!(reader.position(), 2); // a failed take consumes nothing
    /// ```
    #[inline(always)]
    pub fn take_array<const N: usize>(&mut self) -> Result<[u8; N], Error> {
        match self.remaining().first_chunk::<N>() {
            Some(&array) => {
                self.pos += N;
                Ok(array)
            }
            None => Err(self.eof()),
        }
    }

    /// Moves back to `pos`, an offset previously returned by
    /// [`position`](Self::position).
    #[inline]
    pub(crate) fn rewind(&mut self, pos: usize) {
        debug_assert!(pos <= self.pos);
        // Never forward, so never past the end (see `remaining`).
        self.pos = pos.min(self.pos);
    }
}
