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
    let ints = msgpack_test_support::INTEGER_EDGES
        .into_iter()
        .filter_map(|n| i64::try_from(n).ok());
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
/// byte to spare, an `IoWriter` over a `Vec` and over another
/// `io::Write`, and the `&mut Vec` that a sequence of unknown length
/// buffers its elements in.
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

    // An `io::Write` that is not a vector takes the writer's plain path.
    let mut cursor = Serializer::new(IoWriter::new(std::io::Cursor::new(Vec::new())));
    value.serialize(&mut cursor).unwrap();
    assert_eq!(
        cursor.into_inner().into_inner().into_inner(),
        bytes,
        "IoWriter over a Cursor"
    );

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
    // The serializer writes a fixstr or str 8 header inline and the
    // others out of line: through every writer, both ways.
    let headers: [(usize, &[u8]); 11] = [
        (0, &[0xa0]),
        (31, &[0xbf]),
        (32, &[0xd9, 32]),
        (33, &[0xd9, 33]),
        (64, &[0xd9, 64]),
        (65, &[0xd9, 65]),
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

// ------------------------------------------------ migrating from rmp-serde

#[test]
fn a_serializer_over_any_io_write() {
    use std::io::{BufWriter, Cursor, Write};

    use msgpack_serde::{Config, Serializer};

    let account = account(all_statuses());
    // rmp-serde's default is compact; `with_struct_map` is named.
    let mut rmp_compact = Vec::new();
    account
        .serialize(&mut rmp_serde::Serializer::new(&mut rmp_compact))
        .unwrap();
    let mut rmp_named = Vec::new();
    account
        .serialize(&mut rmp_serde::Serializer::new(&mut rmp_named).with_struct_map())
        .unwrap();

    // A `&mut dyn Write`.
    let mut out = Vec::new();
    let writer: &mut dyn Write = &mut out;
    let mut serializer = Serializer::from_writer_with_config(writer, Config::compact());
    account.serialize(&mut serializer).unwrap();
    assert_eq!(out, rmp_compact);

    // `Serializer::new` takes a `&mut dyn Write` or a `Box<dyn Write>`
    // as it is, as rmp-serde's does.
    let mut out = Vec::new();
    let writer: &mut dyn Write = &mut out;
    account.serialize(&mut Serializer::new(writer)).unwrap();
    assert_eq!(out, rmp_named);
    let boxed: Box<dyn Write + Send> = Box::new(Vec::new());
    let mut serializer = Serializer::with_config(boxed, Config::compact());
    account.serialize(&mut serializer).unwrap();

    // A writer of a type generic code knows only as `io::Write`.
    fn save<W: Write, T: Serialize>(writer: W, value: &T, config: Config) -> W {
        let mut serializer = Serializer::from_writer_with_config(writer, config);
        value.serialize(&mut serializer).unwrap();
        serializer.into_writer()
    }
    let cursor = save(Cursor::new(Vec::new()), &account, Config::named());
    assert_eq!(cursor.into_inner(), rmp_named);
    let buffered = save(BufWriter::new(Vec::new()), &account, Config::compact());
    assert_eq!(buffered.into_inner().unwrap(), rmp_compact);
    assert_eq!(
        save(Vec::new(), &account, Config::named()),
        msgpack_serde::to_vec(&account).unwrap()
    );

    // The fast path appends to a `Vec` in place, as rmp-serde's does.
    let mut out = vec![0xc0];
    account
        .serialize(&mut Serializer::with_config(&mut out, Config::compact()))
        .unwrap();
    assert_eq!(out, [&[0xc0][..], &rmp_compact].concat());
}

#[test]
fn to_writer_appends_and_writes_once() {
    use std::io::{self, Write};

    use msgpack_serde::Config;

    let account = account(all_statuses());
    let mut out = vec![0xc0];
    msgpack_serde::to_writer(&mut out, &account).unwrap();
    msgpack_serde::to_writer_compact(&mut out, &account).unwrap();
    let config = Config::compact().variants_as_indices(true);
    msgpack_serde::to_writer_with_config(&mut out, &Status::Active, config).unwrap();
    let expected = [
        &[0xc0][..],
        &rmp_serde::to_vec_named(&account).unwrap(),
        &rmp_serde::to_vec(&account).unwrap(),
        &[0x00],
    ]
    .concat();
    assert_eq!(out, expected);

    // One `write` call per value, however many parts it has.
    struct Counting(Vec<usize>);
    impl Write for Counting {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.push(bytes.len());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut counting = Counting(Vec::new());
    msgpack_serde::to_writer(&mut counting, &account).unwrap();
    assert_eq!(
        counting.0,
        [rmp_serde::to_vec_named(&account).unwrap().len()]
    );

    // A value whose `Serialize` calls `to_writer` itself.
    struct Nested(u8);
    impl Serialize for Nested {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut inner = Vec::new();
            msgpack_serde::to_writer(&mut inner, &self.0).map_err(serde::ser::Error::custom)?;
            s.serialize_bytes(&inner)
        }
    }
    let mut out = Vec::new();
    msgpack_serde::to_writer(&mut out, &[Nested(1), Nested(2)]).unwrap();
    assert_eq!(out, [0x92, 0xc4, 0x01, 0x01, 0xc4, 0x01, 0x02]);

    // A large value, then a small one: the buffer starts empty each time.
    let big = vec![7u8; 100_000];
    msgpack_serde::to_writer(io::sink(), &big).unwrap();
    let mut out = Vec::new();
    msgpack_serde::to_writer(&mut out, &1u8).unwrap();
    assert_eq!(out, [0x01]);
}

#[test]
fn deserializer_accessors_and_into_iter() {
    use msgpack_serde::{Deserializer, Limits, Value};
    use std::io::Read;

    // rmp-serde: `Deserializer::new(reader)`, `get_ref`, `get_mut`,
    // `into_inner`, `position`; ours: `from_reader`, the same three and
    // `byte_offset`.
    let bytes = [0x01, 0x02, b'!', 0x03, 0x04];
    let mut de = Deserializer::from_reader(&bytes[..]);
    assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    assert_eq!(de.byte_offset(), 1);
    assert_eq!(*de.get_ref(), [0x02, b'!', 0x03, 0x04]);
    assert_eq!(u8::deserialize(&mut de).unwrap(), 2);
    let mut bang = [0u8];
    de.get_mut().read_exact(&mut bang).unwrap();
    assert_eq!(bang, *b"!");
    let rest: Vec<u8> = de.into_iter().collect::<Result<_, _>>().unwrap();
    assert_eq!(rest, [3, 4]);

    let de = Deserializer::from_reader(&bytes[..]);
    assert_eq!(de.into_inner(), bytes);

    // From a slice.
    let bytes = [0x01, 0x02, 0xa1, b'x'];
    let mut de = Deserializer::from_slice(&bytes);
    assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    assert_eq!(de.get_ref(), bytes);
    assert_eq!(de.byte_offset(), 1);
    let mut values = de.into_iter::<u8>();
    assert_eq!(values.next().unwrap().unwrap(), 2);
    assert_eq!(
        values.next().unwrap().unwrap_err().to_string(),
        "invalid type: string \"x\", expected u8 at offset 2"
    );
    assert_eq!(Deserializer::from_slice(&bytes).into_inner(), bytes);

    // The iterator keeps the deserializer's limits and settings.
    let nested = [0x91, 0x91, 0xc0];
    let limits = Limits::default().max_depth(1);
    let mut values = Deserializer::from_slice(&nested)
        .with_limits(limits)
        .into_iter::<Value>();
    assert_eq!(
        values.next().unwrap().unwrap_err().to_string(),
        "nesting exceeds the depth limit of 1 at offset 1"
    );
    let text = msgpack_serde::to_vec_with_config(
        &std::net::Ipv4Addr::LOCALHOST,
        msgpack_serde::Config::named().human_readable(true),
    )
    .unwrap();
    let mut ips = Deserializer::from_reader(&text[..])
        .human_readable(true)
        .into_iter::<std::net::Ipv4Addr>();
    assert_eq!(ips.next().unwrap().unwrap(), std::net::Ipv4Addr::LOCALHOST);
    assert!(ips.next().is_none());
}

#[test]
fn a_str_that_is_not_utf8_reads_into_bytes_targets() {
    use serde_bytes::ByteBuf;

    // The old "raw" type: a str holding any bytes.
    let raw = [0xa3, b'a', 0xff, b'b'];
    assert_eq!(
        msgpack_serde::from_slice::<ByteBuf>(&raw).unwrap(),
        ByteBuf::from(vec![b'a', 0xff, b'b'])
    );
    assert_eq!(
        msgpack_serde::from_reader::<_, ByteBuf>(&raw[..]).unwrap(),
        ByteBuf::from(vec![b'a', 0xff, b'b'])
    );
    #[derive(Deserialize, PartialEq, Debug)]
    struct Blob<'a> {
        #[serde(with = "serde_bytes")]
        owned: Vec<u8>,
        #[serde(borrow, with = "serde_bytes")]
        borrowed: &'a [u8],
    }
    let blob = [&[0x92][..], &raw, &raw].concat();
    let read: Blob<'_> = msgpack_serde::from_slice(&blob).unwrap();
    assert_eq!(read.owned, b"a\xffb");
    assert_eq!(read.borrowed, b"a\xffb");
    assert_eq!(read.borrowed.as_ptr(), blob[6..].as_ptr());
    // rmp-serde reads it the same way.
    assert_eq!(
        rmp_serde::from_slice::<ByteBuf>(&raw).unwrap().as_slice(),
        b"a\xffb"
    );
    // Valid text into a bytes target, as before.
    assert_eq!(
        msgpack_serde::from_slice::<ByteBuf>(b"\xa2hi").unwrap(),
        ByteBuf::from(b"hi".to_vec())
    );

    // Into a string it stays an error, with the offset.
    let error = msgpack_serde::from_slice::<String>(&raw).unwrap_err();
    assert_eq!(error.to_string(), "invalid UTF-8 in string at offset 0");
    let error =
        msgpack_serde::from_slice::<(u8, String)>(&[&[0x92, 0x01][..], &raw].concat()).unwrap_err();
    assert_eq!(error.to_string(), "invalid UTF-8 in string at offset 2");
    let error = msgpack_serde::from_slice::<Value>(&raw).unwrap_err();
    assert_eq!(error.to_string(), "invalid UTF-8 in string at offset 0");
}
