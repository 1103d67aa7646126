//! Requests and responses at the edges, over real TCP: error responses
//! whose JSON cannot be re-encoded, a body limit layered around a route,
//! a request body in a content coding, and JSON replies past the
//! client's limits.

use std::time::Duration;

use axum::http::{header, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use msgpack_axum::client::{Error, ResponseExt};
use msgpack_axum::{MsgPack, NegotiateLayer};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tower_http::limit::RequestBodyLimitLayer;

async fn serve(app: Router) -> String {
    msgpack_test_support::http::serve(app).await.url
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

/// JSON nested `depth` arrays deep.
fn nested(depth: usize) -> String {
    "[".repeat(depth) + &"]".repeat(depth)
}

#[tokio::test]
async fn an_error_response_whose_json_cannot_be_re_encoded_passes_unchanged() {
    let deep = nested(200);
    let app = Router::new()
        .route(
            "/unauthorized",
            get(|| async {
                (
                    StatusCode::UNAUTHORIZED,
                    [(header::CONTENT_TYPE, "application/json")],
                    "",
                )
            }),
        )
        .route(
            "/deep_error",
            get(move || async move {
                (
                    StatusCode::BAD_REQUEST,
                    [(header::CONTENT_TYPE, "application/json")],
                    deep,
                )
            }),
        )
        .layer(NegotiateLayer::new());
    let base = serve(app).await;
    for (path, status, body) in [
        ("/unauthorized", StatusCode::UNAUTHORIZED, String::new()),
        ("/deep_error", StatusCode::BAD_REQUEST, nested(200)),
    ] {
        let response = client()
            .get(format!("{base}{path}"))
            .header(header::ACCEPT, "application/msgpack")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), status, "{path}");
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
        assert_eq!(response.text().await.unwrap(), body);
    }
}

#[tokio::test]
async fn a_body_limit_layered_around_the_route_is_a_413() {
    let app = Router::new()
        .route(
            "/upload",
            post(|MsgPack(value): MsgPack<Value>| async move { Json(value) }),
        )
        .layer(RequestBodyLimitLayer::new(100));
    let server = msgpack_test_support::http::serve(app).await;
    // Chunked, no Content-Length: the limit is found while reading.
    let mut request = b"POST /upload HTTP/1.1\r\nHost: test\r\n\
        Content-Type: application/msgpack\r\nTransfer-Encoding: chunked\r\n\
        Connection: close\r\n\r\n"
        .to_vec();
    for _ in 0..2 {
        request.extend(b"50\r\n");
        request.extend([0xc0; 0x50]);
        request.extend(b"\r\n");
    }
    request.extend(b"0\r\n\r\n");
    let mut stream = TcpStream::connect(server.address).await.unwrap();
    stream.write_all(&request).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let response = String::from_utf8_lossy(&response);
    assert!(response.starts_with("HTTP/1.1 413 "), "{response}");
    assert!(
        response.ends_with(
            r#""error":"request body exceeds the size limit","code":"payload_too_large"}"#
        ),
        "{response}"
    );
}

#[tokio::test]
async fn a_request_body_in_a_content_coding_nobody_decodes_is_a_415() {
    let app = Router::new().route(
        "/upload",
        post(|MsgPack(value): MsgPack<Value>| async move { Json(value) }),
    );
    let base = serve(app).await;
    let response = client()
        .post(format!("{base}/upload"))
        .header(header::CONTENT_TYPE, "application/msgpack")
        .header(header::CONTENT_ENCODING, "gzip")
        .body(vec![0x1f, 0x8b, 0x08, 0x00])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let refusal: Value = response.json().await.unwrap();
    assert_eq!(refusal["code"], "unsupported_media_type");
    assert_eq!(
        refusal["error"],
        "request body has Content-Encoding gzip, which this server does not decode"
    );
    // `identity` is no coding at all.
    let response = client()
        .post(format!("{base}/upload"))
        .header(header::CONTENT_TYPE, "application/msgpack")
        .header(header::CONTENT_ENCODING, "Identity")
        .body(vec![0x2a])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.text().await.unwrap(), "42");
}

#[tokio::test]
async fn the_client_reads_json_replies_under_the_same_limits_as_msgpack() {
    let app = Router::new().route(
        "/deep",
        get(|| async { ([(header::CONTENT_TYPE, "application/json")], nested(100)) }),
    );
    let base = serve(app).await;
    let reply = client().get(format!("{base}/deep")).send().await.unwrap();
    let error = reply.decode::<Value>().await.unwrap_err();
    assert!(matches!(error, Error::LimitExceeded(_)), "{error:?}");
    assert_eq!(
        error.to_string(),
        "reply refused: JSON nesting exceeds the depth limit of 64"
    );
}

/// What GET / answers with these `Accept` lines: status and
/// `Content-Type`.
async fn answer(base: &str, accept: &[&str]) -> (StatusCode, String) {
    let mut request = client().get(format!("{base}/"));
    for line in accept {
        request = request.header(header::ACCEPT, *line);
    }
    let response = request.send().await.unwrap();
    let content_type = response.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_owned();
    (response.status(), content_type)
}

#[tokio::test]
async fn accept_edges_empty_elements_an_excluded_tie_and_json_refused() {
    let app = Router::new()
        .route("/", get(|| async { Json(serde_json::json!({"id": 1})) }))
        .layer(NegotiateLayer::new());
    let base = serve(app).await;
    let msgpack = (StatusCode::OK, "application/msgpack".to_owned());
    // Empty list elements are ignored (RFC 9110, 5.6.1), not a reason to
    // read the whole header as malformed (which means JSON).
    assert_eq!(answer(&base, &[", application/msgpack"]).await, msgpack);
    assert_eq!(
        answer(&base, &["application/json;q=0.1, , application/msgpack"]).await,
        msgpack
    );
    assert_eq!(answer(&base, &["", "application/msgpack"]).await, msgpack);
    // A tie among MessagePack names goes to `application/msgpack` only
    // when the client did not exclude it.
    let tie = "application/msgpack;q=0, application/x-msgpack, application/vnd.msgpack";
    assert_eq!(
        answer(&base, &[tie]).await,
        (StatusCode::OK, "application/x-msgpack".to_owned())
    );
    // `application/json;q=0` refuses JSON, whatever `+json` type follows.
    let (status, _) = answer(&base, &["application/json;q=0, application/problem+json"]).await;
    assert_eq!(status, StatusCode::NOT_ACCEPTABLE);
}

#[tokio::test]
async fn a_406_keeps_the_responses_other_headers_and_redirects_pass() {
    let app = Router::new()
        .route(
            "/",
            get(|| async {
                (
                    [
                        (header::VARY, "Origin"),
                        (header::SET_COOKIE, "session=1"),
                        (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
                        (header::ETAG, "\"v1\""),
                    ],
                    Json(serde_json::json!({"id": 1})),
                )
            }),
        )
        .route(
            "/moved",
            get(|| async { (StatusCode::FOUND, [(header::LOCATION, "/new")], "moved") }),
        )
        .layer(NegotiateLayer::new());
    let base = serve(app).await;
    let response = client()
        .get(format!("{base}/"))
        .header(header::ACCEPT, "text/html")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_ACCEPTABLE);
    let headers = response.headers();
    assert_eq!(headers[header::SET_COOKIE], "session=1");
    assert_eq!(headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "*");
    assert_eq!(headers[header::VARY], "Origin, Accept");
    assert_eq!(headers[header::CONTENT_TYPE], "application/json");
    assert!(!headers.contains_key(header::ETAG));
    let refusal: Value = response.json().await.unwrap();
    assert_eq!(refusal["code"], "not_acceptable");

    let redirect = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(format!("{base}/moved"))
        .header(header::ACCEPT, "application/msgpack")
        .send()
        .await
        .unwrap();
    assert_eq!(redirect.status(), StatusCode::FOUND);
    assert_eq!(redirect.headers()[header::LOCATION], "/new");
}

#[tokio::test]
async fn with_the_json_fallback_json_that_cannot_be_re_encoded_is_answered_as_json() {
    let app = Router::new()
        .route(
            "/deep",
            get(|| async { ([(header::CONTENT_TYPE, "application/json")], nested(200)) }),
        )
        .layer(NegotiateLayer::new().fallback_to_json(true));
    let base = serve(app).await;
    let response = client()
        .get(format!("{base}/deep"))
        .header(header::ACCEPT, "application/msgpack")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
    assert_eq!(response.text().await.unwrap(), nested(200));
}
