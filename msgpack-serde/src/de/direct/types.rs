//! The standard types read directly: integers, floats, booleans,
//! strings and characters as serde's impls take them from our decoder;
//! `Option`s, `Vec`s and `Box`es of them; `Vec`s of numbers in runs, as
//! the decoder's loop reads serde's.

use msgpack_core::{marker, IntHead, Owed};

use super::{Counts, DirectRead, DirectReader};
use crate::de::cautious;
use crate::de::decoder::{fill_numbers, push_within_capacity, Number};
use crate::de::in_place::Sink;

/// The elements of an array of numbers, `len` of them, into `values`:
/// the runs our decoder's `Vec` of numbers reads at once
/// (`decoder/numbers.rs`), then the rest one by one. Numbers open no
/// containers, so none is paid: the array's close sets the owed count
/// back as paying for them all would.
#[cfg_attr(not(debug_assertions), inline(always))]
fn read_numbers<T: Number + DirectRead>(
    reader: &mut DirectReader<'_, '_>,
    len: u32,
    values: &mut Vec<T>,
) -> Option<()> {
    let taken = numbers(reader.rest, len as usize, values)?;
    reader.skip(taken);
    Some(())
}

/// The bytes `len` numbers at the front of `rest` take, read into
/// `values`, reserved for as serde's `Vec` reserves. Out of line, in a
/// loop of its own, as the decoder's is.
#[inline(never)]
fn numbers<T: Number + DirectRead>(rest: &[u8], len: usize, values: &mut Vec<T>) -> Option<usize> {
    values.reserve_exact(cautious::<T>(len));
    let mut pos = 0;
    loop {
        pos = fill_numbers(values, rest, pos, len);
        // Stopped by the end of the room: more room, and on.
        if values.len() == len || values.len() < values.capacity() {
            break;
        }
        values.reserve(1);
    }
    // What the runs left (another form, out of range, the input's last
    // bytes): one by one. A number's read uses no limit count.
    let mut counts = Counts {
        depth_left: 0,
        values_left: 0,
        owed: Owed::new(0),
    };
    let mut reader = DirectReader {
        rest: rest.get(pos..)?,
        counts: &mut counts,
    };
    while values.len() < len {
        push(values, T::read_direct(&mut reader)?);
    }
    Some(rest.len() - reader.rest.len())
}

/// Pushes a number the runs left onto `values`, in room reserved one
/// element at a time past serde's reservation.
#[cfg_attr(not(debug_assertions), inline(always))]
fn push<T>(values: &mut Vec<T>, value: T) {
    if values.len() == values.capacity() {
        values.reserve(1);
    }
    push_within_capacity(values, value);
}

/// A number type's `read_elements`: runs at once ([`read_numbers`]).
macro_rules! in_runs {
    () => {
        #[cfg_attr(not(debug_assertions), inline(always))]
        fn read_elements(
            reader: &mut DirectReader<'_, '_>,
            len: u32,
            values: &mut Vec<Self>,
        ) -> Option<()> {
            read_numbers(reader, len, values)
        }
    };
}

/// Integers of any form whose value the type holds, as serde's
/// primitives take them from our decoder.
macro_rules! integers {
    ($($ty:ty)*) => {$(
        impl DirectRead for $ty {
            #[inline(always)]
            fn reads_direct() -> bool {
                true
            }

            const OPENS: bool = false;

            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<$ty> {
                let head = IntHead::read(reader.rest)?;
                let value = match head.negative {
                    true => <$ty>::try_from(head.value as i64).ok()?,
                    false => <$ty>::try_from(head.value).ok()?,
                };
                reader.skip(head.len);
                Some(value)
            }

            in_runs!();
        }
    )*};
}

integers!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize);

impl DirectRead for bool {
    #[inline(always)]
    fn reads_direct() -> bool {
        true
    }

    const OPENS: bool = false;

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<bool> {
        let value = match *reader.rest.first()? {
            marker::FALSE => false,
            marker::TRUE => true,
            _ => return None,
        };
        reader.skip(1);
        Some(value)
    }
}

impl DirectRead for f32 {
    #[inline(always)]
    fn reads_direct() -> bool {
        true
    }

    const OPENS: bool = false;

    /// A float 32.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<f32> {
        let (&marker::F32, rest) = reader.rest.split_first()? else {
            return None;
        };
        let value = f32::from_be_bytes(*rest.first_chunk()?);
        reader.skip(5);
        Some(value)
    }

    in_runs!();
}

impl DirectRead for f64 {
    #[inline(always)]
    fn reads_direct() -> bool {
        true
    }

    const OPENS: bool = false;

    /// A float 64, or a float 32 widened, as serde's `f64` takes one.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<f64> {
        let (&first, rest) = reader.rest.split_first()?;
        let (value, len) = match first {
            marker::F64 => (f64::from_be_bytes(*rest.first_chunk()?), 9),
            marker::F32 => (f32::from_be_bytes(*rest.first_chunk()?) as f64, 5),
            _ => return None,
        };
        reader.skip(len);
        Some(value)
    }

    in_runs!();
}

impl DirectRead for String {
    #[inline(always)]
    fn reads_direct() -> bool {
        true
    }

    const OPENS: bool = false;

    /// A str of any width, UTF-8, copied: found in line, copied out of
    /// line (a call that takes the text, so the reader stays in
    /// registers) and given to the sink there.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_direct_to<S: Sink<String>>(
        reader: &mut DirectReader<'_, '_>,
        sink: S,
    ) -> Option<S::Out> {
        reader.str().map(|text| owned(text, sink))
    }
}

/// `text`, copied into a `String` of its own, given to `sink`: written
/// into a vector's slot here, where a `String` returned (through memory)
/// and moved into the slot would be loaded back, in wider pieces, just
/// after it was stored (a wait on many processors: `de/in_place.rs`).
#[inline(never)]
fn owned<S: Sink<String>>(text: &str, sink: S) -> S::Out {
    sink.finish(msgpack_core::decode::owned_str(text))
}

impl DirectRead for char {
    #[inline(always)]
    fn reads_direct() -> bool {
        true
    }

    const OPENS: bool = false;

    /// A str of one character, as serde's `char` takes one.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<char> {
        let mut chars = reader.str()?.chars();
        chars.next().filter(|_| chars.next().is_none())
    }
}

impl<T: DirectRead> DirectRead for Option<T> {
    #[inline(always)]
    fn reads_direct() -> bool {
        T::reads_direct()
    }

    const OPENS: bool = T::OPENS;

    #[inline(always)]
    fn reads_direct_nested() -> bool {
        T::reads_direct_nested()
    }

    /// Nil as `None`, as serde's `Option` reads it from our decoder.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<Option<T>> {
        if reader.nil() {
            return Some(None);
        }
        T::read_direct(reader).map(Some)
    }
}

impl<T: DirectRead> DirectRead for Vec<T> {
    /// As `T` answers nested: a recursive type's recursion passes
    /// through a `Vec` or a `Box`, so the question ends.
    #[inline(always)]
    fn reads_direct() -> bool {
        T::reads_direct_nested()
    }

    #[inline(always)]
    fn reads_direct_nested() -> bool {
        true
    }

    /// An array, its elements reserved for as serde's `Vec` reserves.
    /// Inlined always only when optimized, as the derived reads are: a
    /// debug build keeps an inlined callee's locals in the caller's
    /// frame, at every level of a recursive type.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<Vec<T>> {
        if !T::reads_direct() {
            return None;
        }
        let elements = reader.array()?;
        let len = elements.left;
        let mut values = Vec::new();
        T::read_elements(reader, len, &mut values)?;
        elements.read(reader);
        Some(values)
    }
}

impl<T: DirectRead> DirectRead for Box<T> {
    /// As `T` answers nested, as a `Vec`.
    #[inline(always)]
    fn reads_direct() -> bool {
        T::reads_direct_nested()
    }

    #[inline(always)]
    fn reads_direct_nested() -> bool {
        true
    }

    const OPENS: bool = T::OPENS;

    /// `T`, boxed, as serde's `Box` reads it; `T` asked whether it reads
    /// directly, as a `Vec` asks.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<Box<T>> {
        if !T::reads_direct() {
            return None;
        }
        T::read_direct(reader).map(Box::new)
    }
}
