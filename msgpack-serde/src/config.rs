//! How the serializer lays out structs and enums.

/// Serializer settings: a small `Copy` value with builder methods.
///
/// | setting | [`Config::named`] (default) | [`Config::compact`] |
/// |---|---|---|
/// | structs | maps keyed by field name | arrays in field order |
/// | enum variants | by name | by index |
/// | `is_human_readable()` | `false` | `false` |
///
/// ```
/// use msgpack_serde::{Config, Serializer};
///
/// let config = Config::named().variants_as_indices(true);
/// let mut serializer = Serializer::with_config(Vec::new(), config);
/// # let _ = &mut serializer;
/// assert!(config.structs_as_maps_enabled());
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
    pub const fn named() -> Config {
        Config {
            structs_as_maps: true,
            variants_as_indices: false,
            human_readable: false,
        }
    }

    /// Structs as arrays in field order, variants by index: smaller, but
    /// both sides must agree on field order. What `to_vec_compact` writes.
    pub const fn compact() -> Config {
        Config {
            structs_as_maps: false,
            variants_as_indices: true,
            human_readable: false,
        }
    }

    /// Sets whether structs are maps keyed by field name (`true`) or arrays
    /// in field order (`false`).
    #[must_use]
    pub const fn structs_as_maps(mut self, maps: bool) -> Config {
        self.structs_as_maps = maps;
        self
    }

    /// Sets whether enum variants are written by index (`true`) or by
    /// name (`false`).
    #[must_use]
    pub const fn variants_as_indices(mut self, indices: bool) -> Config {
        self.variants_as_indices = indices;
        self
    }

    /// Sets what `is_human_readable()` answers to the types being
    /// serialized. `false` by default, so types such as `IpAddr` and
    /// `uuid::Uuid` pick their compact binary forms.
    #[must_use]
    pub const fn human_readable(mut self, human_readable: bool) -> Config {
        self.human_readable = human_readable;
        self
    }

    /// Whether structs are written as maps.
    pub const fn structs_as_maps_enabled(&self) -> bool {
        self.structs_as_maps
    }

    /// Whether enum variants are written by index.
    pub const fn variants_as_indices_enabled(&self) -> bool {
        self.variants_as_indices
    }

    /// Whether the serializer says it is human-readable.
    pub const fn is_human_readable(&self) -> bool {
        self.human_readable
    }
}

impl Default for Config {
    fn default() -> Config {
        Config::named()
    }
}
