use msgpack_serde::MsgPack;

#[derive(MsgPack)]
#[msgpack(array)]
enum Status {
    #[msgpack(tag = 1)]
    Pending,
}

fn main() {}
