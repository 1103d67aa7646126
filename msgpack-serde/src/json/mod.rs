//! JSON to MessagePack and back, with no `Value` tree between (feature
//! `json`): the one JSON mapping that `NegotiateLayer` (plain) and the
//! `msgpack` command (tagged) use.
//!
//! ```
//! use msgpack_serde::json::{self, FromJson, ToJson};
//!
//! let bytes = json::to_msgpack(br#"{"id":7,"raw":{"$bin":"AQI="}}"#, FromJson::tagged())?;
//! assert_eq!(bytes, b"\x82\xa2id\x07\xa3raw\xc4\x02\x01\x02");
//! let plain = json::to_msgpack(br#"{"raw":{"$bin":"AQI="}}"#, FromJson::plain())?;
//! assert_eq!(plain, b"\x81\xa3raw\x81\xa4$bin\xa4AQI=");
//!
//! let mut text = Vec::new();
//! let mut reader = msgpack_serde::core::Reader::new(&bytes);
//! json::write_json(&mut reader, ToJson::tagged(), &mut serde_json::Serializer::new(&mut text))?;
//! assert_eq!(text, br#"{"id":7,"raw":{"$bin":"AQI="}}"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! JSON to MessagePack ([`to_msgpack`], [`write_msgpack`]): objects become
//! maps keyed by string, integers keep their exact value in the smallest
//! form (all of u64 and i64), other (finite) numbers are the float 64
//! nearest them ([`FromJson::f32`]: float 32 when exact), so a float
//! written as JSON by serde_json comes back as itself, and the bytes are
//! those of msgpack-serde's [`Serializer`](crate::Serializer) for the
//! same data. JSON gives no length for an object or an array before its
//! entries, where a serializer must count each into a buffer of its own;
//! this writer keeps one header byte per container in the output, writes
//! the entries in place and patches the header at the end, widening it
//! for a longer container. Plain documents of up to 64 KiB are parsed
//! whole by simd-json first, which counts every container before its
//! entries; what it refuses goes to serde_json, so values, limits and
//! error messages are serde_json's (see [`write_msgpack`]).
//!
//! The tagged forms ([`Style::Tagged`]), for what JSON cannot hold:
//!
//! | MessagePack | tagged JSON | plain JSON ([`Style::Plain`], MessagePack to JSON) |
//! |---|---|---|
//! | nil, bool, integer, str, array | `null`, `true`, `42`, `"text"`, `[...]` | the same |
//! | float 64 | `1.5`; NaN and infinities `{"$float64": "NaN"}`, `"Infinity"`, `"-Infinity"` | `1.5`; `null` |
//! | float 32 | `{"$float32": 1.5}` | `1.5` |
//! | bin | `{"$bin": "<base64>"}` | `"<base64>"` |
//! | timestamp (ext -1) | `{"$timestamp": "2026-11-30T12:00:00.5Z"}` (RFC 3339, exact to the nanosecond); outside years 0000 to 9999, `$ext` | `"2026-11-30T12:00:00.5Z"` |
//! | other ext | `{"$ext": {"type": 5, "data": "<base64>"}}` | the same object, untagged |
//! | map with only str keys | `{"key": value}` | the same |
//! | map with other keys | `{"$map": [[key, value], ...]}` | an object, keys as their JSON text (`"1"`, `"[1,2]"`), bin and timestamps as their string |
//!
//! A tag is the first key of an object and must be its only one. A map
//! whose first key is a tag name, and any key starting with `$$`, get one
//! more `$` in tagged JSON and lose it on the way back, so every string
//! survives. Plain JSON read as MessagePack knows no tags: every object is
//! a map, its keys as they are.
//!
//! Tagged JSON to MessagePack and back gives the bytes of any value in
//! smallest form, with two limits: nesting stops at [`MAX_DEPTH`] levels
//! both ways, and a NaN comes back as the quiet NaN (`0x7ff8000000000000`,
//! float 32 `0x7fc00000`), its sign and payload lost. The other way, a
//! JSON integer beyond MessagePack's (below `i64::MIN` or above
//! `u64::MAX`) is read as the nearest float 64, as serde_json reads it.

mod error;
mod from_json;
mod string_keys;
mod tags;
mod to_json;

pub use error::Error;
pub use from_json::{to_msgpack, write_msgpack, FromJson};
pub use tags::timestamp_text;
pub use to_json::{write_json, ToJson};

/// The nesting depth the tagged forms follow by default, both ways: arrays
/// and maps (a `$map` is one level, not the three of its JSON).
pub const MAX_DEPTH: usize = 512;

/// How JSON stands for MessagePack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// The reversible tagged forms of the table above.
    Tagged,
    /// Ordinary JSON. MessagePack to JSON: bytes as base64 strings,
    /// timestamps as RFC 3339 strings, keys as strings, non-finite floats
    /// as `null`. JSON to MessagePack: JSON's own data model, no tags.
    Plain,
}
