//! Allocations per request, counted by a global allocator: msgpack-axum's
//! extractor and responses against axum's own `Json` on the same payload
//! and the same type, and what `NegotiateLayer`'s re-encoding adds.
//!
//! The router is driven in-process (`tower::ServiceExt::oneshot` on a
//! current-thread runtime: no sockets, no other thread), so the counts are
//! deterministic. Each request is measured warm: the same request is sent
//! three times and the third is counted, after checking that it counts as
//! the second did. The request is built, and the response dropped,
//! outside the count: what is counted is the router handling one request.

// The per-thread counting allocator of the fuzz targets and of the other
// allocation tests (`benches/tests/alloc.rs`, `tests/tests/alloc_bounds.rs`).
#[path = "../../fuzz/src/budget.rs"]
mod budget;

use std::sync::LazyLock;

use axum::body::{Body, Bytes};
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::http::{Request, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use http_body_util::BodyExt;
use msgpack_axum::{MsgPack, NegotiateLayer, Negotiated};
use serde::{Deserialize, Serialize};
use tower::ServiceExt;

#[global_allocator]
static ALLOCATOR: budget::Counting = budget::Counting;

/// The payload: owned, it holds five heap blocks (see [`OWNED`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Payload {
    id: u64,
    name: String,
    tags: Vec<String>,
    active: bool,
}

/// Heap blocks a decoded [`Payload`] owns: `name`, the `tags` vector (its
/// length known up front from MessagePack; from JSON serde's first push
/// allocates room for 4, which the 3 tags fit) and the three tags.
const OWNED: usize = 5;

static PAYLOAD: LazyLock<Payload> = LazyLock::new(|| Payload {
    id: 1042,
    name: "Laravel MessagePack".to_string(),
    tags: vec!["maintainer".into(), "developer".into(), "reviewer".into()],
    active: true,
});

fn json_bytes() -> Bytes {
    Bytes::from(serde_json::to_vec(&*PAYLOAD).unwrap())
}

fn msgpack_bytes() -> Bytes {
    Bytes::from(msgpack_serde::to_vec(&*PAYLOAD).unwrap())
}

async fn take_json(Json(payload): Json<Payload>) -> StatusCode {
    assert_eq!(payload, *PAYLOAD);
    StatusCode::NO_CONTENT
}

async fn take_msgpack(MsgPack(payload): MsgPack<Payload>) -> StatusCode {
    assert_eq!(payload, *PAYLOAD);
    StatusCode::NO_CONTENT
}

async fn take_negotiated(Negotiated(payload): Negotiated<Payload>) -> StatusCode {
    assert_eq!(payload, *PAYLOAD);
    StatusCode::NO_CONTENT
}

async fn take_nothing() -> StatusCode {
    StatusCode::NO_CONTENT
}

/// The routes: extractors without the layer; responses under `/plain`
/// without it and under `/layered` behind it. The handlers answer a
/// reference to a static, so no clone is counted.
fn app() -> Router {
    let responses = || {
        Router::new()
            .route("/json", get(|| async { Json(&*PAYLOAD) }))
            .route("/msgpack", get(|| async { MsgPack(&*PAYLOAD) }))
    };
    let layered = responses()
        .route("/negotiated", get(|| async { Negotiated(&*PAYLOAD) }))
        .layer(NegotiateLayer::new());
    // The same routes behind a layer that does nothing, for what axum
    // itself spends on any layer.
    let identity = responses().layer(tower::layer::util::Identity::new());
    Router::new()
        .route("/in/json", post(take_json))
        .route("/in/msgpack", post(take_msgpack))
        .route("/in/negotiated", post(take_negotiated))
        .route("/in/nothing", post(take_nothing))
        .nest("/plain", responses())
        .nest("/identity", identity)
        .nest("/layered", layered)
}

struct Harness {
    runtime: tokio::runtime::Runtime,
    app: Router,
}

impl Harness {
    fn new() -> Harness {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        Harness {
            runtime,
            app: app().with_state(()),
        }
    }

    /// Allocations while the router handles the request `make` builds,
    /// warm, and the response.
    #[track_caller]
    fn count(&self, make: impl Fn() -> Request<Body>) -> (usize, Response) {
        let mut counts = Vec::new();
        let mut last = None;
        for _ in 0..3 {
            let request = make();
            let app = self.app.clone();
            let (response, usage) =
                budget::measure(|| self.runtime.block_on(app.oneshot(request)).unwrap());
            counts.push(usage.count);
            last = Some(response);
        }
        assert_eq!(counts[1], counts[2], "not deterministic: {counts:?}");
        (counts[2], last.unwrap())
    }

    /// A response's status, `Content-Type` and body.
    fn read(&self, response: Response) -> (StatusCode, String, Bytes) {
        let status = response.status();
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .map_or(String::new(), |value| value.to_str().unwrap().to_string());
        let body = self
            .runtime
            .block_on(response.into_body().collect())
            .unwrap()
            .to_bytes();
        (status, content_type, body)
    }
}

fn post_to(uri: &str, content_type: &str, body: Bytes) -> Request<Body> {
    Request::post(uri)
        .header(CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .unwrap()
}

fn get_with(uri: &str, accept: Option<&str>) -> Request<Body> {
    let mut request = Request::get(uri);
    if let Some(accept) = accept {
        request = request.header(ACCEPT, accept);
    }
    request.body(Body::empty()).unwrap()
}

fn decode_allocations<T>(decode: impl FnOnce() -> T) -> usize {
    budget::measure(decode).1.count
}

#[test]
fn the_payload_decodes_with_exactly_its_owned_blocks() {
    let (json, msgpack) = (json_bytes(), msgpack_bytes());
    let from_json = decode_allocations(|| serde_json::from_slice::<Payload>(&json).unwrap());
    let from_msgpack =
        decode_allocations(|| msgpack_serde::from_slice::<Payload>(&msgpack).unwrap());
    assert_eq!((from_json, from_msgpack), (OWNED, OWNED));
}

/// `MsgPack<T>` as an extractor allocates no more than axum's `Json<T>` on
/// the same payload: beyond the decoded value, what reading the body
/// takes.
#[test]
fn the_msgpack_extractor_allocates_no_more_than_axums_json() {
    let harness = Harness::new();
    let (nothing, response) =
        harness.count(|| post_to("/in/nothing", "application/json", json_bytes()));
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let (json, response) = harness.count(|| post_to("/in/json", "application/json", json_bytes()));
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let (msgpack, response) =
        harness.count(|| post_to("/in/msgpack", "application/msgpack", msgpack_bytes()));
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let (negotiated_json, response) =
        harness.count(|| post_to("/in/negotiated", "application/json", json_bytes()));
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    let (negotiated_msgpack, response) =
        harness.count(|| post_to("/in/negotiated", "application/msgpack", msgpack_bytes()));
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    eprintln!(
        "extractors, allocations per request: no extractor {nothing}; Json<T> {json}; \
         MsgPack<T> {msgpack}; Negotiated<T> from JSON {negotiated_json}, \
         from MessagePack {negotiated_msgpack} (the value owns {OWNED})"
    );

    assert!(msgpack <= json, "MsgPack<T> {msgpack} > Json<T> {json}");
    assert!(
        negotiated_json <= json,
        "Negotiated<T> {negotiated_json} > Json<T> {json}"
    );
    assert!(negotiated_msgpack <= json);
    // Beyond the handler without an extractor and the value decoded, ours
    // reads the body with 3 allocations, all in the body-limit probe
    // (`limits::axum_body_limit`): axum's limited body around the probe
    // (1), and, when no `DefaultBodyLimit` is set, the `DefaultBodyLimit`
    // the probe inserts into the request's extensions (a box, 1) and the
    // extension map's growth it causes (1). axum's `Json` takes 11 here
    // (the `Content-Type` lowercased, its limited body, the frame list,
    // and serde_path_to_error's path: a key and a chain per field).
    assert_eq!(msgpack - nothing - OWNED, 3);
    assert_eq!(negotiated_json, msgpack);
    assert_eq!(negotiated_msgpack, msgpack);
}

/// `Negotiated<T>` answers in either format with no more allocations than
/// axum's `Json<T>` behind the same layer, and `MsgPack<T>` with no more
/// than `Json<T>`.
#[test]
fn responses_allocate_no_more_than_axums_json() {
    let harness = Harness::new();
    let payload_json = json_bytes();
    let payload_msgpack = msgpack_bytes();

    let (plain_json, response) = harness.count(|| get_with("/plain/json", None));
    assert_eq!(harness.read(response).2, payload_json);
    let (plain_msgpack, response) = harness.count(|| get_with("/plain/msgpack", None));
    assert_eq!(harness.read(response).2, payload_msgpack);

    let (identity_json, _) = harness.count(|| get_with("/identity/json", None));
    let (layered_json, response) =
        harness.count(|| get_with("/layered/json", Some("application/json")));
    let (status, content_type, body) = harness.read(response);
    assert_eq!(
        (status, content_type.as_str()),
        (StatusCode::OK, "application/json")
    );
    assert_eq!(body, payload_json);

    let (negotiated_msgpack, response) =
        harness.count(|| get_with("/layered/negotiated", Some("application/msgpack")));
    let (status, content_type, body) = harness.read(response);
    assert_eq!(
        (status, content_type.as_str()),
        (StatusCode::OK, "application/msgpack")
    );
    assert_eq!(body, payload_msgpack);
    let (negotiated_json, response) =
        harness.count(|| get_with("/layered/negotiated", Some("application/json")));
    let (status, content_type, body) = harness.read(response);
    assert_eq!(
        (status, content_type.as_str()),
        (StatusCode::OK, "application/json")
    );
    assert_eq!(body, payload_json);
    let (negotiated_none, _) = harness.count(|| get_with("/layered/negotiated", None));

    eprintln!(
        "responses, allocations per request: Json<T> {plain_json}, MsgPack<T> {plain_msgpack} \
         (no layer); behind a do-nothing layer Json<T> {identity_json}; behind NegotiateLayer \
         Json<T> as JSON {layered_json}, Negotiated<T> as MessagePack {negotiated_msgpack}, \
         as JSON {negotiated_json}, without Accept {negotiated_none}"
    );
    // Exactly as many: the body buffer, the `Bytes` that takes it over,
    // the `Body` box and the header map, for either.
    assert_eq!(plain_msgpack, plain_json);
    assert_eq!(negotiated_msgpack, layered_json);
    assert_eq!(negotiated_json, layered_json);
    assert_eq!(negotiated_none, layered_json);
    // The layer itself, on a response it passes through, allocates nothing
    // beyond what axum spends on any layer (3: boxing the layered route).
    assert_eq!(layered_json, identity_json);
}

/// What the layer's re-encoding may allocate beyond the `Json<T>`
/// response it re-encodes: the output body, that is its buffer (sized to
/// the JSON, not grown: the MessagePack is shorter), the `Bytes` header
/// that takes it over, and axum's `Body` box.
const OUTPUT_BODY: usize = 3;

/// Allocations of the layer's re-encoding: `Accept: application/msgpack`
/// against `Accept: application/json` on the same `Json<T>` route.
fn reencoding(harness: &Harness) -> (usize, usize) {
    let (passed, _) = harness.count(|| get_with("/layered/json", Some("application/json")));
    let (reencoded, response) =
        harness.count(|| get_with("/layered/json", Some("application/msgpack")));
    let (status, content_type, body) = harness.read(response);
    assert_eq!(
        (status, content_type.as_str()),
        (StatusCode::OK, "application/msgpack")
    );
    assert_eq!(
        msgpack_serde::from_slice::<Payload>(&body).unwrap(),
        *PAYLOAD
    );
    (passed, reencoded)
}

/// Nothing beyond the output body: the re-encoding parses into
/// simd-json's buffers, kept per thread and reused once warm, and writes
/// each header once from the tape, with no buffer per container
/// (msgpack-serde's `json/from_json/tape.rs`). An `Accept` other than the
/// five common values is parsed by headers-accept, which allocates 6 here:
/// a copy of the value, and per range its parameters and a boxed copy,
/// and the list.
#[test]
fn the_layer_re_encodes_with_the_output_body_alone() {
    let harness = Harness::new();
    let (passed, reencoded) = reencoding(&harness);
    let (parsed_accept, _) = harness.count(|| {
        get_with(
            "/layered/json",
            Some("application/json;q=0.5, application/msgpack"),
        )
    });
    eprintln!(
        "re-encoding, allocations per request: Json<T> passed through {passed}, \
         re-encoded {reencoded}; with an Accept that is parsed {parsed_accept}"
    );
    assert_eq!(reencoded - passed, OUTPUT_BODY);
    assert_eq!(parsed_accept - reencoded, 6);
}
