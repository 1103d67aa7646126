use msgpack_serde::MsgPack;

#[derive(MsgPack)]
#[msgpack(reserved(4, 9..=12))]
enum Status {
    #[msgpack(tag = 1)]
    Pending,
    #[msgpack(tag = 10)]
    Shipped,
}

fn main() {}
