//! Bugs these tests found, one test each, named after the bug.

use crate::common::{fails, hex, ok, ok_text};

/// decode streamed its JSON as it read, so invalid input left half a
/// value on stdout (`["x",` before the error); now a value's JSON is
/// written only when whole, and in `--lines` mode every earlier line is.
#[test]
fn decode_wrote_half_a_value_before_an_error() {
    let cases: &[(&[u8], &str)] = &[
        (b"\x92\xa1x\xa1\xff", "invalid UTF-8 in string at offset 3"),
        (b"\x92\x01", "unexpected end of input at offset 2"),
        (b"\x92\x01\xc1", "reserved marker 0xc1 at offset 2"),
        (b"\x01\x02", "trailing bytes after the value at offset 1"),
        (b"\x81\xa1\xff\x01", "invalid UTF-8 in string at offset 1"),
    ];
    for (input, message) in cases {
        let out = fails(&["decode"], input, 1, message);
        assert_eq!(String::from_utf8_lossy(&out), "", "{input:02x?}");
        let out = fails(&["decode", "--pretty"], input, 1, message);
        assert_eq!(String::from_utf8_lossy(&out), "", "{input:02x?}");
    }
    let out = fails(
        &["decode", "--lines"],
        b"\x01\xa1a\x92\xa1x\xa1\xff\x03",
        1,
        "line 3: invalid UTF-8 in string at offset 6",
    );
    assert_eq!(String::from_utf8(out).unwrap(), "1\n\"a\"\n");
}

/// encode used serde_json's recursion limit of 128 JSON levels, which a
/// `$map` reaches at 43 MessagePack levels (three JSON levels each): what
/// decode wrote, encode refused. Both now stop at 512 MessagePack levels.
#[test]
fn encode_refused_what_decode_wrote_past_128_json_levels() {
    for depth in [127, 128, 129, 200, 512] {
        for (open, name) in [
            ("91", "arrays"),
            ("81 01", "int-keyed maps"),
            ("81 a1 61", "maps"),
        ] {
            let mut bytes = hex(&open.repeat(depth));
            bytes.push(0xc0);
            let json = ok(&["decode"], &bytes);
            assert_eq!(ok(&["encode"], &json), bytes, "{depth} nested {name}");
        }
    }
    let mut too_deep = vec![0x91; 513];
    too_deep.push(0xc0);
    fails(
        &["decode"],
        &too_deep,
        1,
        "nesting exceeds the depth limit of 512 at offset 512",
    );
    let json = format!("{}{}", "[".repeat(513), "]".repeat(513));
    fails(
        &["encode"],
        json.as_bytes(),
        1,
        "nesting exceeds the depth limit of 512 at offset 513",
    );
    let json = format!("{}{}", r#"{"$map":[[1,"#.repeat(513), "]]}".repeat(513));
    let out = run_fails_quietly(&json);
    assert!(
        out.starts_with("msgpack: nesting exceeds the depth limit of 512 at offset "),
        "{out}"
    );
    // No stack overflow on JSON nested far deeper.
    let json = "[".repeat(100_000);
    fails(
        &["encode"],
        json.as_bytes(),
        1,
        "nesting exceeds the depth limit of 512 at offset 512",
    );
}

fn run_fails_quietly(json: &str) -> String {
    let output = crate::common::run(&["encode"], json.as_bytes());
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    String::from_utf8(output.stderr).unwrap()
}

/// serde_json parses floats to within an ulp unless `float_roundtrip` is
/// on: about one float 64 in three read back different from what decode
/// wrote.
#[test]
fn encode_changed_the_last_bit_of_float64s() {
    for value in [
        2.7715077941825975e-163,
        2.2790121708605243e274,
        4.026380313612261e293,
        f64::MIN_POSITIVE,
        f64::EPSILON,
        1.0 / 3.0,
    ] {
        let mut bytes = vec![0xcb];
        bytes.extend(f64::to_be_bytes(value));
        let json = ok(&["decode"], &bytes);
        assert_eq!(ok(&["encode"], &json), bytes, "{value:e}");
    }
}

/// Timestamps went through jiff's `Timestamp`, which ends at
/// 9999-12-30T22:00:00.999999999Z: the last day of the year 9999 came out
/// as `$ext` and encode refused its RFC 3339 form.
#[test]
fn the_last_day_of_9999_was_no_timestamp() {
    // seconds 253402300799, nanoseconds 999999999: timestamp 96.
    let bytes = hex("c7 0c ff 3b 9a c9 ff 00 00 00 3a ff f4 41 7f");
    let json = r#"{"$timestamp":"9999-12-31T23:59:59.999999999Z"}"#;
    assert_eq!(ok_text(&["decode"], &bytes), format!("{json}\n"));
    assert_eq!(ok(&["encode"], json.as_bytes()), bytes);
    assert_eq!(
        ok(
            &["encode"],
            br#"{"$timestamp":"9999-12-31T23:59:59.999999999+00:00"}"#
        ),
        bytes
    );
}

/// A `$map` entry of one element was reported as "invalid length 0".
#[test]
fn a_short_map_entry_reported_length_0() {
    for (json, message) in [
        (
            r#"{"$map":[[1]]}"#,
            "invalid length 1, expected a [key, value] pair at offset 11",
        ),
        (
            r#"{"$map":[[]]}"#,
            "invalid length 0, expected a [key, value] pair at offset 10",
        ),
        (
            r#"{"$map":[[1,2,3,4]]}"#,
            "invalid length 4, expected a [key, value] pair at offset 17",
        ),
    ] {
        fails(&["encode"], json.as_bytes(), 1, message);
    }
}

/// `inspect --summary` counted a key's bytes under its map's path only,
/// not under its value's, which the summary's definition (a value, its key
/// and everything in it) promises: `$.items[].name` left out 8 × 5 bytes of
/// "name" keys, which are what a named encoding spends.
#[test]
fn summary_left_keys_out_of_their_values_paths() {
    // {"ab": 1, "c": [1, 2]}
    assert_eq!(
        ok_text(
            &["inspect", "--summary"],
            &hex("82 a2 61 62 01 a1 63 92 01 02")
        ),
        "     bytes   share    count  path
        10  100.0%        1  $
         5   50.0%        1  $.c
         4   40.0%        1  $.ab
         2   20.0%        2  $.c[]

     bytes   share    count  type
         5   50.0%        2  str
         3   30.0%        3  int
         1   10.0%        1  array (headers)
         1   10.0%        1  map (headers)
"
    );
}

/// `inspect` cut long items' hex with a `…` one column past the hex
/// column, pushing those lines' formats one place right of the others; and
/// it wrote floats with `Display`, so `f64::MAX` took 309 digits and `1.0`
/// read as the integer `1`.
#[test]
fn inspect_misaligned_cut_hex_and_wrote_309_digit_floats() {
    // ["twelve chars", f64::MAX, 1.0, float 32 0.1]
    let bytes = hex(
        "94 ac 74 77 65 6c 76 65 20 63 68 61 72 73 cb 7f ef ff ff ff ff ff ff \
         cb 3f f0 00 00 00 00 00 00 ca 3d cc cc cd",
    );
    assert_eq!(
        ok_text(&["inspect"], &bytes),
        "\
000000  94                               fixarray(4)
000001  ac 74 77 65 6c 76 65 20 63 68 …    fixstr(12) \"twelve chars\"
000014  cb 7f ef ff ff ff ff ff ff         float64 1.7976931348623157e308
000023  cb 3f f0 00 00 00 00 00 00         float64 1.0
000032  ca 3d cc cc cd                     float32 0.1
"
    );
}

/// `decode --plain` wrote a bin or timestamp key as its JSON text, quotes
/// and all (`{"\"YQ==\"":1}`), where plain JSON has the string itself.
#[test]
fn plain_keys_of_bin_and_timestamps_were_quoted_twice() {
    assert_eq!(
        ok_text(
            &["decode", "--plain"],
            &hex("82 c4 01 61 01 d6 ff 00 00 00 00 02")
        ),
        "{\"YQ==\":1,\"1970-01-01T00:00:00Z\":2}\n"
    );
}

/// `validate --lines` checked `--max-bytes` only against a value still
/// arriving, not one already whole in the buffer: `[1, 2, 3]` passed a
/// limit of 3 bytes.
#[test]
fn validate_lines_let_whole_values_past_max_bytes() {
    fails(
        &["validate", "--lines", "--max-bytes", "3"],
        &hex("01 93 01 02 03 01"),
        1,
        "line 2: value exceeds the size limit of 3 bytes at offset 4",
    );
    assert_eq!(
        ok_text(
            &["validate", "--lines", "--max-bytes", "4"],
            &hex("01 93 01 02 03 01")
        ),
        "valid: 3 values, 6 bytes\n"
    );
}

/// `inspect --summary` added every item's bytes to each of its ancestors'
/// paths, cloning their text: time cubic in the depth (3,000 nested arrays,
/// 3 KB, took 34 s). A container's bytes are now its span, taken when it
/// closes, and nesting stops at 512 levels, as in decode.
#[test]
fn summary_took_cubic_time_in_the_depth() {
    // 500 nested arrays around 5,000 integers.
    let mut bytes = vec![0x91; 500];
    bytes.extend(hex("dc 13 88"));
    bytes.extend([0x01; 5000]);
    let started = std::time::Instant::now();
    let text = ok_text(&["inspect", "--summary"], &bytes);
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[1], "      5503  100.0%        1  $");
    assert_eq!(lines[2], "      5502  100.0%        1  $[]");
    let deepest = format!("      5000   90.9%     5000  ${}", "[]".repeat(501));
    assert!(lines.contains(&deepest.as_str()), "{text}");
    assert_eq!(lines.len(), 1 + 502 + 1 + 1 + 2);

    let mut deep = vec![0x91; 100_000];
    deep.push(0xc0);
    fails(
        &["inspect", "--summary"],
        &deep,
        1,
        "nesting exceeds the depth limit of 512 at offset 512",
    );
}

/// `inspect` indents each line by its depth, so 100 KB of nested arrays
/// printed 10 GB. It stops at 512 levels now, unless --max-depth collapses
/// them first.
#[test]
fn inspect_printed_gigabytes_for_deep_nesting() {
    let mut deep = vec![0x91; 100_000];
    deep.push(0xc0);
    let out = fails(
        &["inspect"],
        &deep,
        1,
        "nesting exceeds the depth limit of 512 at offset 512 (--max-depth collapses it)",
    );
    assert_eq!(String::from_utf8(out).unwrap().lines().count(), 512);
    let shown = ok_text(&["inspect", "--max-depth", "1"], &deep);
    assert_eq!(
        shown,
        "\
000000  91                               fixarray(1)
000001  91                                 fixarray(1) … 1 collapsed, 99999 bytes
"
    );
}

/// `inspect --max-depth` collapsed an empty array or map at the limit by
/// skipping "the rest" of the innermost open container, which for an empty
/// one is its parent: its siblings vanished (`{"a": {}, "b": 1}` showed
/// no "b").
#[test]
fn inspect_max_depth_hid_the_siblings_of_an_empty_container() {
    assert_eq!(
        ok_text(
            &["inspect", "--max-depth", "1"],
            &hex("82 a1 61 80 a1 62 91 01")
        ),
        "\
000000  82                               fixmap(2)
000001  a1 61 80                           \"a\": fixmap(0)
000004  a1 62 91                           \"b\": fixarray(1) … 1 collapsed, 1 bytes
"
    );
    assert_eq!(
        ok_text(&["inspect", "--max-depth", "1"], &hex("93 90 01 02")),
        "\
000000  93                               fixarray(3)
000001  90                                 fixarray(0)
000002  01                                 fixint 1
000003  02                                 fixint 2
"
    );
}

/// `inspect` printed an array or map used as a map key on lines of its
/// own, like any element, and its value without its key: nothing told the
/// key from the value. They are marked `(key)` and `(value)` now.
#[test]
fn inspect_did_not_tell_a_container_key_from_its_value() {
    // {[1, 2]: "x", {1: 2}: [3]}
    assert_eq!(
        ok_text(&["inspect"], &hex("82 92 01 02 a1 78 81 01 02 91 03")),
        "\
000000  82                               fixmap(2)
000001  92                                 (key) fixarray(2)
000002  01                                   fixint 1
000003  02                                   fixint 2
000004  a1 78                              (value) fixstr(1) \"x\"
000006  81                                 (key) fixmap(1)
000007  01 02                                1: fixint 2
000009  91                                 (value) fixarray(1)
000010  03                                   fixint 3
"
    );
}

/// `{"$float32": 1e39}` wrote float 32 infinity: a number that float 32
/// cannot hold became another number. It is an error now; numbers within
/// the range are rounded to the nearest float 32 as before.
#[test]
fn a_float32_beyond_its_range_became_infinity() {
    for (json, message) in [
        (
            r#"{"$float32":1e39}"#,
            "invalid $float32: 1e39 is beyond float 32's range at offset 16",
        ),
        (
            r#"{"$float32":-3.5e38}"#,
            "invalid $float32: -3.5e38 is beyond float 32's range at offset 19",
        ),
    ] {
        fails(&["encode"], json.as_bytes(), 1, message);
    }
    assert_eq!(
        ok(&["encode"], br#"{"$float32":3.4028235e38}"#),
        hex("ca 7f 7f ff ff")
    );
    assert_eq!(
        ok(&["encode"], br#"{"$float32":1e-50}"#),
        hex("ca 00 00 00 00")
    );
    assert_eq!(
        ok(&["encode"], br#"{"$float32":"-Infinity"}"#),
        hex("ca ff 80 00 00")
    );
}

/// encode checked the depth before it knew an object was a tag: a bin,
/// ext, timestamp or float 32 at the deepest level decode writes (512
/// containers around it) came out of decode and was refused by encode.
#[test]
fn encode_refused_a_tagged_value_at_the_depth_limit() {
    for leaf in [
        &b"\xc4\x01\x00"[..],
        b"\xd4\x05\x01",
        b"\xd6\xff\x00\x00\x00\x01",
        b"\xca\x3f\xc0\x00\x00",
    ] {
        let mut bytes = vec![0x91; 512];
        bytes.extend_from_slice(leaf);
        let json = ok(&["decode"], &bytes);
        assert_eq!(ok(&["encode"], &json), bytes, "{leaf:02x?}");
    }
}
