//! The built `msgpack` binary on real files and standard input: every
//! type both ways, every error with its message and exit code, `inspect`
//! against golden files, and the commands' help.

#[path = "../common/mod.rs"]
mod common;

mod codegen;
mod commands;
mod errors;
mod inspect;
mod regression;
mod roundtrip;
mod schema_names;
