//! Hostile input: lengths that claim gigabytes, nesting 100,000 deep, the
//! reserved byte. Each is an error, returned at once, whatever the target
//! type and whether the input is a slice or a reader; and [`Limits`] cut
//! off depth, value count and size with exact errors.

use std::fmt::Debug;
use std::io::Cursor;
use std::time::{Duration, Instant};

use msgpack_serde::{Deserializer, Limits, Value};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::Deserialize;

/// A recursive type: a struct as a one-element array holding its children.
#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Node {
    children: Vec<Node>,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Record {
    id: u64,
    name: String,
    scores: Vec<Vec<u64>>,
}

/// How long any one decode may take. Generous for a debug build on a
/// loaded machine; each decode here takes milliseconds.
const QUICK: Duration = Duration::from_secs(5);

/// Decodes `bytes` as `T` from a slice and from a reader; both must fail
/// quickly with `slice` and `reader` as their messages.
#[track_caller]
fn fails<T: DeserializeOwned + Debug>(bytes: &[u8], slice: &str, reader: &str) {
    let start = Instant::now();
    let error = msgpack_serde::from_slice::<T>(bytes).unwrap_err();
    assert!(
        start.elapsed() < QUICK,
        "from_slice took {:?}",
        start.elapsed()
    );
    assert_eq!(error.to_string(), slice, "from_slice");

    let start = Instant::now();
    let error = msgpack_serde::from_reader::<_, T>(Cursor::new(bytes)).unwrap_err();
    assert!(
        start.elapsed() < QUICK,
        "from_reader took {:?}",
        start.elapsed()
    );
    assert_eq!(error.to_string(), reader, "from_reader");
}

/// The same failure for every target type, slice and reader alike.
#[track_caller]
fn fails_everywhere(bytes: &[u8], message: &str) {
    fails::<Value>(bytes, message, message);
    fails::<Vec<Vec<u64>>>(bytes, message, message);
    fails::<Record>(bytes, message, message);
    fails::<Node>(bytes, message, message);
    fails::<IgnoredAny>(bytes, message, message);
    fails::<serde_json::Value>(bytes, message, message);
}

#[test]
fn array32_claiming_u32_max_elements() {
    fails_everywhere(
        &[0xdd, 0xff, 0xff, 0xff, 0xff],
        "unexpected end of input at offset 5",
    );
    // With some body: still nowhere near enough.
    let mut bytes = vec![0xdd, 0xff, 0xff, 0xff, 0xff];
    bytes.extend([0x91; 1000]);
    fails_everywhere(&bytes, "unexpected end of input at offset 1005");
}

#[test]
fn map32_claiming_u32_max_pairs() {
    fails_everywhere(
        &[0xdf, 0xff, 0xff, 0xff, 0xff],
        "unexpected end of input at offset 5",
    );
}

#[test]
fn str32_and_bin32_claiming_4_gib() {
    fails_everywhere(
        &[0xdb, 0xff, 0xff, 0xff, 0xff, b'a'],
        "unexpected end of input at offset 6",
    );
    fails_everywhere(
        &[0xc6, 0xff, 0xff, 0xff, 0xff, 0x00],
        "unexpected end of input at offset 6",
    );
    fails_everywhere(
        &[0xc9, 0xff, 0xff, 0xff, 0xff, 0x01],
        "unexpected end of input at offset 6",
    );
    // Inside a struct field.
    let mut bytes = vec![0x83, 0xa2, b'i', b'd', 0x01, 0xa4];
    bytes.extend(b"name");
    bytes.extend([0xdb, 0xff, 0xff, 0xff, 0xff]);
    let eof = "unexpected end of input at offset 15";
    fails::<Record>(&bytes, eof, eof);
    fails::<Value>(&bytes, eof, eof);
}

#[test]
fn nested_array32_headers_each_claiming_u32_max() {
    let bytes = [0xdd, 0xff, 0xff, 0xff, 0xff].repeat(100_000);
    fails_everywhere(&bytes, "unexpected end of input at offset 500000");
}

#[test]
fn nested_fixarrays_hit_the_depth_limit() {
    // 100,000 arrays of one element each, the innermost holding nil.
    let mut bytes = vec![0x91; 100_000];
    bytes.push(0xc0);
    let depth = "nesting exceeds the depth limit of 128 at offset 128";
    fails::<Value>(&bytes, depth, depth);
    fails::<Node>(&bytes, depth, depth);
    fails::<serde_json::Value>(&bytes, depth, depth);
    // The type stops it sooner.
    let shallow = "invalid type: sequence, expected u64 at offset 2";
    fails::<Vec<Vec<u64>>>(&bytes, shallow, shallow);

    // Without the nil the input is truncated. Both decoders meet the
    // depth limit (or the type's mismatch) before the end of the input:
    // the reader decodes the bytes that arrived before it reports them
    // cut short.
    bytes.pop();
    let eof = "unexpected end of input at offset 100000";
    fails::<Value>(&bytes, depth, depth);
    fails::<Node>(&bytes, depth, depth);
    fails::<Vec<Vec<u64>>>(&bytes, shallow, shallow);
    // Skipping is iterative and reads to the end.
    fails::<IgnoredAny>(&bytes, eof, eof);
}

#[test]
fn nested_maps_hit_the_depth_limit() {
    // {nil: {nil: {nil: ...}}}
    let mut bytes = [0x81, 0xc0].repeat(50_000);
    bytes.push(0xc0);
    let depth = "nesting exceeds the depth limit of 128 at offset 256";
    fails::<Value>(&bytes, depth, depth);
}

#[test]
fn reserved_marker() {
    fails_everywhere(&[0xc1], "reserved marker 0xc1 at offset 0");
    fails_everywhere(&[0x91, 0xc1], "reserved marker 0xc1 at offset 1");
}

// ---------------------------------------------------------------- limits

/// Decodes `bytes` as `T` under `limits` from a slice and from a reader.
#[track_caller]
fn limited<T: DeserializeOwned + Debug>(bytes: &[u8], limits: Limits) -> [Result<T, String>; 2] {
    let mut de = Deserializer::from_slice(bytes).with_limits(limits);
    let from_slice = T::deserialize(&mut de).map_err(|e| e.to_string());
    let mut de = Deserializer::from_reader(Cursor::new(bytes)).with_limits(limits);
    let from_reader = T::deserialize(&mut de).map_err(|e| e.to_string());
    [from_slice, from_reader]
}

#[track_caller]
fn limit_error<T: DeserializeOwned + Debug>(bytes: &[u8], limits: Limits, message: &str) {
    for result in limited::<T>(bytes, limits) {
        assert_eq!(result.unwrap_err(), message);
    }
}

#[track_caller]
fn limit_ok<T: DeserializeOwned + Debug>(bytes: &[u8], limits: Limits) {
    for result in limited::<T>(bytes, limits) {
        result.unwrap();
    }
}

#[test]
fn max_depth() {
    let bytes = [0x91, 0x91, 0x91, 0x01]; // [[[1]]]
    limit_ok::<Value>(&bytes, Limits::default().max_depth(3));
    limit_error::<Value>(
        &bytes,
        Limits::default().max_depth(2),
        "nesting exceeds the depth limit of 2 at offset 2",
    );
    limit_error::<Vec<Vec<Vec<u8>>>>(
        &bytes,
        Limits::default().max_depth(2),
        "nesting exceeds the depth limit of 2 at offset 2",
    );
    limit_error::<Value>(
        &bytes,
        Limits::default().max_depth(0),
        "nesting exceeds the depth limit of 0 at offset 0",
    );
    // A scalar has depth 0.
    limit_ok::<u8>(&[0x01], Limits::default().max_depth(0));
    // Siblings do not add up: [[1], [2]] has depth 2.
    limit_ok::<Value>(
        &[0x92, 0x91, 0x01, 0x91, 0x02],
        Limits::default().max_depth(2),
    );
    // A struct and its nested struct count too.
    let record = msgpack_serde::to_vec(&msgpack_serde::msgpack!({
        "id": 1, "name": "x", "scores": [[1, 2]]
    }))
    .unwrap();
    // 0: the record, 19: "scores", 20: its one inner array, at depth 3.
    assert_eq!(record[19..21], [0x91, 0x92]);
    limit_ok::<Record>(&record, Limits::default().max_depth(3));
    limit_error::<Record>(
        &record,
        Limits::default().max_depth(2),
        "nesting exceeds the depth limit of 2 at offset 20",
    );
}

#[test]
fn max_values() {
    // A container takes its elements from the limit when its header is
    // read: the error points at the header, before any element is decoded.
    let bytes = [0x93, 0x01, 0x02, 0x03]; // the array and its three elements
    limit_ok::<Vec<u8>>(&bytes, Limits::default().max_values(4));
    limit_error::<Vec<u8>>(
        &bytes,
        Limits::default().max_values(3),
        "more values than the limit of 3 at offset 0",
    );
    limit_error::<Value>(
        &bytes,
        Limits::default().max_values(3),
        "more values than the limit of 3 at offset 0",
    );
    limit_error::<u8>(
        &[0x01],
        Limits::default().max_values(0),
        "more values than the limit of 0 at offset 0",
    );
    // Nested containers add up: [[1], [2, 3]] is six values.
    let nested = [0x92, 0x91, 0x01, 0x92, 0x02, 0x03];
    limit_ok::<Vec<Vec<u8>>>(&nested, Limits::default().max_values(6));
    limit_error::<Vec<Vec<u8>>>(
        &nested,
        Limits::default().max_values(5),
        "more values than the limit of 5 at offset 3",
    );
    // Keys count: {"a": 1, "b": "x"} is five values; [1, "x"] three.
    #[derive(serde::Serialize, Deserialize, Debug)]
    #[allow(dead_code)]
    struct Ab {
        a: u8,
        b: String,
    }
    let named = [0x82, 0xa1, b'a', 0x01, 0xa1, b'b', 0xa1, b'x'];
    let compact = [0x92, 0x01, 0xa1, b'x'];
    limit_ok::<Ab>(&named, Limits::default().max_values(5));
    limit_ok::<Ab>(&compact, Limits::default().max_values(3));
    limit_error::<Ab>(
        &named,
        Limits::default().max_values(4),
        "more values than the limit of 4 at offset 0",
    );
    // Values skipped as unknown count like the others.
    let unknown = [
        0x83, 0xa1, b'a', 0x01, 0xa1, b'z', 0x02, 0xa1, b'b', 0xa1, b'x',
    ];
    limit_ok::<Ab>(&unknown, Limits::default().max_values(7));
    limit_error::<Ab>(
        &unknown,
        Limits::default().max_values(6),
        "more values than the limit of 6 at offset 0",
    );
    // Enum variants as one-entry maps: the key and the payload.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    enum Shape {
        Circle(u8),
    }
    let circle = [0x81, 0xa6, b'C', b'i', b'r', b'c', b'l', b'e', 0x05];
    limit_ok::<Shape>(&circle, Limits::default().max_values(3));
    limit_error::<Shape>(
        &circle,
        Limits::default().max_values(2),
        "more values than the limit of 2 at offset 0",
    );
    // Many small values in one huge array: refused at its header.
    let mut many = vec![0xdc, 0xff, 0xff];
    many.extend([0x00; 0xffff]);
    limit_error::<Vec<u8>>(
        &many,
        Limits::default().max_values(1000),
        "more values than the limit of 1000 at offset 0",
    );
}

#[test]
fn max_bytes() {
    let bytes = [0x82, 0xa1, b'a', 0x01, 0xa1, b'b', 0xa1, b'x'];
    limit_ok::<Value>(&bytes, Limits::default().max_bytes(8));
    limit_error::<Value>(
        &bytes,
        Limits::default().max_bytes(7),
        "input exceeds the size limit of 7 bytes at offset 7",
    );
    limit_error::<IgnoredAny>(
        &bytes,
        Limits::default().max_bytes(1),
        "input exceeds the size limit of 1 bytes at offset 1",
    );
    // A reader stops at the limit instead of reading what a header claims.
    let claim = [0xdb, 0xff, 0xff, 0xff, 0xff, b'a', b'b'];
    let mut de = Deserializer::from_reader(Cursor::new(&claim[..]))
        .with_limits(Limits::default().max_bytes(1024));
    let error = String::deserialize(&mut de).unwrap_err();
    assert_eq!(
        error.to_string(),
        "input exceeds the size limit of 1024 bytes at offset 1024"
    );
}

#[test]
fn limits_are_reported() {
    let limits = Limits::default().max_depth(4).max_values(5).max_bytes(6);
    let de = Deserializer::from_slice(&[]).with_limits(limits);
    assert_eq!(de.limits(), limits);
    assert_eq!(Deserializer::from_slice(&[]).limits(), Limits::default());
    assert_eq!(Limits::default().depth(), 128);
}

/// A map key that is itself an array: read whole, and cut off before
/// its value at the end of the input, the key's elements are owed the
/// same as any container's.
#[test]
fn a_container_as_a_map_key() {
    // {[1, 2]: 3}
    let bytes = [0x81, 0x92, 0x01, 0x02, 0x03];
    let map: std::collections::BTreeMap<Vec<u8>, u8> = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(map, [(vec![1, 2], 3)].into());
    let message = "unexpected end of input at offset 4";
    fails::<Value>(&bytes[..4], message, message);
    fails::<std::collections::BTreeMap<Vec<u8>, u8>>(&bytes[..4], message, message);
    // The key's array claims more than the input holds.
    let message = "unexpected end of input at offset 3";
    fails::<Value>(&[0x81, 0x93, 0x01], message, message);
}
