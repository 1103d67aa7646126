//! Writes `msgpack-cli/tests/data/document.msgpack`: the `document`
//! fixture as `to_vec` writes it (structs as maps keyed by field name),
//! which msgpack-cli's tests run `inspect --summary` on.
//!
//! ```sh
//! cargo run -p msgpack-benches --example cli_document
//! ```

use msgpack_benches::fixtures;

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../msgpack-cli/tests/data/document.msgpack"
    );
    let bytes = msgpack_serde::to_vec(&fixtures::document()).expect("the fixture encodes");
    std::fs::write(path, &bytes).expect("msgpack-cli/tests/data is writable");
    println!("wrote {} bytes to {path}", bytes.len());
}
