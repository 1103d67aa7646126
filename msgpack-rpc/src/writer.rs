//! The task that writes a connection's outgoing messages.

use std::time::Duration;

use tokio::io::{AsyncWrite, AsyncWriteExt, BufWriter};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Writes queued messages in batches, one flush a batch, until every
/// sender is gone or the connection closes; then what is queued is still
/// written, for at most `close_timeout` after the close, and the stream
/// is shut down and dropped. A failed write closes the connection.
///
/// A batch is what the queue holds once the first message is written.
/// When that is more than one message the connection is busy, and the
/// writer yields once before flushing, so that tasks about to queue (a
/// reading task answering the requests of one read, callers woken by
/// their responses) join the batch: a busy connection makes fewer,
/// larger writes. A lone message is flushed at once, so a single call
/// waits for no other task.
///
/// The close is watched only between batches, never during a write: a
/// message is written whole or, past the timeout, the stream is dropped
/// with it, not followed by the next one.
pub(crate) async fn write_loop<W: AsyncWrite + Unpin>(
    writer: W,
    mut queue: mpsc::Receiver<Vec<u8>>,
    closed: CancellationToken,
    close_timeout: Duration,
) {
    let writing = async {
        let mut writer = BufWriter::with_capacity(64 << 10, writer);
        let mut failed = false;
        // One future for the whole loop, not one per batch.
        let mut closing = std::pin::pin!(closed.cancelled());
        loop {
            let bytes = tokio::select! {
                biased;
                bytes = queue.recv() => bytes,
                () = &mut closing => None,
            };
            let Some(bytes) = bytes else { break };
            failed = writer.write_all(&bytes).await.is_err();
            let mut batch = Batch::default();
            failed = failed || batch.write_queued(&mut writer, &mut queue).await;
            if !failed && batch.messages > 0 {
                tokio::task::yield_now().await;
                failed = batch.write_queued(&mut writer, &mut queue).await;
            }
            failed = failed || writer.flush().await.is_err();
            if failed {
                break;
            }
        }
        // Closing: nothing more is accepted; what is queued is written.
        closed.cancel();
        queue.close();
        if !failed && !Batch::default().write_queued(&mut writer, &mut queue).await {
            let _ = writer.shutdown().await;
        }
    };
    let given_up = async {
        closed.cancelled().await;
        tokio::time::sleep(close_timeout).await;
    };
    tokio::select! {
        () = writing => {}
        () = given_up => {}
    }
}

/// The messages written after a batch's first.
#[derive(Default)]
struct Batch {
    messages: usize,
}

impl Batch {
    /// Writes what the queue holds now, without waiting; `true` when a
    /// write failed.
    async fn write_queued<W: AsyncWrite + Unpin>(
        &mut self,
        writer: &mut BufWriter<W>,
        queue: &mut mpsc::Receiver<Vec<u8>>,
    ) -> bool {
        while let Ok(bytes) = queue.try_recv() {
            if writer.write_all(&bytes).await.is_err() {
                return true;
            }
            self.messages += 1;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::io;
    use std::pin::Pin;
    use std::sync::{Arc, Mutex};
    use std::task::{Context, Poll};

    /// A stream that records each write it is given (a flush of the
    /// `BufWriter` is one write here).
    #[derive(Clone, Default)]
    struct Writes(Arc<Mutex<Vec<Vec<u8>>>>);

    impl AsyncWrite for Writes {
        fn poll_write(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            self.0.lock().unwrap().push(buf.to_vec());
            Poll::Ready(Ok(buf.len()))
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }

        fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    /// Runs the writer with `first` queued before it starts and `later`
    /// queued by tasks spawned after it, one task a list; gives the writes.
    async fn written(first: &[&[u8]], later: Vec<Vec<&'static [u8]>>) -> Vec<Vec<u8>> {
        let writes = Writes::default();
        let (sender, queue) = mpsc::channel(64);
        for message in first {
            sender.try_send(message.to_vec()).unwrap();
        }
        let writer = tokio::spawn(write_loop(
            writes.clone(),
            queue,
            CancellationToken::new(),
            Duration::from_secs(1),
        ));
        let mut tasks = Vec::new();
        for messages in later {
            let sender = sender.clone();
            tasks.push(tokio::spawn(async move {
                for message in messages {
                    sender.send(message.to_vec()).await.unwrap();
                }
            }));
        }
        drop(sender);
        for task in tasks {
            task.await.unwrap();
        }
        writer.await.unwrap();
        let writes = writes.0.lock().unwrap().clone();
        writes
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_busy_connection_waits_one_yield_for_more_before_flushing() {
        // Two messages queued: a batch, so the writer yields, the task
        // queues its message, and all three go in one write.
        let writes = written(&[b"a", b"b"], vec![vec![b"c"]]).await;
        assert_eq!(writes, [b"abc".to_vec()]);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_lone_message_is_flushed_at_once() {
        // One message queued: flushed without yielding, before the task
        // queues the others.
        let writes = written(&[b"a"], vec![vec![b"b", b"c"]]).await;
        assert_eq!(writes, [b"a".to_vec(), b"bc".to_vec()]);
    }
}
