//! The readers msgpack-codegen generates, for the types in `family.rs`:
//! golden files of the generated code (so a change to the generator shows
//! in review), the generated TypeScript and Python compiled, type-checked
//! and run on property-generated values, and the JSON Schema validated
//! against serde_json's output.

mod cross;
mod family;

use std::path::{Path, PathBuf};

use msgpack_codegen::Language;
use msgpack_serde::schema::{Schema, SchemaDocument};

/// Each committed schema document by file stem.
fn schemas() -> Vec<(&'static str, SchemaDocument)> {
    vec![
        ("everything", family::Everything::schema()),
        ("profile_v1", family::v1::Profile::schema()),
        ("profile_v2", family::v2::Profile::schema()),
    ]
}

/// `tests/generated`: the Node project, the schemas and the golden files.
fn generated_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("generated")
}

/// Every file generated from the schemas, by path under `generated_dir()`.
fn generated_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for (stem, doc) in schemas() {
        let origin = format!("schemas/{stem}.json");
        let json = serde_json::to_string_pretty(&doc).unwrap() + "\n";
        files.push((origin.clone(), json));
        for (language, ext) in [(Language::TypeScript, "ts"), (Language::Python, "py")] {
            let code = msgpack_codegen::generate(&doc, language, &origin).unwrap();
            files.push((format!("golden/{stem}.{ext}"), code));
        }
        let schema = msgpack_codegen::json_schema(&doc).unwrap();
        let schema = serde_json::to_string_pretty(&schema).unwrap() + "\n";
        files.push((format!("golden/{stem}.schema.json"), schema));
    }
    // Values for `msgpack decode --schema` and `encode --schema` to carry
    // over (msgpack-cli/tests/cli/schema_names.rs), one hex line each: no
    // floats in the `any` values, since JSON keeps no float's width.
    let samples: Vec<String> =
        cross::sample(family::everything(family::Clock::Rust, family::Held::Plain))
            .iter()
            .take(8)
            .map(|value| cross::hex(&msgpack_serde::to_vec(value).unwrap()))
            .collect();
    files.push(("samples/everything.hex".into(), samples.join("\n") + "\n"));
    files
}

/// With `UPDATE_GOLDEN=1` the files are written instead of compared.
#[test]
fn generated_code_matches_the_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    for (path, text) in generated_files() {
        let path = generated_dir().join(path);
        if update {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_else(|error| {
            panic!("{}: {error} (UPDATE_GOLDEN=1 writes it)", path.display())
        });
        assert!(
            golden == text,
            "{} differs from what the generator writes now; UPDATE_GOLDEN=1 cargo test -p msgpack-tests --test codegen rewrites it",
            path.display()
        );
    }
}

/// `schema check` holds between the two versions the cross-language tests
/// read each other with.
#[test]
fn the_two_versions_are_compatible() {
    let report = msgpack_serde::schema::check_compatible(
        &family::v1::Profile::schema(),
        &family::v2::Profile::schema(),
    );
    assert!(report.is_compatible(), "{report}");
}
