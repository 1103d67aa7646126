//! One value of the per-type table (`msgpack-bench --types`), encoded or
//! decoded many times by msgpack-serde or zerompk, for a profiler or a
//! quick timing:
//!
//! ```sh
//! cargo build --release -p msgpack-benches --example types_profile
//! valgrind --tool=callgrind target/release/examples/types_profile large ours decode 100
//! TIME=1 target/release/examples/types_profile floats zero decode 50000  # ns a call
//! ```
//!
//! Values: `integer` (an i64), `double` (an f64), `string` (62 bytes), `small` (`Vec<i64>` of 1 to 10), `large`
//! (`Vec<i64>` of 1,000 mixed widths, the table's "larger array"), `map`
//! (`BTreeMap<String, i64>` of 32 entries) and
//! `floats` (`Vec<f32>` of 768, an embedding).

use std::hint::black_box;
use std::time::Instant;

/// Runs `step` `count` times, in a function of its own per closure.
#[inline(never)]
fn repeat(count: u64, mut step: impl FnMut()) {
    for _ in 0..count {
        step();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, name, codec, op, count] = &args[..] else {
        eprintln!(
            "usage: types_profile integer|double|string|small|large|map|floats ours|zero encode|decode COUNT"
        );
        std::process::exit(2);
    };
    let count: u64 = count.parse().expect("COUNT is a number");
    macro_rules! run {
        ($value:expr, $ty:ty) => {{
            let value: $ty = $value;
            let ours = msgpack_serde::to_vec(&value).unwrap();
            let zero = zerompk::to_msgpack_vec(&value).unwrap();
            let mut out = Vec::new();
            let began = Instant::now();
            // One loop per codec and operation, as `msgpack-bench --types`
            // runs one closure per codec: no dispatch inside the loop.
            match (codec.as_str(), op.as_str()) {
                ("ours", "decode") => repeat(count, || {
                    black_box(msgpack_serde::from_slice::<$ty>(black_box(&ours)).unwrap());
                }),
                ("zero", "decode") => repeat(count, || {
                    black_box(zerompk::from_msgpack::<$ty>(black_box(&zero)).unwrap());
                }),
                ("ours", "encode") => repeat(count, || {
                    out.clear();
                    msgpack_serde::to_writer(&mut out, black_box(&value)).unwrap();
                }),
                ("zero", "encode") => repeat(count, || {
                    out.clear();
                    zerompk::write_msgpack(&mut out, black_box(&value)).unwrap();
                }),
                _ => panic!("codec is ours or zero, op encode or decode"),
            }
            black_box(out);
            if std::env::var_os("TIME").is_some() {
                let ns = began.elapsed().as_nanos() as f64 / count.max(1) as f64;
                println!("{name} {codec} {op}: {ns:.1} ns");
            }
        }};
    }
    match name.as_str() {
        "integer" => run!(1_234_567_890, i64),
        "double" => run!(std::f64::consts::PI, f64),
        "string" => run!(
            "The quick brown fox jumps over the lazy dog, 0123456789 times!".to_string(),
            String
        ),
        "small" => run!((1..=10).collect(), Vec<i64>),
        "large" => run!(
            (0..1000).map(|i| i * 7919 % 100_003 - 50_000).collect(),
            Vec<i64>
        ),
        "map" => run!(
            (0..32).map(|i| (format!("key_{i:02}"), i * 1000)).collect(),
            std::collections::BTreeMap<String, i64>
        ),
        "floats" => run!(
            (0..768).map(|i| (i as f32 * 0.37).sin()).collect(),
            Vec<f32>
        ),
        _ => panic!("value is integer, double, string, small, large, map or floats"),
    }
}
