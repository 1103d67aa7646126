use msgpack_serde::MsgPack;

#[derive(MsgPack)]
struct Order {
    #[msgpack(tagg = 1)]
    id: u64,
}

fn main() {}
