//! Why a request body was refused, and the negotiated error response.

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
/// [`MsgPack`](crate::MsgPack) and [`Negotiated`](crate::Negotiated).
///
/// Its response is itself negotiated from the request's `Accept` (JSON
/// unless the client prefers MessagePack), carries `Vary: Accept`, and has
/// this body, `offset` present only when there is one:
///
/// ```json
/// {"error": "nesting exceeds the depth limit of 64 at offset 64", "code": "depth_limit_exceeded", "offset": 64}
/// ```
///
/// | `code` | status | when |
/// |---|---|---|
/// | `unsupported_media_type` | 415 | the `Content-Type` is not one the extractor takes; an `Accept` response header lists those it does |
/// | `payload_too_large` | 413 | the body (after decompression) is over the size limit, or its `Content-Length` says so |
/// | `empty_body` | 400 | the body is empty |
/// | `body_read_failed` | 400 | reading the body failed (a broken connection, bad gzip) |
/// | `depth_limit_exceeded` | 400 | nesting deeper than the depth limit |
/// | `value_limit_exceeded` | 400 | more values than the value limit |
/// | `invalid_msgpack` | 400 | not valid MessagePack: reserved byte, bad UTF-8, truncation, trailing bytes |
/// | `invalid_json` | 400 | not valid JSON (a JSON body to [`Negotiated`](crate::Negotiated)) |
/// | `invalid_data` | 422 | valid, but not the shape of the handler's type (as axum's `Json` answers) |
#[derive(Debug)]
pub struct MsgPackRejection {
    status: StatusCode,
    code: &'static str,
    message: String,
    offset: Option<usize>,
    format: Format,
    accept_hint: Option<&'static str>,
}

impl MsgPackRejection {
    fn new(
        status: StatusCode,
        code: &'static str,
        message: String,
        headers: &HeaderMap,
    ) -> MsgPackRejection {
        MsgPackRejection {
            status,
            code,
            message,
            offset: None,
            format: error_format(headers),
            accept_hint: None,
        }
    }

    #[cold]
    pub(crate) fn unsupported_media_type(
        headers: &HeaderMap,
        accepted: &'static str,
    ) -> MsgPackRejection {
        let message = format!("expected a request body of type {accepted}");
        let mut rejection = Self::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            message,
            headers,
        );
        rejection.accept_hint = Some(accepted);
        rejection
    }

    #[cold]
    pub(crate) fn unsupported_msgpack(headers: &HeaderMap) -> MsgPackRejection {
        Self::unsupported_media_type(headers, media::msgpack_accept_hint())
    }

    #[cold]
    pub(crate) fn too_large(headers: &HeaderMap, limit: usize) -> MsgPackRejection {
        let message = format!("request body exceeds the size limit of {limit} bytes");
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            message,
            headers,
        )
    }

    #[cold]
    pub(crate) fn empty(headers: &HeaderMap) -> MsgPackRejection {
        Self::new(
            StatusCode::BAD_REQUEST,
            "empty_body",
            "request body is empty".into(),
            headers,
        )
    }

    #[cold]
    pub(crate) fn read_failed(headers: &HeaderMap, error: &dyn fmt::Display) -> MsgPackRejection {
        let message = format!("failed to read the request body: {error}");
        Self::new(
            StatusCode::BAD_REQUEST,
            "body_read_failed",
            message,
            headers,
        )
    }

    #[cold]
    pub(crate) fn msgpack(headers: &HeaderMap, error: &msgpack_serde::Error) -> MsgPackRejection {
        let (status, code) = match error.wire_kind() {
            Some(ErrorKind::DepthLimitExceeded { .. }) => {
                (StatusCode::BAD_REQUEST, "depth_limit_exceeded")
            }
            Some(ErrorKind::ValueLimitExceeded { .. }) => {
                (StatusCode::BAD_REQUEST, "value_limit_exceeded")
            }
            _ if error.is_data() => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_data"),
            _ => (StatusCode::BAD_REQUEST, "invalid_msgpack"),
        };
        let mut rejection = Self::new(status, code, error.to_string(), headers);
        rejection.offset = error.offset();
        rejection
    }

    #[cold]
    pub(crate) fn json(headers: &HeaderMap, error: &serde_json::Error) -> MsgPackRejection {
        let (status, code) = match error.classify() {
            serde_json::error::Category::Data => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_data"),
            _ => (StatusCode::BAD_REQUEST, "invalid_json"),
        };
        Self::new(status, code, error.to_string(), headers)
    }

    #[cold]
    pub(crate) fn json_limit(
        headers: &HeaderMap,
        exceeded: crate::json_limits::Exceeded,
    ) -> MsgPackRejection {
        use crate::json_limits::Exceeded;
        let (code, message) = match exceeded {
            Exceeded::Depth(limit) => (
                "depth_limit_exceeded",
                format!("JSON nesting exceeds the depth limit of {limit}"),
            ),
            Exceeded::Values(limit) => (
                "value_limit_exceeded",
                format!("JSON holds more values than the limit of {limit}"),
            ),
        };
        Self::new(StatusCode::BAD_REQUEST, code, message, headers)
    }

    /// The status of the response.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The machine-readable code of the body, such as `payload_too_large`.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The byte offset in the body where decoding failed, when it did.
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// The text of the body's `error`.
    pub fn body_text(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for MsgPackRejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
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

impl IntoResponse for MsgPackRejection {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: &self.message,
            code: self.code,
            offset: self.offset,
            offered: None,
        };
        let mut response = body.into_response(self.status, &self.format);
        if let Some(accepted) = self.accept_hint {
            response
                .headers_mut()
                .insert(ACCEPT, HeaderValue::from_static(accepted));
        }
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
