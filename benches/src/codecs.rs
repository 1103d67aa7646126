//! Every codec the benchmarks compare, as encode and decode closures over
//! one fixture value.

use std::hint::black_box;
use std::rc::Rc;

use msgpack_serde::{Config, Serializer};
use msgpacker::{Packable, Unpackable};
use prost::Message;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::model::{array, borrowed, packer, plain, tagged, zero, zero_map, Convert};
use crate::proto::Proto;

/// The codec the others are compared with: msgpack-serde's compact mode.
pub const REFERENCE: &str = "msgpack-serde compact";

/// Writes the fixture's encoding into a buffer.
pub type EncodeFn = Box<dyn Fn(&mut Vec<u8>)>;
/// Encodes the fixture into a new `Vec`.
pub type EncodeFreshFn = Box<dyn Fn() -> Vec<u8>>;
/// Decodes bytes (and drops the result).
pub type DecodeFn = Box<dyn Fn(&[u8])>;
/// Whether bytes decode to the fixture value.
pub type VerifyFn = Box<dyn Fn(&[u8]) -> bool>;

/// One codec, ready to run on one fixture.
pub struct Codec {
    /// The codec's name in tables.
    pub name: &'static str,
    /// Appends the fixture's encoding to the buffer.
    pub encode: EncodeFn,
    /// Encodes into a new `Vec`.
    pub encode_fresh: EncodeFreshFn,
    /// Decodes into owned types.
    pub decode: DecodeFn,
    /// Decodes into types that borrow their strings, where the codec can.
    pub decode_borrowed: Option<DecodeFn>,
    /// Whether bytes decode to the fixture value.
    pub verify: VerifyFn,
}

impl std::fmt::Debug for Codec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Codec")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Codec {
    /// A codec for `value`, from how it encodes and decodes.
    fn new<X: PartialEq + 'static>(
        name: &'static str,
        value: X,
        encode: fn(&X, &mut Vec<u8>),
        decode: fn(&[u8]) -> X,
    ) -> Codec {
        let value = Rc::new(value);
        let (v1, v2, v3) = (value.clone(), value.clone(), value);
        Codec {
            name,
            encode: Box::new(move |out| encode(&v1, out)),
            encode_fresh: Box::new(move || {
                let mut out = Vec::new();
                encode(&v2, &mut out);
                out
            }),
            decode: Box::new(move |bytes| {
                black_box(decode(bytes));
            }),
            decode_borrowed: None,
            verify: Box::new(move |bytes| decode(bytes) == *v3),
        }
    }

    /// The same codec, also decoding into borrowed types with `decode`.
    fn with_borrowed(mut self, decode: fn(&[u8])) -> Codec {
        self.decode_borrowed = Some(Box::new(decode));
        self
    }
}

/// A fixture type with its counterparts in every family.
pub trait Fixture: Serialize + DeserializeOwned + Proto + Clone + PartialEq + 'static {
    /// `#[derive(MsgPack)]`
    type Tagged: Serialize + DeserializeOwned + PartialEq + 'static;
    /// `#[derive(MsgPack)] #[msgpack(array)]`
    type Array: Serialize + DeserializeOwned + PartialEq + 'static;
    /// `#[derive(MsgPacker)]`
    type Packer: Packable + Unpackable + PartialEq + 'static;
    /// `#[derive(ToMessagePack, FromMessagePack)]`
    type Zero: zerompk::ToMessagePack + zerompk::FromMessagePackOwned + PartialEq + 'static;
    /// `#[derive(ToMessagePack, FromMessagePack)] #[msgpack(map)]`
    type ZeroMap: zerompk::ToMessagePack + zerompk::FromMessagePackOwned + PartialEq + 'static;

    /// Converts to the other families.
    fn families(&self) -> Families<Self>;

    /// Decodes msgpack-serde bytes into types that borrow, for fixtures
    /// that have them.
    fn decode_borrowed() -> Option<fn(&[u8])> {
        None
    }
}

/// A fixture's value in each family of types.
#[derive(Debug)]
pub struct Families<T: Fixture> {
    /// `#[derive(MsgPack)]`
    pub tagged: T::Tagged,
    /// `#[derive(MsgPack)] #[msgpack(array)]`
    pub array: T::Array,
    /// `#[derive(MsgPacker)]`
    pub packer: T::Packer,
    /// `#[derive(ToMessagePack, FromMessagePack)]`
    pub zero: T::Zero,
    /// `#[derive(ToMessagePack, FromMessagePack)] #[msgpack(map)]`
    pub zero_map: T::ZeroMap,
}

macro_rules! fixture {
    ($($name:ident $(, borrowed = $borrowed:expr)?;)*) => {$(
        impl Fixture for plain::$name {
            type Tagged = tagged::$name;
            type Array = array::$name;
            type Packer = packer::$name;
            type Zero = zero::$name;
            type ZeroMap = zero_map::$name;

            fn families(&self) -> Families<Self> {
                Families {
                    tagged: self.convert(),
                    array: self.convert(),
                    packer: self.convert(),
                    zero: self.convert(),
                    zero_map: self.convert(),
                }
            }

            $(fn decode_borrowed() -> Option<fn(&[u8])> {
                Some($borrowed)
            })?
        }
    )*};
}

fixture! {
    Order;
    Profile;
    Logs, borrowed = |bytes| {
        black_box(msgpack_serde::from_slice::<borrowed::Logs<'_>>(bytes).unwrap());
    };
    Mesh;
    Ints;
}

/// msgpack-serde into a reused buffer, by the serializer whose struct
/// mode is fixed in its type (`Serializer::named`, `Serializer::compact`),
/// the one `to_vec` and `to_vec_compact` use.
fn ours<T: Serialize>(out: &mut Vec<u8>, value: &T, config: Config) {
    if config == Config::compact() {
        value.serialize(&mut Serializer::compact(out)).unwrap();
    } else {
        value.serialize(&mut Serializer::named(out)).unwrap();
    }
}

/// zerompk into a reused buffer, through its `std::io::Write` entry
/// point: the one that appends to a caller's `Vec`, as every other row
/// does. (`to_msgpack` into a zeroed slice skips the capacity checks but
/// needs the slice zeroed; RESULTS.md compares the two.)
fn zerompk_into<T: zerompk::ToMessagePack>(value: &T, out: &mut Vec<u8>) {
    zerompk::write_msgpack(out, value).unwrap();
}

/// The floor: a copy of the encoded bytes, a `clone()` of the value. No
/// codec can encode faster than it copies its output, nor decode into
/// owned types faster than it builds them.
fn floor<T: Fixture>(value: &T, bytes: Vec<u8>) -> Codec {
    let bytes = Rc::new(bytes);
    let value = Rc::new(value.clone());
    let (b1, b2, b3) = (bytes.clone(), bytes.clone(), bytes);
    Codec {
        name: FLOOR,
        encode: Box::new(move |out| out.extend_from_slice(&b1)),
        encode_fresh: Box::new(move || b2.to_vec()),
        decode: Box::new(move |_| {
            black_box(black_box(&*value).clone());
        }),
        decode_borrowed: None,
        verify: Box::new(move |candidate| candidate == &b3[..]),
    }
}

/// The name of the floor row: a copy of the encoded bytes, a `clone()`
/// of the value.
pub const FLOOR: &str = "floor (memcpy / clone)";

/// Every codec, for `value`, in table order.
pub fn codecs<T: Fixture>(value: &T) -> Vec<Codec> {
    let Families {
        tagged,
        array,
        packer,
        zero,
        zero_map,
    } = value.families();
    let mut ours_named = Codec::new(
        "msgpack-serde named",
        value.clone(),
        |v, out| ours(out, v, Config::named()),
        |b| msgpack_serde::from_slice(b).unwrap(),
    );
    let mut ours_compact = Codec::new(
        REFERENCE,
        value.clone(),
        |v, out| ours(out, v, Config::compact()),
        |b| msgpack_serde::from_slice(b).unwrap(),
    );
    if let Some(decode) = T::decode_borrowed() {
        ours_named = ours_named.with_borrowed(decode);
        ours_compact = ours_compact.with_borrowed(decode);
    }
    let floor = floor(value, (ours_compact.encode_fresh)());
    vec![
        ours_compact,
        ours_named,
        Codec::new(
            "msgpack-serde derive map",
            tagged,
            |v, out| ours(out, v, Config::named()),
            |b| msgpack_serde::from_slice(b).unwrap(),
        ),
        Codec::new(
            "msgpack-serde derive array",
            array,
            |v, out| ours(out, v, Config::named()),
            |b| msgpack_serde::from_slice(b).unwrap(),
        ),
        Codec::new(
            "rmp-serde compact",
            value.clone(),
            |v, out| rmp_serde::encode::write(out, v).unwrap(),
            |b| rmp_serde::from_slice(b).unwrap(),
        ),
        Codec::new(
            "rmp-serde named",
            value.clone(),
            |v, out| rmp_serde::encode::write_named(out, v).unwrap(),
            |b| rmp_serde::from_slice(b).unwrap(),
        ),
        Codec::new(
            "msgpacker",
            packer,
            |v, out| {
                v.pack(out);
            },
            |b| T::Packer::unpack(b).unwrap(),
        ),
        Codec::new("zerompk", zero, zerompk_into, |b| {
            zerompk::from_msgpack(b).unwrap()
        }),
        Codec::new("zerompk map", zero_map, zerompk_into, |b| {
            zerompk::from_msgpack(b).unwrap()
        }),
        Codec::new(
            "prost",
            value.to_proto(),
            |v, out| v.encode(out).unwrap(),
            |b| T::Message::decode(b).unwrap(),
        ),
        Codec::new(
            "prost + conversion",
            value.clone(),
            |v, out| v.to_proto().encode(out).unwrap(),
            |b| T::from_proto(T::Message::decode(b).unwrap()).unwrap(),
        ),
        Codec::new(
            "serde_json",
            value.clone(),
            |v, out| serde_json::to_writer(out, v).unwrap(),
            |b| serde_json::from_slice(b).unwrap(),
        ),
        floor,
    ]
}

/// The codecs of the fixture named `name`, or `None` for an unknown name.
pub fn codecs_for(name: &str) -> Option<Vec<Codec>> {
    Some(match name {
        "document" => codecs(&crate::fixtures::document()),
        "api_profile" => codecs(&crate::fixtures::api_profile()),
        "logs" => codecs(&crate::fixtures::logs()),
        "mesh" => codecs(&crate::fixtures::mesh()),
        "ints" => codecs(&crate::fixtures::ints()),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_codec_round_trips_every_fixture() {
        for name in crate::fixtures::NAMES {
            for codec in codecs_for(name).unwrap() {
                let bytes = (codec.encode_fresh)();
                assert!(
                    (codec.verify)(&bytes),
                    "{} does not round-trip {name}",
                    codec.name
                );
                let mut reused = vec![0xff; 3];
                reused.clear();
                (codec.encode)(&mut reused);
                assert_eq!(
                    reused, bytes,
                    "{} encodes {name} differently into a reused buffer",
                    codec.name
                );
                if let Some(decode) = &codec.decode_borrowed {
                    decode(&bytes);
                }
            }
        }
    }
}
