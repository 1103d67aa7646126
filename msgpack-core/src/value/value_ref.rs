//! A MessagePack value that borrows its strings and bytes from the input.

use alloc::vec::Vec;

use super::tree::{self, Build, Node, View};
use super::Value;
use crate::{EncodeError, Error, Integer, Reader, Token, Write};

/// A MessagePack value whose strings, binary data and extension payloads
/// borrow from the input it was read from: decoding copies no bytes.
///
/// ```
/// use msgpack_core::ValueRef;
///
/// let input = [0x92, 0xa2, b'h', b'i', 0xc4, 0x01, 0x2a];
/// let value = ValueRef::from_slice(&input).unwrap();
/// assert_eq!(value[0], ValueRef::Str("hi"));
/// assert_eq!(value[1], ValueRef::Bin(&[42]));
/// assert_eq!(value.to_string(), r#"["hi", bin(2a)]"#);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub enum ValueRef<'a> {
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
    /// A UTF-8 string, borrowed.
    Str(&'a str),
    /// Binary data, borrowed.
    Bin(&'a [u8]),
    /// An array.
    Array(Vec<ValueRef<'a>>),
    /// A map: key-value pairs in order, keys of any type.
    Map(Vec<(ValueRef<'a>, ValueRef<'a>)>),
    /// An extension: its type and borrowed data.
    Ext(i8, &'a [u8]),
}

impl<'a> ValueRef<'a> {
    /// Reads one value from `reader`, under the reader's
    /// [`Limits`](crate::Limits), borrowing from its input.
    ///
    /// ```
    /// use msgpack_core::{Reader, ValueRef};
    ///
    /// let input = [0xa1, b'a', 0xc4, 0x01, b'b']; // "a", then bin(62)
    /// let mut reader = Reader::new(&input);
    /// assert_eq!(ValueRef::decode(&mut reader), Ok(ValueRef::Str("a")));
    /// assert_eq!(ValueRef::decode(&mut reader), Ok(ValueRef::Bin(b"b")));
    /// ```
    pub fn decode(reader: &mut Reader<'a>) -> Result<ValueRef<'a>, Error> {
        tree::decode(reader)
    }

    /// Reads one value that must fill `bytes` exactly.
    ///
    /// ```
    /// use msgpack_core::ValueRef;
    ///
    /// let input = [0xa2, b'h', b'i'];
    /// let value = ValueRef::from_slice(&input).unwrap();
    /// let ValueRef::Str(s) = &value else { panic!("not a string") };
    /// assert_eq!(s.as_ptr(), input[1..].as_ptr()); // borrowed, not copied
    /// ```
    pub fn from_slice(bytes: &'a [u8]) -> Result<ValueRef<'a>, Error> {
        tree::from_slice(bytes)
    }

    /// Writes this value, each part in its smallest form.
    ///
    /// ```
    /// use msgpack_core::ValueRef;
    ///
    /// let mut out = Vec::new();
    /// ValueRef::Array(vec![ValueRef::Nil, ValueRef::Bool(true)]).encode(&mut out).unwrap();
    /// assert_eq!(out, [0x92, 0xc0, 0xc3]);
    /// ```
    pub fn encode<W: Write>(&self, out: &mut W) -> Result<(), EncodeError<W::Error>> {
        tree::encode(self, out)
    }

    /// An owned copy of this value.
    ///
    /// ```
    /// use msgpack_core::{Value, ValueRef};
    ///
    /// let input = [0xa1, b'x'];
    /// let owned: Value = ValueRef::from_slice(&input).unwrap().to_owned_value();
    /// assert_eq!(owned, Value::from("x"));
    /// ```
    pub fn to_owned_value(&self) -> Value {
        tree::convert(self)
    }
}

impl<'a> From<&'a Value> for ValueRef<'a> {
    fn from(value: &'a Value) -> ValueRef<'a> {
        tree::convert(value)
    }
}

impl From<&ValueRef<'_>> for Value {
    fn from(value: &ValueRef<'_>) -> Value {
        value.to_owned_value()
    }
}

impl From<ValueRef<'_>> for Value {
    fn from(value: ValueRef<'_>) -> Value {
        value.to_owned_value()
    }
}

tree::value_tree!(ValueRef<'a>);
