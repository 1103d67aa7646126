//! Byte compatibility with rmp-serde 1.3: `to_vec_compact` writes what
//! `rmp_serde::to_vec` writes and `to_vec` what `rmp_serde::to_vec_named`
//! writes, for every shape of the serde data model, and each side reads
//! the other's bytes to the same value.
//!
//! The documented departures are left out of the comparison here (and
//! pinned in `interop_rmp.rs`): a unit struct is nil for us and `[]` for
//! rmp-serde, and an `i128`/`u128` that fits 64 bits is an integer for us
//! and 16 bytes of bin for rmp-serde. We read both of rmp-serde's forms.

use std::collections::BTreeMap;
use std::fmt::Debug;

use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;

#[derive(Serialize, Deserialize, PartialEq, Eq, PartialOrd, Ord, Debug, Clone)]
enum Plain {
    Unit,
    Newtype(i32),
    Tuple(u8, String),
    Struct { a: bool, b: Option<i64> },
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(untagged)]
enum Untagged {
    Flag(bool),
    Num(i64),
    Float(f64),
    // Before `Text`: a unit variant is its name, a string.
    Inner(Plain),
    Text(String),
    // A struct variant here reads only from a map (serde), so it cannot
    // read compact bytes: see `untagged_variants`. A newtype of a struct can.
    Point(Point),
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Point {
    x: i32,
    y: String,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(tag = "type")]
enum Internal {
    Unit,
    Struct { id: u32, plain: Plain },
    Newtype(Inner),
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Unit,
    Newtype(i32),
    Tuple(u8, u8),
    Struct { a: u8 },
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Inner {
    name: String,
    flag: Option<bool>,
    plain: Plain,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Flattened {
    id: u8,
    #[serde(flatten)]
    inner: Inner,
    #[serde(flatten)]
    extra: BTreeMap<String, u8>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Meters(f64);

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Pair(i8, u16);

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
enum Tree {
    Leaf(i64),
    Node(Vec<Tree>),
    Labeled { label: String, child: Box<Tree> },
}

/// One of every shape, nested.
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Everything {
    unit: (),
    flag: bool,
    int: i64,
    uint: u64,
    small: i8,
    double: f64,
    single: f32,
    letter: char,
    text: String,
    bytes: ByteBuf,
    numbers: Vec<u8>,
    maybe: Option<u16>,
    maybe_text: Option<String>,
    maybe_plain: Option<Plain>,
    plain: Plain,
    plains: Vec<Plain>,
    untagged: Vec<Untagged>,
    internal: Vec<Internal>,
    flattened: Flattened,
    int_keys: BTreeMap<i32, String>,
    tuple_keys: BTreeMap<(u8, bool), i8>,
    enum_keys: BTreeMap<Plain, u8>,
    meters: Meters,
    pair: Pair,
    tree: Tree,
    tuple: (u8, String, Option<bool>),
}

/// Asserts that both libraries write `named` and `compact`, and that each
/// reads them (from a slice, and ours from a reader too) back to `value`.
#[track_caller]
fn check<T>(value: &T, named: &[u8], compact: &[u8])
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    assert_eq!(rmp_serde::to_vec_named(value).unwrap(), named, "rmp named");
    assert_eq!(msgpack_serde::to_vec(value).unwrap(), named, "ours named");
    assert_eq!(rmp_serde::to_vec(value).unwrap(), compact, "rmp compact");
    assert_eq!(
        msgpack_serde::to_vec_compact(value).unwrap(),
        compact,
        "ours compact"
    );
    for bytes in [named, compact] {
        reads_back(value, bytes);
    }
}

/// Both libraries read `bytes` as `value`.
#[track_caller]
fn reads_back<T>(value: &T, bytes: &[u8])
where
    T: DeserializeOwned + PartialEq + Debug,
{
    assert_eq!(&rmp_serde::from_slice::<T>(bytes).unwrap(), value, "rmp");
    assert_eq!(
        &msgpack_serde::from_slice::<T>(bytes).unwrap(),
        value,
        "ours"
    );
    assert_eq!(
        &msgpack_serde::from_reader::<_, T>(bytes).unwrap(),
        value,
        "ours, from a reader"
    );
}

#[test]
fn scalars() {
    check(&(), b"\xc0", b"\xc0");
    check(&true, b"\xc3", b"\xc3");
    check(&-33i8, b"\xd0\xdf", b"\xd0\xdf");
    check(&300u16, b"\xcd\x01\x2c", b"\xcd\x01\x2c");
    check(&-1i64, b"\xff", b"\xff");
    check(&1.5f32, b"\xca\x3f\xc0\0\0", b"\xca\x3f\xc0\0\0");
    check(
        &1.5f64,
        b"\xcb\x3f\xf8\0\0\0\0\0\0",
        b"\xcb\x3f\xf8\0\0\0\0\0\0",
    );
    check(&'λ', b"\xa2\xce\xbb", b"\xa2\xce\xbb");
    check(&"hi".to_string(), b"\xa2hi", b"\xa2hi");
    check(
        &ByteBuf::from(vec![1, 2]),
        b"\xc4\x02\x01\x02",
        b"\xc4\x02\x01\x02",
    );
    check(&vec![1u8, 2], b"\x92\x01\x02", b"\x92\x01\x02");
    check(&None::<u8>, b"\xc0", b"\xc0");
    check(&Some(7u8), b"\x07", b"\x07");
    check(
        &Meters(0.5),
        b"\xcb\x3f\xe0\0\0\0\0\0\0",
        b"\xcb\x3f\xe0\0\0\0\0\0\0",
    );
    check(&Pair(-1, 2), b"\x92\xff\x02", b"\x92\xff\x02");
    check(
        &(1u8, "a".to_string(), None::<bool>),
        b"\x93\x01\xa1a\xc0",
        b"\x93\x01\xa1a\xc0",
    );
}

#[test]
fn externally_tagged_variants() {
    check(&Plain::Unit, b"\xa4Unit", b"\xa4Unit");
    check(
        &Plain::Newtype(-2),
        b"\x81\xa7Newtype\xfe",
        b"\x81\xa7Newtype\xfe",
    );
    check(
        &Plain::Tuple(1, "x".into()),
        b"\x81\xa5Tuple\x92\x01\xa1x",
        b"\x81\xa5Tuple\x92\x01\xa1x",
    );
    check(
        &Plain::Struct { a: true, b: None },
        b"\x81\xa6Struct\x82\xa1a\xc3\xa1b\xc0",
        b"\x81\xa6Struct\x92\xc3\xc0",
    );
    check(&Some(Plain::Unit), b"\xa4Unit", b"\xa4Unit");
}

#[test]
fn untagged_variants() {
    check(&Untagged::Flag(false), b"\xc2", b"\xc2");
    check(&Untagged::Num(-5), b"\xfb", b"\xfb");
    check(
        &Untagged::Float(0.5),
        b"\xcb\x3f\xe0\0\0\0\0\0\0",
        b"\xcb\x3f\xe0\0\0\0\0\0\0",
    );
    // A unit variant inside an untagged enum: issue 14's first defect.
    check(&Untagged::Inner(Plain::Unit), b"\xa4Unit", b"\xa4Unit");
    check(
        &Untagged::Inner(Plain::Struct {
            a: false,
            b: Some(1),
        }),
        b"\x81\xa6Struct\x82\xa1a\xc2\xa1b\x01",
        b"\x81\xa6Struct\x92\xc2\x01",
    );
    check(&Untagged::Text("t".into()), b"\xa1t", b"\xa1t");
    check(
        &Untagged::Point(Point {
            x: 1,
            y: "y".into(),
        }),
        b"\x82\xa1x\x01\xa1y\xa1y",
        b"\x92\x01\xa1y",
    );

    // serde reads an untagged struct variant from a map only: compact
    // bytes are the same on both sides, and both fail to read them.
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    #[serde(untagged)]
    enum WithStruct {
        Rec { x: i32 },
    }
    let value = WithStruct::Rec { x: 1 };
    reads_back(&value, &msgpack_serde::to_vec(&value).unwrap());
    let compact = msgpack_serde::to_vec_compact(&value).unwrap();
    assert_eq!(compact, rmp_serde::to_vec(&value).unwrap());
    assert_eq!(compact, [0x91, 0x01]);
    assert!(rmp_serde::from_slice::<WithStruct>(&compact).is_err());
    assert_eq!(
        msgpack_serde::from_slice::<WithStruct>(&compact)
            .unwrap_err()
            .to_string(),
        // serde_derive's own error, after reading the whole value: where
        // the reader stopped.
        "data did not match any variant of untagged enum WithStruct at offset 2"
    );
}

#[test]
fn internally_tagged_variants() {
    check(&Internal::Unit, b"\x81\xa4type\xa4Unit", b"\x91\xa4Unit");
    check(
        &Internal::Struct {
            id: 9,
            plain: Plain::Unit,
        },
        b"\x83\xa4type\xa6Struct\xa2id\x09\xa5plain\xa4Unit",
        b"\x93\xa6Struct\x09\xa4Unit",
    );
    check(
        &Internal::Newtype(Inner {
            name: "n".into(),
            flag: Some(true),
            plain: Plain::Newtype(3),
        }),
        b"\x84\xa4type\xa7Newtype\xa4name\xa1n\xa4flag\xc3\xa5plain\x81\xa7Newtype\x03",
        b"\x94\xa7Newtype\xa1n\xc3\x81\xa7Newtype\x03",
    );
}

#[test]
fn adjacently_tagged_variants() {
    check(
        &Adjacent::Newtype(-1),
        b"\x82\xa1t\xa7Newtype\xa1c\xff",
        b"\x92\xa7Newtype\xff",
    );
    check(
        &Adjacent::Tuple(1, 2),
        b"\x82\xa1t\xa5Tuple\xa1c\x92\x01\x02",
        b"\x92\xa5Tuple\x92\x01\x02",
    );
    // serde cannot read its own compact form of these two (its sequence
    // visitor wants two elements; a struct variant's content is read from
    // a map only): the same bytes, and the same failure, on both sides.
    for (value, named, compact) in [
        (
            Adjacent::Unit,
            &b"\x81\xa1t\xa4Unit"[..],
            &b"\x91\xa4Unit"[..],
        ),
        (
            Adjacent::Struct { a: 1 },
            b"\x82\xa1t\xa6Struct\xa1c\x81\xa1a\x01",
            b"\x92\xa6Struct\x91\x01",
        ),
    ] {
        assert_eq!(rmp_serde::to_vec_named(&value).unwrap(), named);
        assert_eq!(msgpack_serde::to_vec(&value).unwrap(), named);
        reads_back(&value, named);
        assert_eq!(rmp_serde::to_vec(&value).unwrap(), compact);
        assert_eq!(msgpack_serde::to_vec_compact(&value).unwrap(), compact);
        assert!(rmp_serde::from_slice::<Adjacent>(compact).is_err());
        assert!(msgpack_serde::from_slice::<Adjacent>(compact).is_err());
    }
}

#[test]
fn flattened_fields() {
    // `flatten` makes a map of unknown length, in both modes.
    let value = Flattened {
        id: 1,
        inner: Inner {
            name: "n".into(),
            flag: None,
            plain: Plain::Unit,
        },
        extra: BTreeMap::from([("x_more".to_string(), 2)]),
    };
    let bytes = b"\x85\xa2id\x01\xa4name\xa1n\xa4flag\xc0\xa5plain\xa4Unit\xa6x_more\x02";
    check(&value, bytes, bytes);
}

#[test]
fn maps_with_keys_of_any_type() {
    check(
        &BTreeMap::from([(-1i32, "a".to_string()), (200, "b".to_string())]),
        b"\x82\xff\xa1a\xcc\xc8\xa1b",
        b"\x82\xff\xa1a\xcc\xc8\xa1b",
    );
    check(
        &BTreeMap::from([((1u8, true), -1i8)]),
        b"\x81\x92\x01\xc3\xff",
        b"\x81\x92\x01\xc3\xff",
    );
    check(
        &BTreeMap::from([(Plain::Unit, 1u8), (Plain::Newtype(2), 3)]),
        b"\x82\xa4Unit\x01\x81\xa7Newtype\x02\x03",
        b"\x82\xa4Unit\x01\x81\xa7Newtype\x02\x03",
    );
}

#[test]
fn nesting() {
    let tree = Tree::Labeled {
        label: "l".into(),
        child: Box::new(Tree::Node(vec![Tree::Leaf(1), Tree::Node(vec![])])),
    };
    check(
        &tree,
        b"\x81\xa7Labeled\x82\xa5label\xa1l\xa5child\x81\xa4Node\x92\x81\xa4Leaf\x01\x81\xa4Node\x90",
        b"\x81\xa7Labeled\x92\xa1l\x81\xa4Node\x92\x81\xa4Leaf\x01\x81\xa4Node\x90",
    );
}

fn float64() -> impl Strategy<Value = f64> {
    any::<f64>().prop_filter("NaN is not equal to itself", |x| !x.is_nan())
}

fn float32() -> impl Strategy<Value = f32> {
    any::<f32>().prop_filter("NaN is not equal to itself", |x| !x.is_nan())
}

fn plain() -> impl Strategy<Value = Plain> {
    prop_oneof![
        Just(Plain::Unit),
        any::<i32>().prop_map(Plain::Newtype),
        (any::<u8>(), ".{0,6}").prop_map(|(n, s)| Plain::Tuple(n, s)),
        (any::<bool>(), any::<Option<i64>>()).prop_map(|(a, b)| Plain::Struct { a, b }),
    ]
}

fn untagged() -> impl Strategy<Value = Untagged> {
    prop_oneof![
        any::<bool>().prop_map(Untagged::Flag),
        any::<i64>().prop_map(Untagged::Num),
        // A whole float reads back as `Num` first: keep a fraction.
        float64()
            .prop_filter("a fraction", |x| x.fract() != 0.0)
            .prop_map(Untagged::Float),
        plain().prop_map(Untagged::Inner),
        // Lower case: never a variant name of `Plain`.
        "[a-z ]{0,8}".prop_map(Untagged::Text),
        (any::<i32>(), ".{0,4}").prop_map(|(x, y)| Untagged::Point(Point { x, y })),
    ]
}

fn inner() -> impl Strategy<Value = Inner> {
    (".{0,6}", any::<Option<bool>>(), plain()).prop_map(|(name, flag, plain)| Inner {
        name,
        flag,
        plain,
    })
}

fn internal() -> impl Strategy<Value = Internal> {
    prop_oneof![
        Just(Internal::Unit),
        (any::<u32>(), plain()).prop_map(|(id, plain)| Internal::Struct { id, plain }),
        inner().prop_map(Internal::Newtype),
    ]
}

fn adjacent() -> impl Strategy<Value = Adjacent> {
    prop_oneof![
        Just(Adjacent::Unit),
        any::<i32>().prop_map(Adjacent::Newtype),
        any::<(u8, u8)>().prop_map(|(a, b)| Adjacent::Tuple(a, b)),
        any::<u8>().prop_map(|a| Adjacent::Struct { a }),
    ]
}

fn tree() -> impl Strategy<Value = Tree> {
    any::<i64>()
        .prop_map(Tree::Leaf)
        .prop_recursive(4, 16, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Tree::Node),
                (".{0,4}", inner).prop_map(|(label, child)| Tree::Labeled {
                    label,
                    child: Box::new(child),
                }),
            ]
        })
}

fn flattened() -> impl Strategy<Value = Flattened> {
    // Extra keys never collide with the fields around them.
    let extra = proptest::collection::btree_map("x_[a-z]{0,4}", any::<u8>(), 0..3);
    (any::<u8>(), inner(), extra).prop_map(|(id, inner, extra)| Flattened { id, inner, extra })
}

fn everything() -> impl Strategy<Value = Everything> {
    let scalars = (
        any::<bool>(),
        any::<i64>(),
        any::<u64>(),
        any::<i8>(),
        float64(),
        float32(),
        any::<char>(),
        ".{0,40}",
        proptest::collection::vec(any::<u8>(), 0..40),
        proptest::collection::vec(any::<u8>(), 0..8),
        any::<Option<u16>>(),
        proptest::option::of(".{0,4}"),
    );
    let enums = (
        proptest::option::of(plain()),
        plain(),
        proptest::collection::vec(plain(), 0..4),
        proptest::collection::vec(untagged(), 0..4),
        proptest::collection::vec(internal(), 0..3),
        flattened(),
    );
    let rest = (
        proptest::collection::btree_map(any::<i32>(), ".{0,3}", 0..4),
        proptest::collection::btree_map(any::<(u8, bool)>(), any::<i8>(), 0..4),
        proptest::collection::btree_map(plain(), any::<u8>(), 0..4),
        float64(),
        any::<(i8, u16)>(),
        tree(),
        (any::<u8>(), ".{0,4}", any::<Option<bool>>()),
    );
    (scalars, enums, rest).prop_map(|(scalars, enums, rest)| {
        let (
            flag,
            int,
            uint,
            small,
            double,
            single,
            letter,
            text,
            bytes,
            numbers,
            maybe,
            maybe_text,
        ) = scalars;
        let (maybe_plain, plain, plains, untagged, internal, flattened) = enums;
        let (int_keys, tuple_keys, enum_keys, meters, pair, tree, tuple) = rest;
        Everything {
            unit: (),
            flag,
            int,
            uint,
            small,
            double,
            single,
            letter,
            text,
            bytes: ByteBuf::from(bytes),
            numbers,
            maybe,
            maybe_text,
            maybe_plain,
            plain,
            plains,
            untagged,
            internal,
            flattened,
            int_keys,
            tuple_keys,
            enum_keys,
            meters: Meters(meters),
            pair: Pair(pair.0, pair.1),
            tree,
            tuple,
        }
    })
}

/// Equal bytes in both modes, and each side reads the other's.
fn differential<T>(value: &T) -> Result<(), TestCaseError>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let named = msgpack_serde::to_vec(value).unwrap();
    prop_assert_eq!(&named, &rmp_serde::to_vec_named(value).unwrap());
    let compact = msgpack_serde::to_vec_compact(value).unwrap();
    prop_assert_eq!(&compact, &rmp_serde::to_vec(value).unwrap());
    for bytes in [&named, &compact] {
        prop_assert_eq!(&rmp_serde::from_slice::<T>(bytes).unwrap(), value);
        prop_assert_eq!(&msgpack_serde::from_slice::<T>(bytes).unwrap(), value);
        prop_assert_eq!(
            &msgpack_serde::from_reader::<_, T>(&bytes[..]).unwrap(),
            value
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_shape_matches_rmp_serde(value in everything()) {
        differential(&value)?;
    }

    #[test]
    fn adjacently_tagged_matches_rmp_serde(value in adjacent()) {
        let named = msgpack_serde::to_vec(&value).unwrap();
        prop_assert_eq!(&named, &rmp_serde::to_vec_named(&value).unwrap());
        prop_assert_eq!(&rmp_serde::from_slice::<Adjacent>(&named).unwrap(), &value);
        prop_assert_eq!(&msgpack_serde::from_slice::<Adjacent>(&named).unwrap(), &value);
        // Compact: the same bytes, and the same outcome reading them.
        let compact = msgpack_serde::to_vec_compact(&value).unwrap();
        prop_assert_eq!(&compact, &rmp_serde::to_vec(&value).unwrap());
        prop_assert_eq!(
            rmp_serde::from_slice::<Adjacent>(&compact).ok(),
            msgpack_serde::from_slice::<Adjacent>(&compact).ok()
        );
    }
}
