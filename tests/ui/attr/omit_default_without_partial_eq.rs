use msgpack_serde::MsgPack;

#[derive(serde::Serialize, serde::Deserialize, Default)]
struct Money(u64);

#[derive(MsgPack)]
#[msgpack(omit_default)]
struct Order {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(tag = 2)]
    total: Money,
}

fn main() {}
