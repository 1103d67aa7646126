//! Helpers that `#[derive(MsgPack)]` code and this workspace's other
//! crates (msgpack-tokio's codec) call. Not public API: names
//! and signatures may change in any release.

use std::any::type_name;
use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::schema::{Describe, FieldDef, Payload, Presence, Registry, Shape, VariantDef};

/// The schema module, and the helpers derived `Schema` impls call.
pub mod schema {
    pub use super::{
        field, fields, variants, FieldSpec, Probe, VariantSpec, ViaDescribe, ViaTypeName,
    };
    pub use crate::schema::*;
}
pub use crate::de::{
    deserialize_placed, from_slice_front, read_direct, read_whole, ByValue, DeserializeInPlace,
    DirectRead, DirectReader, Elements, Entries, FieldSeed, Filled, Layout, LayoutBuilder,
    NilOrSeed, Plain, Sink, Slot, VecInPlace, ViaDeserialize, ViaDirectRead, ViaInPlace,
    ViaNotDirectRead, ViaNotWhole, ViaWhole, Whole, WholeBytes,
};
pub use crate::ser::direct::{direct, Direct, Out, Via, ViaDirect, ViaSerde};
pub use crate::{UnknownFields, Value};
pub use serde;
pub use std::marker::PhantomData;
pub use std::option::Option::{self, None, Some};
pub use std::result::Result::{self, Err, Ok};
pub use std::{default::Default, fmt::Formatter};

/// Refuses the present value of an `#[msgpack(array)]` field that is left
/// out at its default, when it writes nil: the array would hold nil at
/// its place, which reads as the field left out, so as the default.
#[inline]
pub fn refuse_nil_in_array<T: ?Sized + Serialize, E: serde::ser::Error>(
    value: &T,
    name: &str,
    tag: u64,
) -> Result<(), E> {
    if crate::ser::writes_nil(value) {
        return Err(nil_in_array(name, tag));
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn nil_in_array<E: serde::ser::Error>(name: &str, tag: u64) -> E {
    E::custom(format_args!(
        "field `{name}` (tag {tag}) is not its default but writes nil, which an #[msgpack(array)] struct reads as the field left out"
    ))
}

/// An `omit_default` field's default and the comparison with it, made
/// by [`omit_default`] or [`omit_default_with`]. The trait bounds are on
/// those functions alone, so that derived code asks for them in one
/// expression, spanned at the field type: a type without `Default` or
/// `PartialEq` is one error there ("required by a bound in
/// `omit_default`"), not one per use.
pub struct DefaultEq<T> {
    default: fn() -> T,
    eq: fn(&T, &T) -> bool,
}

/// `omit_default` with the type's `Default`.
#[inline]
pub fn omit_default<T: Default + PartialEq>() -> DefaultEq<T> {
    DefaultEq {
        default: T::default,
        eq: T::eq,
    }
}

/// `omit_default` with a `#[msgpack(default = "path")]` default.
#[inline]
pub fn omit_default_with<T: PartialEq>(default: fn() -> T) -> DefaultEq<T> {
    DefaultEq { default, eq: T::eq }
}

impl<T> DefaultEq<T> {
    /// Whether `value` equals the default.
    #[inline]
    pub fn is_default(&self, value: &T) -> bool {
        (self.eq)(value, &(self.default)())
    }

    /// The default.
    #[inline]
    pub fn default(&self) -> T {
        (self.default)()
    }
}

/// Writes the fields of a struct as a map: keyed by tag in binary
/// formats, by name in human-readable ones.
pub struct MapWriter<M> {
    map: M,
    human_readable: bool,
}

impl<M: SerializeMap> MapWriter<M> {
    #[inline(always)]
    pub fn new<S: Serializer<SerializeMap = M>>(
        serializer: S,
        len: usize,
    ) -> Result<Self, S::Error> {
        let human_readable = serializer.is_human_readable();
        Ok(MapWriter {
            map: serializer.serialize_map(Some(len))?,
            human_readable,
        })
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn field<T: ?Sized + Serialize>(
        &mut self,
        tag: u64,
        name: &'static str,
        value: &T,
    ) -> Result<(), M::Error> {
        if self.human_readable {
            self.map.serialize_entry(name, value)
        } else {
            self.map.serialize_entry(&tag, value)
        }
    }

    /// Writes back the fields this version did not know; `known` are the
    /// tags of the fields it does know, which none of them may have.
    pub fn unknown(&mut self, fields: &UnknownFields, known: &[u64]) -> Result<(), M::Error> {
        check_unknown_tags(fields, known)?;
        fields
            .iter()
            .try_for_each(|(tag, value)| self.map.serialize_entry(&tag, value))
    }

    #[inline(always)]
    pub fn end(self) -> Result<M::Ok, M::Error> {
        self.map.end()
    }
}

/// Refuses unknown fields that carry a known field's tag (only
/// [`UnknownFields::insert`] can put one there): written back, it would
/// repeat a key, or be lost in a tag-indexed array.
#[inline]
fn check_unknown_tags<E: serde::ser::Error>(
    fields: &UnknownFields,
    known: &[u64],
) -> Result<(), E> {
    // Over the unknown fields, which are usually none.
    match fields.iter().find(|(tag, _)| known.contains(tag)) {
        Some((tag, _)) => Err(E::custom(format_args!(
            "unknown field with tag {tag}, the tag of a known field"
        ))),
        None => Ok(()),
    }
}

/// Writes the fields of a `#[msgpack(array)]` struct as a tag-indexed
/// array: element `n` holds the field with tag `n`, nil fills the gaps,
/// and the array ends with the last field present.
///
/// Three words besides the serializer's state: derived code builds one
/// per struct written, so it must be cheap to make and to move.
pub struct ArrayWriter<'u, S> {
    seq: S,
    /// The next position to write.
    next: u64,
    /// The array length.
    len: u64,
    /// The fields this version did not know, written at their tags; `None`
    /// when there are none.
    unknown: Option<&'u UnknownFields>,
}

/// An [`ArrayWriter`]; `last_present` is the largest tag of a field that
/// is present.
#[inline(always)]
pub fn array_writer<'u, Ser: Serializer>(
    serializer: Ser,
    last_present: Option<u64>,
    unknown: Option<(&'u UnknownFields, &[u64])>,
) -> Result<ArrayWriter<'u, Ser::SerializeSeq>, Ser::Error> {
    let unknown = match unknown {
        Some((fields, known)) if !fields.is_empty() => {
            check_unknown_tags(fields, known)?;
            Some(fields)
        }
        _ => None,
    };
    let last_unknown = unknown.and_then(UnknownFields::last_tag);
    let too_large = || serde::ser::Error::custom("array field tag too large");
    let len = match last_present.max(last_unknown) {
        Some(tag) => tag.checked_add(1).ok_or_else(too_large)?,
        None => 0,
    };
    let size = usize::try_from(len).map_err(|_| too_large())?;
    Ok(ArrayWriter {
        seq: serializer.serialize_seq(Some(size))?,
        next: 0,
        len,
        unknown,
    })
}

impl<S: SerializeSeq> ArrayWriter<'_, S> {
    /// Fills positions up to `tag` with unknown fields or nil.
    #[inline(always)]
    fn fill_to(&mut self, tag: u64) -> Result<(), S::Error> {
        let end = tag.min(self.len);
        if self.unknown.is_some() {
            return self.fill_with_unknown(end);
        }
        while self.next < end {
            self.seq.serialize_element(&())?;
            self.next += 1;
        }
        Ok(())
    }

    /// [`fill_to`](Self::fill_to) for a struct that carries unknown
    /// fields: out of line, to keep the common case small.
    #[inline(never)]
    fn fill_with_unknown(&mut self, end: u64) -> Result<(), S::Error> {
        while self.next < end {
            match self.unknown.and_then(|fields| fields.get(self.next)) {
                Some(value) => self.seq.serialize_element(value)?,
                None => self.seq.serialize_element(&())?,
            }
            self.next += 1;
        }
        Ok(())
    }

    /// Writes the field with `tag`: its value, or nil when absent.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn field<T: ?Sized + Serialize>(
        &mut self,
        tag: u64,
        value: Option<&T>,
    ) -> Result<(), S::Error> {
        if tag >= self.len {
            return Ok(());
        }
        if self.next < tag {
            self.fill_to(tag)?;
        }
        match value {
            Some(value) => self.seq.serialize_element(value)?,
            None => self.seq.serialize_element(&())?,
        }
        self.next = tag + 1;
        Ok(())
    }

    #[inline(always)]
    pub fn end(mut self) -> Result<S::Ok, S::Error> {
        if self.next < self.len {
            self.fill_to(self.len)?;
        }
        self.seq.end()
    }
}

/// A map key or array position as a derived type reads it: a tag in
/// binary formats, a name in human-readable ones (or from other writers).
pub enum FieldKey<'de> {
    Tag(u64),
    Name(Cow<'de, str>),
    /// A negative integer or a key of another type: never a field.
    Other,
}

impl FieldKey<'_> {
    /// The tag, if this key is one.
    #[inline]
    pub fn tag(&self) -> Option<u64> {
        match self {
            FieldKey::Tag(tag) => Some(*tag),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for FieldKey<'de> {
    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;

        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = FieldKey<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field number or name")
            }

            fn visit_u64<E>(self, tag: u64) -> Result<FieldKey<'de>, E> {
                Ok(FieldKey::Tag(tag))
            }

            fn visit_i64<E>(self, n: i64) -> Result<FieldKey<'de>, E> {
                Ok(u64::try_from(n).map_or(FieldKey::Other, FieldKey::Tag))
            }

            fn visit_borrowed_str<E>(self, name: &'de str) -> Result<FieldKey<'de>, E> {
                Ok(FieldKey::Name(Cow::Borrowed(name)))
            }

            fn visit_str<E>(self, name: &str) -> Result<FieldKey<'de>, E> {
                Ok(FieldKey::Name(Cow::Owned(name.to_owned())))
            }

            fn visit_string<E>(self, name: String) -> Result<FieldKey<'de>, E> {
                Ok(FieldKey::Name(Cow::Owned(name)))
            }

            fn visit_bytes<E>(self, name: &[u8]) -> Result<FieldKey<'de>, E> {
                Ok(std::str::from_utf8(name).map_or(FieldKey::Other, |n| {
                    FieldKey::Name(Cow::Owned(n.to_owned()))
                }))
            }
        }

        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// How many elements of `T` a vector read from an array of `len` has
/// room reserved for before they are read (serde's rule, `de/mod.rs`'s
/// `cautious`): for tests of vectors that outgrow it.
pub fn reserved_for<T>(len: usize) -> usize {
    crate::de::cautious::<T>(len)
}

/// `T` read from nil by our deserializer, if it reads one (`()`, a unit
/// struct, `Value`, a newtype of one): a nil in a tag-indexed array where
/// the writer never leaves a gap is the field's value. Out of line and
/// cold: the field reads that call it are inlined, and nil is seldom
/// there.
#[cold]
#[inline(never)]
pub fn from_nil<'de, T: Deserialize<'de>>() -> Option<T> {
    crate::from_slice(&[msgpack_core::marker::NIL]).ok()
}

/// A value read and thrown away: an unknown field, a gap. serde's
/// `IgnoredAny`, with a `Deserialize` impl the compiler inlines.
pub struct Skip;

impl<'de> Deserialize<'de> for Skip {
    #[inline(always)]
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer
            .deserialize_ignored_any(de::IgnoredAny)
            .map(|_| Skip)
    }
}

/// The error for a required field that is absent.
#[cold]
pub fn missing_field<E: de::Error>(name: &'static str, tag: u64) -> E {
    E::custom(format_args!("missing field `{name}` (tag {tag})"))
}

/// The error for a field that appears twice.
#[cold]
pub fn duplicate_field<E: de::Error>(name: &'static str, tag: u64) -> E {
    E::custom(format_args!("duplicate field `{name}` (tag {tag})"))
}

/// How far past its largest field tag a `#[msgpack(array)]` struct keeps
/// an unknown field read from a map; farther ones are skipped, as a
/// struct without `UnknownFields` skips every unknown field. Written
/// back, a kept field sits at its tag's position with nil before it:
/// unbounded, the entry `0xcf <2^40> 0x01` (ten bytes) would come out as
/// 2^40 nils and a one. From an array there is no such risk: each
/// position was a value in the input.
pub const ARRAY_UNKNOWN_GAP: u64 = 64;

/// Drops the unknown fields whose value is nil, for an
/// `#[msgpack(array)]` struct read from a map: its array form writes
/// nil for a gap, so they would not survive the next read. After the
/// whole map, so that a tag repeated with nil is still an error.
#[inline]
pub fn drop_nil_unknown(unknown: &mut UnknownFields) {
    if !unknown.is_empty() {
        unknown.retain_non_nil();
    }
}

/// Keeps an unknown field; a tag seen twice is an error, as a known field
/// seen twice is.
#[inline]
pub fn insert_unknown<E: de::Error>(
    unknown: &mut UnknownFields,
    tag: u64,
    value: Value,
) -> Result<(), E> {
    if unknown.contains(tag) {
        return Err(E::custom(format_args!("duplicate field with tag {tag}")));
    }
    unknown.insert(tag, value);
    Ok(())
}

/// The error for a variant tag or name that no variant has.
#[cold]
pub fn unknown_variant<E: de::Error>(key: &FieldKey<'_>, enum_name: &'static str) -> E {
    match key {
        FieldKey::Tag(tag) => E::custom(format_args!(
            "unknown variant tag {tag} of enum {enum_name}"
        )),
        FieldKey::Name(name) => {
            E::custom(format_args!("unknown variant `{name}` of enum {enum_name}"))
        }
        FieldKey::Other => E::custom(format_args!("invalid variant key of enum {enum_name}")),
    }
}

/// The error for an enum encoded as a map of other than one entry.
#[cold]
pub fn not_one_entry<E: de::Error>(enum_name: &'static str) -> E {
    E::custom(format_args!(
        "expected a map of one entry for enum {enum_name}"
    ))
}

/// Finds a field type's shape from generated code: the [`Describe`] impl
/// when the type has one, else the Rust type name (autoref specialization:
/// `(&&Probe::<T>::new()).shape(registry)`).
#[allow(missing_debug_implementations)]
pub struct Probe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> Probe<T> {
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        Probe(PhantomData)
    }
}

pub trait ViaDescribe {
    fn shape(&self, registry: &mut Registry) -> Shape;
}

// For the receiver `&&Probe<T>`, method lookup first tries methods whose
// `self` is `&&Probe<T>`: `ViaDescribe` on `&Probe<T>`, which applies only
// when `T: Describe`. Only then does it deref to `&Probe<T>` and find
// `ViaTypeName` on `Probe<T>`.
impl<T: Describe + ?Sized> ViaDescribe for &Probe<T> {
    #[inline(always)]
    fn shape(&self, registry: &mut Registry) -> Shape {
        T::shape(registry)
    }
}

pub trait ViaTypeName {
    fn shape(&self, registry: &mut Registry) -> Shape;
}

impl<T: ?Sized> ViaTypeName for Probe<T> {
    fn shape(&self, _: &mut Registry) -> Shape {
        Shape::Other(type_name::<T>().to_string())
    }
}

/// A field's default value as MessagePack bytes, for its schema.
pub fn default_bytes<T: Serialize>(value: T) -> Option<Vec<u8>> {
    crate::to_vec(&value).ok()
}

/// A derived field as the derive describes it, in a table of constants
/// (the shape and the default are functions, closures that capture
/// nothing): [`fields`] builds the definitions from it, so that a type's
/// `Schema` impl is a table in read-only data, promoted as a constant,
/// and one call rather than code for each field.
#[allow(missing_debug_implementations)]
pub struct FieldSpec {
    pub name: &'static str,
    pub tag: u64,
    pub shape: fn(&mut Registry) -> Shape,
    pub presence: Presence,
    pub omit_default: bool,
    pub default: Option<fn() -> Option<Vec<u8>>>,
}

/// The definitions of a derived type's fields, from its table, in order.
#[inline(never)]
pub fn fields(registry: &mut Registry, specs: &[FieldSpec]) -> Vec<FieldDef> {
    specs
        .iter()
        .map(|spec| {
            let shape = (spec.shape)(registry);
            let default = spec.default.and_then(|default| default());
            field(
                spec.name,
                spec.tag,
                shape,
                spec.presence,
                spec.omit_default,
                default,
            )
        })
        .collect()
}

/// A derived enum's variant as the derive describes it, in a table of
/// constants as [`FieldSpec`]s are: `payload` is `None` for a unit.
#[allow(missing_debug_implementations)]
pub struct VariantSpec {
    pub name: &'static str,
    pub tag: u64,
    pub payload: Option<fn(&mut Registry) -> Payload>,
    pub other: bool,
}

/// The definitions of a derived enum's variants, from its table, in order.
#[inline(never)]
pub fn variants(registry: &mut Registry, specs: &[VariantSpec]) -> Vec<VariantDef> {
    specs
        .iter()
        .map(|spec| VariantDef {
            name: spec.name.into(),
            tag: spec.tag,
            payload: spec
                .payload
                .map_or(Payload::Unit, |payload| payload(registry)),
            other: spec.other,
        })
        .collect()
}

/// A derived struct's field, described: one call per field, out of line,
/// rather than the name's copy at every field of every derived type.
#[inline(never)]
pub fn field(
    name: &'static str,
    tag: u64,
    shape: Shape,
    presence: Presence,
    omit_default: bool,
    default: Option<Vec<u8>>,
) -> FieldDef {
    FieldDef {
        name: name.into(),
        tag,
        shape,
        presence,
        omit_default,
        default,
    }
}

/// `deserializer.deserialize_any(visitor)` for a derived struct, from one
/// of the [`DECODING_UNITS`] modules here: the derive picks one by a hash
/// of the type's name (its `decoding_unit`). rustc compiles
/// each module's instances in a codegen unit of their own, so a crate's
/// structs decode (the decoder with each visitor inlined: the bulk of a
/// derive's code) in that many units beside the user's module, in parallel,
/// not all in that module's one unit.
macro_rules! decoding_units {
    ($($unit:ident)*) => {
        /// How many units there are: msgpack-derive's code asserts it
        /// picks among as many.
        pub const DECODING_UNITS: u64 = 0 $(+ { let _ = stringify!($unit); 1 })*;
        decoding_units!(@each $($unit)*);
    };
    (@each $($unit:ident)*) => {$(
        #[doc(hidden)]
        pub mod $unit {
            use serde::de::{Deserializer, Visitor};

            /// Never inlined: inlined, it would be compiled in the
            /// caller's unit.
            #[inline(never)]
            pub fn deserialize_struct<'de, D: Deserializer<'de>, V: Visitor<'de>>(
                deserializer: D,
                visitor: V,
            ) -> Result<V::Value, D::Error> {
                deserializer.deserialize_any(visitor)
            }
        }
    )*};
}

decoding_units!(unit0 unit1 unit2 unit3);
