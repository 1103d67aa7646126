//! Hostile input: headers that claim gigabytes, nesting far past any
//! limit, the reserved byte. Each must fail fast with the right error
//! through owned decoding, borrowed decoding and skipping alike, without
//! reserving memory for what the header claims.

use std::time::{Duration, Instant};

use msgpack_core::{Error, ErrorKind, Limits, Reader, Value, ValueRef};

/// Far more than any of these inputs needs; a decoder that allocated or
/// looped over what the headers claim would take minutes.
const FAST: Duration = Duration::from_secs(5);

/// Runs `f`, asserting it returns within [`FAST`].
#[track_caller]
fn quickly<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let result = f();
    let elapsed = start.elapsed();
    assert!(elapsed < FAST, "{what} took {elapsed:?}");
    result
}

/// Asserts that `bytes` fail with `error` through `Value::from_slice`,
/// `ValueRef::from_slice` and `Reader::skip`, quickly, the same under
/// [`Limits::unlimited`] (the limits are not what saves us here).
#[track_caller]
fn check(bytes: &[u8], error: Error) {
    check_decode(bytes, error);
    let skipped = quickly("skip", || Reader::new(bytes).skip());
    assert_eq!(skipped, Err(error), "skip");
}

/// [`check`] without the skip: for errors only whole-value decoding
/// finds, such as the depth limit.
#[track_caller]
fn check_decode(bytes: &[u8], error: Error) {
    let owned = quickly("Value::from_slice", || Value::from_slice(bytes));
    assert_eq!(owned, Err(error), "Value::from_slice");
    let borrowed = quickly("ValueRef::from_slice", || ValueRef::from_slice(bytes));
    assert_eq!(borrowed, Err(error), "ValueRef::from_slice");
    if !matches!(error.kind(), ErrorKind::DepthLimitExceeded { .. }) {
        let unlimited = quickly("Value::decode, unlimited", || {
            Value::decode(&mut Reader::with_limits(bytes, Limits::unlimited()).unwrap())
        });
        assert_eq!(unlimited, Err(error), "Value::decode, unlimited");
    }
}

fn eof(bytes: &[u8]) -> Error {
    Error::new(ErrorKind::UnexpectedEof, bytes.len())
}

#[test]
fn array32_claiming_u32_max_elements() {
    let bytes = [0xdd, 0xff, 0xff, 0xff, 0xff];
    check(&bytes, eof(&bytes));
    // A few elements present do not help.
    let bytes = [&bytes[..], &[0xc0; 100]].concat();
    check(&bytes, eof(&bytes));
}

#[test]
fn map32_claiming_u32_max_pairs() {
    let bytes = [0xdf, 0xff, 0xff, 0xff, 0xff];
    check(&bytes, eof(&bytes));
    let bytes = [&bytes[..], &[0x01, 0xc0].repeat(50)].concat();
    check(&bytes, eof(&bytes));
}

#[test]
fn str32_claiming_4_gib() {
    let bytes = [0xdb, 0xff, 0xff, 0xff, 0xff];
    check(&bytes, eof(&bytes));
    let mut reader = Reader::new(&bytes);
    assert_eq!(reader.read_str(), Err(eof(&bytes)));
    assert_eq!(reader.read_str_bytes(), Err(eof(&bytes)));
    assert_eq!(reader.position(), 0);
}

#[test]
fn bin32_claiming_4_gib() {
    let bytes = [0xc6, 0xff, 0xff, 0xff, 0xff];
    check(&bytes, eof(&bytes));
    let mut reader = Reader::new(&bytes);
    assert_eq!(reader.read_bin(), Err(eof(&bytes)));
    assert_eq!(reader.position(), 0);
}

#[test]
fn ext32_claiming_4_gib() {
    for bytes in [
        &[0xc9, 0xff, 0xff, 0xff, 0xff][..],
        &[0xc9, 0xff, 0xff, 0xff, 0xff, 0x05],
        &[0xc9, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00],
    ] {
        check(bytes, eof(bytes));
        let mut reader = Reader::new(bytes);
        assert_eq!(reader.read_ext(), Err(eof(bytes)));
        assert_eq!(reader.read_timestamp(), Err(eof(bytes)));
        assert_eq!(reader.position(), 0);
    }
}

#[test]
fn lengths_one_past_what_remains() {
    // Each claims exactly one element or byte more than follows.
    let table: [&[u8]; 6] = [
        &[0x93, 0xc0, 0xc0],
        &[0xdc, 0x00, 0x03, 0xc0, 0xc0],
        &[0x82, 0x01, 0x02, 0x03],
        &[0xd9, 0x03, b'a', b'b'],
        &[0xc5, 0x00, 0x03, 0x00, 0x00],
        &[0xc7, 0x03, 0x01, 0x00, 0x00],
    ];
    for bytes in table {
        check(bytes, eof(bytes));
    }
}

#[test]
fn nested_array32_headers_each_claiming_u32_max() {
    let bytes = [0xdd, 0xff, 0xff, 0xff, 0xff].repeat(100_000);
    check(&bytes, eof(&bytes));
}

#[test]
fn nested_array32_headers_each_claiming_one() {
    let bytes = [0xdd, 0x00, 0x00, 0x00, 0x01].repeat(100_000);
    check_decode(
        &bytes,
        Error::new(ErrorKind::DepthLimitExceeded { limit: 128 }, 128 * 5),
    );
    // Skipping has no depth limit, only the end of the input.
    assert_eq!(
        quickly("skip", || Reader::new(&bytes).skip()),
        Err(eof(&bytes))
    );
}

#[test]
fn nested_fixarrays() {
    let depth_error = Error::new(ErrorKind::DepthLimitExceeded { limit: 128 }, 128);
    let bytes = vec![0x91; 100_000];
    check_decode(&bytes, depth_error);
    assert_eq!(
        quickly("skip", || Reader::new(&bytes).skip()),
        Err(eof(&bytes))
    );

    // With its innermost value, the same input skips whole, and decodes
    // without limits: nothing recurses.
    let bytes = [&bytes[..], &[0xc0]].concat();
    check_decode(&bytes, depth_error);
    let mut reader = Reader::new(&bytes);
    assert_eq!(quickly("skip", || reader.skip()), Ok(()));
    assert!(reader.is_empty());
    let value = quickly("Value::decode, unlimited", || {
        Value::decode(&mut Reader::with_limits(&bytes, Limits::unlimited()).unwrap())
    });
    assert_eq!(value.unwrap().to_vec().unwrap(), bytes);
}

#[test]
fn nested_fixmaps_through_their_keys() {
    let bytes = vec![0x81; 100_000];
    check_decode(
        &bytes,
        Error::new(ErrorKind::DepthLimitExceeded { limit: 128 }, 128),
    );
    assert_eq!(
        quickly("skip", || Reader::new(&bytes).skip()),
        Err(eof(&bytes))
    );
}

/// Regression: each container was checked only against the input left
/// after its own header, so nested headers that each claim the rest of
/// the input each reserved room for all of it. 1 MiB of array 32
/// headers reserved 4 GiB before the depth limit stopped them. The
/// elements still owed by the enclosing containers count too.
#[test]
fn nested_headers_each_claiming_the_rest_of_the_input() {
    let headers = (1 << 20) / 5;
    let total = headers * 5;
    let mut bytes = Vec::with_capacity(total);
    while bytes.len() < total {
        let rest = (total - bytes.len() - 5) as u32;
        bytes.push(0xdd);
        bytes.extend_from_slice(&rest.to_be_bytes());
    }
    check(&bytes, eof(&bytes));

    // The same with maps, each claiming half the rest in pairs.
    let mut bytes = Vec::with_capacity(total);
    while bytes.len() < total {
        let rest = (total - bytes.len() - 5) as u32;
        bytes.push(0xdf);
        bytes.extend_from_slice(&(rest / 2).to_be_bytes());
    }
    check(&bytes, eof(&bytes));
}

#[test]
fn reserved_byte() {
    check(&[0xc1], Error::new(ErrorKind::ReservedMarker, 0));
    check(&[0x91, 0xc1], Error::new(ErrorKind::ReservedMarker, 1));
    check(
        &[0x81, 0xc1, 0xc0],
        Error::new(ErrorKind::ReservedMarker, 1),
    );
    check(&[0xc1; 1000], Error::new(ErrorKind::ReservedMarker, 0));
    let deep = [vec![0x91; 100], vec![0xc1]].concat();
    check(&deep, Error::new(ErrorKind::ReservedMarker, 100));
}

#[test]
fn many_small_values_hit_the_value_limit() {
    // An array 32 of a million nils, under a limit of a thousand values.
    let bytes = [&[0xdd, 0x00, 0x0f, 0x42, 0x40][..], &[0xc0; 1_000_000]].concat();
    let limits = Limits::default().max_values(1000);
    let owned = Value::decode(&mut Reader::with_limits(&bytes, limits).unwrap());
    // Refused at the header, before a single element is decoded.
    let error = Error::new(ErrorKind::ValueLimitExceeded { limit: 1000 }, 0);
    assert_eq!(owned, Err(error));
    let borrowed = ValueRef::decode(&mut Reader::with_limits(&bytes, limits).unwrap());
    assert_eq!(borrowed, Err(error));
    // Without the limit it is simply a big array.
    assert_eq!(
        Value::from_slice(&bytes).map(|v| v.as_array().map(Vec::len)),
        Ok(Some(1_000_000))
    );
}
