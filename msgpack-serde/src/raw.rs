//! Values kept as their encoded bytes.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

use msgpack_core::serde_ext::Bytes;

use crate::{Error, Result, Value};

/// The newtype-struct name that tells our serializer and deserializer to
/// pass a value's bytes through untouched.
pub(crate) const RAW_VALUE_NAME: &str = "$msgpack_serde::RawValue";

/// One MessagePack value kept as its encoded bytes, like
/// `serde_json::value::RawValue`: deserializing one skips the value
/// without decoding it, and serializing one copies the bytes back, for
/// pass-through of payloads a service does not need to look into.
///
/// ```
/// use msgpack_serde::RawValue;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize)]
/// struct Envelope { kind: String, body: RawValue }
///
/// let bytes = msgpack_serde::to_vec(&msgpack_serde::msgpack!({"kind": "ping", "body": [1, 2]})).unwrap();
/// let envelope: Envelope = msgpack_serde::from_slice(&bytes).unwrap();
/// assert_eq!(envelope.body.as_bytes(), [0x92, 0x01, 0x02]);
/// assert_eq!(msgpack_serde::to_vec(&envelope).unwrap(), bytes);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RawValue {
    bytes: Box<[u8]>,
}

impl RawValue {
    /// Wraps `bytes`, which must be exactly one MessagePack value.
    ///
    /// ```
    /// use msgpack_serde::RawValue;
    ///
    /// let raw = RawValue::from_bytes(vec![0x92, 0x01, 0x02]).unwrap();
    /// assert_eq!(msgpack_serde::to_vec(&(&raw, 3)).unwrap(), [0x92, 0x92, 0x01, 0x02, 0x03]);
    /// let error = RawValue::from_bytes(vec![0x92, 0x01]).unwrap_err();
    /// assert_eq!(error.to_string(), "unexpected end of input at offset 2");
    /// ```
    pub fn from_bytes(bytes: impl Into<Box<[u8]>>) -> Result<RawValue> {
        let bytes = bytes.into();
        let mut reader = msgpack_core::Reader::new(&bytes);
        reader.skip()?;
        reader.finish()?;
        Ok(RawValue { bytes })
    }

    /// The encoded value.
    ///
    /// ```
    /// use msgpack_serde::RawValue;
    ///
    /// let (raw, n): (RawValue, u8) = msgpack_serde::from_slice(&[0x92, 0xa1, b'x', 0x07]).unwrap();
    /// assert_eq!(raw.as_bytes(), [0xa1, b'x']);
    /// assert_eq!(n, 7);
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Decodes the value into `T`.
    ///
    /// ```
    /// use msgpack_serde::RawValue;
    ///
    /// let raw = RawValue::from_bytes(vec![0x92, 0xa1, b'a', 0x01]).unwrap();
    /// let (name, n): (&str, u8) = raw.deserialize_into().unwrap();
    /// assert_eq!((name, n), ("a", 1));
    /// ```
    pub fn deserialize_into<'a, T: Deserialize<'a>>(&'a self) -> Result<T> {
        crate::from_slice(&self.bytes)
    }
}

impl fmt::Debug for RawValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Value::from_slice(&self.bytes) {
            Ok(value) => write!(f, "RawValue({value})"),
            Err(_) => write!(f, "RawValue({:02x?})", self.bytes),
        }
    }
}

/// MessagePack gets the bytes back verbatim; a human-readable format such
/// as JSON, our serializer with `Config::human_readable(true)` and
/// `to_value` get the decoded value, which reads back as an equal value in
/// its smallest encoding (`cd 00 01` comes back `01`), not the same bytes.
impl Serialize for RawValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            let value = Value::from_slice(&self.bytes).map_err(serde::ser::Error::custom)?;
            return value.serialize(serializer);
        }
        serializer.serialize_newtype_struct(RAW_VALUE_NAME, &Bytes(&self.bytes))
    }
}

impl<'de> Deserialize<'de> for RawValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RawVisitor;

        impl<'de> Visitor<'de> for RawVisitor {
            type Value = RawValue;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any MessagePack value")
            }

            fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<RawValue, E> {
                Ok(RawValue {
                    bytes: bytes.into(),
                })
            }
        }

        deserializer.deserialize_newtype_struct(RAW_VALUE_NAME, RawVisitor)
    }
}

impl From<RawValue> for Box<[u8]> {
    fn from(raw: RawValue) -> Box<[u8]> {
        raw.bytes
    }
}

impl TryFrom<Vec<u8>> for RawValue {
    type Error = Error;

    fn try_from(bytes: Vec<u8>) -> Result<RawValue> {
        RawValue::from_bytes(bytes)
    }
}
