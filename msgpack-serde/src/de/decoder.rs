//! The serde `Deserializer`: MessagePack into the serde data model.

use std::io;
use std::marker::PhantomData;

use msgpack_core::serde_ext::EXT_STRUCT_NAME;
use msgpack_core::{ErrorKind, Family, Limits, Reader};
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

use crate::int_head::int_head;
use crate::raw::RAW_VALUE_NAME;
use crate::read::{IoRead, SliceRead};
use crate::{Error, Result, StreamDeserializer};

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
    /// Elements that open containers still owe, across all of them. Each
    /// takes at least one byte, so this never exceeds the remaining input:
    /// nested headers cannot each claim the whole rest of it.
    owed: u64,
    /// What `is_human_readable()` answers.
    human_readable: bool,
    mode: PhantomData<M>,
}

impl<'a, M> Decoder<'a, M> {
    pub(crate) fn new(input: &'a [u8], limits: Limits) -> Result<Self> {
        Decoder::starting_at(input, 0, limits)
    }

    /// A decoder over `input` for one value at offset `pos`.
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
            owed: 0,
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
        let owed = self.owed + values;
        if owed > self.reader.remaining_len() as u64 {
            let end = self.reader.input().len();
            return Err(Error::wire(ErrorKind::UnexpectedEof, end));
        }
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
    fn pay(&mut self, count: u64) {
        self.owed -= count;
    }
}

impl<'a, M> Decoder<'a, M> {
    /// Visits an array of `len` elements, checking the visitor took them all.
    #[inline]
    fn visit_array<'de, V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u32,
        visitor: V,
    ) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        self.open(start, len, 1)?;
        let mut items = Items {
            de: self,
            left: len,
        };
        let value = visitor.visit_seq(&mut items)?;
        if items.left > 0 {
            return Err(de::Error::invalid_length(
                len as usize,
                &"fewer elements in array",
            ));
        }
        self.close();
        Ok(value)
    }

    /// Visits a map of `len` pairs, checking the visitor took them all.
    #[inline]
    fn visit_map<'de, V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: u32,
        visitor: V,
    ) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        self.open(start, len, 2)?;
        let mut items = Items {
            de: self,
            left: len,
        };
        let value = visitor.visit_map(&mut items)?;
        if items.left > 0 {
            return Err(de::Error::invalid_length(
                len as usize,
                &"fewer entries in map",
            ));
        }
        self.close();
        Ok(value)
    }

    /// The `N` bytes after `marker`, read, when `marker` is the next byte
    /// and the input holds them; `None` (reading nothing) otherwise.
    #[inline(always)]
    fn fixed_width<const N: usize>(&mut self, marker: u8) -> Option<[u8; N]> {
        let rest = self.reader.remaining();
        if rest.len() <= N || rest[0] != marker {
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
            Some(&byte @ (0x00..=0x7f | 0xc0 | 0xc2 | 0xc3 | 0xe0..=0xff)) => {
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
            0x00..=0x7f => visitor.visit_u64(byte as u64),
            0xe0..=0xff => visitor.visit_i64(byte as i8 as i64),
            0xc2 | 0xc3 => visitor.visit_bool(byte == 0xc3),
            0xca => visitor.visit_f32(f32::from_be_bytes(r.take_array()?)),
            0xcb => visitor.visit_f64(f64::from_be_bytes(r.take_array()?)),
            0xcc => visitor.visit_u64(r.take_byte()? as u64),
            0xcd => visitor.visit_u64(u16::from_be_bytes(r.take_array()?) as u64),
            0xce => visitor.visit_u64(u32::from_be_bytes(r.take_array()?) as u64),
            0xcf => visitor.visit_u64(u64::from_be_bytes(r.take_array()?)),
            0xd0 => visit_signed(visitor, r.take_byte()? as i8 as i64),
            0xd1 => visit_signed(visitor, i16::from_be_bytes(r.take_array()?) as i64),
            0xd2 => visit_signed(visitor, i32::from_be_bytes(r.take_array()?) as i64),
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
        if self.reader.peek_byte()? != 0xc4 {
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
        if (0xa0..=0xbf).contains(&byte) {
            self.reader.take_byte()?;
            Ok(Some(self.reader.take((byte & 0x1f) as usize)?))
        } else if byte == 0xd9 {
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

    /// Visits the value at the reader, whatever its type.
    fn any<'de, V: Visitor<'de>>(&mut self, start: usize, visitor: V) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        // The most common markers first, decoded from the byte at hand.
        let byte = self.reader.peek_byte()?;
        if is_scalar(byte) {
            return self.scalar(byte, visitor);
        }
        if let Some(bytes) = self.short_str(byte)? {
            return self.visit_utf8(start, bytes, visitor);
        }
        match byte {
            0x90..=0x9f => {
                self.reader.take_byte()?;
                return self.visit_array(start, (byte & 0x0f) as u32, visitor);
            }
            0x80..=0x8f => {
                self.reader.take_byte()?;
                return self.visit_map(start, (byte & 0x0f) as u32, visitor);
            }
            0xc0 => {
                self.reader.take_byte()?;
                return visitor.visit_unit();
            }
            _ => {}
        }
        let marker = self.reader.peek_marker()?;
        match marker.family() {
            Family::Nil => {
                self.reader.read_nil()?;
                visitor.visit_unit()
            }
            Family::Bool => visitor.visit_bool(self.reader.read_bool()?),
            Family::Int => {
                let n = self.reader.read_integer()?;
                match n.as_u64() {
                    Some(n) => visitor.visit_u64(n),
                    None => visitor.visit_i64(n.as_i128() as i64),
                }
            }
            Family::F32 => visitor.visit_f32(self.reader.read_f32()?),
            Family::F64 => visitor.visit_f64(self.reader.read_f64()?),
            Family::Str => M::visit_str(visitor, self.reader.read_str()?),
            Family::Bin => M::visit_bytes(visitor, self.reader.read_bin()?),
            Family::Array => {
                let len = self.reader.read_array_len()?;
                self.visit_array(start, len, visitor)
            }
            Family::Map => {
                let len = self.reader.read_map_len()?;
                self.visit_map(start, len, visitor)
            }
            Family::Ext => {
                let (ext_type, data) = self.reader.read_ext()?;
                visitor.visit_newtype_struct(ExtDeserializer::<M> {
                    ext_type,
                    data,
                    mode: PhantomData,
                })
            }
            Family::Reserved => Err(Error::wire(ErrorKind::ReservedMarker, start)),
        }
    }
}

/// Whether a marker byte starts a number or a boolean: one load from a
/// table rather than five range checks.
#[inline(always)]
fn is_scalar(byte: u8) -> bool {
    const SCALAR: [bool; 256] = {
        let mut table = [false; 256];
        let mut byte = 0;
        while byte < 256 {
            table[byte] = matches!(byte, 0x00..=0x7f | 0xe0..=0xff | 0xc2 | 0xc3 | 0xca..=0xd3);
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
                Some(&byte @ 0x00..=0x7f) => {
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
    ($($method:ident($marker:literal) => $ty:ident, $visit:ident;)*) => {$(
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

    /// A fixmap or fixarray straight to the visitor (structs, derived or
    /// not, come through here), everything else through `any`.
    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.begin();
        let byte = self.reader.peek_byte()?;
        let result = match byte {
            0x80..=0x8f => {
                self.reader.take_byte()?;
                self.visit_map(start, (byte & 0x0f) as u32, visitor)
            }
            0x90..=0x9f => {
                self.reader.take_byte()?;
                self.visit_array(start, (byte & 0x0f) as u32, visitor)
            }
            _ => self.any(start, visitor),
        };
        result.map_err(|error| error.at(start))
    }

    /// nil as `None`, anything else as `Some`. Inlined: every optional
    /// field, and every field of a tag-indexed array, comes through here.
    #[inline(always)]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.reader.remaining().first() == Some(&0xc0) {
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
                // No `return` or `?` on errors without an offset here:
                // they would leave `one_value!` before it adds the offset.
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
            0x90 => {
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
        deserialize_f32(0xca) => f32, visit_f32;
        deserialize_f64(0xcb) => f64, visit_f64;
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
            0x00..=0x7f => {
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

/// The elements of an array, or the entries of a map, being read: the
/// `SeqAccess` and `MapAccess` serde's visitors take.
struct Items<'x, 'a, M> {
    de: &'x mut Decoder<'a, M>,
    left: u32,
}

impl<M> Items<'_, '_, M> {
    /// Whether an element or entry is left; if so, it (or its key) is
    /// about to be read.
    #[inline(always)]
    fn advance(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        self.de.pay(1);
        true
    }
}

impl<'de, 'a, M: Strings<'a, 'de>> de::SeqAccess<'de> for &mut Items<'_, 'a, M> {
    type Error = Error;

    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.advance() {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    // serde's provided method, without the `PhantomData` seed it goes
    // through (which the compiler leaves out of line): every element comes
    // through here.
    #[inline(always)]
    fn next_element<T: de::Deserialize<'de>>(&mut self) -> Result<Option<T>> {
        if !self.advance() {
            return Ok(None);
        }
        T::deserialize(&mut *self.de).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left as usize)
    }
}

impl<'de, 'a, M: Strings<'a, 'de>> de::MapAccess<'de> for &mut Items<'_, 'a, M> {
    type Error = Error;

    #[inline(always)]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.advance() {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }

    #[inline(always)]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.de.pay(1);
        seed.deserialize(&mut *self.de)
    }

    // serde's provided methods, without the `PhantomData` seed they go
    // through (which the compiler leaves out of line): every key and value
    // of a map (every field of a derived struct) comes through here.
    #[inline(always)]
    fn next_key<K: de::Deserialize<'de>>(&mut self) -> Result<Option<K>> {
        if !self.advance() {
            return Ok(None);
        }
        K::deserialize(&mut *self.de).map(Some)
    }

    #[inline(always)]
    fn next_value<V: de::Deserialize<'de>>(&mut self) -> Result<V> {
        self.de.pay(1);
        V::deserialize(&mut *self.de)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left as usize)
    }
}

/// A variant in a one-entry map: the key names it, the value is its payload.
struct EnumAccess<'x, 'a, M> {
    de: &'x mut Decoder<'a, M>,
}

impl<'de, 'x, 'a, M: Strings<'a, 'de>> de::EnumAccess<'de> for EnumAccess<'x, 'a, M> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        // The key, and the payload read next.
        self.de.pay(2);
        let variant = seed.deserialize(&mut *self.de)?;
        Ok((variant, self))
    }
}

impl<'de, 'a, M: Strings<'a, 'de>> de::VariantAccess<'de> for EnumAccess<'_, 'a, M> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.de)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_any(&mut *self.de, visitor)
    }
}

/// An extension as serde sees it: the tuple `(type, data)`.
struct ExtDeserializer<'a, M> {
    ext_type: i8,
    data: &'a [u8],
    mode: PhantomData<M>,
}

impl<'de, 'a, M: Strings<'a, 'de>> de::Deserializer<'de> for ExtDeserializer<'a, M> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(ExtParts { ext: self, next: 0 })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The two elements of an extension's tuple.
struct ExtParts<'a, M> {
    ext: ExtDeserializer<'a, M>,
    next: u8,
}

impl<'de, 'a, M: Strings<'a, 'de>> de::SeqAccess<'de> for ExtParts<'a, M> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        self.next += 1;
        match self.next {
            1 => seed
                .deserialize(self.ext.ext_type.into_deserializer())
                .map(Some),
            2 => seed
                .deserialize(BytesDeserializer::<M> {
                    bytes: self.ext.data,
                    mode: PhantomData,
                })
                .map(Some),
            _ => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(2usize.saturating_sub(self.next as usize))
    }
}

/// Bytes from the input, borrowed or copied as the mode says.
struct BytesDeserializer<'a, M> {
    bytes: &'a [u8],
    mode: PhantomData<M>,
}

impl<'de, 'a, M: Strings<'a, 'de>> de::Deserializer<'de> for BytesDeserializer<'a, M> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        M::visit_bytes(visitor, self.bytes)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// A serde `Deserializer` of MessagePack from a slice or an `io::Read`,
/// under [`Limits`] for untrusted input.
///
/// Use it directly to set limits or to read several values in a row;
/// [`from_slice`](crate::from_slice) and [`from_reader`](crate::from_reader)
/// cover the common case.
///
/// ```
/// use msgpack_serde::{Deserializer, Limits};
/// use serde::Deserialize;
///
/// let bytes = msgpack_serde::to_vec(&vec![vec![1u8]]).unwrap();
/// let mut de = Deserializer::from_slice(&bytes).with_limits(Limits::default().max_depth(1));
/// let error = Vec::<Vec<u8>>::deserialize(&mut de).unwrap_err();
/// assert_eq!(error.to_string(), "nesting exceeds the depth limit of 1 at offset 1");
/// ```
#[derive(Debug)]
pub struct Deserializer<R> {
    read: R,
    limits: Limits,
    human_readable: bool,
}

impl<'de> Deserializer<SliceRead<'de>> {
    /// A deserializer borrowing from `input`, with the default [`Limits`].
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let bytes = [0x01, 0xa1, b'x'];
    /// let mut de = Deserializer::from_slice(&bytes);
    /// assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    /// assert_eq!(<&str>::deserialize(&mut de).unwrap(), "x"); // borrowed from `bytes`
    /// de.end().unwrap();
    /// ```
    pub fn from_slice(input: &'de [u8]) -> Self {
        Deserializer {
            read: SliceRead::new(input),
            limits: Limits::default(),
            human_readable: false,
        }
    }

    /// Succeeds if all input was consumed; else a trailing-bytes error.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let mut de = Deserializer::from_slice(&[0xc3, 0xc0]);
    /// assert!(bool::deserialize(&mut de).unwrap());
    /// let error = de.end().unwrap_err();
    /// assert_eq!(error.to_string(), "trailing bytes after the value at offset 1");
    /// ```
    pub fn end(&self) -> Result<()> {
        if self.read.pos == self.read.input.len() {
            Ok(())
        } else {
            Err(Error::wire(ErrorKind::TrailingBytes, self.read.pos))
        }
    }

    /// The offset just past the last value read.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let mut de = Deserializer::from_slice(&[0xa1, b'x', 0xcd, 0x01]);
    /// <&str>::deserialize(&mut de).unwrap();
    /// assert_eq!(de.byte_offset(), 2);
    /// assert!(u16::deserialize(&mut de).unwrap_err().is_eof());
    /// assert_eq!(de.byte_offset(), 2); // a failed value is not consumed
    /// ```
    pub fn byte_offset(&self) -> usize {
        self.read.pos
    }

    /// The whole input (read from [`byte_offset`](Self::byte_offset) on).
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let bytes = [0x01, 0x02];
    /// let mut de = Deserializer::from_slice(&bytes);
    /// u8::deserialize(&mut de).unwrap();
    /// assert_eq!(&de.get_ref()[de.byte_offset()..], [0x02]);
    /// ```
    pub fn get_ref(&self) -> &'de [u8] {
        self.read.input
    }

    /// Gives back the input, whole.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    ///
    /// let bytes = [0xc0];
    /// assert_eq!(Deserializer::from_slice(&bytes).into_inner(), [0xc0]);
    /// ```
    pub fn into_inner(self) -> &'de [u8] {
        self.read.input
    }

    /// The values left, one after another, as serde_json's `into_iter`:
    /// a [`StreamDeserializer`] with these limits and settings.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let bytes = [0x01, 0x02, 0x03];
    /// let mut de = Deserializer::from_slice(&bytes);
    /// assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    /// let rest: Vec<u8> = de.into_iter().collect::<Result<_, _>>().unwrap();
    /// assert_eq!(rest, [2, 3]);
    /// ```
    #[allow(clippy::should_implement_trait)]
    pub fn into_iter<T: de::Deserialize<'de>>(self) -> StreamDeserializer<SliceRead<'de>, T> {
        StreamDeserializer::from_deserializer(self)
    }

    /// Runs `f` on a decoder at the current position; advances past what
    /// it read only if it succeeded.
    fn run<T>(&mut self, f: impl FnOnce(&mut Decoder<'de, Borrowed>) -> Result<T>) -> Result<T> {
        let mut decoder = Decoder::starting_at(self.read.input, self.read.pos, self.limits)?
            .human_readable(self.human_readable);
        let value = f(&mut decoder)?;
        self.read.pos = decoder.position();
        Ok(value)
    }
}

impl<R: io::Read> Deserializer<IoRead<R>> {
    /// A deserializer reading from `reader`, with the default [`Limits`].
    /// Reads are small: wrap files and sockets in a [`std::io::BufReader`].
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let input: &[u8] = &[0x92, 0x01, 0x02];
    /// let mut de = Deserializer::from_reader(input);
    /// assert_eq!(<(u8, u8)>::deserialize(&mut de).unwrap(), (1, 2));
    /// de.end().unwrap();
    /// ```
    pub fn from_reader(reader: R) -> Self {
        Deserializer {
            read: IoRead::new(reader),
            limits: Limits::default(),
            human_readable: false,
        }
    }

    /// Succeeds if the stream has ended; else a trailing-bytes error.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let input: &[u8] = &[0xc0, 0xc0];
    /// let mut de = Deserializer::from_reader(input);
    /// <()>::deserialize(&mut de).unwrap();
    /// let error = de.end().unwrap_err();
    /// assert_eq!(error.to_string(), "trailing bytes after the value at offset 1");
    /// ```
    pub fn end(&mut self) -> Result<()> {
        if self.read.at_end()? {
            Ok(())
        } else {
            Err(Error::wire(ErrorKind::TrailingBytes, self.read.offset()))
        }
    }

    /// The stream offset just past the bytes read: the last value, or after
    /// an error, as much of the failed value as was read.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let input: &[u8] = &[0x01, 0xcd, 0x01]; // 1, then a cut-short uint 16
    /// let mut de = Deserializer::from_reader(input);
    /// assert_eq!(u16::deserialize(&mut de).unwrap(), 1);
    /// assert_eq!(de.byte_offset(), 1);
    /// assert!(u16::deserialize(&mut de).unwrap_err().is_eof());
    /// assert_eq!(de.byte_offset(), 3); // the bytes of the cut-short value were read
    /// ```
    pub fn byte_offset(&self) -> usize {
        self.read.offset()
    }

    /// Gives back the reader.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let input: &[u8] = &[0x01, b'r', b'e', b's', b't'];
    /// let mut de = Deserializer::from_reader(input);
    /// assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    /// assert_eq!(de.into_inner(), b"rest"); // not one byte past the value was read
    /// ```
    pub fn into_inner(self) -> R {
        self.read.reader
    }

    /// The reader. A byte read ahead to find the end of the stream (by
    /// [`end`](Self::end) or a [`StreamDeserializer`]) is held apart.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    ///
    /// let input: &[u8] = &[0xc0];
    /// let de = Deserializer::from_reader(input);
    /// assert_eq!(*de.get_ref(), [0xc0]);
    /// ```
    pub fn get_ref(&self) -> &R {
        &self.read.reader
    }

    /// The reader, mutably: to read what follows a value yourself.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    /// use std::io::Read;
    ///
    /// let input: &[u8] = &[0x01, b'\n', 0x02];
    /// let mut de = Deserializer::from_reader(input);
    /// assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    /// let mut newline = [0u8];
    /// de.get_mut().read_exact(&mut newline).unwrap();
    /// assert_eq!(u8::deserialize(&mut de).unwrap(), 2);
    /// ```
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.read.reader
    }

    /// The values left in the stream, one after another, as serde_json's
    /// `into_iter`: a [`StreamDeserializer`] with these limits and
    /// settings.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    ///
    /// let input: &[u8] = &[0xa1, b'a', 0xa1, b'b'];
    /// let words: Vec<String> = Deserializer::from_reader(input).into_iter().collect::<Result<_, _>>().unwrap();
    /// assert_eq!(words, ["a", "b"]);
    /// ```
    #[allow(clippy::should_implement_trait)]
    pub fn into_iter<T: de::DeserializeOwned>(self) -> StreamDeserializer<IoRead<R>, T> {
        StreamDeserializer::from_deserializer(self)
    }

    /// Reads the next value's bytes, then runs `f` on a decoder over them.
    ///
    /// If the stream ends inside the value, `f` still runs on the bytes
    /// that arrived: an error it finds there (a container past the depth
    /// limit, a type mismatch) is the one `from_slice` reports for the
    /// same bytes, and is returned instead of the end of input.
    fn run<T>(&mut self, f: impl FnOnce(&mut Decoder<'_, Copied>) -> Result<T>) -> Result<T> {
        let cut_short = match self.read.next_value(self.limits) {
            Ok(true) => None,
            Ok(false) => return Err(Error::wire(ErrorKind::UnexpectedEof, self.read.offset())),
            Err(error) if error.is_eof() => Some(error),
            Err(error) => return Err(error),
        };
        let base = self.read.consumed;
        // The framer enforced the size limit on the stream.
        let limits = self.limits.max_bytes(usize::MAX);
        let mut decoder =
            Decoder::new(&self.read.buffer, limits)?.human_readable(self.human_readable);
        let result = f(&mut decoder).map_err(|error| error.shifted(base));
        match cut_short {
            None => result,
            Some(eof) => match result {
                Err(error) if !error.is_eof() => Err(error),
                _ => Err(eof),
            },
        }
    }
}

impl<R> Deserializer<R> {
    /// Sets the [`Limits`] for what follows.
    ///
    /// ```
    /// use msgpack_serde::{Deserializer, Limits, Value};
    /// use serde::Deserialize;
    ///
    /// let bytes = msgpack_serde::to_vec(&[1, 2, 3]).unwrap(); // four values: the array and three
    /// let mut de = Deserializer::from_slice(&bytes).with_limits(Limits::default().max_values(3));
    /// let error = Value::deserialize(&mut de).unwrap_err();
    /// // Refused at the array's header, before its elements are read.
    /// assert_eq!(error.to_string(), "more values than the limit of 3 at offset 0");
    /// ```
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits in force.
    ///
    /// ```
    /// use msgpack_serde::{Deserializer, Limits};
    ///
    /// let de = Deserializer::from_slice(&[]);
    /// assert_eq!(de.limits(), Limits::default());
    /// assert_eq!(de.with_limits(Limits::unlimited()).limits(), Limits::unlimited());
    /// ```
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Sets what `is_human_readable()` answers to the types being
    /// deserialized: `false` by default. Set it to read what a
    /// [`Config::human_readable`](crate::Config::human_readable)
    /// serializer wrote, as types such as `IpAddr` and `uuid::Uuid` pick
    /// their form by it.
    ///
    /// ```
    /// use msgpack_serde::{Config, Deserializer};
    /// use serde::Deserialize;
    /// use std::net::Ipv4Addr;
    ///
    /// let bytes = msgpack_serde::to_vec_with_config(&Ipv4Addr::LOCALHOST, Config::named().human_readable(true))?;
    /// assert_eq!(bytes, b"\xa9127.0.0.1");
    /// let mut de = Deserializer::from_slice(&bytes).human_readable(true);
    /// assert_eq!(Ipv4Addr::deserialize(&mut de)?, Ipv4Addr::LOCALHOST);
    /// # Ok::<(), msgpack_serde::Error>(())
    /// ```
    #[must_use]
    pub fn human_readable(mut self, human_readable: bool) -> Self {
        self.human_readable = human_readable;
        self
    }

    /// Whether the deserializer says it is human-readable.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    ///
    /// assert!(!Deserializer::from_slice(&[]).is_human_readable());
    /// assert!(Deserializer::from_slice(&[]).human_readable(true).is_human_readable());
    /// ```
    pub fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    pub(crate) fn read_mut(&mut self) -> &mut R {
        &mut self.read
    }
}

macro_rules! forward_to_decoder {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
            self.run(|decoder| de::Deserializer::$method(decoder, $($arg,)* visitor))
        }
    )*};
}

macro_rules! deserializer_impl {
    () => {
        fn is_human_readable(&self) -> bool {
            self.human_readable
        }

        forward_to_decoder! {
            deserialize_any(); deserialize_bool(); deserialize_i8(); deserialize_i16();
            deserialize_i32(); deserialize_i64(); deserialize_i128(); deserialize_u8();
            deserialize_u16(); deserialize_u32(); deserialize_u64(); deserialize_u128();
            deserialize_f32(); deserialize_f64(); deserialize_char(); deserialize_str();
            deserialize_string(); deserialize_bytes(); deserialize_byte_buf();
            deserialize_option(); deserialize_unit(); deserialize_unit_struct(name: &'static str);
            deserialize_newtype_struct(name: &'static str); deserialize_seq();
            deserialize_tuple(len: usize); deserialize_tuple_struct(name: &'static str, len: usize);
            deserialize_map(); deserialize_struct(name: &'static str, fields: &'static [&'static str]);
            deserialize_enum(name: &'static str, variants: &'static [&'static str]);
            deserialize_identifier(); deserialize_ignored_any();
        }
    };
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<SliceRead<'de>> {
    type Error = Error;

    deserializer_impl!();
}

impl<'de, R: io::Read> de::Deserializer<'de> for &mut Deserializer<IoRead<R>> {
    type Error = Error;

    deserializer_impl!();
}

/// Decodes one value of type `T` that must fill `bytes` exactly.
pub(crate) fn from_slice_with_limits<'de, T: de::Deserialize<'de>>(
    bytes: &'de [u8],
    limits: Limits,
) -> Result<T> {
    let mut decoder = Decoder::<Borrowed>::new(bytes, limits)?;
    let value = T::deserialize(&mut decoder)?;
    decoder.end()?;
    Ok(value)
}
