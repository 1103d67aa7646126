//! MessagePack for serde, with the API of serde_json: swap
//! `serde_json::to_vec` for `msgpack_serde::to_vec` and get smaller,
//! faster payloads.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Order { id: u64, customer: String, note: Option<String> }
//!
//! let order = Order { id: 42, customer: "Ada".into(), note: None };
//! let bytes = msgpack_serde::to_vec(&order)?;                  // {"id": 42, "customer": "Ada", "note": nil}
//! assert_eq!(msgpack_serde::from_slice::<Order>(&bytes)?, order);
//! let compact = msgpack_serde::to_vec_compact(&order)?;        // [42, "Ada", nil]
//! assert_eq!(compact.len(), 7);
//! assert_eq!(msgpack_serde::from_slice::<Order>(&compact)?, order);
//! # Ok::<(), msgpack_serde::Error>(())
//! ```
//!
//! - [`to_vec`] and [`to_writer`] write structs as maps keyed by field
//!   name; [`to_vec_compact`] and [`to_writer_compact`] as arrays in field
//!   order. [`from_slice`] and [`from_reader`] read both. The bytes are
//!   rmp-serde's: `rmp_serde::to_vec_named` and `rmp_serde::to_vec`.
//! - [`from_slice`] borrows: `&str`, `&[u8]` and `#[serde(borrow)]
//!   Cow<str>` fields point into the input. Bytes after the value are an
//!   error.
//! - Errors carry the byte offset: `invalid type: string "x", expected u32 at offset 17`.
//! - [`Deserializer`] takes [`Limits`] (depth, value count, size) for
//!   untrusted input; the depth limit (128) is on by default, and no
//!   declared length is trusted for allocation.
//! - [`Value`] keeps every MessagePack type; [`msgpack!`] builds one.
//! - [`Timestamp`] and [`Ext`] are real ext values; [`RawValue`] passes
//!   bytes through; [`StreamDeserializer`] reads values back to back.
//! - Feature `json`: [`Value`] to and from `serde_json::Value`, and the
//!   `json` module, JSON to MessagePack and back with no tree between
//!   (tagged forms such as `{"$bin": "AQI="}` for what JSON cannot hold).
//!
//! The whole mapping of the serde data model is in [`Serializer`]'s docs.

#![deny(unsafe_code)]
#![warn(missing_docs)]

#[doc(hidden)]
#[allow(missing_debug_implementations, missing_docs)]
pub mod __private;
mod config;
mod de;
mod error;
mod ext;
#[cfg(feature = "json")]
pub mod json;
mod macros;
mod raw;
pub mod read;
pub mod schema;
pub mod ser;
mod stream;
pub mod timestamp;
mod unknown;
mod value;

use std::cell::Cell;
use std::io;

use serde::de::{Deserialize, DeserializeOwned};
use serde::ser::Serialize;

pub use config::Config;
pub use de::Deserializer;
pub use error::{Category, Error, Result};
pub use ext::Ext;
pub use msgpack_core::{Integer, IoWriter, Limits, Timestamp, Value, ValueRef};
pub use raw::RawValue;
pub use ser::Serializer;
pub use stream::StreamDeserializer;
pub use unknown::UnknownFields;
pub use value::{from_value, to_value};

/// `#[derive(MsgPack)]`: `Serialize`, `Deserialize` and
/// [`Schema`](schema::Schema) with protobuf-style field numbers.
///
/// In binary formats (MessagePack) a struct is a map keyed by its field
/// numbers, `{1: 42, 2: "Ada"}`: more compact than names and as evolvable
/// as protobuf. In human-readable formats (JSON) it uses field names, so
/// the same type still speaks JSON. The impls are plain serde: a derived
/// type works with every serde format and nests with non-derived types.
///
/// ```
/// use msgpack_serde::MsgPack;
///
/// #[derive(MsgPack, Debug, PartialEq)]
/// struct Order {
///     #[msgpack(tag = 1)] id: u64,
///     #[msgpack(tag = 2)] customer: String,
///     #[msgpack(tag = 3)] note: Option<String>, // None is left out
/// }
///
/// let order = Order { id: 42, customer: "Ada".into(), note: None };
/// let bytes = msgpack_serde::to_vec(&order).unwrap();
/// assert_eq!(bytes, [0x82, 0x01, 0x2a, 0x02, 0xa3, b'A', b'd', b'a']);
/// assert_eq!(msgpack_serde::from_slice::<Order>(&bytes).unwrap(), order);
/// ```
///
/// Reading accepts a tag-keyed map, a name-keyed map or a tag-indexed
/// array. Unknown tags are skipped (old readers accept new data); absent
/// `Option` and defaulted fields take their default (new readers accept
/// old data); an absent required field is an error naming the field and
/// its tag, and a repeated field is an error.
///
/// # Container attributes
///
/// | attribute | meaning |
/// |---|---|
/// | `#[msgpack(array)]` | binary form is a tag-indexed array: element `n` holds the field with tag `n`, nil fills gaps (no field with that tag, an `Option`'s `None`, an `omit_default` field at its default), absent trailing fields are left off; a nil where a field is always written (not `omit_default`, and not an `Option` unless it has `default = "path"`) is that field's value when its type reads one from nil (`()`, a unit struct, `Value`, a newtype of one), even for a field with a default. Start tags at 0 for the densest output. With an `unknown` field, read from a map, it keeps unknown tags up to 64 past its largest field tag and skips farther ones (written back nil-padded, they could turn a few bytes into gigabytes), and drops nil values, which its array reads as gaps |
/// | `#[msgpack(omit_default)]` | leave out every field equal to its `Default` (as proto3 does); absent means default |
/// | `#[msgpack(rename_all = "camelCase")]` | field (variant) names in human-readable formats, as serde's rule names |
/// | `#[msgpack(reserved(4, 9..=12))]` | numbers no field or variant may use (retired ones); using one is a compile error |
/// | `#[msgpack(crate = "path")]` | where `msgpack_serde` is, when re-exported |
///
/// # Field attributes
///
/// | attribute | meaning |
/// |---|---|
/// | `#[msgpack(tag = N)]` | the field number; required on every field of a named struct (tuple struct fields default to their position) |
/// | `#[msgpack(rename = "name")]` | the name in human-readable formats |
/// | `#[msgpack(default)]`, `#[msgpack(default = "path")]` | absent takes `Default::default()` or `path()` |
/// | `#[msgpack(omit_default)]` | leave the field out when it equals its default (by `==`: a float's `-0.0` equals `0.0`, so it is left out and reads back as `0.0`) |
/// | `#[msgpack(skip)]` | never written; read as its default |
/// | `#[msgpack(with = "module")]` | serialize and deserialize through `module`, as serde's `with` |
/// | `#[msgpack(unknown)]` | on a field of type [`UnknownFields`]: collects unknown tags and writes them back |
///
/// # Enums
///
/// Every variant carries `#[msgpack(tag = N)]`. A unit variant is the bare
/// number; a variant with data is a one-entry map `{N: payload}` (a
/// newtype's value, a tuple's array, a struct variant's fields by tag).
/// A unit variant marked `#[msgpack(other)]` catches unknown numbers.
/// Human-readable formats use variant names.
///
/// ```
/// use msgpack_serde::MsgPack;
///
/// #[derive(MsgPack, Debug, PartialEq)]
/// enum Status {
///     #[msgpack(tag = 1)] Pending,
///     #[msgpack(tag = 2)] Shipped { #[msgpack(tag = 1)] carrier: String },
///     #[msgpack(tag = 0, other)] Unknown,
/// }
///
/// assert_eq!(msgpack_serde::to_vec(&Status::Pending).unwrap(), [0x01]);
/// assert_eq!(msgpack_serde::from_slice::<Status>(&[0x07]).unwrap(), Status::Unknown);
/// assert_eq!(serde_json::to_string(&Status::Pending).unwrap(), r#""Pending""#);
/// ```
#[cfg(feature = "derive")]
pub use msgpack_derive::MsgPack;

/// The wire-format layer, for token-level reading and writing.
///
/// ```
/// use msgpack_serde::core::{Marker, Reader};
///
/// let bytes = msgpack_serde::to_vec(&[1u8, 2]).unwrap();
/// let mut reader = Reader::new(&bytes);
/// assert_eq!(reader.peek_marker(), Ok(Marker::FixArray(2)));
/// assert_eq!(reader.read_array_len(), Ok(2));
/// ```
pub use msgpack_core as core;

/// Serializes `value` with structs as maps keyed by field name.
///
/// ```
/// let bytes = msgpack_serde::to_vec(&("a", 1)).unwrap();
/// assert_eq!(bytes, [0x92, 0xa1, b'a', 0x01]);
/// ```
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    to_vec_in::<ser::Named, T>(value, Config::named())
}

/// Serializes `value` with structs as arrays in field order (enum
/// variants by name): smaller, for peers that share the type definitions.
/// The bytes are those of `rmp_serde::to_vec`.
///
/// A field skipped at run time (`skip_serializing_if`) would shift every
/// later field, so it is an error that names the field.
///
/// ```
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Note { id: u8, #[serde(skip_serializing_if = "Option::is_none")] text: Option<String> }
///
/// let note = Note { id: 1, text: Some("hi".into()) };
/// assert_eq!(msgpack_serde::to_vec_compact(&note).unwrap(), [0x92, 0x01, 0xa2, b'h', b'i']);
/// let error = msgpack_serde::to_vec_compact(&Note { id: 1, text: None }).unwrap_err();
/// assert!(error.to_string().starts_with("field `text` was skipped, which compact"));
/// ```
pub fn to_vec_compact<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    to_vec_in::<ser::Compact, T>(value, Config::compact())
}

/// Serializes `value` under `config`.
///
/// ```
/// use msgpack_serde::Config;
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// enum Level { Low, High }
///
/// let config = Config::named().variants_as_indices(true);
/// assert_eq!(msgpack_serde::to_vec_with_config(&[Level::Low, Level::High], config).unwrap(), [0x92, 0x00, 0x01]);
/// ```
pub fn to_vec_with_config<T: ?Sized + Serialize>(value: &T, config: Config) -> Result<Vec<u8>> {
    to_vec_in::<ser::Configured, T>(value, config)
}

/// [`to_vec_with_config`] by a serializer in the struct mode `F`.
fn to_vec_in<F: ser::StructMode, T: ?Sized + Serialize>(
    value: &T,
    config: Config,
) -> Result<Vec<u8>> {
    let mut serializer = Serializer::<_, F>::in_mode(Vec::with_capacity(128), config);
    value.serialize(&mut serializer)?;
    Ok(serializer.into_inner())
}

/// How many bytes [`to_vec`] writes for `value`, counted without keeping
/// them (postcard's `serialized_size`): to size a buffer or a frame
/// header before writing.
///
/// ```
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Point { x: u8, y: u8 }
///
/// let point = Point { x: 1, y: 2 };
/// assert_eq!(msgpack_serde::serialized_size(&point)?, 7); // {"x": 1, "y": 2}
/// assert_eq!(msgpack_serde::serialized_size(&point)?, msgpack_serde::to_vec(&point)?.len());
/// # Ok::<(), msgpack_serde::Error>(())
/// ```
pub fn serialized_size<T: ?Sized + Serialize>(value: &T) -> Result<usize> {
    serialized_size_with_config(value, Config::named())
}

/// How many bytes [`to_vec_with_config`] writes for `value` under
/// `config`, counted without keeping them.
///
/// ```
/// use msgpack_serde::Config;
///
/// let pair = (1u8, "ab");
/// assert_eq!(msgpack_serde::serialized_size_with_config(&pair, Config::compact())?, 5); // [1, "ab"]
/// # Ok::<(), msgpack_serde::Error>(())
/// ```
pub fn serialized_size_with_config<T: ?Sized + Serialize>(
    value: &T,
    config: Config,
) -> Result<usize> {
    let mut serializer = Serializer::with_config(ByteCount(0), config);
    value.serialize(&mut serializer)?;
    Ok(serializer.into_inner().0)
}

/// A writer that counts the bytes written to it and keeps none.
struct ByteCount(usize);

impl msgpack_core::Write for ByteCount {
    type Error = std::convert::Infallible;

    #[inline]
    fn write_u8(&mut self, _: u8) -> std::result::Result<(), Self::Error> {
        self.0 += 1;
        Ok(())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> std::result::Result<(), Self::Error> {
        self.0 += bytes.len();
        Ok(())
    }

    #[inline]
    fn write_prefix(&mut self, _: &[u8; 9], len: usize) -> std::result::Result<(), Self::Error> {
        self.0 += len.min(9);
        Ok(())
    }
}

/// Serializes `value` into `writer`, structs as maps.
///
/// Into a `Vec<u8>` or `&mut Vec<u8>` it appends in place, at the speed of
/// [`to_vec`]. Into any other writer it encodes in a buffer kept per
/// thread (up to 64 KiB, so values that fit allocate nothing) and writes
/// it with one `write_all`: a file or socket sees one write, not one per
/// part. Either way, a value that fails to serialize writes nothing.
///
/// ```
/// use std::collections::BTreeMap;
///
/// let mut out = vec![0xc0];
/// msgpack_serde::to_writer(&mut out, &BTreeMap::from([("a", 1)])).unwrap();
/// assert_eq!(out, [0xc0, 0x81, 0xa1, b'a', 0x01]); // appended
/// ```
pub fn to_writer<W: io::Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    to_writer_in::<ser::Named, W, T>(writer, value, Config::named())
}

/// Serializes `value` into `writer`, structs as arrays.
///
/// ```
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Point { x: i8, y: i8 }
///
/// let mut out = Vec::new();
/// msgpack_serde::to_writer_compact(&mut out, &Point { x: 1, y: -1 }).unwrap();
/// assert_eq!(out, [0x92, 0x01, 0xff]);
/// ```
pub fn to_writer_compact<W: io::Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    to_writer_in::<ser::Compact, W, T>(writer, value, Config::compact())
}

/// Serializes `value` into `writer` under `config`, as [`to_writer`].
///
/// ```
/// use msgpack_serde::Config;
/// use std::net::Ipv4Addr;
///
/// let mut out = Vec::new();
/// let config = Config::named().human_readable(true);
/// msgpack_serde::to_writer_with_config(&mut out, &Ipv4Addr::LOCALHOST, config).unwrap();
/// assert_eq!(out, b"\xa9127.0.0.1");
/// ```
pub fn to_writer_with_config<W: io::Write, T: ?Sized + Serialize>(
    writer: W,
    value: &T,
    config: Config,
) -> Result<()> {
    to_writer_in::<ser::Configured, W, T>(writer, value, config)
}

/// [`to_writer_with_config`] by a serializer in the struct mode `F`.
fn to_writer_in<F: ser::StructMode, W: io::Write, T: ?Sized + Serialize>(
    writer: W,
    value: &T,
    config: Config,
) -> Result<()> {
    let mut writer = msgpack_core::IoWriter::new(writer);
    if let Some(vec) = writer.as_vec_mut() {
        let start = vec.len();
        let result = value.serialize(&mut Serializer::<_, F>::in_mode(&mut *vec, config));
        if result.is_err() {
            vec.truncate(start);
        }
        return result;
    }
    with_scratch(|scratch| {
        value.serialize(&mut Serializer::<_, F>::in_mode(&mut *scratch, config))?;
        writer.get_mut().write_all(scratch).map_err(Error::io)
    })
}

/// A buffer grown past this is not kept for the next `to_writer`.
const SCRATCH_KEEP: usize = 64 * 1024;

thread_local! {
    /// `to_writer`'s encoding buffer, between calls on one thread.
    static SCRATCH: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// Runs `f` on this thread's empty scratch buffer, taken out while it
/// runs: a `Serialize` impl that calls `to_writer` itself gets a new one.
fn with_scratch<R>(f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    let mut buffer = SCRATCH.try_with(Cell::take).unwrap_or_default();
    buffer.clear();
    let result = f(&mut buffer);
    if buffer.capacity() <= SCRATCH_KEEP {
        // Fails only while the thread is exiting: the buffer is dropped.
        let _ = SCRATCH.try_with(|scratch| scratch.set(buffer));
    }
    result
}

/// Deserializes one `T` that fills `bytes` exactly, borrowing strings and
/// bytes from it. Uses the default [`Limits`]; for others, see
/// [`Deserializer`].
///
/// ```
/// let name: &str = msgpack_serde::from_slice(&[0xa3, b'A', b'd', b'a']).unwrap();
/// assert_eq!(name, "Ada");
/// let error = msgpack_serde::from_slice::<bool>(&[0xc3, 0xc0]).unwrap_err();
/// assert_eq!(error.to_string(), "trailing bytes after the value at offset 1");
/// ```
pub fn from_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    de::from_slice_with_limits(bytes, Limits::default())
}

/// Deserializes one `T` from `reader`, which must end after it. Declared
/// lengths are never trusted for allocation: memory grows only with bytes
/// that arrive. Reads are small: wrap files and sockets in a
/// [`std::io::BufReader`].
///
/// ```
/// let input: &[u8] = &[0x92, 0x01, 0xa1, b'x'];
/// let pair: (u8, String) = msgpack_serde::from_reader(input).unwrap();
/// assert_eq!(pair, (1, "x".to_string()));
///
/// let truncated: &[u8] = &[0xcd, 0x01]; // a uint 16 missing a byte
/// let error = msgpack_serde::from_reader::<_, u16>(truncated).unwrap_err();
/// assert_eq!(error.to_string(), "unexpected end of input at offset 2");
/// ```
pub fn from_reader<R: io::Read, T: DeserializeOwned>(reader: R) -> Result<T> {
    let mut de = Deserializer::from_reader(reader);
    let value = de::deserialize_placed(&mut de)?;
    de.end()?;
    Ok(value)
}
