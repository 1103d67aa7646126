//! `serialized_size` counts exactly the bytes `to_vec` writes, for every
//! path of the serializer: fixed headers, integers and short names written
//! as prefixes, sequences of unknown length (buffered), extensions and raw
//! values (serialized apart), in both struct modes.

use std::collections::BTreeMap;

use msgpack_serde::{msgpack, Config, RawValue, Timestamp, Value};
use serde::{Serialize, Serializer};

#[derive(Serialize)]
enum Status {
    Active,
    Closed { code: i16 },
}

#[derive(Serialize)]
struct Order {
    id: u64,
    a_field_name_longer_than_eight_bytes: String,
    note: Option<String>,
    status: Status,
    other: Status,
    when: Timestamp,
    tags: BTreeMap<String, i64>,
    #[serde(serialize_with = "unknown_length")]
    evens: Vec<u32>,
    raw: RawValue,
    value: Value,
}

/// A sequence whose length serde does not know up front.
fn unknown_length<S: Serializer>(items: &[u32], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(items.iter().filter(|n| *n % 2 == 0))
}

#[track_caller]
fn check<T: Serialize>(value: &T) {
    for config in [
        Config::named(),
        Config::compact(),
        Config::named().variants_as_indices(true),
    ] {
        let bytes = msgpack_serde::to_vec_with_config(value, config).unwrap();
        let size = msgpack_serde::serialized_size_with_config(value, config).unwrap();
        assert_eq!(size, bytes.len(), "{config:?}");
    }
    assert_eq!(
        msgpack_serde::serialized_size(value).unwrap(),
        msgpack_serde::to_vec(value).unwrap().len()
    );
}

#[test]
fn counts_what_to_vec_writes() {
    check(&());
    check(&0u8);
    for n in msgpack_test_support::INTEGER_EDGES {
        match (u64::try_from(n), i64::try_from(n)) {
            (Ok(u), _) => check(&u),
            (Err(_), Ok(i)) => check(&i),
            (Err(_), Err(_)) => unreachable!("{n} is a MessagePack integer"),
        }
    }
    check(&1.5f32);
    check(&1.5f64);
    for len in [0, 8, 9, 31, 32, 255, 256, 65_536] {
        check(&"x".repeat(len));
        check(&serde_bytes::ByteBuf::from(vec![7u8; len]));
        check(&vec![1u8; len]);
    }
    check(&msgpack!({"a": [1, -2, 3.5, null, true], 7: {"b": "c"}}));
    check(&Order {
        id: 300,
        a_field_name_longer_than_eight_bytes: "Ada".into(),
        note: None,
        status: Status::Active,
        other: Status::Closed { code: -2 },
        when: Timestamp::from_seconds(1 << 40),
        tags: [("x".to_string(), -1), ("y".to_string(), 1 << 33)].into(),
        evens: (0..40).collect(),
        raw: RawValue::from_bytes(vec![0x92, 0x01, 0xa1, b'x']).unwrap(),
        value: Value::Ext(5, vec![1, 2, 3]),
    });
}
