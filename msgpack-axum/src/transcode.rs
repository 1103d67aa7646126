//! JSON to MessagePack, value by value, with no tree in between.

use msgpack_serde::{Config, Serializer};

/// Re-encodes one JSON document as MessagePack: serde_json's deserializer
/// drives msgpack-serde's serializer (`serde-transcode`), so strings pass
/// through borrowed and no `serde_json::Value` is built. Objects become
/// maps keyed by string; integers keep their exact value in the smallest
/// form; other numbers are float 64.
///
/// ```ignore
/// assert_eq!(json_to_msgpack(br#"{"a":[1,true]}"#).unwrap(), b"\x81\xa1a\x92\x01\xc3");
/// ```
pub(crate) fn json_to_msgpack(json: &[u8]) -> Result<Vec<u8>, Error> {
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let mut serializer = Serializer::with_config(Vec::with_capacity(json.len()), Config::named());
    serde_transcode::transcode(&mut deserializer, &mut serializer).map_err(Error::Transcode)?;
    deserializer.end().map_err(Error::Json)?;
    Ok(serializer.into_inner())
}

/// Why a body could not be re-encoded.
#[derive(Debug)]
pub(crate) enum Error {
    /// The JSON was invalid, or a value could not be written.
    Transcode(msgpack_serde::Error),
    /// Bytes followed the document.
    Json(serde_json::Error),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Transcode(error) => error.fmt(f),
            Error::Json(error) => error.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_json_type_in_its_smallest_form() {
        let json = br#"{"id":1042,"big":18446744073709551615,"neg":-9223372036854775808,"f":0.5,"t":true,"n":null,"s":"\u00e9","a":[]}"#;
        let mut expected = vec![0x88];
        expected.extend(b"\xa2id\xcd\x04\x12");
        expected.extend(b"\xa3big\xcf\xff\xff\xff\xff\xff\xff\xff\xff");
        expected.extend(b"\xa3neg\xd3\x80\x00\x00\x00\x00\x00\x00\x00");
        expected.extend(b"\xa1f\xcb\x3f\xe0\x00\x00\x00\x00\x00\x00");
        expected.extend(b"\xa1t\xc3\xa1n\xc0");
        expected.extend(b"\xa1s\xa2\xc3\xa9");
        expected.extend(b"\xa1a\x90");
        assert_eq!(json_to_msgpack(json).unwrap(), expected);
    }

    #[test]
    fn invalid_json_and_trailing_bytes_are_errors() {
        assert!(json_to_msgpack(b"{\"a\":").is_err());
        assert_eq!(
            json_to_msgpack(b"1 2").unwrap_err().to_string(),
            "trailing characters at line 1 column 3"
        );
    }
}
