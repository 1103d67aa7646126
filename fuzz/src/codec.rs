//! The `codec` target's check: msgpack-tokio's `MsgPackCodec` decoding a
//! stream cut into pieces of many sizes, as a `Value`, a derived type and
//! raw frames, against `Reader::skip` and `from_slice` on each value.

use std::fmt::Debug;

use bytes::{Bytes, BytesMut};
use msgpack_core::{ErrorKind, Framed, Framer, Reader};
use msgpack_serde::{Deserializer, Limits, Value};
use msgpack_tokio::{Error, MsgPackCodec};
use serde::de::DeserializeOwned;
use tokio_util::codec::Decoder;

use super::checks::{within, TYPED_BUDGET_PER_BYTE};
use super::frames::{pseudo_random, skipped};
use super::types::Order;

/// The frame size limit of the inputs that set one: small enough for the
/// seeds' values to cross it.
const SMALL_FRAME: usize = 40;

/// How a stream ended: between values, or with an error (which may be
/// the end of the stream inside a value).
#[derive(Debug, PartialEq)]
enum End {
    Clean,
    Failed {
        message: String,
        truncated: bool,
        offset: Option<usize>,
        kind: Option<ErrorKind>,
    },
}

impl End {
    /// How the codec's `error` ended the stream.
    fn failed(error: &Error) -> End {
        End::Failed {
            message: error.to_string(),
            truncated: error.is_truncated(),
            offset: error.offset(),
            kind: error.wire_kind(),
        }
    }

    /// Where the stream ended with an error, and which wire error it was.
    fn at(&self) -> (Option<usize>, Option<ErrorKind>) {
        match self {
            End::Clean => (None, None),
            End::Failed { offset, kind, .. } => (*offset, *kind),
        }
    }

    /// How decoding a value alone failed, its offsets moved by `start`
    /// to the stream's, as the codec reports it.
    fn alone(error: msgpack_serde::Error, start: usize) -> End {
        let error = error.shifted(start);
        End::Failed {
            message: error.to_string(),
            truncated: false,
            offset: error.offset(),
            kind: error.wire_kind(),
        }
    }
}

/// What a codec made of a stream: its items, and how it ended.
#[derive(Debug)]
struct Run<T> {
    items: Vec<T>,
    end: End,
}

/// Runs a fresh codec for `T` over `stream`, cut into pieces of the sizes
/// `sizes` gives, each appended to its read buffer as a socket read
/// appends it, then ends the stream as `FramedRead` does (`decode_eof`
/// until it gives nothing). After an error the codec must keep refusing.
fn run<T: DeserializeOwned + 'static>(
    stream: &[u8],
    limits: Limits,
    max_frame_len: usize,
    sizes: &mut dyn FnMut() -> usize,
) -> Run<T> {
    let mut codec = MsgPackCodec::<(), T>::new()
        .with_limits(limits)
        .with_max_frame_len(max_frame_len);
    let mut buffer = BytesMut::new();
    let mut items = Vec::new();
    let refused = |codec: &mut MsgPackCodec<(), T>, error: &Error| {
        let mut more = BytesMut::from(&[0xc0][..]);
        assert!(codec.decode(&mut more).is_err(), "decoded after {error}");
        End::failed(error)
    };
    let mut rest = stream;
    while !rest.is_empty() {
        let (piece, tail) = rest.split_at(sizes().clamp(1, rest.len()));
        rest = tail;
        buffer.extend_from_slice(piece);
        loop {
            match codec.decode(&mut buffer) {
                Ok(Some(item)) => items.push(item),
                Ok(None) => break,
                Err(error) => {
                    let end = refused(&mut codec, &error);
                    return Run { items, end };
                }
            }
        }
    }
    loop {
        match codec.decode_eof(&mut buffer) {
            Ok(Some(item)) => items.push(item),
            Ok(None) => {
                assert!(buffer.is_empty(), "a clean end with bytes left");
                return Run {
                    items,
                    end: End::Clean,
                };
            }
            Err(error) => {
                let end = refused(&mut codec, &error);
                return Run { items, end };
            }
        }
    }
}

/// How big each next piece of the stream is.
type Pieces<'a> = Box<dyn FnMut() -> usize + 'a>;

/// One way of decoding a frame, to hold the codec's items and errors to.
type Reference<T> = fn(&[u8], Limits, usize) -> Result<T, End>;

/// `T` as the codec decodes a serde type's frame: `from_slice` under the
/// depth and value limits, the frame's offset added to errors.
fn serde_frame<T: DeserializeOwned>(frame: &[u8], limits: Limits, start: usize) -> Result<T, End> {
    let mut deserializer = Deserializer::from_slice(frame).with_limits(limits);
    T::deserialize(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value))
        .map_err(|error| End::alone(error, start))
}

/// A `Value` as the codec decodes one: the wire layer's decoder under the
/// limits.
fn value_frame(frame: &[u8], limits: Limits, start: usize) -> Result<Value, End> {
    Reader::with_limits(frame, limits)
        .and_then(|mut reader| Value::decode(&mut reader))
        .map_err(|error| End::alone(error.into(), start))
}

/// A raw frame as the codec checks one: framed under the limits.
fn raw_frame(frame: &[u8], limits: Limits, start: usize) -> Result<Bytes, End> {
    match Framer::new(limits).feed(frame) {
        Ok(Framed::Value { len, .. }) if len == frame.len() => Ok(Bytes::copy_from_slice(frame)),
        Ok(other) => panic!("the framer found {other:?} in a whole value"),
        Err(error) => Err(End::alone(error.into(), start)),
    }
}

/// The `codec` target. The first byte picks the limits (bits 0-1: the
/// defaults, a depth of 3 and 40 values, a stream size limit of half the
/// input, none for raw frames) and the frame size limit (bit 2:
/// [`SMALL_FRAME`] bytes); the rest is the stream. For a `Value`, a
/// derived `Order` and raw frames: however the stream is cut, the codec
/// gives the same items and ends the same way; each item is its value
/// decoded alone, one after another as `skip` finds them; and the stream
/// ends as the value after them says: cleanly after the last; truncated
/// where `skip` finds it cut short and the framer waits for more; else
/// with the error the codec's model gives, framing first (under the size
/// limits, and for a `Value` or raw frames the depth and value limits)
/// and then decoding the value alone, at its offset in the stream. Under
/// a stream size limit, with a size limit error only where the value
/// after the items ends past it.
pub fn codec(data: &[u8]) {
    let Some((&control, stream)) = data.split_first() else {
        return;
    };
    let (limits, bytes_limited) = match control & 3 {
        0 => (Limits::default(), false),
        1 => (Limits::default().max_depth(3).max_values(40), false),
        2 => (Limits::default().max_bytes(stream.len() / 2), true),
        _ => (Limits::unlimited(), false),
    };
    let max_frame_len = if control & 4 != 0 {
        SMALL_FRAME
    } else {
        msgpack_tokio::DEFAULT_MAX_FRAME_LEN
    };
    // Values are decoded recursively by serde and displayed recursively:
    // no deeper than the default depth.
    let bounded = if limits.depth() > Limits::default().depth() {
        limits.max_depth(Limits::default().depth())
    } else {
        limits
    };
    let stream_size_only = Limits::unlimited().max_bytes(limits.bytes());
    let case = |limits, framed_under| Case {
        stream,
        limits,
        framed_under,
        max_frame_len,
        bytes_limited,
    };
    case(bounded, bounded).check::<Value>(value_frame);
    case(bounded, stream_size_only).check::<Order>(serde_frame);
    case(limits, limits).check::<Bytes>(raw_frame);
}

/// A stream and how a codec decodes it.
struct Case<'a> {
    stream: &'a [u8],
    /// The codec's limits.
    limits: Limits,
    /// The limits the codec frames a value under before decoding it: all
    /// of them for a `Value` or a raw frame, the size limits alone for a
    /// serde type (whose decoding counts depth and values).
    framed_under: Limits,
    max_frame_len: usize,
    /// Whether the limits include a stream size limit.
    bytes_limited: bool,
}

impl Case<'_> {
    /// The `codec` target's properties for one type `T`, whose values
    /// alone `reference` decodes.
    fn check<T: DeserializeOwned + Debug + 'static>(&self, reference: Reference<T>) {
        let Case {
            stream,
            limits,
            max_frame_len,
            ..
        } = *self;
        let whole = within("codec", stream.len(), TYPED_BUDGET_PER_BYTE, || {
            run::<T>(stream, limits, max_frame_len, &mut || usize::MAX)
        });
        let shown = |run: &Run<T>| (format!("{:?}", run.items), format!("{:?}", run.end));
        let expected = shown(&whole);
        let mut splits: [(&str, Pieces<'_>); 3] = [
            ("bytes", Box::new(|| 1)),
            ("up to 16", Box::new(pseudo_random(stream, 16))),
            ("up to 4096", Box::new(pseudo_random(stream, 4096))),
        ];
        for (name, sizes) in &mut splits {
            let cut = run::<T>(stream, limits, max_frame_len, sizes);
            assert_eq!(shown(&cut), expected, "cut in pieces of {name}");
        }

        // Each item is its value alone, in order.
        let (lens, stop) = skipped(stream);
        let decode_limits = limits.max_bytes(usize::MAX);
        let mut start = 0;
        for (item, &len) in whole.items.iter().zip(&lens) {
            assert!(len <= max_frame_len, "an item over the frame size limit");
            let alone = reference(&stream[start..start + len], decode_limits, start)
                .unwrap_or_else(|end| panic!("the codec decoded what fails alone: {end:?}"));
            assert_eq!(format!("{item:?}"), format!("{alone:?}"));
            start += len;
        }
        assert!(whole.items.len() <= lens.len(), "more items than values");

        // The stream ends as the value after the items says.
        let next = lens.get(whole.items.len()).copied();
        if let End::Clean = whole.end {
            assert_eq!(whole.items.len(), lens.len(), "a clean end before a value");
            assert!(stop.is_none(), "a clean end where skip stops: {stop:?}");
            assert!(start <= limits.bytes(), "items past the stream size limit");
            return;
        }
        if self.bytes_limited {
            // The framer's size limit counts from the stream's start,
            // which one framing the value alone cannot: checked apart.
            if let (_, Some(ErrorKind::SizeLimitExceeded { .. })) = whole.end.at() {
                if let Some(len) = next {
                    assert!(start + len > limits.bytes(), "refused within the limit");
                }
            }
            return;
        }
        let framed = self.framed(start);
        match (&whole.end, next) {
            (
                End::Failed {
                    truncated: true, ..
                },
                _,
            ) => {
                assert!(next.is_none(), "truncated before a whole value");
                let stop = stop.expect("truncated where skip does not stop");
                assert_eq!(stop.kind(), ErrorKind::UnexpectedEof);
                assert_eq!(framed, None, "truncated where the framer stops");
                assert_eq!(whole.end.at().0, Some(stream.len()));
            }
            (failed, Some(len)) => {
                let alone = || {
                    reference(&stream[start..start + len], decode_limits, start)
                        .expect_err("the codec refused what frames and decodes alone")
                };
                assert_eq!(failed, &framed.unwrap_or_else(alone));
            }
            (failed, None) => assert_eq!(Some(failed), framed.as_ref()),
        }
    }

    /// How framing the stream from `start` on stops the value there, if
    /// it does: with an error (at its offset in the stream), where the
    /// codec frames it before decoding it.
    fn framed(&self, start: usize) -> Option<End> {
        let mut framer = Framer::new(self.framed_under).max_len(self.max_frame_len);
        match framer.feed(&self.stream[start..]) {
            Ok(_) => None,
            Err(error) => Some(End::alone(error.into(), start)),
        }
    }
}
