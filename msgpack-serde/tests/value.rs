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
        "invalid value: integer `-1`, expected an application extension type (0 to 127) \
         at offset 6"
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
        "invalid value: byte array, expected timestamp data of 4, 8 or 12 bytes at offset 4"
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

// ------------------------------------------ Ext, Timestamp, RawValue written in place

/// The three timestamp forms: 32, 64 and 96 bits.
fn timestamp_widths() -> [(Timestamp, Vec<u8>); 3] {
    [
        (Timestamp::from_seconds(1), vec![0xd6, 0xff, 0, 0, 0, 1]),
        (
            Timestamp::new(1, 1).unwrap(),
            vec![0xd7, 0xff, 0, 0, 0, 0x04, 0, 0, 0, 0x01],
        ),
        (
            Timestamp::new(-2, 500_000_000).unwrap(),
            vec![
                0xc7, 0x0c, 0xff, 0x1d, 0xcd, 0x65, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                0xfe,
            ],
        ),
    ]
}

/// Serializes `value` under `config` into every kind of output the
/// serializer has (a `Vec`, `&mut Vec` behind an unknown-length
/// sequence, an `io::Write`, a slice, a byte count), checks they agree,
/// and returns the bytes.
#[track_caller]
fn written<T: Serialize>(value: &T, config: msgpack_serde::Config) -> Vec<u8> {
    use serde::Serializer as _;

    let bytes = msgpack_serde::to_vec_with_config(value, config).unwrap();
    // An io::Write that is not a Vec: through to_writer's scratch buffer.
    let mut cursor = std::io::Cursor::new(Vec::new());
    msgpack_serde::to_writer_with_config(&mut cursor, value, config).unwrap();
    assert_eq!(cursor.into_inner(), bytes);
    let mut serializer = msgpack_serde::Serializer::from_writer_with_config(Vec::new(), config);
    value.serialize(&mut serializer).unwrap();
    assert_eq!(serializer.into_writer(), bytes);
    let mut buf = vec![0; bytes.len()];
    let mut slice = msgpack_serde::Serializer::with_config(
        msgpack_serde::core::SliceWriter::new(&mut buf),
        config,
    );
    value.serialize(&mut slice).unwrap();
    assert_eq!(slice.into_inner().written(), bytes);
    assert_eq!(
        msgpack_serde::serialized_size_with_config(value, config).unwrap(),
        bytes.len()
    );
    // In a sequence of unknown length, elements go into a `&mut Vec`.
    let mut serializer = msgpack_serde::Serializer::with_config(Vec::new(), config);
    (&mut serializer)
        .collect_seq(std::iter::once(value).filter(|_| true))
        .unwrap();
    assert_eq!(serializer.into_inner(), [&[0x91][..], &bytes].concat());
    bytes
}

#[test]
fn ext_timestamp_and_raw_value_exact_bytes_in_structs_and_vecs() {
    #[derive(Serialize)]
    struct Record {
        at: Timestamp,
        tag: Ext,
        body: RawValue,
    }
    let tag_bytes = [0xd5, 0x07, 0x01, 0x02];
    let body_bytes = [0x92, 0x01, 0xa1, b'x'];
    let configs = [
        msgpack_serde::Config::named(),
        msgpack_serde::Config::compact(),
    ];
    for (timestamp, at_bytes) in timestamp_widths() {
        let record = Record {
            at: timestamp,
            tag: Ext::new(7, vec![1, 2]).unwrap(),
            body: RawValue::from_bytes(body_bytes.to_vec()).unwrap(),
        };
        let named = [
            &[0x83, 0xa2, b'a', b't'][..],
            &at_bytes,
            &[0xa3, b't', b'a', b'g'],
            &tag_bytes,
            &[0xa4, b'b', b'o', b'd', b'y'],
            &body_bytes,
        ]
        .concat();
        assert_eq!(written(&record, configs[0]), named);
        let compact = [&[0x93][..], &at_bytes, &tag_bytes, &body_bytes].concat();
        assert_eq!(written(&record, configs[1]), compact);

        for config in configs {
            assert_eq!(written(&timestamp, config), at_bytes);
            let stamps = vec![timestamp; 2];
            assert_eq!(
                written(&stamps, config),
                [&[0x92][..], &at_bytes, &at_bytes].concat()
            );
            let values = vec![msgpack!(timestamp), Value::Ext(7, vec![1, 2])];
            assert_eq!(
                written(&values, config),
                [&[0x92][..], &at_bytes, &tag_bytes].concat()
            );
        }
    }
    for config in configs {
        let exts = vec![
            Ext::new(0, vec![]).unwrap(),
            Ext::new(1, vec![0xaa]).unwrap(),
            Ext::new(127, vec![0xbb; 3]).unwrap(),
        ];
        assert_eq!(
            written(&exts, config),
            [0x93, 0xc7, 0x00, 0x00, 0xd4, 0x01, 0xaa, 0xc7, 0x03, 0x7f, 0xbb, 0xbb, 0xbb]
        );
        let raws = vec![
            RawValue::from_bytes(vec![0xc0]).unwrap(),
            RawValue::from_bytes(body_bytes.to_vec()).unwrap(),
            // Not minimal: a uint 64 stays a uint 64.
            RawValue::from_bytes(vec![0xcf, 0, 0, 0, 0, 0, 0, 0, 1]).unwrap(),
        ];
        assert_eq!(
            written(&raws, config),
            [
                &[0x93, 0xc0][..],
                &body_bytes,
                &[0xcf, 0, 0, 0, 0, 0, 0, 0, 1]
            ]
            .concat()
        );
    }
    // The large forms: ext 16 and a big raw value.
    let big = Ext::new(9, vec![0xcd; 300]).unwrap();
    let bytes = written(&big, configs[0]);
    assert_eq!(bytes[..4], [0xc8, 0x01, 0x2c, 0x09]);
    assert_eq!(bytes.len(), 4 + 300);
    let raw = RawValue::from_bytes(msgpack_serde::to_vec(&vec![7u8; 70_000]).unwrap()).unwrap();
    assert_eq!(written(&raw, configs[1]), raw.as_bytes());
}

/// `payload` as the serde form of an extension: a newtype struct named
/// `EXT_STRUCT_NAME`, as `serialize_ext` and rmp-serde spell it.
struct AsExt<T>(T);

impl<T: Serialize> Serialize for AsExt<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use msgpack_serde::core::serde_ext::EXT_STRUCT_NAME;
        serializer.serialize_newtype_struct(EXT_STRUCT_NAME, &self.0)
    }
}

/// A part of an extension's serde form, serialized as the type or the
/// data alone.
#[derive(Serialize)]
#[serde(untagged)]
enum Part {
    Type(i8),
    Data(serde_bytes::ByteBuf),
}

/// Parts in a sequence whose length is not told up front.
struct UnsizedSeq(Vec<Part>);

impl Serialize for UnsizedSeq {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(None)?;
        for part in &self.0 {
            seq.serialize_element(part)?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct ExtFields {
    ext_type: i8,
    data: serde_bytes::ByteBuf,
}

fn bytes(data: &[u8]) -> serde_bytes::ByteBuf {
    serde_bytes::ByteBuf::from(data)
}

#[test]
fn ext_serde_forms_that_are_written() {
    let expected = [0xd5, 0x07, 0x01, 0x02];
    let configs = [
        msgpack_serde::Config::named(),
        msgpack_serde::Config::compact(),
    ];
    for config in configs {
        // The type as any integer that fits, the data as bytes, either
        // inside `Some` or a newtype.
        assert_eq!(written(&AsExt((7i8, bytes(&[1, 2]))), config), expected);
        assert_eq!(written(&AsExt((7u64, bytes(&[1, 2]))), config), expected);
        assert_eq!(written(&AsExt((7i128, bytes(&[1, 2]))), config), expected);
        assert_eq!(
            written(&AsExt((Some(7i16), Some(bytes(&[1, 2])))), config),
            expected
        );
        assert_eq!(
            written(
                &AsExt(Some((7u8, serde_bytes::Bytes::new(&[1, 2])))),
                config
            ),
            expected
        );
        assert_eq!(
            written(&AsExt((-128i64, bytes(&[1, 2]))), config),
            [0xd5, 0x80, 0x01, 0x02]
        );
        // A tuple struct, and a sequence of unknown length.
        #[derive(Serialize)]
        struct Pair(u8, serde_bytes::ByteBuf);
        assert_eq!(written(&AsExt(Pair(7, bytes(&[1, 2]))), config), expected);
        assert_eq!(
            written(
                &AsExt(UnsizedSeq(vec![Part::Type(7), Part::Data(bytes(&[1, 2]))])),
                config
            ),
            expected
        );
        // rmp-serde's way to spell one.
        #[derive(Serialize)]
        #[serde(rename = "_ExtStruct")]
        struct RmpExt((i8, serde_bytes::ByteBuf));
        assert_eq!(written(&RmpExt((7, bytes(&[1, 2]))), config), expected);
    }
    // A struct is the array (type, data) only in compact mode.
    let fields = AsExt(ExtFields {
        ext_type: 7,
        data: bytes(&[1, 2]),
    });
    assert_eq!(written(&fields, configs[1]), expected);
    assert_eq!(
        msgpack_serde::to_vec(&fields).unwrap_err().to_string(),
        "an extension must serialize as (i8, bytes)"
    );
}

/// Checks that `value` fails to serialize under both configs, with no
/// bytes left behind by `to_writer` (into a Vec, after what it held, and
/// into another writer), and returns the error message.
#[track_caller]
fn refused<T: Serialize>(value: &T) -> String {
    let message = msgpack_serde::to_vec(value).unwrap_err().to_string();
    for config in [
        msgpack_serde::Config::named(),
        msgpack_serde::Config::compact(),
    ] {
        let error = msgpack_serde::to_vec_with_config(value, config).unwrap_err();
        assert_eq!(error.to_string(), message);
        assert_eq!(error.offset(), None);
        let mut out = vec![0xc0];
        msgpack_serde::to_writer_with_config(&mut out, value, config).unwrap_err();
        msgpack_serde::to_writer_with_config(&mut out, &(1, value), config).unwrap_err();
        assert_eq!(out, [0xc0]);
        let mut cursor = std::io::Cursor::new(Vec::new());
        msgpack_serde::to_writer_with_config(&mut cursor, &[value], config).unwrap_err();
        assert!(cursor.into_inner().is_empty());
    }
    message
}

/// As [`refused`], and the serializer itself wrote nothing: the value was
/// refused before any of it was written.
#[track_caller]
fn refused_before_writing<T: Serialize>(value: &T) -> String {
    let mut serializer = msgpack_serde::Serializer::new(Vec::new());
    value.serialize(&mut serializer).unwrap_err();
    assert_eq!(serializer.into_inner(), Vec::<u8>::new());
    refused(value)
}

#[test]
fn ext_of_the_wrong_shape_is_refused() {
    let shape = "an extension must serialize as (i8, bytes)";
    assert_eq!(refused_before_writing(&AsExt("ab")), shape);
    assert_eq!(refused_before_writing(&AsExt(7i8)), shape);
    assert_eq!(refused_before_writing(&AsExt(bytes(&[1]))), shape);
    assert_eq!(refused_before_writing(&AsExt(())), shape);
    assert_eq!(refused_before_writing(&AsExt((7i8,))), shape);
    assert_eq!(
        refused_before_writing(&AsExt((7i8, bytes(&[1]), bytes(&[2])))),
        shape
    );
    assert_eq!(refused_before_writing(&AsExt(vec![7u8, 1])), shape);
    let mut map = BTreeMap::new();
    map.insert(7i8, bytes(&[1]));
    assert_eq!(refused_before_writing(&AsExt(map)), shape);
    // The type is not an integer.
    assert_eq!(refused_before_writing(&AsExt((7.0f32, bytes(&[1])))), shape);
    assert_eq!(refused_before_writing(&AsExt(('7', bytes(&[1])))), shape);
    assert_eq!(refused_before_writing(&AsExt((true, bytes(&[1])))), shape);
    // The data is not bytes: a `Vec<u8>` alone is a sequence of integers.
    assert_eq!(refused_before_writing(&AsExt((7i8, vec![1u8, 2]))), shape);
    assert_eq!(refused_before_writing(&AsExt((7i8, "ab"))), shape);
    assert_eq!(refused_before_writing(&AsExt((7i8, ()))), shape);
    // An extension or a raw value inside an extension.
    assert_eq!(
        refused_before_writing(&AsExt((7i8, Ext::new(1, vec![1]).unwrap()))),
        shape
    );
    assert_eq!(
        refused_before_writing(&AsExt((Timestamp::UNIX_EPOCH, bytes(&[1])))),
        shape
    );
    assert_eq!(
        refused_before_writing(&AsExt(Ext::new(1, vec![1]).unwrap())),
        shape
    );
    let raw_bin = RawValue::from_bytes(vec![0xc4, 0x01, 0x01]).unwrap();
    assert_eq!(refused_before_writing(&AsExt((7i8, raw_bin))), shape);
    // An extension type out of range.
    let range = "integer out of range for i8";
    assert_eq!(refused_before_writing(&AsExt((128u8, bytes(&[1])))), range);
    assert_eq!(
        refused_before_writing(&AsExt((-129i16, bytes(&[1])))),
        range
    );
    assert_eq!(
        refused_before_writing(&AsExt((u128::MAX, bytes(&[1])))),
        range
    );
    // A sequence of unknown length too short, or with a third element:
    // the extension is written when its data comes, so then only
    // `to_writer` takes it back.
    assert_eq!(refused_before_writing(&AsExt(UnsizedSeq(vec![]))), shape);
    assert_eq!(
        refused_before_writing(&AsExt(UnsizedSeq(vec![Part::Type(7)]))),
        shape
    );
    let three = UnsizedSeq(vec![
        Part::Type(7),
        Part::Data(bytes(&[1])),
        Part::Data(bytes(&[2])),
    ]);
    assert_eq!(refused(&AsExt(three)), shape);
}

/// A `RawValue` that skipped the check `RawValue::from_bytes` makes: any
/// deserializer that offers bytes can make one.
fn unchecked_raw_value(bytes: &[u8]) -> RawValue {
    let deserializer = serde::de::value::BytesDeserializer::<serde::de::value::Error>::new(bytes);
    let raw = RawValue::deserialize(deserializer).unwrap();
    assert_eq!(raw.as_bytes(), bytes);
    raw
}

#[test]
fn raw_value_of_not_one_value_is_refused() {
    let message = "raw value is not exactly one MessagePack value";
    // Two values, a truncated one, none, and a reserved marker.
    for bytes in [
        &[0x01, 0x02][..],
        &[0x92, 0x01],
        &[0xa2, b'x'],
        &[],
        &[0xc1],
    ] {
        let raw = unchecked_raw_value(bytes);
        assert_eq!(refused_before_writing(&raw), message, "{bytes:02x?}");
        assert!(msgpack_serde::to_vec(&raw).unwrap_err().is_syntax());
        assert_eq!(refused(&vec![raw.clone()]), message);
        assert_eq!(
            refused(&Envelope {
                kind: "ping".into(),
                body: raw,
            }),
            message
        );
    }
    // One value made this way is written as it is.
    let raw = unchecked_raw_value(&[0x91, 0xcc, 0x01]);
    assert_eq!(
        written(&raw, msgpack_serde::Config::named()),
        [0x91, 0xcc, 0x01]
    );
}
