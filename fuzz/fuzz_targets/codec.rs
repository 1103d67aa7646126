//! The `codec` target: see `msgpack_fuzz::codec::codec`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::codec::codec(data));
