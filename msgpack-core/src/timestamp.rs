//! The timestamp extension (type -1).

use crate::Marker;

/// A point in time: signed seconds since the Unix epoch plus nanoseconds,
/// the MessagePack timestamp extension (type -1).
///
/// Seconds may be negative (before 1970); nanoseconds are always
/// `0..=999_999_999` and count forward from the second.
///
/// ```
/// use msgpack_core::Timestamp;
///
/// let t = Timestamp::new(-1, 500_000_000).unwrap(); // 1969-12-31T23:59:59.5Z
/// assert_eq!((t.seconds(), t.nanoseconds()), (-1, 500_000_000));
/// assert_eq!(Timestamp::new(0, 1_000_000_000), None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    seconds: i64,
    nanoseconds: u32,
}

/// The extension type of [`Timestamp`].
///
/// ```
/// use msgpack_core::{Timestamp, Value, TIMESTAMP_EXT_TYPE};
///
/// assert_eq!(TIMESTAMP_EXT_TYPE, -1);
/// let value = Value::from(Timestamp::from_seconds(1));
/// assert_eq!(value.as_ext(), Some((TIMESTAMP_EXT_TYPE, &[0, 0, 0, 1][..])));
/// ```
pub const TIMESTAMP_EXT_TYPE: i8 = -1;

const NANOS_PER_SECOND: u32 = 1_000_000_000;

impl Timestamp {
    /// The Unix epoch, 1970-01-01T00:00:00Z.
    ///
    /// ```
    /// use msgpack_core::Timestamp;
    ///
    /// assert_eq!(Timestamp::UNIX_EPOCH, Timestamp::from_seconds(0));
    /// assert_eq!(Timestamp::UNIX_EPOCH, Timestamp::default());
    /// ```
    pub const UNIX_EPOCH: Timestamp = Timestamp {
        seconds: 0,
        nanoseconds: 0,
    };

    /// A timestamp, or `None` when `nanoseconds` exceeds 999,999,999.
    ///
    /// ```
    /// use msgpack_core::Timestamp;
    ///
    /// assert!(Timestamp::new(1, 999_999_999).is_some());
    /// assert_eq!(Timestamp::new(1, 1_000_000_000), None);
    /// ```
    pub const fn new(seconds: i64, nanoseconds: u32) -> Option<Timestamp> {
        if nanoseconds < NANOS_PER_SECOND {
            Some(Timestamp {
                seconds,
                nanoseconds,
            })
        } else {
            None
        }
    }

    /// A timestamp on a whole second.
    ///
    /// ```
    /// use msgpack_core::Timestamp;
    ///
    /// let t = Timestamp::from_seconds(-1); // 1969-12-31T23:59:59Z
    /// assert_eq!((t.seconds(), t.nanoseconds()), (-1, 0));
    /// ```
    pub const fn from_seconds(seconds: i64) -> Timestamp {
        Timestamp {
            seconds,
            nanoseconds: 0,
        }
    }

    /// Seconds since the Unix epoch, negative before it.
    ///
    /// ```
    /// use msgpack_core::Timestamp;
    ///
    /// let t = Timestamp::new(-2, 500_000_000).unwrap(); // 1.5 s before the epoch
    /// assert_eq!(t.seconds(), -2);
    /// ```
    pub const fn seconds(self) -> i64 {
        self.seconds
    }

    /// Nanoseconds past [`seconds`](Self::seconds), `0..=999_999_999`.
    ///
    /// ```
    /// use msgpack_core::Timestamp;
    ///
    /// let t = Timestamp::new(-2, 500_000_000).unwrap(); // 1.5 s before the epoch
    /// assert_eq!(t.nanoseconds(), 500_000_000);
    /// ```
    pub const fn nanoseconds(self) -> u32 {
        self.nanoseconds
    }

    /// Reads the data of a type -1 extension: 4, 8 or 12 bytes. `None` for
    /// another length or nanoseconds above 999,999,999.
    ///
    /// ```
    /// use msgpack_core::Timestamp;
    ///
    /// assert_eq!(Timestamp::from_ext_data(&[0, 0, 0, 1]), Some(Timestamp::from_seconds(1)));
    /// assert_eq!(Timestamp::from_ext_data(&[0, 0, 1]), None);
    /// ```
    pub fn from_ext_data(data: &[u8]) -> Option<Timestamp> {
        match *data {
            [a, b, c, d] => Some(Timestamp::from_seconds(
                u32::from_be_bytes([a, b, c, d]) as i64
            )),
            [a, b, c, d, e, f, g, h] => {
                let packed = u64::from_be_bytes([a, b, c, d, e, f, g, h]);
                let nanoseconds = (packed >> 34) as u32;
                Timestamp::new((packed & ((1 << 34) - 1)) as i64, nanoseconds)
            }
            [a, b, c, d, ref seconds @ ..] if seconds.len() == 8 => {
                let mut bytes = [0u8; 8];
                bytes.copy_from_slice(seconds);
                Timestamp::new(i64::from_be_bytes(bytes), u32::from_be_bytes([a, b, c, d]))
            }
            _ => None,
        }
    }

    /// The extension data of this timestamp in its smallest form, with the
    /// marker that goes before it: `(marker, data, data length)`.
    fn ext_data(self) -> (Marker, [u8; 12], usize) {
        let mut data = [0u8; 12];
        if self.seconds >> 34 == 0 {
            let packed = ((self.nanoseconds as u64) << 34) | self.seconds as u64;
            if packed >> 32 == 0 {
                data[..4].copy_from_slice(&(packed as u32).to_be_bytes());
                (Marker::FixExt4, data, 4)
            } else {
                data[..8].copy_from_slice(&packed.to_be_bytes());
                (Marker::FixExt8, data, 8)
            }
        } else {
            data[..4].copy_from_slice(&self.nanoseconds.to_be_bytes());
            data[4..].copy_from_slice(&self.seconds.to_be_bytes());
            (Marker::Ext8, data, 12)
        }
    }

    /// Writes the whole extension (header, type and data) into `buf`;
    /// returns the marker and how many bytes were written (6, 10 or 15).
    pub(crate) fn encode_into(self, buf: &mut [u8; 15]) -> (Marker, usize) {
        let (marker, data, len) = self.ext_data();
        buf[0] = marker.to_u8();
        let header = if marker == Marker::Ext8 {
            buf[1] = len as u8;
            2
        } else {
            1
        };
        buf[header] = TIMESTAMP_EXT_TYPE as u8;
        buf[header + 1..header + 1 + len].copy_from_slice(&data[..len]);
        (marker, header + 1 + len)
    }

    /// The extension data alone (4, 8 or 12 bytes), without header and type.
    ///
    /// ```
    /// use msgpack_core::Timestamp;
    ///
    /// assert_eq!(Timestamp::from_seconds(1).to_ext_data(), [0, 0, 0, 1]);
    /// assert_eq!(Timestamp::new(1, 1).unwrap().to_ext_data(), [0, 0, 0, 4, 0, 0, 0, 1]);
    /// assert_eq!(Timestamp::from_seconds(-1).to_ext_data().len(), 12);
    /// ```
    #[cfg(feature = "alloc")]
    pub fn to_ext_data(self) -> alloc::vec::Vec<u8> {
        let (_, data, len) = self.ext_data();
        data[..len].to_vec()
    }
}

impl From<Timestamp> for (i64, u32) {
    fn from(t: Timestamp) -> (i64, u32) {
        (t.seconds, t.nanoseconds)
    }
}

impl TryFrom<(i64, u32)> for Timestamp {
    type Error = TimestampRangeError;

    fn try_from((seconds, nanoseconds): (i64, u32)) -> Result<Self, Self::Error> {
        Timestamp::new(seconds, nanoseconds).ok_or(TimestampRangeError)
    }
}

/// A time that a [`Timestamp`] cannot hold, or a [`Timestamp`] that the
/// target type cannot hold.
///
/// ```
/// use msgpack_core::{Timestamp, TimestampRangeError};
///
/// assert_eq!(Timestamp::try_from((0, 1_000_000_000)), Err(TimestampRangeError));
/// assert_eq!(TimestampRangeError.to_string(), "timestamp out of range");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimestampRangeError;

crate::error::unit_error!(TimestampRangeError, "timestamp out of range");

#[cfg(feature = "std")]
impl TryFrom<std::time::SystemTime> for Timestamp {
    type Error = TimestampRangeError;

    /// ```
    /// use msgpack_core::Timestamp;
    /// use std::time::{Duration, UNIX_EPOCH};
    ///
    /// let before = UNIX_EPOCH - Duration::from_millis(1500);
    /// assert_eq!(Timestamp::try_from(before), Ok(Timestamp::new(-2, 500_000_000).unwrap()));
    /// ```
    fn try_from(time: std::time::SystemTime) -> Result<Self, Self::Error> {
        let range = |_| TimestampRangeError;
        match time.duration_since(std::time::UNIX_EPOCH) {
            Ok(after) => {
                let seconds = i64::try_from(after.as_secs()).map_err(range)?;
                Ok(Timestamp {
                    seconds,
                    nanoseconds: after.subsec_nanos(),
                })
            }
            Err(before) => {
                let before = before.duration();
                // Not `-i64::try_from(secs)`: 2^63 seconds before is i64::MIN.
                let mut seconds = 0i64
                    .checked_sub_unsigned(before.as_secs())
                    .ok_or(TimestampRangeError)?;
                let mut nanoseconds = before.subsec_nanos();
                if nanoseconds > 0 {
                    seconds = seconds.checked_sub(1).ok_or(TimestampRangeError)?;
                    nanoseconds = NANOS_PER_SECOND - nanoseconds;
                }
                Ok(Timestamp {
                    seconds,
                    nanoseconds,
                })
            }
        }
    }
}

#[cfg(feature = "std")]
impl TryFrom<Timestamp> for std::time::SystemTime {
    type Error = TimestampRangeError;

    fn try_from(t: Timestamp) -> Result<Self, Self::Error> {
        use std::time::{Duration, UNIX_EPOCH};
        let whole = Duration::from_secs(t.seconds.unsigned_abs());
        let at_second = if t.seconds >= 0 {
            UNIX_EPOCH.checked_add(whole)
        } else {
            UNIX_EPOCH.checked_sub(whole)
        };
        at_second
            .and_then(|time| time.checked_add(Duration::from_nanos(t.nanoseconds as u64)))
            .ok_or(TimestampRangeError)
    }
}

/// A timestamp is the extension of type -1.
#[cfg(feature = "serde")]
impl serde::Serialize for Timestamp {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The data from the stack: a timestamp written allocates nothing.
        let (_, data, len) = self.ext_data();
        crate::serde_ext::serialize_ext(serializer, TIMESTAMP_EXT_TYPE, &data[..len])
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Timestamp {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (ext_type, data) = crate::serde_ext::deserialize_ext(deserializer)?;
        if ext_type != TIMESTAMP_EXT_TYPE {
            return Err(serde::de::Error::invalid_value(
                serde::de::Unexpected::Other("an extension of another type"),
                &"a timestamp (extension type -1)",
            ));
        }
        Timestamp::from_ext_data(&data).ok_or_else(|| {
            serde::de::Error::invalid_value(
                serde::de::Unexpected::Bytes(&data),
                &"timestamp data of 4, 8 or 12 bytes",
            )
        })
    }
}
