//! serde's own `BTreeMap<K, V>` visitor, recognised by type identity, and
//! the entries of its map read by a loop of ours and built into the tree
//! in one pass.
//!
//! serde's visitor inserts each entry as it is read: a search from the
//! root, key comparisons on the way down, a split when a node fills. A
//! map whose keys arrive in order (every map a `BTreeMap` wrote) needs
//! none of that: its entries are collected, checked to be in ascending
//! order, and handed to `BTreeMap`'s `FromIterator`, which builds the
//! tree from sorted entries leaf by leaf. Entries out of order are sorted
//! first (stably), with a repeated key kept as serde's inserts keep it,
//! with its last value. Either way the map is the one serde's visitor
//! builds.
//!
//! The visitor is told the map's length (its `size_hint`) and, asked for
//! its first entry, is given none: it returns its empty map, and the
//! decoder hands that to [`Fill`](super::Fill), which reads the entries
//! into it under the checks and limits of any map. Key types are those
//! whose order is known here (strings and integers); other keys keep
//! serde's visitor as it is.
//!
//! This module also holds the cast that lends the visitor's value to the
//! loop as the `BTreeMap<K, V>` it is, after checking the two are one
//! type.

#![allow(unsafe_code)]

use std::collections::BTreeMap;

use serde::de::{Deserialize, Visitor};

use super::probe::visitor_of;
use super::{Decoder, Fill, Strings};
use crate::Result;

/// The [`Fill`] of `V`'s entries when `V` is the visitor serde's
/// `BTreeMap<K, Val>` hands to `deserialize_map` and `K` is a key type
/// this module orders, `None` otherwise: a constant once inlined.
///
/// # Safety
///
/// Called only from `next_entry::<K, Val>` of the `MapAccess` that
/// `visit_items` builds for `V` and hands to `V::visit_map`: when `V` is
/// serde's `BTreeMap<K2, Val2>` visitor, the caller is serde's code,
/// which asks for `K2` and `Val2` themselves, so `K` is `K2` and `Val` is
/// `Val2`, lifetimes included (type ids do not see lifetimes).
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
            if typeid::of::<K>() == typeid::of::<$key>() && is_btree_map_visitor::<V, $key, Val>() {
                return Some(fill::<M, V, $key, Val>);
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
    let entries = de.read_entries::<K, Val>(left)?;
    // From entries in order, `FromIterator` builds the tree without a
    // search (it sorts them again: one comparison an entry, in order).
    *map = sorted_unique(entries).into_iter().collect();
    Ok(())
}

impl<'a, M> Decoder<'a, M> {
    /// The `left` entries of the map at the reader, in the order read,
    /// each paid from the owed count as its key is read.
    fn read_entries<'de, K, Val>(&mut self, left: u32) -> Result<Vec<(K, Val)>>
    where
        M: Strings<'a, 'de>,
        K: Deserialize<'de>,
        Val: Deserialize<'de>,
    {
        // What serde's visitors reserve: the length, up to 1 MiB.
        let cautious = (1 << 20) / size_of::<(K, Val)>().max(1);
        let mut entries = Vec::with_capacity((left as usize).min(cautious));
        for _ in 0..left {
            self.pay(2);
            let key = K::deserialize(&mut *self)?;
            let value = Val::deserialize(&mut *self)?;
            entries.push((key, value));
        }
        Ok(entries)
    }
}

/// `entries` in ascending order of key with each key once, as inserting
/// them one by one would leave them: a repeated key with its last value.
fn sorted_unique<K: Ord, Val>(mut entries: Vec<(K, Val)>) -> Vec<(K, Val)> {
    if entries.is_sorted_by(|a, b| a.0 < b.0) {
        return entries;
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries.dedup_by(|later, kept| {
        if later.0 == kept.0 {
            std::mem::swap(&mut later.1, &mut kept.1);
            true
        } else {
            false
        }
    });
    entries
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
    /// when it asks for entries of `K` and `Val`.
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

        fn deserialize_any<V: Visitor<'de>>(
            self,
            _: V,
        ) -> core::result::Result<V::Value, ProbeError> {
            Err(ProbeError)
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
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
    fn sorts_and_keeps_a_repeated_keys_last_value() {
        let entries = vec![(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (3, 'e')];
        assert_eq!(sorted_unique(entries), vec![(1, 'b'), (2, 'd'), (3, 'e')]);
        let sorted = vec![(1, 'a'), (2, 'b')];
        assert_eq!(sorted_unique(sorted.clone()), sorted);
    }
}
