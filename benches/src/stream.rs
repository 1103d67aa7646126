//! `msgpack-bench --stream`: msgpack-tokio's codec framing and decoding
//! the logs records as they arrive in 4 KiB chunks, against `from_slice`
//! on the same records one by one (each record's bytes already cut out).

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use bytes::BytesMut;
use msgpack_tokio::MsgPackCodec;
use serde::Serialize;
use tokio_util::codec::Decoder;

use crate::measure::Budget;
use crate::model::plain::LogRecord;
use crate::table::duration;

/// How many bytes each read hands the codec.
pub const CHUNK: usize = 4096;

/// What `--stream` measured. Times are for the whole stream, each the
/// fastest of its runs; ratios are throughputs over `from_slice`'s (1.0
/// when framing is free).
#[derive(Clone, Debug, Serialize)]
pub struct StreamResult {
    /// Records in the stream.
    pub records: usize,
    /// Bytes of the stream.
    pub bytes: usize,
    /// Runs of each way of decoding, taken in turn.
    pub runs: usize,
    /// `from_slice` on each record's bytes in turn.
    pub from_slice_ns: f64,
    /// The codec on the stream, each 4 KiB chunk copied into its read
    /// buffer first, as a socket read copies it.
    pub framed_ns: f64,
    /// The codec on the same chunks already in its buffer's memory
    /// (joined without a copy): framing and decoding alone.
    pub framed_in_place_ns: f64,
    /// `from_slice_ns / framed_ns`.
    pub throughput_ratio: f64,
    /// `from_slice_ns / framed_in_place_ns`.
    pub in_place_ratio: f64,
    /// The median over rounds of `from_slice`'s time over the copying
    /// codec's in the same round: on a machine others load too, the runs
    /// of one round see about the same load.
    pub median_round_ratio: f64,
}

/// Measures the ways of decoding the logs fixture's records, in rounds
/// of one run each (their order turning round by round), for up to
/// `budget.iterations` rounds or `budget.max_time`.
pub fn run_stream(budget: Budget) -> StreamResult {
    let records = crate::fixtures::logs().records;
    let frames: Vec<Vec<u8>> = records
        .iter()
        .map(|record| msgpack_serde::to_vec(record).expect("records serialize"))
        .collect();
    let stream = frames.concat();
    let mut decoded = Vec::with_capacity(records.len());
    decode_copied(&stream, |record| decoded.push(record));
    assert_eq!(decoded, records, "the codec decodes the records");
    decoded.clear();
    decode_in_place(chunks(&stream), |record| decoded.push(record));
    assert_eq!(decoded, records, "the codec decodes the records in place");

    // Each record dropped once decoded, everywhere: keeping them would
    // time the allocator holding 50,000 strings.
    let mut ops: [Box<dyn FnMut() -> Duration + '_>; 3] = [
        Box::new(|| {
            timed(|| {
                for frame in &frames {
                    let record: LogRecord = msgpack_serde::from_slice(frame).expect("a record");
                    drop(std::hint::black_box(record));
                }
            })
        }),
        Box::new(|| timed(|| decode_copied(&stream, |record| drop(std::hint::black_box(record))))),
        Box::new(|| {
            let chunks = chunks(&stream);
            timed(|| decode_in_place(chunks, |record| drop(std::hint::black_box(record))))
        }),
    ];
    let start = Instant::now();
    let mut times: [Vec<f64>; 3] = Default::default();
    let mut rounds = 0;
    while rounds < 4 || (rounds as u64) < budget.iterations && start.elapsed() < budget.max_time {
        for turn in 0..ops.len() {
            let op = (rounds + turn) % ops.len();
            times[op].push(ops[op]().as_secs_f64() * 1e9);
        }
        rounds += 1;
    }
    let mut round_ratios: Vec<f64> = times[0].iter().zip(&times[1]).map(|(a, b)| a / b).collect();
    round_ratios.sort_by(f64::total_cmp);
    let fastest = |runs: &[f64]| runs.iter().copied().fold(f64::MAX, f64::min);
    let (from_slice_ns, framed_ns, framed_in_place_ns) =
        (fastest(&times[0]), fastest(&times[1]), fastest(&times[2]));
    StreamResult {
        records: records.len(),
        bytes: stream.len(),
        runs: rounds,
        from_slice_ns,
        framed_ns,
        framed_in_place_ns,
        throughput_ratio: from_slice_ns / framed_ns,
        in_place_ratio: from_slice_ns / framed_in_place_ns,
        median_round_ratio: round_ratios[round_ratios.len() / 2],
    }
}

/// How long `op` takes.
fn timed(op: impl FnOnce()) -> Duration {
    let start = Instant::now();
    op();
    start.elapsed()
}

/// Decodes `stream` as `FramedRead` does, each `CHUNK` bytes copied into
/// its read buffer in turn, and hands each record to `each`.
pub fn decode_copied(stream: &[u8], mut each: impl FnMut(LogRecord)) {
    let mut codec = MsgPackCodec::<(), LogRecord>::new();
    let mut buffer = BytesMut::with_capacity(2 * CHUNK);
    for chunk in stream.chunks(CHUNK) {
        buffer.extend_from_slice(chunk);
        while let Some(record) = codec.decode(&mut buffer).expect("a record") {
            each(record);
        }
    }
    assert!(buffer.is_empty(), "the stream ends between records");
}

/// `stream` as `CHUNK`-byte pieces of one buffer, which join back
/// without a copy.
fn chunks(stream: &[u8]) -> Vec<BytesMut> {
    let mut all = BytesMut::from(stream);
    let mut chunks = Vec::with_capacity(stream.len() / CHUNK + 1);
    while !all.is_empty() {
        chunks.push(all.split_to(CHUNK.min(all.len())));
    }
    chunks
}

/// Decodes the chunks as `decode_copied` does, each joined to what is
/// left of the ones before without a copy.
fn decode_in_place(chunks: Vec<BytesMut>, mut each: impl FnMut(LogRecord)) {
    let mut codec = MsgPackCodec::<(), LogRecord>::new();
    let mut buffer = BytesMut::new();
    for chunk in chunks {
        buffer.unsplit(chunk);
        while let Some(record) = codec.decode(&mut buffer).expect("a record") {
            each(record);
        }
    }
    assert!(buffer.is_empty(), "the stream ends between records");
}

/// The result as a table.
pub fn stream_table(result: &StreamResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## stream: {} logs records, {} bytes, arriving in {CHUNK}-byte chunks ({} runs each, the fastest)\n",
        result.records, result.bytes, result.runs
    );
    let _ = writeln!(out, "| decoding | time | records/s | throughput |");
    let _ = writeln!(out, "|---|--:|--:|--:|");
    for (name, ns) in [
        ("from_slice, record by record", result.from_slice_ns),
        (
            "MsgPackCodec, each chunk copied in (as read)",
            result.framed_ns,
        ),
        (
            "MsgPackCodec, chunks already in its buffer",
            result.framed_in_place_ns,
        ),
    ] {
        let _ = writeln!(
            out,
            "| {name} | {} | {:.0} | {:.2}x |",
            duration(ns),
            result.records as f64 * 1e9 / ns,
            result.from_slice_ns / ns,
        );
    }
    let _ = writeln!(
        out,
        "\ncopying codec / from_slice, median of rounds: {:.2}x",
        result.median_round_ratio
    );
    out
}
