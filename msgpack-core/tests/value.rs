//! `Value` and `ValueRef`: display, indexing, conversions, borrowing, the
//! decoding limits, and nesting far deeper than any call stack.

use std::borrow::Cow;

use msgpack_core::{Error, ErrorKind, Integer, Limits, Reader, Value, ValueRef};

/// Decodes one whole value from `bytes` under `limits`, owned.
fn decode_with(bytes: &[u8], limits: Limits) -> Result<Value, Error> {
    let mut reader = Reader::with_limits(bytes, limits)?;
    let value = Value::decode(&mut reader)?;
    reader.finish()?;
    Ok(value)
}

/// Decodes one whole value from `bytes` under `limits`, borrowed.
fn decode_ref_with(bytes: &[u8], limits: Limits) -> Result<ValueRef<'_>, Error> {
    let mut reader = Reader::with_limits(bytes, limits)?;
    let value = ValueRef::decode(&mut reader)?;
    reader.finish()?;
    Ok(value)
}

/// Asserts that `bytes` decode under `limits`, owned and borrowed.
#[track_caller]
fn check_accepted(bytes: &[u8], limits: Limits) {
    let value = decode_with(bytes, limits).unwrap();
    assert_eq!(value.to_vec().unwrap(), bytes);
    assert_eq!(decode_ref_with(bytes, limits).map(Value::from), Ok(value));
}

/// Asserts that `bytes` fail to decode under `limits` with `kind` at
/// `offset`, owned and borrowed, and that the error displays as `text`.
#[track_caller]
fn check_rejected(bytes: &[u8], limits: Limits, kind: ErrorKind, offset: usize, text: &str) {
    let error = Error::new(kind, offset);
    assert_eq!(decode_with(bytes, limits), Err(error));
    assert_eq!(decode_ref_with(bytes, limits), Err(error));
    assert_eq!(error.to_string(), text);
}

#[test]
fn display_scalars() {
    let table = [
        (Value::Nil, "null"),
        (Value::Bool(true), "true"),
        (Value::Bool(false), "false"),
        (Value::from(0), "0"),
        (Value::from(-5), "-5"),
        (Value::from(u64::MAX), "18446744073709551615"),
        (Value::from(i64::MIN), "-9223372036854775808"),
        (Value::F32(1.5), "1.5"),
        (Value::F32(0.1), "0.1"),
        (Value::F64(1.0), "1.0"),
        (Value::F64(-0.0), "-0.0"),
        (Value::F64(0.1), "0.1"),
        (Value::F64(1e100), "1e100"),
        (Value::F64(f64::NAN), "NaN"),
        (Value::F32(f32::INFINITY), "inf"),
        (Value::F64(f64::NEG_INFINITY), "-inf"),
        (Value::from(""), r#""""#),
        (Value::from("plain"), r#""plain""#),
        (
            Value::from("q\"b\\n\nr\rt\tc\u{1}u\u{1f}d\u{7f}é😀"),
            "\"q\\\"b\\\\n\\nr\\rt\\tc\\u0001u\\u001fd\u{7f}é😀\"",
        ),
        (Value::Bin(vec![]), "bin()"),
        (Value::Bin(vec![0x00, 0xab, 0xff]), "bin(00abff)"),
        (Value::Ext(-1, vec![0, 0, 0, 1]), "ext(-1, 00000001)"),
        (Value::Ext(127, vec![0x0f]), "ext(127, 0f)"),
        (Value::Ext(-128, vec![]), "ext(-128, )"),
    ];
    for (value, text) in table {
        assert_eq!(value.to_string(), text);
        assert_eq!(value.as_value_ref().to_string(), text);
    }
}

#[test]
fn display_containers() {
    assert_eq!(Value::Array(vec![]).to_string(), "[]");
    assert_eq!(Value::Map(vec![]).to_string(), "{}");
    let nested = Value::Array(vec![
        Value::Array(vec![]),
        Value::Map(vec![]),
        Value::Array(vec![
            Value::from(1),
            Value::Array(vec![Value::from(2), Value::Array(vec![Value::Nil])]),
        ]),
    ]);
    assert_eq!(nested.to_string(), "[[], {}, [1, [2, [null]]]]");
    let keys = Value::Map(vec![
        (Value::from(1), Value::from("one")),
        (Value::Nil, Value::Array(vec![Value::Bool(true)])),
        (
            Value::Array(vec![Value::from(1), Value::from(2)]),
            Value::Map(vec![(Value::from("a"), Value::Bin(vec![1]))]),
        ),
        (Value::Map(vec![]), Value::Bool(false)),
        (Value::Ext(3, vec![0xaa]), Value::F32(2.5)),
    ]);
    let text = r#"{1: "one", null: [true], [1, 2]: {"a": bin(01)}, {}: false, ext(3, aa): 2.5}"#;
    assert_eq!(keys.to_string(), text);
    assert_eq!(keys.as_value_ref().to_string(), text);
    let bytes = keys.to_vec().unwrap();
    assert_eq!(ValueRef::from_slice(&bytes).unwrap().to_string(), text);
}

fn sample_map() -> Value {
    Value::Map(vec![
        (Value::from("name"), Value::from("first")),
        (
            Value::from("list"),
            Value::Array(vec![Value::from(10), Value::from(20)]),
        ),
        (Value::from(1), Value::from("int key")),
        (Value::from("name"), Value::from("second")),
        (
            Value::Array(vec![Value::from("k")]),
            Value::from("array key"),
        ),
    ])
}

#[test]
fn index_by_position_and_by_str_key() {
    let value = sample_map();
    // The first pair with the key wins.
    assert_eq!(value["name"], Value::from("first"));
    assert_eq!(value["list"][0], Value::from(10));
    assert_eq!(value["list"][1], Value::from(20));
    // Missing, out of range or the wrong type: nil.
    assert_eq!(value["list"][2], Value::Nil);
    assert_eq!(value["missing"], Value::Nil);
    assert_eq!(value["list"]["name"], Value::Nil);
    assert_eq!(value[0], Value::Nil);
    assert_eq!(value["name"][0], Value::Nil);
    assert_eq!(Value::Nil["a"][3], Value::Nil);
    // A str key is not an integer key, nor an array key.
    assert_eq!(value["1"], Value::Nil);
    assert_eq!(value["k"], Value::Nil);
}

#[test]
fn get_get_index_and_get_key() {
    let value = sample_map();
    assert_eq!(value.get("name"), Some(&Value::from("first")));
    assert_eq!(value.get("missing"), None);
    assert_eq!(
        value.get("list").and_then(|l| l.get_index(1)),
        Some(&Value::from(20))
    );
    assert_eq!(value.get("list").and_then(|l| l.get_index(2)), None);
    assert_eq!(value.get_index(0), None);
    assert_eq!(Value::from("name").get("name"), None);
    assert_eq!(
        value.get_key(&Value::from(1)),
        Some(&Value::from("int key"))
    );
    assert_eq!(
        value.get_key(&Value::from("name")),
        Some(&Value::from("first"))
    );
    assert_eq!(
        value.get_key(&Value::Array(vec![Value::from("k")])),
        Some(&Value::from("array key"))
    );
    assert_eq!(value.get_key(&Value::from(2)), None);
    assert_eq!(Value::Array(vec![]).get_key(&Value::Nil), None);
}

#[test]
fn value_ref_index() {
    let bytes = sample_map().to_vec().unwrap();
    let value = ValueRef::from_slice(&bytes).unwrap();
    assert_eq!(value["name"], ValueRef::Str("first"));
    assert_eq!(value["list"][1], ValueRef::Int(Integer::from(20)));
    assert_eq!(value["list"][2], ValueRef::Nil);
    assert_eq!(value["missing"], ValueRef::Nil);
    assert_eq!(value[0], ValueRef::Nil);
    assert_eq!(value["1"], ValueRef::Nil);
}

#[test]
fn from_conversions() {
    assert_eq!(Value::from(7u8), Value::Int(Integer::from(7u8)));
    assert_eq!(Value::from(7u16), Value::from(7i64));
    assert_eq!(Value::from(7u32), Value::from(7i8));
    assert_eq!(Value::from(7usize), Value::from(7isize));
    assert_eq!(Value::from(-7i16), Value::from(-7i32));
    assert_eq!(Value::from(-7i32).as_i64(), Some(-7));
    assert_eq!(Value::from(Integer::from(-7)), Value::from(-7));
    assert_eq!(Value::from(true), Value::Bool(true));
    assert_eq!(Value::from(1.5f32), Value::F32(1.5));
    assert_eq!(Value::from(1.5f64), Value::F64(1.5));
    assert_eq!(Value::from(String::from("s")), Value::Str("s".into()));
    assert_eq!(Value::from("s"), Value::Str("s".into()));
    assert_eq!(Value::from(Cow::Borrowed("s")), Value::Str("s".into()));
    assert_eq!(
        Value::from(Cow::<str>::Owned("s".into())),
        Value::Str("s".into())
    );
    assert_eq!(Value::from(&b"ab"[..]), Value::Bin(vec![b'a', b'b']));
    assert_eq!(Value::from(vec![1u8, 2]), Value::Bin(vec![1, 2]));
    assert_eq!(
        Value::from(vec![Value::Nil]),
        Value::Array(vec![Value::Nil])
    );
    assert_eq!(
        Value::from(vec![(Value::Nil, Value::from(1))]),
        Value::Map(vec![(Value::Nil, Value::from(1))])
    );
    assert_eq!(Value::from(()), Value::Nil);
    assert_eq!(Value::from(None::<i32>), Value::Nil);
    assert_eq!(Value::from(Some(3)), Value::from(3));
    assert_eq!(
        [1, 2, 3].into_iter().collect::<Value>(),
        Value::Array(vec![Value::from(1), Value::from(2), Value::from(3)])
    );
    assert_eq!(
        ["a", "b"].into_iter().collect::<Value>().to_string(),
        r#"["a", "b"]"#
    );
    assert_eq!(Value::default(), Value::Nil);
    assert_eq!(ValueRef::default(), ValueRef::Nil);
}

#[test]
fn accessors() {
    assert!(Value::Nil.is_nil());
    assert!(!Value::from(0).is_nil());
    assert_eq!(Value::Bool(true).as_bool(), Some(true));
    assert_eq!(Value::from(1).as_bool(), None);
    assert_eq!(Value::from(-1).as_integer(), Some(Integer::from(-1)));
    assert_eq!(Value::from(-1).as_u64(), None);
    assert_eq!(Value::from(-1).as_i64(), Some(-1));
    assert_eq!(Value::from(u64::MAX).as_u64(), Some(u64::MAX));
    assert_eq!(Value::from(u64::MAX).as_i64(), None);
    assert_eq!(Value::F32(1.5).as_f64(), Some(1.5));
    assert_eq!(Value::F64(2.5).as_f64(), Some(2.5));
    assert_eq!(Value::from(1).as_f64(), None);
    assert_eq!(Value::from("s").as_str(), Some("s"));
    assert_eq!(Value::Bin(vec![1]).as_str(), None);
    assert_eq!(Value::Bin(vec![1]).as_bin(), Some(&[1u8][..]));
    assert_eq!(Value::from("s").as_bin(), None);
    assert_eq!(Value::Ext(4, vec![1]).as_ext(), Some((4, &[1u8][..])));
    assert_eq!(Value::Bin(vec![1]).as_ext(), None);
    assert_eq!(
        Value::Array(vec![Value::Nil]).as_array(),
        Some(&vec![Value::Nil])
    );
    assert_eq!(Value::Map(vec![]).as_array(), None);
    assert_eq!(Value::Map(vec![]).as_map(), Some(&vec![]));
    assert_eq!(Value::Array(vec![]).as_map(), None);

    let mut value = Value::Array(vec![]);
    value.as_array_mut().unwrap().push(Value::from(1));
    assert_eq!(value.to_string(), "[1]");
    let mut value = Value::Map(vec![]);
    value
        .as_map_mut()
        .unwrap()
        .push((Value::from("k"), Value::Nil));
    assert_eq!(value.to_string(), r#"{"k": null}"#);
    assert_eq!(Value::Nil.as_array_mut(), None);
    assert_eq!(Value::Nil.as_map_mut(), None);
}

#[test]
fn into_and_take() {
    assert_eq!(Value::from("s").into_string(), Ok(String::from("s")));
    assert_eq!(Value::from(1).into_string(), Err(Value::from(1)));
    assert_eq!(Value::Bin(vec![1]).into_bin(), Ok(vec![1]));
    assert_eq!(Value::from("s").into_bin(), Err(Value::from("s")));
    assert_eq!(
        Value::Array(vec![Value::Nil]).into_array(),
        Ok(vec![Value::Nil])
    );
    assert_eq!(Value::Map(vec![]).into_array(), Err(Value::Map(vec![])));
    assert_eq!(
        Value::Map(vec![(Value::Nil, Value::Nil)]).into_map(),
        Ok(vec![(Value::Nil, Value::Nil)])
    );
    assert_eq!(Value::Array(vec![]).into_map(), Err(Value::Array(vec![])));

    let mut value = Value::Array(vec![Value::from(1), Value::from("x")]);
    let taken = value.as_array_mut().unwrap()[1].take();
    assert_eq!(taken, Value::from("x"));
    assert_eq!(value.to_string(), "[1, null]");
    let whole = value.take();
    assert_eq!(whole.to_string(), "[1, null]");
    assert_eq!(value, Value::Nil);
}

#[test]
fn value_ref_borrows_from_the_input() {
    // ["hello", bin(0102), ext(7, 09)]
    let input = [
        0x93, 0xa5, b'h', b'e', b'l', b'l', b'o', 0xc4, 0x02, 0x01, 0x02, 0xd4, 0x07, 0x09,
    ];
    let value = ValueRef::from_slice(&input).unwrap();
    let ValueRef::Array(items) = &value else {
        panic!("not an array: {value:?}");
    };
    let ValueRef::Str(s) = &items[0] else {
        panic!("not a str: {:?}", items[0]);
    };
    assert!(std::ptr::eq(s.as_bytes(), &input[2..7]));
    let ValueRef::Bin(b) = &items[1] else {
        panic!("not a bin: {:?}", items[1]);
    };
    assert!(std::ptr::eq(*b, &input[9..11]));
    let ValueRef::Ext(7, data) = &items[2] else {
        panic!("not an ext 7: {:?}", items[2]);
    };
    assert!(std::ptr::eq(*data, &input[13..14]));

    // The borrow is of the input, not of the reader or the value.
    let borrowed: &str = {
        let mut reader = Reader::new(&input[1..7]);
        let value = ValueRef::decode(&mut reader).unwrap();
        match value {
            ValueRef::Str(s) => s,
            ref other => panic!("not a str: {other:?}"),
        }
    };
    assert!(std::ptr::eq(borrowed.as_bytes(), &input[2..7]));

    let mut out = Vec::new();
    value.encode(&mut out).unwrap();
    assert_eq!(out, input);
}

#[test]
fn value_ref_and_value_convert_both_ways() {
    let owned = Value::Map(vec![
        (Value::from("key"), Value::Bin(vec![1, 2, 3])),
        (Value::from(-1), Value::Ext(2, vec![9])),
        (
            Value::Array(vec![Value::F32(1.5), Value::F64(2.5)]),
            Value::Bool(false),
        ),
    ]);
    let borrowed = owned.as_value_ref();
    assert_eq!(borrowed, ValueRef::from(&owned));
    // Borrowing from a Value points into its strings and buffers.
    let ValueRef::Map(pairs) = &borrowed else {
        panic!("not a map: {borrowed:?}");
    };
    let (ValueRef::Str(key), ValueRef::Bin(bin)) = &pairs[0] else {
        panic!("wrong first pair: {:?}", pairs[0]);
    };
    assert!(std::ptr::eq(
        *key,
        owned.as_map().unwrap()[0].0.as_str().unwrap()
    ));
    assert!(std::ptr::eq(*bin, owned["key"].as_bin().unwrap()));

    assert_eq!(borrowed.to_owned_value(), owned);
    assert_eq!(Value::from(&borrowed), owned);
    assert_eq!(Value::from(borrowed.clone()), owned);
    let mut out = Vec::new();
    borrowed.encode(&mut out).unwrap();
    assert_eq!(out, owned.to_vec().unwrap());
    assert_eq!(ValueRef::from_slice(&out), Ok(borrowed));
}

#[test]
fn depth_limit() {
    let limits = Limits::default().max_depth(2);
    let kind = ErrorKind::DepthLimitExceeded { limit: 2 };
    check_accepted(&[0x91, 0x91, 0x01], limits); // [[1]]
    check_accepted(&[0x93, 0x91, 0x01, 0x91, 0x02, 0x90], limits); // [[1], [2], []]
    check_accepted(&[0x81, 0x01, 0x91, 0x01], limits); // {1: [1]}
    check_accepted(&[0x81, 0x91, 0x01, 0x80], limits); // {[1]: {}}
    check_rejected(
        &[0x91, 0x91, 0x91, 0x01], // [[[1]]]
        limits,
        kind,
        2,
        "nesting exceeds the depth limit of 2 at offset 2",
    );
    check_rejected(
        &[0x92, 0x90, 0x91, 0x90], // [[], [[]]]
        limits,
        kind,
        3,
        "nesting exceeds the depth limit of 2 at offset 3",
    );
    check_rejected(
        &[0x81, 0x01, 0x81, 0x02, 0x91, 0x03], // {1: {2: [3]}}
        limits,
        kind,
        4,
        "nesting exceeds the depth limit of 2 at offset 4",
    );
    check_rejected(
        &[0x81, 0x91, 0x91, 0x01, 0xc0], // {[[1]]: nil}
        limits,
        kind,
        2,
        "nesting exceeds the depth limit of 2 at offset 2",
    );

    let flat = Limits::default().max_depth(0);
    check_accepted(&[0x05], flat);
    check_rejected(
        &[0x90],
        flat,
        ErrorKind::DepthLimitExceeded { limit: 0 },
        0,
        "nesting exceeds the depth limit of 0 at offset 0",
    );
}

#[test]
fn default_depth_limit_is_128() {
    assert_eq!(Limits::default().depth(), 128);
    assert_eq!(Limits::DEFAULT_DEPTH, 128);
    assert_eq!(Reader::new(&[]).limits(), Limits::default());

    let ok = [vec![0x91; 128], vec![0x01]].concat();
    let value = Value::from_slice(&ok).unwrap();
    assert_eq!(value.to_vec().unwrap(), ok);
    assert!(ValueRef::from_slice(&ok).is_ok());

    let too_deep = [vec![0x91; 129], vec![0x01]].concat();
    let error = Error::new(ErrorKind::DepthLimitExceeded { limit: 128 }, 128);
    assert_eq!(Value::from_slice(&too_deep), Err(error));
    assert_eq!(ValueRef::from_slice(&too_deep), Err(error));

    // Maps count the same: {1: {1: ... 1}}.
    let maps = [[0x81, 0x01].repeat(128), vec![0x01]].concat();
    assert!(Value::from_slice(&maps).is_ok());
    let maps = [[0x81, 0x01].repeat(129), vec![0x01]].concat();
    assert_eq!(
        Value::from_slice(&maps),
        Err(Error::new(
            ErrorKind::DepthLimitExceeded { limit: 128 },
            256
        ))
    );
}

#[test]
fn value_limit() {
    let limits = Limits::default().max_values(3);
    let kind = ErrorKind::ValueLimitExceeded { limit: 3 };
    check_accepted(&[0x92, 0x01, 0x02], limits); // [1, 2]: 3 values
    check_accepted(&[0x81, 0x01, 0x02], limits); // {1: 2}: 3 values
                                                 // A container's elements count when its header is read: the error
                                                 // names the header that passes the limit.
    check_rejected(
        &[0x93, 0x01, 0x02, 0x03],
        limits,
        kind,
        0,
        "more values than the limit of 3 at offset 0",
    );
    check_rejected(
        &[0x91, 0x91, 0x91, 0x01],
        limits,
        kind,
        2,
        "more values than the limit of 3 at offset 2",
    );
    check_rejected(
        &[0x81, 0xa1, b'k', 0x92, 0x01, 0x02], // {"k": [1, 2]}
        limits,
        kind,
        3,
        "more values than the limit of 3 at offset 3",
    );
    check_accepted(&[0xc0], Limits::default().max_values(1));
    check_rejected(
        &[0xc0],
        Limits::default().max_values(0),
        ErrorKind::ValueLimitExceeded { limit: 0 },
        0,
        "more values than the limit of 0 at offset 0",
    );
    assert_eq!(Limits::default().values(), usize::MAX);
    assert_eq!(limits.values(), 3);
}

#[test]
fn size_limit() {
    let bytes = [0x94, 0x01, 0x02, 0x03, 0x04];
    check_accepted(&bytes, Limits::default().max_bytes(5));
    check_rejected(
        &bytes,
        Limits::default().max_bytes(4),
        ErrorKind::SizeLimitExceeded { limit: 4 },
        4,
        "input exceeds the size limit of 4 bytes at offset 4",
    );
    assert_eq!(Limits::default().bytes(), usize::MAX);
    assert_eq!(Limits::default().max_bytes(4).bytes(), 4);
}

#[test]
fn unlimited() {
    let limits = Limits::unlimited();
    assert_eq!(limits.depth(), usize::MAX);
    assert_eq!(limits.values(), usize::MAX);
    assert_eq!(limits.bytes(), usize::MAX);
    check_accepted(&[vec![0x91; 1000], vec![0xc0]].concat(), limits);
}

const DEEP: usize = 1_000_000;

/// `[[[...[nil]...]]]`, `DEEP` arrays deep.
fn deep_array() -> Value {
    let mut value = Value::Nil;
    for _ in 0..DEEP {
        value = Value::Array(vec![value]);
    }
    value
}

/// How many single-element arrays wrap the innermost value, counted
/// without recursion.
fn array_depth(mut value: &Value) -> usize {
    let mut depth = 0;
    while let Value::Array(items) = value {
        assert_eq!(items.len(), 1);
        value = &items[0];
        depth += 1;
    }
    assert_eq!(*value, Value::Nil);
    depth
}

#[test]
fn deep_values_drop_without_recursion() {
    drop(deep_array());

    // Nested through map keys and values too.
    let mut value = Value::Nil;
    for i in 0..DEEP {
        value = if i % 2 == 0 {
            Value::Map(vec![(value, Value::Nil)])
        } else {
            Value::Map(vec![(Value::from(i), value)])
        };
    }
    drop(value);

    let bytes = [vec![0x91; DEEP], vec![0xc0]].concat();
    let borrowed = ValueRef::decode(&mut Reader::with_limits(&bytes, Limits::unlimited()).unwrap());
    drop(borrowed.unwrap());
}

#[test]
fn deep_values_encode_display_and_decode_without_recursion() {
    let value = deep_array();
    let bytes = value.to_vec().unwrap();
    assert_eq!(bytes.len(), DEEP + 1);
    assert!(bytes[..DEEP].iter().all(|&b| b == 0x91));
    assert_eq!(bytes[DEEP], 0xc0);

    let text = value.to_string();
    assert_eq!(text.len(), 2 * DEEP + 4);
    assert!(text.starts_with("[[[[") && text.ends_with("]]]]"));
    assert_eq!(&text[DEEP..DEEP + 4], "null");
    assert_eq!(
        text,
        ["[".repeat(DEEP), "null".into(), "]".repeat(DEEP)].concat()
    );

    let decoded = decode_with(&bytes, Limits::unlimited()).unwrap();
    assert_eq!(array_depth(&decoded), DEEP);
    assert_eq!(decoded.to_vec().unwrap(), bytes);

    let borrowed = decode_ref_with(&bytes, Limits::unlimited()).unwrap();
    assert_eq!(borrowed.to_string(), text);
    let mut out = Vec::new();
    borrowed.encode(&mut out).unwrap();
    assert_eq!(out, bytes);
    assert_eq!(array_depth(&borrowed.to_owned_value()), DEEP);
    assert_eq!(value.as_value_ref().to_string(), text);

    // The default limits still stop it.
    assert_eq!(
        Value::from_slice(&bytes),
        Err(Error::new(
            ErrorKind::DepthLimitExceeded { limit: 128 },
            128
        ))
    );
}

#[test]
fn deep_maps_round_trip_without_recursion() {
    // {{...{nil: nil}...: nil}: nil}: nested through the keys.
    let bytes = [vec![0x81; DEEP], vec![0xc0; DEEP + 1]].concat();
    let value = decode_with(&bytes, Limits::unlimited()).unwrap();
    assert_eq!(value.to_vec().unwrap(), bytes);
    let text = value.to_string();
    let expected = [
        "{".repeat(DEEP),
        "null: null}".into(),
        ": null}".repeat(DEEP - 1),
    ];
    assert_eq!(text, expected.concat());
}

#[test]
fn skip_a_million_deep() {
    let arrays = [vec![0x91; DEEP], vec![0xc0]].concat();
    let maps_by_value = [[0x81, 0x01].repeat(DEEP), vec![0xc0]].concat();
    let maps_by_key = [vec![0x81; DEEP], vec![0xc0; DEEP + 1]].concat();
    for bytes in [arrays, maps_by_value, maps_by_key] {
        let input = [&bytes[..], &[0x2a]].concat();
        let mut reader = Reader::new(&input);
        assert_eq!(reader.skip(), Ok(()));
        assert_eq!(reader.position(), bytes.len());
        assert_eq!(reader.read_int::<u8>(), Ok(42));
        // One byte short is the end of input, not a stack overflow.
        let short = &bytes[..bytes.len() - 1];
        assert_eq!(
            Reader::new(short).skip(),
            Err(Error::new(ErrorKind::UnexpectedEof, short.len()))
        );
    }
}
