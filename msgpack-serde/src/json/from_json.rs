//! JSON to MessagePack, two ways to the same bytes (msgpack-core's
//! encoder's: the smallest form of every value and header, as
//! msgpack-serde's `Serializer` writes them):
//!
//! - Plain documents of up to 64 KiB: simd-json's tape, which counts every
//!   container before its entries, so each header is written once
//!   (`tape.rs`).
//! - Everything else, and whatever simd-json refuses: serde_json's
//!   deserializer drives a visitor that writes each value the moment it is
//!   read, into one `Vec`, with the tagged forms turned into bin, ext,
//!   timestamps, floats and maps with any keys when asked. A container's
//!   header takes one byte in place (the fix form, up to 15 entries) and
//!   is patched when the container ends, widened in place for a longer
//!   one: a general serializer would count each container into a buffer
//!   of its own and copy it into its parent.

use std::borrow::Cow;
use std::fmt;

use msgpack_core::{encode, marker, Room, SliceWriter};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::tags;
use super::{Error, Style, MAX_DEPTH};

mod tape;

/// How JSON is read as MessagePack: [`plain`](FromJson::plain) or
/// [`tagged`](FromJson::tagged), floats as float 64 or, when exact, float
/// 32, and how deep it may nest.
///
/// ```
/// use msgpack_serde::json::{self, FromJson};
///
/// assert_eq!(json::to_msgpack(b"1.5", FromJson::plain())?, b"\xcb\x3f\xf8\0\0\0\0\0\0");
/// assert_eq!(json::to_msgpack(b"1.5", FromJson::plain().f32(true))?, b"\xca\x3f\xc0\0\0");
/// let error = json::to_msgpack(b"[[1]]", FromJson::tagged().max_depth(1)).unwrap_err();
/// assert_eq!(error.to_string(), "nesting exceeds the depth limit of 1 at line 1 column 2");
/// # Ok::<(), json::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct FromJson {
    style: Style,
    f32: bool,
    /// Arrays and maps of MessagePack; `None`: serde_json's own limit of
    /// 128 JSON levels.
    max_depth: Option<usize>,
}

impl FromJson {
    /// JSON's data model as it is: every object a map keyed by its keys,
    /// no tags. serde_json's nesting limit (128) applies.
    pub const fn plain() -> FromJson {
        FromJson {
            style: Style::Plain,
            f32: false,
            max_depth: None,
        }
    }

    /// The tagged forms (`$bin`, `$ext`, `$timestamp`, `$map`, `$float32`,
    /// `$float64`, keys escaped with `$$`), nesting up to [`MAX_DEPTH`].
    pub const fn tagged() -> FromJson {
        FromJson {
            style: Style::Tagged,
            f32: false,
            max_depth: Some(MAX_DEPTH),
        }
    }

    /// Writes floats exact in 32 bits (and NaN) as float 32.
    #[must_use]
    pub const fn f32(mut self, f32: bool) -> FromJson {
        self.f32 = f32;
        self
    }

    /// Counts nesting in MessagePack arrays and maps, up to `depth`, in
    /// place of serde_json's limit of JSON levels.
    #[must_use]
    pub const fn max_depth(mut self, depth: usize) -> FromJson {
        self.max_depth = Some(depth);
        self
    }

    /// The style.
    pub const fn style(&self) -> Style {
        self.style
    }
}

/// The one JSON document of `json` as MessagePack.
///
/// ```
/// use msgpack_serde::json::{self, FromJson};
///
/// let bytes = json::to_msgpack(br#"{"a":[1,true]}"#, FromJson::plain())?;
/// assert_eq!(bytes, b"\x81\xa1a\x92\x01\xc3");
/// let error = json::to_msgpack(b"1 2", FromJson::plain()).unwrap_err();
/// assert_eq!(error.to_string(), "trailing characters at line 1 column 3");
/// # Ok::<(), json::Error>(())
/// ```
pub fn to_msgpack(json: &[u8], options: FromJson) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(json.len());
    write_msgpack(json, &mut out, options)?;
    Ok(out)
}

/// Appends the one JSON document of `json` to `out` as MessagePack. On
/// error, `out` holds what was written before it.
///
/// Plain JSON of up to 64 KiB under serde_json's nesting limit (no
/// [`FromJson::max_depth`]) is parsed whole by simd-json, which gives the
/// length of every array and object before its entries, so each header is
/// written once; whatever simd-json refuses, and every other document, is
/// read by serde_json value by value. The bytes, the limits and the error
/// messages are serde_json's either way.
///
/// UTF-8 is checked once for the whole input, not string by string; input
/// that is not UTF-8 gets serde_json's own error (`invalid unicode code
/// point at line 1 column 2`).
pub fn write_msgpack(json: &[u8], out: &mut Vec<u8>, options: FromJson) -> Result<(), Error> {
    if options.style == Style::Plain
        && options.max_depth.is_none()
        && tape::write_plain(json, out, options.f32)
    {
        return Ok(());
    }
    write_through_serde_json(json, out, options)
}

/// `write_msgpack` with serde_json's parser, value by value: every
/// style, every limit, every error.
fn write_through_serde_json(
    json: &[u8],
    out: &mut Vec<u8>,
    options: FromJson,
) -> Result<(), Error> {
    let result = match std::str::from_utf8(json) {
        Ok(text) => write(serde_json::Deserializer::from_str(text), out, options),
        // serde_json's slice input says where and why.
        Err(_) => write(serde_json::Deserializer::from_slice(json), out, options),
    };
    result.map_err(|error| Error::new(&error, json))
}

fn write<'de, R: serde_json::de::Read<'de>>(
    mut deserializer: serde_json::Deserializer<R>,
    out: &mut Vec<u8>,
    options: FromJson,
) -> Result<(), serde_json::Error> {
    if options.max_depth.is_some() {
        deserializer.disable_recursion_limit();
    }
    let mut writer = Writer {
        out,
        options,
        depth_left: options.max_depth.unwrap_or(usize::MAX),
    };
    Value(&mut writer).deserialize(&mut deserializer)?;
    deserializer.end()
}

/// Where the values go, and how many more containers may open.
struct Writer<'o> {
    out: &'o mut Vec<u8>,
    options: FromJson,
    /// Counted down as containers open (the fewest instructions on the
    /// layer's path, which has no limit of its own).
    depth_left: usize,
}

impl Writer<'_> {
    /// Opens an array or map: refuses it past the depth limit, keeps one
    /// byte for its header; gives where that byte is.
    fn open<E: de::Error>(&mut self) -> Result<usize, E> {
        if self.depth_left == 0 {
            return Err(too_deep(self.options));
        }
        self.depth_left -= 1;
        self.out.push(0);
        Ok(self.out.len() - 1)
    }

    /// Closes the container of `count` entries whose header byte is at
    /// `at`, moving its entries up when the header needs more (past 15).
    fn close<E: de::Error>(&mut self, at: usize, count: usize, map: bool) -> Result<(), E> {
        self.depth_left += 1;
        let mut head = [0u8; 5];
        let mut header = SliceWriter::new(&mut head);
        let written = if map {
            encode::write_map_len(&mut header, count)
        } else {
            encode::write_array_len(&mut header, count)
        };
        written.map_err(|_| E::custom("a container too long for MessagePack"))?;
        let head = header.written();
        let out = &mut *self.out;
        if head.len() > 1 {
            let end = out.len();
            out.resize(end + head.len() - 1, 0);
            out.copy_within(at + 1..end, at + head.len());
        }
        out[at..at + head.len()].copy_from_slice(head);
        Ok(())
    }

    /// A string with its header.
    fn str<E: de::Error>(&mut self, value: &str) -> Result<(), E> {
        let mut room = Room::new(self.out, 2 + value.len());
        // A string past str 32's length is refused before a byte is
        // written, and the room, dropped, leaves the vector as it was.
        put_str(&mut room, value).ok_or_else(|| E::custom("a string too long for MessagePack"))?;
        room.finish();
        Ok(())
    }
}

/// A string with its header in the smallest form: a fixstr or str 8
/// (nearly every key and most values) with its header in one copy, which
/// for short strings is not a call to `memcpy`; longer ones through the
/// encoder. `None`, nothing written, past str 32's length.
#[inline(always)]
fn put_str(room: &mut Room<'_>, text: &str) -> Option<()> {
    let bytes = text.as_bytes();
    match bytes.len() {
        len @ 0..=31 => room.put_headed([marker::FIXSTR | len as u8], bytes),
        len @ 32..=255 => room.put_headed([marker::STR8, len as u8], bytes),
        _ => {
            encode::write_str(room, text).ok()?;
        }
    }
    Some(())
}

/// A JSON number that is not an integer: float 64, or float 32 when
/// `f32` is asked for and it is exact in 32 bits (or NaN).
#[inline(always)]
fn put_float(room: &mut Room<'_>, value: f64, f32: bool) {
    let narrow = value as f32;
    if f32 && (f64::from(narrow) == value || value.is_nan()) {
        room.put_marked([marker::F32], narrow.to_bits().to_be_bytes());
    } else {
        room.put_marked([marker::F64], value.to_bits().to_be_bytes());
    }
}

/// Nesting past the depth limit.
#[cold]
fn too_deep<E: de::Error>(options: FromJson) -> E {
    E::custom(format_args!(
        "nesting exceeds the depth limit of {}",
        options.max_depth.unwrap_or(usize::MAX)
    ))
}

/// The next JSON value, written as MessagePack.
struct Value<'w, 'o>(&'w mut Writer<'o>);

impl<'de> DeserializeSeed<'de> for Value<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Value<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        let Ok(()) = encode::write_nil(self.0.out);
        Ok(())
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<(), E> {
        let Ok(()) = encode::write_bool(self.0.out, value);
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<(), E> {
        let Ok(_) = encode::write_int(self.0.out, value);
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<(), E> {
        let Ok(_) = encode::write_uint(self.0.out, value);
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<(), E> {
        let mut room = Room::new(self.0.out, 9);
        put_float(&mut room, value, self.0.options.f32);
        room.finish();
        Ok(())
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<(), E> {
        self.0.str(value)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let header = self.0.open()?;
        let mut count = 0;
        while seq.next_element_seed(Value(&mut *self.0))?.is_some() {
            count += 1;
        }
        self.0.close(header, count, false)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        if self.0.options.style == Style::Tagged {
            return tagged_map(self.0, map);
        }
        let header = self.0.open()?;
        let mut count = 0;
        while map.next_key_seed(Value(&mut *self.0))?.is_some() {
            map.next_value_seed(Value(&mut *self.0))?;
            count += 1;
        }
        self.0.close(header, count, true)
    }
}

/// A JSON object with the tagged forms: a tag as its first key stands for
/// what it names (and must be the only key); keys lose an escaping `$`.
fn tagged_map<'de, A: MapAccess<'de>>(writer: &mut Writer<'_>, mut map: A) -> Result<(), A::Error> {
    let Some(first) = map.next_key_seed(Text("an object key"))? else {
        let header = writer.open()?;
        return writer.close(header, 0, true);
    };
    if tags::is_tag(&first) {
        map.next_value_seed(Tag {
            name: &first,
            writer: &mut *writer,
        })?;
        if map.next_key::<IgnoredAny>()?.is_some() {
            return Err(de::Error::custom(format_args!(
                "{first} must be the only key of its object (write a key {first} of an ordinary object as ${first})"
            )));
        }
        return Ok(());
    }
    let header = writer.open()?;
    let mut key = first;
    let mut count = 0;
    loop {
        writer.str(tags::unescape(&key))?;
        map.next_value_seed(Value(&mut *writer))?;
        count += 1;
        match map.next_key_seed(Text("an object key"))? {
            Some(next) => key = next,
            None => break,
        }
    }
    writer.close(header, count, true)
}

/// A string, borrowed from the input when it can be; what it is, for
/// errors.
struct Text(&'static str);

impl<'de> DeserializeSeed<'de> for Text {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Cow<'de, str>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Text {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_borrowed_str<E: de::Error>(self, value: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(value))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(value.to_string()))
    }
}

/// The value of a tag, written as what it stands for.
struct Tag<'t, 'w, 'o> {
    name: &'t str,
    writer: &'w mut Writer<'o>,
}

impl<'de> DeserializeSeed<'de> for Tag<'_, '_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let name = self.name;
        let invalid = |error: &dyn fmt::Display| {
            <D::Error as de::Error>::custom(format_args!("invalid {name}: {error}"))
        };
        let out = &mut *self.writer.out;
        match name {
            tags::BIN => {
                let text = Text("a string").deserialize(deserializer)?;
                let bytes = tags::from_base64(&text).map_err(|error| invalid(&error))?;
                encode::write_bin(out, &bytes).map_err(|error| invalid(&error))?;
            }
            tags::TIMESTAMP => {
                let text = Text("a string").deserialize(deserializer)?;
                let timestamp = tags::parse_timestamp(&text).map_err(|error| invalid(&error))?;
                let Ok(_) = encode::write_timestamp(out, timestamp);
            }
            tags::EXT => {
                let body = <tags::ExtBody<'_> as serde::Deserialize>::deserialize(deserializer)?;
                let data = tags::from_base64(&body.data).map_err(|error| invalid(&error))?;
                encode::write_ext(out, body.ext_type, &data).map_err(|error| invalid(&error))?;
            }
            tags::FLOAT32 => {
                let value = deserializer.deserialize_any(Float)?;
                // Rounded to the nearest float 32, but not to infinity.
                let narrow = value as f32;
                if value.is_finite() && !narrow.is_finite() {
                    let why = format_args!("{value:e} is beyond float 32's range");
                    return Err(invalid(&why));
                }
                let Ok(()) = encode::write_f32(out, narrow);
            }
            tags::FLOAT64 => {
                let value = deserializer.deserialize_any(Float)?;
                let Ok(()) = encode::write_f64(out, value);
            }
            _ => deserializer.deserialize_seq(Pairs(self.writer))?,
        }
        Ok(())
    }
}

/// A number, or `NaN`, `Infinity` or `-Infinity`.
struct Float;

impl Visitor<'_> for Float {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(r#"a number, "NaN", "Infinity" or "-Infinity""#)
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<f64, E> {
        Ok(value)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<f64, E> {
        Ok(value as f64)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<f64, E> {
        Ok(value as f64)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<f64, E> {
        tags::parse_non_finite(value)
            .ok_or_else(|| E::invalid_value(de::Unexpected::Str(value), &self))
    }
}

/// What a `$map` entry must be.
const PAIR: &str = "a [key, value] pair";

/// `$map`'s `[[key, value], ...]`, into a map.
struct Pairs<'w, 'o>(&'w mut Writer<'o>);

impl<'de> Visitor<'de> for Pairs<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of [key, value] pairs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let header = self.0.open()?;
        let mut count = 0;
        while seq.next_element_seed(Pair(&mut *self.0))?.is_some() {
            count += 1;
        }
        self.0.close(header, count, true)
    }
}

/// One `[key, value]` of a `$map`.
struct Pair<'w, 'o>(&'w mut Writer<'o>);

impl<'de> DeserializeSeed<'de> for Pair<'_, '_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Pair<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(PAIR)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if seq.next_element_seed(Value(&mut *self.0))?.is_none() {
            return Err(de::Error::invalid_length(0, &PAIR));
        }
        if seq.next_element_seed(Value(&mut *self.0))?.is_none() {
            return Err(de::Error::invalid_length(1, &PAIR));
        }
        if seq.next_element::<IgnoredAny>()?.is_some() {
            let mut len = 3;
            while seq.next_element::<IgnoredAny>()?.is_some() {
                len += 1;
            }
            return Err(de::Error::invalid_length(len, &PAIR));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
