//! Reading an integer without branching on its form: random integers
//! mispredict a branch (or a jump table) on the marker nearly every time.

use msgpack_core::marker;

/// How to read the integer a marker byte starts, packed in one word so
/// that one load fetches it: its bytes in all (`LEN`, 0 when the byte
/// starts no integer), whether it is signed (`SIGNED`), and the 64-bit
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

static INT_READS: [IntRead; 256] = {
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

/// An integer read from the front of the input.
pub(crate) struct IntHead {
    /// The value's bits: the value itself unless `negative`.
    pub value: u64,
    /// The value is negative: `value as i64` is it.
    pub negative: bool,
    /// The bytes it took, marker included.
    pub len: usize,
}

/// The integer `rest` starts with, when it starts with one and holds at
/// least 9 bytes (so every form reads as one 8-byte load); `None` sends
/// the caller to the general path.
#[inline(always)]
pub(crate) fn int_head(rest: &[u8]) -> Option<IntHead> {
    int_window(rest.first_chunk::<9>()?)
}

/// The integer `head`, the next 9 bytes of the input, starts with, when
/// it starts with one.
#[inline(always)]
pub(crate) fn int_window(head: &[u8; 9]) -> Option<IntHead> {
    let read = INT_READS[head[0] as usize];
    let len = read & LEN;
    if len == 0 {
        return None;
    }
    // The word at the marker or after it: a load at an offset of 0 or 1,
    // not a branch (what this function avoids) nor a select of two words.
    let at = usize::from(read & AT_MARKER == 0);
    let (_, word) = head.split_at(at);
    let word = u64::from_be_bytes(*word.first_chunk::<8>()?);
    let shift = read >> SHIFT_AT;
    let unsigned = word.wrapping_shr(shift);
    let signed = (word as i64).wrapping_shr(shift);
    let is_signed = read & SIGNED != 0;
    Some(IntHead {
        value: if is_signed { signed as u64 } else { unsigned },
        negative: is_signed && signed < 0,
        len: len as usize,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use msgpack_core::encode;

    /// Every form at its edges, read back from a 9-byte window with
    /// trailing bytes that must not leak into the value.
    #[test]
    fn reads_every_form_as_written() {
        for n in msgpack_test_support::INTEGER_EDGES {
            let mut bytes = Vec::new();
            match u64::try_from(n) {
                Ok(u) => encode::write_uint(&mut bytes, u).map(drop).unwrap(),
                Err(_) => encode::write_int(&mut bytes, n as i64).map(drop).unwrap(),
            }
            let len = bytes.len();
            bytes.resize(len + 9, 0xa5);
            let head = int_head(&bytes).unwrap();
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

    #[test]
    fn leaves_other_markers_and_short_input_to_the_general_path() {
        for byte in (0x80..=0xcb).chain(0xd4..=0xdf) {
            assert!(int_head(&[byte; 9]).is_none(), "{byte:#04x}");
        }
        assert!(int_head(&[0x01; 8]).is_none());
    }
}
