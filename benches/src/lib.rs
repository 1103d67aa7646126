//! Benchmarks of msgpack-serde against serde_json, rmp-serde, prost,
//! msgpacker and zerompk (its array and map forms) on the same
//! fixtures: encoded size, gzip size, encode and decode time. The
//! `msgpack-bench` command and the criterion benches
//! (`cargo bench -p msgpack-benches`) both run on what this crate builds,
//! and so does `msgpack-bench --http`, a load test of msgpack-axum, and
//! `msgpack-bench --stream`, msgpack-tokio's codec on a stream of records,
//! and `msgpack-bench --rpc`, msgpack-rpc round trips against JSON-RPC.

pub mod chart;
pub mod codecs;
pub mod fixtures;
pub mod http;
pub mod measure;
pub use msgpack_bench_model as model;
pub mod proto;
pub mod rng;
pub mod rpc;
pub mod run;
pub mod stream;
pub mod table;
pub mod types;
