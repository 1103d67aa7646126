use msgpack_serde::MsgPack;

#[derive(serde::Serialize)]
struct NotDe;

#[derive(MsgPack)]
struct Order {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(tag = 2)]
    maybe: Option<NotDe>,
    #[msgpack(tag = 3)]
    many: Vec<NotDe>,
}

#[derive(MsgPack)]
#[msgpack(array)]
struct Row {
    #[msgpack(tag = 0)]
    maybe: Option<NotDe>,
}

fn main() {}
