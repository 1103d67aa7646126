//! MessagePack values over byte streams: a tokio-util codec with no
//! length prefix, the way every other MessagePack implementation streams
//! values, with resumable framing and limits checked before allocation.
//!
//! ```
//! use futures::{SinkExt, StreamExt};
//! use msgpack_tokio::MsgPackCodec;
//! use tokio_util::codec::{FramedRead, FramedWrite};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), msgpack_tokio::Error> {
//! let (client, server) = tokio::io::duplex(64);
//! let mut sink = FramedWrite::new(client, MsgPackCodec::<(u32, &str), ()>::new());
//! let mut stream = FramedRead::new(server, MsgPackCodec::<(), (u32, String)>::new());
//! sink.send((1, "hello")).await?;
//! assert_eq!(stream.next().await.transpose()?, Some((1, "hello".to_string())));
//! # Ok(())
//! # }
//! ```
//!
//! [`MsgPackCodec`] decodes any `DeserializeOwned` type, [`Value`], or the
//! raw bytes of each value ([`bytes::Bytes`]) for relays, and encodes any
//! `Serialize` into its buffer. Errors carry the stream offset
//! and say which limit a value broke; after invalid data the stream ends
//! with that error, and a peer that stops mid-value gets a distinct
//! [`Error::is_truncated`] error.
//!
//! # Without `Framed`
//!
//! [`read_value`] and [`write_value`] read and write one value on any
//! `AsyncRead` and `AsyncWrite` ([`read_value`] never reads past it);
//! [`value_stream`] and [`value_sink`] give a `Stream` and a `Sink`.
//!
//! # Limits
//!
//! | limit | default | set with |
//! |---|---|---|
//! | bytes of one value | 16 MiB ([`DEFAULT_MAX_FRAME_LEN`]) | [`MsgPackCodec::with_max_frame_len`] |
//! | nesting depth | 128 | [`MsgPackCodec::with_limits`], [`Limits::max_depth`] |
//! | values in one value | unlimited | [`Limits::max_values`] |
//! | bytes of the whole stream | unlimited | [`Limits::max_bytes`] |
//!
//! # Features
//!
//! - `tokio-serde`: the module `tokio_serde`, with `SymmetricalMsgPack`,
//!   a format for `tokio_serde::Framed`, in place of rmp-serde's.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod codec;
mod error;
mod io;
#[cfg(feature = "tokio-serde")]
pub mod tokio_serde;

pub use codec::{MsgPackCodec, DEFAULT_MAX_FRAME_LEN};
pub use error::{Error, Result};
pub use io::{
    read_value, read_value_with_limits, value_sink, value_stream, write_value, ValueSink,
    ValueStream,
};
pub use msgpack_serde::{Limits, Value};
