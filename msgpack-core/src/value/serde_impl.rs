//! `Serialize` and `Deserialize` for [`Value`] (feature `serde`).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::serde_ext::{serialize_ext, ExtVisitor};
use crate::{Integer, Value};

/// Each type maps to its own serde type: bin to bytes, ext to
/// [`EXT_STRUCT_NAME`](crate::serde_ext::EXT_STRUCT_NAME), float 32 to `f32`. Map keys of any type are kept.
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
