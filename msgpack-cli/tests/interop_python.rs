//! Interop with PyPI's `msgpack` (1.2.4, what `.ci/run` installs).
//!
//! `tests/data/python/generate.py` packs a set of values with
//! `msgpack.packb` into `<case>.msgpack` and writes, next to each, the
//! `<case>.json` that `msgpack decode` must print (the tagged form,
//! computed in Python). Those files are committed, so the first test needs
//! no Python: decode gives that JSON to the byte, and encode gives back
//! Python's bytes. The second runs our encode and reads its output back in
//! Python; without `python3` or its `msgpack` module it prints why it
//! skipped and passes, except when `CI` is set, where it fails.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{data, ok};

/// The cases generate.py writes, by name, sorted.
fn cases() -> Vec<(String, PathBuf)> {
    let dir = data("python");
    let mut cases: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "msgpack"))
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            (name, path)
        })
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 14,
        "generate.py's files are missing from {}",
        dir.display()
    );
    cases
}

/// The case of timestamps beyond Python's datetime, read back with
/// `timestamp=0` only.
const FAR: &str = "timestamps_far";

fn json_of(path: &Path) -> String {
    std::fs::read_to_string(path.with_extension("json")).unwrap()
}

#[test]
fn bytes_from_python_decode_to_the_expected_json_and_encode_back() {
    for (name, path) in cases() {
        let file = path.to_str().unwrap();
        let expected = json_of(&path);
        let json = String::from_utf8(ok(&["decode", file], b"")).unwrap();
        assert_eq!(json, expected, "decode {name}.msgpack");
        let bytes = std::fs::read(&path).unwrap();
        let json_file = path.with_extension("json");
        assert_eq!(
            ok(&["encode", json_file.to_str().unwrap()], b""),
            bytes,
            "encode {name}.json gives Python's bytes"
        );
    }
}

#[test]
fn bytes_from_python_decode_as_one_stream() {
    let mut stream = Vec::new();
    let mut expected = String::new();
    for (_, path) in cases() {
        stream.extend(std::fs::read(&path).unwrap());
        expected.push_str(&json_of(&path));
    }
    assert_eq!(
        String::from_utf8(ok(&["decode", "--lines"], &stream)).unwrap(),
        expected
    );
    assert_eq!(ok(&["encode", "--lines"], expected.as_bytes()), stream);
}

#[test]
fn our_encode_reads_back_in_python() {
    let Some(python) = python_with_msgpack() else {
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let mut lines = String::new();
    for (name, path) in cases() {
        let json = path.with_extension("json");
        let target = out.path().join(format!("{name}.msgpack"));
        ok(
            &[
                "encode",
                json.to_str().unwrap(),
                "-o",
                target.to_str().unwrap(),
            ],
            b"",
        );
        if name != FAR {
            lines.push_str(&json_of(&path));
        }
    }
    // The same values as one --lines stream, read with msgpack.Unpacker
    // (timestamps as datetimes, so without the case beyond their years).
    let stream = ok(&["encode", "--lines"], lines.as_bytes());
    std::fs::write(out.path().join("all.stream"), stream).unwrap();

    let script = r#"
import os, sys
sys.path.insert(0, sys.argv[1])
import msgpack, generate
out = sys.argv[2]
for name in generate.CASES:
    with open(os.path.join(out, name + ".msgpack"), "rb") as f:
        generate.check(name, f.read())
names = sorted(name for name in generate.CASES if name != "timestamps_far")
unpacker = msgpack.Unpacker(timestamp=3, strict_map_key=False, use_list=False)
with open(os.path.join(out, "all.stream"), "rb") as f:
    unpacker.feed(f.read())
values = list(unpacker)
assert len(values) == len(names), (len(values), len(names))
for name, value in zip(names, values):
    with open(os.path.join(generate.HERE, name + ".msgpack"), "rb") as f:
        expected = generate.unpack(f.read())
    assert generate.same(value, expected), (name, value, expected)
print("checked %d cases with msgpack %s" % (len(generate.CASES), msgpack.version))
"#;
    // -B: no __pycache__ next to generate.py.
    let output = Command::new(python)
        .args(["-B", "-c"])
        .arg(script)
        .arg(data("python"))
        .arg(out.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "Python read back our bytes differently:\n{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.starts_with("checked "), "{stdout}");
}

/// `python3` when it runs and imports `msgpack`; otherwise `None` after
/// saying why (or, with `CI` set, a failure: `.ci/run` installs both).
fn python_with_msgpack() -> Option<&'static str> {
    let python = "python3";
    let why = match Command::new(python).args(["-c", "import msgpack"]).output() {
        Err(error) => format!("{python} does not run ({error})"),
        Ok(output) if !output.status.success() => format!(
            "{python} has no msgpack module (python3 -m pip install msgpack==1.2.4): {}",
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .last()
                .unwrap_or_default()
        ),
        Ok(_) => return Some(python),
    };
    msgpack_test_support::skip(&why);
    None
}
