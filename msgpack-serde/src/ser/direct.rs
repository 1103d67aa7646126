//! The direct path of derived types: when a `#[derive(MsgPack)]` type is
//! serialized by this crate's own [`Serializer`] into a `Vec<u8>` (what
//! `to_vec`, `to_writer` into a vector and axum's responses use), it
//! writes itself into a [`Room`] reserved once, without serde's calls in
//! between and without a capacity check per field. Any other serializer
//! (serde_json, another format, ours over an `io::Write`) gets the same
//! impl's serde path. Both write the same bytes: `tests/derive_direct.rs`
//! compares them.
//!
//! This module holds the casts that recognise our serializer by type
//! identity and give its result back; `fuzz/README.md` lists every
//! `unsafe` block of the crates, why it holds, and the tests that run it.

#![allow(unsafe_code)]

use std::marker::PhantomData;
use std::mem::ManuallyDrop;

use msgpack_core::{PausedRoom, Room};
use serde::Serialize;

use super::{Compact, Configured, Named, Serializer};
use crate::{Config, Result};

mod strings;

use strings::{fixstr, put_str};

/// Where a value on the direct path writes: the reserved room, and the
/// configuration of the serializer it came from (for values that go
/// through serde after all).
#[derive(Debug)]
pub struct Out<'a> {
    room: Room<'a>,
    config: Config,
    /// Room a string leaves after itself, checked with its own: what a
    /// named struct's next field takes at most if a number (`compound.rs`
    /// sets it, for the field's name too when that is a string of more
    /// than 8 bytes), so that its writes check nothing. Zero elsewhere.
    pub(super) keep: usize,
}

impl<'a> Out<'a> {
    /// A room over `vec` with `estimate` bytes reserved, for the fields
    /// of a struct on serde's path (`compound.rs`).
    #[inline(always)]
    pub(super) fn over(vec: &'a mut Vec<u8>, estimate: usize, config: Config) -> Self {
        Out {
            room: Room::new(vec, estimate),
            config,
            keep: 0,
        }
    }

    /// Takes up a room [`pause`](Out::pause) set aside.
    ///
    /// # Safety
    ///
    /// As [`Room::resume`]'s: `vec` is the vector the room was over, as
    /// it was when the room was paused.
    #[inline(always)]
    pub(super) unsafe fn resume(vec: &'a mut Vec<u8>, paused: PausedRoom, config: Config) -> Self {
        Out {
            // SAFETY: the caller's promise, passed on.
            room: unsafe { Room::resume(vec, paused) },
            config,
            keep: 0,
        }
    }

    /// Sets the room aside between two fields (see [`Room::pause`]).
    #[inline(always)]
    pub(super) fn pause(self) -> PausedRoom {
        self.room.pause()
    }

    /// Makes what was written part of the vector.
    #[inline(always)]
    pub(super) fn finish(self) {
        self.room.finish();
    }

    /// A struct's field name as a map key, the same bytes as
    /// `compound.rs`'s `write_field_name`: a name of up to 8 bytes and its
    /// header in one fixed-size copy of a constant (one 8-byte store for
    /// a name of up to 7).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn field_name(&mut self, name: &'static str) -> Result<()> {
        let bytes = name.as_bytes();
        if bytes.len() <= 7 {
            self.room.put_prefix(&fixstr::<8>(bytes), 1 + bytes.len());
            Ok(())
        } else if bytes.len() <= 8 {
            self.room.put_prefix(&fixstr::<9>(bytes), 1 + bytes.len());
            Ok(())
        } else {
            put_str(self, None, bytes)
        }
    }

    /// A map header of `len` pairs.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn map_len(&mut self, len: usize) -> Result<()> {
        self.room.put_map_len(len)?;
        Ok(())
    }

    /// An array header of `len` elements.
    #[inline(always)]
    pub fn array_len(&mut self, len: usize) -> Result<()> {
        self.room.put_array_len(len)?;
        Ok(())
    }

    /// A field's tag, as a map key.
    #[inline(always)]
    pub fn tag(&mut self, tag: u64) {
        self.room.put_uint(tag);
    }

    /// A nil.
    #[inline(always)]
    pub fn nil(&mut self) {
        self.room.put([msgpack_core::marker::NIL]);
    }

    /// Room for `additional` more bytes, reserved now.
    #[inline(always)]
    pub fn reserve(&mut self, additional: usize) {
        self.room.reserve(additional);
    }

    /// Writes `values`, each of at most `bound` bytes, in a room of its
    /// own reserved at that size: a room whose size the compiler knows,
    /// so that the writes of a value that keeps to it need no room check.
    #[inline(always)]
    fn put_bounded<T: Direct>(&mut self, values: &[T], bound: usize) -> Result<()> {
        let config = self.config;
        self.room.with_vec(|vec| {
            values.iter().try_for_each(|value| {
                let mut out = Out {
                    room: Room::new(vec, bound),
                    config,
                    keep: 0,
                };
                let result = value.put(&mut out);
                out.room.finish();
                result
            })
        })
    }

    /// `value` through serde, for a type that has no direct path: our
    /// serializer over the same vector, with the same configuration.
    #[inline]
    pub fn serialize<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        let config = self.config;
        self.room
            .with_vec(|vec| value.serialize(&mut Serializer::with_config(vec, config)))
    }
}

/// A type that writes itself on the direct path: what `#[derive(MsgPack)]`
/// implements, and the std types fields have. Not public API.
pub trait Direct {
    /// About how many bytes a value of this type takes, reserved before
    /// writing it: exact for fixed-size types, a lower guess for others
    /// (a short guess costs one more reservation, never a wrong byte).
    fn estimate() -> usize
    where
        Self: Sized;

    /// The most bytes a value of this type ever takes, for types of
    /// bounded size (numbers, bools, structs of them), `None` for others.
    /// A vector of such values gives each its own room of this size, in
    /// which every write is at an offset the compiler knows.
    #[inline(always)]
    fn bound() -> Option<usize>
    where
        Self: Sized,
    {
        None
    }

    /// Writes the value: the bytes our serializer writes for it.
    fn put(&self, out: &mut Out<'_>) -> Result<()>;

    /// Writes `values` one after another (a vector's elements, after
    /// its header): each in a room of its [`bound`](Self::bound) when it
    /// has one. Numbers and bools write a block of values after one room
    /// check.
    #[inline(always)]
    fn put_elements(values: &[Self], out: &mut Out<'_>) -> Result<()>
    where
        Self: Sized,
    {
        match Self::bound() {
            Some(bound) => out.put_bounded(values, bound),
            None => values.iter().try_for_each(|value| value.put(out)),
        }
    }

    /// Writes the one-byte map key `key` (a tag below 128), then the
    /// value: types whose first write is small fold the key into it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn put_keyed(&self, key: u8, out: &mut Out<'_>) -> Result<()> {
        out.room.put([key]);
        self.put(out)
    }
}

/// Writes `value` on the direct path when `serializer` is this crate's
/// own `Serializer` over a `Vec<u8>` (owned or borrowed), in any struct
/// mode, and not human readable, and gives back its result as the
/// serializer's; otherwise gives back the serializer, for the serde path.
#[inline(always)]
pub fn direct<T, S>(
    value: &T,
    serializer: S,
) -> core::result::Result<core::result::Result<S::Ok, S::Error>, S>
where
    T: Direct,
    S: serde::Serializer,
{
    // The type tests are constants: all but the one that holds fold away.
    let result = match vec_of::<S, Configured>(&serializer)
        .or_else(|| vec_of::<S, Named>(&serializer))
        .or_else(|| vec_of::<S, Compact>(&serializer))
    {
        Some((_, config)) if config.is_human_readable() => return Err(serializer),
        // SAFETY: `vec` points into the serializer `serializer` refers to
        // (`vec_of`), which outlives this call and is not used while the
        // reborrow lives: nothing else touches `serializer` until `run`
        // has returned.
        Some((vec, config)) => run(unsafe { &mut *vec }, config, value),
        None => return Err(serializer),
    };
    std::mem::forget(serializer);
    // What the cast below rests on, checked where it is made: a constant,
    // so it folds away, and it fails loudly should the serializer's
    // `Ok` or `Error` ever change.
    assert!(
        typeid::of::<core::result::Result<S::Ok, S::Error>>() == typeid::of::<Result<()>>(),
        "our serializer's result is `Result<(), Error>`"
    );
    let result = ManuallyDrop::new(result);
    // SAFETY: `S` is `&mut Serializer<W, F>` for a vector `W` (checked
    // by `vec_of`), whose `Ok` is `()` and whose `Error` is
    // `crate::Error`: `Result<S::Ok, S::Error>` is `Result<(), Error>`,
    // the type of `result`, which is copied out once and never dropped.
    Ok(unsafe { std::mem::transmute_copy(&*result) })
}

/// The vector and configuration of `serializer` when `S` is
/// `&mut Serializer<Vec<u8>, F>` or `&mut Serializer<&mut Vec<u8>, F>`.
#[inline(always)]
pub(super) fn vec_of<S, F>(serializer: &S) -> Option<(*mut Vec<u8>, Config)> {
    let id = typeid::of::<S>();
    if id == typeid::of::<&mut Serializer<Vec<u8>, F>>() {
        // SAFETY: `S` is `&'a mut Serializer<Vec<u8>, F>` for some `'a`:
        // the ids are equal, they differ only in lifetimes, and the
        // referent has none (`F` is one of the struct modes, which are
        // sealed and `'static`). The copy of the reference only yields a
        // pointer to the vector, used by the caller while `serializer` is
        // not.
        let ours: &mut Serializer<Vec<u8>, F> = unsafe { std::mem::transmute_copy(serializer) };
        Some((&mut ours.out, ours.config))
    } else if id == typeid::of::<&mut Serializer<&mut Vec<u8>, F>>() {
        // SAFETY: `S` is `&'a mut Serializer<&'b mut Vec<u8>, F>` for some
        // `'b: 'a` (equal ids, as above, but for lifetimes). The cast
        // names other lifetimes, but all that leaves this block is a
        // pointer to the vector, which the caller reborrows for less than
        // both, and nothing is stored into the serializer.
        let ours: &mut Serializer<&mut Vec<u8>, F> =
            unsafe { std::mem::transmute_copy(serializer) };
        Some((&mut *ours.out, ours.config))
    } else {
        None
    }
}

/// Writes through a room over `vec`, what was written kept even on an
/// error, as on the serde path (`to_writer` truncates, `to_vec` drops it).
#[inline(always)]
fn run<T: Direct>(vec: &mut Vec<u8>, config: Config, value: &T) -> Result<()> {
    // The room is a local here and `put` is inlined into this function
    // when optimized: the compiler keeps the room in registers while it
    // is written.
    let mut out = Out {
        room: Room::new(vec, T::estimate()),
        config,
        keep: 0,
    };
    let result = value.put(&mut out);
    out.room.finish();
    result
}

/// Writes an array of `len` elements through a room over `vec`: the
/// header, then the elements `put` writes, their room reserved ahead as
/// for a `Vec<T>`. What was written is kept even on an error, as in `run`.
#[inline(always)]
pub(super) fn put_seq<T: Direct>(
    vec: &mut Vec<u8>,
    config: Config,
    len: usize,
    put: impl FnOnce(&mut Out<'_>) -> Result<()>,
) -> Result<()> {
    let mut out = Out {
        room: Room::new(vec, 5 + ahead::<T>(len)),
        config,
        keep: 0,
    };
    let result = out.array_len(len).and_then(|()| put(&mut out));
    out.room.finish();
    result
}

/// The most a vector's elements reserve ahead of writing them.
const MAX_AHEAD: usize = 1 << 20;

/// What `len` elements of `T` reserve ahead: their estimates, at most
/// `MAX_AHEAD`, as an estimate is an upper bound for fixed-size types
/// (nine bytes for a `u64` that may take one) and a large vector grows
/// the room as a `Vec` grows.
#[inline(always)]
fn ahead<T: Direct>(len: usize) -> usize {
    len.saturating_mul(T::estimate()).min(MAX_AHEAD)
}

/// A field's type, for the derive to pick the type's direct path when it
/// has one and serde's otherwise, by autoref specialization: the derive
/// calls `(&Via::<T>::new()).put(..)`, which finds [`ViaDirect`]'s method
/// on `Via<T>` first when `T: Direct`, and [`ViaSerde`]'s on `&Via<T>`
/// otherwise (or when `T` is a type parameter).
pub struct Via<T: ?Sized>(PhantomData<fn(&T)>);

impl<T: ?Sized> Via<T> {
    /// The probe.
    #[inline(always)]
    pub const fn new() -> Self {
        Via(PhantomData)
    }
}

impl<T: ?Sized> Default for Via<T> {
    fn default() -> Self {
        Via::new()
    }
}

impl<T: ?Sized> std::fmt::Debug for Via<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Via")
    }
}

/// The direct path of a field whose type has one.
pub trait ViaDirect<T: ?Sized> {
    /// The type's estimate.
    fn estimate(&self) -> usize;
    /// The type's bound.
    fn bound(&self) -> Option<usize>;
    /// The type's direct write.
    fn put(&self, value: &T, out: &mut Out<'_>) -> Result<()>;
    /// The type's direct write after a one-byte key.
    fn put_keyed(&self, value: &T, key: u8, out: &mut Out<'_>) -> Result<()>;
}

impl<T: Direct> ViaDirect<T> for Via<T> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn put_keyed(&self, value: &T, key: u8, out: &mut Out<'_>) -> Result<()> {
        value.put_keyed(key, out)
    }

    #[inline(always)]
    fn estimate(&self) -> usize {
        T::estimate()
    }

    #[inline(always)]
    fn bound(&self) -> Option<usize> {
        T::bound()
    }

    #[inline(always)]
    fn put(&self, value: &T, out: &mut Out<'_>) -> Result<()> {
        value.put(out)
    }
}

/// Serde's path, for a field whose type has no direct one.
pub trait ViaSerde<T: ?Sized> {
    /// Nothing known ahead.
    fn estimate(&self) -> usize;
    /// No bound known.
    fn bound(&self) -> Option<usize>;
    /// Through our serializer.
    fn put(&self, value: &T, out: &mut Out<'_>) -> Result<()>;
    /// The key, then through our serializer.
    fn put_keyed(&self, value: &T, key: u8, out: &mut Out<'_>) -> Result<()>;
}

impl<T: ?Sized + Serialize> ViaSerde<T> for &Via<T> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn put_keyed(&self, value: &T, key: u8, out: &mut Out<'_>) -> Result<()> {
        out.room.put([key]);
        out.serialize(value)
    }

    #[inline(always)]
    fn estimate(&self) -> usize {
        0
    }

    #[inline(always)]
    fn bound(&self) -> Option<usize> {
        None
    }

    #[inline(always)]
    fn put(&self, value: &T, out: &mut Out<'_>) -> Result<()> {
        out.serialize(value)
    }
}

/// The marker of a bool.
#[inline(always)]
fn bool_marker(value: bool) -> u8 {
    if value {
        msgpack_core::marker::TRUE
    } else {
        msgpack_core::marker::FALSE
    }
}

/// Writes a run of numbers or bools, each as `encode` gives it: a block
/// at a time ([`Room::put_each`]) when there are enough of them to pay
/// for the blocks' setup, one by one otherwise.
#[inline(always)]
fn put_run<T: Direct, const N: usize>(
    values: &[T],
    out: &mut Out<'_>,
    encode: impl FnMut(&T) -> ([u8; N], usize),
) -> Result<()> {
    if values.len() < RUN_FROM {
        return values.iter().try_for_each(|value| value.put(out));
    }
    out.room.put_each(values, encode);
    Ok(())
}

/// The shortest run [`put_run`] writes a block at a time.
const RUN_FROM: usize = 16;

macro_rules! direct_ints {
    ($($ty:ty => $put:ident, $bytes:ident as $wide:ty),*) => {$(
        impl Direct for $ty {
            #[inline(always)]
            fn estimate() -> usize {
                1 + std::mem::size_of::<$ty>()
            }

            #[inline(always)]
            fn bound() -> Option<usize> {
                Some(Self::estimate())
            }

            #[inline(always)]
            fn put(&self, out: &mut Out<'_>) -> Result<()> {
                out.room.$put(*self as $wide);
                Ok(())
            }

            #[inline(always)]
            fn put_elements(values: &[Self], out: &mut Out<'_>) -> Result<()> {
                put_run(values, out, |&value| msgpack_core::encode::$bytes(value as $wide))
            }

            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn put_keyed(&self, key: u8, out: &mut Out<'_>) -> Result<()> {
                if (*self as $wide as u64) < 128 {
                    out.room.put([key, *self as u8]);
                    return Ok(());
                }
                out.room.put([key]);
                self.put(out)
            }
        }
    )*};
}

direct_ints!(
    u8 => put_uint, uint_bytes as u64, u16 => put_uint, uint_bytes as u64,
    u32 => put_uint, uint_bytes as u64, u64 => put_uint, uint_bytes as u64,
    i8 => put_int, int_bytes as i64, i16 => put_int, int_bytes as i64,
    i32 => put_int, int_bytes as i64, i64 => put_int, int_bytes as i64
);

/// Floats: the marker, then the big-endian bits (as `encode::write_f32`
/// and `write_f64`), the key stored with them.
macro_rules! direct_floats {
    ($($ty:ty => $marker:ident),*) => {$(
        impl Direct for $ty {
            #[inline(always)]
            fn estimate() -> usize {
                1 + std::mem::size_of::<$ty>()
            }

            #[inline(always)]
            fn bound() -> Option<usize> {
                Some(Self::estimate())
            }

            #[inline(always)]
            fn put(&self, out: &mut Out<'_>) -> Result<()> {
                out.room.put_marked([msgpack_core::marker::$marker], self.to_be_bytes());
                Ok(())
            }

            #[inline(always)]
            fn put_elements(values: &[Self], out: &mut Out<'_>) -> Result<()> {
                const N: usize = 1 + std::mem::size_of::<$ty>();
                put_run(values, out, |value| {
                    let mut bytes = [msgpack_core::marker::$marker; N];
                    bytes[1..].copy_from_slice(&value.to_be_bytes());
                    (bytes, N)
                })
            }

            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn put_keyed(&self, key: u8, out: &mut Out<'_>) -> Result<()> {
                out.room.put_marked([key, msgpack_core::marker::$marker], self.to_be_bytes());
                Ok(())
            }
        }
    )*};
}

direct_floats!(f32 => F32, f64 => F64);

impl Direct for bool {
    #[inline(always)]
    fn estimate() -> usize {
        1
    }

    #[inline(always)]
    fn bound() -> Option<usize> {
        Some(1)
    }

    #[inline(always)]
    fn put(&self, out: &mut Out<'_>) -> Result<()> {
        out.room.put([bool_marker(*self)]);
        Ok(())
    }

    #[inline(always)]
    fn put_elements(values: &[Self], out: &mut Out<'_>) -> Result<()> {
        put_run(values, out, |&value| ([bool_marker(value)], 1))
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn put_keyed(&self, key: u8, out: &mut Out<'_>) -> Result<()> {
        out.room.put([key, bool_marker(*self)]);
        Ok(())
    }
}

impl<T: Direct> Direct for Option<T> {
    #[inline(always)]
    fn estimate() -> usize {
        T::estimate()
    }

    /// A nil is one byte, no more than any value.
    #[inline(always)]
    fn bound() -> Option<usize> {
        T::bound()
    }

    #[inline(always)]
    fn put(&self, out: &mut Out<'_>) -> Result<()> {
        match self {
            Some(value) => value.put(out),
            None => {
                out.nil();
                Ok(())
            }
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn put_keyed(&self, key: u8, out: &mut Out<'_>) -> Result<()> {
        match self {
            Some(value) => value.put_keyed(key, out),
            None => {
                out.room.put([key, msgpack_core::marker::NIL]);
                Ok(())
            }
        }
    }
}

impl<T: Direct> Direct for Vec<T> {
    #[inline(always)]
    fn estimate() -> usize {
        1
    }

    #[inline(always)]
    fn put(&self, out: &mut Out<'_>) -> Result<()> {
        out.array_len(self.len())?;
        // One reservation for the elements' estimates, then none while
        // they keep to it.
        out.reserve(ahead::<T>(self.len()));
        T::put_elements(self, out)
    }
}
