//! Application extension types.

use serde::de::{self, Deserialize, Deserializer};
use serde::ser::{Serialize, Serializer};

use msgpack_core::serde_ext::{deserialize_ext, serialize_ext};

/// An application extension: a type from 0 to 127 and opaque data,
/// written as a MessagePack ext value (types -128 to -1 are reserved by
/// the specification; -1 is [`Timestamp`](crate::Timestamp)).
///
/// ```
/// use msgpack_serde::Ext;
///
/// let ext = Ext::new(7, vec![0xde, 0xad]).unwrap();
/// let bytes = msgpack_serde::to_vec(&ext).unwrap();
/// assert_eq!(bytes, [0xd5, 0x07, 0xde, 0xad]); // fixext 2, type 7
/// assert_eq!(msgpack_serde::from_slice::<Ext>(&bytes).unwrap(), ext);
/// assert!(Ext::new(-1, vec![]).is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ext {
    ext_type: i8,
    data: Vec<u8>,
}

impl Ext {
    /// An extension of `ext_type` (0 to 127), or `None` for a reserved type.
    ///
    /// ```
    /// use msgpack_serde::Ext;
    ///
    /// assert!(Ext::new(127, vec![]).is_some());
    /// assert_eq!(Ext::new(-5, vec![1]), None); // reserved by the specification
    /// ```
    pub fn new(ext_type: i8, data: Vec<u8>) -> Option<Ext> {
        (ext_type >= 0).then_some(Ext { ext_type, data })
    }

    /// The extension type, 0 to 127.
    ///
    /// ```
    /// use msgpack_serde::Ext;
    ///
    /// let ext: Ext = msgpack_serde::from_slice(&[0xd4, 0x05, 0x00]).unwrap(); // fixext 1
    /// assert_eq!(ext.ext_type(), 5);
    /// ```
    pub fn ext_type(&self) -> i8 {
        self.ext_type
    }

    /// The data.
    ///
    /// ```
    /// use msgpack_serde::Ext;
    ///
    /// let ext: Ext = msgpack_serde::from_slice(&[0xc7, 0x03, 0x05, 1, 2, 3]).unwrap(); // ext 8
    /// assert_eq!(ext.data(), [1, 2, 3]);
    /// ```
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// Gives back the data.
    ///
    /// ```
    /// use msgpack_serde::Ext;
    ///
    /// let ext = Ext::new(1, vec![9, 9]).unwrap();
    /// assert_eq!(ext.into_data(), [9, 9]);
    /// ```
    pub fn into_data(self) -> Vec<u8> {
        self.data
    }
}

impl Serialize for Ext {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_ext(serializer, self.ext_type, &self.data)
    }
}

impl<'de> Deserialize<'de> for Ext {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (ext_type, data) = deserialize_ext(deserializer)?;
        Ext::new(ext_type, data).ok_or_else(|| {
            de::Error::invalid_value(
                de::Unexpected::Signed(ext_type as i64),
                &"an application extension type (0 to 127)",
            )
        })
    }
}
