//! What the integration tests share: running the built `msgpack` binary,
//! the data and golden files, and the checks every run gets.

#![allow(dead_code)] // each test crate uses its own part

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;

/// The built binary, with no colour or terminal settings leaking in from
/// the environment the tests run in.
pub fn msgpack() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_msgpack"));
    command
        .env_remove("NO_COLOR")
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .timeout(std::time::Duration::from_secs(120));
    command
}

/// `tests/data/<name>`.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// `tests/golden/<name>`.
pub fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

/// Whether golden and data files are to be rewritten rather than compared
/// (`MSGPACK_CLI_BLESS=1 cargo test -p msgpack-cli`).
pub fn blessing() -> bool {
    std::env::var_os("MSGPACK_CLI_BLESS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Compares `actual` with the committed file at `path`, or writes it there
/// when blessing.
#[track_caller]
pub fn assert_file(path: &Path, actual: &[u8]) {
    if blessing() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, actual).unwrap();
        return;
    }
    let expected = std::fs::read(path).unwrap_or_else(|error| {
        panic!(
            "{}: {error} (MSGPACK_CLI_BLESS=1 writes it)",
            path.display()
        )
    });
    if expected != actual {
        let shown = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        panic!(
            "{} differs (MSGPACK_CLI_BLESS=1 rewrites it)\n--- expected\n{}\n--- actual\n{}",
            path.display(),
            shown(&expected),
            shown(actual)
        );
    }
}

/// Compares `actual` with `tests/golden/<name>`.
#[track_caller]
pub fn assert_golden(name: &str, actual: &[u8]) {
    assert_file(&golden_path(name), actual);
}

/// Runs `msgpack args` with `stdin`, checks nothing panicked, and gives the
/// output.
#[track_caller]
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    let output = msgpack()
        .args(args)
        .write_stdin(stdin.to_vec())
        .output()
        .unwrap();
    assert_no_panic(&output);
    output
}

/// Stdout of a run that must succeed (exit 0, nothing on stderr).
#[track_caller]
pub fn ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let output = run(args, stdin);
    assert!(
        output.status.success() && output.stderr.is_empty(),
        "msgpack {args:?} failed: {:?}\nstderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// Stdout of a run that must succeed, as text.
#[track_caller]
pub fn ok_text(args: &[&str], stdin: &[u8]) -> String {
    String::from_utf8(ok(args, stdin)).unwrap()
}

/// A run that must fail with exit `code` and exactly `message` (one line,
/// "msgpack: " before it) on stderr; gives its stdout.
#[track_caller]
pub fn fails(args: &[&str], stdin: &[u8], code: i32, message: &str) -> Vec<u8> {
    let output = run(args, stdin);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        (output.status.code(), stderr.as_ref()),
        (Some(code), format!("msgpack: {message}\n").as_str()),
        "msgpack {args:?} on {:02x?}",
        truncate(stdin)
    );
    output.stdout
}

fn truncate(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.len().min(64)]
}

/// No run may panic or print a backtrace, whatever its input.
#[track_caller]
pub fn assert_no_panic(output: &Output) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "panic: {stderr}"
    );
    // 101 is a Rust panic's exit code; a signal (stack overflow) has none.
    assert!(
        matches!(output.status.code(), Some(0..=2)),
        "exit {:?}, stderr: {stderr}",
        output.status
    );
}

/// `actual == expected`, shown as hex around the first difference.
#[track_caller]
pub fn assert_bytes(actual: &[u8], expected: &[u8], what: &str) {
    if actual == expected {
        return;
    }
    let at = actual
        .iter()
        .zip(expected)
        .position(|(a, b)| a != b)
        .unwrap_or(actual.len().min(expected.len()));
    let around = |bytes: &[u8]| {
        let start = at.saturating_sub(8);
        let end = (at + 24).min(bytes.len());
        bytes[start.min(end)..end]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    panic!(
        "{what}: {} bytes, expected {}; first difference at {at}:\n  actual   {}\n  expected {}",
        actual.len(),
        expected.len(),
        around(actual),
        around(expected)
    );
}

/// Bytes from hex, spaces ignored: `hex("92 01 c0")`.
pub fn hex(text: &str) -> Vec<u8> {
    let digits: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    digits
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).unwrap(), 16).unwrap())
        .collect()
}
