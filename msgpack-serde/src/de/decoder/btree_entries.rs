//! serde's own `BTreeMap<K, V>` and `BTreeSet<T>` visitors, recognised
//! by type identity, and their entries read by a loop of ours and built
//! into the tree in one pass while they arrive in order.
//!
//! serde's visitors insert each entry as it is read: a search from the
//! root, key comparisons on the way down, a split when a node fills. A
//! collection whose keys arrive in ascending order (every one a
//! `BTreeMap` or `BTreeSet` wrote) needs none of that: its entries are
//! collected, each key compared with the one before, and handed to
//! `FromIterator`, which sorts them again (one comparison an entry when
//! in order; from 4 KiB of entries, with a scratch buffer) and builds the
//! tree from them leaf by leaf. From the first key that is not greater than the one before, the
//! tree is built from the entries so far and the rest are inserted one
//! by one, as serde's visitor does: the collection, and when a repeated
//! key's value is dropped, are serde's.
//!
//! The visitor, asked for its first entry or element, is given none: it
//! returns its empty collection, and the decoder hands that to
//! [`Fill`](super::Fill), which reads the entries into it under the
//! checks and limits of any map or array. Keys are strings and integers:
//! types without lifetimes whose order is total (a user's `Ord` that is
//! not would build another tree than inserts do). Each arm of the key
//! list is gated by a constant (the sizes of the key and of the
//! visitor's value), so that a visitor of a collection or key of another
//! size does not compile the loop for that key; one of the same sizes (a
//! `Vec<String>`'s visitor, a `u64` key's `i64` twin) compiles a small
//! `Fill` that the type checks never call (the loop's parts generic over
//! the key and value alone are shared).
//!
//! This module also holds the casts that lend the visitor's value to the
//! loop as the `BTreeMap<K, V>` or `BTreeSet<T>` it is, after checking
//! the two are one type.

#![allow(unsafe_code)]

use std::collections::{BTreeMap, BTreeSet};

use serde::de::{Deserialize, Visitor};

#[cfg(test)]
thread_local! {
    /// How many collections the loops below have filled, for the tests
    /// that check serde's visitors still reach them.
    static FILLED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

use super::probe::visitor_of;
use super::{Decoder, Fill, Strings};
use crate::de::cautious;
use crate::Result;

/// The [`Fill`] of `V`'s entries when `V` is the visitor serde's
/// `BTreeMap<K, Val>` hands to `deserialize_map` and `K` is a key type
/// this module orders, `None` otherwise: a constant once inlined.
///
/// # Safety
///
/// `Val` must be the value type of the map `V` builds, lifetimes
/// included (type ids do not see lifetimes): call this only from
/// `next_entry::<K, Val>` of the `MapAccess` that `visit_items` builds
/// for `V` and hands to `V::visit_map`, to fill the map `V` returns then.
/// When `V` is serde's `BTreeMap<K2, Val2>` visitor, that caller is
/// serde's code, which asks for `K2` and `Val2` themselves.
#[inline(always)]
pub(in crate::de) unsafe fn map_fill_of<'a, 'de, M, V, K, Val>() -> Option<Fill<'a, 'de, M, V>>
where
    M: Strings<'a, 'de>,
    V: Visitor<'de>,
    K: Deserialize<'de>,
    Val: Deserialize<'de>,
{
    macro_rules! ordered_keys {
        ($($key:ty),*) => {$(
            if const { size_of::<K>() == size_of::<$key>() && size_of::<V::Value>() == size_of::<BTreeMap<$key, Val>>() }
                && typeid::of::<K>() == typeid::of::<$key>()
                && is_btree_map_visitor::<V, $key, Val>()
            {
                return Some(fill::<M, V, $key, Val>);
            }
        )*};
    }
    ordered_keys!(String, u8, u16, u32, u64, i8, i16, i32, i64);
    None
}

/// The [`Fill`] of `V`'s elements when `V` is the visitor serde's
/// `BTreeSet<T>` hands to `deserialize_seq` and `T` is a key type this
/// module orders, `None` otherwise: a constant once inlined.
#[inline(always)]
pub(in crate::de) fn set_fill_of<'a, 'de, M, V, T>() -> Option<Fill<'a, 'de, M, V>>
where
    M: Strings<'a, 'de>,
    V: Visitor<'de>,
    T: Deserialize<'de>,
{
    macro_rules! ordered_keys {
        ($($key:ty),*) => {$(
            if const { size_of::<T>() == size_of::<$key>() && size_of::<V::Value>() == size_of::<BTreeSet<$key>>() }
                && typeid::of::<T>() == typeid::of::<$key>()
                && is_btree_set_visitor::<V, $key>()
            {
                return Some(fill_set::<M, V, $key>);
            }
        )*};
    }
    ordered_keys!(String, u8, u16, u32, u64, i8, i16, i32, i64);
    None
}

/// Whether `V` is serde's `BTreeMap<K, Val>` visitor, whose value is
/// `BTreeMap<K, Val>`, up to lifetimes.
#[inline(always)]
fn is_btree_map_visitor<'de, V, K, Val>() -> bool
where
    V: Visitor<'de>,
    K: Deserialize<'de> + Ord,
    Val: Deserialize<'de>,
{
    typeid::of::<V>() == visitor_of::<BTreeMap<K, Val>>()
        && typeid::of::<V::Value>() == typeid::of::<BTreeMap<K, Val>>()
}

/// Whether `V` is serde's `BTreeSet<T>` visitor, whose value is
/// `BTreeSet<T>`.
#[inline(always)]
fn is_btree_set_visitor<'de, V, T>() -> bool
where
    V: Visitor<'de>,
    T: Deserialize<'de> + Ord,
{
    typeid::of::<V>() == visitor_of::<BTreeSet<T>>()
        && typeid::of::<V::Value>() == typeid::of::<BTreeSet<T>>()
}

/// Reads the `left` entries of the map at the reader into `value`, the
/// empty map serde's `BTreeMap<K, Val>` visitor returned.
fn fill<'a, 'de, M, V, K, Val>(
    de: &mut Decoder<'a, M>,
    value: &mut V::Value,
    left: u32,
) -> Result<()>
where
    M: Strings<'a, 'de>,
    V: Visitor<'de>,
    K: Deserialize<'de> + Ord + 'static,
    Val: Deserialize<'de>,
{
    assert!(
        is_btree_map_visitor::<V, K, Val>(),
        "only serde's own BTreeMap<K, V> visitor"
    );
    // SAFETY: `V::Value` and `BTreeMap<K, Val>` have one type id
    // (asserted above), so they are one type up to lifetimes; `K` is
    // `'static`, and `Val` is the visitor's own value type, since `fill`
    // is reached only through `map_fill_of::<M, V, K, Val>`, whose caller
    // (see its safety section) is serde's visitor asking for its own
    // entry types, whose `BTreeMap` is its value.
    let map = unsafe { &mut *(value as *mut V::Value).cast::<BTreeMap<K, Val>>() };
    debug_assert!(map.is_empty(), "serde's visitor returns its map empty");
    #[cfg(test)]
    FILLED.set(FILLED.get() + 1);
    let mut ascending = Vec::with_capacity(in_order_first::<(K, Val)>(left));
    for read in 1..=left {
        reserve_once_in_order(&mut ascending, left);
        de.pay(2);
        let key = de.item::<K>()?;
        let value = de.item::<Val>()?;
        if ascending.last().is_some_and(|(last, _)| *last >= key) {
            // Out of order: the tree so far, then the rest inserted one by
            // one, as serde's visitor does.
            *map = ascending.into_iter().collect();
            map.insert(key, value);
            for _ in read..left {
                de.pay(2);
                let key = de.item::<K>()?;
                map.insert(key, de.item::<Val>()?);
            }
            return Ok(());
        }
        ascending.push((key, value));
    }
    *map = ascending.into_iter().collect();
    Ok(())
}

/// Reads the `left` elements of the array at the reader into `value`, the
/// empty set serde's `BTreeSet<T>` visitor returned.
fn fill_set<'a, 'de, M, V, T>(
    de: &mut Decoder<'a, M>,
    value: &mut V::Value,
    left: u32,
) -> Result<()>
where
    M: Strings<'a, 'de>,
    V: Visitor<'de>,
    T: Deserialize<'de> + Ord + 'static,
{
    assert!(
        is_btree_set_visitor::<V, T>(),
        "only serde's own BTreeSet<T> visitor"
    );
    // SAFETY: `V::Value` and `BTreeSet<T>` have one type id (asserted
    // above), and `BTreeSet<T>` has no lifetimes (`T` is `'static`), so
    // they are one type.
    let set = unsafe { &mut *(value as *mut V::Value).cast::<BTreeSet<T>>() };
    debug_assert!(set.is_empty(), "serde's visitor returns its set empty");
    #[cfg(test)]
    FILLED.set(FILLED.get() + 1);
    let mut ascending = Vec::with_capacity(in_order_first::<T>(left));
    for read in 1..=left {
        reserve_once_in_order(&mut ascending, left);
        de.pay(1);
        let element = de.item::<T>()?;
        if ascending.last().is_some_and(|last| *last >= element) {
            // Out of order: as in `fill`.
            *set = ascending.into_iter().collect();
            set.insert(element);
            for _ in read..left {
                de.pay(1);
                set.insert(de.item::<T>()?);
            }
            return Ok(());
        }
        ascending.push(element);
    }
    *set = ascending.into_iter().collect();
    Ok(())
}

/// The entries room is reserved for at the start: as many as fit in
/// 1 KiB, at least one (or all, when fewer). Room for the rest is reserved only once
/// these have arrived in order, so that a collection out of order from
/// its start (most often from its second entry) allocates no more than a
/// small vector, which the allocator keeps at hand.
fn in_order_first<T>(len: u32) -> usize {
    (len as usize).min(((1 << 10) / size_of::<T>().max(1)).max(1))
}

/// Room for all of the `len` entries (as `cautious` allows) once the
/// first [`in_order_first`] have arrived in order.
#[inline(always)]
fn reserve_once_in_order<T>(ascending: &mut Vec<T>, len: u32) {
    if ascending.len() == in_order_first::<T>(len) {
        ascending.reserve_exact(cautious::<T>(len as usize).saturating_sub(ascending.len()));
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::collections::HashMap;
    use std::marker::PhantomData;

    use serde::de;

    use super::super::probe::ProbeError;
    use super::super::Borrowed;
    use super::*;

    /// Notes whether the visitor `deserialize_map` is given gets a fill
    /// when it asks for entries of `K` and `Val`, or the one
    /// `deserialize_seq` is given when it asks for elements of `K`.
    struct Recognise<'a, K, Val>(&'a Cell<Option<bool>>, PhantomData<(K, Val)>);

    impl<'de, K: Deserialize<'de>, Val: Deserialize<'de>> de::Deserializer<'de>
        for Recognise<'_, K, Val>
    {
        type Error = ProbeError;

        fn deserialize_map<V: Visitor<'de>>(
            self,
            _: V,
        ) -> core::result::Result<V::Value, ProbeError> {
            // SAFETY: only asks whether there is a fill; none is called.
            let found = unsafe { map_fill_of::<Borrowed, V, K, Val>() }.is_some();
            self.0.set(Some(found));
            Err(ProbeError)
        }

        fn deserialize_seq<V: Visitor<'de>>(
            self,
            _: V,
        ) -> core::result::Result<V::Value, ProbeError> {
            self.0.set(Some(set_fill_of::<Borrowed, V, K>().is_some()));
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
            tuple_struct struct enum identifier ignored_any
        }
    }

    /// Whether `T`'s visitor, asking for entries of `K` and `Val`, gets a fill.
    fn recognised<T, K, Val>() -> Option<bool>
    where
        T: for<'de> Deserialize<'de>,
        K: for<'de> Deserialize<'de>,
        Val: for<'de> Deserialize<'de>,
    {
        let seen = Cell::new(None);
        let _ = T::deserialize(Recognise::<K, Val>(&seen, PhantomData));
        seen.get()
    }

    #[test]
    fn recognises_serdes_btree_map_visitor_with_ordered_keys_only() {
        assert_eq!(
            recognised::<BTreeMap<String, i64>, String, i64>(),
            Some(true)
        );
        assert_eq!(
            recognised::<BTreeMap<u32, String>, u32, String>(),
            Some(true)
        );
        assert_eq!(
            recognised::<BTreeMap<i8, Vec<u8>>, i8, Vec<u8>>(),
            Some(true)
        );
        // Its own entry types only, keys this module orders only.
        assert_eq!(
            recognised::<BTreeMap<String, i64>, String, u64>(),
            Some(false)
        );
        assert_eq!(recognised::<BTreeMap<char, i64>, char, i64>(), Some(false));
        assert_eq!(
            recognised::<HashMap<String, i64>, String, i64>(),
            Some(false)
        );
    }

    #[test]
    fn serdes_btree_collections_are_filled_by_the_loops_and_others_not() {
        let read = |bytes: &[u8]| {
            let before = FILLED.get();
            let map: BTreeMap<String, i64> = crate::from_slice(bytes).unwrap();
            let set: BTreeSet<String> =
                crate::from_slice(&crate::to_vec(&map.keys().collect::<Vec<_>>()).unwrap())
                    .unwrap();
            let by_hash: HashMap<String, i64> = crate::from_slice(bytes).unwrap();
            assert_eq!(set.len(), by_hash.len());
            FILLED.get() - before
        };
        let map = BTreeMap::from([("a".to_string(), 1), ("b".to_string(), 2)]);
        assert_eq!(read(&crate::to_vec(&map).unwrap()), 2);
    }

    #[test]
    fn recognises_serdes_btree_set_visitor_with_ordered_elements_only() {
        assert_eq!(recognised::<BTreeSet<String>, String, ()>(), Some(true));
        assert_eq!(recognised::<BTreeSet<u16>, u16, ()>(), Some(true));
        assert_eq!(recognised::<BTreeSet<String>, u16, ()>(), Some(false));
        assert_eq!(recognised::<BTreeSet<char>, char, ()>(), Some(false));
        assert_eq!(recognised::<Vec<String>, String, ()>(), Some(false));
    }
}
