//! The `frame` target: see `msgpack_fuzz::frames::frame`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::frames::frame(data));
