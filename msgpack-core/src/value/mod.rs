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
    pub fn decode(reader: &mut Reader<'_>) -> Result<Value, Error> {
        tree::decode(reader)
    }

    /// Reads one value that must fill `bytes` exactly: bytes after it are
    /// a [`TrailingBytes`](crate::ErrorKind::TrailingBytes) error.
    pub fn from_slice(bytes: &[u8]) -> Result<Value, Error> {
        let mut reader = Reader::new(bytes);
        let value = Value::decode(&mut reader)?;
        reader.finish()?;
        Ok(value)
    }

    /// Writes this value, each part in its smallest form.
    pub fn encode<W: Write>(&self, out: &mut W) -> Result<(), EncodeError<W::Error>> {
        tree::encode(self, out)
    }

    /// This value's bytes. Fails only for a str, bin, array, map or ext
    /// longer than `u32::MAX`.
    pub fn to_vec(&self) -> Result<Vec<u8>, EncodeError<core::convert::Infallible>> {
        let mut out = Vec::new();
        self.encode(&mut out)?;
        Ok(out)
    }

    /// A borrowed view of this value.
    pub fn as_value_ref(&self) -> ValueRef<'_> {
        ValueRef::from(self)
    }

    /// Replaces this value with nil and returns it.
    pub fn take(&mut self) -> Value {
        core::mem::take(self)
    }

    /// Whether this is nil.
    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The integer, if this is one.
    pub fn as_integer(&self) -> Option<Integer> {
        match *self {
            Value::Int(n) => Some(n),
            _ => None,
        }
    }

    /// The integer as `u64`, if this is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_integer().and_then(Integer::as_u64)
    }

    /// The integer as `i64`, if this is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_integer().and_then(Integer::as_i64)
    }

    /// The float as `f64`, if this is a float 32 or float 64.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::F32(x) => Some(x as f64),
            Value::F64(x) => Some(x),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The binary data, if this is bin.
    pub fn as_bin(&self) -> Option<&[u8]> {
        match self {
            Value::Bin(b) => Some(b),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The elements, mutably, if this is an array.
    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The pairs, if this is a map.
    pub fn as_map(&self) -> Option<&Vec<(Value, Value)>> {
        match self {
            Value::Map(pairs) => Some(pairs),
            _ => None,
        }
    }

    /// The pairs, mutably, if this is a map.
    pub fn as_map_mut(&mut self) -> Option<&mut Vec<(Value, Value)>> {
        match self {
            Value::Map(pairs) => Some(pairs),
            _ => None,
        }
    }

    /// The type and data, if this is an extension.
    pub fn as_ext(&self) -> Option<(i8, &[u8])> {
        match self {
            Value::Ext(ty, data) => Some((*ty, data)),
            _ => None,
        }
    }

    /// The timestamp, if this is a valid extension of type -1.
    pub fn as_timestamp(&self) -> Option<Timestamp> {
        match self.as_ext()? {
            (TIMESTAMP_EXT_TYPE, data) => Timestamp::from_ext_data(data),
            _ => None,
        }
    }

    /// The string, if this is one; otherwise `Err(self)`.
    pub fn into_string(mut self) -> Result<String, Value> {
        match &mut self {
            Value::Str(s) => Ok(core::mem::take(s)),
            _ => Err(self),
        }
    }

    /// The binary data, if this is bin; otherwise `Err(self)`.
    pub fn into_bin(mut self) -> Result<Vec<u8>, Value> {
        match &mut self {
            Value::Bin(b) => Ok(core::mem::take(b)),
            _ => Err(self),
        }
    }

    /// The elements, if this is an array; otherwise `Err(self)`.
    pub fn into_array(mut self) -> Result<Vec<Value>, Value> {
        match &mut self {
            Value::Array(items) => Ok(core::mem::take(items)),
            _ => Err(self),
        }
    }

    /// The pairs, if this is a map; otherwise `Err(self)`.
    pub fn into_map(mut self) -> Result<Vec<(Value, Value)>, Value> {
        match &mut self {
            Value::Map(pairs) => Ok(core::mem::take(pairs)),
            _ => Err(self),
        }
    }
}

impl Drop for Value {
    fn drop(&mut self) {
        tree::drop_iteratively(self);
    }
}

impl Node for Value {
    fn view(&self) -> View<'_, Self> {
        match self {
            Value::Nil => View::Scalar(Token::Nil),
            Value::Bool(b) => View::Scalar(Token::Bool(*b)),
            Value::Int(n) => View::Scalar(Token::Int(*n)),
            Value::F32(x) => View::Scalar(Token::F32(*x)),
            Value::F64(x) => View::Scalar(Token::F64(*x)),
            Value::Str(s) => View::Scalar(Token::Str(s)),
            Value::Bin(b) => View::Scalar(Token::Bin(b)),
            Value::Ext(ty, data) => View::Scalar(Token::Ext(*ty, data)),
            Value::Array(items) => View::Array(items),
            Value::Map(pairs) => View::Map(pairs),
        }
    }

    fn take_children(&mut self, into: &mut Vec<Self>) {
        match self {
            Value::Array(items) => into.append(items),
            Value::Map(pairs) => pairs.drain(..).for_each(|(k, v)| into.extend([k, v])),
            _ => {}
        }
    }
}

impl<'a> Build<'a> for Value {
    fn from_scalar(token: Token<'a>) -> Self {
        match token {
            Token::Nil => Value::Nil,
            Token::Bool(b) => Value::Bool(b),
            Token::Int(n) => Value::Int(n),
            Token::F32(x) => Value::F32(x),
            Token::F64(x) => Value::F64(x),
            Token::Str(s) => Value::Str(s.into()),
            Token::Bin(b) => Value::Bin(b.into()),
            Token::Ext(ty, data) => Value::Ext(ty, data.into()),
            // decode() builds containers itself and never passes them here.
            Token::Array(_) | Token::Map(_) => Value::Nil,
        }
    }

    fn array(items: Vec<Self>) -> Self {
        Value::Array(items)
    }

    fn map(pairs: Vec<(Self, Self)>) -> Self {
        Value::Map(pairs)
    }
}
