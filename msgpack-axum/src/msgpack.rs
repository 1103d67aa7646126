//! `MsgPack<T>`: a MessagePack request body, or an always-MessagePack
//! response; `MsgPackCompact<T>` for structs as arrays.

use std::ops::{Deref, DerefMut};

use axum::body::Body;
use axum::extract::{FromRequest, Request};
use axum::response::{IntoResponse, Response};
use http::header::{HeaderValue, CONTENT_TYPE};
use http::StatusCode;
use msgpack_serde::Config;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::body;
use crate::media::{self, Kind};
use crate::rejection::MsgPackRejection;

/// MessagePack, as axum's `Json` is JSON.
///
/// As an extractor it takes a body of a MessagePack type (one of
/// [`MSGPACK_TYPES`](crate::MSGPACK_TYPES) or any `+msgpack` type), read and decoded
/// under [`RequestLimits`](crate::RequestLimits) before the handler runs;
/// anything else is a negotiated [`MsgPackRejection`]. Structs may arrive as
/// maps or as arrays.
///
/// As a response it is always MessagePack (`Content-Type:
/// application/msgpack`), structs as maps keyed by field name, what other
/// languages' clients read; [`MsgPackCompact`] writes them as arrays.
///
/// ```
/// use axum::{http::StatusCode, routing::post, Router};
/// use msgpack_axum::MsgPack;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Deserialize, Serialize)]
/// struct Order { id: u64, items: Vec<String> }
///
/// async fn create(MsgPack(order): MsgPack<Order>) -> (StatusCode, MsgPack<Order>) {
///     (StatusCode::CREATED, MsgPack(order))
/// }
///
/// let app: Router = Router::new().route("/orders", post(create));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[must_use]
pub struct MsgPack<T>(pub T);

/// An always-MessagePack response with structs as arrays in field order
/// (msgpack-serde's compact mode): smaller, for clients that share the
/// type definitions. [`MsgPack`] reads both forms.
///
/// ```
/// use msgpack_axum::MsgPackCompact;
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Point { x: i32, y: i32 }
///
/// async fn origin() -> MsgPackCompact<Point> {
///     MsgPackCompact(Point { x: 0, y: 0 }) // [0, 0]
/// }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[must_use]
pub struct MsgPackCompact<T>(pub T);

impl<T, S> FromRequest<S> for MsgPack<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = MsgPackRejection;

    async fn from_request(request: Request, _: &S) -> Result<Self, MsgPackRejection> {
        if media::content_kind(request.headers()) != Some(Kind::MsgPack) {
            return Err(MsgPackRejection::unsupported_msgpack(request.headers()));
        }
        let received = body::receive(request).await?;
        body::decode_msgpack(&received).map(MsgPack)
    }
}

impl<T: Serialize> IntoResponse for MsgPack<T> {
    fn into_response(self) -> Response {
        respond(
            msgpack_serde::to_vec(&self.0),
            HeaderValue::from_static(media::APPLICATION_MSGPACK),
        )
    }
}

impl<T: Serialize> IntoResponse for MsgPackCompact<T> {
    fn into_response(self) -> Response {
        respond(
            msgpack_serde::to_vec_compact(&self.0),
            HeaderValue::from_static(media::APPLICATION_MSGPACK),
        )
    }
}

/// `value` as a MessagePack response under `config`; a value that cannot
/// be serialized is a `500` naming the error, as axum's `Json` does.
pub(crate) fn encode<T: Serialize + ?Sized>(
    value: &T,
    config: Config,
    content_type: HeaderValue,
) -> Response {
    respond(
        msgpack_serde::to_vec_with_config(value, config),
        content_type,
    )
}

/// The response for `encoded`, a value's bytes or why it could not be
/// serialized. `MsgPack` and `MsgPackCompact` encode with `to_vec` and
/// `to_vec_compact`, whose struct mode is fixed (faster than a mode read
/// from a `Config`).
fn respond(encoded: msgpack_serde::Result<Vec<u8>>, content_type: HeaderValue) -> Response {
    match encoded {
        Ok(bytes) => ([(CONTENT_TYPE, content_type)], Body::from(bytes)).into_response(),
        Err(error) => serialize_failed(&error),
    }
}

#[cold]
pub(crate) fn serialize_failed(error: &dyn std::fmt::Display) -> Response {
    let header = [(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    )];
    (StatusCode::INTERNAL_SERVER_ERROR, header, error.to_string()).into_response()
}

macro_rules! wrapper_traits {
    ($name:ident) => {
        impl<T> Deref for $name<T> {
            type Target = T;

            fn deref(&self) -> &T {
                &self.0
            }
        }

        impl<T> DerefMut for $name<T> {
            fn deref_mut(&mut self) -> &mut T {
                &mut self.0
            }
        }

        impl<T> From<T> for $name<T> {
            fn from(value: T) -> Self {
                $name(value)
            }
        }
    };
}

wrapper_traits!(MsgPack);
wrapper_traits!(MsgPackCompact);
pub(crate) use wrapper_traits;
