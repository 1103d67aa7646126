//! [`Connection`]: calls to the peer and the peer's calls to us, on one
//! byte stream.

use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use msgpack_serde::Value;
use msgpack_tokio::DEFAULT_MAX_FRAME_LEN;
use serde::de::DeserializeOwned;
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{oneshot, Notify, Semaphore};
use tokio_util::sync::CancellationToken;

use crate::dispatch::read_loop;
use crate::handler::{self, Handlers};
use crate::message;
use crate::outgoing::{Outgoing, Unsent};
use crate::pending::{Pending, Refused, Response};
use crate::writer::write_loop;
use crate::{Error, Report};

pub(crate) type ReportFn = Arc<dyn Fn(Report) + Send + Sync>;

/// Sets up connections: the methods they serve, their bounds and
/// timeout. One `Builder` makes any number of connections (a server
/// makes one per accepted socket).
///
/// | setting | default | what it bounds |
/// |---|---|---|
/// | [`max_pending_calls`](Self::max_pending_calls) | 1024 | our calls waiting for a response; more wait to start |
/// | [`max_concurrent_handlers`](Self::max_concurrent_handlers) | 64 | the peer's requests being handled; more wait to start |
/// | [`queue_len`](Self::queue_len) | 64 | messages queued for writing; and the peer's requests and notifications waiting to be handled, `queue_len * max_frame_len` bytes of them, then we stop reading |
/// | [`max_frame_len`](Self::max_frame_len) | 16 MiB | bytes of one incoming message; a larger one ends the connection |
/// | [`timeout`](Self::timeout) | none | how long a call waits for its response |
/// | [`close_timeout`](Self::close_timeout) | 5 s | how long a closing connection waits for its queued messages to be written |
///
/// So the memory of a connection stays under about
/// `(max_concurrent_handlers + queue_len + 1) * max_frame_len` for what
/// it reads, plus what our own calls and answers put in the `queue_len`
/// outgoing messages and the `max_pending_calls` responses waiting to be
/// taken. Messages waiting to be handled count as their bytes, at least
/// 1 KiB each; a handler's params, once decoded, take what their type
/// takes (a `Value` takes 32 bytes, so an array of nils decoded as
/// `Value` takes 32 times its frame): choose `max_frame_len` with the
/// handlers' types in mind.
///
/// When the peer reads slowly the outgoing queue fills and callers wait
/// in [`Connection::call`]. When it sends faster than the handlers
/// answer, its requests and notifications wait, read (copied out of the
/// read buffer, so that each holds only its own bytes), and reading goes
/// on until what waits reaches its bound; only then do we stop reading
/// and TCP pushes back. Reading on is what lets a handler call the peer
/// back and get its answer (Neovim's plugins do, on every buffer event)
/// while more of the peer's messages are arriving. Past the bound, such
/// a handler waits until what waits ahead of its answer is handled:
/// give its calls a [`timeout`](Self::timeout) if the peer may send that
/// much faster than they are handled.
#[derive(Clone)]
pub struct Builder {
    pub(crate) handlers: Handlers,
    pub(crate) on_report: ReportFn,
    max_pending_calls: usize,
    pub(crate) max_concurrent_handlers: usize,
    pub(crate) queue_len: usize,
    pub(crate) max_frame_len: usize,
    timeout: Option<Duration>,
    pub(crate) close_timeout: Duration,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl fmt::Debug for Builder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut methods: Vec<&str> = self.handlers.requests.keys().map(String::as_str).collect();
        methods.sort_unstable();
        f.debug_struct("Builder")
            .field("methods", &methods)
            .field("max_pending_calls", &self.max_pending_calls)
            .field("max_concurrent_handlers", &self.max_concurrent_handlers)
            .field("queue_len", &self.queue_len)
            .field("max_frame_len", &self.max_frame_len)
            .field("timeout", &self.timeout)
            .field("close_timeout", &self.close_timeout)
            .finish_non_exhaustive()
    }
}

impl Builder {
    /// A builder serving no methods, with the defaults in the table above;
    /// reports are dropped until [`on_report`](Self::on_report) is set.
    pub fn new() -> Builder {
        Builder {
            handlers: Handlers::default(),
            on_report: Arc::new(|_| {}),
            max_pending_calls: 1024,
            max_concurrent_handlers: 64,
            queue_len: 64,
            max_frame_len: DEFAULT_MAX_FRAME_LEN,
            timeout: None,
            close_timeout: Duration::from_secs(5),
        }
    }

    /// Serves requests for `method` with `handler`, an async function of
    /// the params decoded as `P` (for the usual array of params, a tuple:
    /// `(i64, i64)` for `add(a, b)`). `Ok(result)` is answered as the
    /// result, `Err(error)` as the error object; params that do not decode
    /// into `P` get an error response and a [`Report::BadParams`].
    ///
    /// ```
    /// let builder = msgpack_rpc::Builder::new()
    ///     .handle("add", |(a, b): (i64, i64)| async move {
    ///         a.checked_add(b).ok_or("overflow")
    ///     });
    /// ```
    #[must_use]
    pub fn handle<P, R, E, F, Fut>(mut self, method: &str, handler: F) -> Builder
    where
        P: DeserializeOwned + Send + 'static,
        R: Serialize + 'static,
        E: Serialize + 'static,
        F: Fn(P) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, E>> + Send + 'static,
    {
        let handler = handler::request(method, handler);
        self.handlers.requests.insert(method.to_owned(), handler);
        self
    }

    /// Receives notifications for `method` with `handler`. Notifications
    /// are handled one at a time in the order they arrived.
    ///
    /// ```
    /// let builder = msgpack_rpc::Builder::new()
    ///     .handle_notification("log", |(text,): (String,)| async move { println!("{text}") });
    /// ```
    #[must_use]
    pub fn handle_notification<P, F, Fut>(mut self, method: &str, handler: F) -> Builder
    where
        P: DeserializeOwned + Send + 'static,
        F: Fn(P) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let handler = handler::notification(method, handler);
        self.handlers
            .notifications
            .insert(method.to_owned(), handler);
        self
    }

    /// Calls `on_report` with each thing wrong the connection meets while
    /// serving: malformed messages, responses to unknown msgids, unknown
    /// methods, bad params, answers that do not encode, handlers that
    /// panicked, the stream's end on an error ([`Report`]). A panic in
    /// `on_report` itself is caught and the report dropped.
    ///
    /// ```
    /// let builder = msgpack_rpc::Builder::new().on_report(|report| eprintln!("rpc: {report}"));
    /// ```
    #[must_use]
    pub fn on_report(mut self, on_report: impl Fn(Report) + Send + Sync + 'static) -> Builder {
        self.on_report = Arc::new(move |report| {
            let reported = std::panic::AssertUnwindSafe(|| on_report(report));
            // Nowhere else to report it to: the report is dropped.
            let _ = std::panic::catch_unwind(reported);
        });
        self
    }

    /// The most of our calls waiting for a response at once (1024 unless
    /// set, at most `u32::MAX - 1`, so that a free msgid is always left);
    /// further calls wait for one to finish.
    ///
    /// ```
    /// let builder = msgpack_rpc::Builder::new().max_pending_calls(usize::MAX);
    /// assert!(format!("{builder:?}").contains("max_pending_calls: 4294967294"));
    /// ```
    #[must_use]
    pub fn max_pending_calls(mut self, max: usize) -> Builder {
        self.max_pending_calls = max.clamp(1, u32::MAX as usize - 1);
        self
    }

    /// The most of the peer's requests handled at once (64 unless set);
    /// more wait, read, to start in the order they came.
    #[must_use]
    pub fn max_concurrent_handlers(mut self, max: usize) -> Builder {
        self.max_concurrent_handlers = max.clamp(1, Semaphore::MAX_PERMITS);
        self
    }

    /// The length of the outgoing queue (64 messages unless set); the
    /// peer's requests and notifications waiting to be handled take up
    /// to `len * max_frame_len` bytes (each counted as at least 1 KiB),
    /// then reading waits.
    #[must_use]
    pub fn queue_len(mut self, len: usize) -> Builder {
        self.queue_len = len.max(1);
        self
    }

    /// The most bytes one incoming message may take (16 MiB unless set).
    #[must_use]
    pub fn max_frame_len(mut self, len: usize) -> Builder {
        self.max_frame_len = len;
        self
    }

    /// How long each call waits for its response (no limit unless set);
    /// see also [`Connection::call_with_timeout`].
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Builder {
        self.timeout = Some(timeout);
        self
    }

    /// How long a closing connection (closed by either side, or by a
    /// failed read) waits for the messages still queued to be written;
    /// then the stream is dropped, written or not, so that a peer that
    /// stops reading cannot keep the connection's task, buffers and
    /// socket alive (5 seconds unless set). A peer that stops sending
    /// (ends its half of the stream) is first given the answers of the
    /// requests it sent, for as long again at most.
    #[must_use]
    pub fn close_timeout(mut self, timeout: Duration) -> Builder {
        self.close_timeout = timeout;
        self
    }

    /// Starts a connection over `reader` and `writer` (the two halves of a
    /// socket, or a child's stdout and stdin), on the current tokio
    /// runtime: one task reads and dispatches, one writes.
    pub fn connect<R, W>(&self, reader: R, writer: W) -> Connection
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let outgoing = Arc::new(Outgoing::new(self.queue_len));
        let shared = Arc::new(Shared {
            outgoing: Arc::clone(&outgoing),
            pending: Mutex::new(Pending::new(self.max_pending_calls)),
            room: Notify::new(),
            closed: CancellationToken::new(),
            timeout: self.timeout,
        });
        tokio::spawn(write_loop(
            writer,
            outgoing,
            shared.closed.clone(),
            self.close_timeout,
        ));
        tokio::spawn(read_loop(reader, Arc::clone(&shared), self.clone()));
        Connection { shared }
    }
}

/// One msgpack-rpc connection: it sends requests and notifications to
/// the peer and serves the peer's, because real peers call back (Neovim
/// calls its clients). Cheap to clone; every clone is the same
/// connection.
///
/// The connection lives until the peer closes it, the stream fails, or
/// [`close`](Self::close) is called; then every call still waiting
/// resolves with a "connection closed" error. When the peer ends its
/// half of the stream, our calls resolve so at once (new ones too, while
/// [`is_closed`](Self::is_closed) is still `false`), and the requests and
/// notifications it sent are still handled and answered, for at most
/// [`Builder::close_timeout`], before the connection closes.
#[derive(Clone)]
pub struct Connection {
    shared: Arc<Shared>,
}

pub(crate) struct Shared {
    pub(crate) outgoing: Arc<Outgoing>,
    pub(crate) pending: Mutex<Pending>,
    /// Woken when a full `pending` makes room, and on close.
    pub(crate) room: Notify,
    pub(crate) closed: CancellationToken,
    timeout: Option<Duration>,
}

impl Shared {
    pub(crate) fn close(&self) {
        self.stop_calls();
        self.outgoing.close();
        self.closed.cancel();
    }

    /// Resolves every call waiting for its response as "connection
    /// closed" and refuses new ones: no response can come any more.
    pub(crate) fn stop_calls(&self) {
        self.pending.lock().expect("never poisoned").close();
        self.room.notify_waiters();
    }
}

impl fmt::Debug for Connection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connection")
            .field("closed", &self.is_closed())
            .finish_non_exhaustive()
    }
}

impl Connection {
    /// Calls `method` with `params` (usually a tuple: the spec's array of
    /// params) and decodes the result as `R`. A peer's error object comes
    /// back as [`Error::remote_error`]. Dropping the future cancels the
    /// call: its msgid is freed and a late response is reported, not
    /// delivered.
    pub async fn call<P: Serialize, R: DeserializeOwned>(
        &self,
        method: &str,
        params: P,
    ) -> Result<R, Error> {
        match self.shared.timeout {
            Some(timeout) => self.call_with_timeout(method, params, timeout).await,
            None => self.call_untimed(method, params).await,
        }
    }

    /// [`call`](Self::call) with its own timeout: [`Error::is_timeout`]
    /// when the response has not come within `timeout`.
    pub async fn call_with_timeout<P: Serialize, R: DeserializeOwned>(
        &self,
        method: &str,
        params: P,
        timeout: Duration,
    ) -> Result<R, Error> {
        tokio::time::timeout(timeout, self.call_untimed(method, params))
            .await
            .unwrap_or_else(|_| Err(Error::timeout()))
    }

    async fn call_untimed<P: Serialize, R: DeserializeOwned>(
        &self,
        method: &str,
        params: P,
    ) -> Result<R, Error> {
        let (sender, response) = oneshot::channel();
        let (msgid, seq) = self.register(sender).await?;
        let mut waiting = Waiting {
            shared: &self.shared,
            msgid,
            seq,
            answered: false,
        };
        self.send(|out| message::write_request(out, msgid, method, &params))
            .await?;
        let response = response.await.map_err(|_| Error::closed())?;
        waiting.answered = true;
        let (error, result) = response.map_err(Error::malformed)?;
        if error[..] != [0xc0] {
            return Err(match Value::from_slice(&error) {
                Ok(error) => Error::remote(error),
                Err(error) => Error::remote_undecodable(error.into()),
            });
        }
        msgpack_serde::from_slice(&result).map_err(Error::decode)
    }

    /// Sends the notification `method` with `params`; waits only while the
    /// outgoing queue is full.
    pub async fn notify<P: Serialize>(&self, method: &str, params: P) -> Result<(), Error> {
        self.send(|out| message::write_notification(out, method, &params))
            .await
    }

    /// Closes the connection: calls still waiting resolve with "connection
    /// closed", queued messages are written, then both halves are dropped.
    pub fn close(&self) {
        self.shared.close();
    }

    /// Whether the connection has closed.
    pub fn is_closed(&self) -> bool {
        self.shared.closed.is_cancelled()
    }

    /// Waits until the connection has closed (the peer hung up, the
    /// stream failed, or [`close`](Self::close) was called).
    pub async fn closed(&self) {
        self.shared.closed.cancelled().await;
    }

    /// Registers a call with `sender` for its response, waiting while
    /// `max_pending_calls` are in flight.
    async fn register(&self, sender: oneshot::Sender<Response>) -> Result<(u32, u64), Error> {
        let mut sender = match self.try_register(sender) {
            Err(Refused::Full(sender)) => sender,
            registered => return registered.map_err(|_| Error::closed()),
        };
        loop {
            // Listening before looking again, so that room made between
            // the look and the wait is not missed.
            let room = self.shared.room.notified();
            let mut room = std::pin::pin!(room);
            room.as_mut().enable();
            sender = match self.try_register(sender) {
                Err(Refused::Full(sender)) => sender,
                registered => {
                    // Room is made one call at a time, but several calls
                    // may end before a woken one registers: the room left
                    // is passed on to the next call waiting.
                    let pending = self.shared.pending.lock().expect("never poisoned");
                    if registered.is_ok() && !pending.is_full() {
                        self.shared.room.notify_one();
                    }
                    return registered.map_err(|_| Error::closed());
                }
            };
            room.await;
        }
    }

    fn try_register(&self, sender: oneshot::Sender<Response>) -> Result<(u32, u64), Refused> {
        let mut pending = self.shared.pending.lock().expect("never poisoned");
        pending.insert(sender)
    }

    /// Queues the message `encode` appends, waiting while the outgoing
    /// queue is full.
    async fn send(
        &self,
        encode: impl FnOnce(&mut Vec<u8>) -> msgpack_serde::Result<()>,
    ) -> Result<(), Error> {
        self.shared
            .outgoing
            .send(encode)
            .await
            .map_err(|unsent| match unsent {
                Unsent::Closed => Error::closed(),
                Unsent::Encode(error) => Error::encode(error),
            })
    }
}

/// A call waiting for its response; dropped before the answer came (the
/// call's future was dropped or timed out), it frees its msgid.
struct Waiting<'a> {
    shared: &'a Shared,
    msgid: u32,
    seq: u64,
    answered: bool,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if !self.answered {
            let mut pending = self.shared.pending.lock().expect("never poisoned");
            if pending.cancel(self.msgid, self.seq) {
                self.shared.room.notify_one();
            }
        }
    }
}
