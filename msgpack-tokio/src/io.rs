//! Async helpers for code that does not use `Framed`: one value at a
//! time, and a `Stream`/`Sink` pair over any reader and writer.

use bytes::{BufMut, BytesMut};
use msgpack_serde::Limits;
use serde::de::DeserializeOwned;
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio_util::codec::{Decoder, FramedRead, FramedWrite};

use crate::{Error, MsgPackCodec, Result, DEFAULT_MAX_FRAME_LEN};

/// The most bytes [`read_value`] asks a reader for at a time.
const READ_CHUNK: usize = 8 * 1024;

/// Reads one value from `reader`, with the default limits (depth 128,
/// at most 16 MiB). Not one byte past the value is read, so the reader
/// can hold other data after it; each read asks for no more than the
/// value can still need, so wrap sockets in a [`tokio::io::BufReader`].
///
/// The stream ending before the value's first byte is an
/// `UnexpectedEof` I/O error; ending inside it, a truncated error
/// ([`Error::is_truncated`]).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> msgpack_tokio::Result<()> {
/// let mut input: &[u8] = &[0x92, 0x01, 0xa1, b'x', b'r', b'e', b's', b't'];
/// let pair: (u8, String) = msgpack_tokio::read_value(&mut input).await?;
/// assert_eq!(pair, (1, "x".to_string()));
/// assert_eq!(input, b"rest"); // nothing past the value was read
/// # Ok(())
/// # }
/// ```
pub async fn read_value<T, R>(reader: &mut R) -> Result<T>
where
    T: DeserializeOwned + 'static,
    R: AsyncRead + Unpin + ?Sized,
{
    read_value_with_limits(reader, Limits::default()).await
}

/// Reads one value from `reader` under `limits`; their size limit
/// ([`Limits::max_bytes`]) is the most bytes the value may take
/// (16 MiB when unlimited).
///
/// ```
/// use msgpack_tokio::Limits;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let mut input: &[u8] = &[0xdb, 0xff, 0xff, 0xff, 0xff]; // a 4 GiB string
/// let limits = Limits::new().max_bytes(1 << 20);
/// let error = msgpack_tokio::read_value_with_limits::<String, _>(&mut input, limits).await.unwrap_err();
/// assert_eq!(error.to_string(), "value exceeds the frame size limit of 1048576 bytes at offset 0");
/// # }
/// ```
pub async fn read_value_with_limits<T, R>(reader: &mut R, limits: Limits) -> Result<T>
where
    T: DeserializeOwned + 'static,
    R: AsyncRead + Unpin + ?Sized,
{
    let max_len = match limits.bytes() {
        usize::MAX => DEFAULT_MAX_FRAME_LEN,
        bytes => bytes,
    };
    let mut codec = MsgPackCodec::<(), T>::new()
        .with_limits(limits.max_bytes(usize::MAX))
        .with_max_frame_len(max_len)
        .without_read_room();
    let mut buffer = BytesMut::new();
    loop {
        let want = codec.least_needed().min(READ_CHUNK);
        buffer.reserve(want);
        let read = reader.read_buf(&mut (&mut buffer).limit(want)).await?;
        let value = if read == 0 {
            if buffer.is_empty() {
                return Err(Error::from(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "end of stream before a value",
                )));
            }
            codec.decode_eof(&mut buffer)?
        } else {
            codec.decode(&mut buffer)?
        };
        if let Some(value) = value {
            return Ok(value);
        }
    }
}

/// Writes `value` to `writer`, structs as maps keyed by field name (as
/// [`msgpack_serde::to_vec`]), in one `write_all`, then flushes it.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> msgpack_tokio::Result<()> {
/// let mut out = Vec::new();
/// msgpack_tokio::write_value(&mut out, &("a", 1)).await?;
/// assert_eq!(out, [0x92, 0xa1, b'a', 0x01]);
/// # Ok(())
/// # }
/// ```
pub async fn write_value<T, W>(writer: &mut W, value: &T) -> Result<()>
where
    T: ?Sized + Serialize,
    W: AsyncWrite + Unpin + ?Sized,
{
    let bytes = msgpack_serde::to_vec(value).map_err(Error::serde)?;
    writer.write_all(&bytes).await?;
    writer.flush().await?;
    Ok(())
}

/// The values of a reader, as a `Stream` of `Result<T>`: the error that
/// ends the stream is its last item.
pub type ValueStream<R, T> = FramedRead<R, MsgPackCodec<(), T>>;

/// A `Sink` of values into a writer.
pub type ValueSink<W, T> = FramedWrite<W, MsgPackCodec<T, ()>>;

/// The values of `reader`, one after another, as a `Stream`, with the
/// codec's default limits (for others, `FramedRead::new(reader, codec)`).
///
/// ```
/// use futures::StreamExt;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> msgpack_tokio::Result<()> {
/// let input: &[u8] = &[0x01, 0x02, 0x03];
/// let mut values = msgpack_tokio::value_stream::<u8, _>(input);
/// let mut sum = 0;
/// while let Some(value) = values.next().await {
///     sum += value?;
/// }
/// assert_eq!(sum, 6);
/// # Ok(())
/// # }
/// ```
pub fn value_stream<T, R: AsyncRead>(reader: R) -> ValueStream<R, T> {
    FramedRead::new(reader, MsgPackCodec::new())
}

/// A `Sink` of values into `writer`, each written as
/// [`msgpack_serde::to_vec`] writes it.
///
/// ```
/// use futures::SinkExt;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> msgpack_tokio::Result<()> {
/// let mut sink = msgpack_tokio::value_sink(Vec::new());
/// sink.send(1u8).await?;
/// sink.send(2u8).await?;
/// assert_eq!(sink.get_ref(), &[0x01, 0x02]);
/// # Ok(())
/// # }
/// ```
pub fn value_sink<T: Serialize, W: AsyncWrite>(writer: W) -> ValueSink<W, T> {
    FramedWrite::new(writer, MsgPackCodec::new())
}
