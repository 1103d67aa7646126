//! Reading values back to back.

use std::io;
use std::marker::PhantomData;

use serde::de::{Deserialize, DeserializeOwned};

use crate::read::{IoRead, Read, SliceRead};
use crate::{Deserializer, Limits, Result};

/// An iterator over values written back to back, from a slice or a reader.
///
/// A value cut short by the end of the input is reported as an error whose
/// [`is_eof`](crate::Error::is_eof) is true: the bytes so far are a valid prefix
/// as far as they were read (decoding stops early, without reading on,
/// once the containers open declare more elements than the bytes left
/// could hold), so a caller that buffers a socket can wait for more and
/// resume at [`byte_offset`](StreamDeserializer::byte_offset) of a slice
/// stream, the end of the last complete value. Any other error means invalid data.
/// After an error the iterator ends.
///
/// ```
/// use msgpack_serde::StreamDeserializer;
///
/// let mut bytes = Vec::new();
/// for n in [1u32, 300, 70_000] {
///     bytes.extend(msgpack_serde::to_vec(&n).unwrap());
/// }
/// bytes.extend([0xcd, 0x01]); // a uint 16 missing its last byte
///
/// let mut stream = StreamDeserializer::<_, u32>::from_slice(&bytes);
/// assert_eq!(stream.next().unwrap().unwrap(), 1);
/// assert_eq!(stream.next().unwrap().unwrap(), 300);
/// assert_eq!(stream.next().unwrap().unwrap(), 70_000);
/// let offset = stream.byte_offset();
/// assert!(stream.next().unwrap().unwrap_err().is_eof());
/// assert_eq!(offset, bytes.len() - 2);
/// assert!(stream.next().is_none());
/// ```
#[derive(Debug)]
pub struct StreamDeserializer<R, T> {
    de: Deserializer<R>,
    failed: bool,
    output: PhantomData<fn() -> T>,
}

impl<'de, T: Deserialize<'de>> StreamDeserializer<SliceRead<'de>, T> {
    /// Values from a slice, borrowing from it.
    ///
    /// ```
    /// use msgpack_serde::StreamDeserializer;
    ///
    /// let bytes = [0xa1, b'a', 0xa1, b'b'];
    /// let words: Vec<&str> = StreamDeserializer::from_slice(&bytes).collect::<Result<_, _>>().unwrap();
    /// assert_eq!(words, ["a", "b"]);
    /// ```
    pub fn from_slice(input: &'de [u8]) -> Self {
        StreamDeserializer {
            de: Deserializer::from_slice(input),
            failed: false,
            output: PhantomData,
        }
    }
}

impl<R: io::Read, T: DeserializeOwned> StreamDeserializer<IoRead<R>, T> {
    /// Values from a reader, until it ends.
    ///
    /// ```
    /// use msgpack_serde::StreamDeserializer;
    ///
    /// let input: &[u8] = &[0x01, 0xcd, 0x01, 0x2c];
    /// let numbers: Vec<u16> = StreamDeserializer::from_reader(input).collect::<Result<_, _>>().unwrap();
    /// assert_eq!(numbers, [1, 300]);
    /// ```
    pub fn from_reader(reader: R) -> Self {
        StreamDeserializer {
            de: Deserializer::from_reader(reader),
            failed: false,
            output: PhantomData,
        }
    }
}

impl<R, T> StreamDeserializer<R, T> {
    /// Values from where `de` stands, with its limits and settings.
    pub(crate) fn from_deserializer(de: Deserializer<R>) -> Self {
        StreamDeserializer {
            de,
            failed: false,
            output: PhantomData,
        }
    }

    /// Sets the [`Limits`]: the depth and value-count limits apply to each
    /// value, the size limit to the whole input (for a reader, every byte
    /// read from the stream so far).
    ///
    /// ```
    /// use msgpack_serde::{Limits, StreamDeserializer, Value};
    ///
    /// let bytes = [0x91, 0xc0, 0x91, 0x91, 0xc0]; // [nil], then [[nil]]
    /// let limits = Limits::default().max_depth(1);
    /// let mut stream = StreamDeserializer::<_, Value>::from_slice(&bytes).with_limits(limits);
    /// assert!(stream.next().unwrap().is_ok());
    /// let error = stream.next().unwrap().unwrap_err();
    /// assert_eq!(error.to_string(), "nesting exceeds the depth limit of 1 at offset 3");
    /// ```
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.de = self.de.with_limits(limits);
        self
    }

    /// Sets what `is_human_readable()` answers, as
    /// [`Deserializer::human_readable`].
    ///
    /// ```
    /// use msgpack_serde::{Config, StreamDeserializer};
    /// use std::net::Ipv4Addr;
    ///
    /// let bytes = msgpack_serde::to_vec_with_config(&Ipv4Addr::LOCALHOST, Config::named().human_readable(true))?;
    /// let mut stream = StreamDeserializer::<_, Ipv4Addr>::from_slice(&bytes).human_readable(true);
    /// assert_eq!(stream.next().unwrap()?, Ipv4Addr::LOCALHOST);
    /// # Ok::<(), msgpack_serde::Error>(())
    /// ```
    #[must_use]
    pub fn human_readable(mut self, human_readable: bool) -> Self {
        self.de = self.de.human_readable(human_readable);
        self
    }
}

impl<'de, R: Read<'de>, T> StreamDeserializer<R, T> {
    /// The offset just past the last value read successfully; after an
    /// error from a reader, past the bytes of the failed value that were
    /// read. A slice stream can resume there once more bytes arrive.
    ///
    /// ```
    /// use msgpack_serde::StreamDeserializer;
    ///
    /// let bytes = [0x01, 0xcd, 0x01]; // 1, then a cut-short uint 16
    /// let mut stream = StreamDeserializer::<_, u16>::from_slice(&bytes);
    /// assert_eq!(stream.next().unwrap().unwrap(), 1);
    /// assert!(stream.next().unwrap().unwrap_err().is_eof());
    /// assert_eq!(stream.byte_offset(), 1); // where the cut-short value starts
    ///
    /// let mut stream = StreamDeserializer::<_, u16>::from_reader(&bytes[..]);
    /// assert_eq!(stream.next().unwrap().unwrap(), 1);
    /// assert_eq!(stream.byte_offset(), 1);
    /// assert!(stream.next().unwrap().unwrap_err().is_eof());
    /// assert_eq!(stream.byte_offset(), 3);
    /// ```
    pub fn byte_offset(&self) -> usize {
        self.de.byte_offset()
    }
}

impl<R, T> StreamDeserializer<R, T> {
    fn record<V>(&mut self, result: Result<V>) -> Option<Result<V>> {
        self.failed = result.is_err();
        Some(result)
    }
}

impl<'de, R: Read<'de>, T: Deserialize<'de>> Iterator for StreamDeserializer<R, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if self.failed {
            return None;
        }
        match self.de.read_mut().at_end() {
            Ok(true) => None,
            Ok(false) => {
                let result = crate::de::deserialize_placed(&mut self.de);
                self.record(result)
            }
            Err(error) => self.record(Err(error)),
        }
    }
}
