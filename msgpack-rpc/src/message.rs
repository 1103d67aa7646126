//! The three msgpack-rpc messages, as the spec (msgpack-rpc/msgpack-rpc,
//! `spec.md`) lays them out:
//!
//! | message | array |
//! |---|---|
//! | request | `[0, msgid, method, params]` |
//! | response | `[1, msgid, error, result]` |
//! | notification | `[2, method, params]` |
//!
//! Params, error and result are kept as the bytes they arrived as (slices
//! of the frame, not copied), so any MessagePack value passes through
//! intact and is decoded only into the type its reader asks for.

use std::fmt;

use bytes::Bytes;
use msgpack_serde::core::Reader;
use serde::Serialize;

/// The type tag of a request.
pub const REQUEST: u8 = 0;
/// The type tag of a response.
pub const RESPONSE: u8 = 1;
/// The type tag of a notification.
pub const NOTIFICATION: u8 = 2;

/// One msgpack-rpc message, its values as their encoded bytes.
///
/// ```
/// use bytes::Bytes;
/// use msgpack_rpc::Message;
///
/// let frame = Bytes::from(msgpack_rpc::message::request(7, "add", &(1, 2)).unwrap());
/// assert_eq!(frame[..], [0x94, 0x00, 0x07, 0xa3, b'a', b'd', b'd', 0x92, 0x01, 0x02]);
/// match Message::parse(frame).unwrap() {
///     Message::Request { msgid, method, params } => {
///         assert_eq!((msgid, method.as_str()), (7, "add"));
///         assert_eq!(msgpack_serde::from_slice::<(i64, i64)>(&params).unwrap(), (1, 2));
///     }
///     other => panic!("not a request: {other:?}"),
/// }
/// ```
#[derive(Clone, PartialEq, Eq)]
pub enum Message {
    /// `[0, msgid, method, params]`: the peer waits for a response with
    /// the same msgid.
    Request {
        /// Matches the response to the request.
        msgid: u32,
        /// The method's name.
        method: String,
        /// The params, one encoded value (an array, by the spec).
        params: Bytes,
    },
    /// `[1, msgid, error, result]`: `error` is nil on success.
    Response {
        /// The msgid of the request answered.
        msgid: u32,
        /// The error object, one encoded value; nil (`0xc0`) on success.
        error: Bytes,
        /// The result, one encoded value; nil on error.
        result: Bytes,
    },
    /// `[2, method, params]`: no response.
    Notification {
        /// The method's name.
        method: String,
        /// The params, one encoded value.
        params: Bytes,
    },
}

/// Why a frame is not a msgpack-rpc message. The connection reports it
/// and goes on with the next one.
#[derive(Clone, PartialEq, Eq)]
pub struct MessageError {
    reason: String,
    /// The msgid of a response malformed past its msgid: the call waiting
    /// for it is told, not left waiting.
    response_to: Option<u32>,
}

impl MessageError {
    #[cold]
    fn new(reason: impl Into<String>) -> MessageError {
        MessageError {
            reason: reason.into(),
            response_to: None,
        }
    }

    /// The msgid of the malformed response, when it could be read.
    pub(crate) fn response_to(&self) -> Option<u32> {
        self.response_to
    }
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed msgpack-rpc message: {}", self.reason)
    }
}

impl fmt::Debug for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MessageError({:?})", self.to_string())
    }
}

impl std::error::Error for MessageError {}

impl Message {
    /// Parses one frame (exactly one MessagePack value, as
    /// [`MsgPackCodec`](msgpack_tokio::MsgPackCodec) yields them).
    ///
    /// ```
    /// use bytes::Bytes;
    /// use msgpack_rpc::Message;
    ///
    /// let error = Message::parse(Bytes::from_static(&[0x93, 0x03, 0xa1, b'x', 0x90])).unwrap_err();
    /// assert_eq!(error.to_string(), "malformed msgpack-rpc message: unknown type 3");
    /// ```
    pub fn parse(frame: Bytes) -> Result<Message, MessageError> {
        parse_as(&frame, false).map(Incoming::into_message)
    }
}

/// A message as the connection dispatches it: [`Message`] with the method
/// name borrowed from the frame, so that a request costs no allocation
/// for it.
#[derive(Debug)]
pub(crate) enum Incoming<'a> {
    Request {
        msgid: u32,
        method: &'a str,
        params: Bytes,
    },
    Response {
        msgid: u32,
        error: Bytes,
        result: Bytes,
    },
    Notification {
        method: &'a str,
        params: Bytes,
    },
}

impl Incoming<'_> {
    pub(crate) fn into_message(self) -> Message {
        match self {
            Incoming::Request {
                msgid,
                method,
                params,
            } => Message::Request {
                msgid,
                method: method.to_owned(),
                params,
            },
            Incoming::Response {
                msgid,
                error,
                result,
            } => Message::Response {
                msgid,
                error,
                result,
            },
            Incoming::Notification { method, params } => Message::Notification {
                method: method.to_owned(),
                params,
            },
        }
    }
}

/// Parses a frame that [`MsgPackCodec`](msgpack_tokio::MsgPackCodec) cut
/// out, so known to be exactly one whole value: the message's last
/// element is the rest of it, taken without walking it again.
pub(crate) fn parse_frame(frame: &Bytes) -> Result<Incoming<'_>, MessageError> {
    parse_as(frame, true)
}

fn parse_as(frame: &Bytes, whole: bool) -> Result<Incoming<'_>, MessageError> {
    let last = |frame: &Bytes, reader: &mut Reader<'_>, what: &str| {
        if whole {
            let start = frame.len() - reader.remaining().len();
            *reader = Reader::new(&[]);
            Ok(frame.slice(start..))
        } else {
            value(frame, reader, what)
        }
    };
    let mut reader = Reader::new(frame);
    let len = reader
        .read_array_len()
        .map_err(|_| MessageError::new("not an array"))?;
    let kind = reader
        .read_int::<u8>()
        .map_err(|_| MessageError::new("the type is not 0, 1 or 2"))?;
    let expected = match kind {
        REQUEST | RESPONSE => 4,
        NOTIFICATION => 3,
        other => return Err(MessageError::new(format!("unknown type {other}"))),
    };
    if len != expected {
        let mut error = MessageError::new(format!(
            "{} of {len} elements, not {expected}",
            kind_name(kind)
        ));
        if kind == RESPONSE && len >= 2 {
            error.response_to = reader.read_int::<u32>().ok();
        }
        return Err(error);
    }
    let msgid = |reader: &mut Reader<'_>| {
        reader
            .read_int::<u32>()
            .map_err(|_| MessageError::new("the msgid is not a 32-bit unsigned integer"))
    };
    fn method<'a>(reader: &mut Reader<'a>) -> Result<&'a str, MessageError> {
        reader
            .read_str()
            .map_err(|_| MessageError::new("the method is not a string"))
    }
    let message = match kind {
        REQUEST => Incoming::Request {
            msgid: msgid(&mut reader)?,
            method: method(&mut reader)?,
            params: last(frame, &mut reader, "params")?,
        },
        RESPONSE => Incoming::Response {
            msgid: msgid(&mut reader)?,
            error: value(frame, &mut reader, "error")?,
            result: last(frame, &mut reader, "result")?,
        },
        _ => Incoming::Notification {
            method: method(&mut reader)?,
            params: last(frame, &mut reader, "params")?,
        },
    };
    if !reader.remaining().is_empty() {
        return Err(MessageError::new("trailing bytes after the message"));
    }
    Ok(message)
}

/// The next value of `frame` (read by `reader`), as a slice of the frame.
fn value(frame: &Bytes, reader: &mut Reader<'_>, what: &str) -> Result<Bytes, MessageError> {
    let start = frame.len() - reader.remaining().len();
    reader
        .skip()
        .map_err(|error| MessageError::new(format!("the {what}: {error}")))?;
    let end = frame.len() - reader.remaining().len();
    Ok(frame.slice(start..end))
}

fn kind_name(kind: u8) -> &'static str {
    match kind {
        REQUEST => "a request",
        RESPONSE => "a response",
        _ => "a notification",
    }
}

/// Encodes the request `[0, msgid, method, params]`. Params that encode
/// as nil (`()`) are sent as the empty array: the spec's params are an
/// array, and peers such as Neovim refuse anything else.
///
/// ```
/// let bytes = msgpack_rpc::message::request(1, "echo", &("hi",)).unwrap();
/// assert_eq!(bytes, [0x94, 0x00, 0x01, 0xa4, b'e', b'c', b'h', b'o', 0x91, 0xa2, b'h', b'i']);
/// let bytes = msgpack_rpc::message::request(2, "f", &()).unwrap();
/// assert_eq!(bytes, [0x94, 0x00, 0x02, 0xa1, b'f', 0x90]);
/// ```
pub fn request<P: Serialize + ?Sized>(
    msgid: u32,
    method: &str,
    params: &P,
) -> msgpack_serde::Result<Vec<u8>> {
    encoded(|out| write_request(out, msgid, method, params))
}

/// Encodes the notification `[2, method, params]`, nil params as the
/// empty array (see [`request`]).
///
/// ```
/// let bytes = msgpack_rpc::message::notification("log", &("x",)).unwrap();
/// assert_eq!(bytes, [0x93, 0x02, 0xa3, b'l', b'o', b'g', 0x91, 0xa1, b'x']);
/// ```
pub fn notification<P: Serialize + ?Sized>(
    method: &str,
    params: &P,
) -> msgpack_serde::Result<Vec<u8>> {
    encoded(|out| write_notification(out, method, params))
}

/// Encodes the success response `[1, msgid, nil, result]`.
///
/// ```
/// let bytes = msgpack_rpc::message::success(9, &3).unwrap();
/// assert_eq!(bytes, [0x94, 0x01, 0x09, 0xc0, 0x03]);
/// ```
pub fn success<R: Serialize + ?Sized>(msgid: u32, result: &R) -> msgpack_serde::Result<Vec<u8>> {
    encoded(|out| write_success(out, msgid, result))
}

/// Encodes the error response `[1, msgid, error, nil]`.
///
/// ```
/// let bytes = msgpack_rpc::message::failure(9, "no").unwrap();
/// assert_eq!(bytes, [0x94, 0x01, 0x09, 0xa2, b'n', b'o', 0xc0]);
/// ```
pub fn failure<E: Serialize + ?Sized>(msgid: u32, error: &E) -> msgpack_serde::Result<Vec<u8>> {
    encoded(|out| write_failure(out, msgid, error))
}

fn encoded(
    write: impl FnOnce(&mut Vec<u8>) -> msgpack_serde::Result<()>,
) -> msgpack_serde::Result<Vec<u8>> {
    let mut out = Vec::new();
    write(&mut out)?;
    Ok(out)
}

/// Appends [`request`]'s bytes to `out` (part of them, on an error).
pub(crate) fn write_request<P: Serialize + ?Sized>(
    out: &mut Vec<u8>,
    msgid: u32,
    method: &str,
    params: &P,
) -> msgpack_serde::Result<()> {
    let start = out.len();
    msgpack_serde::to_writer(&mut *out, &(REQUEST, msgid, method))?;
    out[start] = 0x94; // the triple's fixarray header, one longer
    write_params(out, params)
}

/// Appends [`notification`]'s bytes to `out` (part of them, on an error).
pub(crate) fn write_notification<P: Serialize + ?Sized>(
    out: &mut Vec<u8>,
    method: &str,
    params: &P,
) -> msgpack_serde::Result<()> {
    let start = out.len();
    msgpack_serde::to_writer(&mut *out, &(NOTIFICATION, method))?;
    out[start] = 0x93; // the pair's fixarray header, one longer
    write_params(out, params)
}

/// Appends `params` to `out`, nil as the empty array.
fn write_params<P: Serialize + ?Sized>(out: &mut Vec<u8>, params: &P) -> msgpack_serde::Result<()> {
    let start = out.len();
    msgpack_serde::to_writer(&mut *out, params)?;
    if out[start..] == [0xc0] {
        out[start] = 0x90;
    }
    Ok(())
}

/// Appends [`success`]'s bytes to `out` (part of them, on an error).
pub(crate) fn write_success<R: Serialize + ?Sized>(
    out: &mut Vec<u8>,
    msgid: u32,
    result: &R,
) -> msgpack_serde::Result<()> {
    msgpack_serde::to_writer(out, &(RESPONSE, msgid, (), result))
}

/// Appends [`failure`]'s bytes to `out` (part of them, on an error).
pub(crate) fn write_failure<E: Serialize + ?Sized>(
    out: &mut Vec<u8>,
    msgid: u32,
    error: &E,
) -> msgpack_serde::Result<()> {
    msgpack_serde::to_writer(out, &(RESPONSE, msgid, error, ()))
}

impl fmt::Debug for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |bytes: &Bytes| match msgpack_serde::Value::from_slice(bytes) {
            Ok(value) => format!("{value:?}"),
            Err(_) => format!("{bytes:?}"),
        };
        match self {
            Message::Request {
                msgid,
                method,
                params,
            } => write!(f, "Request({msgid}, {method:?}, {})", show(params)),
            Message::Response {
                msgid,
                error,
                result,
            } => write!(f, "Response({msgid}, {}, {})", show(error), show(result)),
            Message::Notification { method, params } => {
                write!(f, "Notification({method:?}, {})", show(params))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use msgpack_serde::Value;

    #[track_caller]
    fn check(bytes: &[u8], expected: &Message) {
        assert_eq!(
            &Message::parse(Bytes::copy_from_slice(bytes)).unwrap(),
            expected
        );
    }

    #[track_caller]
    fn malformed(bytes: &[u8], reason: &str) {
        let error = Message::parse(Bytes::copy_from_slice(bytes)).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("malformed msgpack-rpc message: {reason}")
        );
    }

    fn raw(bytes: &'static [u8]) -> Bytes {
        Bytes::from_static(bytes)
    }

    #[test]
    fn a_request_is_four_elements_with_type_0() {
        let bytes = request(0x0102_0304, "m", &(true, ())).unwrap();
        assert_eq!(
            bytes,
            [0x94, 0x00, 0xce, 0x01, 0x02, 0x03, 0x04, 0xa1, b'm', 0x92, 0xc3, 0xc0]
        );
        check(
            &bytes,
            &Message::Request {
                msgid: 0x0102_0304,
                method: "m".into(),
                params: raw(&[0x92, 0xc3, 0xc0]),
            },
        );
    }

    #[test]
    fn the_largest_msgid_is_u32_max() {
        let bytes = request(u32::MAX, "m", &()).unwrap();
        assert_eq!(
            bytes,
            [0x94, 0x00, 0xce, 0xff, 0xff, 0xff, 0xff, 0xa1, b'm', 0x90]
        );
        malformed(
            &[0x94, 0x00, 0xcf, 0, 0, 0, 1, 0, 0, 0, 0, 0xa1, b'm', 0x90],
            "the msgid is not a 32-bit unsigned integer",
        );
        malformed(
            &[0x94, 0x00, 0xff, 0xa1, b'm', 0x90],
            "the msgid is not a 32-bit unsigned integer",
        );
    }

    #[test]
    fn a_response_keeps_error_and_result_intact() {
        // error [0, "boom"] (Neovim's shape), result an ext value.
        let error = (0, "boom");
        let bytes = failure(5, &error).unwrap();
        assert_eq!(
            bytes,
            [0x94, 0x01, 0x05, 0x92, 0x00, 0xa4, b'b', b'o', b'o', b'm', 0xc0]
        );
        check(
            &bytes,
            &Message::Response {
                msgid: 5,
                error: raw(&[0x92, 0x00, 0xa4, b'b', b'o', b'o', b'm']),
                result: raw(&[0xc0]),
            },
        );
        let ext = Value::Ext(3, vec![1, 2]);
        let bytes = success(6, &ext).unwrap();
        assert_eq!(bytes, [0x94, 0x01, 0x06, 0xc0, 0xd5, 0x03, 0x01, 0x02]);
        check(
            &bytes,
            &Message::Response {
                msgid: 6,
                error: raw(&[0xc0]),
                result: raw(&[0xd5, 0x03, 0x01, 0x02]),
            },
        );
    }

    #[test]
    fn a_notification_is_three_elements_with_type_2() {
        let bytes = notification("log", &("hé",)).unwrap();
        assert_eq!(
            bytes,
            [0x93, 0x02, 0xa3, b'l', b'o', b'g', 0x91, 0xa3, b'h', 0xc3, 0xa9]
        );
        check(
            &bytes,
            &Message::Notification {
                method: "log".into(),
                params: raw(&[0x91, 0xa3, b'h', 0xc3, 0xa9]),
            },
        );
    }

    #[test]
    fn params_of_any_shape_are_accepted_as_sent() {
        // The spec says params is an array; peers send maps and scalars
        // too, and the handler's type decides.
        check(
            &[0x93, 0x02, 0xa1, b'x', 0x81, 0xa1, b'k', 0x01],
            &Message::Notification {
                method: "x".into(),
                params: raw(&[0x81, 0xa1, b'k', 0x01]),
            },
        );
    }

    #[test]
    fn malformed_messages_say_what_is_wrong() {
        malformed(&[0x01], "not an array");
        malformed(&[0x90], "the type is not 0, 1 or 2");
        malformed(&[0x93, 0xa1, b'x'], "the type is not 0, 1 or 2");
        malformed(&[0x93, 0x03, 0xc0, 0xc0], "unknown type 3");
        malformed(
            &[0x93, 0x00, 0x01, 0xa1, b'm'],
            "a request of 3 elements, not 4",
        );
        malformed(
            &[0x94, 0x02, 0xa1, b'm', 0x90, 0xc0],
            "a notification of 4 elements, not 3",
        );
        malformed(
            &[0x95, 0x01, 0x01, 0xc0, 0xc0, 0xc0],
            "a response of 5 elements, not 4",
        );
        malformed(
            &[0x94, 0x00, 0x01, 0x07, 0x90],
            "the method is not a string",
        );
        malformed(
            &[0x94, 0x00, 0x01, 0xa1, b'm'],
            "the params: unexpected end of input at offset 5",
        );
        malformed(
            &[0x94, 0x01, 0x01, 0xc0],
            "the result: unexpected end of input at offset 4",
        );
        malformed(
            &[0x94, 0x01, 0x01, 0xc0, 0xc0, 0xc0],
            "trailing bytes after the message",
        );
    }

    #[test]
    fn a_whole_frame_parses_as_the_checked_parse_does() {
        let messages = [
            request(7, "add", &(1, "two", [3.5])).unwrap(),
            request(8, "f", &()).unwrap(),
            success(9, &Value::Ext(3, vec![1, 2])).unwrap(),
            failure(10, &(0, "boom")).unwrap(),
            notification("log", &("hé",)).unwrap(),
            vec![0x93, 0x02, 0xa1, b'x', 0x81, 0xa1, b'k', 0x01],
        ];
        for bytes in messages {
            let frame = Bytes::from(bytes);
            assert_eq!(
                parse_frame(&frame).map(Incoming::into_message),
                Message::parse(frame.clone()),
                "{frame:02x?}"
            );
        }
        // The elements before the last are still checked.
        let frame = Bytes::from_static(&[0x94, 0x00, 0x01, 0x07, 0x90]);
        let error = parse_frame(&frame);
        assert_eq!(
            error.unwrap_err().to_string(),
            "malformed msgpack-rpc message: the method is not a string"
        );
    }

    #[test]
    fn every_prefix_of_a_message_is_malformed() {
        let bytes = request(300, "echo", &(Value::Ext(1, vec![9; 4]),)).unwrap();
        for end in 0..bytes.len() {
            assert!(
                Message::parse(Bytes::copy_from_slice(&bytes[..end])).is_err(),
                "prefix of {end} bytes"
            );
        }
    }

    /// Elements a message-like array is built of: every type tag, msgids
    /// in and out of `u32`, method names valid and not, nil and nested
    /// values, each one whole value.
    const ELEMENTS: &[&[u8]] = &[
        &[0x00],
        &[0x01],
        &[0x02],
        &[0x03],
        &[0xcd, 0x01, 0x2c],
        &[0xce, 0xff, 0xff, 0xff, 0xff],
        &[0xcf, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00],
        &[0xff],
        &[0xa1, b'm'],
        &[0xd9, 0x03, b'a', b'd', b'd'],
        &[0xa2, 0xc3, 0xa9],
        &[0xa1, 0xff],
        &[0xc4, 0x01, b'm'],
        &[0xc0],
        &[0x90],
        &[0x92, 0x01, 0xa1, b'x'],
        &[0x81, 0xa1, b'k', 0x91, 0xc0],
        &[0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0],
        &[0xd6, 0xff, 0, 0, 0, 1],
    ];

    /// The message's parts written back in the smallest forms, its
    /// values as they arrived.
    fn written_back(message: &Message) -> Vec<u8> {
        use msgpack_serde::core::encode;
        let mut out = Vec::new();
        let (len, kind) = match message {
            Message::Request { .. } => (4, REQUEST),
            Message::Response { .. } => (4, RESPONSE),
            Message::Notification { .. } => (3, NOTIFICATION),
        };
        encode::write_array_len(&mut out, len).unwrap();
        encode::write_uint(&mut out, kind.into()).unwrap();
        match message {
            Message::Request {
                msgid,
                method,
                params,
            } => {
                encode::write_uint(&mut out, (*msgid).into()).unwrap();
                encode::write_str(&mut out, method).unwrap();
                out.extend_from_slice(params);
            }
            Message::Response {
                msgid,
                error,
                result,
            } => {
                encode::write_uint(&mut out, (*msgid).into()).unwrap();
                out.extend_from_slice(error);
                out.extend_from_slice(result);
            }
            Message::Notification { method, params } => {
                encode::write_str(&mut out, method).unwrap();
                out.extend_from_slice(params);
            }
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]

        /// Any array of whole values (as the codec cuts frames out):
        /// the connection's parse, which takes the last element as the
        /// rest of the frame, and the checked parse agree, errors too;
        /// and a message parsed writes back to a frame that parses the
        /// same, its values the bytes they arrived as.
        #[test]
        fn any_whole_frame_parses_alike_both_ways(
            kind in 0..4usize,
            rest in proptest::collection::vec(0..ELEMENTS.len(), 1..5),
            header in 0..3u8,
        ) {
            // Mostly the length a message of the first element's type
            // takes: a type tag first (four of them), then anything.
            let picks: Vec<usize> = std::iter::once(kind).chain(rest).collect();
            let mut bytes = match header {
                0 => vec![0x90 | picks.len() as u8],
                1 => vec![0xdc, 0x00, picks.len() as u8],
                _ => vec![0xdd, 0x00, 0x00, 0x00, picks.len() as u8],
            };
            for &pick in &picks {
                bytes.extend_from_slice(ELEMENTS[pick]);
            }
            let frame = Bytes::from(bytes);
            let checked = Message::parse(frame.clone());
            proptest::prop_assert_eq!(
                parse_frame(&frame).map(Incoming::into_message),
                checked.clone()
            );
            if let Ok(message) = checked {
                let again = Message::parse(Bytes::from(written_back(&message)));
                proptest::prop_assert_eq!(again, Ok(message));
            }
        }
    }
}
