//! The timestamp extension (type -1): the exact bytes of each of its three
//! forms at their edges, what decoding rejects, and the conversions.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use msgpack_core::{
    encode, Error, ErrorKind, Marker, Reader, Timestamp, TimestampRangeError, Value,
    TIMESTAMP_EXT_TYPE,
};

/// Asserts that `(seconds, nanoseconds)` is written as exactly `bytes` in
/// the form `marker`, reads back, and is the same as a `Value`.
#[track_caller]
fn check(seconds: i64, nanoseconds: u32, marker: Marker, bytes: &[u8]) {
    let timestamp = Timestamp::new(seconds, nanoseconds).unwrap();
    let mut out = Vec::new();
    assert_eq!(encode::write_timestamp(&mut out, timestamp), Ok(marker));
    assert_eq!(out, bytes);

    let mut reader = Reader::new(bytes);
    assert_eq!(reader.read_timestamp(), Ok(timestamp));
    assert_eq!(reader.finish(), Ok(()));

    // The extension data is what follows the header and the type byte.
    let data_start = bytes.len() - timestamp.to_ext_data().len();
    assert_eq!(bytes[data_start - 1], TIMESTAMP_EXT_TYPE as u8);
    assert_eq!(timestamp.to_ext_data(), &bytes[data_start..]);
    assert_eq!(
        Timestamp::from_ext_data(&bytes[data_start..]),
        Some(timestamp)
    );

    let value = Value::from(timestamp);
    assert_eq!(
        value,
        Value::Ext(TIMESTAMP_EXT_TYPE, bytes[data_start..].to_vec())
    );
    assert_eq!(value.to_vec().unwrap(), bytes);
    assert_eq!(Value::from_slice(bytes), Ok(value.clone()));
    assert_eq!(value.as_timestamp(), Some(timestamp));

    for len in 0..bytes.len() {
        assert_eq!(
            Reader::new(&bytes[..len]).read_timestamp(),
            Err(Error::new(ErrorKind::UnexpectedEof, len)),
            "prefix {len}"
        );
    }
}

#[test]
fn timestamp_32_seconds_only() {
    check(0, 0, Marker::FixExt4, &[0xd6, 0xff, 0x00, 0x00, 0x00, 0x00]);
    check(1, 0, Marker::FixExt4, &[0xd6, 0xff, 0x00, 0x00, 0x00, 0x01]);
    check(
        u32::MAX as i64,
        0,
        Marker::FixExt4,
        &[0xd6, 0xff, 0xff, 0xff, 0xff, 0xff],
    );
}

#[test]
fn timestamp_64_seconds_past_32_bits() {
    check(
        1 << 32,
        0,
        Marker::FixExt8,
        &[0xd7, 0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00],
    );
    check(
        (1 << 34) - 1,
        0,
        Marker::FixExt8,
        &[0xd7, 0xff, 0x00, 0x00, 0x00, 0x03, 0xff, 0xff, 0xff, 0xff],
    );
}

#[test]
fn timestamp_64_nanoseconds_in_the_upper_30_bits() {
    check(
        0,
        1,
        Marker::FixExt8,
        &[0xd7, 0xff, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00],
    );
    check(
        1,
        1,
        Marker::FixExt8,
        &[0xd7, 0xff, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01],
    );
    check(
        0,
        999_999_999,
        Marker::FixExt8,
        &[0xd7, 0xff, 0xee, 0x6b, 0x27, 0xfc, 0x00, 0x00, 0x00, 0x00],
    );
    check(
        (1 << 34) - 1,
        999_999_999,
        Marker::FixExt8,
        &[0xd7, 0xff, 0xee, 0x6b, 0x27, 0xff, 0xff, 0xff, 0xff, 0xff],
    );
}

#[test]
fn timestamp_96_seconds_past_34_bits_or_negative() {
    check(
        1 << 34,
        0,
        Marker::Ext8,
        &[
            0xc7, 0x0c, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
            0x00,
        ],
    );
    check(
        -1,
        0,
        Marker::Ext8,
        &[
            0xc7, 0x0c, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xff,
        ],
    );
    check(
        -1,
        500_000_000,
        Marker::Ext8,
        &[
            0xc7, 0x0c, 0xff, 0x1d, 0xcd, 0x65, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xff,
        ],
    );
    check(
        i64::MIN,
        999_999_999,
        Marker::Ext8,
        &[
            0xc7, 0x0c, 0xff, 0x3b, 0x9a, 0xc9, 0xff, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00,
        ],
    );
    check(
        i64::MAX,
        999_999_999,
        Marker::Ext8,
        &[
            0xc7, 0x0c, 0xff, 0x3b, 0x9a, 0xc9, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xff,
        ],
    );
}

#[test]
fn larger_forms_than_needed_still_decode() {
    // Seconds 1 as timestamp 64 and as timestamp 96.
    let t64 = [0xd7, 0xff, 0, 0, 0, 0, 0, 0, 0, 0x01];
    let t96 = [0xc7, 0x0c, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01];
    // Four bytes of data in an ext 8 instead of a fixext 4.
    let ext8 = [0xc7, 0x04, 0xff, 0, 0, 0, 0x01];
    for bytes in [&t64[..], &t96, &ext8] {
        let mut reader = Reader::new(bytes);
        assert_eq!(reader.read_timestamp(), Ok(Timestamp::from_seconds(1)));
        assert!(reader.is_empty());
    }
}

/// Asserts that `bytes` are not a timestamp: an `InvalidTimestamp` error
/// at offset 0 that consumes nothing, and no timestamp from the `Value`.
#[track_caller]
fn check_invalid(bytes: &[u8]) {
    let mut reader = Reader::new(bytes);
    let error = reader.read_timestamp().unwrap_err();
    assert_eq!(error, Error::new(ErrorKind::InvalidTimestamp, 0));
    assert_eq!(error.to_string(), "invalid timestamp at offset 0");
    assert_eq!(reader.position(), 0);
    // Still a valid extension, just not a timestamp.
    let value = Value::from_slice(bytes).unwrap();
    assert_eq!(value.as_ext().map(|(ty, _)| ty), Some(-1));
    assert_eq!(value.as_timestamp(), None);
}

#[test]
fn nanoseconds_above_999_999_999_are_rejected() {
    // Timestamp 64 with 1,000,000,000 and with 2^30 - 1 nanoseconds.
    check_invalid(&[0xd7, 0xff, 0xee, 0x6b, 0x28, 0x00, 0x00, 0x00, 0x00, 0x00]);
    check_invalid(&[0xd7, 0xff, 0xff, 0xff, 0xff, 0xfc, 0x00, 0x00, 0x00, 0x00]);
    // Timestamp 96 with 1,000,000,000 and with u32::MAX nanoseconds.
    check_invalid(&[
        0xc7, 0x0c, 0xff, 0x3b, 0x9a, 0xca, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
    ]);
    check_invalid(&[
        0xc7, 0x0c, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0,
    ]);
    assert_eq!(Timestamp::new(0, 1_000_000_000), None);
    assert_eq!(
        Timestamp::try_from((0, 1_000_000_000)),
        Err(TimestampRangeError)
    );
    assert_eq!(
        Timestamp::try_from((-3, 7)),
        Timestamp::new(-3, 7).ok_or(TimestampRangeError)
    );
}

#[test]
fn data_lengths_other_than_4_8_12_are_rejected() {
    check_invalid(&[0xd4, 0xff, 0x00]);
    check_invalid(&[0xd5, 0xff, 0x00, 0x00]);
    check_invalid(&[0xd8, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    check_invalid(&[0xc7, 0x00, 0xff]);
    check_invalid(&[0xc7, 0x03, 0xff, 0, 0, 0]);
    check_invalid(&[0xc7, 0x0b, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    check_invalid(&[0xc7, 0x0d, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(Timestamp::from_ext_data(&[]), None);
    assert_eq!(Timestamp::from_ext_data(&[0; 13]), None);
}

#[test]
fn another_extension_type_is_a_type_mismatch() {
    let bytes = [0xd6, 0x05, 0x00, 0x00, 0x00, 0x00];
    let mut reader = Reader::new(&bytes);
    let error = reader.read_timestamp().unwrap_err();
    assert_eq!(
        error,
        Error::new(
            ErrorKind::TypeMismatch {
                expected: "a timestamp",
                found: Marker::FixExt4,
            },
            0
        )
    );
    assert_eq!(
        error.to_string(),
        "invalid type: fixext 4 (0xd6), expected a timestamp at offset 0"
    );
    assert_eq!(reader.position(), 0);
    assert_eq!(reader.read_ext(), Ok((5, &[0u8; 4][..])));
    assert_eq!(Value::from_slice(&bytes).unwrap().as_timestamp(), None);
}

#[test]
fn not_an_extension_at_all() {
    // The mismatch comes from the extension header read, so it names the
    // extension family rather than the timestamp.
    let mut reader = Reader::new(&[0xc0]);
    assert_eq!(
        reader.read_timestamp(),
        Err(Error::new(
            ErrorKind::TypeMismatch {
                expected: "an extension",
                found: Marker::Nil,
            },
            0
        ))
    );
    assert_eq!(reader.position(), 0);
    assert_eq!(Value::Nil.as_timestamp(), None);
    assert_eq!(Value::from(1).as_timestamp(), None);
}

#[test]
fn offsets_are_where_the_timestamp_starts() {
    let bytes = [0x92, 0x07, 0xd6, 0x05, 0, 0, 0, 0];
    let mut reader = Reader::new(&bytes);
    reader.read_array_len().unwrap();
    reader.read_int::<u8>().unwrap();
    assert_eq!(reader.read_timestamp().unwrap_err().offset(), 2);
    assert_eq!(reader.position(), 2);
}

#[test]
fn from_system_time() {
    let table = [
        (UNIX_EPOCH, (0, 0)),
        (UNIX_EPOCH + Duration::from_millis(1500), (1, 500_000_000)),
        (UNIX_EPOCH + Duration::new(1 << 34, 1), (1 << 34, 1)),
        (UNIX_EPOCH - Duration::from_millis(1500), (-2, 500_000_000)),
        (UNIX_EPOCH - Duration::from_secs(1), (-1, 0)),
        (UNIX_EPOCH - Duration::from_nanos(1), (-1, 999_999_999)),
        (
            UNIX_EPOCH - Duration::new(86_400 * 365, 250_000_000),
            (-86_400 * 365 - 1, 750_000_000),
        ),
    ];
    for (time, parts) in table {
        let timestamp = Timestamp::try_from(time).unwrap();
        assert_eq!(<(i64, u32)>::from(timestamp), parts, "{time:?}");
        assert_eq!(SystemTime::try_from(timestamp), Ok(time), "{time:?}");
    }
}

#[test]
fn to_system_time_and_back() {
    let table = [
        (-2, 500_000_000),
        (-1, 1),
        (0, 999_999_999),
        (1_700_000_000, 123_456_789),
    ];
    for (seconds, nanoseconds) in table {
        let timestamp = Timestamp::new(seconds, nanoseconds).unwrap();
        let time = SystemTime::try_from(timestamp).unwrap();
        let expected = if seconds >= 0 {
            UNIX_EPOCH + Duration::new(seconds as u64, nanoseconds)
        } else {
            UNIX_EPOCH - Duration::from_secs(seconds.unsigned_abs())
                + Duration::from_nanos(nanoseconds as u64)
        };
        assert_eq!(time, expected);
        assert_eq!(Timestamp::try_from(time), Ok(timestamp));
    }
}

/// On Unix, `SystemTime` holds any `i64` seconds: every timestamp converts
/// there and back, the extremes included.
#[cfg(unix)]
#[test]
fn system_time_extremes_round_trip() {
    for (seconds, nanoseconds) in [
        (i64::MIN, 0),
        (i64::MIN, 999_999_999),
        (i64::MIN + 1, 0),
        (i64::MAX, 0),
        (i64::MAX, 999_999_999),
    ] {
        let timestamp = Timestamp::new(seconds, nanoseconds).unwrap();
        let time = SystemTime::try_from(timestamp).unwrap();
        assert_eq!(Timestamp::try_from(time), Ok(timestamp), "{timestamp:?}");
    }
}

#[test]
fn timestamp_value_conversions() {
    let timestamp = Timestamp::new(-2, 500_000_000).unwrap();
    let value = Value::from(timestamp);
    assert_eq!(
        value.as_ext().map(|(ty, data)| (ty, data.len())),
        Some((-1, 12))
    );
    assert_eq!(value.as_timestamp(), Some(timestamp));
    assert_eq!(value.to_string(), "ext(-1, 1dcd6500fffffffffffffffe)");
    assert_eq!(Value::Ext(5, vec![0, 0, 0, 0]).as_timestamp(), None);
    assert_eq!(
        Value::Ext(-1, vec![0, 0, 0, 7]).as_timestamp(),
        Some(Timestamp::from_seconds(7))
    );
    assert_eq!(Timestamp::default(), Timestamp::UNIX_EPOCH);
    assert!(Timestamp::new(-1, 999_999_999).unwrap() < Timestamp::UNIX_EPOCH);
    assert!(Timestamp::new(0, 1).unwrap() > Timestamp::UNIX_EPOCH);
}
