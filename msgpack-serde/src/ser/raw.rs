//! [`RawValue`](crate::RawValue)s written as they are, as serde_json's
//! raw-value emitter does: the bytes are checked and copied into the
//! output, with no buffer in between.

use msgpack_core::{Reader, Write};
use serde::ser::{self, Impossible, Serialize};

use crate::{Error, Result};

/// Serializes the payload of a `RawValue`: bytes (`serialize_bytes`) that
/// must be exactly one MessagePack value, written verbatim. Anything else,
/// and bytes that are not one value, is [`Error::invalid_raw_value`].
pub(super) struct RawSerializer<'a, W> {
    out: &'a mut W,
}

impl<'a, W> RawSerializer<'a, W> {
    pub(super) fn new(out: &'a mut W) -> Self {
        RawSerializer { out }
    }
}

impl<W: Write> ser::Serializer for RawSerializer<'_, W>
where
    Error: From<W::Error>,
{
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        let mut check = Reader::new(v);
        if check.skip().is_err() || !check.is_empty() {
            return Err(Error::invalid_raw_value());
        }
        self.out.write_all(v)?;
        Ok(())
    }

    refuse! { Error::invalid_raw_value();
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_i128(i128), serialize_u8(u8), serialize_u16(u16),
        serialize_u32(u32), serialize_u64(u64), serialize_u128(u128), serialize_f32(f32),
        serialize_f64(f64), serialize_char(char), serialize_str(&str), serialize_none(),
        serialize_unit(), serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
        serialize_seq(Option<usize>) -> Self::SerializeSeq,
        serialize_tuple(usize) -> Self::SerializeTuple,
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct,
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant,
        serialize_map(Option<usize>) -> Self::SerializeMap,
        serialize_struct(&'static str, usize) -> Self::SerializeStruct,
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant,
    }

    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<()> {
        Err(Error::invalid_raw_value())
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, _: &T) -> Result<()> {
        Err(Error::invalid_raw_value())
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        Err(Error::invalid_raw_value())
    }

    /// A `RawValue` reaches this serializer only from a binary one: a
    /// human-readable serializer gets its decoded value instead.
    fn is_human_readable(&self) -> bool {
        false
    }
}
