//! An extension as serde sees it: the tuple `(type, data)`, its data
//! borrowed or copied as the decoder's mode says.

use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;

use super::decoder::Strings;
use crate::{Error, Result};

/// An extension as serde sees it: the tuple `(type, data)`.
pub(super) struct ExtDeserializer<'a, M> {
    pub(super) ext_type: i8,
    pub(super) data: &'a [u8],
    pub(super) mode: PhantomData<M>,
}

impl<'de, 'a, M: Strings<'a, 'de>> de::Deserializer<'de> for ExtDeserializer<'a, M> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(ExtParts { ext: self, next: 0 })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The two elements of an extension's tuple.
struct ExtParts<'a, M> {
    ext: ExtDeserializer<'a, M>,
    next: u8,
}

impl<'de, 'a, M: Strings<'a, 'de>> de::SeqAccess<'de> for ExtParts<'a, M> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        self.next += 1;
        match self.next {
            1 => seed
                .deserialize(self.ext.ext_type.into_deserializer())
                .map(Some),
            2 => seed
                .deserialize(BytesDeserializer::<M> {
                    bytes: self.ext.data,
                    mode: PhantomData,
                })
                .map(Some),
            _ => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(2usize.saturating_sub(self.next as usize))
    }
}

/// Bytes from the input, borrowed or copied as the mode says.
struct BytesDeserializer<'a, M> {
    bytes: &'a [u8],
    mode: PhantomData<M>,
}

impl<'de, 'a, M: Strings<'a, 'de>> de::Deserializer<'de> for BytesDeserializer<'a, M> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        M::visit_bytes(visitor, self.bytes)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
