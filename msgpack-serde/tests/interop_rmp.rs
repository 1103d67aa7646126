//! Interop with rmp-serde 1.3, the MessagePack serde crate most Rust peers
//! use.
//!
//! What holds, and is asserted below:
//! - Named mode: `rmp_serde::to_vec_named` and our `to_vec` write the same
//!   bytes for structs, maps, sequences and every enum variant kind (both
//!   write unit variants as their name and other variants as
//!   `{name: payload}`), and each side reads the other's.
//! - Compact mode: `rmp_serde::to_vec` and our `to_vec_compact` write the
//!   same bytes: structs as arrays, variants by name (`"Active"`,
//!   `{"Moved": [1, 2]}`). With `Config::variants_as_indices(true)` we
//!   write indices (`0`, `{2: [1, 2]}`), which rmp-serde reads too.
//! - Extensions (`_ExtStruct`, `rmp_serde::MSGPACK_EXT_STRUCT_NAME`) and
//!   so `Ext`, `Timestamp` and `msgpack_serde::timestamp` travel both ways.
//!
//! Differences, not asserted as interop:
//! - rmp-serde writes a unit struct as `[]` (0x90); we write nil. rmp-serde
//!   reads our nil, but we do not read its `[]` as a unit struct.
//! - rmp-serde writes `i128`/`u128` as 16 bytes of bin; we write an
//!   integer when it fits in 64 bits. rmp-serde reads our integers, but we
//!   do not read its bin form.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use msgpack_serde::{msgpack, Ext, Timestamp, Value};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Account {
    id: u64,
    owner: String,
    balance: i64,
    rate: f64,
    ratio: f32,
    verified: bool,
    nickname: Option<String>,
    tags: Vec<String>,
    limits: BTreeMap<String, u32>,
    history: Vec<Status>,
    contact: Contact,
    #[serde(with = "serde_bytes")]
    avatar: Vec<u8>,
    initial: char,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Contact {
    email: String,
    phone: Option<String>,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
enum Status {
    Active,
    Suspended(String),
    Moved(u32, u32),
    Closed { reason: String, code: i16 },
}

/// rmp-serde's way to spell an extension.
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(rename = "_ExtStruct")]
struct RmpExt((i8, serde_bytes::ByteBuf));

fn account(history: Vec<Status>) -> Account {
    Account {
        id: 1 << 40,
        owner: "Ada Lovelace".into(),
        balance: -12_345,
        rate: 0.035,
        ratio: 0.5,
        verified: true,
        nickname: None,
        tags: vec!["gold".into(), "eu".into()],
        limits: BTreeMap::from([("daily".to_string(), 500), ("monthly".to_string(), 70_000)]),
        history,
        contact: Contact {
            email: "ada@example.com".into(),
            phone: Some("+44 20 7946 0000".into()),
        },
        avatar: vec![0x89, b'P', b'N', b'G', 0, 255],
        initial: 'λ',
    }
}

fn all_statuses() -> Vec<Status> {
    vec![
        Status::Active,
        Status::Suspended("fraud check".into()),
        Status::Moved(3, 300),
        Status::Closed {
            reason: "requested".into(),
            code: -2,
        },
    ]
}

/// Each side reads bytes from the other, in every combination.
#[track_caller]
fn cross_decode<T>(value: &T)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let rmp_named = rmp_serde::to_vec_named(value).unwrap();
    let rmp_compact = rmp_serde::to_vec(value).unwrap();
    let ours_named = msgpack_serde::to_vec(value).unwrap();
    let ours_compact = msgpack_serde::to_vec_compact(value).unwrap();
    for bytes in [&rmp_named, &rmp_compact] {
        assert_eq!(&msgpack_serde::from_slice::<T>(bytes).unwrap(), value);
        assert_eq!(
            &msgpack_serde::from_reader::<_, T>(&bytes[..]).unwrap(),
            value
        );
    }
    for bytes in [&ours_named, &ours_compact] {
        assert_eq!(&rmp_serde::from_slice::<T>(bytes).unwrap(), value);
    }
}

#[test]
fn named_mode_is_byte_identical() {
    for history in [vec![], all_statuses()] {
        let account = account(history);
        assert_eq!(
            msgpack_serde::to_vec(&account).unwrap(),
            rmp_serde::to_vec_named(&account).unwrap()
        );
        cross_decode(&account);
    }
}

#[test]
fn compact_structs_are_byte_identical_without_enums() {
    // No enum inside: rmp-serde's `to_vec` is our `to_vec_compact`.
    let account = account(vec![]);
    let ours = msgpack_serde::to_vec_compact(&account).unwrap();
    assert_eq!(ours, rmp_serde::to_vec(&account).unwrap());
    assert_eq!(ours[0], 0x9d); // an array of 13 fields
    cross_decode(&account);
}

#[test]
fn compact_enums_are_byte_identical() {
    // (value, rmp_serde::to_vec and our to_vec_compact, with variants_as_indices(true))
    let cases: [(Status, &[u8], &[u8]); 4] = [
        (Status::Active, b"\xa6Active", b"\x00"),
        (
            Status::Suspended("x".into()),
            b"\x81\xa9Suspended\xa1x",
            b"\x81\x01\xa1x",
        ),
        (
            Status::Moved(1, 2),
            b"\x81\xa5Moved\x92\x01\x02",
            b"\x81\x02\x92\x01\x02",
        ),
        (
            Status::Closed {
                reason: "r".into(),
                code: -3,
            },
            b"\x81\xa6Closed\x92\xa1r\xfd",
            b"\x81\x03\x92\xa1r\xfd",
        ),
    ];
    let by_index = msgpack_serde::Config::compact().variants_as_indices(true);
    for (status, bytes, index_bytes) in &cases {
        assert_eq!(rmp_serde::to_vec(status).unwrap(), *bytes);
        assert_eq!(msgpack_serde::to_vec_compact(status).unwrap(), *bytes);
        // Named mode agrees.
        assert_eq!(
            msgpack_serde::to_vec(status).unwrap(),
            rmp_serde::to_vec_named(status).unwrap()
        );
        cross_decode(status);
        // Indices, when asked for: rmp-serde reads them too.
        let ours = msgpack_serde::to_vec_with_config(status, by_index).unwrap();
        assert_eq!(ours, *index_bytes);
        assert_eq!(&rmp_serde::from_slice::<Status>(&ours).unwrap(), status);
        assert_eq!(&msgpack_serde::from_slice::<Status>(&ours).unwrap(), status);
    }

    // In a struct: the same bytes.
    let account = account(all_statuses());
    let ours = msgpack_serde::to_vec_compact(&account).unwrap();
    assert_eq!(ours, rmp_serde::to_vec(&account).unwrap());
    cross_decode(&account);
}

#[test]
fn unit_structs_and_i128_read_by_rmp_serde() {
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Unit;

    let ours = msgpack_serde::to_vec(&Unit).unwrap();
    assert_eq!(ours, [0xc0]);
    assert_eq!(rmp_serde::to_vec(&Unit).unwrap(), [0x90]);
    assert_eq!(rmp_serde::from_slice::<Unit>(&ours).unwrap(), Unit);

    for n in [0i128, -1, i64::MIN as i128, u64::MAX as i128] {
        let ours = msgpack_serde::to_vec(&n).unwrap();
        assert_eq!(rmp_serde::from_slice::<i128>(&ours).unwrap(), n);
    }
    let ours = msgpack_serde::to_vec(&(u64::MAX as u128)).unwrap();
    assert_eq!(
        rmp_serde::from_slice::<u128>(&ours).unwrap(),
        u64::MAX as u128
    );
    assert_eq!(rmp_serde::to_vec(&5i128).unwrap()[..2], [0xc4, 0x10]);
}

#[test]
fn extensions_both_ways() {
    assert_eq!(rmp_serde::MSGPACK_EXT_STRUCT_NAME, "_ExtStruct");

    // Ours into rmp-serde's `_ExtStruct`.
    let ext = Ext::new(7, vec![1, 2]).unwrap();
    let ours = msgpack_serde::to_vec(&ext).unwrap();
    assert_eq!(ours, [0xd5, 0x07, 0x01, 0x02]);
    assert_eq!(
        rmp_serde::from_slice::<RmpExt>(&ours).unwrap(),
        RmpExt((7, serde_bytes::ByteBuf::from(vec![1, 2])))
    );
    // Our types through rmp-serde's serializer give the same bytes.
    assert_eq!(rmp_serde::to_vec(&ext).unwrap(), ours);
    assert_eq!(rmp_serde::from_slice::<Ext>(&ours).unwrap(), ext);

    // rmp-serde's `_ExtStruct` into ours.
    let theirs = rmp_serde::to_vec(&RmpExt((42, serde_bytes::ByteBuf::from(vec![9; 3])))).unwrap();
    assert_eq!(theirs, [0xc7, 0x03, 42, 9, 9, 9]);
    assert_eq!(
        msgpack_serde::from_slice::<Ext>(&theirs).unwrap(),
        Ext::new(42, vec![9; 3]).unwrap()
    );
    assert_eq!(
        msgpack_serde::from_slice::<Value>(&theirs).unwrap(),
        Value::Ext(42, vec![9; 3])
    );
}

#[test]
fn timestamps_both_ways() {
    let cases = [
        (Timestamp::from_seconds(1), &[0xd6, 0xff, 0, 0, 0, 1][..]),
        (
            Timestamp::new(1, 500_000_000).unwrap(),
            &[0xd7, 0xff, 0x77, 0x35, 0x94, 0, 0, 0, 0, 1][..],
        ),
        (
            Timestamp::new(-1, 0).unwrap(),
            &[
                0xc7, 0x0c, 0xff, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            ][..],
        ),
    ];
    for (timestamp, bytes) in cases {
        assert_eq!(msgpack_serde::to_vec(&timestamp).unwrap(), bytes);
        assert_eq!(rmp_serde::to_vec(&timestamp).unwrap(), bytes);
        let RmpExt((ext_type, data)) = rmp_serde::from_slice(bytes).unwrap();
        assert_eq!(ext_type, -1);
        assert_eq!(data.as_slice(), &bytes[bytes.len() - data.len()..]);
        let theirs = rmp_serde::to_vec(&RmpExt((ext_type, data))).unwrap();
        assert_eq!(theirs, bytes);
        assert_eq!(
            msgpack_serde::from_slice::<Timestamp>(&theirs).unwrap(),
            timestamp
        );
        assert_eq!(
            rmp_serde::from_slice::<Timestamp>(bytes).unwrap(),
            timestamp
        );
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Login {
        user: String,
        #[serde(with = "msgpack_serde::timestamp")]
        at: SystemTime,
    }
    let login = Login {
        user: "ada".into(),
        at: UNIX_EPOCH + Duration::new(1_700_000_000, 250),
    };
    assert_eq!(
        msgpack_serde::to_vec(&login).unwrap(),
        rmp_serde::to_vec_named(&login).unwrap()
    );
    assert_eq!(
        msgpack_serde::to_vec_compact(&login).unwrap(),
        rmp_serde::to_vec(&login).unwrap()
    );
    cross_decode(&login);
}

#[test]
fn values_are_byte_identical() {
    let value = msgpack!({
        1: [1.5f32, -3, "s", null, true],
        "bin": Value::Bin(vec![1, 2]),
        "ext": Value::Ext(5, vec![1, 2, 3, 4]),
        "big": u64::MAX,
        "neg": i64::MIN,
        "f64": 0.1,
    });
    let ours = msgpack_serde::to_vec(&value).unwrap();
    assert_eq!(ours, value.to_vec().unwrap());
    assert_eq!(rmp_serde::to_vec(&value).unwrap(), ours);
    assert_eq!(rmp_serde::from_slice::<Value>(&ours).unwrap(), value);
    assert_eq!(msgpack_serde::from_slice::<Value>(&ours).unwrap(), value);
}

#[test]
fn numbers_agree() {
    // Minimal integer widths, both signs, at every boundary.
    let ints: [i64; 16] = [
        0,
        127,
        128,
        255,
        256,
        65_535,
        65_536,
        u32::MAX as i64,
        u32::MAX as i64 + 1,
        i64::MAX,
        -1,
        -32,
        -33,
        -129,
        -32_769,
        i64::MIN,
    ];
    for n in ints {
        let ours = msgpack_serde::to_vec(&n).unwrap();
        assert_eq!(ours, rmp_serde::to_vec(&n).unwrap(), "{n}");
        assert_eq!(rmp_serde::from_slice::<i64>(&ours).unwrap(), n);
    }
    for x in [0.0f64, -0.0, 1.5, f64::MAX, f64::INFINITY] {
        assert_eq!(
            msgpack_serde::to_vec(&x).unwrap(),
            rmp_serde::to_vec(&x).unwrap()
        );
    }
    // Both refuse 300 for a u8.
    let n300 = [0xcd, 0x01, 0x2c];
    assert!(rmp_serde::from_slice::<u8>(&n300).is_err());
    assert_eq!(
        msgpack_serde::from_slice::<u8>(&n300)
            .unwrap_err()
            .to_string(),
        "invalid value: integer `300`, expected u8 at offset 0"
    );
}

/// `value`'s bytes in named mode, after checking that every writer the
/// serializer takes writes the same: a `Vec`, a `SliceWriter` with no
/// byte to spare, an `IoWriter`, and the `&mut Vec` that a sequence of
/// unknown length buffers its elements in.
fn through_every_writer<T: Serialize>(value: &T) -> Vec<u8> {
    use msgpack_serde::core::{IoWriter, SliceWriter};
    use msgpack_serde::Serializer;

    let bytes = msgpack_serde::to_vec(value).unwrap();

    let mut buf = vec![0u8; bytes.len()];
    let mut slice = Serializer::new(SliceWriter::new(&mut buf));
    value.serialize(&mut slice).unwrap();
    assert_eq!(slice.into_inner().written(), bytes, "SliceWriter");

    let mut io = Serializer::new(IoWriter::new(Vec::new()));
    value.serialize(&mut io).unwrap();
    assert_eq!(io.into_inner().into_inner(), bytes, "IoWriter");

    // A filtered iterator has no exact length: its elements are
    // serialized into a buffer, behind the array header written last.
    let mut buffered = Serializer::new(Vec::new());
    serde::Serializer::collect_seq(&mut buffered, std::iter::once(value).filter(|_| true)).unwrap();
    assert_eq!(
        buffered.into_inner(),
        [&[0x91], &bytes[..]].concat(),
        "buffered"
    );

    bytes
}

#[test]
fn string_headers_agree_at_every_width() {
    // The serializer writes a fixstr header inline and the others out of
    // line: through every writer, both ways.
    let headers: [(usize, &[u8]); 8] = [
        (0, &[0xa0]),
        (31, &[0xbf]),
        (32, &[0xd9, 32]),
        (255, &[0xd9, 0xff]),
        (256, &[0xda, 0x01, 0x00]),
        (65_535, &[0xda, 0xff, 0xff]),
        (65_536, &[0xdb, 0x00, 0x01, 0x00, 0x00]),
        (70_000, &[0xdb, 0x00, 0x01, 0x11, 0x70]),
    ];
    for (len, header) in headers {
        let text = "é".repeat(len / 2) + &"a".repeat(len % 2);
        let expected = [header, text.as_bytes()].concat();
        let ours = msgpack_serde::to_vec(&text).unwrap();
        assert_eq!(ours, expected, "{len}");
        assert_eq!(ours, rmp_serde::to_vec(&text).unwrap(), "{len}");

        assert_eq!(through_every_writer(&text), expected, "{len}");

        assert_eq!(msgpack_serde::from_slice::<String>(&ours).unwrap(), text);
        assert_eq!(rmp_serde::from_slice::<String>(&ours).unwrap(), text);
    }
}

#[test]
fn field_names_agree_at_every_length() {
    // Names of up to 8 bytes (none included) go out with their header in
    // one nine-byte copy; longer ones in two writes; past 31 bytes as
    // str 8. Through every writer.
    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Names {
        #[serde(rename = "")]
        empty: u8,
        x: u8,
        eight_ch: u8,
        nine_char: u8,
        thirty_one_bytes_long_field_nam: u8,
        a_field_name_of_thirty_two_bytes: u8,
    }
    let value = Names {
        empty: 0,
        x: 1,
        eight_ch: 2,
        nine_char: 3,
        thirty_one_bytes_long_field_nam: 4,
        a_field_name_of_thirty_two_bytes: 5,
    };
    let mut expected = vec![0x86, 0xa0, 0x00, 0xa1, b'x', 0x01, 0xa8];
    expected.extend(b"eight_ch\x02\xa9nine_char\x03\xbf");
    expected.extend(b"thirty_one_bytes_long_field_nam\x04\xd9\x20");
    expected.extend(b"a_field_name_of_thirty_two_bytes\x05");
    let ours = msgpack_serde::to_vec(&value).unwrap();
    assert_eq!(ours, expected);
    assert_eq!(ours, rmp_serde::to_vec_named(&value).unwrap());

    assert_eq!(through_every_writer(&value), expected);

    assert_eq!(msgpack_serde::from_slice::<Names>(&ours).unwrap(), value);
    assert_eq!(rmp_serde::from_slice::<Names>(&ours).unwrap(), value);
}

#[test]
fn reads_rmp_serde_unit_and_128_bit_forms() {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Marker;

    let unit = rmp_serde::to_vec(&Marker).unwrap();
    assert_eq!(unit, [0x90]);
    assert_eq!(msgpack_serde::from_slice::<Marker>(&unit).unwrap(), Marker);
    assert_eq!(
        msgpack_serde::from_slice::<()>(&rmp_serde::to_vec(&()).unwrap()).unwrap(),
        ()
    );

    for n in [i128::MIN, -1, 0, 1 << 100, i128::MAX] {
        let bytes = rmp_serde::to_vec(&n).unwrap();
        assert_eq!(bytes[..2], [0xc4, 16]);
        assert_eq!(msgpack_serde::from_slice::<i128>(&bytes).unwrap(), n);
    }
    let big = rmp_serde::to_vec(&u128::MAX).unwrap();
    assert_eq!(msgpack_serde::from_slice::<u128>(&big).unwrap(), u128::MAX);
    // Our own forms still read: an integer that fits 64 bits.
    assert_eq!(msgpack_serde::from_slice::<i128>(&[0xff]).unwrap(), -1);
    let error = msgpack_serde::from_slice::<i128>(&[0xc4, 0x02, 0x00, 0x01]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid length 2, expected 16 bytes of a 128-bit integer at offset 0"
    );
}
