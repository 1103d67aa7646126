//! The serde `Deserializer` impl of [`Decoder`]: each of serde's
//! requests mapped onto the decoder's fast paths (integers, floats, short
//! strings, identifiers, options) and its general `any` (`any_value` out
//! of line, `any_value_resumed` for floats).

use msgpack_core::serde_ext::EXT_STRUCT_NAME;
use msgpack_core::{marker, Family, IntHead};
use serde::de::{self, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

use super::{Decoder, Strings};
use crate::de::access::EnumAccess;
use crate::raw::RAW_VALUE_NAME;
use crate::{Error, Result};

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
/// branch on the form; with fewer (a lone integer, a message's last
/// field), through `short_int`, form by form; everything else through
/// `any_value`. Both are out of line, so that the fast paths inline into
/// the struct around them.
///
/// An integer read past the fixint goes to the visit its target takes
/// (`Decoder::visit_int_for`).
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
                _ => match rest.first_chunk::<9>() {
                    Some(window) => {
                        let head = IntHead::from_window(window);
                        self.visit_int_for::<V, $signed>(head, visitor)
                    }
                    // Fewer than 9 bytes left: a lone integer, a
                    // message's last field.
                    None => return self.short_int::<V, $signed>(visitor),
                },
            };
            result.map_err(|error| error.at(start))
        }
    )*};
}

/// Floats: the float of the method's own width straight to the visitor,
/// everything else through `any_value_resumed`, which hands the reader's
/// state back so that a run of floats keeps it in registers. The fast
/// path is a few instructions, inlined with serde's `f32` / `f64` impls
/// around it (a mesh or a series is mostly floats); the rest is out of
/// line.
macro_rules! floats {
    ($($method:ident($marker:path) => $ty:ident, $visit:ident;)*) => {$(
        #[inline(always)]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let start = self.reader.position();
            match self.fixed_width::<{ core::mem::size_of::<$ty>() }>($marker) {
                Some(bytes) => visitor
                    .$visit::<Error>($ty::from_be_bytes(bytes))
                    .map_err(|error| error.at(start)),
                None => self.any_value_resumed(visitor),
            }
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
        // `Vec` of a number type: in one loop (`numbers.rs`). The type
        // checks are constants: for any other visitor this is nothing.
        macro_rules! numbers {
            ($visitor:ident, $start:ident: $($ty:ty)*) => {$(
                let $visitor = match self.numbers::<$ty, V>($start, $visitor) {
                    Ok(result) => return result,
                    Err(visitor) => visitor,
                };
            )*};
        }
        one_value!(self, |start| {
            numbers!(visitor, start: i64 u64 i32 u32 i16 u16 i8 u8 f64 f32 usize isize);
            self.seq_or_bin(start, visitor)
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

    /// `true` and `false` straight to the visitor, everything else
    /// through `any_value`.
    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.begin();
        match self.reader.remaining().first() {
            Some(&byte @ (marker::FALSE | marker::TRUE)) => {
                self.reader.consume(1);
                visitor
                    .visit_bool::<Error>(byte == marker::TRUE)
                    .map_err(|error| error.at(start))
            }
            _ => self.any_value(visitor),
        }
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

    /// A fixstr or str 8 straight to the visitor, everything else through
    /// `any_value`.
    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.begin();
        self.str_or_any(visitor).map_err(|error| error.at(start))
    }

    /// A string the visitor keeps: a fixstr or a str 8 copied into a
    /// `String` here, a short one without a call to `memcpy`, and handed
    /// over with `visit_string` (what serde's `String` takes as it is);
    /// anything else as [`deserialize_str`](Self::deserialize_str).
    ///
    /// Asking for a `String` says the visitor will own the text, so two
    /// rare visitors pay for it: one that takes only borrowed strings
    /// (it should ask with `deserialize_str`), and serde's in-place
    /// `String`, which takes the new buffer rather than refilling its
    /// own.
    #[inline]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.begin();
        let result = match self.short_str() {
            Ok(Some(text)) => visitor.visit_string(msgpack_core::decode::owned_str(text)),
            Ok(None) => self.any_value(visitor),
            Err(error) => Err(error),
        };
        result.map_err(|error| error.at(start))
    }

    /// Field numbers and field names: a positive fixint, a fixstr or a
    /// str 8 straight to the visitor (a name of up to 15 ASCII bytes
    /// with one test, `Reader::read_short_key`), everything else through
    /// `any_value`. Always inlined: derived structs read every key
    /// through here.
    #[inline(always)]
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.begin();
        if let Some(name) = self.reader.read_short_key() {
            return M::visit_str(visitor, name).map_err(|error| error.at(start));
        }
        let byte = self.reader.peek_byte()?;
        let result = match byte {
            marker::FIXPOS..=marker::FIXPOS_MAX => {
                self.reader.consume(1);
                visitor.visit_u64(byte as u64)
            }
            _ => self.str_or_any(visitor),
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

impl<'a, M> Decoder<'a, M> {
    /// Visits the value at the reader: a fixstr or a str 8 directly,
    /// anything else through `any_value`.
    #[inline(always)]
    fn str_or_any<'de, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        match self.short_str()? {
            Some(text) => M::visit_str(visitor, text),
            None => self.any_value(visitor),
        }
    }

    /// A sequence other than a `Vec` of numbers: an array through `any`,
    /// and also bin, so a plain `Vec<u8>` or `[u8; N]` reads binary data
    /// written by other languages.
    #[inline(always)]
    fn seq_or_bin<'de, V: Visitor<'de>>(&mut self, start: usize, visitor: V) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        match self.reader.peek_marker()?.family() {
            Family::Bin => {
                let bytes = self.reader.read_bin()?;
                visitor.visit_seq(de::value::SeqDeserializer::new(bytes.iter().copied()))
            }
            _ => self.any(start, visitor),
        }
    }
}
