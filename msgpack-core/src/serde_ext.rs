//! How extensions travel through serde (feature `serde`). The serde impls
//! of [`Value`](crate::Value), [`Timestamp`](crate::Timestamp) and
//! [`Integer`](crate::Integer) are beside those types, and use it.
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

use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeTuple, Serializer};

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

/// Bytes that serialize with `serialize_bytes` (a `&[u8]` alone
/// serializes as a sequence of integers): bin in MessagePack.
///
/// ```
/// use msgpack_core::serde_ext::Bytes;
///
/// assert_eq!(serde_json::to_string(&Bytes(&[1, 2])).unwrap(), "[1,2]"); // JSON has no bytes
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Bytes<'a>(pub &'a [u8]);

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

pub(crate) struct ExtVisitor;

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
