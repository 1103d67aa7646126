use msgpack_serde::MsgPack;

#[derive(MsgPack)]
enum Status {
    #[msgpack(tag = 1)]
    Pending,
    #[msgpack(tag = 0, other)]
    Unknown,
    #[msgpack(tag = 99, other)]
    Unrecognized,
}

fn main() {}
