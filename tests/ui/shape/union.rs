use msgpack_serde::MsgPack;

#[derive(MsgPack)]
union Number {
    int: u64,
    float: f64,
}

fn main() {}
