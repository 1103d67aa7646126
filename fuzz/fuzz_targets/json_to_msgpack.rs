//! The `json_to_msgpack` target: see `msgpack_fuzz::json::json_to_msgpack`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::json::json_to_msgpack(data));
