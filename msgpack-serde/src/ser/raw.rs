//! [`RawValue`](crate::RawValue)s written as they are, as serde_json's
//! raw-value emitter does: the bytes are checked and copied into the
//! output, with no buffer in between.

use msgpack_core::{Reader, Write};
use serde::ser::{self, Impossible, Serialize};

use crate::{Error, Result};

/// Serializes the payload of a `RawValue`: bytes (`serialize_bytes`) that
/// must be exactly one MessagePack value, written verbatim. Anything else,
/// and bytes that are not one value, is [`Error::invalid_raw_value`].
pub(super) struct RawSerializer<'a, W> {
    out: &'a mut W,
}

impl<'a, W> RawSerializer<'a, W> {
    pub(super) fn new(out: &'a mut W) -> Self {
        RawSerializer { out }
    }
}

impl<W: Write> ser::Serializer for RawSerializer<'_, W>
where
    Error: From<W::Error>,
{
    bytes_only_items!(Error::invalid_raw_value());

    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        let mut check = Reader::new(v);
        if check.skip().is_err() || !check.is_empty() {
            return Err(Error::invalid_raw_value());
        }
        self.out.write_all(v)?;
        Ok(())
    }

    refuse! { Error::invalid_raw_value();
        serialize_some<T>(&T), serialize_newtype_struct<T>(&'static str, &T),
    }

    /// A `RawValue` reaches this serializer only from a binary one: a
    /// human-readable serializer gets its decoded value instead.
    fn is_human_readable(&self) -> bool {
        false
    }
}
