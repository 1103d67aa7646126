//! The one error type of this crate.

use std::fmt::{self, Display};
use std::io;

use msgpack_core::{EncodeError, ErrorKind};

/// An error from serializing or deserializing MessagePack.
///
/// Decoding errors carry the byte offset where they happened:
///
/// ```
/// let error = msgpack_serde::from_slice::<u32>(&[0xa1, b'x']).unwrap_err();
/// assert_eq!(error.to_string(), r#"invalid type: string "x", expected u32 at offset 0"#);
/// assert_eq!(error.offset(), Some(0));
/// ```
// A box keeps `Result<T, Error>` one word wider than `T` at most.
pub struct Error(Box<ErrorImpl>);

struct ErrorImpl {
    code: ErrorCode,
    offset: Option<usize>,
}

enum ErrorCode {
    /// From serde's `custom`, `invalid_type` and friends.
    Message(Box<str>),
    /// From the wire-format layer.
    Wire(ErrorKind),
    Io(io::Error),
    LengthOverflow(usize),
    SkippedFieldInCompactMode(&'static str),
    IntegerOutOfRange,
    /// Bytes handed to `RawValue` that are not one MessagePack value.
    InvalidRawValue,
    /// An extension whose serde form is not the tuple `(i8, bytes)`.
    InvalidExt,
}

/// The broad kinds of [`Error`], as `serde_json::error::Category`.
///
/// ```
/// use msgpack_serde::{from_slice, Category};
///
/// assert_eq!(from_slice::<u16>(&[0xcd, 0x01]).unwrap_err().classify(), Category::Eof);
/// assert_eq!(from_slice::<u16>(&[0xc1]).unwrap_err().classify(), Category::Syntax);
/// assert_eq!(from_slice::<u16>(&[0xc3]).unwrap_err().classify(), Category::Data);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Reading or writing the underlying I/O failed.
    Io,
    /// The input is not valid MessagePack.
    Syntax,
    /// The input is valid MessagePack, but not of the shape the type wants,
    /// or a value cannot be represented in MessagePack.
    Data,
    /// The input ended inside a value: more bytes could make it valid.
    Eof,
}

/// Places an error in `result` that has no offset at `offset`. In place:
/// a result rebuilt by `map_err` would be a copy of a large value on its
/// way out.
#[inline(always)]
pub(crate) fn place_own_error<T>(result: &mut Result<T>, offset: usize) {
    if let Err(error) = result {
        error.place(offset);
    }
}

impl Error {
    #[cold]
    fn new(code: ErrorCode, offset: Option<usize>) -> Error {
        Error(Box::new(ErrorImpl { code, offset }))
    }

    /// The byte offset in the input where decoding failed; `None` for
    /// serialization errors and I/O errors. The decoder's errors, and a
    /// visitor's (serde's "invalid value", "unknown field"), are at the
    /// start of the value they are about, and a container's visitor's
    /// ("missing field") at the container's; an error a `Deserialize`
    /// impl makes after its deserializer returned (`de::Error::custom` on
    /// a value it read) is where the reader stopped in the element, key
    /// or value being read, or in the input for a value alone read by
    /// `from_slice`, `from_reader` or a
    /// [`StreamDeserializer`](crate::StreamDeserializer); a
    /// `T::deserialize(&mut deserializer)` of your own leaves it without
    /// one.
    ///
    /// ```
    /// let error = msgpack_serde::from_slice::<Vec<u8>>(&[0x92, 0x01, 0xa1, b'x']).unwrap_err();
    /// assert_eq!(error.to_string(), r#"invalid type: string "x", expected u8 at offset 2"#);
    /// assert_eq!(error.offset(), Some(2));
    /// assert_eq!(msgpack_serde::to_vec(&u128::MAX).unwrap_err().offset(), None);
    /// ```
    pub fn offset(&self) -> Option<usize> {
        self.0.offset
    }

    /// What kind of error this is.
    ///
    /// ```
    /// use msgpack_serde::Category;
    ///
    /// let error = msgpack_serde::from_slice::<bool>(&[0xc0]).unwrap_err();
    /// assert_eq!(error.to_string(), "invalid type: unit value, expected a boolean at offset 0");
    /// assert_eq!(error.classify(), Category::Data);
    /// ```
    pub fn classify(&self) -> Category {
        match &self.0.code {
            ErrorCode::Io(_) => Category::Io,
            ErrorCode::Wire(ErrorKind::UnexpectedEof) => Category::Eof,
            ErrorCode::Wire(
                ErrorKind::ReservedMarker
                | ErrorKind::InvalidUtf8
                | ErrorKind::InvalidTimestamp
                | ErrorKind::TrailingBytes,
            )
            | ErrorCode::InvalidRawValue => Category::Syntax,
            _ => Category::Data,
        }
    }

    /// Whether the input ended inside a value. A stream reader can wait
    /// for more bytes and try again.
    ///
    /// ```
    /// let error = msgpack_serde::from_slice::<String>(&[0xa3, b'a']).unwrap_err();
    /// assert_eq!(error.to_string(), "unexpected end of input at offset 2");
    /// assert!(error.is_eof());
    /// ```
    pub fn is_eof(&self) -> bool {
        self.classify() == Category::Eof
    }

    /// Whether the input is not valid MessagePack.
    ///
    /// ```
    /// let error = msgpack_serde::from_slice::<String>(&[0xa1, 0xff]).unwrap_err();
    /// assert_eq!(error.to_string(), "invalid UTF-8 in string at offset 0");
    /// assert!(error.is_syntax());
    /// ```
    pub fn is_syntax(&self) -> bool {
        self.classify() == Category::Syntax
    }

    /// Whether the input did not fit the type, or a value could not be written.
    ///
    /// ```
    /// let error = msgpack_serde::from_slice::<u8>(&[0xcd, 0x01, 0x00]).unwrap_err(); // 256
    /// assert_eq!(error.to_string(), "invalid value: integer `256`, expected u8 at offset 0");
    /// assert!(error.is_data());
    /// ```
    pub fn is_data(&self) -> bool {
        self.classify() == Category::Data
    }

    /// Whether I/O failed.
    ///
    /// ```
    /// use std::io;
    ///
    /// struct Full;
    ///
    /// impl io::Write for Full {
    ///     fn write(&mut self, _: &[u8]) -> io::Result<usize> {
    ///         Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
    ///     }
    ///     fn flush(&mut self) -> io::Result<()> {
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let error = msgpack_serde::to_writer(Full, &1).unwrap_err();
    /// assert!(error.is_io());
    /// assert_eq!(error.to_string(), "disk full");
    /// ```
    pub fn is_io(&self) -> bool {
        self.classify() == Category::Io
    }

    /// The wire-format error behind this one, if there is one.
    ///
    /// ```
    /// use msgpack_serde::core::ErrorKind;
    ///
    /// let error = msgpack_serde::from_slice::<bool>(&[0xc3, 0xc3]).unwrap_err();
    /// assert_eq!(error.wire_kind(), Some(ErrorKind::TrailingBytes));
    /// let error = msgpack_serde::from_slice::<bool>(&[0x01]).unwrap_err();
    /// assert_eq!(error.wire_kind(), None); // a type error from serde
    /// ```
    pub fn wire_kind(&self) -> Option<ErrorKind> {
        match self.0.code {
            ErrorCode::Wire(kind) => Some(kind),
            _ => None,
        }
    }

    /// This error at `offset`, unless it already has an offset.
    #[cold]
    pub(crate) fn at(mut self, offset: usize) -> Error {
        self.place(offset);
        self
    }

    /// Puts this error at `offset`, unless it already has an offset:
    /// [`at`](Self::at) in place, for a result that should not move.
    #[cold]
    pub(crate) fn place(&mut self, offset: usize) {
        if self.0.offset.is_none() && !matches!(self.0.code, ErrorCode::Io(_)) {
            self.0.offset = Some(offset);
        }
    }

    /// This error with its offset moved `base` bytes on, for a value
    /// decoded from a buffer that starts at `base` in a longer stream:
    /// its offset in the stream (msgpack-tokio's codec reports them so).
    ///
    /// ```
    /// let error = msgpack_serde::from_slice::<u8>(&[0xc3]).unwrap_err();
    /// assert_eq!(error.shifted(100).to_string(), "invalid type: boolean `true`, expected u8 at offset 100");
    /// ```
    #[cold]
    #[must_use]
    pub fn shifted(mut self, base: usize) -> Error {
        if let Some(offset) = &mut self.0.offset {
            *offset += base;
        }
        self
    }

    #[cold]
    pub(crate) fn skipped_field(field: &'static str) -> Error {
        Error::new(ErrorCode::SkippedFieldInCompactMode(field), None)
    }

    #[cold]
    pub(crate) fn integer_out_of_range() -> Error {
        Error::new(ErrorCode::IntegerOutOfRange, None)
    }

    #[cold]
    pub(crate) fn invalid_raw_value() -> Error {
        Error::new(ErrorCode::InvalidRawValue, None)
    }

    #[cold]
    pub(crate) fn invalid_ext() -> Error {
        Error::new(ErrorCode::InvalidExt, None)
    }

    /// An extension type outside -128 to 127: the wire layer's range
    /// error, with no offset (nothing was being read).
    #[cold]
    pub(crate) fn ext_type_out_of_range() -> Error {
        Error::new(
            ErrorCode::Wire(ErrorKind::OutOfRange { expected: "i8" }),
            None,
        )
    }

    #[cold]
    pub(crate) fn wire(kind: ErrorKind, offset: usize) -> Error {
        Error::new(ErrorCode::Wire(kind), Some(offset))
    }

    #[cold]
    pub(crate) fn io(error: io::Error) -> Error {
        Error::new(ErrorCode::Io(error), None)
    }

    /// serde's `custom` error, for serializing and deserializing alike.
    #[cold]
    fn message<T: Display>(message: T) -> Error {
        Error::new(
            ErrorCode::Message(message.to_string().into_boxed_str()),
            None,
        )
    }
}

impl From<msgpack_core::Error> for Error {
    #[cold]
    fn from(error: msgpack_core::Error) -> Error {
        Error::wire(error.kind(), error.offset())
    }
}

impl From<io::Error> for Error {
    #[cold]
    fn from(error: io::Error) -> Error {
        Error::io(error)
    }
}

impl From<std::convert::Infallible> for Error {
    fn from(never: std::convert::Infallible) -> Error {
        match never {}
    }
}

impl From<msgpack_core::BufferFull> for Error {
    #[cold]
    fn from(_: msgpack_core::BufferFull) -> Error {
        Error::io(io::Error::new(
            io::ErrorKind::WriteZero,
            "output buffer is full",
        ))
    }
}

impl<E> From<EncodeError<E>> for Error
where
    Error: From<E>,
{
    #[cold]
    fn from(error: EncodeError<E>) -> Error {
        match error {
            EncodeError::Write(error) => Error::from(error),
            EncodeError::LengthOverflow(len) => Error::new(ErrorCode::LengthOverflow(len), None),
        }
    }
}

impl Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorCode::Message(message) => f.write_str(message),
            ErrorCode::Wire(kind) => Display::fmt(kind, f),
            ErrorCode::Io(error) => Display::fmt(error, f),
            ErrorCode::LengthOverflow(len) => {
                write!(f, "length {len} exceeds the MessagePack maximum of 4294967295")
            }
            ErrorCode::SkippedFieldInCompactMode(field) => write!(
                f,
                "field `{field}` was skipped, which compact (struct-as-array) mode cannot \
                 represent without shifting later fields; use named mode or drop skip_serializing_if"
            ),
            ErrorCode::IntegerOutOfRange => {
                f.write_str("integer out of the MessagePack range (i64::MIN to u64::MAX)")
            }
            ErrorCode::InvalidRawValue => f.write_str("raw value is not exactly one MessagePack value"),
            ErrorCode::InvalidExt => f.write_str("an extension must serialize as (i8, bytes)"),
        }
    }
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.offset {
            Some(offset) => write!(f, "{} at offset {offset}", self.0.code),
            None => Display::fmt(&self.0.code, f),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({:?}", self.0.code.to_string())?;
        if let Some(offset) = self.0.offset {
            write!(f, ", offset: {offset}")?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.code {
            ErrorCode::Io(error) => Some(error),
            _ => None,
        }
    }
}

impl serde::ser::Error for Error {
    #[cold]
    fn custom<T: Display>(message: T) -> Error {
        Error::message(message)
    }
}

impl serde::de::Error for Error {
    #[cold]
    fn custom<T: Display>(message: T) -> Error {
        Error::message(message)
    }
}

/// Converts to an `io::Error`, keeping I/O errors as they were.
impl From<Error> for io::Error {
    fn from(error: Error) -> io::Error {
        match error.0.code {
            ErrorCode::Io(error) => error,
            _ => {
                let kind = match error.classify() {
                    Category::Eof => io::ErrorKind::UnexpectedEof,
                    _ => io::ErrorKind::InvalidData,
                };
                io::Error::new(kind, error)
            }
        }
    }
}

/// `Result` with this crate's [`Error`].
///
/// ```
/// fn encode_pair(a: u8, b: &str) -> msgpack_serde::Result<Vec<u8>> {
///     msgpack_serde::to_vec(&(a, b))
/// }
///
/// assert_eq!(encode_pair(1, "x")?, [0x92, 0x01, 0xa1, b'x']);
/// # Ok::<(), msgpack_serde::Error>(())
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;
