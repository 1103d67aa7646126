//! The results as a text table, each codec's ratio to the reference.

use std::fmt::Write as _;

use crate::codecs::REFERENCE;
use crate::run::FixtureResult;

/// Formats nanoseconds with a unit that keeps 3 significant digits.
pub fn duration(ns: f64) -> String {
    match ns {
        ns if ns < 1e3 => format!("{ns:.0} ns"),
        ns if ns < 1e6 => format!("{:.2} µs", ns / 1e3),
        ns if ns < 1e9 => format!("{:.2} ms", ns / 1e6),
        ns => format!("{:.2} s", ns / 1e9),
    }
}

/// `value / reference` as `0.42x`.
fn ratio(value: f64, reference: f64) -> String {
    format!("{:.2}x", value / reference)
}

/// One fixture's table: sizes, then times with their ratio to the reference.
pub fn fixture_table(result: &FixtureResult) -> String {
    let reference = result
        .codecs
        .iter()
        .find(|c| c.codec == REFERENCE)
        .unwrap_or(&result.codecs[0]);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## {}  (ratios are to {})\n",
        result.fixture, REFERENCE
    );
    let _ = writeln!(
        out,
        "| codec | bytes | gzip bytes | encode | ratio | encode, new Vec | decode | ratio | decode borrowed | round trips/s |"
    );
    let _ = writeln!(out, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for c in &result.codecs {
        let borrowed = c
            .decode_borrowed_ns
            .map_or_else(|| "-".to_string(), duration);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0} |",
            c.codec,
            c.bytes,
            c.gzip_bytes,
            duration(c.encode_ns),
            ratio(c.encode_ns, reference.encode_ns),
            duration(c.encode_fresh_ns),
            duration(c.decode_ns),
            ratio(c.decode_ns, reference.decode_ns),
            borrowed,
            c.round_trips_per_sec,
        );
    }
    out
}
