//! Writes into a vector's reserved room: one capacity check for a whole
//! struct or container instead of one per byte string, with the length
//! kept in a register and stored once at the end.

use alloc::vec::Vec;

/// Room reserved at the end of a `Vec<u8>`: `put` writes without the
/// vector's own capacity check, which is made once, when the room is
/// reserved. A write that would run past the room (the estimate was
/// short) reserves more, so no estimate can make a write fail or go out
/// of bounds: it only costs a second reservation.
///
/// What is written becomes part of the vector at
/// [`finish`](Room::finish), or when the room grows (which keeps what
/// was written before); a room dropped before either leaves the vector
/// as it was.
///
/// ```
/// use msgpack_core::Room;
///
/// let mut out = vec![0xc0];
/// let mut room = Room::new(&mut out, 3);
/// room.put([0x92, 0x01]);
/// room.put_prefix(&[0xcd, 0x01, 0x2c, 0, 0, 0, 0, 0, 0], 3);
/// room.put_slice(b"past the estimate");
/// room.finish();
/// assert_eq!(&out[..6], [0xc0, 0x92, 0x01, 0xcd, 0x01, 0x2c]);
/// assert_eq!(&out[6..], b"past the estimate");
/// ```
#[derive(Debug)]
pub struct Room<'a> {
    vec: &'a mut Vec<u8>,
    /// Where `vec`'s length ends, whenever `reserved > 0`: the room starts
    /// here. Kept apart from the vector so that writes need not reload it
    /// from the vector (the compiler cannot tell they do not change it).
    /// With `reserved == 0` (after a panic caught in `with_vec` or in a
    /// reservation) it may be stale; no write of a byte uses it before the
    /// room grows, which sets it again (a write of nothing computes
    /// `base.add(0)` and copies zero bytes, which is valid for any
    /// pointer).
    base: *mut u8,
    /// Bytes written past `base`, all of them initialized.
    written: usize,
    /// Bytes reserved past `base`: `written <= reserved` and
    /// `vec.len() + reserved <= vec.capacity()` always hold.
    reserved: usize,
}

impl<'a> Room<'a> {
    /// Reserves room for `estimate` bytes after the vector's end.
    #[inline(always)]
    pub fn new(vec: &'a mut Vec<u8>, estimate: usize) -> Room<'a> {
        vec.reserve(estimate);
        let mut room = Room {
            vec,
            base: core::ptr::null_mut(),
            written: 0,
            reserved: 0,
        };
        room.rebase();
        // SAFETY: `Vec::reserve` leaves room for at least `estimate` more
        // bytes, all of which `rebase` counted. Told to the compiler, it
        // drops the room checks of writes known to fit in the estimate.
        unsafe { core::hint::assert_unchecked(room.reserved >= estimate) };
        room
    }

    /// Points the room at the vector's end, all its spare capacity.
    #[inline(always)]
    fn rebase(&mut self) {
        let len = self.vec.len();
        self.reserved = self.vec.capacity() - len;
        // `wrapping_add`, not `add`: safe, and `len` is within the
        // allocation (or zero for an empty one), so it never wraps.
        self.base = self.vec.as_mut_ptr().wrapping_add(len);
    }

    /// Makes sure `additional` more bytes fit without another reservation.
    #[inline(always)]
    pub fn reserve(&mut self, additional: usize) {
        self.make_room(additional);
    }

    /// Makes sure `additional` more bytes fit.
    #[inline(always)]
    fn make_room(&mut self, additional: usize) {
        if additional > self.reserved - self.written {
            // `grow` moves the written bytes into the vector's length
            // before it reserves, which can panic: the room is empty
            // first, so that a room used again after a caught panic
            // counts them once and writes nothing before it grows again.
            let written = core::mem::take(&mut self.written);
            self.reserved = 0;
            (self.base, self.reserved) = grow(self.vec, written, additional);
        }
    }

    /// Moves the written bytes into the vector's length.
    #[inline(always)]
    fn commit(&mut self) {
        let len = self.vec.len() + self.written;
        // SAFETY: `written <= reserved` bytes past the old length are
        // within the capacity (`vec.len() + reserved <= capacity`), and
        // every one of them was initialized by `put_*`.
        unsafe { self.vec.set_len(len) };
        self.rebase();
        self.written = 0;
    }

    /// Appends `N` bytes.
    #[inline(always)]
    pub fn put<const N: usize>(&mut self, bytes: [u8; N]) {
        self.make_room(N);
        // SAFETY: `make_room` left at least `N` reserved bytes past the
        // written ones, inside the vector's allocation (`base` is its
        // end, as `rebase` set it); `bytes` is a local and cannot overlap.
        unsafe {
            self.base
                .add(self.written)
                .cast::<[u8; N]>()
                .write_unaligned(bytes);
        }
        self.written += N;
    }

    /// Appends `H` header bytes and `N` bytes after them, with one room
    /// check: two stores, where one array of `H + N` bytes would be
    /// assembled in a register first.
    #[inline(always)]
    pub fn put_marked<const H: usize, const N: usize>(&mut self, head: [u8; H], bytes: [u8; N]) {
        self.make_room(H + N);
        // SAFETY: as in `put`, for `H + N` bytes.
        unsafe {
            let end = self.base.add(self.written);
            end.cast::<[u8; H]>().write_unaligned(head);
            end.add(H).cast::<[u8; N]>().write_unaligned(bytes);
        }
        self.written += H + N;
    }

    /// Appends `H` header bytes and all of `bytes`, with one room check;
    /// `bytes` of up to 64 bytes are copied without a call to `memcpy`
    /// (short strings with their header). [`put_slice`](Self::put_slice)
    /// always calls `memcpy`: less code where the bytes are long.
    #[inline(always)]
    pub fn put_headed<const H: usize>(&mut self, head: [u8; H], bytes: &[u8]) {
        self.make_room(H + bytes.len());
        // SAFETY: as in `put_slice`, for `H + bytes.len()` bytes.
        unsafe {
            let end = self.base.add(self.written);
            end.cast::<[u8; H]>().write_unaligned(head);
            crate::copy::copy_bytes(bytes, end.add(H));
        }
        self.written += H + bytes.len();
    }

    /// Appends the first `len` bytes of `bytes` (all nine if `len` is
    /// larger), with one copy of all nine: see
    /// [`Write::write_prefix`](crate::Write::write_prefix).
    #[inline(always)]
    pub fn put_prefix(&mut self, bytes: &[u8; 9], len: usize) {
        self.make_room(9);
        // SAFETY: as in `put`, for nine bytes; only `len.min(9)` of them
        // are counted as written, and all nine are initialized.
        unsafe {
            self.base
                .add(self.written)
                .cast::<[u8; 9]>()
                .write_unaligned(*bytes);
        }
        self.written += len.min(9);
    }

    /// Appends each of `items` as `encode` gives it: `N` bytes of which
    /// the first `len` count (all `N` if `len` is larger). One room check
    /// for each block of items, where [`put_prefix`](Self::put_prefix)
    /// makes one per item: for runs of numbers.
    ///
    /// ```
    /// use msgpack_core::{encode, Room};
    ///
    /// let mut out = Vec::new();
    /// let mut room = Room::new(&mut out, 0);
    /// room.put_each(&[7, -300], |&value| encode::int_bytes(value));
    /// room.finish();
    /// assert_eq!(out, [0x07, 0xd1, 0xfe, 0xd4]);
    /// ```
    #[inline(always)]
    pub fn put_each<T, const N: usize>(
        &mut self,
        items: &[T],
        mut encode: impl FnMut(&T) -> ([u8; N], usize),
    ) {
        // So that a block's room, `N * EACH_BLOCK`, cannot overflow.
        const { assert!(N <= 64) };
        for block in items.chunks(EACH_BLOCK) {
            if N * block.len() <= self.reserved - self.written {
                for item in block {
                    let (bytes, len) = encode(item);
                    // SAFETY: `N` reserved bytes are left past the
                    // written ones: the check above found `N` for each
                    // item of the block, and each item before this one
                    // counted at most `N`. `bytes` is a local and cannot
                    // overlap; all `N` are initialized, at most `N`
                    // counted.
                    unsafe {
                        self.base
                            .add(self.written)
                            .cast::<[u8; N]>()
                            .write_unaligned(bytes);
                    }
                    self.written += len.min(N);
                }
            } else {
                // Near the room's end (items estimated narrower than
                // `N`), each item is copied at its own length: the room
                // grows only if the item itself does not fit.
                for item in block {
                    let (bytes, len) = encode(item);
                    self.put_slice(&bytes[..len.min(N)]);
                }
            }
        }
    }

    /// Appends all of `bytes`.
    #[inline(always)]
    pub fn put_slice(&mut self, bytes: &[u8]) {
        self.make_room(bytes.len());
        // SAFETY: `make_room` left `bytes.len()` reserved bytes past the
        // written ones; `bytes` is borrowed apart from the vector, which
        // `self` holds mutably, so they cannot overlap.
        unsafe {
            let end = self.base.add(self.written);
            core::ptr::copy_nonoverlapping(bytes.as_ptr(), end, bytes.len());
        }
        self.written += bytes.len();
    }

    /// Appends `value` in its smallest unsigned form, as
    /// [`encode::write_uint`](crate::encode::write_uint) writes it.
    ///
    /// ```
    /// use msgpack_core::Room;
    ///
    /// let mut out = Vec::new();
    /// let mut room = Room::new(&mut out, 0);
    /// room.put_uint(7);
    /// room.put_uint(300);
    /// room.finish();
    /// assert_eq!(out, [0x07, 0xcd, 0x01, 0x2c]);
    /// ```
    #[inline(always)]
    pub fn put_uint(&mut self, value: u64) {
        match crate::encode::write_uint_inlined(self, value) {
            Ok(_) => {}
            Err(never) => match never {},
        }
    }

    /// Appends `value` in its smallest form, as
    /// [`encode::write_int`](crate::encode::write_int) writes it.
    ///
    /// ```
    /// use msgpack_core::Room;
    ///
    /// let mut out = Vec::new();
    /// let mut room = Room::new(&mut out, 0);
    /// room.put_int(-33);
    /// room.put_int(200);
    /// room.finish();
    /// assert_eq!(out, [0xd0, 0xdf, 0xcc, 0xc8]);
    /// ```
    #[inline(always)]
    pub fn put_int(&mut self, value: i64) {
        match crate::encode::write_int_inlined(self, value) {
            Ok(_) => {}
            Err(never) => match never {},
        }
    }

    /// Appends the header of an array of `len` elements, as
    /// [`encode::write_array_len`](crate::encode::write_array_len) writes it.
    ///
    /// ```
    /// use msgpack_core::Room;
    ///
    /// let mut out = Vec::new();
    /// let mut room = Room::new(&mut out, 0);
    /// room.put_array_len(2).unwrap();
    /// room.put_map_len(16).unwrap();
    /// room.finish();
    /// assert_eq!(out, [0x92, 0xde, 0x00, 0x10]);
    /// ```
    #[inline(always)]
    pub fn put_array_len(
        &mut self,
        len: usize,
    ) -> Result<(), crate::EncodeError<core::convert::Infallible>> {
        crate::encode::write_container_len_inlined(self, len, false)?;
        Ok(())
    }

    /// Appends the header of a map of `len` pairs, as
    /// [`encode::write_map_len`](crate::encode::write_map_len) writes it.
    #[inline(always)]
    pub fn put_map_len(
        &mut self,
        len: usize,
    ) -> Result<(), crate::EncodeError<core::convert::Infallible>> {
        crate::encode::write_container_len_inlined(self, len, true)?;
        Ok(())
    }

    /// Lends the vector to `f`, with what was written so far part of it,
    /// then reserves the room past whatever `f` left: for a value that
    /// writes through the vector itself.
    ///
    /// ```
    /// use msgpack_core::Room;
    ///
    /// let mut out = Vec::new();
    /// let mut room = Room::new(&mut out, 8);
    /// room.put([0x92]);
    /// room.with_vec(|vec| vec.push(0x01));
    /// room.put([0x02]);
    /// room.finish();
    /// assert_eq!(out, [0x92, 0x01, 0x02]);
    /// ```
    #[inline]
    pub fn with_vec<R>(&mut self, f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
        self.commit();
        // `f` may reallocate the vector and then panic: until `rebase`
        // points the room at the vector again, it holds nothing, so that
        // a room used again after a caught panic grows before it writes.
        self.reserved = 0;
        let result = f(self.vec);
        self.rebase();
        result
    }

    /// Makes what was written part of the vector.
    #[inline(always)]
    pub fn finish(mut self) {
        self.commit();
    }

    /// Sets the room aside, what was written not yet part of the vector,
    /// so that the borrow of the vector can end between writes (a struct
    /// written one serde call per field). [`resume`](Room::resume) takes
    /// it up again; a room never resumed leaves the vector as a dropped
    /// room does.
    ///
    /// ```
    /// use msgpack_core::Room;
    ///
    /// let mut out = Vec::new();
    /// let mut room = Room::new(&mut out, 2);
    /// room.put([0x92, 0x01]);
    /// let paused = room.pause();
    /// // SAFETY: `out` is the vector the room was over, untouched since.
    /// let mut room = unsafe { Room::resume(&mut out, paused) };
    /// room.put([0x02]);
    /// room.finish();
    /// assert_eq!(out, [0x92, 0x01, 0x02]);
    /// ```
    #[inline(always)]
    pub fn pause(self) -> PausedRoom {
        PausedRoom {
            base: self.base,
            written: self.written,
            reserved: self.reserved,
        }
    }

    /// Takes up a room [`pause`](Room::pause) set aside.
    ///
    /// # Safety
    ///
    /// `vec` must be the vector the paused room was over, with the
    /// length, capacity and buffer it had when the room was paused: the
    /// room writes past the length without checking the capacity again.
    #[inline(always)]
    pub unsafe fn resume(vec: &'a mut Vec<u8>, paused: PausedRoom) -> Room<'a> {
        // Catches a write to the vector between pause and resume in debug
        // builds; it cannot prove the contract (a buffer shrunk and grown
        // again in place has the same address).
        debug_assert!(
            paused.reserved == 0
                || (paused.base == vec.as_mut_ptr().wrapping_add(vec.len())
                    && vec.capacity() - vec.len() >= paused.reserved),
            "a room resumed over a vector written since it was paused"
        );
        Room {
            vec,
            base: paused.base,
            written: paused.written,
            reserved: paused.reserved,
        }
    }
}

/// A [`Room`] set aside by [`Room::pause`]: where it starts in its
/// vector's buffer, and how much of it is written and reserved.
#[derive(Debug)]
pub struct PausedRoom {
    base: *mut u8,
    written: usize,
    reserved: usize,
}

// SAFETY: a paused room only records a position; its pointer is written
// through again only by `Room::resume`, which needs the vector borrowed
// mutably, on whichever thread holds it.
unsafe impl Send for PausedRoom {}
// SAFETY: as for `Send`: nothing is read or written through `&PausedRoom`.
unsafe impl Sync for PausedRoom {}

/// Keeps the `written` bytes past the end of `vec` (the estimate was
/// short) and reserves `additional` more: the new base and room. Apart
/// from `Room`, taking its fields by value, so that the room can live in
/// registers while it is written.
#[cold]
#[inline(never)]
fn grow(vec: &mut Vec<u8>, written: usize, additional: usize) -> (*mut u8, usize) {
    let len = vec.len() + written;
    // SAFETY: the room's invariant (see `Room::commit`): these `written`
    // bytes are within the capacity and initialized.
    unsafe { vec.set_len(len) };
    vec.reserve(additional);
    (vec.as_mut_ptr().wrapping_add(len), vec.capacity() - len)
}

/// How many items [`Room::put_each`] writes after one room check.
const EACH_BLOCK: usize = 32;

/// A room is a writer, so every `encode` function writes into it.
impl crate::Write for Room<'_> {
    type Error = core::convert::Infallible;

    #[inline(always)]
    fn write_u8(&mut self, byte: u8) -> Result<(), Self::Error> {
        self.put([byte]);
        Ok(())
    }

    #[inline(always)]
    fn write_all(&mut self, bytes: &[u8]) -> Result<(), Self::Error> {
        self.put_slice(bytes);
        Ok(())
    }

    #[inline(always)]
    fn write_prefix(&mut self, bytes: &[u8; 9], len: usize) -> Result<(), Self::Error> {
        self.put_prefix(bytes, len);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Room;
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn writes_within_the_estimate_and_past_it() {
        let mut out = Vec::new();
        let mut room = Room::new(&mut out, 0);
        for i in 0..200u8 {
            room.put([i, i]);
            room.put_prefix(&[i; 9], usize::from(i % 10));
            room.put_slice(&vec![i; usize::from(i)]);
            room.put_marked([0xca], [i; 4]);
            room.put_headed([1, 2], &vec![i; usize::from(i % 7)]);
        }
        room.finish();
        let mut expected = Vec::new();
        for i in 0..200u8 {
            expected.extend_from_slice(&[i, i]);
            expected.extend(vec![i; usize::from(i % 10).min(9)]);
            expected.extend(vec![i; usize::from(i)]);
            expected.extend([0xca, i, i, i, i]);
            expected.extend([1, 2]);
            expected.extend(vec![i; usize::from(i % 7)]);
        }
        assert_eq!(out, expected);
    }

    /// Integers and container headers at every width's edges, from an
    /// empty room (so most writes grow it), as `encode` writes them.
    #[test]
    fn integers_and_headers_as_encode_writes_them() {
        let ints = [
            0i64, 1, 127, 128, 255, 256, 65535, 65536, -1, -32, -33, -128, -129,
        ];
        let ints = ints
            .into_iter()
            .chain([i64::MIN, i64::MAX, u32::MAX as i64 + 1]);
        let lens = [0usize, 15, 16, 255, 256, 65535, 65536, u32::MAX as usize];
        let mut out = Vec::new();
        let mut expected = Vec::new();
        let mut room = Room::new(&mut out, 0);
        for n in ints {
            room.put_int(n);
            crate::encode::write_int(&mut expected, n).unwrap();
            room.put_uint(n as u64);
            crate::encode::write_uint(&mut expected, n as u64).unwrap();
        }
        for len in lens {
            room.put_array_len(len).unwrap();
            crate::encode::write_array_len(&mut expected, len).unwrap();
            room.put_map_len(len).unwrap();
            crate::encode::write_map_len(&mut expected, len).unwrap();
        }
        assert!(room.put_array_len(u32::MAX as usize + 1).is_err());
        room.finish();
        assert_eq!(out, expected);
    }

    /// Integers at every width's edge, in runs of every length across
    /// `put_each`'s blocks.
    const EDGES: [i64; 21] = [
        0,
        1,
        127,
        128,
        255,
        256,
        65535,
        65536,
        -1,
        -32,
        -33,
        -128,
        -129,
        -32768,
        -32769,
        i32::MIN as i64,
        i32::MIN as i64 - 1,
        u32::MAX as i64,
        u32::MAX as i64 + 1,
        i64::MIN,
        i64::MAX,
    ];

    /// Writes `values` with `put_each` three ways (signed, unsigned, and
    /// three-byte items that sometimes claim more than their three) after
    /// `before`, in a room reserved at `estimate`, and returns the vector
    /// with what `encode` and `put_prefix`'s rule give for the same.
    fn each_and_expected(values: &[i64], before: &[u8], estimate: usize) -> (Vec<u8>, Vec<u8>) {
        let mut out = before.to_vec();
        let mut room = Room::new(&mut out, estimate);
        room.put_each(values, |&value| crate::encode::int_bytes(value));
        room.put_each(values, |&value| crate::encode::uint_bytes(value as u64));
        room.put_each(values, |&value| {
            ([value as u8, 1, 2], usize::from(value as u8 % 5))
        });
        room.finish();
        let mut expected = before.to_vec();
        for &value in values {
            crate::encode::write_int(&mut expected, value).unwrap();
        }
        for &value in values {
            crate::encode::write_uint(&mut expected, value as u64).unwrap();
        }
        for &value in values {
            expected.extend(&[value as u8, 1, 2][..usize::from(value as u8 % 5).min(3)]);
        }
        (out, expected)
    }

    #[test]
    fn put_each_writes_what_encode_writes_item_by_item() {
        for len in 0..=100 {
            let values: Vec<i64> = (0..len)
                .map(|i| EDGES[(i * 7 + len) % EDGES.len()])
                .collect();
            for (before, estimate) in [(&[][..], 0), (&[0xc0][..], 3), (&[1, 2, 3][..], 1000)] {
                let (out, expected) = each_and_expected(&values, before, estimate);
                assert_eq!(out, expected, "{len} values after {before:?}");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        #[test]
        fn put_each_writes_any_integers_as_encode_does(
            values in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::prelude::any::<i64>(),
                    -300i64..300,
                    proptest::sample::select(&EDGES[..]),
                ],
                0..200,
            ),
            before in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40),
            estimate in 0usize..2000,
        ) {
            let (out, expected) = each_and_expected(&values, &before, estimate);
            proptest::prop_assert_eq!(out, expected);
        }
    }

    #[test]
    fn a_dropped_room_leaves_the_vector_as_it_was() {
        let mut out = vec![1, 2, 3];
        {
            let mut room = Room::new(&mut out, 16);
            room.put([9; 16]);
        }
        assert_eq!(out, [1, 2, 3]);
    }

    #[test]
    fn a_paused_room_resumes_where_it_stopped() {
        let mut out = Vec::with_capacity(2);
        out.push(0xc0);
        let mut paused = Room::new(&mut out, 1).pause();
        // Each write taken up again from the last pause, growing the
        // vector past its capacity on the way.
        for i in 0..300u16 {
            // SAFETY: `out` is the vector the room was over, untouched
            // since it was paused.
            let mut room = unsafe { Room::resume(&mut out, paused) };
            room.put_uint(u64::from(i));
            room.put_slice(&[i as u8; 3]);
            paused = room.pause();
        }
        // SAFETY: as above.
        unsafe { Room::resume(&mut out, paused) }.finish();
        let mut expected = vec![0xc0];
        for i in 0..300u16 {
            crate::encode::write_uint(&mut expected, u64::from(i)).unwrap();
            expected.extend_from_slice(&[i as u8; 3]);
        }
        assert_eq!(out, expected);
    }

    #[test]
    fn a_grown_room_keeps_what_was_written_before() {
        let mut out = Vec::with_capacity(4);
        let mut room = Room::new(&mut out, 4);
        room.put([1, 2, 3]);
        room.put_slice(&[4; 100]);
        room.put_prefix(&[5; 9], 12);
        room.finish();
        assert_eq!(out.len(), 3 + 100 + 9);
        assert_eq!(&out[..3], [1, 2, 3]);
        assert!(out[3..103].iter().all(|&b| b == 4));
        assert!(out[103..].iter().all(|&b| b == 5));
    }

    /// A panic caught while `with_vec` lends the vector, after the
    /// lender moved it to a larger buffer: the room, used again, writes
    /// into the vector's new buffer, after what the lender pushed.
    #[cfg(feature = "std")]
    #[test]
    fn a_room_used_after_a_panic_in_with_vec_writes_into_the_vector() {
        use std::panic::{catch_unwind, AssertUnwindSafe};

        let mut out = Vec::new();
        let mut room = Room::new(&mut out, 16);
        room.put([1, 2]);
        let caught = catch_unwind(AssertUnwindSafe(|| {
            room.with_vec(|vec| {
                vec.push(3);
                vec.reserve(1 << 16);
                panic!("a value that fails halfway");
            })
        }));
        assert!(caught.is_err());
        // Fits in what the room had reserved in the old buffer.
        room.put([4; 4]);
        room.finish();
        assert_eq!(out, [1, 2, 3, 4, 4, 4, 4]);
    }

    /// A reservation that panics (`capacity overflow`) after the room's
    /// bytes became part of the vector: they are counted once, and the
    /// room writes on after them.
    #[cfg(feature = "std")]
    #[test]
    fn a_room_used_after_a_panic_in_reserve_counts_its_bytes_once() {
        use std::panic::{catch_unwind, AssertUnwindSafe};

        let mut out = Vec::new();
        let mut room = Room::new(&mut out, 16);
        room.put([1; 8]);
        let caught = catch_unwind(AssertUnwindSafe(|| room.reserve(usize::MAX)));
        assert!(caught.is_err());
        room.put([2; 3]);
        room.finish();
        assert_eq!(out, [1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2]);
    }
}
