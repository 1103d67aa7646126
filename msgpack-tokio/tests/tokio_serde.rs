//! The `tokio_serde` format: a drop-in for tokio-serde's own MessagePack
//! format (rmp-serde) on a length-delimited transport, and the same with
//! no length prefix.
#![cfg(feature = "tokio-serde")]

use futures::{SinkExt, StreamExt};
use msgpack_tokio::tokio_serde::{framed, SymmetricalMsgPack};
use msgpack_tokio::{write_value, Limits};
use serde::{Deserialize, Serialize};
use tokio_serde::formats::SymmetricalMessagePack;
use tokio_serde::SymmetricallyFramed;
use tokio_util::codec::{Framed, LengthDelimitedCodec};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Order {
    id: u64,
    customer: String,
    lines: Vec<(String, u32)>,
}

fn order(id: u64) -> Order {
    Order {
        id,
        customer: format!("customer {id}"),
        lines: vec![("socks".into(), 2), ("hat".into(), 1)],
    }
}

#[tokio::test]
async fn ours_and_rmp_serdes_format_talk_over_a_length_delimited_transport() {
    let (a, b) = tokio::io::duplex(4096);
    let mut ours = SymmetricallyFramed::new(
        Framed::new(a, LengthDelimitedCodec::new()),
        SymmetricalMsgPack::<Order>::default(),
    );
    let mut theirs = SymmetricallyFramed::new(
        Framed::new(b, LengthDelimitedCodec::new()),
        SymmetricalMessagePack::<Order>::default(),
    );
    for id in 0..100 {
        ours.send(order(id)).await.unwrap();
        assert_eq!(theirs.next().await.unwrap().unwrap(), order(id));
        theirs.send(order(id + 1000)).await.unwrap();
        assert_eq!(ours.next().await.unwrap().unwrap(), order(id + 1000));
    }
}

#[tokio::test]
async fn the_format_applies_its_limits_and_wants_one_value_per_frame() {
    let (a, b) = tokio::io::duplex(4096);
    let mut ours = SymmetricallyFramed::new(
        Framed::new(a, LengthDelimitedCodec::new()),
        SymmetricalMsgPack::<Vec<Vec<u8>>>::default().with_limits(Limits::new().max_depth(1)),
    );
    let mut raw = Framed::new(b, LengthDelimitedCodec::new());
    raw.send(bytes::Bytes::from_static(&[0x91, 0x91, 0x01]))
        .await
        .unwrap();
    let error = ours.next().await.unwrap().unwrap_err();
    assert_eq!(
        error.to_string(),
        "nesting exceeds the depth limit of 1 at offset 1"
    );

    let (a, b) = tokio::io::duplex(4096);
    let mut ours = SymmetricallyFramed::new(
        Framed::new(a, LengthDelimitedCodec::new()),
        SymmetricalMsgPack::<u8>::default(),
    );
    let mut raw = Framed::new(b, LengthDelimitedCodec::new());
    raw.send(bytes::Bytes::from_static(&[0x01, 0x02]))
        .await
        .unwrap();
    let error = ours.next().await.unwrap().unwrap_err();
    assert_eq!(
        error.to_string(),
        "trailing bytes after the value at offset 1"
    );
}

#[tokio::test]
async fn framed_needs_no_length_prefix() {
    let (a, mut b) = tokio::io::duplex(4096);
    let mut ours = framed::<_, Order, Order>(a);
    // A peer writing plain values back to back.
    for id in 0..10 {
        write_value(&mut b, &order(id)).await.unwrap();
    }
    for id in 0..10 {
        assert_eq!(ours.next().await.unwrap().unwrap(), order(id));
    }
    ours.send(order(99)).await.unwrap();
    let echoed: Order = msgpack_tokio::read_value(&mut b).await.unwrap();
    assert_eq!(echoed, order(99));
}
