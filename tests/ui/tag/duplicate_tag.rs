use msgpack_serde::MsgPack;

#[derive(MsgPack)]
struct Order {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(tag = 1)]
    customer: String,
}

fn main() {}
