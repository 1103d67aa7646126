//! The layer's re-encoding of a JSON body as MessagePack: msgpack-serde's
//! JSON transcoder in its plain style (no tagged forms: a JSON API's
//! objects are maps, whatever their keys): bodies up to 64 KiB parsed
//! whole by simd-json, which counts every container before its entries,
//! anything else (and whatever simd-json refuses) written value by value
//! as serde_json reads it. Bytes and error messages are the same either way.

use std::fmt;

use msgpack_serde::json::{self, FromJson};

/// Re-encodes one JSON document as MessagePack: objects become maps keyed
/// by string, integers keep their exact value in the smallest form, other
/// numbers are the float 64 nearest them; no `serde_json::Value` is
/// built. The bytes are msgpack-serde's `Serializer`'s for the same data,
/// the errors serde_json's.
///
/// ```
/// let bytes = msgpack_axum::json_to_msgpack(br#"{"a":[1,true]}"#).unwrap();
/// assert_eq!(bytes, b"\x81\xa1a\x92\x01\xc3");
/// assert_eq!(
///     msgpack_axum::json_to_msgpack(b"1 2").unwrap_err().to_string(),
///     "trailing characters at line 1 column 3"
/// );
/// ```
pub fn json_to_msgpack(json: &[u8]) -> Result<Vec<u8>, TranscodeError> {
    json::to_msgpack(json, FromJson::plain()).map_err(|error| match std::str::from_utf8(json) {
        Err(utf8) => TranscodeError(format!("JSON is not UTF-8: {utf8}")),
        Ok(_) => TranscodeError(error.to_string()),
    })
}

/// Why a JSON document could not be re-encoded: it is not valid JSON, or
/// something follows it.
#[derive(Debug)]
pub struct TranscodeError(String);

impl fmt::Display for TranscodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TranscodeError {}

#[cfg(test)]
mod tests {
    use super::*;

    // The bytes, against msgpack-serde's serializer, are tested with the
    // transcoder (msgpack-serde/src/json/from_json.rs).

    #[test]
    fn json_that_is_not_utf8_is_an_error() {
        let error = json_to_msgpack(b"\"\xff\"").unwrap_err();
        assert_eq!(
            error.to_string(),
            "JSON is not UTF-8: invalid utf-8 sequence of 1 bytes from index 1"
        );
    }

    /// A handler's `f64`, written by `Json` and re-encoded here, is the
    /// same float: with msgpack-axum alone in a build, serde_json read
    /// the first a unit in the last place off.
    #[test]
    fn a_float_from_json_is_the_float_written() {
        for float in [
            -2.592_752_430_129_415_6e206_f64,
            0.1,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
        ] {
            let json = serde_json::to_vec(&float).unwrap();
            let bytes = json_to_msgpack(&json).unwrap();
            assert_eq!(
                msgpack_serde::from_slice::<f64>(&bytes).unwrap().to_bits(),
                float.to_bits()
            );
        }
    }

    #[test]
    fn invalid_json_and_trailing_bytes_are_errors() {
        assert_eq!(
            json_to_msgpack(b"{\"a\":").unwrap_err().to_string(),
            "EOF while parsing a value at line 1 column 5"
        );
        assert_eq!(
            json_to_msgpack(b"1 2").unwrap_err().to_string(),
            "trailing characters at line 1 column 3"
        );
    }
}
