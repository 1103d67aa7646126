//! What the JSON targets check: msgpack-serde's JSON transcoder both ways
//! (what `NegotiateLayer` re-encodes and what `msgpack encode` and
//! `decode` convert), and `msgpack validate` against `decode`. One public
//! function per target, which must return normally whatever the input.
//!
//! Shared with `tests/tests/regression.rs`, which includes this file and
//! runs every function on every seed and every regression input.

use msgpack_core::{Limits, Reader, Timestamp, Value};
use msgpack_serde::json::{self, FromJson, ToJson, MAX_DEPTH};

/// The `json_to_msgpack` target: any bytes as JSON, plain and tagged.
/// Never a panic; what is written decodes; plain gives the bytes of
/// msgpack-serde's general serializer (through serde-transcode) and fails
/// where it fails; tagged output decoded and encoded again gives the same
/// bytes, and the same JSON as its first decoding.
pub fn json_to_msgpack(data: &[u8]) {
    let plain = json::to_msgpack(data, FromJson::plain());
    assert_eq!(
        plain.as_ref().ok(),
        general_serializer(data).as_ref(),
        "plain JSON: the in-place writer and the general serializer differ"
    );
    if let Ok(bytes) = &plain {
        decodes(bytes, Limits::DEFAULT_DEPTH);
    }
    for options in [FromJson::tagged(), FromJson::tagged().f32(true)] {
        let Ok(bytes) = json::to_msgpack(data, options) else {
            continue;
        };
        decodes(&bytes, MAX_DEPTH);
        let text = decode(&bytes).expect("what encode writes decodes");
        let again = json::to_msgpack(text.as_bytes(), FromJson::tagged())
            .unwrap_or_else(|error| panic!("decode wrote JSON encode refuses: {error}: {text}"));
        if in_smallest_form(&bytes) {
            assert_eq!(again, bytes, "decode | encode changed the bytes of {text}");
        }
        assert_eq!(
            decode(&again).expect("decodes"),
            text,
            "a second decode | encode changed the JSON"
        );
    }
}

/// The `msgpack_to_json` target: any bytes as MessagePack, through tagged
/// JSON and back. The value's bytes come back identical when they are in
/// smallest form; plain JSON is written for every value tagged JSON is;
/// and `validate` (with decode's depth, no value limit) and `decode`
/// agree on every input: the same verdict, the same end, the same first
/// problem at the same offset, but for invalid timestamps, which decode
/// writes as `$ext` and validate refuses.
pub fn msgpack_to_json(data: &[u8]) {
    let decoded = decode_prefix(data, ToJson::tagged());
    let limits = Limits::new().max_depth(MAX_DEPTH);
    let validated = msgpack_cli::check(data, 0, &limits);
    match (&validated, &decoded) {
        (Ok(end), Ok((_, decoded_end))) => {
            assert_eq!(end, decoded_end, "validate and decode end apart")
        }
        (Ok(_), Err(error)) => panic!("validate accepts what decode refuses: {error}"),
        (Err(problem), Ok(_)) => assert!(
            problem.text.starts_with("invalid timestamp at offset "),
            "decode accepts what validate refuses: {}",
            problem.text
        ),
        (Err(problem), Err(error)) => assert!(
            problem.text.starts_with("invalid timestamp at offset ")
                || problem.text.starts_with(&format!("{error}, at ")),
            "validate: {}; decode: {error}",
            problem.text
        ),
    }
    let Ok((text, end)) = decoded else {
        return;
    };
    let value = &data[..end];
    // Plain JSON refuses only keys nested too deep in keys.
    let plain = decode_prefix(value, ToJson::plain());
    assert!(
        plain.is_ok()
            || plain
                .as_ref()
                .is_err_and(|error| error.starts_with("map keys that are not strings nest deeper")),
        "tagged decodes, plain does not: {plain:?}"
    );
    let bytes = json::to_msgpack(text.as_bytes(), FromJson::tagged())
        .unwrap_or_else(|error| panic!("decode wrote JSON encode refuses: {error}: {text}"));
    if in_smallest_form(value) {
        assert_eq!(bytes, value, "decode | encode changed the bytes: {text}");
    }
    assert_eq!(
        decode(&bytes).as_deref(),
        Some(text.as_str()),
        "a second trip changed the JSON"
    );
}

/// The bytes of msgpack-serde's `Serializer` for the JSON, as the layer
/// wrote them before it had its own writer.
fn general_serializer(data: &[u8]) -> Option<Vec<u8>> {
    let mut deserializer = serde_json::Deserializer::from_slice(data);
    let mut serializer = msgpack_serde::Serializer::new(Vec::new());
    serde_transcode::transcode(&mut deserializer, &mut serializer).ok()?;
    deserializer.end().ok()?;
    Some(serializer.into_inner())
}

/// Asserts that `bytes` are one whole value nested at most `depth` deep.
fn decodes(bytes: &[u8], depth: usize) {
    let mut reader = Reader::with_limits(bytes, Limits::new().max_depth(depth)).unwrap();
    let decoded = msgpack_core::ValueRef::decode(&mut reader);
    assert!(
        decoded.is_ok(),
        "encode wrote what does not decode: {decoded:?}"
    );
    assert!(reader.is_empty(), "encode wrote bytes after the value");
}

/// The tagged JSON of the one value `bytes` hold, as `msgpack decode` writes
/// it; `None` when it is not one whole value.
fn decode(bytes: &[u8]) -> Option<String> {
    let (text, end) = decode_prefix(bytes, ToJson::tagged()).ok()?;
    (end == bytes.len()).then_some(text)
}

/// The JSON of the value at the start of `bytes` and where it ends, or the
/// error as `msgpack decode` words it.
fn decode_prefix(bytes: &[u8], options: ToJson) -> Result<(String, usize), String> {
    let mut reader = Reader::new(bytes);
    let mut out = Vec::new();
    json::write_json(
        &mut reader,
        options,
        &mut serde_json::Serializer::new(&mut out),
    )
    .map_err(|error| error.to_string())?;
    Ok((
        String::from_utf8(out).expect("JSON is UTF-8"),
        reader.position(),
    ))
}

/// Whether `bytes` are one value written the way msgpack-serde writes it:
/// every integer, string, bin, ext and container header in its smallest
/// form, every timestamp in its smallest form, every NaN the quiet NaN
/// (JSON keeps no NaN payload).
fn in_smallest_form(bytes: &[u8]) -> bool {
    let mut reader = Reader::with_limits(bytes, Limits::new().max_depth(MAX_DEPTH)).unwrap();
    let Ok(value) = Value::decode(&mut reader) else {
        return false;
    };
    if !reader.is_empty() || value.to_vec().ok().as_deref() != Some(bytes) {
        return false;
    }
    let mut pending = vec![&value];
    while let Some(value) = pending.pop() {
        match value {
            Value::F32(x) if x.is_nan() && x.to_bits() != f32::NAN.to_bits() => return false,
            Value::F64(x) if x.is_nan() && x.to_bits() != f64::NAN.to_bits() => return false,
            Value::Ext(-1, data)
                if Timestamp::from_ext_data(data).is_some_and(|ts| ts.to_ext_data() != *data) =>
            {
                return false;
            }
            Value::Array(items) => pending.extend(items),
            Value::Map(entries) => pending.extend(entries.iter().flat_map(|(k, v)| [k, v])),
            _ => {}
        }
    }
    true
}
