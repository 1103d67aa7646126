//! `BTreeMap<K, V>` and `BTreeSet<T>` with string and integer keys,
//! whose entries the decoder reads in a loop of its own and builds into
//! the tree in one pass (`de/decoder/btree_entries.rs`), against serde's
//! entry-by-entry inserts (the same entries read by a visitor the decoder
//! does not recognise) and against rmp-serde: the same collections from
//! entries in any order and with repeated keys, the same errors at the
//! same offsets, every entry dropped once.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::io::Cursor;
use std::marker::PhantomData;
use std::panic::{catch_unwind, AssertUnwindSafe};

use msgpack_serde::{Deserializer, Limits};
use proptest::prelude::*;
use serde::de::{self, DeserializeOwned, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

/// A map read entry by entry, each inserted as it comes, as serde's own
/// visitor does: by a visitor of its own, which the decoder does not
/// recognise, through `next_key` and `next_value` (serde's visitor asks
/// for `next_entry`).
#[derive(Debug, PartialEq)]
struct Inserted<K: Ord, V>(BTreeMap<K, V>);

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for Inserted<K, V> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct InsertVisitor<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Visitor<'de> for InsertVisitor<K, V> {
            type Value = BTreeMap<K, V>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut values = BTreeMap::new();
                while let Some(key) = map.next_key()? {
                    values.insert(key, map.next_value()?);
                }
                Ok(values)
            }
        }
        deserializer
            .deserialize_map(InsertVisitor(PhantomData))
            .map(Inserted)
    }
}

/// The entries as one MessagePack map, in the order given.
fn map_bytes<K: Serialize, V: Serialize>(entries: &[(K, V)]) -> Vec<u8> {
    let mut bytes = Vec::new();
    msgpack_serde::core::encode::write_map_len(&mut bytes, entries.len()).unwrap();
    for (key, value) in entries {
        bytes.extend(msgpack_serde::to_vec(key).unwrap());
        bytes.extend(msgpack_serde::to_vec(value).unwrap());
    }
    bytes
}

/// `K, V`'s map from `bytes` every way: from a slice and a reader, and
/// serde's entry-by-entry path, in order.
fn every_way<K, V>(bytes: &[u8]) -> [Result<BTreeMap<K, V>, String>; 3]
where
    K: DeserializeOwned + Ord,
    V: DeserializeOwned,
{
    let message = |error: msgpack_serde::Error| error.to_string();
    [
        msgpack_serde::from_slice::<BTreeMap<K, V>>(bytes).map_err(message),
        msgpack_serde::from_reader::<_, BTreeMap<K, V>>(Cursor::new(bytes)).map_err(message),
        msgpack_serde::from_slice::<Inserted<K, V>>(bytes)
            .map(|inserted| inserted.0)
            .map_err(message),
    ]
}

/// `entries`, in their order and with their repeats, read as the map
/// inserting them one by one makes, every way and by rmp-serde; every cut
/// of their bytes fails the same every way.
fn agree<K, V>(entries: &[(K, V)]) -> Result<(), TestCaseError>
where
    K: Serialize + DeserializeOwned + Ord + Clone + Debug,
    V: Serialize + DeserializeOwned + PartialEq + Clone + Debug,
{
    let mut expected = BTreeMap::new();
    for (key, value) in entries {
        expected.insert(key.clone(), value.clone());
    }
    let bytes = map_bytes(entries);
    for read in every_way::<K, V>(&bytes) {
        prop_assert_eq!(read.as_ref(), Ok(&expected));
    }
    prop_assert_eq!(
        rmp_serde::from_slice::<BTreeMap<K, V>>(&bytes).unwrap(),
        expected
    );
    for cut in 0..bytes.len() {
        let [slice, reader, usual] = every_way::<K, V>(&bytes[..cut]);
        prop_assert!(usual.is_err());
        prop_assert_eq!(&slice, &usual);
        prop_assert_eq!(&reader, &usual);
    }
    Ok(())
}

proptest! {
    #[test]
    fn string_keys_in_any_order_with_repeats(
        entries in prop::collection::vec(("[a-d]{0,3}", any::<i64>()), 0..24),
    ) {
        agree(&entries)?;
    }

    #[test]
    fn string_keys_in_order(keys in prop::collection::btree_set(".{0,12}", 0..24)) {
        let entries: Vec<(String, u32)> = keys.into_iter().zip(0..).collect();
        agree(&entries)?;
    }

    #[test]
    fn integer_keys_of_every_width(
        bytes in prop::collection::vec((any::<u8>(), any::<bool>()), 0..24),
        small in prop::collection::vec((-3i8..3, any::<u8>()), 0..24),
        shorts in prop::collection::vec((any::<u16>(), ".{0,4}"), 0..24),
        signed in prop::collection::vec((any::<i16>(), ".{0,4}"), 0..24),
        words in prop::collection::vec((any::<u32>(), any::<i64>()), 0..24),
        narrow in prop::collection::vec((-3i32..3, any::<i32>()), 0..24),
        wide in prop::collection::vec((any::<u64>(), any::<Option<i8>>()), 0..24),
        longs in prop::collection::vec((any::<i64>(), any::<u16>()), 0..24),
    ) {
        agree(&bytes)?;
        agree(&small)?;
        agree(&shorts)?;
        agree(&signed)?;
        agree(&words)?;
        agree(&narrow)?;
        agree(&wide)?;
        agree(&longs)?;
        let mut ascending = longs.clone();
        ascending.sort_by_key(|(key, _)| *key);
        ascending.dedup_by_key(|(key, _)| *key);
        agree(&ascending)?;
    }

    #[test]
    fn nested_maps_and_vectors_as_values(
        entries in prop::collection::vec(
            ("[a-c]{1,2}", prop::collection::vec(("[x-z]", any::<u8>()), 0..4)),
            0..10,
        ),
    ) {
        let nested: Vec<(String, BTreeMap<String, u8>)> = entries
            .into_iter()
            .map(|(key, inner)| (key, inner.into_iter().collect()))
            .collect();
        agree(&nested)?;
    }
}

#[test]
fn a_repeated_key_keeps_its_last_value() {
    let bytes = map_bytes(&[("b", 1), ("a", 2), ("b", 3), ("c", 4), ("b", 5)]);
    for read in every_way::<String, i32>(&bytes) {
        let expected = [("a", 2), ("b", 5), ("c", 4)];
        let expected: BTreeMap<String, i32> = expected
            .into_iter()
            .map(|(key, value)| (key.to_string(), value))
            .collect();
        assert_eq!(read.unwrap(), expected);
    }
}

#[test]
fn keys_of_other_types_read_back() {
    let entries = [('b', 1), ('a', 2), ('b', 3)];
    let bytes = map_bytes(&entries);
    let read: BTreeMap<char, i32> = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(read, BTreeMap::from([('a', 2), ('b', 3)]));
    let bytes = map_bytes(&[(vec![2u8], "x"), (vec![1], "y")]);
    let read: BTreeMap<Vec<u8>, String> = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(read.keys().collect::<Vec<_>>(), [&vec![1], &vec![2]]);
}

#[test]
fn borrowed_values_read_from_the_input() {
    let bytes = map_bytes(&[("two", "dos"), ("one", "uno"), ("three", "tres")]);
    let read: BTreeMap<String, &str> = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(read.values().collect::<Vec<_>>(), [&"uno", &"tres", &"dos"]);
    let input = bytes.as_ptr_range();
    assert!(read.values().all(|value| input.contains(&value.as_ptr())));
}

#[test]
fn a_bad_key_or_value_fails_at_its_offset_at_every_position() {
    for len in 1..=9usize {
        for bad in 0..2 * len {
            // `len` entries of a one-byte key and a one-byte string; the
            // key or value at `bad` an array instead.
            let mut bytes = vec![0x80 | len as u8];
            for i in 0..2 * len {
                if i == bad {
                    bytes.extend([0x91, 0x07]);
                } else if i % 2 == 0 {
                    bytes.extend([0xa1, b'a' + (i / 2) as u8]);
                } else {
                    bytes.extend([0xa1, b'v']);
                }
            }
            let [slice, reader, usual] = every_way::<String, String>(&bytes);
            let offset = 1 + 2 * bad;
            let expected = format!("invalid type: sequence, expected a string at offset {offset}");
            assert_eq!(usual.unwrap_err(), expected);
            assert_eq!(slice.unwrap_err(), expected);
            assert_eq!(reader.unwrap_err(), expected);
        }
    }
}

#[test]
fn limits_hold_inside_the_loop() {
    // `len` entries of a key and a one-element array: the map and its
    // entries take 1 + 2 * len values, each array's element one more.
    for len in 1..=9usize {
        let mut bytes = vec![0x80 | len as u8];
        for i in 0..len {
            bytes.extend([0xa1, b'a' + i as u8, 0x91, 0xa1, b'v']);
        }
        let read = |limits: Limits| {
            let mut de = Deserializer::from_slice(&bytes).with_limits(limits);
            BTreeMap::<String, Vec<String>>::deserialize(&mut de).map_err(|e| e.to_string())
        };
        let usual = |limits: Limits| {
            let mut de = Deserializer::from_slice(&bytes).with_limits(limits);
            Inserted::<String, Vec<String>>::deserialize(&mut de).map_err(|e| e.to_string())
        };
        let limits = Limits::default().max_values(1 + 3 * len);
        assert_eq!(read(limits).unwrap().len(), len);
        for limit in 1..1 + 3 * len {
            let limits = Limits::default().max_values(limit);
            let error = read(limits).unwrap_err();
            assert!(error.starts_with(&format!("more values than the limit of {limit} at")));
            assert_eq!(error, usual(limits).unwrap_err());
        }
        let limits = Limits::default().max_depth(1);
        assert_eq!(
            read(limits).unwrap_err(),
            "nesting exceeds the depth limit of 1 at offset 3"
        );
        assert_eq!(read(limits).unwrap_err(), usual(limits).unwrap_err());
    }
}

thread_local! {
    static MADE: Cell<usize> = const { Cell::new(0) };
    static DROPPED: Cell<usize> = const { Cell::new(0) };
    static DROPPED_BEFORE_42: Cell<usize> = const { Cell::new(0) };
}

/// A value that counts its makings and drops, fails to read from 13,
/// panics on 99 and notes the drops so far when it reads 42.
#[derive(Debug)]
struct Counted(#[allow(dead_code)] u8);

impl<'de> Deserialize<'de> for Counted {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match u8::deserialize(deserializer)? {
            13 => Err(de::Error::custom("thirteen")),
            99 => panic!("ninety-nine"),
            n => {
                if n == 42 {
                    DROPPED_BEFORE_42.set(DROPPED.get());
                }
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
fn every_value_is_dropped_once_when_one_fails_or_panics() {
    for len in 1..=10u8 {
        for bad in 0..len {
            for (poison, descending) in [(13, false), (13, true), (99, false), (99, true)] {
                MADE.set(0);
                DROPPED.set(0);
                // Keys in order (read into the vector before the tree is
                // built) or descending (inserted from the second on).
                let key = |i: u8| if descending { len - i } else { i };
                let entries: Vec<(u8, u8)> = (0..len)
                    .map(|i| (key(i), if i == bad { poison } else { i }))
                    .collect();
                let bytes = map_bytes(&entries);
                let read = catch_unwind(AssertUnwindSafe(|| {
                    msgpack_serde::from_slice::<BTreeMap<u8, Counted>>(&bytes).map(drop)
                }));
                match poison {
                    13 => {
                        let usual = msgpack_serde::from_slice::<Inserted<u8, Counted>>(&bytes);
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
    // Read whole, out of order and with repeats: the values a repeat
    // replaced are dropped when it is read, as serde's inserts drop them
    // (the value 42 notes how many were dropped before it), and the rest
    // with the map.
    MADE.set(0);
    DROPPED.set(0);
    let bytes = map_bytes(&[(1u8, 1u8), (1, 3), (2, 2), (4, 42), (1, 5)]);
    let read = msgpack_serde::from_slice::<BTreeMap<u8, Counted>>(&bytes).unwrap();
    assert_eq!((read.len(), MADE.get(), DROPPED.get()), (3, 5, 2));
    assert_eq!(DROPPED_BEFORE_42.get(), 1);
    drop(read);
    assert_eq!(DROPPED.get(), 5);
    let usual = msgpack_serde::from_slice::<Inserted<u8, Counted>>(&bytes).unwrap();
    assert_eq!((usual.0.len(), DROPPED_BEFORE_42.get()), (3, 6));
}

#[test]
fn maps_inside_structs_and_options_read_back() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Labels {
        name: String,
        labels: BTreeMap<String, String>,
        counts: Option<BTreeMap<u32, u64>>,
    }
    let value = Labels {
        name: "web".to_string(),
        labels: [("tier", "front"), ("app", "shop"), ("zone", "eu-1")]
            .into_iter()
            .map(|(key, value)| (key.to_string(), value.to_string()))
            .collect(),
        counts: Some(BTreeMap::from([(200, 9_000), (404, 12), (500, 1)])),
    };
    for bytes in [
        msgpack_serde::to_vec(&value).unwrap(),
        msgpack_serde::to_vec_compact(&value).unwrap(),
    ] {
        assert_eq!(msgpack_serde::from_slice::<Labels>(&bytes).unwrap(), value);
    }
}

/// A set read element by element, each inserted as it comes, as serde's
/// own visitor does, by a visitor the decoder does not recognise.
#[derive(Debug, PartialEq)]
struct InsertedSet<T: Ord>(BTreeSet<T>);

impl<'de, T: Deserialize<'de> + Ord> Deserialize<'de> for InsertedSet<T> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct InsertVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Ord> Visitor<'de> for InsertVisitor<T> {
            type Value = BTreeSet<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a set")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut values = BTreeSet::new();
                while let Some(value) = seq.next_element()? {
                    values.insert(value);
                }
                Ok(values)
            }
        }
        deserializer
            .deserialize_seq(InsertVisitor(PhantomData))
            .map(InsertedSet)
    }
}

/// `T`'s set from `bytes` every way: from a slice and a reader, and
/// serde's element-by-element path, in order.
fn every_set_way<T: DeserializeOwned + Ord>(bytes: &[u8]) -> [Result<BTreeSet<T>, String>; 3] {
    let message = |error: msgpack_serde::Error| error.to_string();
    [
        msgpack_serde::from_slice::<BTreeSet<T>>(bytes).map_err(message),
        msgpack_serde::from_reader::<_, BTreeSet<T>>(Cursor::new(bytes)).map_err(message),
        msgpack_serde::from_slice::<InsertedSet<T>>(bytes)
            .map(|inserted| inserted.0)
            .map_err(message),
    ]
}

/// `elements`, in their order and with their repeats, read as the set
/// inserting them one by one makes, every way and by rmp-serde; every cut
/// of their bytes fails the same every way.
fn set_agrees<T>(elements: &[T]) -> Result<(), TestCaseError>
where
    T: Serialize + DeserializeOwned + Ord + Clone + Debug,
{
    let expected: BTreeSet<T> = elements.iter().cloned().collect();
    let bytes = msgpack_serde::to_vec(elements).unwrap();
    for read in every_set_way::<T>(&bytes) {
        prop_assert_eq!(read.as_ref(), Ok(&expected));
    }
    prop_assert_eq!(
        rmp_serde::from_slice::<BTreeSet<T>>(&bytes).unwrap(),
        expected
    );
    for cut in 0..bytes.len() {
        let [slice, reader, usual] = every_set_way::<T>(&bytes[..cut]);
        prop_assert!(usual.is_err());
        prop_assert_eq!(&slice, &usual);
        prop_assert_eq!(&reader, &usual);
    }
    Ok(())
}

proptest! {
    #[test]
    fn sets_of_strings_and_integers_in_any_order_with_repeats(
        strings in prop::collection::vec("[a-d]{0,3}", 0..24),
        wide in prop::collection::vec(any::<i64>(), 0..24),
        narrow in prop::collection::vec(0u8..6, 0..24),
    ) {
        set_agrees(&strings)?;
        set_agrees(&wide)?;
        set_agrees(&narrow)?;
        let mut sorted = strings.clone();
        sorted.sort();
        sorted.dedup();
        set_agrees(&sorted)?;
    }
}

#[test]
fn a_bad_element_of_a_set_fails_at_its_offset_at_every_position() {
    for len in 1..=9usize {
        for bad in 0..len {
            let mut bytes = vec![0x90 | len as u8];
            for i in 0..len {
                if i == bad {
                    bytes.extend([0x91, 0x07]);
                } else {
                    bytes.extend([0xa1, b'a' + i as u8]);
                }
            }
            let [slice, reader, usual] = every_set_way::<String>(&bytes);
            let offset = 1 + 2 * bad;
            let expected = format!("invalid type: sequence, expected a string at offset {offset}");
            assert_eq!(usual.unwrap_err(), expected);
            assert_eq!(slice.unwrap_err(), expected);
            assert_eq!(reader.unwrap_err(), expected);
        }
    }
}

#[test]
fn limits_hold_inside_a_sets_loop() {
    // The array and its five elements take six values.
    let bytes = msgpack_serde::to_vec(&["e", "d", "c", "b", "a"]).unwrap();
    for limit in 1..=6 {
        let limits = Limits::default().max_values(limit);
        let mut de = Deserializer::from_slice(&bytes).with_limits(limits);
        let read = BTreeSet::<String>::deserialize(&mut de).map_err(|e| e.to_string());
        let mut de = Deserializer::from_slice(&bytes).with_limits(limits);
        let usual = InsertedSet::<String>::deserialize(&mut de)
            .map(|inserted| inserted.0)
            .map_err(|e| e.to_string());
        assert_eq!(read, usual);
        match limit {
            6 => assert_eq!(read.unwrap().len(), 5),
            _ => assert_eq!(
                read.unwrap_err(),
                format!("more values than the limit of {limit} at offset 0")
            ),
        }
    }
}

#[test]
fn lengths_around_the_first_reservation_in_order_and_breaking_order() {
    // `(u64, u64)` entries: 64 fit in the first 1 KiB reserved; `String`
    // elements of a set: 42.
    let lengths = [1, 2, 41, 42, 43, 63, 64, 65, 66, 127, 128, 129, 130];
    for len in lengths {
        let ascending: Vec<(u64, u64)> = (0..len).map(|i| (3 * i + 1, i)).collect();
        let mut orders = vec![ascending.clone()];
        for at in [1, 41, 42, 43, 63, 64, 65, len / 2, len - 1] {
            if at > 0 && at < len {
                // The key at `at` repeats the first: out of order there.
                let mut broken = ascending.clone();
                broken[at as usize].0 = 1;
                orders.push(broken);
            }
        }
        for entries in orders {
            let mut expected = BTreeMap::new();
            for &(key, value) in &entries {
                expected.insert(key, value);
            }
            let bytes = map_bytes(&entries);
            for read in every_way::<u64, u64>(&bytes) {
                assert_eq!(read.as_ref(), Ok(&expected), "{len} entries");
            }
            let elements: Vec<String> =
                entries.iter().map(|(key, _)| format!("{key:04}")).collect();
            let bytes = msgpack_serde::to_vec(&elements).unwrap();
            let expected: BTreeSet<String> = elements.iter().cloned().collect();
            for read in every_set_way::<String>(&bytes) {
                assert_eq!(read.as_ref(), Ok(&expected), "{len} elements");
            }
        }
    }
}
