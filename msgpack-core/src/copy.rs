//! Copies of short byte strings without a call: most strings a message
//! holds (names, ids, keys, short texts) are at most 64 bytes, where a call
//! to `memcpy` costs more than the copy, and makes the caller save its
//! registers around it.

/// Copies `src` to `dst` as `core::ptr::copy_nonoverlapping` does: up to
/// 64 bytes as two overlapping loads and two overlapping stores of the
/// widest width that fits, longer strings through `memcpy`.
///
/// # Safety
///
/// `dst` must be valid for writes of `src.len()` bytes and must not
/// overlap `src`.
#[inline(always)]
pub(crate) unsafe fn copy_bytes(src: &[u8], dst: *mut u8) {
    let len = src.len();
    let from = src.as_ptr();
    // SAFETY: each load below reads `N` bytes starting at `from` or at
    // `from + len - N` with `N <= len`, so within `src`; each store writes
    // `N` bytes at `dst` or `dst + len - N`, so within the `len` bytes the
    // caller made valid; loads and stores are unaligned, and the two
    // regions do not overlap, as the caller promised.
    unsafe {
        if len <= 16 {
            if len >= 8 {
                pair::<8>(from, dst, len);
            } else if len >= 4 {
                pair::<4>(from, dst, len);
            } else if len > 0 {
                // 1 to 3 bytes: the first, the middle and the last (some
                // the same byte).
                *dst = *from;
                *dst.add(len / 2) = *from.add(len / 2);
                *dst.add(len - 1) = *from.add(len - 1);
            }
        } else if len <= 32 {
            pair_wide::<1>(from, dst, len);
        } else if len <= 64 {
            pair_wide::<2>(from, dst, len);
        } else {
            core::ptr::copy_nonoverlapping(from, dst, len);
        }
    }
}

/// As [`pair`] with `N = 16 * W` (`W` of 1 or 2), through `u128` values,
/// which stay in registers between the loads and the stores: arrays of
/// 16 or 32 bytes are moved through the stack.
///
/// # Safety
///
/// As [`copy_bytes`], with `16 * W <= len`.
#[inline(always)]
unsafe fn pair_wide<const W: usize>(from: *const u8, dst: *mut u8, len: usize) {
    const { assert!(W == 1 || W == 2) };
    let tail = len - 16 * W;
    // SAFETY: the caller's; all loads happen before any store. With
    // `W == 1` the second load and store of each end are the first's.
    unsafe {
        let head0 = from.cast::<u128>().read_unaligned();
        let head1 = from.add(16 * (W - 1)).cast::<u128>().read_unaligned();
        let tail0 = from.add(tail).cast::<u128>().read_unaligned();
        let tail1 = from
            .add(tail + 16 * (W - 1))
            .cast::<u128>()
            .read_unaligned();
        dst.cast::<u128>().write_unaligned(head0);
        dst.add(16 * (W - 1)).cast::<u128>().write_unaligned(head1);
        dst.add(tail).cast::<u128>().write_unaligned(tail0);
        dst.add(tail + 16 * (W - 1))
            .cast::<u128>()
            .write_unaligned(tail1);
    }
}

/// The first and the last `N` of `len` bytes, `N <= len <= 2 * N`.
///
/// # Safety
///
/// As [`copy_bytes`], with `N <= len`.
#[inline(always)]
unsafe fn pair<const N: usize>(from: *const u8, dst: *mut u8, len: usize) {
    // SAFETY: the caller's; both loads happen before either store.
    unsafe {
        let head = from.cast::<[u8; N]>().read_unaligned();
        let tail = from.add(len - N).cast::<[u8; N]>().read_unaligned();
        dst.cast::<[u8; N]>().write_unaligned(head);
        dst.add(len - N).cast::<[u8; N]>().write_unaligned(tail);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length from 0 to 80, into a buffer whose bytes around the
    /// copy must stay as they were.
    #[test]
    fn copies_every_length_and_nothing_around_it() {
        let src: [u8; 80] = core::array::from_fn(|i| i as u8 + 1);
        for len in 0..=80 {
            for offset in [0, 1, 7] {
                let mut dst = [0xeeu8; 96];
                // SAFETY: `offset + len` is at most 87, inside the 96
                // bytes of `dst`, a separate array.
                unsafe { copy_bytes(&src[..len], dst.as_mut_ptr().add(offset)) };
                assert!(
                    dst[..offset].iter().all(|&b| b == 0xee),
                    "{len} at {offset}"
                );
                assert_eq!(dst[offset..offset + len], src[..len], "{len} at {offset}");
                assert!(
                    dst[offset + len..].iter().all(|&b| b == 0xee),
                    "{len} at {offset}"
                );
            }
        }
    }
}
