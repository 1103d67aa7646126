//! Every type through `decode` and `encode`, as tables of exact bytes and
//! exact JSON text: the JSON mapping of `src/tags.rs`, checked both ways.

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;

use crate::common::{assert_bytes, hex, ok, ok_text};

/// Smallest-form bytes and the JSON `decode` writes for them, which
/// `encode` turns back into the same bytes.
fn both_ways() -> Vec<(Vec<u8>, String)> {
    let table: &[(&str, &str)] = &[
        // nil and booleans
        ("c0", "null"),
        ("c3", "true"),
        ("c2", "false"),
        // every integer width, at its edges
        ("00", "0"),
        ("7f", "127"),
        ("cc 80", "128"),
        ("cc ff", "255"),
        ("cd 01 00", "256"),
        ("cd ff ff", "65535"),
        ("ce 00 01 00 00", "65536"),
        ("ce ff ff ff ff", "4294967295"),
        ("cf 00 00 00 01 00 00 00 00", "4294967296"),
        ("cf 00 20 00 00 00 00 00 01", "9007199254740993"),
        ("cf 7f ff ff ff ff ff ff ff", "9223372036854775807"),
        ("cf 80 00 00 00 00 00 00 00", "9223372036854775808"),
        ("cf ff ff ff ff ff ff ff ff", "18446744073709551615"),
        ("ff", "-1"),
        ("e0", "-32"),
        ("d0 df", "-33"),
        ("d0 80", "-128"),
        ("d1 ff 7f", "-129"),
        ("d1 80 00", "-32768"),
        ("d2 ff ff 7f ff", "-32769"),
        ("d2 80 00 00 00", "-2147483648"),
        ("d3 ff ff ff ff 7f ff ff ff", "-2147483649"),
        ("d3 ff df ff ff ff ff ff ff", "-9007199254740993"),
        ("d3 80 00 00 00 00 00 00 00", "-9223372036854775808"),
        // float 64: plain JSON numbers, but for NaN and the infinities
        ("cb 3f f8 00 00 00 00 00 00", "1.5"),
        ("cb 00 00 00 00 00 00 00 00", "0.0"),
        ("cb 80 00 00 00 00 00 00 00", "-0.0"),
        ("cb 3f f0 00 00 00 00 00 00", "1.0"),
        ("cb 3f b9 99 99 99 99 99 9a", "0.1"),
        ("cb 43 40 00 00 00 00 00 00", "9007199254740992.0"),
        ("cb 7f ef ff ff ff ff ff ff", "1.7976931348623157e+308"),
        ("cb 00 00 00 00 00 00 00 01", "5e-324"),
        ("cb 00 10 00 00 00 00 00 00", "2.2250738585072014e-308"),
        ("cb 7f f0 00 00 00 00 00 00", r#"{"$float64":"Infinity"}"#),
        ("cb ff f0 00 00 00 00 00 00", r#"{"$float64":"-Infinity"}"#),
        ("cb 7f f8 00 00 00 00 00 00", r#"{"$float64":"NaN"}"#),
        // float 32: always tagged
        ("ca 3f c0 00 00", r#"{"$float32":1.5}"#),
        ("ca 3d cc cc cd", r#"{"$float32":0.1}"#),
        ("ca 80 00 00 00", r#"{"$float32":-0.0}"#),
        ("ca 3f 80 00 00", r#"{"$float32":1.0}"#),
        ("ca 00 00 00 01", r#"{"$float32":1e-45}"#),
        ("ca 7f 7f ff ff", r#"{"$float32":3.4028235e+38}"#),
        ("ca 7f 80 00 00", r#"{"$float32":"Infinity"}"#),
        ("ca ff 80 00 00", r#"{"$float32":"-Infinity"}"#),
        ("ca 7f c0 00 00", r#"{"$float32":"NaN"}"#),
        // str: escapes, NUL, any Unicode; strings that look like tags are
        // strings (only keys are escaped)
        ("a0", r#""""#),
        ("a1 61", r#""a""#),
        ("a3 61 00 62", r#""a\u0000b""#),
        ("a1 00", r#""\u0000""#),
        (
            "a8 22 5c 0a 09 0d 01 1f 7f",
            "\"\\\"\\\\\\n\\t\\r\\u0001\\u001f\u{7f}\"",
        ),
        ("a9 5a 6f c3 ab 20 f0 9f 9a b2", r#""Zoë 🚲""#),
        ("a6 e2 80 a8 ef bb bf", "\"\u{2028}\u{feff}\""),
        ("a4 24 62 69 6e", r#""$bin""#),
        ("a3 24 24 78", r#""$$x""#),
        // bin
        ("c4 00", r#"{"$bin":""}"#),
        ("c4 01 00", r#"{"$bin":"AA=="}"#),
        ("c4 03 01 02 03", r#"{"$bin":"AQID"}"#),
        ("c4 04 ff fe fd fc", r#"{"$bin":"//79/A=="}"#),
        // ext of several types and sizes (type -1 when no timestamp)
        ("d4 05 01", r#"{"$ext":{"type":5,"data":"AQ=="}}"#),
        ("d5 ff 00 01", r#"{"$ext":{"type":-1,"data":"AAE="}}"#),
        (
            "d6 80 00 01 02 03",
            r#"{"$ext":{"type":-128,"data":"AAECAw=="}}"#,
        ),
        (
            "d7 7f 00 01 02 03 04 05 06 07",
            r#"{"$ext":{"type":127,"data":"AAECAwQFBgc="}}"#,
        ),
        (
            "d8 01 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f",
            r#"{"$ext":{"type":1,"data":"AAECAwQFBgcICQoLDA0ODw=="}}"#,
        ),
        ("c7 00 05", r#"{"$ext":{"type":5,"data":""}}"#),
        ("c7 03 05 61 62 63", r#"{"$ext":{"type":5,"data":"YWJj"}}"#),
        ("c7 03 ff 61 62 63", r#"{"$ext":{"type":-1,"data":"YWJj"}}"#),
        // 8 bytes of ext -1 with 10^9 nanoseconds: no timestamp
        (
            "d7 ff ee 6b 28 00 00 00 00 00",
            r#"{"$ext":{"type":-1,"data":"7msoAAAAAAA="}}"#,
        ),
        // timestamps 32, 64 and 96, before 1970, to the nanosecond
        (
            "d6 ff 00 00 00 00",
            r#"{"$timestamp":"1970-01-01T00:00:00Z"}"#,
        ),
        (
            "d6 ff 6b 0d 65 40",
            r#"{"$timestamp":"2026-11-30T12:00:00Z"}"#,
        ),
        (
            "d6 ff ff ff ff ff",
            r#"{"$timestamp":"2106-02-07T06:28:15Z"}"#,
        ),
        (
            "d7 ff 77 35 94 00 6b 0d 65 40",
            r#"{"$timestamp":"2026-11-30T12:00:00.5Z"}"#,
        ),
        (
            "d7 ff 00 00 00 04 6b 0d 65 40",
            r#"{"$timestamp":"2026-11-30T12:00:00.000000001Z"}"#,
        ),
        (
            "d7 ff ee 6b 27 fc 6b 0d 65 40",
            r#"{"$timestamp":"2026-11-30T12:00:00.999999999Z"}"#,
        ),
        (
            "d7 ff 00 00 00 01 00 00 00 00",
            r#"{"$timestamp":"2106-02-07T06:28:16Z"}"#,
        ),
        (
            "d7 ff ee 6b 27 ff ff ff ff ff",
            r#"{"$timestamp":"2514-05-30T01:53:03.999999999Z"}"#,
        ),
        (
            "c7 0c ff 00 00 00 00 00 00 00 04 00 00 00 00",
            r#"{"$timestamp":"2514-05-30T01:53:04Z"}"#,
        ),
        (
            "c7 0c ff 00 00 00 00 ff ff ff ff ff ff ff ff",
            r#"{"$timestamp":"1969-12-31T23:59:59Z"}"#,
        ),
        (
            "c7 0c ff 3b 9a c9 ff ff ff ff ff ff ff ff ff",
            r#"{"$timestamp":"1969-12-31T23:59:59.999999999Z"}"#,
        ),
        (
            "c7 0c ff 07 5b cd 15 ff ff ff ff fe 1e cc 80",
            r#"{"$timestamp":"1969-01-01T00:00:00.123456789Z"}"#,
        ),
        (
            "c7 0c ff 00 00 00 00 ff ff ff f1 86 8b 84 00",
            r#"{"$timestamp":"0000-01-01T00:00:00Z"}"#,
        ),
        // past RFC 3339's four-digit years: the ext itself
        (
            "c7 0c ff 00 00 00 00 00 00 00 3a ff f4 41 80",
            r#"{"$ext":{"type":-1,"data":"AAAAAAAAADr/9EGA"}}"#,
        ),
        (
            "c7 0c ff 00 00 00 00 80 00 00 00 00 00 00 00",
            r#"{"$ext":{"type":-1,"data":"AAAAAIAAAAAAAAAA"}}"#,
        ),
        // arrays and maps, nested
        ("90", "[]"),
        ("80", "{}"),
        ("93 01 a1 78 c0", r#"[1,"x",null]"#),
        ("91 91 91 90", "[[[[]]]]"),
        ("92 80 90", "[{},[]]"),
        (
            "82 a1 61 01 a1 62 92 c3 81 a1 63 c0",
            r#"{"a":1,"b":[true,{"c":null}]}"#,
        ),
        ("81 a0 01", r#"{"":1}"#),
        ("82 a1 61 01 a1 61 02", r#"{"a":1,"a":2}"#),
        // maps with other keys: int, bool, nil, array, map, bin, float, mixed
        (
            "82 01 a3 6f 6e 65 ff a1 6d",
            r#"{"$map":[[1,"one"],[-1,"m"]]}"#,
        ),
        (
            "81 cf ff ff ff ff ff ff ff ff 00",
            r#"{"$map":[[18446744073709551615,0]]}"#,
        ),
        ("82 c3 01 c2 02", r#"{"$map":[[true,1],[false,2]]}"#),
        ("81 c0 01", r#"{"$map":[[null,1]]}"#),
        ("81 92 01 02 a1 78", r#"{"$map":[[[1,2],"x"]]}"#),
        ("81 81 a1 61 01 02", r#"{"$map":[[{"a":1},2]]}"#),
        ("81 c4 01 00 01", r#"{"$map":[[{"$bin":"AA=="},1]]}"#),
        ("81 cb 3f f8 00 00 00 00 00 00 01", r#"{"$map":[[1.5,1]]}"#),
        ("82 a1 61 01 02 03", r#"{"$map":[["a",1],[2,3]]}"#),
        ("81 01 81 02 03", r#"{"$map":[[1,{"$map":[[2,3]]}]]}"#),
        ("82 01 02 a3 24 24 78 03", r#"{"$map":[[1,2],["$$x",3]]}"#),
        // keys that look like tags: one more $ when first or starting $$
        ("81 a4 24 62 69 6e a1 78", r#"{"$$bin":"x"}"#),
        ("81 a4 24 65 78 74 c0", r#"{"$$ext":null}"#),
        (
            "81 aa 24 74 69 6d 65 73 74 61 6d 70 00",
            r#"{"$$timestamp":0}"#,
        ),
        ("81 a4 24 6d 61 70 90", r#"{"$$map":[]}"#),
        ("81 a8 24 66 6c 6f 61 74 33 32 01", r#"{"$$float32":1}"#),
        ("81 a8 24 66 6c 6f 61 74 36 34 01", r#"{"$$float64":1}"#),
        ("82 a1 61 01 a4 24 62 69 6e 02", r#"{"a":1,"$bin":2}"#),
        (
            "82 a4 24 62 69 6e 01 a4 24 62 69 6e 02",
            r#"{"$$bin":1,"$bin":2}"#,
        ),
        ("81 a3 24 24 78 01", r#"{"$$$x":1}"#),
        ("82 a1 61 01 a2 24 24 02", r#"{"a":1,"$$$":2}"#),
        ("81 a5 24 24 62 69 6e 01", r#"{"$$$bin":1}"#),
        ("81 a2 24 78 01", r#"{"$x":1}"#),
        ("81 a1 24 01", r#"{"$":1}"#),
        ("81 a4 24 42 49 4e 01", r#"{"$BIN":1}"#),
        (
            "81 a4 24 62 69 6e 81 a4 24 62 69 6e c0",
            r#"{"$$bin":{"$$bin":null}}"#,
        ),
    ];
    let mut cases: Vec<(Vec<u8>, String)> = table
        .iter()
        .map(|(bytes, json)| (hex(bytes), json.to_string()))
        .collect();

    // Lengths at every header width: str 8/16/32, bin 8/16/32, ext 8/16/32,
    // array 16/32, map 16/32.
    let text = |n: usize| "x".repeat(n);
    for (n, header) in [
        (31, "bf"),
        (32, "d9 20"),
        (255, "d9 ff"),
        (256, "da 01 00"),
        (65_535, "da ff ff"),
        (65_536, "db 00 01 00 00"),
    ] {
        let bytes = [hex(header), text(n).into_bytes()].concat();
        cases.push((bytes, format!("\"{}\"", text(n))));
    }
    let data = |n: usize| (0..n).map(|i| (i * 7) as u8).collect::<Vec<u8>>();
    for (n, header) in [
        (255, "c4 ff"),
        (256, "c5 01 00"),
        (65_535, "c5 ff ff"),
        (65_536, "c6 00 01 00 00"),
    ] {
        let bytes = [hex(header), data(n)].concat();
        cases.push((
            bytes,
            format!(r#"{{"$bin":"{}"}}"#, STANDARD.encode(data(n))),
        ));
    }
    for (n, header) in [
        (3, "c7 03 2a"),
        (255, "c7 ff 2a"),
        (256, "c8 01 00 2a"),
        (65_536, "c9 00 01 00 00 2a"),
    ] {
        let bytes = [hex(header), data(n)].concat();
        cases.push((
            bytes,
            format!(
                r#"{{"$ext":{{"type":42,"data":"{}"}}}}"#,
                STANDARD.encode(data(n))
            ),
        ));
    }
    let list = |n: usize| {
        let items: Vec<String> = (0..n).map(|i| (i % 100).to_string()).collect();
        format!("[{}]", items.join(","))
    };
    let ints = |n: usize| (0..n).map(|i| (i % 100) as u8).collect::<Vec<u8>>();
    for (n, header) in [(15, "9f"), (16, "dc 00 10"), (65_536, "dd 00 01 00 00")] {
        cases.push(([hex(header), ints(n)].concat(), list(n)));
    }
    let entries = |n: usize| {
        let mut bytes = Vec::new();
        let mut json = Vec::new();
        for i in 0..n {
            let key = format!("k{i:05}");
            bytes.push(0xa6);
            bytes.extend(key.as_bytes());
            bytes.push((i % 100) as u8);
            json.push(format!("\"{key}\":{}", i % 100));
        }
        (bytes, format!("{{{}}}", json.join(",")))
    };
    for (n, header) in [(15, "8f"), (16, "de 00 10"), (65_536, "df 00 01 00 00")] {
        let (body, json) = entries(n);
        cases.push(([hex(header), body].concat(), json));
    }
    cases
}

#[test]
fn every_type_both_ways() {
    for (bytes, json) in both_ways() {
        let shown = &json[..json.len().min(80)];
        assert_eq!(
            ok_text(&["decode"], &bytes),
            format!("{json}\n"),
            "decode of {shown}"
        );
        assert_bytes(
            &ok(&["encode"], json.as_bytes()),
            &bytes,
            &format!("encode of {shown}"),
        );
    }
}

/// The whole table as one stream, through files: `decode --lines` writes
/// one line per value, `encode --lines` gives back the same bytes, and a
/// pipe of `decode | encode` for each does too.
#[test]
fn decode_then_encode_gives_back_the_bytes() {
    let cases = both_ways();
    let dir = tempfile::tempdir().unwrap();
    let stream: Vec<u8> = cases.iter().flat_map(|(bytes, _)| bytes.clone()).collect();
    let input = dir.path().join("in.msgpack");
    let jsonl = dir.path().join("out.jsonl");
    let back = dir.path().join("back.msgpack");
    std::fs::write(&input, &stream).unwrap();
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    ok(
        &["decode", "--lines", &path(&input), "-o", &path(&jsonl)],
        b"",
    );
    let lines = std::fs::read_to_string(&jsonl).unwrap();
    let expected: String = cases.iter().map(|(_, json)| format!("{json}\n")).collect();
    assert_eq!(lines, expected);
    ok(
        &["encode", "--lines", &path(&jsonl), "-o", &path(&back)],
        b"",
    );
    assert_bytes(&std::fs::read(&back).unwrap(), &stream, "encode --lines");

    // "-" is standard input; the whole table as one array, pretty.
    let mut array = hex("dc");
    array.extend(u16::try_from(cases.len()).unwrap().to_be_bytes());
    array.extend(&stream);
    let pretty = ok(&["decode", "--pretty", "-"], &array);
    assert_bytes(&ok(&["encode", "-"], &pretty), &array, "encode of --pretty");
}

/// What `encode` reads that `decode` never writes: other spellings of the
/// same value. Each goes to the smallest form.
#[test]
fn encode_reads_other_spellings() {
    let cases: &[(&str, &str)] = &[
        (" \n\t[ 1 , 2 ]\r\n ", "92 01 02"),
        ("1.0", "cb 3f f0 00 00 00 00 00 00"),
        ("1e2", "cb 40 59 00 00 00 00 00 00"),
        ("-0", "cb 80 00 00 00 00 00 00 00"),
        ("\"\\u00e9\\ud83d\\udeb2\"", "a6 c3 a9 f0 9f 9a b2"),
        (r#"{"$float32":1}"#, "ca 3f 80 00 00"),
        (r#"{"$float32":-2}"#, "ca c0 00 00 00"),
        (r#"{"$float32":0.1}"#, "ca 3d cc cc cd"),
        (r#"{"$float64":1}"#, "cb 3f f0 00 00 00 00 00 00"),
        (
            r#"{"$float64":18446744073709551615}"#,
            "cb 43 f0 00 00 00 00 00 00",
        ),
        (r#"{"$float64":-1.5}"#, "cb bf f8 00 00 00 00 00 00"),
        (
            r#"{"$timestamp":"2026-11-30T13:00:00.5+01:00"}"#,
            "d7 ff 77 35 94 00 6b 0d 65 40",
        ),
        (
            r#"{"$timestamp":"2026-11-30T12:00:00.500Z"}"#,
            "d7 ff 77 35 94 00 6b 0d 65 40",
        ),
        (
            r#"{"$timestamp":"2026-11-30t12:00:00z"}"#,
            "d6 ff 6b 0d 65 40",
        ),
        (
            r#"{"$timestamp":"1970-01-01T00:00:00-00:00"}"#,
            "d6 ff 00 00 00 00",
        ),
        (r#"{"$map":[]}"#, "80"),
        (r#"{"$map":[["a",1]]}"#, "81 a1 61 01"),
        (
            r#"{"$map":[[{"$timestamp":"1970-01-01T00:00:00Z"},{"$bin":""}]]}"#,
            "81 d6 ff 00 00 00 00 c4 00",
        ),
        (r#"{"$ext":{"data":"AQ==","type":5}}"#, "d4 05 01"),
        // a valid timestamp written as $ext stays as it is written
        (
            r#"{"$ext":{"type":-1,"data":"AAAAAAAAAAA="}}"#,
            "d7 ff 00 00 00 00 00 00 00 00",
        ),
        (
            r#"{"$$bin":1,"$$bin":2}"#,
            "82 a4 24 62 69 6e 01 a4 24 62 69 6e 02",
        ),
        // integers beyond MessagePack's: the nearest float 64 (tags.rs)
        ("18446744073709551616", "cb 43 f0 00 00 00 00 00 00"),
        ("-9223372036854775809", "cb c3 e0 00 00 00 00 00 00"),
    ];
    for (json, bytes) in cases {
        assert_eq!(ok(&["encode"], json.as_bytes()), hex(bytes), "{json}");
    }
}

/// Timestamps not in their smallest form decode to the same text, which
/// encodes to the smallest form.
#[test]
fn timestamps_in_a_longer_form_come_back_smallest() {
    for (long, text, short) in [
        (
            "d7 ff 00 00 00 00 00 00 00 00",
            "1970-01-01T00:00:00Z",
            "d6 ff 00 00 00 00",
        ),
        (
            "c7 0c ff 00 00 00 00 00 00 00 00 6b 0d 65 40",
            "2026-11-30T12:00:00Z",
            "d6 ff 6b 0d 65 40",
        ),
        (
            "c7 0c ff 1d cd 65 00 00 00 00 00 6b 0d 65 40",
            "2026-11-30T12:00:00.5Z",
            "d7 ff 77 35 94 00 6b 0d 65 40",
        ),
    ] {
        let json = ok_text(&["decode"], &hex(long));
        assert_eq!(json, format!("{{\"$timestamp\":\"{text}\"}}\n"));
        assert_eq!(ok(&["encode"], json.as_bytes()), hex(short));
    }
}

#[test]
fn plain_json_for_jq() {
    let cases: &[(&str, &str)] = &[
        ("c0", "null"),
        ("cf ff ff ff ff ff ff ff ff", "18446744073709551615"),
        ("ca 3f c0 00 00", "1.5"),
        ("ca 3d cc cc cd", "0.10000000149011612"),
        ("cb 3f f8 00 00 00 00 00 00", "1.5"),
        ("cb 7f f8 00 00 00 00 00 00", "null"),
        ("cb 7f f0 00 00 00 00 00 00", "null"),
        ("ca ff 80 00 00", "null"),
        ("a3 61 00 62", r#""a\u0000b""#),
        ("c4 03 01 02 03", r#""AQID""#),
        ("d6 ff 00 00 00 00", r#""1970-01-01T00:00:00Z""#),
        (
            "c7 0c ff 3b 9a c9 ff ff ff ff ff ff ff ff ff",
            r#""1969-12-31T23:59:59.999999999Z""#,
        ),
        ("d4 05 01", r#"{"type":5,"data":"AQ=="}"#),
        (
            "c7 0c ff 00 00 00 00 00 00 00 3a ff f4 41 80",
            r#"{"type":-1,"data":"AAAAAAAAADr/9EGA"}"#,
        ),
        ("82 a1 61 01 a1 62 90", r#"{"a":1,"b":[]}"#),
        // keys as their JSON text; bin and timestamps as their string
        ("82 01 a1 78 ff a1 79", r#"{"1":"x","-1":"y"}"#),
        ("83 c3 01 c2 02 c0 03", r#"{"true":1,"false":2,"null":3}"#),
        ("81 92 01 02 01", r#"{"[1,2]":1}"#),
        ("81 81 a1 61 01 02", r#"{"{\"a\":1}":2}"#),
        ("81 cb 3f f8 00 00 00 00 00 00 01", r#"{"1.5":1}"#),
        ("81 c4 01 61 01", r#"{"YQ==":1}"#),
        ("81 d6 ff 00 00 00 00 01", r#"{"1970-01-01T00:00:00Z":1}"#),
        ("81 d4 05 01 01", r#"{"{\"type\":5,\"data\":\"AQ==\"}":1}"#),
        // no escaping of tag-like keys: plain is not read back
        ("81 a4 24 62 69 6e 01", r#"{"$bin":1}"#),
        ("81 a3 24 24 78 01", r#"{"$$x":1}"#),
    ];
    for (bytes, json) in cases {
        assert_eq!(
            ok_text(&["decode", "--plain"], &hex(bytes)),
            format!("{json}\n"),
            "{bytes}"
        );
    }
    // --plain with --lines and --pretty.
    assert_eq!(
        ok_text(&["decode", "--plain", "--lines"], &hex("c4 01 00 81 01 02")),
        "\"AA==\"\n{\"1\":2}\n"
    );
    assert_eq!(
        ok_text(&["decode", "--plain", "--pretty"], &hex("81 01 c4 01 00")),
        "{\n  \"1\": \"AA==\"\n}\n"
    );
}

#[test]
fn pretty_json() {
    let bytes = hex(
        "84 a2 69 64 2a a4 74 61 67 73 92 a1 61 c4 01 00 a4 6d 65 74 61 80 a4 \
         6b 65 79 73 81 01 90",
    );
    assert_eq!(
        ok_text(&["decode", "--pretty"], &bytes),
        r#"{
  "id": 42,
  "tags": [
    "a",
    {
      "$bin": "AA=="
    }
  ],
  "meta": {},
  "keys": {
    "$map": [
      [
        1,
        []
      ]
    ]
  }
}
"#
    );
    assert_eq!(ok_text(&["decode", "--pretty"], &hex("c0")), "null\n");
    assert_eq!(ok_text(&["decode", "--pretty"], &hex("90")), "[]\n");
}

#[test]
fn f32_when_asked_and_exact() {
    let cases: &[(&str, &str)] = &[
        ("1.5", "ca 3f c0 00 00"),
        ("-0.0", "ca 80 00 00 00"),
        ("16777216.0", "ca 4b 80 00 00"),
        ("3.4028234663852886e38", "ca 7f 7f ff ff"),
        // not exact in 32 bits: float 64
        ("0.1", "cb 3f b9 99 99 99 99 99 9a"),
        ("16777217.0", "cb 41 70 00 00 10 00 00 00"),
        ("1e39", "cb 48 07 82 87 f4 9c 4a 1d"),
        ("1e-45", "cb 36 96 d6 01 ad 37 6a b9"),
        // integers stay integers; a $float64 stays float 64
        ("1", "01"),
        ("-1", "ff"),
        (r#"{"$float64":1.5}"#, "cb 3f f8 00 00 00 00 00 00"),
        (r#"{"$float32":0.1}"#, "ca 3d cc cc cd"),
        (
            "[1.5,{\"a\":0.25}]",
            "92 ca 3f c0 00 00 81 a1 61 ca 3e 80 00 00",
        ),
    ];
    for (json, bytes) in cases {
        assert_eq!(
            ok(&["encode", "--f32"], json.as_bytes()),
            hex(bytes),
            "{json}"
        );
    }
    // Without --f32, every JSON float is float 64.
    assert_eq!(ok(&["encode"], b"1.5"), hex("cb 3f f8 00 00 00 00 00 00"));
    // --f32 output reads back tagged, and --lines takes --f32 too.
    let bytes = ok(&["encode", "--f32", "--lines"], b"1.5\n0.5\n");
    assert_eq!(bytes, hex("ca 3f c0 00 00 ca 3f 00 00 00"));
    assert_eq!(
        ok_text(&["decode", "--lines"], &bytes),
        "{\"$float32\":1.5}\n{\"$float32\":0.5}\n"
    );
}

#[test]
fn json_lines() {
    // Blank lines and CRLF endings; a last line without a newline.
    assert_eq!(
        ok(&["encode", "--lines"], b"1\r\n\r\n  \n[2]\n{\"a\":null}"),
        hex("01 91 02 81 a1 61 c0")
    );
    assert_eq!(ok(&["encode", "--lines"], b""), b"");
    assert_eq!(ok(&["decode", "--lines"], b""), b"");
    // Without --lines, encode takes one value over many lines.
    assert_eq!(ok(&["encode"], b"[\n1,\n2\n]\n"), hex("92 01 02"));
}
