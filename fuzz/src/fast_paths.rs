//! The decoder's fast paths held to the serde path on any input: structs
//! read whole, types read directly, `Vec`s of numbers read in one loop.
//! Called by `checks.rs`'s targets; shared with
//! `tests/tests/regression.rs`, which includes this file.

use msgpack_serde::Deserializer;
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::types::ElementByElement;

/// `data` decodes as `W` (structs of floats our decoder reads whole) as
/// it does as `S` (their serde-path twins), from a slice and from a
/// reader: the same bytes when encoded again, or the same error.
pub fn whole_reads_agree<W, S>(data: &[u8])
where
    W: DeserializeOwned + Serialize,
    S: DeserializeOwned + Serialize,
{
    let whole = outcome(msgpack_serde::from_slice::<W>(data));
    let serde = outcome(msgpack_serde::from_slice::<S>(data));
    assert_eq!(whole, serde, "from_slice");
    let whole = outcome(msgpack_serde::from_reader::<_, W>(data));
    let serde = outcome(msgpack_serde::from_reader::<_, S>(data));
    assert_eq!(whole, serde, "from_reader");
}

/// A decode's value re-encoded, or its error's text.
fn outcome<T: Serialize>(result: msgpack_serde::Result<T>) -> Result<Vec<u8>, String> {
    match result {
        Ok(value) => Ok(msgpack_serde::to_vec(&value).expect("a decoded value encodes")),
        Err(error) => Err(error.to_string()),
    }
}

/// Derived types read directly (field after field, when our decoder
/// holds bytes in our encoder's form) decode as the serde path does: the
/// same value or the same error. The serde path is the same type read
/// through `serde_path_to_error`'s wrapper, which our decoder does not
/// recognise, so no direct read is tried beneath it.
pub fn direct_reads_agree<T: DeserializeOwned + Serialize>(what: &str, data: &[u8]) {
    let direct = outcome(msgpack_serde::from_slice::<T>(data));
    let mut de = Deserializer::from_slice(data);
    let serde = serde_path_to_error::deserialize(&mut de)
        .map_err(|error| error.into_inner())
        .and_then(|value: T| de.end().map(|()| value));
    assert_eq!(direct, outcome(serde), "{what}");
    // Through a slice `Deserializer`, the input twice over: the second
    // value after whatever the first did (read, gave up, failed).
    let twice = [data, data].concat();
    let read_twice = |wrapped: bool| {
        let mut de = Deserializer::from_slice(&twice);
        let mut one = || match wrapped {
            false => T::deserialize(&mut de),
            true => serde_path_to_error::deserialize(&mut de).map_err(|error| error.into_inner()),
        };
        let values = one().and_then(|first| one().map(|second| (first, second)));
        outcome(values.and_then(|values| de.end().map(|()| values)))
    };
    assert_eq!(read_twice(false), read_twice(true), "{what}, twice");
}

/// `Vec<T>` through the decoder's number loop and element by element:
/// the same values, or the same error (text and offset).
pub fn number_loop_agrees<T>(data: &[u8])
where
    T: DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let looped = msgpack_serde::from_slice::<Vec<T>>(data);
    let reference = msgpack_serde::from_slice::<ElementByElement<T>>(data);
    match (looped, reference) {
        (Ok(looped), Ok(reference)) => assert_eq!(looped, reference.0),
        (Err(looped), Err(reference)) => {
            assert_eq!(looped.to_string(), reference.to_string());
            assert_eq!(looped.offset(), reference.offset());
        }
        (looped, reference) => panic!("the loop read {looped:?}, element by element {reference:?}"),
    }
}
