//! The limits request bodies are read under, set per router or per route.

use std::task::{Context, Poll};

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request};
use axum::RequestExt;
use http::Extensions;
use http_body::Body as _;
use msgpack_serde::Limits;
use tower_layer::Layer;
use tower_service::Service;

/// Limits for the request bodies that [`MsgPack`](crate::MsgPack) and
/// [`Negotiated`](crate::Negotiated) extract, checked before the handler
/// runs.
///
/// | limit | default | over it |
/// |---|---|---|
/// | body size (after any decompression) | 10 MiB, or axum's [`DefaultBodyLimit`] when one is set | `413 Payload Too Large`; a `Content-Length` over it is refused before reading |
/// | nesting depth | 64 | `400 Bad Request` naming the limit and the byte offset |
/// | values (each container, element, key and value) | 100,000 | `400 Bad Request` naming the limit and the byte offset |
///
/// It is a layer: put it on a router, or on one route, and the innermost
/// one applies. `Extension(limits)` does the same.
///
/// ```
/// use axum::{routing::post, Router};
/// use msgpack_axum::{MsgPack, RequestLimits};
///
/// async fn upload(MsgPack(items): MsgPack<Vec<u32>>) -> String {
///     items.len().to_string()
/// }
///
/// let app: Router = Router::new()
///     .route("/upload", post(upload).layer(RequestLimits::new().max_body(64 * 1024 * 1024)))
///     .layer(RequestLimits::new().max_depth(16));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestLimits {
    max_body: Option<usize>,
    max_depth: usize,
    max_values: usize,
}

impl RequestLimits {
    /// The body size limit when none is set here or by [`DefaultBodyLimit`].
    pub const DEFAULT_MAX_BODY: usize = 10 * 1024 * 1024;
    /// The default nesting depth limit.
    pub const DEFAULT_MAX_DEPTH: usize = 64;
    /// The default limit on the number of values.
    pub const DEFAULT_MAX_VALUES: usize = 100_000;

    /// The defaults: 10 MiB (or axum's [`DefaultBodyLimit`]), depth 64,
    /// 100,000 values.
    pub const fn new() -> RequestLimits {
        RequestLimits {
            max_body: None,
            max_depth: Self::DEFAULT_MAX_DEPTH,
            max_values: Self::DEFAULT_MAX_VALUES,
        }
    }

    /// Sets the body size limit in bytes, counted after decompression. It
    /// takes precedence over axum's [`DefaultBodyLimit`].
    #[must_use]
    pub const fn max_body(mut self, bytes: usize) -> RequestLimits {
        self.max_body = Some(bytes);
        self
    }

    /// Sets the nesting depth limit (`[[1]]` has depth 2).
    #[must_use]
    pub const fn max_depth(mut self, depth: usize) -> RequestLimits {
        self.max_depth = depth;
        self
    }

    /// Sets the limit on the number of values decoded.
    #[must_use]
    pub const fn max_values(mut self, values: usize) -> RequestLimits {
        self.max_values = values;
        self
    }

    /// The body size limit set here, if any.
    pub const fn body(&self) -> Option<usize> {
        self.max_body
    }

    /// The nesting depth limit.
    pub const fn depth(&self) -> usize {
        self.max_depth
    }

    /// The limit on the number of values.
    pub const fn values(&self) -> usize {
        self.max_values
    }

    /// The decoder's [`Limits`]: depth and value count (the body size is
    /// checked while reading).
    pub const fn decode_limits(&self) -> Limits {
        Limits::new()
            .max_depth(self.max_depth)
            .max_values(self.max_values)
    }

    /// The limits in force for a request: the innermost set on its route,
    /// or the defaults.
    pub(crate) fn of(extensions: &Extensions) -> RequestLimits {
        extensions
            .get::<RequestLimits>()
            .copied()
            .unwrap_or_default()
    }

    /// The body size limit for a request, `None` for no limit: the one set
    /// here, else axum's [`DefaultBodyLimit`] when one is set, else 10 MiB.
    pub(crate) fn body_limit(&self, extensions: &mut Extensions) -> Option<usize> {
        match self.max_body {
            Some(bytes) => Some(bytes),
            None => axum_body_limit(extensions).unwrap_or(Some(Self::DEFAULT_MAX_BODY)),
        }
    }
}

impl Default for RequestLimits {
    fn default() -> RequestLimits {
        RequestLimits::new()
    }
}

impl<S> Layer<S> for RequestLimits {
    type Service = AddRequestLimits<S>;

    fn layer(&self, inner: S) -> AddRequestLimits<S> {
        AddRequestLimits {
            inner,
            limits: *self,
        }
    }
}

/// The service of the [`RequestLimits`] layer: records the limits in each
/// request's extensions.
#[derive(Clone, Debug)]
pub struct AddRequestLimits<S> {
    inner: S,
    limits: RequestLimits,
}

impl<S, B> Service<http::Request<B>> for AddRequestLimits<S>
where
    S: Service<http::Request<B>>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> S::Future {
        request.extensions_mut().insert(self.limits);
        self.inner.call(request)
    }
}

/// The limit axum's [`DefaultBodyLimit`] sets on this request: `None` when
/// no `DefaultBodyLimit` is set, `Some(None)` when it is disabled.
///
/// axum keeps the setting in a private extension; its public
/// `with_limited_body` applies it, so the limit is read off the size hint
/// of a probe body of unknown length after it (http-body-util's `Limited`
/// caps the upper bound at the limit). The 2 MiB axum applies when nothing
/// is set looks the same as `DefaultBodyLimit::max(2 MiB)`; the two are
/// told apart by whether setting that same limit again adds an extension.
///
/// Why a probe, and not what axum offers for reading a limited body
/// (`Bytes::from_request`, `RequestExt::with_limited_body` on the request
/// itself, both `Limited` inside): those apply axum's limit but never say
/// what it is, and the behaviour the tests pin needs the number and
/// whether it was set.
/// - With no `DefaultBodyLimit` our default is 10 MiB, where axum's is
///   2 MiB (`the_default_size_limit_is_10_mib` in tests/http.rs).
/// - [`RequestLimits::max_body`] wins over a `DefaultBodyLimit`, above it
///   as well as below, so axum's `Limited` cannot be around the body.
/// - A `Content-Length` over the limit is refused before reading, and the
///   413 names the limit: both need the number.
/// - `Bytes::from_request` collects through a list of frames: more
///   allocations than [`Frames`](crate::frames::Frames), which
///   tests/alloc.rs counts.
///
/// What would break it, and which tests then fail (they run against the
/// axum in Cargo.lock): `with_limited_body` no longer wrapping the body in
/// `Limited`, or `Limited` no longer capping the size hint (a set limit
/// reads as none: `a_default_body_limit_is_read`); `DefaultBodyLimit::apply`
/// no longer inserting one extension that a second `apply` replaces, or
/// axum's own default moving from 2 MiB (`no_default_body_limit_is_not_set`
/// and `a_default_body_limit_is_read` below, and
/// `axums_default_body_limit_is_respected_when_set` in tests/http.rs).
/// Should axum make the limit readable, read it here directly instead.
fn axum_body_limit(extensions: &mut Extensions) -> Option<Option<usize>> {
    const AXUM_DEFAULT: usize = 2 * 1024 * 1024;

    let mut probe = Request::new(Body::new(UnknownLength));
    std::mem::swap(probe.extensions_mut(), extensions);
    let mut probe = probe.with_limited_body();
    let upper = probe.body().size_hint().upper();
    let limit = upper.map(|bytes| usize::try_from(bytes).unwrap_or(usize::MAX));
    let set = match limit {
        Some(AXUM_DEFAULT) => {
            let before = probe.extensions().len();
            DefaultBodyLimit::max(AXUM_DEFAULT).apply(&mut probe);
            probe.extensions().len() == before
        }
        _ => true,
    };
    std::mem::swap(probe.extensions_mut(), extensions);
    set.then_some(limit)
}

/// An empty body whose length is unknown: a limit shows in its hint, and
/// a HEAD response with it claims no length.
pub(crate) struct UnknownLength;

impl http_body::Body for UnknownLength {
    type Data = bytes::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<bytes::Bytes>, Self::Error>>> {
        Poll::Ready(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extensions_with(limit: Option<DefaultBodyLimit>) -> Extensions {
        let mut request = Request::new(Body::empty());
        if let Some(limit) = limit {
            limit.apply(&mut request);
        }
        std::mem::take(request.extensions_mut())
    }

    #[test]
    fn no_default_body_limit_is_not_set() {
        assert_eq!(axum_body_limit(&mut extensions_with(None)), None);
    }

    #[test]
    fn a_default_body_limit_is_read() {
        assert_eq!(
            axum_body_limit(&mut extensions_with(Some(DefaultBodyLimit::max(1234)))),
            Some(Some(1234))
        );
        assert_eq!(
            axum_body_limit(&mut extensions_with(Some(DefaultBodyLimit::max(0)))),
            Some(Some(0))
        );
        let two_mib = DefaultBodyLimit::max(2 * 1024 * 1024);
        assert_eq!(
            axum_body_limit(&mut extensions_with(Some(two_mib))),
            Some(Some(2 * 1024 * 1024))
        );
        assert_eq!(
            axum_body_limit(&mut extensions_with(Some(DefaultBodyLimit::disable()))),
            Some(None)
        );
    }

    #[test]
    fn probing_keeps_the_extensions() {
        let mut extensions = extensions_with(Some(DefaultBodyLimit::max(99)));
        extensions.insert(RequestLimits::new().max_depth(3));
        axum_body_limit(&mut extensions);
        assert_eq!(extensions.len(), 2);
        assert_eq!(RequestLimits::of(&extensions).depth(), 3);
        assert_eq!(axum_body_limit(&mut extensions), Some(Some(99)));
    }

    #[test]
    fn the_body_limit_in_force() {
        let mut none = extensions_with(None);
        assert_eq!(
            RequestLimits::new().body_limit(&mut none),
            Some(RequestLimits::DEFAULT_MAX_BODY)
        );
        assert_eq!(
            RequestLimits::new().max_body(10).body_limit(&mut none),
            Some(10)
        );
        let mut axum = extensions_with(Some(DefaultBodyLimit::max(77)));
        assert_eq!(RequestLimits::new().body_limit(&mut axum), Some(77));
        assert_eq!(
            RequestLimits::new().max_body(10).body_limit(&mut axum),
            Some(10)
        );
        let mut disabled = extensions_with(Some(DefaultBodyLimit::disable()));
        assert_eq!(RequestLimits::new().body_limit(&mut disabled), None);
    }
}
