//! JSON to MessagePack: serde_json's deserializer drives a visitor that
//! writes each value the moment it is read, into one `Vec`, with the
//! tagged forms turned into bin, ext, timestamps, floats and maps with any
//! keys when asked.
//!
//! A container's header takes one byte in place (the fix form, up to 15
//! entries) and is patched when the container ends, widened in place for
//! a longer one: a general serializer would count each container into a
//! buffer of its own and copy it into its parent. The bytes are those of
//! msgpack-core's encoder, the smallest form of every value and header,
//! as msgpack-serde's `Serializer` writes them.

use std::borrow::Cow;
use std::fmt;

use msgpack_core::{encode, marker, Room, SliceWriter};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::tags;
use super::{Error, Style, MAX_DEPTH};

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
/// UTF-8 is checked once for the whole input, not string by string; input
/// that is not UTF-8 gets serde_json's own error (`invalid unicode code
/// point at line 1 column 2`).
pub fn write_msgpack(json: &[u8], out: &mut Vec<u8>, options: FromJson) -> Result<(), Error> {
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

    /// A fixstr or str 8 (nearly every key and most values) with its
    /// header through `Room`, which copies short strings without a call to
    /// `memcpy`; longer ones through the encoder.
    fn str<E: de::Error>(&mut self, value: &str) -> Result<(), E> {
        let bytes = value.as_bytes();
        let mut room = Room::new(self.out, 2 + bytes.len());
        match bytes.len() {
            len @ 0..=31 => room.put_headed([marker::FIXSTR | len as u8], bytes),
            len @ 32..=255 => room.put_headed([marker::STR8, len as u8], bytes),
            // The room, never written, leaves the vector as it was.
            _ => {
                return encode::write_str(self.out, value)
                    .map(drop)
                    .map_err(|_| E::custom("a string too long for MessagePack"));
            }
        }
        room.finish();
        Ok(())
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
        let narrow = value as f32;
        let Ok(()) = if self.0.options.f32 && (f64::from(narrow) == value || value.is_nan()) {
            encode::write_f32(self.0.out, narrow)
        } else {
            encode::write_f64(self.0.out, value)
        };
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
mod tests {
    use super::*;

    fn encode(json: &str, options: FromJson) -> Result<Vec<u8>, String> {
        to_msgpack(json.as_bytes(), options).map_err(|error| error.to_string())
    }

    #[track_caller]
    fn check(json: &str, bytes: &[u8]) {
        assert_eq!(encode(json, FromJson::tagged()).unwrap(), bytes, "{json}");
    }

    /// The bytes of msgpack-serde's own serializer for the same JSON,
    /// headers that widen (16 and 65,536 entries, nested) included, plain
    /// and tagged alike (this JSON has no tag).
    #[test]
    fn the_bytes_of_msgpack_serde() {
        let json = serde_json::to_vec(&serde_json::json!({
            "fifteen": (0..15).collect::<Vec<_>>(),
            "sixteen": (0..16).collect::<Vec<_>>(),
            "wide": (0..300).collect::<Vec<u32>>(),
            "wider": vec![7u8; 70_000],
            "nested": [{"x": [1, [2, [3]]], "keys": (0..20).map(|i| (i.to_string(), serde_json::Value::from(i))).collect::<serde_json::Map<_, _>>()}],
            "big": u64::MAX, "neg": i64::MIN, "f": 0.5, "t": true, "n": null, "s": "\u{e9}", "a": [], "o": {},
        }))
        .unwrap();
        let mut general = crate::Serializer::new(Vec::new());
        serde_transcode::transcode(
            &mut serde_json::Deserializer::from_slice(&json),
            &mut general,
        )
        .unwrap();
        let general = general.into_inner();
        assert_eq!(to_msgpack(&json, FromJson::plain()).unwrap(), general);
        assert_eq!(to_msgpack(&json, FromJson::tagged()).unwrap(), general);
    }

    /// A decimal read into the float nearest it. serde_json without its
    /// `float_roundtrip` feature reads the first two a unit in the last
    /// place off (`...8d`), so a float written by serde_json would not
    /// come back as itself. (The workspace's whole test run has the
    /// feature through msgpack-cli whatever this crate asks; `.ci/run`
    /// checks this crate's and msgpack-axum's own builds have it.)
    #[test]
    fn decimals_are_read_into_the_nearest_float() {
        for (json, nearest) in [
            ("-2.5927524301294156e206", -2.592_752_430_129_415_6e206_f64),
            ("2.5927524301294156e+206", 2.592_752_430_129_415_6e206),
            ("1.7976931348623157e308", f64::MAX),
            ("5e-324", 5e-324),
            ("0.30000000000000004", 0.300_000_000_000_000_04),
        ] {
            let mut expected = vec![marker::F64];
            expected.extend(nearest.to_be_bytes());
            assert_eq!(
                to_msgpack(json.as_bytes(), FromJson::plain()).unwrap(),
                expected,
                "{json}"
            );
        }
        assert_eq!(
            (-2.592_752_430_129_415_6e206_f64).to_bits(),
            0xeac9_d7ac_0b3a_ad8c
        );
    }

    #[test]
    fn every_json_type_in_its_smallest_form() {
        let json = br#"{"id":1042,"big":18446744073709551615,"neg":-9223372036854775808,"f":0.5,"t":true,"n":null,"s":"\u00e9","a":[]}"#;
        let mut expected = vec![0x88];
        expected.extend(b"\xa2id\xcd\x04\x12");
        expected.extend(b"\xa3big\xcf\xff\xff\xff\xff\xff\xff\xff\xff");
        expected.extend(b"\xa3neg\xd3\x80\x00\x00\x00\x00\x00\x00\x00");
        expected.extend(b"\xa1f\xcb\x3f\xe0\x00\x00\x00\x00\x00\x00");
        expected.extend(b"\xa1t\xc3\xa1n\xc0");
        expected.extend(b"\xa1s\xa2\xc3\xa9");
        expected.extend(b"\xa1a\x90");
        assert_eq!(to_msgpack(json, FromJson::plain()).unwrap(), expected);
    }

    /// Around each string header's edge (fixstr, str 8, str 16, str 32)
    /// and the copy's widths, as keys and as values: the encoder's bytes.
    #[test]
    fn strings_of_every_header_as_the_encoder_writes_them() {
        for len in (0..=40).chain([254, 255, 256, 65_535, 65_536, 70_000]) {
            let text = "é".repeat(len / 2) + &"x".repeat(len % 2);
            let json = serde_json::to_vec(
                &[(&text, &text)]
                    .into_iter()
                    .collect::<std::collections::BTreeMap<_, _>>(),
            )
            .unwrap();
            let mut expected = vec![0x81];
            for _ in 0..2 {
                encode::write_str(&mut expected, &text).unwrap();
            }
            assert_eq!(
                to_msgpack(&json, FromJson::plain()).unwrap(),
                expected,
                "{len}"
            );
            assert_eq!(
                to_msgpack(&json, FromJson::tagged()).unwrap(),
                expected,
                "{len}"
            );
        }
    }

    #[test]
    fn every_tagged_form() {
        check("null", b"\xc0");
        check(
            "18446744073709551615",
            b"\xcf\xff\xff\xff\xff\xff\xff\xff\xff",
        );
        check(
            "-9223372036854775808",
            b"\xd3\x80\x00\x00\x00\x00\x00\x00\x00",
        );
        check("1.5", b"\xcb\x3f\xf8\x00\x00\x00\x00\x00\x00");
        check(r#"{"$float32":1.5}"#, b"\xca\x3f\xc0\x00\x00");
        check(
            r#"{"$float64":"NaN"}"#,
            b"\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00",
        );
        check(r#"{"$bin":"YWJj"}"#, b"\xc4\x03abc");
        check(r#"{"$ext":{"type":5,"data":"AQ=="}}"#, b"\xd4\x05\x01");
        check(r#"{"$ext":{"type":-1,"data":"AQ=="}}"#, b"\xd4\xff\x01");
        check(
            r#"{"$timestamp":"1970-01-01T00:00:00Z"}"#,
            b"\xd6\xff\x00\x00\x00\x00",
        );
        check(r#"{"$map":[[1,"x"]]}"#, b"\x81\x01\xa1x");
        check(r#"{"$$bin":1,"$bin":2}"#, b"\x82\xa4$bin\x01\xa4$bin\x02");
        check(r#"{"$$$x":null}"#, b"\x81\xa3$$x\xc0");
        check(r#"{"$id":7}"#, b"\x81\xa3$id\x07");
        check("[[],{}]", b"\x92\x90\x80");
    }

    /// Plain JSON knows no tags: the same objects are maps, keys as they are.
    #[test]
    fn plain_json_keeps_tag_names_as_keys() {
        assert_eq!(
            to_msgpack(br#"{"$bin":"YWJj","$$x":1}"#, FromJson::plain()).unwrap(),
            b"\x82\xa4$bin\xa4YWJj\xa3$$x\x01"
        );
    }

    #[test]
    fn f32_only_when_asked_and_exact() {
        let f32 = FromJson::tagged().f32(true);
        assert_eq!(encode("1.5", f32).unwrap(), b"\xca\x3f\xc0\x00\x00");
        assert_eq!(
            encode("0.1", f32).unwrap(),
            b"\xcb\x3f\xb9\x99\x99\x99\x99\x99\x9a"
        );
    }

    #[test]
    fn bad_tags_are_errors() {
        for (json, message) in [
            (
                r#"{"$bin":"!!"}"#,
                "invalid $bin: invalid base64: Invalid symbol 33, offset 0. at line 1 column 13",
            ),
            (
                r#"{"$bin":"AA==","x":1}"#,
                "$bin must be the only key of its object (write a key $bin of an ordinary object as $$bin) at line 1 column 18",
            ),
            (
                r#"{"$timestamp":"yesterday"}"#,
                "invalid $timestamp: invalid RFC 3339 timestamp \"yesterday\": failed to parse four digit integer as year: invalid digit, expected 0-9 but got y at line 1 column 26",
            ),
            (
                r#"{"$map":[[1]]}"#,
                "invalid length 1, expected a [key, value] pair at line 1 column 12",
            ),
            (
                r#"{"$map":[[1,2,3,4]]}"#,
                "invalid length 4, expected a [key, value] pair at line 1 column 18",
            ),
            (
                r#"{"$ext":{"type":500,"data":""}}"#,
                "invalid value: integer `500`, expected i8 at line 1 column 19",
            ),
            (
                r#"{"$float32":1e39}"#,
                "invalid $float32: 1e39 is beyond float 32's range at line 1 column 17",
            ),
        ] {
            assert_eq!(encode(json, FromJson::tagged()).unwrap_err(), message);
        }
    }

    #[test]
    fn depth_counts_messagepack_levels() {
        let options = FromJson::tagged().max_depth(2);
        assert_eq!(encode("[[1]]", options).unwrap(), b"\x91\x91\x01");
        assert_eq!(
            encode(r#"{"$map":[[[1],{"$bin":""}]]}"#, options).unwrap(),
            b"\x81\x91\x01\xc4\x00"
        );
        assert_eq!(
            encode("[[[1]]]", options).unwrap_err(),
            "nesting exceeds the depth limit of 2 at line 1 column 3"
        );
        assert_eq!(
            encode(r#"[{"$map":[[[1],2]]}]"#, options).unwrap_err(),
            "nesting exceeds the depth limit of 2 at line 1 column 12"
        );
        // Past serde_json's own 128 levels, which the count replaces.
        let deep = format!("{}{}", "[".repeat(512), "]".repeat(512));
        assert!(encode(&deep, FromJson::tagged()).is_ok());
        let deeper = format!("{}{}", "[".repeat(513), "]".repeat(513));
        assert_eq!(
            encode(&deeper, FromJson::tagged()).unwrap_err(),
            "nesting exceeds the depth limit of 512 at line 1 column 514"
        );
        assert_eq!(
            encode(&deep, FromJson::plain()).unwrap_err(),
            "recursion limit exceeded at line 1 column 128"
        );
    }

    #[test]
    fn json_that_is_not_utf8_is_serde_jsons_error() {
        let error = to_msgpack(b"[\"\xff\"]", FromJson::plain()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid unicode code point at line 1 column 3"
        );
        assert_eq!(error.offset(), 2);
    }

    #[test]
    fn invalid_json_and_trailing_bytes_are_errors() {
        let error = to_msgpack(b"{\"a\":", FromJson::plain()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "EOF while parsing a value at line 1 column 5"
        );
        let error = to_msgpack(b"1 2", FromJson::plain()).unwrap_err();
        assert_eq!(error.to_string(), "trailing characters at line 1 column 3");
        assert_eq!(
            (error.message(), error.offset()),
            ("trailing characters", 2)
        );
    }
}
