//! `--schema` on `decode`, `encode` and `inspect`: names instead of tags,
//! unknown tags kept as "#N", back to the exact bytes; a value that does
//! not match the schema is one error line with its offset and path.

use std::path::{Path, PathBuf};

use crate::common::{fails, msgpack, ok, ok_text};

const ACCOUNT: &str = r##"{"root":"Account","types":{
  "Account":{"kind":"struct","layout":"map","unknown":true,"fields":[
    {"name":"id","tag":1,"shape":"int","presence":"required"},
    {"name":"customer","tag":2,"shape":"str","presence":"required"},
    {"name":"status","tag":3,"shape":{"named":"Status"},"presence":"required"}]},
  "Status":{"kind":"enum","variants":[
    {"name":"Active","tag":1,"payload":"unit"},
    {"name":"Moved","tag":2,"payload":{"newtype":"str"}}]}}}"##;

/// `{1: 42, 2: "Ada", 3: 1, 9: true}`: tag 9 is no field of Account.
const TAGGED: &[u8] = b"\x84\x01\x2a\x02\xa3Ada\x03\x01\x09\xc3";

fn schema_file(dir: &tempfile::TempDir) -> String {
    let path = dir.path().join("account.json");
    std::fs::write(&path, ACCOUNT).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn decode_writes_names_and_encode_takes_them_back_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let schema = schema_file(&dir);
    let json = ok_text(&["decode", "--schema", &schema], TAGGED);
    assert_eq!(
        json,
        "{\"id\":42,\"customer\":\"Ada\",\"status\":\"Active\",\"#9\":true}\n"
    );
    assert_eq!(
        ok(&["encode", "--schema", &schema], json.as_bytes()),
        TAGGED
    );
    // A data variant, by name too.
    let moved = b"\x83\x01\x07\x02\xa2Bo\x03\x81\x02\xa4Oslo";
    let json = ok_text(&["decode", "--schema", &schema], moved);
    assert_eq!(
        json,
        "{\"id\":7,\"customer\":\"Bo\",\"status\":{\"Moved\":\"Oslo\"}}\n"
    );
    assert_eq!(ok(&["encode", "--schema", &schema], json.as_bytes()), moved);
    // Keyed by names, as the derive also reads it: the same names.
    let by_name = b"\x83\xa2id\x07\xa8customer\xa2Bo\xa6status\x81\xa5Moved\xa4Oslo";
    assert_eq!(ok_text(&["decode", "--schema", &schema], by_name), json);
    // One value a line, both ways.
    let two = [TAGGED, &moved[..]].concat();
    let lines = ok_text(&["decode", "--lines", "--schema", &schema], &two);
    assert_eq!(
        ok(
            &["encode", "--lines", "--schema", &schema],
            lines.as_bytes()
        ),
        two
    );
}

#[test]
fn inspect_names_each_tag() {
    let dir = tempfile::tempdir().unwrap();
    let schema = schema_file(&dir);
    let text = ok_text(
        &["inspect", "--color", "never", "--schema", &schema],
        TAGGED,
    );
    assert_eq!(
        text,
        "000000  84                               fixmap(4)\n\
         000001  01 2a                              id (tag 1): fixint 42\n\
         000003  02 a3 41 64 61                     customer (tag 2): fixstr(3) \"Ada\"\n\
         000008  03 01                              status (tag 3): fixint 1 (Active)\n\
         000010  09 c3                              unknown (tag 9): true\n"
    );
}

#[test]
fn a_value_that_does_not_match_the_schema_is_one_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let schema = schema_file(&dir);
    // A key the derive would skip, which could not come back from names.
    fails(
        &["decode", "--schema", &schema],
        b"\x81\xa1a\x01",
        1,
        "Account: a key that is neither a tag nor a name (`a`) at offset 1, at $",
    );
    fails(
        &["decode", "--schema", &schema],
        b"\x81\xff\x01",
        1,
        "Account: a key that is neither a tag nor a name (-1) at offset 1, at $",
    );
    fails(
        &["decode", "--schema", &schema],
        b"\x81\x03\xa4Gone",
        1,
        "Status: a key that is neither a tag nor a name (`Gone`) at offset 2, at $.status",
    );
    // A bare tag (or name) of a variant that carries data, as in Rust.
    fails(
        &["decode", "--schema", &schema],
        b"\x81\x03\x02",
        1,
        "Status: variant `Moved` carries data at offset 2, at $.status",
    );
    fails(
        &["encode", "--schema", &schema],
        br#"{"id": 1, "customer": "A", "status": "Moved"}"#,
        1,
        "Status: variant `Moved` carries data, at $.status",
    );
    fails(
        &["decode", "--schema", &schema],
        b"\x81\x03\xc3",
        1,
        "Status: expected a variant, found a bool at offset 2, at $.status",
    );
    fails(
        &["inspect", "--schema", &schema],
        b"\x92\x01\x02",
        1,
        "Account: expected a struct, found an array at offset 0, at $",
    );
    fails(
        &["encode", "--schema", &schema],
        br#"{"id": 1, "nope": 2}"#,
        1,
        "Account has no field `nope`, at $.nope",
    );
    fails(
        &["encode", "--schema", &schema],
        br#"{"id": 1, "customer": "x", "status": "Paused"}"#,
        1,
        "Status has no variant `Paused`, at $.status",
    );
    // A leaf of another type, and a required field absent, both ways.
    fails(
        &["decode", "--schema", &schema],
        b"\x83\x01\xa1x\x02\xa3Ada\x03\x01",
        1,
        "expected an integer (int), found a string at offset 2, at $.id",
    );
    fails(
        &["decode", "--schema", &schema],
        b"\x82\x01\x2a\x03\x01",
        1,
        "Account: missing field `customer` (tag 2) at offset 0, at $",
    );
    fails(
        &["encode", "--schema", &schema],
        br#"{"id": 1, "customer": 5, "status": "Active"}"#,
        1,
        "expected a string, found an integer, at $.customer",
    );
    fails(
        &["encode", "--schema", &schema],
        br#"{"id": 1, "status": "Active"}"#,
        1,
        "Account: missing field `customer` (tag 2), at $",
    );
    // A tag twice, known or not, as Rust's derive refuses it.
    fails(
        &["decode", "--schema", &schema],
        b"\x84\x01\x2a\x02\xa3Ada\x03\x01\x01\x07",
        1,
        "Account: duplicate field `id` (tag 1) at offset 10, at $",
    );
    fails(
        &["decode", "--schema", &schema],
        b"\x85\x01\x2a\x02\xa3Ada\x03\x01\x09\xc0\x09\xc3",
        1,
        "Account: duplicate field with tag 9 at offset 12, at $",
    );
    // A struct without unknown fields skips them, repeated or not, and
    // so do decode and encode.
    let skips = dir.path().join("skips.json");
    std::fs::write(&skips, ACCOUNT.replace(r#""unknown":true,"#, "")).unwrap();
    let skips = skips.to_str().unwrap();
    let twice = b"\x85\x01\x2a\x02\xa3Ada\x03\x01\x09\xc0\x09\xc3";
    let json = ok_text(&["decode", "--schema", skips], twice);
    assert_eq!(
        json,
        "{\"id\":42,\"customer\":\"Ada\",\"status\":\"Active\",\"#9\":null,\"#9\":true}\n"
    );
    assert_eq!(ok(&["encode", "--schema", skips], json.as_bytes()), twice);
    fails(
        &["encode", "--schema", &schema],
        br#"{"id": 1, "customer": "Ada", "status": "Active", "id": 2}"#,
        1,
        "Account: duplicate field `id` (tag 1), at $",
    );
    let not_schema = dir.path().join("not-a-schema.json");
    std::fs::write(&not_schema, "{}").unwrap();
    let not_schema = not_schema.to_str().unwrap();
    let output = msgpack()
        .args(["decode", "--schema", not_schema])
        .write_stdin(TAGGED)
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with(&format!("msgpack: {not_schema}: not a schema document: ")),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// Integers are checked against their Rust type's range, and a float
/// given in JSON as an integer is written as the Rust type writes it.
#[test]
fn integers_are_checked_and_floats_written_at_their_width() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("reading.json");
    std::fs::write(
        &schema,
        r#"{"root":"Reading","types":{"Reading":{"kind":"struct","layout":"map","fields":[
          {"name":"level","tag":1,"shape":"u8","presence":"required"},
          {"name":"ratio","tag":2,"shape":"float","presence":"required"},
          {"name":"weight","tag":3,"shape":"f32","presence":"required"}]}}}"#,
    )
    .unwrap();
    let schema = schema.to_str().unwrap();
    fails(
        &["decode", "--schema", schema],
        b"\x83\x01\xcd\x01\x2c\x02\x00\x03\x00",
        1,
        "300 is out of range for u8 at offset 2, at $.level",
    );
    assert_eq!(
        ok(
            &["encode", "--schema", schema],
            br#"{"level": 3, "ratio": 2, "weight": 1}"#
        ),
        b"\x83\x01\x03\x02\xcb\x40\x00\x00\x00\x00\x00\x00\x00\x03\xca\x3f\x80\x00\x00"
    );
    // Rust reads an integer into a float: so does decode.
    assert_eq!(
        ok_text(
            &["decode", "--schema", schema],
            b"\x83\x01\x03\x02\x02\x03\x01"
        ),
        "{\"level\":3,\"ratio\":2,\"weight\":1}\n"
    );
}

/// A recursive type nests as deep as its input: bounded, never a stack
/// overflow.
#[test]
fn a_recursive_type_nested_too_deep_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("node.json");
    std::fs::write(
        &schema,
        r#"{"root":"Node","types":{"Node":{"kind":"struct","layout":"map","fields":[
          {"name":"next","tag":1,"shape":{"optional":{"named":"Node"}},"presence":"optional"}]}}}"#,
    )
    .unwrap();
    let schema = schema.to_str().unwrap();
    // {1: {1: {1: ... {}}}}, 100 000 deep.
    let mut bytes = b"\x81\x01".repeat(100_000);
    bytes.push(0x80);
    let output = msgpack()
        .args(["decode", "--schema", schema])
        .write_stdin(bytes)
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with(
            "msgpack: nesting exceeds the depth limit of 512 at offset 1024, at $.next.next"
        ),
        "{stderr}"
    );
}

/// The workspace's `tests/generated`: the family's schema and samples of
/// its values that the cross-language tests commit.
fn generated() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/generated")
}

#[test]
fn every_rule_of_the_derive_survives_decode_and_encode_by_name() {
    let schema = generated().join("schemas/everything.json");
    let schema = schema.to_str().unwrap();
    let samples = std::fs::read_to_string(generated().join("samples/everything.hex")).unwrap();
    for line in samples.lines() {
        let bytes: Vec<u8> = (0..line.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&line[i..i + 2], 16).unwrap())
            .collect();
        let json = ok_text(&["decode", "--schema", schema], &bytes);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert!(
            value["id"].is_u64() && value["point"]["x"].is_i64(),
            "{json}"
        );
        assert_eq!(
            ok(&["encode", "--schema", schema], json.as_bytes()),
            bytes,
            "{json}"
        );
    }
}

/// A timestamp's data and the bytes of an array given for bytes are
/// checked as the Rust types read them.
#[test]
fn timestamps_and_bytes_are_checked_as_rust_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("event.json");
    std::fs::write(
        &schema,
        r#"{"root":"Event","types":{"Event":{"kind":"struct","layout":"map","fields":[
          {"name":"at","tag":1,"shape":"timestamp","presence":"optional"},
          {"name":"blob","tag":2,"shape":"bytes","presence":"optional"}]}}}"#,
    )
    .unwrap();
    let schema = schema.to_str().unwrap();
    // Nanoseconds 0x3fffffff, past 999,999,999.
    fails(
        &["decode", "--schema", schema],
        b"\x81\x01\xd7\xff\xff\xff\xff\xff\x00\x00\x00\x00",
        1,
        "invalid timestamp at offset 2, at $.at",
    );
    fails(
        &["decode", "--schema", schema],
        b"\x81\x01\xd5\xff\x00\x00",
        1,
        "invalid timestamp at offset 2, at $.at",
    );
    fails(
        &["decode", "--schema", schema],
        b"\x81\x02\x93\x01\x02\xcd\x01\x2c",
        1,
        "300 is out of range for u8 at offset 5, at $.blob[2]",
    );
    assert_eq!(
        ok_text(&["decode", "--schema", schema], b"\x81\x02\x92\x01\x02"),
        "{\"blob\":[1,2]}\n"
    );
    // Rust reads bytes from a str too (the old raw type).
    assert_eq!(
        ok_text(&["decode", "--schema", schema], b"\x81\x02\xa2hi"),
        "{\"blob\":\"hi\"}\n"
    );
}

/// An array struct's unknown field far past its fields' tags is refused,
/// not written as a run of nils (the largest tag overflowed).
#[test]
fn encode_refuses_a_tag_too_far_for_an_array() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("point.json");
    std::fs::write(
        &schema,
        r#"{"root":"P","types":{"P":{"kind":"struct","layout":"array","unknown":true,"fields":[
          {"name":"x","tag":0,"shape":"i32","presence":"required"}]}}}"#,
    )
    .unwrap();
    let schema = schema.to_str().unwrap();
    for tag in ["65", "18446744073709551615"] {
        fails(
            &["encode", "--schema", schema],
            format!(r##"{{"x": 1, "#{tag}": 1}}"##).as_bytes(),
            1,
            &format!(
                "P: tag {tag} is more than 64 past the last field's, too far for an array, at $"
            ),
        );
    }
    let mut near = vec![0xdc, 0x00, 0x41, 0x01];
    near.extend([0xc0; 63]);
    near.push(0x07);
    assert_eq!(
        ok(&["encode", "--schema", schema], br##"{"x": 1, "#64": 7}"##),
        near
    );
    // Read from a map, it drops what the derive drops: an unknown field
    // far past its tags, and one that is nil (a gap in its array).
    let json = ok_text(
        &["decode", "--schema", schema],
        b"\x84\x00\x01\x41\x07\x05\xc0\x06\x02",
    );
    assert_eq!(json, "{\"x\":1,\"#6\":2}\n");
    assert_eq!(
        ok(&["encode", "--schema", schema], json.as_bytes()),
        b"\x97\x01\xc0\xc0\xc0\xc0\xc0\x02"
    );
}

/// In an array struct, nil is a gap, except at a field always written
/// whose type reads nil (`Value`, an `Option` with `default = "path"`, a
/// unit struct): there it is the value, as Rust's derive reads it.
#[test]
fn nil_in_an_array_is_the_value_of_a_field_always_written() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("row.json");
    std::fs::write(
        &schema,
        r#"{"root":"Row","types":{
          "Row":{"kind":"struct","layout":"array","fields":[
            {"name":"id","tag":0,"shape":"u8","presence":"required"},
            {"name":"note","tag":1,"shape":{"optional":"str"},"presence":"optional"},
            {"name":"extra","tag":2,"shape":"value","presence":"required"},
            {"name":"hint","tag":3,"shape":{"optional":"i32"},"presence":"default","default":"05"},
            {"name":"mark","tag":4,"shape":{"named":"Mark"},"presence":"required"},
            {"name":"count","tag":5,"shape":"u8","presence":"default","default":"00"},
            {"name":"cap","tag":6,"shape":{"optional":"i32"},"presence":"default","omit_default":true,"default":"05"}]},
          "Mark":{"kind":"struct","layout":"map","fields":[],"unit":true}}}"#,
    )
    .unwrap();
    let schema = schema.to_str().unwrap();
    // [7, nil, nil, nil, nil, nil]
    let row = b"\x96\x07\xc0\xc0\xc0\xc0\xc0";
    let json = ok_text(&["decode", "--schema", schema], row);
    assert_eq!(
        json,
        "{\"id\":7,\"extra\":null,\"hint\":null,\"mark\":null}\n"
    );
    // Written back without the gaps: `count` and `note` were absent.
    assert_eq!(
        ok(&["encode", "--schema", schema], json.as_bytes()),
        b"\x95\x07\xc0\xc0\xc0\xc0"
    );
    // `cap` is left out (nil) at its default, `Some(5)`: `None` cannot be
    // written, as the derive refuses it.
    fails(
        &["encode", "--schema", schema],
        br#"{"id": 7, "extra": null, "hint": null, "mark": null, "cap": null}"#,
        1,
        "Row: field `cap` (tag 6) is not its default but writes nil, which an #[msgpack(array)] struct reads as the field left out, at $",
    );
    // Where a required field's type does not read nil, nil is still a gap.
    fails(
        &["decode", "--schema", schema],
        b"\x95\xc0\xc0\xc0\xc0\xc0",
        1,
        "Row: missing field `id` (tag 0) at offset 0, at $",
    );
}

/// A known tag written as `"#N"` would skip its field's or variant's
/// checks: encode asks for the name.
#[test]
fn encode_asks_for_the_name_of_a_known_tag() {
    let dir = tempfile::tempdir().unwrap();
    let schema = schema_file(&dir);
    fails(
        &["encode", "--schema", &schema],
        br##"{"#1": "not an int", "customer": "A", "status": "Active"}"##,
        1,
        "Account: `#1` is the tag of field `id`: use its name, at $.#1",
    );
    fails(
        &["encode", "--schema", &schema],
        br##"{"id": 1, "customer": "A", "status": "#2"}"##,
        1,
        "Status: `#2` is the tag of variant `Moved`: use its name, at $.status",
    );
}
