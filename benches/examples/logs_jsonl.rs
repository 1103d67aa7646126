//! The logs fixture's 10,000 records as JSON Lines, repeated to about N
//! MiB (256 by default): the input `benches/cli_vs_python.sh` converts.
//!
//! `cargo run --release -p msgpack-benches --example logs_jsonl -- 256 > logs.jsonl`

use std::io::{BufWriter, Write};

use msgpack_benches::fixtures;

fn main() -> std::io::Result<()> {
    let mib: usize = std::env::args()
        .nth(1)
        .and_then(|text| text.parse().ok())
        .unwrap_or(256);
    let lines: Vec<String> = fixtures::logs()
        .records
        .iter()
        .map(|record| serde_json::to_string(record).expect("a record serializes"))
        .collect();
    let target = mib << 20;
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut written = 0;
    while written < target {
        for line in &lines {
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")?;
            written += line.len() + 1;
            if written >= target {
                break;
            }
        }
    }
    out.flush()
}
