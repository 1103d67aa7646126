//! Strings as MessagePack carries them: UTF-8 checked with a fast path
//! for the ASCII keys, names and identifiers most messages are made of,
//! and copied into a `String` without a call for the shortest.

/// `bytes` as a `str`, if they are UTF-8, with the same result as
/// [`core::str::from_utf8`] (its error included), faster for the text
/// MessagePack carries: mostly short keys, names and identifiers, which
/// an ASCII test reads a word at a time (`from_utf8` walks them byte by
/// byte until it reaches an aligned word). Every read of a string in
/// this crate and in msgpack-serde goes through here, or, for a short
/// text read with [`Reader::take_str`](crate::Reader::take_str), through
/// one mask over the 32 bytes it is in, or, for a field name read with
/// [`Reader::read_short_key`](crate::Reader::read_short_key), over 16.
///
/// ```
/// use msgpack_core::decode::str_from_utf8;
///
/// assert_eq!(str_from_utf8(b"ada@example.com"), Ok("ada@example.com"));
/// assert_eq!(str_from_utf8("Grüße".as_bytes()), Ok("Grüße"));
/// assert!(str_from_utf8(&[b'a', 0xc3, 0x28]).is_err());
/// ```
#[inline]
pub fn str_from_utf8(bytes: &[u8]) -> Result<&str, core::str::Utf8Error> {
    if is_ascii(bytes) {
        // SAFETY: every byte is below 0x80, so `bytes` is ASCII, and ASCII
        // is valid UTF-8.
        Ok(unsafe { core::str::from_utf8_unchecked(bytes) })
    } else {
        not_ascii(bytes)
    }
}

/// The fixstr or str 8 at the front of `rest`, when it is one, whole and
/// UTF-8: its text, and the bytes it takes, header included. `None` for
/// anything else (another value, a longer string, a string cut short or
/// not UTF-8), which the caller reads another way to find out which.
/// The check [`Reader::read_short_str`](crate::Reader::read_short_str)
/// makes, on a slice, for decoders that keep their position in one.
///
/// ```
/// use msgpack_core::decode::short_str;
///
/// assert_eq!(short_str(&[0xa2, b'h', b'i', 0xc0]), Some(("hi", 3)));
/// assert_eq!(short_str(&[0xd9, 0x01, b'a']), Some(("a", 3))); // str 8
/// assert_eq!(short_str(&[0xda, 0x00, 0x01, b'a']), None); // str 16
/// assert_eq!(short_str(&[0xa2, b'h']), None); // cut short
/// assert_eq!(short_str(&[0xa1, 0xff]), None); // not UTF-8
/// ```
#[inline(always)]
pub fn short_str(rest: &[u8]) -> Option<(&str, usize)> {
    let &byte = rest.first()?;
    let (head, len) = if byte & !0x1f == crate::marker::FIXSTR {
        (1, (byte & 0x1f) as usize)
    } else if byte == crate::marker::STR8 {
        (2, *rest.get(1)? as usize)
    } else {
        return None;
    };
    let in_window = rest
        .first_chunk::<32>()
        .and_then(|window| ascii_in_window(window, head, len));
    let text = match in_window {
        Some(text) => text,
        None => str_from_utf8(rest.get(head..)?.get(..len)?).ok()?,
    };
    Some((text, head + len))
}

/// The `len` bytes of `window` from `from` on, as a `str` if they are
/// ASCII, tested with one mask over the whole window; `None` if they are
/// not, or do not fit in the window.
///
/// Inlined always only when optimized: a debug build would keep each
/// inlined copy's temporaries in the frames of the decoder's recursion,
/// which then runs out of stack before its depth limit.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn ascii_in_window(window: &[u8; 32], from: usize, len: usize) -> Option<&str> {
    let text = window.get(from..)?.get(..len)?;
    let [first_high, second_high] = HIGH_IN_FIRST[from + len];
    let [first_before, second_before] = HIGH_IN_FIRST[from];
    let (first, second) = window.split_at(16);
    let first = u128::from_le_bytes(first.try_into().unwrap());
    let second = u128::from_le_bytes(second.try_into().unwrap());
    if first & (first_high ^ first_before) | second & (second_high ^ second_before) == 0 {
        // SAFETY: every byte of `text` is below 0x80: the masks have the
        // high bit of each byte of `window` from `from` to `from + len`;
        // ASCII is valid UTF-8.
        Some(unsafe { core::str::from_utf8_unchecked(text) })
    } else {
        None
    }
}

/// The fixstr of up to 15 bytes at the front of `window`, when its text
/// is ASCII: the text, and the bytes it takes, header included. `None`
/// for anything else. One mask over the 16 bytes tests the text, from a
/// table by its length: the field names a struct's keys carry are this
/// short, and the header's position is known, so the test is one `u128`
/// where [`ascii_in_window`]'s is two, with a mask for each end.
///
/// Inlined always only when optimized, as `ascii_in_window` is.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn short_key(window: &[u8; 16]) -> Option<(&str, usize)> {
    let len = window[0].wrapping_sub(crate::marker::FIXSTR) as usize;
    if len >= 16 {
        return None;
    }
    if u128::from_le_bytes(*window) & HIGH_AFTER_HEADER[len] != 0 {
        return None;
    }
    let text = &window[1..1 + len];
    // SAFETY: every byte of `text` is below 0x80: the mask has the high
    // bit of each byte of `window` from 1 to `1 + len`; ASCII is valid
    // UTF-8.
    Some((unsafe { core::str::from_utf8_unchecked(text) }, 1 + len))
}

/// The high bit of each of the `len` bytes after a 16-byte window's
/// first, as a little-endian `u128`, by `len`.
const HIGH_AFTER_HEADER: [u128; 16] = {
    let mut masks = [0; 16];
    let mut len = 1;
    while len < 16 {
        masks[len] = masks[len - 1] | 0x80 << (8 * len);
        len += 1;
    }
    masks
};

/// The high bit of each of the first `len` bytes of a 32-byte window,
/// as two little-endian halves, by `len`.
const HIGH_IN_FIRST: [[u128; 2]; 33] = {
    let mut masks = [[0; 2]; 33];
    let mut len = 1;
    while len <= 32 {
        let byte = len - 1;
        masks[len] = masks[len - 1];
        masks[len][byte / 16] |= 0x80 << (8 * (byte % 16));
        len += 1;
    }
    masks
};

/// `bytes` as a `str`, if they are UTF-8, for text that is not all
/// ASCII: from 64 bytes on, with `std`, simdutf8 checks it 64 bytes at a
/// time in the vector instructions the CPU has (picked at run time),
/// where `from_utf8` decodes it a character at a time; shorter text,
/// where that costs little, and the error's position are `from_utf8`'s.
/// Out of line: every string read inlines `str_from_utf8`.
#[inline(never)]
fn not_ascii(bytes: &[u8]) -> Result<&str, core::str::Utf8Error> {
    #[cfg(feature = "std")]
    if bytes.len() >= 64 {
        if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
            return Ok(text);
        }
    }
    core::str::from_utf8(bytes)
}

/// `s.to_owned()`, with a string of up to 64 bytes copied in a few loads
/// and stores rather than by a call to `memcpy`, which for the short
/// strings of MessagePack costs more than the copy.
///
/// ```
/// use msgpack_core::decode::owned_str;
///
/// assert_eq!(owned_str("Zürich"), "Zürich");
/// assert_eq!(owned_str("").capacity(), 0); // nothing allocated
/// ```
#[cfg(feature = "alloc")]
#[inline(always)]
pub fn owned_str(s: &str) -> alloc::string::String {
    let mut bytes = alloc::vec::Vec::with_capacity(s.len());
    // SAFETY: `bytes` has room for `s.len()` bytes in an allocation of its
    // own, which does not overlap `s`; `copy_bytes` writes all of them
    // before the length is set, and they are `s`'s, so UTF-8.
    unsafe {
        crate::copy::copy_bytes(s.as_bytes(), bytes.as_mut_ptr());
        bytes.set_len(s.len());
        alloc::string::String::from_utf8_unchecked(bytes)
    }
}

/// Whether every byte is below 0x80, in a few word-sized reads for any
/// length: `<[u8]>::is_ascii` checks the bytes past the last whole word
/// one by one, which for the short strings of MessagePack is most of them.
#[inline]
fn is_ascii(bytes: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let len = bytes.len();
    if len >= 8 {
        // Whole words, then the last eight bytes (overlapping the words).
        let mut any = word(len - 8);
        let mut at = 0;
        while at + 8 <= len {
            any |= word(at);
            at += 8;
        }
        return any & HIGH == 0;
    }
    // Under eight bytes: two overlapping reads of the widest size that fits.
    let any = if len >= 4 {
        let half = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        half(0) | half(len - 4)
    } else if len >= 2 {
        let pair = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]) as u32;
        pair(0) | pair(len - 2)
    } else {
        bytes.first().map_or(0, |&b| b as u32)
    };
    any & 0x8080_8080 == 0
}

#[cfg(test)]
mod tests {
    use super::{ascii_in_window, short_key};

    /// Every text the window holds, among bytes that are not ASCII: read
    /// when all its bytes are ASCII, refused when any one is not, so the
    /// mask covers exactly the text's bytes.
    #[test]
    fn the_mask_covers_exactly_the_text() {
        for from in 0..=32 {
            for len in 0..=32 - from {
                let mut window = [0xffu8; 32];
                window[from..from + len].fill(b'k');
                let expected = "k".repeat(len);
                assert_eq!(ascii_in_window(&window, from, len), Some(expected.as_str()));
                for at in from..from + len {
                    let mut odd = window;
                    odd[at] = 0x80;
                    assert_eq!(ascii_in_window(&odd, from, len), None, "{from} {len} {at}");
                }
            }
        }
    }

    /// Every fixstr a 16-byte window holds, among bytes that are not
    /// ASCII: read when its text is ASCII, refused when any byte of it
    /// is not, or when the header is not a fixstr of up to 15 bytes.
    #[test]
    fn the_key_mask_covers_exactly_the_text() {
        for len in 0..16 {
            let mut window = [0xffu8; 16];
            window[0] = 0xa0 + len as u8;
            window[1..1 + len].fill(b'k');
            let expected = "k".repeat(len);
            assert_eq!(short_key(&window), Some((expected.as_str(), 1 + len)));
            for at in 1..1 + len {
                let mut odd = window;
                odd[at] = 0x80;
                assert_eq!(short_key(&odd), None, "{len} {at}");
            }
        }
        for header in [0x00, 0x7f, 0x9f, 0xb0, 0xbf, 0xd9, 0xff] {
            let mut window = [b'k'; 16];
            window[0] = header;
            assert_eq!(short_key(&window), None, "{header:#x}");
        }
    }

    #[test]
    fn a_text_past_the_window_is_not_read() {
        let window = [b'k'; 32];
        for (from, len) in [
            (0, 33),
            (1, 32),
            (32, 1),
            (33, 0),
            (usize::MAX, 2),
            (2, usize::MAX),
        ] {
            assert_eq!(ascii_in_window(&window, from, len), None, "{from} {len}");
        }
    }
}
