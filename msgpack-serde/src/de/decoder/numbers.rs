//! Arrays of numbers into `Vec<T>` (`i8` to `u64`, `isize`, `usize`,
//! `f32`, `f64`): series,
//! samples, embeddings. serde's `Vec<T>` visitor reads them element by
//! element through the decoder, whose position lives in memory between
//! elements (each element's slow path takes the decoder's address); this
//! reads them in one loop with the position in a local (integers a block
//! of input at a time first, `fill_blocks`), then hands the elements it
//! cannot take (out of range, another form, the last few bytes of the
//! input) to the usual path one by one, so that every value, error and
//! limit is the usual path's.
//!
//! It applies only when the visitor is the one serde's own
//! `impl Deserialize for Vec<T>` passes, recognised by type identity (so
//! another visitor of `Vec<T>`, with a meaning of its own, keeps it), and
//! only to arrays (bin, and anything else, goes as before).
//!
//! This module holds the cast that gives the vector back as the visitor's
//! value, after checking the two are one type.

#![allow(unsafe_code)]

use std::mem::{ManuallyDrop, MaybeUninit};

use msgpack_core::{marker, IntHead};
use serde::de::{Deserialize, Visitor};

use super::vec_elements::is_vec_visitor;
use super::{Decoder, Strings};
use crate::de::cautious;
use crate::Result;

/// A number an array element can be read as in the loop.
pub(in crate::de) trait Number: Copy + 'static + for<'de> Deserialize<'de> {
    /// The element a positive fixint (`byte` up to 0x7f) is: every
    /// number type holds 0 to 127 exactly, as the usual path reads them.
    /// Runs of eight are read with it (`fill`).
    fn from_positive_fixint(byte: u8) -> Self;

    /// The element a positive fixint is, for integers: read before any
    /// other form and without 9 bytes at hand, as small counts and ids are
    /// most arrays of integers.
    #[inline(always)]
    fn from_fixint(_byte: u8) -> Option<Self> {
        None
    }

    /// The element at the front of `window` (the next 9 bytes of the
    /// input, enough for any form) and the bytes it took, when it is this
    /// type's usual form and in range; `None` leaves it to the usual path.
    fn read(window: &[u8; 9]) -> Option<(Self, usize)>;

    /// The element an integer read as `head` is, when in this type's
    /// range; `None` for floats, which are not read by blocks.
    #[inline(always)]
    fn from_head(_head: IntHead) -> Option<Self> {
        None
    }

    /// Whether this is an integer type: the bytes `read` takes are then
    /// [`IntHead::marker_len`] of the first byte, so that the loop can
    /// work out where elements end a block ahead, and `from_head` takes
    /// what the blocks read (`fill_blocks`).
    const INTEGER: bool = false;
}

macro_rules! integers {
    ($($ty:ty => $signed:literal,)*) => {$(
        impl Number for $ty {
            const INTEGER: bool = true;

            #[inline(always)]
            fn from_positive_fixint(byte: u8) -> Self {
                byte as $ty
            }

            #[inline(always)]
            fn from_fixint(byte: u8) -> Option<Self> {
                match byte {
                    marker::FIXPOS..=marker::FIXPOS_MAX => Some(Self::from_positive_fixint(byte)),
                    _ => None,
                }
            }

            #[inline(always)]
            fn read(window: &[u8; 9]) -> Option<(Self, usize)> {
                if let Some(number) = Self::from_fixint(window[0]) {
                    return Some((number, 1));
                }
                let head = IntHead::from_window(window)?;
                Some((Self::from_head(head)?, head.len))
            }

            #[inline(always)]
            fn from_head(head: IntHead) -> Option<Self> {
                // As the usual path: one comparison that holds on in-range
                // data, not a branch on the sign, which mispredicts on
                // data of mixed signs.
                let value = if $signed {
                    if head.value >> 63 != head.negative as u64 {
                        return None;
                    }
                    <$ty>::try_from(head.value as i64).ok()?
                } else {
                    if head.negative {
                        return None;
                    }
                    <$ty>::try_from(head.value).ok()?
                };
                Some(value)
            }
        }
    )*};
}

integers! {
    i8 => true, i16 => true, i32 => true, i64 => true, isize => true,
    u8 => false, u16 => false, u32 => false, u64 => false, usize => false,
}

impl Number for f64 {
    #[inline(always)]
    fn from_positive_fixint(byte: u8) -> Self {
        f64::from(byte)
    }

    #[inline(always)]
    fn read(window: &[u8; 9]) -> Option<(Self, usize)> {
        match window {
            [marker::F64, bits @ ..] => Some((f64::from_be_bytes(*bits), 9)),
            _ => None,
        }
    }
}

impl Number for f32 {
    #[inline(always)]
    fn from_positive_fixint(byte: u8) -> Self {
        f32::from(byte)
    }

    #[inline(always)]
    fn read(window: &[u8; 9]) -> Option<(Self, usize)> {
        match window.first_chunk::<5>()? {
            [marker::F32, bits @ ..] => Some((f32::from_be_bytes(*bits), 5)),
            _ => None,
        }
    }
}

impl<'a, M> Decoder<'a, M> {
    /// The array at the reader as a `Vec<T>`, given as `V`'s value, when
    /// `V` is serde's visitor for `Vec<T>` and an array is next; otherwise
    /// the visitor back, nothing read.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) fn numbers<'de, T: Number, V: Visitor<'de>>(
        &mut self,
        start: usize,
        visitor: V,
    ) -> core::result::Result<Result<V::Value>, V>
    where
        M: Strings<'a, 'de>,
    {
        if !is_vec_visitor::<V, T>() {
            return Err(visitor);
        }
        let len = match self.reader.remaining().first() {
            Some(&byte @ marker::FIXARRAY..=marker::FIXARRAY_MAX) => {
                self.reader.consume(1);
                (byte & 0x0f) as u32
            }
            Some(&(marker::ARRAY16 | marker::ARRAY32)) => match self.reader.read_array_len() {
                Ok(len) => len,
                Err(error) => return Ok(Err(error.into())),
            },
            _ => return Err(visitor),
        };
        let read = self.read_numbers::<T>(start, len);
        Ok(read.map(|numbers| {
            let numbers = ManuallyDrop::new(numbers);
            // SAFETY: `V::Value` is `Vec<T>` (their ids are equal, checked
            // above, and `T` is `'static`), so this is a move of the
            // vector into its own type; the original is not dropped.
            unsafe { std::mem::transmute_copy::<Vec<T>, V::Value>(&numbers) }
        }))
    }

    /// The `len` elements of the array whose header, at `start`, has just
    /// been read, under the same checks and limits as any array.
    fn read_numbers<'de, T: Number>(&mut self, start: usize, len: u32) -> Result<Vec<T>>
    where
        M: Strings<'a, 'de>,
    {
        self.open(start, len, 1)?;
        // What serde's visitor reserves.
        let mut numbers = Vec::with_capacity(cautious::<T>(len as usize));
        let rest = self.reader.remaining();
        let mut pos = 0;
        loop {
            pos = fill(&mut numbers, rest, pos, len as usize);
            // Stopped by the end of the room, not by an element: more room
            // (doubling, as `push` grows), and on.
            if numbers.len() == len as usize || numbers.len() < numbers.capacity() {
                break;
            }
            numbers.reserve(1);
        }
        self.reader.consume(pos);
        self.pay(numbers.len() as u64);
        while numbers.len() < len as usize {
            self.pay(1);
            numbers.push(self.item()?);
        }
        self.close();
        Ok(numbers)
    }
}

/// Reads numbers from `rest` at `from` into the spare room of `numbers`,
/// until it holds `len`, the room is full, or an element is not in its
/// type's usual form (in the last 8 bytes, not a positive fixint); where
/// the reading stopped. Integers go a block at a time first
/// (`fill_blocks`) when there is room for enough of them; then runs of
/// positive fixints (a number of any type) eight at a time.
/// The count and the position stay in locals: `push` would store and
/// reload the vector's length for each element.
#[inline(always)]
pub(in crate::de) fn fill<T: Number>(
    numbers: &mut Vec<T>,
    rest: &[u8],
    from: usize,
    len: usize,
) -> usize {
    let held = numbers.len();
    let room = numbers.spare_capacity_mut();
    let room_len = room.len().min(len - held);
    let room = &mut room[..room_len];
    let mut pos = from;
    let mut read = 0;
    if T::INTEGER && room_len >= BLOCKS_FROM {
        // The blocks read an element from the 8 bytes that end it: those
        // that start within the input's first 8 bytes one by one first.
        one_by_one(room, rest, &mut pos, &mut read, BEFORE_BLOCK);
        if pos >= BEFORE_BLOCK {
            let (bytes, elements) = fill_blocks(&mut room[read..], rest, pos);
            pos += bytes;
            read += elements;
        }
    }
    // Runs of positive fixints (counts, ids, flags), eight bytes at a
    // time: one test of the eight, then eight elements without a branch.
    while let (Some(slots), Some(bytes)) = (
        room.get_mut(read..read + 8),
        rest.get(pos..).and_then(<[u8]>::first_chunk::<8>),
    ) {
        if u64::from_ne_bytes(*bytes) & 0x8080_8080_8080_8080 != 0 {
            break;
        }
        for (slot, &byte) in slots.iter_mut().zip(bytes) {
            slot.write(T::from_positive_fixint(byte));
        }
        pos += 8;
        read += 8;
    }
    one_by_one(room, rest, &mut pos, &mut read, usize::MAX);
    // The last 8 bytes: fixints, which need no more than their byte (a
    // short array is all there is of its input, or its end).
    while read < room_len {
        let Some(number) = rest.get(pos).and_then(|&byte| T::from_fixint(byte)) else {
            break;
        };
        room[read].write(number);
        pos += 1;
        read += 1;
    }
    // SAFETY: the loops here and `fill_blocks` (by its contract) wrote
    // the first `read` slots of the spare room after the `held`
    // elements, in order, and stopped at the room's end.
    unsafe { numbers.set_len(held + read) };
    pos
}

/// Reads elements one by one through `T::read` and a window of 9 bytes,
/// from `rest` at `pos` into `room` from slot `read`, while they start
/// before `until`; both left where it stopped.
#[inline(always)]
fn one_by_one<T: Number>(
    room: &mut [MaybeUninit<T>],
    rest: &[u8],
    pos: &mut usize,
    read: &mut usize,
    until: usize,
) {
    while *pos < until && *read < room.len() {
        let Some(window) = rest.get(*pos..).and_then(<[u8]>::first_chunk::<9>) else {
            break;
        };
        let Some((number, taken)) = T::read(window) else {
            break;
        };
        room[*read].write(number);
        *pos += taken;
        *read += 1;
    }
}

/// The bytes whose elements `fill_blocks` finds together.
const BLOCK: usize = 64;

/// The bytes before a block that its window holds: an element's read
/// takes the 8 bytes that end it, which for the first elements start
/// before the block.
const BEFORE_BLOCK: usize = 8;

/// A block's window: the bytes before it and twice the block, so that a
/// mask, not a comparison, keeps the 8 bytes that end an element inside
/// (an element starting in the block ends at most 8 bytes after it).
const WINDOW: usize = BEFORE_BLOCK + 2 * BLOCK;

/// The elements an array must have room for to be read by blocks: a
/// block's ends cost about what a few elements do.
const BLOCKS_FROM: usize = 16;

/// Integers read a block of input at a time, from `rest` at `from` (at
/// least [`BEFORE_BLOCK`]) into `room` from its start: first where an
/// element starting at each byte would end (the same operations on every
/// byte, done 16 at once), then the elements, each from the 8 bytes that
/// end it ([`IntHead::from_tail`]) and starting where the last ended, so
/// that each start waits on one load. Stops at the first element
/// `T::from_head` refuses, when `room` is full, or with less than a
/// window left; the bytes and elements read, written to `room` in order.
#[inline(always)]
fn fill_blocks<T: Number>(room: &mut [MaybeUninit<T>], rest: &[u8], from: usize) -> (usize, usize) {
    debug_assert!(from >= BEFORE_BLOCK);
    let mut pos = from;
    let mut read = 0;
    while let Some(window) = rest
        .get(pos - BEFORE_BLOCK..)
        .and_then(<[u8]>::first_chunk::<WINDOW>)
    {
        // Where an element starting at each of the block's bytes ends, in
        // the block (72 at most: a byte holds it).
        let ends: [u8; BLOCK] =
            core::array::from_fn(|at| at as u8 + IntHead::marker_len(window[BEFORE_BLOCK + at]));
        let mut at = 0;
        while at < BLOCK {
            // The 8 bytes that end the element (the mask proves them
            // inside the window).
            let end = usize::from(ends[at]);
            let tail_at = (BEFORE_BLOCK + end - 8) & (2 * BLOCK - 1);
            let tail = u64::from_be_bytes(*window[tail_at..].first_chunk::<8>().unwrap());
            let element =
                IntHead::from_tail(window[BEFORE_BLOCK + at], tail).and_then(T::from_head);
            let (Some(slot), Some(number)) = (room.get_mut(read), element) else {
                return (pos + at - from, read);
            };
            slot.write(number);
            at = end;
            read += 1;
        }
        pos += at;
    }
    (pos - from, read)
}

#[cfg(test)]
mod tests {
    use std::fmt::Debug;

    use proptest::prelude::*;

    use super::*;

    /// What `fill` reads, element by element through `T::read` and
    /// nothing else: the reference the blocks must agree with.
    fn reference<T: Number>(rest: &[u8], room: usize) -> (Vec<T>, usize) {
        let mut numbers = Vec::new();
        let mut pos = 0;
        while numbers.len() < room {
            let element = rest.get(pos..).and_then(<[u8]>::first_chunk::<9>);
            let Some((number, taken)) = element.and_then(T::read) else {
                break;
            };
            numbers.push(number);
            pos += taken;
        }
        (numbers, pos)
    }

    /// `fill_blocks` from the start of `bytes` (after 8 bytes no integer
    /// starts with), into room for `room`, reads a prefix of what the
    /// reference reads, stopping early only near the end of the input;
    /// `fill` reads all of it, and the fixints after it. The elements
    /// `fill_blocks` read.
    fn agree<T: Number + PartialEq + Debug>(
        bytes: &[u8],
        room: usize,
    ) -> Result<usize, TestCaseError> {
        let (expected, expected_pos) = reference::<T>(bytes, room);
        // The blocks start at least 8 bytes into their input: give them
        // 8 bytes no integer starts with before the elements.
        let mut before = vec![0xc1; BEFORE_BLOCK];
        before.extend_from_slice(bytes);
        let mut blocks = Vec::<T>::with_capacity(room);
        let (pos, read) = fill_blocks(
            &mut blocks.spare_capacity_mut()[..room],
            &before,
            BEFORE_BLOCK,
        );
        // SAFETY: `fill_blocks` wrote the first `read` slots.
        unsafe { blocks.set_len(read) };
        prop_assert_eq!(&blocks[..], &expected[..read]);
        let (_, prefix_pos) = reference::<T>(bytes, read);
        prop_assert_eq!(pos, prefix_pos);
        if read < expected.len() {
            prop_assert!(
                bytes.len() - pos < WINDOW - BEFORE_BLOCK,
                "stopped at {pos} of {}",
                bytes.len()
            );
        }

        let mut numbers = Vec::<T>::with_capacity(room);
        let pos = fill(&mut numbers, bytes, 0, room);
        fill_agrees(bytes, room, (&numbers, pos), (&expected, expected_pos))?;
        Ok(read)
    }

    /// What `fill` read into `numbers` up to `pos`, with room for `room`,
    /// is what the reference read, then the fixints after it.
    fn fill_agrees<T: Number + PartialEq + Debug>(
        bytes: &[u8],
        room: usize,
        (numbers, pos): (&[T], usize),
        (expected, expected_pos): (&[T], usize),
    ) -> Result<(), TestCaseError> {
        let fixints = bytes[expected_pos..]
            .iter()
            .take(room - expected.len())
            .map_while(|&byte| T::from_fixint(byte))
            .count();
        prop_assert_eq!(&numbers[..expected.len()], expected);
        prop_assert_eq!(numbers.len(), expected.len() + fixints);
        prop_assert_eq!(pos, expected_pos + fixints);
        Ok(())
    }

    /// Every form an encoder may write `value` in, not only the smallest.
    fn forms(value: i128) -> Vec<Vec<u8>> {
        let mut forms = Vec::new();
        if (0..=0x7f).contains(&value) || (-32..0).contains(&value) {
            forms.push(vec![value as u8]);
        }
        for width in 0..4u8 {
            let bytes = 1usize << width;
            let bits = 8 * bytes as u32;
            let mut form = |marker: u8| {
                let mut form = vec![marker + width];
                form.extend_from_slice(&(value as u64).to_be_bytes()[8 - bytes..]);
                forms.push(form);
            };
            if (0..1i128 << bits).contains(&value) {
                form(marker::U8);
            }
            if (-(1i128 << (bits - 1))..1i128 << (bits - 1)).contains(&value) {
                form(marker::I8);
            }
        }
        forms
    }

    /// An element of an array of values between `min` and `max`, small
    /// ones more often, in any of its forms; now and then a byte no
    /// integer starts with, or a value out of that range.
    fn element(min: i128, max: i128) -> impl Strategy<Value = Vec<u8>> {
        let value = prop_oneof![
            3 => (-40i128..300).prop_map(move |v| v.clamp(min, max)),
            3 => min..=max,
        ];
        let in_range = (value, any::<prop::sample::Index>()).prop_map(|(value, form)| {
            let forms = forms(value);
            forms[form.index(forms.len())].clone()
        });
        prop_oneof![
            60 => in_range,
            1 => prop_oneof![Just(0xc0u8), 0x80u8..=0xcb, 0xd4u8..=0xdf].prop_map(|byte| vec![byte]),
            1 => Just(vec![marker::U64, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
            1 => Just(vec![marker::I64, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        ]
    }

    macro_rules! blocks_agree {
        ($($name:ident: $ty:ty,)*) => {$(
            proptest! {
                #[test]
                fn $name(
                    elements in prop::collection::vec(
                        element(<$ty>::MIN as i128, <$ty>::MAX as i128),
                        0..300,
                    ),
                    room in 0usize..320,
                    trailing in prop::collection::vec(any::<u8>(), 0..80),
                ) {
                    let mut bytes = elements.concat();
                    bytes.extend_from_slice(&trailing);
                    agree::<$ty>(&bytes, room)?;
                    agree::<$ty>(&bytes, elements.len())?;
                }
            }
        )*};
    }

    blocks_agree! {
        i8_blocks_read_what_the_element_by_element_loop_reads: i8,
        i16_blocks_read_what_the_element_by_element_loop_reads: i16,
        i32_blocks_read_what_the_element_by_element_loop_reads: i32,
        i64_blocks_read_what_the_element_by_element_loop_reads: i64,
        u8_blocks_read_what_the_element_by_element_loop_reads: u8,
        u16_blocks_read_what_the_element_by_element_loop_reads: u16,
        u32_blocks_read_what_the_element_by_element_loop_reads: u32,
        u64_blocks_read_what_the_element_by_element_loop_reads: u64,
    }

    /// `fill` called again where it stopped after the vector grows, as
    /// `read_numbers` calls it from a small capacity (the blocks then
    /// start past the input's first 8 bytes): all of what the reference
    /// reads, and the fixints after it.
    fn agree_as_it_grows<T: Number + PartialEq + Debug>(
        bytes: &[u8],
        capacity: usize,
        len: usize,
    ) -> Result<(), TestCaseError> {
        let (expected, expected_pos) = reference::<T>(bytes, len);
        let mut numbers = Vec::<T>::with_capacity(capacity);
        let mut pos = 0;
        loop {
            pos = fill(&mut numbers, bytes, pos, len);
            if numbers.len() == len || numbers.len() < numbers.capacity() {
                break;
            }
            numbers.reserve(1);
        }
        fill_agrees(bytes, len, (&numbers, pos), (&expected, expected_pos))
    }

    proptest! {
        #[test]
        fn fill_goes_on_where_it_stopped_as_the_vector_grows(
            elements in prop::collection::vec(element(i64::MIN.into(), i64::MAX.into()), 16..400),
            narrow in prop::collection::vec(element(0, u16::MAX.into()), 16..400),
            capacity in 16usize..80,
        ) {
            agree_as_it_grows::<i64>(&elements.concat(), capacity, elements.len())?;
            agree_as_it_grows::<u16>(&narrow.concat(), capacity, narrow.len())?;
        }
    }

    /// Elements at a block's edges: one starting at its last byte and
    /// taking nine, the room ending with the block and within it.
    #[test]
    fn blocks_at_their_edges() {
        let mut bytes = vec![0x01; BLOCK - 1];
        bytes.extend_from_slice(&[marker::U64, 0, 0, 0, 0, 0, 0, 0, 0x2a]);
        bytes.extend(std::iter::repeat_n(0x02, 200));
        for room in [0, 1, BLOCK - 1, BLOCK, BLOCK + 1, BLOCK + 100] {
            let read = agree::<u64>(&bytes, room).unwrap();
            assert_eq!(read, room, "room {room}");
        }
        // A block that ends inside a 9-byte element, then one that starts
        // right after it.
        let mut bytes = vec![0x03; BLOCK - 5];
        bytes.extend_from_slice(&[marker::I64, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]);
        bytes.extend(std::iter::repeat_n(0x04, 200));
        let read = agree::<i64>(&bytes, BLOCK + 96).unwrap();
        assert_eq!(read, BLOCK + 96);
    }

    #[test]
    fn a_long_array_is_read_by_blocks_to_its_last_block() {
        let bytes: Vec<u8> = (0..1000i64)
            .flat_map(|i| {
                let mut element = Vec::new();
                let value = (i * 7919 % 100_003 - 50_000) << (i % 5 * 9);
                msgpack_core::encode::write_int(&mut element, value).unwrap();
                element
            })
            .collect();
        let read = agree::<i64>(&bytes, 1000).unwrap();
        let (_, pos) = reference::<i64>(&bytes, read);
        assert!(bytes.len() - pos < WINDOW - BEFORE_BLOCK);
        assert!(read > 950, "{read}");
    }
}
