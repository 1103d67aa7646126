//! Values back to back: `StreamDeserializer` over a slice and a reader,
//! offsets after each value, end-of-input versus corrupt data, and a
//! reader deserializer that reads no further than one value.

use std::io::{self, Cursor, Read};

use msgpack_serde::{Deserializer, Limits, StreamDeserializer, Value};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Tick {
    symbol: String,
    price: f64,
    volume: u32,
}

fn ticks() -> Vec<Tick> {
    vec![
        Tick {
            symbol: "ACME".into(),
            price: 101.25,
            volume: 300,
        },
        Tick {
            symbol: "INIT".into(),
            price: 0.5,
            volume: 70_000,
        },
        Tick {
            symbol: "Z".into(),
            price: -1.0,
            volume: 0,
        },
    ]
}

/// The ticks back to back (mixing named and compact mode), and the offset
/// just past each.
fn encoded() -> (Vec<u8>, Vec<usize>) {
    let mut bytes = Vec::new();
    let mut ends = Vec::new();
    for (i, tick) in ticks().iter().enumerate() {
        if i % 2 == 0 {
            msgpack_serde::to_writer(&mut bytes, tick).unwrap();
        } else {
            msgpack_serde::to_writer_compact(&mut bytes, tick).unwrap();
        }
        ends.push(bytes.len());
    }
    (bytes, ends)
}

/// A reader that hands out one byte per `read`, like a slow socket.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&byte, rest)), Some(slot)) => {
                *slot = byte;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn from_slice_values_and_offsets() {
    let (bytes, ends) = encoded();
    let mut stream = StreamDeserializer::<_, Tick>::from_slice(&bytes);
    assert_eq!(stream.byte_offset(), 0);
    for (tick, end) in ticks().iter().zip(&ends) {
        assert_eq!(&stream.next().unwrap().unwrap(), tick);
        assert_eq!(stream.byte_offset(), *end);
    }
    assert!(stream.next().is_none());
    assert_eq!(stream.byte_offset(), bytes.len());
}

#[test]
fn from_reader_values_and_offsets() {
    let (bytes, ends) = encoded();
    let mut stream = StreamDeserializer::<_, Tick>::from_reader(Cursor::new(&bytes));
    assert_eq!(stream.byte_offset(), 0);
    for (tick, end) in ticks().iter().zip(&ends) {
        assert_eq!(&stream.next().unwrap().unwrap(), tick);
        assert_eq!(stream.byte_offset(), *end);
    }
    assert!(stream.next().is_none());

    // One byte per read makes no difference.
    let all: Vec<Tick> = StreamDeserializer::from_reader(Trickle(&bytes))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(all, ticks());
}

#[test]
fn mixed_values() {
    let mut bytes = Vec::new();
    for value in [
        msgpack_serde::msgpack!(null),
        msgpack_serde::msgpack!([1, "two", {"three": 3.0}]),
        Value::Bin(vec![1, 2]),
        Value::Ext(1, vec![0; 3]),
        msgpack_serde::msgpack!({}),
    ] {
        bytes.extend(value.to_vec().unwrap());
    }
    let from_slice: Vec<Value> = StreamDeserializer::from_slice(&bytes)
        .collect::<Result<_, _>>()
        .unwrap();
    let from_reader: Vec<Value> = StreamDeserializer::from_reader(&bytes[..])
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(from_slice.len(), 5);
    assert_eq!(from_slice, from_reader);
    assert_eq!(from_slice[3], Value::Ext(1, vec![0; 3]));
}

#[test]
fn empty_input_has_no_values() {
    assert!(StreamDeserializer::<_, Value>::from_slice(&[])
        .next()
        .is_none());
    assert!(StreamDeserializer::<_, Value>::from_reader(io::empty())
        .next()
        .is_none());
}

#[test]
fn borrows_from_a_slice() {
    let mut bytes = Vec::new();
    for word in ["alpha", "beta"] {
        bytes.extend(msgpack_serde::to_vec(word).unwrap());
    }
    let words: Vec<&str> = StreamDeserializer::from_slice(&bytes)
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(words, ["alpha", "beta"]);
    assert!(bytes.as_ptr_range().contains(&words[1].as_ptr()));
}

#[test]
fn truncated_final_value_is_eof() {
    let (mut bytes, ends) = encoded();
    let whole = bytes.len();
    // Half of a fourth tick.
    let fourth = msgpack_serde::to_vec(&ticks()[0]).unwrap();
    bytes.extend(&fourth[..fourth.len() / 2]);

    let mut stream = StreamDeserializer::<_, Tick>::from_slice(&bytes);
    for _ in 0..3 {
        stream.next().unwrap().unwrap();
    }
    let error = stream.next().unwrap().unwrap_err();
    assert!(error.is_eof(), "{error}");
    assert_eq!(
        error.to_string(),
        format!("unexpected end of input at offset {}", bytes.len())
    );
    // Resume from here once more bytes arrive.
    assert_eq!(stream.byte_offset(), ends[2]);
    assert_eq!(stream.byte_offset(), whole);
    assert!(stream.next().is_none());

    let mut stream = StreamDeserializer::<_, Tick>::from_reader(Cursor::new(&bytes));
    for _ in 0..3 {
        stream.next().unwrap().unwrap();
    }
    let error = stream.next().unwrap().unwrap_err();
    assert!(error.is_eof(), "{error}");
    assert_eq!(
        error.to_string(),
        format!("unexpected end of input at offset {}", bytes.len())
    );
    assert!(stream.next().is_none());

    // Cut inside the header of a str 8.
    let bytes = [0x01, 0xd9];
    let mut stream = StreamDeserializer::<_, Value>::from_reader(&bytes[..]);
    assert_eq!(stream.next().unwrap().unwrap(), Value::from(1));
    assert!(stream.next().unwrap().unwrap_err().is_eof());
}

#[test]
fn corrupt_value_is_not_eof() {
    let (mut bytes, ends) = encoded();
    bytes.push(0xc1);
    bytes.extend(msgpack_serde::to_vec(&ticks()[0]).unwrap());

    let mut stream = StreamDeserializer::<_, Tick>::from_slice(&bytes);
    for _ in 0..3 {
        stream.next().unwrap().unwrap();
    }
    let error = stream.next().unwrap().unwrap_err();
    assert!(!error.is_eof());
    assert!(error.is_syntax());
    assert_eq!(
        error.to_string(),
        format!("reserved marker 0xc1 at offset {}", ends[2])
    );
    assert_eq!(stream.byte_offset(), ends[2]);
    // After an error the stream ends, even though a good value follows.
    assert!(stream.next().is_none());

    let mut stream = StreamDeserializer::<_, Tick>::from_reader(Cursor::new(&bytes));
    for _ in 0..3 {
        stream.next().unwrap().unwrap();
    }
    let error = stream.next().unwrap().unwrap_err();
    assert!(!error.is_eof());
    assert_eq!(
        error.to_string(),
        format!("reserved marker 0xc1 at offset {}", ends[2])
    );
    assert!(stream.next().is_none());
}

#[test]
fn data_errors_have_stream_offsets() {
    // Two u8s, then 300.
    let bytes = [0x01, 0x02, 0xcd, 0x01, 0x2c];
    let expected = "invalid value: integer `300`, expected u8 at offset 2";

    let results: Vec<_> = StreamDeserializer::<_, u8>::from_slice(&bytes).collect();
    assert_eq!(results.len(), 3);
    assert_eq!(results[2].as_ref().unwrap_err().to_string(), expected);

    let results: Vec<_> = StreamDeserializer::<_, u8>::from_reader(&bytes[..]).collect();
    assert_eq!(results.len(), 3);
    assert_eq!(results[2].as_ref().unwrap_err().to_string(), expected);

    // Deep inside the second value of a reader stream.
    let mut bytes = msgpack_serde::to_vec(&ticks()[0]).unwrap();
    let base = bytes.len();
    bytes.extend([0x93, 0xa1, b'X', 0xa1, b'?', 0x01]);
    let results: Vec<_> = StreamDeserializer::<_, Tick>::from_reader(&bytes[..]).collect();
    assert_eq!(
        results[1].as_ref().unwrap_err().to_string(),
        format!(
            r#"invalid type: string "?", expected f64 at offset {}"#,
            base + 3
        )
    );
}

#[test]
fn limits_apply_to_each_value() {
    let mut bytes = Vec::new();
    bytes.extend(msgpack_serde::to_vec(&[[1]]).unwrap());
    bytes.extend(msgpack_serde::to_vec(&[[[1]]]).unwrap());
    let limits = Limits::default().max_depth(2);

    let results: Vec<_> = StreamDeserializer::<_, Value>::from_slice(&bytes)
        .with_limits(limits)
        .collect();
    assert_eq!(results.len(), 2);
    assert_eq!(
        results[0].as_ref().unwrap(),
        &msgpack_serde::msgpack!([[1]])
    );
    assert_eq!(
        results[1].as_ref().unwrap_err().to_string(),
        "nesting exceeds the depth limit of 2 at offset 5"
    );

    let results: Vec<_> = StreamDeserializer::<_, Value>::from_reader(&bytes[..])
        .with_limits(limits)
        .collect();
    assert_eq!(results.len(), 2);
    assert_eq!(
        results[1].as_ref().unwrap_err().to_string(),
        "nesting exceeds the depth limit of 2 at offset 5"
    );

    // Value counts restart with each value.
    let ones = [0x91, 0x01].repeat(10);
    let count = StreamDeserializer::<_, Value>::from_reader(&ones[..])
        .with_limits(Limits::default().max_values(2))
        .map(Result::unwrap)
        .count();
    assert_eq!(count, 10);
}

#[test]
fn reader_deserializer_reads_one_value_only() {
    let (bytes, ends) = encoded();
    let mut cursor = Cursor::new(&bytes);

    let mut de = Deserializer::from_reader(&mut cursor);
    let first = Tick::deserialize(&mut de).unwrap();
    assert_eq!(de.byte_offset(), ends[0]);
    drop(de);
    assert_eq!(first, ticks()[0]);
    assert_eq!(cursor.position(), ends[0] as u64);

    // The rest of the stream is still there for whoever reads next.
    let mut de = Deserializer::from_reader(&mut cursor);
    let second = Tick::deserialize(&mut de).unwrap();
    drop(de);
    assert_eq!(second, ticks()[1]);
    assert_eq!(cursor.position(), ends[1] as u64);

    let mut rest = Vec::new();
    cursor.read_to_end(&mut rest).unwrap();
    assert_eq!(rest, bytes[ends[1]..]);
}

#[test]
fn reader_deserializer_reads_nothing_past_a_scalar() {
    for (bytes, len) in [
        (&[0x05, 0xff][..], 1u64),
        (&[0xcd, 0x01, 0x2c, 0xff][..], 3),
        (&[0xa2, b'h', b'i', 0xff][..], 3),
        (&[0xc4, 0x01, 0x07, 0xff][..], 3),
        (&[0xd6, 0xff, 0, 0, 0, 1, 0xff][..], 6),
        (&[0x81, 0xa1, b'k', 0x90, 0xff][..], 4),
    ] {
        let mut cursor = Cursor::new(bytes);
        let mut de = Deserializer::from_reader(&mut cursor);
        Value::deserialize(&mut de).unwrap();
        assert_eq!(de.byte_offset() as u64, len);
        let cursor = de.into_inner();
        assert_eq!(cursor.position(), len, "{bytes:02x?}");
    }
}

#[test]
fn slice_deserializer_offsets_and_end() {
    let bytes = [0x01, 0xa1, b'x'];
    let mut de = Deserializer::from_slice(&bytes);
    assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    assert_eq!(de.byte_offset(), 1);
    assert_eq!(
        de.end().unwrap_err().to_string(),
        "trailing bytes after the value at offset 1"
    );
    assert_eq!(<&str>::deserialize(&mut de).unwrap(), "x");
    assert_eq!(de.byte_offset(), 3);
    de.end().unwrap();

    // A failed value does not move the offset.
    let bytes = [0x01, 0xcd, 0x01];
    let mut de = Deserializer::from_slice(&bytes);
    u8::deserialize(&mut de).unwrap();
    assert!(u16::deserialize(&mut de).unwrap_err().is_eof());
    assert_eq!(de.byte_offset(), 1);

    let mut de = Deserializer::from_reader(&bytes[..1]);
    u8::deserialize(&mut de).unwrap();
    de.end().unwrap();
}
