use msgpack_serde::MsgPack;

#[derive(MsgPack)]
#[msgpack(reserved(2))]
struct Order {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(tag = 2)]
    customer: String,
}

fn main() {}
