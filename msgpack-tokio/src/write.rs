//! Encoding straight into a `BytesMut`.

use std::convert::Infallible;

use bytes::{BufMut, BytesMut};

/// A [`msgpack_serde::core::Write`] that appends to a `BytesMut`, so the
/// serializer writes into the codec's buffer with no `Vec` between.
pub(crate) struct BytesWriter<'a>(pub(crate) &'a mut BytesMut);

impl msgpack_serde::core::Write for BytesWriter<'_> {
    type Error = Infallible;

    #[inline]
    fn write_u8(&mut self, byte: u8) -> Result<(), Infallible> {
        self.0.put_u8(byte);
        Ok(())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), Infallible> {
        self.0.extend_from_slice(bytes);
        Ok(())
    }

    /// All nine bytes, then the length cut back: one fixed-size copy, as
    /// `Vec<u8>`'s writer does it.
    #[inline]
    fn write_prefix(&mut self, bytes: &[u8; 9], len: usize) -> Result<(), Infallible> {
        let end = self.0.len() + len.min(9);
        self.0.extend_from_slice(bytes);
        self.0.truncate(end);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use msgpack_serde::Serializer;
    use serde::Serialize;

    #[test]
    fn writes_what_to_vec_writes() {
        let value = (1u8, -300i32, "name", [u64::MAX, 7], 1.5f64, ());
        let mut buffer = BytesMut::from(&b"kept"[..]);
        value
            .serialize(&mut Serializer::new(BytesWriter(&mut buffer)))
            .unwrap();
        let mut expected = b"kept".to_vec();
        expected.extend(msgpack_serde::to_vec(&value).unwrap());
        assert_eq!(&buffer[..], expected);
    }
}
