//! What the direct-read tests share: a decode's outcome, read directly
//! and through the serde path (`serde_path_to_error`'s wrapper, which
//! hands every type beneath it a deserializer our decoder does not
//! recognise, so that no direct or whole read is tried anywhere), and the
//! check that the two agree.

use std::fmt::Debug;

use msgpack_serde::{Deserializer, Limits};
use serde::de::DeserializeOwned;

/// What a decode gave: the value's `Debug` (NaN equal to itself), or the
/// error's text.
pub type Outcome = Result<String, String>;

pub fn outcome<T: Debug, E: ToString>(result: Result<T, E>) -> Outcome {
    result
        .map(|value| format!("{value:?}"))
        .map_err(|error| error.to_string())
}

/// `T` through a `Deserializer` under `limits`, then its end: directly
/// where the derive reads so (`wrapped` false), or through the wrapper.
fn read<T: DeserializeOwned + Debug>(bytes: &[u8], limits: Limits, wrapped: bool) -> Outcome {
    let mut de = Deserializer::from_slice(bytes).with_limits(limits);
    let value = match wrapped {
        false => T::deserialize(&mut de),
        true => serde_path_to_error::deserialize(&mut de).map_err(|error| error.into_inner()),
    };
    outcome(value.and_then(|value| de.end().map(|()| value)))
}

/// From a reader: directly, or through the wrapper.
fn read_from_reader<T: DeserializeOwned + Debug>(bytes: &[u8], wrapped: bool) -> Outcome {
    let mut de = Deserializer::from_reader(bytes);
    let value = match wrapped {
        false => T::deserialize(&mut de),
        true => serde_path_to_error::deserialize(&mut de).map_err(|error| error.into_inner()),
    };
    outcome(value.and_then(|value| de.end().map(|()| value)))
}

/// The front of `bytes` as `T` under `limits`, through what `from_slice`
/// hands the top-level value (read directly where the derive reads so),
/// and whether it took all of them.
fn read_front<T: DeserializeOwned + Debug>(bytes: &[u8], limits: Limits) -> (Outcome, bool) {
    let mut len = 0;
    let value = outcome(msgpack_serde::__private::from_slice_front::<T>(
        bytes, limits, &mut len,
    ));
    let all = value.is_ok() && len == bytes.len();
    (value, all)
}

/// The same through the wrapper.
fn read_front_wrapped<T: DeserializeOwned + Debug>(
    bytes: &[u8],
    limits: Limits,
) -> (Outcome, bool) {
    let mut de = Deserializer::from_slice(bytes).with_limits(limits);
    let value = serde_path_to_error::deserialize::<_, T>(&mut de);
    let value = outcome(value.map_err(|error| error.into_inner()));
    let all = value.is_ok() && de.end().is_ok();
    (value, all)
}

/// `bytes` twice over, as two `T`s through one `Deserializer` (the second
/// after whatever the first did: gave up, failed, or read), then its end:
/// directly, or through the wrapper.
fn read_twice<T: DeserializeOwned + Debug>(bytes: &[u8], limits: Limits, wrapped: bool) -> Outcome {
    let twice = [bytes, bytes].concat();
    let mut de = Deserializer::from_slice(&twice).with_limits(limits);
    let mut one = || match wrapped {
        false => T::deserialize(&mut de),
        true => serde_path_to_error::deserialize(&mut de).map_err(|error| error.into_inner()),
    };
    let values = one().and_then(|first| one().map(|second| (first, second)));
    outcome(values.and_then(|values| de.end().map(|()| values)))
}

/// `bytes` decode as `T` to the same outcome read directly and through
/// the serde path: from a slice, under `limits` (through what
/// `from_slice` hands the top-level value, and through a `Deserializer`:
/// the top-level value read directly either way), and from a reader (the
/// values inside the top-level one).
#[track_caller]
pub fn agree<T: DeserializeOwned + Debug>(bytes: &[u8], limits: Limits) {
    let direct = read_front::<T>(bytes, limits);
    let serde = read_front_wrapped::<T>(bytes, limits);
    assert_eq!(direct, serde, "front, {limits:?} on {bytes:02x?}");
    let serde = read::<T>(bytes, Limits::default(), true);
    let direct = outcome(msgpack_serde::from_slice::<T>(bytes));
    assert_eq!(direct, serde, "from_slice of {bytes:02x?}");
    let direct = read::<T>(bytes, limits, false);
    let serde = read::<T>(bytes, limits, true);
    assert_eq!(direct, serde, "{limits:?} on {bytes:02x?}");
    let direct = read_twice::<T>(bytes, limits, false);
    let serde = read_twice::<T>(bytes, limits, true);
    assert_eq!(direct, serde, "twice, {limits:?} on {bytes:02x?}");
    let direct = read_from_reader::<T>(bytes, false);
    let serde = read_from_reader::<T>(bytes, true);
    assert_eq!(direct, serde, "from_reader of {bytes:02x?}");
}
