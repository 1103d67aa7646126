//! `#[serde(with = "msgpack_serde::timestamp")]` for `SystemTime` fields.
//!
//! serde writes a `SystemTime` as a struct of seconds and nanoseconds;
//! with this module it is the timestamp extension (type -1) that other
//! languages' MessagePack libraries read as a date.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use std::time::{Duration, SystemTime, UNIX_EPOCH};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Event {
//!     #[serde(with = "msgpack_serde::timestamp")]
//!     at: SystemTime,
//! }
//!
//! let event = Event { at: UNIX_EPOCH + Duration::from_secs(1) };
//! let bytes = msgpack_serde::to_vec(&event).unwrap();
//! assert_eq!(bytes, [0x81, 0xa2, b'a', b't', 0xd6, 0xff, 0, 0, 0, 1]);
//! assert_eq!(msgpack_serde::from_slice::<Event>(&bytes).unwrap(), event);
//! ```

use std::time::SystemTime;

use serde::{de, ser, Deserialize, Deserializer, Serialize, Serializer};

use crate::Timestamp;

/// Serializes a `SystemTime` as a timestamp extension.
///
/// ```
/// use msgpack_serde::Serializer;
/// use std::time::{Duration, UNIX_EPOCH};
///
/// let time = UNIX_EPOCH + Duration::from_millis(1500);
/// let mut serializer = Serializer::new(Vec::new());
/// msgpack_serde::timestamp::serialize(&time, &mut serializer).unwrap();
/// // fixext 8 of type -1: 30 bits of nanoseconds, 34 of seconds
/// assert_eq!(serializer.into_inner(), [0xd7, 0xff, 0x77, 0x35, 0x94, 0x00, 0x00, 0x00, 0x00, 0x01]);
/// ```
pub fn serialize<S: Serializer>(time: &SystemTime, serializer: S) -> Result<S::Ok, S::Error> {
    Timestamp::try_from(*time)
        .map_err(ser::Error::custom)?
        .serialize(serializer)
}

/// Deserializes a timestamp extension into a `SystemTime`.
///
/// ```
/// use msgpack_serde::Deserializer;
/// use std::time::{Duration, UNIX_EPOCH};
///
/// let mut de = Deserializer::from_slice(&[0xd6, 0xff, 0x00, 0x00, 0x00, 0x01]);
/// let time = msgpack_serde::timestamp::deserialize(&mut de).unwrap();
/// assert_eq!(time, UNIX_EPOCH + Duration::from_secs(1));
/// ```
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<SystemTime, D::Error> {
    SystemTime::try_from(Timestamp::deserialize(deserializer)?).map_err(de::Error::custom)
}
