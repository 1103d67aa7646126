//! A [`tokio_serde`](https://docs.rs/tokio-serde) format: code built on
//! `tokio_serde::Framed` swaps rmp-serde's format for this one in one
//! line, and gets our limits and errors.
//!
//! ```
//! use futures::{SinkExt, StreamExt};
//! use msgpack_tokio::tokio_serde::SymmetricalMsgPack;
//! use tokio_serde::SymmetricallyFramed;
//! use tokio_util::codec::{Framed, LengthDelimitedCodec};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> std::io::Result<()> {
//! let (a, b) = tokio::io::duplex(1024);
//! // Was: tokio_serde::formats::SymmetricalMessagePack::<(u32, String)>::default()
//! let mut left = SymmetricallyFramed::new(
//!     Framed::new(a, LengthDelimitedCodec::new()),
//!     SymmetricalMsgPack::<(u32, String)>::default(),
//! );
//! let mut right = SymmetricallyFramed::new(
//!     Framed::new(b, LengthDelimitedCodec::new()),
//!     SymmetricalMsgPack::<(u32, String)>::default(),
//! );
//! left.send((1, "one".to_string())).await?;
//! assert_eq!(right.next().await.transpose()?, Some((1, "one".to_string())));
//! # Ok(())
//! # }
//! ```
//!
//! MessagePack needs no length prefix: with [`Frames`] as the transport
//! (or [`framed`], which builds the whole stack), each frame is one value
//! as it arrives, and the peer can be any MessagePack implementation.

use std::fmt;
use std::marker::PhantomData;
use std::pin::Pin;

use bytes::{Bytes, BytesMut};
use msgpack_serde::{Config, Limits};
use serde::de::DeserializeOwned;
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::codec::{Decoder, Encoder};

use crate::codec::decode_whole;
use crate::{Error, MsgPackCodec, Result};

/// The MessagePack format for `tokio_serde::Framed`: decodes each frame
/// as exactly one `Item` under [`Limits`] (their size limit bounds the
/// frame), encodes each `SinkItem` with structs as maps keyed by field
/// name (or, [`compact`](Self::compact), as arrays).
pub struct MsgPack<Item, SinkItem> {
    limits: Limits,
    config: Config,
    types: PhantomData<fn(SinkItem) -> Item>,
}

/// [`MsgPack`] with the same type both ways.
pub type SymmetricalMsgPack<T> = MsgPack<T, T>;

impl<Item, SinkItem> MsgPack<Item, SinkItem> {
    /// The format with the default limits (depth 128) and named structs.
    pub fn new() -> Self {
        MsgPack {
            limits: Limits::default(),
            config: Config::named(),
            types: PhantomData,
        }
    }

    /// Sets the decoding limits; the size limit bounds each frame.
    ///
    /// ```
    /// use msgpack_tokio::tokio_serde::SymmetricalMsgPack;
    /// use msgpack_tokio::Limits;
    ///
    /// let format = SymmetricalMsgPack::<Vec<u32>>::new().with_limits(Limits::new().max_depth(4));
    /// # let _ = format;
    /// ```
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Encodes structs as arrays in field order, the bytes of
    /// `rmp_serde::to_vec`, which tokio-serde's own MessagePack format
    /// writes.
    #[must_use]
    pub fn compact(mut self) -> Self {
        self.config = Config::compact();
        self
    }
}

impl<Item, SinkItem> Default for MsgPack<Item, SinkItem> {
    fn default() -> Self {
        MsgPack::new()
    }
}

impl<Item, SinkItem> fmt::Debug for MsgPack<Item, SinkItem> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MsgPack")
            .field("limits", &self.limits)
            .field("config", &self.config)
            .finish()
    }
}

impl<Item: DeserializeOwned + 'static, SinkItem> ::tokio_serde::Deserializer<Item>
    for MsgPack<Item, SinkItem>
{
    type Error = Error;

    fn deserialize(self: Pin<&mut Self>, src: &BytesMut) -> Result<Item> {
        decode_whole(src, self.limits)
    }
}

impl<Item, SinkItem: Serialize> ::tokio_serde::Serializer<SinkItem> for MsgPack<Item, SinkItem> {
    type Error = Error;

    fn serialize(self: Pin<&mut Self>, item: &SinkItem) -> Result<Bytes> {
        let bytes = msgpack_serde::to_vec_with_config(item, self.config).map_err(Error::serde)?;
        Ok(Bytes::from(bytes))
    }
}

/// The transport for `tokio_serde::Framed` with no length prefix: each
/// frame read is one whole value's bytes (checked, under the codec's
/// limits, not decoded), and each frame written goes out as it is.
#[derive(Debug, Default)]
pub struct Frames(MsgPackCodec<(), BytesMut>);

impl Frames {
    /// Frames under the codec's default limits.
    pub fn new() -> Self {
        Frames::default()
    }

    /// Frames under `codec`'s limits.
    pub fn with_codec(codec: MsgPackCodec<(), BytesMut>) -> Self {
        Frames(codec)
    }
}

impl Decoder for Frames {
    type Item = BytesMut;
    type Error = Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<BytesMut>> {
        self.0.decode(src)
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<BytesMut>> {
        self.0.decode_eof(src)
    }
}

impl Encoder<Bytes> for Frames {
    type Error = Error;

    fn encode(&mut self, item: Bytes, dst: &mut BytesMut) -> Result<()> {
        dst.extend_from_slice(&item);
        Ok(())
    }
}

/// `tokio_serde::Framed` over `io` with no length prefix: [`Frames`]
/// under [`MsgPack`].
pub type Framed<T, Item, SinkItem> = ::tokio_serde::Framed<
    tokio_util::codec::Framed<T, Frames>,
    Item,
    SinkItem,
    MsgPack<Item, SinkItem>,
>;

/// `tokio_serde::Framed` over `io`, values back to back with no length
/// prefix, so the peer can be any MessagePack implementation.
///
/// ```
/// use futures::{SinkExt, StreamExt};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> msgpack_tokio::Result<()> {
/// let (a, b) = tokio::io::duplex(1024);
/// let mut left = msgpack_tokio::tokio_serde::framed::<_, (), u32>(a);
/// let mut right = msgpack_tokio::tokio_serde::framed::<_, u32, ()>(b);
/// left.send(7).await?;
/// assert_eq!(right.next().await.transpose()?, Some(7));
/// # Ok(())
/// # }
/// ```
pub fn framed<T, Item, SinkItem>(io: T) -> Framed<T, Item, SinkItem>
where
    T: AsyncRead + AsyncWrite,
{
    ::tokio_serde::Framed::new(
        tokio_util::codec::Framed::new(io, Frames::new()),
        MsgPack::new(),
    )
}
