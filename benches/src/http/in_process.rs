//! The server's share of each case, measured in-process: one request
//! through the router (tower's `oneshot`, no sockets) and each body's
//! encoding alone, apart from hyper and the client.

use std::time::Duration;

use axum::Router;
use http_body_util::BodyExt;
use hyper::header::ACCEPT;
use hyper::Request;
use serde::Serialize;

use super::{routes, CASES, DOCUMENT, PROFILE};

/// The time of one operation of the server's, outside HTTP.
#[derive(Clone, Debug, Serialize)]
pub struct EncodeCost {
    /// What is timed.
    pub operation: &'static str,
    /// Nanoseconds per body (median).
    pub ns: f64,
}

/// Times one request of each case through the router in-process (tower's
/// `oneshot`, no sockets, no HTTP), on a current-thread runtime of its own
/// in a thread of its own: the server's share of each request, apart from
/// hyper and the client.
pub(super) fn router_costs(name: &'static str, time: Duration) -> Result<Vec<EncodeCost>, String> {
    use tower::ServiceExt as _;

    let app = Router::new()
        .merge(routes("api_profile", &*PROFILE))
        .merge(routes("document", &*DOCUMENT))
        .with_state(());
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a current-thread runtime");
        let budget = crate::measure::Budget {
            iterations: 20_000,
            max_time: (time / 20).max(Duration::from_millis(1)),
        };
        let mut ops: Vec<Box<dyn FnMut()>> = CASES[..4]
            .iter()
            .map(|case| {
                let variant = case.variants()[0];
                let uri = format!("/{name}/{}", variant.route);
                let app = app.clone();
                let runtime = &runtime;
                Box::new(move || {
                    let mut request = Request::get(uri.as_str());
                    if let Some(accept) = variant.accept {
                        request = request.header(ACCEPT, accept);
                    }
                    let request = request.body(axum::body::Body::empty()).expect("a request");
                    let body = runtime.block_on(async {
                        let response = app.clone().oneshot(request).await.expect("infallible");
                        response
                            .into_body()
                            .collect()
                            .await
                            .expect("a body")
                            .to_bytes()
                    });
                    std::hint::black_box(body);
                }) as Box<dyn FnMut()>
            })
            .collect();
        let mut ops: Vec<&mut dyn FnMut()> = ops.iter_mut().map(|op| &mut **op as _).collect();
        crate::measure::time_interleaved(budget, &mut ops)
    });
    let ns = thread
        .join()
        .map_err(|_| "the in-process run failed".to_string())?;
    Ok(CASES[..4]
        .iter()
        .zip(ns)
        .map(|(case, ns)| EncodeCost {
            operation: case.router_name(),
            ns,
        })
        .collect())
}

/// Times each response body's encoding in-process, interleaved: what the
/// server spends on a body besides HTTP.
pub(super) fn encode_costs<T: Serialize>(value: &T, time: Duration) -> Vec<EncodeCost> {
    let json = serde_json::to_vec(value).expect("the fixture serializes");
    let budget = crate::measure::Budget {
        iterations: 20_000,
        max_time: (time / 20).max(Duration::from_millis(1)),
    };
    let mut to_json = || drop(std::hint::black_box(serde_json::to_vec(value)));
    let mut to_msgpack = || drop(std::hint::black_box(msgpack_serde::to_vec(value)));
    let mut buffered = || drop(std::hint::black_box(json_to_msgpack_buffered(&json)));
    let mut in_place = || drop(std::hint::black_box(msgpack_axum::json_to_msgpack(&json)));
    assert_eq!(
        msgpack_axum::json_to_msgpack(&json).expect("valid JSON"),
        json_to_msgpack_buffered(&json),
        "the layer writes other bytes than msgpack-serde"
    );
    let ns = crate::measure::time_interleaved(
        budget,
        &mut [&mut to_json, &mut to_msgpack, &mut in_place, &mut buffered],
    );
    [
        "serde_json::to_vec (Json<T>)",
        "msgpack_serde::to_vec (Negotiated<T>, MsgPack<T>)",
        "JSON to MessagePack, as the layer re-encodes (msgpack_axum::json_to_msgpack, after serde_json::to_vec)",
        "the same through msgpack-serde's Serializer, a buffer per container (same bytes)",
    ]
    .into_iter()
    .zip(ns)
    .map(|(operation, ns)| EncodeCost { operation, ns })
    .collect()
}

/// JSON to MessagePack through msgpack-serde's general serializer, which
/// buffers each container of unknown length: what the layer did before.
fn json_to_msgpack_buffered(json: &[u8]) -> Vec<u8> {
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    let mut serializer = msgpack_serde::Serializer::with_config(
        Vec::with_capacity(json.len()),
        msgpack_serde::Config::named(),
    );
    serde_transcode::transcode(&mut deserializer, &mut serializer).expect("valid JSON");
    deserializer.end().expect("one document");
    serializer.into_inner()
}
