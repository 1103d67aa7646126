//! For any `Value` in smallest form (what `msgpack_serde::to_vec` writes),
//! `encode(decode(bytes)) == bytes`, by running the built binary: each case
//! is a stream of values, decoded and encoded once with `--lines`, and once
//! more as one array with `decode --pretty`. `decode --plain` must give
//! valid JSON for each. Also: `validate`, `inspect --summary` and
//! `inspect` agree with the value, and any JSON goes through encode and
//! decode unchanged. 64 cases each; `PROPTEST_CASES=1500` for a longer run
//! (about a minute).
//!
//! NaN keeps neither sign nor payload through JSON (tags.rs), so the only
//! NaNs generated are the quiet ones `f32::NAN` and `f64::NAN`; ext -1 data
//! that is a valid timestamp is generated through `Timestamp`, in its
//! smallest form, and random ext -1 data only when it is no timestamp.

mod common;

use msgpack_serde::{Timestamp, Value};
use msgpack_test_support::strategies::{bytes, integer_value};
use proptest::collection::vec;
use proptest::prelude::*;

use common::ok;

/// Strings with NUL, escapes, any Unicode, the tag names and `$$` prefixes.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "(?s).{0,40}",
        1 => "[\\x00-\\x1f\"\\\\]{0,8}",
        1 => prop::sample::select(vec![
            "$bin", "$ext", "$timestamp", "$map", "$float32", "$float64", "$$", "$$x", "$$$bin",
            "$", "$x", "",
        ])
        .prop_map(str::to_string),
        1 => "\\$\\$?[a-z0-9]{0,8}",
        1 => "[ -~]{250,300}",
    ]
}

/// Timestamps of all three widths, before 1970 and past year 9999 too.
fn timestamp() -> impl Strategy<Value = Value> {
    let seconds = prop_oneof![
        0i64..=u32::MAX.into(),
        0i64..(1 << 34),
        -(1i64 << 40)..(1 << 40),
        -62_167_219_300i64..=-62_167_219_100,
        253_402_300_700i64..=253_402_300_900,
        any::<i64>(),
    ];
    let nanos = prop_oneof![Just(0u32), 0u32..1_000_000_000];
    (seconds, nanos).prop_map(|(seconds, nanos)| {
        let timestamp = Timestamp::new(seconds, nanos).unwrap();
        Value::from_slice(&msgpack_serde::to_vec(&timestamp).unwrap()).unwrap()
    })
}

/// Any scalar. Not the shared `strategies::scalar`: JSON's mapping keeps
/// only the quiet NaNs, timestamps must be in their smallest form, and
/// strings here include the tag names.
fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Nil),
        1 => any::<bool>().prop_map(Value::Bool),
        4 => integer_value(),
        1 => any::<f32>()
            .prop_map(|x| if x.is_nan() { f32::NAN } else { x })
            .prop_map(Value::F32),
        2 => any::<f64>()
            .prop_map(|x| if x.is_nan() { f64::NAN } else { x })
            .prop_map(Value::F64),
        1 => prop::sample::select(vec![
            f64::INFINITY, f64::NEG_INFINITY, -0.0, f64::MIN_POSITIVE, 5e-324, f64::MAX,
        ])
        .prop_map(Value::F64),
        3 => text().prop_map(Value::Str),
        1 => bytes().prop_map(Value::Bin),
        1 => (any::<i8>().prop_filter("timestamp", |t| *t != -1), bytes())
            .prop_map(|(ty, data)| Value::Ext(ty, data)),
        1 => bytes()
            .prop_filter("a valid timestamp", |data| Timestamp::from_ext_data(data).is_none())
            .prop_map(|data| Value::Ext(-1, data)),
        2 => timestamp(),
    ]
}

/// Any value: arrays and maps nested up to 5 deep, maps keyed by strings
/// (tag names among them) or by anything.
fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(5, 96, 12, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..12).prop_map(Value::Array),
            vec((text().prop_map(Value::Str), inner.clone()), 0..12).prop_map(Value::Map),
            vec((inner.clone(), inner), 0..8).prop_map(Value::Map),
        ]
    })
}

/// Cases per property: 64, or `PROPTEST_CASES` for a longer run.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(64)
}

/// Whether the value holds an ext -1 that is no timestamp.
fn has_bad_timestamp(value: &Value) -> bool {
    match value {
        Value::Ext(-1, data) => Timestamp::from_ext_data(data).is_none(),
        Value::Array(items) => items.iter().any(has_bad_timestamp),
        Value::Map(entries) => entries
            .iter()
            .any(|(k, v)| has_bad_timestamp(k) || has_bad_timestamp(v)),
        _ => false,
    }
}

/// The lines `inspect` prints for a value: one per item, a scalar map key
/// on its value's line.
fn inspect_lines(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(inspect_lines).sum::<usize>(),
        Value::Map(entries) => {
            1 + entries
                .iter()
                .map(|(key, value)| {
                    let key_lines = match key {
                        Value::Array(_) | Value::Map(_) => inspect_lines(key),
                        _ => 0,
                    };
                    key_lines + inspect_lines(value)
                })
                .sum::<usize>()
        }
        _ => 1,
    }
}

/// Any JSON, with keys that tags.rs escapes (`$$x`, `$`) but no tag name.
fn json() -> impl Strategy<Value = serde_json::Value> {
    let key = prop_oneof![
        3 => "[a-z]{0,3}",
        1 => "\\$\\$[a-z]{0,5}",
        1 => "\\$[0-9]?",
        1 => "(?s).{0,6}".prop_filter("a tag name", |k| !k.starts_with('$')),
    ];
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        any::<f64>()
            .prop_filter("finite", |x| x.is_finite())
            .prop_map(serde_json::Value::from),
        "(?s).{0,12}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 48, 8, move |inner| {
        prop_oneof![
            vec(inner.clone(), 0..8).prop_map(serde_json::Value::Array),
            vec((key.clone(), inner), 0..8)
                .prop_map(|entries| serde_json::Value::Object(entries.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    /// validate calls any Value valid, --summary's `$` is all its bytes,
    /// and inspect prints a line per item.
    #[test]
    fn validate_summary_and_inspect_agree_with_the_value(value in value()) {
        let bytes = msgpack_serde::to_vec(&value).unwrap();
        if has_bad_timestamp(&value) {
            // validate holds ext -1 to the timestamp's rules.
            let output = common::run(&["validate"], &bytes);
            prop_assert_eq!(output.status.code(), Some(1));
            let stderr = String::from_utf8(output.stderr).unwrap();
            prop_assert!(stderr.starts_with("msgpack: invalid timestamp at offset "), "{}", stderr);
        } else {
            prop_assert_eq!(
                String::from_utf8(ok(&["validate"], &bytes)).unwrap(),
                format!("valid: 1 value, {} bytes\n", bytes.len())
            );
        }
        let summary = String::from_utf8(ok(&["inspect", "--summary"], &bytes)).unwrap();
        let root = format!("{:>10}  100.0%        1  $", bytes.len());
        prop_assert_eq!(summary.lines().nth(1), Some(root.as_str()), "{}", summary);
        let shown = String::from_utf8(ok(&["inspect", "--color", "never"], &bytes)).unwrap();
        prop_assert_eq!(shown.lines().count(), inspect_lines(&value), "{}", shown);
    }

    /// JSON to MessagePack and back: the same JSON when no key starts with
    /// `$$`, and the same bytes again in any case.
    #[test]
    fn json_through_encode_and_decode(values in vec(json(), 1..16)) {
        let lines: String = values.iter().map(|v| format!("{v}\n")).collect();
        let bytes = ok(&["encode", "--lines"], lines.as_bytes());
        let back = String::from_utf8(ok(&["decode", "--lines"], &bytes)).unwrap();
        prop_assert_eq!(ok(&["encode", "--lines"], back.as_bytes()), bytes);
        if !lines.contains("\"$$") {
            prop_assert_eq!(back, lines);
        }
    }

    #[test]
    fn encode_of_decode_gives_the_same_bytes(values in vec(value(), 1..24)) {
        let mut stream = Vec::new();
        for value in &values {
            stream.extend(msgpack_serde::to_vec(value).unwrap());
        }
        let json = ok(&["decode", "--lines"], &stream);
        prop_assert_eq!(json.iter().filter(|&&b| b == b'\n').count(), values.len());
        let back = ok(&["encode", "--lines"], &json);
        prop_assert!(back == stream, "decode --lines | encode --lines changed the bytes:\n{}", String::from_utf8_lossy(&json));

        let whole = msgpack_serde::to_vec(&Value::Array(values.clone())).unwrap();
        let pretty = ok(&["decode", "--pretty"], &whole);
        prop_assert!(ok(&["encode"], &pretty) == whole, "decode --pretty | encode changed the bytes:\n{}", String::from_utf8_lossy(&pretty));

        let plain = String::from_utf8(ok(&["decode", "--lines", "--plain"], &stream)).unwrap();
        for line in plain.lines() {
            prop_assert!(serde_json::from_str::<serde_json::Value>(line).is_ok(), "{}", line);
        }
    }
}
