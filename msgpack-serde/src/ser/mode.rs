//! How a [`Serializer`](crate::Serializer) writes structs: fixed by its
//! type ([`Named`], [`Compact`]), or read from its [`Config`] at each
//! struct ([`Configured`], the default).
//!
//! A fixed mode is a constant the compiler folds into every struct's
//! `serialize`: no test of the configuration at each field, and code
//! small enough to inline a nested struct into its parent. `to_vec`,
//! `to_vec_compact`, `to_writer` and `to_writer_compact` use one, as do
//! [`Serializer::named`](crate::Serializer::named) and
//! [`Serializer::compact`](crate::Serializer::compact), for a buffer
//! reused across values.
//!
//! ```
//! use msgpack_serde::ser::{Compact, Named};
//! use msgpack_serde::Serializer;
//! use serde::Serialize;
//!
//! #[derive(Serialize)]
//! struct Point { x: i8 }
//!
//! let mut arrays: Serializer<Vec<u8>, Compact> = Serializer::compact(Vec::new());
//! Point { x: -1 }.serialize(&mut arrays)?;
//! assert_eq!(arrays.into_inner(), [0x91, 0xff]);
//!
//! let mut maps: Serializer<Vec<u8>, Named> = Serializer::named(Vec::new());
//! Point { x: -1 }.serialize(&mut maps)?;
//! assert_eq!(maps.into_inner(), [0x81, 0xa1, b'x', 0xff]);
//! # Ok::<(), msgpack_serde::Error>(())
//! ```

use crate::Config;

mod sealed {
    pub trait Sealed {}
}

/// How a serializer writes structs; implemented by [`Configured`],
/// [`Named`] and [`Compact`] only.
pub trait StructMode: sealed::Sealed + 'static {
    /// Whether structs are written as maps, for a serializer under
    /// `config`.
    #[doc(hidden)]
    fn structs_as_maps(config: &Config) -> bool;

    /// `config` with its struct mode made this mode's, so that what reads
    /// the configuration (extensions, values written through serde from
    /// a derived type's direct path) agrees with the type.
    #[doc(hidden)]
    fn agree(config: Config) -> Config;
}

/// Structs as the serializer's [`Config`] says
/// ([`Config::structs_as_maps`]): the mode of
/// [`Serializer::new`](crate::Serializer::new) and
/// [`Serializer::with_config`](crate::Serializer::with_config).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Configured;

/// Structs as maps keyed by field name, always.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Named;

/// Structs as arrays in field order, always.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Compact;

impl sealed::Sealed for Configured {}
impl sealed::Sealed for Named {}
impl sealed::Sealed for Compact {}

impl StructMode for Configured {
    #[inline(always)]
    fn structs_as_maps(config: &Config) -> bool {
        config.is_structs_as_maps()
    }

    #[inline(always)]
    fn agree(config: Config) -> Config {
        config
    }
}

impl StructMode for Named {
    #[inline(always)]
    fn structs_as_maps(_: &Config) -> bool {
        true
    }

    #[inline(always)]
    fn agree(config: Config) -> Config {
        config.structs_as_maps(true)
    }
}

impl StructMode for Compact {
    #[inline(always)]
    fn structs_as_maps(_: &Config) -> bool {
        false
    }

    #[inline(always)]
    fn agree(config: Config) -> Config {
        config.structs_as_maps(false)
    }
}
