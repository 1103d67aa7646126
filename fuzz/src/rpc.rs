//! The `rpc_message` target's check: msgpack-rpc's message parsing, the
//! first thing a connection does with each frame a peer sends.

use bytes::Bytes;
use msgpack_core::Reader;
use msgpack_rpc::{message, Message};
use msgpack_serde::RawValue;

/// `Message::parse` on the input never panics, and what it parses is
/// what the bytes hold: each of params, error and result exactly one
/// value, the last of them the end of the frame, and the message
/// encoded again (in smallest form, nil params as the empty array)
/// parsing to itself. On a frame that is exactly one whole value, as
/// the codec gives the connection, the connection's parse (which does
/// not walk the last element) gives the same message or the same error.
pub fn rpc_message(data: &[u8]) {
    let frame = Bytes::copy_from_slice(data);
    let parsed = Message::parse(frame.clone());
    if is_one_value(data) {
        let connection = msgpack_rpc::__fuzz::parse_frame(&frame);
        assert_eq!(connection, parsed, "the connection's parse differs");
    }
    let Ok(message) = parsed else {
        return;
    };
    let (values, last, again): (Vec<&Bytes>, &Bytes, Vec<u8>) = match &message {
        Message::Request {
            msgid,
            method,
            params,
        } => (
            vec![params],
            params,
            message::request(*msgid, method, &raw(params)).unwrap(),
        ),
        Message::Response {
            msgid,
            error,
            result,
        } => {
            let again = if error[..] == [0xc0] {
                message::success(*msgid, &raw(result)).unwrap()
            } else {
                // A failure's result is nil by the spec, but a peer may
                // send one that is not: built here as it arrived.
                let mut again = vec![0x94, 0x01];
                msgpack_core::encode::write_uint(&mut again, u64::from(*msgid)).unwrap();
                again.extend_from_slice(error);
                again.extend_from_slice(result);
                again
            };
            (vec![error, result], result, again)
        }
        Message::Notification { method, params } => (
            vec![params],
            params,
            message::notification(method, &raw(params)).unwrap(),
        ),
    };
    for value in values {
        assert!(is_one_value(value), "not one value: {value:?}");
    }
    assert!(
        data.ends_with(last),
        "the last element is not the frame's end"
    );
    let reparsed = Message::parse(Bytes::from(again)).expect("the message encoded again parses");
    assert_eq!(reparsed, nil_params_as_empty(message));
}

/// `message` as it reads back once encoded: the encoders send nil params
/// as the empty array, which peers such as Neovim require.
fn nil_params_as_empty(message: Message) -> Message {
    let empty = |params: Bytes| {
        if params[..] == [0xc0] {
            Bytes::from_static(&[0x90])
        } else {
            params
        }
    };
    match message {
        Message::Request {
            msgid,
            method,
            params,
        } => Message::Request {
            msgid,
            method,
            params: empty(params),
        },
        Message::Notification { method, params } => Message::Notification {
            method,
            params: empty(params),
        },
        response => response,
    }
}

/// Whether `bytes` hold exactly one value, as `Reader::skip` finds it.
fn is_one_value(bytes: &[u8]) -> bool {
    let mut reader = Reader::new(bytes);
    reader.skip().is_ok() && reader.remaining().is_empty()
}

/// A value's bytes, written back as they are.
fn raw(bytes: &Bytes) -> RawValue {
    RawValue::from_bytes(bytes.to_vec()).expect("a value the parse found whole")
}
