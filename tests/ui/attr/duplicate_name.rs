use msgpack_serde::MsgPack;

#[derive(MsgPack)]
struct Order {
    #[msgpack(tag = 1, rename = "customer")]
    id: u64,
    #[msgpack(tag = 2)]
    customer: String,
}

#[derive(MsgPack)]
#[msgpack(rename_all = "snake_case")]
enum Status {
    #[msgpack(tag = 1)]
    Shipped,
    #[msgpack(tag = 2, rename = "shipped")]
    Sent,
}

fn main() {}
