//! The `timestamp` target: see `msgpack_fuzz::checks::timestamp`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::checks::timestamp(data));
