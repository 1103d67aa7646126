//! `from_slice`'s top-level value: a lone integer or float is read
//! without a call to the decoder, every other value by the decoder. For
//! any bytes, asked for as each number type (serde's own, and a visitor
//! that records which visit it got), `from_slice` gives what the decoder
//! gives through `Deserializer::from_slice`: the same value, the same
//! visit, the same error at the same offset; and `from_slice_front` (the
//! stream codec's read) the same value and length.

use std::fmt::Debug;
use std::marker::PhantomData;

use msgpack_serde::__private::{deserialize_placed, from_slice_front};
use msgpack_serde::{from_slice, Deserializer, Limits, Result};
use proptest::prelude::*;
use serde::de::{self, Deserialize, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// `T` from `bytes` by the decoder alone: `Deserializer::from_slice`,
/// a value's own error placed as `from_slice` places it, then the
/// trailing-bytes check.
fn by_decoder<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    let mut deserializer = Deserializer::from_slice(bytes);
    let value = deserialize_placed(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// `from_slice` and the decoder agree on `bytes` as a `T`, and
/// `from_slice_front` reads the same value and length as the decoder.
/// Values are compared by their `Debug` text, so that NaN is NaN (the
/// recording visitor's floats show their bits).
fn agree<T: for<'de> Deserialize<'de> + Debug>(
    bytes: &[u8],
) -> std::result::Result<(), TestCaseError> {
    let text = |result: Result<T>| match result {
        Ok(value) => format!("{value:?}"),
        Err(error) => format!("error: {error}"),
    };
    prop_assert_eq!(
        text(from_slice::<T>(bytes)),
        text(by_decoder::<T>(bytes)),
        "{:02x?}",
        bytes
    );
    let mut len = usize::MAX;
    let front = text(from_slice_front::<T>(bytes, Limits::default(), &mut len));
    let mut deserializer = Deserializer::from_slice(bytes);
    let value = text(T::deserialize(&mut deserializer));
    prop_assert_eq!(&front, &value, "{:02x?}", bytes);
    if !front.starts_with("error: ") {
        prop_assert_eq!(len, deserializer.byte_offset(), "{:02x?}", bytes);
    }
    Ok(())
}

/// One of serde's requests, made of any deserializer.
trait Request {
    fn make<'de, D: de::Deserializer<'de>, V: Visitor<'de>>(
        deserializer: D,
        visitor: V,
    ) -> std::result::Result<V::Value, D::Error>;
}

macro_rules! requests {
    ($($name:ident => $method:ident,)*) => {$(
        #[derive(Debug)]
        struct $name;
        impl Request for $name {
            fn make<'de, D: de::Deserializer<'de>, V: Visitor<'de>>(
                deserializer: D,
                visitor: V,
            ) -> std::result::Result<V::Value, D::Error> {
                deserializer.$method(visitor)
            }
        }
    )*};
}

requests! {
    I8 => deserialize_i8, I16 => deserialize_i16, I32 => deserialize_i32,
    I64 => deserialize_i64, U8 => deserialize_u8, U16 => deserialize_u16,
    U32 => deserialize_u32, U64 => deserialize_u64, F32 => deserialize_f32,
    F64 => deserialize_f64, Any => deserialize_any,
}

/// The visit request `R` got, as text; a visitor error for the values
/// 7 and -7 and for negative floats, so that errors made inside a visit
/// are placed too.
#[derive(Debug)]
struct Seen<R>(String, PhantomData<R>);

impl<'de, R: Request> Deserialize<'de> for Seen<R> {
    fn deserialize<D: de::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        R::make(deserializer, Record).map(|seen| Seen(seen, PhantomData))
    }
}

struct Record;

impl<'de> Visitor<'de> for Record {
    type Value = String;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("anything")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<String, E> {
        Ok(format!("bool {v}"))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<String, E> {
        match v {
            -7 | 7 => Err(E::custom("seven")),
            _ => Ok(format!("i64 {v}")),
        }
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<String, E> {
        match v {
            7 => Err(E::custom("seven")),
            _ => Ok(format!("u64 {v}")),
        }
    }

    fn visit_f32<E: de::Error>(self, v: f32) -> std::result::Result<String, E> {
        match v < 0.0 {
            true => Err(E::custom("negative")),
            false => Ok(format!("f32 {v:?} {:#x}", v.to_bits())),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<String, E> {
        match v < 0.0 {
            true => Err(E::custom("negative")),
            false => Ok(format!("f64 {v:?} {:#x}", v.to_bits())),
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<String, E> {
        Ok(format!("str {v:?}"))
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> std::result::Result<String, E> {
        Ok(format!("bytes {v:02x?}"))
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<String, E> {
        Ok("unit".into())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<String, A::Error> {
        let mut count = 0;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            count += 1;
        }
        Ok(format!("seq of {count}"))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<String, A::Error> {
        let mut count = 0;
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {
            count += 1;
        }
        Ok(format!("map of {count}"))
    }
}

/// Every request and every number type on `bytes`.
fn all_agree(bytes: &[u8]) -> std::result::Result<(), TestCaseError> {
    agree::<Seen<I8>>(bytes)?;
    agree::<Seen<I16>>(bytes)?;
    agree::<Seen<I32>>(bytes)?;
    agree::<Seen<I64>>(bytes)?;
    agree::<Seen<U8>>(bytes)?;
    agree::<Seen<U16>>(bytes)?;
    agree::<Seen<U32>>(bytes)?;
    agree::<Seen<U64>>(bytes)?;
    agree::<Seen<F32>>(bytes)?;
    agree::<Seen<F64>>(bytes)?;
    agree::<Seen<Any>>(bytes)?;
    agree::<i8>(bytes)?;
    agree::<i16>(bytes)?;
    agree::<i32>(bytes)?;
    agree::<i64>(bytes)?;
    agree::<u8>(bytes)?;
    agree::<u16>(bytes)?;
    agree::<u32>(bytes)?;
    agree::<u64>(bytes)?;
    agree::<f32>(bytes)?;
    agree::<f64>(bytes)?;
    agree::<Option<i64>>(bytes)?;
    agree::<String>(bytes)
}

/// Marker bytes the fast paths take or turn away: every integer and
/// float form, fixints at their edges and the visitor's 7, and a few
/// other kinds.
const MARKERS: [u8; 22] = [
    0x00, 0x07, 0x7f, 0xe0, 0xf9, 0xff, 0xcc, 0xcd, 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3, 0xca, 0xcb,
    0xc0, 0xc3, 0xa1, 0x91, 0xd4, 0xc1,
];

#[test]
fn every_number_form_at_every_length_agrees() {
    for marker in MARKERS {
        for len in 0..=10 {
            for fill in [0x00, 0x07, 0x80, 0xff] {
                let mut bytes = vec![fill; len];
                bytes.insert(0, marker);
                all_agree(&bytes).unwrap();
            }
        }
    }
    all_agree(&[]).unwrap();
}

#[test]
fn a_lone_number_is_read_and_visited_as_the_decoder_does() {
    // A positive fixint is `visit_u64` whatever the target, as the
    // decoder's fast path gives it; an int 8 is `visit_i64`.
    assert_eq!(from_slice::<Seen<I64>>(&[0x05]).unwrap().0, "u64 5");
    assert_eq!(from_slice::<Seen<I64>>(&[0xd0, 0x05]).unwrap().0, "i64 5");
    assert_eq!(from_slice::<Seen<U8>>(&[0xcc, 0x05]).unwrap().0, "u64 5");
    assert_eq!(
        from_slice::<Seen<F32>>(&[0xca, 0x3f, 0xc0, 0, 0])
            .unwrap()
            .0,
        "f32 1.5 0x3fc00000"
    );
    assert_eq!(
        from_slice::<Seen<I16>>(&[0x07]).unwrap_err().to_string(),
        "seven at offset 0"
    );
    assert_eq!(
        from_slice::<Seen<F64>>(&[0xcb, 0xbf, 0xf8, 0, 0, 0, 0, 0, 0])
            .unwrap_err()
            .to_string(),
        "negative at offset 0"
    );
    assert_eq!(
        from_slice::<u8>(&[0xcd, 0x01, 0x00])
            .unwrap_err()
            .to_string(),
        "invalid value: integer `256`, expected u8 at offset 0"
    );
    assert_eq!(
        from_slice::<f64>(&[0xcb, 0, 0, 0, 0, 0, 0, 0, 0, 0xc0])
            .unwrap_err()
            .to_string(),
        "trailing bytes after the value at offset 9"
    );
}

/// A value that makes no request of its deserializer.
#[derive(Debug, PartialEq)]
struct Nothing;

impl<'de> Deserialize<'de> for Nothing {
    fn deserialize<D: de::Deserializer<'de>>(_: D) -> std::result::Result<Self, D::Error> {
        Ok(Nothing)
    }
}

#[test]
fn a_value_that_reads_nothing_stops_at_the_start() {
    assert_eq!(from_slice::<Nothing>(&[]).unwrap(), Nothing);
    assert_eq!(
        from_slice::<Nothing>(&[0xc0]).unwrap_err().to_string(),
        "trailing bytes after the value at offset 0"
    );
    let mut len = usize::MAX;
    from_slice_front::<Nothing>(&[0xc0], Limits::default(), &mut len).unwrap();
    assert_eq!(len, 0);
    agree::<Nothing>(&[]).unwrap();
    agree::<Nothing>(&[0xc0]).unwrap();
}

proptest! {
    #[test]
    fn any_bytes_agree(bytes in prop_oneof![
        (prop::sample::select(&MARKERS[..]), prop::collection::vec(any::<u8>(), 0..12))
            .prop_map(|(marker, rest)| [vec![marker], rest].concat()),
        prop::collection::vec(any::<u8>(), 0..12),
    ]) {
        all_agree(&bytes)?;
    }
}
