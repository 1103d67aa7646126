//! `NegotiateLayer`: negotiates every response of a router, re-encoding
//! JSON bodies for the clients that prefer MessagePack.

use std::future::Future;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use axum::body::Body;
use axum::response::Response;
use http::header::{
    HeaderValue, CONTENT_ENCODING, CONTENT_LANGUAGE, CONTENT_LENGTH, CONTENT_LOCATION,
    CONTENT_TYPE, LAST_MODIFIED, TRAILER,
};
use http::{Method, Request, StatusCode};
use http_body::Body as _;
use mediatype::MediaType;
use msgpack_serde::Config;
use pin_project_lite::pin_project;
use tokio::task::futures::TaskLocalFuture;
use tower_layer::Layer;
use tower_service::Service;

use crate::collect::{self, Collect, Collected};
use crate::media::{self, Kind};
use crate::negotiate::{Accept, Format, OFFERED};
use crate::rejection::not_acceptable;
use crate::transcode::json_to_msgpack;
use crate::vary;

tokio::task_local! {
    static NEGOTIATION: Negotiation;
}

/// What the layer decided for the request being handled, seen by
/// [`Negotiated`](crate::Negotiated) while the handler runs.
#[derive(Clone, Debug)]
pub(crate) struct Negotiation {
    /// `None` when the request accepts neither JSON nor MessagePack.
    pub(crate) format: Option<Format>,
    pub(crate) config: Config,
}

impl Negotiation {
    /// The negotiation of the request this task is handling, if a
    /// [`NegotiateLayer`] is around it.
    pub(crate) fn current() -> Option<Negotiation> {
        NEGOTIATION.try_with(Negotiation::clone).ok()
    }
}

/// A tower layer that negotiates JSON or MessagePack for every response of
/// the router (or route) it wraps, from each request's `Accept`.
///
/// - Responses of plain `axum::Json` handlers, their error bodies and a
///   JSON fallback included, are re-encoded as MessagePack for the clients
///   that prefer it, with no handler change, by
///   [`json_to_msgpack`](crate::json_to_msgpack) (no `Value` tree in
///   between). The headers
///   the new bytes invalidate (`Content-Length`, `ETag`, `Content-MD5`,
///   `Digest`, `Content-Digest`, `Repr-Digest`, `Content-Range`) are
///   removed.
/// - Only `application/json` and `+json` bodies are re-encoded. A JSON
///   body of unknown length (a body behind a wrapper that hides its
///   length, such as tower-http's `ResponseBodyTimeoutLayer`, or a
///   stream) is read as far as it is ready at once, up to
///   [`max_reencoded_len`](NegotiateLayer::max_reencoded_len), and
///   re-encoded if it ends there; a stream that waits for its next chunk
///   is not held back.
/// - A body it does not re-encode (a stream, one longer than that, with
///   `Content-Encoding`, of another type, JSON that does not re-encode)
///   passes through unchanged, every byte and trailer of it, when the
///   client accepts it; so does a body that fails while read, failure
///   included (a success the client cannot take in JSON becomes a `500`
///   naming the failure). A success
///   response the client does not accept becomes `406 Not Acceptable`,
///   listing the types offered, with the response's other headers
///   (`Set-Cookie`, CORS, `Vary`) kept and those of its body dropped.
///   Redirects (3xx) and error responses (4xx, 5xx) always pass through:
///   a 406 must not hide why a request failed or where it went.
/// - Every response gets `Vary: Accept` (merged into an existing `Vary`,
///   not added to `Vary: *`). HEAD, 1xx, 204 and 304 responses keep no
///   body; a HEAD request is answered with the headers GET gets for a JSON
///   body re-encoded, but no `Content-Length`, since the MessagePack is
///   never written.
/// - [`Negotiated`](crate::Negotiated) responses, which need it, are
///   encoded directly in the chosen format.
/// - The re-encoding starts from the JSON, so it carries JSON's forms of
///   values: types that serialize differently for human-readable formats
///   (`IpAddr`, `Uuid`) arrive as their strings, and integer map keys as
///   strings. Read such replies with a human-readable `Deserializer`, or
///   serve them with [`Negotiated`](crate::Negotiated), which writes the
///   binary forms.
///
/// ```
/// use axum::{routing::get, Json, Router};
/// use msgpack_axum::NegotiateLayer;
/// use serde_json::{json, Value};
///
/// async fn profile() -> Json<Value> {
///     Json(json!({"id": 1042, "name": "Laravel MessagePack"}))
/// }
///
/// // `Accept: application/msgpack` now gets MessagePack; everyone else JSON.
/// let app: Router = Router::new().route("/api/profile", get(profile)).layer(NegotiateLayer::new());
/// ```
#[derive(Clone, Copy, Debug)]
#[must_use]
pub struct NegotiateLayer {
    config: Config,
    fallback_to_json: bool,
    max_reencoded_len: usize,
}

/// The default of [`NegotiateLayer::max_reencoded_len`]: axum's default
/// limit for a request body, so a reply may be as large as a request,
/// while a stream holds at most this much (and its MessagePack) in memory.
const MAX_REENCODED_LEN: usize = 2 << 20;

impl NegotiateLayer {
    /// Strict negotiation (406 for requests that accept neither format),
    /// [`Negotiated`](crate::Negotiated) structs as maps keyed by name.
    pub const fn new() -> NegotiateLayer {
        NegotiateLayer {
            config: Config::named(),
            fallback_to_json: false,
            max_reencoded_len: MAX_REENCODED_LEN,
        }
    }

    /// Answers JSON instead of `406 Not Acceptable` to requests that accept
    /// neither JSON nor MessagePack, and to those that ask for MessagePack
    /// when a JSON response cannot be re-encoded (a body of unknown length
    /// not ready at once or past
    /// [`max_reencoded_len`](NegotiateLayer::max_reencoded_len), one that
    /// fails while read, JSON
    /// nested past serde_json's limit): the lenient choice some frameworks
    /// make.
    ///
    /// ```
    /// let layer = msgpack_axum::NegotiateLayer::new().fallback_to_json(true);
    /// ```
    pub const fn fallback_to_json(mut self, fallback: bool) -> NegotiateLayer {
        self.fallback_to_json = fallback;
        self
    }

    /// How [`Negotiated`](crate::Negotiated) writes MessagePack: named maps
    /// by default, `Config::compact()` for structs as arrays. Re-encoded JSON
    /// objects are always maps.
    ///
    /// ```
    /// let layer = msgpack_axum::NegotiateLayer::new().config(msgpack_serde::Config::compact());
    /// ```
    pub const fn config(mut self, config: Config) -> NegotiateLayer {
        self.config = config;
        self
    }

    /// The most bytes of a JSON body of unknown length (a body wrapped by
    /// a layer that hides its length, a stream) read to re-encode it; 2 MiB
    /// by default, axum's default limit for a request body. A longer body,
    /// or one that is not ready at once, is answered as the JSON it is, or
    /// `406` to a client that takes only MessagePack. A body of known
    /// length (a `Json`, whole in memory already) is re-encoded whatever
    /// its length.
    ///
    /// ```
    /// let layer = msgpack_axum::NegotiateLayer::new().max_reencoded_len(512 << 10);
    /// ```
    pub const fn max_reencoded_len(mut self, bytes: usize) -> NegotiateLayer {
        self.max_reencoded_len = bytes;
        self
    }
}

impl Default for NegotiateLayer {
    fn default() -> NegotiateLayer {
        NegotiateLayer::new()
    }
}

impl<S> Layer<S> for NegotiateLayer {
    type Service = NegotiateService<S>;

    fn layer(&self, inner: S) -> NegotiateService<S> {
        NegotiateService {
            inner,
            layer: *self,
        }
    }
}

/// The service of [`NegotiateLayer`].
#[derive(Clone, Debug)]
pub struct NegotiateService<S> {
    inner: S,
    layer: NegotiateLayer,
}

impl<S, B> Service<Request<B>> for NegotiateService<S>
where
    S: Service<Request<B>, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = NegotiateFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        let accept = Accept::from_headers(request.headers());
        let mut format = accept.negotiate();
        if format.is_none() && self.layer.fallback_to_json {
            format = Some(Format::Json);
        }
        let head = request.method() == Method::HEAD;
        let negotiation = Negotiation {
            format: format.clone(),
            config: self.layer.config,
        };
        NegotiateFuture {
            state: State::Handler {
                future: NEGOTIATION.scope(negotiation, self.inner.call(request)),
            },
            request: Some(RequestView {
                accept,
                format,
                head,
                fallback_to_json: self.layer.fallback_to_json,
                max_reencoded_len: self.layer.max_reencoded_len,
            }),
        }
    }
}

/// What the response phase needs to know of the request.
#[derive(Debug)]
struct RequestView {
    accept: Accept,
    format: Option<Format>,
    head: bool,
    /// JSON is answered whatever the `Accept` ([`NegotiateLayer::fallback_to_json`]).
    fallback_to_json: bool,
    /// The cap on a body of unknown length ([`NegotiateLayer::max_reencoded_len`]).
    max_reencoded_len: usize,
}

pin_project! {
    /// The future of [`NegotiateService`].
    pub struct NegotiateFuture<F> {
        #[pin]
        state: State<F>,
        request: Option<RequestView>,
    }
}

pin_project! {
    #[project = StateProjection]
    enum State<F> {
        Handler { #[pin] future: TaskLocalFuture<Negotiation, F> },
        Collecting { collecting: Option<Collecting> },
    }
}

/// A JSON response whose body is being read, to be re-encoded.
struct Collecting {
    parts: http::response::Parts,
    body: Collect,
    msgpack_type: HeaderValue,
}

impl<F, E> Future for NegotiateFuture<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        loop {
            let this = self.as_mut().project();
            match this.state.project() {
                StateProjection::Handler { future } => {
                    let response = ready!(future.poll(cx))?;
                    let request = this.request.take().expect("polled after completion");
                    match respond(response, &request) {
                        Next::Done(response) => return Poll::Ready(Ok(response)),
                        Next::Reencode(collecting) => {
                            *this.request = Some(request);
                            self.as_mut().project().state.set(State::Collecting {
                                collecting: Some(collecting),
                            });
                        }
                    }
                }
                StateProjection::Collecting { collecting } => {
                    let state = collecting.as_mut().expect("polled after completion");
                    let finished = ready!(state.body.poll_collect(cx));
                    let state = collecting.take().expect("polled after completion");
                    let request = this.request.take().expect("polled after completion");
                    return Poll::Ready(Ok(state.finish(finished, &request)));
                }
            }
        }
    }
}

/// What to do with a response once the handler has returned it. Not
/// boxed, though one variant is much the larger: a box would be an
/// allocation per re-encoded response, beyond its output body.
#[allow(clippy::large_enum_variant)]
enum Next {
    Done(Response),
    Reencode(Collecting),
}

/// Applies the rules to a response: see [`NegotiateLayer`].
fn respond(mut response: Response, request: &RequestView) -> Next {
    vary::add_accept(response.headers_mut());
    let status = response.status();
    if status.is_informational()
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED
    {
        return Next::Done(response);
    }
    let Some(content_type) = response.headers().get(CONTENT_TYPE).cloned() else {
        return Next::Done(response);
    };
    let Some(media) = content_type
        .to_str()
        .ok()
        .and_then(|text| MediaType::parse(text).ok())
    else {
        return Next::Done(response);
    };
    // Redirects and errors pass whatever the client accepts.
    let passes = !status.is_success();
    match (media::kind(&media), &request.format) {
        (Kind::Json, Some(Format::Json)) => Next::Done(response),
        (Kind::Json, Some(Format::MsgPack(msgpack_type))) => {
            if response.headers().contains_key(CONTENT_ENCODING) {
                return Next::Done(pass_if_accepted(response, &media, request, passes));
            }
            // A sized body (a `Json`) is whole in memory already: read
            // whole. Another is read as far as it is ready, up to the cap.
            let streamed = match response.body().size_hint().exact() {
                Some(_) if request.head => {
                    let (parts, _) = response.into_parts();
                    return Next::Done(head_answer(parts, msgpack_type.clone()));
                }
                Some(_) => None,
                None => Some(request.max_reencoded_len),
            };
            let (parts, body) = response.into_parts();
            Next::Reencode(Collecting {
                parts,
                body: Collect::new(body, streamed),
                msgpack_type: msgpack_type.clone(),
            })
        }
        (Kind::Json, None) if !passes => Next::Done(refuse(response, &OFFERED)),
        // The MessagePack names are one format: a client that takes one
        // takes a body labelled with another (`application/msgpack` answers
        // a tie, and `MsgPack<T>` always uses it).
        (Kind::MsgPack, Some(Format::MsgPack(_))) => Next::Done(response),
        _ => Next::Done(pass_if_accepted(response, &media, request, passes)),
    }
}

/// The answer to HEAD for a JSON body the layer would re-encode: the
/// handler's body is gone (axum strips it for HEAD), so the MessagePack
/// length is unknown: say nothing of it.
fn head_answer(mut parts: http::response::Parts, msgpack_type: HeaderValue) -> Response {
    vary::remove_invalidated(&mut parts.headers);
    parts.headers.insert(CONTENT_TYPE, msgpack_type);
    Response::from_parts(parts, Body::new(crate::limits::UnknownLength))
}

/// A response this layer leaves as it is: passed when the client accepts
/// its type, when it `passes` whatever the client accepts (a redirect or
/// an error), or as the JSON fallback; else `406` offering that type.
fn pass_if_accepted(
    response: Response,
    media: &MediaType<'_>,
    request: &RequestView,
    passes: bool,
) -> Response {
    let json_fallback = request.fallback_to_json && media::kind(media) == Kind::Json;
    if passes || json_fallback || request.accept.accepts(media) {
        return response;
    }
    let essence = media.essence().to_string();
    refuse(response, &[essence.as_str()])
}

/// A `406` offering `offered` in place of `response`: its status and
/// body replaced, the headers of that body dropped, the others (cookies,
/// CORS, `Vary`, caching) kept.
fn refuse(response: Response, offered: &[&str]) -> Response {
    let (mut parts, _) = response.into_parts();
    let (refusal, body) = not_acceptable(offered).into_parts();
    vary::remove_invalidated(&mut parts.headers);
    for name in [
        CONTENT_ENCODING,
        CONTENT_LANGUAGE,
        CONTENT_LOCATION,
        LAST_MODIFIED,
    ] {
        parts.headers.remove(name);
    }
    for name in [CONTENT_TYPE, CONTENT_LENGTH] {
        if let Some(value) = refusal.headers.get(&name) {
            parts.headers.insert(name, value.clone());
        }
    }
    parts.status = refusal.status;
    Response::from_parts(parts, body)
}

impl Collecting {
    /// The re-encoded response, without the headers the new bytes
    /// invalidate. A stream, or a body past the cap, is left as it is, as
    /// [`pass_if_accepted`] rules. JSON that cannot be re-encoded, and a
    /// body that fails while read, pass as they were (the failure too)
    /// when the response is not a success (redirects and errors always
    /// pass) or the client takes JSON; else they are a `500`.
    fn finish(self, read: Collected, request: &RequestView) -> Response {
        let Collecting {
            mut parts,
            msgpack_type,
            ..
        } = self;
        let (json, trailers) = match read {
            Collected::Whole { data, trailers } => (data, trailers),
            Collected::Streamed(body) => return pass_unread(parts, body, request),
            Collected::Failed(body, error) => {
                if !parts.status.is_success() || takes_json(request) {
                    return Response::from_parts(parts, body);
                }
                return failed(format_args!("the response body failed: {error}"));
            }
        };
        if request.head {
            return head_answer(parts, msgpack_type);
        }
        match json_to_msgpack(&json) {
            Ok(msgpack) => {
                vary::remove_invalidated(&mut parts.headers);
                // The trailers stay with the JSON.
                parts.headers.remove(TRAILER);
                parts.headers.insert(CONTENT_TYPE, msgpack_type);
                Response::from_parts(parts, Body::from(msgpack))
            }
            Err(error) => {
                if !parts.status.is_success() || takes_json(request) {
                    return Response::from_parts(parts, collect::unchanged(json, trailers));
                }
                failed(format_args!(
                    "the response's JSON could not be re-encoded as MessagePack: {error}"
                ))
            }
        }
    }
}

/// A JSON body the layer does not re-encode (a stream, or past the cap),
/// `body` giving what was read and then the rest: left as it is, as
/// [`pass_if_accepted`] rules.
fn pass_unread(parts: http::response::Parts, body: Body, request: &RequestView) -> Response {
    let content_type = parts.headers.get(CONTENT_TYPE).cloned();
    let response = Response::from_parts(parts, body);
    let media = content_type
        .as_ref()
        .and_then(|value| value.to_str().ok())
        .and_then(|text| MediaType::parse(text).ok())
        .unwrap_or_else(json_type);
    let passes = !response.status().is_success();
    pass_if_accepted(response, &media, request, passes)
}

/// Whether the request is answered JSON that cannot be MessagePack: it
/// accepts JSON, or the layer falls back to it.
fn takes_json(request: &RequestView) -> bool {
    request.fallback_to_json || request.accept.accepts(&json_type())
}

/// `application/json`, borrowed for as long as the caller needs.
const fn json_type<'a>() -> MediaType<'a> {
    MediaType::new(mediatype::names::APPLICATION, mediatype::names::JSON)
}

/// A `500` for a response that could not be re-encoded; whether a request
/// gets it depends on its `Accept`, so it varies on it too.
#[cold]
fn failed(message: std::fmt::Arguments<'_>) -> Response {
    let mut response = crate::msgpack::serialize_failed(&message);
    vary::add_accept(response.headers_mut());
    response
}

impl<F> std::fmt::Debug for NegotiateFuture<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NegotiateFuture")
            .field("request", &self.request)
            .finish_non_exhaustive()
    }
}
