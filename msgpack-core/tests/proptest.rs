//! Properties over arbitrary values and arbitrary bytes: the round trip,
//! the stability of the smallest encoding, truncation, skipping, and
//! never panicking on garbage.

use msgpack_core::decode::str_from_utf8;
use msgpack_core::{
    encode, BufferFull, Error, ErrorKind, Marker, Reader, SliceWriter, Value, ValueRef,
};
use msgpack_test_support::strategies::{integer_value, noise, value};
use proptest::collection::vec;
use proptest::prelude::*;

/// Decodes `bytes` every way there is, and checks that the ways agree.
/// Must return, whatever the bytes.
fn decode_every_way(bytes: &[u8]) -> Result<(), TestCaseError> {
    let owned = Value::from_slice(bytes);
    let borrowed = ValueRef::from_slice(bytes);
    let mut reader = Reader::new(bytes);
    let skipped = reader.skip();
    match (&owned, &borrowed) {
        (Ok(owned), Ok(borrowed)) => {
            let encoded = owned.to_vec().unwrap();
            let mut borrowed_encoded = Vec::new();
            borrowed.encode(&mut borrowed_encoded).unwrap();
            prop_assert_eq!(&borrowed_encoded, &encoded);
            prop_assert_eq!(borrowed.to_string(), owned.to_string());
            // A decoded value always skips whole, and re-encodes stably.
            prop_assert_eq!(skipped, Ok(()));
            prop_assert!(reader.is_empty());
            let again = Value::from_slice(&encoded).unwrap().to_vec().unwrap();
            prop_assert_eq!(again, encoded);
        }
        (Err(owned), Err(borrowed)) => prop_assert_eq!(owned, borrowed),
        _ => prop_assert!(false, "owned {:?} but borrowed {:?}", owned, borrowed),
    }
    Ok(())
}

/// Asserts that `write` puts `expected` after a byte already written
/// into a fixed buffer with `room` bytes to spare, leaving the spare bytes
/// as they were; and into a buffer a byte short, nothing but `BufferFull`.
fn check_fixed_buffer(
    expected: &[u8],
    room: usize,
    write: impl Fn(&mut SliceWriter<'_>) -> Result<(), BufferFull>,
) -> Result<(), TestCaseError> {
    const SPARE: u8 = 0xa5;
    let mut buf = vec![SPARE; 1 + expected.len() + room];
    let mut writer = SliceWriter::new(&mut buf);
    prop_assert_eq!(encode::write_nil(&mut writer), Ok(()));
    prop_assert_eq!(write(&mut writer), Ok(()));
    prop_assert_eq!(writer.written(), &[&[0xc0], expected].concat()[..]);
    prop_assert!(buf[1 + expected.len()..].iter().all(|&b| b == SPARE));
    let mut short = vec![SPARE; expected.len() - 1];
    let mut writer = SliceWriter::new(&mut short);
    prop_assert_eq!(write(&mut writer), Err(BufferFull));
    prop_assert!(writer.is_empty());
    prop_assert!(short.iter().all(|&b| b == SPARE));
    Ok(())
}

/// Asserts that `write` puts `expected` into a `Vec`, after a byte
/// already there, and returns the marker of its first byte.
fn check_vec(expected: &[u8], write: impl Fn(&mut Vec<u8>) -> Marker) -> Result<(), TestCaseError> {
    let mut out = vec![0xc0];
    prop_assert_eq!(write(&mut out), Marker::from_u8(expected[0]));
    prop_assert_eq!(&out[1..], expected);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn decode_inverts_encode(value in value()) {
        let bytes = value.to_vec().unwrap();
        prop_assert_eq!(Value::from_slice(&bytes), Ok(value));
    }

    #[test]
    fn the_smallest_encoding_is_stable(value in value()) {
        let bytes = value.to_vec().unwrap();
        let again = Value::from_slice(&bytes).unwrap().to_vec().unwrap();
        prop_assert_eq!(again, bytes);
    }

    #[test]
    fn value_ref_decodes_the_same(value in value()) {
        let bytes = value.to_vec().unwrap();
        let borrowed = ValueRef::from_slice(&bytes).unwrap();
        prop_assert_eq!(&borrowed, &value.as_value_ref());
        prop_assert_eq!(borrowed.to_owned_value(), value.clone());
        prop_assert_eq!(borrowed.to_string(), value.to_string());
        let mut out = Vec::new();
        borrowed.encode(&mut out).unwrap();
        prop_assert_eq!(&out, &bytes);
    }

    #[test]
    fn skip_consumes_exactly_one_value(value in value(), trailing in vec(any::<u8>(), 0..8)) {
        let bytes = value.to_vec().unwrap();
        let input = [&bytes[..], &trailing].concat();
        let mut reader = Reader::new(&input);
        prop_assert_eq!(reader.skip(), Ok(()));
        prop_assert_eq!(reader.position(), bytes.len());
        let mut reader = Reader::new(&input);
        prop_assert_eq!(Value::decode(&mut reader), Ok(value));
        prop_assert_eq!(reader.position(), bytes.len());
    }

    #[test]
    fn every_strict_prefix_is_unexpected_eof(value in value()) {
        let bytes = value.to_vec().unwrap();
        for len in 0..bytes.len() {
            let prefix = &bytes[..len];
            let eof = Error::new(ErrorKind::UnexpectedEof, len);
            prop_assert_eq!(Value::from_slice(prefix).err(), Some(eof));
            prop_assert_eq!(ValueRef::from_slice(prefix).err(), Some(eof));
            prop_assert_eq!(Reader::new(prefix).skip(), Err(eof));
        }
    }

    /// The integer writers pick the form without branches; rmpv picks it
    /// with comparisons. Both must give the same smallest form, into a
    /// `Vec` and into a fixed buffer.
    #[test]
    fn integers_are_written_as_rmpv_writes_them(value in integer_value(), room in 0usize..12) {
        let Value::Int(n) = value else { unreachable!("integer_value() gives integers") };
        let theirs = match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => rmpv::Value::from(u),
            (None, Some(i)) => rmpv::Value::from(i),
            (None, None) => unreachable!("an integer is either u64 or i64: {}", n),
        };
        let mut expected = Vec::new();
        rmpv::encode::write_value(&mut expected, &theirs).unwrap();
        if let Some(u) = n.as_u64() {
            check_vec(&expected, |out| encode::write_uint(out, u).unwrap())?;
            check_fixed_buffer(&expected, room, |w| encode::write_uint(w, u).map(drop))?;
        }
        if let Some(i) = n.as_i64() {
            check_vec(&expected, |out| encode::write_int(out, i).unwrap())?;
            check_fixed_buffer(&expected, room, |w| encode::write_int(w, i).map(drop))?;
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in vec(any::<u8>(), 0..512)) {
        decode_every_way(&bytes)?;
    }

    #[test]
    fn msgpack_like_noise_never_panics(bytes in noise()) {
        decode_every_way(&bytes)?;
    }

    #[test]
    fn corrupted_encodings_never_panic(
        value in value(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut bytes = value.to_vec().unwrap();
        let at = at.index(bytes.len());
        bytes[at] = byte;
        decode_every_way(&bytes)?;
    }

    /// The ASCII fast path agrees with `core::str::from_utf8` on every
    /// input: mostly-ASCII bytes with a few high ones, at any length and
    /// alignment.
    #[test]
    fn str_from_utf8_agrees_with_core(
        bytes in vec(prop_oneof![8 => 0u8..0x80, 1 => any::<u8>()], 0..80),
        skip in 0usize..8,
    ) {
        let bytes = &bytes[skip.min(bytes.len())..];
        prop_assert_eq!(str_from_utf8(bytes), core::str::from_utf8(bytes));
    }
}

/// A single non-ASCII byte anywhere in a string of any short length is
/// seen: every position of the word-sized reads is checked.
#[test]
fn str_from_utf8_sees_a_high_byte_at_every_position() {
    for len in 1..=40 {
        for at in 0..len {
            let mut bytes = vec![b'a'; len];
            bytes[at] = 0x80; // a lone continuation byte: never UTF-8
            assert!(str_from_utf8(&bytes).is_err(), "len {len}, at {at}");
            bytes[at] = 0x7f;
            assert_eq!(str_from_utf8(&bytes).map(str::len), Ok(len));
        }
    }
    assert_eq!(str_from_utf8(b""), Ok(""));
}
