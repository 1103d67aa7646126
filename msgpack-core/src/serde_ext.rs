//! serde impls for [`Value`] and [`Timestamp`], and how extensions travel
//! through serde (feature `serde`).
//!
//! Extensions travel through serde as a newtype struct named
//! [`EXT_STRUCT_NAME`] around a tuple `(type: i8, data: bytes)`, the
//! convention rmp-serde uses too: a MessagePack serializer writes it as a
//! real ext value, and any other format sees the plain tuple.
//!
//! ```
//! use msgpack_core::{Timestamp, Value};
//!
//! // JSON has no extensions: it sees the tuple (type, data).
//! assert_eq!(serde_json::to_string(&Value::Ext(5, vec![1, 2])).unwrap(), "[5,[1,2]]");
//! assert_eq!(serde_json::to_string(&Timestamp::from_seconds(1)).unwrap(), "[-1,[0,0,0,1]]");
//! let back: Timestamp = serde_json::from_str("[-1,[0,0,0,1]]").unwrap();
//! assert_eq!(back, Timestamp::from_seconds(1));
//! ```

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, SerializeTuple, Serializer};

use crate::{Integer, Timestamp, Value, TIMESTAMP_EXT_TYPE};

/// The newtype-struct name that marks an extension in the serde data model.
///
/// ```
/// use msgpack_core::serde_ext::EXT_STRUCT_NAME;
///
/// assert_eq!(EXT_STRUCT_NAME, "_ExtStruct"); // the name rmp-serde uses
/// ```
pub const EXT_STRUCT_NAME: &str = "_ExtStruct";

/// Serializes an extension as `EXT_STRUCT_NAME((ext_type, data))`.
///
/// ```
/// use msgpack_core::serde_ext::serialize_ext;
/// use serde::{Serialize, Serializer};
///
/// /// A point carried as extension type 3: two big-endian `i32`s.
/// struct Point(i32, i32);
///
/// impl Serialize for Point {
///     fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
///         let mut data = [0u8; 8];
///         data[..4].copy_from_slice(&self.0.to_be_bytes());
///         data[4..].copy_from_slice(&self.1.to_be_bytes());
///         serialize_ext(serializer, 3, &data)
///     }
/// }
///
/// // msgpack-serde writes a fixext 8; JSON sees the tuple (type, data).
/// let json = serde_json::to_string(&Point(1, -1)).unwrap();
/// assert_eq!(json, "[3,[0,0,0,1,255,255,255,255]]");
/// ```
pub fn serialize_ext<S: Serializer>(
    serializer: S,
    ext_type: i8,
    data: &[u8],
) -> Result<S::Ok, S::Error> {
    serializer.serialize_newtype_struct(EXT_STRUCT_NAME, &ExtParts(ext_type, data))
}

/// Deserializes an extension written by [`serialize_ext`]: its type and data.
///
/// ```
/// use msgpack_core::serde_ext::deserialize_ext;
///
/// let mut json = serde_json::Deserializer::from_str("[3,[0,0,0,1,255,255,255,255]]");
/// let (ext_type, data) = deserialize_ext(&mut json).unwrap();
/// assert_eq!(ext_type, 3);
/// assert_eq!(data, [0, 0, 0, 1, 255, 255, 255, 255]);
/// ```
pub fn deserialize_ext<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<(i8, Vec<u8>), D::Error> {
    deserializer.deserialize_newtype_struct(EXT_STRUCT_NAME, ExtVisitor)
}

struct ExtParts<'a>(i8, &'a [u8]);

impl Serialize for ExtParts<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(2)?;
        tuple.serialize_element(&self.0)?;
        tuple.serialize_element(&Bytes(self.1))?;
        tuple.end()
    }
}

struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.0)
    }
}

/// Reads bytes from any form a format offers them in: bytes or a sequence
/// of integers (what JSON has).
struct ByteBuf(Vec<u8>);

impl<'de> Deserialize<'de> for ByteBuf {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BytesVisitor;

        impl<'de> Visitor<'de> for BytesVisitor {
            type Value = ByteBuf;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("bytes")
            }

            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v.into()))
            }

            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<ByteBuf, E> {
                Ok(ByteBuf(v))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ByteBuf, A::Error> {
                let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(byte) = seq.next_element()? {
                    bytes.push(byte);
                }
                Ok(ByteBuf(bytes))
            }
        }

        deserializer.deserialize_bytes(BytesVisitor)
    }
}

struct ExtVisitor;

impl<'de> Visitor<'de> for ExtVisitor {
    type Value = (i8, Vec<u8>);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a MessagePack extension")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_tuple(2, self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let ext_type: i8 = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let data: ByteBuf = seq
            .next_element()?
            .ok_or_else(|| de::Error::invalid_length(1, &self))?;
        Ok((ext_type, data.0))
    }
}

/// A timestamp is the extension of type -1.
impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_ext(serializer, TIMESTAMP_EXT_TYPE, &self.to_ext_data())
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (ext_type, data) = deserialize_ext(deserializer)?;
        if ext_type != TIMESTAMP_EXT_TYPE {
            return Err(de::Error::invalid_value(
                de::Unexpected::Other("an extension of another type"),
                &"a timestamp (extension type -1)",
            ));
        }
        Timestamp::from_ext_data(&data).ok_or_else(|| {
            de::Error::invalid_value(
                de::Unexpected::Bytes(&data),
                &"timestamp data of 4, 8 or 12 bytes",
            )
        })
    }
}

impl Serialize for Integer {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.as_u64() {
            Some(n) => serializer.serialize_u64(n),
            None => serializer.serialize_i64(self.as_i128() as i64),
        }
    }
}

/// Each type maps to its own serde type: bin to bytes, ext to
/// [`EXT_STRUCT_NAME`], float 32 to `f32`. Map keys of any type are kept.
impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Nil => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Int(n) => n.serialize(serializer),
            Value::F32(x) => serializer.serialize_f32(*x),
            Value::F64(x) => serializer.serialize_f64(*x),
            Value::Str(s) => serializer.serialize_str(s),
            Value::Bin(b) => serializer.serialize_bytes(b),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                items
                    .iter()
                    .try_for_each(|item| seq.serialize_element(item))?;
                seq.end()
            }
            Value::Map(pairs) => {
                let mut map = serializer.serialize_map(Some(pairs.len()))?;
                pairs
                    .iter()
                    .try_for_each(|(k, v)| map.serialize_entry(k, v))?;
                map.end()
            }
            Value::Ext(ty, data) => serialize_ext(serializer, *ty, data),
        }
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any MessagePack value")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::from(n))
    }

    fn visit_i128<E: de::Error>(self, n: i128) -> Result<Value, E> {
        Integer::try_from(n)
            .map(Value::Int)
            .map_err(|_| E::custom("integer out of the MessagePack range"))
    }

    fn visit_u128<E: de::Error>(self, n: u128) -> Result<Value, E> {
        Integer::try_from(n)
            .map(Value::Int)
            .map_err(|_| E::custom("integer out of the MessagePack range"))
    }

    fn visit_f32<E>(self, x: f32) -> Result<Value, E> {
        Ok(Value::F32(x))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Value::F64(x))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::Str(s.into()))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::Str(s))
    }

    fn visit_bytes<E>(self, b: &[u8]) -> Result<Value, E> {
        Ok(Value::Bin(b.into()))
    }

    fn visit_byte_buf<E>(self, b: Vec<u8>) -> Result<Value, E> {
        Ok(Value::Bin(b))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        while let Some(pair) = map.next_entry()? {
            pairs.push(pair);
        }
        Ok(Value::Map(pairs))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        let (ext_type, data) = d.deserialize_tuple(2, ExtVisitor)?;
        Ok(Value::Ext(ext_type, data))
    }
}
