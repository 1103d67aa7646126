//! Reading MessagePack: the typed reads of [`Reader`], mirroring
//! [`encode`](crate::encode), and the token-level pull API.
//!
//! Each `read_*` method accepts every format of its family (`read_int`
//! reads a positive fixint as well as an int 64) and checks ranges exactly:
//! reading 300 into a `u8` is an [`OutOfRange`](ErrorKind::OutOfRange)
//! error, not a wrap. A failed read leaves the reader where it was, so the
//! caller can try another type.
//!
//! ```
//! use msgpack_core::Reader;
//!
//! let mut reader = Reader::new(&[0xcd, 0x01, 0x2c]); // uint 16: 300
//! let error = reader.read_int::<u8>().unwrap_err();
//! assert_eq!(error.to_string(), "integer out of range for u8 at offset 0");
//! assert_eq!(reader.position(), 0); // nothing consumed
//! assert_eq!(reader.read_int::<u16>(), Ok(300));
//! ```

use crate::integer::FromInteger;
#[cfg(feature = "alloc")]
pub use crate::text::owned_str;
pub use crate::text::{short_str, str_from_utf8};
use crate::{
    Error, ErrorKind, Family, Integer, Length, Marker, Reader, Timestamp, TIMESTAMP_EXT_TYPE,
};

/// One MessagePack value as the pull API sees it: a scalar, a borrowed
/// string, binary or extension payload, or the header of a container whose
/// elements follow as further tokens.
///
/// ```
/// use msgpack_core::{Reader, Token};
///
/// let mut reader = Reader::new(&[0x81, 0xa1, b'k', 0xc4, 0x01, 0x00]); // {"k": bin(00)}
/// let mut tokens = Vec::new();
/// while !reader.is_empty() {
///     tokens.push(reader.read_token().unwrap());
/// }
/// assert_eq!(tokens, [Token::Map(1), Token::Str("k"), Token::Bin(&[0x00])]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Token<'a> {
    /// nil
    Nil,
    /// true or false
    Bool(bool),
    /// any integer format
    Int(Integer),
    /// float 32
    F32(f32),
    /// float 64
    F64(f64),
    /// a UTF-8 string
    Str(&'a str),
    /// binary data
    Bin(&'a [u8]),
    /// the header of an array of this many elements
    Array(u32),
    /// the header of a map of this many key-value pairs
    Map(u32),
    /// an extension: its type and data
    Ext(i8, &'a [u8]),
}

/// The type and data length of an extension, read from its header.
///
/// ```
/// use msgpack_core::{ExtMeta, Reader};
///
/// let mut reader = Reader::new(&[0xd5, 0x07, 0xde, 0xad]); // fixext 2 of type 7
/// assert_eq!(reader.read_ext_meta(), Ok(ExtMeta { ext_type: 7, len: 2 }));
/// assert_eq!(reader.take(2), Ok(&[0xde, 0xad][..]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtMeta {
    /// The extension type: -128 to -1 reserved by the specification, 0 to
    /// 127 for applications.
    pub ext_type: i8,
    /// How many bytes of data follow.
    pub len: u32,
}

impl<'a> Reader<'a> {
    /// The marker of the next value, without consuming it.
    ///
    /// ```
    /// use msgpack_core::{Marker, Reader};
    ///
    /// let reader = Reader::new(&[0xcd, 0x01, 0x2c]);
    /// assert_eq!(reader.peek_marker(), Ok(Marker::U16));
    /// assert_eq!(reader.position(), 0);
    /// ```
    #[inline]
    pub fn peek_marker(&self) -> Result<Marker, Error> {
        self.peek_byte().map(Marker::from_u8)
    }

    /// Consumes the marker of the next value. The reserved byte `0xc1` is a
    /// [`ReservedMarker`](ErrorKind::ReservedMarker) error.
    ///
    /// ```
    /// use msgpack_core::{Marker, Reader};
    ///
    /// let mut reader = Reader::new(&[0x93, 0xc1]);
    /// assert_eq!(reader.read_marker(), Ok(Marker::FixArray(3)));
    /// let error = reader.read_marker().unwrap_err();
    /// assert_eq!(error.to_string(), "reserved marker 0xc1 at offset 1");
    /// ```
    #[inline]
    pub fn read_marker(&mut self) -> Result<Marker, Error> {
        match Marker::from_u8(self.peek_byte()?) {
            Marker::Reserved => Err(self.error(ErrorKind::ReservedMarker)),
            marker => {
                self.take_byte()?;
                Ok(marker)
            }
        }
    }

    /// Runs `read` from the current position; on error, moves back so
    /// that a failed read consumes nothing.
    #[inline]
    fn atomic<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T, Error>) -> Result<T, Error> {
        let start = self.position();
        read(self).inspect_err(|_| self.rewind(start))
    }

    /// A type-mismatch error at `start` for the `found` marker.
    #[cold]
    pub(crate) fn mismatch(&self, start: usize, expected: &'static str, found: Marker) -> Error {
        let kind = match found {
            Marker::Reserved => ErrorKind::ReservedMarker,
            found => ErrorKind::TypeMismatch { expected, found },
        };
        Error::new(kind, start)
    }

    /// Reads nil.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xc0, 0x00]);
    /// assert_eq!(reader.read_nil(), Ok(()));
    /// let error = reader.read_nil().unwrap_err();
    /// assert_eq!(error.to_string(), "invalid type: positive fixint (0x00), expected nil at offset 1");
    /// ```
    pub fn read_nil(&mut self) -> Result<(), Error> {
        match self.peek_marker()? {
            Marker::Nil => self.take_byte().map(drop),
            found => Err(self.mismatch(self.position(), "nil", found)),
        }
    }

    /// Reads a boolean.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xc2, 0xc3, 0x01]);
    /// assert_eq!(reader.read_bool(), Ok(false));
    /// assert_eq!(reader.read_bool(), Ok(true));
    /// let error = reader.read_bool().unwrap_err();
    /// assert_eq!(error.to_string(), "invalid type: positive fixint (0x01), expected a boolean at offset 2");
    /// ```
    pub fn read_bool(&mut self) -> Result<bool, Error> {
        let value = match self.peek_marker()? {
            Marker::False => false,
            Marker::True => true,
            found => return Err(self.mismatch(self.position(), "a boolean", found)),
        };
        self.take_byte()?;
        Ok(value)
    }

    /// Reads an integer of any format as an [`Integer`].
    ///
    /// ```
    /// use msgpack_core::{Integer, Reader};
    ///
    /// let mut reader = Reader::new(&[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xe0]);
    /// assert_eq!(reader.read_integer(), Ok(Integer::from(u64::MAX))); // uint 64
    /// assert_eq!(reader.read_integer(), Ok(Integer::from(-32))); // negative fixint
    /// ```
    #[inline]
    pub fn read_integer(&mut self) -> Result<Integer, Error> {
        let head = self.read_int_head()?;
        Ok(if head.negative {
            Integer::from_i64(head.value as i64)
        } else {
            Integer::from_u64(head.value)
        })
    }

    /// Reads an integer of any format into `T`, which must hold its value:
    /// reading 300 as `u8` or -1 as `u64` is an
    /// [`OutOfRange`](ErrorKind::OutOfRange) error.
    ///
    /// ```
    /// use msgpack_core::{ErrorKind, Reader};
    ///
    /// assert_eq!(Reader::new(&[0xcd, 0x01, 0x2c]).read_int::<u16>(), Ok(300));
    /// let error = Reader::new(&[0xcd, 0x01, 0x2c]).read_int::<u8>().unwrap_err();
    /// assert_eq!(error.kind(), ErrorKind::OutOfRange { expected: "u8" });
    /// ```
    #[inline]
    pub fn read_int<T: FromInteger>(&mut self) -> Result<T, Error> {
        let start = self.position();
        let n = self.read_integer()?;
        T::from_integer(n).ok_or_else(|| {
            self.rewind(start);
            Error::new(ErrorKind::OutOfRange { expected: T::NAME }, start)
        })
    }

    /// Reads a float 32.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// assert_eq!(Reader::new(&[0xca, 0x3f, 0xc0, 0x00, 0x00]).read_f32(), Ok(1.5));
    /// let error = Reader::new(&[0xcb, 0, 0, 0, 0, 0, 0, 0, 0]).read_f32().unwrap_err();
    /// assert_eq!(error.to_string(), "invalid type: float 64 (0xcb), expected a float 32 at offset 0");
    /// ```
    pub fn read_f32(&mut self) -> Result<f32, Error> {
        self.atomic(|r| match r.read_marker()? {
            Marker::F32 => Ok(f32::from_be_bytes(r.take_array()?)),
            found => Err(r.mismatch(r.position() - 1, "a float 32", found)),
        })
    }

    /// Reads a float 64, or a float 32 widened to `f64` without loss.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xca, 0x3f, 0xc0, 0x00, 0x00, 0x01]);
    /// assert_eq!(reader.read_f64(), Ok(1.5)); // a float 32, widened
    /// let error = reader.read_f64().unwrap_err(); // an integer is not a float
    /// assert_eq!(error.to_string(), "invalid type: positive fixint (0x01), expected a float at offset 5");
    /// ```
    pub fn read_f64(&mut self) -> Result<f64, Error> {
        self.atomic(|r| match r.read_marker()? {
            Marker::F32 => Ok(f32::from_be_bytes(r.take_array()?) as f64),
            Marker::F64 => Ok(f64::from_be_bytes(r.take_array()?)),
            found => Err(r.mismatch(r.position() - 1, "a float", found)),
        })
    }

    /// Reads the length field that follows a str, bin, array, map or ext
    /// `marker` (for ext, the data length; the type byte is left unread).
    #[inline]
    pub(crate) fn len_after(&mut self, marker: Marker) -> Result<u32, Error> {
        Ok(match marker.length() {
            Length::Fixed(len) => len,
            Length::Field(1) => self.take_byte()? as u32,
            Length::Field(2) => u16::from_be_bytes(self.take_array()?) as u32,
            Length::Field(_) => u32::from_be_bytes(self.take_array()?),
        })
    }

    /// Reads a length header of `family`, named `expected` in errors.
    #[inline]
    fn read_len_of(&mut self, family: Family, expected: &'static str) -> Result<u32, Error> {
        self.atomic(|r| {
            let start = r.position();
            let marker = r.read_marker()?;
            if marker.family() != family {
                return Err(r.mismatch(start, expected, marker));
            }
            r.len_after(marker)
        })
    }

    /// Consumes `len` bytes of payload, as `usize`.
    #[inline]
    fn take_payload(&mut self, len: u32) -> Result<&'a [u8], Error> {
        let len = usize::try_from(len).map_err(|_| self.error(ErrorKind::LengthOverflow))?;
        self.take(len)
    }

    /// Reads the header of a string: its length in bytes.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xa2, b'h', b'i']);
    /// assert_eq!(reader.read_str_len(), Ok(2));
    /// assert_eq!(reader.take(2), Ok(&b"hi"[..]));
    /// ```
    pub fn read_str_len(&mut self) -> Result<u32, Error> {
        self.read_len_of(Family::Str, "a string")
    }

    /// Reads a string, borrowed from the input. Invalid UTF-8 is an
    /// [`InvalidUtf8`](ErrorKind::InvalidUtf8) error at the string's start;
    /// [`read_str_bytes`](Self::read_str_bytes) gives the raw bytes instead.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xa2, b'h', b'i', 0xa1, 0xff]);
    /// assert_eq!(reader.read_str(), Ok("hi"));
    /// let error = reader.read_str().unwrap_err();
    /// assert_eq!(error.to_string(), "invalid UTF-8 in string at offset 3");
    /// assert_eq!(reader.read_str_bytes(), Ok(&[0xff][..]));
    /// ```
    pub fn read_str(&mut self) -> Result<&'a str, Error> {
        if let Some(text) = self.read_short_str() {
            return text;
        }
        let start = self.position();
        let bytes = self.read_str_bytes()?;
        str_from_utf8(bytes).map_err(|_| {
            self.rewind(start);
            Error::new(ErrorKind::InvalidUtf8, start)
        })
    }

    /// Reads a fixstr or a str 8, the forms of keys, names and most text,
    /// in one step ([`take_str`](Self::take_str)); `None`, reading
    /// nothing, when the next value is anything else or no value is left.
    /// Errors as [`read_str`](Self::read_str).
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xa2, b'h', b'i', 0x2a]);
    /// assert_eq!(reader.read_short_str(), Some(Ok("hi")));
    /// assert_eq!(reader.read_short_str(), None); // 42
    /// assert_eq!(reader.position(), 3);
    /// ```
    #[inline(always)]
    pub fn read_short_str(&mut self) -> Option<Result<&'a str, Error>> {
        let byte = *self.remaining().first()?;
        if byte & !0x1f == crate::marker::FIXSTR {
            Some(self.take_str(1, (byte & 0x1f) as usize))
        } else if byte == crate::marker::STR8 {
            // A str 8 cut short after its marker: 2 bytes do not remain.
            let len = self.remaining().get(1).map_or(0, |&len| len as usize);
            Some(self.take_str(2, len))
        } else {
            None
        }
    }

    /// Reads the bytes of a string without checking that they are UTF-8
    /// (the specification asks decoders to allow reading them).
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xa2, 0xc3, 0x28]); // not UTF-8
    /// assert_eq!(reader.read_str_bytes(), Ok(&[0xc3, 0x28][..]));
    /// ```
    pub fn read_str_bytes(&mut self) -> Result<&'a [u8], Error> {
        self.atomic(|r| {
            let len = r.read_str_len()?;
            r.take_payload(len)
        })
    }

    /// Reads the header of binary data: its length in bytes.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xc5, 0x01, 0x00]); // bin 16 header
    /// assert_eq!(reader.read_bin_len(), Ok(256));
    /// assert_eq!(reader.position(), 3);
    /// ```
    pub fn read_bin_len(&mut self) -> Result<u32, Error> {
        self.read_len_of(Family::Bin, "binary data")
    }

    /// Reads binary data, borrowed from the input.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// assert_eq!(Reader::new(&[0xc4, 0x02, 0xca, 0xfe]).read_bin(), Ok(&[0xca, 0xfe][..]));
    /// let error = Reader::new(&[0xa1, b'x']).read_bin().unwrap_err();
    /// assert_eq!(error.to_string(), "invalid type: fixstr (0xa1), expected binary data at offset 0");
    /// ```
    pub fn read_bin(&mut self) -> Result<&'a [u8], Error> {
        self.atomic(|r| {
            let len = r.read_bin_len()?;
            r.take_payload(len)
        })
    }

    /// Reads the header of an array: how many elements follow.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0x92, 0x01, 0x02]);
    /// assert_eq!(reader.read_array_len(), Ok(2));
    /// assert_eq!(reader.read_int::<u8>(), Ok(1));
    /// assert_eq!(reader.read_int::<u8>(), Ok(2));
    /// ```
    pub fn read_array_len(&mut self) -> Result<u32, Error> {
        self.read_len_of(Family::Array, "an array")
    }

    /// Reads the header of a map: how many key-value pairs follow.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xde, 0x00, 0x01, 0xa1, b'k', 0xc0]); // map 16
    /// assert_eq!(reader.read_map_len(), Ok(1));
    /// assert_eq!(reader.read_str(), Ok("k"));
    /// assert_eq!(reader.read_nil(), Ok(()));
    /// ```
    pub fn read_map_len(&mut self) -> Result<u32, Error> {
        self.read_len_of(Family::Map, "a map")
    }

    /// Reads the header of an extension: its type and data length.
    ///
    /// ```
    /// use msgpack_core::{ExtMeta, Reader};
    ///
    /// let mut reader = Reader::new(&[0xc7, 0x03, 0x05, 1, 2, 3]); // ext 8: 3 bytes of type 5
    /// assert_eq!(reader.read_ext_meta(), Ok(ExtMeta { ext_type: 5, len: 3 }));
    /// assert_eq!(reader.remaining(), [1, 2, 3]);
    /// ```
    pub fn read_ext_meta(&mut self) -> Result<ExtMeta, Error> {
        self.atomic(|r| {
            let len = r.read_len_of(Family::Ext, "an extension")?;
            let ext_type = r.take_byte()? as i8;
            Ok(ExtMeta { ext_type, len })
        })
    }

    /// Reads an extension: its type and data, borrowed from the input.
    ///
    /// ```
    /// use msgpack_core::Reader;
    ///
    /// let mut reader = Reader::new(&[0xd4, 0x01, 0x2a]); // fixext 1 of type 1
    /// assert_eq!(reader.read_ext(), Ok((1, &[0x2a][..])));
    /// ```
    pub fn read_ext(&mut self) -> Result<(i8, &'a [u8]), Error> {
        self.atomic(|r| {
            let meta = r.read_ext_meta()?;
            Ok((meta.ext_type, r.take_payload(meta.len)?))
        })
    }

    /// Reads a [`Timestamp`]: an extension of type -1 in any of its three
    /// forms. Another extension type is a type mismatch; a wrong data
    /// length or nanoseconds above 999,999,999 are
    /// [`InvalidTimestamp`](ErrorKind::InvalidTimestamp).
    ///
    /// ```
    /// use msgpack_core::{Reader, Timestamp};
    ///
    /// let mut reader = Reader::new(&[0xd6, 0xff, 0x00, 0x00, 0x00, 0x01]);
    /// assert_eq!(reader.read_timestamp(), Ok(Timestamp::from_seconds(1)));
    /// let error = Reader::new(&[0xd6, 0x01, 0, 0, 0, 1]).read_timestamp().unwrap_err(); // type 1
    /// assert_eq!(error.to_string(), "invalid type: fixext 4 (0xd6), expected a timestamp at offset 0");
    /// ```
    pub fn read_timestamp(&mut self) -> Result<Timestamp, Error> {
        let start = self.position();
        let marker = self.peek_marker()?;
        let (ext_type, data) = self.read_ext()?;
        let kind = if ext_type != TIMESTAMP_EXT_TYPE {
            ErrorKind::TypeMismatch {
                expected: "a timestamp",
                found: marker,
            }
        } else {
            match Timestamp::from_ext_data(data) {
                Some(timestamp) => return Ok(timestamp),
                None => ErrorKind::InvalidTimestamp,
            }
        };
        self.rewind(start);
        Err(Error::new(kind, start))
    }

    /// Reads the next token: a scalar, a borrowed payload, or a container
    /// header whose elements follow as further tokens.
    ///
    /// ```
    /// use msgpack_core::{Reader, Token};
    ///
    /// let mut reader = Reader::new(&[0x91, 0xa2, b'h', b'i']);
    /// assert_eq!(reader.read_token(), Ok(Token::Array(1)));
    /// assert_eq!(reader.read_token(), Ok(Token::Str("hi")));
    /// assert!(reader.is_empty());
    /// ```
    pub fn read_token(&mut self) -> Result<Token<'a>, Error> {
        let start = self.position();
        let marker = self.peek_marker()?;
        match marker.family() {
            Family::Nil => self.read_nil().map(|()| Token::Nil),
            Family::Bool => self.read_bool().map(Token::Bool),
            Family::Int => self.read_integer().map(Token::Int),
            Family::F32 => self.read_f32().map(Token::F32),
            Family::F64 => self.read_f64().map(Token::F64),
            Family::Str => self.read_str().map(Token::Str),
            Family::Bin => self.read_bin().map(Token::Bin),
            Family::Array => self.read_array_len().map(Token::Array),
            Family::Map => self.read_map_len().map(Token::Map),
            Family::Ext => self.read_ext().map(|(ty, data)| Token::Ext(ty, data)),
            Family::Reserved => Err(Error::new(ErrorKind::ReservedMarker, start)),
        }
    }
}
