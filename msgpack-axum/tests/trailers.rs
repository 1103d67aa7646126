//! Trailers through `NegotiateLayer`, over real TCP with `TE: trailers`:
//! a JSON body the layer reads and does not re-encode keeps them, as it
//! does when the layer leaves the body alone.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use bytes::Bytes;
use http_body::Frame;
use msgpack_axum::NegotiateLayer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A body of frames; `None` is one `Pending`, woken at once.
struct Scripted(VecDeque<Option<Frame<Bytes>>>);

impl http_body::Body for Scripted {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.0.pop_front() {
            Some(None) => {
                cx.waker().wake_by_ref();
                Poll::Pending
            }
            Some(Some(frame)) => Poll::Ready(Some(Ok(frame))),
            None => Poll::Ready(None),
        }
    }
}

fn trailers() -> HeaderMap {
    let mut trailers = HeaderMap::new();
    trailers.insert("checksum", HeaderValue::from_static("abc"));
    trailers
}

/// `json` with a `checksum` trailer, then (`then_waits`) one `Pending`
/// before the end, as a channel body whose sender is still alive does.
fn with_trailers(status: StatusCode, json: &'static str, then_waits: bool) -> Response {
    let mut script = VecDeque::from([
        Some(Frame::data(Bytes::from_static(json.as_bytes()))),
        Some(Frame::trailers(trailers())),
    ]);
    if then_waits {
        script.push_back(None);
    }
    let headers = [
        (header::CONTENT_TYPE, "application/json"),
        (header::TRAILER, "checksum"),
    ];
    (status, headers, Body::new(Scripted(script))).into_response()
}

/// The raw HTTP/1.1 response to a GET of `/` with `accept`.
async fn raw_get(app: Router, accept: &str) -> Vec<u8> {
    let server = msgpack_test_support::http::serve(app).await;
    let mut stream = TcpStream::connect(server.address).await.unwrap();
    let request = format!(
        "GET / HTTP/1.1\r\nHost: x\r\nTE: trailers\r\nAccept: {accept}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response))
        .await
        .unwrap()
        .unwrap();
    response
}

/// The response, as text for the checks and their messages.
fn text(response: &[u8]) -> String {
    String::from_utf8_lossy(response).into_owned()
}

#[tokio::test]
async fn json_that_ends_with_trailers_keeps_them_when_passed() {
    let app = || {
        Router::new()
            .route(
                "/",
                get(|| async { with_trailers(StatusCode::OK, r#"{"a":1}"#, true) }),
            )
            .layer(NegotiateLayer::new())
    };
    // Left alone by the layer, and read by it (trailers end the body)
    // for a client that prefers MessagePack: re-encoded, without them.
    let json = text(&raw_get(app(), "application/json").await);
    assert!(
        json.ends_with("7\r\n{\"a\":1}\r\n0\r\nchecksum: abc\r\n\r\n"),
        "{json}"
    );
    let msgpack = raw_get(app(), "application/msgpack, application/json;q=0.5").await;
    let head = text(&msgpack);
    assert!(
        head.contains("content-type: application/msgpack\r\n"),
        "{head}"
    );
    assert!(head.contains("content-length: 4\r\n"), "{head}");
    assert!(!head.contains("trailer:"), "{head}");
    assert!(msgpack.ends_with(b"\r\n\r\n\x81\xa1a\x01"), "{head}");
}

#[tokio::test]
async fn json_that_does_not_re_encode_keeps_its_trailers() {
    let app = Router::new()
        .route(
            "/",
            get(|| async { with_trailers(StatusCode::INTERNAL_SERVER_ERROR, "[1,", false) }),
        )
        .layer(NegotiateLayer::new());
    let response = text(&raw_get(app, "application/msgpack").await);
    assert!(response.starts_with("HTTP/1.1 500"), "{response}");
    assert!(
        response.contains("content-type: application/json\r\n"),
        "{response}"
    );
    assert!(
        response.ends_with("3\r\n[1,\r\n0\r\nchecksum: abc\r\n\r\n"),
        "{response}"
    );
}
