//! The error of a call, and what the connection reports while serving.

use std::fmt;

use msgpack_serde::Value;

/// Why a call or a notification failed.
///
/// The peer's error object is kept intact: [`Error::remote_error`] gives it
/// back as a [`Value`], whatever its shape (Neovim sends
/// `[type, message]`, other peers a string or a map).
pub struct Error(Box<ErrorCode>);

enum ErrorCode {
    /// The peer answered with an error object.
    Remote(Value),
    /// The connection closed before the answer came.
    Closed,
    /// No answer within the call's timeout.
    Timeout,
    /// The params could not be encoded.
    Encode(msgpack_serde::Error),
    /// The result is not of the type asked for.
    Decode(msgpack_serde::Error),
    /// The response to the call was malformed.
    Malformed(crate::MessageError),
    /// The peer's error object did not decode as a `Value` (it nests
    /// deeper than the decoding limits allow, holds more values than
    /// they do, or holds a string that is not UTF-8).
    RemoteUndecodable(msgpack_serde::Error),
}

impl Error {
    #[cold]
    fn new(code: ErrorCode) -> Error {
        Error(Box::new(code))
    }

    #[cold]
    pub(crate) fn remote(error: Value) -> Error {
        Error::new(ErrorCode::Remote(error))
    }

    #[cold]
    pub(crate) fn closed() -> Error {
        Error::new(ErrorCode::Closed)
    }

    #[cold]
    pub(crate) fn timeout() -> Error {
        Error::new(ErrorCode::Timeout)
    }

    #[cold]
    pub(crate) fn encode(error: msgpack_serde::Error) -> Error {
        Error::new(ErrorCode::Encode(error))
    }

    #[cold]
    pub(crate) fn decode(error: msgpack_serde::Error) -> Error {
        Error::new(ErrorCode::Decode(error))
    }

    #[cold]
    pub(crate) fn malformed(error: crate::MessageError) -> Error {
        Error::new(ErrorCode::Malformed(error))
    }

    #[cold]
    pub(crate) fn remote_undecodable(error: msgpack_serde::Error) -> Error {
        Error::new(ErrorCode::RemoteUndecodable(error))
    }

    /// The peer's error object, when the peer answered with one.
    pub fn remote_error(&self) -> Option<&Value> {
        match &*self.0 {
            ErrorCode::Remote(value) => Some(value),
            _ => None,
        }
    }

    /// The peer's error object, by value.
    pub fn into_remote_error(self) -> Option<Value> {
        match *self.0 {
            ErrorCode::Remote(value) => Some(value),
            _ => None,
        }
    }

    /// Whether the connection closed before the answer came.
    pub fn is_closed(&self) -> bool {
        matches!(&*self.0, ErrorCode::Closed)
    }

    /// Whether the call's timeout passed first.
    pub fn is_timeout(&self) -> bool {
        matches!(&*self.0, ErrorCode::Timeout)
    }

    /// Whether the result did not decode into the type asked for.
    pub fn is_decode(&self) -> bool {
        matches!(&*self.0, ErrorCode::Decode(_))
    }

    /// Whether the peer's response was not one this call can take: a
    /// malformed message with the call's msgid, or an error object that
    /// does not decode as a [`Value`] under `from_slice`'s limits (too
    /// deeply nested, for one).
    pub fn is_malformed(&self) -> bool {
        matches!(
            &*self.0,
            ErrorCode::Malformed(_) | ErrorCode::RemoteUndecodable(_)
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &*self.0 {
            ErrorCode::Remote(value) => write!(f, "the peer answered with an error: {value}"),
            ErrorCode::Closed => f.write_str("connection closed"),
            ErrorCode::Timeout => f.write_str("no response within the call's timeout"),
            ErrorCode::Encode(error) => write!(f, "encoding the params: {error}"),
            ErrorCode::Decode(error) => write!(f, "decoding the result: {error}"),
            ErrorCode::Malformed(error) => write!(f, "the response: {error}"),
            ErrorCode::RemoteUndecodable(error) => {
                write!(f, "decoding the peer's error object: {error}")
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
            ErrorCode::Encode(error)
            | ErrorCode::Decode(error)
            | ErrorCode::RemoteUndecodable(error) => Some(error),
            ErrorCode::Malformed(error) => Some(error),
            _ => None,
        }
    }
}

/// Something wrong the connection met while serving, and went on past
/// (or, for [`Report::Stream`], stopped at). Given to the
/// [`on_report`](crate::Builder::on_report) callback.
#[derive(Debug)]
#[non_exhaustive]
pub enum Report {
    /// A frame that is not a msgpack-rpc message; skipped.
    Malformed(crate::MessageError),
    /// A response whose msgid no call is waiting for (a call that timed
    /// out or was dropped, or a confused peer); dropped.
    UnknownResponse {
        /// The msgid of the response.
        msgid: u32,
    },
    /// A request for a method with no handler; answered with an error.
    UnknownMethod {
        /// The method asked for.
        method: String,
    },
    /// A notification for a method with no handler; dropped.
    UnknownNotification {
        /// The method named.
        method: String,
    },
    /// Params that do not decode into the handler's type; a request gets
    /// an error response, a notification is dropped.
    BadParams {
        /// The method.
        method: String,
        /// What decoding said.
        error: msgpack_serde::Error,
    },
    /// A handler's result or error that could not be encoded; the request
    /// gets an error response saying so.
    Encode {
        /// The method.
        method: String,
        /// What encoding said.
        error: msgpack_serde::Error,
    },
    /// A handler (for a request or a notification) panicked; a request
    /// gets an error response saying so, and serving goes on.
    Panicked {
        /// The method.
        method: String,
    },
    /// The byte stream failed (invalid MessagePack, a broken limit, an
    /// I/O error): MessagePack cannot resynchronise, so the connection
    /// closes.
    Stream(msgpack_tokio::Error),
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Report::Malformed(error) => write!(f, "{error}"),
            Report::UnknownResponse { msgid } => {
                write!(
                    f,
                    "a response to msgid {msgid}, which no call is waiting for"
                )
            }
            Report::UnknownMethod { method } => {
                write!(f, "a request for unknown method `{method}`")
            }
            Report::UnknownNotification { method } => {
                write!(f, "a notification for unknown method `{method}`")
            }
            Report::BadParams { method, error } => write!(f, "bad params for `{method}`: {error}"),
            Report::Encode { method, error } => {
                write!(f, "encoding the answer of `{method}`: {error}")
            }
            Report::Panicked { method } => write!(f, "the handler of `{method}` panicked"),
            Report::Stream(error) => write!(f, "the stream ended: {error}"),
        }
    }
}
