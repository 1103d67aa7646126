//! The baseline: JSON-RPC 2.0 over newline-delimited serde_json, built as
//! msgpack-rpc's connection is (a reader task matching responses by id,
//! lines encoded into one shared buffer that a writer task takes whole, a
//! handler answered in the server's reading task), so that the two differ
//! in their format, not their plumbing.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::{oneshot, Notify};

use crate::model::plain::LogRecord;

#[derive(Serialize)]
struct Request<'a> {
    jsonrpc: &'static str,
    id: u64,
    method: &'static str,
    params: (&'a LogRecord,),
}

#[derive(Deserialize)]
struct IncomingRequest {
    id: u64,
    #[allow(dead_code)]
    method: String,
    params: (LogRecord,),
}

#[derive(Serialize, Deserialize)]
struct Response {
    jsonrpc: String,
    id: u64,
    result: LogRecord,
}

type Waiting = Arc<Mutex<HashMap<u64, oneshot::Sender<LogRecord>>>>;

/// One client connection; clones share it.
#[derive(Clone)]
pub(super) struct Client {
    lines: Arc<Lines>,
    waiting: Waiting,
    next_id: Arc<AtomicU64>,
}

impl Client {
    pub(super) fn new<R, W>(reader: R, writer: W) -> Client
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let lines = Arc::new(Lines::default());
        let waiting = Waiting::default();
        tokio::spawn(write_lines(writer, Arc::clone(&lines)));
        let matching = Arc::clone(&waiting);
        tokio::spawn(async move {
            let mut lines = BufReader::new(reader);
            let mut line = Vec::new();
            while lines.read_until(b'\n', &mut line).await.unwrap_or(0) > 0 {
                let response: Response = serde_json::from_slice(&line).expect("a response");
                let sender = matching.lock().unwrap().remove(&response.id);
                if let Some(sender) = sender {
                    let _ = sender.send(response.result);
                }
                line.clear();
            }
        });
        Client {
            lines,
            waiting,
            next_id: Arc::new(AtomicU64::new(0)),
        }
    }

    pub(super) async fn echo(&self, record: &LogRecord) -> LogRecord {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (sender, answer) = oneshot::channel();
        self.waiting.lock().unwrap().insert(id, sender);
        let request = Request {
            jsonrpc: "2.0",
            id,
            method: "echo",
            params: (record,),
        };
        self.lines.push(&request);
        answer.await.expect("an answer")
    }

    /// Ends the connection: the writer stops, and the server, reading
    /// the end, stops too.
    pub(super) fn close(&self) {
        self.lines.close();
    }
}

/// Serves `echo` on every connection `listener` accepts.
pub(super) async fn serve(listener: TcpListener) {
    while let Ok((stream, _)) = listener.accept().await {
        let _ = stream.set_nodelay(true);
        let (reader, writer) = stream.into_split();
        let lines = Arc::new(Lines::default());
        tokio::spawn(write_lines(writer, Arc::clone(&lines)));
        tokio::spawn(async move {
            let mut reader = BufReader::new(reader);
            let mut line = Vec::new();
            while reader.read_until(b'\n', &mut line).await.unwrap_or(0) > 0 {
                let request: IncomingRequest = serde_json::from_slice(&line).expect("a request");
                let (record,) = request.params;
                lines.push(&Response {
                    jsonrpc: "2.0".into(),
                    id: request.id,
                    result: record,
                });
                line.clear();
            }
            lines.close();
        });
    }
}

/// Encoded lines waiting for the writer, back to back in one buffer, as
/// msgpack-rpc queues its messages. Not bounded: the benchmark's callers
/// keep at most their number of lines queued.
#[derive(Default)]
struct Lines {
    queue: Mutex<Queue>,
    queued: Notify,
}

#[derive(Default)]
struct Queue {
    bytes: Vec<u8>,
    lines: usize,
    closed: bool,
}

impl Lines {
    fn push<T: Serialize>(&self, message: &T) {
        let mut queue = self.queue.lock().unwrap();
        serde_json::to_writer(&mut queue.bytes, message).expect("a message serializes");
        queue.bytes.push(b'\n');
        queue.lines += 1;
        let first = queue.lines == 1;
        drop(queue);
        if first {
            self.queued.notify_one();
        }
    }

    fn close(&self) {
        self.queue.lock().unwrap().closed = true;
        self.queued.notify_one();
    }

    /// Swaps the queue for the empty `batch` once it holds lines, after
    /// one yield when it holds more than one, as msgpack-rpc's writer
    /// does; `false` once closed.
    async fn take(&self, batch: &mut Vec<u8>) -> bool {
        let mut yielded = false;
        loop {
            let queued = self.queued.notified();
            let (lines, closed) = {
                let queue = self.queue.lock().unwrap();
                (queue.lines, queue.closed)
            };
            if closed {
                return false;
            }
            if lines > 1 && !yielded {
                yielded = true;
                tokio::task::yield_now().await;
                continue;
            }
            if lines > 0 {
                let mut queue = self.queue.lock().unwrap();
                std::mem::swap(&mut queue.bytes, batch);
                queue.lines = 0;
                return true;
            }
            queued.await;
        }
    }
}

/// Writes the queued lines, one write and one flush a batch.
async fn write_lines<W: AsyncWrite + Unpin>(mut writer: W, lines: Arc<Lines>) {
    let mut batch = Vec::new();
    while lines.take(&mut batch).await {
        if writer.write_all(&batch).await.is_err() || writer.flush().await.is_err() {
            return;
        }
        batch.clear();
    }
    let _ = writer.shutdown().await;
}
