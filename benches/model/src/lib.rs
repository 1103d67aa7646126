//! The fixture types, declared once and generated in each family the
//! benchmarks compare:
//!
//! - [`plain`]: `#[derive(Serialize, Deserialize)]`, for serde_json,
//!   rmp-serde and msgpack-serde's named and compact modes;
//! - [`tagged`]: `#[derive(MsgPack)]`, maps keyed by field number;
//! - [`mod@array`]: `#[derive(MsgPack)] #[msgpack(array)]`, tag-indexed arrays;
//! - [`packer`]: `#[derive(MsgPacker)]`, msgpacker's own (non-serde) encoding;
//! - [`zero`]: `#[derive(ToMessagePack, FromMessagePack)]`, zerompk's own
//!   (non-serde) encoding: arrays in field order, unit enums as integers;
//! - [`zero_map`]: the same with `#[msgpack(map)]`: maps keyed by field
//!   name, zerompk's counterpart of msgpack-serde's named mode.
//!
//! They live in a crate of their own so that the derived code is compiled
//! as in a user's crate, apart from the benchmark harness. The prost types
//! are hand-written in the benchmark crate's `proto` module, as prost users do.

/// Converts a value of one family into the same value of another.
pub trait Convert<T> {
    /// The converted value.
    fn convert(&self) -> T;
}

macro_rules! convert_as_is {
    ($($ty:ty),*) => {$(
        impl Convert<$ty> for $ty {
            fn convert(&self) -> $ty {
                self.clone()
            }
        }
    )*};
}

convert_as_is!(bool, u16, u32, u64, i64, f32, f64, String);

impl<A: Convert<B>, B> Convert<Vec<B>> for Vec<A> {
    fn convert(&self) -> Vec<B> {
        self.iter().map(Convert::convert).collect()
    }
}

impl<A: Convert<B>, B> Convert<Option<B>> for Option<A> {
    fn convert(&self) -> Option<B> {
        self.as_ref().map(Convert::convert)
    }
}

/// Declares structs (fields with their numbers) and unit enums (variants
/// with their numbers) in every family, with conversions from `plain`.
macro_rules! model {
    (
        $(struct $name:ident { $($tag:literal => $field:ident: $ty:ty),* $(,)? })*
        $(enum $enum_name:ident { $($variant_tag:literal => $variant:ident),* $(,)? })*
    ) => {
        /// `#[derive(Serialize, Deserialize)]`.
        pub mod plain {
            $(
                #[allow(missing_docs)]
                #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
                pub struct $name { $(pub $field: $ty),* }
            )*
            $(
                #[allow(missing_docs)]
                #[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
                pub enum $enum_name { $($variant),* }
            )*
        }

        /// `#[derive(MsgPack)]`: maps keyed by field number.
        pub mod tagged {
            $(
                #[allow(missing_docs)]
                #[derive(Clone, Debug, PartialEq, msgpack_serde::MsgPack)]
                pub struct $name { $(#[msgpack(tag = $tag)] pub $field: $ty),* }
            )*
            $(
                #[allow(missing_docs)]
                #[derive(Clone, Copy, Debug, PartialEq, Eq, msgpack_serde::MsgPack)]
                pub enum $enum_name { $(#[msgpack(tag = $variant_tag)] $variant),* }
            )*
        }

        /// `#[derive(MsgPack)] #[msgpack(array)]`: tag-indexed arrays.
        pub mod array {
            $(
                #[allow(missing_docs)]
                #[derive(Clone, Debug, PartialEq, msgpack_serde::MsgPack)]
                #[msgpack(array)]
                pub struct $name { $(#[msgpack(tag = $tag)] pub $field: $ty),* }
            )*
            $(
                #[allow(missing_docs)]
                #[derive(Clone, Copy, Debug, PartialEq, Eq, msgpack_serde::MsgPack)]
                pub enum $enum_name { $(#[msgpack(tag = $variant_tag)] $variant),* }
            )*
        }

        /// `#[derive(MsgPacker)]`: msgpacker's encoding.
        pub mod packer {
            $(
                #[allow(missing_docs)]
                #[derive(Clone, Debug, PartialEq, msgpacker::MsgPacker)]
                pub struct $name { $(pub $field: $ty),* }
            )*
            $(
                #[allow(missing_docs)]
                #[derive(Clone, Copy, Debug, PartialEq, Eq, msgpacker::MsgPacker)]
                pub enum $enum_name { $($variant),* }
            )*
        }

        model!(@zero
            /// `#[derive(ToMessagePack, FromMessagePack)]`: zerompk's encoding.
            zero array
            $(struct $name { $($field: $ty),* })* ; $(enum $enum_name { $($variant_tag => $variant),* })*
        );
        model!(@zero
            /// `#[derive(ToMessagePack, FromMessagePack)] #[msgpack(map)]`:
            /// zerompk's maps keyed by field name.
            zero_map map
            $(struct $name { $($field: $ty),* })* ; $(enum $enum_name { $($variant_tag => $variant),* })*
        );

        model!(@convert tagged $($name { $($field)* })* ; $($enum_name { $($variant)* })*);
        model!(@convert array $($name { $($field)* })* ; $($enum_name { $($variant)* })*);
        model!(@convert packer $($name { $($field)* })* ; $($enum_name { $($variant)* })*);
        model!(@convert zero $($name { $($field)* })* ; $($enum_name { $($variant)* })*);
        model!(@convert zero_map $($name { $($field)* })* ; $($enum_name { $($variant)* })*);
    };
    (@zero $(#[$doc:meta])* $module:ident $form:ident
        $(struct $name:ident { $($field:ident: $ty:ty),* })* ;
        $(enum $enum_name:ident { $($variant_tag:literal => $variant:ident),* })*
    ) => {
        $(#[$doc])*
        pub mod $module {
            $(
                #[allow(missing_docs)]
                #[derive(Clone, Debug, PartialEq, zerompk::ToMessagePack, zerompk::FromMessagePack)]
                #[msgpack($form)]
                pub struct $name { $(pub $field: $ty),* }
            )*
            $(
                #[allow(missing_docs)]
                #[derive(Clone, Copy, Debug, PartialEq, Eq, zerompk::ToMessagePack, zerompk::FromMessagePack)]
                #[msgpack(c_enum)]
                #[repr(u8)]
                pub enum $enum_name { $($variant = $variant_tag),* }
            )*
        }
    };
    (@convert $family:ident $($name:ident { $($field:ident)* })* ; $($enum_name:ident { $($variant:ident)* })*) => {
        $(
            impl Convert<$family::$name> for plain::$name {
                fn convert(&self) -> $family::$name {
                    $family::$name { $($field: self.$field.convert()),* }
                }
            }
        )*
        $(
            impl Convert<$family::$enum_name> for plain::$enum_name {
                fn convert(&self) -> $family::$enum_name {
                    match self { $(plain::$enum_name::$variant => $family::$enum_name::$variant),* }
                }
            }
        )*
    };
}

model! {
    struct Order {
        1 => id: u64,
        2 => customer: String,
        3 => email: String,
        4 => created: i64,
        5 => status: Status,
        6 => shipping: Address,
        7 => currency: String,
        8 => total: f64,
        9 => notes: String,
        10 => items: Vec<LineItem>,
    }
    struct Address {
        1 => street: String,
        2 => city: String,
        3 => zip: String,
        4 => country: String,
    }
    struct LineItem {
        1 => sku: String,
        2 => name: String,
        3 => quantity: u32,
        4 => unit_price: u64,
        5 => discount: Option<u64>,
    }
    struct Profile {
        1 => id: u64,
        2 => name: String,
        3 => roles: Vec<String>,
        4 => features: Features,
        5 => email: String,
        6 => bio: String,
        7 => links: Vec<Link>,
        8 => stats: Stats,
        9 => verified: bool,
    }
    struct Features {
        1 => negotiation: bool,
        2 => fallback: String,
        3 => compression: Option<String>,
    }
    struct Link {
        1 => rel: String,
        2 => href: String,
    }
    struct Stats {
        1 => followers: u32,
        2 => following: u32,
        3 => repositories: u32,
        4 => score: f32,
    }
    struct Logs {
        1 => records: Vec<LogRecord>,
    }
    struct LogRecord {
        1 => ip: String,
        2 => identity: String,
        3 => user_id: String,
        4 => timestamp: u64,
        5 => method: String,
        6 => path: String,
        7 => status: u16,
        8 => size: u64,
    }
    struct Mesh {
        1 => triangles: Vec<Triangle>,
    }
    struct Triangle {
        1 => v0: Vec3,
        2 => v1: Vec3,
        3 => v2: Vec3,
        4 => normal: Vec3,
    }
    struct Vec3 {
        1 => x: f32,
        2 => y: f32,
        3 => z: f32,
    }
    struct Ints {
        1 => values: Vec<i64>,
    }
    enum Status {
        1 => Pending,
        2 => Paid,
        3 => Shipped,
        4 => Delivered,
        5 => Cancelled,
    }
}

/// Borrowed log records, for zero-copy decoding with msgpack-serde.
pub mod borrowed {
    /// [`plain::Logs`](super::plain::Logs) with borrowed strings.
    #[derive(Debug, PartialEq, serde::Deserialize)]
    pub struct Logs<'a> {
        /// The records.
        #[serde(borrow)]
        pub records: Vec<LogRecord<'a>>,
    }

    /// [`plain::LogRecord`](super::plain::LogRecord) with borrowed strings.
    #[allow(missing_docs)]
    #[derive(Debug, PartialEq, serde::Deserialize)]
    pub struct LogRecord<'a> {
        pub ip: &'a str,
        pub identity: &'a str,
        pub user_id: &'a str,
        pub timestamp: u64,
        pub method: &'a str,
        pub path: &'a str,
        pub status: u16,
        pub size: u64,
    }
}
