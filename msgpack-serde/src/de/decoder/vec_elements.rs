//! serde's own `Vec<T>` visitor, recognised by type identity, and the
//! elements of its array read by a loop of ours into the vector it
//! returns.
//!
//! serde's visitor moves each element into its vector straight from the
//! call that returned it: wide loads of memory the element's
//! `Deserialize` has just written field by field, which the processor
//! cannot forward from those narrower stores and waits for, once an
//! element. This loop reads the next element before it moves one in
//! (three in four: see `read_elements`), so that the stores that wrote
//! it are done by then.
//!
//! The visitor is told the array's length (its `size_hint`), reserves
//! for it (up to serde's cap), and, asked for its first element, is
//! given none: it returns its empty vector, and the decoder hands that
//! to [`Fill`], which reads the elements into it under the checks and
//! limits of any array.
//!
//! This module also holds the cast that lends the visitor's value to the
//! loop as the `Vec<T>` it is, after checking the two are one type, and
//! the copy of each element into room the loop reserved for it.

#![allow(unsafe_code)]

use std::mem::ManuallyDrop;
use std::ptr;

use serde::de::{Deserialize, Visitor};

use super::probe::visitor_of;
use super::{Decoder, Strings};
use crate::Result;

/// What reads the elements of an array, or the entries of a map, into the
/// collection a visitor of serde's (`V`) returned: serde's `Vec<T>` here,
/// its `BTreeMap<K, V>` and `BTreeSet<T>` in `btree_entries.rs`. It takes
/// the decoder, the collection and the elements left.
pub(in crate::de) type Fill<'a, 'de, M, V> =
    fn(&mut Decoder<'a, M>, &mut <V as Visitor<'de>>::Value, u32) -> Result<()>;

/// The [`Fill`] of `V`'s elements when `V` is the visitor serde's
/// `Vec<T>` hands to `deserialize_seq`, `None` for any other visitor or
/// element type: a constant once inlined.
///
/// # Safety
///
/// Called only from `next_element::<T>` of the `SeqAccess` that
/// `visit_items` builds for `V` and hands to `V::visit_seq`: when `V` is
/// serde's `Vec<U>` visitor, the caller is serde's code, which asks for
/// `U` itself, so `T` is `U`, lifetimes included (type ids do not see
/// lifetimes).
#[inline(always)]
pub(in crate::de) unsafe fn fill_of<'a, 'de, M, V, T>() -> Option<Fill<'a, 'de, M, V>>
where
    M: Strings<'a, 'de>,
    V: Visitor<'de>,
    T: Deserialize<'de>,
{
    if is_vec_visitor::<V, T>() {
        Some(fill::<M, V, T>)
    } else {
        None
    }
}

/// Whether `V` is serde's `Vec<T>` visitor, whose value is `Vec<T>`, up
/// to lifetimes.
#[inline(always)]
pub(super) fn is_vec_visitor<'de, V: Visitor<'de>, T: Deserialize<'de>>() -> bool {
    typeid::of::<V>() == visitor_of::<Vec<T>>()
        && typeid::of::<V::Value>() == typeid::of::<Vec<T>>()
}

/// Reads the `left` elements of the array at the reader into `value`,
/// the vector serde's `Vec<T>` visitor returned.
fn fill<'a, 'de, M, V, T>(de: &mut Decoder<'a, M>, value: &mut V::Value, left: u32) -> Result<()>
where
    M: Strings<'a, 'de>,
    V: Visitor<'de>,
    T: Deserialize<'de>,
{
    assert!(is_vec_visitor::<V, T>(), "only serde's own Vec<T> visitor");
    // SAFETY: `V::Value` and `Vec<T>` have one type id (asserted above),
    // so they are one type up to lifetimes; and lifetimes included, since
    // `fill` is reached only through `fill_of::<M, V, T>`, whose caller
    // (see its safety section) is serde's visitor asking for its own
    // element type, whose `Vec` is its value.
    let elements = unsafe { &mut *(value as *mut V::Value).cast::<Vec<T>>() };
    de.read_elements(elements, left)
}

impl<'a, M> Decoder<'a, M> {
    /// Reads `left` elements into `elements`, four at a time: each moved
    /// in only after the next is read, so that its move does not wait on
    /// the stores that wrote it (see the module's documentation); only
    /// the fourth is moved in at once. Every result has a local of its
    /// own, which the call writes straight into (a local assigned again
    /// is written through a copy that waits too: `benches/RESULTS.md`,
    /// step 29), and is copied from there into room reserved for its
    /// group before the group's reads ([`push_reserved`]). A group at a
    /// time, not all `left` at once: the array's length is the input's
    /// claim, which must not reserve more than serde's visitor did
    /// before any element has been read.
    fn read_elements<'de, T: Deserialize<'de>>(
        &mut self,
        elements: &mut Vec<T>,
        mut left: u32,
    ) -> Result<()>
    where
        M: Strings<'a, 'de>,
    {
        while left >= 4 {
            left -= 4;
            elements.reserve(4);
            let first = self.element::<T>();
            if first.is_err() {
                return first.map(drop);
            }
            let second = self.element::<T>();
            push_reserved(elements, first)?;
            if second.is_err() {
                return second.map(drop);
            }
            let third = self.element::<T>();
            push_reserved(elements, second)?;
            if third.is_err() {
                return third.map(drop);
            }
            let fourth = self.element::<T>();
            push_reserved(elements, third)?;
            push_reserved(elements, fourth)?;
        }
        // The last one to three: a pair, as above, if two are left, then
        // one, if one is.
        if left >= 2 {
            left -= 2;
            elements.reserve(2);
            let first = self.element::<T>();
            if first.is_err() {
                return first.map(drop);
            }
            let second = self.element::<T>();
            push_reserved(elements, first)?;
            push_reserved(elements, second)?;
        }
        if left == 1 {
            elements.reserve(1);
            push_reserved(elements, self.element::<T>())?;
        }
        Ok(())
    }

    /// The next element, its share of the owed count paid.
    #[inline(always)]
    fn element<'de, T: Deserialize<'de>>(&mut self) -> Result<T>
    where
        M: Strings<'a, 'de>,
    {
        self.pay(1);
        self.item()
    }
}

/// Moves the value of `result` into `elements`, or returns its error:
/// copied from where the element's read left it, straight into the
/// vector, not moved out first into a copy of its own (whose narrow
/// stores the wide loads of the next copy wait on), and without the
/// growth `push` may call. Panics if `elements` has no room left (the
/// caller reserved it).
#[inline(always)]
fn push_reserved<T>(elements: &mut Vec<T>, result: Result<T>) -> Result<()> {
    if result.is_err() {
        return result.map(drop);
    }
    // Set aside before the check, which the caller's reservation keeps
    // from failing: were it to, the value would leak, not be dropped, so
    // the compiler need not keep it where unwinding could drop it (which
    // cost a copy of the value out of the result).
    let result = ManuallyDrop::new(result);
    if let Ok(value) = &*result {
        let len = elements.len();
        assert!(len < elements.capacity(), "room reserved for the element");
        // SAFETY: `len < capacity` (asserted), so the slot at `len` lies
        // in the vector's allocation, past its initialized elements: the
        // copy overwrites nothing, and the source (the local `result`)
        // does not overlap the vector's buffer. Nothing between the copy
        // and `set_len` can panic, and the `len + 1` elements are then
        // initialized (a zero-sized `T` copies nothing). The value is not
        // dropped where it was (`ManuallyDrop`), so the vector's copy is
        // its only owner.
        unsafe {
            ptr::copy_nonoverlapping(value, elements.as_mut_ptr().add(len), 1);
            elements.set_len(len + 1);
        }
    }
    Ok(())
}

/// Moves `value` into the room `elements` has for it, which the caller
/// made: written where the vector's next element goes, by code the
/// compiler inlines, so that a value built in registers is stored there
/// at once (`Vec::push` is a call, with the value in memory of its own
/// to copy from). Panics without room.
#[inline(always)]
pub(in crate::de) fn push_within_capacity<T>(elements: &mut Vec<T>, value: T) {
    let len = elements.len();
    elements.spare_capacity_mut()[0].write(value);
    // SAFETY: the slot at `len`, the first spare one (the indexing
    // panics before the write when there is none), was written just
    // above, so the `len + 1` elements are initialized.
    unsafe { elements.set_len(len + 1) };
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::collections::VecDeque;

    use serde::de;

    use super::super::probe::ProbeError;
    use super::*;

    /// Notes whether the visitor `deserialize_seq` is given is serde's
    /// `Vec<String>` visitor.
    struct Recognise<'a>(&'a Cell<Option<bool>>);

    impl<'de> de::Deserializer<'de> for Recognise<'_> {
        type Error = ProbeError;

        fn deserialize_seq<V: Visitor<'de>>(
            self,
            _: V,
        ) -> core::result::Result<V::Value, ProbeError> {
            self.0.set(Some(is_vec_visitor::<V, String>()));
            Err(ProbeError)
        }

        fn deserialize_any<V: Visitor<'de>>(
            self,
            _: V,
        ) -> core::result::Result<V::Value, ProbeError> {
            Err(ProbeError)
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct tuple
            tuple_struct map struct enum identifier ignored_any
        }
    }

    #[test]
    fn recognises_serdes_vec_visitor_of_its_own_element_type_only() {
        let seen = Cell::new(None);
        let _ = Vec::<String>::deserialize(Recognise(&seen));
        assert_eq!(seen.get(), Some(true));
        let _ = Vec::<Box<str>>::deserialize(Recognise(&seen));
        assert_eq!(seen.get(), Some(false));
        let _ = VecDeque::<String>::deserialize(Recognise(&seen));
        assert_eq!(seen.get(), Some(false));
    }
}
