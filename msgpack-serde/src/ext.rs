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
    pub fn new(ext_type: i8, data: Vec<u8>) -> Option<Ext> {
        (ext_type >= 0).then_some(Ext { ext_type, data })
    }

    /// The extension type, 0 to 127.
    pub fn ext_type(&self) -> i8 {
        self.ext_type
    }

    /// The data.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// Gives back the data.
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
