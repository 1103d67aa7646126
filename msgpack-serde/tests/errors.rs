//! Error messages, offsets and categories, exactly; and that every strict
//! prefix of a valid message is an end-of-input error.

use std::fmt::Debug;
use std::io::{self, Cursor, Read};

use msgpack_serde::core::ErrorKind;
use msgpack_serde::{msgpack, Category, Error, Value};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Order {
    id: u32,
    line: Line,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Line {
    sku: String,
    qty: u32,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Invoice {
    number: u64,
    customer: String,
    lines: Vec<Line>,
    paid: Option<bool>,
    discount: f64,
    kind: Kind,
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
enum Kind {
    Retail,
    Wholesale { account: String },
    Refund(u64),
}

fn invoice() -> Invoice {
    Invoice {
        number: 1 << 33,
        customer: "Ada".into(),
        lines: vec![
            Line {
                sku: "A-1".into(),
                qty: 2,
            },
            Line {
                sku: "B-22".into(),
                qty: 70_000,
            },
        ],
        paid: Some(false),
        discount: 0.15,
        kind: Kind::Wholesale {
            account: "acme".into(),
        },
    }
}

/// The error from both `from_slice` and `from_reader`, which must agree.
#[track_caller]
fn error<T: DeserializeOwned + Debug>(bytes: &[u8]) -> Error {
    let from_slice = msgpack_serde::from_slice::<T>(bytes).unwrap_err();
    let from_reader = msgpack_serde::from_reader::<_, T>(Cursor::new(bytes)).unwrap_err();
    assert_eq!(from_slice.to_string(), from_reader.to_string());
    assert_eq!(from_slice.classify(), from_reader.classify());
    from_slice
}

#[track_caller]
fn message<T: DeserializeOwned + Debug>(bytes: &[u8]) -> String {
    error::<T>(bytes).to_string()
}

#[test]
fn wrong_type_in_a_nested_field() {
    let bytes =
        msgpack_serde::to_vec(&msgpack!({"id": 1, "line": {"sku": "a", "qty": "x"}})).unwrap();
    // 0: map, 1: "id", 4: 1, 5: "line", 10: map, 11: "sku", 15: "a",
    // 17: "qty", 21: "x".
    assert_eq!(&bytes[21..], [0xa1, b'x']);
    let error = error::<Order>(&bytes);
    assert_eq!(
        error.to_string(),
        r#"invalid type: string "x", expected u32 at offset 21"#
    );
    assert_eq!(error.offset(), Some(21));
    assert_eq!(error.classify(), Category::Data);
    assert!(error.is_data());
    assert!(!error.is_eof() && !error.is_syntax() && !error.is_io());
    assert_eq!(error.wire_kind(), None);

    // Compact: [1, ["a", "x"]].
    assert_eq!(
        message::<Order>(&[0x92, 0x01, 0x92, 0xa1, b'a', 0xa1, b'x']),
        r#"invalid type: string "x", expected u32 at offset 5"#
    );
    // Deeper: the second line of an invoice.
    let mut invoice = msgpack_serde::to_value(&invoice()).unwrap();
    invoice.as_map_mut().unwrap()[2].1.as_array_mut().unwrap()[1]
        .as_map_mut()
        .unwrap()[1]
        .1 = Value::Bool(true);
    let bytes = msgpack_serde::to_vec(&invoice).unwrap();
    let offset = bytes.iter().position(|&b| b == 0xc3).unwrap();
    assert_eq!(
        message::<Invoice>(&bytes),
        format!("invalid type: boolean `true`, expected u32 at offset {offset}")
    );
}

#[test]
fn other_data_errors() {
    assert_eq!(
        message::<Vec<u8>>(&[0x92, 0x01, 0xc0]),
        "invalid type: unit value, expected u8 at offset 2"
    );
    assert_eq!(
        message::<String>(&[0x91, 0x01]),
        "invalid type: sequence, expected a string at offset 0"
    );
    assert_eq!(
        message::<bool>(&[0x80]),
        "invalid type: map, expected a boolean at offset 0"
    );
    assert_eq!(
        message::<(u8, u8)>(&[0x93, 0x01, 0x02, 0x03]),
        "invalid length 3, expected fewer elements in array at offset 0"
    );
    assert_eq!(
        message::<(u8, u8)>(&[0x91, 0x01]),
        "invalid length 1, expected a tuple of size 2 at offset 0"
    );
    assert_eq!(
        message::<Kind>(&[0x82, 0x00, 0xc0, 0x01, 0xc0]),
        "invalid length 2, expected a map of one entry for an enum variant at offset 0"
    );
    assert_eq!(
        message::<Kind>(&[0xc3]),
        "invalid type: boolean `true`, expected an enum variant (name, index or one-entry map) \
         at offset 0"
    );
    assert_eq!(
        message::<msgpack_serde::Ext>(&[0x01]),
        "invalid type: integer `1`, expected a MessagePack extension at offset 0"
    );
    // `Timestamp` checks the extension type after our deserializer has
    // handed the extension over: the error is where the reader stopped,
    // past the extension, alone as inside a container.
    let error = error::<msgpack_serde::Timestamp>(&[0xd4, 0x01, 0x00]);
    assert_eq!(
        error.to_string(),
        "invalid value: an extension of another type, expected a timestamp (extension type -1) \
         at offset 3"
    );
    assert_eq!(error.offset(), Some(3));
    assert_eq!(
        message::<Vec<msgpack_serde::Timestamp>>(&[0x91, 0xd4, 0x01, 0x00]),
        "invalid value: an extension of another type, expected a timestamp (extension type -1) \
         at offset 4"
    );
}

#[test]
fn an_array_longer_than_its_struct_is_the_first_error() {
    // The pair at offset 1 has a third element; the string after it, not
    // a pair, is never the error reported.
    assert_eq!(
        message::<Vec<(u8, u8)>>(&[0x92, 0x93, 0x01, 0x02, 0x03, 0xa1, b'x']),
        "invalid length 3, expected fewer elements in array at offset 1"
    );
    // Nested in compact form: the line at offset 2 holds an extra
    // element, after which the order is complete and nothing else fails.
    let bytes = [0x92, 0x07, 0x93, 0xa1, b'a', 0x02, 0xc0];
    assert_eq!(
        message::<Order>(&bytes),
        "invalid length 3, expected fewer elements in array at offset 2"
    );
    // A deserializer reading values in a row reports it for that value.
    let mut de = msgpack_serde::Deserializer::from_slice(&bytes);
    assert_eq!(
        Order::deserialize(&mut de).unwrap_err().to_string(),
        "invalid length 3, expected fewer elements in array at offset 2"
    );
    assert_eq!(de.byte_offset(), 0, "a value in error is not read past");
    let mut values = msgpack_serde::Deserializer::from_slice(&bytes).into_iter::<Order>();
    assert_eq!(
        values.next().unwrap().unwrap_err().to_string(),
        "invalid length 3, expected fewer elements in array at offset 2"
    );
}

thread_local! {
    /// How many `Counted` values were dropped on this thread.
    static DROPPED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A string that counts its drops.
#[derive(Deserialize, PartialEq, Debug)]
struct Counted(String);

impl Drop for Counted {
    fn drop(&mut self) {
        DROPPED.with(|dropped| dropped.set(dropped.get() + 1));
    }
}

/// More than 16 bytes: an array's struct of this size goes back in the
/// `Result` its visitor wrote, after the decoder's check.
#[derive(Deserialize, PartialEq, Debug)]
struct Wide {
    a: Counted,
    b: Counted,
    c: Counted,
}

#[test]
fn a_wide_struct_checks_its_array_as_a_small_one() {
    let exact = [0x93, 0xa1, b'x', 0xa1, b'y', 0xa1, b'z'];
    let wide = msgpack_serde::from_slice::<Wide>(&exact).unwrap();
    assert_eq!(
        (wide.a.0.as_str(), wide.b.0.as_str(), wide.c.0.as_str()),
        ("x", "y", "z")
    );
    drop(wide);
    // A fourth element: refused, and the three strings read dropped once
    // each (by `from_slice` and by `from_reader`).
    let longer = [0x94, 0xa1, b'x', 0xa1, b'y', 0xa1, b'z', 0x04];
    DROPPED.with(|dropped| dropped.set(0));
    assert_eq!(
        message::<Wide>(&longer),
        "invalid length 4, expected fewer elements in array at offset 0"
    );
    assert_eq!(DROPPED.with(|dropped| dropped.get()), 6);
    let mut in_a_vec = vec![0x92];
    in_a_vec.extend_from_slice(&exact);
    in_a_vec.extend_from_slice(&longer);
    assert_eq!(
        message::<Vec<Wide>>(&in_a_vec),
        "invalid length 4, expected fewer elements in array at offset 8"
    );
    // The visitor's own errors come back as they were, at their offsets.
    assert_eq!(
        message::<Wide>(&[0x92, 0xa1, b'x', 0xa1, b'y']),
        "invalid length 2, expected struct Wide with 3 elements at offset 0"
    );
    assert_eq!(
        message::<Wide>(&[0x94, 0xa1, b'x', 0x01, 0xa1, b'z', 0x04]),
        "invalid type: integer `1`, expected a string at offset 3"
    );
}

#[test]
fn missing_field() {
    let bytes = msgpack_serde::to_vec(&msgpack!({"id": 1, "line": {"sku": "a"}})).unwrap();
    let error = error::<Order>(&bytes);
    // At the map that lacks it.
    assert_eq!(error.to_string(), "missing field `qty` at offset 10");
    assert_eq!(error.classify(), Category::Data);
    assert_eq!(
        message::<Order>(&[0x81, 0xa2, b'i', b'd', 0x01]),
        "missing field `line` at offset 0"
    );
    // Compact: too short an array.
    assert_eq!(
        message::<Order>(&[0x92, 0x01, 0x91, 0xa1, b'a']),
        "invalid length 1, expected struct Line with 2 elements at offset 2"
    );
}

/// A `u8` that refuses 13 after reading it: an error of the type's own,
/// which the decoder did not make and which comes without an offset.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct NotThirteen(u8);

impl<'de> Deserialize<'de> for NotThirteen {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match u8::deserialize(deserializer)? {
            13 => Err(serde::de::Error::custom("thirteen")),
            n => Ok(NotThirteen(n)),
        }
    }
}

#[test]
fn an_elements_own_error_is_where_the_reader_stopped_in_it() {
    // A vector (serde's own visitor, read by the decoder's element loop)
    // and a visitor of serde_derive's: the error after the element's last
    // byte, not at its container.
    let five = msgpack_serde::to_vec(&[1u8, 2, 3, 13, 5]).unwrap();
    assert_eq!(message::<Vec<NotThirteen>>(&five), "thirteen at offset 5");
    let read = msgpack_serde::from_reader::<_, Vec<NotThirteen>>(&five[..]).unwrap_err();
    assert_eq!(read.to_string(), "thirteen at offset 5");
    assert_eq!(
        message::<(u8, u8, u8, NotThirteen, u8)>(&five),
        "thirteen at offset 5"
    );
    // A map's value, in a `BTreeMap` (the decoder's entry loop) and in a
    // `HashMap` (serde's inserts); a key.
    let map = msgpack_serde::to_vec(&msgpack!({"a": 1, "b": 13})).unwrap();
    assert_eq!(
        message::<std::collections::BTreeMap<String, NotThirteen>>(&map),
        "thirteen at offset 7"
    );
    assert_eq!(
        message::<std::collections::HashMap<String, NotThirteen>>(&map),
        "thirteen at offset 7"
    );
    let keys = msgpack_serde::to_vec(&msgpack!({1: "a", 13: "b"})).unwrap();
    assert_eq!(
        message::<std::collections::BTreeMap<NotThirteen, String>>(&keys),
        "thirteen at offset 5"
    );
    // A struct's field, named and compact, and a variant's payload.
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Holder {
        id: u8,
        value: NotThirteen,
    }
    let named = msgpack_serde::to_vec(&msgpack!({"id": 1, "value": 13})).unwrap();
    assert_eq!(message::<Holder>(&named), "thirteen at offset 12");
    assert_eq!(
        message::<Holder>(&[0x92, 0x01, 0x0d]),
        "thirteen at offset 3"
    );
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    enum Choice {
        Number(NotThirteen),
    }
    let variant = msgpack_serde::to_vec(&msgpack!({"Number": 13})).unwrap();
    assert_eq!(message::<Choice>(&variant), "thirteen at offset 9");
    // Alone: where the reader stopped in the input, by every reader.
    assert_eq!(message::<NotThirteen>(&[0x0d]), "thirteen at offset 1");
    let read = msgpack_serde::from_reader::<_, NotThirteen>(&[0x0d][..]).unwrap_err();
    assert_eq!(read.to_string(), "thirteen at offset 1");
    // The stream's values, the error made after its read (placed by the
    // stream) and inside it (an `Option`'s, placed by the read).
    let mut values =
        msgpack_serde::Deserializer::from_slice(&[0x01, 0x0d]).into_iter::<NotThirteen>();
    assert!(values.next().unwrap().is_ok());
    assert_eq!(
        values.next().unwrap().unwrap_err().to_string(),
        "thirteen at offset 2"
    );
    let mut values =
        msgpack_serde::Deserializer::from_reader(&[0x01, 0x0d][..]).into_iter::<NotThirteen>();
    assert!(values.next().unwrap().is_ok());
    assert_eq!(
        values.next().unwrap().unwrap_err().to_string(),
        "thirteen at offset 2"
    );
    let mut values = msgpack_serde::Deserializer::from_reader(&[0xc0, 0x0d][..])
        .into_iter::<Option<NotThirteen>>();
    assert!(values.next().unwrap().unwrap().is_none());
    assert_eq!(
        values.next().unwrap().unwrap_err().to_string(),
        "thirteen at offset 2"
    );
}

/// A value limit of zero refuses every value of a stream where it
/// starts: read from a reader, after the first value's bytes were taken,
/// the second is at offset 1, as `byte_offset` says.
#[test]
fn a_streams_value_limit_is_at_each_value() {
    use msgpack_serde::{Deserializer, Limits};
    use serde::Deserialize;

    let limits = Limits::new().max_values(0);
    let mut de = Deserializer::from_reader(&[0xc0, 0xc0][..]).with_limits(limits);
    for offset in 0..2 {
        assert_eq!(de.byte_offset(), offset);
        assert_eq!(
            <()>::deserialize(&mut de).unwrap_err().to_string(),
            format!("more values than the limit of 0 at offset {offset}")
        );
    }
}

#[test]
fn trailing_bytes() {
    let error = error::<u32>(&[0x01, 0x02]);
    assert_eq!(
        error.to_string(),
        "trailing bytes after the value at offset 1"
    );
    assert_eq!(error.offset(), Some(1));
    assert_eq!(error.classify(), Category::Syntax);
    assert_eq!(error.wire_kind(), Some(ErrorKind::TrailingBytes));

    let mut bytes = msgpack_serde::to_vec(&invoice()).unwrap();
    let len = bytes.len();
    bytes.push(0xc1);
    assert_eq!(
        message::<Invoice>(&bytes),
        format!("trailing bytes after the value at offset {len}")
    );
    assert_eq!(
        message::<Value>(&bytes),
        format!("trailing bytes after the value at offset {len}")
    );
}

#[test]
fn reserved_marker() {
    let error = error::<Value>(&[0xc1]);
    assert_eq!(error.to_string(), "reserved marker 0xc1 at offset 0");
    assert_eq!(error.classify(), Category::Syntax);
    assert!(error.is_syntax());
    assert_eq!(error.wire_kind(), Some(ErrorKind::ReservedMarker));
    assert_eq!(message::<u32>(&[0xc1]), "reserved marker 0xc1 at offset 0");
    assert_eq!(
        message::<Option<u32>>(&[0xc1]),
        "reserved marker 0xc1 at offset 0"
    );
    assert_eq!(
        message::<IgnoredAny>(&[0x92, 0x01, 0xc1]),
        "reserved marker 0xc1 at offset 2"
    );
    assert_eq!(message::<Kind>(&[0xc1]), "reserved marker 0xc1 at offset 0");
    // In a nested field: {"id": 1, "line": {"sku": 0xc1 ...
    assert_eq!(
        message::<Order>(b"\x82\xa2id\x01\xa4line\x82\xa3sku\xc1"),
        "reserved marker 0xc1 at offset 15"
    );
}

#[test]
fn invalid_utf8() {
    let error = error::<String>(&[0xa2, 0xff, 0xfe]);
    assert_eq!(error.to_string(), "invalid UTF-8 in string at offset 0");
    assert_eq!(error.classify(), Category::Syntax);
    assert_eq!(error.wire_kind(), Some(ErrorKind::InvalidUtf8));
    assert_eq!(
        message::<Value>(&[0x92, 0x01, 0xa1, 0x80]),
        "invalid UTF-8 in string at offset 2"
    );
    // As a map key naming a field.
    assert_eq!(
        message::<Line>(&[0x81, 0xa1, 0xc0, 0x01]),
        "invalid UTF-8 in string at offset 1"
    );
    // A truncated multi-byte character.
    assert_eq!(
        message::<String>(&[0xa1, 0xc3]),
        "invalid UTF-8 in string at offset 0"
    );
    // In a str 8, at the string's marker.
    assert_eq!(
        message::<(u8, String)>(&[0x92, 0x01, 0xd9, 0x01, 0xff]),
        "invalid UTF-8 in string at offset 2"
    );
}

#[test]
fn end_of_input() {
    let error = error::<u32>(&[0xcd, 0x01]);
    assert_eq!(error.to_string(), "unexpected end of input at offset 2");
    assert_eq!(error.offset(), Some(2));
    assert_eq!(error.classify(), Category::Eof);
    assert!(error.is_eof());
    assert_eq!(error.wire_kind(), Some(ErrorKind::UnexpectedEof));
    assert_eq!(message::<Value>(&[]), "unexpected end of input at offset 0");
    assert_eq!(
        message::<Order>(&[0x82, 0xa2, b'i']),
        "unexpected end of input at offset 3"
    );
    // A float cut short, and a float of the other width: both leave the
    // fast path and get the general answer.
    assert_eq!(
        message::<f32>(&[0xca, 0x3f, 0xc0, 0x00]),
        "unexpected end of input at offset 4"
    );
    assert_eq!(
        message::<f64>(&[0xcb, 0x3f]),
        "unexpected end of input at offset 2"
    );
    assert_eq!(
        msgpack_serde::from_slice::<f64>(&[0xca, 0x3f, 0xc0, 0, 0]).unwrap(),
        1.5
    );
    // A str 8 cut in its header and in its bytes (strings read str 8
    // outside `any`, like fixstr).
    assert_eq!(
        message::<String>(&[0xd9]),
        "unexpected end of input at offset 1"
    );
    assert_eq!(
        message::<String>(&[0xd9, 0x20, b'a']),
        "unexpected end of input at offset 3"
    );
    assert_eq!(
        message::<(u8, String)>(&[0x92, 0x01, 0xd9, 0x02, b'a']),
        "unexpected end of input at offset 5"
    );
    assert_eq!(
        message::<(u8, f32)>(&[0x92, 0x01, 0xa1, b'x']),
        r#"invalid type: string "x", expected f32 at offset 2"#
    );
}

#[test]
fn io_errors() {
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::new(
                io::ErrorKind::ConnectionReset,
                "peer went away",
            ))
        }
    }
    let error = msgpack_serde::from_reader::<_, Value>(Broken).unwrap_err();
    assert_eq!(error.to_string(), "peer went away");
    assert_eq!(error.classify(), Category::Io);
    assert!(error.is_io());
    assert_eq!(error.offset(), None);
    assert!(std::error::Error::source(&error).is_some());
    assert_eq!(
        io::Error::from(error).kind(),
        io::ErrorKind::ConnectionReset
    );

    // The stream breaks after the first two bytes.
    let mut bytes = Cursor::new(vec![0x92, 0x01]).chain(Broken);
    let error = msgpack_serde::from_reader::<_, Vec<u8>>(&mut bytes).unwrap_err();
    assert!(error.is_io());

    struct Full;
    impl io::Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Ok(0)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let error = msgpack_serde::to_writer(Full, &1u8).unwrap_err();
    assert!(error.is_io());
    assert_eq!(error.to_string(), "failed to write whole buffer");
}

#[test]
fn into_io_error() {
    let eof = msgpack_serde::from_slice::<u8>(&[]).unwrap_err();
    let io_error = io::Error::from(eof);
    assert_eq!(io_error.kind(), io::ErrorKind::UnexpectedEof);
    assert_eq!(io_error.to_string(), "unexpected end of input at offset 0");

    let data = msgpack_serde::from_slice::<u8>(&[0xc3]).unwrap_err();
    assert_eq!(io::Error::from(data).kind(), io::ErrorKind::InvalidData);
}

#[test]
fn debug_format() {
    let error = msgpack_serde::from_slice::<u8>(&[0xc3]).unwrap_err();
    assert_eq!(
        format!("{error:?}"),
        r#"Error("invalid type: boolean `true`, expected u8", offset: 0)"#
    );
    let error = msgpack_serde::to_vec(&u128::MAX).unwrap_err();
    assert_eq!(
        format!("{error:?}"),
        r#"Error("integer out of the MessagePack range (i64::MIN to u64::MAX)")"#
    );
}

// ---------------------------------------------------------------- prefixes

/// Every strict prefix of `bytes` fails as `T`, from a slice and from a
/// reader, with an end-of-input error at the end of the prefix.
#[track_caller]
fn every_prefix_is_eof<T: DeserializeOwned + Debug>(bytes: &[u8]) {
    assert!(msgpack_serde::from_slice::<T>(bytes).is_ok());
    for len in 0..bytes.len() {
        let prefix = &bytes[..len];
        let from_slice = msgpack_serde::from_slice::<T>(prefix).unwrap_err();
        assert!(from_slice.is_eof(), "prefix {len}: {from_slice}");
        assert_eq!(from_slice.offset(), Some(len), "prefix {len}: {from_slice}");
        let from_reader = msgpack_serde::from_reader::<_, T>(Cursor::new(prefix)).unwrap_err();
        assert!(from_reader.is_eof(), "prefix {len}: {from_reader}");
        assert_eq!(
            from_reader.offset(),
            Some(len),
            "prefix {len}: {from_reader}"
        );
    }
}

#[test]
fn prefixes_of_a_struct_in_named_mode() {
    let bytes = msgpack_serde::to_vec(&invoice()).unwrap();
    every_prefix_is_eof::<Invoice>(&bytes);
    every_prefix_is_eof::<Value>(&bytes);
    every_prefix_is_eof::<IgnoredAny>(&bytes);
}

#[test]
fn prefixes_of_a_struct_in_compact_mode() {
    let bytes = msgpack_serde::to_vec_compact(&invoice()).unwrap();
    every_prefix_is_eof::<Invoice>(&bytes);
    every_prefix_is_eof::<Value>(&bytes);
    every_prefix_is_eof::<IgnoredAny>(&bytes);
}

#[test]
fn prefixes_of_a_value() {
    let value = msgpack!({
        "str8": "x".repeat(40),
        "str16": "y".repeat(300),
        "bin": Value::Bin(vec![7; 20]),
        "ints": [0, -1, 200, -200, 70_000, -70_000, u64::MAX, i64::MIN],
        "floats": [1.5f32, 0.1],
        "ext": Value::Ext(3, vec![1, 2, 3]),
        "time": msgpack_serde::Timestamp::new(1, 5).unwrap(),
        "nested": [[{}], {"a": [null, true, false]}],
        7: {"deep": [[[[1]]]]},
    });
    let bytes = value.to_vec().unwrap();
    every_prefix_is_eof::<Value>(&bytes);
    every_prefix_is_eof::<IgnoredAny>(&bytes);
    every_prefix_is_eof::<msgpack_serde::RawValue>(&bytes);
    every_prefix_is_eof::<serde_json::Value>(&msgpack_serde::to_vec(&invoice()).unwrap());
}
