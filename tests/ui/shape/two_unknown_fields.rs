use msgpack_serde::{MsgPack, UnknownFields};

#[derive(MsgPack)]
struct Order {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(unknown)]
    unknown: UnknownFields,
    #[msgpack(unknown)]
    more_unknown: UnknownFields,
}

fn main() {}
