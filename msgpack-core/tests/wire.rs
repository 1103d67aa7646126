//! The MessagePack wire format as a table: every format with its exact
//! bytes, the round trip, truncation at every byte, and the errors of the
//! readers and writers.

use std::convert::Infallible;
use std::io;

use msgpack_core::{
    encode, BufferFull, EncodeError, Error, ErrorKind, FromInteger, Integer, IoWriter, Marker,
    Reader, SliceWriter, Timestamp, Token, Value, ValueRef,
};

/// Asserts that `value` encodes to exactly `bytes`, then everything
/// [`check_decodes`] asserts.
#[track_caller]
fn check(value: Value, bytes: &[u8]) {
    assert_eq!(value.to_vec().unwrap(), bytes, "encoding of {value}");
    check_decodes(value, bytes);
}

/// Asserts that `bytes` decode to `value` (owned, borrowed), that
/// `Reader::skip` consumes them exactly, and that every strict prefix of
/// `bytes` is an end-of-input error at the end of that prefix.
#[track_caller]
fn check_decodes(value: Value, bytes: &[u8]) {
    assert_eq!(Value::from_slice(bytes).as_ref(), Ok(&value));
    assert_eq!(
        ValueRef::from_slice(bytes).map(Value::from).as_ref(),
        Ok(&value)
    );
    let mut reader = Reader::new(bytes);
    assert_eq!(reader.skip(), Ok(()));
    assert_eq!(reader.position(), bytes.len());
    for len in 0..bytes.len() {
        let prefix = &bytes[..len];
        let eof = Error::new(ErrorKind::UnexpectedEof, len);
        assert_eq!(Value::from_slice(prefix).err(), Some(eof), "prefix {len}");
        assert_eq!(
            ValueRef::from_slice(prefix).err(),
            Some(eof),
            "prefix {len}"
        );
        assert_eq!(Reader::new(prefix).skip(), Err(eof), "prefix {len}");
    }
}

/// Asserts the bytes and marker of `write_uint` (and of `write_int`, when
/// `n` fits), then the round trip.
#[track_caller]
fn check_uint(n: u64, marker: Marker, bytes: &[u8]) {
    let mut out = Vec::new();
    assert_eq!(encode::write_uint(&mut out, n), Ok(marker));
    assert_eq!(out, bytes);
    if let Ok(signed) = i64::try_from(n) {
        let mut out = Vec::new();
        assert_eq!(encode::write_int(&mut out, signed), Ok(marker));
        assert_eq!(out, bytes);
    }
    assert_eq!(Marker::from_u8(bytes[0]), marker);
    assert_eq!(Reader::new(bytes).read_int::<u64>(), Ok(n));
    check(Value::from(n), bytes);
}

/// Asserts the bytes and marker of `write_int`, then the round trip.
#[track_caller]
fn check_int(n: i64, marker: Marker, bytes: &[u8]) {
    let mut out = Vec::new();
    assert_eq!(encode::write_int(&mut out, n), Ok(marker));
    assert_eq!(out, bytes);
    assert_eq!(Marker::from_u8(bytes[0]), marker);
    assert_eq!(Reader::new(bytes).read_int::<i64>(), Ok(n));
    check(Value::from(n), bytes);
}

/// `len` bytes of ASCII text.
fn text(len: usize) -> String {
    (0..len)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect()
}

/// `len` bytes counting up from 0, wrapping.
fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| i as u8).collect()
}

#[test]
fn nil_and_booleans() {
    check(Value::Nil, &[0xc0]);
    check(Value::Bool(false), &[0xc2]);
    check(Value::Bool(true), &[0xc3]);
}

#[test]
fn unsigned_integers_at_every_boundary() {
    check_uint(0, Marker::FixPos(0), &[0x00]);
    check_uint(1, Marker::FixPos(1), &[0x01]);
    check_uint(127, Marker::FixPos(127), &[0x7f]);
    check_uint(128, Marker::U8, &[0xcc, 0x80]);
    check_uint(255, Marker::U8, &[0xcc, 0xff]);
    check_uint(256, Marker::U16, &[0xcd, 0x01, 0x00]);
    check_uint(65535, Marker::U16, &[0xcd, 0xff, 0xff]);
    check_uint(65536, Marker::U32, &[0xce, 0x00, 0x01, 0x00, 0x00]);
    check_uint(
        u32::MAX as u64,
        Marker::U32,
        &[0xce, 0xff, 0xff, 0xff, 0xff],
    );
    check_uint(
        1 << 32,
        Marker::U64,
        &[0xcf, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00],
    );
    check_uint(
        i64::MAX as u64,
        Marker::U64,
        &[0xcf, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    );
    check_uint(
        1 << 63,
        Marker::U64,
        &[0xcf, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
    );
    check_uint(
        u64::MAX,
        Marker::U64,
        &[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    );
}

#[test]
fn signed_integers_at_every_boundary() {
    check_int(-1, Marker::FixNeg(-1), &[0xff]);
    check_int(-32, Marker::FixNeg(-32), &[0xe0]);
    check_int(-33, Marker::I8, &[0xd0, 0xdf]);
    check_int(-128, Marker::I8, &[0xd0, 0x80]);
    check_int(-129, Marker::I16, &[0xd1, 0xff, 0x7f]);
    check_int(-32768, Marker::I16, &[0xd1, 0x80, 0x00]);
    check_int(-32769, Marker::I32, &[0xd2, 0xff, 0xff, 0x7f, 0xff]);
    check_int(
        i32::MIN as i64,
        Marker::I32,
        &[0xd2, 0x80, 0x00, 0x00, 0x00],
    );
    check_int(
        i32::MIN as i64 - 1,
        Marker::I64,
        &[0xd3, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff],
    );
    check_int(
        i64::MIN,
        Marker::I64,
        &[0xd3, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
    );
}

#[test]
fn non_negative_signed_integers_are_written_unsigned() {
    check_int(0, Marker::FixPos(0), &[0x00]);
    check_int(127, Marker::FixPos(127), &[0x7f]);
    check_int(128, Marker::U8, &[0xcc, 0x80]);
    check_int(
        i64::MAX,
        Marker::U64,
        &[0xcf, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
    );
    assert_eq!(Value::from(5i8), Value::from(5u64));
    assert_eq!(Value::from(-5i8), Value::from(-5i64));
}

#[test]
fn floats() {
    check(Value::F32(1.5), &[0xca, 0x3f, 0xc0, 0x00, 0x00]);
    check(
        Value::F64(1.5),
        &[0xcb, 0x3f, 0xf8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
    );
    check(Value::F32(-0.0), &[0xca, 0x80, 0x00, 0x00, 0x00]);
    check(Value::F32(f32::INFINITY), &[0xca, 0x7f, 0x80, 0x00, 0x00]);
    check(
        Value::F64(f64::NEG_INFINITY),
        &[0xcb, 0xff, 0xf0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
    );
    // Float 32 and float 64 stay apart, and neither is an integer.
    assert_ne!(Value::F32(1.5), Value::F64(1.5));
    assert_ne!(Value::F64(1.0), Value::from(1));
    // A float 32 widens to f64 without loss; a float 64 is not a float 32.
    let f32_bytes = [0xca, 0x3f, 0xc0, 0x00, 0x00];
    assert_eq!(Reader::new(&f32_bytes).read_f64(), Ok(1.5));
    assert_eq!(Reader::new(&f32_bytes).read_f32(), Ok(1.5));
}

#[test]
fn nan_keeps_its_bits() {
    let bytes = [0xcb, 0x7f, 0xf8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01];
    let value = Value::from_slice(&bytes).unwrap();
    let Value::F64(x) = value else {
        panic!("not a float 64: {value:?}");
    };
    assert_eq!(x.to_bits(), 0x7ff8_0000_0000_0001);
    assert_eq!(value.to_vec().unwrap(), bytes);
}

#[test]
fn str_headers() {
    let table: [(usize, &[u8]); 8] = [
        (0, &[0xa0]),
        (1, &[0xa1]),
        (31, &[0xbf]),
        (32, &[0xd9, 0x20]),
        (255, &[0xd9, 0xff]),
        (256, &[0xda, 0x01, 0x00]),
        (65535, &[0xda, 0xff, 0xff]),
        (65536, &[0xdb, 0x00, 0x01, 0x00, 0x00]),
    ];
    for (len, header) in table {
        let s = text(len);
        check(Value::from(s.as_str()), &[header, s.as_bytes()].concat());
    }
}

#[test]
fn str_lengths_count_bytes_not_chars() {
    let s = "é".repeat(16);
    check(
        Value::from(s.as_str()),
        &[&[0xd9, 0x20][..], s.as_bytes()].concat(),
    );
    check(Value::from("é"), &[0xa2, 0xc3, 0xa9]);
}

#[test]
fn bin_headers() {
    let table: [(usize, &[u8]); 6] = [
        (0, &[0xc4, 0x00]),
        (1, &[0xc4, 0x01]),
        (255, &[0xc4, 0xff]),
        (256, &[0xc5, 0x01, 0x00]),
        (65535, &[0xc5, 0xff, 0xff]),
        (65536, &[0xc6, 0x00, 0x01, 0x00, 0x00]),
    ];
    for (len, header) in table {
        let body = data(len);
        check(Value::Bin(body.clone()), &[header, &body].concat());
    }
}

#[test]
fn array_headers() {
    let table: [(usize, &[u8]); 6] = [
        (0, &[0x90]),
        (1, &[0x91]),
        (15, &[0x9f]),
        (16, &[0xdc, 0x00, 0x10]),
        (65535, &[0xdc, 0xff, 0xff]),
        (65536, &[0xdd, 0x00, 0x01, 0x00, 0x00]),
    ];
    for (len, header) in table {
        // Elements are the positive fixints 0 to 127, one byte each.
        let items: Vec<Value> = (0..len).map(|i| Value::from(i % 128)).collect();
        let body: Vec<u8> = (0..len).map(|i| (i % 128) as u8).collect();
        check(Value::Array(items), &[header, &body].concat());
    }
}

#[test]
fn map_headers() {
    let table: [(usize, &[u8]); 6] = [
        (0, &[0x80]),
        (1, &[0x81]),
        (15, &[0x8f]),
        (16, &[0xde, 0x00, 0x10]),
        (65535, &[0xde, 0xff, 0xff]),
        (65536, &[0xdf, 0x00, 0x01, 0x00, 0x00]),
    ];
    for (len, header) in table {
        // Keys are fixints (repeating past 127: maps are pairs, not sets),
        // values alternate true and false.
        let pairs: Vec<(Value, Value)> = (0..len)
            .map(|i| (Value::from(i % 128), Value::Bool(i % 2 == 0)))
            .collect();
        let body: Vec<u8> = (0..len)
            .flat_map(|i| [(i % 128) as u8, if i % 2 == 0 { 0xc3 } else { 0xc2 }])
            .collect();
        check(Value::Map(pairs), &[header, &body].concat());
    }
}

#[test]
fn ext_headers() {
    let table: [(usize, &[u8], Marker); 14] = [
        (1, &[0xd4], Marker::FixExt1),
        (2, &[0xd5], Marker::FixExt2),
        (4, &[0xd6], Marker::FixExt4),
        (8, &[0xd7], Marker::FixExt8),
        (16, &[0xd8], Marker::FixExt16),
        (0, &[0xc7, 0x00], Marker::Ext8),
        (3, &[0xc7, 0x03], Marker::Ext8),
        (5, &[0xc7, 0x05], Marker::Ext8),
        (15, &[0xc7, 0x0f], Marker::Ext8),
        (17, &[0xc7, 0x11], Marker::Ext8),
        (255, &[0xc7, 0xff], Marker::Ext8),
        (256, &[0xc8, 0x01, 0x00], Marker::Ext16),
        (65535, &[0xc8, 0xff, 0xff], Marker::Ext16),
        (65536, &[0xc9, 0x00, 0x01, 0x00, 0x00], Marker::Ext32),
    ];
    for (len, header, marker) in table {
        let types: &[i8] = if len <= 16 {
            &[0, 5, 127, -1, -128]
        } else {
            &[5]
        };
        for &ext_type in types {
            let body = data(len);
            let bytes = [header, &[ext_type as u8], &body].concat();
            let mut out = Vec::new();
            assert_eq!(encode::write_ext(&mut out, ext_type, &body), Ok(marker));
            assert_eq!(out, bytes);
            let mut reader = Reader::new(&bytes);
            assert_eq!(reader.read_ext(), Ok((ext_type, &body[..])));
            check(Value::Ext(ext_type, body), &bytes);
        }
    }
}

#[test]
fn length_writers_return_the_marker_they_chose() {
    type LenWriter = fn(&mut Vec<u8>, usize) -> Result<Marker, EncodeError<Infallible>>;
    let str_len: LenWriter = |out, len| encode::write_str_len(out, len);
    let bin_len: LenWriter = |out, len| encode::write_bin_len(out, len);
    let array_len: LenWriter = |out, len| encode::write_array_len(out, len);
    let map_len: LenWriter = |out, len| encode::write_map_len(out, len);
    let ext_meta: LenWriter = |out, len| encode::write_ext_meta(out, len, 7);
    let max = u32::MAX as usize;
    let table: [(&str, LenWriter, usize, Marker, &[u8]); 27] = [
        ("str", str_len, 0, Marker::FixStr(0), &[0xa0]),
        ("str", str_len, 31, Marker::FixStr(31), &[0xbf]),
        ("str", str_len, 32, Marker::Str8, &[0xd9, 0x20]),
        ("str", str_len, 256, Marker::Str16, &[0xda, 0x01, 0x00]),
        ("str", str_len, 65536, Marker::Str32, &[0xdb, 0, 1, 0, 0]),
        (
            "str",
            str_len,
            max,
            Marker::Str32,
            &[0xdb, 0xff, 0xff, 0xff, 0xff],
        ),
        ("bin", bin_len, 0, Marker::Bin8, &[0xc4, 0x00]),
        ("bin", bin_len, 255, Marker::Bin8, &[0xc4, 0xff]),
        ("bin", bin_len, 256, Marker::Bin16, &[0xc5, 0x01, 0x00]),
        ("bin", bin_len, 65536, Marker::Bin32, &[0xc6, 0, 1, 0, 0]),
        (
            "bin",
            bin_len,
            max,
            Marker::Bin32,
            &[0xc6, 0xff, 0xff, 0xff, 0xff],
        ),
        ("array", array_len, 0, Marker::FixArray(0), &[0x90]),
        ("array", array_len, 15, Marker::FixArray(15), &[0x9f]),
        ("array", array_len, 16, Marker::Array16, &[0xdc, 0x00, 0x10]),
        (
            "array",
            array_len,
            65536,
            Marker::Array32,
            &[0xdd, 0, 1, 0, 0],
        ),
        (
            "array",
            array_len,
            max,
            Marker::Array32,
            &[0xdd, 0xff, 0xff, 0xff, 0xff],
        ),
        ("map", map_len, 0, Marker::FixMap(0), &[0x80]),
        ("map", map_len, 15, Marker::FixMap(15), &[0x8f]),
        ("map", map_len, 16, Marker::Map16, &[0xde, 0x00, 0x10]),
        ("map", map_len, 65536, Marker::Map32, &[0xdf, 0, 1, 0, 0]),
        (
            "map",
            map_len,
            max,
            Marker::Map32,
            &[0xdf, 0xff, 0xff, 0xff, 0xff],
        ),
        ("ext", ext_meta, 0, Marker::Ext8, &[0xc7, 0x00, 0x07]),
        ("ext", ext_meta, 1, Marker::FixExt1, &[0xd4, 0x07]),
        ("ext", ext_meta, 16, Marker::FixExt16, &[0xd8, 0x07]),
        (
            "ext",
            ext_meta,
            256,
            Marker::Ext16,
            &[0xc8, 0x01, 0x00, 0x07],
        ),
        (
            "ext",
            ext_meta,
            65536,
            Marker::Ext32,
            &[0xc9, 0, 1, 0, 0, 0x07],
        ),
        (
            "ext",
            ext_meta,
            max,
            Marker::Ext32,
            &[0xc9, 0xff, 0xff, 0xff, 0xff, 0x07],
        ),
    ];
    for (family, write, len, marker, bytes) in table {
        let mut out = Vec::new();
        assert_eq!(write(&mut out, len), Ok(marker), "{family} of {len}");
        assert_eq!(out, bytes, "{family} of {len}");
    }
}

#[test]
fn header_reads_mirror_the_writers() {
    let mut out = Vec::new();
    encode::write_str_len(&mut out, 300).unwrap();
    encode::write_bin_len(&mut out, 70000).unwrap();
    encode::write_array_len(&mut out, 16).unwrap();
    encode::write_map_len(&mut out, 3).unwrap();
    encode::write_ext_meta(&mut out, 12, -1).unwrap();
    let mut reader = Reader::new(&out);
    assert_eq!(reader.read_str_len(), Ok(300));
    assert_eq!(reader.read_bin_len(), Ok(70000));
    assert_eq!(reader.read_array_len(), Ok(16));
    assert_eq!(reader.read_map_len(), Ok(3));
    assert_eq!(
        reader.read_ext_meta(),
        Ok(msgpack_core::ExtMeta {
            ext_type: -1,
            len: 12
        })
    );
    assert_eq!(reader.finish(), Ok(()));
}

#[test]
fn fixed_width_writers_write_their_width_and_still_decode() {
    type Writer = fn(&mut Vec<u8>);
    let table: [(Writer, &[u8], Value); 14] = [
        (
            |out| encode::write_u8(out, 5).unwrap(),
            &[0xcc, 0x05],
            Value::from(5),
        ),
        (
            |out| encode::write_u16(out, 5).unwrap(),
            &[0xcd, 0x00, 0x05],
            Value::from(5),
        ),
        (
            |out| encode::write_u32(out, 5).unwrap(),
            &[0xce, 0x00, 0x00, 0x00, 0x05],
            Value::from(5),
        ),
        (
            |out| encode::write_u64(out, 5).unwrap(),
            &[0xcf, 0, 0, 0, 0, 0, 0, 0, 0x05],
            Value::from(5),
        ),
        (
            |out| encode::write_i8(out, 5).unwrap(),
            &[0xd0, 0x05],
            Value::from(5),
        ),
        (
            |out| encode::write_i8(out, -1).unwrap(),
            &[0xd0, 0xff],
            Value::from(-1),
        ),
        (
            |out| encode::write_i16(out, -1).unwrap(),
            &[0xd1, 0xff, 0xff],
            Value::from(-1),
        ),
        (
            |out| encode::write_i16(out, 100).unwrap(),
            &[0xd1, 0x00, 0x64],
            Value::from(100),
        ),
        (
            |out| encode::write_i32(out, -1).unwrap(),
            &[0xd2, 0xff, 0xff, 0xff, 0xff],
            Value::from(-1),
        ),
        (
            |out| encode::write_i32(out, -200).unwrap(),
            &[0xd2, 0xff, 0xff, 0xff, 0x38],
            Value::from(-200),
        ),
        (
            |out| encode::write_i64(out, -1).unwrap(),
            &[0xd3, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
            Value::from(-1),
        ),
        (
            |out| encode::write_i64(out, 0).unwrap(),
            &[0xd3, 0, 0, 0, 0, 0, 0, 0, 0],
            Value::from(0),
        ),
        (
            |out| encode::write_f32(out, 0.5).unwrap(),
            &[0xca, 0x3f, 0x00, 0x00, 0x00],
            Value::F32(0.5),
        ),
        (
            |out| encode::write_f64(out, 0.5).unwrap(),
            &[0xcb, 0x3f, 0xe0, 0, 0, 0, 0, 0, 0],
            Value::F64(0.5),
        ),
    ];
    for (write, bytes, value) in table {
        let mut out = Vec::new();
        write(&mut out);
        assert_eq!(out, bytes);
        check_decodes(value, bytes);
    }
}

#[test]
fn non_minimal_encodings_decode_to_the_same_value() {
    let table: [(&[u8], Value); 20] = [
        (&[0xcc, 0x05], Value::from(5)),
        (&[0xcd, 0x00, 0x05], Value::from(5)),
        (&[0xce, 0x00, 0x00, 0x00, 0x00], Value::from(0)),
        (&[0xcf, 0, 0, 0, 0, 0, 0, 0, 0x05], Value::from(5)),
        (&[0xd0, 0x05], Value::from(5)),
        (&[0xd0, 0xff], Value::from(-1)),
        (&[0xd1, 0xff, 0xff], Value::from(-1)),
        (&[0xd3, 0, 0, 0, 0, 0, 0, 0, 0x05], Value::from(5)),
        (&[0xd9, 0x01, b'a'], Value::from("a")),
        (&[0xda, 0x00, 0x01, b'a'], Value::from("a")),
        (&[0xdb, 0x00, 0x00, 0x00, 0x00], Value::from("")),
        (&[0xc5, 0x00, 0x01, 0xff], Value::Bin(vec![0xff])),
        (&[0xc6, 0x00, 0x00, 0x00, 0x00], Value::Bin(vec![])),
        (&[0xdc, 0x00, 0x01, 0xc0], Value::Array(vec![Value::Nil])),
        (&[0xdd, 0x00, 0x00, 0x00, 0x00], Value::Array(vec![])),
        (
            &[0xde, 0x00, 0x01, 0x01, 0x02],
            Value::Map(vec![(Value::from(1), Value::from(2))]),
        ),
        (&[0xdf, 0x00, 0x00, 0x00, 0x00], Value::Map(vec![])),
        (&[0xc7, 0x01, 0x05, 0xaa], Value::Ext(5, vec![0xaa])),
        (
            &[0xc8, 0x00, 0x04, 0x05, 1, 2, 3, 4],
            Value::Ext(5, vec![1, 2, 3, 4]),
        ),
        (&[0xc9, 0x00, 0x00, 0x00, 0x00, 0x05], Value::Ext(5, vec![])),
    ];
    for (bytes, value) in table {
        // Re-encoding gives the minimal form: shorter, but the same value.
        let minimal = value.to_vec().unwrap();
        assert!(
            minimal.len() < bytes.len(),
            "{bytes:02x?} vs {minimal:02x?}"
        );
        check_decodes(value, bytes);
    }
}

#[test]
fn spec_examples() {
    // {"compact": true, "schema": 0}, from msgpack.org.
    check(
        Value::Map(vec![
            (Value::from("compact"), Value::Bool(true)),
            (Value::from("schema"), Value::from(0)),
        ]),
        &[
            0x82, 0xa7, 0x63, 0x6f, 0x6d, 0x70, 0x61, 0x63, 0x74, 0xc3, 0xa6, 0x73, 0x63, 0x68,
            0x65, 0x6d, 0x61, 0x00,
        ],
    );
    // [1, [true, null], {"a": -1.5}, bin(00ff), ext(1, 01)]
    check(
        Value::Array(vec![
            Value::from(1),
            Value::Array(vec![Value::Bool(true), Value::Nil]),
            Value::Map(vec![(Value::from("a"), Value::F64(-1.5))]),
            Value::Bin(vec![0x00, 0xff]),
            Value::Ext(1, vec![0x01]),
        ]),
        &[
            0x95, 0x01, 0x92, 0xc3, 0xc0, 0x81, 0xa1, b'a', 0xcb, 0xbf, 0xf8, 0, 0, 0, 0, 0, 0,
            0xc4, 0x02, 0x00, 0xff, 0xd4, 0x01, 0x01,
        ],
    );
    // Maps keep their order and keys of any type.
    check(
        Value::Map(vec![
            (Value::from(2), Value::from("two")),
            (Value::Nil, Value::from(1)),
            (Value::Array(vec![Value::from(1)]), Value::Map(vec![])),
        ]),
        &[
            0x83, 0x02, 0xa3, b't', b'w', b'o', 0xc0, 0x01, 0x91, 0x01, 0x80,
        ],
    );
}

#[test]
fn tokens_round_trip() {
    let tokens = [
        Token::Array(10),
        Token::Nil,
        Token::Bool(true),
        Token::Int(Integer::from(-5)),
        Token::Int(Integer::from(u64::MAX)),
        Token::F32(1.5),
        Token::F64(-2.25),
        Token::Str("hi"),
        Token::Bin(&[1, 2]),
        Token::Map(1),
        Token::Ext(-3, &[9; 4]),
    ];
    let mut out = Vec::new();
    for token in tokens {
        encode::write_token(&mut out, token).unwrap();
    }
    assert_eq!(
        out,
        [
            0x9a, 0xc0, 0xc3, 0xfb, 0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xca,
            0x3f, 0xc0, 0x00, 0x00, 0xcb, 0xc0, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xa2,
            b'h', b'i', 0xc4, 0x02, 0x01, 0x02, 0x81, 0xd6, 0xfd, 0x09, 0x09, 0x09, 0x09,
        ]
    );
    let mut reader = Reader::new(&out);
    for token in tokens {
        assert_eq!(reader.read_token(), Ok(token));
    }
    assert_eq!(reader.finish(), Ok(()));
}

#[test]
fn markers() {
    let table = [
        (0x00, Marker::FixPos(0), "positive fixint (0x00)"),
        (0x7f, Marker::FixPos(127), "positive fixint (0x7f)"),
        (0x80, Marker::FixMap(0), "fixmap (0x80)"),
        (0x8f, Marker::FixMap(15), "fixmap (0x8f)"),
        (0x90, Marker::FixArray(0), "fixarray (0x90)"),
        (0x9f, Marker::FixArray(15), "fixarray (0x9f)"),
        (0xa0, Marker::FixStr(0), "fixstr (0xa0)"),
        (0xbf, Marker::FixStr(31), "fixstr (0xbf)"),
        (0xc1, Marker::Reserved, "reserved 0xc1 (0xc1)"),
        (0xd9, Marker::Str8, "str 8 (0xd9)"),
        (0xe0, Marker::FixNeg(-32), "negative fixint (0xe0)"),
        (0xff, Marker::FixNeg(-1), "negative fixint (0xff)"),
    ];
    for (byte, marker, text) in table {
        assert_eq!(Marker::from_u8(byte), marker);
        assert_eq!(marker.to_u8(), byte);
        assert_eq!(marker.to_string(), text);
    }
}

/// The reserved byte, and the offset where each input has it.
const RESERVED: [(&[u8], usize); 6] = [
    (&[0xc1], 0),
    (&[0x92, 0x01, 0xc1], 2),
    (&[0x91, 0x91, 0xc1], 2),
    (&[0x81, 0xc1, 0x01], 1),
    (&[0x81, 0x01, 0xc1], 2),
    (&[0x82, 0x01, 0x02, 0xc1, 0x03], 3),
];

#[test]
fn reserved_byte_wherever_a_value_is_expected() {
    for (bytes, offset) in RESERVED {
        let error = Error::new(ErrorKind::ReservedMarker, offset);
        assert_eq!(Value::from_slice(bytes), Err(error), "{bytes:02x?}");
        assert_eq!(ValueRef::from_slice(bytes), Err(error), "{bytes:02x?}");
        let mut reader = Reader::new(bytes);
        assert_eq!(reader.skip(), Err(error), "{bytes:02x?}");
        assert_eq!(reader.position(), offset);
        assert_eq!(
            error.to_string(),
            format!("reserved marker 0xc1 at offset {offset}")
        );
    }
}

#[test]
fn reserved_byte_in_every_typed_read() {
    let error = Error::new(ErrorKind::ReservedMarker, 0);
    let reader = Reader::new(&[0xc1]);
    assert_eq!(reader.peek_marker(), Ok(Marker::Reserved));
    assert_eq!(reader.clone().read_marker().unwrap_err(), error);
    assert_eq!(reader.clone().read_nil().unwrap_err(), error);
    assert_eq!(reader.clone().read_bool().unwrap_err(), error);
    assert_eq!(reader.clone().read_integer().unwrap_err(), error);
    assert_eq!(reader.clone().read_int::<u8>().unwrap_err(), error);
    assert_eq!(reader.clone().read_f32().unwrap_err(), error);
    assert_eq!(reader.clone().read_f64().unwrap_err(), error);
    assert_eq!(reader.clone().read_str().unwrap_err(), error);
    assert_eq!(reader.clone().read_str_bytes().unwrap_err(), error);
    assert_eq!(reader.clone().read_bin().unwrap_err(), error);
    assert_eq!(reader.clone().read_array_len().unwrap_err(), error);
    assert_eq!(reader.clone().read_map_len().unwrap_err(), error);
    assert_eq!(reader.clone().read_ext_meta().unwrap_err(), error);
    assert_eq!(reader.clone().read_ext().unwrap_err(), error);
    assert_eq!(reader.clone().read_timestamp().unwrap_err(), error);
    assert_eq!(reader.clone().read_token().unwrap_err(), error);
}

/// Asserts that reading `bytes` after a leading nil as `T` fails with an
/// out-of-range error naming `name`, consumes nothing, and that the value
/// then reads as an `i128`, which holds every MessagePack integer.
#[track_caller]
fn check_out_of_range<T: FromInteger + std::fmt::Debug>(bytes: &[u8], name: &'static str) {
    let input = [&[0xc0], bytes].concat();
    let mut reader = Reader::new(&input);
    reader.read_nil().unwrap();
    let error = Error::new(ErrorKind::OutOfRange { expected: name }, 1);
    assert_eq!(reader.read_int::<T>().unwrap_err(), error);
    assert_eq!(reader.position(), 1);
    assert_eq!(
        error.to_string(),
        format!("integer out of range for {name} at offset 1")
    );
    reader.read_int::<i128>().unwrap();
    assert_eq!(reader.finish(), Ok(()));
}

#[test]
fn integers_out_of_range() {
    check_out_of_range::<u8>(&[0xcd, 0x01, 0x2c], "u8"); // 300
    check_out_of_range::<u8>(&[0xff], "u8"); // -1
    check_out_of_range::<u16>(&[0xce, 0x00, 0x01, 0x00, 0x00], "u16"); // 65536
    check_out_of_range::<u32>(&[0xcf, 0, 0, 0, 0x01, 0, 0, 0, 0], "u32"); // 2^32
    check_out_of_range::<u64>(&[0xff], "u64"); // -1
    check_out_of_range::<u64>(&[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0], "u64"); // i64::MIN
    check_out_of_range::<usize>(&[0xd0, 0x80], "usize"); // -128
    check_out_of_range::<u128>(&[0xff], "u128"); // -1
    check_out_of_range::<i8>(&[0xcc, 0x80], "i8"); // 128
    check_out_of_range::<i8>(&[0xd1, 0xff, 0x7f], "i8"); // -129
    check_out_of_range::<i16>(&[0xd2, 0xff, 0xff, 0x7f, 0xff], "i16"); // -32769
    check_out_of_range::<i32>(&[0xce, 0x80, 0x00, 0x00, 0x00], "i32"); // 2^31
    check_out_of_range::<i64>(&[0xcf, 0x80, 0, 0, 0, 0, 0, 0, 0], "i64"); // 2^63
    check_out_of_range::<isize>(
        &[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        "isize",
    );
}

#[test]
fn integers_at_the_edge_of_range() {
    assert_eq!(Reader::new(&[0xcc, 0xff]).read_int::<u8>(), Ok(255));
    assert_eq!(Reader::new(&[0xd0, 0x80]).read_int::<i8>(), Ok(-128));
    assert_eq!(Reader::new(&[0x7f]).read_int::<i8>(), Ok(127));
    assert_eq!(Reader::new(&[0xcd, 0x00, 0x7f]).read_int::<i8>(), Ok(127));
    assert_eq!(
        Reader::new(&[0xcf, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]).read_int::<i64>(),
        Ok(i64::MAX)
    );
    assert_eq!(
        Reader::new(&[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0]).read_int::<i64>(),
        Ok(i64::MIN)
    );
    let max = [0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
    assert_eq!(Reader::new(&max).read_int::<u64>(), Ok(u64::MAX));
    assert_eq!(Reader::new(&max).read_int::<u128>(), Ok(u64::MAX as u128));
    assert_eq!(Reader::new(&max).read_int::<i128>(), Ok(u64::MAX as i128));
    assert_eq!(
        Reader::new(&[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0]).read_int::<i128>(),
        Ok(i64::MIN as i128)
    );
}

/// Asserts that `read` fails on `bytes` with a type mismatch that names
/// `expected` and `found`, displays as `text`, and consumes nothing.
#[track_caller]
fn check_mismatch<'a, T: std::fmt::Debug>(
    bytes: &'a [u8],
    read: impl FnOnce(&mut Reader<'a>) -> Result<T, Error>,
    expected: &'static str,
    found: Marker,
    text: &str,
) {
    let mut reader = Reader::new(bytes);
    let error = read(&mut reader).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::TypeMismatch { expected, found });
    assert_eq!(error.offset(), 0);
    assert_eq!(error.to_string(), text);
    assert_eq!(reader.position(), 0);
    // Nothing consumed: the value still reads whole.
    assert_eq!(reader.skip(), Ok(()));
    assert_eq!(reader.finish(), Ok(()));
}

#[test]
fn type_mismatches_name_the_marker_found() {
    check_mismatch(
        &[0xd9, 0x01, b'a'],
        Reader::read_int::<u8>,
        "an integer",
        Marker::Str8,
        "invalid type: str 8 (0xd9), expected an integer at offset 0",
    );
    check_mismatch(
        &[0xd4, 0x05, 0x00],
        Reader::read_integer,
        "an integer",
        Marker::FixExt1,
        "invalid type: fixext 1 (0xd4), expected an integer at offset 0",
    );
    check_mismatch(
        &[0x05],
        Reader::read_bool,
        "a boolean",
        Marker::FixPos(5),
        "invalid type: positive fixint (0x05), expected a boolean at offset 0",
    );
    check_mismatch(
        &[0xc3],
        Reader::read_nil,
        "nil",
        Marker::True,
        "invalid type: true (0xc3), expected nil at offset 0",
    );
    check_mismatch(
        &[0xc0],
        Reader::read_str,
        "a string",
        Marker::Nil,
        "invalid type: nil (0xc0), expected a string at offset 0",
    );
    check_mismatch(
        &[0xc4, 0x00],
        Reader::read_str_bytes,
        "a string",
        Marker::Bin8,
        "invalid type: bin 8 (0xc4), expected a string at offset 0",
    );
    check_mismatch(
        &[0xdc, 0x00, 0x00],
        Reader::read_str_len,
        "a string",
        Marker::Array16,
        "invalid type: array 16 (0xdc), expected a string at offset 0",
    );
    check_mismatch(
        &[0xa1, b'a'],
        Reader::read_bin,
        "binary data",
        Marker::FixStr(1),
        "invalid type: fixstr (0xa1), expected binary data at offset 0",
    );
    check_mismatch(
        &[0x81, 0x01, 0x02],
        Reader::read_array_len,
        "an array",
        Marker::FixMap(1),
        "invalid type: fixmap (0x81), expected an array at offset 0",
    );
    check_mismatch(
        &[0x90],
        Reader::read_map_len,
        "a map",
        Marker::FixArray(0),
        "invalid type: fixarray (0x90), expected a map at offset 0",
    );
    check_mismatch(
        &[0xcb, 0x3f, 0xf8, 0, 0, 0, 0, 0, 0],
        Reader::read_f32,
        "a float 32",
        Marker::F64,
        "invalid type: float 64 (0xcb), expected a float 32 at offset 0",
    );
    check_mismatch(
        &[0xff],
        Reader::read_f64,
        "a float",
        Marker::FixNeg(-1),
        "invalid type: negative fixint (0xff), expected a float at offset 0",
    );
    check_mismatch(
        &[0xc6, 0, 0, 0, 0],
        Reader::read_ext_meta,
        "an extension",
        Marker::Bin32,
        "invalid type: bin 32 (0xc6), expected an extension at offset 0",
    );
    check_mismatch(
        &[0xca, 0, 0, 0, 0],
        Reader::read_ext,
        "an extension",
        Marker::F32,
        "invalid type: float 32 (0xca), expected an extension at offset 0",
    );
}

#[test]
fn type_mismatch_offset_is_where_the_value_starts() {
    let mut reader = Reader::new(&[0x92, 0x01, 0xa1, b'x']);
    assert_eq!(reader.read_array_len(), Ok(2));
    assert_eq!(reader.read_int::<u8>(), Ok(1));
    let error = reader.read_int::<u8>().unwrap_err();
    assert_eq!(
        error,
        Error::new(
            ErrorKind::TypeMismatch {
                expected: "an integer",
                found: Marker::FixStr(1),
            },
            2
        )
    );
    assert_eq!(
        error.to_string(),
        "invalid type: fixstr (0xa1), expected an integer at offset 2"
    );
    assert_eq!(reader.read_str(), Ok("x"));
}

#[test]
fn truncated_typed_reads_are_eof_and_consume_nothing() {
    type Read = fn(&mut Reader<'_>) -> Result<(), Error>;
    let table: [(&[u8], Read); 8] = [
        (&[0xcd, 0x01], |r| r.read_int::<u16>().map(drop)),
        (&[0xca, 0x00, 0x00], |r| r.read_f32().map(drop)),
        (&[0xcb], |r| r.read_f64().map(drop)),
        (&[0xa3, b'a', b'b'], |r| r.read_str().map(drop)),
        (&[0xda, 0x00], |r| r.read_str_len().map(drop)),
        (&[0xc4, 0x02, 0x00], |r| r.read_bin().map(drop)),
        (&[0xd6, 0x05, 0, 0], |r| r.read_ext().map(drop)),
        (&[0xd6], |r| r.read_ext_meta().map(drop)),
    ];
    for (bytes, read) in table {
        let mut reader = Reader::new(bytes);
        let error = read(&mut reader).unwrap_err();
        assert_eq!(error, Error::new(ErrorKind::UnexpectedEof, bytes.len()));
        assert!(error.is_eof());
        assert_eq!(reader.position(), 0, "{bytes:02x?}");
    }
    let error = Reader::new(&[]).read_nil().unwrap_err();
    assert_eq!(error.to_string(), "unexpected end of input at offset 0");
}

#[test]
fn invalid_utf8_in_a_str() {
    // ["a", <c3 28>]: the second string is not UTF-8.
    let bytes = [0x92, 0xa1, b'a', 0xa2, 0xc3, 0x28];
    let error = Error::new(ErrorKind::InvalidUtf8, 3);
    let mut reader = Reader::new(&bytes);
    assert_eq!(reader.read_array_len(), Ok(2));
    assert_eq!(reader.read_str(), Ok("a"));
    assert_eq!(reader.read_str(), Err(error));
    assert_eq!(reader.position(), 3);
    assert_eq!(reader.clone().read_token(), Err(error));
    assert_eq!(reader.read_str_bytes(), Ok(&[0xc3, 0x28][..]));
    assert_eq!(reader.finish(), Ok(()));
    assert_eq!(error.to_string(), "invalid UTF-8 in string at offset 3");

    assert_eq!(Value::from_slice(&bytes), Err(error));
    assert_eq!(ValueRef::from_slice(&bytes), Err(error));
    // Skipping does not look inside strings.
    let mut reader = Reader::new(&bytes);
    assert_eq!(reader.skip(), Ok(()));
    assert!(reader.is_empty());

    // A surrogate half, as CESU-8 would write it.
    let surrogate = [0xa3, 0xed, 0xa0, 0x80];
    assert_eq!(
        Value::from_slice(&surrogate),
        Err(Error::new(ErrorKind::InvalidUtf8, 0))
    );
}

#[test]
fn write_str_bytes_writes_any_bytes_in_the_str_family() {
    let mut out = Vec::new();
    assert_eq!(
        encode::write_str_bytes(&mut out, &[0xc3, 0x28]),
        Ok(Marker::FixStr(2))
    );
    assert_eq!(out, [0xa2, 0xc3, 0x28]);
    assert_eq!(Reader::new(&out).read_str_bytes(), Ok(&[0xc3, 0x28][..]));
}

#[test]
fn trailing_bytes() {
    let error = Error::new(ErrorKind::TrailingBytes, 1);
    assert_eq!(Value::from_slice(&[0xc0, 0xc0]), Err(error));
    assert_eq!(ValueRef::from_slice(&[0xc0, 0xc0]), Err(error));
    assert_eq!(
        error.to_string(),
        "trailing bytes after the value at offset 1"
    );
    assert_eq!(
        Value::from_slice(&[0x91, 0x01, 0x02, 0x03]),
        Err(Error::new(ErrorKind::TrailingBytes, 2))
    );
    // One value at a time is fine.
    let mut reader = Reader::new(&[0xc0, 0x07]);
    assert_eq!(Value::decode(&mut reader), Ok(Value::Nil));
    assert_eq!(reader.finish(), Err(error));
    assert_eq!(Value::decode(&mut reader), Ok(Value::from(7)));
    assert_eq!(reader.finish(), Ok(()));
}

#[cfg(target_pointer_width = "64")]
#[test]
fn lengths_beyond_u32_are_encode_errors() {
    type LenWriter = fn(&mut Vec<u8>, usize) -> Result<Marker, EncodeError<Infallible>>;
    let table: [(&str, LenWriter); 5] = [
        ("str", |out, len| encode::write_str_len(out, len)),
        ("bin", |out, len| encode::write_bin_len(out, len)),
        ("array", |out, len| encode::write_array_len(out, len)),
        ("map", |out, len| encode::write_map_len(out, len)),
        ("ext", |out, len| encode::write_ext_meta(out, len, 1)),
    ];
    for (family, write) in table {
        for len in [u32::MAX as usize + 1, usize::MAX] {
            let mut out = Vec::new();
            assert_eq!(
                write(&mut out, len),
                Err(EncodeError::LengthOverflow(len)),
                "{family} of {len}"
            );
            assert!(out.is_empty(), "{family} of {len} wrote {out:02x?}");
        }
    }
    assert_eq!(
        EncodeError::<Infallible>::LengthOverflow(u32::MAX as usize + 1).to_string(),
        "length 4294967296 exceeds the MessagePack maximum of 4294967295"
    );
}

/// A message with a bit of everything.
fn message() -> Value {
    Value::Map(vec![
        (Value::from("id"), Value::from(300)),
        (Value::from("name"), Value::from(text(40))),
        (
            Value::from(-7),
            Value::Array(vec![
                Value::F32(1.5),
                Value::F64(2.5),
                Value::Nil,
                Value::Bool(true),
            ]),
        ),
        (Value::from("raw"), Value::Bin(vec![1, 2, 3])),
        (Value::from("at"), Value::from(Timestamp::from_seconds(1))),
        (Value::from("big"), Value::from(u64::MAX)),
        (Value::from("neg"), Value::from(i64::MIN)),
    ])
}

#[test]
fn slice_writer_reports_buffer_full_at_every_size() {
    let value = message();
    let full = value.to_vec().unwrap();
    for size in 0..full.len() {
        let mut buf = vec![0u8; size];
        let mut writer = SliceWriter::new(&mut buf);
        assert_eq!(
            value.encode(&mut writer),
            Err(EncodeError::Write(BufferFull)),
            "buffer of {size}"
        );
        assert!(writer.len() <= size);
        assert_eq!(writer.written(), &full[..writer.len()], "buffer of {size}");
    }
    for size in [full.len(), full.len() + 3] {
        let mut buf = vec![0u8; size];
        let mut writer = SliceWriter::new(&mut buf);
        assert!(writer.is_empty());
        assert_eq!(value.encode(&mut writer), Ok(()));
        assert_eq!(writer.written(), full);
        assert_eq!(writer.into_written(), full);
    }
}

#[test]
fn slice_writer_scalar_writes_are_all_or_nothing() {
    let mut buf = [0u8; 2];
    let mut writer = SliceWriter::new(&mut buf);
    assert_eq!(encode::write_u16(&mut writer, 1), Err(BufferFull));
    assert_eq!(encode::write_f32(&mut writer, 1.0), Err(BufferFull));
    assert_eq!(encode::write_uint(&mut writer, 256), Err(BufferFull));
    assert_eq!(
        encode::write_array_len(&mut writer, 16),
        Err(EncodeError::Write(BufferFull))
    );
    assert!(writer.is_empty());
    assert_eq!(encode::write_uint(&mut writer, 255), Ok(Marker::U8));
    assert_eq!(encode::write_nil(&mut writer), Err(BufferFull));
    assert_eq!(writer.written(), [0xcc, 0xff]);
    assert_eq!(
        EncodeError::Write(BufferFull).to_string(),
        "write failed: output buffer is full"
    );
}

#[test]
fn io_writer_writes_to_a_cursor() {
    let value = message();
    let mut writer = IoWriter::new(io::Cursor::new(Vec::new()));
    value.encode(&mut writer).unwrap();
    assert_eq!(
        encode::write_int(&mut writer, -1).unwrap(),
        Marker::FixNeg(-1)
    );
    assert_eq!(
        writer.get_mut().position() as usize,
        value.to_vec().unwrap().len() + 1
    );
    let written = writer.into_inner().into_inner();
    assert_eq!(written, [value.to_vec().unwrap(), vec![0xff]].concat());
}

#[test]
fn io_writer_passes_io_errors_on() {
    let mut buf = [0u8; 3];
    let mut writer = IoWriter::new(&mut buf[..]);
    match encode::write_str(&mut writer, "hello") {
        Err(EncodeError::Write(error)) => assert_eq!(error.kind(), io::ErrorKind::WriteZero),
        other => panic!("expected an I/O error, got {other:?}"),
    }
}
