//! Reading a request body under the size limit, and decoding it under the
//! depth and value limits.

use axum::extract::Request;
use bytes::Bytes;
use http::header::{CONTENT_ENCODING, CONTENT_LENGTH};
use http::request::Parts;
use http_body_util::BodyExt;
use serde::de::DeserializeOwned;

use crate::frames::Frames;
use crate::json_limits;
use crate::limits::RequestLimits;
use crate::rejection::MsgPackRejection;

/// A request's head and its whole body, read under the size limit in force.
pub(crate) struct Received {
    pub(crate) parts: Parts,
    pub(crate) body: Bytes,
    pub(crate) limits: RequestLimits,
}

/// Reads the body: refused before reading when its `Content-Length` is
/// over the limit, and as soon as the bytes read pass it (a chunked or
/// decompressed body), or a body limit layered outside the extractor
/// (tower-http's `RequestBodyLimitLayer`) stops it: `413` either way, as
/// axum's own extractors answer. An empty body is refused too, and a
/// body in a content coding (`Content-Encoding: gzip` with no
/// decompression layer to remove it) is a `415`.
pub(crate) async fn receive(request: Request) -> Result<Received, MsgPackRejection> {
    let (mut parts, mut body) = request.into_parts();
    if let Some(coding) = parts.headers.get(CONTENT_ENCODING) {
        if !coding.as_bytes().eq_ignore_ascii_case(b"identity") {
            let coding = String::from_utf8_lossy(coding.as_bytes()).into_owned();
            return Err(MsgPackRejection::unsupported_coding(
                &parts.headers,
                &coding,
            ));
        }
    }
    let limits = RequestLimits::of(&parts.extensions);
    let limit = limits
        .body_limit(&mut parts.extensions)
        .unwrap_or(usize::MAX);
    let declared = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(MsgPackRejection::too_large(&parts.headers, limit));
    }

    // A declared length is a hint for the buffer, never trusted past the
    // limit: with no limit it could be a terabyte.
    let mut frames = Frames::new(
        declared.and_then(|length| usize::try_from(length).ok()),
        limit,
    );
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|error| not_read(&parts.headers, error))?;
        let Ok(data) = frame.into_data() else {
            continue; // trailers
        };
        if frames.len().saturating_add(data.len()) > limit {
            return Err(MsgPackRejection::too_large(&parts.headers, limit));
        }
        frames.push(data);
    }
    let body = frames.into_bytes();
    if body.is_empty() {
        return Err(MsgPackRejection::empty(&parts.headers));
    }
    Ok(Received {
        parts,
        body,
        limits,
    })
}

/// Why the body did not arrive: `413` when a body limit layered around
/// the route stopped it (`http_body_util::Limited`'s error, anywhere in
/// the error's sources), else `400`.
#[cold]
fn not_read(headers: &http::HeaderMap, error: axum::Error) -> MsgPackRejection {
    let error = error.into_inner();
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&*error);
    while let Some(cause) = source {
        if cause.is::<http_body_util::LengthLimitError>() {
            return MsgPackRejection::too_large_outside(headers);
        }
        source = cause.source();
    }
    MsgPackRejection::read_failed(headers, &error)
}

/// Decodes exactly one `T` from a MessagePack body under the depth and
/// value limits; trailing bytes are an error.
pub(crate) fn decode_msgpack<T: DeserializeOwned>(
    received: &Received,
) -> Result<T, MsgPackRejection> {
    let mut deserializer = msgpack_serde::Deserializer::from_slice(&received.body)
        .with_limits(received.limits.decode_limits());
    msgpack_serde::__private::deserialize_placed(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value))
        .map_err(|error| MsgPackRejection::msgpack(&received.parts.headers, &error))
}

/// Decodes exactly one `T` from a JSON body, under the depth and value
/// limits as a MessagePack body is.
pub(crate) fn decode_json<T: DeserializeOwned>(received: &Received) -> Result<T, MsgPackRejection> {
    let headers = &received.parts.headers;
    if let Ok(Err(exceeded)) = json_limits::check(&received.body, &received.limits) {
        return Err(MsgPackRejection::json_limit(headers, exceeded));
    }
    serde_json::from_slice(&received.body).map_err(|error| MsgPackRejection::json(headers, &error))
}
