//! `Vec<T>` of any element type, whose elements the decoder reads in a
//! loop of its own into the vector serde's visitor returns
//! (`de/decoder/vec_elements.rs`), against serde's element-by-element
//! path (the same elements read as a `VecDeque<T>`, whose visitor the
//! decoder does not recognise) and against rmp-serde: the same elements,
//! the same errors at the same offsets, every element dropped once.

use std::cell::Cell;
use std::collections::VecDeque;
use std::fmt::Debug;
use std::io::Cursor;
use std::panic::{catch_unwind, AssertUnwindSafe};

use msgpack_serde::{Deserializer, Limits};
use proptest::prelude::*;
use serde::de::{self, DeserializeOwned, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Point {
    x: f32,
    y: f32,
    z: f32,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
struct Item {
    sku: String,
    quantity: u32,
    discount: Option<u64>,
    at: Point,
}

fn point() -> impl Strategy<Value = Point> {
    (any::<f32>(), any::<f32>(), any::<f32>())
        .prop_filter("comparable", |(x, y, z)| {
            !(x.is_nan() || y.is_nan() || z.is_nan())
        })
        .prop_map(|(x, y, z)| Point { x, y, z })
}

fn item() -> impl Strategy<Value = Item> {
    (".{0,12}", any::<u32>(), any::<Option<u64>>(), point()).prop_map(
        |(sku, quantity, discount, at)| Item {
            sku,
            quantity,
            discount,
            at,
        },
    )
}

/// `T`'s vector from `bytes` every way: from a slice and a reader, and
/// serde's element-by-element path (as a `VecDeque<T>`), in order.
fn every_way<T: DeserializeOwned>(bytes: &[u8]) -> [Result<Vec<T>, String>; 3] {
    let message = |error: msgpack_serde::Error| error.to_string();
    [
        msgpack_serde::from_slice::<Vec<T>>(bytes).map_err(message),
        msgpack_serde::from_reader::<_, Vec<T>>(Cursor::new(bytes)).map_err(message),
        msgpack_serde::from_slice::<VecDeque<T>>(bytes)
            .map(Vec::from)
            .map_err(message),
    ]
}

/// `values` read back the same every way, and as rmp-serde reads them;
/// and every cut of their bytes fails the same every way.
fn agree<T>(values: &[T], compact: bool) -> Result<(), TestCaseError>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let bytes = if compact {
        msgpack_serde::to_vec_compact(values).unwrap()
    } else {
        msgpack_serde::to_vec(values).unwrap()
    };
    for read in every_way::<T>(&bytes) {
        prop_assert_eq!(read.as_deref(), Ok(values));
    }
    prop_assert_eq!(rmp_serde::from_slice::<Vec<T>>(&bytes).unwrap(), values);
    for cut in 0..bytes.len() {
        let [slice, reader, usual] = every_way::<T>(&bytes[..cut]);
        prop_assert!(usual.is_err());
        prop_assert_eq!(&slice, &usual);
        prop_assert_eq!(&reader, &usual);
    }
    Ok(())
}

proptest! {
    #[test]
    fn structs_read_back_at_every_length(values in prop::collection::vec(item(), 0..14)) {
        agree(&values, false)?;
        agree(&values, true)?;
    }

    #[test]
    fn floats_in_arrays_read_back(values in prop::collection::vec(point(), 0..14)) {
        agree(&values, true)?;
    }

    #[test]
    fn strings_read_back(values in prop::collection::vec(".{0,40}", 0..14)) {
        agree(&values, false)?;
    }

    #[test]
    fn nested_vectors_read_back(
        values in prop::collection::vec(prop::collection::vec(any::<Option<bool>>(), 0..6), 0..9),
    ) {
        agree(&values, false)?;
    }
}

#[test]
fn borrowed_strings_read_from_the_input() {
    let words = ["one", "two", "three", "four", "five"];
    let bytes = msgpack_serde::to_vec(&words).unwrap();
    let read: Vec<&str> = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(read, words);
    let input = bytes.as_ptr_range();
    assert!(read.iter().all(|word| input.contains(&word.as_ptr())));
}

#[test]
fn a_bad_element_fails_at_its_offset_at_every_position() {
    for len in 1..=9 {
        for bad in 0..len {
            // `len` one-byte strings, the one at `bad` an integer instead.
            let mut bytes = vec![0x90 | len as u8];
            for i in 0..len {
                if i == bad {
                    bytes.push(0x07);
                } else {
                    bytes.extend([0xa1, b'a']);
                }
            }
            let [slice, reader, usual] = every_way::<String>(&bytes);
            let offset = 1 + 2 * bad;
            let expected =
                format!("invalid type: integer `7`, expected a string at offset {offset}");
            assert_eq!(usual.unwrap_err(), expected);
            assert_eq!(slice.unwrap_err(), expected);
            assert_eq!(reader.unwrap_err(), expected);
        }
    }
}

#[test]
fn every_length_reads_back_in_order() {
    for len in 0..=12 {
        let values: Vec<String> = (0..len).map(|i| format!("s{i}")).collect();
        let bytes = msgpack_serde::to_vec(&values).unwrap();
        for read in every_way::<String>(&bytes) {
            assert_eq!(read.unwrap(), values, "{len} strings");
        }
    }
}

#[test]
fn limits_hold_inside_the_loop() {
    // `len` arrays of one string each: the outer array and its elements
    // take 1 + len values, each inner array's element one more.
    for len in 1..=9 {
        let mut bytes = vec![0x90 | len as u8];
        for _ in 0..len {
            bytes.extend([0x91, 0xa1, b'a']);
        }
        let read = |limits: Limits| {
            let mut de = Deserializer::from_slice(&bytes).with_limits(limits);
            Vec::<Vec<String>>::deserialize(&mut de).map_err(|e| e.to_string())
        };
        assert_eq!(
            read(Limits::default().max_values(1 + 2 * len))
                .unwrap()
                .len(),
            len
        );
        for k in 0..len {
            let limit = 1 + len + k;
            let expected = format!(
                "more values than the limit of {limit} at offset {}",
                1 + 3 * k
            );
            assert_eq!(
                read(Limits::default().max_values(limit)).unwrap_err(),
                expected
            );
            let mut de =
                Deserializer::from_slice(&bytes).with_limits(Limits::default().max_values(limit));
            let usual = VecDeque::<Vec<String>>::deserialize(&mut de).unwrap_err();
            assert_eq!(usual.to_string(), expected);
        }
    }
    let read = |limits: Limits| {
        let mut de = Deserializer::from_slice(&[0x91, 0xa1, b'a']).with_limits(limits);
        Vec::<String>::deserialize(&mut de).map_err(|e| e.to_string())
    };
    assert_eq!(
        read(Limits::default().max_depth(0)).unwrap_err(),
        "nesting exceeds the depth limit of 0 at offset 0"
    );
}

/// A visitor of `Vec<String>` that is not serde's: it takes the first
/// two elements and stops.
#[derive(Debug)]
struct FirstTwo(Vec<String>);

impl<'de> Deserialize<'de> for FirstTwo {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TwoVisitor;
        impl<'de> Visitor<'de> for TwoVisitor {
            type Value = Vec<String>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("strings")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<String>, A::Error> {
                let mut two = Vec::new();
                while two.len() < 2 {
                    match seq.next_element()? {
                        Some(element) => two.push(element),
                        None => break,
                    }
                }
                Ok(two)
            }
        }
        deserializer.deserialize_seq(TwoVisitor).map(FirstTwo)
    }
}

#[test]
fn another_visitor_of_a_vector_is_given_its_elements() {
    let bytes = msgpack_serde::to_vec(&["a", "b"]).unwrap();
    let FirstTwo(read) = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(read, ["a", "b"]);
    let bytes = msgpack_serde::to_vec(&["a", "b", "c"]).unwrap();
    let error = msgpack_serde::from_slice::<FirstTwo>(&bytes).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid length 3, expected fewer elements in array at offset 0"
    );
}

/// A visitor of `Vec<String>` that hands its `SeqAccess` on to serde's
/// `Vec` impl: serde's visitor then reads from that, not from ours.
#[derive(Debug)]
struct Forwarded(Vec<String>);

impl<'de> Deserialize<'de> for Forwarded {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ForwardVisitor;
        impl<'de> Visitor<'de> for ForwardVisitor {
            type Value = Vec<String>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("strings")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Vec<String>, A::Error> {
                Vec::deserialize(de::value::SeqAccessDeserializer::new(seq))
            }
        }
        deserializer.deserialize_seq(ForwardVisitor).map(Forwarded)
    }
}

#[test]
fn a_vector_read_through_a_forwarding_visitor_reads_back() {
    for len in 0..=9 {
        let values: Vec<String> = (0..len).map(|i| format!("s{i}")).collect();
        let bytes = msgpack_serde::to_vec(&values).unwrap();
        let Forwarded(read) = msgpack_serde::from_slice(&bytes).unwrap();
        assert_eq!(read, values);
    }
}

#[test]
fn a_vector_read_in_place_reads_back() {
    let bytes = msgpack_serde::to_vec(&["a", "b", "c"]).unwrap();
    for before in [vec![], vec!["x".to_string(); 2], vec!["y".to_string(); 6]] {
        let mut place = before;
        let mut de = Deserializer::from_slice(&bytes);
        Vec::<String>::deserialize_in_place(&mut de, &mut place).unwrap();
        assert_eq!(place, ["a", "b", "c"]);
    }
}

thread_local! {
    static MADE: Cell<usize> = const { Cell::new(0) };
    static DROPPED: Cell<usize> = const { Cell::new(0) };
}

/// An element that counts its makings and drops, fails to read from 13
/// and panics on 99.
#[derive(Debug)]
struct Counted(#[allow(dead_code)] u8);

impl<'de> Deserialize<'de> for Counted {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match u8::deserialize(deserializer)? {
            13 => Err(de::Error::custom("thirteen")),
            99 => panic!("ninety-nine"),
            n => {
                MADE.set(MADE.get() + 1);
                Ok(Counted(n))
            }
        }
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        DROPPED.set(DROPPED.get() + 1);
    }
}

#[test]
fn every_element_is_dropped_once_when_one_fails_or_panics() {
    for len in 1..=10u8 {
        for bad in 0..len {
            for poison in [13, 99] {
                MADE.set(0);
                DROPPED.set(0);
                let values: Vec<u8> = (0..len)
                    .map(|i| if i == bad { poison } else { i })
                    .collect();
                let bytes = msgpack_serde::to_vec(&values).unwrap();
                let read = catch_unwind(AssertUnwindSafe(|| {
                    msgpack_serde::from_slice::<Vec<Counted>>(&bytes).map(drop)
                }));
                match poison {
                    13 => {
                        let usual = msgpack_serde::from_slice::<VecDeque<Counted>>(&bytes);
                        assert_eq!(
                            read.unwrap().unwrap_err().to_string(),
                            usual.unwrap_err().to_string()
                        );
                        MADE.set(MADE.get() - bad as usize);
                        DROPPED.set(DROPPED.get() - bad as usize);
                    }
                    _ => assert!(read.is_err(), "the panic passes"),
                }
                assert_eq!(MADE.get(), bad as usize, "read before the bad one");
                assert_eq!(DROPPED.get(), MADE.get(), "dropped once each");
            }
        }
    }
}

#[test]
fn boxed_slices_and_options_of_vectors_read_back() {
    let items: Box<[String]> = vec!["a".to_string(); 6].into_boxed_slice();
    let bytes = msgpack_serde::to_vec(&items).unwrap();
    assert_eq!(
        msgpack_serde::from_slice::<Box<[String]>>(&bytes).unwrap(),
        items
    );
    let some = Some(vec![
        Point {
            x: 1.0,
            y: 2.0,
            z: 3.0
        };
        5
    ]);
    let bytes = msgpack_serde::to_vec(&some).unwrap();
    assert_eq!(
        msgpack_serde::from_slice::<Option<Vec<Point>>>(&bytes).unwrap(),
        some
    );
}

thread_local! {
    static WIDE_MADE: Cell<usize> = const { Cell::new(0) };
    static WIDE_DROPPED: Cell<usize> = const { Cell::new(0) };
}

/// An element of 16 KiB read from one integer, counting its makings and
/// drops: serde's visitor reserves for at most 1 MiB of elements (64 of
/// these), so a longer array's elements are read into room the loop
/// reserves as it goes.
#[derive(Debug, PartialEq)]
struct Wide(Box<u64>, [u64; 2047]);

impl<'de> Deserialize<'de> for Wide {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let n = u64::deserialize(deserializer)?;
        WIDE_MADE.set(WIDE_MADE.get() + 1);
        Ok(Wide(Box::new(n), [n; 2047]))
    }
}

impl Drop for Wide {
    fn drop(&mut self) {
        WIDE_DROPPED.set(WIDE_DROPPED.get() + 1);
    }
}

#[test]
fn elements_past_serdes_reservation_read_back() {
    for len in [63, 64, 65, 66, 67, 68, 69, 130] {
        let values: Vec<u64> = (0..len).collect();
        let bytes = msgpack_serde::to_vec(&values).unwrap();
        WIDE_MADE.set(0);
        WIDE_DROPPED.set(0);
        let read = msgpack_serde::from_slice::<Vec<Wide>>(&bytes).unwrap();
        assert_eq!(read.len(), len as usize);
        for (n, wide) in (0..len).zip(&read) {
            assert!(*wide.0 == n && wide.1 == [n; 2047], "element {n} of {len}");
        }
        drop(read);
        assert_eq!(WIDE_MADE.get(), len as usize);
        assert_eq!(WIDE_DROPPED.get(), len as usize, "each dropped once");
        // The last element a nil: read after the others, and the room
        // for them, fails.
        let mut last_nil: Vec<Option<u64>> = values.iter().copied().map(Some).collect();
        *last_nil.last_mut().unwrap() = None;
        let bad = msgpack_serde::to_vec(&last_nil).unwrap();
        WIDE_MADE.set(0);
        WIDE_DROPPED.set(0);
        let Err(error) = msgpack_serde::from_slice::<Vec<Wide>>(&bad) else {
            panic!("a nil read as a number");
        };
        assert_eq!(WIDE_MADE.get(), len as usize - 1, "read before the nil");
        assert_eq!(WIDE_DROPPED.get(), WIDE_MADE.get(), "each dropped once");
        assert_eq!(
            error.to_string(),
            msgpack_serde::from_slice::<VecDeque<Wide>>(&bad)
                .unwrap_err()
                .to_string()
        );
    }
}

#[test]
fn zero_sized_elements_read_back() {
    for len in 0..=12 {
        let values = vec![(); len];
        let bytes = msgpack_serde::to_vec(&values).unwrap();
        for read in every_way::<()>(&bytes) {
            assert_eq!(read.unwrap(), values, "{len} units");
        }
    }
}
