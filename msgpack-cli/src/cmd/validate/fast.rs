//! The fast path of `validate`: one tight loop over msgpack-core's marker
//! table that only says whether a value is valid and where it ends.
//!
//! A container walker of its own, beside msgpack-core's `Reader::skip`
//! and the item walk of `crate::walk`, for speed: `skip` checks neither
//! UTF-8, timestamps, depth nor the value count, and the item walk builds
//! a token, a role and a path for every item, which only a value that
//! fails needs. Any failure here falls back to that walk (`check.rs`),
//! which says what is wrong and where; both count depth and values as
//! msgpack-core's decoders do, and a proptest holds them to one verdict.
//! Header lengths are msgpack-core's `Marker::length`. What containers
//! still owe is a stack, one count per open container, rather than
//! msgpack-core's single `Owed` total: the depth limit needs the stack's
//! height, and a header claiming more than the input holds fails at the
//! input's end, as the walk finds it.

use msgpack_serde::core::{Family, Marker, TIMESTAMP_EXT_TYPE};
use msgpack_serde::{Limits, Timestamp};

/// The end of the valid value at the start of `input`; `None` when it is
/// invalid, over a limit, or not all there. `stack` holds, for each open
/// container, the items it still owes.
pub fn valid_end(input: &[u8], limits: &Limits, stack: &mut Vec<u64>) -> Option<usize> {
    let max_values = limits.values() as u64;
    if max_values == 0 {
        return None;
    }
    stack.clear();
    let mut values: u64 = 1;
    let mut pending: u64 = 1; // items left in the innermost container
    let mut pos = 0;
    loop {
        while pending == 0 {
            pending = match stack.pop() {
                Some(outer) => outer,
                None => return Some(pos),
            };
        }
        pending -= 1;
        let marker = Marker::from_u8(*input.get(pos)?);
        let header = input.get(pos + 1..pos + 1 + marker.header_len())?;
        pos += 1 + header.len();
        let len = || marker.length().of(header) as usize;
        let children = match marker.family() {
            Family::Str => {
                pos = text(input, pos, len())?;
                continue;
            }
            Family::Bin => {
                pos = payload(input, pos, len())?.1;
                continue;
            }
            Family::Ext => {
                // The type byte is the header's last.
                let ext_type = header[header.len() - 1] as i8;
                pos = ext(input, pos, ext_type, len())?;
                continue;
            }
            Family::Reserved => return None,
            Family::Array => len() as u64,
            Family::Map => len() as u64 * 2,
            _ => continue,
        };
        if stack.len() + 1 > limits.depth() {
            return None;
        }
        values += children;
        if values > max_values {
            return None;
        }
        stack.push(pending);
        pending = children;
    }
}

/// `len` bytes at `pos`, and the position after them.
fn payload(input: &[u8], pos: usize, len: usize) -> Option<(&[u8], usize)> {
    let end = pos.checked_add(len)?;
    Some((input.get(pos..end)?, end))
}

/// A UTF-8 string of `len` bytes at `pos`.
fn text(input: &[u8], pos: usize, len: usize) -> Option<usize> {
    let (bytes, end) = payload(input, pos, len)?;
    (bytes.is_ascii() || std::str::from_utf8(bytes).is_ok()).then_some(end)
}

/// Extension data of `len` bytes at `pos`, a valid timestamp when of type -1.
fn ext(input: &[u8], pos: usize, ext_type: i8, len: usize) -> Option<usize> {
    let (data, end) = payload(input, pos, len)?;
    (ext_type != TIMESTAMP_EXT_TYPE || Timestamp::from_ext_data(data).is_some()).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every header form, its length read by `Marker::length`.
    #[test]
    fn every_header_form() {
        let limits = Limits::new();
        let mut stack = Vec::new();
        let fixext16 = [&[0xd8, 0x05][..], &[0; 16]].concat();
        let cases: &[&[u8]] = &[
            &fixext16,
            b"\xa1a",
            b"\xd9\x01a",
            b"\xda\x00\x01a",
            b"\xdb\x00\x00\x00\x01a",
            b"\xc4\x01\x00",
            b"\xc5\x00\x01\x00",
            b"\xc6\x00\x00\x00\x01\x00",
            b"\xd4\x05\x00",
            b"\xd5\x05\x00\x00",
            b"\xc7\x01\x05\x00",
            b"\xc8\x00\x01\x05\x00",
            b"\xc9\x00\x00\x00\x01\x05\x00",
            b"\x91\xc0",
            b"\xdc\x00\x01\xc0",
            b"\xdd\x00\x00\x00\x01\xc0",
            b"\x81\xc0\xc0",
            b"\xde\x00\x01\xc0\xc0",
            b"\xdf\x00\x00\x00\x01\xc0\xc0",
            b"\xcf\x00\x00\x00\x00\x00\x00\x00\x01",
            b"\xd6\xff\x00\x00\x00\x00",
        ];
        for &bytes in cases {
            assert_eq!(
                valid_end(bytes, &limits, &mut stack),
                Some(bytes.len()),
                "{bytes:02x?}"
            );
            let cut = &bytes[..bytes.len() - 1];
            assert_eq!(valid_end(cut, &limits, &mut stack), None, "{cut:02x?}");
        }
    }
}
