//! The media types this crate speaks, and how a `Content-Type` is read.

use http::header::{HeaderMap, CONTENT_TYPE};
use mediatype::MediaType;

/// `application/msgpack`: what MessagePack responses are labelled when the
/// client named no other MessagePack type.
pub const APPLICATION_MSGPACK: &str = "application/msgpack";
/// `application/x-msgpack`: the unregistered name many clients still send.
pub const APPLICATION_X_MSGPACK: &str = "application/x-msgpack";
/// `application/vnd.msgpack`: the name registered with IANA.
pub const APPLICATION_VND_MSGPACK: &str = "application/vnd.msgpack";
/// `application/json`.
pub const APPLICATION_JSON: &str = "application/json";

/// The MessagePack types a request body may have, as listed in `415`
/// responses and their `Accept` hint (any `+msgpack` type is taken too).
pub const MSGPACK_TYPES: [&str; 3] = [
    APPLICATION_MSGPACK,
    APPLICATION_X_MSGPACK,
    APPLICATION_VND_MSGPACK,
];

/// The three registered MessagePack types and `*/*+msgpack`, as the
/// `Accept` hint of a `415` response.
pub(crate) const MSGPACK_ACCEPT_HINT: &str =
    "application/msgpack, application/x-msgpack, application/vnd.msgpack, */*+msgpack";

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
        None if ["msgpack", "x-msgpack", "vnd.msgpack"]
            .iter()
            .any(|name| subty.eq_ignore_ascii_case(name)) =>
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
