//! The types the fuzz targets decode into: one `#[derive(MsgPack)]`
//! message as a service would declare it, and one plain serde type with
//! the shapes serde users reach for (borrowed strings, enums of every
//! kind, maps, options, recursion), and a reference reading of vectors.
//!
//! Shared with `tests/tests/regression.rs`, which includes this file.

use std::borrow::Cow;
use std::collections::BTreeMap;

use msgpack_serde::{MsgPack, Timestamp, UnknownFields};
use serde::{Deserialize, Serialize};

/// A shop order: nested structs, an enum with every kind of variant,
/// options, vectors, a timestamp and unknown-field preservation.
#[derive(MsgPack, Debug, Clone, PartialEq)]
pub struct Order {
    #[msgpack(tag = 1)]
    pub id: u64,
    #[msgpack(tag = 2)]
    pub customer: Customer,
    #[msgpack(tag = 3)]
    pub status: Status,
    #[msgpack(tag = 4)]
    pub lines: Vec<Line>,
    #[msgpack(tag = 5)]
    pub note: Option<String>,
    #[msgpack(tag = 6, default)]
    pub labels: Vec<String>,
    #[msgpack(tag = 7)]
    pub total: f64,
    #[msgpack(tag = 8)]
    pub created: Option<Timestamp>,
    #[msgpack(tag = 9, omit_default)]
    pub priority: u8,
    #[msgpack(tag = 10, default)]
    pub attributes: BTreeMap<String, i64>,
    #[msgpack(unknown)]
    pub unknown: UnknownFields,
}

#[derive(MsgPack, Debug, Clone, PartialEq)]
pub struct Customer {
    #[msgpack(tag = 1)]
    pub name: String,
    #[msgpack(tag = 2)]
    pub email: Option<String>,
    #[msgpack(tag = 3)]
    pub address: Option<Address>,
}

#[derive(MsgPack, Debug, Clone, PartialEq)]
#[msgpack(omit_default)]
pub struct Address {
    #[msgpack(tag = 1)]
    pub street: String,
    #[msgpack(tag = 2)]
    pub city: String,
    #[msgpack(tag = 3)]
    pub country: String,
}

/// A line item in tag-indexed array form, keeping unknown positions.
#[derive(MsgPack, Debug, Clone, PartialEq)]
#[msgpack(array)]
pub struct Line {
    #[msgpack(tag = 0)]
    pub sku: String,
    #[msgpack(tag = 1)]
    pub quantity: u32,
    #[msgpack(tag = 2)]
    pub unit_price: i64,
    #[msgpack(tag = 3)]
    pub discount: Option<u16>,
    #[msgpack(unknown)]
    pub unknown: UnknownFields,
}

/// The other scalar types read directly (`usize`, `isize`, `char`),
/// recursive through a `Box`.
#[derive(MsgPack, Debug, Clone, PartialEq)]
pub struct Tally {
    #[msgpack(tag = 1)]
    pub count: usize,
    #[msgpack(tag = 2)]
    pub shift: isize,
    #[msgpack(tag = 3)]
    pub mark: char,
    #[msgpack(tag = 4)]
    pub next: Option<Box<Tally>>,
}

#[derive(MsgPack, Debug, Clone, PartialEq)]
pub enum Status {
    #[msgpack(tag = 1)]
    Pending,
    #[msgpack(tag = 2)]
    Shipped {
        #[msgpack(tag = 1)]
        carrier: String,
        #[msgpack(tag = 2)]
        tracking: Option<String>,
    },
    #[msgpack(tag = 3)]
    Returned(String),
    #[msgpack(tag = 4)]
    Split(u32, u32),
    #[msgpack(tag = 0, other)]
    Unknown,
}

/// An RPC request as a plain serde type, borrowing from the input.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Request<'a> {
    pub id: u64,
    pub method: &'a str,
    #[serde(borrow)]
    pub path: Cow<'a, str>,
    pub params: BTreeMap<String, Param>,
    #[serde(borrow)]
    pub auth: Option<Auth<'a>>,
    pub kind: Kind,
    pub body: Option<&'a [u8]>,
    pub weights: Vec<f32>,
    pub flags: (bool, char, i8),
    #[serde(borrow)]
    pub next: Option<Box<Request<'a>>>,
}

/// An externally tagged enum: every kind of variant.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub enum Kind {
    Ping,
    Call(u32),
    Batch(Vec<u64>, bool),
    Notify { topic: String, urgent: bool },
}

/// An untagged enum: serde buffers the value and tries each variant.
///
/// Not recursive: serde copies the buffered value at every level of a
/// recursive untagged enum, which takes memory in proportion to depth
/// times size, serde's doing and not the decoder's (see
/// `tests/tests/alloc_bounds.rs`), and would drown the memory budget.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum Param {
    Int(i64),
    Float(f64),
    Text(String),
    List(Vec<f64>),
}

/// An internally tagged enum.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type")]
pub enum Auth<'a> {
    Token { token: &'a str },
    Basic { user: String, password: String },
}

/// A plain serde type that owns its data, for `from_reader`.
pub type Plain = (Kind, BTreeMap<String, Param>, Option<String>, Vec<u8>);

/// A struct of floats, which our decoder reads whole (the derive's fast
/// path), in map form, beside its twin in [`serde_path`].
#[derive(MsgPack, Debug, Clone, PartialEq)]
pub struct Point {
    #[msgpack(tag = 1)]
    pub x: f32,
    #[msgpack(tag = 2)]
    pub y: f32,
    #[msgpack(tag = 3)]
    pub z: f64,
}

/// A struct of floats in array form, with a gap at position 0.
#[derive(MsgPack, Debug, Clone, PartialEq)]
#[msgpack(array)]
pub struct Span {
    #[msgpack(tag = 1)]
    pub start: f64,
    #[msgpack(tag = 2)]
    pub end: f64,
}

/// Points in array form: structs of structs of floats, read whole too.
#[derive(MsgPack, Debug, Clone, PartialEq)]
#[msgpack(array)]
pub struct Segment {
    #[msgpack(tag = 0)]
    pub from: Point,
    #[msgpack(tag = 1)]
    pub to: Point,
}

/// The same names and wire forms as [`Point`], [`Span`] and
/// [`Segment`], with each float behind a serde newtype, so the derive
/// takes the serde path.
pub mod serde_path {
    use msgpack_serde::MsgPack;
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[serde(transparent)]
    pub struct Float<T>(pub T);

    #[derive(MsgPack, Debug, Clone, PartialEq)]
    pub struct Point {
        #[msgpack(tag = 1)]
        pub x: Float<f32>,
        #[msgpack(tag = 2)]
        pub y: Float<f32>,
        #[msgpack(tag = 3)]
        pub z: Float<f64>,
    }

    #[derive(MsgPack, Debug, Clone, PartialEq)]
    #[msgpack(array)]
    pub struct Span {
        #[msgpack(tag = 1)]
        pub start: Float<f64>,
        #[msgpack(tag = 2)]
        pub end: Float<f64>,
    }

    #[derive(MsgPack, Debug, Clone, PartialEq)]
    #[msgpack(array)]
    pub struct Segment {
        #[msgpack(tag = 0)]
        pub from: Point,
        #[msgpack(tag = 1)]
        pub to: Point,
    }
}

/// A `Vec<T>` read element by element through a visitor the decoder does
/// not know (serde's own `Vec<T>` visitor is read by the decoder's number
/// loop): the reference that loop must agree with, as `Usual` is in
/// msgpack-serde's `tests/numbers.rs` (which this crate cannot use).
#[derive(Debug, PartialEq)]
pub struct ElementByElement<T>(pub Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ElementByElement<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Elements<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Elements<T> {
            type Value = ElementByElement<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Self::Value, A::Error> {
                let mut elements = Vec::new();
                while let Some(element) = seq.next_element()? {
                    elements.push(element);
                }
                Ok(ElementByElement(elements))
            }
        }
        deserializer.deserialize_seq(Elements(std::marker::PhantomData))
    }
}
