//! Integers read in one place, without branching on their form: random
//! integers mispredict a branch (or a jump table) on the marker nearly
//! every time. [`IntHead::from_window`] is the read every decoder inlines
//! where 9 bytes are at hand; [`IntHead::read`] and
//! [`Reader::read_int_head`] read any integer to the end of the input:
//! through the table with 9 bytes at hand, form by form with fewer;
//! [`IntHead::from_tail`] reads one from the 8 bytes that end it, where
//! those are at hand (elements whose ends were found in advance).

use crate::{marker, Error, Reader};

/// How to read the integer a marker byte starts, packed in one word so
/// that one load fetches it: its bytes in all (`LEN`, 0 when the byte
/// starts no integer; the read itself takes the length from
/// [`IntHead::marker_len`]), whether it is signed (`SIGNED`), and the 64-bit
/// big-endian word that holds it, at the marker (`AT_MARKER`, a fixint)
/// or just after it, shifted right by `shift` (the bits from
/// `SHIFT_AT` up; a shift uses only its low six bits, so the flags above
/// them need no mask).
type IntRead = u32;

const LEN: IntRead = 0xff;
const SHIFT_AT: u32 = 8;
const SIGNED: IntRead = 1 << 16;
const AT_MARKER: IntRead = 1 << 24;

const NOT_AN_INT: IntRead = 0;

/// A fixint: its own marker byte, as the top byte of the word.
const fn fix(signed: bool) -> IntRead {
    1 | 56 << SHIFT_AT | if signed { SIGNED } else { 0 } | AT_MARKER
}

/// A marker and `width` bytes: the top bytes of the word after the marker.
const fn sized(width: u32, signed: bool) -> IntRead {
    (1 + width) | (64 - 8 * width) << SHIFT_AT | if signed { SIGNED } else { 0 }
}

/// Each marker byte's [`IntRead`].
///
/// A reference to a constant, not a static, as `encode.rs`'s
/// `INT_FORMS`: each crate whose code reads it (the decoder's generic
/// code is compiled in its users' crates) gets a copy addressed
/// directly, where another crate's static is found through the global
/// offset table, a load before every lookup. (`TAIL_READS`, 8 KiB and
/// read in loops that load its address once, stays one static.)
const INT_READS: &[IntRead; 256] = &{
    let mut table = [NOT_AN_INT; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = match byte as u8 {
            marker::FIXPOS..=marker::FIXPOS_MAX => fix(false),
            marker::FIXNEG..=marker::FIXNEG_MAX => fix(true),
            marker::U8 => sized(1, false),
            marker::U16 => sized(2, false),
            marker::U32 => sized(4, false),
            marker::U64 => sized(8, false),
            marker::I8 => sized(1, true),
            marker::I16 => sized(2, true),
            marker::I32 => sized(4, true),
            marker::I64 => sized(8, true),
            _ => NOT_AN_INT,
        };
        byte += 1;
    }
    table
};

/// How to read an integer from the 8 bytes that end where it ends
/// ([`IntHead::from_tail`]): its bytes are the low ones under `mask`,
/// `sign` is a signed form's sign bit (0 for an unsigned form), and
/// `unsigned_mask` is all ones for an unsigned form. All zero for a byte that
/// starts no integer. Aligned to 32 bytes so that a row's place is the
/// marker shifted, not multiplied by 24.
#[derive(Clone, Copy)]
#[repr(align(32))]
struct TailRead {
    mask: u64,
    sign: u64,
    unsigned_mask: u64,
}

/// Each marker byte's [`TailRead`], from its [`INT_READS`] entry.
static TAIL_READS: [TailRead; 256] = {
    let mut table = [TailRead {
        mask: 0,
        sign: 0,
        unsigned_mask: 0,
    }; 256];
    let mut byte = 0;
    while byte < 256 {
        let read = INT_READS[byte];
        if read & LEN != 0 {
            // The payload's bits: a fixint's are its own byte's.
            let bits = if read & AT_MARKER != 0 {
                8
            } else {
                8 * ((read & LEN) - 1)
            };
            let signed = read & SIGNED != 0;
            table[byte] = TailRead {
                mask: u64::MAX >> (64 - bits),
                sign: if signed { 1 << (bits - 1) } else { 0 },
                unsigned_mask: if signed { 0 } else { u64::MAX },
            };
        }
        byte += 1;
    }
    table
};

/// An integer read from the front of the input: what the marker byte
/// and the bytes after it say, before any choice of Rust type.
///
/// ```
/// use msgpack_core::IntHead;
///
/// // int 16 -300, then bytes of whatever follows
/// let head = IntHead::from_window(&[0xd1, 0xfe, 0xd4, 0, 0, 0, 0, 0, 0]).unwrap();
/// assert_eq!((head.value as i64, head.negative, head.len), (-300, true, 3));
/// assert!(IntHead::from_window(&[0xc0; 9]).is_none()); // nil
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntHead {
    /// The value's bits: the value itself unless `negative`.
    pub value: u64,
    /// The value is negative: `value as i64` is it.
    pub negative: bool,
    /// The bytes it took, marker included.
    pub len: usize,
}

impl IntHead {
    /// The bytes, marker included, of the integer `marker` starts, when
    /// it starts one (what any other byte gives means nothing). Worked
    /// out from the byte rather than looked up in the table, so that
    /// where the next value begins waits on a few operations on the byte,
    /// not on a load (in an array of integers, each element's start waits
    /// on the one before); the same operations for every byte, so that a
    /// compiler can work out the lengths of a run of bytes together.
    ///
    /// ```
    /// use msgpack_core::IntHead;
    ///
    /// assert_eq!(IntHead::marker_len(0x07), 1); // positive fixint
    /// assert_eq!(IntHead::marker_len(0xd1), 3); // int 16
    /// assert_eq!(IntHead::marker_len(0xcf), 9); // uint 64
    /// ```
    #[inline(always)]
    pub const fn marker_len(marker: u8) -> u8 {
        // A fixint is one byte; uint 8 to 64 and int 8 to 64 take a
        // marker and 1 << (its low two bits) bytes.
        let fixint = marker as i8 >= -32;
        1 + ((!fixint as u8) << (marker & 3))
    }

    /// The integer `window`, the next 9 bytes of the input (enough for
    /// any form, read as one 8-byte load), starts with, when it starts
    /// with one.
    #[inline(always)]
    pub fn from_window(window: &[u8; 9]) -> Option<IntHead> {
        let read = INT_READS[window[0] as usize];
        if read & LEN == 0 {
            return None;
        }
        // The word at the marker or after it: a load at an offset of 0 or
        // 1, not a branch (what this read avoids) nor a select of two words.
        let at = usize::from(read & AT_MARKER == 0);
        let (_, word) = window.split_at(at);
        Some(Self::from_word(
            read,
            u64::from_be_bytes(*word.first_chunk::<8>()?),
            usize::from(Self::marker_len(window[0])),
        ))
    }

    /// The integer `rest` starts with, when it starts with a whole one
    /// (through [`from_window`](Self::from_window) where 9 bytes are at
    /// hand).
    ///
    /// ```
    /// use msgpack_core::IntHead;
    ///
    /// assert_eq!(IntHead::read(&[0xcc, 0xff]).map(|head| head.value), Some(255));
    /// assert_eq!(IntHead::read(&[0xcd, 0xff]), None); // a uint 16 cut short
    /// ```
    #[inline(always)]
    pub fn read(rest: &[u8]) -> Option<IntHead> {
        match rest.first_chunk::<9>() {
            Some(window) => Self::from_window(window),
            None => Self::from_short(rest),
        }
    }

    /// The integer `marker` starts, read from `tail`: the 8 bytes that end
    /// where it ends (its payload, or a fixint's marker itself, in the
    /// low bytes), as one big-endian word. No shift and no branch on the
    /// form: the payload is the word under a mask, its sign extended by
    /// an exclusive or and a subtraction. Where an array's elements have
    /// been found in advance (msgpack-serde's blocks of integers), the
    /// 8 bytes that end an element are at hand.
    ///
    /// ```
    /// use msgpack_core::IntHead;
    ///
    /// // int 16 -300 (0xd1 0xfe 0xd4), after 5 bytes of whatever came before
    /// let tail = u64::from_be_bytes([9, 9, 9, 9, 9, 0xd1, 0xfe, 0xd4]);
    /// let head = IntHead::from_tail(0xd1, tail).unwrap();
    /// assert_eq!((head.value as i64, head.negative, head.len), (-300, true, 3));
    /// assert!(IntHead::from_tail(0xc0, tail).is_none()); // nil
    /// ```
    #[inline(always)]
    pub fn from_tail(marker: u8, tail: u64) -> Option<IntHead> {
        let read = TAIL_READS[usize::from(marker)];
        if read.mask == 0 {
            return None;
        }
        let value = ((tail & read.mask) ^ read.sign).wrapping_sub(read.sign);
        Some(IntHead {
            value,
            negative: (value & !read.unsigned_mask) >> 63 != 0,
            len: usize::from(Self::marker_len(marker)),
        })
    }

    /// The integer at the front of `rest` when it holds fewer than 9
    /// bytes (a lone value, the end of a message), form by form: the
    /// table's one 8-byte load needs 9 bytes, and past the inlined paths
    /// (where this runs) a branch on the form costs less than a word
    /// built from the bytes there are. `None` unless all its bytes are
    /// there.
    #[inline(always)]
    fn from_short(rest: &[u8]) -> Option<IntHead> {
        let (&byte, body) = rest.split_first()?;
        let (value, len) = match byte {
            marker::FIXPOS..=marker::FIXPOS_MAX => (i64::from(byte), 1),
            marker::FIXNEG..=marker::FIXNEG_MAX => (i64::from(byte as i8), 1),
            marker::U8 => (i64::from(*body.first()?), 2),
            marker::U16 => (i64::from(u16::from_be_bytes(*body.first_chunk()?)), 3),
            marker::U32 => (i64::from(u32::from_be_bytes(*body.first_chunk()?)), 5),
            marker::I8 => (i64::from(*body.first()? as i8), 2),
            marker::I16 => (i64::from(i16::from_be_bytes(*body.first_chunk()?)), 3),
            marker::I32 => (i64::from(i32::from_be_bytes(*body.first_chunk()?)), 5),
            // uint 64 and int 64 take 9 bytes: never fewer.
            _ => return None,
        };
        Some(IntHead {
            value: value as u64,
            negative: value < 0,
            len,
        })
    }

    /// The integer in `word` (big-endian, from the byte `read` says), as
    /// `read`, its table entry, says to take it; `len` bytes in all.
    #[inline(always)]
    fn from_word(read: IntRead, word: u64, len: usize) -> IntHead {
        let shift = read >> SHIFT_AT;
        let unsigned = word.wrapping_shr(shift);
        let signed = (word as i64).wrapping_shr(shift);
        let is_signed = read & SIGNED != 0;
        IntHead {
            value: if is_signed { signed as u64 } else { unsigned },
            negative: is_signed && signed < 0,
            len,
        }
    }
}

impl Reader<'_> {
    /// Reads an integer of any form, as an [`IntHead`]: the one read of
    /// integers under [`read_integer`](Self::read_integer) and msgpack-serde's
    /// decoder. Another marker is a type-mismatch (or reserved-marker)
    /// error at its offset, a truncated integer an end-of-input error,
    /// and neither consumes anything.
    ///
    /// ```
    /// use msgpack_core::{IntHead, Reader};
    ///
    /// let mut reader = Reader::new(&[0xcd, 0x01, 0x2c, 0xff]);
    /// assert_eq!(reader.read_int_head(), Ok(IntHead { value: 300, negative: false, len: 3 }));
    /// assert_eq!(reader.read_int_head(), Ok(IntHead { value: u64::MAX, negative: true, len: 1 }));
    /// let error = Reader::new(&[0xcd, 0x01]).read_int_head().unwrap_err();
    /// assert_eq!(error.to_string(), "unexpected end of input at offset 2");
    /// ```
    #[inline(always)]
    pub fn read_int_head(&mut self) -> Result<IntHead, Error> {
        match IntHead::read(self.remaining()) {
            Some(head) => {
                self.consume(head.len);
                Ok(head)
            }
            None => Err(self.not_an_int()),
        }
    }

    /// Why the input does not start with a whole integer.
    #[cold]
    fn not_an_int(&self) -> Error {
        let mut probe = self.clone();
        let start = probe.position();
        match probe.read_marker() {
            Err(error) => error,
            Ok(found) if INT_READS[usize::from(found.to_u8())] != NOT_AN_INT => probe.eof(),
            Ok(found) => probe.mismatch(start, "an integer", found),
        }
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;
    use crate::{encode, ErrorKind};
    use alloc::vec::Vec;

    /// Every form at its edges, read back from a 9-byte window with
    /// trailing bytes that must not leak into the value, and from the
    /// integer's own bytes alone.
    #[test]
    fn reads_every_form_as_written() {
        for n in msgpack_test_support::INTEGER_EDGES {
            let mut bytes = Vec::new();
            match u64::try_from(n) {
                Ok(u) => encode::write_uint(&mut bytes, u).map(drop).unwrap(),
                Err(_) => encode::write_int(&mut bytes, n as i64).map(drop).unwrap(),
            }
            let len = bytes.len();
            let alone = Reader::new(&bytes).read_int_head().unwrap();
            bytes.resize(len + 9, 0xa5);
            let head = IntHead::from_window(bytes.first_chunk::<9>().unwrap()).unwrap();
            assert_eq!(head, alone, "{n}");
            assert_eq!(head.len, len, "{n}");
            assert_eq!(head.negative, n < 0, "{n}");
            let read = if head.negative {
                head.value as i64 as i128
            } else {
                head.value as i128
            };
            assert_eq!(read, n);
        }
    }

    /// The integer a marker-by-marker reading of the spec finds at the
    /// front of `bytes`, if a whole one is there.
    fn by_the_spec(bytes: &[u8]) -> Option<(i128, usize)> {
        let (&marker, body) = bytes.split_first()?;
        let be = |width: usize| -> Option<u64> {
            let bytes = body.get(..width)?;
            Some(bytes.iter().fold(0, |n, &b| n << 8 | u64::from(b)))
        };
        let signed = |width: usize| -> Option<i128> {
            let n = be(width)?;
            let bits = 8 * width as u32;
            Some((n as i128) - (((n >> (bits - 1)) & 1) as i128) * (1i128 << bits))
        };
        Some(match marker {
            0x00..=0x7f => (i128::from(marker), 1),
            0xe0..=0xff => (i128::from(marker as i8), 1),
            0xcc => (i128::from(be(1)?), 2),
            0xcd => (i128::from(be(2)?), 3),
            0xce => (i128::from(be(4)?), 5),
            0xcf => (i128::from(be(8)?), 9),
            0xd0 => (signed(1)?, 2),
            0xd1 => (signed(2)?, 3),
            0xd2 => (signed(4)?, 5),
            0xd3 => (signed(8)?, 9),
            _ => return None,
        })
    }

    /// Every marker byte, followed by 0 to 10 bytes of a few patterns:
    /// the table read and the spec agree on the value and its length,
    /// and both refuse the same inputs.
    #[test]
    fn agrees_with_the_spec_for_every_marker_and_length() {
        for marker in 0..=255u8 {
            for pattern in [0x00, 0xff, 0x80, 0x7f, 0xa5] {
                for len in 0..=10 {
                    let mut bytes = alloc::vec![marker];
                    bytes.extend((0..len).map(|i| pattern ^ (i as u8).wrapping_mul(37)));
                    let read = IntHead::read(&bytes).map(|head| {
                        let n = if head.negative {
                            i128::from(head.value as i64)
                        } else {
                            i128::from(head.value)
                        };
                        (n, head.len)
                    });
                    assert_eq!(read, by_the_spec(&bytes), "{bytes:02x?}");
                }
            }
        }
    }

    /// Every marker byte, with 9 bytes after it of a few patterns and 8
    /// bytes of another before it: the read from the 8 bytes that end an
    /// integer agrees with the spec (value, sign and length) and takes
    /// nothing from the bytes around it; a byte that starts no integer
    /// gives none.
    #[test]
    fn the_read_from_an_integers_last_bytes_agrees_with_the_spec() {
        for marker in 0..=255u8 {
            for (pattern, around) in [
                (0x00, 0xff),
                (0xff, 0x00),
                (0x80, 0x7f),
                (0x7f, 0x80),
                (0xa5, 0x5a),
            ] {
                let mut bytes = alloc::vec![around; 8];
                bytes.push(marker);
                bytes.extend((0..9).map(|i| pattern ^ (i as u8).wrapping_mul(37)));
                let element = &bytes[8..];
                let expected = by_the_spec(element);
                let len = usize::from(IntHead::marker_len(marker));
                // The 8 bytes that end where an integer of this marker ends.
                let tail = u64::from_be_bytes(*bytes[len..].first_chunk::<8>().unwrap());
                let read = IntHead::from_tail(marker, tail).map(|head| {
                    let n = if head.negative {
                        i128::from(head.value as i64)
                    } else {
                        i128::from(head.value)
                    };
                    assert_eq!(
                        head,
                        IntHead::from_window(element.first_chunk().unwrap()).unwrap()
                    );
                    (n, head.len)
                });
                assert_eq!(read, expected, "{element:02x?}");
            }
        }
    }

    #[test]
    fn the_length_worked_out_from_a_marker_is_the_tables() {
        for byte in 0..=255u8 {
            let read = INT_READS[usize::from(byte)];
            if read != NOT_AN_INT {
                assert_eq!(IntHead::marker_len(byte), (read & LEN) as u8, "{byte:#04x}");
            }
        }
    }

    #[test]
    fn other_markers_and_truncated_integers_are_errors_that_consume_nothing() {
        for byte in (0x80..=0xcb).chain(0xd4..=0xdf) {
            assert!(IntHead::from_window(&[byte; 9]).is_none(), "{byte:#04x}");
            let bytes = [byte; 9];
            let mut reader = Reader::new(&bytes);
            let error = reader.read_int_head().unwrap_err();
            let expected = match byte {
                0xc1 => ErrorKind::ReservedMarker,
                _ => ErrorKind::TypeMismatch {
                    expected: "an integer",
                    found: crate::Marker::from_u8(byte),
                },
            };
            assert_eq!((error.kind(), error.offset()), (expected, 0), "{byte:#04x}");
            assert_eq!(reader.position(), 0);
        }
        for bytes in [&[][..], &[0xcc], &[0xcd, 1], &[0xd3, 1, 2, 3, 4, 5, 6, 7]] {
            let mut reader = Reader::new(bytes);
            let error = reader.read_int_head().unwrap_err();
            assert!(error.is_eof(), "{bytes:?}");
            assert_eq!(error.offset(), bytes.len());
            assert_eq!(reader.position(), 0);
        }
    }
}
