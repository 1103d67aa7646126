//! JSON to MessagePack, value by value, with no tree in between.
//!
//! serde_json's deserializer drives a serializer (`serde-transcode`).
//! JSON gives no length for an object or an array before its elements, and
//! a general serializer must then count each one into a buffer of its own
//! and copy it into its parent; this one, writing only JSON's data model
//! into a `Vec`, reserves one byte for the header (the fix form, up to 15
//! entries), writes the entries in place and patches the header at the
//! end, widening it in place for a longer container. The bytes are
//! msgpack-serde's: the smallest form of every value and header.

use std::fmt;

use msgpack_serde::core::{encode, SliceWriter};
use serde::ser::{self, Impossible, Serialize};

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
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let mut writer = Writer {
        out: Vec::with_capacity(json.len()),
    };
    serde_transcode::transcode(&mut deserializer, &mut writer)?;
    deserializer
        .end()
        .map_err(|error| TranscodeError(error.to_string()))?;
    Ok(writer.out)
}

/// Why a JSON document could not be re-encoded: it is not valid JSON, or
/// something follows it.
#[derive(Debug)]
pub struct TranscodeError(String);

impl fmt::Display for TranscodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TranscodeError {}

impl ser::Error for TranscodeError {
    fn custom<T: fmt::Display>(message: T) -> TranscodeError {
        TranscodeError(message.to_string())
    }
}

/// The output.
struct Writer {
    out: Vec<u8>,
}

/// An object or array being written: where its header byte is, and how
/// many entries it has so far.
struct Container<'a> {
    writer: &'a mut Writer,
    header: usize,
    count: usize,
    map: bool,
}

impl Writer {
    fn open(&mut self, map: bool) -> Container<'_> {
        let header = self.out.len();
        self.out.push(0);
        Container {
            writer: self,
            header,
            count: 0,
            map,
        }
    }
}

impl Container<'_> {
    /// Writes the header in the byte kept for it, moving the entries up
    /// when it needs more (past 15 entries).
    fn close(self) -> Result<(), TranscodeError> {
        let mut head = [0u8; 5];
        let mut header = SliceWriter::new(&mut head);
        let written = if self.map {
            encode::write_map_len(&mut header, self.count)
        } else {
            encode::write_array_len(&mut header, self.count)
        };
        written.map_err(|_| TranscodeError("a container too long for MessagePack".into()))?;
        let head = header.written();
        let out = &mut self.writer.out;
        if head.len() > 1 {
            let end = out.len();
            out.resize(end + head.len() - 1, 0);
            out.copy_within(self.header + 1..end, self.header + head.len());
        }
        out[self.header..self.header + head.len()].copy_from_slice(head);
        Ok(())
    }
}

/// JSON never holds these: serde_json's deserializer does not ask for them.
macro_rules! not_in_json {
    ($($method:ident($($arg:ty),*) -> $ret:ty;)*) => {$(
        fn $method(self, $(_: $arg),*) -> Result<$ret, TranscodeError> {
            Err(TranscodeError(concat!(stringify!($method), " is not in JSON's data model").into()))
        }
    )*};
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = TranscodeError;
    type SerializeSeq = Container<'a>;
    type SerializeTuple = Impossible<(), TranscodeError>;
    type SerializeTupleStruct = Impossible<(), TranscodeError>;
    type SerializeTupleVariant = Impossible<(), TranscodeError>;
    type SerializeMap = Container<'a>;
    type SerializeStruct = Impossible<(), TranscodeError>;
    type SerializeStructVariant = Impossible<(), TranscodeError>;

    fn serialize_bool(self, value: bool) -> Result<(), TranscodeError> {
        let Ok(()) = encode::write_bool(&mut self.out, value);
        Ok(())
    }

    fn serialize_i64(self, value: i64) -> Result<(), TranscodeError> {
        let Ok(_) = encode::write_int(&mut self.out, value);
        Ok(())
    }

    fn serialize_u64(self, value: u64) -> Result<(), TranscodeError> {
        let Ok(_) = encode::write_uint(&mut self.out, value);
        Ok(())
    }

    fn serialize_f64(self, value: f64) -> Result<(), TranscodeError> {
        let Ok(()) = encode::write_f64(&mut self.out, value);
        Ok(())
    }

    fn serialize_str(self, value: &str) -> Result<(), TranscodeError> {
        encode::write_str(&mut self.out, value)
            .map(drop)
            .map_err(|_| TranscodeError("a string too long for MessagePack".into()))
    }

    fn serialize_unit(self) -> Result<(), TranscodeError> {
        let Ok(()) = encode::write_nil(&mut self.out);
        Ok(())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Container<'a>, TranscodeError> {
        Ok(self.open(false))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Container<'a>, TranscodeError> {
        Ok(self.open(true))
    }

    not_in_json! {
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_f32(f32) -> ();
        serialize_char(char) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<(), TranscodeError> {
        Err(TranscodeError(
            "serialize_some is not in JSON's data model".into(),
        ))
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), TranscodeError> {
        Err(TranscodeError(
            "serialize_newtype_struct is not in JSON's data model".into(),
        ))
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), TranscodeError> {
        Err(TranscodeError(
            "serialize_newtype_variant is not in JSON's data model".into(),
        ))
    }
}

impl ser::SerializeSeq for Container<'_> {
    type Ok = ();
    type Error = TranscodeError;

    fn serialize_element<T: ?Sized + Serialize>(
        &mut self,
        value: &T,
    ) -> Result<(), TranscodeError> {
        self.count += 1;
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), TranscodeError> {
        self.close()
    }
}

impl ser::SerializeMap for Container<'_> {
    type Ok = ();
    type Error = TranscodeError;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), TranscodeError> {
        self.count += 1;
        key.serialize(&mut *self.writer)
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), TranscodeError> {
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), TranscodeError> {
        self.close()
    }
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
    fn invalid_json_and_trailing_bytes_are_errors() {
        assert!(json_to_msgpack(b"{\"a\":").is_err());
        assert_eq!(
            json_to_msgpack(b"1 2").unwrap_err().to_string(),
            "trailing characters at line 1 column 3"
        );
    }
}
