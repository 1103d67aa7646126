//! Strings on the direct path: a struct's string fields (and the names
//! of its fields longer than 8 bytes) written into its room, with the
//! same bytes as serde's path writes.

use super::{Direct, Out};
use crate::Result;

impl Direct for str {
    #[inline(always)]
    fn put(&self, out: &mut Out<'_>) -> Result<()> {
        put_str(out, None, self.as_bytes())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn put_keyed(&self, key: u8, out: &mut Out<'_>) -> Result<()> {
        put_str(out, Some(key), self.as_bytes())
    }
}

impl Direct for String {
    #[inline(always)]
    fn estimate() -> usize {
        1
    }

    #[inline(always)]
    fn put(&self, out: &mut Out<'_>) -> Result<()> {
        put_str(out, None, self.as_bytes())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn put_keyed(&self, key: u8, out: &mut Out<'_>) -> Result<()> {
        put_str(out, Some(key), self.as_bytes())
    }
}

/// A string, after the one-byte key when there is one: a fixstr with its
/// header (and key) in one room check and its bytes copied inline, longer
/// ones with a call to `memcpy`.
#[inline(always)]
pub(super) fn put_str(out: &mut Out<'_>, key: Option<u8>, bytes: &[u8]) -> Result<()> {
    use msgpack_core::marker::{FIXSTR, STR8};
    let len = bytes.len();
    match (key, len) {
        (Some(key), 0..=31) => {
            out.room
                .put_headed_keeping([key, FIXSTR | len as u8], bytes, out.keep)
        }
        (None, 0..=31) => out
            .room
            .put_headed_keeping([FIXSTR | len as u8], bytes, out.keep),
        // 32 bytes and more: `put_slice`'s `memcpy`, one call, where
        // `put_headed`'s copy for short strings would add to the code of
        // every string field for little gain.
        (Some(key), 32..=255) => {
            out.room.put([key, STR8, len as u8]);
            out.room.put_slice_keeping(bytes, out.keep);
        }
        (None, 32..=255) => {
            out.room.put([STR8, len as u8]);
            out.room.put_slice_keeping(bytes, out.keep);
        }
        _ => return put_long_str(out, key, bytes),
    }
    Ok(())
}

/// A fixstr's header and `bytes` (at most `N - 1` of them), zeros after.
#[inline(always)]
pub(super) fn fixstr<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut fixstr = [0u8; N];
    fixstr[0] = msgpack_core::marker::FIXSTR | bytes.len() as u8;
    fixstr[1..1 + bytes.len()].copy_from_slice(bytes);
    fixstr
}

/// A str 16 or str 32, as the serde path writes it, the header built by
/// value (a call taking the room would keep it out of registers).
#[inline(always)]
fn put_long_str(out: &mut Out<'_>, key: Option<u8>, bytes: &[u8]) -> Result<()> {
    use msgpack_core::marker::{STR16, STR32};
    if let Some(key) = key {
        out.room.put([key]);
    }
    let len = bytes.len();
    // `put_slice`, not `put_headed`: its `memcpy` is one call where
    // `put_headed`'s copy of short strings, useless past 255 bytes, would
    // add to every string field's code.
    if let Ok(len) = u16::try_from(len) {
        let [a, b] = len.to_be_bytes();
        out.room.put([STR16, a, b]);
    } else if let Ok(len) = u32::try_from(len) {
        let [a, b, c, d] = len.to_be_bytes();
        out.room.put([STR32, a, b, c, d]);
    } else {
        return Err(too_long(len));
    }
    out.room.put_slice(bytes);
    Ok(())
}

/// The serde path's error for a string of more than `u32::MAX` bytes.
#[cold]
fn too_long(len: usize) -> crate::Error {
    msgpack_core::EncodeError::<core::convert::Infallible>::LengthOverflow(len).into()
}
