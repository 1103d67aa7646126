//! The room a struct's or tuple's fields are written into when our
//! serializer writes into a vector (see `compound.rs`'s `Fields`), kept
//! between serde's calls as a [`PausedRoom`]. This module holds the casts
//! that take it up again over the serializer's vector.

#![allow(unsafe_code)]

use msgpack_core::PausedRoom;

use super::direct::Out;
use super::Serializer;

/// A struct's room: `None` when the vector holds everything written
/// (and always for writers other than a vector).
#[derive(Debug, Default)]
pub(super) struct FieldRoom(Option<PausedRoom>);

impl FieldRoom {
    /// Whether a room is open.
    #[inline(always)]
    pub(super) fn is_open(&self) -> bool {
        self.0.is_some()
    }

    /// Whether rooms open for `ser`: when it writes into a vector. A
    /// constant of its writer's type, tested before [`open`](FieldRoom::open).
    #[inline(always)]
    pub(super) fn opens_for<W, F>(_ser: &Serializer<W, F>) -> bool {
        writes_to_vec::<W>()
    }

    /// The room, taken up again or reserved with `estimate` bytes at the
    /// end of `ser`'s vector. Only for a serializer rooms open for
    /// ([`opens_for`](FieldRoom::opens_for)). Give it back with
    /// [`keep`](FieldRoom::keep), or end it with `Out::finish`.
    ///
    /// Not an `Option<Out>`: its `None` would be a value of the
    /// configuration's first `bool` (`Out`'s largest niche), which the
    /// compiler cannot tell a configuration read from the serializer never
    /// holds, and every struct's `serialize` would carry a second, dead
    /// way of writing its fields (`benches/RESULTS.md`, step 15).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(super) fn open<'s, W, F>(
        &mut self,
        ser: &'s mut Serializer<W, F>,
        estimate: usize,
    ) -> Out<'s> {
        let config = ser.config;
        let Some(vec) = vec_in(ser) else {
            unreachable!("a room opens only over a vector");
        };
        // SAFETY: `vec` is the vector of the serializer `ser` borrows
        // mutably (`vec_in`), for as long as the `Out` lives.
        let vec = unsafe { &mut *vec };
        match self.0.take() {
            // SAFETY: the room was paused over this vector (a `FieldRoom`
            // serves one struct's serializer), which nothing has written
            // since: while a room is open, the struct's fields write
            // through it, and `Fields` ends it before a field that goes
            // through the serializer.
            Some(paused) => unsafe { Out::resume(vec, paused, config) },
            None => Out::over(vec, estimate, config),
        }
    }

    /// Keeps `out` open for the next field.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(super) fn keep(&mut self, out: Out<'_>) {
        self.0 = Some(out.pause());
    }

    /// Makes what the room holds part of `ser`'s vector, and ends it.
    #[inline(always)]
    pub(super) fn end<W, F>(&mut self, ser: &mut Serializer<W, F>) {
        if self.is_open() {
            self.open(ser, 0).finish();
        }
    }
}

/// Whether `W` is a `Vec<u8>` or a `&mut Vec<u8>`: a constant. The
/// writers [`vec_in`] takes, tested apart from it so that no `Option`
/// is matched (a test holds the two to each other).
#[inline(always)]
fn writes_to_vec<W>() -> bool {
    let id = typeid::of::<W>();
    id == typeid::of::<Vec<u8>>() || id == typeid::of::<&mut Vec<u8>>()
}

/// The vector `ser` writes into, when its writer is a `Vec<u8>` or a
/// `&mut Vec<u8>`. The test of the writer's type is a constant.
#[inline(always)]
fn vec_in<W, F>(ser: &mut Serializer<W, F>) -> Option<*mut Vec<u8>> {
    let out: *mut W = &mut ser.out;
    let id = typeid::of::<W>();
    if id == typeid::of::<Vec<u8>>() {
        Some(out.cast())
    } else if id == typeid::of::<&mut Vec<u8>>() {
        // SAFETY: `W` is `&mut Vec<u8>` (equal ids, but for the lifetime),
        // which has the layout of `*mut Vec<u8>`; `out` points to it,
        // initialized, and reading a pointer copies it.
        Some(unsafe { out.cast::<*mut Vec<u8>>().read() })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ser::Compact;

    /// Rooms open for a vector, owned or borrowed, and only then.
    #[test]
    fn a_room_opens_over_a_vector_and_nothing_else() {
        let owned = Serializer::compact(vec![1]);
        assert!(FieldRoom::opens_for(&owned));
        let mut vec = Vec::new();
        let borrowed = Serializer::compact(&mut vec);
        assert!(FieldRoom::opens_for(&borrowed));
        let mut sink = Vec::new();
        let other: Serializer<_, Compact> =
            Serializer::compact(msgpack_core::IoWriter::new(std::io::Cursor::new(&mut sink)));
        assert!(!FieldRoom::opens_for(&other));
    }

    /// `opens_for` and the vector `open` takes are two tests of the
    /// writer's type: they agree.
    #[test]
    fn the_two_tests_of_the_writers_type_agree() {
        let mut owned = Serializer::compact(vec![1]);
        assert_eq!(FieldRoom::opens_for(&owned), vec_in(&mut owned).is_some());
        let mut vec = Vec::new();
        let mut borrowed = Serializer::compact(&mut vec);
        assert_eq!(
            FieldRoom::opens_for(&borrowed),
            vec_in(&mut borrowed).is_some()
        );
        let mut sink = Vec::new();
        let mut other: Serializer<_, Compact> =
            Serializer::compact(msgpack_core::IoWriter::new(std::io::Cursor::new(&mut sink)));
        assert_eq!(FieldRoom::opens_for(&other), vec_in(&mut other).is_some());
    }

    /// Opening a room for a writer that is not a vector is a bug of this
    /// crate, stopped at once.
    #[test]
    #[should_panic(expected = "a room opens only over a vector")]
    fn a_room_for_another_writer_is_refused() {
        let mut sink = Vec::new();
        let mut other: Serializer<_, Compact> =
            Serializer::compact(msgpack_core::IoWriter::new(std::io::Cursor::new(&mut sink)));
        FieldRoom::default().open(&mut other, 4);
    }

    /// What a paused room holds reaches the vector when it ends.
    #[test]
    fn an_ended_room_leaves_its_bytes_in_the_vector() {
        let mut serializer = Serializer::compact(vec![0xc0]);
        let mut room = FieldRoom::default();
        let mut out = room.open(&mut serializer, 2);
        out.array_len(1).unwrap();
        room.keep(out);
        assert!(room.is_open());
        let mut out = room.open(&mut serializer, 0);
        out.nil();
        room.keep(out);
        room.end(&mut serializer);
        assert!(!room.is_open());
        assert_eq!(serializer.into_inner(), [0xc0, 0x91, 0xc0]);
    }
}
