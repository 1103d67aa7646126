//! The deserializer `from_slice` hands the top-level value: our decoder,
//! held by value, and where its reader stopped. A lone number (an
//! integer, a float) is read from the input as the decoder's own fast
//! path reads it, without a call to the decoder: the decoder's state
//! stays in registers, where a decoder whose address its slow paths take
//! lives in memory, written before the value's first byte is read. Every other
//! request, and a number the fast path does not take (another form, out
//! of the target's range, cut short), goes to the decoder, nothing read
//! yet: so every value and every error is the decoder's.

use msgpack_core::{marker, IntHead};
use serde::de::{self, Visitor};

use super::{takes_int, visit_int_as_target, Borrowed, Decoder};
use crate::{Error, Result};

/// A top-level value's deserializer: a [`Decoder`] and where its reader
/// stopped, written by every request (a request that fails writes it
/// too). A `T` that makes no request leaves it as it was.
pub(crate) struct Top<'s, 'de> {
    decoder: Decoder<'de, Borrowed>,
    stopped: &'s mut usize,
}

impl<'s, 'de> Top<'s, 'de> {
    /// The value `decoder` is about to read, with the end of its reads
    /// written to `stopped`.
    #[inline(always)]
    pub(crate) fn new(decoder: Decoder<'de, Borrowed>, stopped: &'s mut usize) -> Self {
        Top { decoder, stopped }
    }

    /// The decoder behind this deserializer, for a type read whole or
    /// directly (`ours.rs`), and where its reader stops written after
    /// `read`.
    #[inline(always)]
    pub(super) fn with_decoder<T>(
        &mut self,
        read: impl FnOnce(&mut Decoder<'de, Borrowed>) -> T,
    ) -> T {
        let value = read(&mut self.decoder);
        *self.stopped = self.decoder.position();
        value
    }

    /// `request` made of the decoder. Taken apart first, so that only the
    /// decoder goes to memory for the request, not where it stops.
    #[inline(always)]
    fn decode<T>(self, request: impl FnOnce(&mut Decoder<'de, Borrowed>) -> T) -> T {
        let Top {
            mut decoder,
            stopped,
        } = self;
        let value = request(&mut decoder);
        *stopped = decoder.position();
        value
    }

    /// The request's value (the visitor's result, its error placed at
    /// `start`, as the decoder places it), after this deserializer's fast
    /// path has read `len` bytes from `start`.
    #[inline(always)]
    fn visited<T>(self, start: usize, len: usize, visit: Result<T>) -> Result<T> {
        *self.stopped = start + len;
        visit.map_err(|error| error.at(start))
    }
}

/// Called where a number's fast path hands over to the decoder: a call
/// to a cold function tells the compiler the branch is rare, so that it
/// lays the fast path out straight through.
#[cold]
#[inline(never)]
fn unlikely() {}

/// Integers: a positive fixint by its byte, as the decoder's request
/// does, then any other integer its target takes through msgpack-core's
/// `IntHead::read` and the decoder's choice of visit
/// (`visit_int_as_target`); anything else from the decoder.
macro_rules! integers {
    ($($method:ident => $signed:literal,)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let start = self.decoder.position();
            let rest = self.decoder.reader.remaining();
            if let Some(&byte @ marker::FIXPOS..=marker::FIXPOS_MAX) = rest.first() {
                return self.visited(start, 1, visitor.visit_u64(u64::from(byte)));
            }
            match IntHead::read(rest) {
                Some(head) if takes_int::<$signed>(&head) => {
                    self.visited(start, head.len, visit_int_as_target::<V, $signed>(visitor, head))
                }
                _ => {
                    unlikely();
                    self.decode(|decoder| decoder.$method(visitor))
                }
            }
        }
    )*};
}

/// Floats: the float of the request's own width, as the decoder's fast
/// path takes it; anything else from the decoder.
macro_rules! floats {
    ($($method:ident($marker:path) => $ty:ident, $visit:ident;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            const WIDTH: usize = core::mem::size_of::<$ty>();
            let start = self.decoder.position();
            let rest = self.decoder.reader.remaining();
            match rest.first_chunk::<{ 1 + WIDTH }>() {
                Some([$marker, bytes @ ..]) => {
                    let visit = visitor.$visit::<Error>($ty::from_be_bytes(*bytes));
                    self.visited(start, 1 + WIDTH, visit)
                }
                _ => {
                    unlikely();
                    self.decode(|decoder| decoder.$method(visitor))
                }
            }
        }
    )*};
}

/// The requests with no fast path of their own: from the decoder.
macro_rules! to_decoder {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        #[inline(always)]
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
            self.decode(|decoder| decoder.$method($($arg,)* visitor))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Top<'_, 'de> {
    type Error = Error;

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

    to_decoder! {
        deserialize_any();
        deserialize_bool();
        deserialize_i128();
        deserialize_u128();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }

    fn is_human_readable(&self) -> bool {
        self.decoder.human_readable
    }
}
