//! Types read whole: what `#[derive(MsgPack)]` implements for a struct
//! whose fields are all floats or such structs (points, vectors,
//! triangles, colours). Our encoder writes a value of such a type as one
//! fixed pattern of headers, keys, nils and float markers around the
//! floats' bytes, so our decoder can check that pattern and take the
//! floats in one pass, with one bounds check, where the serde path pays
//! a key dispatch, a slot and the limit accounting per field.
//!
//! [`Layout`] says how long the pattern is and what the serde path would
//! charge to the limits for it; [`WholeBytes`] is what a type's `read`
//! takes its bytes from. `decoder/whole.rs` finds our decoder behind a
//! deserializer and applies the limits.

use msgpack_core::marker;

use crate::ser::direct::Via;

/// The fixed form of a type read whole, and what the serde path would
/// charge for it: built by [`Layout::map`] or [`Layout::array`] and the
/// [`LayoutBuilder`]'s steps, in the order the bytes come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The bytes of the pattern.
    len: usize,
    /// The elements its containers declare: what the serde path takes
    /// from the value limit as it opens them.
    values: usize,
    /// How deep its containers nest.
    depth: usize,
    /// How far from the value's start the serde path's tightest owed
    /// check reaches: at each container header, the end of the header
    /// plus one byte for each element still owed within the value
    /// (elements are at least a byte each); the greatest of those. The
    /// value's enclosing containers' owed elements must fit after it.
    reach: usize,
}

impl Layout {
    /// A scalar of `len` bytes: no container.
    pub const fn scalar(len: usize) -> Layout {
        Layout {
            len,
            values: 0,
            depth: 0,
            reach: 0,
        }
    }

    /// A struct written as a map of `fields` entries with a one-byte
    /// header: its keys and fields follow.
    #[inline(always)]
    pub const fn map(fields: usize) -> LayoutBuilder {
        LayoutBuilder::open(2 * fields)
    }

    /// A struct written as an array of `positions` elements with a
    /// one-byte header: its nils and fields follow.
    #[inline(always)]
    pub const fn array(positions: usize) -> LayoutBuilder {
        LayoutBuilder::open(positions)
    }

    /// The bytes of the pattern.
    #[inline(always)]
    pub(crate) const fn len(&self) -> usize {
        self.len
    }

    /// The elements the serde path takes from the value limit.
    #[inline(always)]
    pub(crate) const fn values(&self) -> usize {
        self.values
    }

    /// The containers' nesting.
    #[inline(always)]
    pub(crate) const fn depth(&self) -> usize {
        self.depth
    }

    /// The tightest owed check's reach from the value's start.
    #[inline(always)]
    pub(crate) const fn reach(&self) -> usize {
        self.reach
    }
}

/// A struct's [`Layout`] as it is built, item by item.
#[derive(Clone, Copy, Debug)]
pub struct LayoutBuilder {
    layout: Layout,
    /// The struct's elements not read yet.
    owed: usize,
}

impl LayoutBuilder {
    /// After a one-byte header declaring `elements`.
    #[inline(always)]
    const fn open(elements: usize) -> LayoutBuilder {
        LayoutBuilder {
            layout: Layout {
                len: 1,
                values: elements,
                depth: 1,
                reach: 1 + elements,
            },
            owed: elements,
        }
    }

    /// A map key: `tag` as our encoder writes it.
    #[inline(always)]
    pub const fn key(mut self, tag: u64) -> LayoutBuilder {
        self.layout.len += uint_len(tag);
        self.owed = self.owed.saturating_sub(1);
        self
    }

    /// A nil in an array's gap.
    #[inline(always)]
    pub const fn nil(mut self) -> LayoutBuilder {
        self.layout.len += 1;
        self.owed = self.owed.saturating_sub(1);
        self
    }

    /// A field of layout `field`; `None` when the field's type is not
    /// read whole, and then neither is the struct.
    #[inline(always)]
    pub const fn field(mut self, field: Option<Layout>) -> Option<LayoutBuilder> {
        let Some(field) = field else {
            return None;
        };
        self.owed = self.owed.saturating_sub(1);
        if field.depth > 0 {
            // The field's headers see this struct's owed elements too.
            let reach = self.layout.len + self.owed + field.reach;
            if reach > self.layout.reach {
                self.layout.reach = reach;
            }
            if field.depth + 1 > self.layout.depth {
                self.layout.depth = field.depth + 1;
            }
        }
        self.layout.len += field.len;
        self.layout.values += field.values;
        Some(self)
    }

    /// The struct's layout, once its items fill what the header
    /// declares; `None` for one that does not (the accounting would not
    /// be the serde path's).
    #[inline(always)]
    pub const fn finish(self) -> Option<Layout> {
        if self.owed != 0 {
            return None;
        }
        Some(self.layout)
    }
}

/// How many bytes our encoder writes for the unsigned integer `value`.
#[inline(always)]
const fn uint_len(value: u64) -> usize {
    match value {
        0..=0x7f => 1,
        0x80..=0xff => 2,
        0x100..=0xffff => 3,
        0x1_0000..=0xffff_ffff => 5,
        _ => 9,
    }
}

/// How many bytes `tag` takes at the front of `bytes`, when they start
/// with it as our encoder writes it as a map key (the smallest form);
/// `None` otherwise.
#[inline(always)]
pub(crate) fn key_len(bytes: &[u8], tag: u64) -> Option<usize> {
    let len = uint_len(tag);
    let matches = match len {
        1 => bytes.first() == Some(&(tag as u8)),
        2 => bytes.get(..2) == Some(&[marker::U8, tag as u8][..]),
        3 => {
            let [high, low] = (tag as u16).to_be_bytes();
            bytes.get(..3) == Some(&[marker::U16, high, low][..])
        }
        5 => {
            bytes.first() == Some(&marker::U32)
                && bytes.get(1..5) == Some(&(tag as u32).to_be_bytes()[..])
        }
        _ => bytes.first() == Some(&marker::U64) && bytes.get(1..9) == Some(&tag.to_be_bytes()[..]),
    };
    matches.then_some(len)
}

/// The bytes of a value read whole, consumed from the front as its
/// `read` checks and takes them.
#[derive(Debug)]
pub struct WholeBytes<'a>(&'a [u8]);

impl<'a> WholeBytes<'a> {
    /// The pattern's bytes.
    #[inline(always)]
    pub(crate) fn new(bytes: &'a [u8]) -> WholeBytes<'a> {
        WholeBytes(bytes)
    }

    /// Whether every byte was taken.
    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `Some` when the next byte is `expected`, which is taken.
    #[inline(always)]
    pub fn byte(&mut self, expected: u8) -> Option<()> {
        let (&first, rest) = self.0.split_first()?;
        if first != expected {
            return None;
        }
        self.0 = rest;
        Some(())
    }

    /// `Some` when the next bytes are `tag` as our encoder writes it as
    /// a map key, which are taken.
    #[inline(always)]
    pub fn key(&mut self, tag: u64) -> Option<()> {
        let len = key_len(self.0, tag)?;
        self.0 = &self.0[len..];
        Some(())
    }

    /// The next `N` bytes, taken; `None` when fewer are left.
    #[inline(always)]
    pub fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (bytes, rest) = self.0.split_first_chunk::<N>()?;
        self.0 = rest;
        Some(*bytes)
    }
}

/// A type read whole: what `#[derive(MsgPack)]` implements for a struct
/// of floats and such structs, and the floats themselves. Not public API.
pub trait Whole: Sized {
    /// The type's layout: constant, folded where it is called.
    fn layout() -> Option<Layout>;

    /// The value, from exactly its layout's bytes in the form our encoder
    /// writes; `None` when they are in any other form.
    fn read(bytes: &mut WholeBytes<'_>) -> Option<Self>;
}

impl Whole for f32 {
    #[inline(always)]
    fn layout() -> Option<Layout> {
        Some(Layout::scalar(5))
    }

    #[inline(always)]
    fn read(bytes: &mut WholeBytes<'_>) -> Option<f32> {
        bytes.byte(marker::F32)?;
        Some(f32::from_be_bytes(bytes.take()?))
    }
}

impl Whole for f64 {
    #[inline(always)]
    fn layout() -> Option<Layout> {
        Some(Layout::scalar(9))
    }

    #[inline(always)]
    fn read(bytes: &mut WholeBytes<'_>) -> Option<f64> {
        bytes.byte(marker::F64)?;
        Some(f64::from_be_bytes(bytes.take()?))
    }
}

/// A field's type read whole, for the derive to compose a struct's
/// layout from its fields', by autoref specialization as on the direct
/// path: `(&Via::<T>::new()).whole_layout()` finds this trait's method
/// when `T: Whole`, and [`ViaNotWhole`]'s otherwise.
pub trait ViaWhole<T> {
    /// The type's layout.
    fn whole_layout(&self) -> Option<Layout>;
    /// The type's read.
    fn whole_read(&self, bytes: &mut WholeBytes<'_>) -> Option<T>;
}

impl<T: Whole> ViaWhole<T> for Via<T> {
    #[inline(always)]
    fn whole_layout(&self) -> Option<Layout> {
        T::layout()
    }

    #[inline(always)]
    fn whole_read(&self, bytes: &mut WholeBytes<'_>) -> Option<T> {
        T::read(bytes)
    }
}

/// A field's type not read whole: neither is its struct.
pub trait ViaNotWhole<T> {
    /// None.
    fn whole_layout(&self) -> Option<Layout>;
    /// None.
    fn whole_read(&self, bytes: &mut WholeBytes<'_>) -> Option<T>;
}

impl<T> ViaNotWhole<T> for &Via<T> {
    #[inline(always)]
    fn whole_layout(&self) -> Option<Layout> {
        None
    }

    #[inline(always)]
    fn whole_read(&self, _: &mut WholeBytes<'_>) -> Option<T> {
        None
    }
}
