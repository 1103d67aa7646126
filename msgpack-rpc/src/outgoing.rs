//! The queue of a connection's outgoing messages: one buffer that callers
//! and handlers encode into, and the writer takes whole.

use std::sync::{Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;

/// The messages waiting to be written, encoded back to back in one
/// buffer, at most `max_messages` of them. Encoding straight into the
/// buffer costs no allocation and no copy per message; the writer swaps
/// the buffer for its empty one and writes the whole batch at once.
pub(crate) struct Outgoing {
    queue: Mutex<Queue>,
    /// Woken when the queue gets its first message, and on close: the
    /// writer waits on it.
    queued: Notify,
    /// Woken when the writer takes a full queue, and on close: senders
    /// wait on it.
    room: Notify,
    max_messages: usize,
}

struct Queue {
    bytes: Vec<u8>,
    messages: usize,
    closed: bool,
}

/// What [`Outgoing::push`] did with a message.
#[derive(Debug)]
pub(crate) enum Pushed {
    /// Queued.
    Queued,
    /// The queue is full: the message, encoded on its own, waits for
    /// [`Outgoing::push_encoded`].
    Full(Vec<u8>),
}

/// Why a message was not queued.
#[derive(Debug, PartialEq)]
pub(crate) enum Unsent<E> {
    /// The connection is closing: nothing more is accepted.
    Closed,
    /// The message did not encode; nothing of it was queued.
    Encode(E),
}

/// The connection is closing: nothing more is accepted.
#[derive(Debug, PartialEq)]
pub(crate) struct Closed;

impl<E> From<Closed> for Unsent<E> {
    fn from(_: Closed) -> Unsent<E> {
        Unsent::Closed
    }
}

/// What the writer took from the queue.
#[derive(Debug, PartialEq)]
pub(crate) struct Taken {
    /// How many messages the batch holds.
    pub(crate) messages: usize,
    /// Whether the queue is closed: this batch is the last.
    pub(crate) last: bool,
}

/// A message being appended: dropped before it is done (its encoding
/// failed or panicked), it takes its bytes back, so that the stream never
/// carries part of a message.
struct Appending<'a> {
    bytes: &'a mut Vec<u8>,
    start: usize,
}

impl Appending<'_> {
    /// The message is whole: its bytes stay.
    fn keep(self) {
        std::mem::forget(self);
    }
}

impl Drop for Appending<'_> {
    fn drop(&mut self) {
        self.bytes.truncate(self.start);
    }
}

/// What [`Outgoing::take`] does next.
enum Next {
    Take(Taken),
    Yield,
    Wait,
}

impl Outgoing {
    /// An empty queue of at most `max_messages` (at least one).
    pub(crate) fn new(max_messages: usize) -> Outgoing {
        Outgoing {
            queue: Mutex::new(Queue {
                bytes: Vec::new(),
                messages: 0,
                closed: false,
            }),
            queued: Notify::new(),
            room: Notify::new(),
            max_messages: max_messages.max(1),
        }
    }

    /// Queues the message `encode` appends, without waiting. When the
    /// queue is full the message is encoded into a buffer of its own and
    /// given back, for [`push_encoded`](Self::push_encoded) to wait with:
    /// so the caller holds no borrow of what it encodes while it waits.
    pub(crate) fn push<E>(
        &self,
        encode: impl FnOnce(&mut Vec<u8>) -> Result<(), E>,
    ) -> Result<Pushed, Unsent<E>> {
        let queue = self.lock();
        if queue.closed {
            return Err(Unsent::Closed);
        }
        if queue.messages >= self.max_messages {
            drop(queue);
            let mut bytes = Vec::new();
            encode(&mut bytes).map_err(Unsent::Encode)?;
            return Ok(Pushed::Full(bytes));
        }
        self.append(queue, encode).map_err(Unsent::Encode)?;
        Ok(Pushed::Queued)
    }

    /// Queues one encoded message, waiting while the queue is full.
    pub(crate) async fn push_encoded(&self, bytes: Vec<u8>) -> Result<(), Closed> {
        loop {
            // Listening before looking, so that room made between the
            // look and the wait is not missed.
            let room = self.room.notified();
            let mut room = std::pin::pin!(room);
            room.as_mut().enable();
            {
                let queue = self.lock();
                if queue.closed {
                    return Err(Closed);
                }
                if queue.messages < self.max_messages {
                    let copy = |queue: &mut Vec<u8>| {
                        queue.extend_from_slice(&bytes);
                        Ok::<(), Closed>(())
                    };
                    return self.append(queue, copy);
                }
            }
            room.await;
        }
    }

    /// Appends one message to a queue with room; a message that fails to
    /// encode leaves nothing behind.
    fn append<E>(
        &self,
        mut queue: MutexGuard<'_, Queue>,
        encode: impl FnOnce(&mut Vec<u8>) -> Result<(), E>,
    ) -> Result<(), E> {
        let message = Appending {
            start: queue.bytes.len(),
            bytes: &mut queue.bytes,
        };
        encode(message.bytes)?;
        message.keep();
        queue.messages += 1;
        let first = queue.messages == 1;
        drop(queue);
        if first {
            self.queued.notify_one();
        }
        Ok(())
    }

    /// The queue, locked. A lock poisoned by an `encode` that panicked is
    /// taken all the same: [`Appending`] took the message's bytes back.
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues the message `encode` appends, waiting while the queue is
    /// full.
    pub(crate) async fn send<E>(
        &self,
        encode: impl FnOnce(&mut Vec<u8>) -> Result<(), E>,
    ) -> Result<(), Unsent<E>> {
        match self.push(encode)? {
            Pushed::Queued => Ok(()),
            Pushed::Full(bytes) => Ok(self.push_encoded(bytes).await?),
        }
    }

    /// Waits for messages or the close, then swaps the queue's buffer
    /// with `batch` (which must be empty). When more than one message is
    /// waiting the connection is busy: the writer yields once first, so
    /// that tasks about to queue (a reading task answering the requests
    /// of one read, callers woken by their responses) join the batch, and
    /// a busy connection makes fewer, larger writes. A lone message is
    /// taken at once, so a single call waits for no other task.
    pub(crate) async fn take(&self, batch: &mut Vec<u8>) -> Taken {
        debug_assert!(batch.is_empty());
        let mut yielded = false;
        loop {
            let queued = self.queued.notified();
            let next = {
                let mut queue = self.lock();
                if queue.messages == 0 && !queue.closed {
                    Next::Wait
                } else if queue.messages > 1 && !queue.closed && !yielded {
                    Next::Yield
                } else {
                    std::mem::swap(&mut queue.bytes, batch);
                    Next::Take(Taken {
                        messages: std::mem::take(&mut queue.messages),
                        last: queue.closed,
                    })
                }
            };
            match next {
                Next::Take(taken) => {
                    if taken.messages >= self.max_messages {
                        self.room.notify_waiters();
                    }
                    return taken;
                }
                Next::Yield => {
                    yielded = true;
                    tokio::task::yield_now().await;
                }
                // A permit left by a push the last take already took only
                // brings the writer round the loop once more.
                Next::Wait => queued.await,
            }
        }
    }

    /// Accepts nothing more; what is queued is still taken, the last
    /// batch. Senders waiting for room get [`Unsent::Closed`].
    pub(crate) fn close(&self) {
        self.lock().closed = true;
        self.queued.notify_one();
        self.room.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::sync::Arc;

    fn byte(b: u8) -> impl FnOnce(&mut Vec<u8>) -> Result<(), ()> {
        move |queue: &mut Vec<u8>| {
            queue.push(b);
            Ok(())
        }
    }

    #[tokio::test(flavor = "current_thread")]
    async fn messages_are_taken_whole_in_order() {
        let outgoing = Outgoing::new(8);
        for b in [1, 2, 3] {
            assert!(matches!(outgoing.push(byte(b)), Ok(Pushed::Queued)));
        }
        let mut batch = Vec::new();
        let taken = outgoing.take(&mut batch).await;
        assert_eq!(
            (batch, taken),
            (
                vec![1, 2, 3],
                Taken {
                    messages: 3,
                    last: false
                }
            )
        );
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_message_that_fails_to_encode_leaves_nothing_queued() {
        let outgoing = Outgoing::new(8);
        outgoing.push(byte(1)).unwrap();
        let failed = outgoing.push(|queue: &mut Vec<u8>| {
            queue.extend_from_slice(b"half");
            Err("no")
        });
        assert!(matches!(failed, Err(Unsent::Encode("no"))));
        let mut batch = Vec::new();
        assert_eq!(outgoing.take(&mut batch).await.messages, 1);
        assert_eq!(batch, [1]);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_full_queue_gives_the_message_back_and_a_take_makes_room() {
        let outgoing = Arc::new(Outgoing::new(2));
        outgoing.push(byte(1)).unwrap();
        outgoing.push(byte(2)).unwrap();
        let Ok(Pushed::Full(bytes)) = outgoing.push(byte(3)) else {
            panic!("the queue has room for two")
        };
        assert_eq!(bytes, [3]);
        let waiting = tokio::spawn({
            let outgoing = Arc::clone(&outgoing);
            async move { outgoing.push_encoded(bytes).await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "it waits for room");
        let mut batch = Vec::new();
        outgoing.take(&mut batch).await;
        assert_eq!(batch, [1, 2]);
        waiting.await.unwrap().unwrap();
        batch.clear();
        outgoing.take(&mut batch).await;
        assert_eq!(batch, [3]);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn after_close_nothing_is_accepted_and_waiting_senders_are_refused() {
        let outgoing = Arc::new(Outgoing::new(1));
        outgoing.push(byte(1)).unwrap();
        let waiting = tokio::spawn({
            let outgoing = Arc::clone(&outgoing);
            async move { outgoing.send(byte(2)).await }
        });
        tokio::task::yield_now().await;
        outgoing.close();
        assert_eq!(waiting.await.unwrap(), Err(Unsent::Closed));
        assert!(matches!(outgoing.push(byte(3)), Err(Unsent::Closed)));
        // What was queued before the close is the last batch.
        let mut batch = Vec::new();
        let taken = outgoing.take(&mut batch).await;
        assert_eq!(
            (batch, taken),
            (
                vec![1],
                Taken {
                    messages: 1,
                    last: true
                }
            )
        );
    }

    /// Takes a batch onto the end of `written`; how many messages it held.
    async fn take(outgoing: &Outgoing, written: &mut Vec<u8>) -> usize {
        let mut batch = Vec::new();
        let taken = outgoing.take(&mut batch).await;
        written.append(&mut batch);
        taken.messages
    }

    proptest::proptest! {
        /// Whatever mix of messages, failed encodings, full queues and
        /// takes, the batches written are the messages queued, whole and
        /// in order.
        #[test]
        fn the_batches_are_the_queued_messages_in_order(
            steps in proptest::collection::vec(
                (proptest::collection::vec(proptest::num::u8::ANY, 0..6), 0..4u8),
                0..40,
            ),
        ) {
            let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
            runtime.block_on(async {
                let outgoing = Outgoing::new(3);
                let (mut written, mut expected) = (Vec::new(), Vec::new());
                for (message, action) in steps {
                    // 0: an encoding that writes part, then fails; 1: a
                    // take; otherwise a message.
                    let fails = action == 0;
                    let encode = |out: &mut Vec<u8>| {
                        out.extend_from_slice(&message);
                        if fails { Err(()) } else { Ok(()) }
                    };
                    if action == 1 {
                        if outgoing.lock().messages > 0 {
                            take(&outgoing, &mut written).await;
                        }
                        continue;
                    }
                    match outgoing.push(encode) {
                        Ok(Pushed::Queued) => expected.extend_from_slice(&message),
                        Ok(Pushed::Full(bytes)) => {
                            proptest::prop_assert_eq!(take(&outgoing, &mut written).await, 3);
                            outgoing.push_encoded(bytes).await.unwrap();
                            expected.extend_from_slice(&message);
                        }
                        Err(error) => proptest::prop_assert!(fails && error == Unsent::Encode(())),
                    }
                }
                outgoing.close();
                take(&outgoing, &mut written).await;
                proptest::prop_assert_eq!(written, expected);
                Ok(())
            })?;
        }
    }

    #[tokio::test(flavor = "current_thread")]
    async fn the_writer_waits_for_the_first_message() {
        let outgoing = Arc::new(Outgoing::new(4));
        let writer = tokio::spawn({
            let outgoing = Arc::clone(&outgoing);
            async move {
                let mut batch = Vec::new();
                outgoing.take(&mut batch).await;
                batch
            }
        });
        tokio::task::yield_now().await;
        assert!(!writer.is_finished(), "nothing to take yet");
        outgoing.push(byte(7)).unwrap();
        assert_eq!(writer.await.unwrap(), [7]);
    }
}
