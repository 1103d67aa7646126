//! The async helpers over real sockets on 127.0.0.1.

use futures::{SinkExt, StreamExt};
use msgpack_serde::Value;
use msgpack_tokio::{read_value, value_sink, value_stream, write_value};
use serde::{Deserialize, Serialize};
use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Event {
    id: u32,
    name: String,
    payload: Vec<u8>,
}

fn event(id: u32) -> Event {
    Event {
        id,
        name: format!("event {id}"),
        payload: vec![id as u8; (id as usize * 37) % 5000],
    }
}

/// A connected pair of TCP streams on loopback.
async fn socket_pair() -> (TcpStream, TcpStream) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (client, server) = tokio::join!(TcpStream::connect(address), listener.accept());
    (client.unwrap(), server.unwrap().0)
}

#[tokio::test]
async fn read_value_reads_one_value_and_not_a_byte_more() {
    let (mut client, server) = socket_pair().await;
    let writer = tokio::spawn(async move {
        for id in 0..200 {
            write_value(&mut client, &event(id)).await.unwrap();
        }
        client.write_all(b"trailer").await.unwrap();
    });
    let mut reader = BufReader::new(server);
    for id in 0..200 {
        let read: Event = read_value(&mut reader).await.unwrap();
        assert_eq!(read, event(id));
    }
    let mut rest = Vec::new();
    reader.read_to_end(&mut rest).await.unwrap();
    assert_eq!(rest, b"trailer");
    writer.await.unwrap();
}

#[tokio::test]
async fn read_value_tells_an_empty_stream_from_a_cut_value() {
    let mut empty: &[u8] = &[];
    let error = read_value::<Value, _>(&mut empty).await.unwrap_err();
    assert!(error.is_io());
    assert_eq!(error.to_string(), "end of stream before a value");

    let mut cut: &[u8] = &[0x93, 0x01, 0x02];
    let error = read_value::<Value, _>(&mut cut).await.unwrap_err();
    assert!(error.is_truncated());
    assert_eq!(
        error.to_string(),
        "truncated at end of stream: the value at offset 0 ended after 3 bytes"
    );
}

#[tokio::test]
async fn a_sink_and_a_stream_carry_values_over_tcp() {
    let (client, server) = socket_pair().await;
    let writer = tokio::spawn(async move {
        let mut sink = value_sink::<Event, _>(client);
        for id in 0..1000 {
            sink.feed(event(id)).await.unwrap();
        }
        sink.close().await.unwrap();
    });
    let mut stream = value_stream::<Event, _>(server);
    let mut id = 0;
    while let Some(read) = stream.next().await {
        assert_eq!(read.unwrap(), event(id));
        id += 1;
    }
    assert_eq!(id, 1000);
    writer.await.unwrap();
}

#[tokio::test]
async fn a_peer_that_closes_mid_value_ends_the_stream_with_a_truncated_error() {
    let (mut client, server) = socket_pair().await;
    let mut bytes = msgpack_serde::to_vec(&event(1)).unwrap();
    let whole = bytes.len();
    bytes.extend_from_slice(&msgpack_serde::to_vec(&event(2)).unwrap()[..10]);
    client.write_all(&bytes).await.unwrap();
    drop(client);
    let mut stream = value_stream::<Event, _>(server);
    assert_eq!(stream.next().await.unwrap().unwrap(), event(1));
    let error = stream.next().await.unwrap().unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("truncated at end of stream: the value at offset {whole} ended after 10 bytes")
    );
    assert!(stream.next().await.is_none());
}
