//! The MessagePack wire format for Rust: every type of the specification,
//! smallest-width encoding, the timestamp extension, a zero-copy reader,
//! [`Value`] and [`Limits`] for untrusted input. `no_std` with `alloc`.
//!
//! ```
//! use msgpack_core::{encode, Reader, Value};
//!
//! let mut out = Vec::new();
//! encode::write_map_len(&mut out, 1)?;
//! encode::write_str(&mut out, "answer")?;
//! encode::write_int(&mut out, 42)?;
//!
//! let mut reader = Reader::new(&out);
//! assert_eq!(reader.read_map_len()?, 1);
//! assert_eq!(reader.read_str()?, "answer");
//! assert_eq!(reader.read_int::<u8>()?, 42);
//! assert_eq!(Value::from_slice(&out)?.to_string(), r#"{"answer": 42}"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Most applications use this crate through `msgpack-serde`; this one is
//! for code that writes or reads MessagePack token by token.
//!
//! # Formats
//!
//! | format | marker bytes | write ([`encode`]) | read ([`Reader`]) |
//! |---|---|---|---|
//! | positive fixint | `0x00`–`0x7f` | [`write_uint`](encode::write_uint), [`write_int`](encode::write_int) | [`read_int`](Reader::read_int), [`read_integer`](Reader::read_integer) |
//! | fixmap | `0x80`–`0x8f` | [`write_map_len`](encode::write_map_len) | [`read_map_len`](Reader::read_map_len) |
//! | fixarray | `0x90`–`0x9f` | [`write_array_len`](encode::write_array_len) | [`read_array_len`](Reader::read_array_len) |
//! | fixstr | `0xa0`–`0xbf` | [`write_str`](encode::write_str), [`write_str_len`](encode::write_str_len) | [`read_str`](Reader::read_str), [`read_str_len`](Reader::read_str_len) |
//! | nil | `0xc0` | [`write_nil`](encode::write_nil) | [`read_nil`](Reader::read_nil) |
//! | (never used) | `0xc1` | — | an error wherever a value is expected |
//! | false, true | `0xc2`, `0xc3` | [`write_bool`](encode::write_bool) | [`read_bool`](Reader::read_bool) |
//! | bin 8, 16, 32 | `0xc4`, `0xc5`, `0xc6` | [`write_bin`](encode::write_bin), [`write_bin_len`](encode::write_bin_len) | [`read_bin`](Reader::read_bin), [`read_bin_len`](Reader::read_bin_len) |
//! | ext 8, 16, 32 | `0xc7`, `0xc8`, `0xc9` | [`write_ext`](encode::write_ext), [`write_ext_meta`](encode::write_ext_meta) | [`read_ext`](Reader::read_ext), [`read_ext_meta`](Reader::read_ext_meta) |
//! | float 32 | `0xca` | [`write_f32`](encode::write_f32) | [`read_f32`](Reader::read_f32) |
//! | float 64 | `0xcb` | [`write_f64`](encode::write_f64) | [`read_f64`](Reader::read_f64) |
//! | uint 8, 16, 32, 64 | `0xcc`–`0xcf` | [`write_uint`](encode::write_uint); fixed: [`write_u8`](encode::write_u8) … [`write_u64`](encode::write_u64) | [`read_int`](Reader::read_int) |
//! | int 8, 16, 32, 64 | `0xd0`–`0xd3` | [`write_int`](encode::write_int); fixed: [`write_i8`](encode::write_i8) … [`write_i64`](encode::write_i64) | [`read_int`](Reader::read_int) |
//! | fixext 1, 2, 4, 8, 16 | `0xd4`–`0xd8` | [`write_ext`](encode::write_ext), [`write_ext_meta`](encode::write_ext_meta) | [`read_ext`](Reader::read_ext), [`read_ext_meta`](Reader::read_ext_meta) |
//! | str 8, 16, 32 | `0xd9`, `0xda`, `0xdb` | [`write_str`](encode::write_str), [`write_str_len`](encode::write_str_len) | [`read_str`](Reader::read_str), [`read_str_bytes`](Reader::read_str_bytes) |
//! | array 16, 32 | `0xdc`, `0xdd` | [`write_array_len`](encode::write_array_len) | [`read_array_len`](Reader::read_array_len) |
//! | map 16, 32 | `0xde`, `0xdf` | [`write_map_len`](encode::write_map_len) | [`read_map_len`](Reader::read_map_len) |
//! | negative fixint | `0xe0`–`0xff` | [`write_int`](encode::write_int) | [`read_int`](Reader::read_int) |
//! | timestamp (ext -1) | `0xd6`, `0xd7`, `0xc7` | [`write_timestamp`](encode::write_timestamp) | [`read_timestamp`](Reader::read_timestamp) |
//! | any value | any | [`write_token`](encode::write_token), [`Value::encode`] | [`read_token`](Reader::read_token), [`skip`](Reader::skip), [`Value::decode`], [`ValueRef::decode`] |
//!
//! # Untrusted input
//!
//! Every read checks the remaining input before it consumes or allocates
//! anything; a truncated value is an [`ErrorKind::UnexpectedEof`] error,
//! never a panic. Whole-value decoding enforces [`Limits`] (depth 128 by
//! default) and never reserves room for more elements than the rest of
//! the input could hold. [`Reader::skip`], value decoding, encoding,
//! display and drop are iterative: nesting depth never uses the call stack.
//! For a stream whose bytes arrive in pieces, [`Framer`] finds where each
//! value ends without rescanning it, under the same limits plus a frame
//! size limit checked as each header is read.
//!
//! # Features
//!
//! - `std` (default): [`IoWriter`] and `SystemTime` conversions for
//!   [`Timestamp`]. Implies `alloc`. The error types implement
//!   `core::error::Error` (which `std::error::Error` names) with or
//!   without it.
//! - `alloc`: [`Value`], [`ValueRef`] and the `Vec<u8>` writer.
//! - `serde`: `Serialize` and `Deserialize` for [`Value`] and [`Timestamp`],
//!   `Serialize` for [`Integer`], and the extension convention in `serde_ext`.
//! - `json`: conversions between [`Value`] and `serde_json::Value`.
#![no_std]
#![cfg_attr(docsrs, feature(doc_auto_cfg))]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "alloc")]
mod copy;
pub mod decode;
pub mod encode;
mod error;
#[cfg(feature = "alloc")]
mod frame;
mod int_head;
mod integer;
mod limits;
pub mod marker;
mod read;
#[cfg(feature = "alloc")]
mod room;
#[cfg(feature = "serde")]
pub mod serde_ext;
mod skip;
mod text;
mod timestamp;
#[cfg(feature = "alloc")]
mod value;
mod write;

pub use decode::{ExtMeta, Token};
pub use error::{EncodeError, Error, ErrorKind};
#[cfg(feature = "alloc")]
pub use frame::{Framed, Framer};
pub use int_head::IntHead;
pub use integer::{FromInteger, Integer, OutOfRange};
pub use limits::{Limits, Owed};
pub use marker::{Family, Length, Marker};
pub use read::Reader;
#[cfg(feature = "alloc")]
pub use room::{PausedRoom, Room};
pub use timestamp::{Timestamp, TimestampRangeError, TIMESTAMP_EXT_TYPE};
#[cfg(feature = "alloc")]
pub use value::{Value, ValueRef};
#[cfg(feature = "std")]
pub use write::IoWriter;
pub use write::{BufferFull, SliceWriter, Write};
