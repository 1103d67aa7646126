//! Hostile streams: headers that claim gigabytes, nesting 100,000 deep,
//! an array that never ends, a peer that stops mid-value. Each is fed to
//! the codec in chunks, as `FramedRead` feeds it, under a counting
//! allocator (this test binary only): each is rejected with nothing
//! allocated past what arrived and the limits.

#[path = "../../fuzz/src/budget.rs"]
mod budget;

use budget::{measure, Usage};
use bytes::{Bytes, BytesMut};
use msgpack_serde::Value;
use msgpack_tokio::{Error, MsgPackCodec};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use tokio_util::codec::Decoder;

#[global_allocator]
static ALLOCATOR: budget::Counting = budget::Counting;

/// What the codec may allocate whatever it is fed.
const BASE: usize = 64 * 1024;

/// Arrays in arrays, as deep as the input goes: a serde type that
/// recurses, which only the depth limit stops.
#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Deep(Vec<Deep>);

/// Feeds `stream` to a codec for `T` in `chunk`-byte pieces until it
/// fails, then ends the stream; returns the error, what was fed, and what
/// the codec allocated meanwhile.
fn feed<T: DeserializeOwned + 'static>(
    codec: MsgPackCodec<(), T>,
    stream: impl Iterator<Item = u8>,
    chunk: usize,
    at_most: usize,
) -> (Error, usize, Usage) {
    let mut codec = codec;
    let mut stream = stream.take(at_most);
    let ((error, fed), usage) = measure(|| {
        let mut buffer = BytesMut::new();
        let mut fed = 0;
        loop {
            let before = buffer.len();
            buffer.extend(stream.by_ref().take(chunk));
            fed += buffer.len() - before;
            let result = if buffer.len() == before {
                codec.decode_eof(&mut buffer)
            } else {
                codec.decode(&mut buffer)
            };
            match result {
                Ok(Some(_)) => panic!("a hostile stream decoded"),
                Ok(None) if buffer.len() == before => panic!("the stream ended cleanly"),
                Ok(None) => {}
                Err(error) => return (error, fed),
            }
        }
    });
    (error, fed, usage)
}

/// Checks the error and that what was allocated, freed or not, stays
/// within `BASE` plus `per_byte` bytes per byte fed.
#[track_caller]
fn check(name: &str, (error, fed, usage): (Error, usize, Usage), message: &str, per_byte: usize) {
    println!("{name}: {fed} bytes fed, {usage:?}: {error}");
    assert_eq!(error.to_string(), message, "{name}");
    let budget = BASE + per_byte * fed;
    assert!(
        usage.total <= budget,
        "{name}: {} bytes allocated, over {budget}",
        usage.total
    );
}

#[test]
fn a_4_gib_string_header_is_refused_before_its_body() {
    let header = [0xdb, 0xff, 0xff, 0xff, 0xff];
    let stream = || header.into_iter().chain(std::iter::repeat(b'a'));
    let message = "value exceeds the frame size limit of 16777216 bytes at offset 0";
    // One byte at a time and 64 KiB at a time: refused once the header is
    // whole, with nothing buffered but what arrived.
    for chunk in [1, 64 * 1024] {
        check(
            "str32, String",
            feed(
                MsgPackCodec::<(), String>::new(),
                stream(),
                chunk,
                usize::MAX,
            ),
            message,
            4,
        );
        check(
            "str32, Value",
            feed(
                MsgPackCodec::<(), Value>::new(),
                stream(),
                chunk,
                usize::MAX,
            ),
            message,
            4,
        );
        check(
            "str32, raw",
            feed(
                MsgPackCodec::<(), Bytes>::new(),
                stream(),
                chunk,
                usize::MAX,
            ),
            message,
            4,
        );
    }
}

#[test]
fn nesting_100_000_deep_stops_at_the_depth_limit() {
    let stream = || std::iter::repeat_n(0x91, 100_000).chain([0x90]);
    let message = "nesting exceeds the depth limit of 128 at offset 128";
    for chunk in [1, 4096] {
        // Value and raw frames: the framer stops at the 129th array, in
        // the first chunk that holds it.
        let (error, fed, usage) = feed(
            MsgPackCodec::<(), Value>::new(),
            stream(),
            chunk,
            usize::MAX,
        );
        assert!(fed <= 129.max(chunk), "{fed} bytes read before the error");
        check("deep, Value", (error, fed, usage), message, 8);
        let (error, fed, usage) = feed(
            MsgPackCodec::<(), Bytes>::new(),
            stream(),
            chunk,
            usize::MAX,
        );
        assert!(fed <= 129.max(chunk));
        check("deep, raw", (error, fed, usage), message, 8);
        // A serde type counts depth as from_slice does, so the value is
        // framed whole (it is 100 KB, far under the frame size limit) and
        // then decoding stops at the same array.
        check(
            "deep, serde",
            feed(MsgPackCodec::<(), Deep>::new(), stream(), chunk, usize::MAX),
            message,
            8,
        );
    }
}

#[test]
fn an_array_that_never_ends_is_refused_at_its_header_or_at_the_frame_limit() {
    // 4 billion elements claimed: more than 16 MiB can hold, refused at once.
    let stream = || {
        [0xdd, 0xff, 0xff, 0xff, 0xff]
            .into_iter()
            .chain(std::iter::repeat(0xc0))
    };
    let message = "value exceeds the frame size limit of 16777216 bytes at offset 0";
    check(
        "array32, Value",
        feed(MsgPackCodec::<(), Value>::new(), stream(), 4096, usize::MAX),
        message,
        4,
    );
    check(
        "array32, serde",
        feed(
            MsgPackCodec::<(), Vec<()>>::new(),
            stream(),
            4096,
            usize::MAX,
        ),
        message,
        4,
    );
    // Arrays of 15 in arrays of 15, ever deeper past the depth limit for
    // raw frames: each header claims little, the frame size limit (1 MiB
    // here) stops the whole.
    let endless = || {
        std::iter::repeat_n(0x9f, 1).chain(
            std::iter::repeat([
                0x9f, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0, 0xc0,
                0xc0,
            ])
            .flatten(),
        )
    };
    let codec = MsgPackCodec::<(), Bytes>::new()
        .with_limits(msgpack_tokio::Limits::unlimited())
        .with_max_frame_len(1 << 20);
    let (error, fed, usage) = feed(codec, endless(), 64 * 1024, usize::MAX);
    println!("endless, raw: {fed} bytes fed, {usage:?}: {error}");
    let message = error.to_string();
    assert!(
        message.starts_with("value exceeds the frame size limit of 1048576 bytes at offset "),
        "{message}"
    );
    assert!(fed <= (1 << 20) + 64 * 1024, "{fed} bytes fed");
    assert!(usage.total <= BASE + 4 * fed, "{usage:?}");
}

#[test]
fn a_peer_that_stops_mid_value_gets_a_truncated_error() {
    let value: Vec<String> = (0..10_000).map(|i| format!("item {i}")).collect();
    let bytes = msgpack_serde::to_vec(&value).unwrap();
    let cut = bytes.len() / 2;
    let message =
        format!("truncated at end of stream: the value at offset 0 ended after {cut} bytes");
    check(
        "cut, serde",
        feed(
            MsgPackCodec::<(), Vec<String>>::new(),
            bytes.iter().copied(),
            4096,
            cut,
        ),
        &message,
        8,
    );
    check(
        "cut, Value",
        feed(
            MsgPackCodec::<(), Value>::new(),
            bytes.iter().copied(),
            4096,
            cut,
        ),
        &message,
        8,
    );
    check(
        "cut, raw",
        feed(
            MsgPackCodec::<(), Bytes>::new(),
            bytes.iter().copied(),
            4096,
            cut,
        ),
        &message,
        8,
    );
}

/// A value past the frame size limit that has arrived whole, after one
/// that fitted (so the codec decodes in place): refused as the framer
/// refuses it, before decoding it (60,000 fixints would be 480 KB of
/// `u64`s), whichever of the codec's modes reads it.
#[test]
fn a_whole_value_past_the_frame_limit_is_refused_before_it_is_decoded() {
    let mut stream = vec![0x91, 0x01]; // [1]
    stream.extend([0xdc, 0xea, 0x60]); // array 16 of 60,000 elements
    stream.extend(std::iter::repeat_n(0x01, 60_000));
    let message = "value exceeds the frame size limit of 4096 bytes at offset 2";

    let mut codec = MsgPackCodec::<(), Vec<u64>>::new().with_max_frame_len(4096);
    let mut buffer = BytesMut::from(&stream[..]);
    assert_eq!(codec.decode(&mut buffer).unwrap(), Some(vec![1]));
    let (error, usage) = measure(|| codec.decode(&mut buffer).unwrap_err());
    assert_eq!(error.to_string(), message, "serde");
    assert!(usage.total <= BASE, "serde: {usage:?}");

    let mut codec = MsgPackCodec::<(), Value>::new().with_max_frame_len(4096);
    let mut buffer = BytesMut::from(&stream[..]);
    assert!(codec.decode(&mut buffer).unwrap().is_some());
    let (error, usage) = measure(|| codec.decode(&mut buffer).unwrap_err());
    assert_eq!(error.to_string(), message, "Value");
    assert!(usage.total <= BASE, "Value: {usage:?}");
}

/// A peer that sends one small message a read while every frame it sent
/// is kept (handlers still running, answers not yet taken): the frames
/// share the read buffer's memory, which the codec's room for the next
/// read must not multiply. 10,000 messages of 11 bytes, read one at a
/// time, through `FramedRead`'s steps (one byte reserved, then the read).
#[test]
fn frames_kept_while_small_messages_arrive_pin_no_more_than_their_bytes() {
    let message = [
        0x94, 0x00, 0x01, 0xa4, b'e', b'c', b'h', b'o', 0x92, 0x01, 0x02,
    ];
    let (frames, usage) = measure(|| {
        let mut codec =
            MsgPackCodec::<(), Bytes>::new().with_limits(msgpack_serde::Limits::unlimited());
        let mut buffer = BytesMut::with_capacity(8 << 10);
        let mut frames = Vec::with_capacity(10_000);
        for _ in 0..10_000 {
            buffer.reserve(1);
            buffer.extend_from_slice(&message);
            while let Some(frame) = codec.decode(&mut buffer).unwrap() {
                frames.push(frame);
            }
        }
        frames
    });
    assert_eq!(frames.len(), 10_000);
    let received = 10_000 * message.len();
    // The frames' own vector (10,000 `Bytes`), what arrived, and a seventh
    // more for the room each allocation had left when it was given up.
    let kept = 10_000 * std::mem::size_of::<Bytes>();
    assert!(
        usage.peak <= kept + received + received / 7 + BASE,
        "{usage:?} for {received} bytes received"
    );
}
