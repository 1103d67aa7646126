//! How the serializer lays out structs and enums.

/// Serializer settings: a small `Copy` value with builder methods.
///
/// | setting | [`Config::named`] (default) | [`Config::compact`] |
/// |---|---|---|
/// | structs | maps keyed by field name | arrays in field order |
/// | enum variants | by name | by name |
/// | `is_human_readable()` | `false` | `false` |
///
/// `named` writes the bytes of `rmp_serde::to_vec_named`, `compact` those
/// of `rmp_serde::to_vec`. Variants by index
/// ([`variants_as_indices`](Config::variants_as_indices)) are an explicit
/// choice, for types that are never buffered by serde.
///
/// ```
/// use msgpack_serde::{to_vec_with_config, Config};
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// enum Level { Low, High }
///
/// #[derive(Serialize)]
/// struct Alert { level: Level }
///
/// let alert = Alert { level: Level::High };
/// let config = Config::named().variants_as_indices(true);
/// assert_eq!(to_vec_with_config(&alert, config)?, b"\x81\xa5level\x01");
/// assert_eq!(to_vec_with_config(&alert, Config::named())?, b"\x81\xa5level\xa4High");
/// assert_eq!(to_vec_with_config(&alert, Config::compact())?, b"\x91\xa4High");
/// # Ok::<(), msgpack_serde::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    structs_as_maps: bool,
    variants_as_indices: bool,
    human_readable: bool,
}

impl Config {
    /// Structs as maps keyed by field name, variants by name: what other
    /// languages' clients expect, and what `to_vec` writes.
    ///
    /// ```
    /// use msgpack_serde::{to_vec_with_config, Config};
    /// use serde::Serialize;
    ///
    /// #[derive(Serialize)]
    /// struct Point { x: u8 }
    ///
    /// assert_eq!(to_vec_with_config(&Point { x: 1 }, Config::named()).unwrap(), [0x81, 0xa1, b'x', 0x01]);
    /// assert_eq!(Config::named(), Config::default());
    /// ```
    pub const fn named() -> Config {
        Config {
            structs_as_maps: true,
            variants_as_indices: false,
            human_readable: false,
        }
    }

    /// Structs as arrays in field order, variants by name: smaller, but
    /// both sides must agree on field order. What `to_vec_compact` writes,
    /// byte for byte what `rmp_serde::to_vec` writes.
    ///
    /// ```
    /// use msgpack_serde::{to_vec_with_config, Config};
    /// use serde::Serialize;
    ///
    /// #[derive(Serialize)]
    /// struct Point { x: u8 }
    ///
    /// assert_eq!(to_vec_with_config(&Point { x: 1 }, Config::compact()).unwrap(), [0x91, 0x01]);
    /// ```
    pub const fn compact() -> Config {
        Config {
            structs_as_maps: false,
            variants_as_indices: false,
            human_readable: false,
        }
    }

    /// Sets whether structs are maps keyed by field name (`true`) or arrays
    /// in field order (`false`).
    ///
    /// ```
    /// use msgpack_serde::{to_vec_with_config, Config};
    /// use serde::Serialize;
    ///
    /// #[derive(Serialize)]
    /// struct Point { x: u8 }
    ///
    /// let config = Config::named().structs_as_maps(false);
    /// assert_eq!(to_vec_with_config(&Point { x: 1 }, config).unwrap(), [0x91, 0x01]);
    /// ```
    #[must_use]
    pub const fn structs_as_maps(mut self, maps: bool) -> Config {
        self.structs_as_maps = maps;
        self
    }

    /// Sets whether enum variants are written by index (`true`) or by
    /// name (`false`, the default in both modes).
    ///
    /// Indices are smaller, and [`Deserializer`](crate::Deserializer)
    /// reads them into a plain enum. But serde's buffered paths (an
    /// untagged or internally tagged enum, a `#[serde(flatten)]` field)
    /// take a variant only as a string or a map: a variant written by
    /// index inside them fails to decode
    /// (`data did not match any variant of untagged enum ...`), or worse,
    /// decodes as another variant that reads an integer (`N(u32)` beside
    /// `L(Level)`, or a `Value`). And an enum with a `#[serde(skip)]` or
    /// `skip_deserializing` variant reads the wrong variant by index:
    /// serde_derive writes each variant's place among all of them and
    /// reads its place among those not skipped. Use indices only for
    /// enums without skipped variants, in types that contain none of
    /// these paths.
    ///
    /// ```
    /// use msgpack_serde::{to_vec_with_config, from_slice, Config};
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Serialize, Deserialize, Debug, PartialEq)]
    /// enum Level { Low, High }
    ///
    /// let by_index = to_vec_with_config(&Level::High, Config::compact().variants_as_indices(true))?;
    /// assert_eq!(by_index, [0x01]);
    /// assert_eq!(from_slice::<Level>(&by_index)?, Level::High);
    ///
    /// #[derive(Serialize, Deserialize, Debug)]
    /// #[serde(untagged)]
    /// enum Either { Level(Level), Other(String) }
    ///
    /// let bytes = to_vec_with_config(&Either::Level(Level::High), Config::compact().variants_as_indices(true))?;
    /// let error = from_slice::<Either>(&bytes).unwrap_err();
    /// assert_eq!(
    ///     error.to_string(),
    ///     "data did not match any variant of untagged enum Either at offset 1"
    /// );
    /// # Ok::<(), msgpack_serde::Error>(())
    /// ```
    #[must_use]
    pub const fn variants_as_indices(mut self, indices: bool) -> Config {
        self.variants_as_indices = indices;
        self
    }

    /// Sets what `is_human_readable()` answers to the types being
    /// serialized. `false` by default, so types such as `IpAddr` and
    /// `uuid::Uuid` pick their compact binary forms.
    ///
    /// ```
    /// use msgpack_serde::{to_vec_with_config, Config};
    /// use std::net::Ipv4Addr;
    ///
    /// let ip = Ipv4Addr::LOCALHOST;
    /// assert_eq!(msgpack_serde::to_vec(&ip).unwrap(), [0x94, 127, 0, 0, 1]);
    /// let text = to_vec_with_config(&ip, Config::named().human_readable(true)).unwrap();
    /// assert_eq!(text, b"\xa9127.0.0.1");
    /// ```
    #[must_use]
    pub const fn human_readable(mut self, human_readable: bool) -> Config {
        self.human_readable = human_readable;
        self
    }

    /// Whether structs are written as maps: what
    /// [`structs_as_maps`](Config::structs_as_maps) set, read as
    /// [`is_human_readable`](Config::is_human_readable) reads its setting.
    ///
    /// ```
    /// use msgpack_serde::Config;
    ///
    /// assert!(Config::named().is_structs_as_maps());
    /// assert!(!Config::compact().is_structs_as_maps());
    /// ```
    pub const fn is_structs_as_maps(&self) -> bool {
        self.structs_as_maps
    }

    /// Whether enum variants are written by index: what
    /// [`variants_as_indices`](Config::variants_as_indices) set.
    ///
    /// ```
    /// use msgpack_serde::Config;
    ///
    /// assert!(!Config::named().is_variants_as_indices());
    /// assert!(!Config::compact().is_variants_as_indices());
    /// assert!(Config::compact().variants_as_indices(true).is_variants_as_indices());
    /// ```
    pub const fn is_variants_as_indices(&self) -> bool {
        self.variants_as_indices
    }

    /// Whether the serializer says it is human-readable.
    ///
    /// ```
    /// use msgpack_serde::Config;
    ///
    /// assert!(!Config::default().is_human_readable());
    /// assert!(Config::default().human_readable(true).is_human_readable());
    /// ```
    pub const fn is_human_readable(&self) -> bool {
        self.human_readable
    }

    /// Whether structs are written as maps: the old name of
    /// [`is_structs_as_maps`](Config::is_structs_as_maps).
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// use msgpack_serde::Config;
    ///
    /// assert!(Config::named().structs_as_maps_enabled());
    /// assert!(!Config::compact().structs_as_maps_enabled());
    /// ```
    #[deprecated(
        note = "renamed `is_structs_as_maps`, as `is_human_readable` reads `human_readable`"
    )]
    pub const fn structs_as_maps_enabled(&self) -> bool {
        self.is_structs_as_maps()
    }

    /// Whether enum variants are written by index: the old name of
    /// [`is_variants_as_indices`](Config::is_variants_as_indices).
    ///
    /// ```
    /// # #![allow(deprecated)]
    /// use msgpack_serde::Config;
    ///
    /// assert!(!Config::named().variants_as_indices_enabled());
    /// assert!(Config::compact().variants_as_indices(true).variants_as_indices_enabled());
    /// ```
    #[deprecated(
        note = "renamed `is_variants_as_indices`, as `is_human_readable` reads `human_readable`"
    )]
    pub const fn variants_as_indices_enabled(&self) -> bool {
        self.is_variants_as_indices()
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::named()
    }
}
