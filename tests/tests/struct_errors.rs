//! A struct read from anything but an array or a map: the error its
//! visitor gives (serde's default for that kind of value), at the value's
//! offset, whether the struct is derived by `#[derive(MsgPack)]` or by
//! serde_derive, read from a slice, through `Deserializer` or from a
//! reader, and inside another value.

use msgpack_serde::{Deserializer, MsgPack};
use serde::Deserialize;

#[derive(MsgPack, Debug, PartialEq)]
struct Tagged {
    #[msgpack(tag = 1)]
    x: i32,
}

#[derive(Deserialize, Debug, PartialEq)]
struct Plain {
    x: i32,
}

#[derive(MsgPack, Debug, PartialEq)]
enum Shape {
    #[msgpack(tag = 1)]
    Circle {
        #[msgpack(tag = 1)]
        r: f64,
    },
}

/// Each kind of value that is not a container, and the words serde's
/// message has for it.
const NOT_CONTAINERS: &[(&[u8], &str)] = &[
    (&[0xc0], "unit value"),
    (&[0xc3], "boolean `true`"),
    (&[0x07], "integer `7`"),
    (&[0xd0, 0x80], "integer `-128`"),
    (&[0xca, 0x3f, 0xc0, 0, 0], "floating point `1.5`"),
    (
        &[0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0],
        "floating point `1.5`",
    ),
    (&[0xa1, b'x'], "string \"x\""),
    (&[0xc4, 0x01, 0xff], "byte array"),
    (&[0xd4, 0x05, 0x01], "newtype struct"),
];

fn messages<T: for<'de> Deserialize<'de> + std::fmt::Debug>(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (bytes, words) in NOT_CONTAINERS {
        let expected = format!("invalid type: {words}, expected {name} at offset 0");
        let slice = msgpack_serde::from_slice::<T>(bytes)
            .unwrap_err()
            .to_string();
        assert_eq!(slice, expected);
        let reader = msgpack_serde::from_reader::<_, T>(*bytes)
            .unwrap_err()
            .to_string();
        assert_eq!(reader, expected);
        let mut de = Deserializer::from_slice(bytes);
        let wrapped = T::deserialize(&mut de).unwrap_err().to_string();
        assert_eq!(wrapped, expected);
        // Inside an array, at offset 1.
        let mut nested = vec![0x91];
        nested.extend_from_slice(bytes);
        let inner = msgpack_serde::from_slice::<Vec<T>>(&nested)
            .unwrap_err()
            .to_string();
        assert_eq!(inner, expected.replace("offset 0", "offset 1"));
        out.push(slice);
    }
    out
}

#[test]
fn derived_and_serde_structs_refuse_every_other_value_alike() {
    let tagged = messages::<Tagged>("struct Tagged");
    let plain = messages::<Plain>("struct Plain");
    for (tagged, plain) in tagged.iter().zip(&plain) {
        assert_eq!(tagged.replace("Tagged", "Plain"), *plain);
    }
}

#[test]
fn a_struct_variant_refuses_every_other_value() {
    for (bytes, words) in NOT_CONTAINERS {
        let mut input = vec![0x81, 0x01];
        input.extend_from_slice(bytes);
        let error = msgpack_serde::from_slice::<Shape>(&input)
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            format!("invalid type: {words}, expected struct variant Shape::Circle at offset 2")
        );
    }
}

#[test]
fn containers_still_read() {
    assert_eq!(
        msgpack_serde::from_slice::<Tagged>(&[0x81, 0x01, 0x05]).unwrap(),
        Tagged { x: 5 }
    );
    assert_eq!(
        msgpack_serde::from_slice::<Tagged>(&[0x92, 0xc0, 0x05]).unwrap(),
        Tagged { x: 5 }
    );
    assert_eq!(
        msgpack_serde::from_slice::<Plain>(&[0x81, 0xa1, b'x', 0x05]).unwrap(),
        Plain { x: 5 }
    );
    assert_eq!(
        msgpack_serde::from_slice::<Plain>(&[0x91, 0x05]).unwrap(),
        Plain { x: 5 }
    );
}
