//! The decoder proper: MessagePack bytes in memory into the serde data
//! model, with the fast paths the hot types take (integers, floats, short
//! strings, fixmaps and fixarrays) inlined and the rest out of line.
//! [`Deserializer`](super::Deserializer) runs one over its input, borrowing
//! ([`Borrowed`]) or copying ([`Copied`]) as the input allows.

use std::marker::PhantomData;

use msgpack_core::serde_ext::EXT_STRUCT_NAME;
use msgpack_core::{marker, ErrorKind, Family, Limits, Owed, Reader};
use serde::de::{self, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

use super::access::{EnumAccess, Items};
use super::ext::ExtDeserializer;
use crate::int_head::int_head;
use crate::raw::RAW_VALUE_NAME;
use crate::{Error, Result};

/// Hands strings and bytes to a visitor: borrowed from the input when it
/// lives for `'de`, copied (transient) otherwise.
pub(crate) trait Strings<'a, 'de> {
    fn visit_str<V: Visitor<'de>>(visitor: V, s: &'a str) -> Result<V::Value>;
    fn visit_bytes<V: Visitor<'de>>(visitor: V, b: &'a [u8]) -> Result<V::Value>;
}

/// Input that outlives the deserialized value: zero-copy.
pub(crate) struct Borrowed;

/// Input in a scratch buffer: visitors must copy what they keep.
pub(crate) struct Copied;

impl<'de> Strings<'de, 'de> for Borrowed {
    #[inline]
    fn visit_str<V: Visitor<'de>>(visitor: V, s: &'de str) -> Result<V::Value> {
        visitor.visit_borrowed_str(s)
    }

    #[inline]
    fn visit_bytes<V: Visitor<'de>>(visitor: V, b: &'de [u8]) -> Result<V::Value> {
        visitor.visit_borrowed_bytes(b)
    }
}

impl<'a, 'de> Strings<'a, 'de> for Copied {
    #[inline]
    fn visit_str<V: Visitor<'de>>(visitor: V, s: &'a str) -> Result<V::Value> {
        visitor.visit_str(s)
    }

    #[inline]
    fn visit_bytes<V: Visitor<'de>>(visitor: V, b: &'a [u8]) -> Result<V::Value> {
        visitor.visit_bytes(b)
    }
}

/// The deserializer proper, over bytes that are all in memory.
pub(crate) struct Decoder<'a, M> {
    reader: Reader<'a>,
    /// How many more containers may open inside the current one.
    depth_left: usize,
    /// How many more values may be read. Containers take their elements'
    /// share when they open, so single values need no count of their own.
    values_left: usize,
    /// Elements that open containers still owe, across all of them: never
    /// more than the remaining input holds.
    owed: Owed,
    /// What `is_human_readable()` answers.
    human_readable: bool,
    mode: PhantomData<M>,
}

impl<'a, M> Decoder<'a, M> {
    #[inline]
    pub(crate) fn new(input: &'a [u8], limits: Limits) -> Result<Self> {
        Decoder::starting_at(input, 0, limits)
    }

    /// A decoder over `input` for one value at offset `pos`.
    #[inline]
    pub(crate) fn starting_at(input: &'a [u8], pos: usize, limits: Limits) -> Result<Self> {
        let mut reader = Reader::with_limits(input, limits)?;
        reader.take(pos)?;
        // The value itself counts.
        let Some(values_left) = limits.values().checked_sub(1) else {
            let limit = limits.values();
            return Err(Error::wire(ErrorKind::ValueLimitExceeded { limit }, pos));
        };
        Ok(Decoder {
            reader,
            depth_left: limits.depth(),
            values_left,
            owed: Owed::new(0),
            human_readable: false,
            mode: PhantomData,
        })
    }

    /// Sets what `is_human_readable()` answers.
    pub(crate) fn human_readable(mut self, human_readable: bool) -> Self {
        self.human_readable = human_readable;
        self
    }

    pub(crate) fn position(&self) -> usize {
        self.reader.position()
    }

    /// Fails unless all input was consumed.
    pub(crate) fn end(&self) -> Result<()> {
        Ok(self.reader.finish()?)
    }

    /// The offset of the value about to be read.
    #[inline(always)]
    fn begin(&self) -> usize {
        self.reader.position()
    }

    /// Opens a container of `len` elements of `width` values each, at
    /// `start`: checks depth, that the rest of the input could hold it,
    /// and takes its values from the value limit.
    #[inline]
    fn open(&mut self, start: usize, len: u32, width: u64) -> Result<()> {
        if self.depth_left == 0 {
            let limit = self.reader.limits().depth();
            return Err(Error::wire(ErrorKind::DepthLimitExceeded { limit }, start));
        }
        let values = len as u64 * width;
        let Some(owed) = self.owed.claimed(values, self.reader.remaining_len()) else {
            let end = self.reader.input().len();
            return Err(Error::wire(ErrorKind::UnexpectedEof, end));
        };
        // Below the remaining input length, so it fits in a usize.
        let values = values as usize;
        if values > self.values_left {
            let limit = self.reader.limits().values();
            return Err(Error::wire(ErrorKind::ValueLimitExceeded { limit }, start));
        }
        self.values_left -= values;
        self.owed = owed;
        self.depth_left -= 1;
        Ok(())
    }

    #[inline]
    fn close(&mut self) {
        self.depth_left += 1;
    }

    /// `count` owed elements are about to be read.
    #[inline]
    pub(super) fn pay(&mut self, count: u64) {
        self.owed.pay(count);
    }
}

impl<'a, M> Decoder<'a, M> {
    /// Opens an array (`ARRAY`) of `len` elements or a map (`MAP`) of
    /// `len` pairs at `start` and visits it, checking the visitor took
    /// them all.
    #[inline(always)]
    fn visit_items<'de, V: Visitor<'de>, const IS_MAP: bool>(
        &mut self,
        start: usize,
        len: u32,
        visitor: V,
    ) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        self.open(start, len, if IS_MAP { 2 } else { 1 })?;
        let mut items = Items {
            de: self,
            left: len,
        };
        let value = if IS_MAP {
            visitor.visit_map(&mut items)?
        } else {
            visitor.visit_seq(&mut items)?
        };
        if items.left > 0 {
            let fewer = if IS_MAP {
                "fewer entries in map"
            } else {
                "fewer elements in array"
            };
            return Err(de::Error::invalid_length(len as usize, &fewer));
        }
        self.close();
        Ok(value)
    }

    /// The `N` bytes after the marker byte `first`, read, when `first` is
    /// the next byte and the input holds them; `None` (reading nothing)
    /// otherwise.
    #[inline(always)]
    fn fixed_width<const N: usize>(&mut self, first: u8) -> Option<[u8; N]> {
        let rest = self.reader.remaining();
        if rest.len() <= N || rest[0] != first {
            return None;
        }
        self.reader.take_byte().ok()?;
        self.reader.take_array().ok()
    }

    /// The next value, read, if it takes one byte (nil, booleans,
    /// fixints).
    #[inline(always)]
    fn one_byte_value(&mut self) -> Option<u8> {
        match self.reader.remaining().first() {
            Some(
                &byte @ (marker::FIXPOS..=marker::FIXPOS_MAX
                | marker::NIL
                | marker::FALSE
                | marker::TRUE
                | marker::FIXNEG..=marker::FIXNEG_MAX),
            ) => {
                self.reader.take_byte().ok()?;
                Some(byte)
            }
            _ => None,
        }
    }

    /// Skips one value of any size: out of line, for the slow path of
    /// `deserialize_ignored_any`.
    #[inline(never)]
    fn skip_value<'de, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let start = self.begin();
        self.reader
            .skip()
            .map_err(Error::from)
            .and_then(|()| visitor.visit_unit())
            .map_err(|error| error.at(start))
    }

    /// One value of any type: [`Deserializer::deserialize_any`] out of
    /// line, for the slow paths of the inlined methods.
    #[inline(never)]
    fn any_value<'de, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        let start = self.begin();
        self.any(start, visitor).map_err(|error| error.at(start))
    }

    /// Visits the number or boolean whose marker `byte` is at the reader
    /// (one for which [`is_scalar`] holds).
    #[inline(always)]
    fn scalar<'de, V: Visitor<'de>>(&mut self, byte: u8, visitor: V) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        let r = &mut self.reader;
        r.take_byte()?;
        match byte {
            marker::FIXPOS..=marker::FIXPOS_MAX => visitor.visit_u64(byte as u64),
            marker::FIXNEG..=marker::FIXNEG_MAX => visitor.visit_i64(byte as i8 as i64),
            marker::FALSE | marker::TRUE => visitor.visit_bool(byte == marker::TRUE),
            marker::F32 => visitor.visit_f32(f32::from_be_bytes(r.take_array()?)),
            marker::F64 => visitor.visit_f64(f64::from_be_bytes(r.take_array()?)),
            marker::U8 => visitor.visit_u64(r.take_byte()? as u64),
            marker::U16 => visitor.visit_u64(u16::from_be_bytes(r.take_array()?) as u64),
            marker::U32 => visitor.visit_u64(u32::from_be_bytes(r.take_array()?) as u64),
            marker::U64 => visitor.visit_u64(u64::from_be_bytes(r.take_array()?)),
            marker::I8 => visit_signed(visitor, r.take_byte()? as i8 as i64),
            marker::I16 => visit_signed(visitor, i16::from_be_bytes(r.take_array()?) as i64),
            marker::I32 => visit_signed(visitor, i32::from_be_bytes(r.take_array()?) as i64),
            _ => visit_signed(visitor, i64::from_be_bytes(r.take_array()?)),
        }
    }

    /// Visits the value at the reader: a number or a boolean straight
    /// from its marker, anything else through `any`.
    #[inline(always)]
    fn scalar_or_any<'de, V: Visitor<'de>>(&mut self, start: usize, visitor: V) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        let byte = self.reader.peek_byte()?;
        if is_scalar(byte) {
            self.scalar(byte, visitor)
        } else {
            self.any(start, visitor)
        }
    }

    /// [`scalar_or_any`](Self::scalar_or_any) as a call: the whole
    /// dispatch, inlined into every integer read, kept them from inlining
    /// into the visitors around them.
    #[inline(never)]
    fn scalar_or_any_out_of_line<'de, V: Visitor<'de>>(
        &mut self,
        start: usize,
        visitor: V,
    ) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        self.scalar_or_any(start, visitor)
    }

    /// Reads 16 bytes of bin, the form rmp-serde gives 128-bit integers;
    /// `None` (reading nothing) when the next value is something else.
    fn wide_int(&mut self) -> Result<Option<[u8; 16]>> {
        if self.reader.peek_byte()? != marker::BIN8 {
            return Ok(None);
        }
        let start = self.reader.position();
        let bytes = self.reader.read_bin()?;
        match <[u8; 16]>::try_from(bytes) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(_) => Err(de::Error::invalid_length(
                bytes.len(),
                &"16 bytes of a 128-bit integer",
            ))
            .map_err(|e: Error| e.at(start)),
        }
    }

    /// The bytes of the fixstr or str 8 whose marker `byte` is at the
    /// reader, read; `None`, reading nothing, for any other marker.
    #[inline(always)]
    fn short_str(&mut self, byte: u8) -> Result<Option<&'a [u8]>> {
        if (marker::FIXSTR..=marker::FIXSTR_MAX).contains(&byte) {
            self.reader.take_byte()?;
            Ok(Some(self.reader.take((byte & 0x1f) as usize)?))
        } else if byte == marker::STR8 {
            let [_, len] = self.reader.take_array()?;
            Ok(Some(self.reader.take(len as usize)?))
        } else {
            Ok(None)
        }
    }

    /// Visits the value whose marker `byte` is at the reader: a fixstr
    /// or a str 8 directly, anything else through `any`.
    #[inline(always)]
    fn short_str_or_any<'de, V: Visitor<'de>>(
        &mut self,
        start: usize,
        byte: u8,
        visitor: V,
    ) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        match self.short_str(byte)? {
            Some(bytes) => self.visit_utf8(start, bytes, visitor),
            None => self.any(start, visitor),
        }
    }

    /// Visits string bytes that started at `start`, checking UTF-8.
    #[inline]
    fn visit_utf8<'de, V: Visitor<'de>>(
        &mut self,
        start: usize,
        bytes: &'a [u8],
        visitor: V,
    ) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        match msgpack_core::decode::str_from_utf8(bytes) {
            Ok(s) => M::visit_str(visitor, s),
            Err(_) => Err(Error::wire(ErrorKind::InvalidUtf8, start)),
        }
    }

    /// Visits the value at the reader, whatever its type: numbers,
    /// booleans and short strings first, as they are the most common.
    fn any<'de, V: Visitor<'de>>(&mut self, start: usize, visitor: V) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        let byte = self.reader.peek_byte()?;
        if is_scalar(byte) {
            return self.scalar(byte, visitor);
        }
        if let Some(bytes) = self.short_str(byte)? {
            return self.visit_utf8(start, bytes, visitor);
        }
        match self.container_header(byte)? {
            Some((is_map, len)) => self.visit_container(start, is_map, len, visitor),
            None => self.not_container(start, visitor),
        }
    }

    /// Reads the header of the array or map that starts with `byte`:
    /// whether it is a map, and its length. `None` (reading nothing) for
    /// any other value.
    #[inline(always)]
    fn container_header(&mut self, byte: u8) -> Result<Option<(bool, u32)>> {
        Ok(Some(match byte {
            marker::FIXMAP..=marker::FIXMAP_MAX => {
                self.reader.take_byte()?;
                (true, (byte & 0x0f) as u32)
            }
            marker::FIXARRAY..=marker::FIXARRAY_MAX => {
                self.reader.take_byte()?;
                (false, (byte & 0x0f) as u32)
            }
            marker::MAP16 | marker::MAP32 => (true, self.reader.read_map_len()?),
            marker::ARRAY16 | marker::ARRAY32 => (false, self.reader.read_array_len()?),
            _ => return Ok(None),
        }))
    }

    /// Visits the array (`is_map` false) or map of `len` whose header has
    /// been read. `any` and `deserialize_any` each reach it from one call
    /// site, whatever the header's form, so a visitor's `visit_seq` and
    /// `visit_map` (inlined: a derived struct's field reads) are compiled
    /// once per caller, not once per form.
    #[inline(always)]
    fn visit_container<'de, V: Visitor<'de>>(
        &mut self,
        start: usize,
        is_map: bool,
        len: u32,
        visitor: V,
    ) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        if is_map {
            self.visit_items::<_, MAP>(start, len, visitor)
        } else {
            self.visit_items::<_, ARRAY>(start, len, visitor)
        }
    }

    /// Visits the value at the reader, which is not an array or a map.
    #[inline(never)]
    fn not_container<'de, V: Visitor<'de>>(&mut self, start: usize, visitor: V) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        let byte = self.reader.peek_byte()?;
        if is_scalar(byte) {
            return self.scalar(byte, visitor);
        }
        if byte == marker::NIL {
            self.reader.take_byte()?;
            return visitor.visit_unit();
        }
        match self.reader.peek_marker()?.family() {
            Family::Str => M::visit_str(visitor, self.reader.read_str()?),
            Family::Bin => M::visit_bytes(visitor, self.reader.read_bin()?),
            Family::Ext => {
                let (ext_type, data) = self.reader.read_ext()?;
                visitor.visit_newtype_struct(ExtDeserializer::<M> {
                    ext_type,
                    data,
                    mode: PhantomData,
                })
            }
            Family::Reserved => Err(Error::wire(ErrorKind::ReservedMarker, start)),
            // Numbers, booleans and nil are the tests above; arrays and
            // maps are `container_header`'s.
            Family::Nil
            | Family::Bool
            | Family::Int
            | Family::F32
            | Family::F64
            | Family::Array
            | Family::Map => unreachable!("decoded from the byte above"),
        }
    }
}

/// `visit_items`'s kinds of container.
const ARRAY: bool = false;
const MAP: bool = true;

/// Whether a marker byte starts a number or a boolean: one load from a
/// table rather than five range checks.
#[inline(always)]
fn is_scalar(byte: u8) -> bool {
    const SCALAR: [bool; 256] = {
        let mut table = [false; 256];
        let mut byte = 0;
        while byte < 256 {
            table[byte] = matches!(
                byte as u8,
                marker::FIXPOS..=marker::FIXPOS_MAX
                    | marker::FIXNEG..=marker::FIXNEG_MAX
                    | marker::FALSE
                    | marker::TRUE
                    | marker::F32..=marker::I64
            );
            byte += 1;
        }
        table
    };
    SCALAR[byte as usize]
}

/// A signed integer: non-negative values are unsigned, whatever their format.
#[inline(always)]
fn visit_signed<'de, V: Visitor<'de>>(visitor: V, n: i64) -> Result<V::Value> {
    match u64::try_from(n) {
        Ok(n) => visitor.visit_u64(n),
        Err(_) => visitor.visit_i64(n),
    }
}

/// Runs `body` as the decoding of one value: gives errors without an
/// offset the value's offset. The body runs in a closure, so an early
/// `return` or `?` in it still gets the offset.
macro_rules! one_value {
    ($self:ident, |$start:ident| $body:expr) => {{
        let $start = $self.begin();
        #[allow(clippy::redundant_closure_call)]
        let result: Result<_> = (|| $body)();
        result.map_err(|error| error.at($start))
    }};
}

/// Integers: a positive fixint after one comparison; with 9 bytes at
/// hand, every other integer form through one table lookup, without a
/// branch on the form; everything else through `scalar_or_any`, out of
/// line so that the fast paths inline into the struct around them.
///
/// A table-read integer goes to the visit its target takes without a
/// second look, whatever its sign: `visit_i64` for a signed target when
/// it fits, `visit_u64` for an unsigned one unless negative. Branching on
/// the sign instead mispredicts on data of mixed signs. The other visit
/// (usually the visitor's out-of-range error) is left to the general
/// path, so that its code is not inlined with the fast one.
macro_rules! integers {
    ($($method:ident => $signed:literal,)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let start = self.begin();
            let rest = self.reader.remaining();
            let result = match rest.first() {
                Some(&byte @ marker::FIXPOS..=marker::FIXPOS_MAX) => {
                    self.reader.consume(1);
                    visitor.visit_u64(byte as u64)
                }
                _ => match int_head(rest) {
                    // Fits in i64: negative, or without the top bit. One comparison,
                    // true on in-range data, where two branches (on the sign, then
                    // on the bit) would mispredict on mixed signs.
                    Some(head) if $signed && (head.value >> 63 == head.negative as u64) => {
                        self.reader.consume(head.len);
                        visitor.visit_i64(head.value as i64)
                    }
                    Some(head) if !$signed && !head.negative => {
                        self.reader.consume(head.len);
                        visitor.visit_u64(head.value)
                    }
                    _ => self.scalar_or_any_out_of_line(start, visitor),
                },
            };
            result.map_err(|error| error.at(start))
        }
    )*};
}

/// Floats: the float of the method's own width straight to the visitor,
/// everything else through `any`. The fast path is a few instructions,
/// inlined with serde's `f32` / `f64` impls around it (a mesh or a series
/// is mostly floats); the rest is out of line.
macro_rules! floats {
    ($($method:ident($marker:path) => $ty:ident, $visit:ident;)*) => {$(
        #[inline(always)]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let start = self.reader.position();
            match self.fixed_width::<{ core::mem::size_of::<$ty>() }>($marker) {
                Some(bytes) => visitor
                    .$visit::<Error>($ty::from_be_bytes(bytes))
                    .map_err(|error| error.at(start)),
                None => self.any_value(visitor),
            }
        }
    )*};
}

/// Strings: a fixstr or str 8 straight to the visitor, everything else
/// through `any`.
macro_rules! strings {
    ($($method:ident)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let start = self.begin();
            let byte = self.reader.peek_byte()?;
            let result = self.short_str_or_any(start, byte, visitor);
            result.map_err(|error| error.at(start))
        }
    )*};
}

impl<'de, 'a, M: Strings<'a, 'de>> de::Deserializer<'de> for &mut Decoder<'a, M> {
    type Error = Error;

    /// An array or a map (structs, derived or not, come through here)
    /// straight to the visitor, everything else out of line.
    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.begin();
        let byte = self.reader.peek_byte()?;
        let result = match self.container_header(byte) {
            Ok(Some((is_map, len))) => self.visit_container(start, is_map, len, visitor),
            Ok(None) => self.not_container(start, visitor),
            Err(error) => Err(error),
        };
        result.map_err(|error| error.at(start))
    }

    /// nil as `None`, anything else as `Some`. Inlined: every optional
    /// field, and every field of a tag-indexed array, comes through here.
    #[inline(always)]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.reader.remaining().first() == Some(&marker::NIL) {
            let start = self.begin();
            self.reader.take_byte()?;
            visitor
                .visit_none::<Error>()
                .map_err(|error| error.at(start))
        } else {
            visitor.visit_some(self)
        }
    }

    /// Arrays as usual, and also bin, so a plain `Vec<u8>` or `[u8; N]`
    /// reads binary data written by other languages.
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        one_value!(self, |start| match self.reader.peek_marker()?.family() {
            Family::Bin => {
                let bytes = self.reader.read_bin()?;
                visitor.visit_seq(de::value::SeqDeserializer::new(bytes.iter().copied()))
            }
            _ => self.any(start, visitor),
        })
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        match name {
            EXT_STRUCT_NAME => {
                one_value!(self, |start| match self.reader.peek_marker()?.family() {
                    Family::Ext => self.any(start, visitor),
                    _ => {
                        let found = self.reader.read_token()?;
                        Err(de::Error::invalid_type(
                            unexpected(&found),
                            &"a MessagePack extension",
                        ))
                    }
                })
            }
            RAW_VALUE_NAME => one_value!(self, |start| {
                self.reader.skip()?;
                let raw = &self.reader.input()[start..self.reader.position()];
                M::visit_bytes(visitor, raw)
            }),
            _ => visitor.visit_newtype_struct(self),
        }
    }

    /// A unit variant as its name or index; any other variant as a map of
    /// one entry from name or index to payload.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        one_value!(self, |start| match self.reader.peek_marker()?.family() {
            Family::Str => {
                let variant = self.reader.read_str()?;
                visitor.visit_enum(variant.into_deserializer())
            }
            Family::Int => {
                let index = self.reader.read_int::<u32>()?;
                visitor.visit_enum(index.into_deserializer())
            }
            Family::Map => {
                let len = self.reader.read_map_len()?;
                if len != 1 {
                    Err(de::Error::invalid_length(
                        len as usize,
                        &"a map of one entry for an enum variant",
                    ))
                } else {
                    self.open(start, len, 2)?;
                    let value = visitor.visit_enum(EnumAccess { de: &mut *self });
                    self.close();
                    value
                }
            }
            _ => {
                let found = self.reader.read_token()?;
                Err(de::Error::invalid_type(
                    unexpected(&found),
                    &"an enum variant (name, index or one-entry map)",
                ))
            }
        })
    }

    /// nil, and also an empty array, which rmp-serde writes for `()` and
    /// unit structs.
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        one_value!(self, |start| match self.reader.peek_byte()? {
            marker::FIXARRAY => {
                self.reader.take_byte()?;
                visitor.visit_unit()
            }
            _ => self.any(start, visitor),
        })
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    /// An integer, and also 16 bytes of bin (big-endian), which is how
    /// rmp-serde writes `i128`.
    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        one_value!(self, |start| match self.wide_int()? {
            Some(bytes) => visitor.visit_i128(i128::from_be_bytes(bytes)),
            None => self.any(start, visitor),
        })
    }

    /// As [`deserialize_i128`](Self::deserialize_i128), for `u128`.
    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        one_value!(self, |start| match self.wide_int()? {
            Some(bytes) => visitor.visit_u128(u128::from_be_bytes(bytes)),
            None => self.any(start, visitor),
        })
    }

    /// Skips the value: a one-byte value (the nil of a gap in a
    /// tag-indexed array, most often) inline, anything else out of line.
    #[inline(always)]
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.reader.position();
        if self.one_byte_value().is_some() {
            return visitor
                .visit_unit::<Error>()
                .map_err(|error| error.at(start));
        }
        self.skip_value(visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.begin();
        self.scalar_or_any(start, visitor)
            .map_err(|error| error.at(start))
    }

    integers! {
        deserialize_i8 => true, deserialize_i16 => true,
        deserialize_i32 => true, deserialize_i64 => true,
        deserialize_u8 => false, deserialize_u16 => false,
        deserialize_u32 => false, deserialize_u64 => false,
    }

    floats! {
        deserialize_f32(marker::F32) => f32, visit_f32;
        deserialize_f64(marker::F64) => f64, visit_f64;
    }

    strings! {
        deserialize_str deserialize_string
    }

    /// Field names and field numbers: a fixstr, a str 8 or a positive
    /// fixint straight to the visitor, everything else through `any`.
    /// Always inlined: derived structs read every key through here.
    #[inline(always)]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.begin();
        let byte = self.reader.peek_byte()?;
        let result = match byte {
            marker::FIXPOS..=marker::FIXPOS_MAX => {
                self.reader.take_byte()?;
                visitor.visit_u64(byte as u64)
            }
            _ => self.short_str_or_any(start, byte, visitor),
        };
        result.map_err(|error| error.at(start))
    }

    /// Bin, and also a str: its text when it is UTF-8, else its bytes as
    /// they are (the old "raw" type, from before str and bin were apart,
    /// held any bytes), so a bytes target reads them. Anything else
    /// through `any`.
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        one_value!(self, |start| match self.reader.peek_marker()?.family() {
            Family::Str => {
                let len = self.reader.read_str_len()?;
                let bytes = self.reader.take(len as usize)?;
                match msgpack_core::decode::str_from_utf8(bytes) {
                    Ok(s) => M::visit_str(visitor, s),
                    Err(_) => M::visit_bytes(visitor, bytes),
                }
            }
            _ => self.any(start, visitor),
        })
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    forward_to_deserialize_any! {
        char map struct
    }
}

/// What serde's messages call a token found where another was expected.
fn unexpected<'t>(token: &'t msgpack_core::Token<'_>) -> de::Unexpected<'t> {
    use msgpack_core::Token;
    match *token {
        Token::Nil => de::Unexpected::Unit,
        Token::Bool(b) => de::Unexpected::Bool(b),
        Token::Int(n) => match n.as_u64() {
            Some(n) => de::Unexpected::Unsigned(n),
            None => de::Unexpected::Signed(n.as_i128() as i64),
        },
        Token::F32(x) => de::Unexpected::Float(x as f64),
        Token::F64(x) => de::Unexpected::Float(x),
        Token::Str(s) => de::Unexpected::Str(s),
        Token::Bin(b) => de::Unexpected::Bytes(b),
        Token::Array(_) => de::Unexpected::Seq,
        Token::Map(_) => de::Unexpected::Map,
        Token::Ext(..) => de::Unexpected::Other("extension"),
    }
}
