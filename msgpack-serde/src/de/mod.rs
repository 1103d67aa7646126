//! The serde `Deserializer`: MessagePack into the serde data model.
//!
//! - [`Deserializer`] (here) is the public type: over any input of the
//!   sealed [`Read`](crate::read::Read) trait, a slice or an `io::Read`,
//!   it runs a decoder for each value and keeps the position between them.
//! - `decoder.rs`: the decoder proper, over bytes in memory, and its fast
//!   paths; `decoder/deserializer.rs`: its serde `Deserializer` impl;
//!   `decoder/top.rs`: what `from_slice` hands the top-level value.
//! - `access.rs`: the elements of arrays, maps and enum variants.
//! - `ext.rs`: extensions as serde sees them.
//! - `whole.rs`: types read whole (derived structs of floats), and
//!   `decoder/whole.rs`: our decoder's bytes handed to them.
//! - `direct.rs`: types read directly (derived structs and unit enums,
//!   field after field), and `decoder/direct.rs`: our decoder's bytes
//!   handed to them; `decoder/ours.rs` finds our decoder behind a
//!   deserializer for both.

mod access;
mod decoder;
mod direct;
mod ext;
mod in_place;
mod whole;

use msgpack_core::{ErrorKind, Limits};
use serde::de::{self, DeserializeSeed, Visitor};

pub use decoder::direct::read_direct;
pub use decoder::whole::read_whole;
use decoder::Top;
pub(crate) use decoder::{Borrowed, Copied, Decoder};
pub use direct::{DirectRead, DirectReader, Elements, Entries, ViaDirectRead, ViaNotDirectRead};
pub use in_place::{
    ByValue, DeserializeInPlace, FieldSeed, Filled, NilOrSeed, Plain, Sink, Slot, VecInPlace,
    ViaDeserialize, ViaInPlace,
};
pub use whole::{Layout, LayoutBuilder, ViaNotWhole, ViaWhole, Whole, WholeBytes};

use crate::read::{IoRead, Read, SliceRead};
use crate::{Error, Result, StreamDeserializer};

/// A serde `Deserializer` of MessagePack from a slice or an `io::Read`,
/// under [`Limits`] for untrusted input.
///
/// Use it directly to set limits or to read several values in a row;
/// [`from_slice`](crate::from_slice) and [`from_reader`](crate::from_reader)
/// cover the common case.
///
/// ```
/// use msgpack_serde::{Deserializer, Limits};
/// use serde::Deserialize;
///
/// let bytes = msgpack_serde::to_vec(&vec![vec![1u8]]).unwrap();
/// let mut de = Deserializer::from_slice(&bytes).with_limits(Limits::default().max_depth(1));
/// let error = Vec::<Vec<u8>>::deserialize(&mut de).unwrap_err();
/// assert_eq!(error.to_string(), "nesting exceeds the depth limit of 1 at offset 1");
/// ```
#[derive(Debug)]
pub struct Deserializer<R> {
    pub(crate) read: R,
    pub(crate) limits: Limits,
    pub(crate) human_readable: bool,
}

impl<'de> Deserializer<SliceRead<'de>> {
    /// A deserializer borrowing from `input`, with the default [`Limits`].
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let bytes = [0x01, 0xa1, b'x'];
    /// let mut de = Deserializer::from_slice(&bytes);
    /// assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    /// assert_eq!(<&str>::deserialize(&mut de).unwrap(), "x"); // borrowed from `bytes`
    /// de.end().unwrap();
    /// ```
    pub fn from_slice(input: &'de [u8]) -> Self {
        Deserializer {
            read: SliceRead::new(input),
            limits: Limits::default(),
            human_readable: false,
        }
    }

    /// Succeeds if all input was consumed; else a trailing-bytes error.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let mut de = Deserializer::from_slice(&[0xc3, 0xc0]);
    /// assert!(bool::deserialize(&mut de).unwrap());
    /// let error = de.end().unwrap_err();
    /// assert_eq!(error.to_string(), "trailing bytes after the value at offset 1");
    /// ```
    pub fn end(&self) -> Result<()> {
        trailing(self.read.pos == self.read.input.len(), self.read.pos)
    }

    /// The whole input (read from [`byte_offset`](Self::byte_offset) on).
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let bytes = [0x01, 0x02];
    /// let mut de = Deserializer::from_slice(&bytes);
    /// u8::deserialize(&mut de).unwrap();
    /// assert_eq!(&de.get_ref()[de.byte_offset()..], [0x02]);
    /// ```
    pub fn get_ref(&self) -> &'de [u8] {
        self.read.input
    }

    /// Gives back the input, whole.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    ///
    /// let bytes = [0xc0];
    /// assert_eq!(Deserializer::from_slice(&bytes).into_inner(), [0xc0]);
    /// ```
    pub fn into_inner(self) -> &'de [u8] {
        self.read.input
    }
}

impl<R: std::io::Read> Deserializer<IoRead<R>> {
    /// A deserializer reading from `reader`, with the default [`Limits`].
    /// Reads are small: wrap files and sockets in a [`std::io::BufReader`].
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let input: &[u8] = &[0x92, 0x01, 0x02];
    /// let mut de = Deserializer::from_reader(input);
    /// assert_eq!(<(u8, u8)>::deserialize(&mut de).unwrap(), (1, 2));
    /// de.end().unwrap();
    /// ```
    pub fn from_reader(reader: R) -> Self {
        Deserializer {
            read: IoRead::new(reader),
            limits: Limits::default(),
            human_readable: false,
        }
    }

    /// Succeeds if the stream has ended; else a trailing-bytes error.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let input: &[u8] = &[0xc0, 0xc0];
    /// let mut de = Deserializer::from_reader(input);
    /// <()>::deserialize(&mut de).unwrap();
    /// let error = de.end().unwrap_err();
    /// assert_eq!(error.to_string(), "trailing bytes after the value at offset 1");
    /// ```
    pub fn end(&mut self) -> Result<()> {
        trailing(self.read.at_end()?, self.read.offset())
    }

    /// Gives back the reader.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let input: &[u8] = &[0x01, b'r', b'e', b's', b't'];
    /// let mut de = Deserializer::from_reader(input);
    /// assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    /// assert_eq!(de.into_inner(), b"rest"); // not one byte past the value was read
    /// ```
    pub fn into_inner(self) -> R {
        self.read.reader
    }

    /// The reader. A byte read ahead to find the end of the stream (by
    /// [`end`](Self::end) or a [`StreamDeserializer`]) is held apart.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    ///
    /// let input: &[u8] = &[0xc0];
    /// let de = Deserializer::from_reader(input);
    /// assert_eq!(*de.get_ref(), [0xc0]);
    /// ```
    pub fn get_ref(&self) -> &R {
        &self.read.reader
    }

    /// The reader, mutably: to read what follows a value yourself.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    /// use std::io::Read;
    ///
    /// let input: &[u8] = &[0x01, b'\n', 0x02];
    /// let mut de = Deserializer::from_reader(input);
    /// assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    /// let mut newline = [0u8];
    /// de.get_mut().read_exact(&mut newline).unwrap();
    /// assert_eq!(u8::deserialize(&mut de).unwrap(), 2);
    /// ```
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.read.reader
    }
}

impl<'de, R: Read<'de>> Deserializer<R> {
    /// The offset just past the last value read. From a slice, a failed
    /// value is not consumed; from a reader, the offset is past the bytes
    /// of the failed value that were read.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let bytes = [0xa1, b'x', 0xcd, 0x01]; // "x", then a cut-short uint 16
    /// let mut de = Deserializer::from_slice(&bytes);
    /// <&str>::deserialize(&mut de).unwrap();
    /// assert_eq!(de.byte_offset(), 2);
    /// assert!(u16::deserialize(&mut de).unwrap_err().is_eof());
    /// assert_eq!(de.byte_offset(), 2); // a failed value is not consumed
    ///
    /// let mut de = Deserializer::from_reader(&bytes[..]);
    /// String::deserialize(&mut de).unwrap();
    /// assert_eq!(de.byte_offset(), 2);
    /// assert!(u16::deserialize(&mut de).unwrap_err().is_eof());
    /// assert_eq!(de.byte_offset(), 4); // the bytes of the cut-short value were read
    /// ```
    pub fn byte_offset(&self) -> usize {
        self.read.byte_offset()
    }

    /// The values left, one after another, as serde_json's `into_iter`:
    /// a [`StreamDeserializer`] with these limits and settings.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    /// use serde::Deserialize;
    ///
    /// let bytes = [0x01, 0x02, 0x03];
    /// let mut de = Deserializer::from_slice(&bytes);
    /// assert_eq!(u8::deserialize(&mut de).unwrap(), 1);
    /// let rest: Vec<u8> = de.into_iter().collect::<Result<_, _>>().unwrap();
    /// assert_eq!(rest, [2, 3]);
    ///
    /// let input: &[u8] = &[0xa1, b'a', 0xa1, b'b'];
    /// let words: Vec<String> = Deserializer::from_reader(input).into_iter().collect::<Result<_, _>>().unwrap();
    /// assert_eq!(words, ["a", "b"]);
    /// ```
    #[allow(clippy::should_implement_trait)]
    pub fn into_iter<T: de::Deserialize<'de>>(self) -> StreamDeserializer<R, T> {
        StreamDeserializer::from_deserializer(self)
    }
}

impl<R> Deserializer<R> {
    /// Sets the [`Limits`] for what follows.
    ///
    /// ```
    /// use msgpack_serde::{Deserializer, Limits, Value};
    /// use serde::Deserialize;
    ///
    /// let bytes = msgpack_serde::to_vec(&[1, 2, 3]).unwrap(); // four values: the array and three
    /// let mut de = Deserializer::from_slice(&bytes).with_limits(Limits::default().max_values(3));
    /// let error = Value::deserialize(&mut de).unwrap_err();
    /// // Refused at the array's header, before its elements are read.
    /// assert_eq!(error.to_string(), "more values than the limit of 3 at offset 0");
    /// ```
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// The limits in force.
    ///
    /// ```
    /// use msgpack_serde::{Deserializer, Limits};
    ///
    /// let de = Deserializer::from_slice(&[]);
    /// assert_eq!(de.limits(), Limits::default());
    /// assert_eq!(de.with_limits(Limits::unlimited()).limits(), Limits::unlimited());
    /// ```
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Sets what `is_human_readable()` answers to the types being
    /// deserialized: `false` by default. Set it to read what a
    /// [`Config::human_readable`](crate::Config::human_readable)
    /// serializer wrote, as types such as `IpAddr` and `uuid::Uuid` pick
    /// their form by it.
    ///
    /// ```
    /// use msgpack_serde::{Config, Deserializer};
    /// use serde::Deserialize;
    /// use std::net::Ipv4Addr;
    ///
    /// let bytes = msgpack_serde::to_vec_with_config(&Ipv4Addr::LOCALHOST, Config::named().human_readable(true))?;
    /// assert_eq!(bytes, b"\xa9127.0.0.1");
    /// let mut de = Deserializer::from_slice(&bytes).human_readable(true);
    /// assert_eq!(Ipv4Addr::deserialize(&mut de)?, Ipv4Addr::LOCALHOST);
    /// # Ok::<(), msgpack_serde::Error>(())
    /// ```
    #[must_use]
    pub fn human_readable(mut self, human_readable: bool) -> Self {
        self.human_readable = human_readable;
        self
    }

    /// Whether the deserializer says it is human-readable.
    ///
    /// ```
    /// use msgpack_serde::Deserializer;
    ///
    /// assert!(!Deserializer::from_slice(&[]).is_human_readable());
    /// assert!(Deserializer::from_slice(&[]).human_readable(true).is_human_readable());
    /// ```
    pub fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    pub(crate) fn read_mut(&mut self) -> &mut R {
        &mut self.read
    }
}

/// A method of the serde `Deserializer`, forwarded to the decoder the
/// input runs: each call becomes a [`DeserializeSeed`] (the method and its
/// arguments), which [`Read::run`] hands a decoder over the next value.
macro_rules! forward_to_decoder {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value> {
            struct Call<V> {
                $($arg: $ty,)*
                visitor: V,
            }
            impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for Call<V> {
                type Value = V::Value;

                #[inline]
                fn deserialize<D: de::Deserializer<'de>>(self, decoder: D) -> Result<V::Value, D::Error> {
                    decoder.$method($(self.$arg,)* self.visitor)
                }
            }
            let call = Call { $($arg,)* visitor };
            R::run(self, call)
        }
    )*};
}

impl<'de, R: Read<'de>> de::Deserializer<'de> for &mut Deserializer<R> {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    forward_to_decoder! {
        deserialize_any(); deserialize_bool(); deserialize_i8(); deserialize_i16();
        deserialize_i32(); deserialize_i64(); deserialize_i128(); deserialize_u8();
        deserialize_u16(); deserialize_u32(); deserialize_u64(); deserialize_u128();
        deserialize_f32(); deserialize_f64(); deserialize_char(); deserialize_str();
        deserialize_string(); deserialize_bytes(); deserialize_byte_buf();
        deserialize_option(); deserialize_unit(); deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str); deserialize_seq();
        deserialize_tuple(len: usize); deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map(); deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier(); deserialize_ignored_any();
    }
}

/// What to reserve for `len` elements of `T` before they are read: the
/// length, up to 1 MiB of them, the rule serde's own `Vec` and map
/// visitors follow (`size_hint::cautious`): a length from the input is
/// not trusted for more.
#[inline(always)]
pub(crate) fn cautious<T>(len: usize) -> usize {
    const MAX_PREALLOC_BYTES: usize = 1 << 20;
    len.min(MAX_PREALLOC_BYTES / size_of::<T>().max(1))
}

/// What [`Deserializer::end`] answers: `Ok` at the end of the input, else
/// a trailing-bytes error at `offset`.
fn trailing(at_end: bool, offset: usize) -> Result<()> {
    if at_end {
        Ok(())
    } else {
        Err(Error::wire(ErrorKind::TrailingBytes, offset))
    }
}

/// `T::deserialize(de)`, with an error that has no offset (one `T`'s own
/// code made after reading what it read) placed where the reader
/// stopped, as a container's elements' errors are: for the entry points
/// that hand a whole input's value to a [`Deserializer`] (`from_reader`,
/// the stream's values, msgpack-axum's bodies, msgpack-tokio's frames).
///
/// ```
/// use msgpack_serde::{Deserializer, __private::deserialize_placed};
/// use serde::de::{Deserialize, Error};
///
/// struct Odd;
/// impl<'de> Deserialize<'de> for Odd {
///     fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
///         match u16::deserialize(d)? % 2 {
///             1 => Ok(Odd),
///             _ => Err(D::Error::custom("even")),
///         }
///     }
/// }
/// let mut de = Deserializer::from_slice(&[0xc0, 0xcd, 0x01, 0x2c]);
/// <()>::deserialize(&mut de).unwrap();
/// let error = deserialize_placed::<_, Odd>(&mut de).err().unwrap();
/// assert_eq!(error.to_string(), "even at offset 4");
/// ```
#[doc(hidden)]
#[inline]
pub fn deserialize_placed<'de, R: Read<'de>, T: de::Deserialize<'de>>(
    de: &mut Deserializer<R>,
) -> Result<T> {
    let mut result = T::deserialize(&mut *de);
    crate::error::place_own_error(&mut result, de.byte_offset());
    result
}

/// Decodes one value of type `T` from the front of `bytes` and sets
/// `len` to the bytes it took (after an error, `len` means nothing):
/// [`from_slice_with_limits`] without the trailing-bytes check, for
/// msgpack-tokio's codec, which decodes each value where it lies in its
/// read buffer. Always inlined, as `from_slice_with_limits` is: the
/// decoder's setup and the value's first read meet in the caller; and
/// `T::deserialize`'s result is returned as it is, not rebuilt after a
/// `?`, so a large value is not copied on the way out.
///
/// ```
/// use msgpack_serde::{Limits, __private::from_slice_front};
///
/// let mut len = 0;
/// let n: u8 = from_slice_front(&[0x01, 0xc0], Limits::default(), &mut len).unwrap();
/// assert_eq!((n, len), (1, 1)); // the nil after it is left
/// let error = from_slice_front::<u16>(&[0xcd, 0x01], Limits::default(), &mut len).unwrap_err();
/// assert_eq!(error.to_string(), "unexpected end of input at offset 2");
/// ```
#[doc(hidden)]
#[inline(always)]
pub fn from_slice_front<'de, T: de::Deserialize<'de>>(
    bytes: &'de [u8],
    limits: Limits,
    len: &mut usize,
) -> Result<T> {
    let decoder = Decoder::<Borrowed>::new(bytes, limits)?;
    *len = 0;
    T::deserialize(Top::new(decoder, len))
}

/// Decodes one value of type `T` that must fill `bytes` exactly.
///
/// Always inlined: in the caller, the decoder is built from constant
/// limits (`from_slice`'s defaults) and `T`'s first read meets its
/// setup, which is most of the cost of a small value; `T::deserialize`
/// itself stays a call where it is large. `T` is handed a [`Top`], so a
/// lone number is read without the decoder's state going to memory.
#[inline(always)]
pub(crate) fn from_slice_with_limits<'de, T: de::Deserialize<'de>>(
    bytes: &'de [u8],
    limits: Limits,
) -> Result<T> {
    let decoder = Decoder::<Borrowed>::new(bytes, limits)?;
    let mut stopped = 0;
    let mut result = T::deserialize(Top::new(decoder, &mut stopped));
    crate::error::place_own_error(&mut result, stopped);
    let value = result?;
    if stopped != bytes.len() {
        return Err(Error::wire(ErrorKind::TrailingBytes, stopped));
    }
    Ok(value)
}
