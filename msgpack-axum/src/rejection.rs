//! Why a request body was refused: [`MsgPackRejection`] and the type of
//! each of its variants, and the negotiated error response.

use std::fmt;

use axum::body::Body;
use axum::response::{IntoResponse, Response};
use http::header::{HeaderMap, HeaderValue, ACCEPT, CONTENT_TYPE};
use http::StatusCode;
use msgpack_serde::core::ErrorKind;
use serde::Serialize;

use crate::media;
use crate::negotiate::{Accept, Format};
use crate::vary;

/// A request body refused before the handler ran: the rejection of
/// [`MsgPack`](crate::MsgPack) and [`Negotiated`](crate::Negotiated), one
/// variant per way they can fail, as axum's `JsonRejection` is. Each
/// variant's type is in [`rejection`](crate::rejection).
///
/// Its response is itself negotiated from the request's `Accept` (JSON
/// unless the client prefers MessagePack), carries `Vary: Accept`, and has
/// this body, `offset` present only when there is one:
///
/// ```json
/// {"error": "nesting exceeds the depth limit of 64 at offset 64", "code": "depth_limit_exceeded", "offset": 64}
/// ```
///
/// | variant | `code` | status | when |
/// |---|---|---|---|
/// | `UnsupportedMediaType` | `unsupported_media_type` | 415 | the `Content-Type` is not one the extractor takes (an `Accept` response header lists those it does), or the body has a `Content-Encoding` (no decompression layer took it off) |
/// | `PayloadTooLarge` | `payload_too_large` | 413 | the body (after decompression) is over the size limit, or its `Content-Length` says so, or a body limit layered around the route (tower-http's `RequestBodyLimitLayer`) stopped it |
/// | `EmptyBody` | `empty_body` | 400 | the body is empty |
/// | `BodyReadFailed` | `body_read_failed` | 400 | reading the body failed (a broken connection, bad gzip) |
/// | `DepthLimitExceeded` | `depth_limit_exceeded` | 400 | nesting deeper than the depth limit |
/// | `ValueLimitExceeded` | `value_limit_exceeded` | 400 | more values than the value limit |
/// | `InvalidMsgPack` | `invalid_msgpack` | 400 | not valid MessagePack: reserved byte, bad UTF-8, truncation, trailing bytes |
/// | `InvalidJson` | `invalid_json` | 400 | not valid JSON (a JSON body to [`Negotiated`](crate::Negotiated)) |
/// | `InvalidData` | `invalid_data` | 422 | valid, but not the shape of the handler's type (as axum's `Json` answers) |
///
/// A handler that wants its own error body matches on it, as with axum's
/// rejections:
///
/// ```
/// use axum::http::StatusCode;
/// use msgpack_axum::{MsgPack, MsgPackRejection};
///
/// async fn upload(body: Result<MsgPack<Vec<u32>>, MsgPackRejection>) -> (StatusCode, String) {
///     match body {
///         Ok(MsgPack(items)) => (StatusCode::OK, items.len().to_string()),
///         Err(MsgPackRejection::PayloadTooLarge(too_large)) => {
///             (too_large.status(), "send at most 1 MiB".into())
///         }
///         Err(rejection) => (rejection.status(), rejection.body_text().into()),
///     }
/// }
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum MsgPackRejection {
    /// `415`: the `Content-Type` is not one the extractor takes.
    UnsupportedMediaType(UnsupportedMediaType),
    /// `413`: the body is over the size limit.
    PayloadTooLarge(PayloadTooLarge),
    /// `400`: the body is empty.
    EmptyBody(EmptyBody),
    /// `400`: reading the body failed.
    BodyReadFailed(BodyReadFailed),
    /// `400`: nesting deeper than the depth limit.
    DepthLimitExceeded(DepthLimitExceeded),
    /// `400`: more values than the value limit.
    ValueLimitExceeded(ValueLimitExceeded),
    /// `400`: not valid MessagePack.
    InvalidMsgPack(InvalidMsgPack),
    /// `400`: not valid JSON.
    InvalidJson(InvalidJson),
    /// `422`: valid, but not the shape of the handler's type.
    InvalidData(InvalidData),
}

/// What every rejection holds: its message, where decoding failed, the
/// format its response takes (from the request's `Accept`), and for a
/// `415` the types to list in the response's `Accept`.
#[derive(Debug)]
struct Refusal {
    message: String,
    offset: Option<usize>,
    format: Format,
    accept_hint: Option<&'static str>,
}

impl Refusal {
    fn new(message: String, headers: &HeaderMap) -> Refusal {
        Refusal {
            message,
            offset: None,
            format: error_format(headers),
            accept_hint: None,
        }
    }

    fn with_offset(mut self, offset: Option<usize>) -> Refusal {
        self.offset = offset;
        self
    }

    fn into_response(self, status: StatusCode, code: &str) -> Response {
        let body = ErrorBody {
            error: &self.message,
            code,
            offset: self.offset,
            offered: None,
        };
        let mut response = body.into_response(status, &self.format);
        if let Some(accepted) = self.accept_hint {
            response
                .headers_mut()
                .insert(ACCEPT, HeaderValue::from_static(accepted));
        }
        response
    }
}

/// Defines each variant's type (its status and `code` fixed), and what
/// the enum delegates to them.
macro_rules! rejections {
    ($($(#[$doc:meta])* $name:ident => $status:ident, $code:literal;)+) => {
        $(
            $(#[$doc])*
            #[derive(Debug)]
            pub struct $name(Refusal);

            impl $name {
                #[doc = concat!("The status of the response: `", stringify!($status), "`.")]
                pub fn status(&self) -> StatusCode {
                    StatusCode::$status
                }

                #[doc = concat!("The `code` of the body: `", $code, "`.")]
                pub fn code(&self) -> &'static str {
                    $code
                }

                /// The text of the body's `error`.
                pub fn body_text(&self) -> &str {
                    &self.0.message
                }

                /// The byte offset in the body where decoding failed, when
                /// there is one.
                pub fn offset(&self) -> Option<usize> {
                    self.0.offset
                }
            }

            impl fmt::Display for $name {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str(&self.0.message)
                }
            }

            impl std::error::Error for $name {}

            impl IntoResponse for $name {
                fn into_response(self) -> Response {
                    self.0.into_response(StatusCode::$status, $code)
                }
            }

            impl From<$name> for MsgPackRejection {
                fn from(rejection: $name) -> MsgPackRejection {
                    MsgPackRejection::$name(rejection)
                }
            }
        )+

        impl MsgPackRejection {
            /// The status of the response.
            pub fn status(&self) -> StatusCode {
                match self {
                    $(MsgPackRejection::$name(rejection) => rejection.status(),)+
                }
            }

            /// The machine-readable code of the body, such as `payload_too_large`.
            pub fn code(&self) -> &'static str {
                match self {
                    $(MsgPackRejection::$name(rejection) => rejection.code(),)+
                }
            }

            fn refusal(&self) -> &Refusal {
                match self {
                    $(MsgPackRejection::$name(rejection) => &rejection.0,)+
                }
            }
        }

        impl IntoResponse for MsgPackRejection {
            fn into_response(self) -> Response {
                match self {
                    $(MsgPackRejection::$name(rejection) => rejection.into_response(),)+
                }
            }
        }
    };
}

rejections! {
    /// The `Content-Type` is not one the extractor takes: `415`, with an
    /// `Accept` response header listing those it does.
    UnsupportedMediaType => UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type";
    /// The body (after decompression) is over the size limit, or its
    /// `Content-Length` says so: `413`.
    PayloadTooLarge => PAYLOAD_TOO_LARGE, "payload_too_large";
    /// The body is empty: `400`.
    EmptyBody => BAD_REQUEST, "empty_body";
    /// Reading the body failed (a broken connection, bad gzip): `400`.
    BodyReadFailed => BAD_REQUEST, "body_read_failed";
    /// Nesting deeper than the depth limit: `400`.
    DepthLimitExceeded => BAD_REQUEST, "depth_limit_exceeded";
    /// More values than the value limit: `400`.
    ValueLimitExceeded => BAD_REQUEST, "value_limit_exceeded";
    /// Not valid MessagePack (a reserved byte, bad UTF-8, truncation,
    /// trailing bytes): `400`.
    InvalidMsgPack => BAD_REQUEST, "invalid_msgpack";
    /// Not valid JSON, in a JSON body to [`Negotiated`](crate::Negotiated): `400`.
    InvalidJson => BAD_REQUEST, "invalid_json";
    /// Valid, but not the shape of the handler's type: `422`, as axum's
    /// `Json` answers.
    InvalidData => UNPROCESSABLE_ENTITY, "invalid_data";
}

impl MsgPackRejection {
    #[cold]
    pub(crate) fn unsupported_media_type(
        headers: &HeaderMap,
        accepted: &'static str,
    ) -> MsgPackRejection {
        let message = format!("expected a request body of type {accepted}");
        let mut refusal = Refusal::new(message, headers);
        refusal.accept_hint = Some(accepted);
        UnsupportedMediaType(refusal).into()
    }

    #[cold]
    pub(crate) fn unsupported_msgpack(headers: &HeaderMap) -> MsgPackRejection {
        Self::unsupported_media_type(headers, media::msgpack_accept_hint())
    }

    #[cold]
    pub(crate) fn too_large(headers: &HeaderMap, limit: usize) -> MsgPackRejection {
        let message = format!("request body exceeds the size limit of {limit} bytes");
        PayloadTooLarge(Refusal::new(message, headers)).into()
    }

    /// Over a body limit layered around the route, whose size this
    /// extractor does not know.
    #[cold]
    pub(crate) fn too_large_outside(headers: &HeaderMap) -> MsgPackRejection {
        let message = "request body exceeds the size limit".to_string();
        PayloadTooLarge(Refusal::new(message, headers)).into()
    }

    #[cold]
    pub(crate) fn unsupported_coding(headers: &HeaderMap, coding: &str) -> MsgPackRejection {
        let message = format!(
            "request body has Content-Encoding {coding}, which this server does not decode"
        );
        UnsupportedMediaType(Refusal::new(message, headers)).into()
    }

    #[cold]
    pub(crate) fn empty(headers: &HeaderMap) -> MsgPackRejection {
        EmptyBody(Refusal::new("request body is empty".into(), headers)).into()
    }

    #[cold]
    pub(crate) fn read_failed(headers: &HeaderMap, error: &dyn fmt::Display) -> MsgPackRejection {
        let message = format!("failed to read the request body: {error}");
        BodyReadFailed(Refusal::new(message, headers)).into()
    }

    #[cold]
    pub(crate) fn msgpack(headers: &HeaderMap, error: &msgpack_serde::Error) -> MsgPackRejection {
        let refusal = Refusal::new(error.to_string(), headers).with_offset(error.offset());
        match error.wire_kind() {
            Some(ErrorKind::DepthLimitExceeded { .. }) => DepthLimitExceeded(refusal).into(),
            Some(ErrorKind::ValueLimitExceeded { .. }) => ValueLimitExceeded(refusal).into(),
            _ if error.is_data() => InvalidData(refusal).into(),
            _ => InvalidMsgPack(refusal).into(),
        }
    }

    #[cold]
    pub(crate) fn json(headers: &HeaderMap, error: &serde_json::Error) -> MsgPackRejection {
        let refusal = Refusal::new(error.to_string(), headers);
        match error.classify() {
            serde_json::error::Category::Data => InvalidData(refusal).into(),
            _ => InvalidJson(refusal).into(),
        }
    }

    #[cold]
    pub(crate) fn json_limit(
        headers: &HeaderMap,
        exceeded: crate::json_limits::Exceeded,
    ) -> MsgPackRejection {
        use crate::json_limits::Exceeded;
        let refusal = Refusal::new(exceeded.to_string(), headers);
        match exceeded {
            Exceeded::Depth(_) => DepthLimitExceeded(refusal).into(),
            Exceeded::Values(_) => ValueLimitExceeded(refusal).into(),
        }
    }

    /// The byte offset in the body where decoding failed, when it did.
    pub fn offset(&self) -> Option<usize> {
        self.refusal().offset
    }

    /// The text of the body's `error`.
    pub fn body_text(&self) -> &str {
        &self.refusal().message
    }
}

impl fmt::Display for MsgPackRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.body_text())
    }
}

impl std::error::Error for MsgPackRejection {}

/// The body of an error response from this crate.
#[derive(Serialize)]
pub(crate) struct ErrorBody<'a> {
    pub(crate) error: &'a str,
    pub(crate) code: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) offset: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) offered: Option<&'a [&'a str]>,
}

impl ErrorBody<'_> {
    /// This body as a response in `format`, with `Vary: Accept`.
    pub(crate) fn into_response(self, status: StatusCode, format: &Format) -> Response {
        let bytes = match format {
            Format::Json => serde_json::to_vec(&self).ok(),
            Format::MsgPack(_) => msgpack_serde::to_vec(&self).ok(),
        };
        let mut response = Response::new(Body::from(bytes.unwrap_or_default()));
        *response.status_mut() = status;
        response
            .headers_mut()
            .insert(CONTENT_TYPE, format.content_type());
        vary::add_accept(response.headers_mut());
        response
    }
}

/// `406 Not Acceptable`: a JSON body listing the types `offered`.
#[cold]
pub(crate) fn not_acceptable(offered: &[&str]) -> Response {
    let message = format!(
        "none of the offered types is acceptable: {}",
        offered.join(", ")
    );
    let body = ErrorBody {
        error: &message,
        code: "not_acceptable",
        offset: None,
        offered: Some(offered),
    };
    body.into_response(StatusCode::NOT_ACCEPTABLE, &Format::Json)
}

/// The format of an error body: what the request negotiates, JSON when it
/// accepts neither.
pub(crate) fn error_format(headers: &HeaderMap) -> Format {
    Accept::from_headers(headers)
        .negotiate()
        .unwrap_or(Format::Json)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each way of refusing a body, its variant, status and code.
    #[test]
    fn each_rejection_has_its_variant_status_and_code() {
        let headers = HeaderMap::new();
        let bad = msgpack_serde::from_slice::<u8>(&[0xc1]).unwrap_err();
        let limits = msgpack_serde::Limits::new().max_depth(1);
        let mut deep =
            msgpack_serde::Deserializer::from_slice(&[0x91, 0x91, 0x90]).with_limits(limits);
        let deep =
            <msgpack_serde::Value as serde::Deserialize>::deserialize(&mut deep).unwrap_err();
        let shape = msgpack_serde::from_slice::<u8>(&[0xa1, b'x']).unwrap_err();
        let json = serde_json::from_slice::<serde_json::Value>(b"[").unwrap_err();
        let cases = [
            (
                MsgPackRejection::unsupported_msgpack(&headers),
                415,
                "unsupported_media_type",
            ),
            (
                MsgPackRejection::too_large(&headers, 9),
                413,
                "payload_too_large",
            ),
            (MsgPackRejection::empty(&headers), 400, "empty_body"),
            (
                MsgPackRejection::read_failed(&headers, &"reset"),
                400,
                "body_read_failed",
            ),
            (
                MsgPackRejection::msgpack(&headers, &deep),
                400,
                "depth_limit_exceeded",
            ),
            (
                MsgPackRejection::msgpack(&headers, &bad),
                400,
                "invalid_msgpack",
            ),
            (
                MsgPackRejection::msgpack(&headers, &shape),
                422,
                "invalid_data",
            ),
            (MsgPackRejection::json(&headers, &json), 400, "invalid_json"),
        ];
        for (rejection, status, code) in cases {
            assert_eq!(
                (rejection.status().as_u16(), rejection.code()),
                (status, code)
            );
            let matched = match &rejection {
                MsgPackRejection::UnsupportedMediaType(r) => (r.status(), r.code()),
                MsgPackRejection::PayloadTooLarge(r) => (r.status(), r.code()),
                MsgPackRejection::EmptyBody(r) => (r.status(), r.code()),
                MsgPackRejection::BodyReadFailed(r) => (r.status(), r.code()),
                MsgPackRejection::DepthLimitExceeded(r) => (r.status(), r.code()),
                MsgPackRejection::ValueLimitExceeded(r) => (r.status(), r.code()),
                MsgPackRejection::InvalidMsgPack(r) => (r.status(), r.code()),
                MsgPackRejection::InvalidJson(r) => (r.status(), r.code()),
                MsgPackRejection::InvalidData(r) => (r.status(), r.code()),
            };
            assert_eq!(matched, (rejection.status(), code));
            assert_eq!(rejection.to_string(), rejection.body_text());
            assert_eq!(rejection.into_response().status().as_u16(), status);
        }
        let values = crate::json_limits::Exceeded::Values(3);
        let rejection = MsgPackRejection::json_limit(&headers, values);
        assert!(matches!(rejection, MsgPackRejection::ValueLimitExceeded(_)));
        assert_eq!(
            rejection.body_text(),
            "JSON holds more values than the limit of 3"
        );
        assert_eq!(MsgPackRejection::msgpack(&headers, &bad).offset(), Some(0));
    }
}
