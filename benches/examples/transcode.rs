//! Re-encodes a fixture's JSON as MessagePack many times, as
//! `NegotiateLayer` does, for a profiler:
//!
//! ```sh
//! valgrind --tool=callgrind target/release/examples/transcode document 10000
//! ```
//!
//! Count a run of N and a run of 0 and divide the difference by N: the
//! fixture's own setup then drops out.

use msgpack_benches::fixtures;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, fixture, count] = &args[..] else {
        eprintln!("usage: transcode document|api_profile COUNT");
        std::process::exit(2);
    };
    let count: u64 = count.parse().expect("COUNT is a number");
    let json = match fixture.as_str() {
        "document" => serde_json::to_vec(&fixtures::document()),
        "api_profile" => serde_json::to_vec(&fixtures::api_profile()),
        _ => panic!("fixture is document or api_profile"),
    }
    .expect("the fixture serializes");
    for _ in 0..count {
        let bytes = msgpack_axum::json_to_msgpack(std::hint::black_box(&json));
        drop(std::hint::black_box(bytes.expect("valid JSON")));
    }
}
