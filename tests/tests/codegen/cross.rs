//! The generated TypeScript (under Node, with `@msgpack/msgpack`) and
//! Python (with `msgpack`) read what Rust wrote and write it back; Rust
//! reads back exactly the value it wrote, unknown fields included, and
//! the same bytes. Old and new versions of one type read each other. The
//! relays then build values of their own from a seeded generator
//! (`tests/generated/built.*`), and Rust reads each as exactly the value
//! meant. Skipped when a tool is missing, except under `CI`.

use std::path::Path;
use std::process::Command;

use msgpack_serde::{from_slice, msgpack, to_vec};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

use super::family::{self, v1, v2, Clock, Everything, Figure, Held, Point, Status};
use super::generated_dir;

/// Property-generated values of each kind.
const CASES: usize = 48;

/// The seed of the generators the relays build values with
/// (`CODEGEN_SEED` tries another).
fn seed() -> String {
    std::env::var("CODEGEN_SEED").unwrap_or_else(|_| "24".into())
}

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

pub fn sample<S: Strategy>(strategy: S) -> Vec<S::Value> {
    let mut runner = TestRunner::deterministic();
    (0..CASES)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect()
}

/// `kind hex` lines: what Rust writes for the relays to read, with
/// timestamps that `clock` holds. The relays read them with the exact
/// decoders (`decodeExact`, the module's `unpackb`), the `package_` and
/// `plain_` kinds with the packages' own.
fn input(clock: Clock) -> String {
    let mut lines = Vec::new();
    let mut push = |kind: &str, bytes: Vec<u8>| lines.push(format!("{kind} {}", hex(&bytes)));
    let everything = sample(family::everything(clock, Held::Exact));
    for value in &everything {
        push("everything", to_vec(value).unwrap());
    }
    for value in sample(family::everything(clock, Held::Plain)) {
        push("package_everything", to_vec(&value).unwrap());
    }
    for value in sample(family::profile_v2(Held::Plain)) {
        push("package_v2", to_vec(&value).unwrap());
    }
    // Read without the decoder options where that reads right.
    for value in sample(family::profile_v1(Held::Plain)) {
        let mut value = value;
        value.id >>= 11;
        value.unknown = Default::default();
        push("plain_v1", to_vec(&value).unwrap());
    }
    for value in sample(family::profile_v1(Held::Exact)) {
        push("v1", to_vec(&value).unwrap());
        push("v1_by_v2", to_vec(&value).unwrap());
    }
    for value in sample(family::profile_v2(Held::Exact)) {
        push("v2", to_vec(&value).unwrap());
        push("v2_by_v1", to_vec(&value).unwrap());
    }
    // A float 64 in an `f32` field (`weight`, tag 27) reads as Rust's
    // `as f32` does: rounded to 32 bits, infinite past their range.
    for wide in [f64::MAX, 0.1, 16_777_217.0] {
        let mut value = msgpack_serde::Value::from_slice(&to_vec(&everything[0]).unwrap()).unwrap();
        let msgpack_serde::Value::Map(entries) = &mut value else {
            panic!("a struct is a map")
        };
        for (key, field) in entries.iter_mut() {
            if key.as_u64() == Some(27) {
                *field = msgpack_serde::Value::F64(wide);
            }
        }
        push("everything", to_vec(&value).unwrap());
    }
    // What the exact decoders refuse, each with Rust's error.
    let whole = to_vec(&everything[0]).unwrap();
    push("bad_end", whole[..whole.len() - 1].to_vec());
    push("bad_trailing", [&whole[..], &[0xc0]].concat());
    push("bad_marker", vec![0x81, 0x01, 0xc1]);
    push("bad_utf8", vec![0x81, 0x01, 0xa2, 0xc3, 0x28]);
    push(
        "bad_length",
        vec![0x81, 0x01, 0xdd, 0xff, 0xff, 0xff, 0xff, 0x01],
    );
    push("bad_depth", [vec![0x91; 129], vec![0x01]].concat());
    // [[0xc1, ...], ...]: the inner array's two and the outer one's two
    // more cannot fit in the three bytes left, which Rust finds first.
    push("bad_owed", vec![0x93, 0x92, 0xc1, 0x00, 0x00]);
    // A tag no variant has: `other` catches it, else it is an error.
    push("status", to_vec(&msgpack!(9)).unwrap());
    push("error_figure", to_vec(&msgpack!({9: 1})).unwrap());
    // A bare tag of a variant that carries data.
    push("error_carries", to_vec(&msgpack!(2)).unwrap());
    push("error_level", to_vec(&msgpack!(3)).unwrap());
    // A required field absent.
    push("error_v1", to_vec(&msgpack!({1: 7})).unwrap());
    // Keyed by names, as the derive also reads a map, with keys it skips
    // (a name it does not have, a negative integer); a field under its
    // name and its tag is there twice.
    let by_name = msgpack!({"id": 1, "name": "x", "visits": 3, "nick": "skipped", -1: 5});
    push("by_name", to_vec(&by_name).unwrap());
    push(
        "error_duplicate",
        to_vec(&msgpack!({"id": 1, 1: 2, "name": "x", "visits": 3})).unwrap(),
    );
    // An integer out of its field's range (`sides: u8`).
    push("error_range", to_vec(&msgpack!({3: {1: 300}})).unwrap());
    // A timestamp neither JavaScript's `Date` nor Python's `datetime` holds.
    let mut far_off = everything[0].clone();
    far_off.at = msgpack_serde::Timestamp::from_seconds(1 << 45);
    push("error_time", to_vec(&far_off).unwrap());
    // The reader's rules for map and array input.
    push(
        "figure",
        to_vec(&msgpack!({3: {1: 5, 7: "dropped: no UnknownFields in a variant"}})).unwrap(),
    );
    // An array struct read from a map keeps what Rust keeps: no unknown
    // field far past its tags (it would write back as a run of nils), and
    // no nil one (a gap).
    push(
        "point",
        to_vec(&msgpack!({0: 1, 1: 2, 5: null, 6: "kept", 8: null, 9: null, 67: true, 68: "dropped", 1000: 7}))
            .unwrap(),
    );
    // In an array, nil is a gap (`z`, tag 3, and unknown tag 5) except at
    // a field always written whose type reads nil: `ping`, `note` and
    // `hint` (an `Option` with `default = "five"`) are there, not absent.
    push(
        "point",
        to_vec(&msgpack!([
            1, 2, null, null, null, null, null, null, null, null, null
        ]))
        .unwrap(),
    );
    lines.join("\n") + "\n"
}

/// What the relay of `kind` must write for `sent`, by what Rust's type of
/// the same version writes after reading it; with the value read back.
fn expected(kind: &str, sent: &[u8]) -> Vec<u8> {
    fn again<T: serde::Serialize + serde::de::DeserializeOwned>(bytes: &[u8]) -> Vec<u8> {
        to_vec(&from_slice::<T>(bytes).unwrap()).unwrap()
    }
    match kind {
        "everything" | "package_everything" => again::<Everything>(sent),
        "v1" | "v2_by_v1" | "plain_v1" => again::<v1::Profile>(sent),
        "v2" | "v1_by_v2" | "package_v2" | "by_name" => again::<v2::Profile>(sent),
        "status" => again::<Status>(sent),
        "figure" => again::<Figure>(sent),
        "point" => again::<Point>(sent),
        _ => panic!("unknown kind {kind}"),
    }
}

/// Rust reads `back` as every version that read or wrote it: the value it
/// wrote (or its own reading of it), unknown fields included.
fn check_value(kind: &str, sent: &[u8], back: &[u8], context: &str) {
    let same = |read: fn(&[u8]) -> String| assert_eq!(read(back), read(sent), "{context}");
    match kind {
        "everything" | "package_everything" => same(read::<Everything>),
        "v1" | "v2" | "v2_by_v1" | "plain_v1" | "package_v2" => {
            same(read::<v1::Profile>);
            same(read::<v2::Profile>);
        }
        // Read by v2 alone: v1 wrote it, or it is keyed by names, which
        // v1 cannot keep as unknown fields (as it keeps `visits` by tag).
        "v1_by_v2" | "by_name" => same(read::<v2::Profile>),
        "status" => same(read::<Status>),
        "figure" => same(read::<Figure>),
        "point" => same(read::<Point>),
        _ => panic!("unknown kind {kind}"),
    }
}

/// `bytes` read as a `T`, in its `Debug` form: values compare whole,
/// with a readable difference.
fn read<T: serde::de::DeserializeOwned + std::fmt::Debug>(bytes: &[u8]) -> String {
    format!("{:?}", from_slice::<T>(bytes).unwrap())
}

/// A value a relay built (`back`, its bytes) is the value it meant
/// (`meant`, in serde_json's form of the Rust type), and the bytes are
/// those Rust writes for it.
fn check_built(kind: &str, back: &[u8], meant: &str, context: &str) {
    let json: serde_json::Value =
        serde_json::from_str(meant).unwrap_or_else(|e| panic!("{context}: {e}"));
    fn read<T: serde::de::DeserializeOwned>(json: &serde_json::Value, context: &str) -> T {
        serde_json::from_value(json.clone()).unwrap_or_else(|e| panic!("{context}: {e}"))
    }
    match kind {
        "built_everything" => {
            let mut meant: Everything = read(&json, context);
            meant.unknown = unknown_in(&json);
            meant.point.unknown = unknown_in(&json["point"]);
            check_read(back, &meant, context);
        }
        "built_profile" => {
            let mut meant: v2::Profile = read(&json, context);
            meant.unknown = unknown_in(&json);
            check_read(back, &meant, context);
        }
        _ => panic!("unknown kind {kind}"),
    }
}

/// The unknown fields in a struct's JSON form: its members named by a
/// number. serde_json writes them so, but the derive reads no unknown
/// fields from a named form.
fn unknown_in(json: &serde_json::Value) -> msgpack_serde::UnknownFields {
    let mut fields = msgpack_serde::UnknownFields::new();
    for (key, value) in json.as_object().unwrap() {
        if let Ok(tag) = key.parse::<u64>() {
            fields.insert(tag, serde_json::from_value(value.clone()).unwrap());
        }
    }
    fields
}

fn check_read<T>(back: &[u8], meant: &T, context: &str)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    assert_eq!(&from_slice::<T>(back).unwrap(), meant, "{context}");
    assert_eq!(
        hex(back),
        hex(&to_vec(meant).unwrap()),
        "{context}: the bytes differ"
    );
}

/// Checks every line `language` wrote against what Rust wrote.
fn check_relayed(language: &str, input: &str, output: &str) {
    let inputs: Vec<&str> = input.lines().collect();
    let outputs: Vec<&str> = output.lines().collect();
    assert_eq!(
        outputs.len(),
        inputs.len() + 3 + 2 * CASES,
        "{language}: a line for each value and each built one"
    );
    let time_error = match language {
        "TypeScript" => "Everything.at: the timestamp is out of range for Date (8640000000000 s either way of 1970)",
        _ => "Everything.at: timestamp 35184372088832 s is out of range for datetime (years 1 to 9999)",
    };
    for (i, line) in outputs.iter().enumerate() {
        let (kind, data) = line.split_once(' ').unwrap();
        let refusal = match kind {
            "built_error_range" => Some("Figure.Polygon.sides: 300 is out of range for u8"),
            "built_error_known" => {
                Some("Point: unknown field with tag 1, the tag of a known field")
            }
            "built_error_nil" => Some(
                "Point: field `cap` (tag 11) is not its default but writes nil, which an #[msgpack(array)] struct reads as the field left out",
            ),
            _ => None,
        };
        if let Some(error) = refusal {
            assert_eq!(data, format!("!{error}"), "{language}: {kind}");
            continue;
        }
        if kind.starts_with("built_") {
            let (data, meant) = data.split_once(' ').unwrap();
            let context = format!("{language}, {kind} #{i}, seed {}: {meant}", seed());
            check_built(kind, &unhex(data), meant, &context);
            continue;
        }
        let (in_kind, in_data) = inputs[i].split_once(' ').unwrap();
        assert_eq!(kind, in_kind, "{language}: line {i}");
        let context = format!("{language}, {kind} #{i}, sent {in_data}");
        let error = data.strip_prefix('!');
        match kind {
            "error_duplicate" => assert_eq!(
                error,
                Some("Profile: duplicate field `id` (tag 1)"),
                "{context}"
            ),
            "error_v1" => assert_eq!(
                error,
                Some("Profile: missing field `name` (tag 2)"),
                "{context}"
            ),
            "error_level" => assert_eq!(
                error,
                Some("Level: unknown variant tag 3 of enum Level"),
                "{context}"
            ),
            "error_carries" => assert_eq!(
                error,
                Some("Figure: variant `Rect` of enum Figure carries data"),
                "{context}"
            ),
            "error_figure" => assert_eq!(
                error,
                Some("Figure: unknown variant tag 9 of enum Figure"),
                "{context}"
            ),
            "error_range" => assert_eq!(
                error,
                Some("Figure.Polygon.sides: 300 is out of range for u8"),
                "{context}"
            ),
            "error_time" => assert_eq!(error, Some(time_error), "{context}"),
            bad if bad.starts_with("bad_") => {
                let rust = rust_error(&unhex(in_data));
                assert_eq!(error, Some(rust.as_str()), "{context}");
            }
            _ => {
                assert_eq!(error, None, "{context}");
                let (sent, back) = (unhex(in_data), unhex(data));
                check_value(kind, &sent, &back, &context);
                assert_eq!(
                    hex(&back),
                    hex(&expected(kind, &sent)),
                    "{context}: the bytes differ"
                );
            }
        }
    }
}

/// Rust's error reading `bytes` as a `Value`, with the default limits
/// (whose depth the exact decoders share).
fn rust_error(bytes: &[u8]) -> String {
    let mut reader = msgpack_core::Reader::new(bytes);
    let error = msgpack_core::Value::decode(&mut reader)
        .and_then(|_| reader.finish())
        .expect_err("bad input");
    error.to_string()
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
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
    // Type-checks (--strict, in tsconfig.json) and compiles to build/;
    // then the generated files alone under stricter checks
    // (noUncheckedIndexedAccess, exactOptionalPropertyTypes, ...).
    for config in ["tsconfig.json", "tsconfig.strictest.json"] {
        if run("node", &["node_modules/typescript/bin/tsc", "-p", config]).is_none() {
            return;
        }
    }
    let (source, target) = (scratch("ts-in.txt"), scratch("ts-out.txt"));
    let input = input(Clock::JavaScript);
    std::fs::write(&source, &input).unwrap();
    run(
        "node",
        &[
            "build/relay.js",
            source.to_str().unwrap(),
            target.to_str().unwrap(),
            &CASES.to_string(),
            &seed(),
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
    let checked = [
        "-m",
        "mypy",
        "--strict",
        "relay.py",
        "built.py",
        "golden/everything.py",
    ];
    let checked = [
        &checked[..],
        &["golden/profile_v1.py", "golden/profile_v2.py"],
    ]
    .concat();
    if run("python3", &checked).is_none() {
        return;
    }
    let (source, target) = (scratch("py-in.txt"), scratch("py-out.txt"));
    let input = input(Clock::Python);
    std::fs::write(&source, &input).unwrap();
    run(
        "python3",
        &[
            "relay.py",
            source.to_str().unwrap(),
            target.to_str().unwrap(),
            &CASES.to_string(),
            &seed(),
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
    // serde_json writes no map keyed by arrays: `grid` and `paths` stay
    // empty here.
    let json = |mut value: Everything| {
        value.grid.clear();
        value.paths.clear();
        serde_json::to_string(&value).unwrap()
    };
    let lines: Vec<String> = sample(family::everything(Clock::Rust, Held::Exact))
        .into_iter()
        .map(json)
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

#[test]
fn json_schema_rejects_what_serde_json_would_not_read() {
    if !python_has("jsonschema") {
        return;
    }
    let mut valid = sample(family::everything(Clock::Rust, Held::Exact)).remove(0);
    valid.grid.clear();
    valid.paths.clear();
    let valid = serde_json::to_value(&valid).unwrap();
    let broken = |change: &dyn Fn(&mut serde_json::Value)| {
        let mut value = valid.clone();
        change(&mut value);
        value.to_string()
    };
    let lines = [
        broken(&|v| drop(v.as_object_mut().unwrap().remove("id"))),
        broken(&|v| v["name"] = 5.into()),
        broken(&|v| v["status"] = "Paused".into()),
        broken(&|v| v["figure"] = serde_json::json!({"Circle": 1.0, "Empty": null})),
        broken(&|v| v["point"]["x"] = 1.5.into()),
        broken(&|v| v["pair"] = serde_json::json!([1])),
        broken(&|v| v["by_id"] = serde_json::json!({"one": "x"})),
        broken(&|v| v["retries"] = 300.into()),
    ];
    let values = scratch("json-invalid.txt");
    std::fs::write(&values, lines.join("\n") + "\n").unwrap();
    let report = run(
        "python3",
        &[
            "validate_json.py",
            "golden/everything.schema.json",
            values.to_str().unwrap(),
            "--invalid",
        ],
    )
    .unwrap();
    assert_eq!(report.trim(), format!("{} documents invalid", lines.len()));
}
