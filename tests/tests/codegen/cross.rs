//! The generated TypeScript (under Node, with `@msgpack/msgpack`) and
//! Python (with `msgpack`) read what Rust wrote and write it back; Rust
//! reads back exactly the value it wrote, unknown fields included, and
//! the same bytes. Old and new versions of one type read each other.
//! Skipped when a tool is missing, except under `CI`.

use std::path::Path;
use std::process::Command;

use msgpack_serde::{from_slice, to_vec};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

use super::family::{self, v1, v2, Everything, Point, Status};
use super::generated_dir;

/// Property-generated values of each kind.
const CASES: usize = 48;

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !value.is_empty() && value != "false" && value != "0")
}

/// Runs `program args` in `tests/generated`; `None` (skip) when the
/// program is missing outside CI.
fn run(program: &str, args: &[&str]) -> Option<String> {
    let output = match Command::new(program)
        .args(args)
        .current_dir(generated_dir())
        .output()
    {
        Ok(output) => output,
        Err(error) if !in_ci() => {
            eprintln!("skipped: cannot run {program}: {error}");
            return None;
        }
        Err(error) => panic!("cannot run {program} (CI): {error}"),
    };
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{program} {args:?} failed:\n{stdout}\n{stderr}"
    );
    Some(stdout)
}

/// Whether `module` imports in python3; outside CI a missing one skips.
fn python_has(module: &str) -> bool {
    let found = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|output| output.status.success());
    assert!(
        found || !in_ci(),
        "python3 cannot import {module} (CI: .ci/run installs it)"
    );
    if !found {
        eprintln!("skipped: python3 cannot import {module}");
    }
    found
}

fn sample<S: Strategy>(strategy: S) -> Vec<S::Value> {
    let mut runner = TestRunner::deterministic();
    (0..CASES)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect()
}

/// `kind hex` lines: what Rust writes for the relays to read.
fn input() -> String {
    let mut lines = Vec::new();
    let mut push = |kind: &str, bytes: Vec<u8>| lines.push(format!("{kind} {}", hex(&bytes)));
    for value in sample(family::everything()) {
        push("everything", to_vec(&value).unwrap());
    }
    for value in sample(family::profile_v1()) {
        push("v1", to_vec(&value).unwrap());
        push("v1_by_v2", to_vec(&value).unwrap());
    }
    for value in sample(family::profile_v2()) {
        push("v2", to_vec(&value).unwrap());
        push("v2_by_v1", to_vec(&value).unwrap());
    }
    lines.join("\n") + "\n"
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// Checks that what `language` wrote back is what Rust wrote, read as the
/// same type (for the old / new pairs: as the version Rust reads with).
fn check_relayed(language: &str, input: &str, output: &str) {
    let mut built = 0;
    let mut relayed = 0;
    let inputs: Vec<&str> = input.lines().collect();
    for (i, line) in output.lines().enumerate() {
        let (kind, data) = line.split_once(' ').unwrap();
        let back = unhex(data);
        let context = || format!("{language}, {kind} #{i}: {data}");
        match kind {
            "built_point" => {
                let point = Point {
                    x: 1,
                    y: -2,
                    z: Some(3),
                    unknown: Default::default(),
                };
                assert_eq!(from_slice::<Point>(&back).unwrap(), point, "{}", context());
                assert_eq!(back, to_vec(&point).unwrap(), "{}", context());
                built += 1;
                continue;
            }
            "built_profile" => {
                let profile = v2::Profile {
                    id: (1 << 60) + 1,
                    name: "Ada".into(),
                    email: Some("ada@example.com".into()),
                    visits: 3,
                    unknown: Default::default(),
                };
                assert_eq!(
                    from_slice::<v2::Profile>(&back).unwrap(),
                    profile,
                    "{}",
                    context()
                );
                assert_eq!(back, to_vec(&profile).unwrap(), "{}", context());
                built += 1;
                continue;
            }
            "built_status" => {
                assert_eq!(
                    from_slice::<Status>(&back).unwrap(),
                    Status::OnHold,
                    "{}",
                    context()
                );
                built += 1;
                continue;
            }
            _ => {}
        }
        let (in_kind, in_data) = inputs[i].split_once(' ').unwrap();
        assert_eq!(kind, in_kind);
        let sent = unhex(in_data);
        match kind {
            "everything" => {
                let value: Everything = from_slice(&sent).unwrap();
                let read = from_slice::<Everything>(&back)
                    .unwrap_or_else(|e| panic!("{}: {e}", context()));
                assert_eq!(read, value, "{}", context());
            }
            "v1" | "v2_by_v1" | "v2" => {
                // A v1 relay keeps the fields only v2 knows as unknown ones.
                let value: v2::Profile = from_slice(&sent).unwrap();
                assert_eq!(
                    from_slice::<v2::Profile>(&back).unwrap(),
                    value,
                    "{}",
                    context()
                );
                let value: v1::Profile = from_slice(&sent).unwrap();
                assert_eq!(
                    from_slice::<v1::Profile>(&back).unwrap(),
                    value,
                    "{}",
                    context()
                );
            }
            "v1_by_v2" => {
                // A v2 reader of v1 data: what Rust's v2 reads of it.
                let value: v2::Profile = from_slice(&sent).unwrap();
                assert_eq!(
                    from_slice::<v2::Profile>(&back).unwrap(),
                    value,
                    "{}",
                    context()
                );
                assert_eq!(back, to_vec(&value).unwrap(), "{}", context());
                relayed += 1;
                continue;
            }
            _ => panic!("unknown kind {kind}"),
        }
        assert_eq!(hex(&back), in_data, "{}: the bytes differ", context());
        relayed += 1;
    }
    assert_eq!(relayed, inputs.len(), "{language}: every value relayed");
    assert_eq!(built, 3, "{language}: every value built");
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = generated_dir().join("build");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn typescript_reads_and_writes_back_what_rust_wrote() {
    if !generated_dir().join("node_modules/typescript").exists() {
        assert!(
            !in_ci(),
            "tests/generated/node_modules missing (CI: .ci/run runs npm ci there)"
        );
        eprintln!("skipped: run `npm ci` in tests/generated");
        return;
    }
    // Type-checks (--strict, in tsconfig.json) and compiles to build/.
    if run(
        "node",
        &["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"],
    )
    .is_none()
    {
        return;
    }
    let (source, target) = (scratch("ts-in.txt"), scratch("ts-out.txt"));
    let input = input();
    std::fs::write(&source, &input).unwrap();
    run(
        "node",
        &[
            "build/relay.js",
            source.to_str().unwrap(),
            target.to_str().unwrap(),
        ],
    )
    .unwrap();
    check_relayed(
        "TypeScript",
        &input,
        &std::fs::read_to_string(&target).unwrap(),
    );
}

#[test]
fn python_reads_and_writes_back_what_rust_wrote() {
    if !python_has("msgpack") || !python_has("mypy") {
        return;
    }
    if run("python3", &["-m", "mypy", "--strict", "relay.py"]).is_none() {
        return;
    }
    let (source, target) = (scratch("py-in.txt"), scratch("py-out.txt"));
    let input = input();
    std::fs::write(&source, &input).unwrap();
    run(
        "python3",
        &[
            "relay.py",
            source.to_str().unwrap(),
            target.to_str().unwrap(),
        ],
    )
    .unwrap();
    check_relayed("Python", &input, &std::fs::read_to_string(&target).unwrap());
}

#[test]
fn json_schema_accepts_what_serde_json_writes() {
    if !python_has("jsonschema") {
        return;
    }
    let lines: Vec<String> = sample(family::everything())
        .iter()
        .map(|value| serde_json::to_string(value).unwrap())
        .collect();
    let values = scratch("json-values.txt");
    std::fs::write(&values, lines.join("\n") + "\n").unwrap();
    let schema = Path::new("golden/everything.schema.json");
    let report = run(
        "python3",
        &[
            "validate_json.py",
            schema.to_str().unwrap(),
            values.to_str().unwrap(),
        ],
    )
    .unwrap();
    assert_eq!(report.trim(), format!("{CASES} documents valid"));
}
