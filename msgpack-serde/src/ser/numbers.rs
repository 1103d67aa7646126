//! Sequences of numbers (`Vec<i64>`, `&[f32]`, `VecDeque<u8>`: any
//! `collect_seq` whose items are `&T` for an integer, float or bool `T`)
//! written into a vector in one loop: one reservation for the whole
//! sequence and the write position kept in a register, where serde's
//! element-by-element path checks the vector's capacity and stores its
//! length for each element. The bytes are the same; only our serializer
//! over a `Vec<u8>` takes this path, any other writer the usual one.
//!
//! The element type is recognised by type identity, as the derive's
//! direct path recognises our serializer (`direct.rs`); this module holds
//! the cast from the iterator's item to `&T`. A slice's iterator (serde's
//! `Vec<T>` and `[T]`) is recognised the same way and gives its slice to
//! the type's `Direct::put_elements`, as a derived struct's vector does.

#![allow(unsafe_code)]

use serde::Serialize;

use super::direct::{self, Direct};
use super::{Serializer, StructMode};
use crate::Result;

/// Writes the `len` items of `items` (its exact length, from its size
/// hint) when they are references to a number type and `serializer`
/// writes into a vector; otherwise gives `items` back, nothing written.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn collect<W, F: StructMode, I>(
    serializer: &mut Serializer<W, F>,
    items: I,
    len: usize,
) -> core::result::Result<Result<()>, I>
where
    I: Iterator,
    I::Item: Serialize,
{
    // The type tests are constants: all but the one that holds fold away.
    macro_rules! numbers {
        ($($ty:ty)*) => {$(
            if typeid::of::<I::Item>() == typeid::of::<&$ty>() {
                return put_all::<$ty, _, _, _>(serializer, items, len);
            }
        )*};
    }
    numbers!(i64 u64 i32 u32 i16 u16 i8 u8 f64 f32 bool);
    Err(items)
}

/// [`collect`] for items known to be `&T`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn put_all<T: Direct, W, F: StructMode, I: Iterator>(
    serializer: &mut Serializer<W, F>,
    items: I,
    len: usize,
) -> core::result::Result<Result<()>, I> {
    let Some((vec, config)) = direct::vec_of::<&mut Serializer<W, F>, F>(&serializer) else {
        return Err(items);
    };
    // SAFETY: `vec` points into `serializer`'s vector (`vec_of`), which
    // `serializer` borrows mutably for this whole call and which nothing
    // else touches while this reborrow lives.
    let vec = unsafe { &mut *vec };
    Ok(direct::put_seq::<T>(vec, config, len, |out| {
        // A slice's iterator (serde's `Vec<T>` and `[T]`) gives its
        // slice, written a block at a time.
        if typeid::of::<I>() == typeid::of::<core::slice::Iter<'_, T>>() {
            // SAFETY: `I` is `slice::Iter<'_, T>` (their ids are equal);
            // ids differ only in lifetimes, and the slice is used here,
            // within the iterator's own. `items` is not used after the
            // copy, and the iterator has no drop glue.
            let items: core::slice::Iter<'_, T> = unsafe { std::mem::transmute_copy(&items) };
            return T::put_elements(items.as_slice(), out);
        }
        for item in items {
            // SAFETY: `I::Item` is `&T` (their ids are equal, checked by
            // `collect`); ids differ only in lifetimes, and the reference
            // is used here, within the item's own lifetime. A reference
            // has no drop glue, so copying it out leaves nothing to drop.
            let number: &T = unsafe { std::mem::transmute_copy(&item) };
            number.put(out)?;
        }
        Ok(())
    }))
}
