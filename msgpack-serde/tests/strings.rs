//! Owned strings: `deserialize_string` copies a fixstr or a str 8 into a
//! `String` itself (short ones without `memcpy`) and hands it over with
//! `visit_string`; a longer string goes the way `deserialize_str` does.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// Which of the visitor's string methods was called, and the string.
#[derive(Debug, PartialEq)]
struct Visited(&'static str, String);

struct Which;

impl<'de> Visitor<'de> for Which {
    type Value = Visited;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Visited, E> {
        Ok(Visited("str", v.to_owned()))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Visited, E> {
        Ok(Visited("borrowed_str", v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Visited, E> {
        Ok(Visited("string", v))
    }
}

impl<'de> Deserialize<'de> for Visited {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_string(Which)
    }
}

/// A type whose visitor takes `&str` only, as many hand-written ones do.
#[derive(Debug, PartialEq)]
struct OnlyStr(usize);

impl<'de> Deserialize<'de> for OnlyStr {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Len;
        impl Visitor<'_> for Len {
            type Value = OnlyStr;
            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<OnlyStr, E> {
                Ok(OnlyStr(v.chars().count()))
            }
        }
        deserializer.deserialize_string(Len)
    }
}

/// Strings of every length around the copy's widths, ASCII and not.
fn samples() -> Vec<String> {
    let mut samples: Vec<String> = (0..=70)
        .map(|n| "abcdefghij".repeat(7)[..n].to_string())
        .collect();
    samples.extend((0..=20).map(|n| "ü".repeat(n)));
    samples.push("x".repeat(255));
    samples.push("y".repeat(256));
    samples.push("Zoë Ångström, Käsemarkt 12, Zürich".to_string());
    samples
}

#[test]
fn owned_strings_read_back_whatever_their_length() {
    for s in samples() {
        let bytes = msgpack_serde::to_vec(&s).unwrap();
        let read: String = msgpack_serde::from_slice(&bytes).unwrap();
        assert_eq!(read, s, "from_slice, {} bytes", s.len());
        let read: String = msgpack_serde::from_reader(&bytes[..]).unwrap();
        assert_eq!(read, s, "from_reader, {} bytes", s.len());
        let (n, read): (u8, String) =
            msgpack_serde::from_slice(&msgpack_serde::to_vec(&(7u8, &s)).unwrap()).unwrap();
        assert_eq!((n, read.as_str()), (7, s.as_str()), "after another value");
    }
}

#[test]
fn a_short_string_is_handed_over_owned_a_long_one_as_str() {
    for s in samples() {
        let bytes = msgpack_serde::to_vec(&s).unwrap();
        let visited: Visited = msgpack_serde::from_slice(&bytes).unwrap();
        // fixstr and str 8 (up to 255 bytes) are copied here; a str 16 is
        // borrowed from the input, as `deserialize_str` gives it.
        let how = if s.len() <= 255 {
            "string"
        } else {
            "borrowed_str"
        };
        assert_eq!(visited, Visited(how, s.clone()), "{} bytes", s.len());
        let visited: Visited = msgpack_serde::from_reader(&bytes[..]).unwrap();
        let how = if s.len() <= 255 { "string" } else { "str" };
        assert_eq!(
            visited,
            Visited(how, s.clone()),
            "{} bytes, from a reader",
            s.len()
        );
    }
}

#[test]
fn a_visitor_of_str_alone_reads_an_owned_string() {
    let bytes = msgpack_serde::to_vec("Grüße").unwrap();
    assert_eq!(
        msgpack_serde::from_slice::<OnlyStr>(&bytes).unwrap(),
        OnlyStr(5)
    );
    let error = msgpack_serde::from_slice::<OnlyStr>(&[0x01]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid type: integer `1`, expected a string at offset 0"
    );
}
