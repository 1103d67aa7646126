//! The direct path of derived types (msgpack-serde's own `Serializer`
//! over a `Vec<u8>`, owned or borrowed) writes exactly the bytes of the
//! serde path (the same `Serializer` over any other writer), for every
//! shape the direct path takes: maps and tag-indexed arrays with gaps,
//! absent options, `omit_default`, nested structs, vectors of them,
//! tuple structs, enums of unit variants, fields of types without a
//! direct path (serde types, maps), integers and strings at every width, and in both struct
//! modes. Types of bounded size say so, and their largest values take
//! exactly that bound (vectors of them write each in a room of it).

use std::collections::BTreeMap;
use std::io::Cursor;

use msgpack_serde::{Config, MsgPack, Serializer};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde::Serialize;

#[derive(MsgPack, Debug, PartialEq, Clone)]
struct Point {
    #[msgpack(tag = 1)]
    x: f32,
    #[msgpack(tag = 2)]
    y: f64,
    #[msgpack(tag = 3)]
    visible: bool,
}

#[derive(MsgPack, Debug, PartialEq, Clone)]
#[msgpack(array)]
struct Sparse {
    #[msgpack(tag = 1)]
    a: u8,
    #[msgpack(tag = 4)]
    b: Option<i16>,
    #[msgpack(tag = 6)]
    c: Option<String>,
}

#[derive(MsgPack, Debug, PartialEq, Clone)]
enum Kind {
    #[msgpack(tag = 1)]
    Plain,
    #[msgpack(tag = 2)]
    Fancy,
    #[msgpack(tag = 300)]
    Wide,
}

#[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq, Clone)]
struct Plain {
    label: String,
    weight: u32,
}

#[derive(MsgPack, Debug, PartialEq, Clone)]
struct Tuple(#[msgpack(tag = 1)] i64, #[msgpack(tag = 2)] String);

#[derive(MsgPack, Debug, PartialEq, Clone)]
struct Record {
    #[msgpack(tag = 1)]
    id: u64,
    #[msgpack(tag = 2)]
    name: String,
    #[msgpack(tag = 3)]
    note: Option<String>,
    #[msgpack(tag = 4, omit_default)]
    count: u32,
    #[msgpack(tag = 200)]
    small: i8,
    #[msgpack(tag = 70000)]
    wide: i32,
    #[msgpack(tag = 5)]
    points: Vec<Point>,
    #[msgpack(tag = 6)]
    sparse: Vec<Sparse>,
    #[msgpack(tag = 7)]
    kind: Kind,
    #[msgpack(tag = 8)]
    plain: Option<Plain>,
    #[msgpack(tag = 9)]
    map: BTreeMap<String, u16>,
    #[msgpack(tag = 10)]
    tuple: Tuple,
    #[msgpack(tag = 11)]
    bytes: Vec<u8>,
    #[msgpack(tag = 12)]
    nested: Option<Box<Point>>,
}

/// Strings whose lengths cross the fixstr, str 8 and str 16 headers.
fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zé]{0,40}",
        (0usize..300).prop_map(|n| "x".repeat(n)),
        Just("y".repeat(70_000)),
    ]
}

fn point() -> impl Strategy<Value = Point> {
    (any::<f32>(), any::<f64>(), any::<bool>()).prop_map(|(x, y, visible)| Point { x, y, visible })
}

fn sparse() -> impl Strategy<Value = Sparse> {
    (
        any::<u8>(),
        option::of(any::<i16>()),
        option::of("[a-z]{0,5}"),
    )
        .prop_map(|(a, b, c)| Sparse { a, b, c })
}

prop_compose! {
    fn record()(
        id in any::<u64>(),
        name in string(),
        note in option::of(string()),
        count in prop_oneof![Just(0u32), any::<u32>()],
        small in any::<i8>(),
        wide in any::<i32>(),
        points in vec(point(), 0..20),
        sparse in vec(sparse(), 0..5),
        kind in prop_oneof![Just(Kind::Plain), Just(Kind::Fancy), Just(Kind::Wide)],
        plain in option::of(("[a-z]{0,8}", any::<u32>())),
        map in proptest::collection::btree_map("[a-z]{0,4}", any::<u16>(), 0..4),
        tuple in (any::<i64>(), string()),
        bytes in vec(any::<u8>(), 0..40),
        nested in option::of(point()),
    ) -> Record {
        Record {
            id, name, note, count, small, wide, points, sparse,
            kind,
            plain: plain.map(|(label, weight)| Plain { label, weight }),
            map,
            tuple: Tuple(tuple.0, tuple.1),
            bytes,
            nested: nested.map(Box::new),
        }
    }
}

/// The serde path: our serializer over a writer that is not a vector.
fn serde_path<T: Serialize>(value: &T, config: Config) -> Vec<u8> {
    let mut serializer = Serializer::from_writer_with_config(Cursor::new(Vec::new()), config);
    value.serialize(&mut serializer).unwrap();
    serializer.into_writer().into_inner()
}

/// Both direct paths, in every struct mode: into an owned vector, and
/// into a borrowed one with bytes already in it.
#[track_caller]
fn check<T: Serialize>(value: &T) {
    for config in [Config::named(), Config::compact()] {
        let expected = serde_path(value, config);
        let owned = msgpack_serde::to_vec_with_config(value, config).unwrap();
        assert_eq!(owned, expected, "Serializer<Vec<u8>> under {config:?}");
        let mut borrowed = vec![0xc0];
        value
            .serialize(&mut Serializer::with_config(&mut borrowed, config))
            .unwrap();
        assert_eq!(borrowed[0], 0xc0);
        assert_eq!(
            &borrowed[1..],
            expected,
            "Serializer<&mut Vec<u8>> under {config:?}"
        );
    }
    // The serializers whose struct mode is fixed in their type.
    let named = serde_path(value, Config::named());
    let compact = serde_path(value, Config::compact());
    assert_eq!(msgpack_serde::to_vec(value).unwrap(), named, "to_vec");
    assert_eq!(
        msgpack_serde::to_vec_compact(value).unwrap(),
        compact,
        "to_vec_compact"
    );
    let mut borrowed = vec![0xc0];
    value
        .serialize(&mut Serializer::named(&mut borrowed))
        .unwrap();
    assert_eq!(&borrowed[1..], named, "Serializer::named(&mut Vec<u8>)");
    let mut serializer = Serializer::compact(vec![0xc0]);
    value.serialize(&mut serializer).unwrap();
    assert_eq!(
        &serializer.into_inner()[1..],
        compact,
        "Serializer::compact(Vec<u8>)"
    );
}

thread_local! {
    /// The serializer types `Probe` was given, by name.
    static PROBED: std::cell::RefCell<Vec<&'static str>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A field type with no direct path, which records the serializer it is
/// given: on the direct path, the one `Out::serialize` makes over the
/// room's vector; on the serde path, the caller's.
#[derive(Debug, PartialEq)]
struct Probe;

impl Serialize for Probe {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        PROBED.with(|probed| probed.borrow_mut().push(std::any::type_name::<S>()));
        serializer.serialize_unit()
    }
}

impl<'de> serde::Deserialize<'de> for Probe {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <()>::deserialize(deserializer).map(|()| Probe)
    }
}

#[derive(MsgPack, Debug, PartialEq)]
struct Probed {
    #[msgpack(tag = 1)]
    probe: Probe,
}

#[test]
fn every_entry_point_over_a_vector_takes_the_direct_path() {
    let value = Probed { probe: Probe };
    let writes: [(&str, &mut dyn FnMut()); 9] = [
        ("to_vec", &mut || {
            drop(msgpack_serde::to_vec(&value).unwrap())
        }),
        ("to_vec_compact", &mut || {
            drop(msgpack_serde::to_vec_compact(&value).unwrap())
        }),
        ("to_vec_with_config", &mut || {
            drop(msgpack_serde::to_vec_with_config(&value, Config::compact()).unwrap())
        }),
        ("to_writer", &mut || {
            msgpack_serde::to_writer(&mut Vec::new(), &value).unwrap()
        }),
        ("to_writer_compact", &mut || {
            msgpack_serde::to_writer_compact(&mut Vec::new(), &value).unwrap()
        }),
        ("Serializer::named", &mut || {
            value
                .serialize(&mut Serializer::named(&mut Vec::new()))
                .unwrap()
        }),
        ("Serializer::compact", &mut || {
            value
                .serialize(&mut Serializer::compact(Vec::new()))
                .unwrap()
        }),
        ("Serializer::new", &mut || {
            value.serialize(&mut Serializer::new(Vec::new())).unwrap()
        }),
        ("Serializer::from_writer (serde path)", &mut || {
            value
                .serialize(&mut Serializer::from_writer(Cursor::new(Vec::new())))
                .unwrap()
        }),
    ];
    let direct = std::any::type_name::<&mut Serializer<&mut Vec<u8>>>();
    for (name, write) in writes {
        PROBED.with(|probed| probed.borrow_mut().clear());
        write();
        let seen = PROBED.with(|probed| probed.borrow().clone());
        if name.ends_with("(serde path)") {
            assert_eq!(seen.len(), 1, "{name}");
            assert_ne!(seen[0], direct, "{name} took the direct path");
        } else {
            assert_eq!(seen, [direct], "{name} did not take the direct path");
        }
    }
}

#[test]
fn fixed_examples_write_the_serde_paths_bytes() {
    let point = Point {
        x: 1.5,
        y: -2.0,
        visible: true,
    };
    check(&point);
    assert_eq!(
        msgpack_serde::to_vec(&point).unwrap(),
        [0x83, 0x01, 0xca, 0x3f, 0xc0, 0, 0, 0x02, 0xcb, 0xc0, 0, 0, 0, 0, 0, 0, 0, 0x03, 0xc3]
    );
    let sparse = Sparse {
        a: 7,
        b: None,
        c: Some("z".into()),
    };
    check(&sparse);
    assert_eq!(
        msgpack_serde::to_vec(&sparse).unwrap(),
        [0x97, 0xc0, 0x07, 0xc0, 0xc0, 0xc0, 0xc0, 0xa1, b'z']
    );
    let empty = Sparse {
        a: 0,
        b: None,
        c: None,
    };
    assert_eq!(msgpack_serde::to_vec(&empty).unwrap(), [0x92, 0xc0, 0x00]);
    check(&Tuple(-1, "t".into()));
    check(&Kind::Wide);
    assert_eq!(
        msgpack_serde::to_vec(&Kind::Wide).unwrap(),
        [0xcd, 0x01, 0x2c]
    );
    check(&vec![point.clone(); 3]);
}

/// Bounded: in array form with gaps (positions 0, 2 and 5 are nils),
/// integers at their widest, a unit enum, an option and a nested struct.
#[derive(MsgPack, Debug, PartialEq, Clone)]
#[msgpack(array)]
struct Bounded {
    #[msgpack(tag = 1)]
    a: u64,
    #[msgpack(tag = 3)]
    b: Option<i64>,
    #[msgpack(tag = 4)]
    kind: Kind,
    #[msgpack(tag = 6)]
    point: Point,
}

/// Map form with keys of one, two and five bytes around bounded values;
/// itself unbounded, as it holds a vector.
#[derive(MsgPack, Debug, PartialEq, Clone)]
struct WideKeys {
    #[msgpack(tag = 200)]
    a: i32,
    #[msgpack(tag = 70000)]
    b: Option<u16>,
    #[msgpack(tag = 1)]
    inner: Bounded,
    #[msgpack(tag = 2)]
    many: Vec<Bounded>,
}

fn bound<T: msgpack_serde::__private::Direct>() -> Option<usize> {
    T::bound()
}

#[test]
fn the_largest_values_take_their_types_bound() {
    // The nested point: a fixmap, keys of one byte, an f32, an f64, a bool.
    assert_eq!(bound::<Point>(), Some(1 + 6 + 10 + 2));
    let largest = Bounded {
        a: u64::MAX,
        b: Some(i64::MIN),
        kind: Kind::Wide,
        point: Point {
            x: 1.0,
            y: 2.0,
            visible: true,
        },
    };
    // A fixarray of 7, three nils, 9 + 9 + 3 bytes, and the point.
    assert_eq!(bound::<Bounded>(), Some(1 + 3 + 9 + 9 + 3 + 19));
    assert_eq!(
        msgpack_serde::to_vec(&largest).unwrap().len(),
        bound::<Bounded>().unwrap()
    );
    check(&largest);
    check(&vec![largest.clone(); 5]);
    let smallest = Bounded {
        a: 0,
        b: None,
        kind: Kind::Plain,
        point: largest.point.clone(),
    };
    check(&vec![smallest, largest.clone()]);
    // A vector has no bound, so a struct with one has none.
    assert_eq!(bound::<WideKeys>(), None);
    assert_eq!(bound::<Vec<Point>>(), None);
    assert_eq!(bound::<Sparse>(), None);
    assert_eq!(bound::<Record>(), None);
    assert_eq!(bound::<Kind>(), Some(3));
    assert_eq!(bound::<Option<i8>>(), Some(2));
}

/// A vector of each number type and of bools: runs of 16 or more are
/// written a block at a time.
#[derive(MsgPack, Debug)]
struct Runs {
    #[msgpack(tag = 1)]
    signed: Vec<i64>,
    #[msgpack(tag = 2)]
    unsigned: Vec<u64>,
    #[msgpack(tag = 3)]
    narrow: Vec<i16>,
    #[msgpack(tag = 4)]
    bytes: Vec<u8>,
    #[msgpack(tag = 5)]
    singles: Vec<f32>,
    #[msgpack(tag = 6)]
    doubles: Vec<f64>,
    #[msgpack(tag = 7)]
    flags: Vec<bool>,
}

prop_compose! {
    fn runs()(
        signed in vec(prop_oneof![any::<i64>(), -300i64..300, -70_000i64..70_000], 0..100),
        unsigned in vec(prop_oneof![any::<u64>(), 0u64..300], 0..100),
        narrow in vec(any::<i16>(), 0..100),
        bytes in vec(any::<u8>(), 0..100),
        singles in vec(any::<f32>(), 0..100),
        doubles in vec(any::<f64>(), 0..100),
        flags in vec(any::<bool>(), 0..100),
    ) -> Runs {
        Runs { signed, unsigned, narrow, bytes, singles, doubles, flags }
    }
}

#[derive(MsgPack)]
struct Many {
    #[msgpack(tag = 1)]
    values: Vec<u64>,
}

#[test]
fn a_large_vector_reserves_about_what_it_writes() {
    // Each zero takes one byte; its type's estimate is nine. The room
    // reserves at most 1 MiB ahead, and grows as a `Vec` grows.
    let many = Many {
        values: vec![0; 4 << 20],
    };
    let bytes = msgpack_serde::to_vec(&many).unwrap();
    assert_eq!(bytes.len(), 1 + 1 + 5 + (4 << 20));
    assert!(
        bytes.capacity() < 2 * bytes.len() + (1 << 20),
        "{}",
        bytes.capacity()
    );
}

#[test]
fn human_readable_takes_the_serde_path_with_names() {
    let point = Point {
        x: 0.5,
        y: 0.0,
        visible: false,
    };
    let config = Config::named().human_readable(true);
    let bytes = msgpack_serde::to_vec_with_config(&point, config).unwrap();
    assert_eq!(bytes, serde_path(&point, config));
    assert_eq!(&bytes[..3], [0x83, 0xa1, b'x']);
}

prop_compose! {
    fn bounded()(
        a in any::<u64>(),
        b in option::of(any::<i64>()),
        kind in prop_oneof![Just(Kind::Plain), Just(Kind::Fancy), Just(Kind::Wide)],
        point in point(),
    ) -> Bounded {
        Bounded { a, b, kind, point }
    }
}

prop_compose! {
    fn wide_keys()(
        a in any::<i32>(),
        b in option::of(any::<u16>()),
        inner in bounded(),
        many in vec(bounded(), 0..40),
    ) -> WideKeys {
        WideKeys { a, b, inner, many }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn vectors_of_bounded_values_write_the_serde_paths_bytes(value in wide_keys()) {
        check(&value);
        check(&value.many);
        let largest = bound::<Bounded>().unwrap();
        for element in &value.many {
            prop_assert!(msgpack_serde::to_vec(element).unwrap().len() <= largest);
        }
    }

    #[test]
    fn runs_of_numbers_write_the_serde_paths_bytes(runs in runs()) {
        check(&runs);
        check(&runs.signed);
    }

    #[test]
    fn every_record_writes_the_serde_paths_bytes(record in record()) {
        check(&record);
        let back: Record = msgpack_serde::from_slice(&msgpack_serde::to_vec(&record).unwrap()).unwrap();
        // NaN is not equal to itself: compare the bytes of the round trip.
        prop_assert_eq!(
            msgpack_serde::to_vec(&back).unwrap(),
            msgpack_serde::to_vec(&record).unwrap()
        );
    }
}
