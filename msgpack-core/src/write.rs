//! Where encoded bytes go.

/// A byte sink for the [`encode`](crate::encode) functions.
///
/// Implemented for `Vec<u8>` (never fails), [`SliceWriter`] (a fixed buffer
/// that reports [`BufferFull`]) and, with `std`, [`IoWriter`] around any
/// [`std::io::Write`].
///
/// ```
/// use msgpack_core::{encode, Write};
///
/// /// Counts the bytes instead of keeping them.
/// struct Counter(usize);
///
/// impl Write for Counter {
///     type Error = core::convert::Infallible;
///
///     fn write_u8(&mut self, _: u8) -> Result<(), Self::Error> {
///         self.0 += 1;
///         Ok(())
///     }
///
///     fn write_all(&mut self, bytes: &[u8]) -> Result<(), Self::Error> {
///         self.0 += bytes.len();
///         Ok(())
///     }
/// }
///
/// let mut counter = Counter(0);
/// encode::write_str(&mut counter, "hello").unwrap();
/// assert_eq!(counter.0, 6); // fixstr marker and five bytes
/// ```
pub trait Write {
    /// Why a write can fail: [`core::convert::Infallible`] for `Vec<u8>`.
    type Error;

    /// Appends one byte.
    ///
    /// ```
    /// use msgpack_core::Write;
    ///
    /// let mut out = Vec::new();
    /// out.write_u8(0xc0).unwrap();
    /// assert_eq!(out, [0xc0]);
    /// ```
    fn write_u8(&mut self, byte: u8) -> Result<(), Self::Error>;

    /// Appends all of `bytes`.
    ///
    /// ```
    /// use msgpack_core::{BufferFull, SliceWriter, Write};
    ///
    /// let mut buf = [0u8; 2];
    /// let mut writer = SliceWriter::new(&mut buf);
    /// writer.write_all(&[0x01, 0x02]).unwrap();
    /// assert_eq!(writer.write_all(&[0x03]), Err(BufferFull));
    /// assert_eq!(writer.written(), [0x01, 0x02]);
    /// ```
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), Self::Error>;

    /// Appends the first `len` bytes of `bytes` (all nine if `len` is
    /// larger).
    ///
    /// A writer with room to spare for all nine may copy them all and
    /// keep only `len` (`Vec<u8>` does): one fixed-size copy instead of a
    /// copy of variable length. Bytes past the first `len` are never part
    /// of the output. Integers, whose length depends on their value, are
    /// written so, and msgpack-serde writes short field names so.
    ///
    /// ```
    /// use msgpack_core::Write;
    ///
    /// let mut out = vec![0xc0];
    /// out.write_prefix(&[0xcd, 0x01, 0x2c, 0, 0, 0, 0, 0, 0], 3).unwrap();
    /// assert_eq!(out, [0xc0, 0xcd, 0x01, 0x2c]);
    /// ```
    #[inline]
    fn write_prefix(&mut self, bytes: &[u8; 9], len: usize) -> Result<(), Self::Error> {
        self.write_all(&bytes[..len.min(9)])
    }

    /// Appends `marker`, then all of `bytes`: a short string with its
    /// header. A vector makes room for both at once.
    ///
    /// ```
    /// use msgpack_core::Write;
    ///
    /// let mut out = vec![0xc0];
    /// out.write_marked(0xa2, b"hi").unwrap();
    /// assert_eq!(out, [0xc0, 0xa2, b'h', b'i']);
    /// ```
    #[inline]
    fn write_marked(&mut self, marker: u8, bytes: &[u8]) -> Result<(), Self::Error> {
        self.write_u8(marker)?;
        self.write_all(bytes)
    }

    /// Appends `header`, then all of `bytes`: a string with a header of
    /// more than its marker (a str 8's marker and length). A vector makes
    /// room for both at once.
    ///
    /// ```
    /// use msgpack_core::Write;
    ///
    /// let mut out = vec![0xc0];
    /// out.write_headed(&[0xd9, 2], b"hi").unwrap();
    /// assert_eq!(out, [0xc0, 0xd9, 2, b'h', b'i']);
    /// ```
    #[inline]
    fn write_headed(&mut self, header: &[u8], bytes: &[u8]) -> Result<(), Self::Error> {
        self.write_all(header)?;
        self.write_all(bytes)
    }
}

/// A writer behind `&mut` or `Box` is a [`Write`]: each method forwards,
/// `write_prefix` included, so the one behind keeps its fixed-size copy.
macro_rules! forward_write {
    ($($(#[$cfg:meta])* $ty:ty),*) => {$(
        $(#[$cfg])*
        impl<W: Write + ?Sized> Write for $ty {
            type Error = W::Error;

            #[inline]
            fn write_u8(&mut self, byte: u8) -> Result<(), Self::Error> {
                (**self).write_u8(byte)
            }

            #[inline]
            fn write_all(&mut self, bytes: &[u8]) -> Result<(), Self::Error> {
                (**self).write_all(bytes)
            }

            #[inline]
            fn write_prefix(&mut self, bytes: &[u8; 9], len: usize) -> Result<(), Self::Error> {
                (**self).write_prefix(bytes, len)
            }

            #[inline]
            fn write_marked(&mut self, marker: u8, bytes: &[u8]) -> Result<(), Self::Error> {
                (**self).write_marked(marker, bytes)
            }

            #[inline]
            fn write_headed(&mut self, header: &[u8], bytes: &[u8]) -> Result<(), Self::Error> {
                (**self).write_headed(header, bytes)
            }
        }
    )*};
}

forward_write!(&mut W, #[cfg(feature = "alloc")] alloc::boxed::Box<W>);

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

    /// Extends by all nine bytes and shortens to `len`: one fixed-size
    /// copy. The vector may reserve room for the nine (at most 8 bytes
    /// more than it keeps), so one sized exactly for its output can grow
    /// for its last integer or short field name. A branch
    /// to avoid that costs more than the copy saves: the compiler then
    /// keeps the bytes in memory.
    #[inline]
    fn write_prefix(&mut self, bytes: &[u8; 9], len: usize) -> Result<(), Self::Error> {
        let end = self.len() + len.min(9);
        self.extend_from_slice(bytes);
        // Not `truncate`: the compiler cannot tell that `end` is within
        // the new length, and in a loop turns truncate's comparison into
        // a branch that random integer widths mispredict.
        // SAFETY: `end` is at most the length before the extension plus
        // nine, which is the length now, and every byte up to it is
        // initialized.
        unsafe { self.set_len(end) };
        Ok(())
    }

    /// One capacity check for the marker and the bytes, where `push` and
    /// `extend_from_slice` check the capacity and store the length twice;
    /// up to 64 bytes are copied without a call to `memcpy`.
    #[inline]
    fn write_marked(&mut self, marker: u8, bytes: &[u8]) -> Result<(), Self::Error> {
        self.write_headed(&[marker], bytes)
    }

    /// As [`write_marked`](Self::write_marked), for a header of any length.
    /// Always inlined: with growth and long copies out of line it calls
    /// nothing, so a caller as small as `String`'s `Serialize` saves no
    /// registers and can be inlined in turn.
    #[inline(always)]
    fn write_headed(&mut self, header: &[u8], bytes: &[u8]) -> Result<(), Self::Error> {
        let added = header.len() + bytes.len();
        if header.len() > 8 {
            extend(self, &[header, bytes]);
            return Ok(());
        }
        if bytes.len() > 64 || self.capacity() - self.len() < added {
            // The header goes by value: as a slice it would be stored
            // into this frame, and a frame's word read back whole after
            // narrower stores into it waits for them to reach memory.
            let mut word = [0u8; 8];
            word[..header.len()].copy_from_slice(header);
            extend_headed(self, u64::from_le_bytes(word), header.len(), bytes);
            return Ok(());
        }
        let len = self.len();
        // SAFETY: the capacity checked above leaves room for `added`
        // bytes past `len`, within the allocation (what `copy_bytes`
        // needs of its destinations: `header.len()` bytes at the end,
        // then `bytes.len()` after them); neither slice can overlap the
        // vector, which `self` borrows mutably; every byte up to the new
        // length is written before the length is set.
        unsafe {
            let end = self.as_mut_ptr().add(len);
            crate::copy::copy_bytes(header, end);
            crate::copy::copy_bytes(bytes, end.add(header.len()));
            self.set_len(len + added);
        }
        Ok(())
    }
}

/// [`Vec`]'s `write_headed` when the vector must grow or the bytes need
/// `memcpy`: out of line, so that the common case calls nothing and
/// keeps its values in registers that need no saving. `header` holds
/// the first `header_len` bytes of the header, in order.
#[cfg(feature = "alloc")]
#[cold]
#[inline(never)]
fn extend_headed(vec: &mut alloc::vec::Vec<u8>, header: u64, header_len: usize, bytes: &[u8]) {
    extend(vec, &[&header.to_le_bytes()[..header_len], bytes]);
}

/// Appends each of `parts` after one reservation for them all.
#[cfg(feature = "alloc")]
#[cold]
#[inline(never)]
fn extend(vec: &mut alloc::vec::Vec<u8>, parts: &[&[u8]]) {
    vec.reserve(parts.iter().map(|part| part.len()).sum());
    for part in parts {
        vec.extend_from_slice(part);
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
    ///
    /// ```
    /// use msgpack_core::{encode, SliceWriter};
    ///
    /// let mut buf = [0u8; 8];
    /// let mut writer = SliceWriter::new(&mut buf);
    /// encode::write_bool(&mut writer, true).unwrap();
    /// assert_eq!(writer.written(), [0xc3]);
    /// ```
    pub fn new(buf: &'a mut [u8]) -> Self {
        SliceWriter { buf, len: 0 }
    }

    /// How many bytes have been written.
    ///
    /// ```
    /// use msgpack_core::{encode, SliceWriter};
    ///
    /// let mut buf = [0u8; 8];
    /// let mut writer = SliceWriter::new(&mut buf);
    /// encode::write_u16(&mut writer, 1).unwrap(); // uint 16, whatever the value
    /// assert_eq!(writer.len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing has been written yet.
    ///
    /// ```
    /// use msgpack_core::{encode, SliceWriter};
    ///
    /// let mut buf = [0u8; 1];
    /// let mut writer = SliceWriter::new(&mut buf);
    /// assert!(writer.is_empty());
    /// encode::write_nil(&mut writer).unwrap();
    /// assert!(!writer.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes written so far.
    ///
    /// ```
    /// use msgpack_core::{encode, SliceWriter};
    ///
    /// let mut buf = [0u8; 8];
    /// let mut writer = SliceWriter::new(&mut buf);
    /// encode::write_int(&mut writer, -1).unwrap();
    /// assert_eq!(writer.written(), [0xff]); // negative fixint
    /// ```
    pub fn written(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// Gives back the written part of the buffer.
    ///
    /// ```
    /// use msgpack_core::{encode, SliceWriter};
    ///
    /// let mut buf = [0u8; 8];
    /// let mut writer = SliceWriter::new(&mut buf);
    /// encode::write_str(&mut writer, "ok").unwrap();
    /// let written: &mut [u8] = writer.into_written();
    /// assert_eq!(written, [0xa2, b'o', b'k']);
    /// ```
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
///
/// ```
/// use msgpack_core::{encode, BufferFull, SliceWriter};
///
/// let mut buf = [0u8; 2];
/// let mut writer = SliceWriter::new(&mut buf);
/// assert_eq!(encode::write_u16(&mut writer, 300), Err(BufferFull)); // needs 3 bytes
/// assert!(writer.is_empty()); // nothing was written
/// assert_eq!(BufferFull.to_string(), "output buffer is full");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferFull;

crate::error::unit_error!(BufferFull, "output buffer is full");

/// Adapts any [`std::io::Write`] to [`Write`].
///
/// Each encode call makes a few small writes (a header, then the payload):
/// wrap a file or socket in a [`std::io::BufWriter`] first.
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
    ///
    /// ```
    /// use msgpack_core::{encode, IoWriter};
    ///
    /// let mut writer = IoWriter::new(Vec::new());
    /// encode::write_nil(&mut writer).unwrap();
    /// assert_eq!(writer.into_inner(), [0xc0]);
    /// ```
    pub fn new(writer: W) -> Self {
        IoWriter(writer)
    }

    /// The wrapped writer.
    ///
    /// ```
    /// use msgpack_core::{encode, IoWriter};
    /// use std::io::Write as _;
    ///
    /// let mut writer = IoWriter::new(Vec::new());
    /// encode::write_bool(&mut writer, false).unwrap();
    /// writer.get_mut().write_all(b"\n").unwrap(); // around the encoder
    /// assert_eq!(writer.into_inner(), [0xc2, b'\n']);
    /// ```
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.0
    }

    /// Unwraps the writer.
    ///
    /// ```
    /// use msgpack_core::{encode, IoWriter};
    ///
    /// let mut writer = IoWriter::new(std::io::Cursor::new(Vec::new()));
    /// encode::write_u8(&mut writer, 7).unwrap();
    /// let cursor = writer.into_inner();
    /// assert_eq!(cursor.position(), 2);
    /// assert_eq!(cursor.into_inner(), [0xcc, 0x07]);
    /// ```
    pub fn into_inner(self) -> W {
        self.0
    }

    /// The vector behind the writer when `W` is `Vec<u8>` or
    /// `&mut Vec<u8>`, else `None`: lets code generic over
    /// [`std::io::Write`] append in place, or take back what it wrote. The
    /// check is on the type, so it costs nothing at run time.
    ///
    /// ```
    /// use msgpack_core::IoWriter;
    ///
    /// let mut out = vec![0xc0];
    /// assert_eq!(IoWriter::new(&mut out).as_vec_mut(), Some(&mut vec![0xc0]));
    /// assert_eq!(IoWriter::new(std::io::sink()).as_vec_mut(), None);
    /// ```
    #[inline]
    pub fn as_vec_mut(&mut self) -> Option<&mut alloc::vec::Vec<u8>> {
        vec_behind(&mut self.0)
    }
}

/// `writer` as the vector it is, when `W` is `Vec<u8>` or `&mut Vec<u8>`.
///
/// Stable Rust has no specialization, and `Any` needs `'static`, which a
/// `&mut Vec<u8>` is not: `typeid` compares the types with their lifetimes
/// erased, which is all the cast below needs.
#[cfg(feature = "std")]
#[inline(always)]
fn vec_behind<W>(writer: &mut W) -> Option<&mut alloc::vec::Vec<u8>> {
    use alloc::vec::Vec;
    let id = typeid::of::<W>();
    if id == typeid::of::<Vec<u8>>() {
        // SAFETY: `W` is `Vec<u8>`, a type without lifetimes, so the ids
        // are equal only when the types are.
        Some(unsafe { &mut *(writer as *mut W).cast::<Vec<u8>>() })
    } else if id == typeid::of::<&mut Vec<u8>>() {
        // SAFETY: `W` is `&'a mut Vec<u8>` for some `'a` (the ids differ
        // only in lifetimes, which they erase), and `'a` outlives the
        // borrow of `writer`. The reference is only read out, reborrowed
        // for that borrow, never replaced by one of a shorter lifetime.
        Some(unsafe { &mut **(writer as *mut W).cast::<&mut Vec<u8>>() })
    } else {
        None
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

    /// Into a vector, the vector's one fixed-size copy: `io::Write`
    /// cannot take it, and pays a copy of variable length per integer.
    #[inline]
    fn write_prefix(&mut self, bytes: &[u8; 9], len: usize) -> std::io::Result<()> {
        match vec_behind(&mut self.0) {
            Some(vec) => match vec.write_prefix(bytes, len) {
                Ok(()) => Ok(()),
                Err(never) => match never {},
            },
            None => self.0.write_all(&bytes[..len.min(9)]),
        }
    }

    /// Into a vector, the vector's one capacity check.
    #[inline]
    fn write_marked(&mut self, marker: u8, bytes: &[u8]) -> std::io::Result<()> {
        match vec_behind(&mut self.0) {
            Some(vec) => match vec.write_marked(marker, bytes) {
                Ok(()) => Ok(()),
                Err(never) => match never {},
            },
            None => {
                self.0.write_all(&[marker])?;
                self.0.write_all(bytes)
            }
        }
    }

    /// Into a vector, the vector's one capacity check.
    #[inline]
    fn write_headed(&mut self, header: &[u8], bytes: &[u8]) -> std::io::Result<()> {
        match vec_behind(&mut self.0) {
            Some(vec) => match vec.write_headed(header, bytes) {
                Ok(()) => Ok(()),
                Err(never) => match never {},
            },
            None => {
                self.0.write_all(header)?;
                self.0.write_all(bytes)
            }
        }
    }
}

/// A `dyn std::io::Write` (behind `&mut` or `Box`) is a [`Write`], as an
/// [`IoWriter`] is: each write one `write_all`.
///
/// ```
/// use msgpack_core::encode;
/// use std::io::Write;
///
/// let mut out = Vec::new();
/// let mut writer: &mut dyn Write = &mut out;
/// encode::write_str(&mut writer, "hi").unwrap();
/// let mut boxed: Box<dyn Write + Send> = Box::new(Vec::new());
/// encode::write_nil(&mut boxed).unwrap();
/// assert_eq!(out, [0xa2, b'h', b'i']);
/// ```
#[cfg(feature = "std")]
macro_rules! dyn_io_write {
    ($($ty:ty),*) => {$(
        impl Write for $ty {
            type Error = std::io::Error;

            #[inline]
            fn write_u8(&mut self, byte: u8) -> std::io::Result<()> {
                std::io::Write::write_all(self, &[byte])
            }

            #[inline]
            fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
                std::io::Write::write_all(self, bytes)
            }
        }
    )*};
}

#[cfg(feature = "std")]
dyn_io_write!(
    dyn std::io::Write + '_,
    dyn std::io::Write + Send + '_,
    dyn std::io::Write + Send + Sync + '_
);

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Every length of a fixstr and past it, after what the vector holds,
    /// with and without room to spare: the bytes of `write_u8` then
    /// `write_all`, whichever writer (a vector's one capacity check, or the
    /// default of the others).
    #[test]
    fn write_marked_appends_the_marker_then_the_bytes() {
        let text: Vec<u8> = (1..=70).collect();
        for len in 0..=text.len() {
            let bytes = &text[..len];
            let mut expected = vec![0xc0, 0xa5];
            expected.extend_from_slice(bytes);

            let mut tight = vec![0xc0];
            tight.shrink_to_fit();
            tight.write_marked(0xa5, bytes).unwrap();
            assert_eq!(tight, expected, "{len}");

            let mut roomy = Vec::with_capacity(128);
            roomy.push(0xc0);
            <&mut Vec<u8> as Write>::write_marked(&mut &mut roomy, 0xa5, bytes).unwrap();
            assert_eq!(roomy, expected, "{len}");

            let mut io = IoWriter::new(vec![0xc0]);
            io.write_marked(0xa5, bytes).unwrap();
            assert_eq!(io.into_inner(), expected, "{len}");

            let mut buf = [0u8; 72];
            let mut slice = SliceWriter::new(&mut buf);
            slice.write_u8(0xc0).unwrap();
            slice.write_marked(0xa5, bytes).unwrap();
            assert_eq!(slice.written(), &expected[..], "{len}");
        }
    }

    /// As `write_marked`'s test, with headers of none to nine bytes.
    #[test]
    fn write_headed_appends_the_header_then_the_bytes() {
        let text: Vec<u8> = (1..=70).collect();
        let header: Vec<u8> = (0xd1..=0xd9).collect();
        for header in (0..=header.len()).map(|cut| &header[..cut]) {
            for len in 0..=text.len() {
                let bytes = &text[..len];
                let mut expected = vec![0xc0];
                expected.extend_from_slice(header);
                expected.extend_from_slice(bytes);

                let mut tight = vec![0xc0];
                tight.shrink_to_fit();
                tight.write_headed(header, bytes).unwrap();
                assert_eq!(tight, expected, "{header:02x?} {len}");

                let mut roomy = Vec::with_capacity(128);
                roomy.push(0xc0);
                <&mut Vec<u8> as Write>::write_headed(&mut &mut roomy, header, bytes).unwrap();
                assert_eq!(roomy, expected, "{header:02x?} {len}");

                // Room for exactly these bytes: written without growing.
                let mut exact = Vec::with_capacity(expected.len());
                exact.push(0xc0);
                let buffer = exact.as_ptr();
                exact.write_headed(header, bytes).unwrap();
                assert_eq!(exact, expected, "{header:02x?} {len}");
                assert_eq!(exact.as_ptr(), buffer, "{header:02x?} {len}");

                let mut io = IoWriter::new(vec![0xc0]);
                io.write_headed(header, bytes).unwrap();
                assert_eq!(io.into_inner(), expected, "{header:02x?} {len}");

                let mut cursor = IoWriter::new(std::io::Cursor::new(vec![0xc0]));
                cursor.get_mut().set_position(1);
                cursor.write_headed(header, bytes).unwrap();
                assert_eq!(
                    cursor.into_inner().into_inner(),
                    expected,
                    "{header:02x?} {len}"
                );

                let mut buf = [0u8; 80];
                let mut slice = SliceWriter::new(&mut buf);
                slice.write_u8(0xc0).unwrap();
                slice.write_headed(header, bytes).unwrap();
                assert_eq!(slice.written(), &expected[..], "{header:02x?} {len}");
            }
        }
    }
}
