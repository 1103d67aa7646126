//! `String`s, which the decoder copies itself when the visitor is serde's
//! own `String` visitor (recognised by type identity), against the usual
//! path (a visitor of our own that copies what `visit_str` gives it): the
//! same strings at every length, the same errors, the same capacity.

use std::fmt;

use msgpack_serde::Deserializer;
use serde::de::{self, Deserialize, Visitor};

/// A `String` read through a visitor the decoder does not know.
#[derive(Debug, PartialEq)]
struct Usual(String);

impl<'de> Deserialize<'de> for Usual {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Text;
        impl Visitor<'_> for Text {
            type Value = Usual;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Usual, E> {
                Ok(Usual(s.to_owned()))
            }
        }
        deserializer.deserialize_string(Text)
    }
}

/// Every length across the copy's widths (1 to 3, 4 to 7, 8 to 16, 17 to
/// 32, longer) and the str 8, 16 headers, ASCII and not, from a slice and
/// from a reader, alone and inside a struct's field order.
#[test]
fn strings_of_every_length_read_as_the_usual_path_reads_them() {
    for len in 0..=300 {
        for text in [
            "abcdefghij".repeat(31)[..len].to_string(),
            "ä".repeat(len / 2) + &"z".repeat(len % 2),
        ] {
            let bytes = msgpack_serde::to_vec(&(&text, 7u8, &text)).unwrap();
            let fast: (String, u8, String) = msgpack_serde::from_slice(&bytes).unwrap();
            let usual: (Usual, u8, Usual) = msgpack_serde::from_slice(&bytes).unwrap();
            assert_eq!((&fast.0, &fast.2), (&usual.0 .0, &usual.2 .0), "{len}");
            assert_eq!(fast.0, text);
            assert_eq!(
                fast.0.capacity(),
                text.len(),
                "allocates the string's length"
            );
            let read: (String, u8, String) = msgpack_serde::from_reader(&bytes[..]).unwrap();
            assert_eq!(read, fast, "{len}");
        }
    }
}

#[test]
fn invalid_utf8_is_the_same_error_either_way() {
    let bytes = [0x92, 0x01, 0xa3, b'a', 0xff, b'b'];
    let fast = msgpack_serde::from_slice::<(u8, String)>(&bytes).unwrap_err();
    let usual = msgpack_serde::from_slice::<(u8, Usual)>(&bytes).unwrap_err();
    assert_eq!(fast.to_string(), usual.to_string());
    assert_eq!(fast.to_string(), "invalid UTF-8 in string at offset 2");
    let mut reader = Deserializer::from_reader(&bytes[..]);
    let error = <(u8, String)>::deserialize(&mut reader).unwrap_err();
    assert_eq!(error.to_string(), "invalid UTF-8 in string at offset 2");
}
