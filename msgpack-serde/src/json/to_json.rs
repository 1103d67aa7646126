//! MessagePack to JSON: a value read token by token from the input is
//! handed to serde_json's serializer as it is read, with no tree between.

use std::cell::RefCell;

use msgpack_core::{Family, Reader, Token, TIMESTAMP_EXT_TYPE};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::string_keys::StringKeys;
use super::tags::{self, ExtBody};
use super::{Style, MAX_DEPTH};
use crate::Timestamp;

/// How MessagePack is written as JSON: [`tagged`](ToJson::tagged) or
/// [`plain`](ToJson::plain), how deep it may nest, and where the value
/// starts in a stream, for the offsets of errors.
///
/// ```
/// use msgpack_serde::core::Reader;
/// use msgpack_serde::json::{self, ToJson};
///
/// let bytes = b"\x91\xc4\x01\xff"; // [bin(ff)]
/// let json = |options| {
///     let mut out = Vec::new();
///     let mut serializer = serde_json::Serializer::new(&mut out);
///     json::write_json(&mut Reader::new(bytes), options, &mut serializer).map(|()| out)
/// };
/// assert_eq!(json(ToJson::tagged())?, br#"[{"$bin":"/w=="}]"#);
/// assert_eq!(json(ToJson::plain())?, br#"["/w=="]"#);
/// let error = json(ToJson::tagged().max_depth(0).offset(100)).unwrap_err();
/// assert_eq!(error.to_string(), "nesting exceeds the depth limit of 0 at offset 100");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ToJson {
    style: Style,
    max_depth: usize,
    base: usize,
}

impl ToJson {
    /// The reversible tagged forms, nesting up to [`MAX_DEPTH`].
    pub const fn tagged() -> ToJson {
        ToJson {
            style: Style::Tagged,
            max_depth: MAX_DEPTH,
            base: 0,
        }
    }

    /// Ordinary, lossy JSON, nesting up to [`MAX_DEPTH`].
    pub const fn plain() -> ToJson {
        ToJson {
            style: Style::Plain,
            ..ToJson::tagged()
        }
    }

    /// Refuses arrays and maps nested deeper than `depth`.
    #[must_use]
    pub const fn max_depth(mut self, depth: usize) -> ToJson {
        self.max_depth = depth;
        self
    }

    /// Error offsets are `base` bytes on from the reader's: the value's
    /// offset in a stream.
    #[must_use]
    pub const fn offset(mut self, base: usize) -> ToJson {
        self.base = base;
        self
    }

    /// The style.
    pub const fn style(&self) -> Style {
        self.style
    }
}

/// Writes the value at the reader's position as JSON into `serializer`,
/// leaving the reader after it. A map is an object when all its keys are
/// strings, found in one pass over the value before it is written.
pub fn write_json<S: Serializer>(
    reader: &mut Reader<'_>,
    options: ToJson,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let string_keys =
        (options.style == Style::Tagged).then(|| StringKeys::of(reader, options.max_depth));
    let cell = RefCell::new(reader.clone());
    let result = Node {
        reader: &cell,
        options,
        string_keys: string_keys.as_ref(),
        depth: 0,
        in_keys: 0,
    }
    .serialize(serializer);
    *reader = cell.into_inner();
    result
}

/// The next value of a shared reader, as something serde can serialize.
struct Node<'r, 'a> {
    reader: &'r RefCell<Reader<'a>>,
    options: ToJson,
    /// Tagged: which maps are written as objects.
    string_keys: Option<&'r StringKeys>,
    depth: usize,
    /// Plain: the map keys around it that are not strings, each written
    /// as the JSON text of its value.
    in_keys: usize,
}

/// Plain: how many keys that are not strings may nest in each other. Each
/// such key is the JSON text of its value, escaped as a string: a key
/// inside it is escaped once more, and its text can double at every level
/// (`"` to `\"`, `\` to `\\`), so the output grows exponentially with
/// their nesting, not with the input.
const MAX_KEYS_IN_KEYS: usize = 4;

impl<'r, 'a> Node<'r, 'a> {
    fn child(&self) -> Node<'r, 'a> {
        Node {
            reader: self.reader,
            options: self.options,
            string_keys: self.string_keys,
            depth: self.depth + 1,
            in_keys: self.in_keys,
        }
    }

    fn error<E: serde::ser::Error>(&self, error: msgpack_core::Error) -> E {
        E::custom(format_args!(
            "{} at offset {}",
            error.kind(),
            self.options.base + error.offset()
        ))
    }
}

impl Serialize for Node<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let offset = self.reader.borrow().position();
        let token = self
            .reader
            .borrow_mut()
            .read_token()
            .map_err(|error| self.error(error))?;
        match token {
            Token::Array(len) => {
                self.enter(offset)?;
                let mut seq = serializer.serialize_seq(Some(len as usize))?;
                for _ in 0..len {
                    seq.serialize_element(&self.child())?;
                }
                seq.end()
            }
            Token::Map(len) => {
                self.enter(offset)?;
                if self.string_keys.is_some_and(|keys| !keys.next_map()) {
                    return tag(
                        serializer,
                        tags::MAP,
                        &Pairs {
                            node: self.child(),
                            len,
                        },
                    );
                }
                let mut map = serializer.serialize_map(Some(len as usize))?;
                for index in 0..len {
                    let key = self.key(index == 0)?;
                    map.serialize_key(&key)?;
                    map.serialize_value(&self.child())?;
                }
                map.end()
            }
            scalar => write_scalar(scalar, self.options.style, serializer),
        }
    }
}

impl Node<'_, '_> {
    /// Refuses a container past the depth limit.
    fn enter<E: serde::ser::Error>(&self, offset: usize) -> Result<(), E> {
        if self.depth >= self.options.max_depth {
            return Err(E::custom(format_args!(
                "nesting exceeds the depth limit of {} at offset {}",
                self.options.max_depth,
                self.options.base + offset
            )));
        }
        Ok(())
    }

    /// The next map key as a JSON object key: a string escaped as
    /// [`tags::escape`] says, or (plain) another value's JSON text (its
    /// string, for what plain JSON writes as a string).
    fn key<E: serde::ser::Error>(&self, first: bool) -> Result<String, E> {
        let is_str = self
            .reader
            .borrow()
            .peek_marker()
            .is_ok_and(|marker| marker.family() == Family::Str);
        if is_str {
            let text = self
                .reader
                .borrow_mut()
                .read_str()
                .map_err(|error| self.error::<E>(error))?;
            return Ok(match self.options.style {
                Style::Tagged => tags::escape(text, first).unwrap_or_else(|| text.to_string()),
                Style::Plain => text.to_string(),
            });
        }
        if self.in_keys >= MAX_KEYS_IN_KEYS {
            return Err(E::custom(format_args!(
                "map keys that are not strings nest deeper than {MAX_KEYS_IN_KEYS} in each other, past what plain JSON writes, at offset {}",
                self.options.base + self.reader.borrow().position()
            )));
        }
        // Plain: a key that is a string in plain JSON (bin, a timestamp)
        // is that string, not its quoted JSON text.
        let key = Node {
            in_keys: self.in_keys + 1,
            ..self.child()
        };
        let text = serde_json::to_string(&key).map_err(E::custom)?;
        if text.starts_with('"') {
            return serde_json::from_str(&text).map_err(E::custom);
        }
        Ok(text)
    }
}

/// `{tag: value}`.
fn tag<S: Serializer, T: Serialize + ?Sized>(
    serializer: S,
    name: &str,
    value: &T,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(1))?;
    map.serialize_entry(name, value)?;
    map.end()
}

/// A value that is not a container. A function of its own, out of the
/// recursive `Node::serialize`, so that an unoptimized build does not
/// keep its locals in every nesting level's frame.
fn write_scalar<S: Serializer>(
    token: Token<'_>,
    style: Style,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let tagged = style == Style::Tagged;
    match token {
        Token::Nil => serializer.serialize_unit(),
        Token::Bool(value) => serializer.serialize_bool(value),
        Token::Int(integer) => match integer.as_u64() {
            Some(value) => serializer.serialize_u64(value),
            None => serializer.serialize_i64(integer.as_i64().unwrap_or_default()),
        },
        Token::F32(value) if tagged && value.is_finite() => tag(serializer, tags::FLOAT32, &value),
        Token::F32(value) if tagged => tag(
            serializer,
            tags::FLOAT32,
            tags::non_finite_text(f64::from(value)),
        ),
        Token::F32(value) => Float(f64::from(value)).serialize(serializer),
        Token::F64(value) if tagged && !value.is_finite() => {
            tag(serializer, tags::FLOAT64, tags::non_finite_text(value))
        }
        Token::F64(value) => Float(value).serialize(serializer),
        Token::Str(text) => serializer.serialize_str(text),
        Token::Bin(bytes) if tagged => tag(serializer, tags::BIN, &tags::base64(bytes)),
        Token::Bin(bytes) => serializer.serialize_str(&tags::base64(bytes)),
        Token::Ext(ext_type, data) => {
            let text = (ext_type == TIMESTAMP_EXT_TYPE)
                .then(|| Timestamp::from_ext_data(data))
                .flatten()
                .and_then(tags::timestamp_text);
            match (text, tagged) {
                (Some(text), true) => tag(serializer, tags::TIMESTAMP, &text),
                (Some(text), false) => serializer.serialize_str(&text),
                (None, true) => tag(serializer, tags::EXT, &ExtBody::of(ext_type, data)),
                (None, false) => ExtBody::of(ext_type, data).serialize(serializer),
            }
        }
        Token::Array(_) | Token::Map(_) => unreachable!("Node::serialize writes arrays and maps"),
    }
}

/// A float as plain JSON: non-finite ones as `null`.
struct Float(f64);

impl Serialize for Float {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0.is_finite() {
            serializer.serialize_f64(self.0)
        } else {
            serializer.serialize_unit()
        }
    }
}

/// The entries of a map with non-string keys: `[[key, value], ...]`.
struct Pairs<'r, 'a> {
    node: Node<'r, 'a>,
    len: u32,
}

impl Serialize for Pairs<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len as usize))?;
        for _ in 0..self.len {
            seq.serialize_element(&(&self.node, &self.node))?;
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(bytes: &[u8], options: ToJson) -> String {
        let mut reader = Reader::new(bytes);
        let mut out = Vec::new();
        write_json(
            &mut reader,
            options,
            &mut serde_json::Serializer::new(&mut out),
        )
        .unwrap();
        assert!(reader.is_empty());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_type_tagged_and_plain() {
        let cases: &[(&[u8], &str, &str)] = &[
            (b"\xc0", "null", "null"),
            (b"\xc3", "true", "true"),
            (
                b"\xcf\xff\xff\xff\xff\xff\xff\xff\xff",
                "18446744073709551615",
                "18446744073709551615",
            ),
            (
                b"\xd3\x80\x00\x00\x00\x00\x00\x00\x00",
                "-9223372036854775808",
                "-9223372036854775808",
            ),
            (b"\xca\x3f\xc0\x00\x00", r#"{"$float32":1.5}"#, "1.5"),
            (b"\xcb\x3f\xf8\x00\x00\x00\x00\x00\x00", "1.5", "1.5"),
            (
                b"\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00",
                r#"{"$float64":"NaN"}"#,
                "null",
            ),
            (b"\xc4\x03abc", r#"{"$bin":"YWJj"}"#, r#""YWJj""#),
            (
                b"\xd4\x05\x01",
                r#"{"$ext":{"type":5,"data":"AQ=="}}"#,
                r#"{"type":5,"data":"AQ=="}"#,
            ),
            (
                b"\xd6\xff\x00\x00\x00\x00",
                r#"{"$timestamp":"1970-01-01T00:00:00Z"}"#,
                r#""1970-01-01T00:00:00Z""#,
            ),
            (b"\x81\x01\xa1x", r#"{"$map":[[1,"x"]]}"#, r#"{"1":"x"}"#),
            (
                b"\x82\xa4$bin\x01\xa4$bin\x02",
                r#"{"$$bin":1,"$bin":2}"#,
                r#"{"$bin":1,"$bin":2}"#,
            ),
            (b"\x81\xa3$$x\xc0", r#"{"$$$x":null}"#, r#"{"$$x":null}"#),
            (b"\x92\x90\x80", "[[],{}]", "[[],{}]"),
            // Maps nested in maps, keys and arrays: each written by its own keys.
            (
                b"\x82\xa1a\x81\x01\x81\xa1b\x02\xa1c\x91\x81\xa1d\x80",
                r#"{"a":{"$map":[[1,{"b":2}]]},"c":[{"d":{}}]}"#,
                r#"{"a":{"1":{"b":2}},"c":[{"d":{}}]}"#,
            ),
            (
                b"\x81\x81\xa1k\x01\x81\x02\x03",
                r#"{"$map":[[{"k":1},{"$map":[[2,3]]}]]}"#,
                r#"{"{\"k\":1}":{"2":3}}"#,
            ),
        ];
        for (bytes, tagged, plain) in cases {
            assert_eq!(json(bytes, ToJson::tagged()), *tagged, "{bytes:02x?}");
            assert_eq!(json(bytes, ToJson::plain()), *plain, "{bytes:02x?}");
        }
    }

    /// Plain JSON writes a key that is not a string as its JSON text, escaped
    /// again at every key around it: their nesting is bounded.
    #[test]
    fn plain_keys_in_keys_are_bounded() {
        let nested =
            |levels: usize| [vec![0x81; levels], vec![0x01, 0x02], vec![0x03; levels - 1]].concat();
        assert_eq!(
            json(&nested(4), ToJson::plain()),
            r#"{"{\"{\\\"{\\\\\\\"1\\\\\\\":2}\\\":3}\":3}":3}"#
        );
        let mut out = Vec::new();
        let error = write_json(
            &mut Reader::new(&nested(5)),
            ToJson::plain(),
            &mut serde_json::Serializer::new(&mut out),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "map keys that are not strings nest deeper than 4 in each other, past what plain JSON writes, at offset 5"
        );
        // Tagged JSON writes them as `$map`, never escaped: 15 bytes a level.
        assert_eq!(json(&nested(64), ToJson::tagged()).len(), 961);
    }

    #[test]
    fn depth_is_bounded() {
        let mut bytes = vec![0x91; MAX_DEPTH + 1];
        bytes.push(0xc0);
        let mut reader = Reader::new(&bytes);
        let error = write_json(
            &mut reader,
            ToJson::tagged(),
            &mut serde_json::Serializer::new(Vec::new()),
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("nesting exceeds the depth limit of {MAX_DEPTH} at offset {MAX_DEPTH}")
        );
    }
}
