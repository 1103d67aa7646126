//! `Negotiated<T>`: JSON or MessagePack, by the request's `Accept` (as a
//! response) or `Content-Type` (as an extractor).

use std::ops::{Deref, DerefMut};

use axum::body::Body;
use axum::extract::{FromRequest, Request};
use axum::response::{IntoResponse, Response};
use http::header::CONTENT_TYPE;
use http::StatusCode;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::body;
use crate::layer::Negotiation;
use crate::media::{self, Kind};
use crate::msgpack::{encode, serialize_failed, wrapper_traits};
use crate::negotiate::Format;
use crate::rejection::MsgPackRejection;
use crate::vary;

/// JSON or MessagePack, whichever the client asks for, from one handler.
///
/// As a response it is encoded straight into the format the request's
/// `Accept` selects (see the crate's rules), with `Vary: Accept`. It learns
/// the request from [`NegotiateLayer`](crate::NegotiateLayer), which must be
/// on the router: without it the response is a `500` that says so. A
/// request accepting neither format gets `406 Not Acceptable`, or JSON with
/// the layer's [`fallback_to_json`](crate::NegotiateLayer::fallback_to_json).
/// The layer makes that choice once the response's status is final, so a
/// `(StatusCode::CREATED, Negotiated(..))` is a `406` too, while in an
/// error response (`(StatusCode::NOT_FOUND, Negotiated(..))`) such a
/// request gets the JSON: the layer passes every error whatever the client
/// accepts, since a `406` must not hide why a request failed.
///
/// As an extractor it takes JSON (`application/json`, `+json`) or
/// MessagePack by the request's `Content-Type`, under
/// [`RequestLimits`](crate::RequestLimits), for endpoints that serve both
/// kinds of clients.
///
/// ```
/// use axum::{routing::get, Router};
/// use msgpack_axum::{NegotiateLayer, Negotiated};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Serialize, Deserialize)]
/// struct Profile { id: u64, name: String }
///
/// async fn show() -> Negotiated<Profile> {
///     Negotiated(Profile { id: 1042, name: "Ada".into() })
/// }
///
/// async fn update(Negotiated(profile): Negotiated<Profile>) -> Negotiated<Profile> {
///     Negotiated(profile) // read as JSON or MessagePack, answered as the client prefers
/// }
///
/// let app: Router = Router::new()
///     .route("/profile", get(show).put(update))
///     .layer(NegotiateLayer::new());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[must_use]
pub struct Negotiated<T>(pub T);

impl<T: Serialize> IntoResponse for Negotiated<T> {
    fn into_response(self) -> Response {
        let Some(negotiation) = Negotiation::current() else {
            return missing_layer();
        };
        let mut response = match negotiation.format {
            Some(Format::MsgPack(content_type)) => {
                encode(&self.0, negotiation.config, content_type)
            }
            // With no format, JSON all the same: a tuple may set the status
            // after this, and the layer refuses a success and passes an
            // error as it does any JSON response.
            Some(Format::Json) | None => match serde_json::to_vec(&self.0) {
                Ok(bytes) => (
                    [(CONTENT_TYPE, Format::Json.content_type())],
                    Body::from(bytes),
                )
                    .into_response(),
                Err(error) => serialize_failed(&error),
            },
        };
        vary::add_accept(response.headers_mut());
        response
    }
}

#[cold]
fn missing_layer() -> Response {
    let message = "Negotiated<T> needs NegotiateLayer on the router to see the request's Accept: \
                   add `.layer(msgpack_axum::NegotiateLayer::new())`";
    (StatusCode::INTERNAL_SERVER_ERROR, message).into_response()
}

impl<T, S> FromRequest<S> for Negotiated<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = MsgPackRejection;

    async fn from_request(request: Request, _: &S) -> Result<Self, MsgPackRejection> {
        let kind = media::content_kind(request.headers());
        let decode: fn(&body::Received) -> Result<T, MsgPackRejection> = match kind {
            Some(Kind::MsgPack) => body::decode_msgpack,
            Some(Kind::Json) => body::decode_json,
            _ => {
                return Err(MsgPackRejection::unsupported_media_type(
                    request.headers(),
                    media::negotiated_accept_hint(),
                ))
            }
        };
        let received = body::receive(request).await?;
        decode(&received).map(Negotiated)
    }
}

wrapper_traits!(Negotiated);
