//! `Vec` of numbers, which the decoder reads in one loop when the visitor
//! is serde's own, against the usual path (a visitor of our own, element
//! by element, as serde's `Vec` visitor does): the same values, the same
//! errors at the same offsets, the same limits, whatever the elements are.

use std::fmt;
use std::marker::PhantomData;

use msgpack_serde::{Deserializer, Limits, Value};
use msgpack_test_support::strategies::{integer_value, string};
use proptest::prelude::*;
use serde::de::{self, Deserialize, DeserializeOwned, SeqAccess, Visitor};
use serde::Serialize;

/// A `Vec<T>` read element by element through a visitor the decoder does
/// not know: the usual path.
#[derive(Debug, PartialEq)]
struct Usual<T>(Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Usual<T> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Elements<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for Elements<T> {
            type Value = Usual<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Usual<T>, A::Error> {
                let mut out = Vec::new();
                while let Some(element) = seq.next_element()? {
                    out.push(element);
                }
                Ok(Usual(out))
            }
        }
        deserializer.deserialize_seq(Elements(PhantomData))
    }
}

/// Decodes `bytes` both ways under `limits`, as one array and as two
/// back to back (what the first leaves owed bounds the second), and
/// checks they agree: the values bit for bit (re-encoded, so NaNs
/// compare), or the errors' text.
fn agree<T>(bytes: &[u8], limits: Limits) -> Result<(), TestCaseError>
where
    T: DeserializeOwned + Serialize + fmt::Debug,
{
    agree_as::<Vec<T>, Usual<T>>(bytes, limits, |usual| msgpack_serde::to_vec(&usual.0))?;
    agree_as::<(Vec<T>, Vec<T>), (Usual<T>, Usual<T>)>(bytes, limits, |(a, b)| {
        msgpack_serde::to_vec(&(a.0, b.0))
    })
}

fn agree_as<F, U>(
    bytes: &[u8],
    limits: Limits,
    usual_bytes: impl Fn(U) -> msgpack_serde::Result<Vec<u8>>,
) -> Result<(), TestCaseError>
where
    F: DeserializeOwned + Serialize + fmt::Debug,
    U: DeserializeOwned,
{
    let decode = |bytes: &[u8]| {
        let mut deserializer = Deserializer::from_slice(bytes).with_limits(limits);
        let value = F::deserialize(&mut deserializer)?;
        deserializer.end().map(|()| value)
    };
    let fast = decode(bytes).map(|value| msgpack_serde::to_vec(&value).unwrap());
    let usual = {
        let mut deserializer = Deserializer::from_slice(bytes).with_limits(limits);
        U::deserialize(&mut deserializer)
            .and_then(|v| deserializer.end().map(|()| usual_bytes(v).unwrap()))
    };
    match (&fast, &usual) {
        (Ok(fast), Ok(usual)) => prop_assert_eq!(fast, usual, "{}", std::any::type_name::<F>()),
        (Err(fast), Err(usual)) => prop_assert_eq!(fast.to_string(), usual.to_string()),
        _ => prop_assert!(
            false,
            "{}: {fast:?} against {usual:?}",
            std::any::type_name::<F>()
        ),
    }
    Ok(())
}

fn agree_for_every_number_type(bytes: &[u8], limits: Limits) -> Result<(), TestCaseError> {
    agree::<i8>(bytes, limits)?;
    agree::<i16>(bytes, limits)?;
    agree::<i32>(bytes, limits)?;
    agree::<i64>(bytes, limits)?;
    agree::<u8>(bytes, limits)?;
    agree::<u16>(bytes, limits)?;
    agree::<u32>(bytes, limits)?;
    agree::<u64>(bytes, limits)?;
    agree::<isize>(bytes, limits)?;
    agree::<usize>(bytes, limits)?;
    agree::<f32>(bytes, limits)?;
    agree::<f64>(bytes, limits)
}

/// Mostly numbers of every form and range, now and then something else.
fn element() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => integer_value(),
        2 => any::<f64>().prop_map(Value::F64),
        2 => any::<f32>().prop_map(Value::F32),
        1 => string().prop_map(Value::from),
        1 => Just(Value::Nil),
    ]
}

proptest! {
    #[test]
    fn arrays_of_numbers_read_as_the_usual_path_reads_them(
        elements in proptest::collection::vec(element(), 0..40),
        cut in any::<prop::sample::Index>(),
        trailing in proptest::collection::vec(any::<u8>(), 0..3),
        values in 1usize..60,
    ) {
        let mut bytes = msgpack_serde::to_vec(&elements).unwrap();
        agree_for_every_number_type(&bytes, Limits::default())?;
        let half = elements.len() / 2;
        let pair = msgpack_serde::to_vec(&(&elements[..half], &elements[half..])).unwrap();
        agree_for_every_number_type(&pair, Limits::default())?;
        agree_for_every_number_type(&pair[..cut.index(pair.len() + 1)], Limits::default())?;
        agree_for_every_number_type(&bytes, Limits::default().max_values(values))?;
        agree_for_every_number_type(&bytes[..cut.index(bytes.len() + 1)], Limits::default())?;
        bytes.extend_from_slice(&trailing);
        agree_for_every_number_type(&bytes, Limits::default())?;
    }
}

/// Something an array of integers may hold that is not an integer, or
/// not one every integer type takes.
fn intruder() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Nil),
        Just(Value::from(-1)),
        Just(Value::from(u64::MAX)),
        Just(Value::from(i64::MIN)),
        any::<f32>().prop_map(Value::F32),
        string().prop_map(Value::from),
    ]
}

proptest! {
    /// Arrays long enough to be read a block of input at a time, of
    /// integers of every width and range, with one intruder anywhere.
    #[test]
    fn long_arrays_of_integers_read_as_the_usual_path_reads_them(
        mut elements in proptest::collection::vec(integer_value(), 16..300),
        intruder in intruder(),
        at in any::<prop::sample::Index>(),
        cut in any::<prop::sample::Index>(),
    ) {
        let whole = msgpack_serde::to_vec(&elements).unwrap();
        agree_for_every_number_type(&whole, Limits::default())?;
        agree_for_every_number_type(&whole[..cut.index(whole.len() + 1)], Limits::default())?;
        let at = at.index(elements.len());
        elements[at] = intruder;
        let intruded = msgpack_serde::to_vec(&elements).unwrap();
        agree_for_every_number_type(&intruded, Limits::default())?;
    }
}

/// Arrays every element of which is a `T` (the loop reads them all),
/// alone and back to back, whole and cut short.
macro_rules! valid_arrays {
    ($($name:ident: $ty:ty,)*) => {$(
        proptest! {
            #[test]
            fn $name(
                first in proptest::collection::vec(any::<$ty>(), 0..200),
                second in proptest::collection::vec(any::<$ty>(), 0..40),
                cut in any::<prop::sample::Index>(),
                at in any::<prop::sample::Index>(),
                intruder in intruder(),
            ) {
                let pair = msgpack_serde::to_vec(&(&first, &second)).unwrap();
                agree::<$ty>(&pair, Limits::default())?;
                agree::<$ty>(&pair[..cut.index(pair.len() + 1)], Limits::default())?;
                let decoded: (Vec<$ty>, Vec<$ty>) = msgpack_serde::from_slice(&pair).unwrap();
                prop_assert_eq!(msgpack_serde::to_vec(&decoded).unwrap(), pair);
                // One element anywhere that is not a `T`.
                let mut values: Vec<Value> = first.iter().map(|&n| Value::from(n)).collect();
                if !values.is_empty() {
                    let at = at.index(values.len());
                    values[at] = intruder;
                    agree::<$ty>(&msgpack_serde::to_vec(&values).unwrap(), Limits::default())?;
                }
            }
        }
    )*};
}

valid_arrays! {
    arrays_of_i8_read_alike: i8,
    arrays_of_i16_read_alike: i16,
    arrays_of_i32_read_alike: i32,
    arrays_of_i64_read_alike: i64,
    arrays_of_u8_read_alike: u8,
    arrays_of_u16_read_alike: u16,
    arrays_of_u32_read_alike: u32,
    arrays_of_u64_read_alike: u64,
    arrays_of_isize_read_alike: isize,
    arrays_of_usize_read_alike: usize,
    arrays_of_f32_read_alike: f32,
    arrays_of_f64_read_alike: f64,
}

#[test]
fn only_serdes_own_vec_visitor_takes_the_loop_and_only_for_arrays() {
    assert_eq!(
        msgpack_serde::from_slice::<Vec<u8>>(&[0x91, 0x50]).unwrap(),
        [0x50]
    );
    // bin is a `Vec<u8>` too, as it always was.
    assert_eq!(
        msgpack_serde::from_slice::<Vec<u8>>(&[0xc4, 2, 7, 8]).unwrap(),
        [7, 8]
    );
    // Nested, at the end of the input, in a struct's last field.
    let bytes = msgpack_serde::to_vec(&(1u8, vec![-1i64, 300, -70_000, 1 << 40])).unwrap();
    assert_eq!(
        msgpack_serde::from_slice::<(u8, Vec<i64>)>(&bytes).unwrap(),
        (1, vec![-1, 300, -70_000, 1 << 40])
    );
    // Errors name the element's offset, as before.
    let error =
        msgpack_serde::from_slice::<Vec<u8>>(&[0x93, 0x01, 0xcd, 0x01, 0x00, 0x02]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid value: integer `256`, expected u8 at offset 2"
    );
    let error =
        msgpack_serde::from_slice::<Vec<f32>>(&[0x92, 0xca, 0, 0, 0, 0, 0xa1, b'x']).unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid type: string \"x\", expected f32 at offset 6"
    );
    // The vector reserves what serde's visitor reserves: the length.
    let numbers =
        msgpack_serde::from_slice::<Vec<u32>>(&msgpack_serde::to_vec(&vec![5u32; 100]).unwrap())
            .unwrap();
    assert_eq!((numbers.len(), numbers.capacity()), (100, 100));
}

/// Past what the vector reserves at first (1 MiB of elements), the loop
/// goes on into the room it grows, and stops where an element is not
/// its usual form, as at any other point.
#[test]
fn arrays_past_the_first_reservation_read_as_the_usual_path_reads_them() {
    let first = (1 << 20) / size_of::<i64>();
    let mut numbers: Vec<i64> = (0..first as i64 * 2 + 3)
        .map(|i| (i * 7919 % 100_003 - 50_000) << (i % 3 * 7))
        .collect();
    let bytes = msgpack_serde::to_vec(&numbers).unwrap();
    assert_eq!(
        msgpack_serde::from_slice::<Vec<i64>>(&bytes).unwrap(),
        numbers
    );
    agree::<i64>(&bytes, Limits::default()).unwrap();
    // An element out of range for the type, just past the first room.
    numbers[first + 1] = i64::MIN;
    let bytes = msgpack_serde::to_vec(&numbers).unwrap();
    agree::<i32>(&bytes, Limits::default()).unwrap();
    let error = msgpack_serde::from_slice::<Vec<i32>>(&bytes).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("invalid value: integer `-9223372036854775808`, expected i32 at offset "),
        "{error}"
    );
}

/// Runs of positive fixints, which the loop reads eight bytes at a time,
/// broken by one other value (a negative fixint, a uint 8, a float, a
/// nil) at each place, at every length up to 40: every number type
/// reads what the usual path reads, floats too.
#[test]
fn runs_of_fixints_broken_anywhere_read_alike() {
    let breaks: [&[u8]; 4] = [&[0xff], &[0xcc, 0x80], &[0xca, 0x3f, 0x80, 0, 0], &[0xc0]];
    for len in 0..=40u8 {
        for at in 0..=len {
            for brk in breaks {
                let mut bytes = vec![0xdc, 0, len + 1];
                bytes.extend((0..at).map(|i| i * 3 % 128));
                bytes.extend_from_slice(brk);
                bytes.extend((at..len).map(|i| 127 - i));
                agree_for_every_number_type(&bytes, Limits::default()).unwrap();
            }
        }
    }
}
