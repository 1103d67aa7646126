//! Tests of the framer.

use alloc::string::ToString;
use alloc::vec;

use super::*;
use crate::Reader;

/// Frames `stream` fed in `chunk`-sized pieces, as a stream reader
/// does: each byte fed once, the rest of a chunk fed again after a
/// value ends. Returns the values' lengths and the bytes fed.
fn frame_in_chunks(framer: &mut Framer, stream: &[u8], chunk: usize) -> (Vec<usize>, usize) {
    let mut lens = Vec::new();
    let mut fed = 0;
    for mut piece in stream.chunks(chunk) {
        loop {
            match framer.feed(piece).unwrap() {
                Framed::Value { len, used } => {
                    lens.push(len);
                    fed += used;
                    piece = &piece[used..];
                    if piece.is_empty() {
                        break;
                    }
                }
                Framed::NeedMore => {
                    fed += piece.len();
                    break;
                }
            }
        }
    }
    (lens, fed)
}

/// One value of every format, each with `Reader::skip`'s length.
fn samples() -> Vec<Vec<u8>> {
    let mut samples: Vec<Vec<u8>> = vec![
        vec![0x00],
        vec![0xff],
        vec![0xc0],
        vec![0xc3],
        vec![0xcc, 1],
        vec![0xcd, 1, 2],
        vec![0xce, 1, 2, 3, 4],
        vec![0xcf, 1, 2, 3, 4, 5, 6, 7, 8],
        vec![0xd3, 1, 2, 3, 4, 5, 6, 7, 8],
        vec![0xca, 1, 2, 3, 4],
        vec![0xcb, 1, 2, 3, 4, 5, 6, 7, 8],
        vec![0xa2, b'h', b'i'],
        vec![0xd9, 1, b'x'],
        vec![0xda, 0, 2, b'x', b'y'],
        vec![0xdb, 0, 0, 0, 1, b'x'],
        vec![0xc4, 1, 9],
        vec![0xc5, 0, 1, 9],
        vec![0xc6, 0, 0, 0, 0],
        vec![0xd4, 1, 9],
        vec![
            0xd8, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
        ],
        vec![0xc7, 2, 5, 1, 2],
        vec![0xc8, 0, 1, 5, 1],
        vec![0xc9, 0, 0, 0, 0, 5],
        vec![0x90],
        vec![0x80],
        vec![0x92, 0x91, 0x01, 0xa1, b'x'],
        vec![0xdc, 0, 2, 0xc0, 0xc2],
        vec![0xdd, 0, 0, 0, 1, 0x80],
        vec![0x82, 0x01, 0x91, 0x90, 0xa1, b'k', 0xde, 0, 1, 0xc0, 0xc0],
        vec![0xdf, 0, 0, 0, 1, 0xd6, 0xff, 0, 0, 0, 0, 0x07],
    ];
    let mut deep = vec![0x91; 100];
    deep.push(0x2a);
    samples.push(deep);
    for sample in &samples {
        let mut reader = Reader::new(sample);
        reader.skip().unwrap();
        assert!(reader.is_empty(), "{sample:02x?}");
    }
    samples
}

#[test]
fn every_format_frames_whole_in_every_split() {
    let samples = samples();
    let stream: Vec<u8> = samples.concat();
    let expected: Vec<usize> = samples.iter().map(Vec::len).collect();
    for chunk in 1..=stream.len() {
        let mut framer = Framer::new(Limits::default());
        let (lens, fed) = frame_in_chunks(&mut framer, &stream, chunk);
        assert_eq!(lens, expected, "chunks of {chunk}");
        assert_eq!(fed, stream.len());
        assert_eq!(framer.offset(), stream.len());
        assert!(!framer.in_value());
    }
}

#[test]
fn reading_the_least_needed_never_reads_past_a_value() {
    for sample in samples() {
        let mut framer = Framer::new(Limits::default());
        let mut rest = &sample[..];
        loop {
            let (piece, tail) = rest.split_at(framer.least_needed());
            rest = tail;
            match framer.feed(piece).unwrap() {
                Framed::Value { len, used } => {
                    assert_eq!((len, used), (sample.len(), piece.len()));
                    assert!(rest.is_empty());
                    break;
                }
                Framed::NeedMore => assert!(!rest.is_empty(), "{sample:02x?}"),
            }
        }
    }
}

#[test]
fn every_prefix_needs_more() {
    for sample in samples() {
        for end in 0..sample.len() {
            let mut framer = Framer::new(Limits::default());
            assert_eq!(framer.feed(&sample[..end]), Ok(Framed::NeedMore));
            assert_eq!(framer.offset(), end);
            assert_eq!(framer.in_value(), end > 0);
        }
    }
}

#[test]
fn a_ten_megabyte_value_is_scanned_once_however_it_is_split() {
    // An array of 10 strings of 1 MB, and 1000 small strings: headers
    // and payloads cut everywhere.
    let mut value = vec![0xdc, 0x03, 0xf2];
    for _ in 0..10 {
        value.extend_from_slice(&[0xdb, 0x00, 0x10, 0x00, 0x00]);
        value.resize(value.len() + (1 << 20), b'a');
    }
    for _ in 0..1000 {
        value.extend_from_slice(&[0xa3, b'a', b'b', b'c']);
    }
    for chunk in [1, 7, 64 * 1024] {
        let mut framer = Framer::new(Limits::default());
        let (lens, fed) = frame_in_chunks(&mut framer, &value, chunk);
        assert_eq!(lens, [value.len()], "chunks of {chunk}");
        assert_eq!(fed, value.len(), "chunks of {chunk}: every byte fed once");
    }
}

#[test]
fn errors_name_the_limit_and_the_stream_offset() {
    let cases: &[(Limits, usize, &[u8], &str)] = &[
        (
            Limits::new(),
            usize::MAX,
            &[0x01, 0x92, 0xc1],
            "reserved marker 0xc1 at offset 2",
        ),
        (
            Limits::new(),
            1024,
            &[0xc0, 0xdb, 0xff, 0xff, 0xff, 0xff],
            "value exceeds the frame size limit of 1024 bytes at offset 1",
        ),
        (
            Limits::new(),
            1024,
            &[0xdd, 0xff, 0xff, 0xff, 0xff],
            "value exceeds the frame size limit of 1024 bytes at offset 0",
        ),
        (
            Limits::new(),
            4,
            &[0x93, 0x01, 0x02, 0xcd],
            "value exceeds the frame size limit of 4 bytes at offset 3",
        ),
        (
            Limits::new().max_depth(2),
            usize::MAX,
            &[0x01, 0x91, 0x92, 0x01, 0x91],
            "nesting exceeds the depth limit of 2 at offset 4",
        ),
        (
            Limits::new().max_values(3),
            usize::MAX,
            &[0x92, 0x01, 0x02, 0x91, 0x92],
            "more values than the limit of 3 at offset 4",
        ),
        (
            Limits::new().max_values(0),
            usize::MAX,
            &[0xc0],
            "more values than the limit of 0 at offset 0",
        ),
        (
            Limits::new().max_bytes(3),
            usize::MAX,
            &[0x01, 0xa2, b'x', b'y'],
            "input exceeds the size limit of 3 bytes at offset 3",
        ),
        // An array 32 of 16 elements after a byte, under a stream size
        // limit of 4 and a frame size limit of 10: its header alone is
        // past the stream's end, which is what a header cut after its
        // marker shows, so that is the error whole or cut, though its
        // length is past the frame size limit too.
        (
            Limits::new().max_bytes(4),
            10,
            &[0x01, 0xdd, 0x00, 0x00, 0x00, 0x10],
            "input exceeds the size limit of 4 bytes at offset 4",
        ),
        // Fixints and fixstr past a value's first byte (read from the
        // marker byte alone): each counted in its container, each string
        // held to the frame and stream size limits.
        (
            Limits::new().max_depth(2),
            usize::MAX,
            &[0x92, 0x91, 0x01, 0x91, 0x91, 0x01],
            "nesting exceeds the depth limit of 2 at offset 4",
        ),
        (
            Limits::new(),
            5,
            &[0x92, 0xa3, b'a', b'b', b'c', 0x01],
            "value exceeds the frame size limit of 5 bytes at offset 1",
        ),
        (
            Limits::new().max_bytes(4),
            usize::MAX,
            &[0x91, 0xa4, b'w', b'x', b'y', b'z'],
            "input exceeds the size limit of 4 bytes at offset 4",
        ),
        // The value limit of 0 before the size limits, cut or not.
        (
            Limits::new().max_values(0).max_bytes(1),
            usize::MAX,
            &[0xd9, 0x05],
            "more values than the limit of 0 at offset 0",
        ),
    ];
    for &(limits, max_len, stream, message) in cases {
        // Whole, and a byte at a time: the same error either way.
        for chunk in [stream.len(), 1] {
            let mut framer = Framer::new(limits).max_len(max_len);
            let error = stream
                .chunks(chunk)
                .flat_map(|piece| {
                    let mut results = Vec::new();
                    let mut piece = piece;
                    loop {
                        let result = framer.feed(piece);
                        results.push(result);
                        match result {
                            Ok(Framed::Value { used, .. }) if used < piece.len() => {
                                piece = &piece[used..]
                            }
                            _ => break,
                        }
                    }
                    results
                })
                .find_map(Result::err)
                .unwrap_or_else(|| panic!("{message}: no error"));
            assert_eq!(error.to_string(), message, "chunks of {chunk}");
            // The stream stays ended.
            assert_eq!(framer.feed(&[0xc0]), Err(error));
        }
    }
}

#[test]
fn a_limit_met_exactly_passes() {
    let mut framer = Framer::new(Limits::new().max_depth(2).max_values(3)).max_len(3);
    assert_eq!(
        framer.feed(&[0x91, 0x91, 0x01]),
        Ok(Framed::Value { len: 3, used: 3 })
    );
    // A fixstr past the value's first byte, ending the frame limit.
    let mut framer = Framer::new(Limits::new()).max_len(6);
    assert_eq!(
        framer.feed(&[0x92, 0xa3, b'a', b'b', b'c', 0x01]),
        Ok(Framed::Value { len: 6, used: 6 })
    );
}

#[test]
fn a_cut_off_header_is_held_to_the_limits_as_a_whole_one() {
    // An empty str 8 (2 bytes) under a 2-byte frame limit, and a bin 8
    // of one byte (3 bytes) under a 3-byte stream limit: whole or a
    // byte at a time, each fits.
    let cases = [
        (Framer::new(Limits::default()).max_len(2), &[0xd9, 0x00][..]),
        (
            Framer::new(Limits::new().max_bytes(3)),
            &[0xc4, 0x01, 0x07][..],
        ),
    ];
    for (framer, stream) in cases {
        let whole = framer.clone().feed(stream);
        assert_eq!(
            whole,
            Ok(Framed::Value {
                len: stream.len(),
                used: stream.len()
            })
        );
        let (lens, _) = frame_in_chunks(&mut framer.clone(), stream, 1);
        assert_eq!(lens, [stream.len()], "{stream:02x?} a byte at a time");
    }
}

#[test]
fn depth_is_counted_as_value_decoding_counts_it() {
    // [[], [[]], []] is 3 deep: siblings do not add up.
    let stream = [0x93, 0x90, 0x91, 0x90, 0x90];
    for (depth, expected) in [
        (3, Ok(Framed::Value { len: 5, used: 5 })),
        (
            2,
            Err(Error::new(ErrorKind::DepthLimitExceeded { limit: 2 }, 3)),
        ),
    ] {
        let limits = Limits::new().max_depth(depth);
        assert_eq!(Framer::new(limits).feed(&stream), expected);
        let mut reader = Reader::with_limits(&stream, limits).unwrap();
        let decoded = crate::Value::decode(&mut reader).map(|_| ());
        assert_eq!(decoded, expected.map(|_| ()));
    }
}
