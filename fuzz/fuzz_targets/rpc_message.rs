//! The `rpc_message` target: see `msgpack_fuzz::rpc::rpc_message`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| msgpack_fuzz::rpc::rpc_message(data));
