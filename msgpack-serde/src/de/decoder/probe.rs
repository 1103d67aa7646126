//! The visitor type a `Deserialize` impl hands the deserializer, found
//! by asking it: serde's own impls (`Vec<T>`, `String`) are recognised by
//! their visitor's type, so that the decoder can take a faster road to
//! the same value for them and keep every other visitor's meaning.

use std::any::TypeId;
use std::cell::Cell;
use std::fmt;

use serde::de::{self, Deserialize, Visitor};

/// The deserializer method whose visitor is asked for.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Method {
    Seq,
    String,
}

/// The type of the visitor `T`'s impl hands to `method` (a constant once
/// inlined); a type no visitor has when it calls another method.
#[inline(always)]
pub(super) fn visitor_of<T: for<'de> Deserialize<'de>>(method: Method) -> TypeId {
    let seen = Cell::new(None);
    let _ = T::deserialize(Probe {
        method,
        seen: &seen,
    });
    seen.get().unwrap_or(TypeId::of::<Probe<'static>>())
}

/// A deserializer that only notes the type of the visitor its `method`
/// is given.
struct Probe<'a> {
    method: Method,
    seen: &'a Cell<Option<TypeId>>,
}

impl Probe<'_> {
    fn note<V>(&self, method: Method) {
        if self.method == method {
            self.seen.set(Some(typeid::of::<V>()));
        }
    }
}

#[derive(Debug)]
struct ProbeError;

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
        self.note::<V>(Method::Seq);
        Err(ProbeError)
    }

    fn deserialize_string<V: Visitor<'de>>(self, _: V) -> Result<V::Value, ProbeError> {
        self.note::<V>(Method::String);
        Err(ProbeError)
    }

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, ProbeError> {
        Err(ProbeError)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str
        bytes byte_buf option unit unit_struct newtype_struct tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_visitors_of_serdes_impls_and_no_other() {
        assert_ne!(
            visitor_of::<Vec<i64>>(Method::Seq),
            visitor_of::<Vec<u64>>(Method::Seq)
        );
        assert_ne!(
            visitor_of::<Vec<i64>>(Method::Seq),
            TypeId::of::<Probe<'static>>()
        );
        assert_ne!(
            visitor_of::<String>(Method::String),
            TypeId::of::<Probe<'static>>()
        );
        // `String` asks `deserialize_string`, not `deserialize_seq`.
        assert_eq!(
            visitor_of::<String>(Method::Seq),
            TypeId::of::<Probe<'static>>()
        );
    }
}
