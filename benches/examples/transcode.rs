//! Re-encodes a fixture's JSON as MessagePack many times, as
//! `NegotiateLayer` does, for a profiler:
//!
//! ```sh
//! valgrind --tool=callgrind target/release/examples/transcode document 10000
//! ```
//!
//! Count a run of N and a run of 0 and divide the difference by N: the
//! fixture's own setup then drops out. With `parse` after the count, it
//! only parses the JSON with serde_json into `IgnoredAny` instead: the
//! bar the transcode is measured against.

use msgpack_benches::fixtures;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (fixture, count, parse) = match &args[..] {
        [_, fixture, count] => (fixture, count, false),
        [_, fixture, count, mode] if mode == "parse" => (fixture, count, true),
        _ => {
            eprintln!("usage: transcode document|api_profile COUNT [parse]");
            std::process::exit(2);
        }
    };
    let count: u64 = count.parse().expect("COUNT is a number");
    let json = match fixture.as_str() {
        "document" => serde_json::to_vec(&fixtures::document()),
        "api_profile" => serde_json::to_vec(&fixtures::api_profile()),
        _ => panic!("fixture is document or api_profile"),
    }
    .expect("the fixture serializes");
    if parse {
        for _ in 0..count {
            let parsed =
                serde_json::from_slice::<serde::de::IgnoredAny>(std::hint::black_box(&json));
            std::hint::black_box(parsed.expect("valid JSON"));
        }
        return;
    }
    for _ in 0..count {
        let bytes = msgpack_axum::json_to_msgpack(std::hint::black_box(&json));
        drop(std::hint::black_box(bytes.expect("valid JSON")));
    }
}
