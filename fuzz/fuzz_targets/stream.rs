//! The `stream` target: see `msgpack_fuzz::checks::stream`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::checks::stream(data));
