//! A `BTreeMap<String, i64>` or a `BTreeSet<String>` decoded by
//! msgpack-serde many times, from a map or array whose keys arrive in
//! order, in reverse or shuffled: the time a decode, for comparing builds
//! (`benches/RESULTS.md`, step 30).
//!
//! ```sh
//! cargo build --release -p msgpack-benches --example btree_order
//! target/release/examples/btree_order map shuffled 1000 3000   # KIND ORDER ENTRIES COUNT
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, kind, order, entries, count] = &args[..] else {
        eprintln!("usage: btree_order map|set sorted|reversed|shuffled ENTRIES COUNT");
        std::process::exit(2);
    };
    let entries: usize = entries.parse().expect("ENTRIES is a number");
    let count: u64 = count.parse().expect("COUNT is a number");
    let mut pairs: Vec<(String, i64)> = (0..entries)
        .map(|i| (format!("key-{i:05}"), i as i64 * 7919))
        .collect();
    match order.as_str() {
        "sorted" => {}
        "reversed" => pairs.reverse(),
        "shuffled" => {
            // A fixed xorshift, so that every build reads the same bytes.
            let mut state = 0x2545_f491_4f6c_dd1d_u64;
            for i in (1..pairs.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                pairs.swap(i, (state % (i as u64 + 1)) as usize);
            }
        }
        _ => panic!("ORDER is sorted, reversed or shuffled"),
    }
    let keys: Vec<&String> = pairs.iter().map(|(key, _)| key).collect();
    let mut bytes = Vec::new();
    msgpack_serde::core::encode::write_map_len(&mut bytes, entries).unwrap();
    for (key, value) in &pairs {
        bytes.extend(msgpack_serde::to_vec(key).unwrap());
        bytes.extend(msgpack_serde::to_vec(value).unwrap());
    }
    let began = match kind.as_str() {
        "map" => {
            let read: BTreeMap<String, i64> = msgpack_serde::from_slice(&bytes).unwrap();
            assert_eq!(read, pairs.iter().cloned().collect());
            let began = Instant::now();
            for _ in 0..count {
                black_box(
                    msgpack_serde::from_slice::<BTreeMap<String, i64>>(black_box(&bytes)).unwrap(),
                );
            }
            began
        }
        "set" => {
            let bytes = msgpack_serde::to_vec(&keys).unwrap();
            let read: BTreeSet<String> = msgpack_serde::from_slice(&bytes).unwrap();
            assert_eq!(read, keys.iter().map(|key| key.to_string()).collect());
            let began = Instant::now();
            for _ in 0..count {
                black_box(
                    msgpack_serde::from_slice::<BTreeSet<String>>(black_box(&bytes)).unwrap(),
                );
            }
            began
        }
        _ => panic!("KIND is map or set"),
    };
    let ns = began.elapsed().as_nanos() as f64 / count.max(1) as f64;
    println!("{kind} {order} {entries}: {ns:.1} ns");
}
