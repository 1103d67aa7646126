//! Types read directly: what `#[derive(MsgPack)]` implements for a
//! struct or unit enum whose fields are all of types read so (integers
//! up to 64 bits, floats, booleans, strings, characters, `Option`s,
//! `Vec`s and `Box`es of them, other such derived types:
//! `direct/types.rs`). Our decoder hands such a type a
//! [`DirectReader`], the rest of its input in a local and its limit
//! counts behind a reference, and the type reads itself in one pass,
//! field after field in the order our encoder writes them, with the
//! position in a register rather than stored and loaded back around each
//! field's serde call.
//!
//! The direct read takes the forms our encoder writes (keys in
//! declaration order as the smallest integers, nils in an array's gaps;
//! values of any width), and the fields a newer writer added after them,
//! and checks each limit where the serde path checks it, against the
//! same counts (the owed count brought up to date only there: see
//! [`Entries`]); any other form, or a limit the serde path would
//! refuse, makes it give up (`None`), and the value is read again by the
//! serde path from where it started, which decides the value and every
//! error. `decoder/direct.rs` hands a type our decoder's bytes, when
//! `decoder/ours.rs` finds it behind the deserializer.

use msgpack_core::decode::short_str;
use msgpack_core::{marker, IntHead, Owed, Reader};

use super::cautious;
use super::in_place::{push_read, ByValue, Sink};
use super::whole::{key_len, Whole, WholeBytes};
use crate::ser::direct::Via;

mod types;

/// The bytes left at our decoder's reader, in a local of the read, and
/// its limit counts, copied for a direct read and written back when it
/// succeeds.
#[derive(Debug)]
pub struct DirectReader<'a, 'c> {
    /// The input from the reader's position on.
    pub(crate) rest: &'a [u8],
    /// The limit counts, behind a reference: they change at containers'
    /// headers and closes (and the owed count before a value that may
    /// open a container), but no read waits on them, so they take no
    /// register of their own across the read.
    pub(crate) counts: &'c mut Counts,
}

/// A decoder's limit counts.
#[derive(Debug)]
pub(crate) struct Counts {
    /// How many more containers may open.
    pub(crate) depth_left: usize,
    /// How many more values may be read.
    pub(crate) values_left: usize,
    /// Elements that open containers still owe.
    pub(crate) owed: Owed,
}

impl<'a> DirectReader<'a, '_> {
    /// The header of a map: its entries, opened as the serde path opens
    /// a map. `None` for any other value, or one a limit refuses.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn map(&mut self) -> Option<Entries> {
        let before = self.counts.owed;
        let len = self.header([marker::FIXMAP, marker::MAP16, marker::MAP32])?;
        self.open(len, 2)?;
        Some(Entries { left: len, before })
    }

    /// The header of an array: its elements, opened as the serde path
    /// opens an array. `None` for any other value, or one a limit
    /// refuses.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn array(&mut self) -> Option<Elements> {
        let before = self.counts.owed;
        let len = self.header([marker::FIXARRAY, marker::ARRAY16, marker::ARRAY32])?;
        self.open(len, 1)?;
        Some(Elements { left: len, before })
    }

    /// The length a container header declares, taken with it, when its
    /// marker is in the fix form that starts at `fix` (the length in its
    /// low four bits), or is `wide16` or `wide32`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn header(&mut self, [fix, wide16, wide32]: [u8; 3]) -> Option<u32> {
        let byte = *self.rest.first()?;
        if byte & 0xf0 == fix {
            self.skip(1);
            Some((byte & 0x0f) as u32)
        } else if byte == wide16 {
            self.wide_len::<2>()
        } else if byte == wide32 {
            self.wide_len::<4>()
        } else {
            None
        }
    }

    /// The serde path's checks at a container of `len` items of `width`
    /// values: depth, the owed elements within the rest of the input, the
    /// value limit; and what it takes from each.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn open(&mut self, len: u32, width: u64) -> Option<()> {
        let values = len as u64 * width;
        let counts = &mut *self.counts;
        let owed = counts.owed.claimed(values, self.rest.len())?;
        // Below the remaining input length, so it fits in a usize.
        let values = values as usize;
        if counts.depth_left == 0 || values > counts.values_left {
            return None;
        }
        counts.values_left -= values;
        counts.owed = owed;
        counts.depth_left -= 1;
        Some(())
    }

    /// A `T` read whole from the front of the rest, when it is in the
    /// type's pattern and the limits allow what the serde path would
    /// charge for it; otherwise `None`, nothing read (`de/whole.rs`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn whole<T: Whole>(&mut self) -> Option<T> {
        let layout = T::layout()?;
        let bytes = self.rest.get(..layout.len())?;
        // The serde path's checks at each of the value's containers:
        // depth for the deepest, the value limit for all of them
        // together, and the owed elements, the enclosing containers'
        // among them, within the rest of the input at the tightest.
        // Reading the value pays back every element it claims, so only
        // the value limit is charged.
        let counts = &mut *self.counts;
        let fits = layout.depth() <= counts.depth_left
            && layout.values() <= counts.values_left
            && counts
                .owed
                .claimed(layout.reach() as u64, self.rest.len())
                .is_some();
        if !fits {
            return None;
        }
        let mut bytes = WholeBytes::new(bytes);
        let value = T::read(&mut bytes).filter(|_| bytes.is_empty())?;
        counts.values_left -= layout.values();
        self.skip(layout.len());
        Some(value)
    }

    /// Takes a nil, if one is next.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn nil(&mut self) -> bool {
        let is_nil = self.rest.first() == Some(&marker::NIL);
        if is_nil {
            self.skip(1);
        }
        is_nil
    }

    /// Takes `len` bytes, which the caller found are there.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn skip(&mut self, len: usize) {
        self.rest = &self.rest[len..];
    }

    /// The big-endian length of `N` bytes after a marker, taken with it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn wide_len<const N: usize>(&mut self) -> Option<u32> {
        let bytes = self.rest.get(1..)?.first_chunk::<N>()?;
        let len = bytes.iter().fold(0, |len, &byte| len << 8 | byte as u32);
        self.skip(1 + N);
        Some(len)
    }

    /// A str of any width, UTF-8: a fixstr or str 8 in line, any other
    /// form out of line.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn str(&mut self) -> Option<&'a str> {
        let (text, len) = match short_str(self.rest) {
            Some(short) => short,
            None => long_str(self.rest)?,
        };
        self.skip(len);
        Some(text)
    }
}

// The reads out of line below take the rest of the input and say how
// much of it they took: handed a `&mut DirectReader`, they would keep the
// reader in memory wherever it is read, not only around their calls.

/// The str 16 or str 32 at the front of `rest` (or what `short_str` did
/// not take, which `read_str` refuses), and the bytes it takes.
#[cold]
#[inline(never)]
fn long_str(rest: &[u8]) -> Option<(&str, usize)> {
    let mut reader = Reader::new(rest);
    let text = reader.read_str().ok()?;
    Some((text, reader.position()))
}

/// The bytes that `left` entries at the front of `rest` take, when each
/// key is none of `tags` (see `Entries::skip_unknown`): for a newer
/// writer's fields.
#[cold]
#[inline(never)]
fn skip_entries(rest: &[u8], left: u32, tags: &[u64]) -> Option<usize> {
    let mut reader = Reader::new(rest);
    for _ in 0..left {
        let key = IntHead::read(reader.remaining())?;
        if key.negative || tags.contains(&key.value) {
            return None;
        }
        reader.consume(key.len);
        reader.skip().ok()?;
    }
    Some(reader.position())
}

/// The entries of a map being read directly.
///
/// The owed count is brought up to date only before a value that may
/// open a container ([`settle`](Self::settle)), the one read that looks
/// at it: a key taken pays nothing, and the map's close sets the count
/// back to what it was before the map opened, as paying for every entry
/// would.
#[derive(Debug)]
pub struct Entries {
    left: u32,
    /// The owed count before the map opened.
    before: Owed,
}

impl Entries {
    /// Takes the next key if it is `tag` as our encoder writes it;
    /// `false`, taking nothing, for another key or past the end.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn key(&mut self, reader: &mut DirectReader<'_, '_>, tag: u64) -> bool {
        if self.left == 0 {
            return false;
        }
        let Some(len) = key_len(reader.rest, tag) else {
            return false;
        };
        reader.skip(len);
        self.left -= 1;
        true
    }

    /// The owed count as the serde path has it after the key just taken:
    /// every entry up to it paid, key and value, the rest owed. For a
    /// value that may open a container, which checks it.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn settle(&self, reader: &mut DirectReader<'_, '_>) {
        reader.counts.owed = Owed::new(self.before.get() + 2 * self.left as u64);
    }

    /// Closes the map once every entry was read; `None` with entries left
    /// (keys the type does not have, or not in declaration order).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn end(self, reader: &mut DirectReader<'_, '_>) -> Option<()> {
        if self.left != 0 {
            return None;
        }
        reader.counts.owed = self.before;
        reader.counts.depth_left += 1;
        Some(())
    }
}

impl Entries {
    /// Closes the map after the entries left, each skipped as the serde
    /// path skips an unknown field (`deserialize_ignored_any`: the value
    /// walked by `Reader::skip`, which checks no limit, charging nothing)
    /// when its key is an unsigned integer that is none of `tags`; `None`
    /// for any other key (a name, or a field's tag out of place or
    /// repeated).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn skip_unknown(mut self, reader: &mut DirectReader<'_, '_>, tags: &[u64]) -> Option<()> {
        if self.left != 0 {
            let len = skip_entries(reader.rest, self.left, tags)?;
            reader.skip(len);
            self.left = 0;
        }
        self.end(reader)
    }
}

/// The elements of an array being read directly; the owed count
/// brought up to date as a map's [`Entries`] bring it.
#[derive(Debug)]
pub struct Elements {
    left: u32,
    /// The owed count before the array opened.
    before: Owed,
}

impl Elements {
    /// Closes the array after its elements were read
    /// (`DirectRead::read_elements`).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn read(self, reader: &mut DirectReader<'_, '_>) {
        reader.counts.owed = self.before;
        reader.counts.depth_left += 1;
    }

    /// Whether an element is left; if so, it is about to be read.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn advance(&mut self) -> bool {
        if self.left == 0 {
            return false;
        }
        self.left -= 1;
        true
    }

    /// The owed count as the serde path has it after the element just
    /// taken by [`advance`](Self::advance): for a value that may open a
    /// container.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn settle(&self, reader: &mut DirectReader<'_, '_>) {
        reader.counts.owed = Owed::new(self.before.get() + self.left as u64);
    }

    /// Closes the array once every element was read; `None` with
    /// elements left.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn end(self, reader: &mut DirectReader<'_, '_>) -> Option<()> {
        if self.left != 0 {
            return None;
        }
        self.read(reader);
        Some(())
    }

    /// Closes the array after the elements left (a newer writer's fields
    /// past ours), each skipped as the serde path skips a position no
    /// field has (`deserialize_ignored_any`: the value walked by
    /// `Reader::skip`, which checks no limit, charging nothing).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn skip_rest(mut self, reader: &mut DirectReader<'_, '_>) -> Option<()> {
        if self.left != 0 {
            let len = skip_elements(reader.rest, self.left)?;
            reader.skip(len);
            self.left = 0;
        }
        self.end(reader)
    }
}

/// A type read directly: what `#[derive(MsgPack)]` implements for a
/// struct without generics or `with` fields (read directly when its
/// fields' types are) and for a unit enum, and the types of this
/// module's impls. Not public API.
pub trait DirectRead: Sized {
    /// Whether the type is read directly: constant, folded where it is
    /// called (a struct with a field that is not gives up at once). A
    /// `Vec<T>` or `Box<T>` answers as `T` answers
    /// [nested](Self::reads_direct_nested), and asks `T` again as it
    /// reads.
    fn reads_direct() -> bool;

    /// Whether reading the type may open a container: only such a read
    /// looks at the owed count, which a map's or array's read brings up
    /// to date before such a value alone (`Entries::settle`).
    const OPENS: bool = true;

    /// Whether the type is read directly, asked through a `Vec` or a
    /// `Box`: as `reads_direct`, but each `Vec` or `Box` inside answers
    /// true without asking further, so that the question of a recursive
    /// type (which recurses through one of them) ends.
    #[inline(always)]
    fn reads_direct_nested() -> bool {
        Self::reads_direct()
    }

    /// The value, from the reader, in a form our encoder writes and the
    /// limits allow; `None`, the reader left anywhere, otherwise. An impl
    /// gives this or [`read_direct_to`](Self::read_direct_to), each
    /// defined by the other.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_direct(reader: &mut DirectReader<'_, '_>) -> Option<Self> {
        Self::read_direct_to(reader, ByValue)
    }

    /// The value read as [`read_direct`](Self::read_direct) reads it,
    /// given to `sink`: a derived struct writes itself into a vector's
    /// slot so, field by field, rather than built beside it and moved
    /// in (`de/in_place.rs` says why).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_direct_to<S: Sink<Self>>(reader: &mut DirectReader<'_, '_>, sink: S) -> Option<S::Out> {
        Some(sink.finish(Self::read_direct(reader)?))
    }

    /// The `len` elements of an array just opened, read into `values`
    /// (empty), reserved for as serde's `Vec` reserves, each that may
    /// open a container paid from the owed count first, as the serde
    /// path pays it (the array's close sets the count back, as paying
    /// for every element would): one by one here; number types read
    /// runs of them at once, as serde's `Vec` of them reads from our
    /// decoder.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_elements(
        reader: &mut DirectReader<'_, '_>,
        len: u32,
        values: &mut Vec<Self>,
    ) -> Option<()> {
        let (read, taken) = elements(reader.rest, reader.counts, len, values);
        reader.skip(taken);
        read
    }
}

/// The `len` elements at the front of `rest`, read one by one into a
/// vector that then replaces `values`, and the bytes read (up to where
/// the read gave up, if it did, for the decoder's `direct_from`). Out of
/// line, with the input and the vector in locals of its own: inlined
/// into the read of the struct holding the vector, the loop shares its
/// registers with the whole struct's read; a vector behind the
/// reference has its length stored and loaded back at each element; and
/// one made by the caller would be loaded back here, in wider pieces,
/// just after it was stored (`de/in_place.rs`).
#[inline(never)]
fn elements<T: DirectRead>(
    rest: &[u8],
    counts: &mut Counts,
    len: u32,
    values: &mut Vec<T>,
) -> (Option<()>, usize) {
    let mut reader = DirectReader { rest, counts };
    let mut read = Vec::with_capacity(cautious::<T>(len as usize));
    let mut all = Some(());
    for _ in 0..len {
        if T::OPENS {
            reader.counts.owed.pay(1);
        }
        all = push_read(&mut read, |slot| T::read_direct_to(&mut reader, slot));
        if all.is_none() {
            break;
        }
    }
    *values = read;
    (all, rest.len() - reader.rest.len())
}

/// The bytes that `left` elements at the front of `rest` take (see
/// `Elements::skip_rest`).
#[cold]
#[inline(never)]
fn skip_elements(rest: &[u8], left: u32) -> Option<usize> {
    let mut reader = Reader::new(rest);
    for _ in 0..left {
        reader.skip().ok()?;
    }
    Some(reader.position())
}

/// A field's type read directly, for the derive to read a struct's
/// fields, by autoref specialization as on the encoding's direct path:
/// `(&Via::<T>::new()).read_direct(reader)` finds this trait's method
/// when `T: DirectRead`, and [`ViaNotDirectRead`]'s otherwise.
pub trait ViaDirectRead<T> {
    /// Whether the type is read directly.
    fn reads_direct(&self) -> bool;
    /// Whether the type is read directly, asked through a `Vec` or `Box`.
    fn reads_direct_nested(&self) -> bool;
    /// Whether reading the type may open a container.
    fn opens(&self) -> bool;
    /// The type's direct read.
    fn read_direct(&self, reader: &mut DirectReader<'_, '_>) -> Option<T>;
}

impl<T: DirectRead> ViaDirectRead<T> for Via<T> {
    #[inline(always)]
    fn reads_direct(&self) -> bool {
        T::reads_direct()
    }

    #[inline(always)]
    fn reads_direct_nested(&self) -> bool {
        T::reads_direct_nested()
    }

    #[inline(always)]
    fn opens(&self) -> bool {
        T::OPENS
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_direct(&self, reader: &mut DirectReader<'_, '_>) -> Option<T> {
        T::read_direct(reader)
    }
}

/// A field's type not read directly: neither is its struct.
pub trait ViaNotDirectRead<T> {
    /// False.
    fn reads_direct(&self) -> bool;
    /// False.
    fn reads_direct_nested(&self) -> bool;
    /// True (never asked: the struct is not read directly).
    fn opens(&self) -> bool;
    /// None.
    fn read_direct(&self, reader: &mut DirectReader<'_, '_>) -> Option<T>;
}

impl<T> ViaNotDirectRead<T> for &Via<T> {
    #[inline(always)]
    fn reads_direct(&self) -> bool {
        false
    }

    #[inline(always)]
    fn reads_direct_nested(&self) -> bool {
        false
    }

    #[inline(always)]
    fn opens(&self) -> bool {
        true
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn read_direct(&self, _: &mut DirectReader<'_, '_>) -> Option<T> {
        None
    }
}
