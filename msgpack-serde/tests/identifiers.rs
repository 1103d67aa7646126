//! Keys read by `deserialize_identifier`: a fixstr of up to 15 ASCII
//! bytes is read with one mask over the 16 bytes from its header; any
//! other key, and one in the input's last 16 bytes, is read as a string
//! otherwise. Both ways give the visitor the same text.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// A key, as `deserialize_identifier` hands it over.
#[derive(Debug, PartialEq)]
struct Key(String);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;

        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("a field name")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
                Ok(Key(v.to_owned()))
            }
        }

        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// Keys of every length around the window's 15 bytes, and the str 8
/// past fixstr's 31, ASCII and not.
fn keys() -> Vec<String> {
    let mut keys = Vec::new();
    for len in 0..=40 {
        keys.push("k".repeat(len));
        if len >= 2 {
            keys.push(format!("{}é", "k".repeat(len - 2)));
            keys.push(format!("é{}", "k".repeat(len - 2)));
        }
    }
    keys
}

/// A key, then an array of `nils` nils: with few nils, the 16 bytes
/// from a short key's header run past the input's end.
fn key_then_nils(key: &str, nils: usize) -> Vec<u8> {
    let mut bytes = vec![0x92];
    bytes.extend(msgpack_serde::to_vec(key).unwrap());
    bytes.push(0x90 + nils as u8);
    bytes.resize(bytes.len() + nils, 0xc0);
    bytes
}

#[test]
fn every_key_reads_back_wherever_it_ends() {
    for key in keys() {
        let alone = msgpack_serde::to_vec(&key).unwrap();
        assert_eq!(
            msgpack_serde::from_slice::<Key>(&alone).unwrap(),
            Key(key.clone())
        );
        for nils in 0..=15 {
            let bytes = key_then_nils(&key, nils);
            let expected = (Key(key.clone()), vec![(); nils]);
            let read: (Key, Vec<()>) = msgpack_serde::from_slice(&bytes).unwrap();
            assert_eq!(read, expected, "{key:?} {nils}");
            let read: (Key, Vec<()>) = msgpack_serde::from_reader(&bytes[..]).unwrap();
            assert_eq!(read, expected, "{key:?} {nils}, from a reader");
        }
    }
}

#[test]
fn a_key_that_is_not_utf8_is_an_error_at_its_header() {
    for nils in [0, 15] {
        let mut bytes = vec![0x92, 0xa2, 0xc3, 0x28];
        bytes.push(0x90 + nils as u8);
        bytes.resize(bytes.len() + nils, 0xc0);
        let error = msgpack_serde::from_slice::<(Key, Vec<()>)>(&bytes).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid UTF-8 in string at offset 1",
            "{nils}"
        );
    }
}

/// A struct that refuses names it does not have: serde_derive's field
/// visitor raises the error, placed at the key's header.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Strict {
    id: u32,
    note: String,
}

#[test]
fn a_visitors_error_on_a_key_is_at_the_keys_header() {
    // {"id": 1, "nope": "...", ...}: 16 bytes and more after "nope"'s
    // header, so that it is read through the window.
    let mut bytes = vec![0x83, 0xa2, b'i', b'd', 0x01, 0xa4];
    bytes.extend(b"nope");
    bytes.extend(msgpack_serde::to_vec("sixteen bytes and more").unwrap());
    let error = msgpack_serde::from_slice::<Strict>(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown field `nope`, expected `id` or `note` at offset 5"
    );
}

#[test]
fn a_key_cut_short_is_an_error_where_the_input_ends() {
    let error = msgpack_serde::from_slice::<Key>(&[0xa3, b'i', b'd']).unwrap_err();
    assert_eq!(error.to_string(), "unexpected end of input at offset 3");
}
