//! Our decoder found behind a deserializer's type, for the derived
//! types that read themselves from its bytes when it is ours (read whole,
//! `whole.rs`; read directly, `direct.rs`), and go through serde
//! otherwise.
//!
//! This module holds the cast that finds it.

#![allow(unsafe_code)]

use super::{Borrowed, Copied, Decoder, Top};
use crate::read::SliceRead;
use crate::Deserializer;

/// A read made of our decoder, whatever it takes its strings as.
pub(super) trait OnDecoder {
    /// What the read gives back: owned, borrowing nothing of the input.
    type Output: 'static;

    /// The read, made of `decoder`.
    fn on<M>(self, decoder: &mut Decoder<'_, M>) -> Option<Self::Output>;
}

/// `read` made of our decoder when `deserializer` is ours (borrowing or
/// copying, held by the `Top` that `from_slice` hands the top-level
/// value, or behind a slice [`Deserializer`]); `None`, nothing read, for
/// any other deserializer.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(super) fn on_our_decoder<D, R: OnDecoder>(deserializer: &mut D, read: R) -> Option<R::Output> {
    // The type tests are constants: all but the one that holds fold away.
    let id = typeid::of::<D>();
    if id == typeid::of::<&mut Decoder<'_, Borrowed>>() {
        // SAFETY: `D` is `&'x mut Decoder<'a, Borrowed>` for some `'x`
        // and `'a`: the ids are equal, and they differ only in
        // lifetimes. The cast names others, but nothing borrowed leaves
        // this call: `read` sees the decoder for its duration and gives
        // back its `Output`, which `on`'s signature keeps from borrowing
        // the decoder or its input (it is `'static`), and only counts, the
        // position and where a direct read gave up are written.
        let decoder =
            unsafe { &mut **(deserializer as *mut D).cast::<&mut Decoder<'_, Borrowed>>() };
        read.on(decoder)
    } else if id == typeid::of::<&mut Decoder<'_, Copied>>() {
        // SAFETY: as above, for `Copied`.
        let decoder = unsafe { &mut **(deserializer as *mut D).cast::<&mut Decoder<'_, Copied>>() };
        read.on(decoder)
    } else if id == typeid::of::<Top<'_, '_>>() {
        // SAFETY: as above, for `Top<'s, 'a>`, which holds a
        // `Decoder<'a, Borrowed>` and `stopped`, an `&'s mut usize`:
        // `with_decoder` writes the position through it, and it is alive
        // for this call, which the caller's borrow of `deserializer`
        // covers.
        let top = unsafe { &mut *(deserializer as *mut D).cast::<Top<'_, '_>>() };
        top.with_decoder(|decoder| read.on(decoder))
    } else if id == typeid::of::<&mut Deserializer<SliceRead<'_>>>() {
        // SAFETY: as above, for `&'x mut Deserializer<SliceRead<'a>>`:
        // the decoder made over its input lives for this call, and only
        // the position and where a direct read gave up are written back.
        let de =
            unsafe { &mut **(deserializer as *mut D).cast::<&mut Deserializer<SliceRead<'_>>>() };
        on_slice(de, read)
    } else {
        None
    }
}

/// `read` made of a decoder over the next value of a slice
/// [`Deserializer`], made as `SliceRead::run` makes one (and `None` where
/// that fails, for `run` to report): past what it read when it reads;
/// otherwise, where a direct read gave up is kept for the decoder that
/// `run` makes next, which tries no direct read of a value that starts
/// before it (as one decoder does: `Decoder::direct`).
#[cfg_attr(not(debug_assertions), inline(always))]
fn on_slice<R: OnDecoder>(de: &mut Deserializer<SliceRead<'_>>, read: R) -> Option<R::Output> {
    let slice = &mut de.read;
    let decoder = Decoder::<Borrowed>::starting_at(slice.input, slice.pos, de.limits).ok()?;
    let mut decoder = decoder
        .human_readable(de.human_readable)
        .direct_from(slice.direct_from);
    let output = read.on(&mut decoder);
    match output {
        Some(_) => slice.pos = decoder.position(),
        None => slice.direct_from = decoder.gave_up_at(),
    }
    output
}
