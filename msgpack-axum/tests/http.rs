//! msgpack-axum over real TCP: a server on 127.0.0.1 (an ephemeral port)
//! and reqwest, one test per rule of the crate's tables.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use msgpack_axum::client::{RequestBuilderExt, ResponseExt};
use msgpack_axum::{MsgPack, MsgPackCompact, NegotiateLayer, Negotiated, RequestLimits};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Profile {
    id: u64,
    name: String,
    roles: Vec<String>,
}

fn profile() -> Profile {
    Profile {
        id: 1042,
        name: "Laravel MessagePack".into(),
        roles: vec!["maintainer".into(), "developer".into()],
    }
}

/// `profile()` as named MessagePack, the bytes every MessagePack reply of
/// it must have.
fn profile_msgpack() -> Vec<u8> {
    msgpack_serde::to_vec(&profile()).unwrap()
}

/// Serves `app` on 127.0.0.1 at an ephemeral port; returns its base URL.
async fn serve(app: Router) -> String {
    msgpack_test_support::http::serve(app).await.url
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

/// GET `path` with these `Accept` lines.
async fn get_with(base: &str, path: &str, accept: &[&str]) -> reqwest::Response {
    let mut request = client().get(format!("{base}{path}"));
    for value in accept {
        request = request.header(header::ACCEPT, *value);
    }
    request.send().await.unwrap()
}

fn content_type(response: &reqwest::Response) -> &str {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .map_or("", |value| value.to_str().unwrap())
}

fn vary(response: &reqwest::Response) -> Vec<String> {
    response
        .headers()
        .get_all(header::VARY)
        .iter()
        .map(|value| value.to_str().unwrap().to_string())
        .collect()
}

/// A router of `Negotiated` profile at `/`, with the layer.
fn negotiated_app() -> Router {
    Router::new()
        .route("/", get(|| async { Negotiated(profile()) }))
        .layer(NegotiateLayer::new())
}

/// Checks that GET / with `accept` is MessagePack labelled `expected`.
#[track_caller]
fn assert_msgpack(response: &reqwest::Response, expected: &str) {
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(content_type(response), expected);
}

/// Checks that each `Accept` gets a 200 of the `Content-Type` beside it.
async fn check_choices(base: &str, cases: &[(&str, &str)]) {
    for (accept, expected) in cases {
        let got = choice(base, &[accept]).await;
        assert_eq!(
            got,
            (StatusCode::OK, expected.to_string()),
            "Accept: {accept}"
        );
    }
}

async fn choice(base: &str, accept: &[&str]) -> (StatusCode, String) {
    let response = get_with(base, "/", accept).await;
    (response.status(), content_type(&response).to_string())
}

// ---- Negotiation rules ----

#[tokio::test]
async fn every_messagepack_media_type_is_understood() {
    let base = serve(negotiated_app()).await;
    for name in [
        "application/msgpack",
        "application/x-msgpack",
        "application/vnd.msgpack",
    ] {
        let response = get_with(&base, "/", &[name]).await;
        assert_msgpack(&response, name);
        assert_eq!(response.bytes().await.unwrap(), profile_msgpack());
    }
    let suffixed = get_with(&base, "/", &["application/vnd.acme.profile+msgpack"]).await;
    assert_msgpack(&suffixed, "application/vnd.acme.profile+msgpack");
}

#[tokio::test]
async fn parameters_such_as_charset_are_ignored() {
    let base = serve(negotiated_app()).await;
    let response = get_with(&base, "/", &["application/msgpack; charset=utf-8"]).await;
    assert_msgpack(&response, "application/msgpack");
}

#[tokio::test]
async fn a_malformed_accept_counts_as_absent() {
    let base = serve(negotiated_app()).await;
    for accept in [
        "application/msgpack;q=7",
        "application/msgpack;q=x",
        "/",
        "\"",
        "application/msgpack, ;",
    ] {
        assert_eq!(
            choice(&base, &[accept]).await,
            (StatusCode::OK, "application/json".into()),
            "{accept}"
        );
    }
}

#[tokio::test]
async fn no_accept_or_one_without_messagepack_is_json() {
    let base = serve(negotiated_app()).await;
    let response = client()
        .get(format!("{base}/"))
        .header(header::ACCEPT, "")
        .send()
        .await
        .unwrap();
    assert_eq!(content_type(&response), "application/json");
    let plain = reqwest::Client::new()
        .get(format!("{base}/"))
        .send()
        .await
        .unwrap();
    assert!(plain.headers().get(header::ACCEPT).is_none());
    assert_eq!(plain.json::<Profile>().await.unwrap(), profile());
    check_choices(
        &base,
        &[
            ("application/json", "application/json"),
            ("text/html, application/json;q=0.9", "application/json"),
        ],
    )
    .await;
}

#[tokio::test]
async fn wildcards_alone_never_select_messagepack() {
    let base = serve(negotiated_app()).await;
    let json = "application/json";
    let cases = [
        ("*/*", json),
        ("application/*", json),
        ("*/*;q=1, application/*;q=1", json),
    ];
    check_choices(&base, &cases).await;
}

#[tokio::test]
async fn the_higher_q_wins() {
    let base = serve(negotiated_app()).await;
    check_choices(
        &base,
        &[
            (
                "application/json, application/msgpack;q=0.9",
                "application/json",
            ),
            (
                "application/json;q=0.8, application/msgpack",
                "application/msgpack",
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn equal_q_goes_to_messagepack() {
    let base = serve(negotiated_app()).await;
    check_choices(
        &base,
        &[
            (
                "application/json, application/msgpack",
                "application/msgpack",
            ),
            (
                "application/json;q=0.5, application/x-msgpack;q=0.5",
                "application/x-msgpack",
            ),
        ],
    )
    .await;
}

#[tokio::test]
async fn q_zero_excludes_a_type_also_under_a_wildcard() {
    let base = serve(negotiated_app()).await;
    check_choices(
        &base,
        &[("application/msgpack;q=0, */*", "application/json")],
    )
    .await;
    assert_eq!(
        choice(&base, &["*/*, application/json;q=0"]).await.0,
        StatusCode::NOT_ACCEPTABLE
    );
    check_choices(
        &base,
        &[(
            "*/*, application/json;q=0, application/msgpack",
            "application/msgpack",
        )],
    )
    .await;
}

#[tokio::test]
async fn the_content_type_is_the_messagepack_type_named() {
    let base = serve(negotiated_app()).await;
    let accept = "application/x-msgpack;q=0.4, application/vnd.msgpack;q=0.9";
    check_choices(&base, &[(accept, "application/vnd.msgpack")]).await;
    let accept = "application/x-msgpack, application/vnd.msgpack";
    check_choices(&base, &[(accept, "application/msgpack")]).await;
}

#[tokio::test]
async fn accepting_neither_is_406_listing_the_types_offered() {
    let base = serve(negotiated_app()).await;
    let response = get_with(&base, "/", &["text/html"]).await;
    assert_eq!(response.status(), StatusCode::NOT_ACCEPTABLE);
    assert_eq!(content_type(&response), "application/json");
    assert_eq!(vary(&response), ["Accept"]);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(
        body,
        json!({
            "error": "none of the offered types is acceptable: application/json, application/msgpack, application/x-msgpack, application/vnd.msgpack",
            "code": "not_acceptable",
            "offered": ["application/json", "application/msgpack", "application/x-msgpack", "application/vnd.msgpack"],
        })
    );
}

#[tokio::test]
async fn the_lenient_option_falls_back_to_json() {
    let app = Router::new()
        .route("/", get(|| async { Negotiated(profile()) }))
        .route("/plain", get(|| async { Json(profile()) }))
        .layer(NegotiateLayer::new().fallback_to_json(true));
    let base = serve(app).await;
    for path in ["/", "/plain"] {
        let response = get_with(&base, path, &["text/html"]).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(content_type(&response), "application/json");
        assert_eq!(response.json::<Profile>().await.unwrap(), profile());
    }
}

#[tokio::test]
async fn every_negotiable_response_varies_on_accept() {
    let app = Router::new()
        .route("/", get(|| async { Negotiated(profile()) }))
        .route(
            "/origin",
            get(|| async { ([(header::VARY, "Origin")], Json(profile())) }),
        )
        .route(
            "/star",
            get(|| async { ([(header::VARY, "*")], Json(profile())) }),
        )
        .layer(NegotiateLayer::new());
    let base = serve(app).await;
    for accept in ["application/json", "application/msgpack", "text/html"] {
        assert_eq!(
            vary(&get_with(&base, "/", &[accept]).await),
            ["Accept"],
            "{accept}"
        );
    }
    assert_eq!(
        vary(&get_with(&base, "/origin", &["application/msgpack"]).await),
        ["Origin, Accept"]
    );
    assert_eq!(
        vary(&get_with(&base, "/star", &["application/msgpack"]).await),
        ["*"]
    );
}

// ---- Responses ----

#[tokio::test]
async fn msgpack_responses_work_in_tuples_like_json() {
    async fn created() -> (StatusCode, HeaderMap, MsgPack<Profile>) {
        let mut headers = HeaderMap::new();
        headers.insert("x-request-id", HeaderValue::from_static("7"));
        (StatusCode::CREATED, headers, MsgPack(profile()))
    }
    let app = Router::new()
        .route("/", get(created))
        .route("/compact", get(|| async { MsgPackCompact(profile()) }));
    let base = serve(app).await;
    let response = get_with(&base, "/", &[]).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    assert_eq!(content_type(&response), "application/msgpack");
    assert_eq!(response.headers()["x-request-id"], "7");
    assert!(response.headers().get(header::VARY).is_none());
    assert_eq!(response.bytes().await.unwrap(), profile_msgpack());
    let compact = get_with(&base, "/compact", &[])
        .await
        .bytes()
        .await
        .unwrap();
    assert_eq!(compact, msgpack_serde::to_vec_compact(&profile()).unwrap());
}

#[tokio::test]
async fn negotiated_without_the_layer_says_so() {
    let base = serve(Router::new().route("/", get(|| async { Negotiated(profile()) }))).await;
    let response = get_with(&base, "/", &["application/msgpack"]).await;
    assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    let text = response.text().await.unwrap();
    assert!(
        text.starts_with("Negotiated<T> needs NegotiateLayer on the router"),
        "{text}"
    );
}

#[tokio::test]
async fn negotiated_can_write_structs_as_arrays() {
    let app = Router::new()
        .route("/", get(|| async { Negotiated(profile()) }))
        .layer(NegotiateLayer::new().config(msgpack_serde::Config::compact()));
    let base = serve(app).await;
    let bytes = get_with(&base, "/", &["application/msgpack"])
        .await
        .bytes()
        .await
        .unwrap();
    assert_eq!(bytes, msgpack_serde::to_vec_compact(&profile()).unwrap());
}

// ---- The layer on a router of plain Json handlers ----

fn json_router() -> Router {
    Router::new()
        .route("/profile", get(|| async { Json(profile()) }))
        .route(
            "/error",
            get(|| async {
                (
                    StatusCode::UNPROCESSABLE_ENTITY,
                    Json(json!({"error": "bad sku", "at": [3]})),
                )
            }),
        )
        .route(
            "/tagged",
            get(|| async {
                let headers = [
                    (header::ETAG, "\"abc\""),
                    (
                        header::HeaderName::from_static("content-md5"),
                        "Q2hlY2sgSW50ZWdyaXR5IQ==",
                    ),
                    (
                        header::HeaderName::from_static("digest"),
                        "sha-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=",
                    ),
                    (header::CONTENT_RANGE, "bytes 0-10/11"),
                    (header::CACHE_CONTROL, "max-age=60"),
                ];
                (headers, Json(profile()))
            }),
        )
        .route(
            "/problem",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "application/problem+json")],
                    r#"{"title":"x"}"#,
                )
            }),
        )
        .route("/html", get(|| async { axum::response::Html("<p>hi</p>") }))
        .route(
            "/gzipped",
            get(|| async {
                (
                    [
                        (header::CONTENT_TYPE, "application/json"),
                        (header::CONTENT_ENCODING, "gzip"),
                    ],
                    vec![0x1f, 0x8b],
                )
            }),
        )
        .route("/streamed", get(streamed_json))
        .route("/no-content", get(|| async { StatusCode::NO_CONTENT }))
        .route(
            "/not-modified",
            get(|| async { (StatusCode::NOT_MODIFIED, [(header::ETAG, "\"abc\"")]) }),
        )
        .route(
            "/broken",
            get(|| async {
                let headers = [
                    (header::CONTENT_TYPE, "application/json"),
                    (header::ETAG, "\"v1\""),
                ];
                (headers, "{\"a\":")
            }),
        )
        .route(
            "/internal",
            get(|| async { (StatusCode::INTERNAL_SERVER_ERROR, "database down") }),
        )
        .fallback(|| async {
            (
                StatusCode::NOT_FOUND,
                Json(json!({"error": "no such route"})),
            )
        })
        .layer(NegotiateLayer::new())
}

async fn streamed_json() -> Response {
    let body = axum::body::Body::new(Chunks(
        vec![b"{\"a\":".to_vec(), b"1}".to_vec()].into_iter(),
    ));
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A body sent in chunks, its length unknown: what a stream looks like.
struct Chunks(std::vec::IntoIter<Vec<u8>>);

impl http_body::Body for Chunks {
    type Data = bytes::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<bytes::Bytes>, Self::Error>>> {
        std::task::Poll::Ready(
            self.0
                .next()
                .map(|chunk| Ok(http_body::Frame::data(chunk.into()))),
        )
    }
}

#[tokio::test]
async fn the_layer_reencodes_json_handlers_for_messagepack_clients() {
    let base = serve(json_router()).await;
    let response = get_with(&base, "/profile", &["application/msgpack"]).await;
    assert_msgpack(&response, "application/msgpack");
    assert_eq!(vary(&response), ["Accept"]);
    let length: usize = response.headers()[header::CONTENT_LENGTH]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let body = response.bytes().await.unwrap();
    assert_eq!(length, body.len());
    assert_eq!(body, profile_msgpack());

    let json = get_with(&base, "/profile", &["application/json"]).await;
    assert_eq!(content_type(&json), "application/json");
    assert_eq!(vary(&json), ["Accept"]);
    assert_eq!(json.json::<Profile>().await.unwrap(), profile());

    // A body of unknown length is read, within the cap, and re-encoded.
    let streamed = get_with(&base, "/streamed", &["application/msgpack"]).await;
    assert_msgpack(&streamed, "application/msgpack");
    assert_eq!(streamed.bytes().await.unwrap(), b"\x81\xa1a\x01"[..]);
}

#[tokio::test]
async fn the_layer_reencodes_error_bodies_and_the_fallback() {
    let base = serve(json_router()).await;
    let error = get_with(&base, "/error", &["application/msgpack"]).await;
    assert_eq!(error.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(content_type(&error), "application/msgpack");
    assert_eq!(
        error.bytes().await.unwrap(),
        b"\x82\xa2at\x91\x03\xa5error\xa7bad sku"[..]
    );
    let missing = get_with(&base, "/nowhere", &["application/vnd.msgpack"]).await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(content_type(&missing), "application/vnd.msgpack");
    assert_eq!(
        missing.bytes().await.unwrap(),
        b"\x81\xa5error\xadno such route"[..]
    );
}

#[tokio::test]
async fn the_layer_removes_the_headers_reencoding_invalidates() {
    let base = serve(json_router()).await;
    let response = get_with(&base, "/tagged", &["application/msgpack"]).await;
    for name in ["etag", "content-md5", "digest", "content-range"] {
        assert!(response.headers().get(name).is_none(), "{name} kept");
    }
    assert_eq!(response.headers()[header::CACHE_CONTROL], "max-age=60");
    let json = get_with(&base, "/tagged", &["application/json"]).await;
    assert_eq!(json.headers()[header::ETAG], "\"abc\"");
}

#[tokio::test]
async fn the_layer_reencodes_json_suffix_types() {
    let base = serve(json_router()).await;
    let response = get_with(&base, "/problem", &["application/msgpack"]).await;
    assert_msgpack(&response, "application/msgpack");
    assert_eq!(response.bytes().await.unwrap(), b"\x81\xa5title\xa1x"[..]);
}

#[tokio::test]
async fn bodies_the_layer_cannot_reencode_pass_when_accepted() {
    let base = serve(json_router()).await;
    let accept = ["application/msgpack, */*;q=0.1"];
    let html = get_with(&base, "/html", &accept).await;
    assert_eq!(content_type(&html), "text/html; charset=utf-8");
    assert_eq!(html.text().await.unwrap(), "<p>hi</p>");
    let gzipped = get_with(&base, "/gzipped", &accept).await;
    assert_eq!(gzipped.headers()[header::CONTENT_ENCODING], "gzip");
    assert_eq!(gzipped.bytes().await.unwrap(), [0x1f, 0x8b][..]);
}

#[tokio::test]
async fn bodies_the_layer_cannot_reencode_are_406_when_not_accepted() {
    let base = serve(json_router()).await;
    for (path, offered) in [("/html", "text/html"), ("/gzipped", "application/json")] {
        let response = get_with(&base, path, &["application/msgpack"]).await;
        assert_eq!(response.status(), StatusCode::NOT_ACCEPTABLE, "{path}");
        assert_eq!(vary(&response), ["Accept"]);
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["offered"], json!([offered]), "{path}");
    }
}

#[tokio::test]
async fn error_responses_pass_through_even_when_not_accepted() {
    let base = serve(json_router()).await;
    let response = get_with(&base, "/internal", &["application/msgpack"]).await;
    assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(response.text().await.unwrap(), "database down");
}

#[tokio::test]
async fn json_the_layer_cannot_parse_passes_when_json_is_accepted() {
    let base = serve(json_router()).await;
    let both = get_with(
        &base,
        "/broken",
        &["application/msgpack, application/json;q=0.5"],
    )
    .await;
    assert_eq!(both.status(), StatusCode::OK);
    assert_eq!(content_type(&both), "application/json");
    assert_eq!(
        both.headers()[header::ETAG],
        "\"v1\"",
        "the JSON passes with its headers"
    );
    assert_eq!(both.headers()[header::CONTENT_LENGTH], "5");
    assert_eq!(both.text().await.unwrap(), "{\"a\":");
    let only = get_with(&base, "/broken", &["application/msgpack"]).await;
    assert_eq!(only.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(vary(&only), ["Accept"], "the 500 depends on Accept too");
}

#[tokio::test]
async fn head_204_and_304_keep_no_body() {
    let base = serve(json_router()).await;
    let head = client()
        .head(format!("{base}/profile"))
        .header(header::ACCEPT, "application/msgpack")
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), StatusCode::OK);
    assert_eq!(content_type(&head), "application/msgpack");
    assert_eq!(vary(&head), ["Accept"]);
    assert!(
        head.headers().get(header::CONTENT_LENGTH).is_none(),
        "the JSON length would be wrong, and 0 too"
    );
    assert!(head.bytes().await.unwrap().is_empty());
    let no_content = get_with(&base, "/no-content", &["application/msgpack"]).await;
    assert_eq!(no_content.status(), StatusCode::NO_CONTENT);
    assert!(no_content.bytes().await.unwrap().is_empty());
    let not_modified = get_with(&base, "/not-modified", &["application/msgpack"]).await;
    assert_eq!(not_modified.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(not_modified.headers()[header::ETAG], "\"abc\"");
    assert_eq!(vary(&not_modified), ["Accept"]);
    assert!(not_modified.bytes().await.unwrap().is_empty());
}

// ---- Requests ----

fn echo_app() -> Router {
    Router::new()
        .route(
            "/msgpack",
            post(|MsgPack(profile): MsgPack<Profile>| async move { MsgPack(profile) }),
        )
        .route(
            "/either",
            post(|Negotiated(profile): Negotiated<Profile>| async move { Negotiated(profile) }),
        )
        .route(
            "/depth",
            post(|MsgPack(value): MsgPack<msgpack_serde::Value>| async move { MsgPack(value) }),
        )
        .layer(NegotiateLayer::new())
}

async fn post_bytes(
    base: &str,
    path: &str,
    content_type: &str,
    accept: &str,
    body: Vec<u8>,
) -> reqwest::Response {
    client()
        .post(format!("{base}{path}"))
        .header(header::CONTENT_TYPE, content_type)
        .header(header::ACCEPT, accept)
        .body(body)
        .send()
        .await
        .unwrap()
}

/// The JSON error body of a rejection.
async fn error_body(response: reqwest::Response) -> serde_json::Value {
    assert_eq!(content_type(&response), "application/json");
    response.json().await.unwrap()
}

/// Posts `body` as MessagePack to `path` (answers in JSON): the status
/// and the JSON error body.
async fn reject(base: &str, path: &str, body: Vec<u8>) -> (StatusCode, serde_json::Value) {
    let response = post_bytes(base, path, "application/msgpack", "application/json", body).await;
    (response.status(), error_body(response).await)
}

/// Posts `body` as MessagePack to `path`, any answer taken: the status.
async fn accepted(base: &str, path: &str, body: Vec<u8>) -> StatusCode {
    post_bytes(base, path, "application/msgpack", "*/*", body)
        .await
        .status()
}

#[tokio::test]
async fn the_extractor_takes_every_messagepack_type() {
    let base = serve(echo_app()).await;
    for name in [
        "application/msgpack",
        "application/x-msgpack",
        "application/vnd.msgpack",
        "application/vnd.acme+msgpack",
        "application/msgpack; charset=utf-8",
    ] {
        let response = post_bytes(&base, "/msgpack", name, "*/*", profile_msgpack()).await;
        assert_eq!(response.status(), StatusCode::OK, "{name}");
        assert_eq!(response.bytes().await.unwrap(), profile_msgpack());
    }
    let compact = msgpack_serde::to_vec_compact(&profile()).unwrap();
    let response = post_bytes(&base, "/msgpack", "application/msgpack", "*/*", compact).await;
    assert_eq!(response.bytes().await.unwrap(), profile_msgpack());
}

#[tokio::test]
async fn another_content_type_is_415_with_an_accept_hint() {
    let base = serve(echo_app()).await;
    let response = post_bytes(
        &base,
        "/msgpack",
        "application/json",
        "application/json",
        b"{}".to_vec(),
    )
    .await;
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let hint = "application/msgpack, application/x-msgpack, application/vnd.msgpack, */*+msgpack";
    assert_eq!(response.headers()[header::ACCEPT], hint);
    assert_eq!(vary(&response), ["Accept"]);
    assert_eq!(
        error_body(response).await,
        json!({"error": format!("expected a request body of type {hint}"), "code": "unsupported_media_type"})
    );
    let missing = client()
        .post(format!("{base}/msgpack"))
        .body(profile_msgpack())
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

#[tokio::test]
async fn the_dual_extractor_takes_json_or_messagepack_by_content_type() {
    let base = serve(echo_app()).await;
    let json_body = serde_json::to_vec(&profile()).unwrap();
    let from_json = post_bytes(
        &base,
        "/either",
        "application/json",
        "application/msgpack",
        json_body.clone(),
    )
    .await;
    assert_eq!(content_type(&from_json), "application/msgpack");
    assert_eq!(from_json.bytes().await.unwrap(), profile_msgpack());
    let from_msgpack = post_bytes(
        &base,
        "/either",
        "application/msgpack",
        "application/json",
        profile_msgpack(),
    )
    .await;
    assert_eq!(from_msgpack.json::<Profile>().await.unwrap(), profile());
    let text = post_bytes(
        &base,
        "/either",
        "text/plain",
        "application/json",
        b"hi".to_vec(),
    )
    .await;
    assert_eq!(text.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let bad_json = post_bytes(
        &base,
        "/either",
        "application/json",
        "application/json",
        b"{\"id\":".to_vec(),
    )
    .await;
    assert_eq!(bad_json.status(), StatusCode::BAD_REQUEST);
    assert_eq!(error_body(bad_json).await["code"], "invalid_json");
    let wrong_shape = post_bytes(
        &base,
        "/either",
        "application/json",
        "application/json",
        b"{\"id\":1}".to_vec(),
    )
    .await;
    assert_eq!(wrong_shape.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(error_body(wrong_shape).await["code"], "invalid_data");
}

#[tokio::test]
async fn malformed_messagepack_is_400_with_the_offset() {
    let base = serve(echo_app()).await;
    assert_eq!(
        reject(&base, "/msgpack", vec![0x92, 0x01, 0xc1]).await,
        (
            StatusCode::BAD_REQUEST,
            json!({"error": "reserved marker 0xc1 at offset 2", "code": "invalid_msgpack", "offset": 2})
        )
    );
}

#[tokio::test]
async fn trailing_bytes_are_400_with_the_offset() {
    let base = serve(echo_app()).await;
    let mut body = profile_msgpack();
    body.push(0xc0);
    let offset = body.len() - 1;
    assert_eq!(
        reject(&base, "/msgpack", body).await,
        (
            StatusCode::BAD_REQUEST,
            json!({"error": format!("trailing bytes after the value at offset {offset}"), "code": "invalid_msgpack", "offset": offset})
        )
    );
}

#[tokio::test]
async fn an_empty_body_is_400() {
    let base = serve(echo_app()).await;
    assert_eq!(
        reject(&base, "/msgpack", Vec::new()).await,
        (
            StatusCode::BAD_REQUEST,
            json!({"error": "request body is empty", "code": "empty_body"})
        )
    );
}

#[tokio::test]
async fn a_body_of_the_wrong_shape_is_422() {
    let base = serve(echo_app()).await;
    let response = post_bytes(
        &base,
        "/msgpack",
        "application/msgpack",
        "application/json",
        vec![0x2a],
    )
    .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body = error_body(response).await;
    assert_eq!(body["code"], "invalid_data");
    assert_eq!(body["offset"], 0);
}

/// A number that refuses to be even, after reading it.
#[derive(Debug, Serialize)]
struct Odd(u16);

impl<'de> Deserialize<'de> for Odd {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match u16::deserialize(deserializer)? {
            n if n % 2 == 1 => Ok(Odd(n)),
            _ => Err(serde::de::Error::custom("even")),
        }
    }
}

#[tokio::test]
async fn a_bodys_own_error_is_where_the_reader_stopped() {
    let app = Router::new().route(
        "/odd",
        post(|MsgPack(odd): MsgPack<Odd>| async move { MsgPack(odd) }),
    );
    let base = serve(app).await;
    let response = post_bytes(
        &base,
        "/odd",
        "application/msgpack",
        "application/json",
        vec![0xcd, 0x01, 0x2c],
    )
    .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body = error_body(response).await;
    assert_eq!(
        body,
        json!({"error": "even at offset 3", "code": "invalid_data", "offset": 3})
    );
}

/// `depth` arrays nested in each other: `[[[...]]]`.
fn nested(depth: usize) -> Vec<u8> {
    let mut body = vec![0x91; depth];
    body.push(0xc0);
    body
}

#[tokio::test]
async fn the_depth_limit_is_64_by_default() {
    let base = serve(echo_app()).await;
    assert_eq!(accepted(&base, "/depth", nested(64)).await, StatusCode::OK);
    assert_eq!(
        reject(&base, "/depth", nested(65)).await,
        (
            StatusCode::BAD_REQUEST,
            json!({"error": "nesting exceeds the depth limit of 64 at offset 64", "code": "depth_limit_exceeded", "offset": 64})
        )
    );
}

/// An array of `n` nils.
fn nils(n: u32) -> Vec<u8> {
    let mut body = vec![0xdd];
    body.extend(n.to_be_bytes());
    body.extend(std::iter::repeat_n(0xc0, n as usize));
    body
}

#[tokio::test]
async fn the_value_limit_is_100_000_by_default() {
    let base = serve(echo_app()).await;
    assert_eq!(
        accepted(&base, "/depth", nils(99_999)).await,
        StatusCode::OK
    );
    assert_eq!(
        reject(&base, "/depth", nils(100_000)).await,
        (
            StatusCode::BAD_REQUEST,
            json!({"error": "more values than the limit of 100000 at offset 0", "code": "value_limit_exceeded", "offset": 0})
        )
    );
}

#[tokio::test]
async fn rejections_are_negotiated() {
    let base = serve(echo_app()).await;
    let response = post_bytes(
        &base,
        "/msgpack",
        "application/msgpack",
        "application/msgpack",
        vec![0xc1],
    )
    .await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(content_type(&response), "application/msgpack");
    assert_eq!(vary(&response), ["Accept"]);
    let body: BTreeMap<String, msgpack_serde::Value> =
        msgpack_serde::from_slice(&response.bytes().await.unwrap()).unwrap();
    assert_eq!(
        body["error"],
        msgpack_serde::Value::from("reserved marker 0xc1 at offset 0")
    );
    assert_eq!(body["code"], msgpack_serde::Value::from("invalid_msgpack"));
    assert_eq!(body["offset"], msgpack_serde::Value::from(0u8));
}

/// Sends raw bytes on a new connection and reads the response head (and
/// whatever body came with it) until the server closes or 10 s pass.
async fn raw_exchange(base: &str, request: &[u8]) -> String {
    let address = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).await.unwrap();
    stream.write_all(request).await.unwrap();
    let mut response = Vec::new();
    let mut buffer = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let read = tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await;
        match read {
            Ok(Ok(0)) | Err(_) => break,
            Ok(Ok(n)) => {
                response.extend_from_slice(&buffer[..n]);
                if String::from_utf8_lossy(&response).contains("\r\n\r\n{")
                    && response.ends_with(b"}")
                {
                    break;
                }
            }
            Ok(Err(_)) => break,
        }
    }
    String::from_utf8_lossy(&response).into_owned()
}

#[tokio::test]
async fn a_content_length_over_the_limit_is_413_before_reading() {
    let app = echo_app().layer(RequestLimits::new().max_body(1000));
    let base = serve(app).await;
    // The head promises 1 MB, and no byte of it is sent: the answer must
    // come anyway.
    let request = b"POST /msgpack HTTP/1.1\r\nHost: x\r\nContent-Type: application/msgpack\r\nAccept: application/json\r\nContent-Length: 1000000\r\n\r\n";
    let response = raw_exchange(&base, request).await;
    assert!(
        response.starts_with("HTTP/1.1 413 Payload Too Large\r\n"),
        "{response}"
    );
    assert!(response.contains(r#"{"error":"request body exceeds the size limit of 1000 bytes","code":"payload_too_large"}"#), "{response}");
}

#[tokio::test]
async fn a_chunked_body_stops_at_the_limit() {
    let app = echo_app().layer(RequestLimits::new().max_body(1000));
    let base = serve(app).await;
    // 600-byte chunks of a bin 32 that would be 1 MB long: the second chunk
    // passes the limit, and the rest is never sent.
    let mut request = b"POST /msgpack HTTP/1.1\r\nHost: x\r\nContent-Type: application/msgpack\r\nAccept: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for _ in 0..2 {
        request.extend_from_slice(b"258\r\n");
        request.extend(std::iter::repeat_n(b'a', 600));
        request.extend_from_slice(b"\r\n");
    }
    let response = raw_exchange(&base, &request).await;
    assert!(
        response.starts_with("HTTP/1.1 413 Payload Too Large\r\n"),
        "{response}"
    );
}

#[tokio::test]
async fn a_chunked_body_of_exactly_the_limit_is_read_whole() {
    let app = echo_app().layer(RequestLimits::new().max_body(1000));
    let base = serve(app).await;
    // A bin 16 of 997 bytes, 1000 bytes in all, in four chunks of 250.
    let mut body = vec![0xc5, 0x03, 0xe5];
    body.resize(1000, b'b');
    let mut request = b"POST /depth HTTP/1.1\r\nHost: x\r\nContent-Type: application/msgpack\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for chunk in body.chunks(250) {
        request.extend_from_slice(b"fa\r\n");
        request.extend_from_slice(chunk);
        request.extend_from_slice(b"\r\n");
    }
    request.extend_from_slice(b"0\r\n\r\n");
    let response = raw_exchange(&base, &request).await;
    assert!(response.starts_with("HTTP/1.1 200 OK\r\n"), "{response}");
    assert!(
        response.contains("\r\ncontent-length: 1000\r\n"),
        "{response}"
    );
}

#[tokio::test]
async fn the_default_size_limit_is_10_mib() {
    let base = serve(echo_app()).await;
    let mut body = vec![0xc6];
    let len = 10 * 1024 * 1024 - 5;
    body.extend((len as u32).to_be_bytes());
    body.resize(5 + len, 0);
    assert_eq!(body.len(), 10 * 1024 * 1024);
    assert_eq!(
        accepted(&base, "/depth", body.clone()).await,
        StatusCode::OK
    );
    body.push(0);
    let over = post_bytes(
        &base,
        "/depth",
        "application/msgpack",
        "application/json",
        body,
    )
    .await;
    assert_eq!(over.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(error_body(over).await["code"], "payload_too_large");
}

#[tokio::test]
async fn limits_are_set_per_router_and_per_route() {
    let app = Router::new()
        .route(
            "/strict",
            post(|MsgPack(value): MsgPack<msgpack_serde::Value>| async move { MsgPack(value) })
                .layer(RequestLimits::new().max_depth(2).max_values(3)),
        )
        .route(
            "/router",
            post(|MsgPack(value): MsgPack<msgpack_serde::Value>| async move { MsgPack(value) }),
        )
        .layer(RequestLimits::new().max_depth(4).max_body(10));
    let base = serve(app).await;
    let deep = post_bytes(
        &base,
        "/strict",
        "application/msgpack",
        "application/json",
        nested(3),
    )
    .await;
    assert_eq!(
        error_body(deep).await["error"],
        "nesting exceeds the depth limit of 2 at offset 2"
    );
    let many = post_bytes(
        &base,
        "/strict",
        "application/msgpack",
        "application/json",
        vec![0x93, 0, 0, 0],
    )
    .await;
    assert_eq!(error_body(many).await["code"], "value_limit_exceeded");
    assert_eq!(accepted(&base, "/router", nested(4)).await, StatusCode::OK);
    let deeper = post_bytes(
        &base,
        "/router",
        "application/msgpack",
        "application/json",
        nested(5),
    )
    .await;
    assert_eq!(
        error_body(deeper).await["error"],
        "nesting exceeds the depth limit of 4 at offset 4"
    );
    let big = post_bytes(
        &base,
        "/router",
        "application/msgpack",
        "application/json",
        nils(20),
    )
    .await;
    assert_eq!(big.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let strict_big = post_bytes(
        &base,
        "/strict",
        "application/msgpack",
        "application/json",
        nils(20),
    )
    .await;
    // The route's limits replace the router's whole: its body size is the default.
    assert_eq!(error_body(strict_big).await["code"], "value_limit_exceeded");
}

#[tokio::test]
async fn axums_default_body_limit_is_respected_when_set() {
    let echo =
        || post(|MsgPack(value): MsgPack<msgpack_serde::Value>| async move { MsgPack(value) });
    let app = Router::new()
        .route(
            "/small",
            echo().layer::<_, std::convert::Infallible>(DefaultBodyLimit::max(16)),
        )
        .route(
            "/large",
            echo().layer::<_, std::convert::Infallible>(DefaultBodyLimit::max(20 * 1024 * 1024)),
        )
        .route(
            "/ours",
            echo()
                .layer::<_, std::convert::Infallible>(DefaultBodyLimit::max(16))
                .layer(RequestLimits::new().max_body(1024)),
        );
    let base = serve(app).await;
    let small = post_bytes(
        &base,
        "/small",
        "application/msgpack",
        "application/json",
        nils(20),
    )
    .await;
    assert_eq!(small.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        error_body(small).await["error"],
        "request body exceeds the size limit of 16 bytes"
    );
    let mut body = vec![0xc6];
    body.extend(((11 << 20) as u32).to_be_bytes());
    body.resize(5 + (11 << 20), 0);
    let large = post_bytes(
        &base,
        "/large",
        "application/msgpack",
        "application/json",
        body,
    )
    .await;
    assert_eq!(
        large.status(),
        StatusCode::OK,
        "DefaultBodyLimit raised above 10 MiB"
    );
    let ours = post_bytes(
        &base,
        "/ours",
        "application/msgpack",
        "application/json",
        nils(20),
    )
    .await;
    assert_eq!(
        ours.status(),
        StatusCode::OK,
        "RequestLimits::max_body wins over DefaultBodyLimit"
    );
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

#[tokio::test]
async fn gzip_bodies_decode_behind_request_decompression() {
    let app = echo_app().layer(tower_http::decompression::RequestDecompressionLayer::new());
    let base = serve(app).await;
    let response = client()
        .post(format!("{base}/msgpack"))
        .header(header::CONTENT_TYPE, "application/msgpack")
        .header(header::CONTENT_ENCODING, "gzip")
        .body(gzip(&profile_msgpack()))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.bytes().await.unwrap(), profile_msgpack());
}

#[tokio::test]
async fn a_decompression_bomb_is_413() {
    let app = echo_app()
        .layer(RequestLimits::new().max_body(64 * 1024))
        .layer(tower_http::decompression::RequestDecompressionLayer::new());
    let base = serve(app).await;
    // 8 MiB of one byte gzips to about 8 KiB: under the limit on the wire,
    // far over it once decompressed.
    let bomb = gzip(&vec![0xc0; 8 << 20]);
    assert!(bomb.len() < 64 * 1024);
    let response = client()
        .post(format!("{base}/depth"))
        .header(header::CONTENT_TYPE, "application/msgpack")
        .header(header::CONTENT_ENCODING, "gzip")
        .header(header::ACCEPT, "application/json")
        .body(bomb)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        error_body(response).await["error"],
        "request body exceeds the size limit of 65536 bytes"
    );
}

// ---- The client ----

#[tokio::test]
async fn the_client_sends_messagepack_and_reads_either_format() {
    let base = serve(echo_app()).await;
    let reply = client()
        .post(format!("{base}/either"))
        .msgpack(&profile())
        .unwrap()
        .send()
        .await
        .unwrap();
    assert_eq!(content_type(&reply), "application/msgpack");
    assert_eq!(reply.decode::<Profile>().await.unwrap(), profile());
    let json_reply = post_bytes(
        &base,
        "/either",
        "application/msgpack",
        "application/json",
        profile_msgpack(),
    )
    .await;
    assert_eq!(json_reply.decode::<Profile>().await.unwrap(), profile());
}

#[tokio::test]
async fn the_client_reads_under_limits() {
    let app = Router::new()
        .route(
            "/deep",
            get(|| async { ([(header::CONTENT_TYPE, "application/msgpack")], nested(10)) }),
        )
        .route("/text", get(|| async { "plain" }));
    let base = serve(app).await;
    let limits = RequestLimits::new().max_depth(5);
    let deep = client().get(format!("{base}/deep")).send().await.unwrap();
    let error = deep
        .decode_with_limits::<msgpack_serde::Value>(limits)
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid MessagePack reply: nesting exceeds the depth limit of 5 at offset 5"
    );
    let small = client().get(format!("{base}/deep")).send().await.unwrap();
    let error = small
        .decode_with_limits::<msgpack_serde::Value>(RequestLimits::new().max_body(4))
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "reply body exceeds the size limit of 4 bytes"
    );
    let text = client().get(format!("{base}/text")).send().await.unwrap();
    let error = text.decode::<String>().await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "reply is neither MessagePack nor JSON: Content-Type text/plain; charset=utf-8"
    );
}

/// A reply's own error (one `T`'s code makes after reading what it
/// read) is where the reader stopped, as a request body's is.
#[tokio::test]
async fn a_replys_own_error_is_where_the_reader_stopped() {
    let app = Router::new().route(
        "/even",
        get(|| async {
            (
                [(header::CONTENT_TYPE, "application/msgpack")],
                vec![0xcd, 0x01, 0x2c],
            )
        }),
    );
    let base = serve(app).await;
    let reply = client().get(format!("{base}/even")).send().await.unwrap();
    let error = reply.decode::<Odd>().await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid MessagePack reply: even at offset 3"
    );
}

#[tokio::test]
async fn limits_can_be_set_as_an_extension() {
    let app = Router::new()
        .route(
            "/",
            post(|MsgPack(value): MsgPack<msgpack_serde::Value>| async move { MsgPack(value) }),
        )
        .layer(axum::Extension(RequestLimits::new().max_depth(1)));
    let base = serve(app).await;
    let deep = post_bytes(
        &base,
        "/",
        "application/msgpack",
        "application/json",
        nested(2),
    )
    .await;
    assert_eq!(deep.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        error_body(deep).await["error"],
        "nesting exceeds the depth limit of 1 at offset 1"
    );
}

#[tokio::test]
async fn a_declared_length_is_not_trusted_for_allocation() {
    // No size limit at all, and a head that promises a terabyte: the body
    // arrives in two pieces and the connection closes. Reserving what the
    // head promised would abort the process; the short body is a 400.
    let echo = post(|MsgPack(value): MsgPack<msgpack_serde::Value>| async move { MsgPack(value) });
    let app = Router::new().route(
        "/",
        echo.layer::<_, std::convert::Infallible>(DefaultBodyLimit::disable()),
    );
    let base = serve(app).await;
    let address = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).await.unwrap();
    let head = "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/msgpack\r\n\
                Accept: application/json\r\nContent-Length: 1099511627776\r\n\r\n";
    stream.write_all(head.as_bytes()).await.unwrap();
    stream
        .write_all(&[0xc6, 0xff, 0xff, 0xff, 0xff])
        .await
        .unwrap();
    stream.flush().await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    stream.write_all(&[0; 64]).await.unwrap();
    stream.flush().await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    stream.shutdown().await.unwrap();
    let mut response = Vec::new();
    let read =
        tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response)).await;
    read.expect("the server answers").unwrap();
    let response = String::from_utf8_lossy(&response);
    assert!(
        response.starts_with("HTTP/1.1 400 Bad Request\r\n"),
        "{response}"
    );
    assert!(
        response.contains(r#""code":"body_read_failed""#),
        "{response}"
    );
}

#[tokio::test]
async fn json_bodies_are_held_to_the_depth_and_value_limits() {
    let echo =
        post(|Negotiated(value): Negotiated<serde_json::Value>| async move { Negotiated(value) });
    let app = Router::new()
        .route("/", echo)
        .layer(RequestLimits::new().max_depth(3).max_values(10))
        .layer(NegotiateLayer::new());
    let base = serve(app).await;
    let send = |body: &'static str| {
        post_bytes(
            &base,
            "/",
            "application/json",
            "application/json",
            body.into(),
        )
    };
    assert_eq!(send("[[[1]]]").await.status(), StatusCode::OK);
    let deep = send("[[[[1]]]]").await;
    assert_eq!(deep.status(), StatusCode::BAD_REQUEST);
    assert_eq!(
        error_body(deep).await,
        json!({"error": "JSON nesting exceeds the depth limit of 3", "code": "depth_limit_exceeded"})
    );
    assert_eq!(send("[1,2,3,4,5,6,7,8,9]").await.status(), StatusCode::OK);
    let many = send("[1,2,3,4,5,6,7,8,9,10]").await;
    assert_eq!(
        error_body(many).await,
        json!({"error": "JSON holds more values than the limit of 10", "code": "value_limit_exceeded"})
    );
}
