//! The stack that reading and writing take to the depth limit, in the
//! build the tests run in. `cargo test` builds without optimization, where
//! every call keeps a frame of its own and a callee inlined always keeps
//! all its locals in its caller's frame: the frames of a recursive read or
//! write add up level after level. Each case runs on a thread of its own,
//! named for it, whose stack is [`STACK`] bytes (half the 2 MiB that
//! std's threads and tokio's workers get by default), or [`JSON_STACK`]
//! for the JSON transcoders; a case that needs more overflows that
//! thread, which aborts this test binary with the case's name ("thread
//! 'serde Vec' has overflowed its stack").
//!
//! Each type that recurses (through a `Vec`, an `Option<Box<_>>` field of
//! a narrow and of a wide struct, an enum's variant; serde's derive and
//! ours, a generic derived struct too, which takes the derive's serde
//! path; `Value`'s arrays and maps) is written as deep as the default
//! limit of 128 allows, by `to_vec_with_config` and
//! `to_writer_with_config`, read back by
//! `from_slice` and `from_reader`, and read from input nested 100,000
//! deep, which stops at the limit. The transcoders go to their limit of
//! 512 both ways.
//!
//! `STACK_DEPTH_BYTES` sets every case's stack instead, to find the least
//! a case needs (`benches/RESULTS.md`, step 36).

use std::fmt::Debug;

use msgpack_serde::core::Reader;
use msgpack_serde::json::{FromJson, ToJson};
use msgpack_serde::{Config, MsgPack, Value};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The stack each case of reading and writing runs on.
const STACK: usize = 1 << 20;

/// The JSON transcoders' stack: their depth limit,
/// [`MAX_DEPTH`](msgpack_serde::json::MAX_DEPTH), is four times the
/// decoders', and serde_json's own frames come between ours. Three
/// quarters of 2 MiB.
const JSON_STACK: usize = 3 << 19;

/// The default depth limit.
const LIMIT: usize = 128;

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

/// A serde struct of twelve fields, the last recursing: each field's
/// write and read is code of the struct's own frame. Its `data` array is
/// one level deeper than the struct, so 127 of them nest to the limit.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Wide {
    id: u64,
    name: String,
    score: f64,
    active: bool,
    rank: Option<u32>,
    data: Vec<u8>,
    delta: i32,
    note: Option<String>,
    port: u16,
    ratio: f32,
    total: i64,
    next: Option<Box<Wide>>,
}

/// A serde enum that recurses through a variant.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Expr {
    Literal(u32),
    Negated(Box<Expr>),
}

/// Maps in maps: a derived struct that recurses through a tagged field.
#[derive(MsgPack, Debug, PartialEq)]
struct Tagged {
    #[msgpack(tag = 1)]
    next: Option<Box<Tagged>>,
}

/// A derived tree: a map holding an array of its children, two levels
/// of nesting each, read element by element into the vector.
#[derive(MsgPack, Debug, PartialEq)]
struct Tree {
    #[msgpack(tag = 1)]
    children: Vec<Tree>,
}

/// [`Wide`], derived.
#[derive(MsgPack, Debug, PartialEq)]
struct TaggedWide {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(tag = 2)]
    name: String,
    #[msgpack(tag = 3)]
    score: f64,
    #[msgpack(tag = 4)]
    active: bool,
    #[msgpack(tag = 5)]
    rank: Option<u32>,
    #[msgpack(tag = 6)]
    data: Vec<u8>,
    #[msgpack(tag = 7)]
    delta: i32,
    #[msgpack(tag = 8)]
    note: Option<String>,
    #[msgpack(tag = 9)]
    port: u16,
    #[msgpack(tag = 10)]
    ratio: f32,
    #[msgpack(tag = 11)]
    total: i64,
    #[msgpack(tag = 12)]
    next: Option<Box<TaggedWide>>,
}

/// A derived struct generic over a field: a generic struct takes the
/// derive's serde path (its map writer), not its direct one.
#[derive(MsgPack, Debug, PartialEq)]
struct Generic<T> {
    #[msgpack(tag = 1)]
    value: T,
    #[msgpack(tag = 2)]
    next: Option<Box<Generic<T>>>,
}

/// [`Generic`] in array form (the derive's array writer).
#[derive(MsgPack, Debug, PartialEq)]
#[msgpack(array)]
struct GenericArray<T> {
    #[msgpack(tag = 0)]
    value: T,
    #[msgpack(tag = 1)]
    next: Option<Box<GenericArray<T>>>,
}

/// A [`Wide`] or [`TaggedWide`] holding `next`.
macro_rules! wide {
    ($ty:ident, $next:expr) => {
        $ty {
            id: 1,
            name: "n".into(),
            score: 0.5,
            active: true,
            rank: Some(2),
            data: vec![3],
            delta: -4,
            note: None,
            port: 5,
            ratio: 0.25,
            total: -6,
            next: $next,
        }
    };
}

/// [`Expr`], derived.
#[derive(MsgPack, Debug, PartialEq)]
enum TaggedExpr {
    #[msgpack(tag = 1)]
    Literal(u32),
    #[msgpack(tag = 2)]
    Negated(Box<TaggedExpr>),
}

/// Runs `case` on a thread of `stack` bytes (of `STACK_DEPTH_BYTES`
/// when that is set) named `name`.
fn on_stack<T: Send + 'static>(
    stack: usize,
    name: &str,
    case: impl FnOnce() -> T + Send + 'static,
) -> T {
    let stack = match std::env::var("STACK_DEPTH_BYTES") {
        Ok(bytes) => bytes
            .parse()
            .expect("STACK_DEPTH_BYTES is a number of bytes"),
        Err(_) => stack,
    };
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

/// `innermost` wrapped `levels` times by `wrap`.
fn nest<T>(innermost: T, levels: usize, wrap: impl Fn(T) -> T) -> T {
    (0..levels).fold(innermost, |value, _| wrap(value))
}

/// What one type's case found.
struct Found<T> {
    /// The value as deep as the limit allows.
    value: T,
    /// Its bytes from `to_vec`, and from `to_writer`.
    written: (Vec<u8>, Vec<u8>),
    /// Those bytes read back by `from_slice`, and by `from_reader`.
    read: (Result<T, String>, Result<T, String>),
    /// The errors reading the hostile input by `from_slice` and
    /// `from_reader`.
    hostile: (Option<String>, Option<String>),
}

/// On a thread of [`STACK`] bytes named `name`: builds a `T` as deep as
/// the limit allows, writes it in `config`'s struct mode, reads it back,
/// and reads `hostile`.
fn to_the_limit<T>(
    name: &str,
    config: Config,
    build: impl FnOnce() -> T + Send + 'static,
    hostile: Vec<u8>,
) -> Found<T>
where
    T: Serialize + DeserializeOwned + Send + 'static,
{
    on_stack(STACK, name, move || {
        let value = build();
        let to_vec = msgpack_serde::to_vec_with_config(&value, config).expect("written");
        let mut to_writer = Vec::new();
        msgpack_serde::to_writer_with_config(&mut to_writer, &value, config).expect("written");
        let text = |error: msgpack_serde::Error| error.to_string();
        let read = (
            msgpack_serde::from_slice::<T>(&to_vec).map_err(text),
            msgpack_serde::from_reader::<_, T>(&to_vec[..]).map_err(text),
        );
        let hostile = (
            msgpack_serde::from_slice::<T>(&hostile).err().map(text),
            msgpack_serde::from_reader::<_, T>(&hostile[..])
                .err()
                .map(text),
        );
        Found {
            value,
            written: (to_vec, to_writer),
            read,
            hostile,
        }
    })
}

/// Checks what [`to_the_limit`] found: the bytes are `bytes` both ways,
/// read back they are the value both ways, and the hostile input fails
/// with `message` both ways.
#[track_caller]
fn check<T: PartialEq + Debug>(found: Found<T>, bytes: &[u8], message: &str) {
    assert_eq!(found.written.0, bytes, "to_vec");
    assert_eq!(found.written.1, bytes, "to_writer");
    assert_eq!(found.read.0.as_ref(), Ok(&found.value), "from_slice");
    assert_eq!(found.read.1.as_ref(), Ok(&found.value), "from_reader");
    assert_eq!(
        found.hostile.0.as_deref(),
        Some(message),
        "from_slice, hostile"
    );
    assert_eq!(
        found.hostile.1.as_deref(),
        Some(message),
        "from_reader, hostile"
    );
}

/// The depth error at `offset`.
fn too_deep(offset: usize) -> String {
    format!("nesting exceeds the depth limit of 128 at offset {offset}")
}

#[test]
fn a_serde_vec_to_the_limit() {
    let found = to_the_limit(
        "serde Vec",
        Config::default(),
        || nest(Nested(Vec::new()), LIMIT - 1, |inner| Nested(vec![inner])),
        repeated(&[0x91], 100_000, &[]),
    );
    check(
        found,
        &repeated(&[0x91], LIMIT - 1, &[0x90]),
        &too_deep(128),
    );
}

#[test]
fn a_serde_struct_to_the_limit() {
    let linked = || {
        nest(Linked { next: None }, LIMIT - 1, |inner| Linked {
            next: Some(Box::new(inner)),
        })
    };
    let hostile = repeated(b"\x81\xa4next", 100_000, &[]);
    let found = to_the_limit("serde struct", Config::default(), linked, hostile.clone());
    let bytes = repeated(b"\x81\xa4next", LIMIT - 1, b"\x81\xa4next\xc0");
    check(found, &bytes, &too_deep(768));
    let compact = Config::default().structs_as_maps(false);
    let hostile = repeated(&[0x91], 100_000, &[]);
    let found = to_the_limit("serde struct, compact", compact, linked, hostile);
    check(found, &repeated(&[0x91], LIMIT, &[0xc0]), &too_deep(128));
}

#[test]
fn a_wide_serde_struct_to_the_limit() {
    let wide = |next| wide!(Wide, next);
    let level = [
        &b"\x8c\xa2id\x01\xa4name\xa1n\xa5score\xcb\x3f\xe0\0\0\0\0\0\0"[..],
        b"\xa6active\xc3\xa4rank\x02\xa4data\x91\x03\xa5delta\xfc\xa4note\xc0",
        b"\xa4port\x05\xa5ratio\xca\x3e\x80\0\0\xa5total\xfa\xa4next",
    ]
    .concat();
    let found = to_the_limit(
        "wide serde struct",
        Config::default(),
        move || nest(wide(None), LIMIT - 2, |inner| wide(Some(Box::new(inner)))),
        repeated(b"\x81\xa4next", 100_000, &[]),
    );
    check(found, &repeated(&level, LIMIT - 1, &[0xc0]), &too_deep(768));
}

#[test]
fn a_serde_enum_to_the_limit() {
    let found = to_the_limit(
        "serde enum",
        Config::default(),
        || {
            nest(Expr::Literal(7), LIMIT - 1, |inner| {
                Expr::Negated(Box::new(inner))
            })
        },
        repeated(b"\x81\xa7Negated", 100_000, &[]),
    );
    let bytes = repeated(b"\x81\xa7Negated", LIMIT - 1, b"\x81\xa7Literal\x07");
    check(found, &bytes, &too_deep(1152));
}

#[test]
fn a_derived_struct_to_the_limit() {
    let found = to_the_limit(
        "derived struct",
        Config::default(),
        || {
            nest(Tagged { next: None }, LIMIT - 1, |inner| Tagged {
                next: Some(Box::new(inner)),
            })
        },
        repeated(&[0x81, 0x01], 100_000, &[]),
    );
    check(
        found,
        &repeated(&[0x81, 0x01], LIMIT - 1, &[0x80]),
        &too_deep(256),
    );
}

#[test]
fn a_derived_tree_to_the_limit() {
    let found = to_the_limit(
        "derived tree",
        Config::default(),
        || {
            let leaf = Tree {
                children: Vec::new(),
            };
            nest(leaf, LIMIT / 2 - 1, |inner| Tree {
                children: vec![inner],
            })
        },
        repeated(&[0x81, 0x01, 0x91], 100_000, &[]),
    );
    let bytes = repeated(&[0x81, 0x01, 0x91], LIMIT / 2 - 1, &[0x81, 0x01, 0x90]);
    check(found, &bytes, &too_deep(192));
}

#[test]
fn a_wide_derived_struct_to_the_limit() {
    let wide = |next| wide!(TaggedWide, next);
    // `note` and, innermost, `next` are `None`: left out of the map.
    let level = [
        &b"\x8b\x01\x01\x02\xa1n\x03\xcb\x3f\xe0\0\0\0\0\0\0\x04\xc3\x05\x02"[..],
        b"\x06\x91\x03\x07\xfc\x09\x05\x0a\xca\x3e\x80\0\0\x0b\xfa\x0c",
    ]
    .concat();
    let innermost =
        b"\x8a\x01\x01\x02\xa1n\x03\xcb\x3f\xe0\0\0\0\0\0\0\x04\xc3\x05\x02\x06\x91\x03\x07\xfc\x09\x05\x0a\xca\x3e\x80\0\0\x0b\xfa";
    let found = to_the_limit(
        "wide derived struct",
        Config::default(),
        move || nest(wide(None), LIMIT - 2, |inner| wide(Some(Box::new(inner)))),
        repeated(&[0x81, 0x0c], 100_000, &[]),
    );
    check(
        found,
        &repeated(&level, LIMIT - 2, innermost),
        &too_deep(256),
    );
}

#[test]
fn a_generic_derived_struct_to_the_limit() {
    let found = to_the_limit(
        "generic derived struct",
        Config::default(),
        || {
            let innermost = Generic {
                value: 7u8,
                next: None,
            };
            nest(innermost, LIMIT - 1, |inner| Generic {
                value: 7,
                next: Some(Box::new(inner)),
            })
        },
        repeated(&[0x82, 0x01, 0x07, 0x02], 100_000, &[]),
    );
    let bytes = repeated(&[0x82, 0x01, 0x07, 0x02], LIMIT - 1, &[0x81, 0x01, 0x07]);
    check(found, &bytes, &too_deep(512));
    let found = to_the_limit(
        "generic derived struct, array",
        Config::default(),
        || {
            let innermost = GenericArray {
                value: 7u8,
                next: None,
            };
            nest(innermost, LIMIT - 1, |inner| GenericArray {
                value: 7,
                next: Some(Box::new(inner)),
            })
        },
        repeated(&[0x92, 0x07], 100_000, &[]),
    );
    // The innermost `next`, absent and last, is left out of the array.
    let bytes = repeated(&[0x92, 0x07], LIMIT - 1, &[0x91, 0x07]);
    check(found, &bytes, &too_deep(256));
}

#[test]
fn a_derived_enum_to_the_limit() {
    let found = to_the_limit(
        "derived enum",
        Config::default(),
        || {
            let literal = TaggedExpr::Literal(7);
            nest(literal, LIMIT - 1, |inner| {
                TaggedExpr::Negated(Box::new(inner))
            })
        },
        repeated(&[0x81, 0x02], 100_000, &[]),
    );
    let bytes = repeated(&[0x81, 0x02], LIMIT - 1, &[0x81, 0x01, 0x07]);
    check(found, &bytes, &too_deep(256));
}

#[test]
fn values_to_the_limit() {
    let found = to_the_limit(
        "Value arrays",
        Config::default(),
        || {
            nest(Value::Array(Vec::new()), LIMIT - 1, |inner| {
                Value::Array(vec![inner])
            })
        },
        repeated(&[0x91], 100_000, &[]),
    );
    check(
        found,
        &repeated(&[0x91], LIMIT - 1, &[0x90]),
        &too_deep(128),
    );
    let found = to_the_limit(
        "Value maps",
        Config::default(),
        || {
            nest(Value::Map(Vec::new()), LIMIT - 1, |inner| {
                Value::Map(vec![(Value::from("a"), inner)])
            })
        },
        repeated(b"\x81\xa1a", 100_000, &[]),
    );
    check(
        found,
        &repeated(b"\x81\xa1a", LIMIT - 1, &[0x80]),
        &too_deep(384),
    );
}

/// `bytes` as JSON in `style`, on a thread of [`JSON_STACK`] bytes.
fn to_json(name: &str, style: ToJson, bytes: Vec<u8>) -> Result<String, String> {
    on_stack(JSON_STACK, name, move || {
        let mut out = Vec::new();
        let mut serializer = serde_json::Serializer::new(&mut out);
        msgpack_serde::json::write_json(&mut Reader::new(&bytes), style, &mut serializer)
            .map_err(|error| error.to_string())?;
        Ok(String::from_utf8(out).expect("JSON"))
    })
}

#[test]
fn transcoding_to_json_to_the_limit() {
    let too_deep = |offset| format!("nesting exceeds the depth limit of 512 at offset {offset}");
    let arrays = |count, end: &[u8]| repeated(&[0x91], count, end);
    let deepest = to_json(
        "to JSON, arrays",
        ToJson::tagged(),
        arrays(JSON_LIMIT - 1, &[0x90]),
    );
    assert_eq!(
        deepest,
        Ok("[".repeat(JSON_LIMIT) + &"]".repeat(JSON_LIMIT))
    );
    let hostile = to_json("to JSON, arrays", ToJson::tagged(), arrays(100_000, &[]));
    assert_eq!(hostile, Err(too_deep(512)));
    // Objects, by string keys.
    let objects = |count, end: &[u8]| repeated(b"\x81\xa1a", count, end);
    let deepest = to_json(
        "to JSON, objects",
        ToJson::tagged(),
        objects(JSON_LIMIT - 1, &[0x80]),
    );
    assert_eq!(
        deepest,
        Ok(r#"{"a":"#.repeat(JSON_LIMIT - 1) + "{}" + &"}".repeat(JSON_LIMIT - 1))
    );
    let hostile = to_json("to JSON, objects", ToJson::tagged(), objects(100_000, &[]));
    assert_eq!(hostile, Err(too_deep(1536)));
    // Maps by integer keys: tagged, `{"$map": [[key, value]]}`; plain,
    // an object keyed by the key's JSON text.
    let int_keys = |count, end: &[u8]| repeated(&[0x81, 0x01], count, end);
    let deepest = to_json(
        "to JSON, $map",
        ToJson::tagged(),
        int_keys(JSON_LIMIT - 1, &[0x80]),
    );
    let open = r#"{"$map":[[1,"#.repeat(JSON_LIMIT - 1);
    let close = "]]}".repeat(JSON_LIMIT - 1);
    assert_eq!(deepest, Ok(open + "{}" + &close));
    let hostile = to_json("to JSON, $map", ToJson::tagged(), int_keys(100_000, &[]));
    assert_eq!(hostile, Err(too_deep(1024)));
    let deepest = to_json(
        "to JSON, plain",
        ToJson::plain(),
        int_keys(JSON_LIMIT - 1, &[0x80]),
    );
    assert_eq!(
        deepest,
        Ok(r#"{"1":"#.repeat(JSON_LIMIT - 1) + "{}" + &"}".repeat(JSON_LIMIT - 1))
    );
    let hostile = to_json("to JSON, plain", ToJson::plain(), int_keys(100_000, &[]));
    assert_eq!(hostile, Err(too_deep(1024)));
}

/// `json` as MessagePack, on a thread of [`JSON_STACK`] bytes.
fn from_json(name: &str, json: String) -> Result<Vec<u8>, String> {
    on_stack(JSON_STACK, name, move || {
        msgpack_serde::json::to_msgpack(json.as_bytes(), FromJson::tagged())
            .map_err(|error| error.to_string())
    })
}

#[test]
fn transcoding_from_json_to_the_limit() {
    let too_deep =
        |column| format!("nesting exceeds the depth limit of 512 at line 1 column {column}");
    let deepest = from_json(
        "from JSON, arrays",
        "[".repeat(JSON_LIMIT) + &"]".repeat(JSON_LIMIT),
    );
    assert_eq!(deepest, Ok(repeated(&[0x91], JSON_LIMIT - 1, &[0x90])));
    let hostile = from_json("from JSON, arrays", "[".repeat(100_000));
    assert_eq!(hostile, Err(too_deep(513)));
    let objects = |count| r#"{"a":"#.repeat(count);
    let deepest = from_json(
        "from JSON, objects",
        objects(JSON_LIMIT - 1) + "{}" + &"}".repeat(JSON_LIMIT - 1),
    );
    assert_eq!(deepest, Ok(repeated(b"\x81\xa1a", JSON_LIMIT - 1, &[0x80])));
    let hostile = from_json("from JSON, objects", objects(100_000));
    assert_eq!(hostile, Err(too_deep(2564)));
}
