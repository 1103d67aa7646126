//! One file or folder per command: `inspect/` holds `inspect --summary`
//! beside the dump, `validate/` its fast path beside the walk that says
//! what is wrong.

mod completions;
mod decode;
mod encode;
mod inspect;
pub mod schema;
pub mod validate;

use std::process::ExitCode;

use crate::cli::{Command, SchemaCommand};
use crate::error::Result;

/// Runs a command; `Ok` carries the exit code of a command that reports
/// rather than fails (`schema check` finding breaking changes).
pub fn run(command: Command) -> Result<ExitCode> {
    match command {
        Command::Encode(args) => encode::run(&args),
        Command::Decode(args) => decode::run(&args),
        Command::Inspect(args) if args.summary => inspect::summary::run(&args),
        Command::Inspect(args) => inspect::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Schema(SchemaCommand::Check(args)) => return schema::check(&args),
        Command::Schema(SchemaCommand::Codegen(args)) => schema::codegen(&args),
        Command::Schema(SchemaCommand::JsonSchema(args)) => schema::json_schema(&args),
        Command::Completions(args) => completions::run(&args),
    }
    .map(|()| ExitCode::SUCCESS)
}
