//! The one error type of this crate.

use std::fmt;
use std::io;

use msgpack_serde::core::ErrorKind;

/// An error reading or writing MessagePack values over a byte stream.
///
/// Decoding errors carry the offset in the stream (counted from its first
/// byte, across all values) where they happened, and say which limit a
/// value broke:
///
/// ```
/// use bytes::BytesMut;
/// use msgpack_tokio::MsgPackCodec;
/// use tokio_util::codec::Decoder;
///
/// let mut codec = MsgPackCodec::<(), u32>::new().with_max_frame_len(1024);
/// let mut input = BytesMut::from(&[0x07, 0xdb, 0xff, 0xff, 0xff, 0xff][..]); // 7, then a 4 GiB str
/// assert_eq!(codec.decode(&mut input).unwrap(), Some(7));
/// let error = codec.decode(&mut input).unwrap_err();
/// assert_eq!(error.to_string(), "value exceeds the frame size limit of 1024 bytes at offset 1");
/// assert_eq!(error.offset(), Some(1));
/// ```
pub struct Error(Box<ErrorCode>);

enum ErrorCode {
    Io(io::Error),
    /// From framing: the value's bytes are not valid MessagePack or break
    /// a limit. The offset is the stream's.
    Frame(msgpack_serde::core::Error),
    /// From decoding a whole value (offset moved to the stream's) or from
    /// encoding one (no offset).
    Serde(msgpack_serde::Error),
    /// The stream ended inside a value.
    Truncated {
        start: usize,
        received: usize,
    },
    /// The stream had already ended with an error.
    AfterError {
        offset: Option<usize>,
    },
}

impl Error {
    #[cold]
    fn new(code: ErrorCode) -> Error {
        Error(Box::new(code))
    }

    #[cold]
    pub(crate) fn frame(error: msgpack_serde::core::Error) -> Error {
        Error::new(ErrorCode::Frame(error))
    }

    #[cold]
    pub(crate) fn serde(error: msgpack_serde::Error) -> Error {
        Error::new(ErrorCode::Serde(error))
    }

    #[cold]
    pub(crate) fn truncated(start: usize, received: usize) -> Error {
        Error::new(ErrorCode::Truncated { start, received })
    }

    #[cold]
    pub(crate) fn after_error(offset: Option<usize>) -> Error {
        Error::new(ErrorCode::AfterError { offset })
    }

    /// The stream offset where decoding failed; `None` for I/O and
    /// encoding errors.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use msgpack_tokio::MsgPackCodec;
    /// use tokio_util::codec::Decoder;
    ///
    /// let mut codec = MsgPackCodec::<(), String>::new();
    /// let mut input = BytesMut::from(&[0xa1, b'a', 0x2a][..]); // "a", then 42
    /// assert_eq!(codec.decode(&mut input).unwrap().as_deref(), Some("a"));
    /// let error = codec.decode(&mut input).unwrap_err();
    /// assert_eq!(error.to_string(), "invalid type: integer `42`, expected a string at offset 2");
    /// assert_eq!(error.offset(), Some(2));
    /// ```
    pub fn offset(&self) -> Option<usize> {
        match &*self.0 {
            ErrorCode::Io(_) => None,
            ErrorCode::Frame(error) => Some(error.offset()),
            ErrorCode::Serde(error) => error.offset(),
            ErrorCode::Truncated { start, received } => Some(start + received),
            ErrorCode::AfterError { offset } => *offset,
        }
    }

    /// Whether reading or writing the stream itself failed.
    ///
    /// ```
    /// use std::io;
    ///
    /// let error = msgpack_tokio::Error::from(io::Error::from(io::ErrorKind::ConnectionReset));
    /// assert!(error.is_io());
    /// ```
    pub fn is_io(&self) -> bool {
        matches!(&*self.0, ErrorCode::Io(_))
    }

    /// Whether the stream ended inside a value: the peer closed the
    /// connection, or stopped writing, partway through one.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use msgpack_tokio::MsgPackCodec;
    /// use tokio_util::codec::Decoder;
    ///
    /// let mut codec = MsgPackCodec::<(), String>::new();
    /// let mut input = BytesMut::from(&[0xa3, b'a'][..]); // a 3-byte string, 1 byte of it
    /// assert_eq!(codec.decode(&mut input).unwrap(), None); // waits for more
    /// let error = codec.decode_eof(&mut input).unwrap_err(); // the stream ends
    /// assert!(error.is_truncated());
    /// assert_eq!(error.to_string(), "truncated at end of stream: the value at offset 0 ended after 2 bytes");
    /// ```
    pub fn is_truncated(&self) -> bool {
        matches!(&*self.0, ErrorCode::Truncated { .. })
    }

    /// Whether a limit stopped the value: depth, value count, stream size
    /// or frame size.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use msgpack_tokio::{Limits, MsgPackCodec};
    /// use tokio_util::codec::Decoder;
    ///
    /// let mut codec = MsgPackCodec::<(), Vec<Vec<u8>>>::new().with_limits(Limits::new().max_depth(1));
    /// let error = codec.decode(&mut BytesMut::from(&[0x91, 0x90][..])).unwrap_err(); // [[]]
    /// assert_eq!(error.to_string(), "nesting exceeds the depth limit of 1 at offset 1");
    /// assert!(error.is_limit());
    /// ```
    pub fn is_limit(&self) -> bool {
        let kind = match &*self.0 {
            ErrorCode::Frame(error) => Some(error.kind()),
            ErrorCode::Serde(error) => error.wire_kind(),
            _ => None,
        };
        matches!(
            kind,
            Some(
                ErrorKind::DepthLimitExceeded { .. }
                    | ErrorKind::ValueLimitExceeded { .. }
                    | ErrorKind::SizeLimitExceeded { .. }
                    | ErrorKind::FrameLimitExceeded { .. }
            )
        )
    }

    /// The wire-format error behind this one, if there is one.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use msgpack_tokio::MsgPackCodec;
    /// use msgpack_serde::core::ErrorKind;
    /// use tokio_util::codec::Decoder;
    ///
    /// let mut codec = MsgPackCodec::<(), bytes::Bytes>::new();
    /// let error = codec.decode(&mut BytesMut::from(&[0x92, 0xc1][..])).unwrap_err();
    /// assert_eq!(error.wire_kind(), Some(ErrorKind::ReservedMarker));
    /// ```
    pub fn wire_kind(&self) -> Option<ErrorKind> {
        match &*self.0 {
            ErrorCode::Frame(error) => Some(error.kind()),
            ErrorCode::Serde(error) => error.wire_kind(),
            _ => None,
        }
    }
}

impl From<io::Error> for Error {
    #[cold]
    fn from(error: io::Error) -> Error {
        Error::new(ErrorCode::Io(error))
    }
}

/// Converts to an `io::Error`, keeping I/O errors as they were; a value
/// cut short is `UnexpectedEof`, anything else `InvalidData`.
impl From<Error> for io::Error {
    fn from(error: Error) -> io::Error {
        let kind = match &*error.0 {
            ErrorCode::Truncated { .. } => io::ErrorKind::UnexpectedEof,
            ErrorCode::Io(_) => match *error.0 {
                ErrorCode::Io(error) => return error,
                _ => unreachable!("matched above"),
            },
            _ => io::ErrorKind::InvalidData,
        };
        io::Error::new(kind, error)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &*self.0 {
            ErrorCode::Io(error) => fmt::Display::fmt(error, f),
            ErrorCode::Frame(error) => fmt::Display::fmt(error, f),
            ErrorCode::Serde(error) => fmt::Display::fmt(error, f),
            ErrorCode::Truncated { start, received } => write!(
                f,
                "truncated at end of stream: the value at offset {start} ended after {received} bytes"
            ),
            ErrorCode::AfterError {
                offset: Some(offset),
            } => write!(
                f,
                "the stream already ended with an error at offset {offset}"
            ),
            ErrorCode::AfterError { offset: None } => {
                f.write_str("the stream already ended with an error")
            }
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error({:?})", self.to_string())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &*self.0 {
            ErrorCode::Io(error) => Some(error),
            ErrorCode::Frame(error) => Some(error),
            ErrorCode::Serde(error) => Some(error),
            _ => None,
        }
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
