//! The compound values being serialized: sequences and maps
//! ([`Compound`], buffered when their length is not known ahead), and
//! structs and tuples ([`Fields`]).

use msgpack_core::{encode, marker, Write};
use serde::ser::{self, Serialize};

use super::{write_str, Configured, Serializer, StructMode};
use crate::{Error, Result};

/// The state of a sequence or map being serialized.
#[doc(hidden)]
#[derive(Debug)]
pub struct Compound<'a, W, F = Configured> {
    pub(super) ser: &'a mut Serializer<W, F>,
    /// `None` when the length was known: the header is written and
    /// elements go straight out. Otherwise (`flatten`, iterator adapters)
    /// elements are counted into a buffer, written behind the header at
    /// the end. Boxed, so the common case stays two words.
    pub(super) buffered: Option<Box<Buffered>>,
}

#[derive(Debug)]
pub(super) struct Buffered {
    pub(super) bytes: Vec<u8>,
    pub(super) count: usize,
    pub(super) is_map: bool,
}

impl<W: Write, F: StructMode> Compound<'_, W, F>
where
    Error: From<W::Error>,
{
    #[inline(always)]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        match &mut self.buffered {
            None => value.serialize(&mut *self.ser),
            Some(buffered) => {
                buffered.count += 1;
                value.serialize(&mut Serializer::<&mut Vec<u8>, F>::in_mode(
                    &mut buffered.bytes,
                    self.ser.config,
                ))
            }
        }
    }

    #[inline(always)]
    fn map_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        match &mut self.buffered {
            None => value.serialize(&mut *self.ser),
            Some(buffered) => value.serialize(&mut Serializer::<&mut Vec<u8>, F>::in_mode(
                &mut buffered.bytes,
                self.ser.config,
            )),
        }
    }

    #[inline(always)]
    fn finish(self) -> Result<()> {
        if let Some(buffered) = self.buffered {
            if buffered.is_map {
                encode::write_map_len(&mut self.ser.out, buffered.count)?;
            } else {
                encode::write_array_len(&mut self.ser.out, buffered.count)?;
            }
            self.ser.out.write_all(&buffered.bytes)?;
        }
        Ok(())
    }
}

impl<W: Write, F: StructMode> ser::SerializeSeq for Compound<'_, W, F>
where
    Error: From<W::Error>,
{
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }

    #[inline(always)]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

/// The state of a struct or tuple being serialized. serde gives their
/// length up front, so the header is already written and there is no
/// buffer to keep (or drop): fields go straight out.
#[doc(hidden)]
#[derive(Debug)]
pub struct Fields<'a, W, F = Configured> {
    pub(super) ser: &'a mut Serializer<W, F>,
}

macro_rules! tuple_like {
    ($($trait:ident :: $method:ident),*) => {$(
        impl<W: Write, F: StructMode> ser::$trait for Fields<'_, W, F>
        where
            Error: From<W::Error>,
        {
            type Ok = ();
            type Error = Error;

            #[inline(always)]
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
                value.serialize(&mut *self.ser)
            }

            #[inline(always)]
            fn end(self) -> Result<()> {
                Ok(())
            }
        }
    )*};
}

tuple_like!(
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl<W: Write, F: StructMode> ser::SerializeMap for Compound<'_, W, F>
where
    Error: From<W::Error>,
{
    type Ok = ();
    type Error = Error;

    #[inline(always)]
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.element(key)
    }

    #[inline(always)]
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.map_value(value)
    }

    /// Inlined, unlike serde's default: derived structs write every field
    /// through here, and a constant key then folds to one byte.
    #[inline(always)]
    fn serialize_entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        self.element(key)?;
        self.map_value(value)
    }

    #[inline(always)]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

/// Writes a struct's field name. Inlined into the struct's `Serialize`,
/// where the name is a constant: a name of up to 8 bytes and its header
/// fold to one constant of nine bytes, written in one fixed-size copy.
#[inline(always)]
fn write_field_name<W: Write>(out: &mut W, name: &'static str) -> Result<()>
where
    Error: From<W::Error>,
{
    let bytes = name.as_bytes();
    if bytes.len() <= 8 {
        let mut fixstr = [0u8; 9];
        fixstr[0] = marker::FIXSTR | bytes.len() as u8;
        fixstr[1..1 + bytes.len()].copy_from_slice(bytes);
        out.write_prefix(&fixstr, 1 + bytes.len())?;
        Ok(())
    } else {
        write_str(out, bytes)
    }
}

macro_rules! struct_like {
    ($($trait:ident),*) => {$(
        impl<W: Write, F: StructMode> ser::$trait for Fields<'_, W, F>
        where
            Error: From<W::Error>,
        {
            type Ok = ();
            type Error = Error;

            #[inline(always)]
            fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
                if F::structs_as_maps(&self.ser.config) {
                    write_field_name(&mut self.ser.out, key)?;
                }
                value.serialize(&mut *self.ser)
            }

            /// A skipped field keeps named maps consistent (the header
            /// counted only the fields written), but would shift every
            /// later field of an array: compact mode refuses it.
            fn skip_field(&mut self, key: &'static str) -> Result<()> {
                if F::structs_as_maps(&self.ser.config) {
                    Ok(())
                } else {
                    Err(Error::skipped_field(key))
                }
            }

            #[inline(always)]
            fn end(self) -> Result<()> {
                Ok(())
            }
        }
    )*};
}

struct_like!(SerializeStruct, SerializeStructVariant);
