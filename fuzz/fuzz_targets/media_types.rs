//! The `media_types` target: see `msgpack_fuzz::http_checks::media_types`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::http_checks::media_types(data));
