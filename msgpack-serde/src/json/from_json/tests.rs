//! Tests of JSON to MessagePack: the bytes against msgpack-serde's
//! serializer, numbers, strings, the tagged forms and the errors.

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
