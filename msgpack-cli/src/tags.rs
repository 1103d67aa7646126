//! The JSON mapping of MessagePack, in one place: the tagged forms for
//! what JSON cannot hold, how keys that look like tags are escaped, and the
//! text forms of bytes and timestamps.
//!
//! | MessagePack | JSON from `decode` | `decode --plain` |
//! |---|---|---|
//! | nil, bool, integer, str, array | `null`, `true`, `42`, `"text"`, `[...]` | the same |
//! | float 64 | `1.5`; NaN and infinities `{"$float64": "NaN"}`, `"Infinity"`, `"-Infinity"` | `1.5`; `null` |
//! | float 32 | `{"$float32": 1.5}` | `1.5` |
//! | bin | `{"$bin": "<base64>"}` | `"<base64>"` |
//! | timestamp (ext -1) | `{"$timestamp": "2026-11-30T12:00:00.5Z"}` (RFC 3339, exact to the nanosecond) | `"2026-11-30T12:00:00.5Z"` |
//! | other ext | `{"$ext": {"type": 5, "data": "<base64>"}}` | the same object, untagged |
//! | map with only str keys | `{"key": value}` | the same |
//! | map with other keys | `{"$map": [[key, value], ...]}` | an object, keys as their JSON text |
//!
//! A tag is the first key of an object and must be its only one. A map
//! whose first key is a tag name, and any key starting with `$$`, get one
//! more `$` on decode and lose it on encode, so every string survives.

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use msgpack_serde::Timestamp;

pub const BIN: &str = "$bin";
pub const EXT: &str = "$ext";
pub const TIMESTAMP: &str = "$timestamp";
pub const MAP: &str = "$map";
pub const FLOAT32: &str = "$float32";
pub const FLOAT64: &str = "$float64";

/// Every tag name.
pub const TAGS: [&str; 6] = [BIN, EXT, TIMESTAMP, MAP, FLOAT32, FLOAT64];

/// Whether `key` names a tag.
pub fn is_tag(key: &str) -> bool {
    TAGS.contains(&key)
}

/// The key as `decode` writes it: `first` tells whether it opens its map.
/// `None` when it needs no escape.
pub fn escape(key: &str, first: bool) -> Option<String> {
    ((first && is_tag(key)) || key.starts_with("$$")).then(|| format!("${key}"))
}

/// The key as `encode` reads it: one `$` off a key starting with `$$`.
pub fn unescape(key: &str) -> &str {
    if key.starts_with("$$") {
        &key[1..]
    } else {
        key
    }
}

/// Bytes as base64 (standard alphabet, padded).
pub fn base64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Bytes from base64 (standard alphabet, padded).
pub fn from_base64(text: &str) -> Result<Vec<u8>, String> {
    STANDARD
        .decode(text)
        .map_err(|error| format!("invalid base64: {error}"))
}

/// A timestamp in RFC 3339 form, exact to the nanosecond (`None` outside
/// years 0000 to 9999, which `$ext` then carries).
pub fn timestamp_text(timestamp: Timestamp) -> Option<String> {
    let nanos = i32::try_from(timestamp.nanoseconds()).ok()?;
    let jiff = jiff::Timestamp::new(timestamp.seconds(), nanos).ok()?;
    let text = jiff.to_string();
    // RFC 3339 has four-digit years; jiff writes others with a sign.
    (!text.starts_with(['-', '+'])).then_some(text)
}

/// A timestamp from its RFC 3339 form (any offset; `Z` is what decode writes).
pub fn parse_timestamp(text: &str) -> Result<Timestamp, String> {
    let parsed: jiff::Timestamp = text
        .parse()
        .map_err(|error| format!("invalid RFC 3339 timestamp {text:?}: {error}"))?;
    let mut seconds = parsed.as_second();
    let mut nanos = parsed.subsec_nanosecond();
    if nanos < 0 {
        seconds -= 1;
        nanos += 1_000_000_000;
    }
    Timestamp::new(seconds, nanos as u32).ok_or_else(|| format!("timestamp {text:?} out of range"))
}

/// The text of a non-finite float: `NaN`, `Infinity`, `-Infinity`.
pub fn non_finite_text(value: f64) -> &'static str {
    if value.is_nan() {
        "NaN"
    } else if value > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    }
}

/// A non-finite float from its text.
pub fn parse_non_finite(text: &str) -> Option<f64> {
    match text {
        "NaN" => Some(f64::NAN),
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_reverses() {
        for (key, first) in [
            ("$bin", true),
            ("$bin", false),
            ("$$bin", true),
            ("$$$x", false),
            ("$id", true),
            ("a", true),
        ] {
            let written = escape(key, first).unwrap_or_else(|| key.to_string());
            let is_tag_read = first && is_tag(&written);
            assert!(!is_tag_read, "{key} would read as a tag");
            assert_eq!(unescape(&written), key, "{key}");
        }
    }

    #[test]
    fn timestamps_to_the_nanosecond() {
        let ts = Timestamp::new(1_796_040_000, 500_000_000).unwrap();
        assert_eq!(timestamp_text(ts).unwrap(), "2026-11-30T12:00:00.5Z");
        assert_eq!(parse_timestamp("2026-11-30T12:00:00.5Z").unwrap(), ts);
        let ts = Timestamp::new(-1, 999_999_999).unwrap();
        assert_eq!(
            timestamp_text(ts).unwrap(),
            "1969-12-31T23:59:59.999999999Z"
        );
        assert_eq!(
            parse_timestamp("1969-12-31T23:59:59.999999999Z").unwrap(),
            ts
        );
        assert_eq!(
            timestamp_text(Timestamp::new(0, 0).unwrap()).unwrap(),
            "1970-01-01T00:00:00Z"
        );
        assert_eq!(timestamp_text(Timestamp::new(i64::MAX, 0).unwrap()), None);
        assert_eq!(
            parse_timestamp("2026-11-30T13:00:00.5+01:00")
                .unwrap()
                .seconds(),
            1_796_040_000
        );
    }
}
