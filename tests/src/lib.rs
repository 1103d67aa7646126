//! Shared helpers for the integration tests.

/// The README's Rust blocks, compiled and run as this crate's doctests
/// (`cargo test -p msgpack-tests --doc`), so the front page cannot drift
/// from the API. This crate depends on every library the blocks use.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
#[allow(missing_debug_implementations)]
pub struct ReadmeDoctests;
