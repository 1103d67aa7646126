//! Benchmarks of msgpack-serde against serde_json, rmp-serde, prost and
//! msgpacker on the same fixtures: encoded size, gzip size, encode and
//! decode time. The `msgpack-bench` command and the criterion benches
//! (`cargo bench -p msgpack-benches`) both run on what this crate builds,
//! and so does `msgpack-bench --http`, a load test of msgpack-axum.

pub mod chart;
pub mod codecs;
pub mod fixtures;
pub mod http;
pub mod measure;
pub use msgpack_bench_model as model;
pub mod proto;
pub mod rng;
pub mod run;
pub mod table;
pub mod types;
