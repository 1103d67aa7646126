use msgpack_serde::MsgPack;

#[derive(MsgPack)]
#[msgpack(reserved(3), rename_all = "kebab")]
struct Order {
    #[msgpack(tag = 1)]
    id: u64,
    customer: String,
    #[msgpack(tag = 1)]
    total: u64,
    #[msgpack(tag = 3)]
    note: Option<String>,
    #[msgpack(tagg = 4)]
    lines: Vec<String>,
}

fn main() {}
