//! `msgpack-bench --rpc`: round trips of msgpack-rpc on loopback TCP with
//! a number of calls in flight on one connection, against the same calls
//! as JSON-RPC over newline-delimited serde_json on the same transport,
//! written the same way (the baseline, in `rpc/json.rs`: a reader task
//! matching responses by id, lines encoded into one buffer that a writer
//! task takes whole, the handler answered in the server's reading task).
//!
//! The call is `echo(record)` on the logs fixture's records: each reply
//! is decoded into the record type and checked against what was sent.

use std::fmt::Write as _;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use msgpack_rpc::{Builder, Connection};
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

use crate::model::plain::LogRecord;
use crate::table::duration;

mod json;

/// How the load is run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Calls in flight at once on the one connection.
    pub in_flight: usize,
    /// The most calls per case and round.
    pub calls: u64,
    /// The longest one case runs per round.
    pub time: Duration,
    /// Rounds, the two cases taking turns in each.
    pub rounds: usize,
    /// Run only the stacks whose names contain this text (all when
    /// empty): one stack alone, for profiling.
    pub only: String,
    /// The runtime's threads, client and server sharing them: 1 runs
    /// everything on one current-thread runtime, more a multi-thread
    /// runtime with that many workers.
    pub threads: usize,
}

/// One case's best round.
#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    /// `msgpack-rpc` or `JSON-RPC (serde_json lines)`.
    pub name: String,
    /// Calls answered in that round.
    pub calls: u64,
    /// Calls answered per second.
    pub requests_per_second: f64,
    /// Median round trip, in nanoseconds.
    pub p50_ns: f64,
    /// 99th percentile round trip, in nanoseconds.
    pub p99_ns: f64,
    /// Bytes on the wire per call, both directions.
    pub bytes_per_call: f64,
}

/// What `--rpc` measured.
#[derive(Clone, Debug, Serialize)]
pub struct RpcResult {
    /// Calls in flight.
    pub in_flight: usize,
    /// The runtime's threads (see [`Settings::threads`]).
    pub threads: usize,
    /// msgpack-rpc's best round, then JSON-RPC's.
    pub cases: Vec<CaseResult>,
    /// msgpack-rpc's requests/s over JSON-RPC's, round by round.
    pub round_ratios: Vec<f64>,
    /// The median of `round_ratios`: the figure to compare, as the two
    /// stacks' rounds take turns and a slow stretch of the host moves
    /// one round, not the median.
    pub median_ratio: Option<f64>,
}

/// Runs both cases, `settings.rounds` times each in turn.
pub fn run(settings: &Settings) -> io::Result<RpcResult> {
    let runtime = match settings.threads {
        0 | 1 => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?,
        workers => tokio::runtime::Builder::new_multi_thread()
            .worker_threads(workers)
            .enable_all()
            .build()?,
    };
    runtime.block_on(async {
        let records = Arc::new(crate::fixtures::logs().records);
        let mut best: [Option<CaseResult>; 2] = [None, None];
        let mut round_ratios = Vec::new();
        let runs = |name: &str| name.contains(settings.only.as_str());
        for _ in 0..settings.rounds.max(1) {
            let ours = match runs(MSGPACK_RPC) {
                true => Some(msgpack_case(settings, &records).await?),
                false => None,
            };
            let theirs = match runs(JSON_RPC) {
                true => Some(json_case(settings, &records).await?),
                false => None,
            };
            if let (Some(ours), Some(theirs)) = (&ours, &theirs) {
                round_ratios.push(ours.requests_per_second / theirs.requests_per_second);
            }
            for (slot, result) in best.iter_mut().zip([ours, theirs]) {
                let Some(result) = result else { continue };
                if slot
                    .as_ref()
                    .is_none_or(|best| result.requests_per_second > best.requests_per_second)
                {
                    *slot = Some(result);
                }
            }
        }
        Ok(RpcResult {
            in_flight: settings.in_flight,
            threads: settings.threads.max(1),
            cases: best.into_iter().flatten().collect(),
            median_ratio: median(&round_ratios),
            round_ratios,
        })
    })
}

const MSGPACK_RPC: &str = "msgpack-rpc";
const JSON_RPC: &str = "JSON-RPC (serde_json lines)";

async fn msgpack_case(
    settings: &Settings,
    records: &Arc<Vec<LogRecord>>,
) -> io::Result<CaseResult> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = Builder::new()
        .max_concurrent_handlers(settings.in_flight.max(64))
        .handle("echo", |(record,): (LogRecord,)| async move {
            Ok::<_, ()>(record)
        });
    let serving = tokio::spawn(async move { server.serve_tcp(listener).await });
    let stream = TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let bytes = Arc::new(AtomicU64::new(0));
    let (read, write) = stream.into_split();
    let client = Builder::new().connect(
        Counted(read, Arc::clone(&bytes)),
        Counted(write, Arc::clone(&bytes)),
    );
    let result = drive(MSGPACK_RPC, settings, records, client.clone(), &bytes).await;
    client.close();
    serving.abort();
    Ok(result)
}

async fn json_case(settings: &Settings, records: &Arc<Vec<LogRecord>>) -> io::Result<CaseResult> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let serving = tokio::spawn(json::serve(listener));
    let stream = TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let bytes = Arc::new(AtomicU64::new(0));
    let (read, write) = stream.into_split();
    let client = json::Client::new(
        Counted(read, Arc::clone(&bytes)),
        Counted(write, Arc::clone(&bytes)),
    );
    let result = drive(JSON_RPC, settings, records, client.clone(), &bytes).await;
    client.close();
    serving.abort();
    Ok(result)
}

/// One stack's client, as the callers use it.
trait Echo: Clone + Send + Sync + 'static {
    /// Calls `echo(record)` and checks that the answer is `record`.
    fn echo(&self, record: &LogRecord) -> impl Future<Output = ()> + Send;
}

impl Echo for Connection {
    async fn echo(&self, record: &LogRecord) {
        let echoed: LogRecord = self.call("echo", (record,)).await.expect("echo answers");
        assert_eq!(&echoed, record, "the echo is what was sent");
    }
}

impl Echo for json::Client {
    async fn echo(&self, record: &LogRecord) {
        let echoed = json::Client::echo(self, record).await;
        assert_eq!(&echoed, record, "the echo is what was sent");
    }
}

/// Runs `in_flight` callers, each calling in turn, after a warm-up.
///
/// What the callers share is only the connection: each owns its clone of
/// the client and of the records and its share of the calls, borrows
/// its record for each call (no copy, which both stacks would pay in
/// allocations), and reads the clock once a call (the end of one call
/// is the start of the next). The harness's own cost is paid by both
/// stacks alike, so every instruction of it pulls their ratio towards 1.
async fn drive<C: Echo>(
    name: &str,
    settings: &Settings,
    records: &Arc<Vec<LogRecord>>,
    client: C,
    bytes: &AtomicU64,
) -> CaseResult {
    for record in records.iter().cycle().take(settings.in_flight * 4) {
        client.echo(record).await;
    }
    bytes.store(0, Ordering::Relaxed);
    let in_flight = settings.in_flight.max(1);
    let start = Instant::now();
    let callers: Vec<_> = (0..in_flight)
        .map(|caller| {
            let (client, records) = (client.clone(), Arc::clone(records));
            let share = settings.calls / in_flight as u64
                + u64::from((caller as u64) < settings.calls % in_flight as u64);
            let time = settings.time;
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(share.min(1 << 16) as usize);
                let mut began = Instant::now();
                let calls = (caller..).step_by(in_flight).take(share as usize);
                for n in calls {
                    client.echo(&records[n % records.len()]).await;
                    let now = Instant::now();
                    latencies.push((now - began).as_nanos() as u64);
                    if now - start >= time {
                        break;
                    }
                    began = now;
                }
                latencies
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for caller in callers {
        latencies.extend(caller.await.expect("a caller finishes"));
    }
    let elapsed = start.elapsed().as_secs_f64();
    latencies.sort_unstable();
    let quantile = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize] as f64;
    let calls = latencies.len() as u64;
    CaseResult {
        name: name.to_string(),
        calls,
        requests_per_second: calls as f64 / elapsed,
        p50_ns: quantile(0.5),
        p99_ns: quantile(0.99),
        bytes_per_call: bytes.load(Ordering::Relaxed) as f64 / calls as f64,
    }
}

/// The median of `values`; `None` for none.
fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    match sorted.len() {
        0 => None,
        n if n % 2 == 1 => Some(sorted[mid]),
        _ => Some((sorted[mid - 1] + sorted[mid]) / 2.0),
    }
}

/// The result as a table.
pub fn rpc_table(result: &RpcResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## rpc: echo(logs record) on loopback TCP, {} calls in flight on one connection, {} (best of {} rounds)\n",
        result.in_flight,
        match result.threads {
            1 => "client and server on one thread".to_string(),
            n => format!("client and server sharing {n} runtime workers"),
        },
        result.round_ratios.len()
    );
    let _ = writeln!(
        out,
        "| stack | calls | requests/s | p50 | p99 | bytes/call |"
    );
    let _ = writeln!(out, "|---|--:|--:|--:|--:|--:|");
    for case in &result.cases {
        let _ = writeln!(
            out,
            "| {} | {} | {:.0} | {} | {} | {:.1} |",
            case.name,
            case.calls,
            case.requests_per_second,
            duration(case.p50_ns),
            duration(case.p99_ns),
            case.bytes_per_call
        );
    }
    let ratios: Vec<String> = result
        .round_ratios
        .iter()
        .map(|r| format!("{r:.2}x"))
        .collect();
    let _ = writeln!(
        out,
        "\nmsgpack-rpc / JSON-RPC requests/s, by round: {}",
        ratios.join(", ")
    );
    if let Some(median) = result.median_ratio {
        let _ = writeln!(out, "\nmedian of rounds: {median:.2}x");
    }
    out
}

/// An I/O half that counts the bytes through it into a shared counter.
struct Counted<T>(T, Arc<AtomicU64>);

impl<T: AsyncRead + Unpin> AsyncRead for Counted<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.0).poll_read(cx, buf);
        self.1
            .fetch_add((buf.filled().len() - before) as u64, Ordering::Relaxed);
        polled
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Counted<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.0).poll_write(cx, buf);
        if let Poll::Ready(Ok(written)) = polled {
            self.1.fetch_add(written as u64, Ordering::Relaxed);
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}
