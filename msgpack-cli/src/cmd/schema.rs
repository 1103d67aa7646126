//! `msgpack schema check OLD NEW`: the breaking changes between two schema
//! documents, for CI.

use std::io::Write;
use std::process::ExitCode;

use msgpack_serde::schema::{check_compatible, SchemaDocument};

use crate::cli::SchemaCheckArgs;
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

fn read(path: &std::path::Path) -> Result<SchemaDocument> {
    let name = path.display().to_string();
    let text = std::fs::read(path).map_err(|error| Failure::io(&name, error))?;
    serde_json::from_slice(&text)
        .map_err(|error| Failure::invalid(format!("{name}: not a schema document: {error}")))
}
