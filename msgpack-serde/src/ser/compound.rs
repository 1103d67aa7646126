//! The compound values being serialized: sequences and maps
//! ([`Compound`], buffered when their length is not known ahead), and
//! structs and tuples ([`Fields`]).

use msgpack_core::{encode, marker, Write};
use serde::ser::{self, Serialize};

use super::field_room::FieldRoom;
use super::{scalars, write_str, Configured, Serializer, StructMode};
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

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

/// The state of a struct or tuple being serialized. serde gives their
/// length up front, so the header is written at the start and fields go
/// straight out.
///
/// When the serializer writes into a vector, the header and the fields
/// that are numbers, bools or strings go into a room reserved at the end
/// of it (`scalars.rs`), kept between fields as a [`PausedRoom`]: a run
/// of such fields checks the capacity once and stores the vector's length
/// once, where each write through the vector does both. A field of any
/// other type ends the room and goes through the serializer.
///
/// Nothing may write `ser.out` while `room.is_open()`: the paused room
/// is taken up again over the vector as it was left (`FieldRoom::open`).
#[doc(hidden)]
#[derive(Debug)]
pub struct Fields<'a, W, F = Configured> {
    pub(super) ser: &'a mut Serializer<W, F>,
    /// The room the fields since the header or the last field through
    /// the serializer were written into.
    room: FieldRoom,
    /// The fields not yet written, as the header counted them.
    left: usize,
    /// Whether fields are written with their names (a map).
    named: bool,
}

/// The most a struct's room reserves ahead of its fields.
const MAX_AHEAD: usize = 4096;

/// The most a number takes (a marker and 8 bytes).
const MOST_PER_FIELD: usize = 9;

/// The most a named field of a number takes: a name of up to 8 bytes
/// (written as 9), then the number.
const MOST_PER_NAMED_FIELD: usize = 9 + MOST_PER_FIELD;

/// The room a string field of a named struct keeps after itself: the
/// next field's name and number, if it is one.
const KEPT_AFTER_STRING: usize = MOST_PER_NAMED_FIELD;

impl<'a, W: Write, F: StructMode> Fields<'a, W, F>
where
    Error: From<W::Error>,
{
    /// Writes the header of a struct (a map when `is_map`) or tuple of
    /// `len` fields.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) fn start(ser: &'a mut Serializer<W, F>, len: usize, is_map: bool) -> Result<Self> {
        let mut fields = Fields {
            ser,
            room: FieldRoom::default(),
            left: len,
            named: is_map,
        };
        // A named struct's first string keeps room for a field after it
        // (`field`): reserved here, so that a short one needs no check.
        let kept = if is_map { KEPT_AFTER_STRING } else { 0 };
        let ahead = 5 + fields.ahead() + kept;
        if FieldRoom::opens_for(fields.ser) {
            let mut out = fields.room.open(fields.ser, ahead);
            if is_map {
                out.map_len(len)?;
            } else {
                out.array_len(len)?;
            }
            fields.room.keep(out);
            return Ok(fields);
        }
        let out = &mut fields.ser.out;
        let fix = if is_map {
            marker::FIXMAP
        } else {
            marker::FIXARRAY
        };
        if len <= 15 {
            out.write_u8(fix | len as u8)?;
        } else if is_map {
            encode::write_map_len(out, len)?;
        } else {
            encode::write_array_len(out, len)?;
        }
        Ok(fields)
    }

    /// What the fields left take at most if they are all numbers: the
    /// room reserved for them, so that the compiler can tell that writes
    /// of fixed size fit and check nothing.
    #[inline(always)]
    fn ahead(&self) -> usize {
        let most_per_field = if self.named {
            MOST_PER_NAMED_FIELD
        } else {
            MOST_PER_FIELD
        };
        self.left.saturating_mul(most_per_field).min(MAX_AHEAD)
    }

    /// Writes one field: its name first when `name` is given.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn field<T: ?Sized + Serialize>(
        &mut self,
        name: Option<&'static str>,
        value: &T,
    ) -> Result<()> {
        let ahead = self.ahead();
        self.left = self.left.saturating_sub(1);
        if scalars::is_scalar::<T>() && FieldRoom::opens_for(self.ser) {
            // In a named struct a string is followed by a name at least
            // (unless last): checked with the string, the room for it
            // spares the name its own check.
            let keep = if self.named {
                self.ahead().min(KEPT_AFTER_STRING)
            } else {
                0
            };
            let mut out = self.room.open(self.ser, ahead);
            out.keep = keep;
            // No closures here: they would not be inlined.
            let mut result = Ok(());
            if let Some(name) = name {
                result = out.field_name(name);
            }
            if result.is_ok() {
                if let Some(put) = scalars::put(value, &mut out) {
                    result = put;
                }
            }
            self.room.keep(out);
            return result;
        }
        if self.room.is_open() {
            let mut out = self.room.open(self.ser, 0);
            let mut named = Ok(());
            if let Some(name) = name {
                named = out.field_name(name);
            }
            out.finish();
            named?;
        } else if let Some(name) = name {
            write_field_name(&mut self.ser.out, name)?;
        }
        value.serialize(&mut *self.ser)
    }
}

/// A struct ended early (an error returned from one of its fields, or an
/// `end` never called) keeps what it wrote, as writes through the vector
/// would have.
impl<W, F> Drop for Fields<'_, W, F> {
    #[inline(always)]
    fn drop(&mut self) {
        self.room.end(self.ser);
    }
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
                self.field(None, value)
            }

            #[inline(always)]
            fn end(mut self) -> Result<()> {
                self.room.end(self.ser);
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

    /// Inlined when optimized, unlike serde's default: derived structs
    /// write every field through here, and a constant key then folds to
    /// one byte.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn serialize_entry<K: ?Sized + Serialize, V: ?Sized + Serialize>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        self.element(key)?;
        self.map_value(value)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn end(self) -> Result<()> {
        self.finish()
    }
}

/// Writes a struct's field name. Inlined into the struct's `Serialize`,
/// where the name is a constant: a name of up to 8 bytes and its header
/// fold to one constant of nine bytes, written in one fixed-size copy.
#[cfg_attr(not(debug_assertions), inline(always))]
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

            #[cfg_attr(not(debug_assertions), inline(always))]
            fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result<()> {
                let name = self.named.then_some(key);
                self.field(name, value)
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
            fn end(mut self) -> Result<()> {
                self.room.end(self.ser);
                Ok(())
            }
        }
    )*};
}

struct_like!(SerializeStruct, SerializeStructVariant);
