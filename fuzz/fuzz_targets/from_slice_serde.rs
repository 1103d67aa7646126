//! The `from_slice_serde` target: see `msgpack_fuzz::checks::from_slice_serde`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::checks::from_slice_serde(data));
