//! JSON to MessagePack: serde_json's deserializer drives msgpack-serde's
//! serializer value by value (as `serde-transcode` does), with the tagged
//! forms of [`tags`] turned into bin, ext, timestamps, floats and maps with
//! any keys. No tree is built.
//!
//! serde_json's own recursion limit (128 JSON levels) is off: a tagged
//! `$map` costs three JSON levels per MessagePack level, so it would refuse
//! what `decode` writes. The limit here counts MessagePack arrays and maps
//! instead, up to [`MAX_DEPTH`], the depth `decode` follows.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use msgpack_serde::{RawValue, Timestamp};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{self, Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::tags;
use crate::to_json::MAX_DEPTH;

/// How numbers are written.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Floats exact in 32 bits as float 32.
    pub f32: bool,
}

/// Transcodes the one JSON value `deserializer` holds into `serializer`.
pub fn transcode<'de, D, S>(
    deserializer: D,
    serializer: S,
    options: Options,
) -> Result<S::Ok, S::Error>
where
    D: Deserializer<'de>,
    S: Serializer,
{
    Transcoder::new(deserializer, options, 0).serialize(serializer)
}

/// A deserializer as something serde can serialize, once.
struct Transcoder<D> {
    deserializer: RefCell<Option<D>>,
    options: Options,
    /// Arrays and maps around the value.
    depth: usize,
}

impl<D> Transcoder<D> {
    fn new(deserializer: D, options: Options, depth: usize) -> Self {
        Transcoder {
            deserializer: RefCell::new(Some(deserializer)),
            options,
            depth,
        }
    }
}

impl<'de, D: Deserializer<'de>> Serialize for Transcoder<D> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let deserializer = self
            .deserializer
            .borrow_mut()
            .take()
            .ok_or_else(|| ser::Error::custom("transcoded twice"))?;
        deserializer
            .deserialize_any(ValueVisitor {
                serializer,
                options: self.options,
                depth: self.depth,
            })
            .map_err(ser::Error::custom)
    }
}

struct ValueVisitor<S> {
    serializer: S,
    options: Options,
    depth: usize,
}

fn ser_error<E: de::Error>(error: impl fmt::Display) -> E {
    E::custom(error)
}

/// Refuses an array or map with `depth` containers around it past
/// [`MAX_DEPTH`], in `decode`'s words.
fn enter<E: de::Error>(depth: usize) -> Result<(), E> {
    if depth >= MAX_DEPTH {
        return Err(E::custom(format_args!(
            "nesting exceeds the depth limit of {MAX_DEPTH}"
        )));
    }
    Ok(())
}

impl<'de, S: Serializer> Visitor<'de> for ValueVisitor<S> {
    type Value = S::Ok;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<S::Ok, E> {
        self.serializer.serialize_unit().map_err(ser_error)
    }

    fn visit_none<E: de::Error>(self) -> Result<S::Ok, E> {
        self.visit_unit()
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<S::Ok, E> {
        self.serializer.serialize_bool(value).map_err(ser_error)
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<S::Ok, E> {
        self.serializer.serialize_i64(value).map_err(ser_error)
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<S::Ok, E> {
        self.serializer.serialize_u64(value).map_err(ser_error)
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<S::Ok, E> {
        write_float(self.serializer, value, self.options).map_err(ser_error)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<S::Ok, E> {
        self.serializer.serialize_str(value).map_err(ser_error)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<S::Ok, A::Error> {
        enter(self.depth)?;
        let mut out = self
            .serializer
            .serialize_seq(seq.size_hint())
            .map_err(ser_error)?;
        while seq
            .next_element_seed(ElementSeed {
                seq: &mut out,
                options: self.options,
                depth: self.depth + 1,
            })?
            .is_some()
        {}
        out.end().map_err(ser_error)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<S::Ok, A::Error> {
        // A tag is not a container (bin, ext, a float...), so the depth is
        // checked only for what is a map; `$map` checks it itself.
        let Some(first) = map.next_key_seed(KeySeed)? else {
            enter(self.depth)?;
            return self
                .serializer
                .serialize_map(Some(0))
                .and_then(SerializeMap::end)
                .map_err(ser_error);
        };
        if tags::is_tag(&first) {
            let ok = map.next_value_seed(TagSeed {
                tag: &first,
                serializer: self.serializer,
                options: self.options,
                depth: self.depth,
            })?;
            if map.next_key::<IgnoredAny>()?.is_some() {
                return Err(de::Error::custom(format_args!(
                    "{first} must be the only key of its object (write a key {first} of an ordinary object as ${first})"
                )));
            }
            return Ok(ok);
        }
        enter(self.depth)?;
        let mut out = self
            .serializer
            .serialize_map(map.size_hint())
            .map_err(ser_error)?;
        let mut key = first;
        loop {
            out.serialize_key(tags::unescape(&key)).map_err(ser_error)?;
            map.next_value_seed(MapValueSeed {
                map: &mut out,
                options: self.options,
                depth: self.depth + 1,
            })?;
            match map.next_key_seed(KeySeed)? {
                Some(next) => key = next,
                None => break,
            }
        }
        out.end().map_err(ser_error)
    }
}

/// A float in 64 bits, or 32 when asked and exact.
fn write_float<S: Serializer>(
    serializer: S,
    value: f64,
    options: Options,
) -> Result<S::Ok, S::Error> {
    let narrow = value as f32;
    if options.f32 && (f64::from(narrow) == value || value.is_nan()) {
        serializer.serialize_f32(narrow)
    } else {
        serializer.serialize_f64(value)
    }
}

/// The next element of a JSON array, into the MessagePack array.
struct ElementSeed<'a, S> {
    seq: &'a mut S,
    options: Options,
    depth: usize,
}

impl<'de, S: SerializeSeq> DeserializeSeed<'de> for ElementSeed<'_, S> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.seq
            .serialize_element(&Transcoder::new(deserializer, self.options, self.depth))
            .map_err(ser_error)
    }
}

/// The next value of a JSON object, into the MessagePack map.
struct MapValueSeed<'a, S> {
    map: &'a mut S,
    options: Options,
    depth: usize,
}

impl<'de, S: SerializeMap> DeserializeSeed<'de> for MapValueSeed<'_, S> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.map
            .serialize_value(&Transcoder::new(deserializer, self.options, self.depth))
            .map_err(ser_error)
    }
}

/// An object key, borrowed from the input when it can be.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Cow<'de, str>, D::Error> {
        deserializer.deserialize_str(KeySeed)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E: de::Error>(self, value: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(value))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(value.to_string()))
    }

    fn visit_string<E: de::Error>(self, value: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(value))
    }
}

/// The value of a tag, written as what it stands for.
struct TagSeed<'t, S> {
    tag: &'t str,
    serializer: S,
    options: Options,
    /// The depth of the value the tag stands for.
    depth: usize,
}

impl<'de, S: Serializer> DeserializeSeed<'de> for TagSeed<'_, S> {
    type Value = S::Ok;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Ok, D::Error> {
        let tag = self.tag;
        let invalid =
            |error: String| <D::Error as de::Error>::custom(format_args!("invalid {tag}: {error}"));
        match tag {
            tags::BIN => {
                let text = <Cow<'_, str> as serde::Deserialize>::deserialize(deserializer)?;
                let bytes = tags::from_base64(&text).map_err(invalid)?;
                self.serializer.serialize_bytes(&bytes).map_err(ser_error)
            }
            tags::TIMESTAMP => {
                let text = <Cow<'_, str> as serde::Deserialize>::deserialize(deserializer)?;
                let timestamp: Timestamp = tags::parse_timestamp(&text).map_err(invalid)?;
                timestamp.serialize(self.serializer).map_err(ser_error)
            }
            tags::EXT => {
                let body = <ExtBody as serde::Deserialize>::deserialize(deserializer)?;
                let data = tags::from_base64(&body.data).map_err(invalid)?;
                let mut bytes = Vec::with_capacity(data.len() + 6);
                msgpack_serde::core::encode::write_ext(&mut bytes, body.ext_type, &data)
                    .map_err(|error| invalid(error.to_string()))?;
                let raw =
                    RawValue::from_bytes(bytes).map_err(|error| invalid(error.to_string()))?;
                raw.serialize(self.serializer).map_err(ser_error)
            }
            tags::FLOAT32 | tags::FLOAT64 => {
                let value = deserializer.deserialize_any(FloatVisitor)?;
                if tag == tags::FLOAT32 {
                    // Rounded to the nearest float 32, but not to infinity.
                    let narrow = value as f32;
                    if value.is_finite() && !narrow.is_finite() {
                        return Err(invalid(format!("{value:e} is beyond float 32's range")));
                    }
                    self.serializer.serialize_f32(narrow).map_err(ser_error)
                } else {
                    self.serializer.serialize_f64(value).map_err(ser_error)
                }
            }
            _ => deserializer.deserialize_seq(PairsVisitor {
                serializer: self.serializer,
                options: self.options,
                depth: self.depth,
            }),
        }
    }
}

/// `{"type": 5, "data": "<base64>"}`.
#[derive(serde::Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = r#"an object {"type": -128 to 127, "data": base64}"#
)]
struct ExtBody {
    #[serde(rename = "type")]
    ext_type: i8,
    data: String,
}

/// A number, or `NaN`, `Infinity` or `-Infinity`.
struct FloatVisitor;

impl Visitor<'_> for FloatVisitor {
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

/// `[[key, value], ...]` into a map.
struct PairsVisitor<S> {
    serializer: S,
    options: Options,
    depth: usize,
}

impl<'de, S: Serializer> Visitor<'de> for PairsVisitor<S> {
    type Value = S::Ok;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of [key, value] pairs")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<S::Ok, A::Error> {
        enter(self.depth)?;
        let mut map = self
            .serializer
            .serialize_map(seq.size_hint())
            .map_err(ser_error)?;
        while seq
            .next_element_seed(PairSeed {
                map: &mut map,
                options: self.options,
                depth: self.depth + 1,
            })?
            .is_some()
        {}
        map.end().map_err(ser_error)
    }
}

/// One `[key, value]` into the map.
struct PairSeed<'a, M> {
    map: &'a mut M,
    options: Options,
    /// The depth of its key and value.
    depth: usize,
}

impl<'de, M: SerializeMap> DeserializeSeed<'de> for PairSeed<'_, M> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, M: SerializeMap> Visitor<'de> for PairSeed<'_, M> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a [key, value] pair")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let (options, depth) = (self.options, self.depth);
        let map = self.map;
        let key = KeyInPair {
            map: &mut *map,
            options,
            depth,
        };
        if seq.next_element_seed(key)?.is_none() {
            return Err(de::Error::invalid_length(0, &PAIR));
        }
        let value = MapValueSeed {
            map: &mut *map,
            options,
            depth,
        };
        if seq.next_element_seed(value)?.is_none() {
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

/// What a `$map` entry must be.
const PAIR: &str = "a [key, value] pair";

struct KeyInPair<'a, M> {
    map: &'a mut M,
    options: Options,
    depth: usize,
}

impl<'de, M: SerializeMap> DeserializeSeed<'de> for KeyInPair<'_, M> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.map
            .serialize_key(&Transcoder::new(deserializer, self.options, self.depth))
            .map_err(ser_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(json: &str, options: Options) -> Result<Vec<u8>, String> {
        let mut deserializer = serde_json::Deserializer::from_str(json);
        let mut serializer = msgpack_serde::Serializer::new(Vec::new());
        transcode(&mut deserializer, &mut serializer, options).map_err(|e| e.to_string())?;
        deserializer.end().map_err(|e| e.to_string())?;
        Ok(serializer.into_inner())
    }

    #[track_caller]
    fn check(json: &str, bytes: &[u8]) {
        assert_eq!(encode(json, Options::default()).unwrap(), bytes, "{json}");
    }

    #[test]
    fn every_form() {
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

    #[test]
    fn f32_only_when_asked_and_exact() {
        let f32 = Options { f32: true };
        assert_eq!(encode("1.5", f32).unwrap(), b"\xca\x3f\xc0\x00\x00");
        assert_eq!(
            encode("0.1", f32).unwrap(),
            b"\xcb\x3f\xb9\x99\x99\x99\x99\x99\x9a"
        );
    }

    #[test]
    fn bad_tags_are_errors() {
        let error = encode(r#"{"$bin":"!!"}"#, Options::default()).unwrap_err();
        assert!(error.starts_with("invalid $bin: invalid base64"), "{error}");
        let error = encode(r#"{"$bin":"AA==","x":1}"#, Options::default()).unwrap_err();
        assert!(
            error.starts_with("$bin must be the only key of its object"),
            "{error}"
        );
        let error = encode(r#"{"$timestamp":"yesterday"}"#, Options::default()).unwrap_err();
        assert!(
            error.starts_with("invalid $timestamp: invalid RFC 3339 timestamp"),
            "{error}"
        );
        assert!(encode(r#"{"$map":[[1]]}"#, Options::default()).is_err());
        assert!(encode(r#"{"$ext":{"type":500,"data":""}}"#, Options::default()).is_err());
    }
}
