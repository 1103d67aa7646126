use msgpack_serde::MsgPack;

#[derive(MsgPack)]
enum Status {
    #[msgpack(tag = 1)]
    Pending,
    #[msgpack(tag = 0, other)]
    Unknown(u64),
}

fn main() {}
