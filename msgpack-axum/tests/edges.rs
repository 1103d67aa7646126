//! Requests and responses at the edges, over real TCP: error responses
//! whose JSON cannot be re-encoded, a body limit layered around a route,
//! a request body in a content coding, JSON replies past the client's
//! limits, JSON bodies of unknown length, and `Negotiated` in a tuple
//! for a request that accepts neither format.

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::StreamExt;
use msgpack_axum::client::{Error, ResponseExt};
use msgpack_axum::{MsgPack, NegotiateLayer, Negotiated};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::ResponseBodyTimeoutLayer;
use tower_layer::Layer;

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

// ---- JSON bodies of unknown length ----

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Profile {
    id: u64,
    name: String,
    roles: Vec<String>,
}

fn profile() -> Profile {
    Profile {
        id: 1042,
        name: "Ada".into(),
        roles: vec!["maintainer".into()],
    }
}

/// A JSON document of 32 bytes in three chunks of 9, 11 and 12.
const CHUNKS: [&str; 3] = [r#"{"items":"#, "[1,2,3,4,5,", "6,7,8,9,10]}"];

/// `CHUNKS` as MessagePack.
const CHUNKS_MSGPACK: &[u8] = b"\x81\xa5items\x9a\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a";

/// `chunks` as `Body::from_stream` gives them, each after a pause: a
/// stream, a JSON body of unknown length that is not ready at once.
fn streamed(status: StatusCode, chunks: &'static [&'static str]) -> Response {
    let chunks = futures_util::stream::iter(chunks).then(|chunk| async move {
        tokio::task::yield_now().await;
        Ok::<_, std::io::Error>(*chunk)
    });
    let headers = [(header::CONTENT_TYPE, "application/json")];
    (status, headers, Body::from_stream(chunks)).into_response()
}

/// `chunks` as `Body::from_stream` gives them, all ready at once: a JSON
/// body of unknown length, as a wrapper that hides a length makes one.
fn ready(status: StatusCode, chunks: &'static [&'static str]) -> Response {
    let chunks = futures_util::stream::iter(chunks).map(|chunk| Ok::<_, std::io::Error>(*chunk));
    let headers = [(header::CONTENT_TYPE, "application/json")];
    (status, headers, Body::from_stream(chunks)).into_response()
}

/// GET `path` with one `Accept`: status, `Content-Type`, body.
async fn fetch(base: &str, path: &str, accept: &str) -> (StatusCode, String, Vec<u8>) {
    let response = client()
        .get(format!("{base}{path}"))
        .header(header::ACCEPT, accept)
        .send()
        .await
        .unwrap();
    let content_type = response.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_owned();
    (
        response.status(),
        content_type,
        response.bytes().await.unwrap().to_vec(),
    )
}

#[tokio::test]
async fn a_json_handler_behind_a_response_body_timeout_is_re_encoded() {
    // `TimeoutBody` hides the length of the `Json` body it wraps.
    let app = Router::new()
        .route("/profile", get(|| async { Json(profile()) }))
        .layer(ResponseBodyTimeoutLayer::new(Duration::from_secs(10)))
        .layer(NegotiateLayer::new());
    let base = serve(app).await;
    let response = client()
        .get(format!("{base}/profile"))
        .header(header::ACCEPT, "application/msgpack")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "application/msgpack"
    );
    let length = response.headers()[header::CONTENT_LENGTH].clone();
    let body = response.bytes().await.unwrap();
    assert_eq!(length, body.len().to_string().as_str());
    assert_eq!(body, msgpack_serde::to_vec(&profile()).unwrap());
    assert_eq!(
        msgpack_serde::from_slice::<Profile>(&body).unwrap(),
        profile()
    );
    let json = fetch(&base, "/profile", "application/json").await;
    assert_eq!(
        json,
        (
            StatusCode::OK,
            "application/json".to_owned(),
            serde_json::to_vec(&profile()).unwrap()
        )
    );
}

#[tokio::test]
async fn a_ready_json_body_of_unknown_length_within_the_cap_is_re_encoded() {
    let app = Router::new()
        .route("/", get(|| async { ready(StatusCode::OK, &CHUNKS) }))
        .layer(NegotiateLayer::new().max_reencoded_len(32));
    let base = serve(app).await;
    assert_eq!(
        fetch(&base, "/", "application/msgpack").await,
        (
            StatusCode::OK,
            "application/msgpack".to_owned(),
            CHUNKS_MSGPACK.to_vec()
        )
    );
}

#[tokio::test]
async fn a_json_body_past_the_cap_or_not_ready_passes_as_json_or_is_406() {
    let routes = || {
        Router::new()
            .route("/", get(|| async { ready(StatusCode::OK, &CHUNKS) }))
            .route(
                "/stream",
                get(|| async { streamed(StatusCode::OK, &CHUNKS) }),
            )
            .route(
                "/unavailable",
                get(|| async { ready(StatusCode::SERVICE_UNAVAILABLE, &CHUNKS) }),
            )
            .route(
                "/short",
                get(|| async { ready(StatusCode::OK, &["[1,", "2]"]) }),
            )
    };
    // 16 bytes: the second chunk passes the cap.
    let base = serve(routes().layer(NegotiateLayer::new().max_reencoded_len(16))).await;
    let json = (
        StatusCode::OK,
        "application/json".to_owned(),
        CHUNKS.concat().into_bytes(),
    );
    let both = "application/msgpack, application/json;q=0.5";
    assert_eq!(fetch(&base, "/", both).await, json);
    let short = (
        StatusCode::OK,
        "application/msgpack".to_owned(),
        b"\x92\x01\x02".to_vec(),
    );
    assert_eq!(fetch(&base, "/short", both).await, short);

    // Under the default cap the ready body is re-encoded, while the
    // stream, not ready at once, is not waited for.
    let wide = serve(routes().layer(NegotiateLayer::new())).await;
    let msgpack = (
        StatusCode::OK,
        "application/msgpack".to_owned(),
        CHUNKS_MSGPACK.to_vec(),
    );
    assert_eq!(fetch(&wide, "/", both).await, msgpack);
    assert_eq!(fetch(&wide, "/stream", both).await, json);
    for (base, path) in [(&base, "/"), (&wide, "/stream")] {
        let (status, content_type, body) = fetch(base, path, "application/msgpack").await;
        assert_eq!(
            (status, content_type.as_str()),
            (StatusCode::NOT_ACCEPTABLE, "application/json")
        );
        let refusal: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(refusal["code"], "not_acceptable");
        assert_eq!(refusal["offered"], json!(["application/json"]));
    }

    // An error passes whatever the client accepts.
    let (status, content_type, body) = fetch(&base, "/unavailable", "application/msgpack").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!((content_type, body), (json.1.clone(), json.2.clone()));

    let lenient = NegotiateLayer::new()
        .max_reencoded_len(16)
        .fallback_to_json(true);
    let base = serve(routes().layer(lenient)).await;
    assert_eq!(fetch(&base, "/", "application/msgpack").await, json);
    assert_eq!(fetch(&base, "/stream", "application/msgpack").await, json);
}

#[tokio::test]
async fn a_json_stream_that_waits_is_answered_at_once() {
    // `[1,` and then nothing, for as long as the connection lasts.
    let app = Router::new()
        .route(
            "/",
            get(|| async {
                let waits =
                    futures_util::stream::iter(["[1,"]).chain(futures_util::stream::pending());
                let body = Body::from_stream(waits.map(Ok::<_, std::io::Error>));
                ([(header::CONTENT_TYPE, "application/json")], body)
            }),
        )
        .layer(NegotiateLayer::new());
    let base = serve(app).await;
    let request = client()
        .get(format!("{base}/"))
        .header(
            header::ACCEPT,
            "application/msgpack, application/json;q=0.5",
        )
        .send();
    let mut response = tokio::time::timeout(Duration::from_secs(10), request)
        .await
        .expect("the response's head came at once")
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
    let first = tokio::time::timeout(Duration::from_secs(10), response.chunk())
        .await
        .expect("the first chunk came at once")
        .unwrap();
    assert_eq!(first.as_deref(), Some(&b"[1,"[..]));
}

/// A JSON body of `status` whose first chunk is ready and whose next
/// read fails.
fn failing(status: StatusCode) -> Response {
    let chunks = futures_util::stream::iter([
        Ok(CHUNKS[0]),
        Err(std::io::Error::other("the database went away")),
    ]);
    let headers = [(header::CONTENT_TYPE, "application/json")];
    (status, headers, Body::from_stream(chunks)).into_response()
}

#[tokio::test]
async fn a_json_body_that_fails_while_read_is_a_500_unless_it_can_pass() {
    let app = Router::new()
        .route("/", get(|| async { failing(StatusCode::OK) }))
        .route(
            "/unavailable",
            get(|| async { failing(StatusCode::SERVICE_UNAVAILABLE) }),
        )
        .layer(NegotiateLayer::new());
    let base = serve(app).await;
    let response = client()
        .get(format!("{base}/"))
        .header(header::ACCEPT, "application/msgpack")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(response.headers()[header::VARY], "Accept");
    assert_eq!(
        response.text().await.unwrap(),
        "the response body failed: the database went away"
    );
    // An error response, and a client that takes JSON, get the body as it
    // was: the bytes read, then the failure, which hyper answers by
    // closing the connection (here before the head, the body failing at
    // once), never a body that looks whole.
    for (path, accept) in [
        ("/unavailable", "application/msgpack"),
        ("/", "application/msgpack, application/json;q=0.5"),
    ] {
        let outcome = async {
            let response = client()
                .get(format!("{base}{path}"))
                .header(header::ACCEPT, accept)
                .send()
                .await?;
            response.bytes().await
        };
        assert!(outcome.await.is_err(), "{path}: the failure arrives");
    }
}

#[tokio::test]
async fn head_and_get_agree_for_a_json_body_within_the_cap() {
    let routes = || {
        Router::new()
            .route("/unsized", get(|| async { ready(StatusCode::OK, &CHUNKS) }))
            .route("/sized", get(|| async { Json(profile()) }))
    };
    // Around the whole router the layer sees HEAD's body already
    // stripped; on its routes it sees the handler's.
    let around = Router::new().fallback_service(NegotiateLayer::new().layer(routes()));
    let within = routes().layer(NegotiateLayer::new());
    for app in [around, within] {
        let base = serve(app).await;
        for path in ["/unsized", "/sized"] {
            for accept in ["application/msgpack", "application/json"] {
                let (status, content_type, _) = fetch(&base, path, accept).await;
                let head = client()
                    .head(format!("{base}{path}"))
                    .header(header::ACCEPT, accept)
                    .send()
                    .await
                    .unwrap();
                assert_eq!(head.status(), StatusCode::OK, "{path} {accept}");
                assert_eq!(status, StatusCode::OK, "{path} {accept}");
                assert_eq!(head.headers()[header::CONTENT_TYPE], accept, "{path}");
                assert_eq!(content_type, accept, "{path}");
                assert!(head.bytes().await.unwrap().is_empty());
            }
        }
    }
}

// ---- Negotiated in a tuple, for a request accepting neither format ----

#[tokio::test]
async fn negotiated_in_a_success_tuple_is_406_when_nothing_is_acceptable() {
    let app = Router::new()
        .route(
            "/",
            get(|| async { (StatusCode::CREATED, Negotiated(profile())) }),
        )
        .layer(NegotiateLayer::new());
    let base = serve(app).await;
    let (status, content_type, body) = fetch(&base, "/", "text/html").await;
    assert_eq!(status, StatusCode::NOT_ACCEPTABLE);
    assert_eq!(content_type, "application/json");
    assert_eq!(
        serde_json::from_slice::<Value>(&body).unwrap(),
        json!({
            "error": "none of the offered types is acceptable: application/json, application/msgpack, application/x-msgpack, application/vnd.msgpack",
            "code": "not_acceptable",
            "offered": ["application/json", "application/msgpack", "application/x-msgpack", "application/vnd.msgpack"],
        })
    );
    let created = fetch(&base, "/", "application/json").await;
    assert_eq!(
        created,
        (
            StatusCode::CREATED,
            "application/json".to_owned(),
            serde_json::to_vec(&profile()).unwrap()
        )
    );
}

#[tokio::test]
async fn negotiated_in_an_error_tuple_is_json_when_nothing_is_acceptable() {
    let app = Router::new()
        .route(
            "/",
            get(|| async {
                let error = json!({"error": "no such profile"});
                (StatusCode::NOT_FOUND, Negotiated(error))
            }),
        )
        .layer(NegotiateLayer::new());
    let base = serve(app).await;
    assert_eq!(
        fetch(&base, "/", "text/html").await,
        (
            StatusCode::NOT_FOUND,
            "application/json".to_owned(),
            br#"{"error":"no such profile"}"#.to_vec()
        )
    );
}
