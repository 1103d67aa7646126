//! Property tests: generated serde types round-trip in both modes, from a
//! slice and a reader alike; `to_vec` writes minimal forms; and any input,
//! random, near-MessagePack or a mangled valid message, decodes to what
//! re-encodes and reads back, or fails with an error at an offset within
//! it, every way of decoding agreeing.

use std::collections::BTreeMap;
use std::io::Cursor;

use msgpack_serde::Value;
use msgpack_test_support::strategies::{integer, noise, value};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Sample {
    a: u8,
    b: u16,
    c: u32,
    d: u64,
    e: i8,
    f: i16,
    g: i32,
    h: i64,
    x: f64,
    name: String,
    note: Option<String>,
    list: Vec<i32>,
    kind: Kind,
    others: Vec<Kind>,
    index: BTreeMap<u32, String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
enum Kind {
    Unit,
    Newtype(i64),
    Tuple(u8, String),
    Struct { flag: bool, value: Option<f64> },
    Nested(Box<Kind>),
}

fn float() -> impl Strategy<Value = f64> {
    any::<f64>().prop_filter("NaN is not equal to itself", |x| !x.is_nan())
}

fn kind() -> impl Strategy<Value = Kind> {
    let leaf = prop_oneof![
        Just(Kind::Unit),
        any::<i64>().prop_map(Kind::Newtype),
        (any::<u8>(), ".{0,8}").prop_map(|(n, s)| Kind::Tuple(n, s)),
        (any::<bool>(), proptest::option::of(float()))
            .prop_map(|(flag, value)| Kind::Struct { flag, value }),
    ];
    leaf.prop_recursive(3, 8, 1, |inner| {
        inner.prop_map(|kind| Kind::Nested(Box::new(kind)))
    })
}

fn sample() -> impl Strategy<Value = Sample> {
    let ints = (
        any::<u8>(),
        any::<u16>(),
        any::<u32>(),
        any::<u64>(),
        any::<i8>(),
        any::<i16>(),
        any::<i32>(),
        any::<i64>(),
    );
    let rest = (
        float(),
        ".{0,40}",
        proptest::option::of(".{0,10}"),
        proptest::collection::vec(any::<i32>(), 0..20),
        kind(),
        proptest::collection::vec(kind(), 0..4),
        proptest::collection::btree_map(any::<u32>(), ".{0,6}", 0..6),
    );
    (ints, rest).prop_map(
        |((a, b, c, d, e, f, g, h), (x, name, note, list, kind, others, index))| Sample {
            a,
            b,
            c,
            d,
            e,
            f,
            g,
            h,
            x,
            name,
            note,
            list,
            kind,
            others,
            index,
        },
    )
}

/// A valid message with some bytes overwritten and maybe cut short.
fn mangled() -> impl Strategy<Value = Vec<u8>> {
    (
        sample(),
        any::<bool>(),
        proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        any::<prop::sample::Index>(),
    )
        .prop_map(|(sample, compact, edits, cut)| {
            let mut bytes = if compact {
                msgpack_serde::to_vec_compact(&sample).unwrap()
            } else {
                msgpack_serde::to_vec(&sample).unwrap()
            };
            for (at, byte) in edits {
                let at = at.index(bytes.len());
                bytes[at] = byte;
            }
            let len = bytes.len();
            bytes.truncate(len - cut.index(len / 4 + 1));
            bytes
        })
}

/// Fails unless `result` is a value or an error whose offset is within
/// `bytes`.
fn within_input<T>(bytes: &[u8], result: &msgpack_serde::Result<T>) -> Result<(), TestCaseError> {
    if let Err(error) = result {
        let offset = error.offset();
        prop_assert!(
            offset.is_some_and(|at| at <= bytes.len()),
            "{} (offset {:?}) in {} bytes",
            error,
            offset,
            bytes.len()
        );
    }
    Ok(())
}

/// `value` encoded (structs as maps): NaN is not equal to itself, so
/// decoded values are compared by their bytes.
fn encoded<T: Serialize>(value: &T) -> Vec<u8> {
    msgpack_serde::to_vec(value).unwrap()
}

/// Decodes `bytes` every way there is. Each gives a value or an error
/// whose offset is within the input; the ways agree (slice and reader,
/// serde and core); a decoded `Value` re-encodes in its smallest form
/// (no longer than the input) and reads back the same, and is the whole
/// input for `RawValue`, `IgnoredAny` and the stream alike; a decoded
/// `Sample` round-trips in both modes.
fn decode_everything(bytes: &[u8]) -> Result<(), TestCaseError> {
    let value = msgpack_serde::from_slice::<Value>(bytes);
    within_input(bytes, &value)?;
    let core = Value::from_slice(bytes);
    prop_assert_eq!(
        value.as_ref().ok().map(encoded),
        core.as_ref().ok().map(encoded),
        "serde's and core's Value decoders disagree: {:?} and {:?}",
        value.as_ref().err(),
        core.as_ref().err()
    );
    let read = msgpack_serde::from_reader::<_, Value>(Cursor::new(bytes));
    within_input(bytes, &read)?;
    prop_assert_eq!(
        read.ok().map(|v| encoded(&v)),
        value.as_ref().ok().map(encoded)
    );

    let ignored = msgpack_serde::from_slice::<serde::de::IgnoredAny>(bytes);
    within_input(bytes, &ignored)?;
    let raw = msgpack_serde::from_slice::<msgpack_serde::RawValue>(bytes);
    within_input(bytes, &raw)?;
    let mut stream = msgpack_serde::StreamDeserializer::<_, Value>::from_slice(bytes);
    let mut streamed = Vec::new();
    for next in stream.by_ref() {
        within_input(bytes, &next)?;
        streamed.push(next.ok().map(|v| encoded(&v)));
    }
    prop_assert!(stream.byte_offset() <= bytes.len());

    if let Ok(value) = &value {
        let smallest = value.to_vec().unwrap();
        prop_assert!(smallest.len() <= bytes.len());
        prop_assert_eq!(&encoded(value), &smallest);
        let again: Value = msgpack_serde::from_slice(&smallest).unwrap();
        prop_assert_eq!(&encoded(&again), &smallest);
        prop_assert!(ignored.is_ok());
        let raw = raw.unwrap();
        prop_assert_eq!(raw.as_bytes(), bytes);
        prop_assert_eq!(streamed, vec![Some(smallest)]);
    }

    let sample = msgpack_serde::from_slice::<Sample>(bytes);
    within_input(bytes, &sample)?;
    let read = msgpack_serde::from_reader::<_, Sample>(Cursor::new(bytes));
    within_input(bytes, &read)?;
    prop_assert_eq!(
        read.ok().map(|s| encoded(&s)),
        sample.as_ref().ok().map(encoded)
    );
    if let Ok(sample) = &sample {
        let named = encoded(sample);
        let back: Sample = msgpack_serde::from_slice(&named).unwrap();
        prop_assert_eq!(encoded(&back), named);
        let compact = msgpack_serde::to_vec_compact(sample).unwrap();
        let back: Sample = msgpack_serde::from_slice(&compact).unwrap();
        prop_assert_eq!(msgpack_serde::to_vec_compact(&back).unwrap(), compact);
    }
    Ok(())
}

/// Reads `bytes` (one integer) as `T` alone, where fewer than 9 bytes
/// take the general path, and with bytes after it, where every form takes
/// the table path: the two agree, value or error, and rmp-serde accepts
/// exactly the values we accept. A 9-byte form (uint 64, int 64) takes
/// the table path either way; the rmp-serde comparison still checks it.
fn read_alike<T>(bytes: &[u8]) -> Result<(), TestCaseError>
where
    T: for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug,
{
    let alone = msgpack_serde::from_slice::<T>(bytes).map_err(|e| e.to_string());
    let padded = [bytes, &[0xc0; 9]].concat();
    let mut de = msgpack_serde::Deserializer::from_slice(&padded);
    let followed = T::deserialize(&mut de).map_err(|e| e.to_string());
    prop_assert_eq!(
        &alone,
        &followed,
        "{} bytes {:02x?}",
        std::any::type_name::<T>(),
        bytes
    );
    let rmp = rmp_serde::from_slice::<T>(bytes).ok();
    prop_assert_eq!(
        alone.ok(),
        rmp,
        "{} bytes {:02x?}",
        std::any::type_name::<T>(),
        bytes
    );
    Ok(())
}

/// Which visit an integer read as `i64` or `u64` went to, and its value.
#[derive(Debug, PartialEq)]
enum Visited {
    I64(i64),
    U64(u64),
}

struct Recorder;

impl<'de> serde::de::Visitor<'de> for Recorder {
    type Value = Visited;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an integer")
    }

    fn visit_i64<E>(self, v: i64) -> Result<Visited, E> {
        Ok(Visited::I64(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Visited, E> {
        Ok(Visited::U64(v))
    }
}

fn visited(bytes: &[u8], signed: bool) -> Visited {
    // Followed by 9 bytes, so that every form takes the table path, and
    // alone, where all but the 9-byte forms are read form by form: the
    // same visit either way.
    let padded = [bytes, &[0xc0; 9]].concat();
    let [with_room, alone] = [&padded[..], bytes].map(|input| {
        let mut de = msgpack_serde::Deserializer::from_slice(input);
        if signed {
            serde::Deserializer::deserialize_i64(&mut de, Recorder).unwrap()
        } else {
            serde::Deserializer::deserialize_u64(&mut de, Recorder).unwrap()
        }
    });
    assert_eq!(with_room, alone, "{bytes:02x?}");
    alone
}

#[test]
fn integers_visit_what_their_target_takes() {
    // Past the positive fixint, a signed target visits i64 for every
    // value that fits and an unsigned one u64 for every value that is not
    // negative, without a branch on the sign (which mixed signs
    // mispredict). Any visitor still gets the right value.
    use Visited::{I64, U64};
    assert_eq!(visited(&[0x05], true), U64(5));
    assert_eq!(visited(&[0xcc, 0xc8], true), I64(200));
    assert_eq!(visited(&[0xd0, 0x9c], true), I64(-100));
    assert_eq!(
        visited(
            &[0xcf, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
            true
        ),
        I64(i64::MAX)
    );
    assert_eq!(
        visited(&[0xcf, 0x80, 0, 0, 0, 0, 0, 0, 0], true),
        U64(1 << 63)
    );
    assert_eq!(visited(&[0xcc, 0xc8], false), U64(200));
    assert_eq!(visited(&[0xd0, 0x9c], false), I64(-100));
    assert_eq!(
        visited(&[0xcf, 0x80, 0, 0, 0, 0, 0, 0, 0], false),
        U64(1 << 63)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn round_trips_in_both_modes(sample in sample()) {
        let named = msgpack_serde::to_vec(&sample).unwrap();
        prop_assert_eq!(&msgpack_serde::from_slice::<Sample>(&named).unwrap(), &sample);
        let compact = msgpack_serde::to_vec_compact(&sample).unwrap();
        prop_assert_eq!(&msgpack_serde::from_slice::<Sample>(&compact).unwrap(), &sample);
        prop_assert!(compact.len() < named.len());
    }

    #[test]
    fn from_reader_matches_from_slice(sample in sample()) {
        for bytes in [
            msgpack_serde::to_vec(&sample).unwrap(),
            msgpack_serde::to_vec_compact(&sample).unwrap(),
        ] {
            let from_reader: Sample = msgpack_serde::from_reader(Cursor::new(&bytes)).unwrap();
            let from_slice: Sample = msgpack_serde::from_slice(&bytes).unwrap();
            prop_assert_eq!(&from_reader, &from_slice);
            let value_from_reader: Value = msgpack_serde::from_reader(&bytes[..]).unwrap();
            let value_from_slice: Value = msgpack_serde::from_slice(&bytes).unwrap();
            prop_assert_eq!(value_from_reader, value_from_slice);
        }
    }

    #[test]
    fn to_vec_is_minimal(sample in sample()) {
        // Value encoding picks the smallest form of everything, so
        // re-encoding what we wrote must change nothing.
        for bytes in [
            msgpack_serde::to_vec(&sample).unwrap(),
            msgpack_serde::to_vec_compact(&sample).unwrap(),
        ] {
            let value: Value = msgpack_serde::from_slice(&bytes).unwrap();
            prop_assert_eq!(&value.to_vec().unwrap(), &bytes);
            prop_assert_eq!(&msgpack_serde::to_vec(&value).unwrap(), &bytes);
        }
    }

    #[test]
    fn values_round_trip(value in value()) {
        let bytes = msgpack_serde::to_vec(&value).unwrap();
        prop_assert_eq!(&bytes, &value.to_vec().unwrap());
        prop_assert_eq!(&msgpack_serde::from_slice::<Value>(&bytes).unwrap(), &value);
        prop_assert_eq!(&msgpack_serde::from_reader::<_, Value>(&bytes[..]).unwrap(), &value);
        prop_assert_eq!(msgpack_serde::to_value(&value).unwrap(), value.clone());
        let raw: msgpack_serde::RawValue = msgpack_serde::from_slice(&bytes).unwrap();
        prop_assert_eq!(raw.as_bytes(), &bytes[..]);
    }

    #[test]
    fn prefixes_are_eof(value in value()) {
        let bytes = value.to_vec().unwrap();
        for len in 0..bytes.len() {
            let error = msgpack_serde::from_slice::<Value>(&bytes[..len]).unwrap_err();
            prop_assert!(error.is_eof(), "prefix {}: {}", len, error);
        }
    }

    #[test]
    fn integers_read_alike_wherever_they_sit(n in integer()) {
        let bytes = match u64::try_from(n) {
            Ok(u) => msgpack_serde::to_vec(&u),
            Err(_) => msgpack_serde::to_vec(&(n as i64)),
        }
        .unwrap();
        read_alike::<u8>(&bytes)?;
        read_alike::<u16>(&bytes)?;
        read_alike::<u32>(&bytes)?;
        read_alike::<u64>(&bytes)?;
        read_alike::<i8>(&bytes)?;
        read_alike::<i16>(&bytes)?;
        read_alike::<i32>(&bytes)?;
        read_alike::<i64>(&bytes)?;
        read_alike::<i128>(&bytes)?;
        read_alike::<f64>(&bytes)?;
    }

    #[test]
    fn random_bytes_decode_or_fail_within_the_input(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        decode_everything(&bytes)?;
    }

    #[test]
    fn msgpack_like_noise_decodes_or_fails_within_the_input(bytes in noise()) {
        decode_everything(&bytes)?;
    }

    #[test]
    fn mangled_messages_decode_or_fail_within_the_input(bytes in mangled()) {
        decode_everything(&bytes)?;
    }
}
