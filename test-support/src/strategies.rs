//! proptest strategies for MessagePack: integers drawn often at the edges
//! between forms, any [`Value`], and bytes that look like MessagePack.
//!
//! ```
//! use msgpack_test_support::strategies::value;
//! use proptest::prelude::*;
//!
//! proptest!(|(value in value())| {
//!     let bytes = value.to_vec().unwrap();
//!     prop_assert_eq!(msgpack_core::Value::from_slice(&bytes), Ok(value));
//! });
//! ```

use msgpack_core::Value;
use proptest::collection::vec;
use proptest::prelude::*;

use crate::INTEGER_EDGES;

/// An integer of either family, over the whole range, with the
/// [`INTEGER_EDGES`] and the small numbers around the fixint forms drawn
/// often.
pub fn integer() -> impl Strategy<Value = i128> {
    prop_oneof![
        any::<u64>().prop_map(i128::from),
        any::<i64>().prop_map(i128::from),
        (-40i128..300),
        prop::sample::select(INTEGER_EDGES.to_vec()),
    ]
}

/// An integer as a [`Value`]: [`integer`], unsigned when it is not
/// negative.
pub fn integer_value() -> impl Strategy<Value = Value> {
    integer().prop_map(int_value)
}

/// `n` (within `i64::MIN..=u64::MAX`) as a [`Value`].
pub fn int_value(n: i128) -> Value {
    match u64::try_from(n) {
        Ok(u) => Value::from(u),
        Err(_) => Value::from(i64::try_from(n).expect("an integer of a MessagePack form")),
    }
}

/// Bytes of lengths around the str 8, bin 8 and fixext boundaries.
pub fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => vec(any::<u8>(), 0..40),
        1 => vec(any::<u8>(), 250..300),
    ]
}

/// Strings of any Unicode up to 40 characters, and of the lengths around
/// the fixstr (31) and str 8 (255) boundaries.
pub fn string() -> impl Strategy<Value = String> {
    prop_oneof![4 => "(?s).{0,40}", 1 => "[a-z]{28,40}", 1 => "[ -~]{250,300}"]
}

/// Any scalar: nil, booleans, integers, floats but NaN (which is not
/// equal to itself), strings, binary data and extensions of any type.
pub fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Nil),
        1 => any::<bool>().prop_map(Value::Bool),
        3 => integer_value(),
        1 => any::<f32>()
            .prop_filter("NaN", |x| !x.is_nan())
            .prop_map(Value::F32),
        1 => any::<f64>()
            .prop_filter("NaN", |x| !x.is_nan())
            .prop_map(Value::F64),
        2 => string().prop_map(Value::Str),
        1 => bytes().prop_map(Value::Bin),
        1 => (any::<i8>(), bytes()).prop_map(|(ty, data)| Value::Ext(ty, data)),
    ]
}

/// Any value: [`scalar`]s, and arrays and maps (with keys of any type) of
/// up to 20 elements nested up to 4 deep.
pub fn value() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 64, 20, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..20).prop_map(Value::Array),
            vec((inner.clone(), inner), 0..20).prop_map(Value::Map),
        ]
    })
}

/// Bytes that look like MessagePack more often than uniform noise does:
/// markers of every family, lengths and payload bytes, up to 512 of them.
pub fn noise() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        3 => any::<u8>(),
        1 => prop::sample::select(vec![
            0x00, 0x01, 0x7f, 0x80, 0x81, 0x8f, 0x90, 0x91, 0x9f, 0xa0, 0xa1, 0xbf, 0xc0, 0xc1,
            0xc4, 0xc7, 0xd4, 0xd6, 0xd7, 0xd9, 0xdc, 0xdd, 0xde, 0xdf, 0xff,
        ]),
    ];
    vec(byte, 0..512)
}
