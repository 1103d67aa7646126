//! Whether one value is valid under the limits and where it ends, or what
//! is wrong and where: the fast path first, then, for a value it refuses,
//! the walk of `crate::walk`, which knows each item's path.

use std::cell::RefCell;

use msgpack_serde::core::{ErrorKind, Token, TIMESTAMP_EXT_TYPE};
use msgpack_serde::{Limits, Timestamp};

use super::fast::valid_end;
use crate::walk::Walk;

/// What is wrong with a value.
#[derive(Debug)]
pub struct Problem {
    /// What, at which offset and path: `invalid UTF-8 in string at offset
    /// 13, at $.items[0].sku`.
    pub text: String,
    /// Whether the input ended inside the value: more input could mend it.
    pub more: bool,
}

/// Checks the value at the start of `input` (at `base` in the stream);
/// `Ok` gives where it ends.
pub fn check(input: &[u8], base: usize, limits: &Limits) -> Result<usize, Problem> {
    let fast = STACK.with_borrow_mut(|stack| valid_end(input, limits, stack));
    match fast {
        Some(end) => Ok(end),
        // Say what is wrong, and where.
        None => check_walk(&mut Walk::new(input), base, limits),
    }
}

thread_local! {
    /// The fast path's stack, kept from one value to the next.
    static STACK: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// The walk: the same verdict as the fast path, and the first problem's
/// offset and path. Depth and values are counted as msgpack-core's
/// decoders count them, at each container's header.
fn check_walk(walk: &mut Walk<'_>, base: usize, limits: &Limits) -> Result<usize, Problem> {
    let mut values: u64 = 1;
    let max_values = limits.values() as u64;
    let problem = |kind: ErrorKind, offset: usize, walk: &Walk<'_>| Problem {
        text: format!(
            "{kind} at offset {}, at {}",
            base + offset,
            walk.path(false)
        ),
        more: false,
    };
    let too_many = ErrorKind::ValueLimitExceeded {
        limit: limits.values(),
    };
    if max_values == 0 {
        return Err(problem(too_many, 0, walk));
    }
    while let Some(item) = walk.next_item() {
        let item = item.map_err(|error| Problem {
            more: error.is_eof(),
            ..problem(error.kind(), error.offset(), walk)
        })?;
        let children = match item.token {
            Token::Array(len) => u64::from(len),
            Token::Map(len) => u64::from(len) * 2,
            Token::Ext(TIMESTAMP_EXT_TYPE, data) if Timestamp::from_ext_data(data).is_none() => {
                return Err(problem(ErrorKind::InvalidTimestamp, item.offset, walk));
            }
            _ => continue,
        };
        if item.depth + 1 > limits.depth() {
            let too_deep = ErrorKind::DepthLimitExceeded {
                limit: limits.depth(),
            };
            return Err(problem(too_deep, item.offset, walk));
        }
        values += children;
        if values > max_values {
            return Err(problem(too_many, item.offset, walk));
        }
    }
    Ok(walk.position())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const DEFAULT: Limits = Limits::new();

    #[test]
    fn problems_with_offset_and_path() {
        // {"items": [{"sku": <bad utf-8>}]}
        let bytes = b"\x81\xa5items\x91\x81\xa3sku\xa1\xff";
        assert_eq!(
            check(bytes, 0, &DEFAULT).unwrap_err().text,
            "invalid UTF-8 in string at offset 13, at $.items[0].sku"
        );
        assert_eq!(
            check(b"\x92\x01\xc1", 0, &DEFAULT).unwrap_err().text,
            "reserved marker 0xc1 at offset 2, at $[1]"
        );
        assert_eq!(
            check(b"\x92\x01", 10, &DEFAULT).unwrap_err().text,
            "unexpected end of input at offset 12, at $[1]"
        );
        assert_eq!(check(b"\xd6\xff\x00\x00\x00\x00", 0, &DEFAULT).unwrap(), 6);
        assert_eq!(
            check(b"\xd4\xff\x00", 0, &DEFAULT).unwrap_err().text,
            "invalid timestamp at offset 0, at $"
        );
    }

    #[test]
    fn limits() {
        let depth = Limits::new().max_depth(1);
        assert_eq!(
            check(b"\x91\x91\xc0", 0, &depth).unwrap_err().text,
            "nesting exceeds the depth limit of 1 at offset 1, at $[0]"
        );
        let values = Limits::new().max_values(3);
        assert_eq!(check(b"\x92\x01\x02", 0, &values).unwrap(), 3);
        assert_eq!(
            check(b"\x93\x01\x02\x03", 0, &values).unwrap_err().text,
            "more values than the limit of 3 at offset 0, at $"
        );
    }

    const LIMITS: Limits = Limits::new().max_depth(4).max_values(40);

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
