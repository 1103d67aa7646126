//! Which maps of a value have only string keys: tagged JSON writes those
//! as objects and the others as `$map`, and must know which before it
//! writes a map's first byte.
//!
//! A container walker of its own beside msgpack-core's `Reader::skip`,
//! which finds where a value ends but not which of its maps a key
//! belongs to: this one keeps, for each open container, the place of its
//! map in the answer. Tokens are msgpack-core's `Reader::read_token`.

use std::cell::Cell;

use msgpack_core::{Reader, Token};

/// For each map of one value, in the order the maps start: whether all its
/// keys are strings. Found in one pass over the value. Asking each map in
/// turn would skip its entries once for every map around it: depth times
/// size.
#[derive(Debug)]
pub(crate) struct StringKeys {
    maps: Vec<bool>,
    next: Cell<usize>,
}

/// A container being walked: how many values it has left, and for a map,
/// its place in [`StringKeys::maps`].
struct Open {
    left: u64,
    map: Option<usize>,
}

impl StringKeys {
    /// Walks the value at the reader (which stays where it is), down to
    /// `max_depth` nested containers. A deeper or malformed value stops the
    /// walk; `decode` fails at the same place.
    pub(crate) fn of(reader: &Reader<'_>, max_depth: usize) -> StringKeys {
        let mut probe = reader.clone();
        let mut maps = Vec::new();
        // The outermost entry stands for the value itself.
        let mut open = vec![Open { left: 1, map: None }];
        while let Some(top) = open.last_mut() {
            if top.left == 0 {
                open.pop();
                continue;
            }
            // A map's values alternate key, value: a key when an even
            // number is left.
            let key_of = top.map.filter(|_| top.left % 2 == 0);
            top.left -= 1;
            let Ok(token) = probe.read_token() else {
                break;
            };
            if let Some(map) = key_of {
                if !matches!(token, Token::Str(_)) {
                    maps[map] = false;
                }
            }
            match token {
                Token::Array(len) => open.push(Open {
                    left: len.into(),
                    map: None,
                }),
                Token::Map(len) => {
                    maps.push(true);
                    open.push(Open {
                        left: 2 * u64::from(len),
                        map: Some(maps.len() - 1),
                    });
                }
                _ => {}
            }
            if open.len() > max_depth + 1 {
                break;
            }
        }
        StringKeys {
            maps,
            next: Cell::new(0),
        }
    }

    /// Whether the next map, in the order maps start, has only string keys;
    /// `false` past those the walk reached.
    pub(crate) fn next_map(&self) -> bool {
        let index = self.next.get();
        self.next.set(index + 1);
        self.maps.get(index).copied().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn maps(bytes: &[u8], max_depth: usize) -> Vec<bool> {
        let reader = Reader::new(bytes);
        let keys = StringKeys::of(&reader, max_depth);
        assert_eq!(reader.position(), 0);
        keys.maps
    }

    #[test]
    fn each_map_in_the_order_it_starts() {
        // {"a": {1: nil}, "b": [{"c": {}}], 2: {"d": 1}} then a trailing map
        let bytes = b"\x83\xa1a\x81\x01\xc0\xa1b\x91\x81\xa1c\x80\x02\x81\xa1d\x01\x80";
        assert_eq!(maps(bytes, 512), [false, false, true, true, true]);
    }

    #[test]
    fn maps_inside_keys_count_in_order() {
        // {{"k": 1}: {2: 3}}
        let bytes = b"\x81\x81\xa1k\x01\x81\x02\x03";
        assert_eq!(maps(bytes, 512), [false, true, false]);
    }

    #[test]
    fn the_walk_stops_at_the_depth_limit_and_at_bad_input() {
        let deep = [0x81, 0xa1, b'a'].repeat(10);
        assert_eq!(maps(&deep, 3).len(), 4);
        // {"a": <truncated str>}, {} never reached
        assert_eq!(maps(b"\x81\xa1a\xa5ab\x80", 512), [true]);
        let keys = StringKeys::of(&Reader::new(b"\x81\xa1a\xa5ab"), 512);
        assert!(keys.next_map());
        assert!(!keys.next_map());
    }
}
