//! Reading values back to back.

use std::io;
use std::marker::PhantomData;

use serde::de::{Deserialize, DeserializeOwned};

use crate::read::{IoRead, SliceRead};
use crate::{Deserializer, Error, Limits, Result};

/// An iterator over values written back to back, from a slice or a reader.
///
/// A value cut short by the end of the input is reported as an error whose
/// [`is_eof`](Error::is_eof) is true: the bytes so far are a valid prefix,
/// so a caller framing a socket can wait for more and resume at
/// [`byte_offset`](StreamDeserializer::byte_offset). Any other error means
/// invalid data. After an error the iterator ends.
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
    pub fn from_reader(reader: R) -> Self {
        StreamDeserializer {
            de: Deserializer::from_reader(reader),
            failed: false,
            output: PhantomData,
        }
    }
}

impl<R, T> StreamDeserializer<R, T> {
    /// Sets the [`Limits`] applied to each value.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.de = self.de.with_limits(limits);
        self
    }
}

impl<'de, T> StreamDeserializer<SliceRead<'de>, T> {
    /// The offset just past the last value read successfully.
    pub fn byte_offset(&self) -> usize {
        self.de.byte_offset()
    }
}

impl<R: io::Read, T> StreamDeserializer<IoRead<R>, T> {
    /// The stream offset just past the last value read.
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

impl<'de, T: Deserialize<'de>> Iterator for StreamDeserializer<SliceRead<'de>, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        let read = self.de.read_mut();
        if self.failed || read.pos == read.input.len() {
            return None;
        }
        let result = T::deserialize(&mut self.de);
        self.record(result)
    }
}

impl<R: io::Read, T: DeserializeOwned> Iterator for StreamDeserializer<IoRead<R>, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if self.failed {
            return None;
        }
        match self.de.read_mut().at_end() {
            Ok(true) => None,
            Ok(false) => {
                let result = T::deserialize(&mut self.de);
                self.record(result)
            }
            Err(error) => self.record(Err::<T, Error>(error)),
        }
    }
}
