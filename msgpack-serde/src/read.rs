//! Where a [`Deserializer`] reads from: a slice, or
//! any `io::Read` framed one value at a time.
//!
//! ```
//! use msgpack_serde::read::{IoRead, SliceRead};
//! use msgpack_serde::Deserializer;
//! use serde::Deserialize;
//!
//! let bytes = [0xa1, b'x'];
//! let mut de: Deserializer<SliceRead<'_>> = Deserializer::from_slice(&bytes);
//! assert_eq!(<&str>::deserialize(&mut de).unwrap(), "x"); // borrowed
//! let mut de: Deserializer<IoRead<&[u8]>> = Deserializer::from_reader(&bytes[..]);
//! assert_eq!(String::deserialize(&mut de).unwrap(), "x"); // copied
//! ```

use std::io;

use msgpack_core::{ErrorKind, Framed, Framer, Limits};
use serde::de::DeserializeSeed;

use crate::de::{Borrowed, Copied, Decoder};
use crate::{Deserializer, Error, Result};

mod private {
    pub trait Sealed {}
}

/// What a [`Deserializer`] reads from: [`SliceRead`]
/// or [`IoRead`], as serde_json's `Read`. Sealed: its methods are how the
/// deserializer runs, not an interface to implement.
pub trait Read<'de>: private::Sealed + Sized {
    /// Decodes the next value of `de`'s input with `seed`, given a
    /// decoder over it under `de`'s settings, and moves past it.
    #[doc(hidden)]
    fn run<S: DeserializeSeed<'de>>(de: &mut Deserializer<Self>, seed: S) -> Result<S::Value>;

    /// The input offset just past the bytes consumed.
    #[doc(hidden)]
    fn byte_offset(&self) -> usize;

    /// Whether the input has ended after the values read.
    #[doc(hidden)]
    fn at_end(&mut self) -> Result<bool>;
}

/// Input borrowed from a byte slice: strings and bytes are handed to serde
/// without copying.
///
/// ```
/// use msgpack_serde::read::SliceRead;
/// use msgpack_serde::Deserializer;
/// use serde::Deserialize;
///
/// let input = [0xa2, b'h', b'i'];
/// let mut de: Deserializer<SliceRead<'_>> = Deserializer::from_slice(&input);
/// let s = <&str>::deserialize(&mut de).unwrap();
/// assert_eq!(s.as_ptr(), input[1..].as_ptr()); // borrowed, not copied
/// ```
pub struct SliceRead<'de> {
    pub(crate) input: &'de [u8],
    pub(crate) pos: usize,
    /// Where a direct read of a value gave up (`de/decoder/direct.rs`):
    /// the decoder that reads the value again tries no direct read of a
    /// value that starts before it.
    pub(crate) direct_from: usize,
}

/// The input and the position; not where a direct read gave up, which
/// says how, not what, was read.
impl std::fmt::Debug for SliceRead<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SliceRead")
            .field("input", &self.input)
            .field("pos", &self.pos)
            .finish()
    }
}

impl<'de> SliceRead<'de> {
    pub(crate) fn new(input: &'de [u8]) -> Self {
        SliceRead {
            input,
            pos: 0,
            direct_from: 0,
        }
    }
}

impl private::Sealed for SliceRead<'_> {}

impl<'de> Read<'de> for SliceRead<'de> {
    /// Runs `seed` on a decoder at the current position; advances past
    /// what it read only if it succeeded.
    #[inline]
    fn run<S: DeserializeSeed<'de>>(de: &mut Deserializer<Self>, seed: S) -> Result<S::Value> {
        let read = &mut de.read;
        let mut decoder = Decoder::<Borrowed>::starting_at(read.input, read.pos, de.limits)?
            .human_readable(de.human_readable)
            .direct_from(read.direct_from);
        let mut result = seed.deserialize(&mut decoder);
        decoder.place_own_error(&mut result);
        let value = result?;
        read.pos = decoder.position();
        Ok(value)
    }

    fn byte_offset(&self) -> usize {
        self.pos
    }

    fn at_end(&mut self) -> Result<bool> {
        Ok(self.pos == self.input.len())
    }
}

/// Input from an `io::Read`. Each value is first read whole into a buffer
/// (the bytes it declares, as they arrive, never a declared length ahead
/// of time), then decoded from there. Not one byte past the value is read,
/// so a stream can hold other data after it. Reads are small: wrap files
/// and sockets in a [`std::io::BufReader`].
///
/// ```
/// use msgpack_serde::read::IoRead;
/// use msgpack_serde::Deserializer;
/// use serde::Deserialize;
///
/// let input: &[u8] = &[0x01, 0x02, b'r', b'e', b's', b't'];
/// let mut de: Deserializer<IoRead<&[u8]>> = Deserializer::from_reader(input);
/// assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
/// assert_eq!(u8::deserialize(&mut de).unwrap(), 2);
/// assert_eq!(de.into_inner(), b"rest"); // nothing past the values was read
/// ```
#[derive(Debug)]
pub struct IoRead<R> {
    pub(crate) reader: R,
    pub(crate) buffer: Vec<u8>,
    /// Bytes of the stream consumed before `buffer`.
    pub(crate) consumed: usize,
    /// A byte read ahead by `at_end`: the first byte of the next value.
    peeked: Option<u8>,
}

impl<R: io::Read> IoRead<R> {
    pub(crate) fn new(reader: R) -> Self {
        IoRead {
            reader,
            buffer: Vec::new(),
            consumed: 0,
            peeked: None,
        }
    }

    /// Reads the next whole value into `self.buffer`. `Ok(false)` when the
    /// stream ends cleanly before the value's first byte.
    ///
    /// msgpack-core's [`Framer`] says where the value ends, fed each read
    /// as it arrives: no read asks for more than the value can still need
    /// ([`Framer::least_needed`]), so nothing past it is read, and memory
    /// grows only with the bytes that arrive, never with a declared
    /// length. The framer holds the stream size limit; depth and value
    /// count are left to decoding, which counts them as `from_slice` does.
    pub(crate) fn next_value(&mut self, limits: Limits) -> Result<bool> {
        self.consumed += self.buffer.len();
        self.buffer.clear();
        let mut framer = Framer::new(Limits::unlimited().max_bytes(limits.bytes()));
        framer.skipped(self.consumed);
        if let Some(byte) = self.peeked.take() {
            self.buffer.push(byte);
            if let Framed::Value { .. } = framer.feed(&self.buffer)? {
                return Ok(true);
            }
        }
        loop {
            let start = self.buffer.len();
            let want = framer.least_needed().min(CHUNK);
            self.buffer.resize(start + want, 0);
            let read = loop {
                match self.reader.read(&mut self.buffer[start..]) {
                    Ok(read) => break read,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.buffer.truncate(start);
                        return Err(Error::io(e));
                    }
                }
            };
            self.buffer.truncate(start + read);
            if read == 0 {
                if start == 0 {
                    return Ok(false);
                }
                return Err(Error::wire(ErrorKind::UnexpectedEof, self.offset()));
            }
            if let Framed::Value { .. } = framer.feed(&self.buffer[start..])? {
                return Ok(true);
            }
        }
    }

    /// Whether the stream has ended after the current value. Reads one
    /// byte to find out, and keeps it for the next value.
    pub(crate) fn at_end(&mut self) -> Result<bool> {
        if self.peeked.is_some() {
            return Ok(false);
        }
        let mut byte = [0u8];
        loop {
            match self.reader.read(&mut byte) {
                Ok(0) => return Ok(true),
                Ok(_) => {
                    self.peeked = Some(byte[0]);
                    return Ok(false);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::io(e)),
            }
        }
    }

    /// The stream offset just past the current value.
    pub(crate) fn offset(&self) -> usize {
        self.consumed + self.buffer.len()
    }
}

impl<R: io::Read> private::Sealed for IoRead<R> {}

impl<'de, R: io::Read> Read<'de> for IoRead<R> {
    /// Reads the next value's bytes, then runs `seed` on a decoder over
    /// them.
    ///
    /// If the stream ends inside the value, `seed` still runs on the bytes
    /// that arrived: an error it finds there (a container past the depth
    /// limit, a type mismatch) is the one `from_slice` reports for the
    /// same bytes, and is returned instead of the end of input.
    #[inline]
    fn run<S: DeserializeSeed<'de>>(de: &mut Deserializer<Self>, seed: S) -> Result<S::Value> {
        let read = &mut de.read;
        let cut_short = match read.next_value(de.limits) {
            Ok(true) => None,
            Ok(false) => return Err(Error::wire(ErrorKind::UnexpectedEof, read.offset())),
            Err(error) if error.is_eof() => Some(error),
            Err(error) => return Err(error),
        };
        let base = read.consumed;
        // The framer enforced the size limit on the stream.
        let limits = de.limits.max_bytes(usize::MAX);
        let result = Decoder::<Copied>::new(&read.buffer, limits)
            .and_then(|decoder| {
                let mut decoder = decoder.human_readable(de.human_readable);
                let mut result = seed.deserialize(&mut decoder);
                decoder.place_own_error(&mut result);
                result
            })
            .map_err(|error| error.shifted(base));
        match cut_short {
            None => result,
            Some(eof) => match result {
                Err(error) if !error.is_eof() => Err(error),
                _ => Err(eof),
            },
        }
    }

    fn byte_offset(&self) -> usize {
        self.offset()
    }

    fn at_end(&mut self) -> Result<bool> {
        IoRead::at_end(self)
    }
}

/// How much a stream read copies at a time: a declared length is never
/// trusted for allocation, only bytes that really arrive.
const CHUNK: usize = 8 * 1024;
