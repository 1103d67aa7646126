//! Integers with fewer than 9 bytes left from their marker on (a lone
//! integer, a message's last field), which the decoder reads form by form
//! out of line rather than in one 8-byte load: the same values and the
//! same errors as with bytes to spare after them, for every form and
//! every integer type, other values asked for as integers, and a clear
//! error for every integer cut short.

use msgpack_serde::from_slice;
use msgpack_test_support::INTEGER_EDGES;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// Every integer form, at its edges (fixints, int and uint 8 to 64, as
/// our encoder writes them), and forms wider than their value needs,
/// as other encoders may write them.
fn encoded_integers() -> Vec<Vec<u8>> {
    let values = INTEGER_EDGES.iter().chain(&[1_234_567_890, -1_234_567_890]);
    let smallest = values.map(|&value| {
        if value >= 0 {
            msgpack_serde::to_vec(&(value as u64)).unwrap()
        } else {
            msgpack_serde::to_vec(&(value as i64)).unwrap()
        }
    });
    let wide: [&[u8]; 8] = [
        &[0xcc, 0x05],
        &[0xcd, 0x00, 0x05],
        &[0xce, 0x00, 0x00, 0x00, 0x05],
        &[0xd0, 0x05],
        &[0xd1, 0x00, 0x05],
        &[0xd2, 0x00, 0x00, 0x00, 0x05],
        &[0xd1, 0xff, 0xfb],
        &[0xd2, 0xff, 0xff, 0xff, 0xfb],
    ];
    smallest.chain(wide.map(<[u8]>::to_vec)).collect()
}

/// Values other than integers, asked for as integers.
const NOT_INTEGERS: [&[u8]; 6] = [
    &[0xc0],
    &[0xc3],
    &[0xa1, b'x'],
    &[0xca, 0x3f, 0x80, 0x00, 0x00],
    &[0x90],
    &[0xc1],
];

/// `bytes` read alone as `T`, and as the first of two elements with a
/// 16-byte string after it: equal values, equal errors but for the
/// offset, one further on inside the array.
fn agree<T: DeserializeOwned + PartialEq + Debug>(bytes: &[u8]) {
    let alone = from_slice::<T>(bytes);
    let mut followed = vec![0x92];
    followed.extend_from_slice(bytes);
    followed.extend_from_slice(&msgpack_serde::to_vec("sixteen bytes...").unwrap());
    let with_room = from_slice::<(T, String)>(&followed).map(|(value, _)| value);
    match (alone, with_room) {
        (Ok(alone), Ok(with_room)) => assert_eq!(alone, with_room, "{bytes:02x?}"),
        (Err(alone), Err(with_room)) => assert_eq!(
            alone.to_string().replace("at offset 0", "at offset 1"),
            with_room.to_string(),
            "{bytes:02x?}"
        ),
        (alone, with_room) => panic!("{bytes:02x?}: {alone:?} alone, {with_room:?} with room"),
    }
}

#[test]
fn lone_integers_read_as_integers_with_room_after_them() {
    for bytes in encoded_integers() {
        agree::<i8>(&bytes);
        agree::<i16>(&bytes);
        agree::<i32>(&bytes);
        agree::<i64>(&bytes);
        agree::<u8>(&bytes);
        agree::<u16>(&bytes);
        agree::<u32>(&bytes);
        agree::<u64>(&bytes);
    }
}

#[test]
fn other_values_asked_for_as_integers_are_the_same_errors() {
    for bytes in NOT_INTEGERS {
        agree::<i8>(bytes);
        agree::<i64>(bytes);
        agree::<u16>(bytes);
        agree::<u64>(bytes);
    }
    assert_eq!(
        from_slice::<u32>(&[0xc0]).unwrap_err().to_string(),
        "invalid type: unit value, expected u32 at offset 0"
    );
}

#[test]
fn a_lone_integer_is_its_value() {
    assert_eq!(
        from_slice::<i64>(&[0xce, 0x49, 0x96, 0x02, 0xd2]).unwrap(),
        1_234_567_890
    );
    assert_eq!(from_slice::<u16>(&[0xcd, 0x01, 0x2c]).unwrap(), 300);
    assert_eq!(from_slice::<i8>(&[0xd0, 0x80]).unwrap(), -128);
    assert_eq!(
        from_slice::<u8>(&[0xcd, 0x01, 0x2c])
            .unwrap_err()
            .to_string(),
        "invalid value: integer `300`, expected u8 at offset 0"
    );
    assert_eq!(
        from_slice::<u32>(&[0xff]).unwrap_err().to_string(),
        "invalid value: integer `-1`, expected u32 at offset 0"
    );
}

/// Every integer cut at every byte: the end of the input, at the offset
/// where it ends, for every integer type.
#[test]
fn an_integer_cut_short_is_an_end_of_input() {
    for bytes in encoded_integers() {
        for cut in 1..bytes.len() {
            let expected = format!("unexpected end of input at offset {cut}");
            for error in [
                from_slice::<i8>(&bytes[..cut]).unwrap_err(),
                from_slice::<i64>(&bytes[..cut]).unwrap_err(),
                from_slice::<u16>(&bytes[..cut]).unwrap_err(),
                from_slice::<u64>(&bytes[..cut]).unwrap_err(),
            ] {
                assert_eq!(error.to_string(), expected, "{:02x?}", &bytes[..cut]);
            }
        }
    }
}
