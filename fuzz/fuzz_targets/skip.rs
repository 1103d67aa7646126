//! The `skip` target: see `msgpack_fuzz::checks::skip`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::checks::skip(data));
