//! criterion benches: every fixture x codec x operation.
//!
//! `cargo bench -p msgpack-benches` (all), or a filter such as
//! `cargo bench -p msgpack-benches -- document/msgpack-serde`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use msgpack_benches::codecs::codecs_for;
use msgpack_benches::fixtures::NAMES;

fn codecs(c: &mut Criterion) {
    for fixture in NAMES {
        let mut group = c.benchmark_group(fixture);
        group
            .measurement_time(Duration::from_secs(2))
            .warm_up_time(Duration::from_millis(500))
            .sample_size(20);
        for codec in codecs_for(fixture).expect("built-in fixture") {
            let bytes = (codec.encode_fresh)();
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            let mut buffer = Vec::with_capacity(bytes.len());
            group.bench_function(format!("{}/encode", codec.name), |b| {
                b.iter(|| {
                    buffer.clear();
                    (codec.encode)(&mut buffer);
                })
            });
            group.bench_function(format!("{}/encode new Vec", codec.name), |b| {
                b.iter(|| (codec.encode_fresh)())
            });
            group.bench_function(format!("{}/decode", codec.name), |b| {
                b.iter(|| (codec.decode)(&bytes))
            });
            if let Some(decode) = &codec.decode_borrowed {
                group.bench_function(format!("{}/decode borrowed", codec.name), |b| {
                    b.iter(|| decode(&bytes))
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, codecs);
criterion_main!(benches);
