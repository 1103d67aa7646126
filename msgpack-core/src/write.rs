//! Where encoded bytes go.

use core::fmt;

/// A byte sink for the [`encode`](crate::encode) functions.
///
/// Implemented for `Vec<u8>` (never fails), [`SliceWriter`] (a fixed buffer
/// that reports [`BufferFull`]) and, with `std`, [`IoWriter`] around any
/// [`std::io::Write`].
pub trait Write {
    /// Why a write can fail: [`core::convert::Infallible`] for `Vec<u8>`.
    type Error;

    /// Appends one byte.
    fn write_u8(&mut self, byte: u8) -> Result<(), Self::Error>;

    /// Appends all of `bytes`.
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), Self::Error>;
}

impl<W: Write + ?Sized> Write for &mut W {
    type Error = W::Error;

    #[inline]
    fn write_u8(&mut self, byte: u8) -> Result<(), Self::Error> {
        (**self).write_u8(byte)
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), Self::Error> {
        (**self).write_all(bytes)
    }
}

#[cfg(feature = "alloc")]
impl Write for alloc::vec::Vec<u8> {
    type Error = core::convert::Infallible;

    #[inline]
    fn write_u8(&mut self, byte: u8) -> Result<(), Self::Error> {
        self.push(byte);
        Ok(())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), Self::Error> {
        self.extend_from_slice(bytes);
        Ok(())
    }
}

/// Writes into a fixed buffer, and reports [`BufferFull`] instead of
/// overrunning it.
///
/// ```
/// use msgpack_core::{encode, EncodeError, SliceWriter, BufferFull};
///
/// let mut buf = [0u8; 4];
/// let mut writer = SliceWriter::new(&mut buf);
/// encode::write_str(&mut writer, "abc").unwrap();
/// assert_eq!(writer.written(), &[0xa3, b'a', b'b', b'c']);
/// assert_eq!(encode::write_nil(&mut writer), Err(BufferFull));
/// assert_eq!(encode::write_str(&mut writer, "d"), Err(EncodeError::Write(BufferFull)));
/// ```
#[derive(Debug)]
pub struct SliceWriter<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl<'a> SliceWriter<'a> {
    /// A writer that fills `buf` from its start.
    pub fn new(buf: &'a mut [u8]) -> Self {
        SliceWriter { buf, len: 0 }
    }

    /// How many bytes have been written.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing has been written yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes written so far.
    pub fn written(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// Gives back the written part of the buffer.
    pub fn into_written(self) -> &'a mut [u8] {
        &mut self.buf[..self.len]
    }
}

impl Write for SliceWriter<'_> {
    type Error = BufferFull;

    #[inline]
    fn write_u8(&mut self, byte: u8) -> Result<(), BufferFull> {
        let slot = self.buf.get_mut(self.len).ok_or(BufferFull)?;
        *slot = byte;
        self.len += 1;
        Ok(())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), BufferFull> {
        let end = self.len.checked_add(bytes.len()).ok_or(BufferFull)?;
        let dest = self.buf.get_mut(self.len..end).ok_or(BufferFull)?;
        dest.copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }
}

/// The buffer of a [`SliceWriter`] has no room for the next write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferFull;

impl fmt::Display for BufferFull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("output buffer is full")
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BufferFull {}

/// Adapts any [`std::io::Write`] to [`Write`].
///
/// Each encode call makes one or two small writes: wrap a file or socket in
/// a [`std::io::BufWriter`] first.
///
/// ```
/// use msgpack_core::{encode, IoWriter};
///
/// let mut writer = IoWriter::new(std::io::Cursor::new(Vec::new()));
/// encode::write_bool(&mut writer, true).unwrap();
/// assert_eq!(writer.into_inner().into_inner(), [0xc3]);
/// ```
#[cfg(feature = "std")]
#[derive(Debug)]
pub struct IoWriter<W>(W);

#[cfg(feature = "std")]
impl<W: std::io::Write> IoWriter<W> {
    /// Wraps `writer`.
    pub fn new(writer: W) -> Self {
        IoWriter(writer)
    }

    /// The wrapped writer.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.0
    }

    /// Unwraps the writer.
    pub fn into_inner(self) -> W {
        self.0
    }
}

#[cfg(feature = "std")]
impl<W: std::io::Write> Write for IoWriter<W> {
    type Error = std::io::Error;

    #[inline]
    fn write_u8(&mut self, byte: u8) -> std::io::Result<()> {
        self.0.write_all(&[byte])
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.0.write_all(bytes)
    }
}
