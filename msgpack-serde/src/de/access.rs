//! The `SeqAccess`, `MapAccess` and `EnumAccess` that serde's visitors
//! take: the elements of a container being read, each paid from the
//! decoder's owed count as it is read (a map entry's key and value both
//! when the key is).

use serde::de::{self, DeserializeSeed, Visitor};

use super::decoder::{fill_of, map_fill_of, set_fill_of, Decoder, Fill, Strings};
use crate::{Error, Result};

/// The elements of an array, or the entries of a map, being read by the
/// visitor `Vis`: the `SeqAccess` and `MapAccess` serde's visitors take.
pub(super) struct Items<'x, 'a, 'de, M, Vis: Visitor<'de>> {
    pub(super) de: &'x mut Decoder<'a, M>,
    pub(super) left: u32,
    /// Set when `Vis` is serde's `Vec<T>` (or `BTreeSet<T>`) visitor and
    /// has asked for its first element, or serde's `BTreeMap<K, V>`
    /// visitor and has asked for its first entry: what reads the elements
    /// into the vector it returns (`decoder/vec_elements.rs`), or the
    /// entries into the set or map (`decoder/btree_entries.rs`).
    pub(super) fill: Option<Fill<'a, 'de, M, Vis>>,
}

impl<'a, 'de, M: Strings<'a, 'de>, Vis: Visitor<'de>> Items<'_, 'a, 'de, M, Vis> {
    /// Whether an element or entry is left; if so, it (or its key) is
    /// about to be read, and its `VALUES` (1 an element, 2 an entry) are
    /// paid from the owed count at once.
    #[inline(always)]
    fn advance<const VALUES: u64>(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        self.de.pay(VALUES);
        true
    }

    /// The next element (or key) read with `seed`, if one is left.
    #[inline(always)]
    fn next_with<T: DeserializeSeed<'de>, const VALUES: u64>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>> {
        if !self.advance::<VALUES>() {
            return Ok(None);
        }
        self.de.item_seed(seed).map(Some)
    }

    /// The next element (or key), if one is left: what serde's provided
    /// `next_element` and `next_key` do, without the `PhantomData` seed
    /// they go through (which the compiler leaves out of line). Every
    /// element, and every key of a map (every field of a derived struct),
    /// comes through here.
    ///
    /// serde's `Vec<T>` visitor (a constant test) is given no element:
    /// its elements are read into the vector it returns, in the loop of
    /// `decoder/vec_elements.rs`; so is serde's `BTreeSet<T>` visitor, for
    /// the element types `decoder/btree_entries.rs` orders, whose
    /// elements are built into the set it returns.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn next_item<T: de::Deserialize<'de>, const VALUES: u64>(&mut self) -> Result<Option<T>> {
        if VALUES == ELEMENT {
            // SAFETY: this is `next_element::<T>`, and `Items` is built
            // only in `visit_items` and handed to `Vis::visit_seq`: when
            // `Vis` is serde's `Vec<U>` visitor, this is serde's code
            // asking for `U` itself, so `T` is `U`, lifetimes included.
            if let Some(fill) = unsafe { fill_of::<M, Vis, T>() } {
                self.fill = Some(fill);
                return Ok(None);
            }
            if let Some(fill) = set_fill_of::<M, Vis, T>() {
                self.fill = Some(fill);
                return Ok(None);
            }
        }
        if !self.advance::<VALUES>() {
            return Ok(None);
        }
        self.de.item().map(Some)
    }
}

impl<'de, 'a, M: Strings<'a, 'de>, Vis: Visitor<'de>> de::SeqAccess<'de>
    for &mut Items<'_, 'a, 'de, M, Vis>
{
    type Error = Error;

    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        self.next_with::<_, ELEMENT>(seed)
    }

    #[inline(always)]
    fn next_element<T: de::Deserialize<'de>>(&mut self) -> Result<Option<T>> {
        self.next_item::<_, ELEMENT>()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left as usize)
    }
}

impl<'de, 'a, M: Strings<'a, 'de>, Vis: Visitor<'de>> de::MapAccess<'de>
    for &mut Items<'_, 'a, 'de, M, Vis>
{
    type Error = Error;

    #[inline(always)]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        self.next_with::<_, ENTRY>(seed)
    }

    /// The value's share of the owed count was paid with its key.
    #[inline(always)]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.de.item_seed(seed)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_key<K: de::Deserialize<'de>>(&mut self) -> Result<Option<K>> {
        self.next_item::<_, ENTRY>()
    }

    // serde's provided method, without the `PhantomData` seed it goes
    // through (which the compiler leaves out of line): every value of a
    // map (every field of a derived struct) comes through here.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_value<V: de::Deserialize<'de>>(&mut self) -> Result<V> {
        self.de.item()
    }

    /// serde's provided method, without the `PhantomData` seeds, as
    /// `next_key` and `next_value`: serde's maps read their entries here.
    /// serde's `BTreeMap<K, V>` visitor (a constant test) is given no
    /// entry: its entries are read into the map it returns, by
    /// `decoder/btree_entries.rs`.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn next_entry<K, V>(&mut self) -> Result<Option<(K, V)>>
    where
        K: de::Deserialize<'de>,
        V: de::Deserialize<'de>,
    {
        // SAFETY: this is `next_entry::<K, V>`, and `Items` is built only
        // in `visit_items` and handed to `Vis::visit_map`: when `Vis` is
        // serde's `BTreeMap<K2, V2>` visitor, this is serde's code asking
        // for `K2` and `V2` themselves, so `K` is `K2` and `V` is `V2`,
        // lifetimes included.
        if let Some(fill) = unsafe { map_fill_of::<M, Vis, K, V>() } {
            self.fill = Some(fill);
            return Ok(None);
        }
        match self.next_item::<K, ENTRY>()? {
            Some(key) => Ok(Some((key, self.de.item()?))),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left as usize)
    }
}

/// The owed values an array element pays, and a map entry (its key and
/// value, paid together when the key is read: one update of the count
/// rather than two).
const ELEMENT: u64 = 1;
const ENTRY: u64 = 2;

/// A variant in a one-entry map: the key names it, the value is its payload.
pub(super) struct EnumAccess<'x, 'a, M> {
    pub(super) de: &'x mut Decoder<'a, M>,
}

impl<'de, 'x, 'a, M: Strings<'a, 'de>> de::EnumAccess<'de> for EnumAccess<'x, 'a, M> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        // The key, and the payload read next.
        self.de.pay(2);
        let variant = self.de.item_seed(seed)?;
        Ok((variant, self))
    }
}

impl<'de, 'a, M: Strings<'a, 'de>> de::VariantAccess<'de> for EnumAccess<'_, 'a, M> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.de)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        self.de.item_seed(seed)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_any(&mut *self.de, visitor)
    }
}
