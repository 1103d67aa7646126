//! Structs of floats, and of such structs, read whole (the derive's fast
//! path when our decoder holds the bytes our encoder writes) decode exactly as the serde path
//! does: the same values, bit for bit, and the same errors at the same
//! offsets, under any limits, from a slice and from a reader. Each type
//! has a twin of the same name and wire form whose fields are a serde
//! newtype of the float, which the fast path does not take.

use msgpack_serde::{Config, Deserializer, Limits};
use proptest::collection::vec;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

/// A float the derive sees as a serde type: its struct takes the serde path.
#[derive(Serialize, Deserialize, Debug, Clone, Copy)]
#[serde(transparent)]
struct Serde<T>(T);

/// A float's bits: NaN compares equal to itself this way.
trait FloatBits {
    fn bits(&self) -> u64;
}

impl FloatBits for f32 {
    fn bits(&self) -> u64 {
        self.to_bits().into()
    }
}

impl FloatBits for f64 {
    fn bits(&self) -> u64 {
        self.to_bits()
    }
}

impl<T: FloatBits> FloatBits for Serde<T> {
    fn bits(&self) -> u64 {
        self.0.bits()
    }
}

/// A value's floats as bits, with a separator after each container.
trait Bits {
    fn bits(&self) -> Vec<u64>;
}

impl<T: Bits> Bits for Vec<T> {
    fn bits(&self) -> Vec<u64> {
        self.iter()
            .flat_map(|item| item.bits().into_iter().chain([u64::MAX]))
            .collect()
    }
}

impl<T: Bits> Bits for Option<T> {
    fn bits(&self) -> Vec<u64> {
        self.iter()
            .flat_map(Bits::bits)
            .chain([self.is_some().into()])
            .collect()
    }
}

/// The types under test, with `$f32` and `$f64` for their floats: the
/// same names in both modules, so that error messages compare too.
macro_rules! shapes {
    ($f32:ty, $f64:ty) => {
        use super::{Bits, FloatBits};
        use msgpack_serde::MsgPack;

        #[derive(MsgPack, Debug, Clone, Copy)]
        pub struct Vec3 {
            #[msgpack(tag = 1)]
            pub x: $f32,
            #[msgpack(tag = 2)]
            pub y: $f32,
            #[msgpack(tag = 3)]
            pub z: $f32,
        }

        /// Tags out of order, a three-byte key, floats of two widths.
        #[derive(MsgPack, Debug, Clone, Copy)]
        pub struct Mixed {
            #[msgpack(tag = 300)]
            pub wide: $f64,
            #[msgpack(tag = 2)]
            pub narrow: $f32,
        }

        /// Array form, with gaps at positions 0 and 2.
        #[derive(MsgPack, Debug, Clone, Copy)]
        #[msgpack(array)]
        pub struct Gaps {
            #[msgpack(tag = 1)]
            pub a: $f64,
            #[msgpack(tag = 3)]
            pub b: $f32,
        }

        #[derive(MsgPack, Debug, Clone, Copy)]
        #[msgpack(array)]
        pub struct Pair(#[msgpack(tag = 0)] pub $f64, #[msgpack(tag = 1)] pub $f64);

        /// Structs of structs, a two-byte key.
        #[derive(MsgPack, Debug, Clone, Copy)]
        pub struct Triangle {
            #[msgpack(tag = 1)]
            pub a: Vec3,
            #[msgpack(tag = 2)]
            pub b: Vec3,
            #[msgpack(tag = 200)]
            pub normal: Vec3,
        }

        /// A struct, then a float: the struct's header is where the owed
        /// elements are tightest.
        #[derive(MsgPack, Debug, Clone, Copy)]
        pub struct Weighted {
            #[msgpack(tag = 1)]
            pub point: Vec3,
            #[msgpack(tag = 2)]
            pub weight: f64,
        }

        /// Three levels, array form around map form, with a gap.
        #[derive(MsgPack, Debug, Clone, Copy)]
        #[msgpack(array)]
        pub struct Segment {
            #[msgpack(tag = 0)]
            pub from: Triangle,
            #[msgpack(tag = 2)]
            pub to: Gaps,
        }

        /// A struct that takes the serde path, holding the others.
        #[derive(MsgPack, Debug, Clone)]
        pub struct Shape {
            #[msgpack(tag = 1)]
            pub points: Vec<Vec3>,
            #[msgpack(tag = 2)]
            pub mixed: Mixed,
            #[msgpack(tag = 3)]
            pub gaps: Vec<Gaps>,
            #[msgpack(tag = 4)]
            pub pair: Option<Pair>,
            #[msgpack(tag = 5)]
            pub triangles: Vec<Triangle>,
            #[msgpack(tag = 6)]
            pub segment: Option<Segment>,
        }

        impl Bits for Vec3 {
            fn bits(&self) -> Vec<u64> {
                vec![self.x.bits(), self.y.bits(), self.z.bits()]
            }
        }

        impl Bits for Mixed {
            fn bits(&self) -> Vec<u64> {
                vec![self.wide.bits(), self.narrow.bits()]
            }
        }

        impl Bits for Gaps {
            fn bits(&self) -> Vec<u64> {
                vec![self.a.bits(), self.b.bits()]
            }
        }

        impl Bits for Pair {
            fn bits(&self) -> Vec<u64> {
                vec![self.0.bits(), self.1.bits()]
            }
        }

        impl Bits for Triangle {
            fn bits(&self) -> Vec<u64> {
                [self.a.bits(), self.b.bits(), self.normal.bits()].concat()
            }
        }

        impl Bits for Weighted {
            fn bits(&self) -> Vec<u64> {
                [self.point.bits(), vec![self.weight.bits()]].concat()
            }
        }

        impl Bits for Segment {
            fn bits(&self) -> Vec<u64> {
                [self.from.bits(), self.to.bits()].concat()
            }
        }

        impl Bits for Shape {
            fn bits(&self) -> Vec<u64> {
                let parts = [
                    self.points.bits(),
                    self.mixed.bits(),
                    self.gaps.bits(),
                    self.pair.bits(),
                    self.triangles.bits(),
                    self.segment.bits(),
                ];
                parts
                    .into_iter()
                    .flat_map(|part| part.into_iter().chain([u64::MAX]))
                    .collect()
            }
        }
    };
}

/// Read whole by our decoder.
mod whole {
    shapes!(f32, f64);
}

/// The same wire form through the serde path.
mod serde_path {
    use super::Serde;
    shapes!(Serde<f32>, Serde<f64>);
}

use whole::{Gaps, Mixed, Pair, Segment, Shape, Triangle, Vec3, Weighted};

/// What a decode gave: the floats' bits, or the error's text.
fn outcome<T: Bits>(result: msgpack_serde::Result<T>) -> Result<Vec<u64>, String> {
    result
        .map(|value| value.bits())
        .map_err(|error| error.to_string())
}

/// `bytes` decode as `W` (whole reads) and as `S` (the serde path) to the
/// same outcome: from a slice, through a `Deserializer` under `limits`,
/// and from a reader.
#[track_caller]
fn agree<W, S>(bytes: &[u8], limits: Limits)
where
    W: Bits + for<'de> Deserialize<'de>,
    S: Bits + for<'de> Deserialize<'de>,
{
    let whole = outcome(msgpack_serde::from_slice::<W>(bytes));
    let serde = outcome(msgpack_serde::from_slice::<S>(bytes));
    assert_eq!(whole, serde, "from_slice of {bytes:02x?}");

    let limited = |bytes| -> (Result<Vec<u64>, String>, Result<Vec<u64>, String>) {
        let mut de = Deserializer::from_slice(bytes).with_limits(limits);
        let whole = outcome(W::deserialize(&mut de));
        let mut de = Deserializer::from_slice(bytes).with_limits(limits);
        let serde = outcome(S::deserialize(&mut de));
        (whole, serde)
    };
    let (whole, serde) = limited(bytes);
    assert_eq!(whole, serde, "{limits:?} on {bytes:02x?}");

    let whole = outcome(msgpack_serde::from_reader::<_, W>(bytes));
    let serde = outcome(msgpack_serde::from_reader::<_, S>(bytes));
    assert_eq!(whole, serde, "from_reader of {bytes:02x?}");
}

/// The same bytes decoded as every pair of twins, and as vectors of them.
#[track_caller]
fn agree_all(bytes: &[u8], limits: Limits) {
    agree::<Vec3, serde_path::Vec3>(bytes, limits);
    agree::<Mixed, serde_path::Mixed>(bytes, limits);
    agree::<Gaps, serde_path::Gaps>(bytes, limits);
    agree::<Pair, serde_path::Pair>(bytes, limits);
    agree::<Triangle, serde_path::Triangle>(bytes, limits);
    agree::<Segment, serde_path::Segment>(bytes, limits);
    agree::<Shape, serde_path::Shape>(bytes, limits);
    agree::<Vec<Triangle>, Vec<serde_path::Triangle>>(bytes, limits);
    agree::<Vec<Weighted>, Vec<serde_path::Weighted>>(bytes, limits);
    agree::<Vec<Vec3>, Vec<serde_path::Vec3>>(bytes, limits);
    agree::<Vec<Gaps>, Vec<serde_path::Gaps>>(bytes, limits);
}

/// Floats of every kind: any bits, and the ordinary values.
fn f32s() -> impl Strategy<Value = f32> {
    prop_oneof![any::<u32>().prop_map(f32::from_bits), any::<f32>()]
}

fn f64s() -> impl Strategy<Value = f64> {
    prop_oneof![any::<u64>().prop_map(f64::from_bits), any::<f64>()]
}

fn vec3() -> impl Strategy<Value = Vec3> {
    (f32s(), f32s(), f32s()).prop_map(|(x, y, z)| Vec3 { x, y, z })
}

fn gaps() -> impl Strategy<Value = Gaps> {
    (f64s(), f32s()).prop_map(|(a, b)| Gaps { a, b })
}

fn triangle() -> impl Strategy<Value = Triangle> {
    (vec3(), vec3(), vec3()).prop_map(|(a, b, normal)| Triangle { a, b, normal })
}

fn segment() -> impl Strategy<Value = Segment> {
    (triangle(), gaps()).prop_map(|(from, to)| Segment { from, to })
}

prop_compose! {
    fn shape()(
        points in vec(vec3(), 0..6),
        mixed in (f64s(), f32s()),
        gaps in vec(gaps(), 0..4),
        pair in proptest::option::of((f64s(), f64s())),
        triangles in vec(triangle(), 0..4),
        segment in proptest::option::of(segment()),
    ) -> Shape {
        Shape {
            points,
            mixed: Mixed { wide: mixed.0, narrow: mixed.1 },
            gaps,
            pair: pair.map(|(a, b)| Pair(a, b)),
            triangles,
            segment,
        }
    }
}

/// Limits from tight to the defaults.
fn limits() -> impl Strategy<Value = Limits> {
    (1usize..6, 1usize..80)
        .prop_map(|(depth, values)| Limits::default().max_depth(depth).max_values(values))
}

/// Bytes near the whole-read patterns: headers, keys, float markers and
/// their bytes, nil, and other markers, in any order.
fn near_patterns() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        Just(vec![0x93]),
        Just(vec![0x83]),
        Just(vec![0x82]),
        Just(vec![0x92]),
        Just(vec![0x94]),
        Just(vec![0x91]),
        Just(vec![0xdc, 0x00, 0x03]),
        (0u8..8).prop_map(|key| vec![key]),
        Just(vec![0xcc, 0x01]),
        Just(vec![0xcc, 0xc8]),
        Just(vec![0xcd, 0x01, 0x2c]),
        Just(vec![0xc0]),
        any::<u32>().prop_map(|bits| [&[0xca][..], &bits.to_be_bytes()].concat()),
        any::<u64>().prop_map(|bits| [&[0xcb][..], &bits.to_be_bytes()].concat()),
        any::<u8>().prop_map(|byte| vec![byte]),
    ];
    vec(token, 0..24).prop_map(|tokens| tokens.concat())
}

/// Every way our encoder writes `shape`: named and compact struct modes,
/// and human-readable (keys by name, which the fast path does not take).
fn encodings(shape: &Shape) -> Vec<Vec<u8>> {
    vec![
        msgpack_serde::to_vec(shape).unwrap(),
        msgpack_serde::to_vec_compact(shape).unwrap(),
        msgpack_serde::to_vec_with_config(shape, Config::named().human_readable(true)).unwrap(),
        msgpack_serde::to_vec(&shape.points).unwrap(),
        msgpack_serde::to_vec(&shape.gaps).unwrap(),
        msgpack_serde::to_vec(&shape.triangles).unwrap(),
        msgpack_serde::to_vec(&shape.segment).unwrap(),
    ]
}

#[test]
fn structs_of_floats_and_of_such_structs_are_read_whole() {
    use msgpack_serde::__private::Whole;
    assert!(Vec3::layout().is_some());
    assert!(Mixed::layout().is_some());
    assert!(Gaps::layout().is_some());
    assert!(Pair::layout().is_some());
    assert!(Triangle::layout().is_some());
    assert!(Segment::layout().is_some());
    // Its fields' type has no `Whole` impl: the probe finds none.
    assert!(serde_path::Triangle::layout().is_none());
}

#[test]
fn fixed_examples_decode_as_the_serde_path_does() {
    let vec3 = Vec3 {
        x: 1.5,
        y: -0.0,
        z: f32::NAN,
    };
    let bytes = msgpack_serde::to_vec(&vec3).unwrap();
    assert_eq!(bytes[..3], [0x83, 0x01, 0xca]);
    assert_eq!(bytes.len(), 1 + 3 * 6);
    let back: Vec3 = msgpack_serde::from_slice(&bytes).unwrap();
    assert_eq!(back.bits(), vec3.bits());
    // Every prefix fails as the serde path fails, at the same offset.
    for end in 0..=bytes.len() {
        agree_all(&bytes[..end], Limits::default());
    }
    // Array form with a gap at position 2 (and 0, before tag 1).
    let gaps = Gaps { a: 2.0, b: 0.5 };
    let bytes = msgpack_serde::to_vec(&gaps).unwrap();
    assert_eq!(bytes[..3], [0x94, 0xc0, 0xcb]);
    assert_eq!(bytes[11..], [0xc0, 0xca, 0x3f, 0x00, 0x00, 0x00]);
    agree_all(&bytes, Limits::default());
    // Three levels: every prefix, and the depth each level needs.
    let segment = Segment {
        from: Triangle {
            a: vec3,
            b: vec3,
            normal: vec3,
        },
        to: gaps,
    };
    let bytes = msgpack_serde::to_vec(&segment).unwrap();
    assert_eq!(bytes[..4], [0x93, 0x83, 0x01, 0x83]);
    for end in 0..=bytes.len() {
        agree_all(&bytes[..end], Limits::default());
    }
    for depth in 1..=4 {
        agree_all(&bytes, Limits::default().max_depth(depth));
    }
    // An array that declares more elements than its bytes can hold,
    // then an invalid byte: the serde path stops at the first header
    // whose owed elements cannot fit (the end of input), or reads the
    // struct and stops at the invalid byte; so must the whole read.
    let weighted = Weighted {
        point: vec3,
        weight: 2.5,
    };
    let body = msgpack_serde::to_vec(&weighted).unwrap();
    assert_eq!(body.len(), 31);
    for declared in 1..40 {
        let bytes = [&[0xdc, 0x00, declared][..], &body, &[0xc1]].concat();
        agree_all(&bytes, Limits::default());
    }
    // Fields out of declaration order, a float as an integer, a missing
    // field, an unknown one: the serde path reads or refuses each.
    for bytes in [
        &[
            0x83, 0x02, 0xca, 0, 0, 0, 0, 0x01, 0xca, 0, 0, 0, 0, 0x03, 0xca, 0, 0, 0, 0,
        ][..],
        &[
            0x83, 0x01, 0x00, 0x02, 0xca, 0, 0, 0, 0, 0x03, 0xca, 0, 0, 0, 0,
        ],
        &[0x82, 0x01, 0xca, 0, 0, 0, 0, 0x02, 0xca, 0, 0, 0, 0],
        &[
            0x84, 0x01, 0xca, 0, 0, 0, 0, 0x02, 0xca, 0, 0, 0, 0, 0x03, 0xca, 0, 0, 0, 0, 0x09,
            0xc0,
        ],
        &[
            0x83, 0x01, 0xcb, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0xca, 0, 0, 0, 0, 0x03, 0xca, 0, 0, 0,
            0,
        ],
    ] {
        agree_all(bytes, Limits::default());
        agree_all(bytes, Limits::default().max_values(6));
        agree_all(bytes, Limits::default().max_depth(1));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn what_our_encoder_writes_decodes_as_the_serde_path_does(shape in shape(), limits in limits()) {
        for bytes in encodings(&shape) {
            agree_all(&bytes, Limits::default());
            agree_all(&bytes, limits);
        }
        let back: Shape = msgpack_serde::from_slice(&msgpack_serde::to_vec(&shape).unwrap()).unwrap();
        prop_assert_eq!(back.bits(), shape.bits());
    }

    #[test]
    fn changed_bytes_decode_as_the_serde_path_does(
        shape in shape(),
        changes in vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in any::<prop::sample::Index>(),
        limits in limits(),
    ) {
        for mut bytes in encodings(&shape) {
            for (index, byte) in &changes {
                let at = index.index(bytes.len());
                bytes[at] = *byte;
            }
            agree_all(&bytes, limits);
            let end = cut.index(bytes.len() + 1);
            agree_all(&bytes[..end], limits);
        }
    }

    #[test]
    fn bytes_near_the_patterns_decode_as_the_serde_path_does(
        bytes in near_patterns(),
        limits in limits(),
    ) {
        agree_all(&bytes, Limits::default());
        agree_all(&bytes, limits);
    }
}
