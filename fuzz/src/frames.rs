//! The `frame` target's check: the resumable `Framer`, fed the input in
//! pieces of many sizes, against `Reader::skip` on the whole of it.

use msgpack_core::{Error as WireError, ErrorKind, Framed, Framer, Limits, Reader, Value};

/// The lengths of the whole values `Reader::skip` finds one after another
/// at the start of `data`, and the error that stopped it, if one did.
pub(crate) fn skipped(data: &[u8]) -> (Vec<usize>, Option<WireError>) {
    let mut reader = Reader::new(data);
    let mut lens = Vec::new();
    while !reader.is_empty() {
        let start = reader.position();
        if let Err(error) = reader.skip() {
            return (lens, Some(error));
        }
        lens.push(reader.position() - start);
    }
    (lens, None)
}

/// What a framer found in `data` fed in pieces of the sizes `sizes` gives
/// (cycled): the values' lengths, and how it stopped: whether inside a
/// value, or the error.
fn framed(
    mut framer: Framer,
    data: &[u8],
    sizes: &mut dyn FnMut(&Framer) -> usize,
) -> (Vec<usize>, Result<bool, WireError>) {
    let mut lens = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let (mut piece, tail) = rest.split_at(sizes(&framer).clamp(1, rest.len()));
        rest = tail;
        while !piece.is_empty() {
            match framer.feed(piece) {
                Ok(Framed::Value { len, used }) => {
                    lens.push(len);
                    piece = &piece[used..];
                }
                Ok(Framed::NeedMore) => break,
                Err(error) => return (lens, Err(error)),
            }
        }
    }
    assert_eq!(framer.offset(), data.len());
    (lens, Ok(framer.in_value()))
}

/// How big the next piece is, given the framer it goes to.
type Sizes<'a> = Box<dyn FnMut(&Framer) -> usize + 'a>;

/// Piece sizes from a small generator seeded by the input, so that the
/// fuzzer's mutations move the cuts too.
pub(crate) fn pseudo_random(data: &[u8], max: usize) -> impl FnMut() -> usize {
    let mut state = data.iter().fold(data.len() as u64 | 1, |h, &b| {
        h.wrapping_mul(31).wrapping_add(b as u64)
    });
    move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        1 + (state >> 33) as usize % max
    }
}

/// The ways `frame` cuts its input: whole, byte by byte, pseudo-random
/// pieces of up to 16 and up to 4096 bytes, and `least_needed` at a time.
fn splits(data: &[u8]) -> [(&'static str, Sizes<'_>); 5] {
    [
        ("whole", Box::new(|_| usize::MAX)),
        ("bytes", Box::new(|_| 1)),
        ("up to 16", {
            let mut next = pseudo_random(data, 16);
            Box::new(move |_| next())
        }),
        ("up to 4096", {
            let mut next = pseudo_random(data, 4096);
            Box::new(move |_| next())
        }),
        ("least needed", Box::new(Framer::least_needed)),
    ]
}

/// The `frame` target: however the input is cut, the framer finds the
/// values `skip` finds, of the same lengths, and stops where it stops:
/// at the same reserved byte, or inside a value cut short (where `skip`
/// may report the end of input before a reserved byte the framer reaches,
/// as it stops once the values owed outnumber the bytes left). Reading
/// `least_needed` bytes at a time never passes a value's end. Under depth
/// and value limits each whole value frames as `Value::decode` decodes
/// it, errors and their offsets alike, and the frame size limit holds at
/// its exact length. Under every limit at once (depth, values, a stream
/// of half the input, frames of 40 bytes), every cut stops the same way.
pub fn frame(data: &[u8]) {
    let (lens, stop) = skipped(data);
    for (name, mut sizes) in splits(data) {
        let (framed_lens, end) = framed(Framer::new(Limits::unlimited()), data, &mut *sizes);
        assert_eq!(framed_lens, lens, "{name}");
        match stop {
            None => assert_eq!(end, Ok(false), "{name}"),
            Some(error) if error.kind() == ErrorKind::ReservedMarker => {
                assert_eq!(end, Err(error), "{name}")
            }
            Some(error) => {
                assert_eq!(error.kind(), ErrorKind::UnexpectedEof, "{name}");
                match end {
                    Ok(in_value) => assert!(in_value, "{name}"),
                    Err(framed) => {
                        assert_eq!(framed.kind(), ErrorKind::ReservedMarker, "{name}");
                        assert!(framed.offset() < data.len());
                    }
                }
            }
        }
    }

    let limits = Limits::new().max_depth(4).max_values(32);
    let mut start = 0;
    for &len in &lens {
        let value = &data[start..start + len];
        start += len;
        let framed = Framer::new(limits).feed(value);
        let decoded =
            Reader::with_limits(value, limits).and_then(|mut reader| Value::decode(&mut reader));
        match (framed, decoded) {
            (Ok(framed), Ok(_)) => assert_eq!(framed, Framed::Value { len, used: len }),
            (Err(framed), Err(decoded)) if decoded.kind() != ErrorKind::InvalidUtf8 => {
                assert_eq!(framed, decoded)
            }
            // Only decoding checks UTF-8, and it stops there.
            (_, Err(decoded)) => assert_eq!(decoded.kind(), ErrorKind::InvalidUtf8),
            (Err(framed), Ok(_)) => panic!("the framer refused what decodes: {framed}"),
        }
        let mut at_limit = Framer::new(Limits::unlimited()).max_len(len);
        assert_eq!(at_limit.feed(value), Ok(Framed::Value { len, used: len }));
        let error = Framer::new(Limits::unlimited())
            .max_len(len - 1)
            .feed(value)
            .unwrap_err();
        assert_eq!(
            error.kind(),
            ErrorKind::FrameLimitExceeded { limit: len - 1 }
        );
    }

    // Under every limit at once, however it is cut, the framer finds the
    // same values and stops with the same error.
    let limited = || {
        let limits = Limits::new()
            .max_depth(4)
            .max_values(32)
            .max_bytes(data.len() / 2);
        Framer::new(limits).max_len(40)
    };
    let mut cuts = splits(data).into_iter();
    let (_, mut whole) = cuts.next().expect("the whole input first");
    let expected = framed(limited(), data, &mut *whole);
    for (name, mut sizes) in cuts {
        assert_eq!(
            framed(limited(), data, &mut *sizes),
            expected,
            "{name}, limited"
        );
    }
}
