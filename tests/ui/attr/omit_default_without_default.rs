use msgpack_serde::MsgPack;

#[derive(serde::Serialize, serde::Deserialize, PartialEq)]
struct Money(u64);

#[derive(MsgPack)]
struct Order {
    #[msgpack(tag = 1, omit_default)]
    total: Money,
}

fn main() {}
