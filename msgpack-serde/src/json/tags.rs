//! The tagged forms' names, how keys that look like tags are escaped, and
//! the text forms of bytes, timestamps and non-finite floats: the parts of
//! the mapping (see the [module](super)) both directions share.

use std::borrow::Cow;

use crate::Timestamp;
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;

pub(crate) const BIN: &str = "$bin";
pub(crate) const EXT: &str = "$ext";
pub(crate) const TIMESTAMP: &str = "$timestamp";
pub(crate) const MAP: &str = "$map";
pub(crate) const FLOAT32: &str = "$float32";
pub(crate) const FLOAT64: &str = "$float64";

/// Every tag name.
pub(crate) const TAGS: [&str; 6] = [BIN, EXT, TIMESTAMP, MAP, FLOAT32, FLOAT64];

/// Whether `key` names a tag.
pub(crate) fn is_tag(key: &str) -> bool {
    TAGS.contains(&key)
}

/// The key as `decode` writes it: `first` tells whether it opens its map.
/// `None` when it needs no escape.
pub(crate) fn escape(key: &str, first: bool) -> Option<String> {
    ((first && is_tag(key)) || key.starts_with("$$")).then(|| format!("${key}"))
}

/// The key as `encode` reads it: one `$` off a key starting with `$$`.
pub(crate) fn unescape(key: &str) -> &str {
    if key.starts_with("$$") {
        &key[1..]
    } else {
        key
    }
}

/// Bytes as base64 (standard alphabet, padded).
pub(crate) fn base64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Bytes from base64 (standard alphabet, padded).
pub(crate) fn from_base64(text: &str) -> Result<Vec<u8>, String> {
    STANDARD
        .decode(text)
        .map_err(|error| format!("invalid base64: {error}"))
}

/// `{"type": 5, "data": "<base64>"}`: an extension in JSON, both ways.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(
    rename = "Ext",
    deny_unknown_fields,
    expecting = r#"an object {"type": -128 to 127, "data": base64}"#
)]
pub(crate) struct ExtBody<'a> {
    #[serde(rename = "type")]
    pub(crate) ext_type: i8,
    /// The data in base64.
    #[serde(borrow)]
    pub(crate) data: Cow<'a, str>,
}

impl ExtBody<'_> {
    /// The JSON of an extension.
    pub(crate) fn of(ext_type: i8, data: &[u8]) -> ExtBody<'static> {
        ExtBody {
            ext_type,
            data: Cow::Owned(base64(data)),
        }
    }
}

/// A timestamp in RFC 3339 form, as `$timestamp` writes it: exact to the
/// nanosecond, trailing zeros of the fraction dropped. `None` outside
/// years 0000 to 9999 (which `$ext` then carries). Computed here rather
/// than by jiff, whose `Timestamp` stops a day short of the year 10000.
///
/// ```
/// use msgpack_serde::{json::timestamp_text, Timestamp};
///
/// let text = timestamp_text(Timestamp::new(1_796_040_000, 500_000_000).unwrap());
/// assert_eq!(text.as_deref(), Some("2026-11-30T12:00:00.5Z"));
/// assert_eq!(timestamp_text(Timestamp::from_seconds(i64::MAX)), None);
/// ```
pub fn timestamp_text(timestamp: Timestamp) -> Option<String> {
    let seconds = timestamp.seconds();
    let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
    if !(0..=9999).contains(&year) {
        return None;
    }
    let second_of_day = seconds.rem_euclid(86_400);
    let mut text = format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        second_of_day / 3600,
        second_of_day / 60 % 60,
        second_of_day % 60
    );
    let nanos = timestamp.nanoseconds();
    if nanos > 0 {
        let fraction = format!(".{nanos:09}");
        text.push_str(fraction.trim_end_matches('0'));
    }
    text.push('Z');
    Some(text)
}

/// A timestamp from its RFC 3339 form (any offset; `Z` is what decode writes).
pub(crate) fn parse_timestamp(text: &str) -> Result<Timestamp, String> {
    let invalid =
        |why: &dyn std::fmt::Display| format!("invalid RFC 3339 timestamp {text:?}: {why}");
    let pieces = jiff::fmt::temporal::Pieces::parse(text).map_err(|error| invalid(&error))?;
    let (Some(time), Some(offset)) = (pieces.time(), pieces.to_numeric_offset()) else {
        return Err(invalid(&"a time and an offset (such as Z) are required"));
    };
    let date = pieces.date();
    let days = days_from_civil(
        i64::from(date.year()),
        i64::from(date.month()),
        i64::from(date.day()),
    );
    let seconds = days * 86_400
        + i64::from(time.hour()) * 3600
        + i64::from(time.minute()) * 60
        + i64::from(time.second())
        - i64::from(offset.seconds());
    Timestamp::new(seconds, time.subsec_nanosecond() as u32)
        .ok_or_else(|| format!("timestamp {text:?} out of range"))
}

/// The days from 1970-01-01 to a date of the proleptic Gregorian calendar
/// (Howard Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * shifted_month + 2) / 5 + 1) as u32;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The text of a non-finite float: `NaN`, `Infinity`, `-Infinity`.
pub(crate) fn non_finite_text(value: f64) -> &'static str {
    if value.is_nan() {
        "NaN"
    } else if value > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    }
}

/// A non-finite float from its text.
pub(crate) fn parse_non_finite(text: &str) -> Option<f64> {
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
        assert_eq!(timestamp_text(Timestamp::new(i64::MIN, 0).unwrap()), None);
        // The whole of years 0000 to 9999, past jiff's Timestamp range.
        for (seconds, text) in [
            (-62_167_219_200, "0000-01-01T00:00:00Z"),
            (-62_135_596_800, "0001-01-01T00:00:00Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"),
        ] {
            let ts = Timestamp::new(seconds, 0).unwrap();
            assert_eq!(timestamp_text(ts).unwrap(), text);
            assert_eq!(parse_timestamp(text).unwrap(), ts, "{text}");
        }
        assert_eq!(
            timestamp_text(Timestamp::new(-62_167_219_201, 0).unwrap()),
            None
        );
        assert_eq!(
            timestamp_text(Timestamp::new(253_402_300_800, 0).unwrap()),
            None
        );
        assert_eq!(
            parse_timestamp("0000-01-01T00:00:00+01:00")
                .unwrap()
                .seconds(),
            -62_167_222_800
        );
        assert!(parse_timestamp("2026-11-30").is_err());
        assert!(parse_timestamp("2026-11-30T12:00:00").is_err());
        assert_eq!(
            parse_timestamp("2026-11-30T13:00:00.5+01:00")
                .unwrap()
                .seconds(),
            1_796_040_000
        );
    }
}
