//! `schema codegen` and `schema json-schema` on the schema documents the
//! cross-language tests commit (tests/generated): the output is their
//! golden files byte for byte; a bad document is one error line, exit 1.

use std::path::{Path, PathBuf};

use crate::common::{fails, msgpack, ok_text};

/// The workspace's `tests/generated`, where the schemas and golden files
/// are; paths in generated files are relative to it.
fn generated() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/generated")
}

/// Runs `msgpack args` in `tests/generated`, which must succeed quietly.
fn ok_in_generated(args: &[&str]) -> String {
    let output = msgpack()
        .args(args)
        .current_dir(generated())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stderr.is_empty(),
        "{args:?}: {stderr}"
    );
    String::from_utf8(output.stdout).unwrap()
}

fn golden(name: &str) -> String {
    std::fs::read_to_string(generated().join("golden").join(name)).unwrap()
}

#[test]
fn codegen_writes_the_golden_readers() {
    for stem in ["everything", "profile_v1", "profile_v2"] {
        let schema = format!("schemas/{stem}.json");
        for (lang, ext) in [("typescript", "ts"), ("python", "py")] {
            let code = ok_in_generated(&["schema", "codegen", "--lang", lang, &schema]);
            assert!(code == golden(&format!("{stem}.{ext}")), "{stem}.{ext}");
        }
        let json = ok_in_generated(&["schema", "json-schema", &schema]);
        assert!(
            json == golden(&format!("{stem}.schema.json")),
            "{stem}.schema.json"
        );
    }
}

#[test]
fn codegen_writes_a_file_named_after_the_root_type_into_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("made/here");
    let out = out.to_str().unwrap();
    for (lang, file, ext) in [
        ("typescript", "everything.ts", "ts"),
        ("python", "everything.py", "py"),
    ] {
        assert_eq!(
            ok_in_generated(&[
                "schema",
                "codegen",
                "--lang",
                lang,
                "schemas/everything.json",
                "-o",
                out
            ]),
            ""
        );
        let written = std::fs::read_to_string(Path::new(out).join(file)).unwrap();
        assert!(written == golden(&format!("everything.{ext}")), "{file}");
    }
    let schema_file = dir.path().join("everything.schema.json");
    let schema_file = schema_file.to_str().unwrap();
    ok_in_generated(&[
        "schema",
        "json-schema",
        "schemas/everything.json",
        "-o",
        schema_file,
    ]);
    assert!(std::fs::read_to_string(schema_file).unwrap() == golden("everything.schema.json"));
}

#[test]
fn a_bad_schema_document_is_one_error_line_with_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let not_schema: &'static str = write("not-a-schema.json", "[1, 2]").leak();
    let no_root: &'static str = write("no-root.json", r#"{"root":"Order","types":{}}"#).leak();
    let other: &'static str = write(
        "other.json",
        r#"{"root":"A","types":{"A":{"kind":"struct","layout":"map","fields":[
          {"name":"when","tag":1,"shape":{"other":"chrono::DateTime<Utc>"},"presence":"required"}]}}}"#,
    )
    .leak();
    for command in [
        &["schema", "codegen", "--lang", "python"][..],
        &["schema", "json-schema"],
    ] {
        let with = |path: &'static str| -> Vec<&str> { [command, &[path]].concat() };
        let output = msgpack().args(with(not_schema)).output().unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.starts_with(&format!("msgpack: {not_schema}: not a schema document: ")),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        fails(
            &with(no_root),
            b"",
            1,
            &format!("{no_root}: the root type `Order` is not defined in the document"),
        );
        fails(
            &with(other),
            b"",
            1,
            &format!("{other}: A.when: the Rust type `chrono::DateTime<Utc>` has no schema (give it a `Describe` impl)"),
        );
    }
    let missing = dir.path().join("missing.json");
    let missing = missing.to_str().unwrap();
    fails(
        &["schema", "json-schema", missing],
        b"",
        2,
        &format!("{missing}: No such file or directory (os error 2)"),
    );
}

#[test]
fn codegen_help_names_the_languages() {
    let help = ok_text(&["schema", "codegen", "--help"], b"");
    assert!(
        help.contains("Usage: msgpack schema codegen [OPTIONS] --lang <LANG> <SCHEMA>"),
        "{help}"
    );
    assert!(
        help.contains("typescript") && help.contains("python"),
        "{help}"
    );
    let help = ok_text(&["schema", "json-schema", "--help"], b"");
    assert!(
        help.contains("Usage: msgpack schema json-schema [OPTIONS] <SCHEMA>"),
        "{help}"
    );
}
