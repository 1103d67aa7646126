//! The `msgpack_to_json` target: see `msgpack_fuzz::json::msgpack_to_json`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::json::msgpack_to_json(data));
