//! The best time of many rounds of one operation, for each of our codecs
//! and zerompk on one fixture, taking turns: on a noisy machine the best
//! round is steadier than a mean, and the turns put each codec in the
//! same stretch of noise.
//!
//! ```sh
//! cargo build --release -p msgpack-benches --example best_of
//! target/release/examples/best_of mesh decode 15 2        # 15 rounds of 2 decodes
//! target/release/examples/best_of document encode 30 2000
//! ```

use std::time::Instant;

use msgpack_benches::codecs::codecs_for;

/// The codecs compared, zerompk last: the ratios are to it. zerompk's
/// map form (keys by field name) sits beside our named mode's time.
const CODECS: [&str; 6] = [
    "msgpack-serde compact",
    "msgpack-serde named",
    "msgpack-serde derive map",
    "msgpack-serde derive array",
    "zerompk map",
    "zerompk",
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, fixture, op, rounds, per_round] = &args[..] else {
        eprintln!("usage: best_of FIXTURE encode|decode ROUNDS OPERATIONS_PER_ROUND");
        std::process::exit(2);
    };
    let rounds: u32 = rounds.parse().expect("ROUNDS is a number");
    let per_round: u32 = per_round.parse().expect("OPERATIONS_PER_ROUND is a number");
    let encode = match op.as_str() {
        "encode" => true,
        "decode" => false,
        _ => panic!("the operation is encode or decode"),
    };
    let codecs = codecs_for(fixture).expect("a built-in fixture");
    let codecs: Vec<_> = CODECS
        .iter()
        .map(|name| codecs.iter().find(|c| c.name == *name).expect("a codec"))
        .collect();
    let mut best = [f64::MAX; CODECS.len()];
    for _ in 0..rounds {
        for (codec, best) in codecs.iter().zip(&mut best) {
            let bytes = (codec.encode_fresh)();
            let mut buffer = Vec::with_capacity(bytes.len());
            let start = Instant::now();
            for _ in 0..per_round {
                if encode {
                    buffer.clear();
                    (codec.encode)(&mut buffer);
                } else {
                    (codec.decode)(&bytes);
                }
            }
            *best = best.min(start.elapsed().as_secs_f64() / f64::from(per_round));
        }
    }
    let zerompk = best[CODECS.len() - 1];
    for (name, best) in CODECS.iter().zip(best) {
        println!(
            "{fixture} {op} {name}: {:.1} ns ({:.2}x zerompk)",
            best * 1e9,
            best / zerompk
        );
    }
}
