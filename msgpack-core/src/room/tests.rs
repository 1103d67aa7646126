//! Tests of the room.

use super::Room;
use alloc::vec;
use alloc::vec::Vec;

#[test]
fn writes_within_the_estimate_and_past_it() {
    let mut out = Vec::new();
    let mut room = Room::new(&mut out, 0);
    for i in 0..200u8 {
        room.put([i, i]);
        room.put_prefix(&[i; 9], usize::from(i % 10));
        room.put_slice(&vec![i; usize::from(i)]);
        room.put_marked([0xca], [i; 4]);
        room.put_headed([1, 2], &vec![i; usize::from(i % 7)]);
    }
    room.finish();
    let mut expected = Vec::new();
    for i in 0..200u8 {
        expected.extend_from_slice(&[i, i]);
        expected.extend(vec![i; usize::from(i % 10).min(9)]);
        expected.extend(vec![i; usize::from(i)]);
        expected.extend([0xca, i, i, i, i]);
        expected.extend([1, 2]);
        expected.extend(vec![i; usize::from(i % 7)]);
    }
    assert_eq!(out, expected);
}

/// Integers and container headers at every width's edges, from an
/// empty room (so most writes grow it), as `encode` writes them.
#[test]
fn integers_and_headers_as_encode_writes_them() {
    let ints = [
        0i64, 1, 127, 128, 255, 256, 65535, 65536, -1, -32, -33, -128, -129,
    ];
    let ints = ints
        .into_iter()
        .chain([i64::MIN, i64::MAX, u32::MAX as i64 + 1]);
    let lens = [0usize, 15, 16, 255, 256, 65535, 65536, u32::MAX as usize];
    let mut out = Vec::new();
    let mut expected = Vec::new();
    let mut room = Room::new(&mut out, 0);
    for n in ints {
        room.put_int(n);
        crate::encode::write_int(&mut expected, n).unwrap();
        room.put_uint(n as u64);
        crate::encode::write_uint(&mut expected, n as u64).unwrap();
    }
    for len in lens {
        room.put_array_len(len).unwrap();
        crate::encode::write_array_len(&mut expected, len).unwrap();
        room.put_map_len(len).unwrap();
        crate::encode::write_map_len(&mut expected, len).unwrap();
    }
    assert!(room.put_array_len(u32::MAX as usize + 1).is_err());
    room.finish();
    assert_eq!(out, expected);
}

/// Integers at every width's edge, in runs of every length across
/// `put_each`'s blocks.
const EDGES: [i64; 21] = [
    0,
    1,
    127,
    128,
    255,
    256,
    65535,
    65536,
    -1,
    -32,
    -33,
    -128,
    -129,
    -32768,
    -32769,
    i32::MIN as i64,
    i32::MIN as i64 - 1,
    u32::MAX as i64,
    u32::MAX as i64 + 1,
    i64::MIN,
    i64::MAX,
];

/// Writes `values` with `put_each` three ways (signed, unsigned, and
/// three-byte items that sometimes claim more than their three) after
/// `before`, in a room reserved at `estimate`, and returns the vector
/// with what `encode` and `put_prefix`'s rule give for the same.
fn each_and_expected(values: &[i64], before: &[u8], estimate: usize) -> (Vec<u8>, Vec<u8>) {
    let mut out = before.to_vec();
    let mut room = Room::new(&mut out, estimate);
    room.put_each(values, |&value| crate::encode::int_bytes(value));
    room.put_each(values, |&value| crate::encode::uint_bytes(value as u64));
    room.put_each(values, |&value| {
        ([value as u8, 1, 2], usize::from(value as u8 % 5))
    });
    room.finish();
    let mut expected = before.to_vec();
    for &value in values {
        crate::encode::write_int(&mut expected, value).unwrap();
    }
    for &value in values {
        crate::encode::write_uint(&mut expected, value as u64).unwrap();
    }
    for &value in values {
        expected.extend(&[value as u8, 1, 2][..usize::from(value as u8 % 5).min(3)]);
    }
    (out, expected)
}

#[test]
fn put_each_writes_what_encode_writes_item_by_item() {
    for len in 0..=100 {
        let values: Vec<i64> = (0..len)
            .map(|i| EDGES[(i * 7 + len) % EDGES.len()])
            .collect();
        for (before, estimate) in [(&[][..], 0), (&[0xc0][..], 3), (&[1, 2, 3][..], 1000)] {
            let (out, expected) = each_and_expected(&values, before, estimate);
            assert_eq!(out, expected, "{len} values after {before:?}");
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    #[test]
    fn put_each_writes_any_integers_as_encode_does(
        values in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::prelude::any::<i64>(),
                -300i64..300,
                proptest::sample::select(&EDGES[..]),
            ],
            0..200,
        ),
        before in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40),
        estimate in 0usize..2000,
    ) {
        let (out, expected) = each_and_expected(&values, &before, estimate);
        proptest::prop_assert_eq!(out, expected);
    }
}

#[test]
fn a_dropped_room_leaves_the_vector_as_it_was() {
    let mut out = vec![1, 2, 3];
    {
        let mut room = Room::new(&mut out, 16);
        room.put([9; 16]);
    }
    assert_eq!(out, [1, 2, 3]);
}

#[test]
fn a_paused_room_resumes_where_it_stopped() {
    let mut out = Vec::with_capacity(2);
    out.push(0xc0);
    let mut paused = Room::new(&mut out, 1).pause();
    // Each write taken up again from the last pause, growing the
    // vector past its capacity on the way.
    for i in 0..300u16 {
        // SAFETY: `out` is the vector the room was over, untouched
        // since it was paused.
        let mut room = unsafe { Room::resume(&mut out, paused) };
        room.put_uint(u64::from(i));
        room.put_slice(&[i as u8; 3]);
        paused = room.pause();
    }
    // SAFETY: as above.
    unsafe { Room::resume(&mut out, paused) }.finish();
    let mut expected = vec![0xc0];
    for i in 0..300u16 {
        crate::encode::write_uint(&mut expected, u64::from(i)).unwrap();
        expected.extend_from_slice(&[i as u8; 3]);
    }
    assert_eq!(out, expected);
}

#[test]
fn a_grown_room_keeps_what_was_written_before() {
    let mut out = Vec::with_capacity(4);
    let mut room = Room::new(&mut out, 4);
    room.put([1, 2, 3]);
    room.put_slice(&[4; 100]);
    room.put_prefix(&[5; 9], 12);
    room.finish();
    assert_eq!(out.len(), 3 + 100 + 9);
    assert_eq!(&out[..3], [1, 2, 3]);
    assert!(out[3..103].iter().all(|&b| b == 4));
    assert!(out[103..].iter().all(|&b| b == 5));
}

/// A panic caught while `with_vec` lends the vector, after the
/// lender moved it to a larger buffer: the room, used again, writes
/// into the vector's new buffer, after what the lender pushed.
#[cfg(feature = "std")]
#[test]
fn a_room_used_after_a_panic_in_with_vec_writes_into_the_vector() {
    use std::panic::{catch_unwind, AssertUnwindSafe};

    let mut out = Vec::new();
    let mut room = Room::new(&mut out, 16);
    room.put([1, 2]);
    let caught = catch_unwind(AssertUnwindSafe(|| {
        room.with_vec(|vec| {
            vec.push(3);
            vec.reserve(1 << 16);
            panic!("a value that fails halfway");
        })
    }));
    assert!(caught.is_err());
    // Fits in what the room had reserved in the old buffer.
    room.put([4; 4]);
    room.finish();
    assert_eq!(out, [1, 2, 3, 4, 4, 4, 4]);
}

/// A reservation that panics (`capacity overflow`) after the room's
/// bytes became part of the vector: they are counted once, and the
/// room writes on after them.
#[cfg(feature = "std")]
#[test]
fn a_room_used_after_a_panic_in_reserve_counts_its_bytes_once() {
    use std::panic::{catch_unwind, AssertUnwindSafe};

    let mut out = Vec::new();
    let mut room = Room::new(&mut out, 16);
    room.put([1; 8]);
    let caught = catch_unwind(AssertUnwindSafe(|| room.reserve(usize::MAX)));
    assert!(caught.is_err());
    room.put([2; 3]);
    room.finish();
    assert_eq!(out, [1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2]);
}

/// A string written with room kept after it leaves that room: the
/// writes after it that fit check nothing (the compiler is told so), so
/// every length, into a vector with no spare capacity and one with a
/// little, must leave `keep` bytes that the vector does not grow for.
#[test]
fn a_write_keeping_room_leaves_it() {
    let text: Vec<u8> = (1..=70).collect();
    for keep in [0, 1, 9, 18, 100] {
        for len in 0..=text.len() {
            for spare in [0, 5, 40] {
                let bytes = &text[..len];
                for headed in [true, false] {
                    let mut out = Vec::with_capacity(1 + spare);
                    out.push(0xc0);
                    let mut room = Room::new(&mut out, 0);
                    if headed {
                        room.put_headed_keeping([0xd9, len as u8], bytes, keep);
                    } else {
                        room.put_slice_keeping(bytes, keep);
                    }
                    room.finish();
                    let capacity = out.capacity();
                    assert!(
                        capacity - out.len() >= keep,
                        "{keep} {len} {spare} {headed}"
                    );
                    let mut expected = vec![0xc0];
                    if headed {
                        expected.extend_from_slice(&[0xd9, len as u8]);
                    }
                    expected.extend_from_slice(bytes);
                    assert_eq!(out, expected, "{keep} {len} {spare} {headed}");

                    // Eight bytes more (one store) fit in room kept for
                    // them: the buffer stays where it is.
                    let buffer = out.as_ptr();
                    let mut room = Room::new(&mut out, 0);
                    room.put_prefix(&[0xee; 8], 8);
                    room.finish();
                    expected.extend_from_slice(&[0xee; 8]);
                    assert_eq!(out, expected, "{keep} {len} {spare} {headed}");
                    if keep >= 8 {
                        assert_eq!(out.as_ptr(), buffer, "{keep} {len} {spare} {headed}");
                    }
                }
            }
        }
    }
}
