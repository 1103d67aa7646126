use std::time::SystemTime;

use msgpack_serde::MsgPack;

#[derive(MsgPack)]
enum Change {
    #[msgpack(tag = 1)]
    At(#[msgpack(with = "msgpack_serde::timestamp")] SystemTime),
}

fn main() {}
