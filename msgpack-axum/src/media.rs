//! The media types this crate speaks, and how a `Content-Type` is read.

use std::sync::LazyLock;

use http::header::{HeaderMap, CONTENT_TYPE};
use mediatype::MediaType;

/// The MessagePack media types by name: the one table that the
/// `Content-Type` parser, the `Accept` fast path, the types a `406` offers,
/// the `Accept` hint of a `415` and the docs read (any `+msgpack` type is
/// taken too). The first is the label of MessagePack responses when the
/// client named no other. Adding a name is adding a line here; a test
/// checks that every reader sees it.
///
/// ```
/// assert!(msgpack_axum::MSGPACK_TYPES.contains(&"application/vnd.msgpack"));
/// ```
pub const MSGPACK_TYPES: [&str; 3] = [
    "application/msgpack",
    "application/x-msgpack",
    "application/vnd.msgpack",
];

/// `application/msgpack`: what MessagePack responses are labelled when the
/// client named no other MessagePack type.
pub const APPLICATION_MSGPACK: &str = MSGPACK_TYPES[0];
/// `application/x-msgpack`: the unregistered name many clients still send.
pub const APPLICATION_X_MSGPACK: &str = MSGPACK_TYPES[1];
/// `application/vnd.msgpack`: the name registered with IANA.
pub const APPLICATION_VND_MSGPACK: &str = MSGPACK_TYPES[2];
/// `application/json`.
pub const APPLICATION_JSON: &str = "application/json";

/// The subtype of a name of [`MSGPACK_TYPES`]: all are `application/...`,
/// which the table's test checks.
pub(crate) const fn msgpack_subtype(name: &'static str) -> &'static str {
    let (_, subtype) = name.as_bytes().split_at("application/".len());
    match std::str::from_utf8(subtype) {
        Ok(subtype) => subtype,
        Err(_) => panic!("a MessagePack type is ASCII"),
    }
}

/// The `Accept` hint (and message) of a `415` from
/// [`MsgPack`](crate::MsgPack): every name of [`MSGPACK_TYPES`] and
/// `*/*+msgpack`.
pub(crate) fn msgpack_accept_hint() -> &'static str {
    static HINT: LazyLock<String> =
        LazyLock::new(|| [&MSGPACK_TYPES[..], &["*/*+msgpack"]].concat().join(", "));
    &HINT
}

/// The `Accept` hint (and message) of a `415` from
/// [`Negotiated`](crate::Negotiated): JSON, every name of
/// [`MSGPACK_TYPES`], `*/*+json` and `*/*+msgpack`.
pub(crate) fn negotiated_accept_hint() -> &'static str {
    static HINT: LazyLock<String> = LazyLock::new(|| {
        [
            &[APPLICATION_JSON][..],
            &MSGPACK_TYPES,
            &["*/*+json", "*/*+msgpack"],
        ]
        .concat()
        .join(", ")
    });
    &HINT
}

/// What a media type is, for this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `application/json` or any `+json` type.
    Json,
    /// One of [`MSGPACK_TYPES`] or any `+msgpack` type.
    MsgPack,
    /// Anything else.
    Other,
}

/// Classifies a parsed media type; parameters (`charset`, `q`) are ignored,
/// and names compare without regard to case.
pub(crate) fn kind(media: &MediaType<'_>) -> Kind {
    let ty = media.ty.as_str();
    let subty = media.subty.as_str();
    match media.suffix {
        Some(suffix) if suffix.as_str().eq_ignore_ascii_case("msgpack") => Kind::MsgPack,
        Some(suffix) if suffix.as_str().eq_ignore_ascii_case("json") => Kind::Json,
        Some(_) => Kind::Other,
        None if !ty.eq_ignore_ascii_case("application") => Kind::Other,
        None if MSGPACK_TYPES
            .iter()
            .any(|name| subty.eq_ignore_ascii_case(msgpack_subtype(name))) =>
        {
            Kind::MsgPack
        }
        None if subty.eq_ignore_ascii_case("json") => Kind::Json,
        None => Kind::Other,
    }
}

/// The kind of the message's `Content-Type`; `None` when it is absent or
/// not a media type.
pub(crate) fn content_kind(headers: &HeaderMap) -> Option<Kind> {
    let value = headers.get(CONTENT_TYPE)?.to_str().ok()?;
    MediaType::parse(value).ok().map(|media| kind(&media))
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    #[track_caller]
    fn check(content_type: &str, expected: Option<Kind>) {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_str(content_type).unwrap());
        assert_eq!(content_kind(&headers), expected, "{content_type}");
    }

    #[test]
    fn every_messagepack_name_and_the_suffix_are_messagepack() {
        check("application/msgpack", Some(Kind::MsgPack));
        check("application/x-msgpack", Some(Kind::MsgPack));
        check("application/vnd.msgpack", Some(Kind::MsgPack));
        check("application/vnd.acme.order+msgpack", Some(Kind::MsgPack));
        check("Application/MsgPack", Some(Kind::MsgPack));
    }

    #[test]
    fn parameters_are_ignored() {
        check("application/msgpack; charset=utf-8", Some(Kind::MsgPack));
        check("application/json;charset=UTF-8", Some(Kind::Json));
    }

    #[test]
    fn json_and_its_suffix_are_json() {
        check("application/json", Some(Kind::Json));
        check("application/problem+json", Some(Kind::Json));
    }

    #[test]
    fn other_types_and_garbage() {
        check("text/plain", Some(Kind::Other));
        check("text/msgpack", Some(Kind::Other));
        check("application/octet-stream", Some(Kind::Other));
        check("msgpack", None);
        assert_eq!(content_kind(&HeaderMap::new()), None);
    }
}
