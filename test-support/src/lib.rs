//! Test helpers that several of the workspace's crates use, in one place
//! instead of a copy in each (a dev-dependency only; never published).
//!
//! ```
//! use msgpack_test_support::{skip, INTEGER_EDGES};
//!
//! assert!(INTEGER_EDGES.contains(&(1 << 32)));
//!
//! fn python_interop() {
//!     let found = std::process::Command::new("python3").arg("--version").output().is_ok();
//!     if !found {
//!         skip("python3 is not installed"); // with CI set, this fails instead
//!         return;
//!     }
//!     // ... run the test
//! }
//! # let _ = python_interop;
//! ```
//!
//! - [`INTEGER_EDGES`]: the integers at the boundaries between MessagePack's
//!   forms; with the `proptest` feature, [`strategies`] for integers,
//!   values and bytes that look like MessagePack.
//! - [`Sink`]: an `io::Write` that is not a `Vec<u8>`, for checking a
//!   serializer's fast path for vectors against its general one.
//! - [`in_ci`] and [`skip`]: a test that needs an outside tool skips with a
//!   message when it is missing, but fails under CI, which installs it.
//! - With the `http` feature, [`http::serve`]: an app on 127.0.0.1 at an
//!   ephemeral port.

#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "proptest")]
pub mod strategies;

use std::io::{self, Write as _};

/// Integers at the boundaries between MessagePack's forms, and between
/// what a JSON double holds exactly (2^53): each family's edges, from
/// positive fixint to uint 64 and from negative fixint to int 64, where
/// uniform sampling would almost never land.
pub const INTEGER_EDGES: [i128; 26] = [
    0,
    1,
    127,
    128,
    255,
    256,
    65_535,
    65_536,
    u32::MAX as i128,
    1 << 32,
    1 << 53,
    (1 << 53) + 1,
    i64::MAX as i128,
    1 << 63,
    u64::MAX as i128,
    -1,
    -32,
    -33,
    -128,
    -129,
    -32_768,
    -32_769,
    i32::MIN as i128,
    i32::MIN as i128 - 1,
    -(1 << 53) - 1,
    i64::MIN as i128,
];

/// An `io::Write` into a vector that a serializer cannot recognise as
/// one: msgpack-serde writes into a `Vec<u8>` through fast paths, and
/// over a `Sink` through the general `io::Write` path, which the fast
/// paths must match byte for byte.
///
/// ```
/// use std::io::Write;
/// use msgpack_test_support::Sink;
///
/// let mut sink = Sink::default();
/// sink.write_all(&[0x93, 1, 2, 3]).unwrap(); // what a serializer writes
/// assert_eq!(sink.0, [0x93, 1, 2, 3]);
/// ```
#[derive(Debug, Default)]
pub struct Sink(pub Vec<u8>);

impl io::Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Whether the environment variable `CI` is set (to anything but empty,
/// `false` or `0`), as `.ci/run` sets it.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !value.is_empty() && value != "false" && value != "0")
}

/// Skips a test whose outside tool is missing, saying `why` on the real
/// stderr (so that `cargo test` shows it without `--nocapture`); under CI,
/// where `.ci/run` installs every such tool, fails instead.
///
/// The caller returns after it: `if !found { skip("..."); return; }`.
#[track_caller]
pub fn skip(why: &str) {
    if in_ci() {
        panic!("{why}; CI is set, so this fails instead of skipping (.ci/run installs it)");
    }
    let line = format!("skipped: {why}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
}
