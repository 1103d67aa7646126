//! Runs one operation of one codec on one fixture many times, for a
//! profiler: `valgrind --tool=callgrind target/release/examples/profile
//! document "msgpack-serde compact" encode 10000`.

use msgpack_benches::codecs::codecs_for;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, fixture, codec, op, count] = &args[..] else {
        eprintln!("usage: profile FIXTURE CODEC encode|decode|borrowed COUNT");
        std::process::exit(2);
    };
    let count: u64 = count.parse().expect("COUNT is a number");
    let codecs = codecs_for(fixture).expect("a built-in fixture");
    let codec = codecs
        .iter()
        .find(|c| c.name == codec)
        .expect("a codec name from the tables");
    let bytes = (codec.encode_fresh)();
    let mut buffer = Vec::with_capacity(bytes.len());
    for _ in 0..count {
        match op.as_str() {
            "encode" => {
                buffer.clear();
                (codec.encode)(&mut buffer);
            }
            "decode" => (codec.decode)(&bytes),
            "borrowed" => (codec.decode_borrowed.as_ref().expect("a borrowed decoder"))(&bytes),
            _ => panic!("op is encode, decode or borrowed"),
        }
    }
}
