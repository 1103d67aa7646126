//! The reading side of a connection: messages read, responses handed to
//! their calls, the peer's requests and notifications to their handlers.
//!
//! Reading goes on while the peer's messages wait to be handled, so that
//! responses keep arriving: a handler that calls the peer back (a Neovim
//! plugin answering a buffer event) waits for an answer that only this
//! loop can read. What waits is bounded in bytes (the waiting room,
//! `queue_len * max_frame_len`); only when it is full does reading stop.
//!
//! A peer that stops sending may still read (a client that shuts down
//! its half of the socket after its requests): the requests and
//! notifications it sent are still handled and answered before the
//! connection closes, for at most `close_timeout`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::Poll;

use bytes::Bytes;
use futures::StreamExt;
use msgpack_serde::Limits;
use msgpack_tokio::MsgPackCodec;
use tokio::io::AsyncRead;
use tokio::sync::{mpsc, OwnedSemaphorePermit, Semaphore};
use tokio_util::codec::FramedRead;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::connection::{ReportFn, Shared};
use crate::handler::{BoxFuture, NotificationHandler, RequestHandler};
use crate::message::{self, Incoming};
use crate::outgoing::{Outgoing, Pushed};
use crate::{Builder, Report};

/// Reads messages and dispatches them until the stream ends or the
/// connection closes, then closes it (also when something in it panics:
/// the closing is a drop guard).
pub(crate) async fn read_loop<R: AsyncRead + Unpin>(
    reader: R,
    shared: Arc<Shared>,
    builder: Builder,
) {
    let closing = CloseOnDrop(Arc::clone(&shared));
    // Frames are cut out, not decoded: their depth and value count are
    // for the decoding of params and results to bound (`from_slice`'s
    // limits), and the framer, counting neither, keeps no stack.
    let codec = MsgPackCodec::<(), Bytes>::new()
        .with_limits(Limits::unlimited())
        .with_max_frame_len(builder.max_frame_len);
    let mut frames = FramedRead::new(reader, codec);
    let reading = dispatch(&mut frames, &shared, &builder);
    // Watched once for the whole loop, not once per message.
    tokio::select! {
        () = reading => {}
        () = shared.closed.cancelled() => {}
    }
    drop(closing);
}

/// Closes the connection when dropped.
struct CloseOnDrop(Arc<Shared>);

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// The bytes of the peer's messages that wait to be handled, counted in
/// KiB (a semaphore's permits, at most `u32::MAX` at once): each message
/// at least one, so that small ones cannot fill memory with what keeps
/// them.
struct WaitingRoom {
    kib: Arc<Semaphore>,
    /// The most one message takes: what a frame of `max_frame_len` does.
    most: u32,
}

impl WaitingRoom {
    fn new(builder: &Builder) -> WaitingRoom {
        let most = builder
            .max_frame_len
            .div_ceil(1024)
            .clamp(1, u32::MAX as usize);
        let total = most
            .saturating_mul(builder.queue_len)
            .min(Semaphore::MAX_PERMITS);
        WaitingRoom {
            kib: Arc::new(Semaphore::new(total)),
            most: most as u32,
        }
    }

    /// Room for a message of `len` bytes; waits (reading stops) while
    /// the room is full. `None` once the connection is closing.
    async fn enter(&self, len: usize) -> Option<OwnedSemaphorePermit> {
        let kib = (len.div_ceil(1024).max(1) as u64).min(u64::from(self.most)) as u32;
        match Arc::clone(&self.kib).try_acquire_many_owned(kib) {
            Ok(permit) => Some(permit),
            Err(_) => Arc::clone(&self.kib).acquire_many_owned(kib).await.ok(),
        }
    }

    /// [`enter`](Self::enter) for `bytes`, a slice of the read buffer,
    /// which is copied out of it: what waits holds only its own bytes (a
    /// few bytes left in a large buffer would hold all of it).
    async fn hold(&self, bytes: &Bytes) -> Option<(Bytes, OwnedSemaphorePermit)> {
        let permit = self.enter(bytes.len()).await?;
        Some((Bytes::copy_from_slice(bytes), permit))
    }
}

/// Closes the waiting room and the handler slots when dropped, however
/// the reading ends (the connection closed, the stream failed, the read
/// loop's future dropped): the tasks waiting on them stop, and no parked
/// request starts after the connection has closed.
struct CloseSemaphores(Arc<Semaphore>, Arc<Semaphore>);

impl Drop for CloseSemaphores {
    fn drop(&mut self) {
        self.0.close();
        self.1.close();
    }
}

/// A request waiting for a handler slot, with its room.
struct Parked {
    msgid: u32,
    handler: RequestHandler,
    params: Bytes,
    room: OwnedSemaphorePermit,
}

/// A notification waiting for its turn, with its room.
struct Queued {
    handler: NotificationHandler,
    params: Bytes,
    _room: OwnedSemaphorePermit,
}

/// Dispatches each message read until the stream ends or fails.
async fn dispatch<R: AsyncRead + Unpin>(
    frames: &mut FramedRead<R, MsgPackCodec<(), Bytes>>,
    shared: &Arc<Shared>,
    builder: &Builder,
) {
    let report = &builder.on_report;
    let room = WaitingRoom::new(builder);
    let handler_slots = Arc::new(Semaphore::new(builder.max_concurrent_handlers));
    let _closing = CloseSemaphores(Arc::clone(&room.kib), Arc::clone(&handler_slots));
    // What is being handled and answered, waited for when the peer stops
    // sending.
    let answering = TaskTracker::new();
    let (notifications, queue) = mpsc::unbounded_channel();
    answering.spawn(notification_loop(
        queue,
        Arc::clone(report),
        shared.closed.clone(),
    ));
    // Requests that found no free slot, started in order as slots free
    // up; `parked` counts them until each has its slot, and while any
    // does, later requests queue behind them.
    let parked = Arc::new(AtomicUsize::new(0));
    let (park, parked_queue) = mpsc::unbounded_channel();
    answering.spawn(start_parked(
        parked_queue,
        Arc::clone(&handler_slots),
        Arc::clone(&parked),
        Arc::clone(&shared.outgoing),
        Arc::clone(report),
        answering.clone(),
    ));
    let mut ended = false;
    loop {
        let frame = match frames.next().await {
            None => {
                ended = true;
                break;
            }
            Some(Err(error)) => {
                report(Report::Stream(error));
                break;
            }
            Some(Ok(frame)) => frame,
        };
        let message = match message::parse_frame(&frame) {
            Ok(message) => message,
            Err(error) => {
                if let Some(msgid) = error.response_to() {
                    let waiting = answered(shared, msgid);
                    if let Some(sender) = waiting {
                        drop(sender.send(Err(error.clone())));
                    }
                }
                report(Report::Malformed(error));
                continue;
            }
        };
        match message {
            Incoming::Response {
                msgid,
                error,
                result,
            } => match answered(shared, msgid) {
                // A call dropped just now is no longer listening: fine.
                Some(sender) => drop(sender.send(Ok((error, result)))),
                None => report(Report::UnknownResponse { msgid }),
            },
            Incoming::Request {
                msgid,
                method,
                params,
            } => {
                let outgoing = &shared.outgoing;
                let Some(handler) = builder.handlers.requests.get(method) else {
                    let text = format!("unknown method `{method}`");
                    report(Report::UnknownMethod {
                        method: method.to_owned(),
                    });
                    let pushed = outgoing
                        .push(|out| message::write_failure(out, msgid, &text))
                        .ok();
                    if let Some(Pushed::Full(bytes)) = pushed {
                        let Some(held) = room.enter(bytes.len()).await else {
                            break;
                        };
                        let outgoing = Arc::clone(outgoing);
                        answering.spawn(async move {
                            let _ = outgoing.push_encoded(bytes).await;
                            drop(held);
                        });
                    }
                    continue;
                };
                // A request behind others, or with every slot taken,
                // waits its turn, read.
                if parked.load(Ordering::Acquire) > 0 || handler_slots.available_permits() == 0 {
                    let Some((params, held)) = room.hold(&params).await else {
                        break;
                    };
                    parked.fetch_add(1, Ordering::AcqRel);
                    let parked_request = Parked {
                        msgid,
                        handler: Arc::clone(handler),
                        params,
                        room: held,
                    };
                    if park.send(parked_request).is_err() {
                        break;
                    }
                    continue;
                }
                // A handler that answers at once (most do) into a queue
                // with room is answered here, without a task or a handler
                // slot of its own; one that waits, for its reply or for
                // room in the queue, gets both. A slot is free: only this
                // task takes slots while no request is parked.
                let mut answer = handler(msgid, params, Arc::clone(outgoing));
                if let Poll::Ready(problem) = futures::poll!(answer.as_mut()) {
                    if let Some(problem) = problem {
                        report(problem);
                    }
                    continue;
                }
                let Ok(slot) = Arc::clone(&handler_slots).acquire_owned().await else {
                    break;
                };
                spawn_handler(&answering, answer, slot, Arc::clone(report));
            }
            Incoming::Notification { method, params } => {
                let Some(handler) = builder.handlers.notifications.get(method) else {
                    report(Report::UnknownNotification {
                        method: method.to_owned(),
                    });
                    continue;
                };
                let Some((params, held)) = room.hold(&params).await else {
                    break;
                };
                let queued = Queued {
                    handler: Arc::clone(handler),
                    params,
                    _room: held,
                };
                if notifications.send(queued).is_err() {
                    break;
                }
            }
        }
    }
    if ended {
        // No response can come now; the requests and notifications read
        // are still owed their handling: the parked requests start and
        // the queued notifications run (their queues end), and all are
        // waited for.
        shared.stop_calls();
        drop(park);
        drop(notifications);
        answering.close();
        let _ = tokio::time::timeout(builder.close_timeout, answering.wait()).await;
    }
}

/// The call waiting for `msgid`, taken out of the pending calls; a call
/// waiting for room in a full map is told that there is some now.
fn answered(
    shared: &Shared,
    msgid: u32,
) -> Option<tokio::sync::oneshot::Sender<crate::pending::Response>> {
    let mut pending = shared.pending.lock().expect("never poisoned");
    let full = pending.is_full();
    let waiting = pending.answer(msgid);
    if full && waiting.is_some() {
        shared.room.notify_one();
    }
    waiting
}

/// Runs a handler that did not answer at once, in a task holding `slot`.
fn spawn_handler(
    answering: &TaskTracker,
    answer: BoxFuture<Option<Report>>,
    slot: OwnedSemaphorePermit,
    report: ReportFn,
) {
    answering.spawn(async move {
        if let Some(problem) = answer.await {
            report(problem);
        }
        drop(slot);
    });
}

/// Starts the parked requests in the order they came, each once a
/// handler slot is free; its room is given back as it starts.
async fn start_parked(
    mut queue: mpsc::UnboundedReceiver<Parked>,
    handler_slots: Arc<Semaphore>,
    parked: Arc<AtomicUsize>,
    outgoing: Arc<Outgoing>,
    report: ReportFn,
    answering: TaskTracker,
) {
    while let Some(request) = queue.recv().await {
        let Ok(slot) = Arc::clone(&handler_slots).acquire_owned().await else {
            break;
        };
        let answer = (request.handler)(request.msgid, request.params, Arc::clone(&outgoing));
        drop(request.room);
        parked.fetch_sub(1, Ordering::AcqRel);
        spawn_handler(&answering, answer, slot, Arc::clone(&report));
    }
}

/// Runs notification handlers one after another, in arrival order,
/// until the queue ends or the connection closes.
async fn notification_loop(
    mut queue: mpsc::UnboundedReceiver<Queued>,
    report: ReportFn,
    closed: CancellationToken,
) {
    loop {
        let queued = tokio::select! {
            biased;
            () = closed.cancelled() => return,
            queued = queue.recv() => match queued {
                Some(queued) => queued,
                None => return,
            },
        };
        if let Some(problem) = (queued.handler)(queued.params).await {
            report(problem);
        }
    }
}
