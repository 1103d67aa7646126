//! Structs and tuples, whose number, bool and string fields our
//! serializer writes into a room at the end of its vector
//! (`ser/compound.rs`, `ser/field_room.rs`, `ser/scalars.rs`), against the
//! same serializer over an `io::Write` that is not a vector (every field
//! through the writer) and against rmp-serde: the same bytes in every
//! struct mode, past the vector's capacity too; they read back; and a
//! struct ended early keeps what it wrote.

use std::fmt::Debug;

use msgpack_serde::{Config, Serializer};
use msgpack_test_support::Sink;
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::ser::{Error as _, SerializeStruct, SerializeTuple};
use serde::{Deserialize, Serialize, Serializer as _};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Numbers {
    a: i64,
    b: u64,
    c: i32,
    d: u32,
    e: i16,
    f: u16,
    g: i8,
    h: u8,
    x: f64,
    y: f32,
    flag: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Optional {
    a: Option<i64>,
    b: Option<u64>,
    c: Option<i32>,
    d: Option<u32>,
    e: Option<i16>,
    f: Option<u16>,
    g: Option<i8>,
    h: Option<u8>,
    x: Option<f64>,
    y: Option<f32>,
    flag: Option<bool>,
    text: Option<String>,
}

/// Numbers, strings and nested values mixed, so that the room opens,
/// ends before a field that goes through the serializer, and opens again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Mixed<'a> {
    id: u64,
    name: String,
    #[serde(borrow)]
    label: &'a str,
    #[serde(borrow)]
    note: Option<&'a str>,
    numbers: Numbers,
    score: f32,
    optional: Optional,
    bytes: Vec<u8>,
    point: (f32, u8, String),
    /// A name of more than 8 bytes: its header is not folded with it.
    long_field_name: i16,
    matrix: [f64; 20],
    tail: bool,
}

/// More than 15 fields: a map 16 or array 16 header.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Wide {
    f0: u8,
    f1: i16,
    f2: u32,
    f3: i64,
    f4: bool,
    f5: f32,
    f6: f64,
    f7: String,
    f8: u8,
    f9: i16,
    f10: u32,
    f11: i64,
    f12: bool,
    f13: Option<u8>,
    f14: Option<String>,
    f15: u16,
    f16: i8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Shape {
    Circle { r: f64, label: String },
    Segment(i32, i32, bool),
}

/// `value`'s bytes through a vector, in all the ways a user gets one,
/// equal those through the writer and rmp-serde's, in both struct modes;
/// and they read back.
fn agree<T>(value: &T) -> Result<(), TestCaseError>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    for named in [true, false] {
        let config = if named {
            Config::named()
        } else {
            Config::compact()
        };
        let mut sink = Sink::default();
        msgpack_serde::to_writer_with_config(&mut sink, value, config).unwrap();
        let expected = sink.0;
        let rmp = if named {
            rmp_serde::to_vec_named(value).unwrap()
        } else {
            rmp_serde::to_vec(value).unwrap()
        };
        prop_assert_eq!(&expected, &rmp, "rmp-serde, named: {}", named);

        let owned = if named {
            msgpack_serde::to_vec(value).unwrap()
        } else {
            msgpack_serde::to_vec_compact(value).unwrap()
        };
        prop_assert_eq!(&owned, &expected, "to_vec, named: {}", named);

        // A borrowed vector holding a byte already, in the mode fixed by
        // the type and in the configured one.
        let mut fixed = vec![0xc0];
        if named {
            value.serialize(&mut Serializer::named(&mut fixed)).unwrap();
        } else {
            value
                .serialize(&mut Serializer::compact(&mut fixed))
                .unwrap();
        }
        prop_assert_eq!(&fixed[1..], &expected[..], "fixed mode, named: {}", named);
        let mut configured = vec![0xc0];
        value
            .serialize(&mut Serializer::with_config(&mut configured, config))
            .unwrap();
        prop_assert_eq!(
            &configured[1..],
            &expected[..],
            "configured, named: {}",
            named
        );

        // A full vector: the first write past its capacity reserves more.
        let mut full = Vec::with_capacity(3);
        full.extend_from_slice(&[1, 2, 3]);
        let mut serializer = Serializer::with_config(full, config);
        value.serialize(&mut serializer).unwrap();
        let full = serializer.into_inner();
        prop_assert_eq!(&full[3..], &expected[..], "full vector, named: {}", named);

        let read: T = msgpack_serde::from_slice(&expected).unwrap();
        prop_assert_eq!(&read, value);
    }
    Ok(())
}

fn numbers() -> impl Strategy<Value = Numbers> {
    (
        (any::<i64>(), any::<u64>(), any::<i32>(), any::<u32>()),
        (any::<i16>(), any::<u16>(), any::<i8>(), any::<u8>()),
        (any::<f64>(), any::<f32>(), any::<bool>()),
    )
        .prop_map(|((a, b, c, d), (e, f, g, h), (x, y, flag))| Numbers {
            a,
            b,
            c,
            d,
            e,
            f,
            g,
            h,
            x,
            y,
            flag,
        })
}

/// Strings across every header width: fixstr, str 8, str 16 and str 32.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,31}",
        "[a-zé]{32,255}",
        (256usize..70_000).prop_map(|len| "ü".repeat(len / 2)),
    ]
}

fn optional() -> impl Strategy<Value = Optional> {
    (
        (
            any::<Option<i64>>(),
            any::<Option<u64>>(),
            any::<Option<i32>>(),
            any::<Option<u32>>(),
        ),
        (
            any::<Option<i16>>(),
            any::<Option<u16>>(),
            any::<Option<i8>>(),
            any::<Option<u8>>(),
        ),
        (
            any::<Option<f64>>(),
            any::<Option<f32>>(),
            any::<Option<bool>>(),
            prop::option::of(text()),
        ),
    )
        .prop_map(
            |((a, b, c, d), (e, f, g, h), (x, y, flag, text))| Optional {
                a,
                b,
                c,
                d,
                e,
                f,
                g,
                h,
                x,
                y,
                flag,
                text,
            },
        )
}

/// NaN is not equal to itself: the read-back comparison needs numbers.
fn no_nan(numbers: &mut Numbers) {
    if numbers.x.is_nan() {
        numbers.x = 0.5;
    }
    if numbers.y.is_nan() {
        numbers.y = -0.5;
    }
}

proptest! {
    #[test]
    fn numbers_alone(mut value in numbers()) {
        no_nan(&mut value);
        agree(&value)?;
    }

    #[test]
    fn options_of_numbers_and_strings(mut value in optional()) {
        value.x = value.x.filter(|x| !x.is_nan());
        value.y = value.y.filter(|y| !y.is_nan());
        agree(&value)?;
    }

    #[test]
    fn mixed_fields(
        mut numbers in numbers(),
        id in any::<u64>(),
        name in text(),
        label in text(),
        note in prop::option::of(text()),
        bytes in prop::collection::vec(any::<u8>(), 0..40),
        point in (any::<u16>(), any::<u8>(), text()),
        long_field_name in any::<i16>(),
        matrix in prop::array::uniform20(-1e9f64..1e9),
        tail in any::<bool>(),
        mut optional in optional(),
    ) {
        no_nan(&mut numbers);
        optional.x = None;
        optional.y = Some(1.5);
        let value = Mixed {
            id,
            name,
            label: &label,
            note: note.as_deref(),
            numbers,
            score: 0.25,
            optional,
            bytes,
            point: (f32::from(point.0), point.1, point.2),
            long_field_name,
            matrix,
            tail,
        };
        // `Mixed` borrows, so it reads back through `from_slice` as owned
        // parts: the comparison is of the bytes, and of what reads back.
        for named in [true, false] {
            let config = if named { Config::named() } else { Config::compact() };
            let mut sink = Sink::default();
            msgpack_serde::to_writer_with_config(&mut sink, &value, config).unwrap();
            let vec = msgpack_serde::to_vec_with_config(&value, config).unwrap();
            prop_assert_eq!(&vec, &sink.0);
            let rmp = if named {
                rmp_serde::to_vec_named(&value).unwrap()
            } else {
                rmp_serde::to_vec(&value).unwrap()
            };
            prop_assert_eq!(&vec, &rmp);
            let read: Mixed<'_> = msgpack_serde::from_slice(&vec).unwrap();
            prop_assert_eq!(&read, &value);
        }
    }

    #[test]
    fn more_than_fifteen_fields(
        small in (any::<u8>(), any::<i16>(), any::<u32>(), any::<i64>(), any::<bool>()),
        text in text(),
        more in (any::<u8>(), any::<i16>(), any::<u32>(), any::<i64>(), any::<bool>()),
        last in (any::<Option<u8>>(), prop::option::of("[a-z]{0,40}"), any::<u16>(), any::<i8>()),
    ) {
        agree(&Wide {
            f0: small.0,
            f1: small.1,
            f2: small.2,
            f3: small.3,
            f4: small.4,
            f5: 0.75,
            f6: -2.5,
            f7: text,
            f8: more.0,
            f9: more.1,
            f10: more.2,
            f11: more.3,
            f12: more.4,
            f13: last.0,
            f14: last.1,
            f15: last.2,
            f16: last.3,
        })?;
    }

    #[test]
    fn enum_variants(r in -1e9f64..1e9, label in text(), a in any::<i32>(), b in any::<i32>(), c in any::<bool>()) {
        agree(&Shape::Circle { r, label })?;
        agree(&Shape::Segment(a, b, c))?;
        agree(&vec![Shape::Segment(a, b, c), Shape::Segment(b, a, !c)])?;
    }

    #[test]
    fn tuples_and_arrays(
        tuple in (any::<u8>(), any::<i64>(), any::<bool>(), "[a-z]{0,40}", any::<u32>()),
        array in prop::array::uniform32(any::<u64>()),
    ) {
        agree(&tuple)?;
        // 32 elements: an array 16 header, past what a fixarray holds.
        agree(&array)?;
        agree(&(array, tuple.clone()))?;
    }
}

/// A struct whose fourth field fails, after numbers and a string.
struct FailsAtFour;

/// A value that refuses to be serialized.
struct Refused;

impl Serialize for Refused {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(S::Error::custom("refused"))
    }
}

impl Serialize for FailsAtFour {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = serializer.serialize_struct("FailsAtFour", 5)?;
        fields.serialize_field("a", &7u8)?;
        fields.serialize_field("b", &-300i32)?;
        fields.serialize_field("c", "text")?;
        fields.serialize_field("d", &Refused)?;
        fields.serialize_field("e", &1.5f64)?;
        fields.end()
    }
}

/// A struct's numbers, then a field that fails: what was written before
/// the error is in the vector, as it is in a writer that is not one (the
/// room is ended before the failing field, which is not a number; a room
/// still open when a struct is dropped is `NoEnd`'s case below).
#[test]
fn an_error_keeps_what_was_written_before_it() {
    for config in [Config::named(), Config::compact()] {
        let mut vec = vec![0xc0];
        let error = FailsAtFour
            .serialize(&mut Serializer::with_config(&mut vec, config))
            .unwrap_err();
        assert_eq!(error.to_string(), "refused");
        let mut sink = Sink(vec![0xc0]);
        let error = FailsAtFour
            .serialize(&mut Serializer::with_config(
                msgpack_core::IoWriter::new(&mut sink),
                config,
            ))
            .unwrap_err();
        assert_eq!(error.to_string(), "refused");
        assert_eq!(vec, sink.0);
    }
    let mut vec = Vec::new();
    let _ = FailsAtFour.serialize(&mut Serializer::compact(&mut vec));
    assert_eq!(
        vec,
        [0x95, 0x07, 0xd1, 0xfe, 0xd4, 0xa4, b't', b'e', b'x', b't']
    );
}

/// A hand-written impl that never calls `end` (MessagePack needs no
/// closing byte, so its output was whole): its fields are all written.
struct NoEnd;

impl Serialize for NoEnd {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut tuple = serializer.serialize_tuple(2)?;
        tuple.serialize_element(&1u8)?;
        tuple.serialize_element(&2.5f32)?;
        // Dropped without `end`: the `Ok` value of our serializer is `()`.
        drop(tuple);
        serializer_ok::<S>()
    }
}

/// `S::Ok` for our serializer, whose `Ok` is `()`.
fn serializer_ok<S: serde::Serializer>() -> Result<S::Ok, S::Error> {
    Err(S::Error::custom("no `end`"))
}

#[test]
fn a_struct_dropped_without_end_keeps_its_fields() {
    let mut vec = Vec::new();
    let error = NoEnd
        .serialize(&mut Serializer::compact(&mut vec))
        .unwrap_err();
    assert_eq!(error.to_string(), "no `end`");
    assert_eq!(vec, [0x92, 0x01, 0xca, 0x40, 0x20, 0x00, 0x00]);
    let mut owned = Serializer::named(Vec::new());
    NoEnd.serialize(&mut owned).unwrap_err();
    assert_eq!(owned.into_inner(), vec);
}

/// Structs in a sequence: each opens its room where the last one's
/// bytes end.
#[test]
fn structs_back_to_back_through_a_collected_sequence() {
    let values: Vec<Numbers> = (0..1000)
        .map(|i| Numbers {
            a: -i,
            b: (i as u64) << 40,
            c: i as i32 * 7,
            d: i as u32,
            e: -(i as i16),
            f: i as u16,
            g: (i % 100) as i8,
            h: (i % 256) as u8,
            x: i as f64 / 3.0,
            y: i as f32 * 0.5,
            flag: i % 2 == 0,
        })
        .collect();
    agree(&values).unwrap();
    // A sequence of unknown length: the structs are written into the
    // sequence's own buffer, behind its header at the end.
    let mut serializer = Serializer::compact(Vec::new());
    serializer
        .collect_seq(values.iter().filter(|_| true))
        .unwrap();
    assert_eq!(serializer.into_inner(), rmp_serde::to_vec(&values).unwrap());
}

/// Strings, then numbers and names after them, written into vectors of
/// every capacity up to the whole message, against rmp-serde: a string's
/// write keeps room for the next field's name and number, which the
/// compiler is then told need no check. A debug build checks that claim
/// at each such write (`assert_unchecked`'s precondition), so a room kept
/// short fails here.
#[test]
fn strings_then_numbers_into_every_capacity() {
    #[derive(Serialize)]
    struct Record<'a> {
        ip: &'a str,
        identity: String,
        timestamp: u64,
        path: &'a str,
        status: u16,
        size: u64,
        method: Option<&'a str>,
    }
    for text in [
        "",
        "x",
        "0123456789abcdef",
        &"y".repeat(31),
        &"z".repeat(40),
        &"w".repeat(300),
    ] {
        let record = Record {
            ip: text,
            identity: text.to_string(),
            timestamp: u64::MAX,
            path: text,
            status: 404,
            size: 1 << 40,
            method: Some(text),
        };
        for config in [Config::named(), Config::compact()] {
            let mut sink = Sink::default();
            msgpack_serde::to_writer_with_config(&mut sink, &record, config).unwrap();
            let rmp = if config == Config::named() {
                rmp_serde::to_vec_named(&record).unwrap()
            } else {
                rmp_serde::to_vec(&record).unwrap()
            };
            assert_eq!(sink.0, rmp, "{text:?}");
            for capacity in 0..=sink.0.len() + 1 {
                let mut out = Vec::with_capacity(capacity);
                record
                    .serialize(&mut Serializer::with_config(&mut out, config))
                    .unwrap();
                assert_eq!(out, sink.0, "{text:?} into {capacity}");
            }
        }
    }
}
