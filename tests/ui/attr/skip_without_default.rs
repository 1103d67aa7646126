use msgpack_serde::MsgPack;

struct Cache;

#[derive(MsgPack)]
struct Order {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(skip)]
    cache: Cache,
}

fn main() {}
