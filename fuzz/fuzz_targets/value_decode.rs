//! The `value_decode` target: see `msgpack_fuzz::checks::value_decode`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::checks::value_decode(data));
