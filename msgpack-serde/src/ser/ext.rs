//! Extensions written straight into the output, as rmp-serde's
//! `ExtSerializer` does: the serde form of an extension, the tuple
//! `(i8, bytes)`, is read off the serializer calls and written as one ext
//! value, with no buffer in between.

use msgpack_core::serde_ext::EXT_STRUCT_NAME;
use msgpack_core::{encode, Write};
use serde::ser::{self, Impossible, Serialize};

use crate::raw::RAW_VALUE_NAME;
use crate::{Config, Error, Result};

/// `serialize_some` and `serialize_newtype_struct` for the serializers of
/// an extension's parts: `Some(..)` and newtype wrappers are looked
/// through (returning `$ok`), any other newtype struct is refused.
macro_rules! see_through_wrappers {
    ($ok:ty) => {
        fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<$ok> {
            value.serialize(self)
        }

        fn serialize_newtype_struct<T: ?Sized + Serialize>(
            self,
            name: &'static str,
            value: &T,
        ) -> Result<$ok> {
            if is_transparent(name) {
                value.serialize(self)
            } else {
                Err(Error::invalid_ext())
            }
        }
    };
}

/// Serializes the payload of an [`EXT_STRUCT_NAME`] newtype struct.
///
/// It takes the two-element forms a tuple `(i8, bytes)` can arrive in: a
/// tuple, a tuple struct, a sequence, or (under [`Config::compact`],
/// where a struct is an array) a struct of two fields, any of them inside
/// `Some` or a newtype struct. Anything else is [`Error::invalid_ext`].
pub(super) struct ExtSerializer<'a, W> {
    out: &'a mut W,
    config: Config,
}

impl<'a, W> ExtSerializer<'a, W> {
    pub(super) fn new(out: &'a mut W, config: Config) -> Self {
        ExtSerializer { out, config }
    }

    fn parts(self, len: Option<usize>) -> Result<ExtParts<'a, W>> {
        match len {
            Some(2) | None => Ok(ExtParts {
                out: self.out,
                config: self.config,
                ext_type: None,
                written: false,
            }),
            Some(_) => Err(Error::invalid_ext()),
        }
    }
}

/// Whether a newtype struct named `name` is a plain wrapper, seen
/// through; an extension or a raw value inside an extension's parts is
/// refused.
fn is_transparent(name: &str) -> bool {
    name != EXT_STRUCT_NAME && name != RAW_VALUE_NAME
}

impl<'a, W: Write> ser::Serializer for ExtSerializer<'a, W>
where
    Error: From<W::Error>,
{
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ExtParts<'a, W>;
    type SerializeTuple = ExtParts<'a, W>;
    type SerializeTupleStruct = ExtParts<'a, W>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = ExtParts<'a, W>;
    type SerializeStructVariant = Impossible<(), Error>;

    refuse! { Error::invalid_ext();
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_i128(i128), serialize_u8(u8), serialize_u16(u16),
        serialize_u32(u32), serialize_u64(u64), serialize_u128(u128), serialize_f32(f32),
        serialize_f64(f64), serialize_char(char), serialize_str(&str),
        serialize_bytes(&[u8]), serialize_none(), serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
        serialize_newtype_variant<T>(&'static str, u32, &'static str, &T),
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant,
        serialize_map(Option<usize>) -> Self::SerializeMap,
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant,
    }

    see_through_wrappers!(());

    fn serialize_seq(self, len: Option<usize>) -> Result<ExtParts<'a, W>> {
        self.parts(len)
    }

    fn serialize_tuple(self, len: usize) -> Result<ExtParts<'a, W>> {
        self.parts(Some(len))
    }

    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<ExtParts<'a, W>> {
        self.parts(Some(len))
    }

    /// A struct is a map in named mode: only compact mode writes it as
    /// the array an extension's parts are.
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<ExtParts<'a, W>> {
        if self.config.is_structs_as_maps() {
            return Err(Error::invalid_ext());
        }
        self.parts(Some(len))
    }

    fn is_human_readable(&self) -> bool {
        self.config.is_human_readable()
    }
}

/// The two parts of an extension, in order: the type is kept until the
/// data comes, and the data is written behind its ext header as it comes.
pub(super) struct ExtParts<'a, W> {
    out: &'a mut W,
    config: Config,
    ext_type: Option<i8>,
    written: bool,
}

impl<W: Write> ExtParts<'_, W>
where
    Error: From<W::Error>,
{
    fn part<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        if self.written {
            return Err(Error::invalid_ext());
        }
        match self.ext_type {
            None => {
                self.ext_type = Some(value.serialize(ExtTypeSerializer {
                    config: self.config,
                })?);
                Ok(())
            }
            Some(ext_type) => {
                value.serialize(ExtDataSerializer {
                    out: &mut *self.out,
                    config: self.config,
                    ext_type,
                })?;
                self.written = true;
                Ok(())
            }
        }
    }

    fn finish(self) -> Result<()> {
        if self.written {
            Ok(())
        } else {
            Err(Error::invalid_ext())
        }
    }
}

macro_rules! parts {
    ($($trait:ident :: $method:ident($($key:ty)?)),*) => {$(
        impl<W: Write> ser::$trait for ExtParts<'_, W>
        where
            Error: From<W::Error>,
        {
            type Ok = ();
            type Error = Error;

            fn $method<T: ?Sized + Serialize>(&mut self, $(_: $key,)? value: &T) -> Result<()> {
                self.part(value)
            }

            fn end(self) -> Result<()> {
                self.finish()
            }
        }
    )*};
}

parts!(
    SerializeSeq::serialize_element(),
    SerializeTuple::serialize_element(),
    SerializeTupleStruct::serialize_field(),
    SerializeStruct::serialize_field(&'static str)
);

/// Serializes an extension's type: any integer from -128 to 127.
struct ExtTypeSerializer {
    config: Config,
}

macro_rules! ext_types {
    ($($method:ident($ty:ty)),*) => {$(
        fn $method(self, v: $ty) -> Result<i8> {
            i8::try_from(v).map_err(|_| Error::ext_type_out_of_range())
        }
    )*};
}

impl ser::Serializer for ExtTypeSerializer {
    type Ok = i8;
    type Error = Error;
    no_compounds!(i8, Error::invalid_ext());

    fn serialize_i8(self, v: i8) -> Result<i8> {
        Ok(v)
    }

    ext_types!(
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128)
    );

    refuse! { Error::invalid_ext();
        serialize_bool(bool), serialize_f32(f32), serialize_f64(f64), serialize_char(char),
        serialize_str(&str), serialize_bytes(&[u8]), serialize_none(), serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    }

    see_through_wrappers!(i8);

    fn is_human_readable(&self) -> bool {
        self.config.is_human_readable()
    }
}

/// Serializes an extension's data, which must be bytes (`serialize_bytes`,
/// as `serde_bytes` and [`Bytes`](msgpack_core::serde_ext::Bytes) give),
/// and writes the whole extension.
struct ExtDataSerializer<'a, W> {
    out: &'a mut W,
    config: Config,
    ext_type: i8,
}

impl<W: Write> ser::Serializer for ExtDataSerializer<'_, W>
where
    Error: From<W::Error>,
{
    bytes_only_items!(Error::invalid_ext());

    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        encode::write_ext(self.out, self.ext_type, v)?;
        Ok(())
    }

    see_through_wrappers!(());

    fn is_human_readable(&self) -> bool {
        self.config.is_human_readable()
    }
}
