use msgpack_serde::MsgPack;

#[derive(MsgPack)]
struct Order {
    #[msgpack(tag = 1, tag = 2)]
    id: u64,
}

fn main() {}
