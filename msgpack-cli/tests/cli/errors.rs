//! Every error path: its exact one-line message on stderr, its exit code
//! (1 invalid data, 2 usage or I/O), what was written before it, and that
//! no input makes the binary panic.

use crate::common::{fails, hex, msgpack, ok, ok_text, run};

/// Invalid JSON, and tagged forms that are not what their tag says, with
/// the byte offset of the problem.
#[test]
fn encode_errors() {
    let cases: &[(&str, &str)] = &[
        // not JSON
        ("", "EOF while parsing a value at offset 0"),
        ("   ", "EOF while parsing a value at offset 2"),
        ("nul", "EOF while parsing a value at offset 2"),
        (r#"{"a":1,}"#, "trailing comma at offset 7"),
        ("[1,2", "EOF while parsing a list at offset 3"),
        ("[1 2]", "expected `,` or `]` at offset 3"),
        ("1 2", "trailing characters at offset 2"),
        ("[1,\n2,\n}", "expected value at offset 7"),
        ("{1:2}", "key must be a string at offset 1"),
        ("{'a':1}", "key must be a string at offset 1"),
        (r#""\x""#, "invalid escape at offset 2"),
        (r#""abc"#, "EOF while parsing a string at offset 3"),
        ("1e400", "number out of range at offset 4"),
        // $bin
        (
            r#"{"$bin":"!!"}"#,
            "invalid $bin: invalid base64: Invalid symbol 33, offset 0. at offset 12",
        ),
        (
            r#"{"$bin":"AAA"}"#,
            "invalid $bin: invalid base64: Invalid padding at offset 13",
        ),
        (r#"{"$bin":1}"#, "invalid type: integer `1`, expected a string at offset 8"),
        (r#"{"$bin":null}"#, "invalid type: null, expected a string at offset 11"),
        (
            r#"{"$bin":"AA==","x":1}"#,
            "$bin must be the only key of its object (write a key $bin of an ordinary object as $$bin) at offset 17",
        ),
        (
            r#"{"a":[{"$bin":"AA==","b":1}]}"#,
            "$bin must be the only key of its object (write a key $bin of an ordinary object as $$bin) at offset 23",
        ),
        // $ext
        (r#"{"$ext":{"type":5}}"#, "missing field `data` at offset 17"),
        (r#"{"$ext":{"data":""}}"#, "missing field `type` at offset 18"),
        (
            r#"{"$ext":{"type":500,"data":""}}"#,
            "invalid value: integer `500`, expected i8 at offset 18",
        ),
        (
            r#"{"$ext":{"type":-129,"data":""}}"#,
            "invalid value: integer `-129`, expected i8 at offset 19",
        ),
        (
            r#"{"$ext":{"type":1.5,"data":""}}"#,
            "invalid type: floating point `1.5`, expected i8 at offset 18",
        ),
        (
            r#"{"$ext":{"type":5,"data":"","x":1}}"#,
            "unknown field `x`, expected `type` or `data` at offset 30",
        ),
        (
            r#"{"$ext":{"type":5,"data":"@"}}"#,
            "invalid $ext: invalid base64: Invalid symbol 64, offset 0. at offset 29",
        ),
        (
            r#"{"$ext":"AQ=="}"#,
            "invalid type: string \"AQ==\", expected an object {\"type\": -128 to 127, \"data\": base64} at offset 13",
        ),
        // $timestamp
        (
            r#"{"$timestamp":"yesterday"}"#,
            "invalid $timestamp: invalid RFC 3339 timestamp \"yesterday\": failed to parse four digit integer as year: invalid digit, expected 0-9 but got y at offset 25",
        ),
        (
            r#"{"$timestamp":"2026-11-30"}"#,
            "invalid $timestamp: invalid RFC 3339 timestamp \"2026-11-30\": a time and an offset (such as Z) are required at offset 26",
        ),
        (
            r#"{"$timestamp":"2026-11-30T12:00:00"}"#,
            "invalid $timestamp: invalid RFC 3339 timestamp \"2026-11-30T12:00:00\": a time and an offset (such as Z) are required at offset 35",
        ),
        (
            r#"{"$timestamp":"10000-01-01T00:00:00Z"}"#,
            "invalid $timestamp: invalid RFC 3339 timestamp \"10000-01-01T00:00:00Z\": failed to parse two digit integer as month: invalid digit, expected 0-9 but got - at offset 37",
        ),
        (r#"{"$timestamp":5}"#, "invalid type: integer `5`, expected a string at offset 14"),
        // $map
        (
            r#"{"$map":{}}"#,
            "invalid type: map, expected an array of [key, value] pairs at offset 7",
        ),
        (
            r#"{"$map":[1]}"#,
            "invalid type: integer `1`, expected a [key, value] pair at offset 9",
        ),
        (
            r#"{"$map":[[1]]}"#,
            "invalid length 1, expected a [key, value] pair at offset 11",
        ),
        (
            r#"{"$map":[[1,2]],"$bin":""}"#,
            "$map must be the only key of its object (write a key $map of an ordinary object as $$map) at offset 21",
        ),
        // $float32, $float64
        (
            r#"{"$float32":"nan"}"#,
            "invalid value: string \"nan\", expected a number, \"NaN\", \"Infinity\" or \"-Infinity\" at offset 16",
        ),
        (
            r#"{"$float64":"inf"}"#,
            "invalid value: string \"inf\", expected a number, \"NaN\", \"Infinity\" or \"-Infinity\" at offset 16",
        ),
        (
            r#"{"$float64":true}"#,
            "invalid type: boolean `true`, expected a number, \"NaN\", \"Infinity\" or \"-Infinity\" at offset 15",
        ),
        (
            r#"{"$float32":null}"#,
            "invalid type: null, expected a number, \"NaN\", \"Infinity\" or \"-Infinity\" at offset 15",
        ),
    ];
    // Every row checked, every mismatch listed.
    let mut wrong = Vec::new();
    for (json, message) in cases {
        let output = run(&["encode"], json.as_bytes());
        let stderr = String::from_utf8_lossy(&output.stderr);
        let expected = format!("msgpack: {message}\n");
        if output.status.code() != Some(1) || stderr != expected || !output.stdout.is_empty() {
            wrong.push(format!(
                "{json}\n  gave {:?} {stderr:?}",
                output.status.code()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Not UTF-8.
    fails(
        &["encode"],
        b"\"\xff\"",
        1,
        "invalid unicode code point at offset 1",
    );
}

/// `--lines`: the line number, the offset in the whole input, and every
/// line before the bad one written.
#[test]
fn encode_lines_stops_at_the_bad_line() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.jsonl");
    let output = dir.path().join("out.msgpack");
    std::fs::write(&input, "1\n\n[2]\n{\"a\":}\n4\n").unwrap();
    let (input, output) = (input.to_str().unwrap(), output.to_str().unwrap());
    let out = fails(
        &["encode", "--lines", input],
        b"",
        1,
        "line 4: expected value at offset 12",
    );
    assert_eq!(out, hex("01 91 02"));
    fails(
        &["encode", "--lines", input, "-o", output],
        b"",
        1,
        "line 4: expected value at offset 12",
    );
    assert_eq!(std::fs::read(output).unwrap(), hex("01 91 02"));
    for (jsonl, message) in [
        ("1\n[\n3", "line 2: EOF while parsing a list at offset 4"),
        ("1\n2 3\n", "line 2: trailing characters at offset 4"),
        (
            "{\"$bin\":\"AA==\"}\n{\"$bin\":\"!\"}\n",
            "line 2: invalid $bin: invalid base64: Invalid symbol 33, offset 0. at offset 27",
        ),
    ] {
        fails(&["encode", "--lines"], jsonl.as_bytes(), 1, message);
    }
    fails(
        &["encode", "--lines"],
        b"1\n\"\xff\"\n",
        1,
        "line 2: invalid unicode code point at offset 3",
    );
    // A value over two lines is two bad lines in --lines mode.
    fails(
        &["encode", "--lines"],
        b"[1,\n2]\n",
        1,
        "line 1: EOF while parsing a value at offset 4",
    );
}

/// Truncated MessagePack, the reserved byte, invalid UTF-8, trailing bytes.
#[test]
fn decode_errors() {
    let cases: &[(&str, &str)] = &[
        ("", "unexpected end of input at offset 0"),
        ("92 01", "unexpected end of input at offset 2"),
        ("cd 01", "unexpected end of input at offset 2"),
        ("cf 00 00 00", "unexpected end of input at offset 4"),
        ("d9 05 61 62", "unexpected end of input at offset 4"),
        ("c4 02 00", "unexpected end of input at offset 3"),
        ("c7 03 05 00", "unexpected end of input at offset 4"),
        ("d6 ff 00", "unexpected end of input at offset 3"),
        ("81 a1 61", "unexpected end of input at offset 3"),
        ("dd ff ff ff ff", "unexpected end of input at offset 5"),
        ("c6 ff ff ff ff", "unexpected end of input at offset 5"),
        ("c1", "reserved marker 0xc1 at offset 0"),
        ("93 01 02 c1", "reserved marker 0xc1 at offset 3"),
        ("81 c1 01", "reserved marker 0xc1 at offset 1"),
        ("a1 ff", "invalid UTF-8 in string at offset 0"),
        ("92 a1 78 a2 c3 28", "invalid UTF-8 in string at offset 3"),
        ("81 a1 ff 01", "invalid UTF-8 in string at offset 1"),
        ("81 01 a1 ff", "invalid UTF-8 in string at offset 2"),
        ("a3 ed a0 80", "invalid UTF-8 in string at offset 0"),
        ("01 02", "trailing bytes after the value at offset 1"),
        ("92 01 02 c0", "trailing bytes after the value at offset 3"),
    ];
    for (bytes, message) in cases {
        for args in [
            &["decode"][..],
            &["decode", "--pretty"],
            &["decode", "--plain"],
        ] {
            let out = fails(args, &hex(bytes), 1, message);
            assert!(out.is_empty(), "{bytes}: wrote {out:02x?} before failing");
        }
    }
}

/// `decode --lines`: values back to back, the bad one named by its number
/// and its offset in the stream, the ones before it written.
#[test]
fn decode_lines_stops_at_the_bad_value() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.msgpack");
    std::fs::write(&input, hex("01 a1 61 92 c3 c2 c1 05")).unwrap();
    let input = input.to_str().unwrap();
    let out = fails(
        &["decode", "--lines", input],
        b"",
        1,
        "line 4: reserved marker 0xc1 at offset 6",
    );
    assert_eq!(String::from_utf8(out).unwrap(), "1\n\"a\"\n[true,false]\n");
    for (bytes, message) in [
        ("01 92 01", "line 2: unexpected end of input at offset 3"),
        ("01 02 a1 ff", "line 3: invalid UTF-8 in string at offset 2"),
        (
            "c0 81 a1 ff 01",
            "line 2: invalid UTF-8 in string at offset 2",
        ),
        (
            "c0 dd 00 00 00 02 01",
            "line 2: unexpected end of input at offset 7",
        ),
    ] {
        fails(&["decode", "--lines"], &hex(bytes), 1, message);
    }
    let mut deep = vec![0x01];
    deep.extend([0x91; 513]);
    deep.push(0xc0);
    fails(
        &["decode", "--lines"],
        &deep,
        1,
        "line 2: nesting exceeds the depth limit of 512 at offset 513",
    );
}

/// validate: the format's rules and the limits, each problem with its
/// offset and `$.path`; exit 0 and a count when valid.
#[test]
fn validate_rules_limits_and_paths() {
    let valid: &[(&[&str], &str, &str)] = &[
        (&[], "c0", "valid: 1 value, 1 bytes\n"),
        (&[], "93 01 02 03", "valid: 1 value, 4 bytes\n"),
        (
            &["--max-values", "4"],
            "93 01 02 03",
            "valid: 1 value, 4 bytes\n",
        ),
        (
            &["--max-bytes", "4"],
            "93 01 02 03",
            "valid: 1 value, 4 bytes\n",
        ),
        (
            &["--max-depth", "2"],
            "91 91 c0",
            "valid: 1 value, 3 bytes\n",
        ),
        (&["--max-depth", "0"], "01", "valid: 1 value, 1 bytes\n"),
        (&["--lines"], "", "valid: 0 values, 0 bytes\n"),
        (&["--lines"], "01", "valid: 1 value, 1 bytes\n"),
        (&["--lines"], "01 a1 61 90", "valid: 3 values, 4 bytes\n"),
        (
            &["--lines", "--max-bytes", "4"],
            "01 93 01 02 03 01",
            "valid: 3 values, 6 bytes\n",
        ),
    ];
    for (flags, bytes, text) in valid {
        let mut args = vec!["validate"];
        args.extend(*flags);
        assert_eq!(ok_text(&args, &hex(bytes)), *text, "{flags:?} {bytes}");
    }
    let invalid: &[(&[&str], &str, &str)] = &[
        (&[], "", "unexpected end of input at offset 0, at $"),
        (&[], "c1", "reserved marker 0xc1 at offset 0, at $"),
        (&[], "92 01", "unexpected end of input at offset 2, at $[1]"),
        (&[], "01 02", "trailing bytes after the value at offset 1"),
        (
            &[],
            "81 a5 69 74 65 6d 73 94 01 02 03 81 a3 73 6b 75 a1 ff",
            "invalid UTF-8 in string at offset 16, at $.items[3].sku",
        ),
        (
            &[],
            "81 a5 69 74 65 6d 73 92 01 81 a3 73 6b 75 c1",
            "reserved marker 0xc1 at offset 14, at $.items[1].sku",
        ),
        (
            &[],
            "81 a9 74 77 6f 20 77 6f 72 64 73 81 07 a1 ff",
            "invalid UTF-8 in string at offset 13, at $[\"two words\"][7]",
        ),
        (
            &[],
            "81 a1 ff 01",
            "invalid UTF-8 in string at offset 1, at $",
        ),
        (
            &[],
            "81 01 a1 ff",
            "invalid UTF-8 in string at offset 2, at $[1]",
        ),
        (
            &[],
            "81 c3 92 01 c1",
            "reserved marker 0xc1 at offset 4, at $[true][1]",
        ),
        (
            &[],
            "81 a1 61 81 02 d4 ff 00",
            "invalid timestamp at offset 5, at $.a[2]",
        ),
        (
            &[],
            "d7 ff ff ff ff ff 00 00 00 00",
            "invalid timestamp at offset 0, at $",
        ),
        // the limits
        (
            &["--max-depth", "2"],
            "92 91 91 c0 01",
            "nesting exceeds the depth limit of 2 at offset 2, at $[0][0]",
        ),
        (
            &["--max-depth", "0"],
            "91 01",
            "nesting exceeds the depth limit of 0 at offset 0, at $",
        ),
        (
            &["--max-depth", "1"],
            "81 a1 6b 81 a1 6a 01",
            "nesting exceeds the depth limit of 1 at offset 3, at $.k",
        ),
        (
            &["--max-values", "3"],
            "93 01 02 03",
            "more values than the limit of 3 at offset 0, at $",
        ),
        (
            &["--max-values", "4"],
            "92 01 92 02 03",
            "more values than the limit of 4 at offset 2, at $[1]",
        ),
        (
            &["--max-values", "0"],
            "01",
            "more values than the limit of 0 at offset 0, at $",
        ),
        (
            &["--max-bytes", "3"],
            "93 01 02 03",
            "input exceeds the size limit of 3 bytes at offset 3",
        ),
        // --lines: the value's number, offsets in the stream
        (
            &["--lines"],
            "01 92 01",
            "line 2: unexpected end of input at offset 3, at $[1]",
        ),
        (
            &["--lines"],
            "01 02 c1",
            "line 3: reserved marker 0xc1 at offset 2, at $",
        ),
        (
            &["--lines"],
            "c0 81 a1 61 a1 ff",
            "line 2: invalid UTF-8 in string at offset 4, at $.a",
        ),
        (
            &["--lines", "--max-depth", "1"],
            "01 91 91 c0",
            "line 2: nesting exceeds the depth limit of 1 at offset 2, at $[0]",
        ),
        (
            &["--lines", "--max-values", "2"],
            "91 01 92 01 02",
            "line 2: more values than the limit of 2 at offset 2, at $",
        ),
        (
            &["--lines", "--max-bytes", "3"],
            "01 93 01 02 03 01",
            "line 2: value exceeds the size limit of 3 bytes at offset 4",
        ),
    ];
    for (flags, bytes, message) in invalid {
        let mut args = vec!["validate"];
        args.extend(*flags);
        let out = fails(&args, &hex(bytes), 1, message);
        assert!(out.is_empty(), "{flags:?} {bytes}: printed {out:02x?}");
    }
    // The default depth limit is 128 levels.
    let mut deep = vec![0x91; 129];
    deep.push(0xc0);
    fails(
        &["validate"],
        &deep,
        1,
        &format!(
            "nesting exceeds the depth limit of 128 at offset 128, at ${}",
            "[0]".repeat(128)
        ),
    );
    deep.remove(0);
    assert_eq!(ok_text(&["validate"], &deep), "valid: 1 value, 129 bytes\n");
    // A stream of 1 GiB claims stops at the size limit, having read little.
    let mut claim = hex("c6 40 00 00 00");
    // (the end of the input is where a truncated value is reported)
    claim.extend([0; 1000]);
    fails(
        &["validate", "--lines", "--max-bytes", "64"],
        &claim,
        1,
        "line 1: value exceeds the size limit of 64 bytes at offset 64",
    );
}

/// Files that are not there or not files: exit 2, the path named.
#[test]
fn io_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.msgpack");
    let missing = missing.to_str().unwrap();
    let message = format!("{missing}: No such file or directory (os error 2)");
    for command in [
        &["encode"][..],
        &["encode", "--lines"],
        &["decode"],
        &["decode", "--lines"],
        &["inspect"],
        &["inspect", "--summary"],
        &["validate"],
        &["validate", "--lines"],
    ] {
        let mut args = command.to_vec();
        args.push(missing);
        fails(&args, b"", 2, &message);
    }
    let folder = dir.path().to_str().unwrap();
    fails(
        &["decode", folder],
        b"",
        2,
        &format!("{folder}: Is a directory (os error 21)"),
    );
    let nowhere = dir.path().join("no/such/dir/out");
    let nowhere = nowhere.to_str().unwrap();
    fails(
        &["encode", "-o", nowhere],
        b"1",
        2,
        &format!("{nowhere}: No such file or directory (os error 2)"),
    );
    fails(&["schema", "check", missing, missing], b"", 2, &message);
    let not_schema = dir.path().join("not-a-schema.json");
    std::fs::write(&not_schema, "[1, 2]").unwrap();
    let not_schema = not_schema.to_str().unwrap();
    let output = run(&["schema", "check", not_schema, not_schema], b"");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!("msgpack: {not_schema}: not a schema document: ")),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// Usage errors are clap's, exit 2, with the usage line.
#[test]
fn usage_errors_exit_2() {
    for (args, first, usage) in [
        (
            &["decode", "--bogus"][..],
            "error: unexpected argument '--bogus' found",
            "Usage: msgpack decode [OPTIONS] [FILE]",
        ),
        (
            &["frobnicate"],
            "error: unrecognized subcommand 'frobnicate'",
            "Usage: msgpack <COMMAND>",
        ),
        (
            &[],
            "Convert, inspect and validate MessagePack, and compare schemas",
            "Usage: msgpack <COMMAND>",
        ),
        (
            &["decode", "--lines", "--pretty"],
            "error: the argument '--lines' cannot be used with '--pretty'",
            "Usage: msgpack decode --lines [FILE]",
        ),
        (
            &["inspect", "--color", "sometimes"],
            "error: invalid value 'sometimes' for '--color <COLOR>'",
            "",
        ),
        (
            &["validate", "--max-depth", "-1"],
            "error: unexpected argument '-1' found",
            "",
        ),
        (
            &["validate", "--max-values", "many"],
            "error: invalid value 'many' for '--max-values <N>': invalid digit found in string",
            "",
        ),
        (
            &["completions", "tcsh"],
            "error: invalid value 'tcsh' for '<SHELL>'",
            "",
        ),
        (
            &["schema", "check", "one.json"],
            "error: the following required arguments were not provided:",
            "Usage: msgpack schema check <OLD> <NEW>",
        ),
        (
            &["decode", "a", "b"],
            "error: unexpected argument 'b' found",
            "Usage: msgpack decode [OPTIONS] [FILE]",
        ),
    ] {
        let output = run(args, b"");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.lines().next(), Some(first), "{args:?}: {stderr}");
        assert!(stderr.contains(usage), "{args:?}: {stderr}");
    }
}

/// A reader that goes away (`| head`) ends the command quietly.
#[test]
fn a_closed_pipe_is_no_error() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut lines = Vec::new();
    for i in 0..200_000u32 {
        lines.extend(msgpack_serde::to_vec(&i).unwrap());
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_msgpack"))
        .args(["decode", "--lines"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&lines);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 2];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    assert_eq!(&first, b"0\n");
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    assert!(stderr.is_empty(), "{stderr}");
}

/// No input makes any command panic or print a backtrace: random bytes,
/// bytes that look like MessagePack, hostile length claims, deep nesting,
/// and JSON-ish text. Each run exits 0 or 1 with one line on stderr.
#[test]
fn no_input_panics() {
    let mut inputs: Vec<Vec<u8>> = vec![
        vec![],
        hex("dd ff ff ff ff"),
        hex("df ff ff ff ff"),
        hex("db ff ff ff ff 61"),
        hex("c6 ff ff ff ff"),
        hex("c9 ff ff ff ff 05"),
        hex("c7 0c ff ff ff ff ff 7f ff ff ff ff ff ff ff"),
        hex("d7 ff ff ff ff ff ff ff ff ff"),
        [vec![0x91; 100_000], vec![0xc0]].concat(),
        [hex("81 01").repeat(50_000), vec![0xc0]].concat(),
        vec![0xdc, 0xff, 0xff],
        b"[".repeat(100_000),
        b"{\"a\":".repeat(100_000),
        br#"{"$map":[[{"$map":[[{"$map":"#.repeat(1000),
        br#"{"$bin":"#.to_vec(),
        br#"{"$ext":{"type":5,"data":"AQ==","data":"AQ=="}}"#.to_vec(),
        br#"{"$timestamp":"9999-99-99T99:99:99Z"}"#.to_vec(),
        br#"{"$timestamp":"-999999-01-01T00:00:00Z"}"#.to_vec(),
        br#"{"$timestamp":"+999999-01-01T00:00:00Z"}"#.to_vec(),
        b"\xef\xbb\xbf{}".to_vec(),
    ];
    // A fixed xorshift: the same inputs every run.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let markers = [
        0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6,
        0xc7, 0xc8, 0xc9, 0xca, 0xcb, 0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd3, 0xd4, 0xd8, 0xd9, 0xdb,
        0xdc, 0xdd, 0xde, 0xdf, 0xe0, 0xff,
    ];
    for round in 0..24 {
        let len = (next() % 64) as usize;
        let input: Vec<u8> = (0..len)
            .map(|_| {
                let r = next();
                if round % 2 == 0 || r % 3 == 0 {
                    markers[(r >> 8) as usize % markers.len()]
                } else {
                    (r >> 16) as u8
                }
            })
            .collect();
        inputs.push(input);
    }
    let commands: &[&[&str]] = &[
        &["decode"],
        &["decode", "--lines"],
        &["decode", "--plain"],
        &["inspect", "--color", "always"],
        &["inspect", "--summary"],
        &["inspect", "--max-depth", "2", "--max-items", "1"],
        &["validate"],
        &["validate", "--lines"],
        &["encode"],
        &["encode", "--lines"],
    ];
    for input in &inputs {
        for command in commands {
            let output = msgpack()
                .args(*command)
                .write_stdin(input.clone())
                .output()
                .unwrap();
            crate::common::assert_no_panic(&output);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                matches!(output.status.code(), Some(0 | 1)),
                "{command:?} on {:02x?}: {:?} {stderr}",
                &input[..input.len().min(32)],
                output.status
            );
            assert!(
                stderr.is_empty()
                    || (stderr.starts_with("msgpack: ") && stderr.lines().count() == 1),
                "{command:?}: {stderr}"
            );
        }
    }
    // decode | encode of what decoded gives it back.
    for input in &inputs {
        let output = msgpack()
            .arg("decode")
            .write_stdin(input.clone())
            .output()
            .unwrap();
        if output.status.success() {
            let back = ok(&["encode"], &output.stdout);
            let again = ok(&["decode"], &back);
            assert_eq!(again, output.stdout);
        }
    }
}

/// Output that cannot be written (a full disk: `/dev/full`) is an I/O
/// error, exit 2, never a panic: validate, schema check and completions
/// print to standard output too.
#[test]
fn a_full_output_is_an_io_error_not_a_panic() {
    use std::process::{Command, Stdio};
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipped: no /dev/full here");
        return;
    };
    let input = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(input.path(), [0xc3]).unwrap();
    let path = input.path().to_str().unwrap();
    for args in [
        vec!["validate", path],
        vec!["completions", "bash"],
        vec!["decode", path],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_msgpack"))
            .args(&args)
            .stdout(Stdio::from(full.try_clone().unwrap()))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("msgpack: writing the output: "),
            "{args:?}: {stderr}"
        );
    }
}
