//! The classic per-type table: encode time, decode time and size of each
//! codec as a percentage of serde_json's, the layout long used by
//! MessagePack benchmarks in other languages.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hint::black_box;

use msgpacker::{Packable, Unpackable};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::measure::{time_interleaved, Budget};

/// One codec on one type, as percentages of serde_json.
#[derive(Clone, Debug, Serialize)]
pub struct TypeResult {
    /// The type.
    pub type_name: &'static str,
    /// The codec.
    pub codec: &'static str,
    /// Encode time, % of serde_json's.
    pub encode_percent: f64,
    /// Decode time, % of serde_json's.
    pub decode_percent: f64,
    /// Encoded size, % of serde_json's.
    pub size_percent: f64,
}

struct Measured {
    codec: &'static str,
    encode_ns: f64,
    decode_ns: f64,
    bytes: usize,
}

/// One codec of the table: its name, its encode into a buffer and its
/// decode of its own bytes.
type Codec<'a> = (&'static str, &'a dyn Fn(&mut Vec<u8>), &'a dyn Fn(&[u8]));

fn measure_one<T>(budget: Budget, value: &T) -> Vec<Measured>
where
    T: Serialize
        + DeserializeOwned
        + Packable
        + Unpackable
        + zerompk::ToMessagePack
        + zerompk::FromMessagePackOwned
        + PartialEq,
{
    let codecs: [Codec<'_>; 5] = [
        (
            "serde_json",
            &|b| serde_json::to_writer(b, value).unwrap(),
            &|b| {
                black_box(serde_json::from_slice::<T>(b).unwrap());
            },
        ),
        (
            "rmp-serde",
            &|b| rmp_serde::encode::write(b, value).unwrap(),
            &|b| {
                black_box(rmp_serde::from_slice::<T>(b).unwrap());
            },
        ),
        (
            "msgpacker",
            &|b| {
                value.pack(b);
            },
            &|b| {
                black_box(T::unpack(b).unwrap());
            },
        ),
        (
            "zerompk",
            &|b| zerompk::write_msgpack(b, value).unwrap(),
            &|b| {
                black_box(zerompk::from_msgpack::<T>(b).unwrap());
            },
        ),
        (
            "msgpack-serde",
            &|b| {
                value
                    .serialize(&mut msgpack_serde::Serializer::new(b))
                    .unwrap()
            },
            &|b| {
                black_box(msgpack_serde::from_slice::<T>(b).unwrap());
            },
        ),
    ];
    let encoded: Vec<Vec<u8>> = codecs
        .iter()
        .map(|(_, encode, _)| {
            let mut bytes = Vec::new();
            encode(&mut bytes);
            bytes
        })
        .collect();
    // Every codec in turn within each round (`time_interleaved`), as the
    // fixtures are timed, so that a slow spell falls on all of them.
    let mut buffers: Vec<Vec<u8>> = encoded
        .iter()
        .map(|b| Vec::with_capacity(b.len()))
        .collect();
    let encode_ns = time_all(
        budget,
        codecs
            .iter()
            .zip(&mut buffers)
            .map(|((_, encode, _), buffer)| {
                Box::new(move || {
                    buffer.clear();
                    encode(buffer);
                }) as Box<dyn FnMut()>
            })
            .collect(),
    );
    let decode_ns = time_all(
        budget,
        codecs
            .iter()
            .zip(&encoded)
            .map(|((_, _, decode), bytes)| Box::new(move || decode(bytes)) as Box<dyn FnMut()>)
            .collect(),
    );
    codecs
        .iter()
        .zip(&encoded)
        .zip(encode_ns.into_iter().zip(decode_ns))
        .map(
            |(((codec, _, _), bytes), (encode_ns, decode_ns))| Measured {
                codec,
                encode_ns,
                decode_ns,
                bytes: bytes.len(),
            },
        )
        .collect()
}

/// [`time_interleaved`] over boxed ops.
fn time_all(budget: Budget, mut ops: Vec<Box<dyn FnMut() + '_>>) -> Vec<f64> {
    let mut ops: Vec<&mut dyn FnMut()> = ops
        .iter_mut()
        .map(|op| &mut **op as &mut dyn FnMut())
        .collect();
    time_interleaved(budget, &mut ops)
}

/// Runs every type through every codec.
pub fn run_types(budget: Budget) -> Vec<TypeResult> {
    let string = "The quick brown fox jumps over the lazy dog, 0123456789 times!".to_string();
    let small: Vec<i64> = (1..=10).collect();
    let large: Vec<i64> = (0..1000).map(|i| i * 7919 % 100_003 - 50_000).collect();
    let map: BTreeMap<String, i64> = (0..32).map(|i| (format!("key_{i:02}"), i * 1000)).collect();
    let cases: Vec<(&'static str, Vec<Measured>)> = vec![
        ("integer", measure_one(budget, &1_234_567_890i64)),
        ("double", measure_one(budget, &std::f64::consts::PI)),
        ("string", measure_one(budget, &string)),
        ("small array", measure_one(budget, &small)),
        ("larger array", measure_one(budget, &large)),
        ("map", measure_one(budget, &map)),
    ];
    let mut results = Vec::new();
    for (type_name, measured) in cases {
        let json = &measured[0];
        for m in &measured {
            results.push(TypeResult {
                type_name,
                codec: m.codec,
                encode_percent: 100.0 * m.encode_ns / json.encode_ns,
                decode_percent: 100.0 * m.decode_ns / json.decode_ns,
                size_percent: 100.0 * m.bytes as f64 / json.bytes as f64,
            });
        }
    }
    results
}

/// The per-type results as a text table.
pub fn types_table(results: &[TypeResult]) -> String {
    let mut out = String::from("## per type, % of serde_json (lower is better)\n\n");
    out.push_str("| type | codec | encode | decode | size |\n|---|---|--:|--:|--:|\n");
    for r in results {
        let _ = writeln!(
            out,
            "| {} | {} | {:.0}% | {:.0}% | {:.0}% |",
            r.type_name, r.codec, r.encode_percent, r.decode_percent, r.size_percent
        );
    }
    out
}
