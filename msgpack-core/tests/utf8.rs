//! `str_from_utf8` against `core::str::from_utf8`: every sequence of up to
//! three bytes, the four-byte ones at the edges of every range, and text
//! cut at every byte. Its ASCII test (`src/text.rs`) reads the bytes a
//! word at a time, in overlapping reads for the last ones; text that is
//! not ASCII goes to simdutf8 from 64 bytes on: all must take exactly the
//! strings `from_utf8` takes, with the same error otherwise. So must
//! `Reader::take_str`, whose short texts are found ASCII by one mask over
//! the 32 bytes they are in.

use msgpack_core::decode::str_from_utf8;

fn agrees(bytes: &[u8]) {
    assert_eq!(
        str_from_utf8(bytes),
        core::str::from_utf8(bytes),
        "{bytes:02x?}"
    );
}

#[test]
fn every_sequence_of_up_to_three_bytes() {
    for a in 0..=255u8 {
        agrees(&[a]);
        for b in 0..=255u8 {
            agrees(&[a, b]);
            for c in 0..=255u8 {
                agrees(&[a, b, c]);
            }
        }
    }
}

#[test]
fn four_byte_sequences_at_every_edge() {
    let edges = [0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff];
    for a in 0xe0..=0xffu8 {
        for b in 0..=255u8 {
            for c in edges {
                for d in edges {
                    agrees(&[a, b, c, d]);
                    agrees(&[b'x', a, b, c, d, b'y']);
                }
            }
        }
    }
}

#[test]
fn text_cut_at_every_byte() {
    let long = "ü".repeat(40);
    for text in [
        "Zoë Ångström",
        "Käsemarkt 12, 8001 Zürich",
        "日本語のテキスト",
        "emoji 🦀 crab",
        "\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}",
        "Fast binary APIs for PHP & Rust — schnell, compact, 高速. Maintained since 2019.",
        long.as_str(),
    ] {
        agrees(text.as_bytes());
        for cut in 0..text.len() {
            agrees(&text.as_bytes()[..cut]);
            agrees(&text.as_bytes()[cut..]);
        }
    }
}

proptest::proptest! {
    /// Any bytes, and text with one byte replaced.
    #[test]
    fn any_bytes_agree(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..80)) {
        agrees(&bytes);
    }

    #[test]
    fn text_with_one_byte_replaced_agrees(text in "\\PC{0,30}", at in 0usize..200, byte in proptest::num::u8::ANY) {
        let mut bytes = text.into_bytes();
        agrees(&bytes);
        if !bytes.is_empty() {
            let at = at % bytes.len();
            bytes[at] = byte;
            agrees(&bytes);
        }
    }
}

/// Text either side of the 64 bytes where simdutf8 takes over, with each
/// byte in turn replaced by every byte that breaks or changes a sequence.
#[test]
fn text_around_64_bytes_with_each_byte_replaced() {
    for text in [
        "é".repeat(31) + "ab",
        "é".repeat(32),
        "a€".repeat(16) + "日本語",
    ] {
        let text = text.as_bytes();
        for len in [text.len() - 2, text.len() - 1, text.len()] {
            for at in 0..len {
                for byte in [
                    0x00, 0x7f, 0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xed, 0xf0, 0xf4, 0xf5, 0xff,
                ] {
                    let mut bytes = text[..len].to_vec();
                    bytes[at] = byte;
                    agrees(&bytes);
                }
            }
        }
    }
}

/// `Reader::take_str` against reading the same bytes with `take` and
/// `from_utf8`: headers of 0 to 3 bytes (each byte above 0x7f, as a
/// marker is), texts of 0 to 40 bytes, a byte that is not ASCII (alone,
/// or starting a two-byte character) at each place in the header, the
/// text and the bytes after it, and the input cut at every length. Its
/// fast path tests the 32 bytes from the header with one mask: only the
/// text's bytes may count, and only when all of them are in the window.
#[test]
fn take_str_agrees_with_take_and_from_utf8() {
    use msgpack_core::{ErrorKind, Reader};

    for skipped in [0, 5] {
        for head in 0..=3 {
            for len in 0..=40 {
                let size = skipped + head + len + 8;
                for (at, odd) in (0..=size).flat_map(|at| [(at, &[0xff][..]), (at, &[0xc3, 0xa9])])
                {
                    let mut input: Vec<u8> = (0..size).map(|i| b'a' + (i % 26) as u8).collect();
                    input[skipped..skipped + head].fill(0xd9);
                    for (i, &byte) in odd.iter().enumerate() {
                        if let Some(slot) = input.get_mut(at + i) {
                            *slot = byte;
                        }
                    }
                    for cut in skipped..=size {
                        let bytes = &input[..cut];
                        let mut reader = Reader::new(bytes);
                        reader.consume(skipped);
                        let mut expected_reader = reader.clone();
                        let expected = expected_reader
                            .take(head)
                            .and_then(|_| expected_reader.take(len))
                            .and_then(|text| {
                                core::str::from_utf8(text)
                                    .map_err(|_| reader.error(ErrorKind::InvalidUtf8))
                            });
                        let got = reader.take_str(head, len);
                        let position = if got.is_ok() {
                            expected_reader.position()
                        } else {
                            skipped
                        };
                        assert!(
                            got == expected && reader.position() == position,
                            "head {head}, len {len}, {odd:02x?} at {at}, cut {cut}: {bytes:02x?}: \
                             {got:?} at {}, expected {expected:?} at {position}",
                            reader.position(),
                        );
                    }
                }
            }
        }
    }
}

/// Lengths no input holds, or that overflow added to the header's, are
/// the end of the input, and read nothing.
#[test]
fn take_str_of_impossible_lengths_is_the_end_of_input() {
    use msgpack_core::Reader;

    let input = [b'k'; 40];
    for (head, len) in [
        (usize::MAX, usize::MAX),
        (1, usize::MAX),
        (usize::MAX, 0),
        (33, 8),
        (1, 40),
        (41, 0),
    ] {
        let mut reader = Reader::new(&input);
        let error = reader.take_str(head, len).unwrap_err();
        assert!(error.is_eof(), "{head} {len}: {error}");
        assert_eq!(error.to_string(), "unexpected end of input at offset 40");
        assert_eq!(reader.position(), 0);
    }
}
