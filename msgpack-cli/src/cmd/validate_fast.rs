//! The fast path of `validate`: one tight pass that only says whether a
//! value is valid and where it ends. Any failure falls back to the walk in
//! `validate.rs`, which says what is wrong and where; both count depth and
//! values the same way, and the marker table is msgpack-core's.

use msgpack_serde::core::{Marker, TIMESTAMP_EXT_TYPE};
use msgpack_serde::Timestamp;

use super::validate::Limits;

/// The end of the valid value at the start of `input`; `None` when it is
/// invalid, over a limit, or not all there.
pub fn valid_end(input: &[u8], limits: &Limits, stack: &mut Vec<u64>) -> Option<usize> {
    let max_values = limits.max_values.map_or(u64::MAX, |n| n as u64);
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
        let header = marker.header_len();
        let head = input.get(pos + 1..pos + 1 + header)?;
        pos += 1 + header;
        let children = match marker {
            Marker::FixStr(len) => {
                pos = text(input, pos, usize::from(len))?;
                continue;
            }
            Marker::Str8 | Marker::Str16 | Marker::Str32 => {
                pos = text(input, pos, length(head))?;
                continue;
            }
            Marker::Bin8 | Marker::Bin16 | Marker::Bin32 => {
                pos = payload(input, pos, length(head))?.1;
                continue;
            }
            Marker::FixExt1
            | Marker::FixExt2
            | Marker::FixExt4
            | Marker::FixExt8
            | Marker::FixExt16 => {
                let len = 1 << (marker.to_u8() - Marker::FixExt1.to_u8());
                pos = ext(input, pos, head[0] as i8, len)?;
                continue;
            }
            Marker::Ext8 | Marker::Ext16 | Marker::Ext32 => {
                let (len, ext_type) = head.split_at(header - 1);
                pos = ext(input, pos, ext_type[0] as i8, length(len))?;
                continue;
            }
            Marker::Reserved => return None,
            Marker::FixArray(len) => u64::from(len),
            Marker::Array16 | Marker::Array32 => length(head) as u64,
            Marker::FixMap(len) => u64::from(len) * 2,
            Marker::Map16 | Marker::Map32 => length(head) as u64 * 2,
            _ => continue,
        };
        if stack.len() + 1 > limits.max_depth {
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

/// A big-endian length of 1, 2 or 4 bytes.
fn length(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .fold(0, |len, &byte| len << 8 | usize::from(byte))
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
    use proptest::prelude::*;

    use super::*;
    use crate::cmd::validate::check_walk;
    use crate::walk::Walk;

    const LIMITS: Limits = Limits {
        max_depth: 4,
        max_values: Some(40),
        max_bytes: None,
    };

    /// Bytes that are mostly MessagePack: headers of every kind, short
    /// payloads, timestamps valid and not, bad UTF-8.
    fn near_msgpack() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            any::<u8>().prop_map(|b| vec![b]),
            (0u8..4).prop_map(|n| vec![0x90 | n]),
            (0u8..4).prop_map(|n| vec![0x80 | n]),
            (0u8..4).prop_map(|n| vec![0xa0 | n, b'a', 0xff, b'c'][..1 + n as usize].to_vec()),
            Just(vec![0xd6, 0xff, 0, 0, 0, 1]),
            Just(vec![0xd7, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]),
            Just(vec![0xc7, 12, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]),
            Just(vec![0xd4, 0xff, 0]),
            Just(vec![0xdc, 0, 2]),
            Just(vec![0xd9, 1, 0xc3]),
            Just(vec![0xc4, 2, 1, 2]),
        ];
        prop::collection::vec(piece, 0..12).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// The fast path and the walk agree on every input: valid, where
        /// it ends, or not.
        #[test]
        fn the_fast_path_agrees_with_the_walk(input in near_msgpack()) {
            let fast = valid_end(&input, &LIMITS, &mut Vec::new());
            let slow = check_walk(&mut Walk::new(&input), 0, &LIMITS).ok();
            prop_assert_eq!(fast, slow);
        }
    }
}
