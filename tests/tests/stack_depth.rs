//! The stack that reading and writing take at the depth limit, in the
//! build the tests run in. `cargo test` builds without optimization, where
//! every call keeps a frame of its own and a callee inlined always keeps
//! all its locals in its caller's frame: the frames of a recursive decode
//! add up level after level. Each case runs on a thread of [`STACK`]
//! bytes, half the 2 MiB that std's threads and tokio's workers get by
//! default; a case that needs more overflows that thread, which aborts
//! this test binary with the case's name ("thread 'serde Vec' has
//! overflowed its stack").
//!
//! Reading: arrays or maps nested 100,000 deep, stopped at the depth
//! limit of 128, and values nested as deep as the limit allows, into a
//! recursive serde type, a derived type, `Value`, and through the JSON
//! transcoders. Writing has no depth limit: values nested 128 deep, as
//! any value read under the default limits is.

use msgpack_serde::core::Reader;
use msgpack_serde::json::{FromJson, ToJson};
use msgpack_serde::{MsgPack, Value};
use serde::{Deserialize, Serialize};

/// The stack each case runs on.
const STACK: usize = 1 << 20;

/// The default depth limit.
const LIMIT: usize = 128;

/// The JSON transcoders' stack: their depth limit,
/// [`MAX_DEPTH`](msgpack_serde::json::MAX_DEPTH), is four times the
/// decoders', and serde_json's own frames come between ours.
const JSON_STACK: usize = 3 << 19;

/// The JSON transcoders' depth limit.
const JSON_LIMIT: usize = msgpack_serde::json::MAX_DEPTH;

/// Arrays in arrays: a serde type that recurses through `Vec`.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Nested(Vec<Nested>);

/// Maps in maps: a serde struct that recurses through a named field.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Linked {
    next: Option<Box<Linked>>,
}

/// Maps in maps: a derived struct that recurses through a tagged field.
#[derive(MsgPack, Debug, PartialEq)]
struct Tagged {
    #[msgpack(tag = 1)]
    next: Option<Box<Tagged>>,
}

/// Runs `case` on a thread of `stack` bytes named `name`; of
/// `STACK_DEPTH_BYTES` bytes instead when that is set, to find the least
/// a case needs (`benches/RESULTS.md`, step 36).
fn on_stack<T: Send + 'static>(
    stack: usize,
    name: &str,
    case: impl FnOnce() -> T + Send + 'static,
) -> T {
    let stack = std::env::var("STACK_DEPTH_BYTES")
        .ok()
        .and_then(|bytes| bytes.parse().ok())
        .unwrap_or(stack);
    std::thread::Builder::new()
        .name(name.to_owned())
        .stack_size(stack)
        .spawn(case)
        .expect("a thread")
        .join()
        .expect("the case returns")
}

/// `count` copies of `unit`, then `end`.
fn repeated(unit: &[u8], count: usize, end: &[u8]) -> Vec<u8> {
    let mut bytes = unit.repeat(count);
    bytes.extend_from_slice(end);
    bytes
}

/// A `T` read from `hostile` (nesting 100,000 deep) fails with `message`;
/// one read from `deepest` (nesting as deep as the limit allows) succeeds.
fn reads<T>(name: &str, hostile: Vec<u8>, deepest: Vec<u8>, message: &str)
where
    T: for<'de> Deserialize<'de> + Send + 'static,
{
    let (from_slice, from_reader, deepest) = on_stack(STACK, name, move || {
        let from_slice = msgpack_serde::from_slice::<T>(&hostile).err();
        let from_reader = msgpack_serde::from_reader::<_, T>(&hostile[..]).err();
        (
            from_slice,
            from_reader,
            msgpack_serde::from_slice::<T>(&deepest).err(),
        )
    });
    assert_eq!(from_slice.map(|e| e.to_string()).as_deref(), Some(message));
    assert_eq!(from_reader.map(|e| e.to_string()).as_deref(), Some(message));
    assert!(deepest.is_none(), "{name}: {deepest:?}");
}

#[test]
fn reading_a_serde_vec_to_the_limit() {
    reads::<Nested>(
        "serde Vec",
        repeated(&[0x91], 100_000, &[]),
        repeated(&[0x91], LIMIT - 1, &[0x90]),
        "nesting exceeds the depth limit of 128 at offset 128",
    );
}

#[test]
fn reading_a_serde_struct_to_the_limit() {
    reads::<Linked>(
        "serde struct",
        repeated(b"\x81\xa4next", 100_000, &[]),
        repeated(b"\x81\xa4next", LIMIT - 1, &[0x80]),
        "nesting exceeds the depth limit of 128 at offset 768",
    );
}

#[test]
fn reading_a_derived_struct_to_the_limit() {
    reads::<Tagged>(
        "derived struct",
        repeated(&[0x81, 0x01], 100_000, &[]),
        repeated(&[0x81, 0x01], LIMIT - 1, &[0x80]),
        "nesting exceeds the depth limit of 128 at offset 256",
    );
}

#[test]
fn reading_a_value_to_the_limit() {
    reads::<Value>(
        "serde Value",
        repeated(&[0x91], 100_000, &[]),
        repeated(&[0x91], LIMIT - 1, &[0x90]),
        "nesting exceeds the depth limit of 128 at offset 128",
    );
}

#[test]
fn transcoding_to_json_to_the_limit() {
    let (hostile, deepest) = on_stack(JSON_STACK, "to JSON", || {
        let json = |bytes: &[u8]| {
            let mut out = Vec::new();
            let mut serializer = serde_json::Serializer::new(&mut out);
            msgpack_serde::json::write_json(
                &mut Reader::new(bytes),
                ToJson::tagged(),
                &mut serializer,
            )
            .map(|_| out)
            .map_err(|e| e.to_string())
        };
        (
            json(&repeated(&[0x91], 100_000, &[])),
            json(&repeated(&[0x91], JSON_LIMIT - 1, &[0x90])),
        )
    });
    assert_eq!(
        hostile.unwrap_err(),
        "nesting exceeds the depth limit of 512 at offset 512"
    );
    assert_eq!(
        deepest.unwrap(),
        ("[".repeat(JSON_LIMIT) + &"]".repeat(JSON_LIMIT)).into_bytes()
    );
}

#[test]
fn transcoding_from_json_to_the_limit() {
    let (hostile, deepest, hostile_maps, deepest_maps) = on_stack(JSON_STACK, "from JSON", || {
        let msgpack = |json: String| {
            msgpack_serde::json::to_msgpack(json.as_bytes(), FromJson::tagged())
                .map_err(|e| e.to_string())
        };
        (
            msgpack("[".repeat(100_000)),
            msgpack("[".repeat(JSON_LIMIT) + &"]".repeat(JSON_LIMIT)),
            msgpack(r#"{"a":"#.repeat(100_000)),
            msgpack(r#"{"a":"#.repeat(JSON_LIMIT - 1) + "{}" + &"}".repeat(JSON_LIMIT - 1)),
        )
    });
    assert_eq!(
        hostile.unwrap_err(),
        "nesting exceeds the depth limit of 512 at line 1 column 513"
    );
    assert_eq!(deepest.unwrap(), repeated(&[0x91], JSON_LIMIT - 1, &[0x90]));
    assert_eq!(
        hostile_maps.unwrap_err(),
        "nesting exceeds the depth limit of 512 at line 1 column 2564"
    );
    assert_eq!(
        deepest_maps.unwrap(),
        repeated(b"\x81\xa1a", JSON_LIMIT - 1, &[0x80])
    );
}

#[test]
fn writing_values_as_deep_as_the_limit() {
    let written = on_stack(STACK, "writing", || {
        let mut nested = Nested(Vec::new());
        let mut linked = Linked { next: None };
        let mut tagged = Tagged { next: None };
        let mut value = Value::Array(Vec::new());
        for _ in 1..LIMIT {
            nested = Nested(vec![nested]);
            linked = Linked {
                next: Some(Box::new(linked)),
            };
            tagged = Tagged {
                next: Some(Box::new(tagged)),
            };
            value = Value::Array(vec![value]);
        }
        let written = [
            msgpack_serde::to_vec(&nested),
            msgpack_serde::to_vec(&linked),
            msgpack_serde::to_vec_compact(&linked),
            msgpack_serde::to_vec(&tagged),
            msgpack_serde::to_vec(&value),
        ]
        .map(Result::unwrap);
        // Dropped here, on the stack they were built on.
        drop((nested, linked, tagged, value));
        written
    });
    let arrays = repeated(&[0x91], LIMIT - 1, &[0x90]);
    assert_eq!(written[0], arrays);
    assert_eq!(
        written[1],
        repeated(b"\x81\xa4next", LIMIT - 1, b"\x81\xa4next\xc0")
    );
    assert_eq!(written[2], repeated(&[0x91], LIMIT - 1, &[0x91, 0xc0]));
    assert_eq!(written[3], repeated(&[0x81, 0x01], LIMIT - 1, &[0x80]));
    assert_eq!(written[4], arrays);
}
