//! Converting between typed data and [`Value`].

use serde::de::DeserializeOwned;
use serde::ser::Serialize;

use crate::{Error, Limits, Result, Value};

/// Converts any `Serialize` type into a [`Value`] (structs as maps).
///
/// ```
/// use msgpack_serde::{msgpack, to_value};
///
/// assert_eq!(to_value(&(1, "a")).unwrap(), msgpack!([1, "a"]));
/// ```
pub fn to_value<T: ?Sized + Serialize>(value: &T) -> Result<Value> {
    let bytes = crate::to_vec(value)?;
    let mut reader = msgpack_core::Reader::with_limits(&bytes, Limits::unlimited())?;
    Ok(Value::decode(&mut reader)?)
}

/// Converts a [`Value`] into any `DeserializeOwned` type.
///
/// ```
/// use msgpack_serde::{from_value, msgpack};
///
/// let pair: (u8, String) = from_value(msgpack!([1, "a"])).unwrap();
/// assert_eq!(pair, (1, "a".to_string()));
/// ```
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T> {
    let bytes = value.to_vec().map_err(Error::from)?;
    crate::from_slice(&bytes)
}
