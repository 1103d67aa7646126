//! Which visitor a type's own `Deserialize` hands the deserializer, found
//! by asking it: how the decoder recognises serde's `Vec<T>` and
//! `BTreeMap<K, V>` and `BTreeSet<T>` visitors (`vec_elements.rs`,
//! `btree_entries.rs`).

use std::any::TypeId;
use std::cell::Cell;
use std::fmt;

use serde::de::{self, Deserialize, Visitor};

/// The type of the visitor `T::deserialize` hands to `deserialize_seq` or
/// `deserialize_map` (a constant once inlined); a type no visitor has
/// when it calls neither.
#[inline(always)]
pub(super) fn visitor_of<'de, T: Deserialize<'de>>() -> TypeId {
    let seen = Cell::new(None);
    let _ = T::deserialize(Probe(&seen));
    seen.get().unwrap_or(TypeId::of::<Probe<'static>>())
}

/// A deserializer that only notes the type of the visitor
/// `deserialize_seq` or `deserialize_map` is given.
struct Probe<'a>(&'a Cell<Option<TypeId>>);

#[derive(Debug)]
pub(super) struct ProbeError;

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("probe")
    }
}

impl std::error::Error for ProbeError {}

impl de::Error for ProbeError {
    fn custom<E: fmt::Display>(_: E) -> Self {
        ProbeError
    }
}

impl<'de> de::Deserializer<'de> for Probe<'_> {
    type Error = ProbeError;

    fn deserialize_seq<V: Visitor<'de>>(self, _: V) -> Result<V::Value, ProbeError> {
        self.0.set(Some(typeid::of::<V>()));
        Err(ProbeError)
    }

    fn deserialize_map<V: Visitor<'de>>(self, _: V) -> Result<V::Value, ProbeError> {
        self.0.set(Some(typeid::of::<V>()));
        Err(ProbeError)
    }

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, ProbeError> {
        Err(ProbeError)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct tuple
        tuple_struct struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap};

    use super::*;

    #[test]
    fn tells_the_visitors_of_serdes_impls_apart() {
        assert_ne!(visitor_of::<Vec<i64>>(), visitor_of::<Vec<u64>>());
        assert_ne!(
            visitor_of::<BTreeMap<String, i64>>(),
            visitor_of::<HashMap<String, i64>>()
        );
        // A type whose impl asks for neither a sequence nor a map.
        assert_eq!(visitor_of::<String>(), TypeId::of::<Probe<'static>>());
        assert_ne!(visitor_of::<Vec<i64>>(), TypeId::of::<Probe<'static>>());
    }
}
