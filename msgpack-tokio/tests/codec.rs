//! The codec: round trips in every split, raw frames, `Value`, derived
//! types, and exactly how a stream ends.

use bytes::{Bytes, BytesMut};
use futures::StreamExt;
use msgpack_serde::{msgpack, MsgPack, Value};
use msgpack_tokio::{Error, Limits, MsgPackCodec};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use tokio_util::codec::{Decoder, Encoder, FramedRead};

#[derive(MsgPack, Debug, Clone, PartialEq)]
struct Order {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(tag = 2)]
    customer: String,
    #[msgpack(tag = 3)]
    note: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Point {
    x: i32,
    y: i32,
}

/// Decodes `stream` fed to the codec `chunk` bytes at a time, to the end.
fn decode_in_chunks<T: serde::de::DeserializeOwned + 'static>(
    codec: &mut MsgPackCodec<(), T>,
    stream: &[u8],
    chunk: usize,
) -> Result<Vec<T>, Error> {
    let mut buffer = BytesMut::new();
    let mut values = Vec::new();
    for piece in stream.chunks(chunk.max(1)) {
        buffer.extend_from_slice(piece);
        while let Some(value) = codec.decode(&mut buffer)? {
            values.push(value);
        }
    }
    while let Some(value) = codec.decode_eof(&mut buffer)? {
        values.push(value);
    }
    Ok(values)
}

fn encode_all<T: Serialize + Clone>(values: &[T]) -> BytesMut {
    let mut codec = MsgPackCodec::<T, ()>::new();
    let mut buffer = BytesMut::new();
    for value in values {
        codec.encode(value.clone(), &mut buffer).unwrap();
    }
    buffer
}

#[test]
fn encoding_writes_what_to_vec_writes_back_to_back() {
    let points = [Point { x: 1, y: -1 }, Point { x: 300, y: 0 }];
    let buffer = encode_all(&points);
    let expected = [
        msgpack_serde::to_vec(&points[0]).unwrap(),
        msgpack_serde::to_vec(&points[1]).unwrap(),
    ]
    .concat();
    assert_eq!(&buffer[..], expected);

    let mut compact = BytesMut::new();
    MsgPackCodec::<&Point, ()>::new()
        .compact()
        .encode(&points[0], &mut compact)
        .unwrap();
    assert_eq!(
        &compact[..],
        msgpack_serde::to_vec_compact(&points[0]).unwrap()
    );
}

#[test]
fn a_value_that_fails_to_encode_appends_nothing() {
    let mut buffer = BytesMut::from(&[0xc0][..]);
    let error = MsgPackCodec::<(u8, u128), ()>::new()
        .encode((1, u128::MAX), &mut buffer)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "integer out of the MessagePack range (i64::MIN to u64::MAX)"
    );
    assert_eq!(&buffer[..], [0xc0]);
}

#[test]
fn derived_types_values_and_raw_frames_decode() {
    let orders = [
        Order {
            id: 1,
            customer: "Ada".into(),
            note: None,
        },
        Order {
            id: 2,
            customer: "Grace".into(),
            note: Some("ünïcode".into()),
        },
    ];
    let stream = encode_all(&orders);
    let decoded = decode_in_chunks(&mut MsgPackCodec::<(), Order>::new(), &stream, 3).unwrap();
    assert_eq!(decoded, orders);

    let values = decode_in_chunks(&mut MsgPackCodec::<(), Value>::new(), &stream, 5).unwrap();
    assert_eq!(values[0], msgpack!({1: 1, 2: "Ada"}));

    let frames = decode_in_chunks(&mut MsgPackCodec::<(), Bytes>::new(), &stream, 2).unwrap();
    assert_eq!(frames[0], msgpack_serde::to_vec(&orders[0]).unwrap());
    assert_eq!(frames[1], msgpack_serde::to_vec(&orders[1]).unwrap());
    let frames = decode_in_chunks(&mut MsgPackCodec::<(), BytesMut>::new(), &stream, 64).unwrap();
    assert_eq!(frames.concat(), &stream[..]);
}

#[test]
fn errors_carry_the_stream_offset_and_end_the_stream() {
    // Two good values, then a string where a point was expected.
    let mut stream = encode_all(&[Point { x: 1, y: 2 }, Point { x: 3, y: 4 }]).to_vec();
    let at = stream.len();
    stream.extend_from_slice(&[0xa1, b'x', 0xc0]);
    for chunk in [1, 4, stream.len()] {
        let mut codec = MsgPackCodec::<(), Point>::new();
        let error = decode_in_chunks(&mut codec, &stream, chunk).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(r#"invalid type: string "x", expected struct Point at offset {at}"#)
        );
        let mut more = BytesMut::from(&[0xc0][..]);
        let again = codec.decode(&mut more).unwrap_err();
        assert_eq!(
            again.to_string(),
            format!("the stream already ended with an error at offset {at}")
        );
        assert!(more.is_empty(), "bytes after the error are dropped");
    }
}

/// A number that refuses 13 after reading it.
#[derive(Debug)]
struct NotThirteen;

impl<'de> Deserialize<'de> for NotThirteen {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match u8::deserialize(deserializer)? {
            13 => Err(serde::de::Error::custom("thirteen")),
            _ => Ok(NotThirteen),
        }
    }
}

#[test]
fn a_values_own_error_is_where_the_reader_stopped_in_the_stream() {
    // Read in place and framed (one byte at a time), the error is after
    // the value, in the stream's offsets.
    let stream = [0x01, 0x02, 0x0d, 0x04];
    for chunk in [1, 2, stream.len()] {
        let mut codec = MsgPackCodec::<(), NotThirteen>::new();
        let error = decode_in_chunks(&mut codec, &stream, chunk).unwrap_err();
        assert_eq!(
            error.to_string(),
            "thirteen at offset 3",
            "chunks of {chunk}"
        );
    }
}

#[test]
fn an_array_longer_than_its_struct_ends_the_stream_at_the_array() {
    // A point as an array of three: its visitor takes two, and the value
    // it made is refused as `from_slice` refuses it.
    let mut stream = encode_all(&[Point { x: 1, y: 2 }]).to_vec();
    let at = stream.len();
    stream.extend_from_slice(&[0x93, 0x01, 0x02, 0x03, 0xc0]);
    assert_eq!(
        msgpack_serde::from_slice::<Point>(&stream[at..at + 4])
            .unwrap_err()
            .to_string(),
        "invalid length 3, expected fewer elements in array at offset 0"
    );
    for chunk in [1, 4, stream.len()] {
        let mut codec = MsgPackCodec::<(), Point>::new();
        let error = decode_in_chunks(&mut codec, &stream, chunk).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("invalid length 3, expected fewer elements in array at offset {at}")
        );
    }
}

/// A type whose `Deserialize` reads nothing at all.
#[derive(Debug)]
struct ReadsNothing;

impl<'de> Deserialize<'de> for ReadsNothing {
    fn deserialize<D: serde::Deserializer<'de>>(_: D) -> Result<Self, D::Error> {
        Ok(ReadsNothing)
    }
}

#[test]
fn a_type_that_reads_nothing_of_its_value_ends_the_stream_as_from_slice_does() {
    // Decoding in place must move past a value, or the stream would yield
    // the same item for ever without reading on.
    assert_eq!(
        msgpack_serde::from_slice::<ReadsNothing>(&[0x01])
            .unwrap_err()
            .to_string(),
        "trailing bytes after the value at offset 0"
    );
    let mut codec = MsgPackCodec::<(), ReadsNothing>::new();
    let error = decode_in_chunks(&mut codec, &[0x01, 0x02], 2).unwrap_err();
    assert_eq!(
        error.to_string(),
        "trailing bytes after the value at offset 0"
    );
}

#[test]
fn each_limit_has_its_own_error() {
    let cases: &[(Limits, usize, &[u8], &str)] = &[
        (
            Limits::new(),
            100,
            &[0x01, 0xc5, 0x10, 0x00],
            "value exceeds the frame size limit of 100 bytes at offset 1",
        ),
        (
            Limits::new().max_depth(3),
            usize::MAX,
            &[0x91, 0x91, 0x91, 0x91, 0xc0],
            "nesting exceeds the depth limit of 3 at offset 3",
        ),
        (
            Limits::new().max_values(4),
            usize::MAX,
            &[0x94, 0x01],
            "more values than the limit of 4 at offset 0",
        ),
        (
            Limits::new().max_bytes(5),
            usize::MAX,
            &[0xc0, 0xc0, 0xa4],
            "input exceeds the size limit of 5 bytes at offset 5",
        ),
        (
            Limits::new(),
            usize::MAX,
            &[0xc0, 0x92, 0xc1],
            "reserved marker 0xc1 at offset 2",
        ),
    ];
    for &(limits, max_frame_len, stream, message) in cases {
        for chunk in [1, stream.len()] {
            let mut codec = MsgPackCodec::<(), Value>::new()
                .with_limits(limits)
                .with_max_frame_len(max_frame_len);
            let error = decode_in_chunks(&mut codec, stream, chunk).unwrap_err();
            assert_eq!(error.to_string(), message);
            assert_eq!(error.is_limit(), !message.starts_with("reserved"));
        }
    }
}

#[test]
fn a_stream_cut_inside_a_value_is_truncated_not_ended() {
    let mut codec = MsgPackCodec::<(), Value>::new();
    let error = decode_in_chunks(&mut codec, &[0xc3, 0x92, 0x01], 1).unwrap_err();
    assert!(error.is_truncated());
    assert_eq!(
        error.to_string(),
        "truncated at end of stream: the value at offset 1 ended after 2 bytes"
    );
    assert_eq!(
        std::io::Error::from(error).kind(),
        std::io::ErrorKind::UnexpectedEof
    );
    // Between values, the stream ends cleanly.
    let mut codec = MsgPackCodec::<(), Value>::new();
    assert_eq!(
        decode_in_chunks(&mut codec, &[0xc3, 0xc2], 1)
            .unwrap()
            .len(),
        2
    );
}

#[tokio::test]
async fn framed_read_gives_the_error_as_its_last_item() {
    let input: &[u8] = &[0x01, 0x02, 0xc1, 0x03];
    let mut stream = FramedRead::new(input, MsgPackCodec::<(), u8>::new());
    assert_eq!(stream.next().await.unwrap().unwrap(), 1);
    assert_eq!(stream.next().await.unwrap().unwrap(), 2);
    let error = stream.next().await.unwrap().unwrap_err();
    assert_eq!(error.to_string(), "reserved marker 0xc1 at offset 2");
    assert!(stream.next().await.is_none());

    let cut: &[u8] = &[0x01, 0xcd, 0x01];
    let mut stream = FramedRead::new(cut, MsgPackCodec::<(), u16>::new());
    assert_eq!(stream.next().await.unwrap().unwrap(), 1);
    let error = stream.next().await.unwrap().unwrap_err();
    assert_eq!(
        error.to_string(),
        "truncated at end of stream: the value at offset 1 ended after 2 bytes"
    );
    assert!(stream.next().await.is_none());
}

/// A reader that hands out `stream` at most `chunk` bytes a read, as a
/// socket would, and records the room each read was offered.
struct Offered<'a> {
    stream: &'a [u8],
    chunk: usize,
    room: Vec<usize>,
}

impl tokio::io::AsyncRead for Offered<'_> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        self.room.push(buf.remaining());
        let len = self.chunk.min(buf.remaining()).min(self.stream.len());
        let (read, rest) = self.stream.split_at(len);
        buf.put_slice(read);
        self.stream = rest;
        std::task::Poll::Ready(Ok(()))
    }
}

#[tokio::test]
async fn reads_are_offered_eight_kibibytes_of_room_once_the_buffer_has_grown() {
    // 3,000-byte reads of values of about 15 bytes: reads end inside
    // values, and the frames cut before them leave the buffer's
    // allocation short of room.
    let points: Vec<Point> = (0..10_000)
        .map(|i| Point {
            x: i,
            y: -i * 100_000,
        })
        .collect();
    let stream = encode_all(&points);
    let mut reader = Offered {
        stream: &stream,
        chunk: 3_000,
        room: Vec::new(),
    };
    let mut frames = FramedRead::new(&mut reader, MsgPackCodec::<(), Point>::new());
    let mut decoded = Vec::new();
    while let Some(point) = frames.next().await {
        decoded.push(point.unwrap());
    }
    assert_eq!(decoded, points);
    // `FramedRead`'s first 8 KiB fill up as they would without the codec
    // (8,192, 5,192, 2,192); then the codec grows the buffer once, and
    // takes room back from its own allocation before every read.
    let room = &reader.room;
    assert_eq!(room[..3], [8192, 5192, 2192]);
    let grown = room.iter().position(|&room| room > 8192).unwrap();
    assert!(room.len() - grown > 10, "{} reads", room.len());
    assert!(
        room[grown..].iter().all(|&room| room >= 8 << 10),
        "room offered: {room:?}"
    );
}

fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Nil),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".{0,40}".prop_map(Value::from),
        proptest::collection::vec(any::<u8>(), 0..300).prop_map(Value::Bin),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::vec((inner.clone(), inner), 0..6).prop_map(Value::Map),
        ]
    })
}

proptest! {
    /// Any split of a stream into chunks decodes to the same values, as
    /// `Value`s, as raw frames and through serde.
    #[test]
    fn any_split_decodes_to_the_same_values(
        values in proptest::collection::vec(any_value(), 0..12),
        cuts in proptest::collection::vec(1usize..64, 1..40),
    ) {
        let frames: Vec<Vec<u8>> = values.iter().map(|v| msgpack_serde::to_vec(v).unwrap()).collect();
        let stream = frames.concat();
        let mut codec = MsgPackCodec::<(), Value>::new();
        let mut raw = MsgPackCodec::<(), Bytes>::new();
        // A serde type: decoded in place when whole, framed first when not.
        let mut serde = MsgPackCodec::<(), msgpack_serde::RawValue>::new();
        let mut buffer = BytesMut::new();
        let mut raw_buffer = BytesMut::new();
        let mut serde_buffer = BytesMut::new();
        let (mut decoded, mut raw_decoded, mut serde_decoded) = (Vec::new(), Vec::new(), Vec::new());
        let mut rest = &stream[..];
        let mut cuts = cuts.iter().cycle();
        while !rest.is_empty() {
            let (piece, tail) = rest.split_at((*cuts.next().unwrap()).min(rest.len()));
            rest = tail;
            buffer.extend_from_slice(piece);
            raw_buffer.extend_from_slice(piece);
            while let Some(value) = codec.decode(&mut buffer).unwrap() {
                decoded.push(value);
            }
            while let Some(frame) = raw.decode(&mut raw_buffer).unwrap() {
                raw_decoded.push(frame.to_vec());
            }
            serde_buffer.extend_from_slice(piece);
            while let Some(value) = serde.decode(&mut serde_buffer).unwrap() {
                serde_decoded.push(value.as_bytes().to_vec());
            }
        }
        prop_assert!(codec.decode_eof(&mut buffer).unwrap().is_none());
        prop_assert_eq!(decoded.len(), values.len());
        for (decoded, value) in decoded.iter().zip(&values) {
            // NaN != NaN: compare the encodings.
            prop_assert_eq!(msgpack_serde::to_vec(decoded).unwrap(), msgpack_serde::to_vec(value).unwrap());
        }
        prop_assert_eq!(&raw_decoded, &frames);
        prop_assert_eq!(&serde_decoded, &frames);
    }
}

#[test]
fn raw_frames_under_no_depth_limit_split_and_fail_as_under_the_default() {
    // Unlimited depth and values: whole frames are found by the wire
    // layer's walker in place, cut ones by the framer; the frames and the
    // errors are the same whichever finds them.
    let values = [
        msgpack_serde::to_vec(&(1, "two", [3.5])).unwrap(),
        msgpack_serde::to_vec(&Point { x: 1, y: 2 }).unwrap(),
        vec![0x91, 0x91, 0x90],
        vec![0xc0],
    ];
    let stream = values.concat();
    for chunk in [1, 2, 5, stream.len()] {
        for limits in [Limits::default(), Limits::unlimited()] {
            let mut codec = MsgPackCodec::<(), Bytes>::new().with_limits(limits);
            let frames = decode_in_chunks(&mut codec, &stream, chunk).unwrap();
            assert_eq!(frames, values, "chunks of {chunk}, {limits:?}");

            let mut bad = stream.clone();
            bad.extend_from_slice(&[0x92, 0x01, 0xc1]);
            let mut codec = MsgPackCodec::<(), Bytes>::new().with_limits(limits);
            let error = decode_in_chunks(&mut codec, &bad, chunk).unwrap_err();
            let at = stream.len() + 2;
            assert_eq!(
                error.to_string(),
                format!("reserved marker 0xc1 at offset {at}")
            );

            let mut codec = MsgPackCodec::<(), Bytes>::new()
                .with_limits(limits)
                .with_max_frame_len(8);
            let error = decode_in_chunks(&mut codec, &stream, chunk).unwrap_err();
            assert_eq!(
                error.to_string(),
                // The float's header, which takes the value past 8 bytes.
                "value exceeds the frame size limit of 8 bytes at offset 7",
                "chunks of {chunk}, {limits:?}"
            );
        }
    }
}
