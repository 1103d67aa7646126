//! Tests of the codec that count the bytes it scans.

use super::*;
use bytes::Bytes;

/// A 10 MB value: an array of ten 1 MB strings and 1000 short ones,
/// so that chunks cut headers and payloads everywhere.
fn big_value() -> (Vec<u8>, Vec<String>) {
    let mut strings = vec!["a".repeat(1 << 20); 10];
    strings.extend(std::iter::repeat_n("abc".to_string(), 1000));
    (msgpack_serde::to_vec(&strings).unwrap(), strings)
}

/// Feeds `bytes` to `codec` `chunk` bytes at a time, as `FramedRead`
/// does; returns the one value decoded and the bytes of work done.
fn feed<T: DeserializeOwned + 'static>(bytes: &[u8], chunk: usize) -> (T, usize) {
    let mut codec = MsgPackCodec::<(), T>::new();
    let mut buffer = BytesMut::new();
    let mut decoded = None;
    for piece in bytes.chunks(chunk) {
        buffer.extend_from_slice(piece);
        if let Some(value) = codec.decode(&mut buffer).unwrap() {
            assert!(decoded.is_none(), "one value");
            decoded = Some(value);
        }
    }
    assert!(buffer.is_empty());
    (decoded.expect("the value"), codec.work)
}

#[test]
fn a_ten_megabyte_value_is_scanned_in_linear_time_however_it_arrives() {
    let (bytes, strings) = big_value();
    assert!(bytes.len() > 10_000_000);
    for chunk in [1, 7, 64 * 1024] {
        // Framed as it arrives, then decoded once: each byte is
        // scanned twice, plus the attempts at decoding in place (the
        // first chunk's, then while the buffer doubles, up to 16 KiB);
        // rescanning from the start at each chunk would be hundreds of
        // times that even at 64 KiB.
        let (decoded, work) = feed::<Vec<String>>(&bytes, chunk);
        assert_eq!(decoded, strings);
        assert!(
            work <= 2 * bytes.len() + 3 * chunk,
            "{chunk}-byte chunks: {work} bytes scanned"
        );

        let (frame, work) = feed::<Bytes>(&bytes, chunk);
        assert_eq!(frame, bytes);
        assert!(
            work <= 2 * bytes.len() + 3 * chunk,
            "{chunk}-byte chunks, raw: {work} bytes scanned"
        );
    }
}

#[test]
fn values_that_arrive_whole_are_scanned_once() {
    let values: Vec<(u32, String)> = (0..1000).map(|i| (i, i.to_string())).collect();
    let bytes: Vec<u8> = values
        .iter()
        .flat_map(|value| msgpack_serde::to_vec(value).unwrap())
        .collect();
    let mut codec = MsgPackCodec::<(), (u32, String)>::new();
    let mut buffer = BytesMut::from(&bytes[..]);
    for value in &values {
        assert_eq!(codec.decode(&mut buffer).unwrap().as_ref(), Some(value));
    }
    // Each decode in place is handed the rest of the buffer, and reads
    // only its value.
    assert!(buffer.is_empty());
    assert_eq!(codec.work, bytes.len());
    assert_eq!(codec.framer.offset(), bytes.len());
}

/// A value cut off by a read is framed as far as it came, then, once
/// the rest has arrived, decoded where it lies: the rest is not framed
/// first. The same for `Value`s and raw frames.
#[test]
fn a_value_cut_off_by_a_read_is_decoded_in_place_once_whole() {
    let first = msgpack_serde::to_vec(&(1u32, "x".repeat(40))).unwrap();
    let second = msgpack_serde::to_vec(&(2u32, "y".repeat(40))).unwrap();
    let cut = 10;
    let after = [0xc0]; // nil, the next value
    fn run<T: DeserializeOwned + PartialEq + std::fmt::Debug + 'static>(
        parts: [&[u8]; 3],
        want: [T; 2],
    ) -> usize {
        // Raw frames are found in place under no depth or value limit
        // (msgpack-rpc's): the framer counts both over the whole value.
        let mut codec = MsgPackCodec::<(), T>::new().with_limits(Limits::unlimited());
        let mut buffer = BytesMut::new();
        let [want_first, want_second] = want;
        buffer.extend_from_slice(parts[0]);
        assert_eq!(codec.decode(&mut buffer).unwrap(), Some(want_first));
        assert_eq!(codec.decode(&mut buffer).unwrap(), None);
        buffer.extend_from_slice(parts[1]);
        buffer.extend_from_slice(parts[2]);
        assert_eq!(codec.decode(&mut buffer).unwrap(), Some(want_second));
        assert_eq!(codec.framer.offset(), parts[0].len() + parts[1].len());
        assert_eq!(&buffer[..], parts[2]);
        codec.work
    }
    let mut head = first.clone();
    head.extend_from_slice(&second[..cut]);
    let parts = [&head[..], &second[cut..], &after[..]];
    // The first in place, the cut part of the second framed, then the
    // second in place.
    let expected = first.len() + cut + second.len();
    let serde = run(parts, [(1u32, "x".repeat(40)), (2, "y".repeat(40))]);
    let values = [&first, &second].map(|bytes| msgpack_serde::from_slice::<Value>(bytes).unwrap());
    let value = run(parts, values);
    let raw = run(
        parts,
        [Bytes::from(first.clone()), Bytes::from(second.clone())],
    );
    assert_eq!([serde, value, raw], [expected; 3]);
}
