//! `msgpack-bench --stream`: msgpack-tokio's codec framing and decoding
//! the logs records as they arrive in 4 KiB chunks, against `from_slice`
//! on the same records one by one (each record's bytes already cut out).

use std::fmt::Write as _;
use std::time::Instant;

use bytes::BytesMut;
use msgpack_tokio::MsgPackCodec;
use serde::Serialize;
use tokio_util::codec::Decoder;

use crate::measure::{time_interleaved, Budget};
use crate::model::plain::LogRecord;
use crate::table::duration;

/// How many bytes each read hands the codec.
pub const CHUNK: usize = 4096;

/// What `--stream` measured: times are for the whole stream (medians).
#[derive(Clone, Debug, Serialize)]
pub struct StreamResult {
    /// Records in the stream.
    pub records: usize,
    /// Bytes of the stream.
    pub bytes: usize,
    /// `from_slice` on each record's bytes in turn.
    pub from_slice_ns: f64,
    /// The codec on the stream in 4 KiB chunks.
    pub framed_ns: f64,
    /// Framed throughput over `from_slice`'s (1.0 when framing is free),
    /// from the fastest run of each, the two taken in turn.
    pub throughput_ratio: f64,
    /// The same, the median over pairs of runs taken back to back.
    pub median_pair_ratio: f64,
}

/// Measures both ways of decoding the logs fixture's records.
pub fn run_stream(budget: Budget) -> StreamResult {
    let records = crate::fixtures::logs().records;
    let frames: Vec<Vec<u8>> = records
        .iter()
        .map(|record| msgpack_serde::to_vec(record).expect("records serialize"))
        .collect();
    let stream = frames.concat();
    let mut decoded = Vec::with_capacity(records.len());
    decode_framed(&stream, |record| decoded.push(record));
    assert_eq!(decoded, records, "the codec decodes the records");

    let mut from_slice = || {
        for frame in &frames {
            let record: LogRecord = msgpack_serde::from_slice(frame).expect("a record");
            std::hint::black_box(record);
        }
    };
    // Each record dropped once decoded, on both sides: keeping them would
    // time the allocator holding 50,000 strings.
    let mut framed = || {
        decode_framed(&stream, |record| drop(std::hint::black_box(record)));
    };
    let times = time_interleaved(budget, &mut [&mut from_slice, &mut framed]);
    let (best_ratio, median_ratio) = paired_ratio(budget, &mut from_slice, &mut framed);
    StreamResult {
        records: records.len(),
        bytes: stream.len(),
        from_slice_ns: times[0],
        framed_ns: times[1],
        throughput_ratio: best_ratio,
        median_pair_ratio: median_ratio,
    }
}

/// `reference`'s time over `op`'s, from runs of one and then the other
/// (which one first alternates): the ratio of their fastest runs, and the
/// median ratio of the pairs. On a machine others load too, a run's
/// fastest time is the one least disturbed, and the two runs of a pair see
/// about the same load; the medians of batches drift apart.
fn paired_ratio(budget: Budget, reference: &mut dyn FnMut(), op: &mut dyn FnMut()) -> (f64, f64) {
    let start = Instant::now();
    let mut ratios = Vec::new();
    let (mut best_reference, mut best_op) = (f64::MAX, f64::MAX);
    while ratios.len() < 4
        || (ratios.len() as u64) < budget.iterations && start.elapsed() < budget.max_time
    {
        let (reference_time, op_time) = if ratios.len() % 2 == 0 {
            let reference_time = timed(reference);
            (reference_time, timed(op))
        } else {
            let op_time = timed(op);
            (timed(reference), op_time)
        };
        best_reference = best_reference.min(reference_time);
        best_op = best_op.min(op_time);
        ratios.push(reference_time / op_time);
    }
    ratios.sort_by(f64::total_cmp);
    (best_reference / best_op, ratios[ratios.len() / 2])
}

/// How long one run of `op` takes, in seconds.
fn timed(op: &mut dyn FnMut()) -> f64 {
    let start = Instant::now();
    op();
    start.elapsed().as_secs_f64()
}

/// Decodes `stream` as `FramedRead` would, handed `CHUNK` bytes per
/// read, and hands each record to `each`.
fn decode_framed(stream: &[u8], mut each: impl FnMut(LogRecord)) {
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

/// The result as a table.
pub fn stream_table(result: &StreamResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## stream: {} logs records, {} bytes, arriving in {CHUNK}-byte chunks\n",
        result.records, result.bytes
    );
    let _ = writeln!(out, "| decoding | time | records/s |");
    let _ = writeln!(out, "|---|--:|--:|");
    for (name, ns) in [
        ("from_slice, record by record", result.from_slice_ns),
        ("MsgPackCodec, 4 KiB chunks", result.framed_ns),
    ] {
        let _ = writeln!(
            out,
            "| {name} | {} | {:.0} |",
            duration(ns),
            result.records as f64 * 1e9 / ns,
        );
    }
    let _ = writeln!(
        out,
        "\nframed throughput / from_slice throughput: {:.2}x (fastest runs), {:.2}x (median of back-to-back pairs)",
        result.throughput_ratio, result.median_pair_ratio
    );
    out
}
