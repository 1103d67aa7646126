//! Fields a derived type does not know, kept so that they survive a relay.

use crate::Value;

/// The fields of a message that this version of a `#[derive(MsgPack)]`
/// type does not know, by tag, kept so that a service relaying a newer
/// message loses nothing.
///
/// Mark one field of this type `#[msgpack(unknown)]`: decoding fills it
/// with every unknown tag and its value, and encoding writes them back.
///
/// ```
/// use msgpack_serde::{msgpack, MsgPack, UnknownFields};
///
/// #[derive(MsgPack, Debug)]
/// struct Old {
///     #[msgpack(tag = 1)]
///     id: u64,
///     #[msgpack(unknown)]
///     unknown: UnknownFields,
/// }
///
/// let newer = msgpack_serde::to_vec(&msgpack!({1: 7, 2: "added later"})).unwrap();
/// let old: Old = msgpack_serde::from_slice(&newer).unwrap();
/// assert_eq!(old.unknown.get(2), Some(&msgpack!("added later")));
/// assert_eq!(msgpack_serde::to_vec(&old).unwrap(), newer);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UnknownFields {
    /// Sorted by tag, each tag once.
    fields: Vec<(u64, Value)>,
}

impl UnknownFields {
    /// No fields.
    pub fn new() -> Self {
        UnknownFields::default()
    }

    /// How many unknown fields there are.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The value of `tag`, if it was seen.
    pub fn get(&self, tag: u64) -> Option<&Value> {
        let index = self.fields.binary_search_by_key(&tag, |(t, _)| *t).ok()?;
        Some(&self.fields[index].1)
    }

    /// Adds or replaces the value of `tag`.
    pub fn insert(&mut self, tag: u64, value: Value) {
        match self.fields.binary_search_by_key(&tag, |(t, _)| *t) {
            Ok(index) => self.fields[index].1 = value,
            Err(index) => self.fields.insert(index, (tag, value)),
        }
    }

    /// Whether `tag` was seen.
    pub fn contains(&self, tag: u64) -> bool {
        self.get(tag).is_some()
    }

    /// The fields in tag order.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &Value)> + '_ {
        self.fields.iter().map(|(tag, value)| (*tag, value))
    }

    /// The largest tag, if any.
    pub(crate) fn last_tag(&self) -> Option<u64> {
        self.fields.last().map(|(tag, _)| *tag)
    }
}
