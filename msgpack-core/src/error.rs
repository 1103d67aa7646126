//! What can go wrong reading or writing MessagePack.

use core::fmt;

use crate::Marker;

/// `Display` as `$message` and `core::error::Error` for a unit struct that
/// is an error with nothing more to say, as [`BufferFull`](crate::BufferFull)
/// and [`OutOfRange`](crate::OutOfRange) are.
macro_rules! unit_error {
    ($ty:ident, $message:literal) => {
        impl core::fmt::Display for $ty {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str($message)
            }
        }

        impl core::error::Error for $ty {}
    };
}
pub(crate) use unit_error;

/// A decoding error: what went wrong, and the byte offset where it did.
///
/// ```
/// use msgpack_core::{ErrorKind, Reader};
///
/// let mut reader = Reader::new(&[0x92, 0x01]); // an array of 2, one element
/// assert_eq!(reader.read_array_len(), Ok(2));
/// assert_eq!(reader.read_int::<u8>(), Ok(1));
/// let error = reader.read_int::<u8>().unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::UnexpectedEof);
/// assert_eq!(error.offset(), 2);
/// assert_eq!(error.to_string(), "unexpected end of input at offset 2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    offset: usize,
}

/// The kinds of [`Error`].
///
/// ```
/// use msgpack_core::{ErrorKind, Marker, Reader};
///
/// let error = Reader::new(&[0xa1, b'x']).read_bool().unwrap_err();
/// assert_eq!(error.kind(), ErrorKind::TypeMismatch { expected: "a boolean", found: Marker::FixStr(1) });
/// assert_eq!(error.kind().to_string(), "invalid type: fixstr (0xa1), expected a boolean");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a value: more bytes would be needed.
    UnexpectedEof,
    /// The reserved byte `0xc1` where a value was expected.
    ReservedMarker,
    /// A value of another type than the one asked for.
    TypeMismatch {
        /// What the caller asked for, such as `"an integer"`.
        expected: &'static str,
        /// The marker that was found.
        found: Marker,
    },
    /// An integer that does not fit the type asked for, such as 300 for a `u8`.
    OutOfRange {
        /// The type asked for, such as `"u8"`.
        expected: &'static str,
    },
    /// A string that is not valid UTF-8.
    InvalidUtf8,
    /// A length that does not fit this platform's `usize`.
    LengthOverflow,
    /// A timestamp extension of the wrong length or with nanoseconds above 999,999,999.
    InvalidTimestamp,
    /// Containers nested deeper than the depth limit.
    DepthLimitExceeded {
        /// The limit in force.
        limit: usize,
    },
    /// More values than the value-count limit.
    ValueLimitExceeded {
        /// The limit in force.
        limit: usize,
    },
    /// More input than the size limit.
    SizeLimitExceeded {
        /// The limit in force, in bytes.
        limit: usize,
    },
    /// Bytes left over after a complete value.
    TrailingBytes,
    /// A value of a stream larger than the frame size limit
    /// ([`Framer::max_len`](crate::Framer::max_len)).
    FrameLimitExceeded {
        /// The limit in force, in bytes.
        limit: usize,
    },
}

impl Error {
    /// An error of `kind` at byte `offset`.
    ///
    /// ```
    /// use msgpack_core::{Error, ErrorKind};
    ///
    /// let error = Error::new(ErrorKind::InvalidTimestamp, 4);
    /// assert_eq!(error.to_string(), "invalid timestamp at offset 4");
    /// ```
    #[cold]
    pub const fn new(kind: ErrorKind, offset: usize) -> Error {
        Error { kind, offset }
    }

    /// What went wrong.
    ///
    /// ```
    /// use msgpack_core::{ErrorKind, Reader};
    ///
    /// let error = Reader::new(&[0xc1]).read_nil().unwrap_err();
    /// assert_eq!(error.kind(), ErrorKind::ReservedMarker);
    /// ```
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The byte offset in the input where it went wrong.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0x01, 0x02, 0xc3]);
    /// reader.skip().unwrap();
    /// reader.skip().unwrap();
    /// assert_eq!(reader.read_int::<u8>().unwrap_err().offset(), 2);
    /// ```
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// Whether more input might have made this a success: the input ended
    /// inside a value. Lets a stream reader wait for more bytes.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let truncated = Reader::new(&[0xcd, 0x01]).read_int::<u16>().unwrap_err();
    /// assert!(truncated.is_eof());
    /// let invalid = Reader::new(&[0xc1]).read_int::<u16>().unwrap_err();
    /// assert!(!invalid.is_eof());
    /// ```
    pub const fn is_eof(&self) -> bool {
        matches!(self.kind, ErrorKind::UnexpectedEof)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ErrorKind::UnexpectedEof => f.write_str("unexpected end of input"),
            ErrorKind::ReservedMarker => f.write_str("reserved marker 0xc1"),
            ErrorKind::TypeMismatch { expected, found } => {
                write!(f, "invalid type: {found}, expected {expected}")
            }
            ErrorKind::OutOfRange { expected } => write!(f, "integer out of range for {expected}"),
            ErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8 in string"),
            ErrorKind::LengthOverflow => f.write_str("length does not fit in memory"),
            ErrorKind::InvalidTimestamp => f.write_str("invalid timestamp"),
            ErrorKind::DepthLimitExceeded { limit } => {
                write!(f, "nesting exceeds the depth limit of {limit}")
            }
            ErrorKind::ValueLimitExceeded { limit } => {
                write!(f, "more values than the limit of {limit}")
            }
            ErrorKind::SizeLimitExceeded { limit } => {
                write!(f, "input exceeds the size limit of {limit} bytes")
            }
            ErrorKind::TrailingBytes => f.write_str("trailing bytes after the value"),
            ErrorKind::FrameLimitExceeded { limit } => {
                write!(f, "value exceeds the frame size limit of {limit} bytes")
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at offset {}", self.kind, self.offset)
    }
}

impl core::error::Error for Error {}

/// An encoding error: the output failed, or a length exceeds what
/// MessagePack can describe (`u32::MAX` bytes or elements).
///
/// ```
/// use msgpack_core::{encode, EncodeError};
///
/// let mut out = Vec::new();
/// let too_long = u32::MAX as usize + 1;
/// assert_eq!(encode::write_array_len(&mut out, too_long), Err(EncodeError::LengthOverflow(too_long)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodeError<E> {
    /// The output failed, such as a full buffer or an I/O error.
    Write(E),
    /// A str, bin, array, map or ext longer than `u32::MAX`.
    LengthOverflow(usize),
}

impl<E: fmt::Display> fmt::Display for EncodeError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::Write(error) => write!(f, "write failed: {error}"),
            EncodeError::LengthOverflow(len) => {
                write!(
                    f,
                    "length {len} exceeds the MessagePack maximum of 4294967295"
                )
            }
        }
    }
}

impl<E: core::error::Error + 'static> core::error::Error for EncodeError<E> {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            EncodeError::Write(error) => Some(error),
            EncodeError::LengthOverflow(_) => None,
        }
    }
}

impl<E> From<E> for EncodeError<E> {
    fn from(error: E) -> Self {
        EncodeError::Write(error)
    }
}
