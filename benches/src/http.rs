//! `msgpack-bench --http`: a load test of msgpack-axum on loopback.
//!
//! One process: an axum server on `127.0.0.1:0` and a client of
//! `--connections` keep-alive HTTP/1.1 connections (hyper's own client
//! connections, no pool in between), all on one multi-thread tokio runtime
//! with a worker per core, so client and server share the machine. Each
//! case runs the same handler, which returns a fixture held in a static
//! (no clone per request), through a different response type:
//!
//! | case | route | `Accept` |
//! |---|---|---|
//! | `Json<T>` | axum's `Json`, no layer | `application/json` |
//! | `Negotiated<T>` as MessagePack | `Negotiated` behind `NegotiateLayer` | `application/msgpack` |
//! | `MsgPack<T>` | `MsgPack`, no layer | `application/msgpack` |
//! | layer re-encoding | axum's `Json` behind `NegotiateLayer` | `application/msgpack` |
//! | mixed | all four, each connection going through [`MIX`] in turn | several |
//!
//! Every reply is checked: status 200, the `Content-Type` expected, and a
//! body that decodes (serde_json or msgpack-serde) to a value equal to the
//! fixture. The check runs on the client, in the same process, on the
//! cores the server uses, and decoding JSON costs the client more than
//! decoding MessagePack: so a body byte for byte equal to the last one of
//! its kind that its connection decoded is not decoded again (`--decode-every-reply`
//! decodes every one). The check's time per reply is reported.
//!
//! Beside the load, the same requests go through the router in-process
//! (tower's `oneshot`, no sockets) and the bodies are encoded alone, so
//! the server's share of each case shows apart from hyper and the client;
//! the layer's re-encoding (`msgpack_axum::json_to_msgpack`, headers
//! patched in place) is timed beside the same transcoding through
//! msgpack-serde's general serializer, which buffers each container.
//!
//! The cases run in interleaved rounds (each case for its share of the
//! time in turn, `ROUNDS` times), so a slow spell of a noisy machine
//! falls on all of them alike; the ratios are the medians of the
//! per-round ratios.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use axum::routing::get;
use axum::serve::ListenerExt;
use axum::{Json, Router};
use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{ACCEPT, CONTENT_TYPE, HOST};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use msgpack_axum::{MsgPack, NegotiateLayer, Negotiated};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::fixtures;
use crate::model::plain::{Order, Profile};
use in_process::{encode_costs, router_costs};

mod in_process;
mod table;

pub use in_process::EncodeCost;
pub use table::http_table;

/// The fixtures the load test serves.
pub const FIXTURES: [&str; 2] = ["api_profile", "document"];

/// Interleaved rounds per run: each case runs this many times, for its
/// share of the time and requests each time.
pub const ROUNDS: u32 = 5;

static PROFILE: LazyLock<Profile> = LazyLock::new(fixtures::api_profile);
static DOCUMENT: LazyLock<Order> = LazyLock::new(fixtures::document);

/// How hard and how long to load the server.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Concurrent keep-alive connections.
    pub connections: usize,
    /// The most requests one case makes over all its rounds.
    pub requests: u64,
    /// The longest one case runs over all its rounds.
    pub time: Duration,
    /// Decode every reply; by default a reply byte for byte equal to the
    /// last one its connection decoded to the fixture is not decoded
    /// again, so that the client's decoding (slower for JSON) does not
    /// take the shared cores from the server.
    pub decode_every_reply: bool,
}

/// One kind of request: a route and an `Accept`, and what the reply
/// must be.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    /// The route, under `/{fixture}`.
    pub route: &'static str,
    /// The `Accept` sent, if any.
    pub accept: Option<&'static str>,
    /// The `Content-Type` the reply must have.
    pub content_type: &'static str,
    /// Whether the reply is JSON (else MessagePack).
    pub json: bool,
}

const fn variant(
    route: &'static str,
    accept: Option<&'static str>,
    content_type: &'static str,
) -> Variant {
    let json = matches!(content_type.as_bytes(), b"application/json");
    Variant {
        route,
        accept,
        content_type,
        json,
    }
}

/// The cases, in the order they are run and printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Case {
    Json,
    Negotiated,
    MsgPack,
    Layer,
    Mixed,
}

const CASES: [Case; 5] = [
    Case::Json,
    Case::Negotiated,
    Case::MsgPack,
    Case::Layer,
    Case::Mixed,
];

impl Case {
    fn name(self) -> &'static str {
        match self {
            Case::Json => "Json<T>",
            Case::Negotiated => "Negotiated<T> as MessagePack",
            Case::MsgPack => "MsgPack<T>",
            Case::Layer => "Json<T> re-encoded by NegotiateLayer",
            Case::Mixed => "mixed Accept headers",
        }
    }

    /// The case through the router in-process.
    fn router_name(self) -> &'static str {
        match self {
            Case::Json => "router: Json<T>",
            Case::Negotiated => "router: Negotiated<T> as MessagePack (behind the layer)",
            Case::MsgPack => "router: MsgPack<T>",
            Case::Layer => "router: Json<T> re-encoded by NegotiateLayer",
            Case::Mixed => "router: mixed",
        }
    }

    fn variants(self) -> &'static [Variant] {
        const JSON: [Variant; 1] = [variant(
            "json",
            Some("application/json"),
            "application/json",
        )];
        const NEGOTIATED: [Variant; 1] = [variant(
            "negotiated",
            Some("application/msgpack"),
            "application/msgpack",
        )];
        const MSGPACK: [Variant; 1] = [variant(
            "msgpack",
            Some("application/msgpack"),
            "application/msgpack",
        )];
        const LAYER: [Variant; 1] = [variant(
            "layer",
            Some("application/msgpack"),
            "application/msgpack",
        )];
        match self {
            Case::Json => &JSON,
            Case::Negotiated => &NEGOTIATED,
            Case::MsgPack => &MSGPACK,
            Case::Layer => &LAYER,
            Case::Mixed => &MIX,
        }
    }
}

/// The mixed run: connection `i` sends `MIX[i]`, `MIX[i + 1]`, ... in
/// turn (wrapping), so that at any moment the connections ask for
/// different types, and every connection asks for each in turn. Common
/// values (recognised whole by the negotiation), values the `Accept`
/// parser reads, a browser's, and no `Accept` at all.
pub const MIX: [Variant; 8] = [
    variant("json", None, "application/json"),
    variant(
        "negotiated",
        Some("application/msgpack"),
        "application/msgpack",
    ),
    variant("negotiated", Some("*/*"), "application/json"),
    variant(
        "negotiated",
        Some("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
        "application/json",
    ),
    variant(
        "layer",
        Some("application/x-msgpack"),
        "application/x-msgpack",
    ),
    variant(
        "layer",
        Some("application/json;q=0.5, application/vnd.msgpack"),
        "application/vnd.msgpack",
    ),
    variant("layer", Some("application/json"), "application/json"),
    variant("msgpack", None, "application/msgpack"),
];

/// What one case measured on one fixture.
#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    /// The case.
    pub case: &'static str,
    /// Requests answered, all checked.
    pub requests: u64,
    /// Requests per second over all rounds.
    pub requests_per_sec: f64,
    /// Requests per second in each round.
    pub rounds_per_sec: Vec<f64>,
    /// Median latency: request sent to body received, in nanoseconds.
    pub p50_ns: u64,
    /// 99th percentile latency, in nanoseconds.
    pub p99_ns: u64,
    /// Body bytes per response (the mean, for the mixed run).
    pub bytes_per_response: f64,
    /// The client's check of one reply (decode and compare), in
    /// nanoseconds: time taken from the server on these shared cores.
    pub check_ns_per_response: f64,
}

/// A speed target of issue 13, measured in the run.
#[derive(Clone, Debug, Serialize)]
pub struct Ratio {
    /// What is compared.
    pub name: &'static str,
    /// The lowest ratio that meets the target.
    pub target: f64,
    /// The median of the per-round ratios.
    pub median: f64,
    /// The lowest per-round ratio.
    pub min: f64,
    /// The highest per-round ratio.
    pub max: f64,
    /// Whether the median meets the target.
    pub met: bool,
}

/// Every case's results on one fixture.
#[derive(Clone, Debug, Serialize)]
pub struct HttpResult {
    /// The fixture.
    pub fixture: &'static str,
    /// Concurrent connections.
    pub connections: usize,
    /// Worker threads of the runtime, shared by client and server.
    pub worker_threads: usize,
    /// One entry per case.
    pub cases: Vec<CaseResult>,
    /// The targets.
    pub ratios: Vec<Ratio>,
    /// What each case costs the server alone, measured in-process.
    pub in_process: Vec<EncodeCost>,
}

/// Runs the load test on each fixture named (see [`FIXTURES`]).
pub fn run(names: &[&str], settings: &Settings) -> Result<Vec<HttpResult>, String> {
    let workers = std::thread::available_parallelism().map_or(2, usize::from);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_io()
        .build()
        .map_err(|error| format!("cannot start the runtime: {error}"))?;
    let result = runtime.block_on(async {
        let address = serve().await?;
        let mut connections = Vec::with_capacity(settings.connections);
        for _ in 0..settings.connections.max(1) {
            connections.push(connect(address).await?);
        }
        let mut results = Vec::new();
        for &name in names {
            let unknown = || format!("the HTTP load test serves {}", FIXTURES.join(", "));
            let name = *FIXTURES.iter().find(|f| **f == name).ok_or_else(unknown)?;
            let checker = Checker::for_fixture(name).ok_or_else(unknown)?;
            results.push(run_fixture(name, checker, &mut connections, settings, workers).await?);
        }
        Ok(results)
    });
    runtime.shutdown_background();
    result
}

/// Starts the server: `/{fixture}/{json,msgpack,negotiated,layer}`.
async fn serve() -> Result<SocketAddr, String> {
    let app = Router::new()
        .merge(routes("api_profile", &*PROFILE))
        .merge(routes("document", &*DOCUMENT));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|error| format!("cannot listen on 127.0.0.1: {error}"))?;
    let address = listener.local_addr().map_err(|error| error.to_string())?;
    let listener = listener.tap_io(|stream| {
        let _ = stream.set_nodelay(true);
    });
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(address)
}

/// One fixture's four routes; `negotiated` and `layer` behind the layer.
fn routes<T: Serialize + Send + Sync + 'static>(name: &str, value: &'static T) -> Router {
    let negotiable = Router::new()
        .route(
            &format!("/{name}/negotiated"),
            get(move || async move { Negotiated(value) }),
        )
        .route(
            &format!("/{name}/layer"),
            get(move || async move { Json(value) }),
        )
        .layer(NegotiateLayer::new());
    Router::new()
        .route(
            &format!("/{name}/json"),
            get(move || async move { Json(value) }),
        )
        .route(
            &format!("/{name}/msgpack"),
            get(move || async move { MsgPack(value) }),
        )
        .merge(negotiable)
}

/// A keep-alive client connection.
async fn connect(address: SocketAddr) -> Result<SendRequest<Empty<Bytes>>, String> {
    let stream = tokio::net::TcpStream::connect(address)
        .await
        .map_err(|error| format!("cannot connect to {address}: {error}"))?;
    let _ = stream.set_nodelay(true);
    let (sender, connection) = http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|error| format!("handshake: {error}"))?;
    tokio::spawn(connection);
    Ok(sender)
}

/// Checks a reply's body against the fixture it should be.
#[derive(Clone, Copy)]
struct Checker {
    check: fn(&[u8], bool) -> Result<(), String>,
}

impl Checker {
    fn for_fixture(name: &str) -> Option<Checker> {
        let check: fn(&[u8], bool) -> Result<(), String> = match name {
            "api_profile" => |body, json| decodes_to(body, json, &*PROFILE),
            "document" => |body, json| decodes_to(body, json, &*DOCUMENT),
            _ => return None,
        };
        Some(Checker { check })
    }
}

fn decodes_to<T: DeserializeOwned + PartialEq>(
    body: &[u8],
    json: bool,
    expected: &T,
) -> Result<(), String> {
    let value: T = if json {
        serde_json::from_slice(body).map_err(|error| format!("bad JSON: {error}"))?
    } else {
        msgpack_serde::from_slice(body).map_err(|error| format!("bad MessagePack: {error}"))?
    };
    if &value != expected {
        return Err("the body decodes to another value than the fixture".to_string());
    }
    Ok(())
}

/// What one connection measured in one round.
#[derive(Default)]
struct Tally {
    latencies: Vec<u64>,
    bytes: u64,
    check_ns: u64,
}

async fn run_fixture(
    name: &'static str,
    checker: Checker,
    connections: &mut Vec<SendRequest<Empty<Bytes>>>,
    settings: &Settings,
    workers: usize,
) -> Result<HttpResult, String> {
    // Warm up: one checked request of every variant on every connection.
    for case in CASES {
        let budget = Budget {
            requests: connections.len() as u64,
            time: Duration::from_secs(10),
        };
        round(name, case, checker, connections, budget, true).await?;
    }

    let budget = Budget {
        requests: (settings.requests / ROUNDS as u64).max(1),
        time: settings.time / ROUNDS,
    };
    let mut tallies: Vec<Vec<Tally>> = CASES.iter().map(|_| Vec::new()).collect();
    let mut rates: Vec<Vec<f64>> = CASES.iter().map(|_| Vec::new()).collect();
    let mut elapsed = vec![Duration::ZERO; CASES.len()];
    for _ in 0..ROUNDS {
        for (i, &case) in CASES.iter().enumerate() {
            let (tally, took) = round(
                name,
                case,
                checker,
                connections,
                budget,
                settings.decode_every_reply,
            )
            .await?;
            let requests: usize = tally.iter().map(|t| t.latencies.len()).sum();
            rates[i].push(requests as f64 / took.as_secs_f64());
            elapsed[i] += took;
            tallies[i].extend(tally);
        }
    }

    let cases = CASES
        .iter()
        .enumerate()
        .map(|(i, &case)| {
            let mut latencies: Vec<u64> = tallies[i]
                .iter()
                .flat_map(|t| t.latencies.iter().copied())
                .collect();
            latencies.sort_unstable();
            let requests = latencies.len() as u64;
            let bytes: u64 = tallies[i].iter().map(|t| t.bytes).sum();
            let check_ns: u64 = tallies[i].iter().map(|t| t.check_ns).sum();
            CaseResult {
                case: case.name(),
                requests,
                requests_per_sec: requests as f64 / elapsed[i].as_secs_f64(),
                rounds_per_sec: rates[i].clone(),
                p50_ns: percentile(&latencies, 0.50),
                p99_ns: percentile(&latencies, 0.99),
                bytes_per_response: bytes as f64 / requests.max(1) as f64,
                check_ns_per_response: check_ns as f64 / requests.max(1) as f64,
            }
        })
        .collect();
    let index = |case: Case| CASES.iter().position(|&c| c == case).expect("a case");
    let ratio = |name, target, a: Case, b: Case| {
        let mut per_round: Vec<f64> = rates[index(a)]
            .iter()
            .zip(&rates[index(b)])
            .map(|(a, b)| a / b)
            .collect();
        per_round.sort_by(f64::total_cmp);
        let median = per_round[per_round.len() / 2];
        Ratio {
            name,
            target,
            median,
            min: per_round[0],
            max: per_round[per_round.len() - 1],
            met: median >= target,
        }
    };
    let ratios = vec![
        ratio(
            "Negotiated<T> as MessagePack / Json<T>",
            1.0,
            Case::Negotiated,
            Case::Json,
        ),
        ratio(
            "Negotiated<T> as MessagePack / MsgPack<T>",
            0.95,
            Case::Negotiated,
            Case::MsgPack,
        ),
        ratio(
            "layer re-encoding / Negotiated<T> as MessagePack",
            0.85,
            Case::Layer,
            Case::Negotiated,
        ),
    ];
    let mut in_process = router_costs(name, settings.time)?;
    in_process.extend(match name {
        "api_profile" => encode_costs(&*PROFILE, settings.time),
        _ => encode_costs(&*DOCUMENT, settings.time),
    });
    Ok(HttpResult {
        fixture: name,
        connections: connections.len(),
        worker_threads: workers,
        cases,
        ratios,
        in_process,
    })
}

/// The `q`-quantile of sorted latencies (nearest rank).
fn percentile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The bounds of one round of one case.
#[derive(Clone, Copy)]
struct Budget {
    requests: u64,
    time: Duration,
}

/// Runs one case on every connection at once until `budget` is spent:
/// `budget.requests` requests in all, or `budget.time`, whichever comes
/// first. Returns each connection's tally and the round's duration.
async fn round(
    fixture: &'static str,
    case: Case,
    checker: Checker,
    connections: &mut Vec<SendRequest<Empty<Bytes>>>,
    budget: Budget,
    decode_every_reply: bool,
) -> Result<(Vec<Tally>, Duration), String> {
    let issued = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let deadline = start + budget.time;
    let variants = case.variants();
    let tasks: Vec<_> = connections
        .drain(..)
        .enumerate()
        .map(|(i, sender)| {
            let issued = Arc::clone(&issued);
            tokio::spawn(async move {
                let mut sender = sender;
                let job = Job {
                    fixture,
                    variants,
                    first: i,
                    checker,
                    issued: &issued,
                    budget,
                    deadline,
                    decode_every_reply,
                };
                let tally = drive(&mut sender, job)
                    .await
                    .map_err(|error| format!("{fixture} ({}): {error}", case.name()));
                (sender, tally)
            })
        })
        .collect();
    let mut tallies = Vec::with_capacity(tasks.len());
    let mut failure = None;
    for task in tasks {
        let (sender, tally) = task.await.map_err(|error| error.to_string())?;
        connections.push(sender);
        match tally {
            Ok(tally) => tallies.push(tally),
            Err(error) => failure = failure.or(Some(error)),
        }
    }
    let took = start.elapsed();
    match failure {
        Some(error) => Err(error),
        None => Ok((tallies, took)),
    }
}

/// What one connection does in a round.
struct Job<'a> {
    fixture: &'static str,
    /// What to request: the `k`th request sends `variants[(first + k) %
    /// variants.len()]`, so that a mix reaches every variant on every
    /// connection.
    variants: &'static [Variant],
    first: usize,
    checker: Checker,
    /// Requests issued in the round so far, over all connections.
    issued: &'a AtomicU64,
    budget: Budget,
    deadline: Instant,
    decode_every_reply: bool,
}

/// One connection's loop: request, read the whole body, check it.
async fn drive(sender: &mut SendRequest<Empty<Bytes>>, job: Job<'_>) -> Result<Tally, String> {
    let Job {
        fixture,
        variants,
        first,
        checker,
        issued,
        budget,
        deadline,
        decode_every_reply,
    } = job;
    let mut tally = Tally::default();
    let uris: Vec<String> = variants
        .iter()
        .map(|variant| format!("/{fixture}/{}", variant.route))
        .collect();
    // The last body of each variant that decoded to the fixture.
    let mut references: Vec<Option<Bytes>> = vec![None; variants.len()];
    let mut next = first % variants.len();
    while issued.fetch_add(1, Ordering::Relaxed) < budget.requests && Instant::now() < deadline {
        let (variant, uri, reference) = (&variants[next], &uris[next], &mut references[next]);
        next = (next + 1) % variants.len();
        let mut request = Request::get(uri).header(HOST, "127.0.0.1");
        if let Some(accept) = variant.accept {
            request = request.header(ACCEPT, accept);
        }
        let request = request
            .body(Empty::new())
            .map_err(|error| error.to_string())?;
        let sent = Instant::now();
        sender.ready().await.map_err(|error| error.to_string())?;
        let response = sender
            .send_request(request)
            .await
            .map_err(|error| error.to_string())?;
        let (parts, body) = response.into_parts();
        let body = body
            .collect()
            .await
            .map_err(|error| error.to_string())?
            .to_bytes();
        let received = Instant::now();
        let accept = variant.accept.unwrap_or("none");
        if parts.status != StatusCode::OK {
            return Err(format!("{uri}, Accept {accept}: status {}", parts.status));
        }
        let content_type = parts.headers.get(CONTENT_TYPE);
        if content_type.map(|value| value.as_bytes()) != Some(variant.content_type.as_bytes()) {
            return Err(format!(
                "{uri}, Accept {accept}: Content-Type {content_type:?}, expected {}",
                variant.content_type
            ));
        }
        // A reply byte for byte equal to one that decoded to the fixture
        // decodes to it too: only the first, and any that differ, are
        // decoded (all of them with `--decode-every-reply`).
        if decode_every_reply || reference.as_ref() != Some(&body) {
            (checker.check)(&body, variant.json)
                .map_err(|error| format!("{uri}, Accept {accept}: {error}"))?;
            *reference = Some(body.clone());
        }
        tally.check_ns += received.elapsed().as_nanos() as u64;
        tally.latencies.push((received - sent).as_nanos() as u64);
        tally.bytes += body.len() as u64;
    }
    Ok(tally)
}
