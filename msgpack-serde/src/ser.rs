//! The serde [`Serializer`]: the serde data model onto MessagePack, and
//! its struct modes: [`Named`] and [`Compact`] fixed in the serializer's
//! type, [`Configured`] read from its [`Config`].

// Its compound values (sequences, maps, structs) are in `ser/compound.rs`,
// the derive's direct path in `ser/direct.rs`.
//
// The parts of a struct's, map's or sequence's path with large bodies
// (each field's and entry's write in `ser/compound.rs`, `ser/field_room.rs`
// and `ser/direct.rs`, the derive's writers in `__private.rs`, `scalars`'
// type tests and writes, `numbers::collect`) are inlined always only when
// optimized (`cfg_attr(not(debug_assertions), ..)`): an unoptimized build
// keeps every inlined callee's locals in its caller's frame, where each
// field of a struct would hold the write of every scalar type, and a
// nested value pays that frame at every level (`tests/tests/stack_depth.rs`
// holds it to a thread of 1 MiB). Debug assertions stand for "not
// optimized" here: a build that optimizes with them on gets these inlined
// by the compiler's choice only, and the ones that are not generic keep
// `#[inline]` there, so that they can still be inlined into the crate
// that calls them.

use std::io;
use std::marker::PhantomData;

use msgpack_core::serde_ext::EXT_STRUCT_NAME;
use msgpack_core::{encode, marker, Integer, IoWriter, Token, Write};
use serde::ser::{self, Serialize};

use crate::raw::RAW_VALUE_NAME;
use crate::{Config, Error, Result};

/// `serde::Serializer` methods that refuse their value with `$error`:
/// `name(argument types)`, or `name<T>(..)` for one generic over the
/// value's type, returning `Self::Ok` or the type after `->`.
macro_rules! refuse {
    (@ok) => { Self::Ok };
    (@ok $ret:ty) => { $ret };
    ($error:expr; $($method:ident $(<$t:ident>)? ($($ty:ty),*) $(-> $ret:ty)?),* $(,)?) => {$(
        fn $method$(<$t: ?Sized + Serialize>)?(self, $(_: $ty),*) -> Result<refuse!(@ok $($ret)?)> {
            Err($error)
        }
    )*};
}

/// The `serde::Serializer` items of a serializer that takes no compound
/// value (no sequence, tuple, map or struct, no variant with data): the
/// compound types are `Impossible`, ending in `$ok`, and their methods
/// refuse the value with `$error`.
macro_rules! no_compounds {
    ($ok:ty, $error:expr) => {
        type SerializeSeq = Impossible<$ok, Error>;
        type SerializeTuple = Impossible<$ok, Error>;
        type SerializeTupleStruct = Impossible<$ok, Error>;
        type SerializeTupleVariant = Impossible<$ok, Error>;
        type SerializeMap = Impossible<$ok, Error>;
        type SerializeStruct = Impossible<$ok, Error>;
        type SerializeStructVariant = Impossible<$ok, Error>;

        refuse! { $error;
            serialize_newtype_variant<T>(&'static str, u32, &'static str, &T),
            serialize_seq(Option<usize>) -> Self::SerializeSeq,
            serialize_tuple(usize) -> Self::SerializeTuple,
            serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct,
            serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant,
            serialize_map(Option<usize>) -> Self::SerializeMap,
            serialize_struct(&'static str, usize) -> Self::SerializeStruct,
            serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant,
        }
    };
}

/// The `serde::Serializer` items of a serializer that takes bytes alone
/// (an extension's data, a raw value) and writes them in place: `Ok` is
/// `()`, and every method but `serialize_bytes`, `serialize_some` and
/// `serialize_newtype_struct` refuses its value with `$error`.
macro_rules! bytes_only_items {
    ($error:expr) => {
        type Ok = ();
        type Error = Error;

        no_compounds!((), $error);

        refuse! { $error;
            serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
            serialize_i64(i64), serialize_i128(i128), serialize_u8(u8), serialize_u16(u16),
            serialize_u32(u32), serialize_u64(u64), serialize_u128(u128), serialize_f32(f32),
            serialize_f64(f64), serialize_char(char), serialize_str(&str), serialize_none(),
            serialize_unit(), serialize_unit_struct(&'static str),
            serialize_unit_variant(&'static str, u32, &'static str),
        }
    };
}

mod compound;
pub(crate) mod direct;
mod ext;
mod field_room;
mod mode;
mod nil_probe;
mod numbers;
mod raw;
mod scalars;

use compound::Buffered;
pub use compound::{Compound, Fields};
use ext::ExtSerializer;
pub use mode::{Compact, Configured, Named, StructMode};
pub(crate) use nil_probe::writes_nil;
use raw::RawSerializer;

/// A serde `Serializer` writing MessagePack into any
/// [`msgpack_core::Write`] output: `Vec<u8>` or `&mut Vec<u8>` (the fast
/// path, appending in place), [`SliceWriter`](msgpack_core::SliceWriter),
/// [`IoWriter`], `&mut dyn io::Write` or `Box<dyn io::Write>`;
/// [`Serializer::from_writer`] takes any [`std::io::Write`]. Into a
/// vector, sequences of numbers (`Vec<f32>`, `&[i64]`, `VecDeque<u8>`)
/// are written in one loop, with one reservation for all their elements.
///
/// | serde | MessagePack |
/// |---|---|
/// | `bool` | true / false |
/// | `i8`–`i64`, `u8`–`u64` | the smallest integer form; non-negative values in the unsigned family |
/// | `i128`, `u128` | an integer when it fits in 64 bits, else an error |
/// | `f32` / `f64` | float 32 / float 64 |
/// | `char`, `str` | str |
/// | bytes (`serde_bytes`) | bin |
/// | `None`, `()`, unit struct | nil |
/// | `Some(v)`, newtype struct | `v` |
/// | unit variant | its name (its index with [`Config::variants_as_indices`]) |
/// | newtype, tuple and struct variants | `{variant: payload}` |
/// | seq, tuple, tuple struct | array |
/// | map | map, keys of any type |
/// | struct | map keyed by field name (compact: array in field order) |
/// | [`Timestamp`](crate::Timestamp), [`Ext`](crate::Ext) | ext |
///
/// ```
/// use msgpack_serde::{Config, Serializer};
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Point { x: i32, y: i32 }
///
/// let mut serializer = Serializer::with_config(Vec::new(), Config::compact());
/// Point { x: 1, y: -1 }.serialize(&mut serializer).unwrap();
/// assert_eq!(serializer.into_inner(), [0x92, 0x01, 0xff]);
/// ```
///
/// `F` is the struct mode: [`Configured`] (the default) reads
/// [`Config::structs_as_maps`] at each struct; [`Serializer::named`] and
/// [`Serializer::compact`] fix it in the type, which encodes structs
/// faster (as `to_vec` and `to_vec_compact` do).
#[derive(Debug)]
pub struct Serializer<W, F = Configured> {
    out: W,
    config: Config,
    mode: PhantomData<F>,
}

impl<W: Write> Serializer<W>
where
    Error: From<W::Error>,
{
    /// A serializer with the default (named) [`Config`].
    ///
    /// ```
    /// use msgpack_serde::Serializer;
    /// use serde::Serialize;
    ///
    /// let mut serializer = Serializer::new(Vec::new());
    /// ("a", 1).serialize(&mut serializer).unwrap();
    /// assert_eq!(serializer.into_inner(), [0x92, 0xa1, b'a', 0x01]);
    /// ```
    pub fn new(out: W) -> Self {
        Serializer::with_config(out, Config::named())
    }

    /// A serializer with `config`.
    ///
    /// ```
    /// use msgpack_serde::{Config, Serializer};
    /// use serde::Serialize;
    ///
    /// #[derive(Serialize)]
    /// struct Point { x: i8 }
    ///
    /// let mut serializer = Serializer::with_config(Vec::new(), Config::compact());
    /// Point { x: -1 }.serialize(&mut serializer).unwrap();
    /// assert_eq!(serializer.into_inner(), [0x91, 0xff]);
    /// ```
    pub fn with_config(out: W, config: Config) -> Self {
        Serializer::in_mode(out, config)
    }

    /// A serializer writing structs as maps keyed by field name, fixed in
    /// its type: faster on structs than [`Serializer::new`], which reads
    /// the mode from its configuration at each one. `to_vec` and
    /// `to_writer` serialize so.
    ///
    /// ```
    /// use msgpack_serde::Serializer;
    /// use serde::Serialize;
    ///
    /// #[derive(Serialize)]
    /// struct Point { x: i8 }
    ///
    /// let mut out = Vec::new();
    /// for x in [1, 2] {
    ///     out.clear(); // one buffer, reused
    ///     Point { x }.serialize(&mut Serializer::named(&mut out))?;
    ///     assert_eq!(out, [0x81, 0xa1, b'x', x as u8]);
    /// }
    /// # Ok::<(), msgpack_serde::Error>(())
    /// ```
    pub fn named(out: W) -> Serializer<W, Named> {
        Serializer::in_mode(out, Config::named())
    }

    /// A serializer writing structs as arrays in field order, fixed in
    /// its type: faster on structs than
    /// `Serializer::with_config(out, Config::compact())`. `to_vec_compact`
    /// and `to_writer_compact` serialize so.
    ///
    /// ```
    /// use msgpack_serde::Serializer;
    /// use serde::Serialize;
    ///
    /// #[derive(Serialize)]
    /// struct Point { x: i8, y: i8 }
    ///
    /// let mut out = Vec::new();
    /// Point { x: 1, y: -1 }.serialize(&mut Serializer::compact(&mut out))?;
    /// assert_eq!(out, [0x92, 0x01, 0xff]);
    /// # Ok::<(), msgpack_serde::Error>(())
    /// ```
    pub fn compact(out: W) -> Serializer<W, Compact> {
        Serializer::in_mode(out, Config::compact())
    }
}

impl<W, F: StructMode> Serializer<W, F> {
    /// A serializer in mode `F` under `config`, whose struct mode is made
    /// `F`'s.
    #[inline(always)]
    pub(crate) fn in_mode(out: W, config: Config) -> Self {
        Serializer {
            out,
            config: F::agree(config),
            mode: PhantomData,
        }
    }
}

impl<W: io::Write> Serializer<IoWriter<W>> {
    /// A serializer writing into any [`std::io::Write`] (a file, a socket,
    /// `&mut dyn io::Write`), with the default (named) [`Config`]: what
    /// rmp-serde's `Serializer::new(writer)` is. Each value is a few small
    /// writes: wrap files and sockets in a [`std::io::BufWriter`]. Into a
    /// `Vec<u8>`, [`Serializer::new`] is faster.
    ///
    /// ```
    /// use msgpack_serde::Serializer;
    /// use serde::Serialize;
    /// use std::io::Write;
    ///
    /// let mut out = Vec::new();
    /// let writer: &mut dyn Write = &mut out;
    /// let mut serializer = Serializer::from_writer(writer);
    /// ("a", 1).serialize(&mut serializer)?;
    /// assert_eq!(out, [0x92, 0xa1, b'a', 0x01]);
    /// # Ok::<(), msgpack_serde::Error>(())
    /// ```
    pub fn from_writer(writer: W) -> Self {
        Serializer::from_writer_with_config(writer, Config::named())
    }

    /// A serializer writing into any [`std::io::Write`] under `config`.
    ///
    /// ```
    /// use msgpack_serde::{Config, Serializer};
    /// use serde::Serialize;
    ///
    /// #[derive(Serialize)]
    /// struct Point { x: i8 }
    ///
    /// fn save<W: std::io::Write>(writer: W, point: &Point) -> msgpack_serde::Result<W> {
    ///     let mut serializer = Serializer::from_writer_with_config(writer, Config::compact());
    ///     point.serialize(&mut serializer)?;
    ///     Ok(serializer.into_writer())
    /// }
    ///
    /// let cursor = save(std::io::Cursor::new(Vec::new()), &Point { x: -1 })?;
    /// assert_eq!(cursor.into_inner(), [0x91, 0xff]);
    /// # Ok::<(), msgpack_serde::Error>(())
    /// ```
    pub fn from_writer_with_config(writer: W, config: Config) -> Self {
        Serializer::in_mode(IoWriter::new(writer), config)
    }
}

impl<W: io::Write, F: StructMode> Serializer<IoWriter<W>, F> {
    /// Gives back the writer.
    ///
    /// ```
    /// use msgpack_serde::Serializer;
    /// use serde::Serialize;
    ///
    /// let mut serializer = Serializer::from_writer(std::io::Cursor::new(Vec::new()));
    /// true.serialize(&mut serializer)?;
    /// assert_eq!(serializer.into_writer().into_inner(), [0xc3]);
    /// # Ok::<(), msgpack_serde::Error>(())
    /// ```
    pub fn into_writer(self) -> W {
        self.out.into_inner()
    }
}

impl<W, F> Serializer<W, F> {
    /// The settings in force.
    ///
    /// ```
    /// use msgpack_serde::{Config, Serializer};
    ///
    /// let serializer = Serializer::with_config(Vec::new(), Config::compact());
    /// assert_eq!(serializer.config(), Config::compact());
    /// assert_eq!(Serializer::new(Vec::new()).config(), Config::named());
    /// ```
    pub fn config(&self) -> Config {
        self.config
    }

    /// The output.
    ///
    /// ```
    /// use msgpack_serde::Serializer;
    /// use serde::Serialize;
    ///
    /// let mut serializer = Serializer::new(Vec::new());
    /// true.serialize(&mut serializer).unwrap();
    /// assert_eq!(serializer.get_ref(), &[0xc3]);
    /// ```
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// The output, mutably.
    ///
    /// ```
    /// use msgpack_serde::Serializer;
    /// use serde::Serialize;
    ///
    /// let mut serializer = Serializer::new(Vec::new());
    /// 1u8.serialize(&mut serializer).unwrap();
    /// serializer.get_mut().clear(); // reuse the buffer
    /// 2u8.serialize(&mut serializer).unwrap();
    /// assert_eq!(serializer.into_inner(), [0x02]);
    /// ```
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Gives back the output.
    ///
    /// ```
    /// use msgpack_serde::core::SliceWriter;
    /// use msgpack_serde::Serializer;
    /// use serde::Serialize;
    ///
    /// let mut buf = [0u8; 4];
    /// let mut serializer = Serializer::new(SliceWriter::new(&mut buf));
    /// "hi".serialize(&mut serializer).unwrap();
    /// assert_eq!(serializer.into_inner().written(), [0xa2, b'h', b'i']);
    /// ```
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write, F: StructMode> Serializer<W, F>
where
    Error: From<W::Error>,
{
    #[inline]
    fn write_variant(&mut self, index: u32, name: &str) -> Result<()> {
        if self.config.is_variants_as_indices() {
            encode::write_uint(&mut self.out, index as u64)?;
        } else {
            encode::write_str(&mut self.out, name)?;
        }
        Ok(())
    }

    /// Writes an extension from its serde form, `(i8, bytes)`. Out of
    /// line, for the newtype structs that are not extensions.
    #[inline(never)]
    fn write_ext<T: ?Sized + Serialize>(&mut self, parts: &T) -> Result<()> {
        parts.serialize(ExtSerializer::new(&mut self.out, self.config))
    }

    /// Writes the bytes of a [`RawValue`](crate::RawValue) as they are,
    /// after checking they are exactly one value. Out of line, as
    /// [`write_ext`](Self::write_ext).
    #[inline(never)]
    fn write_raw<T: ?Sized + Serialize>(&mut self, raw: &T) -> Result<()> {
        raw.serialize(RawSerializer::new(&mut self.out))
    }

    /// Inlined: with the length known (`Vec`s, maps, derived structs in
    /// map form) the header is one write and the compiler sees there is
    /// no buffer to check per element or to drop at the end.
    #[inline(always)]
    fn start_seq(&mut self, len: Option<usize>, is_map: bool) -> Result<Compound<'_, W, F>> {
        match len {
            Some(len) if is_map => encode::write_map_len(&mut self.out, len)?,
            Some(len) => encode::write_array_len(&mut self.out, len)?,
            None => return Ok(self.start_buffered(is_map)),
        };
        Ok(Compound {
            ser: self,
            buffered: None,
        })
    }

    /// A sequence or map of unknown length, counted into a buffer.
    #[cold]
    #[inline(never)]
    fn start_buffered(&mut self, is_map: bool) -> Compound<'_, W, F> {
        let buffered = Buffered {
            bytes: Vec::new(),
            count: 0,
            is_map,
        };
        Compound {
            ser: self,
            buffered: Some(Box::new(buffered)),
        }
    }

    #[inline(always)]
    fn start_struct(&mut self, len: usize) -> Result<Fields<'_, W, F>> {
        let is_map = F::structs_as_maps(&self.config);
        Fields::start(self, len, is_map)
    }

    #[inline(always)]
    fn start_tuple(&mut self, len: usize) -> Result<Fields<'_, W, F>> {
        Fields::start(self, len, false)
    }
}

macro_rules! serialize_ints {
    ($($method:ident($ty:ty) => $write:ident as $wide:ty;)*) => {$(
        #[inline(always)]
        fn $method(self, v: $ty) -> Result<()> {
            encode::$write(&mut self.out, v as $wide)?;
            Ok(())
        }
    )*};
}

impl<'a, W: Write, F: StructMode> ser::Serializer for &'a mut Serializer<W, F>
where
    Error: From<W::Error>,
{
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, W, F>;
    type SerializeTuple = Fields<'a, W, F>;
    type SerializeTupleStruct = Fields<'a, W, F>;
    type SerializeTupleVariant = Fields<'a, W, F>;
    type SerializeMap = Compound<'a, W, F>;
    type SerializeStruct = Fields<'a, W, F>;
    type SerializeStructVariant = Fields<'a, W, F>;

    #[inline(always)]
    fn serialize_bool(self, v: bool) -> Result<()> {
        encode::write_bool(&mut self.out, v)?;
        Ok(())
    }

    serialize_ints! {
        serialize_i8(i8) => write_int as i64;
        serialize_i16(i16) => write_int as i64;
        serialize_i32(i32) => write_int as i64;
        serialize_i64(i64) => write_int as i64;
        serialize_u8(u8) => write_uint as u64;
        serialize_u16(u16) => write_uint as u64;
        serialize_u32(u32) => write_uint as u64;
        serialize_u64(u64) => write_uint as u64;
    }

    fn serialize_i128(self, v: i128) -> Result<()> {
        let n = Integer::try_from(v).map_err(|_| Error::integer_out_of_range())?;
        encode::write_token(&mut self.out, Token::Int(n))?;
        Ok(())
    }

    fn serialize_u128(self, v: u128) -> Result<()> {
        let n = Integer::try_from(v).map_err(|_| Error::integer_out_of_range())?;
        encode::write_token(&mut self.out, Token::Int(n))?;
        Ok(())
    }

    #[inline(always)]
    fn serialize_f32(self, v: f32) -> Result<()> {
        encode::write_f32(&mut self.out, v)?;
        Ok(())
    }

    #[inline(always)]
    fn serialize_f64(self, v: f64) -> Result<()> {
        encode::write_f64(&mut self.out, v)?;
        Ok(())
    }

    #[inline(always)]
    fn serialize_char(self, v: char) -> Result<()> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }

    #[inline(always)]
    fn serialize_str(self, v: &str) -> Result<()> {
        write_str(&mut self.out, v.as_bytes())
    }

    #[inline(always)]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        encode::write_bin(&mut self.out, v)?;
        Ok(())
    }

    #[inline(always)]
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }

    #[inline(always)]
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }

    #[inline(always)]
    fn serialize_unit(self) -> Result<()> {
        encode::write_nil(&mut self.out)?;
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }

    /// Inlined: a unit variant's name is one short string, cheaper to
    /// write in place than to call for (`benches/RESULTS.md` has the count).
    #[inline]
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.write_variant(index, variant)
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        match name {
            EXT_STRUCT_NAME => self.write_ext(value),
            RAW_VALUE_NAME => self.write_raw(value),
            _ => value.serialize(self),
        }
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        encode::write_map_len(&mut self.out, 1)?;
        self.write_variant(index, variant)?;
        value.serialize(self)
    }

    #[inline]
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a, W, F>> {
        self.start_seq(len, false)
    }

    /// serde's own `collect_seq`, but for sequences of numbers of known
    /// length into a vector, which are written in one loop
    /// (`ser/numbers.rs`).
    #[inline]
    fn collect_seq<I>(self, items: I) -> Result<()>
    where
        I: IntoIterator,
        I::Item: Serialize,
    {
        let items = items.into_iter();
        let len = match items.size_hint() {
            (lower, Some(upper)) if lower == upper => Some(lower),
            _ => None,
        };
        let mut items = match len {
            Some(len) => match numbers::collect(self, items, len) {
                Ok(result) => return result,
                Err(items) => items,
            },
            None => items,
        };
        let mut seq = self.serialize_seq(len)?;
        items.try_for_each(|item| ser::SerializeSeq::serialize_element(&mut seq, &item))?;
        ser::SerializeSeq::end(seq)
    }

    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Fields<'a, W, F>> {
        self.start_tuple(len)
    }

    #[inline]
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Fields<'a, W, F>> {
        self.start_tuple(len)
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Fields<'a, W, F>> {
        encode::write_map_len(&mut self.out, 1)?;
        self.write_variant(index, variant)?;
        self.start_tuple(len)
    }

    #[inline]
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a, W, F>> {
        self.start_seq(len, true)
    }

    /// Inlined always: every struct serde_derive writes starts here, and
    /// the compiler left it a call in some builds, which the mesh's small
    /// structs pay for in full (`benches/RESULTS.md`, issue 15).
    #[inline(always)]
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Fields<'a, W, F>> {
        self.start_struct(len)
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Fields<'a, W, F>> {
        encode::write_map_len(&mut self.out, 1)?;
        self.write_variant(index, variant)?;
        self.start_struct(len)
    }

    fn is_human_readable(&self) -> bool {
        self.config.is_human_readable()
    }
}

/// Writes a string: a fixstr's or a str 8's header inline (with the
/// text, after one capacity check), a str 16 or 32 out of line with its text,
/// so that the callers stay small enough for the compiler to inline
/// `String`'s `Serialize` into a struct's, and call nothing on the way
/// to a short string (no registers saved around a call).
#[inline(always)]
pub(super) fn write_str<W: Write>(out: &mut W, bytes: &[u8]) -> Result<()>
where
    Error: From<W::Error>,
{
    if bytes.len() <= 31 {
        out.write_marked(marker::FIXSTR | bytes.len() as u8, bytes)?;
    } else if bytes.len() <= 255 {
        out.write_headed(&[marker::STR8, bytes.len() as u8], bytes)?;
    } else {
        return write_long_str(out, bytes);
    }
    Ok(())
}

/// A str 16 or 32: its header and its text.
#[inline(never)]
fn write_long_str<W: Write>(out: &mut W, bytes: &[u8]) -> Result<()>
where
    Error: From<W::Error>,
{
    encode::write_str_len(out, bytes.len())?;
    out.write_all(bytes)?;
    Ok(())
}
