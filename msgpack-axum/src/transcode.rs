//! JSON to MessagePack, value by value, with no tree in between.
//!
//! serde_json's deserializer drives a visitor that writes each value as
//! MessagePack the moment it is read. JSON gives no length for an object
//! or an array before its entries, and a general serializer must then
//! count each one into a buffer of its own and copy it into its parent;
//! writing into one `Vec`, this keeps one byte for the header (the fix
//! form, up to 15 entries), writes the entries in place and patches the
//! header at the end, widening it in place for a longer container. The
//! bytes are msgpack-serde's: the smallest form of every value and header,
//! from msgpack-core's encoder.

use std::fmt;

use msgpack_serde::core::{encode, SliceWriter};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// Re-encodes one JSON document as MessagePack: objects become maps keyed
/// by string, integers keep their exact value in the smallest form, other
/// numbers are float 64; strings pass through borrowed, and no
/// `serde_json::Value` is built.
///
/// ```
/// let bytes = msgpack_axum::json_to_msgpack(br#"{"a":[1,true]}"#).unwrap();
/// assert_eq!(bytes, b"\x81\xa1a\x92\x01\xc3");
/// assert_eq!(
///     msgpack_axum::json_to_msgpack(b"1 2").unwrap_err().to_string(),
///     "trailing characters at line 1 column 3"
/// );
/// ```
pub fn json_to_msgpack(json: &[u8]) -> Result<Vec<u8>, TranscodeError> {
    // One check of the whole: serde_json's slice input checks each string.
    let text = std::str::from_utf8(json)
        .map_err(|error| TranscodeError(format!("JSON is not UTF-8: {error}")))?;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let mut out = Vec::with_capacity(json.len());
    Value(&mut out)
        .deserialize(&mut deserializer)
        .map_err(TranscodeError::json)?;
    deserializer.end().map_err(TranscodeError::json)?;
    Ok(out)
}

/// Why a JSON document could not be re-encoded: it is not valid JSON, or
/// something follows it.
#[derive(Debug)]
pub struct TranscodeError(String);

impl TranscodeError {
    fn json(error: serde_json::Error) -> TranscodeError {
        TranscodeError(error.to_string())
    }
}

impl fmt::Display for TranscodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TranscodeError {}

/// The next JSON value, written as MessagePack into the vector.
struct Value<'a>(&'a mut Vec<u8>);

impl<'de> DeserializeSeed<'de> for Value<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Value<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        let Ok(()) = encode::write_nil(self.0);
        Ok(())
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<(), E> {
        let Ok(()) = encode::write_bool(self.0, value);
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<(), E> {
        let Ok(_) = encode::write_int(self.0, value);
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<(), E> {
        let Ok(_) = encode::write_uint(self.0, value);
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<(), E> {
        let Ok(()) = encode::write_f64(self.0, value);
        Ok(())
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<(), E> {
        encode::write_str(self.0, value)
            .map(drop)
            .map_err(|_| E::custom("a string too long for MessagePack"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let header = open(self.0);
        let mut count = 0;
        while seq.next_element_seed(Value(&mut *self.0))?.is_some() {
            count += 1;
        }
        close(self.0, header, count, false)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let header = open(self.0);
        let mut count = 0;
        while map.next_key_seed(Value(&mut *self.0))?.is_some() {
            map.next_value_seed(Value(&mut *self.0))?;
            count += 1;
        }
        close(self.0, header, count, true)
    }
}

/// Keeps one byte for a container's header; where it is.
fn open(out: &mut Vec<u8>) -> usize {
    out.push(0);
    out.len() - 1
}

/// Writes the header of the container of `count` entries whose byte is at
/// `at`, moving the entries up when it needs more (past 15 entries).
fn close<E: de::Error>(out: &mut Vec<u8>, at: usize, count: usize, map: bool) -> Result<(), E> {
    let mut head = [0u8; 5];
    let mut header = SliceWriter::new(&mut head);
    let written = if map {
        encode::write_map_len(&mut header, count)
    } else {
        encode::write_array_len(&mut header, count)
    };
    written.map_err(|_| E::custom("a container too long for MessagePack"))?;
    let head = header.written();
    if head.len() > 1 {
        let end = out.len();
        out.resize(end + head.len() - 1, 0);
        out.copy_within(at + 1..end, at + head.len());
    }
    out[at..at + head.len()].copy_from_slice(head);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_json_type_in_its_smallest_form() {
        let json = br#"{"id":1042,"big":18446744073709551615,"neg":-9223372036854775808,"f":0.5,"t":true,"n":null,"s":"\u00e9","a":[]}"#;
        let mut expected = vec![0x88];
        expected.extend(b"\xa2id\xcd\x04\x12");
        expected.extend(b"\xa3big\xcf\xff\xff\xff\xff\xff\xff\xff\xff");
        expected.extend(b"\xa3neg\xd3\x80\x00\x00\x00\x00\x00\x00\x00");
        expected.extend(b"\xa1f\xcb\x3f\xe0\x00\x00\x00\x00\x00\x00");
        expected.extend(b"\xa1t\xc3\xa1n\xc0");
        expected.extend(b"\xa1s\xa2\xc3\xa9");
        expected.extend(b"\xa1a\x90");
        assert_eq!(json_to_msgpack(json).unwrap(), expected);
    }

    /// The bytes of msgpack-serde's own serializer, headers that widen
    /// (16 and 65,536 entries, nested) included.
    #[test]
    fn the_bytes_of_msgpack_serde() {
        let json = serde_json::to_vec(&serde_json::json!({
            "fifteen": (0..15).collect::<Vec<_>>(),
            "sixteen": (0..16).collect::<Vec<_>>(),
            "wide": (0..300).collect::<Vec<u32>>(),
            "wider": vec![7u8; 70_000],
            "nested": [{"x": [1, [2, [3]]], "keys": (0..20).map(|i| (i.to_string(), serde_json::Value::from(i))).collect::<serde_json::Map<_, _>>()}],
            "big": u64::MAX, "neg": i64::MIN, "f": 0.5, "t": true, "n": null, "s": "\u{e9}", "a": [], "o": {},
        }))
        .unwrap();
        let mut general = msgpack_serde::Serializer::new(Vec::new());
        serde_transcode::transcode(
            &mut serde_json::Deserializer::from_slice(&json),
            &mut general,
        )
        .unwrap();
        assert_eq!(json_to_msgpack(&json).unwrap(), general.into_inner());
    }

    #[test]
    fn json_that_is_not_utf8_is_an_error() {
        let error = json_to_msgpack(b"\"\xff\"").unwrap_err();
        assert_eq!(
            error.to_string(),
            "JSON is not UTF-8: invalid utf-8 sequence of 1 bytes from index 1"
        );
    }

    #[test]
    fn invalid_json_and_trailing_bytes_are_errors() {
        assert!(json_to_msgpack(b"{\"a\":").is_err());
        assert_eq!(
            json_to_msgpack(b"1 2").unwrap_err().to_string(),
            "trailing characters at line 1 column 3"
        );
    }
}
