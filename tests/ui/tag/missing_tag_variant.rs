use msgpack_serde::MsgPack;

#[derive(MsgPack)]
enum Status {
    #[msgpack(tag = 1)]
    Pending,
    Shipped,
}

fn main() {}
