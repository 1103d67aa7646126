//! `msgpack schema check OLD NEW`: the breaking changes between two schema
//! documents, for CI; `msgpack schema codegen` and `msgpack schema
//! json-schema`: readers in other languages and a JSON Schema from one.

use std::io::Write;
use std::process::ExitCode;

use msgpack_serde::schema::{check_compatible, SchemaDocument};

use msgpack_codegen::Language;

use crate::cli::{CodegenLanguage, SchemaCheckArgs, SchemaCodegenArgs, SchemaJsonSchemaArgs};
use crate::error::{Failure, Result};

pub fn check(args: &SchemaCheckArgs) -> Result<ExitCode> {
    let old = read(&args.old)?;
    let new = read(&args.new)?;
    let report = check_compatible(&old, &new);
    if args.json {
        let changes: Vec<_> = report
            .breaking
            .iter()
            .map(|(ty, reason)| serde_json::json!({"type": ty, "reason": reason}))
            .collect();
        let text = serde_json::json!({"compatible": report.is_compatible(), "breaking": changes});
        writeln!(std::io::stdout().lock(), "{text}")?;
    } else {
        write!(std::io::stdout().lock(), "{report}")?;
    }
    Ok(if report.is_compatible() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

pub fn codegen(args: &SchemaCodegenArgs) -> Result<()> {
    let doc = read(&args.schema)?;
    let language = match args.lang {
        CodegenLanguage::Typescript => Language::TypeScript,
        CodegenLanguage::Python => Language::Python,
    };
    let name = args.schema.display().to_string();
    let code = msgpack_codegen::generate(&doc, language, &name)
        .map_err(|error| Failure::invalid(format!("{name}: {error}")))?;
    match &args.output {
        Some(dir) => {
            let path = dir.join(language.file_name(&doc.root));
            let shown = path.display().to_string();
            std::fs::create_dir_all(dir)
                .map_err(|error| Failure::io(&dir.display().to_string(), error))?;
            std::fs::write(&path, code).map_err(|error| Failure::io(&shown, error))
        }
        None => Ok(std::io::stdout().lock().write_all(code.as_bytes())?),
    }
}

pub fn json_schema(args: &SchemaJsonSchemaArgs) -> Result<()> {
    let doc = read(&args.schema)?;
    let name = args.schema.display().to_string();
    let schema = msgpack_codegen::json_schema(&doc)
        .map_err(|error| Failure::invalid(format!("{name}: {error}")))?;
    let text = serde_json::to_string_pretty(&schema).expect("a JSON value serializes") + "\n";
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|error| Failure::io(&path.display().to_string(), error)),
        None => Ok(std::io::stdout().lock().write_all(text.as_bytes())?),
    }
}

/// The schema document at `path`; not one is invalid data (exit 1).
pub fn read(path: &std::path::Path) -> Result<SchemaDocument> {
    let name = path.display().to_string();
    let text = std::fs::read(path).map_err(|error| Failure::io(&name, error))?;
    serde_json::from_slice(&text)
        .map_err(|error| Failure::invalid(format!("{name}: not a schema document: {error}")))
}
