//! The first byte of every MessagePack value: [`Marker`], and each marker
//! byte as a named constant to match on.
//!
//! ```
//! use msgpack_core::marker;
//!
//! let kind = |byte: u8| match byte {
//!     marker::FIXPOS..=marker::FIXPOS_MAX | marker::U8 => "small unsigned",
//!     marker::FIXSTR..=marker::FIXSTR_MAX | marker::STR8 => "short string",
//!     marker::NIL => "nil",
//!     _ => "other",
//! };
//! assert_eq!(kind(0xcc), "small unsigned");
//! assert_eq!(kind(0xa3), "short string");
//! ```

use core::fmt;

/// The format of a MessagePack value, read from its first byte.
///
/// Fix formats carry their small payload (the integer, or the length of the
/// string, array or map) inside the marker byte.
///
/// ```
/// use msgpack_core::Marker;
///
/// assert_eq!(Marker::from_u8(0xa3), Marker::FixStr(3));
/// assert_eq!(Marker::FixStr(3).to_u8(), 0xa3);
/// assert_eq!(Marker::from_u8(0xc1), Marker::Reserved);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Marker {
    /// `0x00..=0x7f`: an integer 0 to 127.
    FixPos(u8),
    /// `0x80..=0x8f`: a map of 0 to 15 pairs.
    FixMap(u8),
    /// `0x90..=0x9f`: an array of 0 to 15 elements.
    FixArray(u8),
    /// `0xa0..=0xbf`: a string of 0 to 31 bytes.
    FixStr(u8),
    /// `0xc0`
    Nil,
    /// `0xc1`: never used; an error wherever a value is expected.
    Reserved,
    /// `0xc2`
    False,
    /// `0xc3`
    True,
    /// `0xc4`
    Bin8,
    /// `0xc5`
    Bin16,
    /// `0xc6`
    Bin32,
    /// `0xc7`
    Ext8,
    /// `0xc8`
    Ext16,
    /// `0xc9`
    Ext32,
    /// `0xca`
    F32,
    /// `0xcb`
    F64,
    /// `0xcc`
    U8,
    /// `0xcd`
    U16,
    /// `0xce`
    U32,
    /// `0xcf`
    U64,
    /// `0xd0`
    I8,
    /// `0xd1`
    I16,
    /// `0xd2`
    I32,
    /// `0xd3`
    I64,
    /// `0xd4`
    FixExt1,
    /// `0xd5`
    FixExt2,
    /// `0xd6`
    FixExt4,
    /// `0xd7`
    FixExt8,
    /// `0xd8`
    FixExt16,
    /// `0xd9`
    Str8,
    /// `0xda`
    Str16,
    /// `0xdb`
    Str32,
    /// `0xdc`
    Array16,
    /// `0xdd`
    Array32,
    /// `0xde`
    Map16,
    /// `0xdf`
    Map32,
    /// `0xe0..=0xff`: an integer -32 to -1.
    FixNeg(i8),
}

/// The family a marker belongs to, as a decoder sees it.
///
/// ```
/// use msgpack_core::{Family, Marker};
///
/// assert_eq!(Marker::from_u8(0xcd).family(), Family::Int); // uint 16
/// assert_eq!(Marker::from_u8(0xe0).family(), Family::Int); // negative fixint
/// assert_eq!(Family::Str.to_string(), "a string");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// nil
    Nil,
    /// true or false
    Bool,
    /// any integer format
    Int,
    /// float32
    F32,
    /// float64
    F64,
    /// any str format
    Str,
    /// any bin format
    Bin,
    /// any array format
    Array,
    /// any map format
    Map,
    /// any ext or fixext format
    Ext,
    /// the reserved byte `0xc1`
    Reserved,
}

impl Marker {
    /// The marker of a first byte. Total: every byte is some marker.
    ///
    /// ```
    /// use msgpack_core::Marker;
    ///
    /// assert_eq!(Marker::from_u8(0x05), Marker::FixPos(5));
    /// assert_eq!(Marker::from_u8(0xff), Marker::FixNeg(-1));
    /// assert_eq!(Marker::from_u8(0x92), Marker::FixArray(2));
    /// assert_eq!(Marker::from_u8(0xcd), Marker::U16);
    /// ```
    #[inline]
    pub const fn from_u8(byte: u8) -> Marker {
        match byte {
            0x00..=0x7f => Marker::FixPos(byte),
            0x80..=0x8f => Marker::FixMap(byte & 0x0f),
            0x90..=0x9f => Marker::FixArray(byte & 0x0f),
            0xa0..=0xbf => Marker::FixStr(byte & 0x1f),
            0xc0 => Marker::Nil,
            0xc1 => Marker::Reserved,
            0xc2 => Marker::False,
            0xc3 => Marker::True,
            0xc4 => Marker::Bin8,
            0xc5 => Marker::Bin16,
            0xc6 => Marker::Bin32,
            0xc7 => Marker::Ext8,
            0xc8 => Marker::Ext16,
            0xc9 => Marker::Ext32,
            0xca => Marker::F32,
            0xcb => Marker::F64,
            0xcc => Marker::U8,
            0xcd => Marker::U16,
            0xce => Marker::U32,
            0xcf => Marker::U64,
            0xd0 => Marker::I8,
            0xd1 => Marker::I16,
            0xd2 => Marker::I32,
            0xd3 => Marker::I64,
            0xd4 => Marker::FixExt1,
            0xd5 => Marker::FixExt2,
            0xd6 => Marker::FixExt4,
            0xd7 => Marker::FixExt8,
            0xd8 => Marker::FixExt16,
            0xd9 => Marker::Str8,
            0xda => Marker::Str16,
            0xdb => Marker::Str32,
            0xdc => Marker::Array16,
            0xdd => Marker::Array32,
            0xde => Marker::Map16,
            0xdf => Marker::Map32,
            0xe0..=0xff => Marker::FixNeg(byte as i8),
        }
    }

    /// The byte this marker is written as.
    ///
    /// The payload of a fix marker is masked to its bits, so
    /// `Marker::FixStr(40)` is not a valid marker and writes a wrong byte;
    /// markers made by [`Marker::from_u8`] or by the writers always round-trip.
    ///
    /// ```
    /// use msgpack_core::Marker;
    ///
    /// assert_eq!(Marker::FixArray(2).to_u8(), 0x92);
    /// assert_eq!(Marker::FixNeg(-1).to_u8(), 0xff);
    /// assert_eq!(Marker::FixStr(40).to_u8(), 0xa8); // 40 does not fit in 5 bits
    /// ```
    #[inline]
    pub const fn to_u8(self) -> u8 {
        match self {
            Marker::FixPos(value) => value & 0x7f,
            Marker::FixMap(len) => 0x80 | (len & 0x0f),
            Marker::FixArray(len) => 0x90 | (len & 0x0f),
            Marker::FixStr(len) => 0xa0 | (len & 0x1f),
            Marker::Nil => 0xc0,
            Marker::Reserved => 0xc1,
            Marker::False => 0xc2,
            Marker::True => 0xc3,
            Marker::Bin8 => 0xc4,
            Marker::Bin16 => 0xc5,
            Marker::Bin32 => 0xc6,
            Marker::Ext8 => 0xc7,
            Marker::Ext16 => 0xc8,
            Marker::Ext32 => 0xc9,
            Marker::F32 => 0xca,
            Marker::F64 => 0xcb,
            Marker::U8 => 0xcc,
            Marker::U16 => 0xcd,
            Marker::U32 => 0xce,
            Marker::U64 => 0xcf,
            Marker::I8 => 0xd0,
            Marker::I16 => 0xd1,
            Marker::I32 => 0xd2,
            Marker::I64 => 0xd3,
            Marker::FixExt1 => 0xd4,
            Marker::FixExt2 => 0xd5,
            Marker::FixExt4 => 0xd6,
            Marker::FixExt8 => 0xd7,
            Marker::FixExt16 => 0xd8,
            Marker::Str8 => 0xd9,
            Marker::Str16 => 0xda,
            Marker::Str32 => 0xdb,
            Marker::Array16 => 0xdc,
            Marker::Array32 => 0xdd,
            Marker::Map16 => 0xde,
            Marker::Map32 => 0xdf,
            Marker::FixNeg(value) => value as u8 | 0xe0,
        }
    }

    /// The family this marker belongs to.
    ///
    /// ```
    /// use msgpack_core::{Family, Marker};
    ///
    /// assert_eq!(Marker::Str8.family(), Family::Str);
    /// assert_eq!(Marker::FixExt4.family(), Family::Ext);
    /// assert_eq!(Marker::Reserved.family(), Family::Reserved);
    /// ```
    pub const fn family(self) -> Family {
        match self {
            Marker::Nil => Family::Nil,
            Marker::False | Marker::True => Family::Bool,
            Marker::FixPos(_)
            | Marker::FixNeg(_)
            | Marker::U8
            | Marker::U16
            | Marker::U32
            | Marker::U64
            | Marker::I8
            | Marker::I16
            | Marker::I32
            | Marker::I64 => Family::Int,
            Marker::F32 => Family::F32,
            Marker::F64 => Family::F64,
            Marker::FixStr(_) | Marker::Str8 | Marker::Str16 | Marker::Str32 => Family::Str,
            Marker::Bin8 | Marker::Bin16 | Marker::Bin32 => Family::Bin,
            Marker::FixArray(_) | Marker::Array16 | Marker::Array32 => Family::Array,
            Marker::FixMap(_) | Marker::Map16 | Marker::Map32 => Family::Map,
            Marker::FixExt1
            | Marker::FixExt2
            | Marker::FixExt4
            | Marker::FixExt8
            | Marker::FixExt16
            | Marker::Ext8
            | Marker::Ext16
            | Marker::Ext32 => Family::Ext,
            Marker::Reserved => Family::Reserved,
        }
    }

    /// The name the MessagePack specification gives this format.
    ///
    /// ```
    /// use msgpack_core::Marker;
    ///
    /// assert_eq!(Marker::U16.name(), "uint 16");
    /// assert_eq!(Marker::FixStr(3).name(), "fixstr");
    /// assert_eq!(Marker::U16.to_string(), "uint 16 (0xcd)"); // Display adds the byte
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Marker::FixPos(_) => "positive fixint",
            Marker::FixMap(_) => "fixmap",
            Marker::FixArray(_) => "fixarray",
            Marker::FixStr(_) => "fixstr",
            Marker::Nil => "nil",
            Marker::Reserved => "reserved 0xc1",
            Marker::False => "false",
            Marker::True => "true",
            Marker::Bin8 => "bin 8",
            Marker::Bin16 => "bin 16",
            Marker::Bin32 => "bin 32",
            Marker::Ext8 => "ext 8",
            Marker::Ext16 => "ext 16",
            Marker::Ext32 => "ext 32",
            Marker::F32 => "float 32",
            Marker::F64 => "float 64",
            Marker::U8 => "uint 8",
            Marker::U16 => "uint 16",
            Marker::U32 => "uint 32",
            Marker::U64 => "uint 64",
            Marker::I8 => "int 8",
            Marker::I16 => "int 16",
            Marker::I32 => "int 32",
            Marker::I64 => "int 64",
            Marker::FixExt1 => "fixext 1",
            Marker::FixExt2 => "fixext 2",
            Marker::FixExt4 => "fixext 4",
            Marker::FixExt8 => "fixext 8",
            Marker::FixExt16 => "fixext 16",
            Marker::Str8 => "str 8",
            Marker::Str16 => "str 16",
            Marker::Str32 => "str 32",
            Marker::Array16 => "array 16",
            Marker::Array32 => "array 32",
            Marker::Map16 => "map 16",
            Marker::Map32 => "map 32",
            Marker::FixNeg(_) => "negative fixint",
        }
    }

    /// How many bytes follow the marker before the payload: the width of
    /// the length field of str, bin, array, map and ext formats (the ext
    /// type byte included), or of the value of int and float formats.
    ///
    /// ```
    /// use msgpack_core::Marker;
    ///
    /// assert_eq!(Marker::U16.header_len(), 2); // the value
    /// assert_eq!(Marker::Str8.header_len(), 1); // the length
    /// assert_eq!(Marker::Ext8.header_len(), 2); // the length and the type
    /// assert_eq!(Marker::FixStr(3).header_len(), 0);
    /// ```
    pub const fn header_len(self) -> usize {
        match self {
            Marker::U8 | Marker::I8 | Marker::Str8 | Marker::Bin8 => 1,
            Marker::U16 | Marker::I16 | Marker::Str16 | Marker::Bin16 => 2,
            Marker::Array16 | Marker::Map16 => 2,
            Marker::U32 | Marker::I32 | Marker::F32 | Marker::Str32 | Marker::Bin32 => 4,
            Marker::Array32 | Marker::Map32 => 4,
            Marker::U64 | Marker::I64 | Marker::F64 => 8,
            Marker::FixExt1
            | Marker::FixExt2
            | Marker::FixExt4
            | Marker::FixExt8
            | Marker::FixExt16 => 1,
            Marker::Ext8 => 2,
            Marker::Ext16 => 3,
            Marker::Ext32 => 5,
            _ => 0,
        }
    }
}

// Marker bytes by name, for code that matches on the byte itself (the
// decoder's fast paths, where a `Marker` would cost a conversion). Each is
// its `Marker`'s `to_u8`, so the two cannot disagree; a fix format is a
// range from its first byte to its `_MAX`.

/// `0x00`: the first positive fixint.
pub const FIXPOS: u8 = Marker::FixPos(0).to_u8();
/// `0x7f`: the last positive fixint.
pub const FIXPOS_MAX: u8 = Marker::FixPos(0x7f).to_u8();
/// `0x80`: the fixmap of no pairs; the length is the low 4 bits.
pub const FIXMAP: u8 = Marker::FixMap(0).to_u8();
/// `0x8f`: the last fixmap.
pub const FIXMAP_MAX: u8 = Marker::FixMap(0x0f).to_u8();
/// `0x90`: the fixarray of no elements; the length is the low 4 bits.
pub const FIXARRAY: u8 = Marker::FixArray(0).to_u8();
/// `0x9f`: the last fixarray.
pub const FIXARRAY_MAX: u8 = Marker::FixArray(0x0f).to_u8();
/// `0xa0`: the empty fixstr; the length is the low 5 bits.
pub const FIXSTR: u8 = Marker::FixStr(0).to_u8();
/// `0xbf`: the last fixstr.
pub const FIXSTR_MAX: u8 = Marker::FixStr(0x1f).to_u8();
/// `0xc0`
pub const NIL: u8 = Marker::Nil.to_u8();
/// `0xc1`
pub const RESERVED: u8 = Marker::Reserved.to_u8();
/// `0xc2`
pub const FALSE: u8 = Marker::False.to_u8();
/// `0xc3`
pub const TRUE: u8 = Marker::True.to_u8();
/// `0xc4`
pub const BIN8: u8 = Marker::Bin8.to_u8();
/// `0xc5`
pub const BIN16: u8 = Marker::Bin16.to_u8();
/// `0xc6`
pub const BIN32: u8 = Marker::Bin32.to_u8();
/// `0xc7`
pub const EXT8: u8 = Marker::Ext8.to_u8();
/// `0xc8`
pub const EXT16: u8 = Marker::Ext16.to_u8();
/// `0xc9`
pub const EXT32: u8 = Marker::Ext32.to_u8();
/// `0xca`
pub const F32: u8 = Marker::F32.to_u8();
/// `0xcb`
pub const F64: u8 = Marker::F64.to_u8();
/// `0xcc`
pub const U8: u8 = Marker::U8.to_u8();
/// `0xcd`
pub const U16: u8 = Marker::U16.to_u8();
/// `0xce`
pub const U32: u8 = Marker::U32.to_u8();
/// `0xcf`
pub const U64: u8 = Marker::U64.to_u8();
/// `0xd0`
pub const I8: u8 = Marker::I8.to_u8();
/// `0xd1`
pub const I16: u8 = Marker::I16.to_u8();
/// `0xd2`
pub const I32: u8 = Marker::I32.to_u8();
/// `0xd3`
pub const I64: u8 = Marker::I64.to_u8();
/// `0xd4`
pub const FIXEXT1: u8 = Marker::FixExt1.to_u8();
/// `0xd5`
pub const FIXEXT2: u8 = Marker::FixExt2.to_u8();
/// `0xd6`
pub const FIXEXT4: u8 = Marker::FixExt4.to_u8();
/// `0xd7`
pub const FIXEXT8: u8 = Marker::FixExt8.to_u8();
/// `0xd8`
pub const FIXEXT16: u8 = Marker::FixExt16.to_u8();
/// `0xd9`
pub const STR8: u8 = Marker::Str8.to_u8();
/// `0xda`
pub const STR16: u8 = Marker::Str16.to_u8();
/// `0xdb`
pub const STR32: u8 = Marker::Str32.to_u8();
/// `0xdc`
pub const ARRAY16: u8 = Marker::Array16.to_u8();
/// `0xdd`
pub const ARRAY32: u8 = Marker::Array32.to_u8();
/// `0xde`
pub const MAP16: u8 = Marker::Map16.to_u8();
/// `0xdf`
pub const MAP32: u8 = Marker::Map32.to_u8();
/// `0xe0`: the first negative fixint, -32.
pub const FIXNEG: u8 = Marker::FixNeg(-32).to_u8();
/// `0xff`: the last negative fixint, -1.
pub const FIXNEG_MAX: u8 = Marker::FixNeg(-1).to_u8();

/// The payload bytes after a fixint (none) or fixstr (its length) marker
/// `byte`, read from the byte alone; `None` for every other marker. The
/// walkers read most values this way (`Reader::skip` every one, the
/// `Framer` those past a value's first byte), so that the next position
/// does not wait on a lookup.
#[inline(always)]
pub(crate) fn fix_scalar_payload(byte: u8) -> Option<u64> {
    if !(FIXMAP..FIXNEG).contains(&byte) {
        Some(0)
    } else if byte & !0x1f == FIXSTR {
        Some(u64::from(byte & 0x1f))
    } else {
        None
    }
}

/// Where a header's length is: in its marker, or in the bytes after it.
/// [`Marker::length`] says which, for every marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Length {
    /// In the marker itself (a fix format; for fixext, the data length),
    /// or 0 for a marker that declares no length (nil, numbers, booleans).
    Fixed(u32),
    /// In the 1, 2 or 4 big-endian bytes after the marker (for ext, the
    /// data length, before the type byte).
    Field(usize),
}

impl Marker {
    /// Where the length a str, bin, array, map or ext header declares is
    /// (for ext, the data length).
    ///
    /// ```
    /// use msgpack_core::{Length, Marker};
    ///
    /// assert_eq!(Marker::FixArray(3).length(), Length::Fixed(3));
    /// assert_eq!(Marker::FixExt4.length(), Length::Fixed(4));
    /// assert_eq!(Marker::Str16.length(), Length::Field(2));
    /// assert_eq!(Marker::Ext32.length(), Length::Field(4));
    /// assert_eq!(Marker::U64.length(), Length::Fixed(0));
    /// assert_eq!(Length::Field(2).of(&[0x01, 0x00]), 256);
    /// ```
    #[inline]
    pub const fn length(self) -> Length {
        match self {
            Marker::FixStr(len) | Marker::FixArray(len) | Marker::FixMap(len) => {
                Length::Fixed(len as u32)
            }
            Marker::FixExt1 => Length::Fixed(1),
            Marker::FixExt2 => Length::Fixed(2),
            Marker::FixExt4 => Length::Fixed(4),
            Marker::FixExt8 => Length::Fixed(8),
            Marker::FixExt16 => Length::Fixed(16),
            Marker::Str8 | Marker::Bin8 | Marker::Ext8 => Length::Field(1),
            Marker::Str16 | Marker::Bin16 | Marker::Ext16 | Marker::Array16 | Marker::Map16 => {
                Length::Field(2)
            }
            Marker::Str32 | Marker::Bin32 | Marker::Ext32 | Marker::Array32 | Marker::Map32 => {
                Length::Field(4)
            }
            _ => Length::Fixed(0),
        }
    }
}

impl Length {
    /// The length, given the bytes after the marker (at least the field's
    /// width of them; more are ignored).
    ///
    /// # Panics
    ///
    /// If `header` is shorter than the field.
    #[inline]
    pub fn of(self, header: &[u8]) -> u32 {
        match self {
            Length::Fixed(len) => len,
            Length::Field(width) => header[..width]
                .iter()
                .fold(0, |len, &byte| (len << 8) | byte as u32),
        }
    }
}

impl From<u8> for Marker {
    fn from(byte: u8) -> Marker {
        Marker::from_u8(byte)
    }
}

impl From<Marker> for u8 {
    fn from(marker: Marker) -> u8 {
        marker.to_u8()
    }
}

impl fmt::Display for Marker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (0x{:02x})", self.name(), self.to_u8())
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Family::Nil => "nil",
            Family::Bool => "a boolean",
            Family::Int => "an integer",
            Family::F32 => "a float 32",
            Family::F64 => "a float 64",
            Family::Str => "a string",
            Family::Bin => "binary data",
            Family::Array => "an array",
            Family::Map => "a map",
            Family::Ext => "an extension",
            Family::Reserved => "the reserved byte 0xc1",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_bytes_are_the_spec_bytes() {
        let named = [
            (FIXPOS, 0x00),
            (FIXPOS_MAX, 0x7f),
            (FIXMAP, 0x80),
            (FIXMAP_MAX, 0x8f),
            (FIXARRAY, 0x90),
            (FIXARRAY_MAX, 0x9f),
            (FIXSTR, 0xa0),
            (FIXSTR_MAX, 0xbf),
            (NIL, 0xc0),
            (RESERVED, 0xc1),
            (FALSE, 0xc2),
            (TRUE, 0xc3),
            (BIN8, 0xc4),
            (BIN16, 0xc5),
            (BIN32, 0xc6),
            (EXT8, 0xc7),
            (EXT16, 0xc8),
            (EXT32, 0xc9),
            (F32, 0xca),
            (F64, 0xcb),
            (U8, 0xcc),
            (U16, 0xcd),
            (U32, 0xce),
            (U64, 0xcf),
            (I8, 0xd0),
            (I16, 0xd1),
            (I32, 0xd2),
            (I64, 0xd3),
            (FIXEXT1, 0xd4),
            (FIXEXT2, 0xd5),
            (FIXEXT4, 0xd6),
            (FIXEXT8, 0xd7),
            (FIXEXT16, 0xd8),
            (STR8, 0xd9),
            (STR16, 0xda),
            (STR32, 0xdb),
            (ARRAY16, 0xdc),
            (ARRAY32, 0xdd),
            (MAP16, 0xde),
            (MAP32, 0xdf),
            (FIXNEG, 0xe0),
            (FIXNEG_MAX, 0xff),
        ];
        for (name, byte) in named {
            assert_eq!(name, byte);
        }
    }

    #[test]
    fn every_byte_round_trips() {
        for byte in 0..=u8::MAX {
            assert_eq!(Marker::from_u8(byte).to_u8(), byte, "byte {byte:#04x}");
        }
    }
}
