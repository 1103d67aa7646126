//! `inspect` against golden files: a document holding every format of the
//! MessagePack specification (built here, committed as
//! `tests/data/spec.msgpack`), its collapsed forms, colour, and `--summary`
//! on the benches' `document` fixture.
//!
//! `MSGPACK_CLI_BLESS=1 cargo test -p msgpack-cli --test cli` rewrites the
//! committed files from what the code does now; review the diff.

use std::process::Command;

use crate::common::{assert_file, assert_golden, data, fails, hex, msgpack, ok, ok_text};

/// A fixstr key.
fn key(name: &str) -> Vec<u8> {
    assert!(name.len() < 32);
    let mut bytes = vec![0xa0 | name.len() as u8];
    bytes.extend(name.as_bytes());
    bytes
}

/// Every format of the specification, each under a key naming it, in a
/// map 16. Where a format is not the smallest for its value (str 32 of four
/// bytes, array 32 of one element), it is still what the name says.
pub fn spec_document() -> Vec<u8> {
    let str8 = "The quick brown fox jumps over the lazy dog, again and again";
    let entries: Vec<(&str, Vec<u8>)> = vec![
        ("positive fixint", hex("07")),
        ("positive fixint max", hex("7f")),
        ("negative fixint", hex("e0")),
        ("uint 8", hex("cc ff")),
        ("uint 16", hex("cd 01 00")),
        ("uint 32", hex("ce 00 01 00 00")),
        ("uint 64", hex("cf ff ff ff ff ff ff ff ff")),
        ("int 8", hex("d0 80")),
        ("int 16", hex("d1 80 00")),
        ("int 32", hex("d2 80 00 00 00")),
        ("int 64", hex("d3 80 00 00 00 00 00 00 00")),
        ("nil", hex("c0")),
        ("false", hex("c2")),
        ("true", hex("c3")),
        ("float 32", hex("ca 3f c0 00 00")),
        ("float 64", hex("cb 40 09 21 fb 54 44 2d 18")),
        ("float 64 NaN", hex("cb 7f f8 00 00 00 00 00 00")),
        ("float 64 max", hex("cb 7f ef ff ff ff ff ff ff")),
        ("float 64 one", hex("cb 3f f0 00 00 00 00 00 00")),
        ("fixstr", [&[0xa9][..], "Zoë 🚲".as_bytes()].concat()),
        (
            "str 8",
            [&[0xd9, str8.len() as u8][..], str8.as_bytes()].concat(),
        ),
        ("str 16", hex("da 00 03 61 00 62")),
        (
            "str 32",
            [&hex("db 00 00 00 04")[..], "Zoë".as_bytes()].concat(),
        ),
        ("bin 8", hex("c4 03 01 02 03")),
        ("bin 16", hex("c5 00 02 ff 00")),
        ("bin 32", hex("c6 00 00 00 01 00")),
        ("fixarray", hex("93 01 a1 78 c0")),
        ("array 16", hex("dc 00 02 c2 c3")),
        ("array 32", hex("dd 00 00 00 01 90")),
        ("fixmap", hex("82 a1 61 01 a1 62 91 02")),
        (
            "map 16",
            hex("de 00 02 01 a3 6f 6e 65 ff a9 6d 69 6e 75 73 20 6f 6e 65"),
        ),
        ("map 32", hex("df 00 00 00 02 c3 c2 91 01 80")),
        ("fixext 1", hex("d4 01 ff")),
        ("fixext 2", hex("d5 02 00 01")),
        ("fixext 4", hex("d6 03 00 01 02 03")),
        ("fixext 8", hex("d7 80 00 01 02 03 04 05 06 07")),
        (
            "fixext 16",
            hex("d8 7f 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f"),
        ),
        ("ext 8", hex("c7 03 05 61 62 63")),
        ("ext 16", hex("c8 00 02 06 00 00")),
        ("ext 32", hex("c9 00 00 00 01 07 2a")),
        // 2026-11-30T12:00:00Z
        ("timestamp 32", hex("d6 ff 6b 0d 65 40")),
        // 2026-11-30T12:00:00.5Z
        ("timestamp 64", hex("d7 ff 77 35 94 00 6b 0d 65 40")),
        // 1969-12-31T23:59:59.999999999Z
        (
            "timestamp 96",
            hex("c7 0c ff 3b 9a c9 ff ff ff ff ff ff ff ff ff"),
        ),
        // 12 bytes of ext -1 with 2^30 nanoseconds: no timestamp.
        (
            "ext -1, no timestamp",
            hex("c7 0c ff 40 00 00 00 00 00 00 00 00 00 00 00"),
        ),
    ];
    let mut bytes = vec![0xde];
    bytes.extend(u16::try_from(entries.len()).unwrap().to_be_bytes());
    for (name, value) in entries {
        bytes.extend(key(name));
        bytes.extend(value);
    }
    bytes
}

fn spec_file() -> String {
    data("spec.msgpack").to_str().unwrap().to_string()
}

#[test]
fn the_spec_document_is_committed() {
    assert_file(&data("spec.msgpack"), &spec_document());
    // validate holds ext -1 to the timestamp's rules; decode keeps it as
    // $ext. What decode makes of the rest: every tagged form but $map.
    fails(
        &["validate", &spec_file()],
        b"",
        1,
        r#"invalid timestamp at offset 738, at $["ext -1, no timestamp"]"#,
    );
    assert_golden(
        "decode-spec.json",
        &ok(&["decode", "--pretty", &spec_file()], b""),
    );
}

#[test]
fn inspect_shows_every_format() {
    let out = ok(&["inspect", "--color", "never", &spec_file()], b"");
    assert_golden("inspect-spec.txt", &out);
    // Standard input and -o give the same.
    assert_eq!(
        ok_text(&["inspect", "--color", "never"], &spec_document()),
        String::from_utf8_lossy(&out)
    );
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.txt");
    ok(
        &["inspect", &spec_file(), "-o", target.to_str().unwrap()],
        b"",
    );
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        String::from_utf8_lossy(&out)
    );
}

#[test]
fn inspect_collapses_past_max_depth_and_max_items() {
    let file = spec_file();
    for (args, golden) in [
        (&["--max-depth", "1"][..], "inspect-spec-max-depth-1.txt"),
        (&["--max-depth", "0"][..], "inspect-spec-max-depth-0.txt"),
        (&["--max-items", "3"][..], "inspect-spec-max-items-3.txt"),
        (
            &["--max-items", "1", "--max-depth", "1"][..],
            "inspect-spec-max-items-1-max-depth-1.txt",
        ),
    ] {
        let mut all = vec!["inspect", "--color", "never", file.as_str()];
        all.extend(args);
        assert_golden(golden, &ok(&all, b""));
    }
    // Nested: [[1, [2, 3]], [4]] shown two deep, two items each.
    let nested = hex("92 92 01 92 02 03 91 04");
    assert_eq!(
        ok_text(&["inspect", "--max-depth", "1"], &nested),
        "\
000000  92                               fixarray(2)
000001  92                                 fixarray(2) … 2 collapsed, 4 bytes
000006  91                                 fixarray(1) … 1 collapsed, 1 bytes
"
    );
    assert_eq!(
        ok_text(&["inspect", "--max-items", "1"], &nested),
        "\
000000  92                               fixarray(2)
000001  92                                 fixarray(2)
000002  01                                   fixint 1
000003                                       … 1 more, 3 bytes
000006                                     … 1 more, 2 bytes
"
    );
}

#[test]
fn inspect_colours_when_asked_and_not_under_no_color() {
    let file = spec_file();
    let plain = ok_text(&["inspect", "--color", "never", &file], b"");
    let coloured = ok_text(&["inspect", "--color", "always", &file], b"");
    assert!(coloured.contains("\x1b["), "{coloured}");
    assert!(!plain.contains('\x1b'));
    assert_eq!(strip_ansi(&coloured), plain);
    // always wins over NO_COLOR; auto is off on a pipe or a file.
    let output = msgpack()
        .args(["inspect", "--color", "always", &file])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&output.stdout).contains("\x1b["));
    let auto = ok_text(&["inspect", &file], b"");
    assert_eq!(auto, plain);

    // On a terminal (util-linux's script gives one), auto colours unless
    // NO_COLOR is set and not empty.
    let on_terminal = |no_color: Option<&str>| -> Option<String> {
        let mut script = Command::new("script");
        script.args([
            "-qec",
            &format!(
                "{} inspect --color auto {file}",
                env!("CARGO_BIN_EXE_msgpack")
            ),
            "/dev/null",
        ]);
        match no_color {
            Some(value) => script.env("NO_COLOR", value),
            None => script.env_remove("NO_COLOR"),
        };
        let output = script.output().ok().filter(|o| o.status.success())?;
        Some(String::from_utf8_lossy(&output.stdout).replace("\r\n", "\n"))
    };
    let Some(terminal) = on_terminal(None) else {
        eprintln!("skipped the terminal part: util-linux's script is not installed");
        return;
    };
    assert!(terminal.contains("\x1b["), "{terminal}");
    assert_eq!(strip_ansi(&terminal), plain);
    assert_eq!(on_terminal(Some("1")).unwrap(), plain);
    assert!(on_terminal(Some("")).unwrap().contains("\x1b["));
}

/// The text without ANSI escapes (`ESC [ ... letter`).
fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn inspect_errors_name_the_offset_and_path() {
    fails(
        &["inspect"],
        &hex("82 a1 61 01 a1 62 92 01 c1"),
        1,
        "reserved marker 0xc1 at offset 8, at $.b[1]",
    );
    fails(
        &["inspect"],
        &hex("92 01"),
        1,
        "unexpected end of input at offset 2, at $[1]",
    );
    fails(
        &["inspect"],
        &hex("01 02"),
        1,
        "trailing bytes after the value at offset 1",
    );
    fails(
        &["inspect", "--summary"],
        &hex("81 a1 ff 01"),
        1,
        "invalid UTF-8 in string at offset 1, at $",
    );
    fails(
        &["inspect", "--summary"],
        &hex("c0 c0"),
        1,
        "trailing bytes after the value at offset 1",
    );
}

/// `tests/data/document.msgpack`: the benches' `document` fixture, written
/// by `cargo run -p msgpack-benches --example cli_document`.
#[test]
fn summary_of_the_document_fixture() {
    let file = data("document.msgpack");
    let out = ok(&["inspect", "--summary", file.to_str().unwrap()], b"");
    assert_golden("summary-document.txt", &out);
    assert_golden(
        "inspect-document.txt",
        &ok(
            &["inspect", "--color", "never", file.to_str().unwrap()],
            b"",
        ),
    );
    // The share of the whole is 100%.
    let text = String::from_utf8(out).unwrap();
    let size = std::fs::metadata(&file).unwrap().len();
    assert!(
        text.lines()
            .any(|line| line.ends_with("  $") && line.contains(&format!("{size}  100.0%"))),
        "{text}"
    );
}

#[test]
fn summary_of_the_spec_document() {
    assert_golden(
        "summary-spec.txt",
        &ok(&["inspect", "--summary", &spec_file()], b""),
    );
}
