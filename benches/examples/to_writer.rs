//! Appending one value to a reused `Vec<u8>`, every way msgpack-serde
//! offers, on each fixture (compact mode): `cargo run --release -p
//! msgpack-benches --example to_writer`. The best of five runs, per
//! value.
//!
//! - `Serializer::with_config(&mut vec, ..)`: in place, the fast path.
//! - `to_writer_compact(&mut vec, ..)`: in place since issue 14 (it
//!   used a per-thread buffer, then one `write_all`).
//! - `to_vec_compact` then `write_all`: what `to_writer` did first.
//! - `Serializer::from_writer_with_config(&mut vec, ..)`: in place
//!   through `msgpack_core::IoWriter`, which sees the vector behind
//!   `std::io::Write`.

use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

use msgpack_benches::fixtures;
use msgpack_serde::{Config, Serializer};
use serde::Serialize;

/// The best time per call of `f` over five runs of `iterations`.
fn time(iterations: u32, mut f: impl FnMut(&mut Vec<u8>)) -> f64 {
    let mut out = Vec::new();
    for _ in 0..iterations / 10 + 1 {
        out.clear();
        f(&mut out);
    }
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..iterations {
            out.clear();
            f(black_box(&mut out));
        }
        best = best.min(start.elapsed().as_secs_f64() / iterations as f64);
    }
    best
}

fn row<T: Serialize>(name: &str, value: &T, iterations: u32) {
    let compact = Config::compact();
    let in_place = time(iterations, |out| {
        value
            .serialize(&mut Serializer::with_config(out, compact))
            .unwrap()
    });
    let to_writer = time(iterations, |out| {
        msgpack_serde::to_writer_compact(out, value).unwrap()
    });
    let copied = time(iterations, |out| {
        let bytes = msgpack_serde::to_vec_compact(value).unwrap();
        out.write_all(&bytes).unwrap()
    });
    let io_write = time(iterations, |out| {
        let writer: &mut Vec<u8> = out;
        value
            .serialize(&mut Serializer::from_writer_with_config(writer, compact))
            .unwrap()
    });
    let show = |t: f64| {
        if t < 1e-6 {
            format!("{:.0} ns ({:.2}x)", t * 1e9, t / in_place)
        } else {
            format!("{:.1} µs ({:.2}x)", t * 1e6, t / in_place)
        }
    };
    println!(
        "| {name} | {} | {} | {} | {} |",
        show(in_place),
        show(to_writer),
        show(copied),
        show(io_write)
    );
}

fn main() {
    println!("| fixture | Serializer into &mut Vec | to_writer_compact | to_vec_compact + write_all | Serializer::from_writer |");
    println!("|---|--:|--:|--:|--:|");
    row("document", &fixtures::document(), 200_000);
    row("api_profile", &fixtures::api_profile(), 200_000);
    row("logs", &fixtures::logs(), 200);
    row("mesh", &fixtures::mesh(), 50);
    row("ints", &fixtures::ints(), 200);
}
