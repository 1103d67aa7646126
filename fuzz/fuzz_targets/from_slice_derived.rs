//! The `from_slice_derived` target: see `msgpack_fuzz::checks::from_slice_derived`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::checks::from_slice_derived(data));
