//! The task that writes a connection's outgoing messages.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio_util::sync::CancellationToken;

use crate::outgoing::Outgoing;

/// The buffer capacity a writer keeps between batches; a larger batch's
/// is given back once written.
const KEPT_CAPACITY: usize = 64 << 10;

/// Writes the queued messages in batches, one write and one flush a
/// batch (see [`Outgoing::take`]), until the queue closes; then what is
/// queued is still written, for at most `close_timeout` after `closed` is
/// cancelled, and the stream is shut down and dropped. A failed write
/// closes the connection.
///
/// A batch is written whole or, past the timeout, the stream is dropped
/// with it, not followed by the next one.
pub(crate) async fn write_loop<W: AsyncWrite + Unpin>(
    mut writer: W,
    outgoing: Arc<Outgoing>,
    closed: CancellationToken,
    close_timeout: Duration,
) {
    let writing = async {
        let mut batch = Vec::new();
        loop {
            let taken = outgoing.take(&mut batch).await;
            if taken.messages > 0
                && (writer.write_all(&batch).await.is_err() || writer.flush().await.is_err())
            {
                return;
            }
            if taken.last {
                let _ = writer.shutdown().await;
                return;
            }
            batch.clear();
            batch.shrink_to(KEPT_CAPACITY);
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
    // Whether the queue closed or a write failed, nothing more is sent.
    outgoing.close();
    closed.cancel();
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::io;
    use std::pin::Pin;
    use std::sync::Mutex;
    use std::task::{Context, Poll};

    /// A stream that records each write it is given.
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
        let outgoing = Arc::new(Outgoing::new(64));
        for message in first {
            outgoing.push(copy(message)).unwrap();
        }
        let writer = tokio::spawn(write_loop(
            writes.clone(),
            Arc::clone(&outgoing),
            CancellationToken::new(),
            Duration::from_secs(1),
        ));
        let mut tasks = Vec::new();
        for messages in later {
            let outgoing = Arc::clone(&outgoing);
            tasks.push(tokio::spawn(async move {
                for message in messages {
                    outgoing.send(copy(message)).await.unwrap();
                }
            }));
        }
        for task in tasks {
            task.await.unwrap();
        }
        outgoing.close();
        writer.await.unwrap();
        let writes = writes.0.lock().unwrap().clone();
        writes
    }

    fn copy(message: &[u8]) -> impl FnOnce(&mut Vec<u8>) -> Result<(), ()> + '_ {
        move |queue: &mut Vec<u8>| {
            queue.extend_from_slice(message);
            Ok(())
        }
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
