//! Runs one way of decoding the logs records as a stream many times, for
//! callgrind: `valgrind --tool=callgrind target/release/examples/stream_profile
//! codec 20`. Ways: `from_slice` (each record's bytes cut out), `codec`
//! (msgpack-tokio's codec, 4 KiB chunks copied in, as `msgpack-bench
//! --stream` runs it), `from_reader` (msgpack-serde's `StreamDeserializer`
//! over the stream as an `io::Read`), `oracle` (a `Decoder` told each
//! record's length beforehand, calling `from_slice`: what the `Decoder`
//! interface itself costs), `framed_read` (the codec in tokio-util's
//! `FramedRead` over the stream as an `AsyncRead`, as users read),
//! `frames` (the codec cutting out raw frames under the default limits),
//! `skip` (`Reader::skip` over the stream, as msgpack-rpc's codec frames);
//! and encoding the records (`#[derive(MsgPack)]`, maps keyed by tag) one
//! by one: `encode_vec` (`msgpack_serde::to_writer` into a reused `Vec`),
//! `encode_codec` (the codec into an empty `BytesMut`, as `FramedWrite`
//! hands it after each flush), `encode_batched` (the codec appending to
//! bytes not yet written).

use bytes::BytesMut;
use futures::StreamExt;
use msgpack_benches::codecs::Fixture;
use msgpack_benches::model::plain::LogRecord;
use msgpack_benches::stream::decode_copied;
use msgpack_serde::StreamDeserializer;
use msgpack_tokio::MsgPackCodec;
use tokio_util::codec::{Decoder, Encoder, FramedRead};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, way, count] = &args[..] else {
        eprintln!("usage: stream_profile WAY COUNT (the ways are listed above)");
        std::process::exit(2);
    };
    let count: u64 = count.parse().expect("COUNT is a number");
    let records = msgpack_benches::fixtures::logs().records;
    let frames: Vec<Vec<u8>> = records
        .iter()
        .map(|record| msgpack_serde::to_vec(record).expect("records serialize"))
        .collect();
    let stream = frames.concat();
    let tagged = msgpack_benches::fixtures::logs().families().tagged.records;
    let mut codec = MsgPackCodec::<_, ()>::new();
    let mut buffer = BytesMut::new();
    let mut vec = Vec::new();
    for _ in 0..count {
        match way.as_str() {
            "from_slice" => {
                for frame in &frames {
                    let record: LogRecord = msgpack_serde::from_slice(frame).expect("a record");
                    drop(std::hint::black_box(record));
                }
            }
            "codec" => decode_copied(&stream, |record| drop(std::hint::black_box(record))),
            "oracle" => {
                let mut codec = Oracle {
                    lens: frames.iter().map(Vec::len).collect(),
                    next: 0,
                };
                let mut buffer = BytesMut::with_capacity(2 * msgpack_benches::stream::CHUNK);
                for chunk in stream.chunks(msgpack_benches::stream::CHUNK) {
                    buffer.extend_from_slice(chunk);
                    while let Some(record) = codec.decode(&mut buffer).expect("a record") {
                        drop(std::hint::black_box(record));
                    }
                }
                assert!(
                    buffer.is_empty() && codec.next == codec.lens.len(),
                    "every record"
                );
            }
            "framed_read" => {
                let codec = MsgPackCodec::<(), LogRecord>::new();
                let mut framed = FramedRead::new(&stream[..], codec);
                futures::executor::block_on(async {
                    while let Some(record) = framed.next().await {
                        drop(std::hint::black_box(record.expect("a record")));
                    }
                });
            }
            "frames" => {
                let mut codec = MsgPackCodec::<(), bytes::Bytes>::new();
                let mut buffer = BytesMut::new();
                for chunk in stream.chunks(msgpack_benches::stream::CHUNK) {
                    buffer.extend_from_slice(chunk);
                    while let Some(frame) = codec.decode(&mut buffer).expect("a frame") {
                        drop(std::hint::black_box(frame));
                    }
                }
            }
            "skip" => {
                let mut reader = msgpack_serde::core::Reader::new(&stream);
                while !reader.remaining().is_empty() {
                    reader.skip().expect("a record");
                }
                std::hint::black_box(reader.position());
            }
            "from_reader" => {
                for record in StreamDeserializer::<_, LogRecord>::from_reader(&stream[..]) {
                    drop(std::hint::black_box(record.expect("a record")));
                }
            }
            "encode_vec" => {
                for record in &tagged {
                    vec.clear();
                    msgpack_serde::to_writer(&mut vec, record).expect("a record");
                    std::hint::black_box(&vec);
                }
            }
            "encode_codec" => {
                for record in &tagged {
                    buffer.clear();
                    codec.encode(record, &mut buffer).expect("a record");
                    std::hint::black_box(&buffer);
                }
            }
            "encode_batched" => {
                buffer.clear();
                buffer.extend_from_slice(b"pending");
                for record in &tagged {
                    buffer.truncate(7);
                    codec.encode(record, &mut buffer).expect("a record");
                    std::hint::black_box(&buffer);
                }
            }
            _ => panic!("unknown way"),
        }
    }
}

/// A decoder told each frame's length beforehand: `from_slice` on the
/// frame, the frame taken off the buffer. What any `Decoder` pays beyond
/// `from_slice` itself.
struct Oracle {
    lens: Vec<usize>,
    next: usize,
}

impl Decoder for Oracle {
    type Item = LogRecord;
    type Error = std::io::Error;

    fn decode(&mut self, src: &mut BytesMut) -> std::io::Result<Option<LogRecord>> {
        let Some(&len) = self.lens.get(self.next) else {
            return Ok(None);
        };
        if src.len() < len {
            return Ok(None);
        }
        match msgpack_serde::from_slice(&src[..len]) {
            Ok(record) => {
                self.next += 1;
                bytes::Buf::advance(src, len);
                Ok(Some(record))
            }
            Err(error) => Err(std::io::Error::other(error)),
        }
    }
}
