//! Fields a derived type does not know, kept so that they survive a relay.

use std::collections::BTreeMap;

use crate::Value;

/// The fields of a message that this version of a `#[derive(MsgPack)]`
/// type does not know, by tag, kept so that a service relaying a newer
/// message loses nothing.
///
/// Mark one field of this type `#[msgpack(unknown)]`: decoding fills it
/// with every unknown tag and its value, and encoding writes them back.
/// A `#[msgpack(array)]` struct writes them at their tag's position, with
/// nil in the gaps, so read from a map it skips an unknown tag more than
/// 64 past its largest field tag rather than pad it with that many nils,
/// and drops an unknown field whose value is nil, which an array reads as
/// a gap.
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
    /// By tag. A map, not a sorted vector: a message whose unknown tags
    /// come in descending order would make every insertion shift the
    /// whole vector, quadratic in the number of fields.
    fields: BTreeMap<u64, Value>,
}

impl UnknownFields {
    /// No fields.
    ///
    /// ```
    /// use msgpack_serde::UnknownFields;
    ///
    /// let fields = UnknownFields::new();
    /// assert!(fields.is_empty());
    /// assert_eq!(fields, UnknownFields::default());
    /// ```
    pub fn new() -> Self {
        UnknownFields::default()
    }

    /// How many unknown fields there are.
    ///
    /// ```
    /// use msgpack_serde::{msgpack, UnknownFields};
    ///
    /// let mut fields = UnknownFields::new();
    /// fields.insert(2, msgpack!("a"));
    /// fields.insert(2, msgpack!("b")); // replaces
    /// assert_eq!(fields.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// Whether there are none.
    ///
    /// ```
    /// use msgpack_serde::{msgpack, UnknownFields};
    ///
    /// let mut fields = UnknownFields::new();
    /// assert!(fields.is_empty());
    /// fields.insert(9, msgpack!(null));
    /// assert!(!fields.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The value of `tag`, if it was seen.
    ///
    /// ```
    /// use msgpack_serde::{msgpack, UnknownFields};
    ///
    /// let mut fields = UnknownFields::new();
    /// fields.insert(3, msgpack!([1, 2]));
    /// assert_eq!(fields.get(3), Some(&msgpack!([1, 2])));
    /// assert_eq!(fields.get(4), None);
    /// ```
    pub fn get(&self, tag: u64) -> Option<&Value> {
        self.fields.get(&tag)
    }

    /// Adds or replaces the value of `tag`. A tag that the type holding
    /// these fields knows makes serializing that type fail: the field
    /// would be written twice.
    ///
    /// ```
    /// use msgpack_serde::{msgpack, UnknownFields};
    ///
    /// let mut fields = UnknownFields::new();
    /// fields.insert(5, msgpack!("five"));
    /// fields.insert(2, msgpack!("two"));
    /// fields.insert(5, msgpack!(5));
    /// assert_eq!(fields.iter().collect::<Vec<_>>(), [(2, &msgpack!("two")), (5, &msgpack!(5))]);
    /// ```
    pub fn insert(&mut self, tag: u64, value: Value) {
        self.fields.insert(tag, value);
    }

    /// Whether `tag` was seen.
    ///
    /// ```
    /// use msgpack_serde::{msgpack, UnknownFields};
    ///
    /// let mut fields = UnknownFields::new();
    /// fields.insert(7, msgpack!(true));
    /// assert!(fields.contains(7));
    /// assert!(!fields.contains(8));
    /// ```
    pub fn contains(&self, tag: u64) -> bool {
        self.fields.contains_key(&tag)
    }

    /// The fields in tag order.
    ///
    /// ```
    /// use msgpack_serde::{msgpack, UnknownFields};
    ///
    /// let mut fields = UnknownFields::new();
    /// fields.insert(9, msgpack!(null));
    /// fields.insert(4, msgpack!(null));
    /// let tags: Vec<u64> = fields.iter().map(|(tag, _)| tag).collect();
    /// assert_eq!(tags, [4, 9]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (u64, &Value)> + '_ {
        self.fields.iter().map(|(tag, value)| (*tag, value))
    }

    /// Drops the fields whose value is nil.
    pub(crate) fn retain_non_nil(&mut self) {
        self.fields.retain(|_, value| !value.is_nil());
    }

    /// The largest tag, if any.
    pub(crate) fn last_tag(&self) -> Option<u64> {
        self.fields.last_key_value().map(|(tag, _)| *tag)
    }
}
