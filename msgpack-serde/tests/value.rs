//! `Value`, `msgpack!`, `to_value`/`from_value`, `RawValue`, `Ext` and
//! `Timestamp` through serde.

use std::collections::BTreeMap;

use msgpack_serde::{from_value, msgpack, to_value, Ext, RawValue, Timestamp, Value};
use serde::{Deserialize, Serialize};

/// Writes `value` with `to_vec` (and `to_vec_compact`, which must agree
/// for a `Value`), checks the bytes, and reads them back as an equal
/// `Value` from a slice and from a reader.
#[track_caller]
fn check(value: &Value, bytes: &[u8]) {
    assert_eq!(msgpack_serde::to_vec(value).unwrap(), bytes);
    assert_eq!(msgpack_serde::to_vec_compact(value).unwrap(), bytes);
    assert_eq!(value.to_vec().unwrap(), bytes);
    assert_eq!(&msgpack_serde::from_slice::<Value>(bytes).unwrap(), value);
    assert_eq!(
        &msgpack_serde::from_reader::<_, Value>(bytes).unwrap(),
        value
    );
}

// ---------------------------------------------------------------- msgpack!

#[test]
fn macro_scalars() {
    assert_eq!(msgpack!(null), Value::Nil);
    assert_eq!(msgpack!(true), Value::Bool(true));
    assert_eq!(msgpack!(false), Value::Bool(false));
    assert_eq!(msgpack!(7), Value::from(7));
    assert_eq!(msgpack!(-7), Value::from(-7));
    assert_eq!(msgpack!(1.5), Value::F64(1.5));
    assert_eq!(msgpack!(1.5f32), Value::F32(1.5));
    assert_eq!(msgpack!("hi"), Value::Str("hi".into()));
    assert_eq!(msgpack!([]), Value::Array(vec![]));
    assert_eq!(msgpack!({}), Value::Map(vec![]));
}

#[test]
fn macro_nested() {
    let value = msgpack!({
        "name": "Ada",
        "langs": ["en", "fr"],
        "manager": null,
        "address": {"city": "London", "geo": [51.5, -0.12]},
        "active": true,
    });
    assert_eq!(
        value.to_string(),
        r#"{"name": "Ada", "langs": ["en", "fr"], "manager": null, "address": {"city": "London", "geo": [51.5, -0.12]}, "active": true}"#
    );
    assert_eq!(value["address"]["geo"][1], Value::F64(-0.12));
    assert_eq!(value["manager"], Value::Nil);
}

#[test]
fn macro_int_keys_and_expressions() {
    let id = 42u64;
    let name = String::from("Grace");
    let tags = vec!["a", "b"];
    let value = msgpack!({
        1: id,
        -2: name.clone(),
        "sum": id + 1,
        "tags": tags,
        "call": "x".repeat(3),
        (1 + 2): [id, name.len()],
        true: false,
    });
    let pairs = value.as_map().unwrap();
    assert_eq!(pairs[0], (Value::from(1), Value::from(42)));
    assert_eq!(pairs[1], (Value::from(-2), Value::from("Grace")));
    assert_eq!(pairs[2], (Value::from("sum"), Value::from(43)));
    assert_eq!(pairs[3].1, msgpack!(["a", "b"]));
    assert_eq!(pairs[4].1, Value::from("xxx"));
    assert_eq!(pairs[5], (Value::from(3), msgpack!([42, 5])));
    assert_eq!(pairs[6], (Value::Bool(true), Value::Bool(false)));
    // Integer keys stay integers on the wire.
    let bytes = msgpack_serde::to_vec(&value).unwrap();
    assert_eq!(&bytes[..3], [0x87, 0x01, 0x2a]);
}

#[test]
fn macro_trailing_commas() {
    assert_eq!(msgpack!([1, 2,]), msgpack!([1, 2]));
    assert_eq!(msgpack!({"a": 1,}), msgpack!({"a": 1}));
    assert_eq!(
        msgpack!({"a": [1,], "b": {"c": null,},}),
        msgpack!({"a": [1], "b": {"c": null}})
    );
}

/// `msgpack!([1, null])` did not compile: an array whose last element is
/// `null`, `true`, `false`, an array or a map, with no trailing comma, had
/// no terminating macro rule.
#[test]
fn regression_macro_array_ending_in_literal_or_container() {
    assert_eq!(
        msgpack!([1, null]),
        Value::Array(vec![Value::from(1), Value::Nil])
    );
    assert_eq!(
        msgpack!([true, false]),
        Value::Array(vec![Value::Bool(true), Value::Bool(false)])
    );
    assert_eq!(
        msgpack!([[1]]),
        Value::Array(vec![Value::Array(vec![Value::from(1)])])
    );
    assert_eq!(msgpack!([{"a": 1}]).to_string(), r#"[{"a": 1}]"#);
    assert_eq!(msgpack!({"k": [null]}).to_string(), r#"{"k": [null]}"#);
    assert_eq!(msgpack!([null]), Value::Array(vec![Value::Nil]));
}

// ---------------------------------------------------------------- to_value

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Point {
    x: i32,
    y: i32,
    label: Option<String>,
}

#[test]
fn to_value_and_from_value() {
    let point = Point {
        x: 1,
        y: -2,
        label: None,
    };
    let value = to_value(&point).unwrap();
    assert_eq!(value, msgpack!({"x": 1, "y": -2, "label": null}));
    assert_eq!(from_value::<Point>(value).unwrap(), point);
    // from_value takes the array form too.
    assert_eq!(from_value::<Point>(msgpack!([1, -2, null])).unwrap(), point);

    let map = BTreeMap::from([(1u32, "a"), (2, "b")]);
    let value = to_value(&map).unwrap();
    assert_eq!(value, msgpack!({1: "a", 2: "b"}));
    assert_eq!(
        from_value::<BTreeMap<u32, String>>(value).unwrap(),
        BTreeMap::from([(1, "a".to_string()), (2, "b".to_string())])
    );

    assert_eq!(
        from_value::<u8>(Value::from(300)).unwrap_err().to_string(),
        "invalid value: integer `300`, expected u8 at offset 0"
    );
    assert_eq!(
        to_value(&u128::MAX).unwrap_err().to_string(),
        "integer out of the MessagePack range (i64::MIN to u64::MAX)"
    );
}

// ---------------------------------------------------------------- Value

#[test]
fn value_round_trips_keep_every_type() {
    check(&Value::Nil, &[0xc0]);
    check(&Value::Bool(false), &[0xc2]);
    check(
        &Value::from(u64::MAX),
        &[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    );
    check(&Value::from(i64::MIN), &[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0]);
    check(&Value::from(-33), &[0xd0, 0xdf]);
    // float 32 stays float 32.
    check(&Value::F32(1.5), &[0xca, 0x3f, 0xc0, 0, 0]);
    check(&Value::F64(1.5), &[0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0]);
    // bin stays bin, apart from str.
    check(&Value::Bin(vec![0x61]), &[0xc4, 0x01, 0x61]);
    check(&Value::from("a"), &[0xa1, 0x61]);
    // ext stays ext.
    check(&Value::Ext(7, vec![1, 2]), &[0xd5, 0x07, 0x01, 0x02]);
    check(&Value::Ext(-5, vec![]), &[0xc7, 0x00, 0xfb]);
    // Map keys of any type, in order.
    check(
        &Value::Map(vec![
            (Value::from(2), Value::Nil),
            (Value::from(-1), Value::Nil),
            (Value::Bin(vec![]), Value::Nil),
            (Value::Array(vec![]), Value::Nil),
        ]),
        &[0x84, 0x02, 0xc0, 0xff, 0xc0, 0xc4, 0x00, 0xc0, 0x90, 0xc0],
    );

    let value = msgpack!({
        "f32": 0.25f32,
        "bin": Value::Bin(vec![0; 300]),
        "ext": Value::Ext(100, vec![9; 20]),
        7: [u64::MAX, i64::MIN, 0.1],
        "str": "é".repeat(100),
    });
    let bytes = msgpack_serde::to_vec(&value).unwrap();
    check(&value, &bytes);
    let back: Value = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(back["f32"], Value::F32(0.25));
    assert!(matches!(back["bin"], Value::Bin(_)));
    assert_eq!(back["ext"], Value::Ext(100, vec![9; 20]));
    assert_eq!(back.as_map().unwrap()[3].0, Value::from(7));
}

#[test]
fn value_inside_typed_data() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Event {
        kind: String,
        data: Value,
    }
    let event = Event {
        kind: "custom".into(),
        data: msgpack!({1: Value::Bin(vec![1]), "f": 2.5f32}),
    };
    for bytes in [
        msgpack_serde::to_vec(&event).unwrap(),
        msgpack_serde::to_vec_compact(&event).unwrap(),
    ] {
        assert_eq!(msgpack_serde::from_slice::<Event>(&bytes).unwrap(), event);
        assert_eq!(
            msgpack_serde::from_reader::<_, Event>(&bytes[..]).unwrap(),
            event
        );
    }
}

#[test]
fn value_to_json() {
    let value = msgpack!({"a": [1, -1, 1.5, null, true], "s": "x"});
    assert_eq!(
        serde_json::to_string(&value).unwrap(),
        r#"{"a":[1,-1,1.5,null,true],"s":"x"}"#
    );
}

// ---------------------------------------------------------------- RawValue

#[derive(Serialize, Deserialize, Debug)]
struct Envelope {
    kind: String,
    body: RawValue,
}

#[test]
fn raw_value_passes_bytes_through() {
    // The body as written by some other encoder, not in minimal form:
    // 1 as a uint 64 and "x" as a str 8.
    let body = [0x92, 0xcf, 0, 0, 0, 0, 0, 0, 0, 1, 0xd9, 0x01, b'x'];
    let mut bytes = vec![0x82, 0xa4];
    bytes.extend(b"kind\xa4ping\xa4body");
    bytes.extend(body);

    let envelope: Envelope = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(envelope.kind, "ping");
    assert_eq!(envelope.body.as_bytes(), body);
    // Written back byte for byte, non-minimal forms included.
    assert_eq!(msgpack_serde::to_vec(&envelope).unwrap(), bytes);
    assert_eq!(
        msgpack_serde::to_vec_compact(&envelope).unwrap()[..6],
        [0x92, 0xa4, b'p', b'i', b'n', b'g']
    );
    assert!(msgpack_serde::to_vec_compact(&envelope)
        .unwrap()
        .ends_with(&body));
    // The same from a reader.
    let envelope: Envelope = msgpack_serde::from_reader(&bytes[..]).unwrap();
    assert_eq!(envelope.body.as_bytes(), body);
    // And decoded on demand.
    let (n, s): (u8, String) = envelope.body.deserialize_into().unwrap();
    assert_eq!((n, s.as_str()), (1, "x"));
}

#[test]
fn raw_value_to_json_is_the_decoded_value() {
    let bytes =
        msgpack_serde::to_vec(&msgpack!({"kind": "ping", "body": {"ids": [1, 2], "ok": true}}))
            .unwrap();
    let envelope: Envelope = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(
        serde_json::to_string(&envelope).unwrap(),
        r#"{"kind":"ping","body":{"ids":[1,2],"ok":true}}"#
    );
}

#[test]
fn raw_value_construction() {
    let raw = RawValue::from_bytes(vec![0x91, 0x01]).unwrap();
    assert_eq!(raw.as_bytes(), [0x91, 0x01]);
    assert_eq!(format!("{raw:?}"), "RawValue([1])");
    assert_eq!(msgpack_serde::to_vec(&raw).unwrap(), [0x91, 0x01]);
    assert_eq!(
        RawValue::from_bytes(vec![0x92, 0x01])
            .unwrap_err()
            .to_string(),
        "unexpected end of input at offset 2"
    );
    assert_eq!(
        RawValue::try_from(vec![0x01, 0x02])
            .unwrap_err()
            .to_string(),
        "trailing bytes after the value at offset 1"
    );
    assert_eq!(
        RawValue::from_bytes(vec![0xc1]).unwrap_err().to_string(),
        "reserved marker 0xc1 at offset 0"
    );
    assert_eq!(
        Box::<[u8]>::from(RawValue::from_bytes(vec![0xc0]).unwrap()),
        Box::from([0xc0u8])
    );
}

// ---------------------------------------------------------------- Ext, Timestamp

#[test]
fn ext_exact_bytes() {
    let cases: [(usize, &[u8]); 8] = [
        (0, &[0xc7, 0x00, 0x07]),
        (1, &[0xd4, 0x07]),
        (2, &[0xd5, 0x07]),
        (3, &[0xc7, 0x03, 0x07]),
        (4, &[0xd6, 0x07]),
        (8, &[0xd7, 0x07]),
        (16, &[0xd8, 0x07]),
        (17, &[0xc7, 0x11, 0x07]),
    ];
    for (len, header) in cases {
        let data: Vec<u8> = (0..len as u8).collect();
        let ext = Ext::new(7, data.clone()).unwrap();
        let bytes = msgpack_serde::to_vec(&ext).unwrap();
        assert_eq!(&bytes[..header.len()], header, "len {len}");
        assert_eq!(&bytes[header.len()..], data);
        assert_eq!(msgpack_serde::from_slice::<Ext>(&bytes).unwrap(), ext);
        assert_eq!(
            msgpack_serde::from_slice::<Value>(&bytes).unwrap(),
            Value::Ext(7, data)
        );
    }
    assert_eq!(
        msgpack_serde::to_vec(&Ext::new(7, vec![1, 2]).unwrap()).unwrap(),
        [0xd5, 0x07, 0x01, 0x02]
    );
    let big = Ext::new(127, vec![0xab; 256]).unwrap();
    let bytes = msgpack_serde::to_vec(&big).unwrap();
    assert_eq!(bytes[..4], [0xc8, 0x01, 0x00, 0x7f]);
    assert_eq!(
        msgpack_serde::from_reader::<_, Ext>(&bytes[..]).unwrap(),
        big
    );
}

#[test]
fn ext_rejects_reserved_types() {
    assert!(Ext::new(-1, vec![]).is_none());
    let error = msgpack_serde::from_slice::<Ext>(&[0xd6, 0xff, 0, 0, 0, 1]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid value: integer `-1`, expected an application extension type (0 to 127)"
    );
}

#[test]
fn timestamp_exact_bytes() {
    let cases: [(Timestamp, &[u8]); 4] = [
        (Timestamp::from_seconds(1), &[0xd6, 0xff, 0, 0, 0, 1]),
        (Timestamp::UNIX_EPOCH, &[0xd6, 0xff, 0, 0, 0, 0]),
        (
            Timestamp::new(1, 1).unwrap(),
            &[0xd7, 0xff, 0, 0, 0, 0x04, 0, 0, 0, 0x01],
        ),
        (
            Timestamp::new(-2, 500_000_000).unwrap(),
            &[
                0xc7, 0x0c, 0xff, 0x1d, 0xcd, 0x65, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                0xfe,
            ],
        ),
    ];
    for (timestamp, bytes) in cases {
        assert_eq!(msgpack_serde::to_vec(&timestamp).unwrap(), bytes);
        assert_eq!(
            msgpack_serde::from_slice::<Timestamp>(bytes).unwrap(),
            timestamp
        );
        assert_eq!(
            msgpack_serde::from_reader::<_, Timestamp>(bytes).unwrap(),
            timestamp
        );
        // In a Value, a timestamp is the extension of type -1.
        let value = msgpack_serde::from_slice::<Value>(bytes).unwrap();
        assert_eq!(value.as_timestamp(), Some(timestamp));
        assert_eq!(msgpack!(timestamp), value);
    }
    assert_eq!(
        msgpack_serde::from_slice::<Timestamp>(&[0xd5, 0xff, 0, 0])
            .unwrap_err()
            .to_string(),
        "invalid value: byte array, expected timestamp data of 4, 8 or 12 bytes"
    );
}

#[test]
fn ext_and_timestamp_in_structs() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Stamped {
        at: Timestamp,
        tag: Ext,
    }
    let stamped = Stamped {
        at: Timestamp::from_seconds(1),
        tag: Ext::new(7, vec![1, 2]).unwrap(),
    };
    let bytes = msgpack_serde::to_vec_compact(&stamped).unwrap();
    assert_eq!(
        bytes,
        [0x92, 0xd6, 0xff, 0, 0, 0, 1, 0xd5, 0x07, 0x01, 0x02]
    );
    assert_eq!(
        msgpack_serde::from_slice::<Stamped>(&bytes).unwrap(),
        stamped
    );
    let named = msgpack_serde::to_vec(&stamped).unwrap();
    assert_eq!(
        msgpack_serde::from_slice::<Stamped>(&named).unwrap(),
        stamped
    );
    assert_eq!(
        msgpack_serde::from_reader::<_, Stamped>(&named[..]).unwrap(),
        stamped
    );
}
