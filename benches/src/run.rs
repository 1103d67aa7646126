//! Runs every operation of every codec on a fixture.

use std::io::{Read, Write};
use std::time::Duration;

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use serde::Serialize;

use crate::codecs::{codecs_for, Codec};
use crate::measure::{time_interleaved, Budget};

/// What one codec measured on one fixture. Times are nanoseconds per
/// iteration (medians).
#[derive(Clone, Debug, Serialize)]
pub struct CodecResult {
    /// The codec.
    pub codec: &'static str,
    /// Encoded bytes.
    pub bytes: usize,
    /// Encoded bytes after gzip (default level).
    pub gzip_bytes: usize,
    /// Time to gzip the encoded bytes.
    pub gzip_ns: f64,
    /// Time to gunzip them.
    pub gunzip_ns: f64,
    /// Encode into a reused buffer.
    pub encode_ns: f64,
    /// Encode into a new `Vec`.
    pub encode_fresh_ns: f64,
    /// Decode into owned types.
    pub decode_ns: f64,
    /// Decode into borrowed types, where the codec can.
    pub decode_borrowed_ns: Option<f64>,
    /// Encode plus decode, per second.
    pub round_trips_per_sec: f64,
}

/// Every codec's results on one fixture.
#[derive(Clone, Debug, Serialize)]
pub struct FixtureResult {
    /// The fixture's name.
    pub fixture: String,
    /// One entry per codec, the reference first.
    pub codecs: Vec<CodecResult>,
}

/// Measures the codecs whose names contain `filter` (all when empty) on
/// the fixture `name`; `progress` hears about each operation as it
/// starts. Each operation is timed for all codecs together, their batches
/// in turn (see [`time_interleaved`]). `None` for an unknown fixture.
pub fn run_fixture(
    name: &str,
    budget: Budget,
    filter: &str,
    mut progress: impl FnMut(&str),
) -> Option<FixtureResult> {
    let all = codecs_for(name)?;
    let codecs: Vec<&Codec> = all
        .iter()
        .filter(|codec| codec.name.contains(filter))
        .collect();
    let encoded: Vec<Vec<u8>> = codecs
        .iter()
        .map(|codec| {
            let bytes = (codec.encode_fresh)();
            assert!((codec.verify)(&bytes), "{} does not round-trip", codec.name);
            bytes
        })
        .collect();
    let gzipped: Vec<Vec<u8>> = encoded.iter().map(|bytes| gzip(bytes)).collect();

    progress("encode");
    let mut buffers: Vec<Vec<u8>> = encoded
        .iter()
        .map(|b| Vec::with_capacity(b.len()))
        .collect();
    let encode_ns = {
        let mut ops: Vec<Box<dyn FnMut() + '_>> = codecs
            .iter()
            .zip(&mut buffers)
            .map(|(codec, buffer)| {
                Box::new(move || {
                    buffer.clear();
                    (codec.encode)(buffer);
                }) as Box<dyn FnMut()>
            })
            .collect();
        interleaved(budget, &mut ops)
    };
    progress("encode into a new Vec");
    let encode_fresh_ns = interleaved(
        budget,
        &mut ops(&codecs, |codec| {
            Box::new(move || drop(std::hint::black_box((codec.encode_fresh)())))
        }),
    );
    progress("decode");
    let decode_ns = interleaved(
        budget,
        &mut ops_on(&codecs, &encoded, |codec, bytes| {
            Box::new(move || (codec.decode)(bytes))
        }),
    );
    progress("decode borrowed");
    let borrowing: Vec<(&Codec, &Vec<u8>)> = codecs
        .iter()
        .copied()
        .zip(&encoded)
        .filter(|(codec, _)| codec.decode_borrowed.is_some())
        .collect();
    let mut borrowed_ops: Vec<Box<dyn FnMut() + '_>> = borrowing
        .iter()
        .map(|&(codec, bytes)| {
            let decode = codec.decode_borrowed.as_ref().expect("filtered above");
            Box::new(move || decode(bytes)) as Box<dyn FnMut()>
        })
        .collect();
    let mut borrowed_ns = interleaved(budget, &mut borrowed_ops).into_iter();
    // Compression is not what is compared: a tenth of the budget will do.
    let light = Budget {
        iterations: (budget.iterations / 10).max(1),
        max_time: budget.max_time / 4,
    };
    progress("gzip");
    let gzip_ns = interleaved(
        light,
        &mut ops_on(&codecs, &encoded, |_, bytes| {
            Box::new(move || drop(std::hint::black_box(gzip(bytes))))
        }),
    );
    let gunzip_ns = interleaved(
        light,
        &mut ops_on(&codecs, &gzipped, |_, bytes| {
            Box::new(move || drop(std::hint::black_box(gunzip(bytes))))
        }),
    );

    let results = codecs
        .iter()
        .enumerate()
        .map(|(i, codec)| CodecResult {
            codec: codec.name,
            bytes: encoded[i].len(),
            gzip_bytes: gzipped[i].len(),
            gzip_ns: gzip_ns[i],
            gunzip_ns: gunzip_ns[i],
            encode_ns: encode_ns[i],
            encode_fresh_ns: encode_fresh_ns[i],
            decode_ns: decode_ns[i],
            decode_borrowed_ns: codec
                .decode_borrowed
                .as_ref()
                .and_then(|_| borrowed_ns.next()),
            round_trips_per_sec: 1e9 / (encode_ns[i] + decode_ns[i]),
        })
        .collect();
    Some(FixtureResult {
        fixture: name.to_string(),
        codecs: results,
    })
}

/// One boxed operation per codec.
fn ops<'a>(
    codecs: &[&'a Codec],
    op: impl Fn(&'a Codec) -> Box<dyn FnMut() + 'a>,
) -> Vec<Box<dyn FnMut() + 'a>> {
    codecs.iter().map(|&codec| op(codec)).collect()
}

/// One boxed operation per codec, on that codec's bytes.
fn ops_on<'a>(
    codecs: &[&'a Codec],
    bytes: &'a [Vec<u8>],
    op: impl Fn(&'a Codec, &'a [u8]) -> Box<dyn FnMut() + 'a>,
) -> Vec<Box<dyn FnMut() + 'a>> {
    codecs
        .iter()
        .zip(bytes)
        .map(|(&codec, bytes)| op(codec, bytes))
        .collect()
}

fn interleaved(budget: Budget, ops: &mut [Box<dyn FnMut() + '_>]) -> Vec<f64> {
    let mut ops: Vec<&mut dyn FnMut()> = ops
        .iter_mut()
        .map(|op| &mut **op as &mut dyn FnMut())
        .collect();
    time_interleaved(budget, &mut ops)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder
        .write_all(bytes)
        .expect("writing to a Vec cannot fail");
    encoder.finish().expect("writing to a Vec cannot fail")
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("our own gzip output is valid");
    out
}

/// A budget of `iterations` per operation, capped at `max_time`.
pub fn budget(iterations: u64, max_time: Duration) -> Budget {
    Budget {
        iterations,
        max_time,
    }
}
