//! Whole MessagePack values: owned [`Value`] and borrowed [`ValueRef`].
//!
//! Both keep every type distinct: an integer with its sign, float 32 apart
//! from float 64, str apart from bin and ext, and maps as ordered pairs
//! with keys of any type. Decoding, encoding, display and drop are
//! iterative, so no depth of nesting can overflow the stack; decoding
//! enforces the reader's [`Limits`](crate::Limits).

mod convert;
mod display;
mod index;
#[cfg(feature = "json")]
mod json;
#[cfg(feature = "serde")]
mod serde_impl;
mod tree;
mod value_ref;

use alloc::string::String;
use alloc::vec::Vec;

pub use value_ref::ValueRef;

use crate::Token;
use crate::{EncodeError, Error, Integer, Reader, Timestamp, Write, TIMESTAMP_EXT_TYPE};
use tree::{Build, Node, View};

/// An owned MessagePack value of any type.
///
/// ```
/// use msgpack_core::Value;
///
/// let bytes = [0x82, 0xa2, b'i', b'd', 0x07, 0xa4, b't', b'a', b'g', b's', 0x91, 0xc4, 0x01, 0xff];
/// let value = Value::from_slice(&bytes).unwrap();
/// assert_eq!(value["id"], Value::from(7));
/// assert_eq!(value["tags"][0], Value::Bin(vec![0xff]));
/// assert_eq!(value.to_string(), r#"{"id": 7, "tags": [bin(ff)]}"#);
/// assert_eq!(value.to_vec().unwrap(), bytes);
/// ```
///
/// `Value` implements `Drop` (to free deep trees without recursion), so a
/// match cannot move a `String` or `Vec` out of it: use
/// [`into_string`](Value::into_string), [`into_array`](Value::into_array)
/// and the other `into_` methods, or [`take`](Value::take).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    /// nil
    #[default]
    Nil,
    /// true or false
    Bool(bool),
    /// An integer from `i64::MIN` to `u64::MAX`.
    Int(Integer),
    /// float 32
    F32(f32),
    /// float 64
    F64(f64),
    /// A UTF-8 string.
    Str(String),
    /// Binary data.
    Bin(Vec<u8>),
    /// An array.
    Array(Vec<Value>),
    /// A map: key-value pairs in the order they were read or written,
    /// with keys of any type.
    Map(Vec<(Value, Value)>),
    /// An extension: its type and data. The timestamp (type -1) stays an
    /// extension here; read it with [`as_timestamp`](Value::as_timestamp).
    Ext(i8, Vec<u8>),
}

impl Value {
    /// Reads one value from `reader`, under the reader's
    /// [`Limits`](crate::Limits).
    ///
    /// ```
    /// use msgpack_core::{Reader, Value};
    ///
    /// let mut reader = Reader::new(&[0x01, 0xa1, b'x']); // two values back to back
    /// assert_eq!(Value::decode(&mut reader), Ok(Value::from(1)));
    /// assert_eq!(Value::decode(&mut reader), Ok(Value::from("x")));
    /// assert!(reader.is_empty());
    /// ```
    pub fn decode(reader: &mut Reader<'_>) -> Result<Value, Error> {
        tree::decode(reader)
    }

    /// Reads one value that must fill `bytes` exactly: bytes after it are
    /// a [`TrailingBytes`](crate::ErrorKind::TrailingBytes) error.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// assert_eq!(Value::from_slice(&[0x93, 0x01, 0x02, 0x03]).unwrap().to_string(), "[1, 2, 3]");
    /// let error = Value::from_slice(&[0xc0, 0xc0]).unwrap_err();
    /// assert_eq!(error.to_string(), "trailing bytes after the value at offset 1");
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<Value, Error> {
        tree::from_slice(bytes)
    }

    /// Writes this value, each part in its smallest form.
    ///
    /// ```
    /// use msgpack_core::{SliceWriter, Value};
    ///
    /// let mut buf = [0u8; 8];
    /// let mut writer = SliceWriter::new(&mut buf);
    /// Value::from(300).encode(&mut writer).unwrap();
    /// assert_eq!(writer.written(), [0xcd, 0x01, 0x2c]); // uint 16
    /// ```
    pub fn encode<W: Write>(&self, out: &mut W) -> Result<(), EncodeError<W::Error>> {
        tree::encode(self, out)
    }

    /// This value's bytes. Fails only for a str, bin, array, map or ext
    /// longer than `u32::MAX`.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// let value = Value::Array(vec![Value::from(-1), Value::F32(0.5)]);
    /// assert_eq!(value.to_vec().unwrap(), [0x92, 0xff, 0xca, 0x3f, 0x00, 0x00, 0x00]);
    /// ```
    pub fn to_vec(&self) -> Result<Vec<u8>, EncodeError<core::convert::Infallible>> {
        let mut out = Vec::new();
        self.encode(&mut out)?;
        Ok(out)
    }

    /// A borrowed view of this value.
    ///
    /// ```
    /// use msgpack_core::{Value, ValueRef};
    ///
    /// let value = Value::Array(vec![Value::from("hi")]);
    /// assert_eq!(value.as_value_ref(), ValueRef::Array(vec![ValueRef::Str("hi")]));
    /// ```
    pub fn as_value_ref(&self) -> ValueRef<'_> {
        ValueRef::from(self)
    }

    /// Replaces this value with nil and returns it.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// let mut value = Value::from_slice(&[0x91, 0xa1, b'x']).unwrap(); // ["x"]
    /// let first = value.as_array_mut().unwrap()[0].take();
    /// assert_eq!(first.into_string(), Ok("x".to_string()));
    /// assert_eq!(value.to_string(), "[null]");
    /// ```
    pub fn take(&mut self) -> Value {
        core::mem::take(self)
    }

    /// Whether this is nil.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// assert!(Value::from_slice(&[0xc0]).unwrap().is_nil());
    /// assert!(Value::from(None::<u8>).is_nil());
    /// assert!(!Value::from(0).is_nil());
    /// ```
    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }

    /// The boolean, if this is one.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// assert_eq!(Value::Bool(true).as_bool(), Some(true));
    /// assert_eq!(Value::from(1).as_bool(), None);
    /// ```
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The integer, if this is one.
    ///
    /// ```
    /// use msgpack_core::{Integer, Value};
    ///
    /// assert_eq!(Value::from(-5).as_integer(), Some(Integer::from(-5)));
    /// assert_eq!(Value::F64(5.0).as_integer(), None);
    /// ```
    pub fn as_integer(&self) -> Option<Integer> {
        match *self {
            Value::Int(n) => Some(n),
            _ => None,
        }
    }

    /// The integer as `u64`, if this is a non-negative integer.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// assert_eq!(Value::from(7u8).as_u64(), Some(7));
    /// assert_eq!(Value::from(-7).as_u64(), None);
    /// ```
    pub fn as_u64(&self) -> Option<u64> {
        self.as_integer().and_then(Integer::as_u64)
    }

    /// The integer as `i64`, if this is an integer that fits.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// assert_eq!(Value::from(-7).as_i64(), Some(-7));
    /// assert_eq!(Value::from(u64::MAX).as_i64(), None);
    /// ```
    pub fn as_i64(&self) -> Option<i64> {
        self.as_integer().and_then(Integer::as_i64)
    }

    /// The float as `f64`, if this is a float 32 or float 64.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// assert_eq!(Value::F32(0.5).as_f64(), Some(0.5));
    /// assert_eq!(Value::from(1).as_f64(), None); // an integer is not a float
    /// ```
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::F32(x) => Some(x as f64),
            Value::F64(x) => Some(x),
            _ => None,
        }
    }

    /// The string, if this is one.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// assert_eq!(Value::from("a").as_str(), Some("a"));
    /// assert_eq!(Value::Bin(b"a".to_vec()).as_str(), None);
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The binary data, if this is bin.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// assert_eq!(Value::from_slice(&[0xc4, 0x01, 0xff]).unwrap().as_bin(), Some(&[0xff][..]));
    /// assert_eq!(Value::from("a").as_bin(), None);
    /// ```
    pub fn as_bin(&self) -> Option<&[u8]> {
        match self {
            Value::Bin(b) => Some(b),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// let value = Value::from_slice(&[0x92, 0x01, 0x02]).unwrap();
    /// assert_eq!(value.as_array().map(Vec::len), Some(2));
    /// assert_eq!(Value::Nil.as_array(), None);
    /// ```
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The elements, mutably, if this is an array.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// let mut value = Value::Array(vec![]);
    /// value.as_array_mut().unwrap().push(Value::from(1));
    /// assert_eq!(value.to_vec().unwrap(), [0x91, 0x01]);
    /// ```
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The pairs, if this is a map.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// let value = Value::from_slice(&[0x81, 0x01, 0xc3]).unwrap(); // {1: true}
    /// assert_eq!(value.as_map(), Some(&vec![(Value::from(1), Value::Bool(true))]));
    /// ```
    pub fn as_map(&self) -> Option<&Vec<(Value, Value)>> {
        match self {
            Value::Map(pairs) => Some(pairs),
            _ => None,
        }
    }

    /// The pairs, mutably, if this is a map.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// let mut value = Value::Map(vec![]);
    /// value.as_map_mut().unwrap().push((Value::from("k"), Value::Nil));
    /// assert_eq!(value.to_string(), r#"{"k": null}"#);
    /// ```
    pub fn as_map_mut(&mut self) -> Option<&mut Vec<(Value, Value)>> {
        match self {
            Value::Map(pairs) => Some(pairs),
            _ => None,
        }
    }

    /// The type and data, if this is an extension.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// let value = Value::from_slice(&[0xd4, 0x07, 0x2a]).unwrap(); // fixext 1 of type 7
    /// assert_eq!(value.as_ext(), Some((7, &[0x2a][..])));
    /// ```
    pub fn as_ext(&self) -> Option<(i8, &[u8])> {
        match self {
            Value::Ext(ty, data) => Some((*ty, data)),
            _ => None,
        }
    }

    /// The timestamp, if this is a valid extension of type -1.
    ///
    /// ```
    /// use msgpack_core::{Timestamp, Value};
    ///
    /// let value = Value::from_slice(&[0xd6, 0xff, 0x00, 0x00, 0x00, 0x01]).unwrap();
    /// assert_eq!(value.as_timestamp(), Some(Timestamp::from_seconds(1)));
    /// assert_eq!(Value::Ext(-1, vec![0; 3]).as_timestamp(), None); // wrong length
    /// ```
    pub fn as_timestamp(&self) -> Option<Timestamp> {
        match self.as_ext()? {
            (TIMESTAMP_EXT_TYPE, data) => Timestamp::from_ext_data(data),
            _ => None,
        }
    }

    /// The string, if this is one; otherwise `Err(self)`.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// assert_eq!(Value::from("a").into_string(), Ok("a".to_string()));
    /// assert_eq!(Value::from(1).into_string(), Err(Value::from(1)));
    /// ```
    pub fn into_string(mut self) -> Result<String, Value> {
        match &mut self {
            Value::Str(s) => Ok(core::mem::take(s)),
            _ => Err(self),
        }
    }

    /// The binary data, if this is bin; otherwise `Err(self)`.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// assert_eq!(Value::from_slice(&[0xc4, 0x01, 0xff]).unwrap().into_bin(), Ok(vec![0xff]));
    /// assert_eq!(Value::from("a").into_bin(), Err(Value::from("a")));
    /// ```
    pub fn into_bin(mut self) -> Result<Vec<u8>, Value> {
        match &mut self {
            Value::Bin(b) => Ok(core::mem::take(b)),
            _ => Err(self),
        }
    }

    /// The elements, if this is an array; otherwise `Err(self)`.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// let items = Value::from_slice(&[0x92, 0x01, 0x02]).unwrap().into_array().unwrap();
    /// assert_eq!(items, [Value::from(1), Value::from(2)]);
    /// ```
    pub fn into_array(mut self) -> Result<Vec<Value>, Value> {
        match &mut self {
            Value::Array(items) => Ok(core::mem::take(items)),
            _ => Err(self),
        }
    }

    /// The pairs, if this is a map; otherwise `Err(self)`.
    ///
    /// ```
    /// use msgpack_core::Value;
    ///
    /// let pairs = Value::from_slice(&[0x81, 0xa1, b'k', 0x00]).unwrap().into_map().unwrap();
    /// assert_eq!(pairs, [(Value::from("k"), Value::from(0))]);
    /// ```
    pub fn into_map(mut self) -> Result<Vec<(Value, Value)>, Value> {
        match &mut self {
            Value::Map(pairs) => Ok(core::mem::take(pairs)),
            _ => Err(self),
        }
    }
}

tree::value_tree!(Value);
