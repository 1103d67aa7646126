//! `msgpack`: convert JSON and MessagePack, inspect and validate
//! MessagePack, and compare schemas, because binary payloads must be
//! readable.
//!
//! ```sh
//! curl -s -H 'Accept: application/msgpack' http://127.0.0.1:3000/api/profile | msgpack decode --pretty
//! msgpack encode --lines logs.jsonl -o logs.msgpack && msgpack validate --lines logs.msgpack
//! msgpack inspect payload.msgpack --summary
//! ```

//!
//! The library is what the binary runs, and what the fuzz targets check:
//!
//! ```
//! use msgpack_serde::Limits;
//!
//! assert_eq!(msgpack_cli::check(b"\x92\x01\x02", 0, &Limits::new()).unwrap(), 3);
//! let problem = msgpack_cli::check(b"\x91\xc1", 0, &Limits::new()).unwrap_err();
//! assert_eq!(problem.text, "reserved marker 0xc1 at offset 1, at $[0]");
//! ```

#![forbid(unsafe_code)]

#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod __fuzz;
mod cli;
mod cmd;
mod error;
mod frames;
mod io;
mod named;
mod walk;

use std::process::ExitCode;

use clap::Parser;

pub use cmd::validate::{check, Problem};

/// Runs the command line of this process: what `msgpack` does.
pub fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match cmd::run(cli.command) {
        Ok(code) => code,
        Err(failure) => failure.report(),
    }
}
