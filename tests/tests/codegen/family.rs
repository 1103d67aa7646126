//! The derived types the generated readers are tested on: every rule of
//! the derive (tags, renames, required / optional / default fields,
//! `omit_default`, reserved tags, enum numbers and `other`, the array
//! layout, unknown fields, recursion, big integers, integer ranges, `f32`,
//! bytes, timestamps, a default through `with`), and two versions of one
//! type. Each with a proptest strategy.

use std::collections::BTreeMap;

use msgpack_serde::{MsgPack, Timestamp, UnknownFields, Value};
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use serde_bytes::ByteBuf;

fn seven() -> i32 {
    7
}

fn three() -> u16 {
    3
}

fn five() -> Option<i32> {
    Some(5)
}

/// Writes a `u16` with its bytes swapped: its default, 3, is 0x0300 on
/// the wire, and the document says so.
mod swapped {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &u16, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u16(value.swap_bytes())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u16, D::Error> {
        u16::deserialize(deserializer).map(u16::swap_bytes)
    }
}

#[derive(MsgPack, Debug, Clone, PartialEq)]
#[msgpack(reserved(9, 30..=39))]
pub struct Everything {
    #[msgpack(tag = 1)]
    pub id: u64,
    #[msgpack(tag = 2)]
    pub delta: i64,
    #[msgpack(tag = 3)]
    pub name: String,
    #[msgpack(tag = 4, rename = "displayName")]
    pub display_name: Option<String>,
    #[msgpack(tag = 5, default)]
    pub retries: u8,
    #[msgpack(tag = 6, default = "seven", omit_default)]
    pub level: i32,
    #[msgpack(tag = 7)]
    pub ratio: f64,
    #[msgpack(tag = 8)]
    pub flags: Vec<bool>,
    #[msgpack(tag = 10)]
    pub scores: BTreeMap<String, i64>,
    #[msgpack(tag = 11)]
    pub by_id: BTreeMap<u32, String>,
    #[msgpack(tag = 12)]
    pub blob: ByteBuf,
    #[msgpack(tag = 13)]
    pub at: Timestamp,
    #[msgpack(tag = 14)]
    pub status: Status,
    #[msgpack(tag = 15)]
    pub figure: Figure,
    #[msgpack(tag = 16)]
    pub point: Point,
    #[msgpack(tag = 17)]
    pub tree: Option<Node>,
    #[msgpack(tag = 18)]
    pub pair: (i16, String),
    #[msgpack(tag = 19)]
    pub extra: Value,
    #[msgpack(tag = 20, omit_default)]
    pub labels: Vec<String>,
    /// Keys that are arrays, and arrays in them.
    #[msgpack(tag = 21)]
    pub grid: BTreeMap<(i64, Vec<i8>), String>,
    #[msgpack(tag = 50)]
    pub paths: BTreeMap<Vec<i16>, bool>,
    #[msgpack(tag = 22)]
    pub gaps: Vec<Option<i32>>,
    #[msgpack(tag = 23)]
    pub levels: Vec<Level>,
    #[msgpack(tag = 24)]
    pub nothing: Nothing,
    #[msgpack(tag = 25)]
    pub coord: Coord,
    #[msgpack(tag = 26)]
    pub ping: Ping,
    /// Float 32 on the wire.
    #[msgpack(tag = 27)]
    pub weight: f32,
    #[msgpack(tag = 28, default = "three", omit_default, with = "swapped")]
    pub code: u16,
    /// A type named as the generated code's own helpers once were.
    #[msgpack(tag = 29)]
    pub entry: Entry,
    /// A tag a JavaScript number would round (2^53 + 1).
    #[msgpack(tag = 9007199254740993)]
    pub far: Option<i8>,
    #[msgpack(tag = 51)]
    pub quirks: Option<Quirks>,
    #[msgpack(unknown)]
    pub unknown: UnknownFields,
}

/// Names and shapes the generated code must take in stride: a field named
/// `field` before one with a default (Python's `dataclasses.field` must
/// not be hidden in the class body), `Value` with a default and as a
/// variant's payload (TypeScript's `readAny` is passed the path), and an
/// `omit_default` `Value` whose default is 1, which `true` is not.
#[derive(MsgPack, Debug, Clone, PartialEq)]
pub struct Quirks {
    /// Python's alias of `dataclasses.field`, which the attribute must
    /// not hide either.
    #[msgpack(tag = 6, rename = "_field")]
    pub alias: Option<u8>,
    #[msgpack(tag = 1)]
    pub field: Option<u8>,
    #[msgpack(tag = 2, default)]
    pub other: u8,
    #[msgpack(tag = 3, default)]
    pub any: Value,
    #[msgpack(tag = 4)]
    pub kind: Kind,
    /// Left out at 1: `true` is not 1, though Python's `==` says so.
    #[msgpack(tag = 5, default = "one", omit_default)]
    pub flag: Value,
}

fn one() -> Value {
    Value::from(1)
}

#[derive(MsgPack, Debug, Clone, PartialEq)]
pub enum Kind {
    #[msgpack(tag = 1)]
    Any(Value),
    #[msgpack(tag = 2)]
    Plain,
}

#[derive(MsgPack, Debug, Clone, PartialEq)]
#[msgpack(reserved(3))]
pub enum Status {
    #[msgpack(tag = 1)]
    Active,
    #[msgpack(tag = 2, rename = "on_hold")]
    OnHold,
    #[msgpack(tag = 0, other)]
    Unknown,
}

/// Unit variants without a catch-all: an unknown number is an error.
#[derive(MsgPack, Debug, Clone, PartialEq)]
pub enum Level {
    #[msgpack(tag = 1)]
    Low,
    #[msgpack(tag = 2)]
    High,
}

/// A tuple struct: its fields named and numbered by position.
#[derive(MsgPack, Debug, Clone, PartialEq)]
pub struct Coord(pub i32, pub i32);

/// Named as a helper of the generated TypeScript (and a common name).
#[derive(MsgPack, Debug, Clone, PartialEq)]
pub struct Entry {
    #[msgpack(tag = 1)]
    pub key: String,
}

/// A unit struct: nil.
#[derive(MsgPack, Debug, Clone, PartialEq)]
pub struct Ping;

/// A struct of no fields: an empty map.
#[derive(MsgPack, Debug, Clone, PartialEq)]
pub struct Nothing {}

#[derive(MsgPack, Debug, Clone, PartialEq)]
pub enum Figure {
    #[msgpack(tag = 1)]
    Circle(f64),
    #[msgpack(tag = 2)]
    Rect(f64, f64),
    #[msgpack(tag = 3)]
    Polygon {
        #[msgpack(tag = 1)]
        sides: u8,
        #[msgpack(tag = 2)]
        label: Option<String>,
    },
    #[msgpack(tag = 4)]
    Empty,
}

#[derive(MsgPack, Debug, Clone, PartialEq)]
#[msgpack(array)]
pub struct Point {
    #[msgpack(tag = 0)]
    pub x: i32,
    #[msgpack(tag = 1)]
    pub y: i32,
    #[msgpack(tag = 3)]
    pub z: Option<i32>,
    /// Fields always written whose types read nil: a nil at their place
    /// is their value, not a gap.
    #[msgpack(tag = 8)]
    pub ping: Ping,
    #[msgpack(tag = 9)]
    pub note: Value,
    /// Written always, `None` as nil; absent, `Some(5)`.
    #[msgpack(tag = 10, default = "five")]
    pub hint: Option<i32>,
    /// Left out (nil) at `Some(5)`, so `None` cannot be written.
    #[msgpack(tag = 11, default = "five", omit_default)]
    pub cap: Option<i32>,
    #[msgpack(unknown)]
    pub unknown: UnknownFields,
}

#[derive(MsgPack, Debug, Clone, PartialEq)]
pub struct Node {
    #[msgpack(tag = 1)]
    pub value: i32,
    #[msgpack(tag = 2)]
    pub children: Vec<Node>,
}

/// A profile as first deployed.
pub mod v1 {
    use msgpack_serde::{MsgPack, UnknownFields};

    #[derive(MsgPack, Debug, Clone, PartialEq)]
    pub struct Profile {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(tag = 3)]
        pub nickname: Option<String>,
        #[msgpack(unknown)]
        pub unknown: UnknownFields,
    }
}

/// The next version: `nickname` removed (its tag reserved), two fields added.
pub mod v2 {
    use msgpack_serde::{MsgPack, UnknownFields};

    #[derive(MsgPack, Debug, Clone, PartialEq)]
    #[msgpack(reserved(3))]
    pub struct Profile {
        #[msgpack(tag = 1)]
        pub id: u64,
        #[msgpack(tag = 2)]
        pub name: String,
        #[msgpack(tag = 4)]
        pub email: Option<String>,
        #[msgpack(tag = 5, default)]
        pub visits: u32,
        #[msgpack(unknown)]
        pub unknown: UnknownFields,
    }
}

/// Strings of one to four UTF-8 bytes a character, and U+FEFF (a byte
/// order mark, which a decoder may drop at the start).
fn text() -> impl Strategy<Value = String> {
    "[a-z0-9 \u{e9}\u{4e16}\u{ff21}\u{1f600}\u{feff}]{0,12}"
}

/// Floats that survive every language: no NaN (not equal to itself).
fn float() -> impl Strategy<Value = f64> {
    any::<f64>().prop_filter("not NaN", |x| !x.is_nan())
}

fn float32() -> impl Strategy<Value = f32> {
    any::<f32>().prop_filter("not NaN", |x| !x.is_nan())
}

/// Whose clock the timestamps must fit.
#[derive(Clone, Copy, Debug)]
pub enum Clock {
    /// Any timestamp Rust holds.
    Rust,
    /// JavaScript's `Date`: 8.64e12 s either way of 1970.
    JavaScript,
    /// Python's `datetime`: the years 1 to 9999.
    Python,
}

/// Timestamps of every width (32, 64 and 96) and every nanosecond, in the
/// range of `clock`.
fn timestamp(clock: Clock) -> BoxedStrategy<Timestamp> {
    let seconds = match clock {
        Clock::Rust => i64::MIN..=i64::MAX,
        Clock::JavaScript => -8_639_999_999_999..=8_639_999_999_999,
        Clock::Python => -62_135_596_800..=253_402_300_799,
    };
    let new = |(seconds, nanos)| Timestamp::new(seconds, nanos).unwrap();
    prop_oneof![
        (0i64..1 << 32).prop_map(Timestamp::from_seconds),
        (0i64..1 << 34, 0u32..1_000_000_000).prop_map(new),
        (seconds, 0u32..1_000_000_000).prop_map(new),
    ]
    .boxed()
}

/// What the `any` members and the unknown fields of the values hold.
#[derive(Clone, Copy, Debug)]
pub enum Held {
    /// Floats of both widths (integral ones, both zeros, infinities, NaN
    /// of any payload, signaling ones too) and extensions of every type
    /// (timestamps in and out of their shortest form, invalid ones, types
    /// MessagePack reserves) besides the plain values: what the generated
    /// code relays byte for byte read with `decodeExact` / `unpackb`.
    Exact,
    /// No floats and no extensions: what it relays byte for byte read
    /// with the packages' own decoders too.
    Plain,
}

/// Values that read back the same in every language: maps keyed by
/// strings, integers and (`Held::Exact`) finite floats, no two keys of a
/// map equal as numbers, and no bools (to Python, `True`, `1`, `1.0` and
/// `F32(1.0)` are one key).
fn value(held: Held) -> impl Strategy<Value = Value> {
    let mut leaves = vec![
        Just(Value::Nil).boxed(),
        any::<bool>().prop_map(Value::Bool).boxed(),
        any::<i64>().prop_map(Value::from).boxed(),
        any::<u64>().prop_map(Value::from).boxed(),
        text().prop_map(Value::Str).boxed(),
        vec(any::<u8>(), 0..8).prop_map(Value::Bin).boxed(),
    ];
    if let Held::Exact = held {
        leaves.push(wire_f32().prop_map(Value::F32).boxed());
        leaves.push(wire_f64().prop_map(Value::F64).boxed());
        leaves.push(ext().boxed());
    }
    proptest::strategy::Union::new(leaves).prop_recursive(2, 12, 4, move |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            vec((key(held), inner), 0..4).prop_map(|entries| {
                let mut seen: Vec<Value> = Vec::new();
                let unique = entries.into_iter().filter(|(k, _)| {
                    let new = !seen.iter().any(|s| same_key(s, k));
                    seen.push(k.clone());
                    new
                });
                Value::Map(unique.collect())
            }),
        ]
    })
}

/// Whether two keys are one key to Python's `dict`: equal, or equal as
/// numbers (`2`, `2.0`, `-0.0` and `0`).
fn same_key(a: &Value, b: &Value) -> bool {
    let number = |v: &Value| {
        v.as_f64()
            .or(v.as_i64().map(|i| i as f64))
            .or(v.as_u64().map(|u| u as f64))
    };
    match (number(a), number(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// Every kind of float 32 on the wire: any (quiet NaNs of any payload
/// among them), signaling NaNs, integral values, both zeros, infinities.
fn wire_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        any::<f32>(),
        proptest::num::f32::SIGNALING_NAN,
        (-1000i32..1000).prop_map(|i| i as f32),
        prop_oneof![
            Just(-0.0),
            Just(0.0),
            Just(f32::INFINITY),
            Just(f32::NEG_INFINITY),
            Just(f32::NAN)
        ],
    ]
}

/// Every kind of float 64 on the wire, as `wire_f32`, and integral values
/// past 2^53.
fn wire_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        proptest::num::f64::SIGNALING_NAN,
        (-1000i32..1000).prop_map(f64::from),
        any::<i64>().prop_map(|i| i as f64),
        prop_oneof![
            Just(-0.0),
            Just(2.0),
            Just(f64::INFINITY),
            Just(f64::NEG_INFINITY),
            Just(f64::NAN)
        ],
    ]
}

/// Extensions of every type: timestamps as Rust writes them (the shortest
/// form), in a longer form than they need (96 bits), invalid (nanoseconds
/// past a second, or a length no timestamp has), and other types,
/// application and reserved.
fn ext() -> impl Strategy<Value = Value> {
    let shortest = timestamp(Clock::Rust).prop_map(|t| {
        let bytes = msgpack_serde::to_vec(&t).unwrap();
        msgpack_core::Value::from_slice(&bytes).unwrap()
    });
    let long = (0i64..1 << 32, 0u32..1_000_000_000).prop_map(|(seconds, nanos)| {
        let mut data = nanos.to_be_bytes().to_vec();
        data.extend(seconds.to_be_bytes());
        Value::Ext(-1, data)
    });
    let invalid = prop_oneof![
        (1_000_000_000u32..=u32::MAX, any::<u64>()).prop_map(|(nanos, seconds)| {
            let mut data = nanos.to_be_bytes().to_vec();
            data.extend(seconds.to_be_bytes());
            data
        }),
        vec(any::<u8>(), 0..20).prop_filter("no timestamp's length", |d| {
            ![4, 8, 12].contains(&d.len())
        }),
    ]
    .prop_map(|data| Value::Ext(-1, data));
    let other = (any::<i8>(), vec(any::<u8>(), 0..20))
        .prop_filter("not a timestamp", |(ty, _)| *ty != -1)
        .prop_map(|(ty, data)| Value::Ext(ty, data));
    prop_oneof![shortest, long, invalid, other]
}

/// A map key in a `Value`: a string that may look like an integer, an
/// integer of any width, or (`Held::Exact`) a finite float of either
/// width (serde_json, which the JSON Schema tests use, writes no other
/// float key), in no order.
fn key(held: Held) -> impl Strategy<Value = Value> {
    let mut keys = vec![
        "[a-z]{1,4}".prop_map(Value::Str).boxed(),
        "-?[0-9]{1,3}".prop_map(Value::Str).boxed(),
        any::<i64>().prop_map(Value::from).boxed(),
        (0u64..100).prop_map(Value::from).boxed(),
        any::<u64>().prop_map(Value::from).boxed(),
    ];
    if let Held::Exact = held {
        let finite = |x: &f64| x.is_finite();
        keys.push(
            wire_f32()
                .prop_filter("finite", |x| x.is_finite())
                .prop_map(Value::F32)
                .boxed(),
        );
        keys.push(
            wire_f64()
                .prop_filter("finite", finite)
                .prop_map(Value::F64)
                .boxed(),
        );
    }
    proptest::strategy::Union::new(keys)
}

/// Unknown fields at tags no version uses.
fn unknown(tags: std::ops::Range<u64>, held: Held) -> impl Strategy<Value = UnknownFields> {
    btree_map(tags, value(held), 0..3).prop_map(|fields| {
        let mut unknown = UnknownFields::new();
        for (tag, value) in fields {
            unknown.insert(tag, value);
        }
        unknown
    })
}

fn node() -> impl Strategy<Value = Node> {
    let leaf = any::<i32>().prop_map(|value| Node {
        value,
        children: Vec::new(),
    });
    leaf.prop_recursive(3, 10, 3, |inner| {
        (any::<i32>(), vec(inner, 0..3)).prop_map(|(value, children)| Node { value, children })
    })
}

fn quirks(held: Held) -> impl Strategy<Value = Quirks> {
    (
        proptest::option::of(any::<u8>()),
        any::<u8>(),
        value(held),
        prop_oneof![value(held).prop_map(Kind::Any), Just(Kind::Plain)],
        prop_oneof![Just(Value::Bool(true)), Just(one()), value(held)],
    )
        .prop_map(|(field, other, any, kind, flag)| Quirks {
            alias: field.map(|x| x.wrapping_add(1)),
            field,
            other,
            any,
            kind,
            flag,
        })
}

fn status() -> impl Strategy<Value = Status> {
    prop_oneof![
        Just(Status::Active),
        Just(Status::OnHold),
        Just(Status::Unknown)
    ]
}

fn figure() -> impl Strategy<Value = Figure> {
    prop_oneof![
        float().prop_map(Figure::Circle),
        (float(), float()).prop_map(|(w, h)| Figure::Rect(w, h)),
        (any::<u8>(), proptest::option::of(text()))
            .prop_map(|(sides, label)| Figure::Polygon { sides, label }),
        Just(Figure::Empty),
    ]
}

fn point(held: Held) -> impl Strategy<Value = Point> {
    // Nil in an array is a gap: an unknown field there must not be nil.
    let unknown = unknown(4..8, held).prop_map(|mut fields| {
        let nils: Vec<u64> = fields
            .iter()
            .filter(|(_, v)| v.is_nil())
            .map(|(t, _)| t)
            .collect();
        let mut kept = UnknownFields::new();
        for (tag, value) in fields.iter() {
            if !nils.contains(&tag) {
                kept.insert(tag, value.clone());
            }
        }
        fields = kept;
        fields
    });
    (
        any::<i32>(),
        any::<i32>(),
        proptest::option::of(any::<i32>()),
        prop_oneof![Just(Value::Nil), value(held)],
        proptest::option::of(any::<i32>()),
        prop_oneof![Just(5), any::<i32>()],
        unknown,
    )
        .prop_map(|(x, y, z, note, hint, cap, unknown)| Point {
            x,
            y,
            z,
            ping: Ping,
            note,
            hint,
            cap: Some(cap),
            unknown,
        })
}

prop_compose! {
    fn everything_head()(
        id in any::<u64>(),
        delta in any::<i64>(),
        name in text(),
        display_name in proptest::option::of(text()),
        retries in any::<u8>(),
        level in prop_oneof![Just(7), any::<i32>()],
        ratio in float(),
        flags in vec(any::<bool>(), 0..4),
        scores in btree_map(text(), any::<i64>(), 0..4),
        by_id in btree_map(any::<u32>(), text(), 0..4),
    ) -> (u64, i64, String, Option<String>, u8, i32, f64, Vec<bool>, BTreeMap<String, i64>, BTreeMap<u32, String>) {
        (id, delta, name, display_name, retries, level, ratio, flags, scores, by_id)
    }
}

prop_compose! {
    /// With timestamps that `clock` holds, and `held` values in `extra` and
    /// the unknown fields.
    pub fn everything(clock: Clock, held: Held)(
        head in everything_head(),
        blob in vec(any::<u8>(), 0..16),
        at in timestamp(clock),
        status in status(),
        figure in figure(),
        point in point(held),
        tree in proptest::option::of(node()),
        pair in (any::<i16>(), text()),
        extra in value(held),
        labels in vec(text(), 0..3),
        grid in btree_map((any::<i64>(), vec(any::<i8>(), 0..3)), text(), 0..3),
        paths in btree_map(vec(any::<i16>(), 0..3), any::<bool>(), 0..3),
        gaps in vec(proptest::option::of(any::<i32>()), 0..4),
        levels in vec(prop_oneof![Just(Level::Low), Just(Level::High)], 0..3),
        coord in (any::<i32>(), any::<i32>()),
        (weight, code) in (float32(), prop_oneof![Just(3), any::<u16>()]),
        far in proptest::option::of(any::<i8>()),
        quirks in proptest::option::of(quirks(held)),
        key in text(),
        unknown in unknown(40..45, held),
    ) -> Everything {
        let (id, delta, name, display_name, retries, level, ratio, flags, scores, by_id) = head;
        Everything {
            id, delta, name, display_name, retries, level, ratio, flags, scores, by_id,
            blob: ByteBuf::from(blob), at, status, figure, point, tree, pair, extra, labels, grid, paths, gaps, levels, nothing: Nothing {}, coord: Coord(coord.0, coord.1), ping: Ping, weight, code, entry: Entry { key }, far, quirks, unknown,
        }
    }
}

prop_compose! {
    pub fn profile_v1(held: Held)(
        id in any::<u64>(),
        name in text(),
        nickname in proptest::option::of(text()),
        unknown in unknown(10..14, held),
    ) -> v1::Profile {
        v1::Profile { id, name, nickname, unknown }
    }
}

prop_compose! {
    pub fn profile_v2(held: Held)(
        id in any::<u64>(),
        name in text(),
        email in proptest::option::of(text()),
        visits in any::<u32>(),
        unknown in unknown(10..14, held),
    ) -> v2::Profile {
        v2::Profile { id, name, email, visits, unknown }
    }
}
