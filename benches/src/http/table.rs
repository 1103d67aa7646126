//! The load test's results as markdown tables.

use std::fmt::Write as _;

use super::{HttpResult, ROUNDS};
use crate::table::duration;

/// The results of one fixture as text tables.
pub fn http_table(result: &HttpResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## HTTP: {}  ({} keep-alive connections, client and server on {} worker threads)\n",
        result.fixture, result.connections, result.worker_threads
    );
    let _ = writeln!(
        out,
        "| case | requests | requests/s | p50 | p99 | bytes/response | client check/response |"
    );
    let _ = writeln!(out, "|---|--:|--:|--:|--:|--:|--:|");
    for c in &result.cases {
        let _ = writeln!(
            out,
            "| {} | {} | {:.0} | {} | {} | {:.0} | {} |",
            c.case,
            c.requests,
            c.requests_per_sec,
            duration(c.p50_ns as f64),
            duration(c.p99_ns as f64),
            c.bytes_per_response,
            duration(c.check_ns_per_response),
        );
    }
    let _ = writeln!(
        out,
        "\n| target (requests/s, median of {ROUNDS} rounds) | ratio | range | met |"
    );
    let _ = writeln!(out, "|---|--:|--:|---|");
    for r in &result.ratios {
        let _ = writeln!(
            out,
            "| {} >= {:.2} | {:.3} | {:.3}-{:.3} | {} |",
            r.name,
            r.target,
            r.median,
            r.min,
            r.max,
            if r.met { "yes" } else { "no" },
        );
    }
    let _ = writeln!(
        out,
        "\n| in-process, no HTTP (one request through the router; one body) | time |"
    );
    let _ = writeln!(out, "|---|--:|");
    for e in &result.in_process {
        let _ = writeln!(out, "| {} | {} |", e.operation, duration(e.ns));
    }
    out
}
