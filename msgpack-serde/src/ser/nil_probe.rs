//! Whether a value writes as nil, which an `#[msgpack(array)]` field left
//! out at its default must not write: the array would read that nil as
//! the field left out.

use std::fmt;

use msgpack_core::marker::NIL;
use serde::ser::{self, Impossible, Serialize, Serializer};

use crate::raw::RAW_VALUE_NAME;

/// Whether `value` serializes as nil in a binary format: a unit, `None`,
/// a unit struct, a `RawValue` of nil, or one of these in `Some` or a
/// newtype struct.
pub(crate) fn writes_nil<T: ?Sized + Serialize>(value: &T) -> bool {
    value.serialize(NilProbe { raw: false }).is_ok()
}

/// A serializer that succeeds only on what writes nil; `raw` inside a
/// `RawValue`, whose bytes are written as they are.
struct NilProbe {
    raw: bool,
}

/// What [`NilProbe`] fails with: the value does not write nil.
#[derive(Debug)]
struct NotNil;

impl fmt::Display for NotNil {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not nil")
    }
}

impl std::error::Error for NotNil {}

impl ser::Error for NotNil {
    fn custom<T: fmt::Display>(_: T) -> Self {
        NotNil
    }
}

macro_rules! not_nil {
    ($($method:ident($($arg:ty),*) -> $ok:ty;)*) => {$(
        fn $method(self, $(_: $arg),*) -> Result<$ok, NotNil> {
            Err(NotNil)
        }
    )*};
}

impl Serializer for NilProbe {
    type Ok = ();
    type Error = NotNil;
    type SerializeSeq = Impossible<(), NotNil>;
    type SerializeTuple = Impossible<(), NotNil>;
    type SerializeTupleStruct = Impossible<(), NotNil>;
    type SerializeTupleVariant = Impossible<(), NotNil>;
    type SerializeMap = Impossible<(), NotNil>;
    type SerializeStruct = Impossible<(), NotNil>;
    type SerializeStructVariant = Impossible<(), NotNil>;

    fn serialize_unit(self) -> Result<(), NotNil> {
        Ok(())
    }

    fn serialize_none(self) -> Result<(), NotNil> {
        Ok(())
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<(), NotNil> {
        Ok(())
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), NotNil> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), NotNil> {
        let raw = name == RAW_VALUE_NAME;
        value.serialize(NilProbe { raw })
    }

    fn serialize_bytes(self, bytes: &[u8]) -> Result<(), NotNil> {
        match (self.raw, bytes) {
            (true, [NIL]) => Ok(()),
            _ => Err(NotNil),
        }
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), NotNil> {
        Err(NotNil)
    }

    not_nil! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_i128(i128) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_u128(u128) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::writes_nil;
    use crate::Value;

    #[derive(serde::Serialize)]
    struct Unit;

    #[derive(serde::Serialize)]
    struct Wrapped(Value);

    #[test]
    fn what_writes_nil_is_told_from_what_does_not() {
        assert!(writes_nil(&()));
        assert!(writes_nil(&None::<u8>));
        assert!(writes_nil(&Some(None::<u8>)));
        assert!(writes_nil(&Unit));
        assert!(writes_nil(&Value::Nil));
        assert!(writes_nil(&Wrapped(Value::Nil)));
        assert!(writes_nil(&crate::RawValue::from_bytes([0xc0]).unwrap()));
        assert!(!writes_nil(&crate::RawValue::from_bytes([0x01]).unwrap()));
        assert!(!writes_nil(&serde_bytes::Bytes::new(&[0xc0])));
        assert!(!writes_nil(&Some(0u8)));
        assert!(!writes_nil(&Value::from(1)));
        assert!(!writes_nil(&Wrapped(Value::Bool(false))));
        assert!(!writes_nil(&""));
        assert!(!writes_nil(&Vec::<u8>::new()));
        assert!(!writes_nil(&(1, 2)));
    }
}
