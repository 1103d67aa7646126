//! A prototype of the layer's JSON to MessagePack re-encoding without a
//! buffer per container, to measure what that buffering costs.
//!
//! serde_json gives no length for an object or an array before its
//! elements, so msgpack-serde's `Serializer` counts each one into a boxed
//! buffer of its own, grown as it fills and copied into its parent at the
//! end. This writer instead reserves one byte for the header (the fixmap
//! or fixarray form, which holds up to 15 entries), writes the elements in
//! place, and patches the header at the end; a container past 15 entries
//! widens its header in place (the bytes after it move up by 2 or 4). The
//! output is the same, byte for byte: the smallest form of every header.

use std::fmt;

use msgpack_serde::core::encode;
use serde::ser::{self, Serialize};

/// Re-encodes one JSON document as MessagePack, as msgpack-axum's
/// `transcode.rs` does (serde_json's deserializer driving a serializer
/// through serde-transcode), into this module's writer.
pub fn json_to_msgpack(json: &[u8]) -> Result<Vec<u8>, Error> {
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let mut writer = Writer {
        out: Vec::with_capacity(json.len()),
    };
    serde_transcode::transcode(&mut deserializer, &mut writer)?;
    deserializer
        .end()
        .map_err(|error| Error(error.to_string()))?;
    Ok(writer.out)
}

/// Why a document could not be re-encoded.
#[derive(Debug)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Error {
        Error(message.to_string())
    }
}

/// The output.
#[derive(Debug)]
pub struct Writer {
    out: Vec<u8>,
}

/// An object or array being written: where its header byte is, and how
/// many entries it has so far.
#[derive(Debug)]
pub struct Container<'a> {
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
    fn close(self) {
        let Container {
            writer,
            header,
            count,
            map,
        } = self;
        let out = &mut writer.out;
        if count <= 15 {
            out[header] = if map { 0x80 } else { 0x90 } | count as u8;
            return;
        }
        let mut wide = [0u8; 5];
        let len = if count <= u16::MAX as usize {
            wide[0] = if map { 0xde } else { 0xdc };
            wide[1..3].copy_from_slice(&(count as u16).to_be_bytes());
            3
        } else {
            wide[0] = if map { 0xdf } else { 0xdd };
            wide[1..5].copy_from_slice(&(count as u32).to_be_bytes());
            5
        };
        let end = out.len();
        out.resize(end + len - 1, 0);
        out.copy_within(header + 1..end, header + len);
        out[header..header + len].copy_from_slice(&wide[..len]);
    }
}

macro_rules! unsupported {
    ($($method:ident($($arg:ty),*) -> $ret:ty;)*) => {$(
        fn $method(self, $(_: $arg),*) -> Result<$ret, Error> {
            Err(Error(concat!(stringify!($method), " is not in JSON's data model").into()))
        }
    )*};
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Container<'a>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = Container<'a>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        let _ = encode::write_bool(&mut self.out, v);
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }

    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }

    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }

    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        let _ = encode::write_int(&mut self.out, v);
        Ok(())
    }

    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }

    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }

    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }

    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        let _ = encode::write_uint(&mut self.out, v);
        Ok(())
    }

    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.serialize_f64(v.into())
    }

    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.out.push(0xcb);
        self.out.extend_from_slice(&v.to_be_bytes());
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        encode::write_str(&mut self.out, v).map_err(|_| Error("a string too long".into()))?;
        Ok(())
    }

    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Error> {
        let _ = encode::write_nil(&mut self.out);
        Ok(())
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Container<'a>, Error> {
        Ok(self.open(false))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Container<'a>, Error> {
        Ok(self.open(true))
    }

    unsupported! {
        serialize_bytes(&[u8]) -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        Err(Error("an enum is not in JSON's data model".into()))
    }
}

impl ser::SerializeSeq for Container<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.count += 1;
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), Error> {
        self.close();
        Ok(())
    }
}

impl ser::SerializeMap for Container<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        self.count += 1;
        key.serialize(&mut *self.writer)
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), Error> {
        self.close();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same bytes as msgpack-serde's serializer writes, also for
    /// containers whose header must widen.
    #[test]
    fn the_same_bytes_as_msgpack_serde() {
        let wide: Vec<u32> = (0..300).collect();
        let wider: Vec<u8> = vec![7; 70_000];
        let json = serde_json::to_vec(&serde_json::json!({
            "id": 1042, "big": u64::MAX, "neg": i64::MIN, "f": 0.5, "t": true, "n": null,
            "s": "\u{e9}", "a": [], "fifteen": (0..15).collect::<Vec<_>>(),
            "sixteen": (0..16).collect::<Vec<_>>(), "wide": wide, "wider": wider,
            "nested": [{"x": [1, [2, [3]]]}],
        }))
        .unwrap();
        let value: serde_json::Value = serde_json::from_slice(&json).unwrap();
        let mut expected = msgpack_serde::Serializer::new(Vec::new());
        serde_transcode::transcode(
            &mut serde_json::Deserializer::from_slice(&json),
            &mut expected,
        )
        .unwrap();
        assert_eq!(json_to_msgpack(&json).unwrap(), expected.into_inner());
        let back: serde_json::Value =
            msgpack_serde::from_slice(&json_to_msgpack(&json).unwrap()).unwrap();
        assert_eq!(back, value);
    }
}
