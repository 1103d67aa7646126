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
        self.put_headed_keeping(head, bytes, 0);
    }

    /// As [`put_headed`](Self::put_headed), and leaves room for `keep`
    /// more bytes after them, checked with theirs: writes of a known
    /// size that follow within `keep` check nothing.
    #[inline(always)]
    pub fn put_headed_keeping<const H: usize>(&mut self, head: [u8; H], bytes: &[u8], keep: usize) {
        self.make_room((H + bytes.len()).saturating_add(keep));
        // SAFETY: as in `put_slice_keeping`, for `H + bytes.len()` bytes.
        unsafe {
            let end = self.base.add(self.written);
            end.cast::<[u8; H]>().write_unaligned(head);
            crate::copy::copy_bytes(bytes, end.add(H));
        }
        self.written += H + bytes.len();
        self.kept(keep);
    }

    /// Tells the compiler that `keep` bytes are left, as a check of room
    /// for them and more before the last write found.
    #[inline(always)]
    fn kept(&self, keep: usize) {
        // SAFETY: the caller's room check found `keep` bytes past the
        // ones it then wrote (its sum saturated only where the room's
        // growth would have failed before the write).
        unsafe { core::hint::assert_unchecked(self.reserved - self.written >= keep) };
    }

    /// Appends the first `len` bytes of `bytes` (all `N` if `len` is
    /// larger), with one copy of all `N`: see
    /// [`Write::write_prefix`](crate::Write::write_prefix). Nine bytes
    /// hold any integer with its marker; eight are one store.
    #[inline(always)]
    pub fn put_prefix<const N: usize>(&mut self, bytes: &[u8; N], len: usize) {
        self.make_room(N);
        // SAFETY: as in `put`, for `N` bytes; only `len.min(N)` of them
        // are counted as written, and all `N` are initialized.
        unsafe {
            self.base
                .add(self.written)
                .cast::<[u8; N]>()
                .write_unaligned(*bytes);
        }
        self.written += len.min(N);
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
        self.put_slice_keeping(bytes, 0);
    }

    /// As [`put_slice`](Self::put_slice), and leaves room for `keep` more
    /// bytes, as [`put_headed_keeping`](Self::put_headed_keeping) does.
    #[inline(always)]
    pub fn put_slice_keeping(&mut self, bytes: &[u8], keep: usize) {
        self.make_room(bytes.len().saturating_add(keep));
        // SAFETY: `make_room` left `bytes.len()` reserved bytes past the
        // written ones; `bytes` is borrowed apart from the vector, which
        // `self` holds mutably, so they cannot overlap.
        unsafe {
            let end = self.base.add(self.written);
            core::ptr::copy_nonoverlapping(bytes.as_ptr(), end, bytes.len());
        }
        self.written += bytes.len();
        self.kept(keep);
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
mod tests;
