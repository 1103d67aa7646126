//! `msgpack`: convert JSON and MessagePack, inspect and validate
//! MessagePack, and compare schemas, because binary payloads must be
//! readable.
//!
//! ```sh
//! curl -s -H 'Accept: application/msgpack' http://127.0.0.1:3000/api/profile | msgpack decode --pretty
//! msgpack encode --lines logs.jsonl -o logs.msgpack && msgpack validate --lines logs.msgpack
//! msgpack inspect payload.msgpack --summary
//! ```

#![forbid(unsafe_code)]

mod cli;
mod cmd;
mod error;
mod frames;
mod io;
mod named;
mod walk;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cmd::run(cli.command) {
        Ok(code) => code,
        Err(failure) => failure.report(),
    }
}
