//! Derived structs read straight into a vector's next slot.
//!
//! serde's `Vec<T>` takes each element as the value `T::deserialize`
//! returns and moves it into the vector. A derived struct's read is a
//! call of its own (one per struct, so that users' crates build in
//! parallel), which writes the value field by field; the move then loads
//! it back in wider pieces, and on many processors a load that spans
//! several recent stores waits for them to reach the cache. So a
//! `Vec<T>` field of a derived struct, where `T` is derived too, is read
//! by [`VecInPlace`]: each element's read writes the struct into the
//! vector's spare slot itself, and the vector grows by one when the
//! [`Filled`] it returns proves the slot was written.
//!
//! The generated code picks [`VecInPlace`] with the autoref probe
//! `(&&FieldSeed::<FieldType>::new()).seed()`: fields of other types,
//! and `Vec<T>` of any `T` without [`DeserializeInPlace`], read as they
//! always do, through `T::deserialize`.

#![allow(unsafe_code)]
// Helpers of generated code, not public API.
#![allow(missing_debug_implementations)]

use std::fmt;
use std::marker::PhantomData;
use std::mem::MaybeUninit;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, SeqAccess, Visitor};

use super::cautious;

/// Brands a [`Slot`] and the [`Filled`] its write returns with one
/// invariant lifetime, so that the proof of one slot's write cannot
/// stand for another's.
type Brand<'s> = PhantomData<fn(&'s ()) -> &'s ()>;

/// The uninitialized place of one `T`, which a derived read fills.
pub struct Slot<'s, T> {
    place: &'s mut MaybeUninit<T>,
    brand: Brand<'s>,
}

impl<'s, T> Slot<'s, T> {
    #[inline(always)]
    fn new(place: &'s mut MaybeUninit<T>) -> Self {
        Slot {
            place,
            brand: PhantomData,
        }
    }
}

/// Proof that a [`Slot`] was written: only [`Slot`]'s [`Sink::finish`]
/// makes one, and each read gets a slot of a lifetime of its own, so a
/// proof kept from another read does not fit.
#[must_use = "the slot was written: the caller needs the proof"]
pub struct Filled<'s> {
    brand: Brand<'s>,
}

/// Where a derived visitor puts the struct it has read: returned by value
/// ([`ByValue`]) or written into a [`Slot`].
pub trait Sink<T> {
    /// What the visitor returns.
    type Out;

    /// Puts `value` where it goes.
    fn finish(self, value: T) -> Self::Out;
}

/// The struct returned, as `Deserialize::deserialize` returns it.
pub struct ByValue;

impl<T> Sink<T> for ByValue {
    type Out = T;

    #[inline(always)]
    fn finish(self, value: T) -> T {
        value
    }
}

impl<'s, T> Sink<T> for Slot<'s, T> {
    type Out = Filled<'s>;

    #[inline(always)]
    fn finish(self, value: T) -> Filled<'s> {
        self.place.write(value);
        Filled { brand: PhantomData }
    }
}

/// A type the derive can read into a [`Slot`]: every derived struct.
pub trait DeserializeInPlace<'de>: Deserialize<'de> {
    /// Reads one value into `slot`.
    fn deserialize_into<'s, D: Deserializer<'de>>(
        deserializer: D,
        slot: Slot<'s, Self>,
    ) -> Result<Filled<'s>, D::Error>;
}

/// Reads a `Vec<T>` as serde's impl does, each element into the vector's
/// next slot.
pub struct VecInPlace<T>(PhantomData<T>);

impl<T> VecInPlace<T> {
    /// The seed of a `Vec<T>`.
    #[allow(clippy::new_without_default)]
    #[inline(always)]
    pub fn new() -> Self {
        VecInPlace(PhantomData)
    }
}

impl<'de, T: DeserializeInPlace<'de>> DeserializeSeed<'de> for VecInPlace<T> {
    type Value = Vec<T>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: DeserializeInPlace<'de>> Visitor<'de> for VecInPlace<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut values = Vec::with_capacity(cautious::<T>(seq.size_hint().unwrap_or(0)));
        loop {
            let len = values.len();
            let Some(place) = values.spare_capacity_mut().first_mut() else {
                // Past the size hint, or without one: read beside the
                // vector and push, which grows it (reserving before the
                // read would grow it for the end of the sequence too).
                let mut place = MaybeUninit::uninit();
                let Some(Filled { .. }) = seq.next_element_seed(SlotSeed(Slot::new(&mut place)))?
                else {
                    return Ok(values);
                };
                // SAFETY: a `Filled` comes only from `Slot::finish`, which
                // wrote the slot; the brand ties it to this one.
                values.push(unsafe { place.assume_init() });
                continue;
            };
            let Some(Filled { .. }) = seq.next_element_seed(SlotSeed(Slot::new(place)))? else {
                return Ok(values);
            };
            // SAFETY: a `Filled` comes only from `Slot::finish`, which
            // wrote the slot; the brand ties it to this one, the first
            // spare place, at index `len`, within the capacity.
            unsafe { values.set_len(len + 1) };
        }
    }
}

/// Pushes onto `values` the element `read` writes into the vector's next
/// slot, room made for it first; `None`, the vector as it was, when
/// `read` gives up. For the direct reads' vectors (`de/direct.rs`), as
/// [`VecInPlace`] reads serde's.
#[inline(always)]
pub(crate) fn push_read<T>(
    values: &mut Vec<T>,
    read: impl for<'s> FnOnce(Slot<'s, T>) -> Option<Filled<'s>>,
) -> Option<()> {
    if values.len() == values.capacity() {
        values.reserve(1);
    }
    let len = values.len();
    let place = &mut values.spare_capacity_mut()[0];
    let Filled { .. } = read(Slot::new(place))?;
    // SAFETY: a `Filled` comes only from `Slot::finish`, which wrote the
    // slot; the brand ties it to this one (`read` is given it for a
    // lifetime of its own), the first spare place, at index `len`,
    // within the capacity.
    unsafe { values.set_len(len + 1) };
    Some(())
}

/// One element, read into its slot.
struct SlotSeed<'s, T>(Slot<'s, T>);

impl<'de, 's, T: DeserializeInPlace<'de>> DeserializeSeed<'de> for SlotSeed<'s, T> {
    type Value = Filled<'s>;

    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Filled<'s>, D::Error> {
        T::deserialize_into(deserializer, self.0)
    }
}

/// The seed a derived field of type `T` is read with, found by autoref
/// specialization: `(&&FieldSeed::<T>::new()).seed()` is a
/// [`VecInPlace`] for a `Vec` of [`DeserializeInPlace`] elements, else
/// [`Plain<T>`] (`T::deserialize`).
pub struct FieldSeed<T>(PhantomData<T>);

impl<T> FieldSeed<T> {
    /// The probe for a field of type `T`.
    #[allow(clippy::new_without_default)]
    #[inline(always)]
    pub fn new() -> Self {
        FieldSeed(PhantomData)
    }
}

/// Chosen first, for the receiver `&&FieldSeed<Vec<T>>`, when `T` reads
/// in place.
pub trait ViaInPlace<T> {
    /// Reads the vector's elements in place.
    fn seed(&self) -> VecInPlace<T>;
}

impl<'de, T: DeserializeInPlace<'de>> ViaInPlace<T> for &FieldSeed<Vec<T>> {
    #[inline(always)]
    fn seed(&self) -> VecInPlace<T> {
        VecInPlace::new()
    }
}

/// The fallback, after a deref: `T::deserialize`.
pub trait ViaDeserialize<T> {
    /// Reads the field with `T::deserialize`.
    fn seed(&self) -> Plain<T>;
}

impl<T> ViaDeserialize<T> for FieldSeed<T> {
    #[inline(always)]
    fn seed(&self) -> Plain<T> {
        Plain::new()
    }
}

/// `T::deserialize` as a seed: serde's `PhantomData<T>`, inlined (the
/// compiler leaves that one's call out of line), for every field of a
/// derived struct.
pub struct Plain<T>(PhantomData<T>);

impl<T> Plain<T> {
    /// The seed of a `T`.
    #[allow(clippy::new_without_default)]
    #[inline(always)]
    pub fn new() -> Self {
        Plain(PhantomData)
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for Plain<T> {
    type Value = T;

    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<T, D::Error> {
        T::deserialize(deserializer)
    }
}

/// A field read from a tag-indexed array with `seed`, where nil marks a
/// gap: `None` for nil, else the value.
pub struct NilOrSeed<S>(pub S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for NilOrSeed<S> {
    type Value = Option<S::Value>;

    /// What `Option<T>` does, through a visitor of its own so that
    /// `visit_some` is inlined into the field's read: serde's
    /// `OptionVisitor` is not, and every field of an array-form struct
    /// comes through here.
    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for NilOrSeed<S> {
    type Value = Option<S::Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("option")
    }

    #[inline(always)]
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    #[inline(always)]
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    #[inline(always)]
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(deserializer).map(Some)
    }
}
