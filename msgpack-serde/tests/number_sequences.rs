//! Sequences of numbers, which our serializer writes into a vector in one
//! loop (`ser/numbers.rs`), against the same serializer over an
//! `io::Write` that is not a vector (serde's element-by-element path) and
//! against rmp-serde: the same bytes, whatever the numbers, the container
//! or the length (runs of 16 or more are written a block at a time, so
//! the lengths cross several blocks); and they read back.

use std::collections::{BTreeSet, VecDeque};
use std::fmt::Debug;

use msgpack_serde::Serializer;
use msgpack_test_support::Sink;
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Serialize, Serializer as _};

/// The bytes of `value` through serde's element-by-element path.
fn usual<T: ?Sized + Serialize>(value: &T) -> Vec<u8> {
    let mut sink = Sink::default();
    msgpack_serde::to_writer(&mut sink, value).unwrap();
    sink.0
}

/// `values` written every way agrees, and reads back.
fn agree<T>(values: Vec<T>) -> Result<(), TestCaseError>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug + Clone,
{
    let bytes = msgpack_serde::to_vec(&values).unwrap();
    prop_assert_eq!(&bytes, &usual(&values));
    prop_assert_eq!(&bytes, &rmp_serde::to_vec(&values).unwrap());
    // Appended after what a vector already holds, through a borrowed one.
    let mut appended = vec![0xc0];
    msgpack_serde::to_writer(&mut appended, &values).unwrap();
    prop_assert_eq!(&appended[1..], &bytes[..]);
    let mut serializer = Serializer::new(&mut appended);
    VecDeque::from(values.clone())
        .serialize(&mut serializer)
        .unwrap();
    prop_assert_eq!(&appended[1 + bytes.len()..], &bytes[..]);
    prop_assert_eq!(msgpack_serde::from_slice::<Vec<T>>(&bytes).unwrap(), values);
    Ok(())
}

proptest! {
    #[test]
    fn signed(values in prop::collection::vec(any::<i64>(), 0..100)) {
        agree(values)?;
    }

    #[test]
    fn signed_small(values in prop::collection::vec(-300i64..300, 0..100)) {
        agree(values)?;
    }

    #[test]
    fn signed_of_every_width(values in prop::collection::vec(
        prop_oneof![any::<i64>(), -300i64..300, -70_000i64..70_000, any::<i32>().prop_map(i64::from)],
        0..100,
    )) {
        agree(values)?;
    }

    #[test]
    fn unsigned(values in prop::collection::vec(any::<u64>(), 0..100)) {
        agree(values)?;
    }

    #[test]
    fn narrow(a in prop::collection::vec(any::<i8>(), 0..100), b in prop::collection::vec(any::<u8>(), 0..100),
              c in prop::collection::vec(any::<i16>(), 0..100), d in prop::collection::vec(any::<u32>(), 0..100)) {
        agree(a)?;
        agree(b)?;
        agree(c)?;
        agree(d)?;
    }

    #[test]
    fn floats(a in prop::collection::vec(any::<f32>().prop_filter("NaN", |x| !x.is_nan()), 0..100),
              b in prop::collection::vec(any::<f64>().prop_filter("NaN", |x| !x.is_nan()), 0..100)) {
        agree(a)?;
        agree(b)?;
    }

    #[test]
    fn bools(values in prop::collection::vec(any::<bool>(), 0..100)) {
        agree(values)?;
    }
}

#[test]
fn exact_bytes() {
    let bytes = msgpack_serde::to_vec(&vec![0i64, -1, -33, 200, 70_000, i64::MIN]).unwrap();
    assert_eq!(
        bytes,
        [
            0x96, 0x00, 0xff, 0xd0, 0xdf, 0xcc, 0xc8, 0xce, 0x00, 0x01, 0x11, 0x70, 0xd3, 0x80, 0,
            0, 0, 0, 0, 0, 0
        ]
    );
    let bytes = msgpack_serde::to_vec(&[1.5f32, -0.0][..]).unwrap();
    assert_eq!(bytes, [0x92, 0xca, 0x3f, 0xc0, 0, 0, 0xca, 0x80, 0, 0, 0]);
}

/// Values at their type's widest form take what was reserved for them
/// and no more: the blocks near the end of the room do not grow the
/// vector past it.
#[test]
fn the_widest_values_fit_their_reservation() {
    fn fits<T: Serialize>(values: &[T], len: usize) {
        let bytes = msgpack_serde::to_vec(values).unwrap();
        assert_eq!(bytes.len(), len, "{}", std::any::type_name::<T>());
        assert!(
            bytes.capacity() <= 5 + len,
            "{}: {} bytes in {}",
            std::any::type_name::<T>(),
            bytes.len(),
            bytes.capacity()
        );
    }
    fits(&[200u8; 1000], 3 + 2 * 1000);
    fits(&[-100i8; 1000], 3 + 2 * 1000);
    fits(&[60_000u16; 1000], 3 + 3 * 1000);
    fits(&[-70_000i32; 1000], 3 + 5 * 1000);
    fits(&[1.5f32; 1000], 3 + 5 * 1000);
    fits(&[u64::MAX; 1000], 3 + 9 * 1000);
}

/// Past the most reserved ahead (1 MiB): the room grows as it goes.
#[test]
fn longer_than_the_reservation() {
    let values: Vec<u64> = (0..300_000u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    let bytes = msgpack_serde::to_vec(&values).unwrap();
    assert_eq!(bytes, usual(&values));
    assert_eq!(
        msgpack_serde::from_slice::<Vec<u64>>(&bytes).unwrap(),
        values
    );
}

/// Other containers of numbers, and an iterator whose length is not
/// known (written through serde's buffered path), give the bytes of the
/// usual path.
#[test]
fn other_containers_and_unknown_lengths() {
    let set: BTreeSet<u16> = [3, 300, 60_000].into();
    assert_eq!(msgpack_serde::to_vec(&set).unwrap(), usual(&set));
    assert_eq!(
        msgpack_serde::to_vec(&set).unwrap(),
        [0x93, 0x03, 0xcd, 0x01, 0x2c, 0xcd, 0xea, 0x60]
    );

    let evens = |serializer: &mut Serializer<Vec<u8>>| {
        let known: Vec<i64> = (0..10).filter(|n| n % 2 == 0).collect();
        (&mut *serializer).collect_seq(known.iter()).unwrap();
        (&mut *serializer)
            .collect_seq((0i64..10).filter(|n| n % 2 == 0))
            .unwrap();
    };
    let mut serializer = Serializer::new(Vec::new());
    evens(&mut serializer);
    let bytes = serializer.into_inner();
    assert_eq!(bytes[..6], [0x95, 0x00, 0x02, 0x04, 0x06, 0x08]);
    assert_eq!(bytes[..6], bytes[6..]);
}
