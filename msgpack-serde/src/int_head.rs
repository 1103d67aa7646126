//! Reading an integer without branching on its form: random integers
//! mispredict a branch (or a jump table) on the marker nearly every time.

use msgpack_core::marker;

/// How to read the integer a marker byte starts: its bytes in all
/// (`len`, 0 when the byte starts no integer), then the marker itself
/// (`at_marker`, a fixint) or the 64-bit big-endian word after it, as the
/// top of a word shifted right by `shift`, signed or not.
#[derive(Clone, Copy)]
struct IntRead {
    len: u8,
    shift: u8,
    signed: bool,
    at_marker: bool,
}

const NOT_AN_INT: IntRead = IntRead {
    len: 0,
    shift: 0,
    signed: false,
    at_marker: false,
};

/// A fixint: its own marker byte, as the top byte of the word.
const fn fix(signed: bool) -> IntRead {
    IntRead {
        len: 1,
        shift: 56,
        signed,
        at_marker: true,
    }
}

/// A marker and `width` bytes: the top bytes of the word after the marker.
const fn sized(width: u8, signed: bool) -> IntRead {
    IntRead {
        len: 1 + width,
        shift: 64 - 8 * width,
        signed,
        at_marker: false,
    }
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
    let head: &[u8; 9] = rest.get(..9)?.try_into().ok()?;
    let read = INT_READS[head[0] as usize];
    if read.len == 0 {
        return None;
    }
    let [marker, after @ ..] = *head;
    let after = u64::from_be_bytes(after);
    // The word at the marker, or after it, chosen by a mask: a branch here
    // is what this function avoids.
    let at_marker = (read.at_marker as u64).wrapping_neg();
    let word = ((marker as u64) << 56) & at_marker | after & !at_marker;
    let unsigned = word >> read.shift;
    let signed = (word as i64) >> read.shift;
    let value = if read.signed { signed as u64 } else { unsigned };
    Some(IntHead {
        value,
        negative: read.signed && signed < 0,
        len: read.len as usize,
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
