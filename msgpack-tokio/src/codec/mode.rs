//! How a codec decodes its item, picked by the item's type: a raw frame
//! (`Bytes`, `BytesMut`), a `Value` read by the wire layer, or anything
//! else through serde; and the decoding of one whole frame in each way.

use std::any::{Any, TypeId};

use bytes::{Bytes, BytesMut};
use msgpack_serde::core::Reader;
#[cfg(feature = "tokio-serde")]
use msgpack_serde::core::{Framed, Framer};
use msgpack_serde::{Limits, Value};
use serde::de::DeserializeOwned;

use crate::{Error, Result};

/// How a codec decodes its `Dec`: `Bytes`, `BytesMut` and `Value` are
/// `DeserializeOwned` too (the first two as MessagePack bin), so they are
/// picked out by type, as one blanket impl cannot be overlapped by others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// `Bytes` or `BytesMut`: the frame itself.
    Raw,
    /// `Value`, decoded by the wire layer.
    Value,
    /// Anything else, through serde.
    Serde,
}

impl Mode {
    pub(super) fn of<T: 'static>() -> Mode {
        let wanted = TypeId::of::<T>();
        if wanted == TypeId::of::<Bytes>() || wanted == TypeId::of::<BytesMut>() {
            Mode::Raw
        } else if wanted == TypeId::of::<Value>() {
            Mode::Value
        } else {
            Mode::Serde
        }
    }

    /// The limits the framer applies. Raw frames and `Value`s count depth
    /// and values over the whole value, as `Value` decoding does; serde
    /// types count them as `from_slice` does, leaving out the fields it
    /// skips, so the framer leaves those two to decoding: a value is
    /// accepted the same whether it was decoded in place or framed first.
    pub(super) fn framer_limits(self, limits: Limits) -> Limits {
        match self {
            Mode::Raw | Mode::Value => limits,
            Mode::Serde => Limits::unlimited().max_bytes(limits.bytes()),
        }
    }
}

/// The raw frame as a `T`, which is `Bytes` or `BytesMut`.
pub(super) fn raw_frame<T: 'static>(frame: BytesMut) -> Option<T> {
    if TypeId::of::<T>() == TypeId::of::<BytesMut>() {
        cast(frame)
    } else {
        cast(frame.freeze())
    }
}

/// Decodes `bytes` as exactly one value under `limits` (their size limit
/// bounds `bytes`): a frame that a transport other than the codec cut out.
#[cfg(feature = "tokio-serde")]
pub(crate) fn decode_whole<T: DeserializeOwned + 'static>(
    bytes: &[u8],
    limits: Limits,
) -> Result<T> {
    use msgpack_serde::core::{Error as WireError, ErrorKind};
    let mode = Mode::of::<T>();
    let mut framer = Framer::new(mode.framer_limits(limits));
    let len = match framer.feed(bytes).map_err(Error::frame)? {
        Framed::Value { len, .. } => len,
        Framed::NeedMore => return Err(Error::truncated(0, bytes.len())),
    };
    if len < bytes.len() {
        return Err(Error::frame(WireError::new(ErrorKind::TrailingBytes, len)));
    }
    let decoded = if mode == Mode::Raw {
        raw_frame(BytesMut::from(bytes))
    } else {
        decode_frame(bytes, 0, limits, mode)?
    };
    decoded.ok_or_else(|| Error::after_error(None))
}

/// Decodes one whole value, `frame`, found at stream offset `start`.
pub(super) fn decode_frame<T: DeserializeOwned + 'static>(
    frame: &[u8],
    start: usize,
    limits: Limits,
    mode: Mode,
) -> Result<Option<T>> {
    // The framer enforced the size limits on the stream.
    let limits = limits.max_bytes(usize::MAX);
    let shift = |error: msgpack_serde::Error| Error::serde(error.shifted(start));
    if mode == Mode::Value {
        let mut reader = Reader::with_limits(frame, limits).map_err(|error| shift(error.into()))?;
        let value = Value::decode(&mut reader).map_err(|error| shift(error.into()))?;
        // `Dec` is `Value`: the cast cannot fail.
        return Ok(cast(value));
    }
    let mut deserializer = msgpack_serde::Deserializer::from_slice(frame).with_limits(limits);
    let value = msgpack_serde::__private::deserialize_placed(&mut deserializer).map_err(shift)?;
    deserializer.end().map_err(shift)?;
    Ok(Some(value))
}

/// `value` as a `T`, if it is one.
pub(super) fn cast<S: 'static, T: 'static>(value: S) -> Option<T> {
    let mut slot = Some(value);
    (&mut slot as &mut dyn Any)
        .downcast_mut::<Option<T>>()
        .and_then(Option::take)
}
