//! Runs every operation of every codec on a fixture.

use std::io::{Read, Write};
use std::time::Duration;

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use serde::Serialize;

use crate::codecs::{codecs_for, Codec};
use crate::measure::{time_per_iteration, Budget};

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
/// the fixture `name`; `progress` hears about each codec as it starts.
/// `None` for an unknown fixture.
pub fn run_fixture(
    name: &str,
    budget: Budget,
    filter: &str,
    mut progress: impl FnMut(&str),
) -> Option<FixtureResult> {
    let codecs = codecs_for(name)?;
    let results = codecs
        .iter()
        .filter(|codec| codec.name.contains(filter))
        .map(|codec| {
            progress(codec.name);
            run_codec(codec, budget)
        })
        .collect();
    Some(FixtureResult {
        fixture: name.to_string(),
        codecs: results,
    })
}

fn run_codec(codec: &Codec, budget: Budget) -> CodecResult {
    let bytes = (codec.encode_fresh)();
    assert!((codec.verify)(&bytes), "{} does not round-trip", codec.name);
    let gzipped = gzip(&bytes);
    let mut buffer = Vec::with_capacity(bytes.len());
    let encode_ns = time_per_iteration(budget, || {
        buffer.clear();
        (codec.encode)(&mut buffer);
    });
    let encode_fresh_ns = time_per_iteration(budget, || {
        drop(std::hint::black_box((codec.encode_fresh)()))
    });
    let decode_ns = time_per_iteration(budget, || (codec.decode)(&bytes));
    let decode_borrowed_ns = codec
        .decode_borrowed
        .as_ref()
        .map(|decode| time_per_iteration(budget, || decode(&bytes)));
    // Compression is not what is compared: a tenth of the budget will do.
    let light = Budget {
        iterations: (budget.iterations / 10).max(1),
        max_time: budget.max_time / 4,
    };
    let gzip_ns = time_per_iteration(light, || drop(std::hint::black_box(gzip(&bytes))));
    let gunzip_ns = time_per_iteration(light, || drop(std::hint::black_box(gunzip(&gzipped))));
    CodecResult {
        codec: codec.name,
        bytes: bytes.len(),
        gzip_bytes: gzipped.len(),
        gzip_ns,
        gunzip_ns,
        encode_ns,
        encode_fresh_ns,
        decode_ns,
        decode_borrowed_ns,
        round_trips_per_sec: 1e9 / (encode_ns + decode_ns),
    }
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
