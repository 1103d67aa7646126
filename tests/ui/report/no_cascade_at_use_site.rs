use msgpack_serde::schema::Schema;
use msgpack_serde::MsgPack;

#[derive(MsgPack)]
struct Order {
    #[msgpack(tagg = 1)]
    id: u64,
}

fn encode(order: &Order) -> Vec<u8> {
    msgpack_serde::to_vec(order).unwrap()
}

fn decode(bytes: &[u8]) -> Order {
    msgpack_serde::from_slice(bytes).unwrap()
}

#[derive(MsgPack)]
struct Batch {
    #[msgpack(tag = 1)]
    orders: Vec<Order>,
}

fn main() {
    let _ = decode(&encode(&Order { id: 1 }));
    let _ = Order::schema();
    let _ = Batch::schema();
}
