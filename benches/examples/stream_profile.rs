//! Runs one way of decoding the logs records as a stream many times, for
//! callgrind: `valgrind --tool=callgrind target/release/examples/stream_profile
//! codec 20`. Ways: `from_slice` (each record's bytes cut out),
//! `codec` (msgpack-tokio's codec, 4 KiB chunks copied in, as
//! `msgpack-bench --stream` runs it), `from_reader` (msgpack-serde's
//! `StreamDeserializer` over the stream as an `io::Read`).

use msgpack_benches::model::plain::LogRecord;
use msgpack_benches::stream::decode_copied;
use msgpack_serde::StreamDeserializer;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, way, count] = &args[..] else {
        eprintln!("usage: stream_profile from_slice|codec|from_reader COUNT");
        std::process::exit(2);
    };
    let count: u64 = count.parse().expect("COUNT is a number");
    let records = msgpack_benches::fixtures::logs().records;
    let frames: Vec<Vec<u8>> = records
        .iter()
        .map(|record| msgpack_serde::to_vec(record).expect("records serialize"))
        .collect();
    let stream = frames.concat();
    for _ in 0..count {
        match way.as_str() {
            "from_slice" => {
                for frame in &frames {
                    let record: LogRecord = msgpack_serde::from_slice(frame).expect("a record");
                    drop(std::hint::black_box(record));
                }
            }
            "codec" => decode_copied(&stream, |record| drop(std::hint::black_box(record))),
            "from_reader" => {
                for record in StreamDeserializer::<_, LogRecord>::from_reader(&stream[..]) {
                    drop(std::hint::black_box(record.expect("a record")));
                }
            }
            _ => panic!("way is from_slice, codec or from_reader"),
        }
    }
}
