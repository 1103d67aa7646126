//! Allocation bounds, measured: a counting global allocator (this test
//! binary only) records what each decode allocates, and every hostile
//! input, through every decoding path, must fail having allocated no more
//! than 64 KiB plus 8 bytes per input byte in all (freed or not).
//!
//! Valid input decodes into a value that takes memory of its own, a node
//! per value; those decodes are held to the budget the fuzz targets use
//! (`fuzz/src/checks.rs`): at the peak, 64 KiB plus two `Value`s and 8
//! bytes per input byte.
//!
//! `cargo test -p msgpack-tests --test alloc_bounds -- --nocapture`
//! prints the measurements.

#[path = "../../fuzz/src/budget.rs"]
mod budget;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::io::Cursor;

use budget::{measure, Usage};
use msgpack_core::{Limits, Reader, ValueRef};
use msgpack_serde::{StreamDeserializer, Value};
use serde::de::IgnoredAny;
use serde::Deserialize;

#[global_allocator]
static ALLOCATOR: budget::Counting = budget::Counting;

/// What any decode may allocate whatever its input.
const BASE: usize = 64 * 1024;

/// The budget for a hostile input of `len` bytes: total bytes allocated.
fn hostile_budget(len: usize) -> usize {
    BASE + 8 * len
}

/// The budget for a valid input of `len` bytes: the peak.
fn valid_budget(len: usize) -> usize {
    BASE + (2 * std::mem::size_of::<Value>() + 8) * len
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Record {
    id: u64,
    name: String,
    scores: Vec<Vec<u64>>,
    tags: Vec<String>,
}

/// The inputs the issue lists, and their kin: headers that claim far more
/// than the input holds.
fn hostile() -> Vec<(&'static str, Vec<u8>)> {
    let mut bytes_after_array16 = vec![0xdc, 0xff, 0xff];
    bytes_after_array16.extend([0x91; 1000]);
    // Keys in order past the first room a `BTreeMap` or `BTreeSet` reads
    // into (then room for all it claims is reserved), then invalid bytes.
    let mut in_order_then_invalid = vec![0xdc, 0x03, 0xe8];
    let mut map_in_order_then_invalid = vec![0xde, 0x02, 0x58];
    for key in 0..100u8 {
        in_order_then_invalid.extend([0xa2, b'a' + key / 26, b'a' + key % 26]);
        map_in_order_then_invalid.extend([key, 0x90]);
    }
    in_order_then_invalid.extend([0xc1; 900]);
    map_in_order_then_invalid.extend([0xc1; 1000]);
    vec![
        (
            "array16 of 1000, 100 strings in order, then 0xc1",
            in_order_then_invalid,
        ),
        (
            "map16 of 600, 100 keys in order, then 0xc1",
            map_in_order_then_invalid,
        ),
        (
            "array32 of 2^32-1, no body",
            vec![0xdd, 0xff, 0xff, 0xff, 0xff],
        ),
        ("map32 of 2^32-1 pairs", vec![0xdf, 0xff, 0xff, 0xff, 0xff]),
        ("str32 of 4 GiB", vec![0xdb, 0xff, 0xff, 0xff, 0xff, b'a']),
        ("bin32 of 4 GiB", vec![0xc6, 0xff, 0xff, 0xff, 0xff, 0x00]),
        ("ext32 of 4 GiB", vec![0xc9, 0xff, 0xff, 0xff, 0xff, 0x01]),
        (
            "100,000 nested array32 of 2^32-1",
            [0xdd, 0xff, 0xff, 0xff, 0xff].repeat(100_000),
        ),
        (
            "100,000 nested map32 of 2^32-1",
            [0xdf, 0xff, 0xff, 0xff, 0xff, 0xc0].repeat(100_000),
        ),
        ("array16 of 65535 over 1000 bytes", bytes_after_array16),
    ]
}

/// One way of decoding: a name, and the decode, which reports whether it
/// succeeded.
type Path = (&'static str, fn(&[u8]) -> bool);

/// Every decoding path there is.
fn paths() -> Vec<Path> {
    fn ok<T, E: Debug>(result: Result<T, E>) -> bool {
        result.is_ok()
    }
    vec![
        ("serde from_slice::<Value>", |b| {
            ok(msgpack_serde::from_slice::<Value>(b))
        }),
        ("serde from_slice::<Record>", |b| {
            ok(msgpack_serde::from_slice::<Record>(b))
        }),
        ("serde from_slice::<Vec<Vec<u64>>>", |b| {
            ok(msgpack_serde::from_slice::<Vec<Vec<u64>>>(b))
        }),
        ("serde from_slice::<BTreeMap<u64, Vec<u64>>>", |b| {
            ok(msgpack_serde::from_slice::<BTreeMap<u64, Vec<u64>>>(b))
        }),
        ("serde from_slice::<BTreeSet<String>>", |b| {
            ok(msgpack_serde::from_slice::<BTreeSet<String>>(b))
        }),
        ("serde from_slice::<IgnoredAny>", |b| {
            ok(msgpack_serde::from_slice::<IgnoredAny>(b))
        }),
        ("serde from_reader::<Value>", |b| {
            ok(msgpack_serde::from_reader::<_, Value>(Cursor::new(b)))
        }),
        ("serde from_reader::<Record>", |b| {
            ok(msgpack_serde::from_reader::<_, Record>(Cursor::new(b)))
        }),
        ("serde from_reader::<Vec<Vec<u64>>>", |b| {
            ok(msgpack_serde::from_reader::<_, Vec<Vec<u64>>>(Cursor::new(
                b,
            )))
        }),
        ("serde from_reader::<BTreeMap<String, Value>>", |b| {
            ok(msgpack_serde::from_reader::<_, BTreeMap<String, Value>>(
                Cursor::new(b),
            ))
        }),
        ("StreamDeserializer::<Value> slice", |b| {
            StreamDeserializer::<_, Value>::from_slice(b).all(|r| r.is_ok())
        }),
        ("StreamDeserializer::<Value> reader", |b| {
            StreamDeserializer::<_, Value>::from_reader(Cursor::new(b)).all(|r| r.is_ok())
        }),
        ("StreamDeserializer::<Record> reader", |b| {
            StreamDeserializer::<_, Record>::from_reader(Cursor::new(b)).all(|r| r.is_ok())
        }),
        ("core Value::from_slice", |b| {
            ok(msgpack_core::Value::from_slice(b))
        }),
        ("core ValueRef::from_slice", |b| ok(ValueRef::from_slice(b))),
        ("core Reader::skip", |b| ok(Reader::new(b).skip())),
    ]
}

fn report(input: &str, len: usize, path: &str, usage: Usage) {
    println!(
        "{input:<36} {len:>7} B  {path:<36} total {:>8} B  peak {:>8} B  in {:>3} allocations",
        usage.total, usage.peak, usage.count
    );
}

#[test]
fn hostile_inputs_fail_within_64_kib_plus_8_bytes_per_input_byte() {
    let mut over = Vec::new();
    for (input, bytes) in hostile() {
        for (path, decode) in paths() {
            let (succeeded, usage) = measure(|| decode(&bytes));
            report(input, bytes.len(), path, usage);
            assert!(!succeeded, "{path} decoded {input}");
            if usage.total > hostile_budget(bytes.len()) {
                over.push(format!("{path} on {input}: {usage:?}"));
            }
        }
    }
    assert!(over.is_empty(), "over budget: {over:#?}");
}

/// Valid inputs where the value takes the most memory per input byte: a
/// value for every byte.
fn dense() -> Vec<(&'static str, Vec<u8>)> {
    let n = 60_000u16;
    let mut nils = vec![0xdc];
    nils.extend(n.to_be_bytes());
    nils.extend(std::iter::repeat_n(0xc0, n as usize));
    let mut empty_arrays = vec![0xdc];
    empty_arrays.extend(n.to_be_bytes());
    empty_arrays.extend(std::iter::repeat_n(0x90, n as usize));
    let mut pairs = vec![0xde];
    pairs.extend((n / 2).to_be_bytes());
    pairs.extend(std::iter::repeat_n(0x00, n as usize));
    let mut nested = vec![0x91; 127];
    nested.push(0xc0);
    vec![
        ("60,000 nils", nils),
        ("60,000 empty arrays", empty_arrays),
        ("30,000 pairs of zeros", pairs),
        ("127 nested arrays", nested),
    ]
}

/// Invalid inputs that claim no more elements than they have bytes, so
/// that the decoders reserve room for them before finding the first bad
/// byte: they may take as much as a valid input of their size.
fn claiming_what_they_hold() -> Vec<(&'static str, Vec<u8>)> {
    let n = 60_000u16;
    let mut reserved = vec![0xdc];
    reserved.extend(n.to_be_bytes());
    reserved.extend(std::iter::repeat_n(0xc1, n as usize));
    let mut pairs = vec![0xde];
    pairs.extend((n / 2).to_be_bytes());
    pairs.extend(std::iter::repeat_n(0xc1, n as usize));
    // Each array claims what is left after its header.
    let mut nested = Vec::new();
    for depth in 0..100u16 {
        nested.push(0xdc);
        nested.extend((n - 3 * depth - 3).to_be_bytes());
    }
    nested.extend(std::iter::repeat_n(0xc1, n as usize - nested.len()));
    vec![
        ("array16 of 60,000 over 0xc1s", reserved),
        ("map16 of 30,000 over 0xc1s", pairs),
        ("100 nested array16 over 0xc1s", nested),
    ]
}

#[test]
fn valid_inputs_peak_within_the_fuzz_budget() {
    let mut over = Vec::new();
    for (input, bytes) in dense().into_iter().chain(claiming_what_they_hold()) {
        for (path, decode) in paths() {
            let (succeeded, usage) = measure(|| decode(&bytes));
            report(input, bytes.len(), path, usage);
            if succeeded && usage.peak > valid_budget(bytes.len()) {
                over.push(format!("{path} on {input}: {usage:?}"));
            }
        }
    }
    assert!(over.is_empty(), "over budget: {over:#?}");
}

/// A recursive untagged enum, as a JSON-like parameter type would be.
#[derive(Deserialize, Debug)]
#[serde(untagged)]
#[allow(dead_code)]
enum Param {
    Int(i64),
    Text(String),
    List(Vec<Param>),
}

/// serde buffers an untagged enum's value as `Content`, and copies it at
/// every level it is nested in itself: memory grows with depth times size
/// (serde_json does the same). The depth limit bounds it; a lower limit
/// is the remedy for such types.
#[test]
fn nested_untagged_enums_take_memory_in_proportion_to_depth_times_size() {
    // [1, [1, [1, ... [1, 1]]]], 127 deep: 257 bytes.
    let mut bytes = Vec::new();
    for _ in 0..127 {
        bytes.extend([0x92, 0x01]);
    }
    bytes.extend([0x92, 0x01, 0x01]);
    let (result, usage) = measure(|| msgpack_serde::from_slice::<Param>(&bytes));
    report(
        "untagged, 128 deep",
        bytes.len(),
        "from_slice::<Param>",
        usage,
    );
    assert!(result.is_ok());
    let depth = 128;
    assert!(usage.peak > valid_budget(bytes.len()), "{usage:?}");
    assert!(usage.peak <= BASE + depth * 64 * bytes.len(), "{usage:?}");
    // With a depth limit of 16 the same input fails at once.
    let (result, usage) = measure(|| {
        let limits = msgpack_serde::Limits::default().max_depth(16);
        let mut de = msgpack_serde::Deserializer::from_slice(&bytes).with_limits(limits);
        Param::deserialize(&mut de)
    });
    let error = result.unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("nesting exceeds the depth limit of 16"),
        "{error}"
    );
    assert!(usage.peak <= valid_budget(bytes.len()), "{usage:?}");
}

/// Nesting as deep as the input is long, decoded by msgpack-core with no
/// depth limit: on top of the value, the decoder keeps a frame per open
/// container (64 bytes, on a stack that grows by doubling), so the peak
/// grows with the depth. It stays within the budget the `skip` fuzz
/// target holds such decodes to (`UNLIMITED_DEPTH_PER_BYTE` in
/// `fuzz/src/checks.rs`: three frames per input byte), and above the
/// budget for a depth-limited decode. (The default depth limit, 128,
/// keeps the frames within the base 64 KiB.)
#[test]
fn nesting_without_a_depth_limit_peaks_within_three_frames_per_byte() {
    let unlimited_budget = |len: usize| valid_budget(len) + 3 * 64 * len;
    for depth in [1_000, 100_000] {
        let mut arrays = vec![0x91; depth];
        arrays.push(0xc0);
        // Maps of one pair, each with a key waiting beside its frame.
        let mut maps = [0x81, 0xc0].repeat(depth);
        maps.push(0xc0);
        for (input, bytes) in [("arrays", arrays), ("maps", maps)] {
            let (value, usage) = measure(|| {
                let mut reader = Reader::with_limits(&bytes, Limits::unlimited()).unwrap();
                msgpack_core::Value::decode(&mut reader).map(drop)
            });
            report(input, bytes.len(), "core Value::decode, unlimited", usage);
            assert!(value.is_ok());
            assert!(usage.peak <= unlimited_budget(bytes.len()), "{usage:?}");
            if depth == 100_000 {
                assert!(usage.peak > valid_budget(bytes.len()), "{usage:?}");
            }
            let (value, usage) = measure(|| {
                let mut reader = Reader::with_limits(&bytes, Limits::unlimited()).unwrap();
                ValueRef::decode(&mut reader).map(drop)
            });
            report(
                input,
                bytes.len(),
                "core ValueRef::decode, unlimited",
                usage,
            );
            assert!(value.is_ok());
            assert!(usage.peak <= unlimited_budget(bytes.len()), "{usage:?}");
        }
    }
}

#[test]
fn the_allocator_counts() {
    let (value, usage) = measure(|| vec![0u8; 1000]);
    assert_eq!(value.len(), 1000);
    assert_eq!(usage.total, 1000);
    assert_eq!(usage.peak, 1000);
    let ((), usage) = measure(|| drop(vec![0u64; 10]));
    assert_eq!((usage.total, usage.peak, usage.count), (80, 80, 1));
}
