//! [`MsgPackCodec`]: values back to back, framed as they arrive.

use std::fmt;
use std::marker::PhantomData;

use bytes::{Buf, BytesMut};
use msgpack_serde::core::{Framed, Framer, Reader};
use msgpack_serde::{Config, Limits, Serializer, Value};
use serde::de::DeserializeOwned;
use serde::Serialize;
use tokio_util::codec::{Decoder, Encoder};

use crate::{Error, Result};

mod mode;

#[cfg(feature = "tokio-serde")]
pub(crate) use mode::decode_whole;
use mode::{cast, decode_frame, raw_frame, Mode};

/// The frame size limit unless set: 16 MiB.
pub const DEFAULT_MAX_FRAME_LEN: usize = 16 << 20;

/// A tokio-util codec for MessagePack values back to back, with no length
/// prefix: the framing every other MessagePack implementation streams
/// (Python's `Unpacker.feed`, `@msgpack/msgpack`'s `decodeMultiStream`,
/// fluentd's forward protocol).
///
/// It encodes any `Enc: Serialize` (through the serializer over a `Vec`
/// that derived types have a direct path on, then one copy into the
/// write buffer), and decodes `Dec`, which is any `DeserializeOwned` type (derived ones
/// included), or one of two types it treats apart:
/// [`Value`] (decoded by the wire layer, without recursion), and
/// [`Bytes`](bytes::Bytes) or [`BytesMut`]: the raw frame, exactly one
/// value's bytes, checked but not decoded, for proxies and relays.
///
/// ```
/// use bytes::BytesMut;
/// use msgpack_tokio::MsgPackCodec;
/// use serde::{Deserialize, Serialize};
/// use tokio_util::codec::{Decoder, Encoder};
///
/// #[derive(Serialize, Deserialize, Debug, PartialEq)]
/// struct Event { id: u32, name: String }
///
/// let mut codec = MsgPackCodec::<Event, Event>::new();
/// let mut buffer = BytesMut::new();
/// codec.encode(Event { id: 1, name: "start".into() }, &mut buffer)?;
/// codec.encode(Event { id: 2, name: "stop".into() }, &mut buffer)?;
///
/// let mut tail = buffer.split_off(9); // the bytes arrive in two parts
/// assert_eq!(codec.decode(&mut buffer)?, None);
/// buffer.unsplit(tail);
/// assert_eq!(codec.decode(&mut buffer)?, Some(Event { id: 1, name: "start".into() }));
/// assert_eq!(codec.decode(&mut buffer)?, Some(Event { id: 2, name: "stop".into() }));
/// assert_eq!(codec.decode_eof(&mut buffer)?, None); // the stream ended between values
/// # Ok::<(), msgpack_tokio::Error>(())
/// ```
///
/// # Framing and limits
///
/// The decoder keeps where its framing stopped
/// ([`Framer`](msgpack_serde::core::Framer)), so a value that arrives a
/// byte at a time is not rescanned at each byte. Before anything is
/// buffered past them, it enforces:
///
/// | limit | default | set with |
/// |---|---|---|
/// | bytes of one value (the frame size) | 16 MiB | [`with_max_frame_len`](Self::with_max_frame_len) |
/// | depth of nesting | 128 | [`with_limits`](Self::with_limits), [`Limits::max_depth`] |
/// | values in one value (containers and their elements) | unlimited | [`Limits::max_values`] |
/// | bytes of the whole stream | unlimited | [`Limits::max_bytes`] |
///
/// A header that declares more than the frame size limit is refused as
/// soon as it is read. Depth and value count are counted as the decoding
/// counts them: for a serde type as [`msgpack_serde::from_slice`] does
/// (fields it skips are bounded by the frame size alone), for [`Value`]
/// and raw frames over the whole value, while it is framed.
///
/// A value that has arrived whole is decoded where it lies in the read
/// buffer, and decoding finds its end: framing then costs nothing. Only
/// a value cut off by the end of what has arrived is framed, as its bytes
/// come; one of up to 16 KiB is then decoded where it lies once the rest
/// has arrived, without framing the rest. Whenever the codec waits for
/// more bytes, it gives the read buffer up to 8 KiB of room, so that a
/// read can take that much (`FramedRead` alone asks for one byte of
/// room).
///
/// # Errors end the stream
///
/// MessagePack has no marker to resynchronise on, so after invalid data,
/// a broken limit or a value of the wrong type the stream is over:
/// `FramedRead` yields the error as its last item, and a codec called
/// again answers with an error. A stream that ends inside a value is a
/// distinct error ([`Error::is_truncated`]); one that ends between
/// values ends cleanly.
pub struct MsgPackCodec<Enc, Dec> {
    limits: Limits,
    max_frame_len: usize,
    config: Config,
    framer: Framer,
    /// Whether decoding has started, with the framer set for `Dec`.
    started: bool,
    /// Bytes at the start of the read buffer already fed to the framer.
    scanned: usize,
    /// The length of the last value decoded.
    last_len: usize,
    /// The room the read buffer is given whenever the codec waits for
    /// bytes (see [`make_read_room`]).
    read_room: usize,
    /// Where the error that ended the stream was.
    failed: Option<Option<usize>>,
    /// What the encoder serializes into before copying to the buffer.
    scratch: Vec<u8>,
    /// Bytes fed to the framer or to decoding, for the tests that show
    /// the work is linear.
    #[cfg(test)]
    pub(crate) work: usize,
    types: PhantomData<fn(Enc) -> Dec>,
}

impl<Enc, Dec> MsgPackCodec<Enc, Dec> {
    /// A codec with the default limits: depth 128, frames of at most
    /// 16 MiB; structs encoded as maps keyed by field name, as
    /// [`msgpack_serde::to_vec`] writes them.
    ///
    /// ```
    /// use msgpack_tokio::MsgPackCodec;
    ///
    /// let codec = MsgPackCodec::<u8, u8>::new();
    /// assert_eq!(codec.max_frame_len(), 16 << 20);
    /// assert_eq!(codec.limits().depth(), 128);
    /// ```
    pub fn new() -> Self {
        let limits = Limits::default();
        MsgPackCodec {
            limits,
            max_frame_len: DEFAULT_MAX_FRAME_LEN,
            config: Config::named(),
            framer: Framer::new(limits).max_len(DEFAULT_MAX_FRAME_LEN),
            started: false,
            scanned: 0,
            last_len: 0,
            read_room: READ_ROOM,
            failed: None,
            scratch: Vec::new(),
            #[cfg(test)]
            work: 0,
            types: PhantomData,
        }
    }

    /// Sets the depth, value-count and stream size limits for decoding.
    /// The stream size limit counts every byte since the codec started,
    /// as [`msgpack_serde::from_reader`] counts them.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use msgpack_tokio::{Limits, MsgPackCodec};
    /// use tokio_util::codec::Decoder;
    ///
    /// let mut codec = MsgPackCodec::<(), Vec<u8>>::new().with_limits(Limits::new().max_values(3));
    /// let mut input = BytesMut::from(&[0x93, 0x01, 0x02, 0x03][..]); // four values
    /// let error = codec.decode(&mut input).unwrap_err();
    /// assert_eq!(error.to_string(), "more values than the limit of 3 at offset 0");
    /// ```
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets the frame size limit: the most bytes one value may take
    /// (16 MiB unless set).
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use msgpack_tokio::MsgPackCodec;
    /// use tokio_util::codec::Decoder;
    ///
    /// let mut codec = MsgPackCodec::<(), String>::new().with_max_frame_len(8);
    /// let mut input = BytesMut::from(&[0xa9][..]); // a 9-byte string: 10 bytes
    /// let error = codec.decode(&mut input).unwrap_err();
    /// assert_eq!(error.to_string(), "value exceeds the frame size limit of 8 bytes at offset 0");
    /// ```
    #[must_use]
    pub fn with_max_frame_len(mut self, max_frame_len: usize) -> Self {
        self.max_frame_len = max_frame_len;
        self
    }

    /// Encodes structs as arrays in field order, as
    /// [`msgpack_serde::to_vec_compact`] does: smaller, for peers that
    /// share the type definitions.
    ///
    /// ```
    /// use bytes::BytesMut;
    /// use msgpack_tokio::MsgPackCodec;
    /// use serde::Serialize;
    /// use tokio_util::codec::Encoder;
    ///
    /// #[derive(Serialize)]
    /// struct Point { x: u8, y: u8 }
    ///
    /// let mut buffer = BytesMut::new();
    /// MsgPackCodec::<Point, ()>::new().compact().encode(Point { x: 1, y: 2 }, &mut buffer)?;
    /// assert_eq!(&buffer[..], [0x92, 0x01, 0x02]);
    /// # Ok::<(), msgpack_tokio::Error>(())
    /// ```
    #[must_use]
    pub fn compact(self) -> Self {
        self.with_config(Config::compact())
    }

    /// Encodes under `config` (named, compact, variants by index, ...).
    ///
    /// ```
    /// use msgpack_serde::Config;
    /// use msgpack_tokio::MsgPackCodec;
    ///
    /// let codec = MsgPackCodec::<u8, u8>::new().with_config(Config::named().variants_as_indices(true));
    /// # let _ = codec;
    /// ```
    #[must_use]
    pub fn with_config(mut self, config: Config) -> Self {
        self.config = config;
        self
    }

    /// The depth, value-count and stream size limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The frame size limit, in bytes.
    pub fn max_frame_len(&self) -> usize {
        self.max_frame_len
    }

    /// No room made for reads: for a reader that reads no more than
    /// [`least_needed`](Self::least_needed) at a time, which room past
    /// that would never serve.
    pub(crate) fn without_read_room(mut self) -> Self {
        self.read_room = 0;
        self
    }

    /// The fewest bytes that can end the value being decoded.
    pub(crate) fn least_needed(&self) -> usize {
        self.framer.least_needed()
    }

    /// Finds the next whole value at the start of `src`, feeding the
    /// framer only the bytes it has not seen. `Some(len)` when one is
    /// there.
    fn next_frame(&mut self, src: &BytesMut) -> Result<Option<usize>> {
        let new = &src[self.scanned..];
        #[cfg(test)]
        {
            self.work += new.len();
        }
        match self.framer.feed(new).map_err(Error::frame)? {
            Framed::Value { len, .. } => {
                self.scanned = 0;
                Ok(Some(len))
            }
            Framed::NeedMore => {
                self.scanned = src.len();
                Ok(None)
            }
        }
    }

    /// Marks the stream ended by `error`.
    #[cold]
    fn fail(&mut self, error: Error) -> Error {
        self.failed = Some(error.offset());
        error
    }
}

impl<Enc, Dec> Default for MsgPackCodec<Enc, Dec> {
    fn default() -> Self {
        MsgPackCodec::new()
    }
}

impl<Enc, Dec> Clone for MsgPackCodec<Enc, Dec> {
    fn clone(&self) -> Self {
        MsgPackCodec {
            limits: self.limits,
            max_frame_len: self.max_frame_len,
            config: self.config,
            framer: self.framer.clone(),
            started: self.started,
            scanned: self.scanned,
            last_len: self.last_len,
            read_room: self.read_room,
            failed: self.failed,
            scratch: Vec::new(),
            #[cfg(test)]
            work: self.work,
            types: PhantomData,
        }
    }
}

impl<Enc, Dec> fmt::Debug for MsgPackCodec<Enc, Dec> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MsgPackCodec")
            .field("limits", &self.limits)
            .field("max_frame_len", &self.max_frame_len)
            .field("config", &self.config)
            .field("offset", &self.framer.offset())
            .finish_non_exhaustive()
    }
}

impl<Enc: Serialize, Dec> Encoder<Enc> for MsgPackCodec<Enc, Dec> {
    type Error = Error;

    /// Appends `item`'s encoding to `dst`; a value that fails to encode
    /// appends nothing.
    ///
    /// The value is serialized into a `Vec` the codec keeps, then copied
    /// to `dst`: msgpack-serde's serializer over a `Vec<u8>` is the one
    /// `#[derive(MsgPack)]` types have their direct path on, which more
    /// than pays for the copy (see `benches/RESULTS.md`). The `Vec` keeps
    /// its room for the next value, up to 64 KiB.
    fn encode(&mut self, item: Enc, dst: &mut BytesMut) -> Result<()> {
        self.scratch.clear();
        let result = item.serialize(&mut Serializer::with_config(&mut self.scratch, self.config));
        if result.is_ok() {
            dst.extend_from_slice(&self.scratch);
        }
        if self.scratch.capacity() > SCRATCH_KEPT {
            self.scratch = Vec::new();
        }
        result.map_err(Error::serde)
    }
}

/// The most of a value framed partway for which the codec tries again to
/// decode it in place when more has arrived: a longer one is framed to
/// its end.
const RETRY_IN_PLACE_MAX: usize = 16 << 10;

/// The most room the encoder's `Vec` keeps between values: one large
/// value does not hold its size for the life of the codec.
const SCRATCH_KEPT: usize = 64 << 10;

/// The room the read buffer has for the next read whenever the codec
/// waits for more bytes: 8 KiB, as `FramedRead` starts with and as std's
/// and tokio's `BufReader` read.
const READ_ROOM: usize = 8 << 10;

/// Less room than this past the buffer's bytes and the codec allocates
/// (`reserve`), even while frames cut from the buffer share its memory:
/// each allocation then serves at least `READ_ROOM - LEAST_READ_ROOM`
/// bytes, so held frames pin at most 8/7 of the bytes they came in.
const LEAST_READ_ROOM: usize = 1 << 10;

/// Gives `src` up to `room` bytes of room past its end. `FramedRead`
/// reserves only one byte before it reads, so its read gets whatever the
/// buffer's allocation has left past the bytes it holds, and a busy
/// stream takes two reads (system calls) where one would do. The room comes from the buffer's own allocation
/// when nothing else holds a part of it (`try_reclaim`), and from a new
/// one only when less than [`LEAST_READ_ROOM`] is left, as `FramedRead`
/// would allocate once the buffer is full. No length a header declares
/// is reserved ahead of its bytes.
#[inline]
fn make_read_room(src: &mut BytesMut, room: usize) {
    let left = src.capacity() - src.len();
    if left < room && !src.try_reclaim(room) && left < LEAST_READ_ROOM {
        src.reserve(room);
    }
}

impl<Enc, Dec: DeserializeOwned + 'static> Decoder for MsgPackCodec<Enc, Dec> {
    type Item = Dec;
    type Error = Error;

    /// Always inlined, so that a value decoded in place reaches the
    /// caller's `?` and `while let` by moves the compiler can merge: the
    /// match guard takes it off the buffer before it is moved, and
    /// `from_slice_front` hands the deserializer's result back as it is (a
    /// record of a few strings is too large to copy inline, and each copy,
    /// just after the decoder's stores, waits for them). Everything else
    /// goes through `decode_framed_into`, out of line, which puts its item
    /// in a slot of its own: were the framed result returned, it would
    /// share this function's slot, which the out-of-line call would make
    /// memory, and every value decoded in place would be copied into that
    /// slot and out again.
    #[inline(always)]
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Dec>> {
        let mode = Mode::of::<Dec>();
        // A value that has arrived whole is decoded where it lies: decoding
        // finds its end, and the framer is not needed. When it is not
        // worth trying, see `worth_trying_in_place`.
        if mode == Mode::Serde
            && self.worth_trying_in_place(src)
            && self.started
            && self.failed.is_none()
        {
            let limits = self.limits.max_bytes(usize::MAX);
            let window = &src[..self.in_place_len(src)];
            let mut len = 0;
            match msgpack_serde::__private::from_slice_front(window, limits, &mut len) {
                Ok(value) if self.consumed_in_place(src, len) => return Ok(Some(value)),
                // Not all there, invalid, or over a size limit: framed.
                _ => {}
            }
            #[cfg(test)]
            {
                // A failed attempt may have read all it was handed.
                self.work += src.len();
            }
        }
        let mut framed = None;
        self.decode_framed_into(src, mode, &mut framed)?;
        Ok(framed)
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<Dec>> {
        match self.decode(src)? {
            Some(item) => Ok(Some(item)),
            None if src.is_empty() => Ok(None),
            None => {
                let error = Error::truncated(self.framer.value_start(), src.len());
                src.clear();
                Err(self.fail(error))
            }
        }
    }
}

impl<Enc, Dec: DeserializeOwned + 'static> MsgPackCodec<Enc, Dec> {
    /// [`decode_framed`](Self::decode_framed), out of line, its item put
    /// in `out` (see `decode`).
    #[inline(never)]
    fn decode_framed_into(
        &mut self,
        src: &mut BytesMut,
        mode: Mode,
        out: &mut Option<Dec>,
    ) -> Result<()> {
        *out = self.decode_framed(src, mode)?;
        if out.is_none() {
            make_read_room(src, self.read_room);
        }
        Ok(())
    }

    /// Decodes what `decode`'s fast path did not: the first value, a
    /// `Value` or raw frame, a value not all there yet (framed first, as
    /// its bytes arrive), or one that is invalid or breaks a limit (framed
    /// first too, so the stream ends with the same error however its bytes
    /// were split).
    #[inline(always)]
    fn decode_framed(&mut self, src: &mut BytesMut, mode: Mode) -> Result<Option<Dec>> {
        if let Some(offset) = self.failed {
            src.clear();
            return Err(Error::after_error(offset));
        }
        if !self.started {
            self.started = true;
            self.framer = Framer::new(mode.framer_limits(self.limits)).max_len(self.max_frame_len);
            if mode == Mode::Serde {
                return self.decode(src);
            }
        }
        if src.len() == self.scanned {
            return Ok(None);
        }
        if mode == Mode::Value && self.worth_trying_in_place(src) {
            if let Some(value) = self.value_in_place(src) {
                return Ok(cast(value));
            }
        }
        // A raw frame under no depth or value limit (msgpack-rpc's) that
        // has arrived whole is found by `Reader::skip`, the wire layer's
        // walker for values in a slice, at about half the framer's cost.
        if mode == Mode::Raw
            && self.worth_trying_in_place(src)
            && self.limits.depth() == usize::MAX
            && self.limits.values() == usize::MAX
        {
            let mut reader = Reader::new(&src[..self.in_place_len(src)]);
            match reader.skip() {
                Ok(()) if self.fits_in_place(reader.position()) => {
                    let len = reader.position();
                    return Ok(raw_frame(src.split_to(len)));
                }
                _ => {
                    #[cfg(test)]
                    {
                        self.work += src.len();
                    }
                }
            }
        }
        let start = self.framer.value_start();
        let len = match self.next_frame(src) {
            Ok(Some(len)) => len,
            Ok(None) => return Ok(None),
            Err(error) => return Err(self.fail(error)),
        };
        #[cfg(test)]
        {
            self.work += len;
        }
        self.last_len = len;
        let decoded = if mode == Mode::Raw {
            Ok(raw_frame(src.split_to(len)))
        } else {
            let decoded = decode_frame(&src[..len], start, self.limits, mode);
            src.advance(len);
            decoded
        };
        decoded.map_err(|error| self.fail(error))
    }

    /// A `Value` decoded where it lies, as `decode` does serde types.
    fn value_in_place(&mut self, src: &mut BytesMut) -> Option<Value> {
        let limits = self.limits.max_bytes(usize::MAX);
        let decoded = Reader::with_limits(&src[..self.in_place_len(src)], limits)
            .ok()
            .and_then(|mut reader| {
                let value = Value::decode(&mut reader).ok()?;
                Some((value, reader.position()))
            });
        match decoded {
            Some((value, len)) if self.consumed_in_place(src, len) => Some(value),
            _ => {
                #[cfg(test)]
                {
                    // A failed attempt may have read all it was handed.
                    self.work += src.len();
                }
                None
            }
        }
    }

    /// Whether to look for the next value where it lies in `src`: a value
    /// not begun yet, when `src` holds at least as much as the last value
    /// took (else it most likely ends inside this one, and framing it
    /// costs less than decoding it partway); or a short value cut off by an
    /// earlier read, framed partway, once `src` holds twice what was
    /// framed (most often it is whole then, and decoding it where it lies
    /// saves framing the rest). Each attempt that fails reads at most
    /// `src`, and the doubling keeps their sum under twice
    /// [`RETRY_IN_PLACE_MAX`]: the work stays linear in the bytes.
    #[inline]
    fn worth_trying_in_place(&self, src: &[u8]) -> bool {
        src.len() >= self.last_len
            && (self.scanned == 0
                || (self.scanned <= RETRY_IN_PLACE_MAX && src.len() >= 2 * self.scanned))
    }

    /// Moves past the `len` bytes of a value decoded in place, if it is
    /// within the size limits (if not, the framer finds the error). A
    /// `Deserialize` that read nothing (`len` 0) is left to the framed
    /// path too, which reports the value's bytes as trailing, as
    /// `from_slice` does, instead of yielding it again and again.
    #[inline]
    fn consumed_in_place(&mut self, src: &mut BytesMut, len: usize) -> bool {
        if !self.fits_in_place(len) {
            return false;
        }
        src.advance(len);
        true
    }

    /// How much of `src` a value found in place may take: no more than the
    /// frame and stream size limits allow, so that a value past them ends
    /// its read in place at the limit, before it is decoded (and what it
    /// would allocate), and the framer reports it.
    #[inline]
    fn in_place_len(&self, src: &[u8]) -> usize {
        let stream_left = self
            .limits
            .bytes()
            .saturating_sub(self.framer.value_start());
        src.len().min(self.max_frame_len).min(stream_left)
    }

    /// Accounts for a value of `len` bytes found in place, if it is within
    /// the size limits; the caller then takes it off the buffer.
    #[inline]
    fn fits_in_place(&mut self, len: usize) -> bool {
        let end = self.framer.value_start().saturating_add(len);
        if len == 0 || len > self.max_frame_len || end > self.limits.bytes() {
            return false;
        }
        if self.scanned > 0 {
            // Framed partway before the rest arrived: found whole now.
            self.framer.rewind();
            self.scanned = 0;
        }
        #[cfg(test)]
        {
            self.work += len;
        }
        self.framer.skipped(len);
        self.last_len = len;
        true
    }
}

#[cfg(test)]
mod tests;
