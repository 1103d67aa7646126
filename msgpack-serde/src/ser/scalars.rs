//! The fields of a struct or tuple that are numbers, bools or strings
//! (`Option`s of them too), written into the struct's room when our
//! serializer writes into a vector: the room's write position stays in a
//! register across a run of such fields, where serde's path checks the
//! vector's capacity and stores its length for each one (see
//! `compound.rs`'s `Fields`). The bytes are the same as serde's path
//! writes, since each type's [`Direct`] write is.
//!
//! The field's type is recognised by type identity, as in `numbers.rs`;
//! this module holds the cast from the field to its type.

#![allow(unsafe_code)]

use super::direct::{Direct, Out};
use crate::Result;

/// `is_scalar` and `put` over one list of types, so that every type one
/// accepts the other writes.
macro_rules! scalars {
    ($($ty:ty),* $(,)?) => {
        /// Whether [`put`] writes a field of type `T`. A constant once
        /// optimized.
        #[cfg_attr(not(debug_assertions), inline(always))]
        pub(super) fn is_scalar<T: ?Sized>() -> bool {
            let id = typeid::of::<T>();
            false $(|| id == typeid::of::<$ty>())*
        }

        /// Writes `value` into `out` when its type is one [`is_scalar`]
        /// accepts, and gives back the result; `None` (nothing written)
        /// otherwise.
        #[cfg_attr(not(debug_assertions), inline(always))]
        pub(super) fn put<T: ?Sized>(value: &T, out: &mut Out<'_>) -> Option<Result<()>> {
            let id = typeid::of::<T>();
            $(
                if id == typeid::of::<$ty>() {
                    // SAFETY: `T` is this type (equal ids; ids differ
                    // only in lifetimes, and a borrowed one is used here
                    // within `value`'s own): `&T` and `&$ty` are the same
                    // reference, thin or fat alike, copied out once. A
                    // reference has no drop glue.
                    let value: &$ty = unsafe { core::mem::transmute_copy(&value) };
                    return Some(Scalar::put_into(value, out));
                }
            )*
            None
        }
    };
}

scalars!(
    i64,
    u64,
    i32,
    u32,
    i16,
    u16,
    i8,
    u8,
    f64,
    f32,
    bool,
    String,
    str,
    &str,
    Option<i64>,
    Option<u64>,
    Option<i32>,
    Option<u32>,
    Option<i16>,
    Option<u16>,
    Option<i8>,
    Option<u8>,
    Option<f64>,
    Option<f32>,
    Option<bool>,
    Option<String>,
    Option<&str>,
);

/// A field type of the list above: its [`Direct`] write.
trait Scalar {
    fn put_into(&self, out: &mut Out<'_>) -> Result<()>;
}

impl<T: ?Sized + Direct> Scalar for T {
    #[inline(always)]
    fn put_into(&self, out: &mut Out<'_>) -> Result<()> {
        self.put(out)
    }
}

impl Scalar for &str {
    #[inline(always)]
    fn put_into(&self, out: &mut Out<'_>) -> Result<()> {
        (**self).put(out)
    }
}

impl Scalar for Option<&str> {
    #[inline(always)]
    fn put_into(&self, out: &mut Out<'_>) -> Result<()> {
        match self {
            Some(text) => text.put(out),
            None => {
                out.nil();
                Ok(())
            }
        }
    }
}
