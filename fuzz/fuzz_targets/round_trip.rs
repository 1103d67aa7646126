//! The `round_trip` target: see `msgpack_fuzz::checks::round_trip`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::checks::round_trip(data));
