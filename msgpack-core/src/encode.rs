//! Writing MessagePack: one function per format family, smallest form first.
//!
//! `write_uint`, `write_int` and the length writers choose the smallest
//! form and return the [`Marker`] they chose. The fixed-width writers
//! (`write_u16`, `write_i32`, ...) are named for the width they always use.
//!
//! ```
//! use msgpack_core::{encode, Marker};
//!
//! let mut out = Vec::new();
//! encode::write_map_len(&mut out, 1).unwrap();
//! encode::write_str(&mut out, "id").unwrap();
//! assert_eq!(encode::write_int(&mut out, 300).unwrap(), Marker::U16);
//! assert_eq!(out, [0x81, 0xa2, b'i', b'd', 0xcd, 0x01, 0x2c]);
//! ```

use crate::{EncodeError, Marker, Timestamp, Token, Write};

/// Writes nil (`0xc0`).
///
/// ```
/// use msgpack_core::encode;
///
/// let mut out = Vec::new();
/// encode::write_nil(&mut out).unwrap();
/// assert_eq!(out, [0xc0]);
/// ```
#[inline]
pub fn write_nil<W: Write>(out: &mut W) -> Result<(), W::Error> {
    out.write_u8(Marker::Nil.to_u8())
}

/// Writes `false` (`0xc2`) or `true` (`0xc3`).
///
/// ```
/// use msgpack_core::encode;
///
/// let mut out = Vec::new();
/// encode::write_bool(&mut out, false).unwrap();
/// encode::write_bool(&mut out, true).unwrap();
/// assert_eq!(out, [0xc2, 0xc3]);
/// ```
#[inline]
pub fn write_bool<W: Write>(out: &mut W, value: bool) -> Result<(), W::Error> {
    out.write_u8(if value { 0xc3 } else { 0xc2 })
}

/// Writes a non-negative integer in the smallest unsigned form.
///
/// ```
/// use msgpack_core::{encode, Marker};
///
/// let mut out = Vec::new();
/// assert_eq!(encode::write_uint(&mut out, 127).unwrap(), Marker::FixPos(127));
/// assert_eq!(encode::write_uint(&mut out, 128).unwrap(), Marker::U8);
/// assert_eq!(out, [0x7f, 0xcc, 0x80]);
/// ```
#[inline]
pub fn write_uint<W: Write>(out: &mut W, value: u64) -> Result<Marker, W::Error> {
    write_uint_inlined(out, value)
}

/// [`write_uint`], always inlined: for [`Room`](crate::Room), whose
/// writes must inline to keep it in registers.
#[inline(always)]
pub(crate) fn write_uint_inlined<W: Write>(out: &mut W, value: u64) -> Result<Marker, W::Error> {
    if value < 128 {
        out.write_u8(value as u8)?;
        return Ok(Marker::FixPos(value as u8));
    }
    write_sized(out, value, &INT_FORMS[zeros(value)])
}

/// Writes an integer in the smallest form: a non-negative value always in
/// the unsigned family (as [`write_uint`]), a negative one in the smallest
/// signed form.
///
/// ```
/// use msgpack_core::{encode, Marker};
///
/// let mut out = Vec::new();
/// assert_eq!(encode::write_int(&mut out, 200).unwrap(), Marker::U8); // unsigned family
/// assert_eq!(encode::write_int(&mut out, -33).unwrap(), Marker::I8);
/// assert_eq!(out, [0xcc, 0xc8, 0xd0, 0xdf]);
/// ```
#[inline]
pub fn write_int<W: Write>(out: &mut W, value: i64) -> Result<Marker, W::Error> {
    write_int_inlined(out, value)
}

/// [`write_int`], always inlined, as [`write_uint_inlined`].
#[inline(always)]
pub(crate) fn write_int_inlined<W: Write>(out: &mut W, value: i64) -> Result<Marker, W::Error> {
    if (value as u64) < 128 {
        out.write_u8(value as u8)?;
        return Ok(Marker::FixPos(value as u8));
    }
    write_sized(out, value as u64, int_form(value))
}

/// The form of `value`, not a positive fixint: without a branch on the
/// sign or the width, which random data mispredicts, from one table row
/// per sign, indexed by leading zeros.
#[inline(always)]
fn int_form(value: i64) -> &'static IntForm {
    let sign = value >> 63; // -1 when negative, else 0
    let magnitude = (value ^ sign) as u64; // `!value` when negative
    &INT_FORMS[zeros(magnitude) | (sign as usize & NEGATIVE)]
}

/// The form of an integer that is not a positive fixint: its marker
/// byte, its length and where its payload is. A negative fixint is its
/// own low byte, taken through `fix_mask`, with no payload.
#[derive(Clone, Copy)]
struct IntForm {
    marker: u8,
    fix_mask: u8,
    /// Bytes in all: the marker and the payload, 1 to 9.
    len: u8,
    /// How far the value shifts left to bring its payload bytes to the
    /// top, so that big-endian they follow the marker.
    shift: u8,
}

/// The leading zero bits of `magnitude`, 0 to 64.
///
/// Not `(magnitude | 1)`'s, which would need no case for zero: x86's
/// `bsr` then keeps its destination's old value as an input, and that
/// register carries a dependency from one integer of a run to the next.
#[inline(always)]
fn zeros(magnitude: u64) -> usize {
    magnitude.leading_zeros() as usize
}

/// Where a negative integer's forms start in [`INT_FORMS`]: one bit
/// above the most [`zeros`], so a row is picked with an `or`.
const NEGATIVE: usize = 128;

/// The forms of integers by sign and leading [`zeros`]: non-negative
/// values from 0 by the value's; negative ones from [`NEGATIVE`] by
/// `!value`'s: up to 5 significant bits is a negative fixint
/// (-32..=-1), then the widths whose sign bit fits. A reference to a
/// constant, not a static, as `int_head.rs`'s `INT_READS` says why.
const INT_FORMS: &[IntForm; 2 * NEGATIVE] = &{
    let mut table = [IntForm {
        marker: 0,
        fix_mask: 0,
        len: 1,
        shift: 0,
    }; 2 * NEGATIVE];
    int_forms(
        &mut table,
        0,
        &[(8, 0xcc, 1), (16, 0xcd, 2), (32, 0xce, 4), (64, 0xcf, 8)],
    );
    int_forms(
        &mut table,
        NEGATIVE,
        &[
            (5, 0, 0),
            (7, 0xd0, 1),
            (15, 0xd1, 2),
            (31, 0xd2, 4),
            (64, 0xd3, 8),
        ],
    );
    // What `sized` tells the compiler, of every entry.
    let mut i = 0;
    while i < table.len() {
        assert!(table[i].len <= 9);
        i += 1;
    }
    table
};

/// Fills the 65 forms from `start`, by leading zeros (64 minus the bit
/// count), from `(largest bit count, marker, payload length)` rows,
/// smallest first; a row of length 0 is a negative fixint.
const fn int_forms(table: &mut [IntForm; 2 * NEGATIVE], start: usize, rows: &[(usize, u8, u8)]) {
    let mut bits = 0;
    let mut row = 0;
    while bits <= 64 {
        while bits > rows[row].0 {
            row += 1;
        }
        let (_, marker, payload) = rows[row];
        table[start + 64 - bits] = IntForm {
            marker,
            fix_mask: if payload == 0 { 0xff } else { 0 },
            len: 1 + payload,
            shift: (64 - 8 * payload as u32) as u8 & 63,
        };
        bits += 1;
    }
}

/// Writes `value` in `form`, as [`sized`] gives it.
#[inline(always)]
fn write_sized<W: Write>(out: &mut W, value: u64, form: &IntForm) -> Result<Marker, W::Error> {
    let (bytes, len) = sized(value, form);
    out.write_prefix(&bytes, len)?;
    Ok(Marker::from_u8(bytes[0]))
}

/// `value` in `form`: the marker, then the payload, big-endian; for a
/// negative fixint, the value's low byte alone. All nine bytes are built
/// without branches, with how many of them count.
#[inline(always)]
fn sized(value: u64, form: &IntForm) -> ([u8; 9], usize) {
    let marker = form.marker | (value as u8 & form.fix_mask);
    // With no payload the bytes after the marker do not count, whatever
    // they hold.
    let payload = value.wrapping_shl(u32::from(form.shift));
    let mut bytes = [0u8; 9];
    bytes[0] = marker;
    bytes[1..].copy_from_slice(&payload.to_be_bytes());
    // SAFETY: `INT_FORMS`, built at compile time, checks that every one
    // of its forms is at most 9 bytes. Known, the bound lets a write drop
    // its own clamp of the length.
    unsafe { core::hint::assert_unchecked(form.len <= 9) };
    (bytes, usize::from(form.len))
}

/// The bytes [`write_uint`] writes for `value`, as nine bytes of which
/// the first `len` count (`len` from 1 to 9): for writers that take a
/// fixed-size copy, such as [`Room::put_each`](crate::Room::put_each).
///
/// ```
/// use msgpack_core::encode;
///
/// let (bytes, len) = encode::uint_bytes(300);
/// assert_eq!(&bytes[..len], [0xcd, 0x01, 0x2c]);
/// ```
#[inline(always)]
pub fn uint_bytes(value: u64) -> ([u8; 9], usize) {
    if value < 128 {
        return ([value as u8, 0, 0, 0, 0, 0, 0, 0, 0], 1);
    }
    sized(value, &INT_FORMS[zeros(value)])
}

/// The bytes [`write_int`] writes for `value`, as [`uint_bytes`] gives
/// them.
///
/// ```
/// use msgpack_core::encode;
///
/// let (bytes, len) = encode::int_bytes(-33);
/// assert_eq!(&bytes[..len], [0xd0, 0xdf]);
/// ```
#[inline(always)]
pub fn int_bytes(value: i64) -> ([u8; 9], usize) {
    if (value as u64) < 128 {
        return ([value as u8, 0, 0, 0, 0, 0, 0, 0, 0], 1);
    }
    sized(value as u64, int_form(value))
}

macro_rules! fixed_width_writers {
    ($($(#[$doc:meta])* $name:ident($ty:ty) = $marker:expr;)*) => {$(
        $(#[$doc])*
        #[inline]
        pub fn $name<W: Write>(out: &mut W, value: $ty) -> Result<(), W::Error> {
            const N: usize = core::mem::size_of::<$ty>();
            let mut buf = [0u8; 1 + N];
            buf[0] = $marker.to_u8();
            buf[1..].copy_from_slice(&value.to_be_bytes());
            out.write_all(&buf)
        }
    )*};
}

fixed_width_writers! {
    /// Writes uint 8 (`0xcc`), whatever the value.
    ///
    /// ```
    /// use msgpack_core::encode;
    ///
    /// let mut out = Vec::new();
    /// encode::write_u8(&mut out, 1).unwrap();
    /// assert_eq!(out, [0xcc, 0x01]); // a fixint would be smaller
    /// ```
    write_u8(u8) = Marker::U8;
    /// Writes uint 16 (`0xcd`), whatever the value.
    ///
    /// ```
    /// use msgpack_core::encode;
    ///
    /// let mut out = Vec::new();
    /// encode::write_u16(&mut out, 1).unwrap();
    /// assert_eq!(out, [0xcd, 0x00, 0x01]); // a fixint would be smaller
    /// ```
    write_u16(u16) = Marker::U16;
    /// Writes uint 32 (`0xce`), whatever the value.
    ///
    /// ```
    /// use msgpack_core::encode;
    ///
    /// let mut out = Vec::new();
    /// encode::write_u32(&mut out, 1).unwrap();
    /// assert_eq!(out, [0xce, 0x00, 0x00, 0x00, 0x01]); // a fixint would be smaller
    /// ```
    write_u32(u32) = Marker::U32;
    /// Writes uint 64 (`0xcf`), whatever the value.
    ///
    /// ```
    /// use msgpack_core::encode;
    ///
    /// let mut out = Vec::new();
    /// encode::write_u64(&mut out, 1).unwrap();
    /// assert_eq!(out, [0xcf, 0, 0, 0, 0, 0, 0, 0, 0x01]); // a fixint would be smaller
    /// ```
    write_u64(u64) = Marker::U64;
    /// Writes int 8 (`0xd0`), whatever the value.
    ///
    /// ```
    /// use msgpack_core::encode;
    ///
    /// let mut out = Vec::new();
    /// encode::write_i8(&mut out, -1).unwrap();
    /// assert_eq!(out, [0xd0, 0xff]); // a fixint would be smaller
    /// ```
    write_i8(i8) = Marker::I8;
    /// Writes int 16 (`0xd1`), whatever the value.
    ///
    /// ```
    /// use msgpack_core::encode;
    ///
    /// let mut out = Vec::new();
    /// encode::write_i16(&mut out, -1).unwrap();
    /// assert_eq!(out, [0xd1, 0xff, 0xff]); // a fixint would be smaller
    /// ```
    write_i16(i16) = Marker::I16;
    /// Writes int 32 (`0xd2`), whatever the value.
    ///
    /// ```
    /// use msgpack_core::encode;
    ///
    /// let mut out = Vec::new();
    /// encode::write_i32(&mut out, 1).unwrap();
    /// assert_eq!(out, [0xd2, 0x00, 0x00, 0x00, 0x01]); // a fixint would be smaller
    /// ```
    write_i32(i32) = Marker::I32;
    /// Writes int 64 (`0xd3`), whatever the value.
    ///
    /// ```
    /// use msgpack_core::encode;
    ///
    /// let mut out = Vec::new();
    /// encode::write_i64(&mut out, -2).unwrap();
    /// assert_eq!(out, [0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]);
    /// ```
    write_i64(i64) = Marker::I64;
    /// Writes float 32 (`0xca`).
    ///
    /// ```
    /// use msgpack_core::encode;
    ///
    /// let mut out = Vec::new();
    /// encode::write_f32(&mut out, 1.5).unwrap();
    /// assert_eq!(out, [0xca, 0x3f, 0xc0, 0x00, 0x00]);
    /// ```
    write_f32(f32) = Marker::F32;
    /// Writes float 64 (`0xcb`).
    ///
    /// ```
    /// use msgpack_core::encode;
    ///
    /// let mut out = Vec::new();
    /// encode::write_f64(&mut out, 1.5).unwrap();
    /// assert_eq!(out, [0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0]);
    /// ```
    write_f64(f64) = Marker::F64;
}

/// The header forms of one length-prefixed family.
struct LenForms {
    /// The largest length of the fix form, and its marker byte for length 0.
    fix: Option<(usize, u8)>,
    m8: Option<Marker>,
    m16: Marker,
    m32: Marker,
}

const STR: LenForms = LenForms {
    fix: Some((31, 0xa0)),
    m8: Some(Marker::Str8),
    m16: Marker::Str16,
    m32: Marker::Str32,
};
const BIN: LenForms = LenForms {
    fix: None,
    m8: Some(Marker::Bin8),
    m16: Marker::Bin16,
    m32: Marker::Bin32,
};
const ARRAY: LenForms = LenForms {
    fix: Some((15, 0x90)),
    m8: None,
    m16: Marker::Array16,
    m32: Marker::Array32,
};
const MAP: LenForms = LenForms {
    fix: Some((15, 0x80)),
    m8: None,
    m16: Marker::Map16,
    m32: Marker::Map32,
};
const EXT: LenForms = LenForms {
    fix: None,
    m8: Some(Marker::Ext8),
    m16: Marker::Ext16,
    m32: Marker::Ext32,
};

/// Writes a length header in the smallest of `forms`, marker and length in
/// one fixed-size write (which the compiler turns into plain stores).
#[inline(always)]
fn write_len<W: Write>(
    out: &mut W,
    len: usize,
    forms: &LenForms,
) -> Result<Marker, EncodeError<W::Error>> {
    if let Some((max, base)) = forms.fix {
        if len <= max {
            let byte = base | len as u8;
            out.write_u8(byte)?;
            return Ok(Marker::from_u8(byte));
        }
    }
    if let Some(m8) = forms.m8 {
        if len <= u8::MAX as usize {
            out.write_all(&[m8.to_u8(), len as u8])?;
            return Ok(m8);
        }
    }
    if len <= u16::MAX as usize {
        let [a, b] = (len as u16).to_be_bytes();
        out.write_all(&[forms.m16.to_u8(), a, b])?;
        return Ok(forms.m16);
    }
    let [a, b, c, d] = u32::try_from(len)
        .map_err(|_| EncodeError::LengthOverflow(len))?
        .to_be_bytes();
    out.write_all(&[forms.m32.to_u8(), a, b, c, d])?;
    Ok(forms.m32)
}

/// Writes the header of a string of `len` bytes: fixstr, str 8, 16 or 32.
///
/// ```
/// use msgpack_core::{encode, Marker};
///
/// let mut out = Vec::new();
/// assert_eq!(encode::write_str_len(&mut out, 31).unwrap(), Marker::FixStr(31));
/// assert_eq!(encode::write_str_len(&mut out, 32).unwrap(), Marker::Str8);
/// assert_eq!(out, [0xbf, 0xd9, 0x20]);
/// ```
#[inline]
pub fn write_str_len<W: Write>(out: &mut W, len: usize) -> Result<Marker, EncodeError<W::Error>> {
    write_len(out, len, &STR)
}

/// Writes a string: its header, then its UTF-8 bytes.
///
/// ```
/// use msgpack_core::{encode, Marker};
///
/// let mut out = Vec::new();
/// assert_eq!(encode::write_str(&mut out, "hé").unwrap(), Marker::FixStr(3)); // 3 bytes
/// assert_eq!(out, [0xa3, b'h', 0xc3, 0xa9]);
/// ```
#[inline]
pub fn write_str<W: Write>(out: &mut W, value: &str) -> Result<Marker, EncodeError<W::Error>> {
    write_str_bytes(out, value.as_bytes())
}

/// Writes raw bytes in the str family, for strings that are not valid
/// UTF-8 (the specification allows it; most readers reject them).
///
/// ```
/// use msgpack_core::{encode, Reader};
///
/// let mut out = Vec::new();
/// encode::write_str_bytes(&mut out, &[0xff]).unwrap();
/// assert_eq!(out, [0xa1, 0xff]);
/// let error = Reader::new(&out).read_str().unwrap_err();
/// assert_eq!(error.to_string(), "invalid UTF-8 in string at offset 0");
/// ```
#[inline]
pub fn write_str_bytes<W: Write>(
    out: &mut W,
    value: &[u8],
) -> Result<Marker, EncodeError<W::Error>> {
    let marker = write_str_len(out, value.len())?;
    out.write_all(value)?;
    Ok(marker)
}

/// Writes the header of binary data of `len` bytes: bin 8, 16 or 32.
///
/// ```
/// use msgpack_core::{encode, Marker};
///
/// let mut out = Vec::new();
/// assert_eq!(encode::write_bin_len(&mut out, 256).unwrap(), Marker::Bin16);
/// assert_eq!(out, [0xc5, 0x01, 0x00]);
/// ```
#[inline]
pub fn write_bin_len<W: Write>(out: &mut W, len: usize) -> Result<Marker, EncodeError<W::Error>> {
    write_len(out, len, &BIN)
}

/// Writes binary data: its header, then the bytes.
///
/// ```
/// use msgpack_core::{encode, Marker};
///
/// let mut out = Vec::new();
/// assert_eq!(encode::write_bin(&mut out, &[0xca, 0xfe]).unwrap(), Marker::Bin8); // bin has no fix form
/// assert_eq!(out, [0xc4, 0x02, 0xca, 0xfe]);
/// ```
#[inline]
pub fn write_bin<W: Write>(out: &mut W, value: &[u8]) -> Result<Marker, EncodeError<W::Error>> {
    let marker = write_bin_len(out, value.len())?;
    out.write_all(value)?;
    Ok(marker)
}

/// Writes the header of an array of `len` elements: fixarray, array 16 or 32.
/// The elements follow as `len` values.
///
/// ```
/// use msgpack_core::{encode, Marker};
///
/// let mut out = Vec::new();
/// encode::write_array_len(&mut out, 2).unwrap();
/// encode::write_nil(&mut out).unwrap();
/// encode::write_bool(&mut out, true).unwrap();
/// assert_eq!(out, [0x92, 0xc0, 0xc3]);
/// assert_eq!(encode::write_array_len(&mut Vec::new(), 16).unwrap(), Marker::Array16);
/// ```
#[inline]
pub fn write_array_len<W: Write>(out: &mut W, len: usize) -> Result<Marker, EncodeError<W::Error>> {
    write_len(out, len, &ARRAY)
}

/// [`write_array_len`] or [`write_map_len`] (`is_map`), always inlined:
/// for [`Room`](crate::Room), whose writes must inline to keep it in
/// registers.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn write_container_len_inlined<W: Write>(
    out: &mut W,
    len: usize,
    is_map: bool,
) -> Result<Marker, EncodeError<W::Error>> {
    write_len(out, len, if is_map { &MAP } else { &ARRAY })
}

/// Writes the header of a map of `len` pairs: fixmap, map 16 or 32.
/// The pairs follow as `2 * len` values, key then value.
///
/// ```
/// use msgpack_core::{encode, Marker};
///
/// let mut out = Vec::new();
/// encode::write_map_len(&mut out, 1).unwrap();
/// encode::write_int(&mut out, 1).unwrap(); // key
/// encode::write_str(&mut out, "a").unwrap(); // value
/// assert_eq!(out, [0x81, 0x01, 0xa1, b'a']);
/// assert_eq!(encode::write_map_len(&mut Vec::new(), 16).unwrap(), Marker::Map16);
/// ```
#[inline]
pub fn write_map_len<W: Write>(out: &mut W, len: usize) -> Result<Marker, EncodeError<W::Error>> {
    write_len(out, len, &MAP)
}

/// Writes the header of an extension of type `ext_type` with `len` bytes of
/// data: fixext 1, 2, 4, 8 or 16 when the length is one of those, else
/// ext 8, 16 or 32. Types -128 to -1 are reserved by the specification
/// (-1 is the [`Timestamp`]); applications use 0 to 127.
///
/// ```
/// use msgpack_core::{encode, Marker};
///
/// let mut out = Vec::new();
/// assert_eq!(encode::write_ext_meta(&mut out, 4, 7).unwrap(), Marker::FixExt4);
/// assert_eq!(encode::write_ext_meta(&mut out, 3, 7).unwrap(), Marker::Ext8); // no fixext 3
/// assert_eq!(out, [0xd6, 0x07, 0xc7, 0x03, 0x07]);
/// ```
#[inline]
pub fn write_ext_meta<W: Write>(
    out: &mut W,
    len: usize,
    ext_type: i8,
) -> Result<Marker, EncodeError<W::Error>> {
    let fixed = match len {
        1 => Some(Marker::FixExt1),
        2 => Some(Marker::FixExt2),
        4 => Some(Marker::FixExt4),
        8 => Some(Marker::FixExt8),
        16 => Some(Marker::FixExt16),
        _ => None,
    };
    let marker = match fixed {
        Some(marker) => {
            out.write_u8(marker.to_u8())?;
            marker
        }
        None => write_len(out, len, &EXT)?,
    };
    out.write_u8(ext_type as u8)?;
    Ok(marker)
}

/// Writes an extension: its header, then `data`.
///
/// ```
/// use msgpack_core::{encode, Marker};
///
/// let mut out = Vec::new();
/// assert_eq!(encode::write_ext(&mut out, 1, &[0x2a]).unwrap(), Marker::FixExt1);
/// assert_eq!(out, [0xd4, 0x01, 0x2a]);
/// ```
#[inline]
pub fn write_ext<W: Write>(
    out: &mut W,
    ext_type: i8,
    data: &[u8],
) -> Result<Marker, EncodeError<W::Error>> {
    let marker = write_ext_meta(out, data.len(), ext_type)?;
    out.write_all(data)?;
    Ok(marker)
}

/// Writes a [`Timestamp`] (extension type -1) in the smallest of its three
/// forms: 32-bit seconds, 64-bit (34-bit seconds, 30-bit nanoseconds) or
/// 96-bit (64-bit signed seconds, 32-bit nanoseconds).
///
/// ```
/// use msgpack_core::{encode, Timestamp};
///
/// let mut out = Vec::new();
/// encode::write_timestamp(&mut out, Timestamp::from_seconds(1)).unwrap();
/// assert_eq!(out, [0xd6, 0xff, 0, 0, 0, 1]);
/// ```
#[inline]
pub fn write_timestamp<W: Write>(out: &mut W, value: Timestamp) -> Result<Marker, W::Error> {
    let mut buf = [0u8; 15];
    let (marker, len) = value.encode_into(&mut buf);
    out.write_all(&buf[..len])?;
    Ok(marker)
}

/// Writes one [`Token`]: a scalar or payload whole, or the header of an
/// array or map whose elements the caller writes next. The mirror of
/// [`Reader::read_token`](crate::Reader::read_token).
///
/// ```
/// use msgpack_core::{encode, Token};
///
/// let mut out = Vec::new();
/// encode::write_token(&mut out, Token::Array(1)).unwrap();
/// encode::write_token(&mut out, Token::Str("hi")).unwrap();
/// assert_eq!(out, [0x91, 0xa2, b'h', b'i']);
/// ```
pub fn write_token<W: Write>(out: &mut W, token: Token<'_>) -> Result<(), EncodeError<W::Error>> {
    match token {
        Token::Nil => write_nil(out)?,
        Token::Bool(b) => write_bool(out, b)?,
        Token::Int(n) => match n.as_u64() {
            Some(n) => drop(write_uint(out, n)?),
            // A negative integer always fits i64.
            None => drop(write_int(out, n.as_i128() as i64)?),
        },
        Token::F32(x) => write_f32(out, x)?,
        Token::F64(x) => write_f64(out, x)?,
        Token::Str(s) => drop(write_str(out, s)?),
        Token::Bin(b) => drop(write_bin(out, b)?),
        Token::Array(len) => drop(write_array_len(out, len as usize)?),
        Token::Map(len) => drop(write_map_len(out, len as usize)?),
        Token::Ext(ty, data) => drop(write_ext(out, ty, data)?),
    }
    Ok(())
}
