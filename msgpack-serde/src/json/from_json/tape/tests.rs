//! The tape's bytes against serde_json's path, byte for byte: any
//! document simd-json takes must come out as serde_json's path writes it,
//! and anything else must leave the output as it was.

use proptest::prelude::*;

use super::super::{to_msgpack, write_through_serde_json, FromJson};
use super::{probes_agree, write_plain, Scratch, KEEP_BELOW, MAX_INPUT, TAPE_MAX_DEPTH};

/// What the tape writes after `prefix` (`None`: it left the output as it
/// was), and what serde_json's path writes or says.
fn both(json: &[u8], f32: bool) -> (Option<Vec<u8>>, Result<Vec<u8>, String>) {
    let prefix = [0xab, 0xcd];
    let mut fast = prefix.to_vec();
    let taken = write_plain(json, &mut fast, f32);
    let fast = if taken {
        assert_eq!(fast[..2], prefix, "{}", String::from_utf8_lossy(json));
        Some(fast[2..].to_vec())
    } else {
        assert_eq!(fast, prefix, "{}", String::from_utf8_lossy(json));
        None
    };
    let mut slow = Vec::new();
    let slow = write_through_serde_json(json, &mut slow, FromJson::plain().f32(f32))
        .map(|()| slow)
        .map_err(|error| error.to_string());
    (fast, slow)
}

/// The tape took `json` and wrote serde_json's bytes, or left it to
/// serde_json; `to_msgpack` gives serde_json's answer either way.
#[track_caller]
fn agree(json: &[u8], f32: bool) -> bool {
    let (fast, slow) = both(json, f32);
    let text = String::from_utf8_lossy(json);
    if let Some(fast) = &fast {
        assert_eq!(Ok(fast), slow.as_ref(), "{text}");
    }
    let whole = to_msgpack(json, FromJson::plain().f32(f32)).map_err(|error| error.to_string());
    assert_eq!(whole, slow, "{text}");
    fast.is_some()
}

#[test]
fn typical_documents_take_the_tape() {
    for json in [
        r#"{"id":30449,"customer":"Zoë Ångström","total":1561.77,"items":[{"sku":"SKU-1","discount":null,"ok":true}]}"#,
        "[]",
        "{}",
        " \t\r\n[1, -2, 3.5, \"x\", false] \n",
        r#""\u00e9\n\"\\\/\b\f\r\t\ud834\udd1e""#,
        "18446744073709551615",
        "-9223372036854775808",
        "1e-400",
    ] {
        assert!(agree(json.as_bytes(), false), "{json}");
        assert!(agree(json.as_bytes(), true), "{json}");
    }
}

/// `-0` is the one negative zero simd-json reads as an integer; serde_json
/// reads it as the float -0.0, and so must the tape.
#[test]
fn negative_zero_keeps_its_sign() {
    for json in ["-0", "-0.0", "-0e7", "-0E-2"] {
        assert_eq!(
            to_msgpack(json.as_bytes(), FromJson::plain()).unwrap(),
            b"\xcb\x80\0\0\0\0\0\0\0",
            "{json}"
        );
        assert_eq!(
            to_msgpack(json.as_bytes(), FromJson::plain().f32(true)).unwrap(),
            b"\xca\x80\0\0\0",
            "{json}"
        );
        assert!(agree(json.as_bytes(), false), "{json}");
    }
    assert_eq!(
        to_msgpack(b"[0,-0]", FromJson::plain()).unwrap(),
        b"\x92\x00\xcb\x80\0\0\0\0\0\0\0"
    );
}

/// Integers beyond u64 and i64, which simd-json refuses, are serde_json's
/// nearest floats.
#[test]
fn integers_beyond_messagepacks_are_serde_jsons_floats() {
    for json in [
        "18446744073709551616",
        "-9223372036854775809",
        "123456789012345678901234567890",
        "[1,18446744073709551616]",
    ] {
        assert!(!agree(json.as_bytes(), false), "{json}");
    }
    assert_eq!(
        to_msgpack(b"18446744073709551616", FromJson::plain()).unwrap(),
        b"\xcb\x43\xf0\0\0\0\0\0\0"
    );
}

/// Nesting: simd-json takes up to its own limit, serde_json decides past
/// it, and refuses past its 128 levels with its own message.
#[test]
fn deep_documents_are_serde_jsons_to_refuse() {
    let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    assert!(agree(nested(TAPE_MAX_DEPTH).as_bytes(), false));
    for depth in [TAPE_MAX_DEPTH + 1, 127] {
        assert!(!agree(nested(depth).as_bytes(), false), "{depth}");
    }
    assert_eq!(
        to_msgpack(nested(128).as_bytes(), FromJson::plain())
            .unwrap_err()
            .to_string(),
        "recursion limit exceeded at line 1 column 128"
    );
    let objects = format!(
        "{}1{}",
        r#"{"a":"#.repeat(TAPE_MAX_DEPTH),
        "}".repeat(TAPE_MAX_DEPTH)
    );
    assert!(agree(objects.as_bytes(), false));
}

/// Up to 64 KiB the tape takes a document, past it serde_json; the bytes
/// are the same. After a document past 16 KiB the thread's buffers are
/// dropped, and the next document still comes out whole.
#[test]
fn long_documents_are_read_by_serde_json() {
    let text = |len: usize| format!("\"{}\"", "x".repeat(len - 2)).into_bytes();
    assert!(agree(&text(MAX_INPUT), false));
    assert!(!agree(&text(MAX_INPUT + 1), false));
    let json = serde_json::to_vec(&vec!["0123456789"; KEEP_BELOW / 13 + 1]).unwrap();
    assert!(json.len() > KEEP_BELOW);
    assert!(agree(&json, false));
    assert!(agree(br#"{"after":[1,"x"]}"#, false));
    assert!(agree(&json, false));
}

/// This build's simd-json reads the probes' numbers as serde_json does,
/// so threads use the tape (a build with simd-json's inexact float
/// parsing turned on by another crate would fail here, and not use it).
#[test]
fn the_probes_agree_on_this_build() {
    assert!(probes_agree(&mut Scratch::new()));
}

/// Escapes, keys with escapes, duplicate keys and hard decimals, as
/// text serde_json does not write itself.
#[test]
fn escapes_duplicates_and_hard_decimals() {
    for json in [
        r#""\udc00""#,
        r#""\ud800\u0041""#,
        r#""\ud800""#,
        r#""\x""#,
        r#""\u00E9\u00e9\uD834\uDD1E""#,
        r#"{"\u0061\n":1,"a\"b":2}"#,
        r#"{"a":1,"a":2}"#,
        "[2.4703282292062327e-324,2.4703282292062328e-324,2.2250738585072011e-308]",
        "[1.7976931348623157e308,1.7976931348623158e308,1.7976931348623159e308]",
        "[-2.5927524301294156e206,8.98846567431158e307,1e23,9007199254740993]",
        "[1e00000000000400,1e-0000000000000400,1.5e99999,0.1e-99999,7e+00001]",
        "[123456789012345678901234567890e-10,0.000000000000000000000000000001e30]",
    ] {
        for f32 in [false, true] {
            agree(json.as_bytes(), f32);
        }
    }
    assert!(agree(br#"{"a":1,"a":2}"#, false));
    assert_eq!(
        to_msgpack(br#"{"a":1,"a":2}"#, FromJson::plain()).unwrap(),
        b"\x82\xa1a\x01\xa1a\x02"
    );
}

/// Errors are serde_json's messages, at serde_json's offsets, whatever
/// simd-json would have said; documents before and after on the same
/// thread (its buffers kept) come out whole.
#[test]
fn invalid_documents_get_serde_jsons_errors() {
    for (json, message) in [
        (
            &b"{\"a\":"[..],
            "EOF while parsing a value at line 1 column 5",
        ),
        (b"1 2", "trailing characters at line 1 column 3"),
        (b"[1,]", "trailing comma at line 1 column 4"),
        (
            b"\"a\nb\"",
            "control character (\\u0000-\\u001F) found while parsing a string at line 2 column 0",
        ),
        (
            br#""\ud800""#,
            "unexpected end of hex escape at line 1 column 8",
        ),
        (
            b"[\"\xff\"]",
            "invalid unicode code point at line 1 column 3",
        ),
        (b"\xef\xbb\xbf1", "expected value at line 1 column 1"),
        (b"1e400", "number out of range at line 1 column 5"),
        (b"", "EOF while parsing a value at line 1 column 0"),
    ] {
        assert!(agree(br#"{"before":[1,2,3]}"#, false));
        assert!(!agree(json, false));
        let error = to_msgpack(json, FromJson::plain()).unwrap_err();
        assert_eq!(error.to_string(), message);
        assert!(agree(br#"{"after":"x"}"#, false));
    }
}

/// A JSON value of every kind, nested.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        any::<f64>()
            .prop_filter("finite", |x| x.is_finite())
            .prop_map(serde_json::Value::from),
        any::<f32>()
            .prop_filter("finite", |x| x.is_finite())
            .prop_map(|x| serde_json::Value::from(f64::from(x))),
        "(?s).{0,40}".prop_map(serde_json::Value::from),
        "[a-z]{28,300}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(6, 64, 12, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..20).prop_map(serde_json::Value::from),
            prop::collection::vec(("(?s).{0,12}", inner), 0..20)
                .prop_map(|entries| serde_json::Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// A number as JSON text may write it: signs, leading zeros, long
/// mantissas past 19 digits, exponents of every size, and some that are
/// not numbers at all.
fn number_text() -> impl Strategy<Value = String> {
    (
        "-?",
        "(0|[1-9][0-9]{0,25}|0[0-9])",
        "(\\.[0-9]{0,25})?",
        "([eE][+-]?[0-9]{0,7})?",
    )
        .prop_map(|(sign, int, fraction, exponent)| format!("{sign}{int}{fraction}{exponent}"))
}

/// One byte of `text` replaced, or one inserted or removed, from bytes
/// that matter to JSON's grammar.
fn mutated(text: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    let len = text.len();
    let byte = prop_oneof![
        any::<u8>(),
        prop::sample::select(b"[]{}\",:\\-+.0123456789eEu \n\t\x00\x1ftrfnal".to_vec()),
    ];
    (0..=len, 0..3u8, byte).prop_map(move |(at, how, byte)| {
        let mut text = text.clone();
        match how {
            0 if at < len => text[at] = byte,
            1 if at < len => {
                text.remove(at);
            }
            _ => text.insert(at, byte),
        }
        text
    })
}

/// A document as text: compact or pretty, as it is or with one byte
/// changed.
fn document() -> impl Strategy<Value = Vec<u8>> {
    let text = prop_oneof![
        (json_value(), any::<bool>()).prop_map(|(value, pretty)| if pretty {
            serde_json::to_vec_pretty(&value).unwrap()
        } else {
            serde_json::to_vec(&value).unwrap()
        }),
        prop::collection::vec(number_text(), 1..8).prop_map(|numbers| format!(
            "[{}]",
            numbers.join(",")
        )
        .into_bytes()),
        number_text().prop_map(String::into_bytes),
    ];
    text.prop_flat_map(|text| prop_oneof![1 => Just(text.clone()), 1 => mutated(text)])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn the_tape_writes_what_serde_json_writes(json in document(), f32 in any::<bool>()) {
        agree(&json, f32);
    }
}

/// A thread-local's destructor may write JSON after the thread's buffers
/// are gone (destructors run in the reverse order of first use): it gets
/// serde_json's path, not a panic, which would abort the process there.
#[test]
fn a_document_written_during_a_threads_teardown() {
    use std::sync::mpsc;

    struct WritesOnDrop(mpsc::Sender<Vec<u8>>);
    impl Drop for WritesOnDrop {
        fn drop(&mut self) {
            let bytes = to_msgpack(br#"{"late":[1,2]}"#, FromJson::plain()).unwrap();
            self.0.send(bytes).unwrap();
        }
    }
    thread_local! {
        static LATE: std::cell::RefCell<Option<WritesOnDrop>> = const { std::cell::RefCell::new(None) };
    }

    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        // First used before the buffers, so dropped after them.
        LATE.with(|late| *late.borrow_mut() = Some(WritesOnDrop(sender)));
        assert!(agree(br#"{"early":true}"#, false));
    })
    .join()
    .unwrap();
    assert_eq!(receiver.recv().unwrap(), b"\x81\xa4late\x92\x01\x02");
}
