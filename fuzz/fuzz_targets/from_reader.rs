//! The `from_reader` target: see `msgpack_fuzz::checks::from_reader`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::checks::from_reader(data));
