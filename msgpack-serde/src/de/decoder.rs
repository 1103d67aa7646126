//! The decoder proper: MessagePack bytes in memory into the serde data
//! model, with the fast paths the hot types take (integers, floats, short
//! strings, fixmaps and fixarrays) inlined and the rest out of line.
//! [`Deserializer`](super::Deserializer) runs one over its input, borrowing
//! ([`Borrowed`]) or copying ([`Copied`]) as the input allows. Its serde
//! `Deserializer` impl, which maps each request onto these paths, is in
//! `decoder/deserializer.rs`.
//!
//! The general path, `any`, reads each kind of value in one place:
//! numbers and booleans in `scalar`, short strings in `short_str`, array
//! and map headers in `container_header`, everything else in
//! `not_container`, tried in the order values are most common. The
//! inlined requests (booleans, integers, floats, strings, identifiers)
//! try their own kind's fast path and otherwise call `any_value`, `any`
//! out of line (floats through `any_value_resumed`, the same call with
//! the reader's state handed back); the rarer requests call `any` after
//! their own forms.
//!
//! `from_slice` hands the top-level value a `Top` (`decoder/top.rs`),
//! which reads a lone number as these fast paths do and makes every other
//! request of the decoder.
//!
//! The parts of that path a nesting level passes through with large
//! bodies (`scalar`, `short_str`, `container_header`, `visit_items`, the
//! number arrays' `numbers`, the map access's `next_key` and
//! `next_value`) are inlined always only when optimized
//! (`cfg_attr(not(debug_assertions), ..)`): an unoptimized build keeps
//! every inlined callee's locals in its caller's frame, and a recursive
//! decode pays that frame at every level (`tests/tests/stack_depth.rs`
//! holds it to a thread of 1 MiB). Debug assertions stand for "not
//! optimized" here: a build that optimizes with them on gets these
//! inlined by the compiler's choice only.

use std::marker::PhantomData;

use msgpack_core::{marker, ErrorKind, Family, IntHead, Limits, Owed, Reader};
use serde::de::{self, Visitor};

use super::access::Items;
use super::ext::ExtDeserializer;
pub(super) use btree_entries::{map_fill_of, set_fill_of};
pub(super) use numbers::{fill as fill_numbers, Number};
pub(super) use top::Top;
pub(super) use vec_elements::{fill_of, push_within_capacity, Fill};
mod btree_entries;
mod deserializer;
pub(crate) mod direct;
mod numbers;
mod ours;
mod probe;
mod top;
mod vec_elements;
pub(crate) mod whole;

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
    /// Where a direct read gave up last: none is tried before it
    /// (`decoder/direct.rs`).
    direct_from: usize,
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
            direct_from: 0,
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

    /// The offset of the value about to be read.
    #[inline(always)]
    fn begin(&self) -> usize {
        self.reader.position()
    }

    /// A `T` read at the reader as a container's element, key or value:
    /// an error without an offset (one `T`'s own code made, after reading
    /// what it read) is placed where the reader stopped.
    #[inline(always)]
    pub(super) fn item<'de, T: de::Deserialize<'de>>(&mut self) -> Result<T>
    where
        M: Strings<'a, 'de>,
    {
        T::deserialize(&mut *self).map_err(|error| self.placed(error))
    }

    /// [`item`](Self::item), read with `seed`.
    #[inline(always)]
    pub(super) fn item_seed<'de, S: de::DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<S::Value>
    where
        M: Strings<'a, 'de>,
    {
        seed.deserialize(&mut *self)
            .map_err(|error| self.placed(error))
    }

    /// Places an error in `result` that has no offset (one a whole
    /// input's value made in its own code, after reading what it read)
    /// where the reader stopped, as [`item`](Self::item) places an
    /// element's.
    #[inline(always)]
    pub(crate) fn place_own_error<T>(&self, result: &mut Result<T>) {
        crate::error::place_own_error(result, self.reader.position());
    }

    /// `error` at the reader's position, unless it has an offset.
    #[cold]
    fn placed(&self, error: Error) -> Error {
        error.at(self.reader.position())
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

/// The error for a container of `len` items whose visitor took fewer.
#[cold]
fn fewer_items<const IS_MAP: bool>(len: u32) -> Error {
    let fewer = if IS_MAP {
        "fewer entries in map"
    } else {
        "fewer elements in array"
    };
    de::Error::invalid_length(len as usize, &fewer)
}

impl<'a, M> Decoder<'a, M> {
    /// Opens an array (`ARRAY`) of `len` elements or a map (`MAP`) of
    /// `len` pairs at `start` and visits it, checking the visitor took
    /// them all.
    #[cfg_attr(not(debug_assertions), inline(always))]
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
        let mut items = Items::<'_, 'a, 'de, M, V> {
            de: self,
            left: len,
            fill: None,
        };
        let result = if IS_MAP {
            visitor.visit_map(&mut items)
        } else {
            visitor.visit_seq(&mut items)
        };
        let (fill, left) = (items.fill, items.left);
        // A value of more than 16 bytes read from an array (a struct by
        // value, serde_derive's in compact mode) goes back in the `Result`
        // the visitor wrote, untouched: taken out and wrapped again, it
        // stays in a temporary that is copied to the caller in moves
        // wider than the visitor's stores, which wait for them. Maps and
        // small values take it out, in fewer instructions for them
        // (`benches/RESULTS.md`, step 37); so do the collections `fill`
        // completes, which it takes by reference.
        if IS_MAP || fill.is_some() || size_of::<V::Value>() <= 16 {
            let mut value = result?;
            if let Some(fill) = fill {
                fill(self, &mut value, left)?;
            } else if left > 0 {
                return Err(fewer_items::<IS_MAP>(len));
            }
            self.close();
            return Ok(value);
        }
        if left > 0 {
            // By value: a reference to `result` would keep it in memory
            // on every path.
            return match result {
                Ok(value) => {
                    drop(value);
                    Err(fewer_items::<IS_MAP>(len))
                }
                Err(error) => Err(error),
            };
        }
        // Closed whether the visitor succeeded or not: no decoder is used
        // after an error, and closing only gives back the depth `open` took.
        self.close();
        result
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

    /// An integer where fewer than 9 bytes are left (a lone integer, a
    /// message's last field), out of line: the inlined reads take 9 bytes
    /// at once. What the inlined reads do, form by form, and anything
    /// else through [`any_value`](Self::any_value).
    #[inline(never)]
    fn short_int<'de, V: Visitor<'de>, const SIGNED: bool>(
        &mut self,
        visitor: V,
    ) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        let start = self.begin();
        let head = IntHead::read(self.reader.remaining());
        self.visit_int_for::<V, SIGNED>(head, visitor)
            .map_err(|error| error.at(start))
    }

    /// Takes the integer `head` read at the reader and visits it as a
    /// `SIGNED` (or unsigned) target takes it ([`takes_int`],
    /// [`visit_int_as_target`]). Anything else (no integer, or one out of the
    /// target's reach, whose error the visitor gives) through
    /// `any_value`, out of line.
    #[inline(always)]
    pub(super) fn visit_int_for<'de, V: Visitor<'de>, const SIGNED: bool>(
        &mut self,
        head: Option<IntHead>,
        visitor: V,
    ) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        match head {
            Some(head) if takes_int::<SIGNED>(&head) => {
                self.reader.consume(head.len);
                visit_int_as_target::<V, SIGNED>(visitor, head)
            }
            _ => self.any_value(visitor),
        }
    }

    /// One value of any type: `any` out of line, the slow path of the
    /// inlined requests other than floats, with the value's offset on its
    /// errors.
    #[inline(never)]
    fn any_value<'de, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        let start = self.begin();
        self.any(start, visitor).map_err(|error| error.at(start))
    }

    /// The slow path of floats: calls `any_value_handing_back` and stores
    /// the reader's position and the owed count it returns.
    ///
    /// The stores are what the compiler needs to keep the position and
    /// the owed count in registers across a run of floats (the elements
    /// of a `Vec3`, a series): after a plain call it reloads both from
    /// memory before the next read, on the fast path too, and every
    /// float then waits for the store of the one before. Only floats take
    /// it: on the other requests it cost more than it saved (the
    /// measurements are in `benches/RESULTS.md`, step 12).
    #[inline(always)]
    fn any_value_resumed<'de, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        let (result, pos, owed) = self.any_value_handing_back(visitor);
        // Moves nowhere (`pos` is where the reader is), in a form the
        // compiler cannot see through.
        let now = self.reader.position();
        self.reader.consume(pos - now);
        self.owed = owed;
        result
    }

    /// `any_value`, and then the reader's position and the owed count.
    #[inline(never)]
    fn any_value_handing_back<'de, V: Visitor<'de>>(
        &mut self,
        visitor: V,
    ) -> (Result<V::Value>, usize, Owed)
    where
        M: Strings<'a, 'de>,
    {
        let start = self.begin();
        let result = self.any(start, visitor).map_err(|error| error.at(start));
        (result, self.reader.position(), self.owed)
    }

    /// Visits the number or boolean whose marker `byte` is at the reader
    /// (one for which [`is_scalar`] holds). Integers go through
    /// msgpack-core's `IntHead::read`, after a positive fixint by its byte.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn scalar<'de, V: Visitor<'de>>(&mut self, byte: u8, visitor: V) -> Result<V::Value>
    where
        M: Strings<'a, 'de>,
    {
        let r = &mut self.reader;
        // Integers first: most scalars that reach here are integers (at
        // the end of the input, out of the target's range, or tags).
        if byte <= marker::FIXPOS_MAX {
            r.consume(1);
            return visitor.visit_u64(u64::from(byte));
        }
        if let Some(head) = IntHead::read(r.remaining()) {
            r.consume(head.len);
            return visit_int(visitor, head);
        }
        match byte {
            marker::FALSE | marker::TRUE => {
                r.consume(1);
                visitor.visit_bool(byte == marker::TRUE)
            }
            marker::F32 => {
                let [_, bits @ ..] = r.take_array::<5>()?;
                visitor.visit_f32(f32::from_be_bytes(bits))
            }
            marker::F64 => {
                let [_, bits @ ..] = r.take_array::<9>()?;
                visitor.visit_f64(f64::from_be_bytes(bits))
            }
            _ => truncated_int(r, visitor),
        }
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

    /// The text of the fixstr or str 8 at the reader, read; `None`,
    /// reading nothing, for any other value.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn short_str(&mut self) -> Result<Option<&'a str>> {
        Ok(self.reader.read_short_str().transpose()?)
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
        if let Some(text) = self.short_str()? {
            return M::visit_str(visitor, text);
        }
        match self.container_header(byte)? {
            Some((is_map, len)) => self.visit_container(start, is_map, len, visitor),
            None => self.not_container(start, visitor),
        }
    }

    /// Reads the header of the array or map that starts with `byte`:
    /// whether it is a map, and its length. `None` (reading nothing) for
    /// any other value.
    #[cfg_attr(not(debug_assertions), inline(always))]
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

/// An integer marker that `IntHead::read` did not read: cut short by the
/// end of the input, so the reader's error. Out of line, so that the read
/// is not inlined a second time into each `scalar`.
#[cold]
#[inline(never)]
fn truncated_int<'de, V: Visitor<'de>>(reader: &mut Reader<'_>, visitor: V) -> Result<V::Value> {
    visit_int(visitor, reader.read_int_head()?)
}

/// An integer to the visitor: `visit_i64` if negative, else `visit_u64`,
/// whatever its form.
#[inline(always)]
fn visit_int<'de, V: Visitor<'de>>(visitor: V, head: IntHead) -> Result<V::Value> {
    if head.negative {
        visitor.visit_i64(head.value as i64)
    } else {
        visitor.visit_u64(head.value)
    }
}

/// Whether an integer request of a `SIGNED` (or unsigned) target visits
/// `head` itself ([`visit_int_as_target`]) rather than through `any_value`:
/// a signed target when it fits in `i64` (negative, or without the top
/// bit, in one comparison), an unsigned one unless negative.
#[inline(always)]
fn takes_int<const SIGNED: bool>(head: &IntHead) -> bool {
    if SIGNED {
        head.value >> 63 == head.negative as u64
    } else {
        !head.negative
    }
}

/// The visit of `head` an integer request of a `SIGNED` (or unsigned)
/// target makes when [`takes_int`] holds: `visit_i64` for a signed
/// target, `visit_u64` for an unsigned one, without a second look at its
/// sign, so that data of mixed signs does not mispredict a branch on it.
#[inline(always)]
fn visit_int_as_target<'de, V: Visitor<'de>, const SIGNED: bool>(
    visitor: V,
    head: IntHead,
) -> Result<V::Value> {
    if SIGNED {
        visitor.visit_i64(head.value as i64)
    } else {
        visitor.visit_u64(head.value)
    }
}
