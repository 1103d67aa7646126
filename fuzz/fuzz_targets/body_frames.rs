//! The `body_frames` target: see `msgpack_fuzz::http_checks::body_frames`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::http_checks::body_frames(data));
