//! For any `Value` in smallest form (what `msgpack_serde::to_vec` writes),
//! `encode(decode(bytes)) == bytes`, by running the built binary: each case
//! is a stream of values, decoded and encoded once with `--lines`, and once
//! more as one array with `decode --pretty`. `decode --plain` must give
//! valid JSON for each.
//!
//! NaN keeps neither sign nor payload through JSON (tags.rs), so the only
//! NaNs generated are the quiet ones `f32::NAN` and `f64::NAN`; ext -1 data
//! that is a valid timestamp is generated through `Timestamp`, in its
//! smallest form, and random ext -1 data only when it is no timestamp.

mod common;

use msgpack_serde::{Timestamp, Value};
use proptest::collection::vec;
use proptest::prelude::*;

use common::ok;

/// Integers of every width, their edges most often.
fn integer() -> impl Strategy<Value = Value> {
    let edges: Vec<i128> = vec![
        0,
        1,
        127,
        128,
        255,
        256,
        65_535,
        65_536,
        u32::MAX.into(),
        1 << 32,
        1 << 53,
        (1 << 53) + 1,
        i64::MAX.into(),
        1 << 63,
        u64::MAX.into(),
        -1,
        -32,
        -33,
        -128,
        -129,
        -32_768,
        -32_769,
        i32::MIN.into(),
        i64::from(i32::MIN) as i128 - 1,
        -(1 << 53) - 1,
        i64::MIN.into(),
    ];
    prop_oneof![
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-40i64..300).prop_map(Value::from),
        prop::sample::select(edges).prop_map(|n| match u64::try_from(n) {
            Ok(u) => Value::from(u),
            Err(_) => Value::from(n as i64),
        }),
    ]
}

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

/// Any scalar.
fn scalar() -> impl Strategy<Value = Value> {
    let bytes = || prop_oneof![4 => vec(any::<u8>(), 0..40), 1 => vec(any::<u8>(), 250..300)];
    prop_oneof![
        1 => Just(Value::Nil),
        1 => any::<bool>().prop_map(Value::Bool),
        4 => integer(),
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

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
