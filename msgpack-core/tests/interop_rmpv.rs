//! Cross-checks with `rmpv`, the value type of the `rmp` crates: our bytes
//! read with rmpv, rmpv's bytes read with us, and, both encoders writing
//! the smallest form, the same bytes.

use msgpack_core::{Timestamp, Value};

/// The rmpv value equal to `value`.
fn to_rmpv(value: &Value) -> rmpv::Value {
    match value {
        Value::Nil => rmpv::Value::Nil,
        Value::Bool(b) => rmpv::Value::Boolean(*b),
        Value::Int(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => rmpv::Value::from(u),
            (None, Some(i)) => rmpv::Value::from(i),
            (None, None) => unreachable!("an integer is either u64 or i64: {n}"),
        },
        Value::F32(x) => rmpv::Value::F32(*x),
        Value::F64(x) => rmpv::Value::F64(*x),
        Value::Str(s) => rmpv::Value::from(s.as_str()),
        Value::Bin(b) => rmpv::Value::Binary(b.clone()),
        Value::Array(items) => rmpv::Value::Array(items.iter().map(to_rmpv).collect()),
        Value::Map(pairs) => rmpv::Value::Map(
            pairs
                .iter()
                .map(|(k, v)| (to_rmpv(k), to_rmpv(v)))
                .collect(),
        ),
        Value::Ext(ty, data) => rmpv::Value::Ext(*ty, data.clone()),
    }
}

/// Asserts that rmpv reads our bytes for `value` as its equal, that we
/// read rmpv's bytes as `value`, and that the bytes are the same.
#[track_caller]
fn check(value: &Value) {
    let theirs_value = to_rmpv(value);
    let ours = value.to_vec().unwrap();
    let read_by_rmpv = rmpv::decode::read_value(&mut &ours[..]).unwrap();
    assert_eq!(read_by_rmpv, theirs_value, "rmpv reading our {value}");

    let mut theirs = Vec::new();
    rmpv::encode::write_value(&mut theirs, &theirs_value).unwrap();
    assert_eq!(
        Value::from_slice(&theirs).as_ref(),
        Ok(value),
        "reading rmpv's {value}"
    );
    assert_eq!(ours, theirs, "bytes of {value}");
}

/// Integers at and around every boundary between forms.
fn integers() -> Vec<Value> {
    let range = i128::from(i64::MIN)..=i128::from(u64::MAX);
    msgpack_test_support::INTEGER_EDGES
        .iter()
        .flat_map(|&edge| [edge - 1, edge, edge + 1])
        .filter(|n| range.contains(n))
        .map(msgpack_test_support::strategies::int_value)
        .collect()
}

#[test]
fn scalars() {
    check(&Value::Nil);
    check(&Value::Bool(false));
    check(&Value::Bool(true));
    for value in integers() {
        check(&value);
    }
}

#[test]
fn floats() {
    for x in [
        0.0f32,
        -0.0,
        1.5,
        -2.25,
        f32::MIN_POSITIVE,
        f32::MAX,
        f32::INFINITY,
    ] {
        check(&Value::F32(x));
    }
    for x in [
        0.0f64,
        -0.0,
        1.5,
        0.1,
        f64::MIN_POSITIVE,
        f64::MAX,
        f64::NEG_INFINITY,
    ] {
        check(&Value::F64(x));
    }
}

#[test]
fn strings_of_every_header_width() {
    for len in (0..=300).chain([65535, 65536, 70000]) {
        let s: String = (0..len)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        check(&Value::from(s));
    }
    check(&Value::from("é ü 😀 日本"));
}

#[test]
fn binary_of_every_header_width() {
    for len in (0..=300).chain([65535, 65536, 70000]) {
        check(&Value::Bin((0..len).map(|i| i as u8).collect()));
    }
}

#[test]
fn extensions_of_every_header_width() {
    for len in (0..=20).chain([255, 256, 65535, 65536]) {
        for ty in [0, 1, 127, -1, -128] {
            check(&Value::Ext(ty, vec![0xab; len]));
        }
    }
    check(&Value::from(Timestamp::from_seconds(1)));
    check(&Value::from(Timestamp::new(1 << 33, 5).unwrap()));
    check(&Value::from(Timestamp::new(-1, 5).unwrap()));
}

#[test]
fn arrays_of_every_header_width() {
    for len in [0, 1, 15, 16, 65535, 65536] {
        check(&Value::Array(
            (0..len).map(|i| Value::from(i % 300)).collect(),
        ));
    }
}

#[test]
fn maps_of_every_header_width() {
    for len in [0, 1, 15, 16, 65535, 65536] {
        check(&Value::Map(
            (0..len)
                .map(|i| (Value::from(i), Value::from(-(i as i64))))
                .collect(),
        ));
    }
}

#[test]
fn nested_values() {
    let value = Value::Map(vec![
        (Value::from("name"), Value::from("rmpv")),
        (
            Value::from(1),
            Value::Array(vec![
                Value::Nil,
                Value::Bool(true),
                Value::F32(0.5),
                Value::Bin(vec![1, 2, 3]),
                Value::Ext(7, vec![1; 9]),
            ]),
        ),
        (
            Value::from(-1),
            Value::Map(vec![(Value::from(2), Value::Map(vec![]))]),
        ),
        (
            Value::Array(vec![Value::from(1), Value::from(2)]),
            Value::from(u64::MAX),
        ),
        (Value::Nil, Value::Array(vec![Value::Array(vec![])])),
    ]);
    check(&value);

    // Deeper than a handful, within both default depth limits (128 here).
    let mut deep = Value::from(0);
    for i in 0..120 {
        deep = Value::Array(vec![Value::from(i), deep]);
    }
    check(&deep);
}

/// Forms rmpv never writes but reads, and so do we: both decoders agree.
#[test]
fn non_minimal_forms_read_the_same() {
    let table: [&[u8]; 8] = [
        &[0xcd, 0x00, 0x05],
        &[0xd0, 0x05],
        &[0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        &[0xd9, 0x01, b'a'],
        &[0xc6, 0x00, 0x00, 0x00, 0x01, 0x07],
        &[0xdc, 0x00, 0x01, 0xc0],
        &[0xdf, 0x00, 0x00, 0x00, 0x01, 0x01, 0x02],
        &[0xc7, 0x01, 0x05, 0xaa],
    ];
    for bytes in table {
        let ours = Value::from_slice(bytes).unwrap();
        let theirs = rmpv::decode::read_value(&mut &bytes[..]).unwrap();
        assert_eq!(to_rmpv(&ours), theirs, "{bytes:02x?}");
    }
}
