//! The fuzz targets' shared code: the properties each target checks
//! ([`checks`], with the decoder's fast paths held to the serde path in
//! [`fast_paths`], [`http_checks`] for msgpack-axum's readers, [`json`] for
//! the JSON transcoder and the `msgpack` command, the framer's in
//! [`frames`], msgpack-tokio's codec's in [`codec`], msgpack-rpc's
//! message parsing in [`rpc`] and `msgpack --schema`'s rewrite in
//! [`names`]), the types they
//! decode into ([`types`]) and the counting allocator that holds every
//! decode to a memory budget ([`budget`]).
//! See README.md for how to run them.

pub mod budget;
pub mod checks;
pub mod codec;
pub mod fast_paths;
pub mod frames;
pub mod http_checks;
pub mod json;
pub mod names;
pub mod rpc;
pub mod types;

#[global_allocator]
static ALLOCATOR: budget::Counting = budget::Counting;
