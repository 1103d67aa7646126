//! The `schema_names` target: see `msgpack_fuzz::names::schema_names`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::names::schema_names(data));
